"""Session 27 batching sweep of ``jax.numpy`` (a script, not a test): the session-25 sweep
(tests/hunt/sweep_vmap_s25.py: its argument tables, skip list and comparison) made cheap
enough to run every public ``jnp`` function, with edge values.

What one function gets: its argument sets (s25's ``SPECIAL`` table, else the first of s25's
candidates JAX accepts), each with its keyword variants (``axis`` / ``keepdims`` ...), and for
every set made of the plain vectors and matrices an *edge* twin of the same shapes' family:
float32 vectors whose pairs cover 0, -0, +-1, +-inf, NaN, huge and tiny normal values (subnormals: a docs/compat.md row, XLA flushes them)
against each other (256 = 16 x 16 elements), int32 vectors with 0, +-1, shifts past 31 and
INT_MIN / INT_MAX, bool and complex64 vectors the same way. Batch element ``k`` of an edge
array is the array rolled by ``k`` and scaled, so a batch dimension on the wrong axis moves
values.

Checked for each (function, argument set, keyword variant), against JAX in this process:
``vmap`` with each subset of array arguments batched at 0 / 1 / -1 (others None), out_axes 0
and -1, nested vmap, vmap of jit, jit of vmap, ``axis_size`` with every in_axes None, vmap of
grad; values, shapes, dtypes, weak types, and errors (class and first line).

Where the time goes, and what this does about it (s25 took 50-230 s a function on the loaded
machine): JAX's eager vmap compiles every batched primitive of every case separately (for
``nanmedian``, 87 XLA lowerings). Here JAX answers every case of one argument set with ONE
``jit(vmap(f))``: each batched answer is a stack of f over batch elements, and batch element
``k`` of an argument is ``variant(x, k)`` (variant 0 is ``x``), so each case's answer is a
choice of rows of one vmap over the distinct tuples of variant indices the cases need; the
keyword variants are outputs of the same jit. jaxlite's own paths run as before (they are
cheap), and only where jaxlite differs from that oracle (or JAX's jit cannot take the
function) does JAX run the exact case eagerly, so JAX's own error or value decides.
Aliases (``abs`` / ``absolute``) run once.

Run: ``nice -n 19 bash -c 'ulimit -v 8000000; PYTHONPATH=. python tests/hunt/sweep_vmap_s27.py
[name ...]'`` (no names: every ``jnp`` function; ``SWEEP_SHARD=i/n`` every n-th). One line per
difference: ``BATCH`` a value where jaxlite's vmap differs from its own loop over the batch,
``BASE`` one where the unbatched function already differs from JAX, ``JAXSELF`` (counted,
not printed) one where JAX's vmap differs from JAX's own loop and jaxlite's vmap equals both
loops.

Session 27 results (every public ``jnp`` function, 287 names less aliases, plus the EXTRA
table; ~50 min in all on the shared machine at load 12-16, where s25 took 50-230 s a
function): no batching rule put a batch dimension on the wrong axis or broadcast an unbatched
argument wrongly, at any in_axes / out_axes / nesting / jit order, with or without edge
values. Fixed (tests/hunt/test_vmap_sweep_s27.py): set operations without ``size=`` under
vmap raised the wrong error class or named the wrong shape (``union1d``, ``setdiff1d``,
``intersect1d`` / ``setxor1d`` with ``assume_unique``); ``jnp.i0``'s derivative was ``inf``
where JAX's is NaN (x past 88.7 in float32). Left, documented: a NaN cotangent arriving at a
max (``apply_over_axes`` of ``max`` on NaNs: JAX eager gives NaN everywhere, its jit zeros,
jaxlite the select; docs/compat.md's max/min derivative row); ``ldexp``'s derivative at
3e38 (JAX's NaN comes from the subnormal ``2**-128`` flushed to 0: the subnormal row);
``poly`` of 256 roots holding infinities (JAX's batched convolutions give NaN for the
leading 1 that JAX's own loop and jaxlite keep: JAXSELF). JAX's ``gcd`` / ``lcm`` never
return for INT_MIN next to 0, so the sweep leaves INT_MIN out there; subnormal edge values
are left out (XLA flushes them: a docs/compat.md row).
"""

# ruff: noqa: E501
from __future__ import annotations

import os
import signal
import sys
import time
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
import sweep_vmap_s25 as s25  # noqa: E402  (sets the XLA flags and JAX's disk cache)

