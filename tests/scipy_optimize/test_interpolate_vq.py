"""``jax.scipy.interpolate.RegularGridInterpolator`` and ``jax.scipy.cluster.vq.vq``
against real JAX: values and dtypes (linear and nearest, inside, on and outside the grid,
fill values, trailing value dimensions, tuple-of-coordinates queries), the errors, the
interpolator as a pytree, and ``jit``, ``vmap`` and ``grad``."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.scipy.cluster.vq  # noqa: E402,F401
import jax.scipy.interpolate  # noqa: E402,F401

import jaxlite  # noqa: E402
import jaxlite.scipy.cluster.vq  # noqa: E402,F401
import jaxlite.scipy.interpolate  # noqa: E402,F401

jax.config.update("jax_platforms", "cpu")

_rng = np.random.default_rng(0)
GX = np.array([0.0, 0.5, 1.5, 3.0], np.float32)
GY = np.array([-1.0, 0.0, 2.0], np.float32)
V2 = _rng.normal(size=(4, 3)).astype(np.float32)
V3 = _rng.normal(size=(4, 3, 2)).astype(np.float32)  # a trailing value dimension
Q = np.array(
    [
        [0.2, -0.5],
        [1.5, 0.0],
        [3.0, 2.0],
        [0.0, -1.0],
        [2.9, 1.9],
        [-0.1, 0.0],
        [1.0, 2.5],
        [0.5, 1.0],
        [0.75, 0.0],
    ],
    np.float32,
)


def _close(lite, ref, what="", rtol=1e-5, atol=1e-6):
    a, b = np.asarray(lite), np.asarray(ref)
    assert a.dtype == b.dtype and a.shape == b.shape, (
        f"{what}: {a.dtype}{a.shape} {b.dtype}{b.shape}"
    )
    np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, equal_nan=True, err_msg=what)


def _rgi(m, *args, **kw):
    return m.scipy.interpolate.RegularGridInterpolator(*args, **kw)


@pytest.mark.parametrize("method", ["linear", "nearest"])
@pytest.mark.parametrize(
    "values,kw",
    [
        (V2, {}),
        (V3, {}),
        (V2, {"fill_value": None}),  # extrapolation from the edge cells
        (V2, {"fill_value": -7.0}),
        (np.arange(12).reshape(4, 3), {}),  # integer values are promoted
    ],
)
def test_interpolator_matches_jax(method, values, kw):
    ref = _rgi(jax, (GX, GY), values, method=method, **kw)(Q)
    lite = _rgi(jaxlite, (GX, GY), values, method=method, **kw)(Q)
    _close(lite, ref, f"{method} {kw}")


def test_query_forms_and_call_method():
    ref_i = _rgi(jax, (GX, GY), V2)
    lite_i = _rgi(jaxlite, (GX, GY), V2)
    xs, ys = np.meshgrid(np.linspace(-0.2, 3.1, 5), np.linspace(-1, 2, 4), indexing="ij")
    _close(lite_i((xs, ys)), ref_i((xs, ys)), "tuple of coordinate arrays")
    _close(lite_i(Q.reshape(3, 3, 2)), ref_i(Q.reshape(3, 3, 2)), "batched query")
    _close(lite_i(Q.ravel()), ref_i(Q.ravel()), "1-D query read as pairs")
    _close(lite_i(Q, method="nearest"), ref_i(Q, method="nearest"), "method at call")
    one_d_ref = _rgi(jax, (GX,), V2[:, 0])(np.array([0.1, 2.0, 9.0], np.float32))
    one_d = _rgi(jaxlite, (GX,), V2[:, 0])(np.array([0.1, 2.0, 9.0], np.float32))
    _close(one_d, one_d_ref, "1-D grid")


@pytest.mark.parametrize(
    "build,exc,msg",
    [
        (
            lambda m: _rgi(m, (GX, GY), V2, method="cubic"),
            ValueError,
            "method 'cubic' is not defined",
        ),
        (
            lambda m: _rgi(m, (GX, GY), V2, bounds_error=True),
            NotImplementedError,
            "`bounds_error` takes no effect under JIT",
        ),
        (
            lambda m: _rgi(m, (GX, GY, GY), V2),
            ValueError,
            "there are 3 point arrays, but values has 2 dimensions",
        ),
        (
            lambda m: _rgi(m, (GX, GY), V2, fill_value=1j),
            ValueError,
            "fill_value must be either 'None' or of a type compatible with values",
        ),
        (
            lambda m: _rgi(m, (GX, GY), V2)(np.ones((2, 3), np.float32)),
            ValueError,
            "the requested sample points xi have dimension 3, but this RegularGridInterpolator "
            "has dimension 2",
        ),
        (
            lambda m: _rgi(m, (GX, GY), V2)(Q, method="spline"),
            ValueError,
            "method 'spline' is not defined",
        ),
    ],
)
def test_interpolator_errors(build, exc, msg):
    with pytest.raises(exc) as ref:
        build(jax)
    with pytest.raises(exc) as lite:
        build(jaxlite)
    assert msg in str(ref.value) and msg in str(lite.value)


def test_interpolator_transformations():
    ref_i = _rgi(jax, (GX, GY), V2)
    lite_i = _rgi(jaxlite, (GX, GY), V2)
    leaves = jaxlite.tree_util.tree_leaves(lite_i)
    assert len(leaves) == len(jax.tree_util.tree_leaves(ref_i)) == 4
    # the interpolator passes through jit as an argument (a pytree)
    _close(jaxlite.jit(lambda f, q: f(q))(lite_i, Q), ref_i(Q), "jit pytree")
    qs = Q[:8].reshape(4, 2, 2)
    _close(jaxlite.vmap(lite_i)(qs), jax.vmap(ref_i)(qs), "vmap")
    inner = Q[[0, 1, 4, 7, 8]]  # inside the grid, off the knots

    def loss(m, interp_cls):
        return lambda v, q: m.numpy.sum(interp_cls((GX, GY), v)(q) ** 2)

    ref = jax.grad(loss(jax, jax.scipy.interpolate.RegularGridInterpolator), (0, 1))(V2, inner)
    lite = jaxlite.grad(loss(jaxlite, jaxlite.scipy.interpolate.RegularGridInterpolator), (0, 1))(
        V2, inner
    )
    _close(lite[0], ref[0], "grad values")
    _close(lite[1], ref[1], "grad query", rtol=1e-4, atol=1e-5)


VQ_CASES = [
    (_rng.normal(size=(7, 3)).astype(np.float32), _rng.normal(size=(4, 3)).astype(np.float32)),
    (np.array([0.1, 2.4, -1.0, 5.0], np.float32), np.array([0.0, 2.0, 4.0], np.float32)),
    (np.array([[1, 2], [3, 4], [0, 0]]), np.array([[1, 1], [3, 3]])),  # ints promote
    (np.array([[0.0, 0.0]], np.float32), np.array([[1.0, 0.0], [0.0, 1.0]], np.float32)),  # tie
]


@pytest.mark.parametrize("obs,book", VQ_CASES)
def test_vq_matches_jax(obs, book):
    ref = jax.scipy.cluster.vq.vq(obs, book)
    lite = jaxlite.scipy.cluster.vq.vq(obs, book, check_finite=False)
    _close(lite[0], ref[0], "codes")
    _close(lite[1], ref[1], "dists")
    lite = jaxlite.jit(jaxlite.scipy.cluster.vq.vq)(obs, book)
    _close(lite[0], ref[0], "jit codes")
    _close(lite[1], ref[1], "jit dists")


def test_vq_errors_vmap_grad():
    for obs, book, msg in [
        (np.ones((2, 3)), np.ones(3), "Observation and code_book should have the same rank"),
        (np.ones((2, 2, 2)), np.ones((2, 2, 2)), "ndim different than 1 or 2 are not supported"),
    ]:
        with pytest.raises(ValueError, match=msg):
            jax.scipy.cluster.vq.vq(obs, book)
        with pytest.raises(ValueError, match=msg):
            jaxlite.scipy.cluster.vq.vq(obs, book)
    obs, book = VQ_CASES[0]
    batch = np.stack([obs, obs * 2, obs - 1])
    ref = jax.vmap(jax.scipy.cluster.vq.vq, (0, None))(batch, book)
    lite = jaxlite.vmap(jaxlite.scipy.cluster.vq.vq, (0, None))(batch, book)
    _close(lite[0], ref[0], "vmap codes")
    _close(lite[1], ref[1], "vmap dists")
    ref = jax.grad(lambda o: jax.scipy.cluster.vq.vq(o, book)[1].sum())(obs)
    lite = jaxlite.grad(lambda o: jaxlite.scipy.cluster.vq.vq(o, book)[1].sum())(obs)
    _close(lite, ref, "grad dists")
