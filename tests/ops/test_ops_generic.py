"""Every row of tests/ops/op_specs.py under every transformation.

For each spec:

* eager jaxlite vs the reference (real JAX when importable, else the row's NumPy function),
  and result dtype and weak type vs JAX (in the same test: JAX computes each row once);
* ``jit`` vs eager;
* ``vmap`` vs a Python loop (all array arguments batched on axis 0; and the first one alone
  batched on its last axis);
* ``jvp`` and ``grad`` vs central finite differences in float64 (order 1, and order 2 where
  the row asks for it).

Runs unchanged on JAX in oracle mode (``JAXLITE_ORACLE=jax``).
"""

from __future__ import annotations

import importlib
import os
import sys

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy  # noqa: F401

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from op_specs import SPECS, draw_args  # noqa: E402

try:  # the oracle
    import jax as _jax
    import jax.nn  # noqa: F401
    import jax.numpy  # noqa: F401
    import jax.scipy.special  # noqa: F401

    _jax.config.update("jax_platforms", "cpu")
except Exception:  # pragma: no cover - JAX absent
    _jax = None


class _NS:
    """The names a spec row resolves: ``jnp``, ``lax``, ``nn``, ``special``, ``linalg``."""

    def __init__(self, root: str):
        self.root = root

    @property
    def jnp(self):
        return importlib.import_module(self.root + ".numpy")

    @property
    def lax(self):
        return importlib.import_module(self.root + ".lax")

    @property
    def nn(self):
        return importlib.import_module(self.root + ".nn")

    @property
    def special(self):
        return importlib.import_module(self.root + ".scipy.special")

    @property
    def linalg(self):
        return self.jnp.linalg


LITE = _NS("jaxlite")
REF = _NS("jax") if _jax is not None else None

IDS = [s.name for s in SPECS]


def _leaves(x):
    if isinstance(x, (tuple, list)):
        out = []
        for y in x:
            out.extend(_leaves(y))
        return out
    return [x]


def _is_static(a):
    return not isinstance(a, np.ndarray)


def _call(spec, ns, args, array_maker):
    """Call ``spec`` with NumPy ``args`` turned into arrays by ``array_maker``."""
    f = spec.fn(ns)
    return f(*[a if _is_static(a) else array_maker(a) for a in args])


def _closure(spec, ns, args):
    """(function of the array arguments only, the array arguments)."""
    f = spec.fn(ns)
    pos = [i for i, a in enumerate(args) if not _is_static(a)]

    def g(*arrays):
        full = list(args)
        for i, a in zip(pos, arrays):
            full[i] = a
        return f(*full)

    return g, [args[i] for i in pos]


def _assert_close(actual, expected, rtol, atol, what=""):
    la, le = _leaves(actual), _leaves(expected)
    assert len(la) == len(le), f"{what}: {len(la)} outputs vs {len(le)}"
    for a, e in zip(la, le):
        a, e = np.asarray(a), np.asarray(e)
        assert a.shape == e.shape, f"{what}: shape {a.shape} vs {e.shape}"
        if a.dtype.kind in "biu" and e.dtype.kind in "biu":
            np.testing.assert_array_equal(a, e, err_msg=what)
        else:
            np.testing.assert_allclose(
                a.astype(np.complex128 if a.dtype.kind == "c" else np.float64),
                e,
                rtol=rtol,
                atol=atol,
                equal_nan=True,
                err_msg=what,
            )


# ------------------------------------------------------- eager values, dtypes, weak types
@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_eager_vs_reference(spec):
    """Values against the reference, then result dtypes and weak types against JAX: one test,
    so that JAX computes each row once (its eager operations compile one XLA executable per
    primitive and shape, most of this file's time)."""
    args = draw_args(spec)
    out = _call(spec, LITE, args, LITE.jnp.asarray)
    if REF is not None:
        expected = _call(spec, REF, args, REF.jnp.asarray)
    elif spec.ref is not None:
        expected = spec.ref(*args)
    else:  # pragma: no cover
        pytest.skip("no reference for this row without JAX")
    _assert_close(out, expected, spec.rtol, spec.atol, spec.name)
    if REF is not None:
        _assert_dtypes_and_weak_types(out, expected)


def _assert_dtypes_and_weak_types(out, expected):
    for a, e in zip(_leaves(out), _leaves(expected)):
        assert np.dtype(a.dtype) == np.dtype(e.dtype), f"dtype {a.dtype} vs {e.dtype}"
        assert bool(getattr(a, "weak_type", False)) == bool(getattr(e, "weak_type", False)), (
            "weak_type differs"
        )


@pytest.mark.parametrize(
    "spec",
    [s for s in SPECS if s.ref is not None],
    ids=[s.name for s in SPECS if s.ref is not None],
)
def test_numpy_reference_shape(spec):
    """The NumPy reference of a row agrees on output structure and shapes."""
    args = draw_args(spec)
    out = _call(spec, LITE, args, LITE.jnp.asarray)
    expected = spec.ref(*args)
    la, le = _leaves(out), _leaves(expected)
    assert len(la) == len(le)
    for a, e in zip(la, le):
        assert np.shape(a) == np.shape(e)


