"""``jax.scipy.sparse.linalg`` ``cg``/``bicgstab``/``gmres`` against real JAX: solutions
(also after a few iterations, which pins the iteration and stopping rules), pytree
right-hand sides, preconditioners, complex systems, the errors, and ``jit``, ``vmap``,
``grad`` and ``jvp`` (implicit differentiation through ``lax.custom_linear_solve``).

JAX's outputs are recorded in sparse_linalg_reference.npz (``record()`` below, written by
make_jax_reference.py), since JAX compiles every configuration anew; ``test_live_sample``
re-runs a sample on the installed JAX every time, so the recording cannot drift from JAX
unnoticed."""

from __future__ import annotations

import functools
import pathlib

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.scipy.sparse.linalg as jsl  # noqa: E402

import jaxlite  # noqa: E402
import jaxlite.scipy.sparse.linalg as lsl  # noqa: E402

jax.config.update("jax_platforms", "cpu")

N = 6
_rng = np.random.default_rng(0)
_B = _rng.normal(size=(N, N)).astype(np.float32)
SPD = (_B @ _B.T + N * np.eye(N)).astype(np.float32)
NONSYM = (_rng.normal(size=(N, N)) + 3 * np.eye(N)).astype(np.float32)
RHS = _rng.normal(size=N).astype(np.float32)
X0 = _rng.normal(size=N).astype(np.float32)
PRECOND = np.diag(1.0 / np.diag(SPD)).astype(np.float32)
_C = (_rng.normal(size=(N, N)) + 1j * _rng.normal(size=(N, N))).astype(np.complex64)
HPD = (_C @ _C.conj().T + N * np.eye(N)).astype(np.complex64)
CRHS = (_rng.normal(size=N) + 1j * _rng.normal(size=N)).astype(np.complex64)


def _close(lite, ref, rtol=2e-5, atol=2e-6, what=""):
    lite_l, ref_l = jax.tree_util.tree_leaves(lite), jax.tree_util.tree_leaves(ref)
    assert jax.tree_util.tree_structure(ref) == jax.tree_util.tree_structure(
        jaxlite.tree_util.tree_map(np.asarray, lite)
    ), what
    for a, b in zip(lite_l, ref_l):
        a, b = np.asarray(a), np.asarray(b)
        assert a.dtype == b.dtype, f"{what}: dtype {a.dtype} != JAX {b.dtype}"
        assert a.shape == b.shape, f"{what}: shape {a.shape} != JAX {b.shape}"
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg=what)


def _solver_cases():
    # JAX compiles every configuration anew (seconds for gmres): few gmres cases.
    cases = []
    for name, A in (("cg", SPD), ("bicgstab", NONSYM)):
        cases.append((name, A, {}))
        cases.append((name, A, {"x0": X0}))
        cases.append((name, A, {"maxiter": 2}))  # unconverged: pins the iteration itself
        cases.append((name, A, {"tol": 1e-2}))
        cases.append((name, A, {"atol": 1e-1, "tol": 0.0}))
    cases.append(("cg", SPD, {"M": PRECOND}))
    cases.append(("cg", SPD, {"M": PRECOND, "maxiter": 2}))
    cases.append(("bicgstab", NONSYM, {"M": PRECOND, "maxiter": 1}))
    cases.append(("gmres", NONSYM, {"x0": X0}))
    cases.append(("gmres", NONSYM, {"restart": 2, "maxiter": 1, "tol": 1e-3}))
    cases.append(("gmres", NONSYM, {"solve_method": "incremental", "restart": 3, "maxiter": 1}))
    cases.append(("gmres", NONSYM, {"solve_method": "incremental", "M": PRECOND}))
    return cases


SOLVER_CASES = _solver_cases()
A2_OFFSET = 2 * np.eye(4, dtype=np.float32)
BREAKDOWN = (
    np.array([[0.0, 1.0], [-1.0, 0.0]], np.float32),  # b orthogonal to A b: rho becomes 0
    np.array([1.0, 0.0], np.float32),  # on the second step
)


def _pytree_op(module, A):
    # A block-diagonal operator on a dict of two vectors (one of them 2-D).
    A2 = A[:4, :4] + A2_OFFSET

    def matvec(v):
        return {"a": module.numpy.dot(A, v["a"]), "m": (A2 @ v["m"].reshape(4)).reshape(2, 2)}

    return matvec