import jaxlite  # noqa: E402
import jaxlite.numpy as lnp  # noqa: E402

warnings.simplefilter("ignore")
B, B2 = s25.B, s25.B2
f32 = np.float32
_inf, _nan = np.inf, np.nan

# 16 float32 edge values, two orders; vectors of 256 pair every value of one with every
# value of the other
E_F = np.array(
    [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -2.5,
        3.0,
        100.0,
        _inf,
        -_inf,
        _nan,
        3.0e38,
        -1.0e-30,
        3.0e-35,
        0.7,
        -88.0,
    ],
    f32,
)
E_F2 = np.array(
    [
        2.0,
        -0.0,
        _nan,
        _inf,
        0.0,
        -1.0,
        1.0,
        -_inf,
        0.25,
        -3.0e38,
        2.0e-30,
        7.0,
        -0.3,
        -4.0e-36,
        10.0,
        0.9,
    ],
    f32,
)
E_I = np.array(
    [0, 1, -1, 2, -2, 3, 7, -8, 31, 32, 33, 100, 2**31 - 1, -(2**31), -77, 12345], np.int32
)
E_I2 = np.array(
    [1, 0, -1, 2, 31, -(2**31), 2**31 - 1, 6, -3, 32, 64, 4, -100, 7, 33, 1000], np.int32
)
E_C = np.array(
    [0.0, -0.0, 1.0, -1.0, 0.5, _inf, -_inf, _nan, 2.5, -3.0, 1e30, 1e-30, 0.1, -0.7, 4.0, 0.25],
    f32,
)


def _pairs(a, b):
    return np.repeat(a, len(b)), np.tile(b, len(a))


vE, wE = _pairs(E_F, E_F2)
xE = np.roll(np.tile(E_F, 16), 37)
mE = np.stack([vE, np.roll(vE, 37)])
m2E = np.stack([wE, np.roll(wE, 11)])
ivE, iv2E = _pairs(E_I, E_I2)
bvE = np.tile(np.array([True, False]), 128)
bv2E = np.tile(np.array([True, True, False, False]), 64)
_re, _im = _pairs(E_C, E_C[::-1])
cvE = (_re + 1j * _im).astype(np.complex64)
imE = np.stack([ivE, np.roll(ivE, 5)])
EDGE_OF = {
    id(s25.v): vE, id(s25.w): wE, id(s25.CANDS[4][2]): xE, id(s25.m): mE, id(s25.m2): m2E,
    id(s25.iv): ivE, id(s25.iv2): iv2E, id(s25.bv): bvE, id(s25.bv2): bv2E, id(s25.cv): cvE,
    id(s25.im): imE,
}  # fmt: skip
# JAX's gcd / lcm never return with INT_MIN next to a 0 (its loop: gcd(0, -2**31) hangs in
# XLA, where an alarm cannot stop it): INT_MIN + 1 there instead
NO_INT_MIN = {"gcd", "lcm"}
SCALARS = {id(s25.s0), id(s25.i0)}  # 0-d arrays an edge set keeps as they are


