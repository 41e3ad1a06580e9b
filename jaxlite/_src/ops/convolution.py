"""``conv_general_dilated`` and its public wrappers (``conv``, ``conv_with_general_padding``,
``conv_transpose``, ``conv_dimension_numbers``), moved from ``windowed.py`` (which keeps
``reduce_window``) when the session-23 hunt's checks grew it past 800 lines.

``conv_general_dilated_p`` is one primitive in the canonical layout (lhs ``N C spatial...``,
rhs ``O I spatial...``, out ``N C spatial...``); the public wrapper transposes other
``dimension_numbers`` into it. Its kernel is NumPy sliding windows + ``einsum``
(``conv_kernels.py``). It is bilinear: the JVP applies it to each tangent and the transpose
rules are themselves convolutions (derivation in ``_conv_transpose_lhs``/``_conv_transpose_rhs``).
"""

from __future__ import annotations

import operator

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import rules, sharding_hooks
from jaxlite._src.core.array import to_array
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero, is_undefined_primal, not_mapped
from jaxlite._src.ops import (
    contract_types,
    conversion,
    elementwise as ew,
    shape as _sh,
)
from jaxlite._src.ops._factories import defjvp
from jaxlite._src.ops.conv_kernels import (  # noqa: F401 (padtype_to_pads: lax's too)
    ConvDimensionNumbers,
    conv_shape as _conv_shape,
    gauss_conv,
    kept_products,
    masked_tap_conv,
    one_product_complex,
    one_product_conv,
    padtype_to_pads,
    patch_einsum,
    plain_geometry,
)
from jaxlite._src.ops.precision import check_precision
from jaxlite._src.ops.windowed import _dilate_len

# --------------------------------------------------------------- conv_general_dilated
conv_general_dilated_p = Primitive("conv_general_dilated")


def _dilate_pad(x, padding, lhs_dilation):
    """The lhs with its dilation's interior zeros and its padding (negative entries crop)."""
    if any(d > 1 for d in lhs_dilation):
        shape = list(x.shape[:2]) + [_dilate_len(n, d) for n, d in zip(x.shape[2:], lhs_dilation)]
        y = np.zeros(shape, x.dtype)
        y[(slice(None), slice(None)) + tuple(slice(None, None, d) for d in lhs_dilation)] = x
        x = y
    # Positive padding first, then negative padding crops the padded input (cropping
    # first read a crop past the input's end as a negative slice bound: a wrong size)
    x = np.pad(x, [(0, 0), (0, 0)] + [(max(lo, 0), max(hi, 0)) for lo, hi in padding])
    crop = tuple(slice(max(-lo, 0), n - max(-hi, 0)) for (lo, hi), n in zip(padding, x.shape[2:]))
    return x[(slice(None), slice(None)) + crop]


def _windows(x, win, out_sp, window_strides, rhs_dilation):
    """The windows of the (dilated, padded) lhs: N, C, out..., k..."""
    nsp = x.ndim - 2
    views = np.lib.stride_tricks.sliding_window_view(x, win, axis=tuple(range(2, 2 + nsp)))
    sel = (slice(None), slice(None))
    sel += tuple(slice(0, m * s, s) for m, s in zip(out_sp, window_strides))
    sel += tuple(slice(None, None, d) for d in rhs_dilation)
    return views[sel]


def _padded(padding, lhs_dilation):
    return any(lo > 0 or hi > 0 for lo, hi in padding) or any(d > 1 for d in lhs_dilation)


def _spatial_patches(valid, padding, lhs_dilation, win, out_sp, window_strides, rhs_dilation):
    return _windows(
        _dilate_pad(valid, padding, lhs_dilation), win, out_sp, window_strides, rhs_dilation
    )


