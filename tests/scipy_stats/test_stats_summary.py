"""``jax.scipy.stats`` mode, rankdata, sem and gaussian_kde against real JAX (eager and
under ``jit``): values, dtypes, shapes, the error messages, and the KDE as a pytree."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.scipy.stats  # noqa: E402,F401

import jaxlite  # noqa: E402
import jaxlite.scipy.stats  # noqa: E402,F401

jax.config.update("jax_platforms", "cpu")
NAN = np.nan


def _close(lite, ref, rtol=2e-5, atol=1e-6, what=""):
    lite_l, ref_l = jax.tree_util.tree_leaves(tuple(lite)), jax.tree_util.tree_leaves(tuple(ref))
    assert len(lite_l) == len(ref_l), what
    for a, b in zip(lite_l, ref_l):
        a, b = np.asarray(a), np.asarray(b)
        assert a.dtype == b.dtype, f"{what}: dtype {a.dtype} != JAX {b.dtype}"
        assert a.shape == b.shape, f"{what}: shape {a.shape} != JAX {b.shape}"
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, equal_nan=True, err_msg=what)


MODE_CASES = [
    (np.array([3, 1, 2, 2, 3, 1]), {}),
    (np.array([[1.0, NAN, NAN], [1.0, 2.0, NAN]], np.float32), {"axis": 1}),
    (np.array([[1.0, 2.0], [1.0, 3.0]], np.float32), {"axis": None, "keepdims": True}),
    (np.array([[4, 4, 1], [2, 1, 1], [4, 1, 2]]), {"axis": 0, "keepdims": True}),
    (np.array([[4, 4, 1], [2, 1, 1], [4, 1, 2]]), {"axis": -1}),
    (np.zeros((0,), np.float32), {}),
    (np.zeros((2, 0), np.float32), {"axis": 1}),
    (np.array([True, False, True]), {}),
    (np.array(3.0, np.float32), {}),
]


@pytest.mark.parametrize("a,kw", MODE_CASES)
def test_mode(a, kw):
    ref = jax.scipy.stats.mode(a, **kw)
    _close(jaxlite.scipy.stats.mode(a, **kw), ref, what=f"mode {kw}")
    _close(jaxlite.jit(lambda v: jaxlite.scipy.stats.mode(v, **kw))(a), ref, what="jit mode")


@pytest.mark.parametrize("method", ["average", "min", "max", "dense", "ordinal"])
@pytest.mark.parametrize(
    "a,axis",
    [
        (np.array([2, 2, 1, 3, 3, 3]), None),
        (np.array([[3.0, 1.0], [2.0, 2.0], [0.5, 2.0]], np.float32), 0),
        (np.array([[3.0, 1.0], [2.0, 2.0], [0.5, 2.0]], np.float32), 1),
        (np.array([[3.0, 1.0], [2.0, 2.0]], np.float32), None),
        (np.array([1.0, NAN, 0.0], np.float32), None),
        (np.zeros((0,), np.float32), None),
    ],
)
def test_rankdata(a, axis, method):
    ref = jax.scipy.stats.rankdata(a, method, axis=axis)
    _close([jaxlite.scipy.stats.rankdata(a, method, axis=axis)], [ref], what=method)
    f = jaxlite.jit(lambda v: jaxlite.scipy.stats.rankdata(v, method, axis=axis))
    _close([f(a)], [ref], what=f"jit {method}")


@pytest.mark.parametrize(
    "a,kw",
    [
        (np.array([1, 2, 3, 4]), {}),
        (np.array([[1.0, 2.0], [3.0, 5.0]], np.float32), {"axis": None}),
        (np.array([[1.0, 2.0], [3.0, 5.0]], np.float32), {"axis": 1, "keepdims": True}),
        (np.array([[1.0, 2.0], [3.0, 5.0]], np.float32), {"axis": 0, "ddof": 0}),
        (np.array([1.0, NAN, 3.0, 4.0], np.float32), {}),
        (np.array([1.0, NAN, 3.0, 4.0], np.float32), {"nan_policy": "omit"}),
    ],
)
def test_sem(a, kw):
    ref = jax.scipy.stats.sem(a, **kw)
    _close([jaxlite.scipy.stats.sem(a, **kw)], [ref], what=str(kw))


def _raises_like_jax(fn_name, *args, **kw):
    with pytest.raises(Exception) as ref:
        getattr(jax.scipy.stats, fn_name)(*args, **kw)
    with pytest.raises(type(ref.value)) as got:
        getattr(jaxlite.scipy.stats, fn_name)(*args, **kw)
    assert str(got.value) == str(ref.value)


def test_summary_errors_as_jax():
    a = np.array([1.0, 2.0])
    for policy in ("omit", "raise", "bogus"):
        _raises_like_jax("mode", a, nan_policy=policy)
        _raises_like_jax("rankdata", a, nan_policy=policy)
    _raises_like_jax("rankdata", a, "bogus")
    _raises_like_jax("sem", a, nan_policy="raise")


def _kdes(m):
    st = m.scipy.stats
    return (
        st.gaussian_kde(np.array([0.0, 1.0, 2.5, 3.0, 7.0], np.float32)),
        st.gaussian_kde(
            np.array([[0.0, 1, 2.5, 3, 7], [1, 0, 2, 2, 1]], np.float32),
            bw_method="silverman",
            weights=np.array([1, 2, 3, 1, 1.0], np.float32),
        ),
        st.gaussian_kde(np.array([1.0, 2.0, 5.0], np.float32), bw_method=0.7),
        st.gaussian_kde(np.array([1.0, 2.0, 5.0], np.float32), bw_method=lambda k: 0.5),
    )


def test_gaussian_kde_matches_jax():
    lk, jk = _kdes(jaxlite), _kdes(jax)
    pts1 = np.array([-1.0, 0.0, 1.0, 10.0], np.float32)
    pts2 = np.array([[0.0, 1.0, 4.0], [1.0, 1.0, -2.0]], np.float32)
    for i, (a, b) in enumerate(zip(lk, jk)):
        for f in ("neff", "dataset", "weights", "covariance", "inv_cov"):
            _close([getattr(a, f)], [getattr(b, f)], rtol=1e-5, what=f"kde{i}.{f}")
        pts = pts2 if b.d == 2 else pts1
        for meth in ("evaluate", "pdf", "logpdf", "__call__"):
            _close([getattr(a, meth)(pts)], [getattr(b, meth)(pts)], rtol=1e-5, what=meth)
        mean, cov = np.ones(b.d, np.float32), np.eye(b.d, dtype=np.float32)
        _close([a.integrate_gaussian(mean, cov)], [b.integrate_gaussian(mean, cov)], rtol=1e-5)
        _close([a.integrate_kde(a)], [b.integrate_kde(b)], rtol=1e-5)
        key = 3
        _close(
            [a.resample(jaxlite.random.key(key), (4,))],
            [b.resample(jax.random.key(key), (4,))],
            rtol=1e-5,
            what="resample",
        )
    _close([lk[0].integrate_box_1d(0.0, 2.0)], [jk[0].integrate_box_1d(0.0, 2.0)])
    _close([lk[0].integrate_kde(lk[2])], [jk[0].integrate_kde(jk[2])], rtol=1e-5)
    # a pytree: through jit, and differentiable in the evaluation points
    f_l = jaxlite.jit(lambda k, x: k.logpdf(x))
    _close([f_l(lk[1], pts2)], [jk[1].logpdf(pts2)], rtol=1e-5, what="jit")
    g_l = jaxlite.vmap(jaxlite.grad(lambda x: lk[0].logpdf(x)[0]))(pts1)
    g_j = jax.vmap(jax.grad(lambda x: jk[0].logpdf(x)[0]))(pts1)
    _close([g_l], [g_j], rtol=1e-4, atol=1e-6, what="vmap(grad)")


def test_gaussian_kde_errors_as_jax():
    _raises_like_jax("gaussian_kde", np.array([1.0]))
    _raises_like_jax("gaussian_kde", np.array([1.0, 2.0]), bw_method="bogus")
    _raises_like_jax("gaussian_kde", np.array([1.0, 2.0]), weights=np.ones(3))
    lk, jk = _kdes(jaxlite), _kdes(jax)
    for a, b in ((lk[1], jk[1]), (lk[0], jk[0])):
        pts = np.zeros((3, 2), np.float32)
        with pytest.raises(ValueError) as ref:
            b.evaluate(pts)
        with pytest.raises(ValueError, match=str(ref.value)):
            a.evaluate(pts)
    with pytest.raises(ValueError, match="only handles 1D"):
        lk[1].integrate_box_1d(0.0, 1.0)
    with pytest.raises(NotImplementedError, match="integrate_box_1d"):
        lk[0].integrate_box(0.0, 1.0)
    with pytest.raises(NotImplementedError, match="bandwidth"):
        lk[0].set_bandwidth("scott")