v, w, m, m2, iv, iv2, bv, bv2, sq = (
    s25.v,
    s25.w,
    s25.m,
    s25.m2,
    s25.iv,
    s25.iv2,
    s25.bv,
    s25.bv2,
    s25.sq,
)
beta = np.array(2.5, f32)  # a 0-d array (s25's s0 is a NumPy scalar: never batched)
# functions s25 skipped or gave no batched array, and set functions with ``size=``
EXTRA = {
    "unravel_index": [(iv, (2, 4)), (iv2, (4, 2))],
    "ravel_multi_index": [(((iv, iv2), (4, 4)), {"mode": "clip"}), (((iv, iv2), (4, 4)), {"mode": "wrap"}), (((iv, iv2), (4, 4)), {"mode": "clip", "order": "F"})],
    "piecewise": [(v, [bv, bv2], [lambda x: x * 2, lambda x: -x, 0.5]), (v, [bv], [lambda x: x + 1])],
    "apply_along_axis": [(lambda r: r * 2 + r[0], 1, m), (lambda r: r.sum(), 0, m)],
    "apply_over_axes": [(lambda a, ax: a.sum(axis=ax, keepdims=True), m, [1]), (lambda a, ax: a.max(axis=ax, keepdims=True), m, [0, 1])],
    "fill_diagonal": [((sq, 5.0), {"inplace": False}), ((sq, v), {"inplace": False}), ((m, w), {"inplace": False, "wrap": True})],
    "intersect1d": [((iv, iv2), {"size": 6, "fill_value": -1}), ((iv, iv2), {"size": 4, "return_indices": True}), ((v, w), {"size": 4})],
    "union1d": [((iv, iv2), {"size": 6}), ((v, w), {"size": 9, "fill_value": 0.0})],
    "setdiff1d": [((iv, iv2), {"size": 3, "fill_value": 0}), ((v, w), {"size": 4})],
    "setxor1d": [((iv, iv2), {"size": 4}), ((v, w), {"size": 8, "fill_value": -1.0})],
    "unique": [((iv,), {"size": 4, "fill_value": 0}), ((iv,), {"size": 6, "return_index": True, "return_inverse": True, "return_counts": True}), ((v,), {"size": 5}), ((m,), {"size": 3, "axis": 1})],
    "unique_all": [((iv,), {"size": 6}), ((v,), {"size": 4, "fill_value": 0.0})],
    "unique_counts": [((iv,), {"size": 6})],
    "unique_inverse": [((iv,), {"size": 6})],
    "unique_values": [((iv,), {"size": 6}), ((v,), {"size": 2})],
    "isin": [(iv, iv2), ((v, w), {"invert": True}), ((iv, iv2), {"method": "sort"})],
    "place": [((v, bv, w), {"inplace": False})],
    "put": [((v, iv, w), {"inplace": False}), ((v, iv2, w), {"inplace": False, "mode": "clip"}), ((v, iv, w), {"inplace": False, "mode": "wrap"})],
    "put_along_axis": [((m, s25.im, 9.0, 1), {"inplace": False}), ((m, s25.im, m2, 1), {"inplace": False, "mode": "clip"})],
    "kaiser": [(8, beta), (6, beta)],
    "trim_zeros": [(iv,)],
    "permute_dims": [(m, (1, 0)), (s25.rnd((2, 4, 2)), (2, 0, 1))],
    "dsplit": [(s25.rnd((2, 4, 2)), 2), (s25.rnd((2, 4, 4)), [1, 3])],
}  # fmt: skip
UNSKIP = {
    "jnp.unravel_index",
    "jnp.ravel_multi_index",
    "jnp.piecewise",
    "jnp.apply_along_axis",
    "jnp.apply_over_axes",
    "jnp.fill_diagonal",
    "jnp.kaiser",
}
s25.SKIP -= UNSKIP
s25.SPECIAL.update({f"jnp.{k}": sets for k, sets in EXTRA.items()})


def roll_variant(x, k):
    """Batch element ``k`` of an edge array: rolled by ``k`` (so every position moves) and,
    for floats, scaled (so a wrong choice among equal rolls shows too)."""
    if k == 0 or x.ndim == 0:
        return s25.variant(x, k) if x.ndim == 0 else x
    y = np.roll(x.ravel(), 7 * k).reshape(x.shape)
    if x.dtype.kind in "fc":
        with np.errstate(all="ignore"):
            y = (y * (1 + 0.125 * k)).astype(x.dtype)
    return y


class Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise Timeout("timed out")


class Group:
    """One function on one argument set with its keyword variants."""

    def __init__(self, name, args, kws, variant, edge):
        self.name, self.args, self.kws, self.variant, self.edge = name, args, kws, variant, edge
        flat, self.tree = jax.tree_util.tree_flatten(args, is_leaf=lambda x: x is None)
        self.flat = flat
        self.pos = [i for i, x in enumerate(flat) if s25.is_arr(x)]
        self.arrs = [flat[p] for p in self.pos]

    def call(self, lib, kw, *arrays):
        flat = list(self.flat)
        for p, a in zip(self.pos, arrays):
            flat[p] = a
        args = jax.tree_util.tree_unflatten(self.tree, flat)
        mod = jnp if lib == "jax" else lnp
        return getattr(mod, self.name)(*args, **kw)

    def label(self, kw):
        def short(x):
            if s25.is_arr(x):
                return f"{x.dtype}{list(x.shape)}"
            if callable(x):
                return getattr(x, "__name__", "fn")
            return repr(x)

        a = jax.tree_util.tree_map(short, self.args, is_leaf=lambda x: x is None or callable(x))
        return f"jnp.{self.name}{a}{' ' + str(kw) if kw else ''}{' EDGE' if self.edge else ''}"

    def stacked(self, i, idxs):
        """Argument ``i`` for the batch elements with variant indices ``idxs``."""
        return np.stack([self.variant(self.arrs[i], k) for k in idxs])

    def batched(self, axes, salt=0):
        """The arguments with ``B`` variants of each batched one stacked on its axis."""
        out = []
        for x, a in zip(self.arrs, axes):
            if a is None:
                out.append(x)
            else:
                ax = a if a >= 0 else x.ndim + 1 + a
                out.append(np.stack([self.variant(x, k + salt) for k in range(B)], axis=ax))
        return out