# ------------------------------------------------------------------------------ jit
@pytest.mark.parametrize("spec", [s for s in SPECS if s.jit], ids=[s.name for s in SPECS if s.jit])
def test_jit_vs_eager(spec):
    args = draw_args(spec)
    g, arrays = _closure(spec, LITE, args)
    arrays = [LITE.jnp.asarray(a) for a in arrays]
    eager = g(*arrays)
    jitted = jaxlite.jit(g)(*arrays)
    _assert_close(jitted, eager, 1e-6, 1e-6, spec.name)
    for a, b in zip(_leaves(jitted), _leaves(eager)):
        assert a.dtype == b.dtype


# ------------------------------------------------------------------------------ vmap
def _stack(trees):
    return [np.stack([np.asarray(x) for x in xs]) for xs in zip(*[_leaves(t) for t in trees])]


@pytest.mark.parametrize(
    "spec", [s for s in SPECS if s.vmap], ids=[s.name for s in SPECS if s.vmap]
)
def test_vmap_all_args_vs_loop(spec):
    sets = [draw_args(spec, k) for k in (1, 2, 3)]
    g, _ = _closure(spec, LITE, sets[0])
    pos = [i for i, a in enumerate(sets[0]) if not _is_static(a)]
    if not pos:
        pytest.skip("no array arguments")
    per = []
    for s in sets:
        gi, arrays = _closure(spec, LITE, s)
        per.append(gi(*[LITE.jnp.asarray(a) for a in arrays]))
    batched = [LITE.jnp.asarray(np.stack([s[i] for s in sets])) for i in pos]
    out = jaxlite.vmap(g)(*batched)
    _assert_close(out, _stack(per), max(spec.rtol, 1e-5), max(spec.atol, 1e-6), spec.name)


@pytest.mark.parametrize(
    "spec", [s for s in SPECS if s.vmap], ids=[s.name for s in SPECS if s.vmap]
)
def test_vmap_first_arg_last_axis_vs_loop(spec):
    sets = [draw_args(spec, k) for k in (4, 5, 6)]
    pos = [i for i, a in enumerate(sets[0]) if not _is_static(a)]
    if not pos:
        pytest.skip("no array arguments")
    first = pos[0]
    fixed = sets[0]
    per = []
    for s in sets:
        args = list(fixed)
        args[first] = s[first]
        gi, arrays = _closure(spec, LITE, args)
        per.append(gi(*[LITE.jnp.asarray(a) for a in arrays]))
    nd = np.ndim(fixed[first])
    stacked = np.stack([s[first] for s in sets], axis=nd)
    g, arrays = _closure(spec, LITE, fixed)
    in_axes = [None] * len(arrays)
    in_axes[0] = nd
    arrays = [LITE.jnp.asarray(a) for a in arrays]
    arrays[0] = LITE.jnp.asarray(stacked)
    out = jaxlite.vmap(g, in_axes=tuple(in_axes))(*arrays)
    _assert_close(out, _stack(per), max(spec.rtol, 1e-5), max(spec.atol, 1e-6), spec.name)


# --------------------------------------------------------------------- derivatives
def _params(specs):
    return [
        pytest.param(s, id=s.name, marks=[pytest.mark.jaxlite_only] if s.grad_jaxlite_only else [])
        for s in specs
    ]


JVP_SPECS = _params([s for s in SPECS if s.grad >= 1])
GRAD_SPECS = _params([s for s in SPECS if s.grad >= 1 and s.reverse])
JVP2_SPECS = _params([s for s in SPECS if s.grad >= 2])
GRAD2_SPECS = _params([s for s in SPECS if s.grad >= 2 and s.reverse])
EPS = 1e-6


def _diff_setup(spec):
    """x64 on; float args as float64; returns (f of the float args, primals, tangents,
    cotangent weights)."""
    jaxlite.config.update("jax_enable_x64", True)
    args = draw_args(spec)
    args = [
        a.astype(np.float64) if isinstance(a, np.ndarray) and a.dtype == np.float32 else a
        for a in args
    ]
    jnp = LITE.jnp
    diff = [i for i, a in enumerate(args) if isinstance(a, np.ndarray) and a.dtype.kind == "f"]
    f = spec.fn(LITE)

    def fd(*xs):
        full = [a if _is_static(a) else jnp.asarray(a) for a in args]
        for i, x in zip(diff, xs):
            full[i] = x
        return f(*full)

    rng = np.random.default_rng(7)
    primals = [jnp.asarray(args[i]) for i in diff]
    tangents = [jnp.asarray(rng.standard_normal(args[i].shape)) for i in diff]
    outs = _leaves(fd(*primals))
    weights = [rng.standard_normal(np.shape(o)) for o in outs]
    return fd, primals, tangents, weights


def _float_leaves(tree):
    return [o for o in _leaves(tree) if np.dtype(o.dtype).kind in "fc"]