def _conv_impl(
    lhs,
    rhs,
    *,
    window_strides,
    padding,
    lhs_dilation,
    rhs_dilation,
    feature_group_count,
    preferred_element_type,
):
    nsp = lhs.ndim - 2
    out_dtype = np.dtype(preferred_element_type or lhs.dtype)
    if not dtypes.is_complex(lhs.dtype) and contract_types.needs_rule(lhs.dtype, out_dtype):
        # XLA:CPU's element types (ops/contract_types.py): float8/bfloat16/float16 are
        # summed in float32, bfloat16 -> float16 rounds the bfloat16 result.
        def kernel(a, b):
            return _conv_impl(
                a, b, window_strides=window_strides, padding=padding,
                lhs_dilation=lhs_dilation, rhs_dilation=rhs_dilation,
                feature_group_count=feature_group_count, preferred_element_type=None,
            )  # fmt: skip

        return contract_types.contract(kernel, lhs, rhs, out_dtype)
    one_product = lhs.shape[1] == feature_group_count and all(k == 1 for k in rhs.shape[2:])
    if np.dtype(lhs.dtype).kind == "c" and not one_product:
        params = dict(window_strides=window_strides, padding=padding, lhs_dilation=lhs_dilation)
        params.update(rhs_dilation=rhs_dilation, feature_group_count=feature_group_count)
        real = None if preferred_element_type is None else np.empty(0, out_dtype).real.dtype
        return gauss_conv(
            lambda a, b: _conv_impl(a, b, preferred_element_type=real, **params),
            lhs,
            rhs,
            out_dtype,
        )
    x = _dilate_pad(lhs, padding, lhs_dilation)
    ksz = rhs.shape[2:]
    win = tuple(_dilate_len(k, d) for k, d in zip(ksz, rhs_dilation))
    out_sp = tuple(max(0, (n - w) // s + 1) for n, w, s in zip(x.shape[2:], win, window_strides))
    n_batch, c = x.shape[:2]
    o = rhs.shape[0]
    if min(out_sp + (n_batch, o)) == 0 or min(x.shape[2:], default=1) < min(win, default=0):
        return np.zeros((n_batch, o) + out_sp, out_dtype)
    patches = _windows(x, win, out_sp, window_strides, rhs_dilation)  # N, C, out..., k...
    g = feature_group_count
    letters = "abdefhijklm"[:nsp]  # spatial labels: never n, c, o or g
    kl = "pqrstuvwxyz"[:nsp]
    acc = np.result_type(out_dtype, lhs.dtype)
    if acc.type.__module__ == "ml_dtypes":
        # NumPy's einsum has no loops for bfloat16 / float8 (it raised TypeError); accumulate
        # in float32, then round to the result type, as XLA's CPU convolution does.
        acc = np.dtype(np.float32)
    if _padded(padding, lhs_dilation) and not np.isfinite(rhs).all():
        # XLA's padding and lhs-dilation zeros are absent, not multiplied: an infinite or
        # NaN kernel entry over them adds nothing (0 * inf here would be NaN)
        valid = np.ones((1, 1) + lhs.shape[2:], bool)
        valid = _spatial_patches(
            valid, padding, lhs_dilation, win, out_sp, window_strides, rhs_dilation
        )
        out = masked_tap_conv(patches, valid[0, 0], rhs, g, acc)
        return np.asarray(out, dtype=out_dtype)
    if c == g and all(k == 1 for k in ksz) and np.dtype(acc).kind == "f":
        plain = plain_geometry(lhs.shape, window_strides, padding, lhs_dilation, rhs_dilation)
        return one_product_conv(patches, rhs, g, out_sp, acc, out_dtype, plain)
    if c == g and all(k == 1 for k in ksz) and np.dtype(acc).kind == "c":
        return one_product_complex(patches, rhs, g, out_sp, out_dtype)
    if g == 1:
        out = patch_einsum(f"nc{letters}{kl},oc{kl}->no{letters}", patches, rhs, acc, 2)
    else:
        cg, og = c // g, o // g
        pg = patches.reshape((n_batch, g, cg) + patches.shape[2:])
        rg = rhs.reshape((g, og) + rhs.shape[1:])
        expr = f"ngc{letters}{kl},goc{kl}->ngo{letters}"
        out = patch_einsum(expr, pg, rg, acc, 3)
        out = out.reshape((n_batch, o) + out.shape[3:])
    return np.asarray(out, dtype=out_dtype)


def _one_position_products(out, rhs, any_positions=False):
    """Whether each output of a real-float convolution is one product (so XLA's choice of
    kernel decides the sign of a zero result), at one output position unless
    ``any_positions``."""
    positions = int(np.prod(out.shape[2:], dtype=np.int64)) * out.shape[0]
    return (
        dtypes.is_float(out.dtype)
        and (any_positions or positions == 1)
        and all(k == 1 for k in rhs.shape[1:])
    )


def _plus_zero(out):
    return ew.add(out, _sh.full((), 0, aval_of(out).dtype))


def _conv_abstract_eval(
    lhs,
    rhs,
    *,
    window_strides,
    padding,
    lhs_dilation,
    rhs_dilation,
    feature_group_count,
    preferred_element_type,
):
    if lhs.ndim != rhs.ndim or lhs.ndim < 2:
        raise TypeError(
            f"conv_general_dilated: lhs and rhs must have the same rank >= 2, got "
            f"shapes {lhs.shape} and {rhs.shape}"
        )
    if lhs.dtype != rhs.dtype:
        raise TypeError(
            "conv_general_dilated requires lhs and rhs to have the same dtype, "
            f"got {dtypes.short_name(lhs.dtype)} and "
            f"{dtypes.short_name(rhs.dtype)}"
        )
    g = feature_group_count
    if lhs.shape[1] != rhs.shape[1] * g:
        raise ValueError(
            f"conv_general_dilated: lhs feature dimension ({lhs.shape[1]}) must "
            f"equal rhs input feature dimension ({rhs.shape[1]}) times "
            f"feature_group_count ({g})"
        )
    if rhs.shape[0] % g:
        raise ValueError(
            "conv_general_dilated: rhs output feature dimension must be a "
            "multiple of feature_group_count"
        )
    shape = _conv_shape(lhs.shape, rhs.shape, window_strides, padding, lhs_dilation, rhs_dilation)
    # Weak when both operands are, as dot_general (and JAX's conv) do.
    return ShapedArray(shape, preferred_element_type or lhs.dtype, lhs.weak_type and rhs.weak_type)


def _conv_transpose_lhs(
    ct,
    rhs,
    lhs_aval,
    *,
    window_strides,
    padding,
    lhs_dilation,
    rhs_dilation,
    feature_group_count,
    preferred_element_type,
):
    # out[y] = sum_k D[y*s + k*rd] rhs[k] with D the dilated+padded lhs. Its transpose is a
    # correlation of ct (dilated by s) with the spatially flipped, I/O-swapped kernel, read
    # back at stride ld; the front padding (K-1)*rd - lo aligns output u with D[u + lo].
    if feature_group_count != 1:
        raise NotImplementedError("Transpose rule for grouped conv_general_dilated not implemented")
    ra = aval_of(rhs)
    nsp = len(ra.shape) - 2
    ct_shape = aval_of(ct).shape
    pads = []
    for i in range(nsp):
        L, K, Y = lhs_aval.shape[2 + i], ra.shape[2 + i], ct_shape[2 + i]
        s, ld, rd = window_strides[i], lhs_dilation[i], rhs_dilation[i]
        lo = padding[i][0]
        front = (K - 1) * rd - lo
        back = (L - 1) * ld + (K - 1) * rd - front - (Y - 1) * s
        pads.append((front, back))
    w = _sh.rev(_sh.transpose(rhs, (1, 0) + tuple(range(2, 2 + nsp))), tuple(range(2, 2 + nsp)))
    if aval_of(w).dtype != aval_of(ct).dtype:
        # a preferred_element_type's cotangent: the kernel joins it in its type (as JAX),
        # the result returns to the input's type below
        w = conversion.convert_element_type(w, aval_of(ct).dtype)
    out = conv_general_dilated_p.bind(
        ct,
        w,
        window_strides=tuple(lhs_dilation),
        padding=tuple(pads),
        lhs_dilation=tuple(window_strides),
        rhs_dilation=tuple(rhs_dilation),
        feature_group_count=1,
        preferred_element_type=None,
    )
    if aval_of(out).dtype != lhs_aval.dtype:
        out = conversion.convert_element_type(out, lhs_aval.dtype)
    return out


def _conv_transpose_rhs(
    ct,
    lhs,
    rhs_aval,
    *,
    window_strides,
    padding,
    lhs_dilation,
    rhs_dilation,
    feature_group_count,
    preferred_element_type,
):
    # ct_rhs[o, c, k] = sum_{n, y} ct[n, o, y] D[n, c, y*s + k*rd]: a convolution of the
    # (C, N, ...) lhs with the (O, N, ...) cotangent as kernel, window stride rd, kernel
    # dilation s; the high padding is trimmed so exactly K outputs remain.
    if feature_group_count != 1:
        raise NotImplementedError("Transpose rule for grouped conv_general_dilated not implemented")
    la = aval_of(lhs)
    nsp = len(la.shape) - 2
    ct_shape = aval_of(ct).shape
    pads = []
    for i in range(nsp):
        L, K, Y = la.shape[2 + i], rhs_aval.shape[2 + i], ct_shape[2 + i]
        s, ld, rd = window_strides[i], lhs_dilation[i], rhs_dilation[i]
        lo, hi = padding[i]
        d_len = _dilate_len(L, ld) + lo + hi
        surplus = d_len - ((Y - 1) * s + 1) - (K - 1) * rd
        pads.append((lo, hi - surplus))
    perm = (1, 0) + tuple(range(2, 2 + nsp))
    if la.dtype != aval_of(ct).dtype:  # (a preferred_element_type's cotangent, as above)
        lhs = conversion.convert_element_type(lhs, aval_of(ct).dtype)
    out = conv_general_dilated_p.bind(
        _sh.transpose(lhs, perm),
        _sh.transpose(ct, perm),
        window_strides=tuple(rhs_dilation),
        padding=tuple(pads),
        lhs_dilation=tuple(lhs_dilation),
        rhs_dilation=tuple(window_strides),
        feature_group_count=1,
        preferred_element_type=None,
    )
    out = _sh.transpose(out, perm)
    if aval_of(out).dtype != rhs_aval.dtype:
        out = conversion.convert_element_type(out, rhs_aval.dtype)
    return out


def _conv_transpose(ct, lhs, rhs, **params):
    if type(ct) is Zero:
        return [
            Zero(lhs.aval) if is_undefined_primal(lhs) else None,
            Zero(rhs.aval) if is_undefined_primal(rhs) else None,
        ]
    if 0 in aval_of(ct).shape:
        # no outputs: zero cotangents (the formulas below size a dilated cotangent of
        # length 0 as one of length 1, and gave wrongly shaped results)
        return [
            _sh.full(lhs.aval.shape, 0, lhs.aval.dtype) if is_undefined_primal(lhs) else None,
            _sh.full(rhs.aval.shape, 0, rhs.aval.dtype) if is_undefined_primal(rhs) else None,
        ]
    ct_l = ct_r = None
    if is_undefined_primal(lhs):
        ct_l = _conv_transpose_lhs(ct, rhs, lhs.aval, **params)
    if is_undefined_primal(rhs):
        ct_r = _conv_transpose_rhs(ct, lhs, rhs.aval, **params)
    return [ct_l, ct_r]


def _conv_batch(axis_data, args, dims, **params):
    (lhs, rhs), (dl, dr) = args, dims
    if dr is not_mapped:
        # Fold the batch axis into N.
        lhs = _sh.moveaxis(lhs, dl, 0)
        s = aval_of(lhs).shape
        merged = _sh.reshape(lhs, (s[0] * s[1],) + s[2:])
        out = conv_general_dilated_p.bind(merged, rhs, **params)
        os_ = aval_of(out).shape
        return _sh.reshape(out, (s[0], s[1]) + os_[1:]), 0
    if dl is not_mapped:
        # Fold the batch axis into the output features O (one convolution).
        rhs = _sh.moveaxis(rhs, dr, 0)
        s = aval_of(rhs).shape
        merged = _sh.reshape(rhs, (s[0] * s[1],) + s[2:])
        out = conv_general_dilated_p.bind(lhs, merged, **params)
        os_ = aval_of(out).shape
        return _sh.reshape(out, (os_[0], s[0], s[1]) + os_[2:]), 1
    return _sh._loop_batch(conv_general_dilated_p, axis_data, args, dims, params)


rules.impl_rules[conv_general_dilated_p] = _conv_impl
rules.abstract_eval_rules[conv_general_dilated_p] = _conv_abstract_eval
rules.transpose_rules[conv_general_dilated_p] = _conv_transpose
rules.batch_rules[conv_general_dilated_p] = _conv_batch
defjvp(
    conv_general_dilated_p,
    lambda t, lhs, rhs, **p: conv_general_dilated_p.bind(t, rhs, **p),
    lambda t, lhs, rhs, **p: conv_general_dilated_p.bind(lhs, t, **p),
)


def _specs_from_strings(lhs_s, rhs_s, out_s):
    """Index specs from layout strings. The spatial dimensions are taken in the order the
    kernel's string names them (as in JAX): ``window_strides``, ``padding`` and the
    dilations follow that order, e.g. ``("NHWDC", "HWDIO", "NHWDC")`` is H, W, D."""
    strings = (lhs_s, rhs_s, out_s)
    for i, (a, b) in enumerate((("N", "C"), ("O", "I"), ("N", "C"))):
        if not strings[i].count(a) == strings[i].count(b) == 1:
            raise TypeError(
                f"convolution dimension_numbers[{i}] must contain the characters '{a}' and "
                f"'{b}' exactly once, got {strings[i]}."
            )
        if len(strings[i]) != len(set(strings[i])):
            raise TypeError(
                f"convolution dimension_numbers[{i}] cannot have duplicate characters, "
                f"got {strings[i]}."
            )
    if not (set(lhs_s) - {"N", "C"} == set(rhs_s) - {"O", "I"} == set(out_s) - {"N", "C"}):
        raise TypeError(
            "convolution dimension_numbers elements must each have the same set of "
            f"spatial characters, got {strings}."
        )
    spatial = [c for c in rhs_s if c not in "OI"]
    lhs_spec = (lhs_s.index("N"), lhs_s.index("C")) + tuple(lhs_s.index(c) for c in spatial)
    rhs_spec = (rhs_s.index("O"), rhs_s.index("I")) + tuple(rhs_s.index(c) for c in spatial)
    out_spec = (out_s.index("N"), out_s.index("C")) + tuple(out_s.index(c) for c in spatial)
    return lhs_spec, rhs_spec, out_spec


def conv_dimension_numbers(lhs_shape, rhs_shape, dimension_numbers):
    """``jax.lax.conv_dimension_numbers``: a ``ConvDimensionNumbers`` of index tuples from
    None, layout strings or a ``ConvDimensionNumbers`` (returned as it is).

    Raises:
      TypeError: operands of different ranks, or dimension numbers that are not three
        strings of the operands' rank (JAX's checks, in its order and words).
    """
    if isinstance(dimension_numbers, ConvDimensionNumbers):
        return dimension_numbers
    nd = len(lhs_shape)
    if nd != len(rhs_shape):
        raise TypeError(
            f"convolution requires lhs and rhs ndim to be equal, got {nd} and {len(rhs_shape)}."
        )
    if dimension_numbers is None:
        canon = tuple(range(nd))
        return ConvDimensionNumbers(canon, canon, canon)
    if not isinstance(dimension_numbers, (list, tuple)):
        raise TypeError(
            "convolution dimension_numbers must be tuple/list or None, got "
            f"{type(dimension_numbers)}."
        )
    if len(dimension_numbers) != 3:
        raise TypeError(
            "convolution dimension_numbers list/tuple must be length 3, got "
            f"{len(dimension_numbers)}."
        )
    if not all(isinstance(e, str) for e in dimension_numbers):
        raise TypeError(
            "convolution dimension_numbers elements must be strings, got "
            f"{tuple(map(type, dimension_numbers))}."
        )
    for i, spec in enumerate(dimension_numbers):
        if len(spec) != nd:
            raise TypeError(
                f"convolution dimension_numbers[{i}] must have len equal to the ndim of "
                f"lhs and rhs, got {len(spec)} for lhs and rhs shapes {tuple(lhs_shape)} "
                f"and {tuple(rhs_shape)}."
            )
    return ConvDimensionNumbers(*_specs_from_strings(*dimension_numbers))


def _explicit_padding(padding):
    try:
        return tuple((operator.index(lo), operator.index(hi)) for lo, hi in padding)
    except (ValueError, TypeError) as e:
        raise ValueError(
            "padding argument to conv_general_dilated should be a string or a sequence of "
            f"(low, high) pairs, got {padding}"
        ) from e


def _check_conv(lhs, rhs, dnums, ws, pads, ld, rd, g, bg, pet):
    """JAX's checks of a convolution's operands (avals) and arguments, in its order and
    words (its shape rule, then its dtype rule), before any work is done."""
    lspec, rspec, _ = dnums
    if len(lhs.shape) != len(rhs.shape):
        raise ValueError(
            "conv_general_dilated lhs and rhs must have the same number of dimensions, but "
            f"got {lhs.shape} and {rhs.shape}."
        )
    if not g > 0:
        raise ValueError(
            f"conv_general_dilated feature_group_count must be a positive integer, got {g}."
        )
    c, i_, o = lhs.shape[lspec[1]], rhs.shape[rspec[1]], rhs.shape[rspec[0]]
    if c % g:
        raise ValueError(
            "conv_general_dilated feature_group_count must divide lhs feature dimension "
            f"size, but {g} does not divide {c}."
        )
    if c // g != i_:
        raise ValueError(
            "conv_general_dilated lhs feature dimension size divided by feature_group_count "
            f"must equal the rhs input feature dimension size, but {c} // {g} != {i_}."
        )
    if o % g:
        raise ValueError(
            "conv_general_dilated rhs output feature dimension size must be a multiple of "
            f"feature_group_count, but {o} is not a multiple of {g}."
        )
    if not bg > 0:
        raise ValueError(
            f"conv_general_dilated batch_group_count must be a positive integer, got {bg}."
        )
    nb = lhs.shape[lspec[0]]
    if bg > 1 and nb % bg:
        raise ValueError(
            "conv_general_dilated batch_group_count must divide lhs batch dimension size, "
            f"but {bg} does not divide {nb}."
        )
    if o % bg:
        raise ValueError(
            "conv_general_dilated rhs output feature dimension size must be a multiple of "
            f"batch_group_count, but {o} is not a multiple of {bg}."
        )
    if bg > 1 and g > 1:
        raise ValueError(
            "At most one of batch_group_count and feature_group_count may be > 1, got "
            f"batch_group_count={bg} and feature_group_count={g}"
        )
    nsp = len(rspec) - 2
    if nsp != len(ws):
        raise ValueError(
            "conv_general_dilated window and window_strides must have the same number of "
            f"dimensions, but got {nsp} and {len(ws)}"
        )
    if len(pads) != nsp:
        raise TypeError(
            f"Wrong number of explicit pads for convolution: expected {nsp}, got {len(pads)}."
        )
    in_sp = tuple(_dilate_len(lhs.shape[i], d) for i, d in zip(lspec[2:], ld))
    if any(n + lo + hi < 0 for n, (lo, hi) in zip(in_sp, pads)):
        raise ValueError(
            "Negative padding is larger than the size of the corresponding dimension: got "
            f"padding={pads} for lhs_shape[2:]={tuple(np.int64(n) for n in in_sp)}"
        )
    if lhs.dtype != rhs.dtype:
        raise TypeError(
            "lax.conv_general_dilated requires arguments to have the same dtypes, got "
            f"{np.dtype(lhs.dtype)}, {np.dtype(rhs.dtype)}."
        )
    if pet is not None:
        contract_types.check_conv_preferred(lhs.dtype, pet)


def conv_general_dilated(
    lhs,
    rhs,
    window_strides,
    padding,
    lhs_dilation=None,
    rhs_dilation=None,
    dimension_numbers=None,
    feature_group_count=1,
    batch_group_count=1,
    precision=None,
    preferred_element_type=None,
    out_sharding=None,
):
    """``jax.lax.conv_general_dilated``: N-d convolution (cross-correlation) with strides,
    padding ("SAME"/"VALID"/pairs), lhs (transposed-conv) and rhs (atrous) dilation,
    feature groups, batch groups (lhs batch group i convolved with rhs output-feature
    group i, output batch ``N / batch_group_count``; differentiable), and any layout via
    ``dimension_numbers`` (e.g. ``("NHWC", "HWIO", "NHWC")``); ``out_sharding``: the
    result's sharding."""
    check_precision(precision)
    if out_sharding is not None:
        return sharding_hooks.apply_out_sharding(
            conv_general_dilated, out_sharding, lhs, rhs, window_strides, padding,
            lhs_dilation, rhs_dilation, dimension_numbers, feature_group_count,
            batch_group_count, precision, preferred_element_type,
        )  # fmt: skip
    lhs, rhs = to_array(lhs), to_array(rhs)
    la, ra = aval_of(lhs), aval_of(rhs)
    dnums = conv_dimension_numbers(la.shape, ra.shape, dimension_numbers)
    lspec, rspec, ospec = dnums
    nsp = len(rspec) - 2
    ld = tuple(operator.index(d) for d in lhs_dilation) if lhs_dilation else (1,) * nsp
    if isinstance(padding, str) and any(d != 1 for d in ld):
        # As JAX: "SAME"/"VALID" are not defined for a transposed (lhs-dilated) conv.
        raise ValueError(
            "String padding is not implemented for transposed convolution using this op. "
            "Please either exactly specify the required padding or use conv_transpose."
        )
    rd = tuple(operator.index(d) for d in rhs_dilation) if rhs_dilation else (1,) * nsp
    ws = tuple(operator.index(s) for s in window_strides)
    if isinstance(padding, str):
        # (the undilated input: a string padding has no lhs dilation)
        k_sp = tuple(_dilate_len(ra.shape[i], d) for i, d in zip(rspec[2:], rd))
        in_sp = tuple(la.shape[i] for i in lspec[2:])
        pads = tuple(tuple(p) for p in padtype_to_pads(in_sp, k_sp, ws, padding))
    else:
        pads = _explicit_padding(padding)
    pet = (
        None
        if preferred_element_type is None
        else dtypes.canonicalize_dtype(preferred_element_type)
    )
    g, bg = operator.index(feature_group_count), operator.index(batch_group_count)
    _check_conv(la, ra, dnums, ws, pads, ld, rd, g, bg, pet)
    lhs_c = _sh.transpose(lhs, lspec)
    rhs_c = _sh.transpose(rhs, rspec)
    params = dict(
        window_strides=ws,
        padding=pads,
        lhs_dilation=ld,
        rhs_dilation=rd,
        feature_group_count=1,
        preferred_element_type=pet,
    )
    if dtypes.is_complex(aval_of(lhs).dtype) and not kept_products(
        aval_of(lhs_c).shape, aval_of(rhs_c).shape, g, bg, params
    ):
        # JAX lowers a complex convolution on CPU to three real ones (Gauss's product):
        # k1 = (xr + xi) * kr, k2 = xr * (ki - kr), k3 = xi * (kr + ki); k1 - k3 + (k1 + k2) j.
        real = None if pet is None else np.empty(0, pet).real.dtype
        args = (window_strides, padding, lhs_dilation, rhs_dilation, dimension_numbers, g, bg)
        xr, xi, kr, ki = ew.real(lhs), ew.imag(lhs), ew.real(rhs), ew.imag(rhs)
        k1 = conv_general_dilated(ew.add(xr, xi), kr, *args, preferred_element_type=real)
        k2 = conv_general_dilated(xr, ew.sub(ki, kr), *args, preferred_element_type=real)
        k3 = conv_general_dilated(xi, ew.add(kr, ki), *args, preferred_element_type=real)
        return ew.complex_(ew.sub(k1, k3), ew.add(k1, k2))
    if bg > 1:
        # Batch groups: lhs batch group i (contiguous) meets rhs output-feature group i;
        # the per-group results are concatenated on output features (as XLA defines it).
        nb, o = aval_of(lhs_c).shape[0], aval_of(rhs_c).shape[0]
        nbg, og = nb // bg, o // bg
        outs = [
            conv_general_dilated_p.bind(
                _sh.slice_in_dim(lhs_c, i * nbg, (i + 1) * nbg, 1, 0),
                _sh.slice_in_dim(rhs_c, i * og, (i + 1) * og, 1, 0),
                **params,
            )
            for i in range(bg)
        ]
        out = _sh.concatenate(outs, 1)
        if _one_position_products(aval_of(out), aval_of(rhs_c), any_positions=True):
            out = _plus_zero(out)  # XLA's batch-grouped GEMM adds each product to +0.0
    elif g == 1:
        out = conv_general_dilated_p.bind(lhs_c, rhs_c, **params)
    else:
        # Feature groups: one ungrouped convolution per group, concatenated on features
        # (so every rule of the primitive applies unchanged).
        c, o = aval_of(lhs_c).shape[1], aval_of(rhs_c).shape[0]
        cg, og = c // g, o // g
        outs = [
            conv_general_dilated_p.bind(
                _sh.slice_in_dim(lhs_c, i * cg, (i + 1) * cg, 1, 1),
                _sh.slice_in_dim(rhs_c, i * og, (i + 1) * og, 1, 0),
                **params,
            )
            for i in range(g)
        ]
        out = _sh.concatenate(outs, 1)
        if cg == 1 and og > 1 and _one_position_products(aval_of(out), aval_of(rhs_c)):
            out = _plus_zero(out)  # XLA's grouped GEMM adds a lone product to +0.0
    inv = tuple(int(i) for i in np.argsort(ospec))
    return _sh.transpose(out, inv)


def conv(lhs, rhs, window_strides, padding, precision=None, preferred_element_type=None):
    """``jax.lax.conv``: ``conv_general_dilated`` in NCHW/OIHW layout without dilation."""
    check_precision(precision)
    return conv_general_dilated(
        lhs, rhs, window_strides, padding, preferred_element_type=preferred_element_type
    )


def conv_with_general_padding(
    lhs,
    rhs,
    window_strides,
    padding,
    lhs_dilation,
    rhs_dilation,
    precision=None,
    preferred_element_type=None,
):
    """``jax.lax.conv_with_general_padding``."""
    check_precision(precision)
    return conv_general_dilated(
        lhs,
        rhs,
        window_strides,
        padding,
        lhs_dilation,
        rhs_dilation,
        preferred_element_type=preferred_element_type,
    )


# The layouts ``conv_transpose`` assumes without ``dimension_numbers``, by rank.
_CONV_TRANSPOSE_LAYOUTS = {
    2: ("NC", "IO", "NC"),
    3: ("NHC", "HIO", "NHC"),
    4: ("NHWC", "HWIO", "NHWC"),
    5: ("NHWDC", "HWDIO", "NHWDC"),
}


def _conv_transpose_padding(k: int, s: int, padding) -> tuple[int, int]:
    """(before, after) padding of one spatial dim of the transposed convolution, for a
    (dilated) kernel size ``k``, stride ``s`` and the forward convolution's ``padding``."""
    if padding == "SAME":
        total = k + s - 2
        before = k - 1 if s > k - 1 else -(-total // 2)
    elif padding == "VALID":
        total = k + s - 2 + max(k - s, 0)
        before = k - 1
    elif isinstance(padding, tuple):
        before, after = (k - p - 1 for p in padding)
        total = before + after
    else:
        raise ValueError(f"Invalid padding mode: {padding}")
    return before, total - before


def conv_transpose(
    lhs,
    rhs,
    strides,
    padding,
    rhs_dilation=None,
    dimension_numbers=None,
    transpose_kernel: bool = False,
    precision=None,
    preferred_element_type=None,
    use_consistent_padding: bool = False,
):
    """``jax.lax.conv_transpose``: the N-d transposed ("deconvolution") convolution, as
    ``keras.layers.Conv2DTranspose`` pads it: ``conv_general_dilated`` with the input
    dilated by ``strides``.

    Args:
        lhs: the input, rank N+2 (default layout ``NHWC``-like for N = 0..3).
        rhs: the kernel, same rank (default ``HWIO``-like).
        strides: the forward convolution's strides (the input dilation here).
        padding: ``"SAME"``, ``"VALID"`` (the forward convolution's), or N ``(lo, hi)``
            pairs: the transposed convolution's own padding, or the forward one's with
            ``use_consistent_padding=True``.
        rhs_dilation: kernel (atrous) dilation.
        dimension_numbers: layouts as for ``conv_general_dilated``.
        transpose_kernel: flip the kernel spatially and swap its I/O axes (the gradient
            of a forward convolution with this kernel).

    Returns:
        The result in the output layout, of the promoted dtype.

    Raises:
        ValueError: operands of different ranks, or rank over 5 without
            ``dimension_numbers``; an unknown padding mode.
    """
    check_precision(precision)
    lhs, rhs = to_array(lhs), to_array(rhs)
    nd = aval_of(lhs).ndim
    if nd != aval_of(rhs).ndim or nd < 2:
        raise ValueError(
            "conv_transpose: lhs and rhs must have the same rank, at least 2; got "
            f"{aval_of(lhs).shape} and {aval_of(rhs).shape}"
        )
    if dimension_numbers is None:
        if nd not in _CONV_TRANSPOSE_LAYOUTS:
            raise ValueError("No 4+ dimensional dimension_number defaults.")
        dimension_numbers = _CONV_TRANSPOSE_LAYOUTS[nd]
    specs = conv_dimension_numbers(aval_of(lhs).shape, aval_of(rhs).shape, dimension_numbers)
    rspec = specs[1]
    kernel = [aval_of(rhs).shape[i] for i in rspec[2:]]
    rd = tuple(rhs_dilation) if rhs_dilation is not None else (1,) * (nd - 2)
    if use_consistent_padding or (isinstance(padding, str) and padding in ("SAME", "VALID")):
        per_dim = [padding] * len(strides) if isinstance(padding, str) else padding
        padding = tuple(
            _conv_transpose_padding(
                _dilate_len(k, r), int(s), p if isinstance(p, str) else tuple(p)
            )
            for k, r, s, p in zip(kernel, rd, strides, per_dim)
        )
    if transpose_kernel:
        rhs = _sh.rev(rhs, tuple(rspec[2:]))
        perm = list(range(nd))
        perm[rspec[0]], perm[rspec[1]] = rspec[1], rspec[0]
        rhs = _sh.transpose(rhs, tuple(perm))
    return conv_general_dilated(
        lhs,
        rhs,
        (1,) * (nd - 2),
        padding,
        strides,
        rd,
        specs,
        precision=precision,
        preferred_element_type=preferred_element_type,
    )