def plan(g):
    """The checks of one group: (kind, axes, out_axes, tuples) with ``tuples`` the variant
    index tuples (one per batch element, nested ones flattened outer-major) of the answer."""
    n = len(g.arrs)
    combos = s25.in_axes_combos(g.arrs)
    checks = []

    def tuples(axes, salt_first=None):
        if salt_first is None:
            return [tuple(k if a is not None else 0 for a in axes) for k in range(B)]
        return [
            tuple(
                (k + j if i == salt_first else k) if a is not None else 0
                for i, a in enumerate(axes)
            )
            for j in range(B2)
            for k in range(B)
        ]

    for axes in combos:
        outs = [0, -1] if axes == combos[0] or all(a is not None for a in axes) else [0]
        for oa in outs:
            checks.append(("vmap", axes, oa, tuples(axes)))
    full = tuple(0 for _ in range(n))
    mixed = tuple((-1 if x.ndim else 0) if i == 0 else None for i, x in enumerate(g.arrs))
    for axes in dict.fromkeys([full, mixed]):
        checks.append(("vmap_jit", axes, 0, tuples(axes)))
        checks.append(("jit_vmap", axes, 0, tuples(axes)))
        first_b = next(i for i, a in enumerate(axes) if a is not None)
        checks.append(("nested", axes, -1, tuples(axes, first_b)))
    checks.append(("axis_size", (None,) * n, 0, [(0,) * n] * B))
    return checks


def jax_oracle(g, kws, all_tuples):
    """JAX's answers for every index tuple and keyword variant, from one jit of one vmap:
    ``{kw_index: list of leaves with the tuples on axis 0}``, or None where it raises."""
    data = [g.stacked(i, [t[i] for t in all_tuples]) for i in range(len(g.arrs))]

    def f_all(*a):
        return [g.call("jax", kw, *a) for kw in kws]

    res = jax.jit(jax.vmap(f_all))(*data)
    return [(jax.tree_util.tree_leaves(r), jax.tree_util.tree_structure(r)) for r in res]


def expected(oracle, index, tuples, kind, oa):
    """The JAX answer of one check, assembled from the oracle's rows."""
    leaves, tree = oracle
    rows = [index[t] for t in tuples]
    out = []
    for x in leaves:
        x = np.asarray(x)
        y = x[rows]
        if kind == "nested":  # (B2 * B, ...) -> inner out_axes 0, outer -1
            y = y.reshape((B2, B) + x.shape[1:])
            y = np.moveaxis(y, 0, -1)
        else:
            y = np.moveaxis(y, 0, oa)
        out.append(y)
    return out


class Leaf:
    """An expected leaf with JAX's weak type."""

    def __init__(self, value, weak_type):
        self.value, self.weak_type = value, weak_type

    def __array__(self, dtype=None, copy=None):
        return self.value if dtype is None else self.value.astype(dtype)

    @property
    def shape(self):
        return self.value.shape

    @property
    def dtype(self):
        return self.value.dtype


COUNTS: dict = {}
SLOW: list = []


def report(cls, g, kw, desc, detail):
    print(f"{cls:12s} {g.label(kw)} [{desc}] {detail}", flush=True)
    COUNTS[cls] = COUNTS.get(cls, 0) + 1


def lite_run(g, kw, kind, axes, oa, arrs_b):
    f = lambda *a: g.call("lite", kw, *a)  # noqa: E731
    X = jaxlite
    if kind == "vmap":
        return X.vmap(f, in_axes=tuple(axes), out_axes=oa)(*arrs_b)
    if kind == "vmap_jit":
        return X.vmap(X.jit(f), in_axes=tuple(axes))(*arrs_b)
    if kind == "jit_vmap":
        return X.jit(X.vmap(f, in_axes=tuple(axes)))(*arrs_b)
    if kind == "axis_size":
        return X.vmap(f, in_axes=tuple(axes), axis_size=B)(*arrs_b)
    outer = tuple(
        -1 if i == next(j for j, a in enumerate(axes) if a is not None) else None
        for i in range(len(axes))
    )
    return X.vmap(X.vmap(f, in_axes=tuple(axes)), in_axes=outer, out_axes=-1)(*arrs_b)