def _axpy(xs, ts, e):
    return [x + e * t for x, t in zip(xs, ts)]


def _directional_fd(fun, primals, tangents):
    plus = _leaves(fun(*_axpy(primals, tangents, EPS)))
    minus = _leaves(fun(*_axpy(primals, tangents, -EPS)))
    return [
        (np.asarray(p, np.float64) - np.asarray(m, np.float64)) / (2 * EPS)
        if np.dtype(p.dtype).kind in "fc"
        else None
        for p, m in zip(plus, minus)
    ]


@pytest.mark.parametrize("spec", JVP_SPECS)
def test_jvp_vs_finite_differences(spec):
    fd, primals, tangents, _ = _diff_setup(spec)
    _, t_out = jaxlite.jvp(fd, tuple(primals), tuple(tangents))
    expected = _directional_fd(fd, primals, tangents)
    for t, e in zip(_leaves(t_out), expected):
        if e is None:
            continue
        np.testing.assert_allclose(
            np.asarray(t), e, rtol=spec.grad_rtol, atol=1e-5, err_msg=spec.name
        )


def _scalarized(fd, weights):
    jnp = LITE.jnp

    def s(*xs):
        total = 0.0
        for o, w in zip(_leaves(fd(*xs)), weights):
            if np.dtype(o.dtype).kind in "fc":
                total = total + jnp.sum(jnp.real(o) * jnp.asarray(w))
        return total

    return s


@pytest.mark.parametrize("spec", GRAD_SPECS)
def test_grad_vs_finite_differences(spec):
    fd, primals, tangents, weights = _diff_setup(spec)
    s = _scalarized(fd, weights)
    grads = jaxlite.grad(s, argnums=tuple(range(len(primals))))(*primals)
    got = sum(float(np.sum(np.asarray(g) * np.asarray(t))) for g, t in zip(grads, tangents))
    (expected,) = _directional_fd(s, primals, tangents)
    np.testing.assert_allclose(got, expected, rtol=spec.grad_rtol, atol=1e-5, err_msg=spec.name)


@pytest.mark.parametrize("spec", JVP2_SPECS)
def test_jvp_of_jvp_vs_finite_differences(spec):
    fd, primals, tangents, _ = _diff_setup(spec)

    def first(*xs):
        return jaxlite.jvp(fd, tuple(xs), tuple(tangents))[1]

    _, t2 = jaxlite.jvp(first, tuple(primals), tuple(tangents))
    expected = _directional_fd(first, primals, tangents)
    for t, e in zip(_leaves(t2), expected):
        if e is None:
            continue
        np.testing.assert_allclose(np.asarray(t), e, rtol=1e-3, atol=1e-4, err_msg=spec.name)


@pytest.mark.parametrize("spec", GRAD2_SPECS)
def test_grad_of_grad_vs_finite_differences(spec):
    fd, primals, tangents, weights = _diff_setup(spec)
    s = _scalarized(fd, weights)
    jnp = LITE.jnp
    argnums = tuple(range(len(primals)))

    def gdot(*xs):
        gs = jaxlite.grad(s, argnums=argnums)(*xs)
        return sum(jnp.sum(g * t) for g, t in zip(gs, tangents))

    h = jaxlite.grad(gdot, argnums=argnums)(*primals)
    got = sum(float(np.sum(np.asarray(g) * np.asarray(t))) for g, t in zip(h, tangents))
    e = 1e-4
    f0 = float(s(*primals))
    fp = float(s(*_axpy(primals, tangents, e)))
    fm = float(s(*_axpy(primals, tangents, -e)))
    expected = (fp - 2 * f0 + fm) / e**2
    np.testing.assert_allclose(got, expected, rtol=1e-3, atol=1e-3, err_msg=spec.name)


# ------------------------------------------------------- jitted code binds nothing
@pytest.mark.parametrize("spec", [s for s in SPECS if s.jit], ids=[s.name for s in SPECS if s.jit])
def test_jitted_call_binds_no_primitive(spec, monkeypatch):
    """A compiled function runs NumPy-level impl rules: none may fall back to jaxlite's eager
    API at run time (e.g. through a module-level name such as ``abs`` that is the lax
    function, not the builtin; ``integer_pow`` with a negative exponent did so and cost
    ~0.5 ms a call instead of ~1 us)."""
    from jaxlite._src.core import trace as core_trace

    args = draw_args(spec)
    g, arrays = _closure(spec, LITE, args)
    arrays = [LITE.jnp.asarray(a) for a in arrays]
    f = jaxlite.jit(g)
    f(*arrays)  # trace and compile
    bound = []
    original = core_trace.EvalTrace.process_primitive

    def counting(self, primitive, args, params):
        bound.append(primitive.name)
        return original(self, primitive, args, params)

    monkeypatch.setattr(core_trace.EvalTrace, "process_primitive", counting)
    f(*arrays)
    monkeypatch.undo()
    assert bound == [], f"{spec.name}: the jitted call bound {sorted(set(bound))} eagerly"