PYTREE_B = {"a": RHS, "m": RHS[:4].reshape(2, 2)}


def _loss(module, name):
    solver = getattr(module.scipy.sparse.linalg, name)
    return lambda A, b: (solver(A, b)[0] ** 2).sum()


def outputs(m, sl):
    """Every output compared with JAX below, by name, computed with ``m`` (``jax`` or
    ``jaxlite``) and its ``scipy.sparse.linalg`` ``sl``: name -> a thunk."""
    out = {}
    for i, (name, A, kw) in enumerate(SOLVER_CASES):
        out[f"solve-{i}"] = lambda name=name, A=A, kw=kw: getattr(sl, name)(A, RHS, **kw)
    for name, A in (("cg", SPD), ("bicgstab", NONSYM), ("gmres", NONSYM)):
        out[f"pytree-{name}"] = lambda name=name, A=A: getattr(sl, name)(
            _pytree_op(m, A), PYTREE_B
        )[0]
    out["complex-cg"] = lambda: sl.cg(HPD, CRHS)[0]
    out["complex-cg-2"] = lambda: sl.cg(HPD, CRHS, maxiter=2)[0]
    out["complex-gmres"] = lambda: sl.gmres(HPD, CRHS, solve_method="incremental")[0]
    out["breakdown"] = lambda: sl.bicgstab(*BREAKDOWN)[0]
    for name, A in (("cg", SPD), ("bicgstab", NONSYM)):
        out[f"grad-{name}"] = lambda name=name, A=A: m.grad(_loss(m, name), argnums=(0, 1))(A, RHS)
    return out


def _flat(value):
    """A result as {key: array}: the leaves of tuples/dicts by path, None kept as a flag."""
    if value is None:
        return {"none": np.array(True)}
    if isinstance(value, dict):
        return {f"{k}.{p}": a for k in sorted(value) for p, a in _flat(value[k]).items()}
    if isinstance(value, (tuple, list)):
        return {f"{i}.{p}": a for i, v in enumerate(value) for p, a in _flat(v).items()}
    return {"": np.asarray(value)}


def _unflat(entries: dict):
    if set(entries) == {"none"}:
        return None
    if set(entries) == {""}:
        return entries[""]
    groups: dict = {}
    for path, a in entries.items():
        head, _, rest = path.partition(".")
        groups.setdefault(head, {})[rest] = a
    if all(h.isdigit() for h in groups):
        return tuple(_unflat(groups[str(i)]) for i in range(len(groups)))
    return {h: _unflat(g) for h, g in groups.items()}


def record() -> dict:
    """JAX's outputs, flattened for an .npz (what make_jax_reference.py stores)."""
    return {
        f"{name}|{path}": a
        for name, thunk in outputs(jax, jsl).items()
        for path, a in _flat(thunk()).items()
    }


@functools.cache
def _recorded_all():
    return dict(np.load(pathlib.Path(__file__).with_name("sparse_linalg_reference.npz")))


def ref(name):
    entries = {k.split("|", 1)[1]: v for k, v in _recorded_all().items() if k.split("|")[0] == name}
    assert entries, name
    return _unflat(entries)


LITE = outputs(jaxlite, lsl)


@pytest.mark.parametrize("i", range(len(SOLVER_CASES)))
def test_solution_matches_jax(i):
    name, A, kw = SOLVER_CASES[i]
    want = ref(f"solve-{i}")
    lite = LITE[f"solve-{i}"]()
    _close(lite[0], want[0], what=f"{name} {kw}")
    if name == "gmres":
        _close(lite[1], want[1], what="gmres info")
    else:
        assert lite[1] is None and want[1] is None


@pytest.mark.parametrize("name", ["cg", "bicgstab", "gmres"])
def test_callable_operator_and_pytree_rhs(name):
    _close(LITE[f"pytree-{name}"](), ref(f"pytree-{name}"), what=f"{name} pytree")


def test_complex_cg_and_gmres():
    _close(LITE["complex-cg"](), ref("complex-cg"), what="complex cg")
    _close(LITE["complex-cg-2"](), ref("complex-cg-2"), what="cg 2 its")
    _close(LITE["complex-gmres"](), ref("complex-gmres"), what="complex gmres")


def test_bicgstab_breakdown_stops_like_jax():
    _close(LITE["breakdown"](), ref("breakdown"), what="breakdown")


LIVE = ["solve-0", "solve-11", "pytree-cg", "breakdown"]