def jax_run(g, kw, kind, axes, oa, arrs_b):
    """JAX's exact answer of one check, run eagerly (the slow path)."""
    f = lambda *a: g.call("jax", kw, *a)  # noqa: E731
    X = jax
    if kind == "vmap":
        return X.vmap(f, in_axes=tuple(axes), out_axes=oa)(*arrs_b)
    if kind == "vmap_jit":
        return X.vmap(X.jit(f), in_axes=tuple(axes))(*arrs_b)
    if kind == "jit_vmap":
        return X.jit(X.vmap(f, in_axes=tuple(axes)))(*arrs_b)
    if kind == "axis_size":
        return X.vmap(f, in_axes=tuple(axes), axis_size=B)(*arrs_b)
    outer = tuple(
        -1 if i == next(j for j, a in enumerate(axes) if a is not None) else None
        for i in range(len(axes))
    )
    return X.vmap(X.vmap(f, in_axes=tuple(axes)), in_axes=outer, out_axes=-1)(*arrs_b)


def check_arrays(g, kind, axes):
    if kind == "nested":
        first_b = next(i for i, a in enumerate(axes) if a is not None)
        arrs_b = g.batched(axes)
        x, a = g.arrs[first_b], axes[first_b]
        ax = a if a >= 0 else x.ndim + 1 + a
        arrs_b[first_b] = np.stack(
            [np.stack([g.variant(x, k + j) for k in range(B)], axis=ax) for j in range(B2)], axis=-1
        )
        return arrs_b
    return g.batched(axes)


def loop_ref(g, kw, axes, oa, arrs_b):
    outs = []
    for k in range(B):
        el = [x if a is None else np.take(x, k, axis=a) for x, a in zip(arrs_b, axes)]
        outs.append(g.call("lite", kw, *el))
    return [
        np.stack([np.asarray(o) for o in col], axis=oa)
        for col in zip(*[s25.leaves(o, "lite") for o in outs])
    ]


def classify(g, kw, kind, axes, oa, arrs_b, got):
    if kind not in ("vmap", "vmap_jit", "jit_vmap"):
        return ""
    try:
        ref = loop_ref(g, kw, axes, oa, arrs_b)
    except Exception as e:  # noqa: BLE001
        return f"BATCH? loop raised {type(e).__name__}"
    got = [np.asarray(x) for x in s25.leaves(got, "lite")]
    if len(ref) == len(got) and all(s25.close(r, x, 1e-5, 1e-6) for r, x in zip(ref, got)):
        # jaxlite's vmap is its loop; is JAX's loop (jit of each element) jaxlite's loop too?
        # Then JAX's vmap differs from JAX's own loop (its batched kernels fold in another
        # order: poly of infinities), not jaxlite's concern
        try:
            jf = jax.jit(lambda *a: g.call("jax", kw, *a))
            outs = []
            for k in range(B):
                el = [x if a is None else np.take(x, k, axis=a) for x, a in zip(arrs_b, axes)]
                outs.append(jf(*el))
            jref = [
                np.stack([np.asarray(o) for o in col], axis=oa)
                for col in zip(*[s25.leaves(o, "jax") for o in outs])
            ]
            if len(jref) == len(ref) and all(s25.close(r, x) for r, x in zip(jref, ref)):
                return "JAXSELF"
        except Exception:  # noqa: BLE001
            pass
        return "BASE"
    return "BATCH"


