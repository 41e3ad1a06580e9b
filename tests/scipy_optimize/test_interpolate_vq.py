"""``jax.scipy.interpolate.RegularGridInterpolator`` and ``jax.scipy.cluster.vq.vq``
against real JAX: values and dtypes (linear and nearest, inside, on and outside the grid,
fill values, trailing value dimensions, tuple-of-coordinates queries), the errors, the
interpolator as a pytree, and ``jit``, ``vmap`` and ``grad``.

JAX's outputs (interp_vq_cases.REFS) are recorded in interp_vq_reference.npz
(make_jax_reference.py), since JAX compiles every call anew; ``test_live_sample`` re-runs
a sample on the installed JAX every time, so the recording cannot drift from JAX unnoticed."""

from __future__ import annotations

import pathlib

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

from . import interp_vq_cases as cases  # noqa: E402
from .interp_vq_cases import GX, GY, INNER, ONE_D_Q, QS, V2, VQ_BATCH, VQ_CASES, XS, YS, Q  # noqa: E402

RECORDED = np.load(pathlib.Path(__file__).with_name("interp_vq_reference.npz"))


def ref(name):
    """JAX's recorded output ``name``: one array, or a list where it was a tuple."""
    out, i = [], 0
    while f"{name}|{i}" in RECORDED:
        out.append(RECORDED[f"{name}|{i}"])
        i += 1
    assert out, name
    return out[0] if len(out) == 1 else out


def _close(lite, ref, what="", rtol=1e-5, atol=1e-6):
    a, b = np.asarray(lite), np.asarray(ref)
    assert a.dtype == b.dtype and a.shape == b.shape, (
        f"{what}: {a.dtype}{a.shape} {b.dtype}{b.shape}"
    )
    np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, equal_nan=True, err_msg=what)


_rgi = cases.rgi


@pytest.mark.parametrize("method", cases.METHODS)
@pytest.mark.parametrize("vi", range(len(cases.VALUES)))
def test_interpolator_matches_jax(method, vi):
    values, kw = cases.VALUES[vi]
    lite = _rgi(jaxlite, (GX, GY), values, method=method, **kw)(Q)
    _close(lite, ref(f"rgi-{method}-{vi}"), f"{method} {kw}")


def test_query_forms_and_call_method():
    lite_i = _rgi(jaxlite, (GX, GY), V2)
    _close(lite_i((XS, YS)), ref("query-tuple"), "tuple of coordinate arrays")
    _close(lite_i(Q.reshape(3, 3, 2)), ref("query-batched"), "batched query")
    _close(lite_i(Q.ravel()), ref("query-ravel"), "1-D query read as pairs")
    _close(lite_i(Q, method="nearest"), ref("query-method"), "method at call")
    one_d = _rgi(jaxlite, (GX,), V2[:, 0])(ONE_D_Q)
    _close(one_d, ref("query-1d"), "1-D grid")


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
    _close(jaxlite.jit(lambda f, q: f(q))(lite_i, Q), ref("rgi-linear-0"), "jit pytree")
    _close(jaxlite.vmap(lite_i)(QS), ref("rgi-vmap"), "vmap")
    lite = jaxlite.grad(cases.interp_loss(jaxlite), (0, 1))(V2, INNER)
    want = ref("rgi-grad")
    _close(lite[0], want[0], "grad values")
    _close(lite[1], want[1], "grad query", rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("i", range(len(VQ_CASES)))
def test_vq_matches_jax(i):
    obs, book = VQ_CASES[i]
    ref_ = ref(f"vq-{i}")
    lite = jaxlite.scipy.cluster.vq.vq(obs, book, check_finite=False)
    _close(lite[0], ref_[0], "codes")
    _close(lite[1], ref_[1], "dists")
    lite = jaxlite.jit(jaxlite.scipy.cluster.vq.vq)(obs, book)
    _close(lite[0], ref_[0], "jit codes")
    _close(lite[1], ref_[1], "jit dists")


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
    want = ref("vq-vmap")
    lite = jaxlite.vmap(jaxlite.scipy.cluster.vq.vq, (0, None))(VQ_BATCH, book)
    _close(lite[0], want[0], "vmap codes")
    _close(lite[1], want[1], "vmap dists")
    lite = jaxlite.grad(lambda o: jaxlite.scipy.cluster.vq.vq(o, book)[1].sum())(obs)
    _close(lite, ref("vq-grad"), "grad dists")


LIVE = ["rgi-linear-2", "rgi-nearest-4", "vq-2"]


@pytest.mark.parametrize("name", LIVE)
def test_live_sample(name):
    live = cases.outputs(cases.REFS[name](jax))
    want = cases.outputs(ref(name))
    assert len(live) == len(want)
    for a, w in zip(live, want):
        assert a.dtype == w.dtype and a.shape == w.shape, name
        np.testing.assert_array_equal(a, w)  # the recording is JAX's output
    lite = cases.outputs(cases.REFS[name](jaxlite))
    assert len(lite) == len(want)
    for a, w in zip(lite, want):
        _close(a, w, name)
