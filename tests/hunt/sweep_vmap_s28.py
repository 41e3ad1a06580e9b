"""Session 28 batching sweep of ``jax.numpy`` (a script, not a test): session 27's sweep
(tests/hunt/sweep_vmap_s27.py: its argument sets, checks and JAX oracle) on the dtypes and
modes it left out.

``SWEEP_DTYPE`` picks the mode (one per process):

- ``int8`` / ``uint8`` / ``int16`` / ``uint32`` / ``bool``: every float32 and int32 argument
  becomes that dtype (edge twins: the type's min / max, values whose negation, absolute value
  or product overflows, shift counts at and past the width);
- ``float16`` / ``bfloat16``: every float32 argument becomes that dtype (edge twins: 0, -0,
  +-1, +-inf, NaN, the type's max, its smallest normal, values whose ``exp`` overflows), and
  complex64 stays;
- ``x64``: ``jax_enable_x64`` on for both libraries in this process, float32 / int32 /
  complex64 arguments become float64 / int64 / complex128 (edge twins with the 64-bit
  extremes); ``x64same``: the flag on with session 27's float32 / int32 arguments as they
  are (weak-type promotion of Python scalars differs); ``uint64``: the flag on, int32
  arguments become uint64.

Every mode keeps s27's checks (in_axes / out_axes / nested / jit orders / axis_size / vmap of
grad) and adds ``vmap`` of ``jvp`` (tangent ones) in the first float argument; derivative
dtypes and weak types are compared too (s27 skipped weak types of gradients). Float16 /
bfloat16 values compare within a few units in the last place of the type (``close`` below).

In the half-precision modes JAX's exact answer (where its one-jit oracle differs) is run
with ``jax.disable_jit()``: JAX's ``jnp`` functions are jitted and XLA keeps float32
intermediates through their fused float16 / bfloat16 chains (a docs/compat.md row), which
jaxlite's op-by-op rounding does not follow; op by op JAX rounds as jaxlite does.

Run: ``SWEEP_DTYPE=int8 nice -n 19 bash -c 'ulimit -v 8000000; PYTHONPATH=. python
tests/hunt/sweep_vmap_s28.py [name ...]'`` (``SWEEP_SHARD`` / ``SWEEP_FROM`` as in s27).

Session 28 results (every public ``jnp`` function in the int8, float16, bfloat16, x64 and
bool modes, 7-19 min each on the shared machine; the uint8, int16, uint32, x64same and uint64
modes were written but not run in the session): no batching rule differed from jaxlite's own loop in any mode. Fixed
(tests/hunt/test_vmap_sweep_s28.py): ``jnp.take`` / ``jnp.put`` with int8 / uint8 / int16
indices on an axis longer than the type holds (``clip`` / ``wrap`` converted ``n - 1`` / ``n``
into the index type: a uint8 255 read element 43); ``jnp.vecdot`` of float16 / bfloat16
rounded each product to the half type (a float16 product past 65504 gave inf, inf - inf NaN;
JAX's dot multiplies and sums in float32); ``jnp.pad`` ``mean`` / ``median`` of bool arrays
rounded the statistic (0.5 padded False; JAX and NumPy True). Left, documented rows: JAX's
``partition`` / ``argpartition`` of the minimum integer (its negation overflows), integer
``power`` with negative exponents, JAX's wrapped arithmetic of narrow negative indices
(``take`` default mode, ``dynamic_update_slice``), subnormal results of float64
and bfloat16 ``divmod`` / ``floor_divide``, of the ``ldexp`` derivative, and of ``1 / max``
in ``hypot``'s derivative where both operands are near the type's max (XLA flushes them: JAX
0, jaxlite 0.70), the max derivative at NaN (``apply_over_axes``), float16 chains JAX fuses
(``kaiser``'s derivative through ``i0``), bfloat16 ``exp2`` (also in ``frexp``'s derivative:
JAX's ``2**-7`` is 0.00787). ``roots`` / ``poly`` of 256 edge coefficients are left out
(minutes per check; their plain sets run).
"""

# ruff: noqa: E501
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
import sweep_vmap_s25 as s25  # noqa: E402
import sweep_vmap_s27 as s27  # noqa: E402

import jaxlite  # noqa: E402
import jaxlite.numpy as lnp  # noqa: E402

MODE = os.environ.get("SWEEP_DTYPE", "float16")
bf16 = np.dtype(ml_dtypes.bfloat16)
X64 = MODE in ("x64", "x64same", "uint64")