def run_variant(g, kw, checks, oracle, index, grad_a):
    """Every check of one keyword variant; ``oracle`` None: JAX runs each check itself."""
    n = len(g.arrs)
    zero = (0,) * n
    # the unbatched function
    if oracle is not None:
        lv, tree = oracle
        base_a = (
            "ok",
            jax.tree_util.tree_unflatten(
                tree,
                [
                    Leaf(np.asarray(np.asarray(x)[index[zero]]), getattr(x, "weak_type", False))
                    for x in lv
                ],
            ),
        )
    else:
        base_a = s25.outcome(lambda: g.call("jax", kw, *g.arrs))
        if base_a[0] == "err":
            return
    base_b = s25.outcome(lambda: g.call("lite", kw, *g.arrs))
    d = s25.compare(base_a, base_b)
    if d is not None and oracle is not None:  # JAX's eager answer decides
        base_a = s25.outcome(lambda: g.call("jax", kw, *g.arrs))
        if base_a[0] == "err":
            return
        d = s25.compare(base_a, base_b)
    base_bad = False
    if d is not None:
        report("UNBATCHED_" + d[0], g, kw, "no vmap", d[1])
        if base_b[0] == "err" or d[0] in ("SHAPE", "STRUCT"):
            return
        base_bad = d[0] == "VALUE"
    for kind, axes, oa, tuples in checks:
        arrs_b = check_arrays(g, kind, axes) if kind != "axis_size" else list(g.arrs)
        rb = s25.outcome(lambda: lite_run(g, kw, kind, axes, oa, arrs_b))
        if oracle is not None and rb[0] == "ok":
            if kind == "axis_size":
                ra = (
                    "ok",
                    jax.tree_util.tree_map(
                        lambda x: np.broadcast_to(np.asarray(x), (B,) + np.shape(x)), base_a[1]
                    ),
                )
                wts = [getattr(x, "weak_type", False) for x in s25.leaves(base_a[1], "jax")]
                ra = (
                    "ok",
                    [Leaf(np.asarray(x), wt) for x, wt in zip(s25.leaves(ra[1], "jax"), wts)],
                )
            else:
                lv, tree = oracle
                vals = expected(oracle, index, tuples, kind, oa)
                ra = ("ok", [Leaf(y, getattr(x, "weak_type", False)) for y, x in zip(vals, lv)])
            d = s25.compare(ra, rb)
            if d is not None:
                # JAX's exact answer of this very check decides (XLA's jit can differ from
                # its eager ops: jit(vmap(grad(max))) with a NaN is 0, eagerly NaN)
                d = s25.compare(s25.outcome(lambda: jax_run(g, kw, kind, axes, oa, arrs_b)), rb)
        else:
            ra = s25.outcome(lambda: jax_run(g, kw, kind, axes, oa, arrs_b))
            d = s25.compare(ra, rb)
        if d is None:
            continue
        cls, det = d
        if cls == "VALUE":
            c = classify(g, kw, kind, axes, oa, arrs_b, rb[1]) or ("BASE?" if base_bad else "")
            if c.startswith("BASE") and base_bad or c == "JAXSELF":
                COUNTS["JAXSELF"] = COUNTS.get("JAXSELF", 0) + (c == "JAXSELF")
                continue
            det += " " + c
        report(cls, g, kw, f"{kind} in_axes={axes} out_axes={oa}", det)
    # vmap of grad (full batch) with respect to the first float argument
    if grad_a is None:
        return
    rb = s25.outcome(lambda: grad_fn(g, kw, "lite")(*g.batched((0,) * n)))
    d = s25.compare(("ok", grad_a), rb)
    if d is not None:  # JAX's eager answer decides
        ra = s25.outcome(lambda: grad_fn(g, kw, "jax")(*g.batched((0,) * n)))
        d = s25.compare(ra, rb)
    if d is not None and d[0] != "WEAK" and not (base_bad and d[0] == "VALUE"):
        report(d[0], g, kw, "vmap_grad", d[1])


def grad_fn(g, kw, lib):
    """vmap of the gradient of the sum of f's float outputs in its first float argument."""
    fpos = [i for i, x in enumerate(g.arrs) if x.dtype.kind == "f"]
    X = jax if lib == "jax" else jaxlite
    np_ = jnp if lib == "jax" else lnp

    def scalar(*a):
        r = g.call(lib, kw, *a)
        return sum(
            np_.sum(np_.real(t)) for t in s25.leaves(r, lib) if np_.issubdtype(t.dtype, np_.inexact)
        )

    return X.vmap(X.grad(scalar, argnums=fpos[0]))


def grad_oracles(g):
    """JAX's vmap-of-grad answers for every keyword variant from one jit (None where JAX
    raises: not checked)."""
    if not any(x.dtype.kind == "f" for x in g.arrs):
        return [None] * len(g.kws)
    arrs_b = g.batched((0,) * len(g.arrs))
    try:
        return jax.jit(lambda *a: [grad_fn(g, kw, "jax")(*a) for kw in g.kws])(*arrs_b)
    except Timeout:
        raise
    except Exception:  # noqa: BLE001
        out = []
        for kw in g.kws:
            try:
                out.append(jax.jit(grad_fn(g, kw, "jax"))(*arrs_b))
            except Timeout:
                raise
            except Exception:  # noqa: BLE001
                out.append(None)
        return out


