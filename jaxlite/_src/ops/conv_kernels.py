"""Window shapes and argument checks (``reduce_window``, convolutions), and the NumPy
kernels of complex and one-product convolutions with XLA:CPU's roundings and signs of zero
(``convolution.conv_general_dilated_p``'s impl calls them)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from jaxlite._src.ops import xla_fma


class ConvDimensionNumbers(NamedTuple):
    """``jax.lax.ConvDimensionNumbers``: index tuples (batch/feature/spatial...)."""

    lhs_spec: tuple
    rhs_spec: tuple
    out_spec: tuple


def gauss_conv(conv, lhs, rhs, out_dtype):
    """A complex convolution as JAX lowers it on CPU: three real convolutions (Gauss's
    product, k1 = (xr + xi) * kr, k2 = xr * (ki - kr), k3 = xi * (kr + ki)), then
    ``k1 - k3 + (k1 + k2) j``; ``conv`` is the real convolution."""
    xr, xi, kr, ki = lhs.real, lhs.imag, rhs.real, rhs.imag
    k1, k2, k3 = conv(xr + xi, kr), conv(xr, ki - kr), conv(xi, kr + ki)
    out = np.empty(k1.shape, out_dtype)
    out.real, out.imag = k1 - k3, k1 + k2
    return out


def one_product_complex(patches, rhs, g, out_sp, out_dtype):
    """``gauss_conv`` where each output is one product: where XLA keeps the products
    (``one_product_conv``'s rule) it fuses them, contracting the two one-use products into
    the sums (``fma(-xi, kr + ki, k1)``, ``fma(xr, ki - kr, k1)``); elsewhere each real
    convolution's GEMM adds its product to +0.0."""
    n_batch, o = patches.shape[0], rhs.shape[0]
    og = o // g
    pg = patches.reshape((n_batch, g, 1) + out_sp)
    rg = rhs.reshape((1, g, og) + (1,) * len(out_sp))
    xr, xi, kr, ki = pg.real, pg.imag, rg.real, rg.imag
    positions = n_batch * int(np.prod(out_sp, dtype=np.int64))
    out = np.empty(np.broadcast_shapes(pg.shape, rg.shape), out_dtype)
    with np.errstate(all="ignore"):
        k1 = (xr + xi) * kr
        if og > 1 and not (g == 1 and positions == 1 and o <= 7):
            k1 = k1 + 0
            out.real = k1 - (xi * (kr + ki) + 0)
            out.imag = k1 + (xr * (ki - kr) + 0)
        else:
            fma = xla_fma.fma32 if k1.dtype == np.float32 else xla_fma.fma64_any
            out.real = fma(-xi, kr + ki, k1)
            out.imag = fma(xr, ki - kr, k1)
    return out.reshape((n_batch, o) + out_sp)


def plain_geometry(lhs_shape, window_strides, padding, lhs_dilation, rhs_dilation):
    """Whether a 1x..x1-kernel convolution is a plain product of its input: unit strides,
    no padding, no dilation (XLA:CPU then computes such a convolution as the products
    themselves; any other geometry goes through a kernel that adds each product to +0.0,
    except, of 1,152 geometries probed, an ungrouped rhs-dilated one of a single 1x1
    input, which keeps -0.0)."""
    del lhs_shape
    return (
        all(s == 1 for s in window_strides)
        and all(lo == hi == 0 for lo, hi in padding)
        and all(d == 1 for d in lhs_dilation)
        and all(d == 1 for d in rhs_dilation)
    )


def one_product_conv(patches, rhs, g, out_sp, acc, out_dtype, plain=True):
    """A convolution whose outputs are each one product (one input feature per group, a
    1x..x1 kernel), with XLA:CPU's signs of zero: the product itself (``-0.0 * 1`` is
    ``-0.0``) where a group has one output feature, or a single output position has up
    to seven (ungrouped); elsewhere, and whenever the geometry is not ``plain``
    (``plain_geometry``), its kernel adds the product to ``+0.0``. NumPy's einsum gave the
    sign of its own summation."""
    n_batch, o = patches.shape[0], rhs.shape[0]
    og = o // g
    pg = patches.reshape((n_batch, g, 1) + out_sp).astype(acc, copy=False)
    rg = rhs.reshape((1, g, og) + (1,) * len(out_sp)).astype(acc, copy=False)
    out = pg * rg
    positions = n_batch * int(np.prod(out_sp, dtype=np.int64))
    if not plain or (og > 1 and not (g == 1 and positions == 1 and o <= 7)):
        out += 0
    return np.asarray(out.reshape((n_batch, o) + out_sp), dtype=out_dtype)


def _dilated(n, d):
    return 0 if n == 0 else (n - 1) * d + 1


def conv_shape(lhs_shape, rhs_shape, window_strides, padding, lhs_dilation, rhs_dilation):
    """The output shape of a convolution of ``lhs_shape`` (N, C, ...) with ``rhs_shape``
    (O, I, ...)."""
    sp = []
    for n, k, s, (lo, hi), ld, rd in zip(
        lhs_shape[2:], rhs_shape[2:], window_strides, padding, lhs_dilation, rhs_dilation
    ):
        n_eff = _dilated(n, ld) + lo + hi
        w = _dilated(k, rd)
        sp.append(max(0, (n_eff - w) // s + 1) if n_eff >= w else 0)
    return (lhs_shape[0], rhs_shape[0]) + tuple(sp)


def kept_products(lhs_shape, rhs_shape, g, bg, params):
    """Whether XLA:CPU computes each output of this convolution (shapes in N, C, ... / O,
    I, ... layout) as one product that it keeps (``one_product_conv``'s rule; a complex
    one is then fused with FMAs, ``one_product_complex``)."""
    (n, c, *_), (o, _, *ksz) = lhs_shape, rhs_shape
    if bg != 1 or c != g or any(k != 1 for k in ksz):
        return False
    p = params
    out = conv_shape(
        lhs_shape, rhs_shape, p["window_strides"], p["padding"], p["lhs_dilation"],
        p["rhs_dilation"],
    )  # fmt: skip
    positions = n * int(np.prod(out[2:], dtype=np.int64))
    return o // g == 1 or (g == 1 and positions == 1 and o <= 7)


def padtype_to_pads(in_shape, window_shape, window_strides, padding):
    """``jax.lax.padtype_to_pads``: explicit (lo, hi) pairs for "SAME"/"VALID"."""
    if isinstance(padding, str):
        p = padding.upper()
        if p == "VALID":
            return [(0, 0)] * len(in_shape)
        if p in ("SAME", "SAME_LOWER"):
            pads = []
            for n, k, s in zip(in_shape, window_shape, window_strides):
                out = -(-n // s)
                total = max((out - 1) * s + k - n, 0)
                lo = total // 2 if p == "SAME" else -(-total // 2)
                pads.append((lo, total - lo))
            return pads
        raise ValueError(f"Unknown padding type: {padding}.")
    return [(int(lo), int(hi)) for lo, hi in padding]


def check_window_args(shape, wd, ws, bd, wdil):
    # JAX's checks, in its order and words
    for name, v, low in (
        ("window_dimensions", wd, 1),
        ("window_strides", ws, 1),
        ("base_dilation", bd, 0),
        ("window_dilation", wdil, 0),
    ):
        if any(d < low for d in v):
            bound = "strictly positive" if low else "nonnegative"
            raise TypeError(f"reduce_window {name} must have every element be {bound}, got {v}.")
    if len(shape) != len(wd):
        raise TypeError(
            "reduce_window got the wrong number of window_dimensions for operand: got operand "
            f"shape {shape} with window_dimensions {wd}."
        )
    for name, v in (("window_strides", ws), ("base_dilation", bd), ("window_dilation", wdil)):
        if len(v) != len(wd):
            raise TypeError(
                f"reduce_window got inconsistent {name} and window_dimensions: got {name} {v} "
                f"and window_dimensions {wd}."
            )
    for v in (bd, wdil):  # the output shape dilates the operand and the window
        if any(d <= 0 for d in v):
            raise TypeError(f"All dilations must be positive, got {v}.")


# The largest patch matrix (output positions x window elements) one GEMM gets: NumPy's
# einsum copies the strided patch view into it, which for a 3-D convolution is the input
# times the kernel's volume (haiku's ConvNDTranspose test: 8 GiB).
PATCH_BLOCK_BYTES = 1 << 27


def patch_einsum(expr, patches, kernel, acc, spatial_axis):
    """``np.einsum(expr, patches, kernel)`` in ``acc``, in blocks of the batch axis (and,
    where one batch element is still too large, of the first output spatial axis, which
    is ``spatial_axis`` of both ``patches`` and the result) so that no block's patch
    matrix exceeds ``PATCH_BLOCK_BYTES``. Only such large convolutions are split, into
    GEMMs of thousands of rows; OpenBLAS may block a GEMM of another row count differently,
    so their sums can differ from one call's in the last bits (XLA's differ too)."""
    block_bytes = PATCH_BLOCK_BYTES
    kernel = kernel.astype(acc, copy=False)
    item = np.dtype(acc).itemsize
    n = patches.shape[0]

    def one(block):
        return np.einsum(expr, block.astype(acc, copy=False), kernel, optimize=True)

    per_item = (patches.size // n if n else 0) * item
    if n == 0 or patches.size * item <= block_bytes:
        return one(patches)
    if per_item <= block_bytes:
        step = block_bytes // per_item
        return np.concatenate([one(patches[i : i + step]) for i in range(n)[::step]], axis=0)
    rows = patches.shape[spatial_axis]
    step = max(1, block_bytes // max(1, per_item // rows))
    lead = (slice(None),) * spatial_axis
    out = []
    for i in range(n):
        item_patches = patches[i : i + 1]
        parts = [one(item_patches[lead + (slice(j, j + step),)]) for j in range(rows)[::step]]
        out.append(np.concatenate(parts, axis=spatial_axis))
    return np.concatenate(out, axis=0)


def masked_tap_conv(patches, valid, rhs, g, acc):
    """A convolution summed one kernel tap at a time, each tap's term set to 0 at the
    output positions where it falls on padding or lhs-dilation zeros (``valid``: out...,
    k..., True on real input elements): XLA adds nothing there, so a non-finite kernel
    entry does not meet a padding zero (``0 * inf`` is NaN). For the rare convolutions
    with a non-finite kernel and padding; ``patches`` N, C, out..., k...; ``rhs`` O, I, k..."""
    n_batch, c = patches.shape[:2]
    nsp = rhs.ndim - 2
    out_sp = patches.shape[2 : 2 + nsp]
    o = rhs.shape[0]
    cg, og = c // g, o // g
    out = np.zeros((n_batch, g, og) + out_sp, acc)
    for k in np.ndindex(*rhs.shape[2:]):
        tap = patches[(Ellipsis,) + k].astype(acc, copy=False)  # N, C, out...
        tap = tap.reshape((n_batch, g, cg) + out_sp)
        w = rhs[(Ellipsis,) + k].astype(acc, copy=False).reshape(g, og, cg)
        term = np.einsum("ngc...,goc->ngo...", tap, w)
        out += np.where(valid[(Ellipsis,) + k], term, 0)
    return out.reshape((n_batch, o) + out_sp)
