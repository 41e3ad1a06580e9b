"""Weak types through linear algebra, differential against JAX (session 9).

JAX's linalg primitives (cholesky, triangular_solve, lu, qr, eigh, svd, schur,
hessenberg, ...) give every output the weak type "all operands weak", so a weakly typed
float32 matrix stays weak through ``jnp.linalg.solve``, ``jax.scipy.linalg.cho_solve`` and
friends. jaxlite's abstract-eval rules used to drop it (strong float32 out).
"""

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


@pytest.mark.parametrize(
    "name, jit", [(n, True) for n in sorted(_JAX)] + [(n, False) for n in _EAGER]
)
def test_linalg_weak_type_matches_jax(name, jit):
    def run(lib, mod, case):
        f = lambda a: case(lambda x: _weak(lib, x) * a)  # noqa: E731  a: weak f32 1.0
        return mod.jit(f)(1.0) if jit else f(1.0)

    want = _sig("jax", jax.tree_util, run("jax", jax, _JAX[name]))
    got = _sig("lite", jaxlite.tree_util, run("lite", jaxlite, _LITE[name]))
    assert got == want


@pytest.mark.parametrize("name", ["np.solve", "sp.cho_solve", "lax.lu", "lax.eigh", "np.svd"])
def test_strong_inputs_stay_strong(name):
    got = _sig("lite", jaxlite.tree_util, _LITE[name](lambda x: lnp.asarray(x)))
    want = _sig("jax", jax.tree_util, _JAX[name](lambda x: jnp.asarray(x)))
    assert got == want
    assert not any(w for d, w, s in got if d == "float32")


def test_weak_solve_values_and_grad_match_jax():
    def f(mod, np_, sl, lib):
        def g(a):
            m = _weak(lib, _A) * a
            return np_.sum(sl.cho_solve(sl.cho_factor(m), _weak(lib, _B) * a)) + np_.sum(
                np_.linalg.solve(m, m)
            )

        return mod.jit(mod.value_and_grad(g))(1.5)

    jv, jg = f(jax, jnp, jsl, "jax")
    lv, lg = f(jaxlite, lnp, lsl, "lite")
    np.testing.assert_allclose(lv, jv, rtol=1e-5)
    np.testing.assert_allclose(lg, jg, rtol=1e-4)


def test_weak_vmap_solve_matches_jax():
    def f(mod, np_, lib):
        return mod.vmap(lambda s: np_.linalg.solve(_weak(lib, _A) * s, _weak(lib, _B)))(
            np.array([1.0, 2.0], np.float32)
        )

    want, got = f(jax, jnp, "jax"), f(jaxlite, lnp, "lite")
    np.testing.assert_allclose(got, want, rtol=1e-5)
    assert (got.dtype, got.weak_type) == (want.dtype, want.weak_type)
