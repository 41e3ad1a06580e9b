"""Weak types through linear algebra, differential against JAX (session 9).

JAX's linalg primitives (cholesky, triangular_solve, lu, qr, eigh, svd, schur,
hessenberg, ...) give every output the weak type "all operands weak", so a weakly typed
float32 matrix stays weak through ``jnp.linalg.solve``, ``jax.scipy.linalg.cho_solve`` and
friends. jaxlite's abstract-eval rules used to drop it (strong float32 out).

JAX's side of every comparison is recorded in linalg_weak_s9_reference.npz (regenerate with
``python tests/hunt/make_linalg_weak_s9_reference.py``), since JAX compiles each case anew;
``test_live_sample`` re-runs a sample on the installed JAX every time, so the recording
cannot drift from JAX unnoticed.
"""

import ast
import functools
import pathlib

import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl
import numpy as np
import pytest
from jax._src.lax.lax import _convert_element_type as _jax_cet

import jaxlite
import jaxlite.numpy as lnp
import jaxlite.scipy.linalg as lsl
from jaxlite._src.ops.conversion import convert_element_type as _lite_cet

_A = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], np.float32)
_B = np.array([1.0, 2.0, 3.0], np.float32)
_F32 = np.dtype("float32")


def _weak(lib, x):
    if lib == "jax":
        return _jax_cet(x, _F32, weak_type=True)
    return _lite_cet(x, _F32, True)


def _cases(np_, sl, lax_):
    return {
        "np.solve": lambda w: np_.linalg.solve(w(_A), w(_B)),
        "np.solve_mat": lambda w: np_.linalg.solve(w(_A), w(_A)),
        "np.solve_mixed": lambda w: np_.linalg.solve(w(_A), _B),
        "np.cholesky": lambda w: np_.linalg.cholesky(w(_A)),
        "np.inv": lambda w: np_.linalg.inv(w(_A)),
        "np.eigh": lambda w: np_.linalg.eigh(w(_A)),
        "np.eigvalsh": lambda w: np_.linalg.eigvalsh(w(_A)),
        "np.qr": lambda w: np_.linalg.qr(w(_A)),
        "np.svd": lambda w: np_.linalg.svd(w(_A)),
        "np.svdvals": lambda w: np_.linalg.svd(w(_A), compute_uv=False),
        "np.lstsq": lambda w: np_.linalg.lstsq(w(_A), w(_B)),
        "np.tensorsolve": lambda w: np_.linalg.tensorsolve(w(_A), w(_B)),
        "np.cond": lambda w: np_.linalg.cond(w(_A)),
        "np.matrix_power": lambda w: np_.linalg.matrix_power(w(_A), 2),
        "sp.solve": lambda w: sl.solve(w(_A), w(_B)),
        "sp.solve_pos": lambda w: sl.solve(w(_A), w(_B), assume_a="pos"),
        "sp.cholesky": lambda w: sl.cholesky(w(_A)),
        "sp.cholesky_lower": lambda w: sl.cholesky(w(_A), lower=True),
        "sp.cho_factor": lambda w: sl.cho_factor(w(_A)),
        "sp.cho_solve": lambda w: sl.cho_solve((w(_A), False), w(_B)),
        "sp.cho_solve_mixed": lambda w: sl.cho_solve((w(_A), True), _B),
        "sp.lu": lambda w: sl.lu(w(_A)),
        "sp.lu_factor": lambda w: sl.lu_factor(w(_A)),
        "sp.lu_solve": lambda w: sl.lu_solve(sl.lu_factor(w(_A)), w(_B)),
        "sp.solve_triangular": lambda w: sl.solve_triangular(w(_A), w(_B)),
        "sp.solve_triangular_T": lambda w: sl.solve_triangular(w(_A), w(_A), trans=1, lower=True),
        "sp.qr": lambda w: sl.qr(w(_A)),
        "sp.svd": lambda w: sl.svd(w(_A)),
        "sp.eigh": lambda w: sl.eigh(w(_A)),
        "sp.schur": lambda w: sl.schur(w(_A)),
        "sp.hessenberg": lambda w: sl.hessenberg(w(_A)),
        "sp.polar": lambda w: sl.polar(w(_A)),
        "sp.polar_svd": lambda w: sl.polar(w(_A), method="svd"),
        "sp.expm": lambda w: sl.expm(w(_A)),
        "lax.cholesky": lambda w: lax_.linalg.cholesky(w(_A)),
        "lax.qr": lambda w: lax_.linalg.qr(w(_A)),
        "lax.lu": lambda w: lax_.linalg.lu(w(_A)),
        "lax.eigh": lambda w: lax_.linalg.eigh(w(_A)),
        "lax.triangular_solve": lambda w: lax_.linalg.triangular_solve(
            w(_A), w(_A), left_side=True, lower=True
        ),
        "lax.triangular_solve_mixed": lambda w: lax_.linalg.triangular_solve(
            w(_A), _A, left_side=True
        ),
        "lax.hessenberg": lambda w: lax_.linalg.hessenberg(w(_A)),
    }