def run_group(g):
    if not g.arrs:
        return
    checks = plan(g)
    all_tuples = list(dict.fromkeys(t for c in checks for t in c[3]))
    index = {t: i for i, t in enumerate(all_tuples)}
    try:
        oracles = jax_oracle(g, g.kws, all_tuples)
    except Timeout:
        raise
    except Exception:  # noqa: BLE001
        oracles = []
        for kw in g.kws:
            try:
                oracles.append(jax_oracle(g, [kw], all_tuples)[0])
            except Timeout:
                raise
            except Exception:  # noqa: BLE001
                oracles.append(None)
                SLOW.append(g.label(kw))
    for kw, orc, grad_a in zip(g.kws, oracles, grad_oracles(g)):
        run_variant(g, kw, checks, orc, index, grad_a)


def groups_for(name):
    cases = s25.cases_for("jnp", name)
    by_key: dict = {}
    for c in cases:
        key = tuple(id(x) if s25.is_arr(x) else repr(x) for x in c.flat)
        key = (key, repr(c.tree))
        if key not in by_key:
            by_key[key] = (c.args, [])
        if c.kwargs not in by_key[key][1]:
            by_key[key][1].append(c.kwargs)
    out = []
    for args, kws in by_key.values():
        out.append(Group(name, args, kws, s25.variant, False))
        leaves_ = jax.tree_util.tree_leaves(args, is_leaf=lambda x: x is None)
        arrs = [x for x in leaves_ if s25.is_arr(x)]
        kw_arrays = any(s25.is_arr(x) for kw in kws for x in jax.tree_util.tree_leaves(kw))
        if (
            not kw_arrays
            and arrs
            and all(id(x) in EDGE_OF or id(x) in SCALARS for x in arrs)
            and any(id(x) in EDGE_OF for x in arrs)
        ):

            def edge(x):
                y = EDGE_OF.get(id(x), x)
                if name in NO_INT_MIN and y.dtype == np.int32:
                    y = np.maximum(y, np.int32(-(2**31) + 1))
                return y

            eargs = jax.tree_util.tree_map(
                lambda x: edge(x) if s25.is_arr(x) else x,
                args,
                is_leaf=lambda x: x is None,
            )
            out.append(Group(name, eargs, kws, roll_variant, True))
    return out


def names():
    seen = set()
    for n in s25.names_in("jnp"):
        key = (id(getattr(jnp, n)), id(getattr(lnp, n)))
        if key in seen:
            continue
        seen.add(key)
        yield n


def main(argv):
    todo = argv or list(names())
    if os.environ.get("SWEEP_FROM"):  # resume at this name
        todo = todo[todo.index(os.environ["SWEEP_FROM"]) :]
    if os.environ.get("SWEEP_SHARD"):
        i, k = map(int, os.environ["SWEEP_SHARD"].split("/"))
        todo = todo[i::k]
    signal.signal(signal.SIGALRM, _alarm)
    t_all = time.time()
    for n in todo:
        n = n.removeprefix("jnp.")
        t0 = time.time()
        try:
            gs = groups_for(n)
        except Exception as e:  # noqa: BLE001
            print(f"SETUP        jnp.{n}: {type(e).__name__}: {s25.first_line(e)}")
            continue
        for g in gs:
            signal.alarm(int(os.environ.get("SWEEP_TIMEOUT", "120")))
            try:
                run_group(g)
            except Timeout:
                report("TIMEOUT", g, {}, "group", "")
            except Exception as e:  # noqa: BLE001
                print(
                    f"HARNESS      {g.label({})}: {type(e).__name__}: {s25.first_line(e)}",
                    flush=True,
                )
            finally:
                signal.alarm(0)
        print(
            f"jnp.{n} {len(gs)} groups {sum(len(g.kws) for g in gs)} variants {time.time() - t0:.1f}s",
            file=sys.stderr,
            flush=True,
        )
    print(f"slow path (JAX jit could not take it): {len(SLOW)}", SLOW[:40])
    print(f"total {time.time() - t_all:.0f}s counts:", dict(sorted(COUNTS.items())))


if __name__ == "__main__":
    main(sys.argv[1:])