def _floats(dt):
    """(E, E2): 16 edge values of the float dtype ``dt`` each, two orders."""
    fi = ml_dtypes.finfo(dt) if dt == bf16 else np.finfo(dt)
    big, tiny = float(fi.max), float(fi.smallest_normal)
    ovf = {np.dtype(np.float16): -11.5, bf16: -88.0, np.dtype(np.float64): -710.0}[np.dtype(dt)]
    e = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -2.5,
        3.0,
        100.0,
        np.inf,
        -np.inf,
        np.nan,
        big * 0.99,
        -tiny * 4,
        tiny * 2,
        0.7,
        ovf,
    ]
    e2 = [
        2.0,
        -0.0,
        np.nan,
        np.inf,
        0.0,
        -1.0,
        1.0,
        -np.inf,
        0.25,
        -big,
        tiny * 8,
        7.0,
        -0.3,
        -tiny * 3,
        10.0,
        12.0,
    ]
    return np.array(e, np.float64).astype(dt), np.array(e2, np.float64).astype(dt)


def _ints(dt):
    ii = np.iinfo(dt)
    bits = ii.bits
    lo, hi = int(ii.min), int(ii.max)
    if lo < 0:
        e = [0, 1, -1, 2, -2, 3, 7, -8, bits - 1, bits, bits + 1, 100, hi, lo, -77, hi // 3]
        e2 = [1, 0, -1, 2, bits - 1, lo, hi, 6, -3, bits, 64, 4, -100, 7, bits + 1, lo + 1]
    else:
        e = [
            0,
            1,
            hi,
            2,
            hi - 1,
            3,
            7,
            8,
            bits - 1,
            bits,
            bits + 1,
            100,
            hi // 2,
            hi // 2 + 1,
            77,
            hi // 3,
        ]
        e2 = [
            1,
            0,
            hi,
            2,
            bits - 1,
            hi // 2 + 1,
            hi // 2,
            6,
            3,
            bits,
            64,
            4,
            100,
            7,
            bits + 1,
            hi - 1,
        ]
    return np.array(e, object).astype(dt), np.array(e2, object).astype(dt)


# which source dtypes become what: {np.float32: target, np.int32: target, np.complex64: target}
CAST = {
    "int8": {np.float32: np.int8, np.int32: np.int8},
    "uint8": {np.float32: np.uint8, np.int32: np.uint8},
    "int16": {np.float32: np.int16, np.int32: np.int16},
    "uint32": {np.float32: np.uint32, np.int32: np.uint32},
    "bool": {np.float32: np.bool_, np.int32: np.bool_},
    "float16": {np.float32: np.float16},
    "bfloat16": {np.float32: bf16},
    "x64": {np.float32: np.float64, np.int32: np.int64, np.complex64: np.complex128},
    "x64same": {},
    "uint64": {np.int32: np.uint64},
}[MODE]
CAST = {np.dtype(k): np.dtype(v) for k, v in CAST.items()}


def edge_values(src, dst):
    """The two 16-value edge orders of ``dst`` standing in for ``src``'s."""
    if dst.kind == "b":
        return np.array([True, False] * 8), np.array([True, True, False, False] * 4)
    if dst.kind in "iu":
        return _ints(dst)
    if dst.kind == "c":
        c = s27.E_C.astype(np.float64)
        c = np.where(np.abs(c) == 1e30, 1e300, np.where(np.abs(c) == 1e-30, 1e-300, c))
        return c, c[::-1]
    return _floats(dst)


def _edge_set():
    """s27's EDGE_OF rebuilt in the mode's dtypes (same shapes and pairing)."""
    out = {}
    fE = (
        edge_values(np.dtype(np.float32), CAST.get(np.dtype(np.float32), np.dtype(np.float32)))
        if np.dtype(np.float32) in CAST
        else None
    )
    iE = (
        edge_values(np.dtype(np.int32), CAST[np.dtype(np.int32)])
        if np.dtype(np.int32) in CAST
        else None
    )
    for base_id, arr in s27.EDGE_OF.items():
        out[base_id] = arr
    if fE is not None:
        a, b = s27._pairs(*fE)
        x = np.roll(np.tile(fE[0], 16), 37)
        out[id(s25.v)], out[id(s25.w)] = a, b
        out[id(s25.CANDS[4][2])] = x
        out[id(s25.m)] = np.stack([a, np.roll(a, 37)])
        out[id(s25.m2)] = np.stack([b, np.roll(b, 11)])
    if iE is not None:
        a, b = s27._pairs(*iE)
        out[id(s25.iv)], out[id(s25.iv2)] = a, b
        out[id(s25.im)] = np.stack([a, np.roll(a, 5)])
    if np.dtype(np.complex64) in CAST:
        re, im = s27._pairs(*edge_values(None, np.dtype(np.complex128)))
        out[id(s25.cv)] = (re + 1j * im).astype(np.complex128)
    return out


EDGE_OF = _edge_set()


def cast(x):
    """A plain argument in the mode's dtype (values kept where the dtype holds them; floats
    in (0, 1) into integers: scaled so batch elements differ)."""
    dst = CAST.get(x.dtype)
    if dst is None:
        return x
    if dst.kind in "iu" and x.dtype.kind == "f":
        return np.round(x * 10).astype(dst)
    if dst.kind == "b" and x.dtype.kind == "f":
        return x > 0.5
    return x.astype(dst)


def is_float(dt):
    return dt.kind == "f" or dt == bf16


def variant(x, k):
    """Batch element ``k`` of a plain argument (s25's, with bfloat16 scaled like the floats)."""
    if k == 0:
        return x
    if x.dtype == bf16:
        return s25.variant(x.astype(np.float32), k).astype(bf16)
    return s25.variant(x, k)


def roll_variant(x, k):
    if x.dtype == bf16:
        return s27.roll_variant(x.astype(np.float32), k).astype(bf16)
    return s27.roll_variant(x, k)


def close(x, y, rtol=2e-4, atol=2e-5):
    """s25's comparison, within 4 units in the last place for float16 / bfloat16."""
    x, y = np.asarray(x), np.asarray(y)
    if x.shape != y.shape:
        return False
    lowp = [d for d in (x.dtype, y.dtype) if d in (np.dtype(np.float16), bf16)]
    if lowp:
        eps = (
            float(ml_dtypes.finfo(lowp[0]).eps) if lowp[0] == bf16 else float(np.finfo(lowp[0]).eps)
        )
        rtol, atol = max(rtol, 4 * eps), max(atol, 4 * eps)
    if x.dtype.kind in "fc" or x.dtype == bf16:
        xf = x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
        yf = y.astype(xf.dtype)
        with np.errstate(all="ignore"):
            return bool(np.allclose(xf, yf, rtol=rtol, atol=atol, equal_nan=True))
    return bool(np.array_equal(x, y))


def grad_fn(g, kw, lib):
    """vmap of the gradient of the sum of f's float outputs in its first float argument."""
    fpos = [i for i, x in enumerate(g.arrs) if is_float(x.dtype)]
    X = jax if lib == "jax" else jaxlite
    np_ = jnp if lib == "jax" else lnp

    def scalar(*a):
        r = g.call(lib, kw, *a)
        return sum(
            np_.sum(np_.real(t)) for t in s25.leaves(r, lib) if np_.issubdtype(t.dtype, np_.inexact)
        )

    return X.vmap(X.grad(scalar, argnums=fpos[0]))


def jvp_fn(g, kw, lib):
    """vmap of the jvp (tangent ones) in the first float argument: (primal out, tangent out)."""
    fpos = [i for i, x in enumerate(g.arrs) if is_float(x.dtype)][0]
    X = jax if lib == "jax" else jaxlite
    np_ = jnp if lib == "jax" else lnp

    def one(*a):
        def f(x):
            b = list(a)
            b[fpos] = x
            return g.call(lib, kw, *b)

        return X.jvp(f, (a[fpos],), (np_.ones_like(a[fpos]),))

    return X.vmap(one)


def grad_oracles(g):
    if not any(is_float(x.dtype) for x in g.arrs):
        return [None] * len(g.kws)
    arrs_b = g.batched((0,) * len(g.arrs))
    out = []
    for kw in g.kws:
        try:
            out.append(jax.jit(grad_fn(g, kw, "jax"))(*arrs_b))
        except s27.Timeout:
            raise
        except Exception:  # noqa: BLE001
            out.append(None)
    return out


def check_ad(g):
    """vmap of grad with weak types, vmap of jvp; JAX eager decides any difference."""
    if not any(is_float(x.dtype) for x in g.arrs):
        return
    n = len(g.arrs)
    arrs_b = g.batched((0,) * n)
    for kw in g.kws:
        for kind, fn in (("vmap_grad", grad_fn), ("vmap_jvp", jvp_fn)):
            ra = s25.outcome(lambda: jax.jit(fn(g, kw, "jax"))(*arrs_b))
            if ra[0] == "err":
                continue
            rb = s25.outcome(lambda: fn(g, kw, "lite")(*arrs_b))
            d = s25.compare(ra, rb)
            if d is not None:
                ra = s25.outcome(lambda: _eager(fn(g, kw, "jax"))(*arrs_b))
                if ra[0] == "err":
                    continue
                d = s25.compare(ra, rb)
            if d is not None:
                s27.report(d[0], g, kw, kind, d[1])


def run_group(g):
    s27_run_group(g)
    check_ad(g)


# 256-coefficient edge polynomials: eigenvalues of 255 x 255 companion matrices in every
# check (minutes a group, ill-conditioned either way); their plain sets still run
NO_EDGE = {"roots", "poly"}


def groups_for(name):
    out = []
    for g in s27_groups_for(name):
        if g.edge:
            continue
        has_edge = False
        args = g.args
        leaves_ = jax.tree_util.tree_leaves(args, is_leaf=lambda x: x is None)
        arrs = [x for x in leaves_ if s25.is_arr(x)]
        kw_arrays = any(s25.is_arr(x) for kw in g.kws for x in jax.tree_util.tree_leaves(kw))
        if (
            not kw_arrays
            and arrs
            and all(id(x) in EDGE_OF or id(x) in s27.SCALARS for x in arrs)
            and any(id(x) in EDGE_OF and x.dtype in CAST for x in arrs)
            and name not in NO_EDGE
        ):
            has_edge = True

            def edge(x):
                if x.dtype not in CAST:
                    return x
                y = EDGE_OF.get(id(x), x)
                if id(x) in s27.SCALARS:
                    y = cast(x)
                if name in s27.NO_INT_MIN and y.dtype.kind == "i":
                    y = np.maximum(y, y.dtype.type(np.iinfo(y.dtype).min + 1))
                return y

            eargs = jax.tree_util.tree_map(
                lambda x: edge(x) if s25.is_arr(x) else x, args, is_leaf=lambda x: x is None
            )
            out.append(s27.Group(name, eargs, g.kws, roll_variant, True))
        if not has_edge:
            # a plain set in the mode's dtypes (x64same: as it is)
            if not CAST and not X64:
                continue
            cargs = jax.tree_util.tree_map(
                lambda x: cast(x) if s25.is_arr(x) else x, args, is_leaf=lambda x: x is None
            )
            ckws = [
                jax.tree_util.tree_map(lambda x: cast(x) if s25.is_arr(x) else x, kw)
                for kw in g.kws
            ]
            if MODE != "x64same" and all(
                a is b
                for a, b in zip(jax.tree_util.tree_leaves(cargs), jax.tree_util.tree_leaves(args))
            ):
                continue  # nothing of this set changes dtype
            out.append(s27.Group(name, cargs, ckws, variant, False))
    return out


LOWP = MODE in ("float16", "bfloat16")


def _eager(fn):
    """JAX's exact answer run op by op in half precision: XLA's fusions keep float32
    intermediates in float16 / bfloat16 chains (docs/compat.md row "float16 / bfloat16
    elementwise chains under jit"), jaxlite rounds each op as JAX's unjitted ops do."""

    def run(*a, **k):
        if not LOWP:
            return fn(*a, **k)
        with jax.disable_jit():
            return fn(*a, **k)

    return run


s27.jax_run = _eager(s27.jax_run)
_call = s27.Group.call
s27.Group.call = lambda self, lib, kw, *arrays: (
    _eager(_call)(self, lib, kw, *arrays) if lib == "jax" else _call(self, lib, kw, *arrays)
)
s27_groups_for, s27_run_group = s27.groups_for, s27.run_group
s25.close = close
s27.grad_fn = grad_fn
s27.grad_oracles = grad_oracles
s27.groups_for = groups_for
s27.run_group = run_group


def main(argv):
    if X64:
        old = (jax.config.jax_enable_x64, jaxlite.config.jax_enable_x64)
        jax.config.update("jax_enable_x64", True)
        jaxlite.config.update("jax_enable_x64", True)
    try:
        print(f"mode {MODE}", flush=True)
        s27.main(argv)
    finally:
        if X64:
            jax.config.update("jax_enable_x64", old[0])
            jaxlite.config.update("jax_enable_x64", old[1])


if __name__ == "__main__":
    main(sys.argv[1:])
