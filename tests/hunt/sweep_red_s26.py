"""Session 26 reduction sweep (not a test): reductions and accumulations of float16,
bfloat16, float32 and float64 (and complex64) arrays, JAX and jaxlite in one process, eagerly
and under ``jit``; prints, per (function, dtype, shape, axis, mode), how many output elements
differ in their bits from JAX's. Two parts:

* ``funcs``: the jnp / lax / nn / scipy functions that reduce (``sum prod mean var std nansum
  nanmean nanvar logsumexp softmax norm average cumsum cumprod cumlogsumexp trace dot matmul
  einsum conv avg_pool-style reduce_window segment_sum scatter-add reduce_sum/reduce_prod``)
  on random data of a wide dynamic range.
* ``order``: crafted inputs that reveal XLA:CPU's association of a float sum: ``x[i] = M``,
  ``x[j] = -M``, all others 1 (``M`` absorbs a 1 in float32/64); JAX's result is ``n`` minus
  the size of the subtree joining ``i`` and ``j`` in XLA's summation tree (the FPRev
  technique), printed for leaf 0 against every ``j``.

What it found (session 26, JAX 0.10.2, XLA:CPU on an AVX-512 machine):

* JAX's ``jnp.sum`` / ``jnp.prod`` (so ``nansum``, ``logsumexp``, ``softmax``, ``norm``,
  ``trace``, ``average``...) of float16 / bfloat16 convert to float32, reduce and round once
  (``upcast_f16_for_computation`` when ``dtype`` is not given); ``jnp.mean`` / ``var`` too;
  ``nanmean`` passes its dtype to ``nansum`` so it does not. ``lax.reduce_sum`` of a 16-bit
  array itself rounds after every addition (in XLA's tree order, below); ``cumsum`` /
  ``reduce_window`` sums too; ``dot`` / ``matmul`` / ``einsum`` accumulate in float32;
  ``segment_sum`` / scatter-add round after every update, in update order.
* XLA:CPU's order of an add-reduction: its TreeReductionRewriter (window 32) turns a reduce
  with a reduced dimension longer than 32 into a reduce-window (windows of ``min(d, 32)``
  along each reduced dimension, the dimension padded with zeros to a multiple of the
  window, ``pad // 2`` before) followed by the reduce of the window sums, again until every
  reduced dimension is at most 32; each window and the last reduce add in row-major order
  from ``+0``. Not for float32 / float64 reductions of 4096 or more input elements: those go
  to a YNNPACK fusion (``__ynn_fusion``) whose order is a blocked tree over 16 vector lanes
  here (an ISA-dependent kernel; not reproduced). Small reductions over two or more
  dimensions whose leading reduced dimension LLVM vectorises (powers of two) add row sums
  in vector lanes combined pairwise (LLVM's choice; not reproduced).

Run: ``nice -n 19 python -m tests.hunt.sweep_red_s26 [funcs] [order]`` (a minute or two).
"""

# ruff: noqa: E501

from __future__ import annotations

import resource
import sys

import numpy as np

import jaxlite
import jaxlite.numpy  # noqa: F401
import jaxlite.scipy.special  # noqa: F401

try:
    import jax
    import jax.numpy  # noqa: F401
    import jax.scipy.special  # noqa: F401
except ImportError:  # the sweep needs JAX
    jax = None

resource.setrlimit(resource.RLIMIT_AS, (8_000_000_000, 8_000_000_000))

RNG = np.random.default_rng(26)


def data(shape, dtype, spread=8):
    """Random values of a wide dynamic range (order differences show in most sums)."""
    v = RNG.standard_normal(shape) * np.exp2(RNG.integers(-spread, spread, shape))
    return v.astype(dtype)