@pytest.mark.parametrize("name", LIVE)
def test_live_sample(name):
    live, want = outputs(jax, jsl)[name](), ref(name)
    assert jax.tree_util.tree_structure(live) == jax.tree_util.tree_structure(want), name
    for a, w in zip(jax.tree_util.tree_leaves(live), jax.tree_util.tree_leaves(want)):
        a = np.asarray(a)
        assert a.dtype == w.dtype, name
        np.testing.assert_array_equal(a, w)  # the recording is JAX's output
    lite = LITE[name]()
    _close(lite, live, what=name)


@pytest.mark.parametrize(
    "call,exc,msg",
    [
        (
            lambda m: m.cg(np.ones((2, 3), np.float32), np.ones(2, np.float32)),
            ValueError,
            "linear operator must be a square matrix, but has shape: (2, 3)",
        ),
        (
            lambda m: m.cg("A", np.ones(2, np.float32)),
            TypeError,
            "linear operator must be either a function or ndarray: A",
        ),
        (
            lambda m: m.cg(SPD, RHS, x0=(RHS,)),
            ValueError,
            "x0 and b must have matching tree structure",
        ),
        (
            lambda m: m.bicgstab(NONSYM, RHS, x0=RHS[:3]),
            ValueError,
            "arrays in x0 and b must have matching shapes: [(3,)] vs [(6,)]",
        ),
        (
            lambda m: m.gmres(NONSYM, RHS, solve_method="qr"),
            ValueError,
            "invalid solve_method qr, must be either 'incremental' or 'batched'",
        ),
    ],
)
def test_errors(call, exc, msg):
    with pytest.raises(exc) as ref:
        call(jsl)
    with pytest.raises(exc) as lite:
        call(lsl)
    assert msg in str(ref.value)
    assert msg in str(lite.value)


SOLVERS = [("cg", SPD), ("bicgstab", NONSYM), ("gmres", NONSYM)]


@pytest.mark.parametrize("name,A", SOLVERS)
def test_jit_vmap_against_eager(name, A):
    # eager jaxlite is checked against JAX above; here jit and vmap against it.
    solver = getattr(lsl, name)
    eager = solver(A, RHS)[0]
    _close(jaxlite.jit(lambda A, b: solver(A, b)[0])(A, RHS), eager, what="jit")
    bs = _rng.normal(size=(3, N)).astype(np.float32)
    As = np.stack([A, A + np.eye(N, dtype=np.float32), 2 * A])
    loop = np.stack([np.asarray(solver(A, b)[0]) for b in bs])
    _close(jaxlite.vmap(lambda b: solver(A, b)[0])(bs), loop, what="vmap b")
    loop = np.stack([np.asarray(solver(a, RHS)[0]) for a in As])
    _close(jaxlite.jit(jaxlite.vmap(lambda A: solver(A, RHS)[0]))(As), loop, what="vmap A")


@pytest.mark.parametrize("name,A", SOLVERS)
def test_implicit_derivatives_exact(name, A):
    # L = |x|^2, x = A^-1 b: dL/db = g = 2 A^-T x, dL/dA = -g x^T.
    lite = jaxlite.grad(_loss(jaxlite, name), argnums=(0, 1))(A, RHS)
    x = np.linalg.solve(A.astype(np.float64), RHS)
    g = 2 * np.linalg.solve(A.T.astype(np.float64), x)
    np.testing.assert_allclose(np.asarray(lite[1]), g, rtol=1e-3, atol=1e-4)
    np.testing.assert_allclose(np.asarray(lite[0]), -np.outer(g, x), rtol=1e-3, atol=1e-4)
    jit_grad = jaxlite.jit(jaxlite.grad(_loss(jaxlite, name), argnums=1))(A, RHS)
    _close(jit_grad, lite[1], rtol=1e-5, atol=1e-6, what="jit grad")
    t = np.ones(N, np.float32)
    _, tangent = jaxlite.jvp(lambda b: getattr(lsl, name)(A, b)[0], (RHS,), (t,))
    np.testing.assert_allclose(np.asarray(tangent), np.linalg.solve(A, t), rtol=1e-3, atol=1e-4)


@pytest.mark.parametrize("name", ["cg", "bicgstab"])
def test_derivatives_match_jax(name):
    _close(LITE[f"grad-{name}"](), ref(f"grad-{name}"), rtol=1e-4, atol=1e-5, what=f"{name} grad")