_JAX = _cases(jnp, jsl, jax.lax)
_LITE = _cases(lnp, lsl, jaxlite.lax)


def _sig(lib, tree_util, out):
    leaves = [x for x in tree_util.tree_leaves(out) if not isinstance(x, bool)]
    return [(str(x.dtype), bool(x.weak_type), tuple(x.shape)) for x in leaves]


_EAGER = ["np.solve", "np.eigh", "sp.cho_solve", "sp.lu_solve", "lax.lu", "sp.polar"]
WEAK_CASES = [(n, True) for n in sorted(_JAX)] + [(n, False) for n in _EAGER]
STRONG_CASES = ["np.solve", "sp.cho_solve", "lax.lu", "lax.eigh", "np.svd"]


def weak_sig(lib, name, jit):
    """The (dtype, weak_type, shape) of each output of case ``name`` on weak inputs."""
    mod, cases = (jax, _JAX) if lib == "jax" else (jaxlite, _LITE)
    f = lambda a: cases[name](lambda x: _weak(lib, x) * a)  # noqa: E731  a: weak f32 1.0
    return _sig(lib, mod.tree_util, mod.jit(f)(1.0) if jit else f(1.0))


def strong_sig(lib, name):
    mod, np_, cases = (jax, jnp, _JAX) if lib == "jax" else (jaxlite, lnp, _LITE)
    return _sig(lib, mod.tree_util, cases[name](lambda x: np_.asarray(x)))


def solve_value_and_grad(lib):
    mod, np_, sl = (jax, jnp, jsl) if lib == "jax" else (jaxlite, lnp, lsl)

    def g(a):
        m = _weak(lib, _A) * a
        return np_.sum(sl.cho_solve(sl.cho_factor(m), _weak(lib, _B) * a)) + np_.sum(
            np_.linalg.solve(m, m)
        )

    return mod.jit(mod.value_and_grad(g))(1.5)


def vmap_solve(lib):
    mod, np_ = (jax, jnp) if lib == "jax" else (jaxlite, lnp)
    return mod.vmap(lambda s: np_.linalg.solve(_weak(lib, _A) * s, _weak(lib, _B)))(
        np.array([1.0, 2.0], np.float32)
    )


def record() -> dict:
    """JAX's side of every test below (what make_linalg_weak_s9_reference.py stores)."""
    out = {f"weak|{n}|{j}": np.array(repr(weak_sig("jax", n, j))) for n, j in WEAK_CASES}
    out.update({f"strong|{n}": np.array(repr(strong_sig("jax", n))) for n in STRONG_CASES})
    v, g = solve_value_and_grad("jax")
    out["solve|value"], out["solve|grad"] = np.asarray(v), np.asarray(g)
    want = vmap_solve("jax")
    out["vmap|value"], out["vmap|weak"] = np.asarray(want), np.array(bool(want.weak_type))
    return out


@functools.cache
def _recorded():
    return dict(np.load(pathlib.Path(__file__).with_name("linalg_weak_s9_reference.npz")))


def recorded_sig(key):
    return ast.literal_eval(str(_recorded()[key]))


@pytest.mark.parametrize("name, jit", WEAK_CASES)
def test_linalg_weak_type_matches_jax(name, jit):
    assert weak_sig("lite", name, jit) == recorded_sig(f"weak|{name}|{jit}")


@pytest.mark.parametrize("name", STRONG_CASES)
def test_strong_inputs_stay_strong(name):
    got = strong_sig("lite", name)
    assert got == recorded_sig(f"strong|{name}")
    assert not any(w for d, w, s in got if d == "float32")


def test_weak_solve_values_and_grad_match_jax():
    jv, jg = _recorded()["solve|value"], _recorded()["solve|grad"]
    lv, lg = solve_value_and_grad("lite")
    np.testing.assert_allclose(lv, jv, rtol=1e-5)
    # The exact gradient is 0 (``a`` cancels in both solves): JAX's 1.19e-7 is rounding,
    # one float32 ulp of the summed values; jaxlite's triangular solves substitute
    # exactly here (0). An ulp of absolute tolerance, not a relative one on noise.
    np.testing.assert_allclose(lg, jg, rtol=1e-4, atol=2.5e-7)


def test_weak_vmap_solve_matches_jax():
    want, want_weak = _recorded()["vmap|value"], bool(_recorded()["vmap|weak"])
    got = vmap_solve("lite")
    np.testing.assert_allclose(got, want, rtol=1e-5)
    assert (got.dtype, got.weak_type) == (want.dtype, want_weak)


@pytest.mark.parametrize("name, jit", [("sp.cho_solve", True), ("np.eigh", False)])
def test_live_sample(name, jit):
    want = weak_sig("jax", name, jit)
    assert want == recorded_sig(f"weak|{name}|{jit}")  # the recording is JAX's
    assert weak_sig("lite", name, jit) == want