def funcs(m):
    jnp, lax, nn = m.numpy, m.lax, m.nn
    sp = m.scipy.special
    return {
        "sum": lambda x, ax: jnp.sum(x, axis=ax),
        "prod": lambda x, ax: jnp.prod(x * 0 + 1 + x / 64, axis=ax),
        "mean": lambda x, ax: jnp.mean(x, axis=ax),
        "var": lambda x, ax: jnp.var(x, axis=ax),
        "std": lambda x, ax: jnp.std(x, axis=ax),
        "nansum": lambda x, ax: jnp.nansum(x, axis=ax),
        "nanmean": lambda x, ax: jnp.nanmean(x, axis=ax),
        "nanvar": lambda x, ax: jnp.nanvar(x, axis=ax),
        "average": lambda x, ax: jnp.average(x, axis=ax),
        "logsumexp": lambda x, ax: sp.logsumexp(x, axis=ax),
        "nn.logsumexp": lambda x, ax: nn.logsumexp(x, axis=ax),
        "softmax": lambda x, ax: nn.softmax(x, axis=ax),
        "norm": lambda x, ax: jnp.linalg.norm(x, axis=ax),
        "cumsum": lambda x, ax: jnp.cumsum(x, axis=ax if ax is not None else None),
        "cumprod": lambda x, ax: jnp.cumprod(1 + x / 64, axis=ax),
        "cumlogsumexp": lambda x, ax: lax.cumlogsumexp(x, axis=ax or 0),
        "reduce_sum": lambda x, ax: lax.reduce_sum(
            x, (ax,) if ax is not None else tuple(range(x.ndim))
        ),
        "reduce_prod": lambda x, ax: lax.reduce_prod(
            1 + x / 64, (ax,) if ax is not None else tuple(range(x.ndim))
        ),
        "matmul": lambda x, ax: x @ x.T,
        "einsum": lambda x, ax: jnp.einsum("ij,kj->ik", x, x),
        "trace": lambda x, ax: jnp.trace(x),
        "avg_pool": lambda x, ax: lax.reduce_window(
            x, np.array(0, x.dtype), lax.add, (1, 3), (1, 2), "VALID"
        ),
        "segment_sum": lambda x, ax: m.ops.segment_sum(x.reshape(-1), jnp.arange(x.size) % 7, 7),
        "scatter_add": lambda x, ax: (
            jnp.zeros(5, x.dtype).at[jnp.arange(x.size) % 5].add(x.reshape(-1))
        ),
    }


SHAPES = [((3, 1000), [None, 0, 1]), ((40, 50), [None, 0, 1]), ((257,), [None])]
NO_AXIS = {"matmul", "einsum", "trace", "avg_pool", "segment_sum", "scatter_add"}


def bits_differ(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return f"shape/dtype {a.shape} {a.dtype} vs {b.shape} {b.dtype}"
    if a.dtype.kind == "c":
        a, b = a.view(a.real.dtype), b.view(b.real.dtype)
    both_nan = np.isnan(a.astype(np.float64)) & np.isnan(b.astype(np.float64))
    return int(np.sum((a != b) & ~both_nan | (np.signbit(a) != np.signbit(b)) & (a == 0)))


def sweep_funcs(names=None):
    fl, fj = funcs(jaxlite), funcs(jax)
    dts = ["bfloat16", "float16", "float32"]
    for name in fl:
        if names and name not in names:
            continue
        for dt in dts:
            for shape, axes in SHAPES:
                if name in ("matmul", "einsum", "trace", "avg_pool") and len(shape) != 2:
                    continue
                for ax in [None] if name in NO_AXIS else axes:
                    x = data(shape, getattr(jax.numpy, dt))
                    out = []
                    for mode in ("eager", "jit"):
                        try:
                            if mode == "eager":
                                a, b = fj[name](x, ax), fl[name](x, ax)
                            else:
                                a = jax.jit(fj[name], static_argnums=1)(x, ax)
                                b = jaxlite.jit(fl[name], static_argnums=1)(x, ax)
                            d = bits_differ(a, b)
                        except Exception as e:  # noqa: BLE001
                            d = f"{type(e).__name__}: {str(e)[:60]}"
                        if d:
                            out.append(f"{mode} {d}/{np.size(a)}")
                    if out:
                        print(
                            f"{name:13s} {dt:8s} {shape!s:10s} ax={ax!s:4s} " + "  ".join(out),
                            flush=True,
                        )


def lca_sizes(n, i, dtype=np.float32):
    """XLA's summation tree of a 1-D float ``sum`` seen from leaf ``i``: for each ``j``,
    the number of leaves under the node where ``i`` and ``j`` meet."""
    f = jax.jit(lambda x: jax.lax.reduce_sum(x, (0,)))
    big = dtype(2.0**50 if dtype == np.float32 else 2.0**80)
    sizes = []
    for j in range(n):
        if j == i:
            sizes.append(0)
            continue
        x = np.ones(n, dtype)
        x[i], x[j] = big, -big
        sizes.append(n - int(f(x)))
    return sizes


def sweep_order():
    for n in (20, 40, 100, 1000, 4096):
        s = lca_sizes(n, 0)
        runs, start = [], 1
        for j in range(2, n + 1):
            if j == n or s[j] != s[start]:
                runs.append((start, j - 1, s[start]))
                start = j
        print(
            f"n={n}: leaf 0 meets (first, last, subtree size): {runs[:24]}{' ...' if len(runs) > 24 else ''}"
        )


if __name__ == "__main__":
    if jax is None:
        sys.exit("the sweep compares with JAX, which is not importable")
    args = sys.argv[1:] or ["funcs", "order"]
    if "funcs" in args:
        sweep_funcs([a for a in args if a not in ("funcs", "order")])
    if "order" in args:
        sweep_order()
