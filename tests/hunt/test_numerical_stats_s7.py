"""``jnp.gradient`` with coordinate arrays (a wrong answer: the coordinates were used as
step sizes), ``jnp.cov`` with ``fweights``/``aweights``/``dtype`` and the ``inverted_cdf``
quantile method with ``weights`` (both raised NotImplementedError/ValueError), against real
JAX 0.10.2: values, dtypes, shapes and errors."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

import jaxlite  # noqa: E402
import jaxlite.numpy as lnp  # noqa: E402

_rng = np.random.RandomState(3)
X2 = _rng.randn(4, 5).astype(np.float32)
XN = X2.copy()
XN[0, 1] = np.nan
XN[2, :] = np.nan
XT = np.array([[1, 2, 2, 3, 5], [4, 4, 4, 1, 0]], np.float32)  # ties
W = _rng.rand(4, 5).astype(np.float32)
W_BAD = W.copy()
W_BAD[1, 2] = -1  # a negative and a NaN weight make their slice NaN, as in JAX
W_BAD[3, 0] = np.nan


def _same(fn):
    """fn(module) under JAX and jaxlite: equal values/dtypes/shapes, or the same error."""
    try:
        want = fn(jnp)
    except Exception as e:  # noqa: BLE001 - compared with jaxlite's below
        with pytest.raises(type(e)) as got:
            fn(lnp)
        assert str(got.value) == str(e)
        return
    got = fn(lnp)
    want, got = (want, got) if isinstance(want, list) else ([want], [got])
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=2e-6, atol=1e-6)


X1 = _rng.randn(7).astype(np.float32)
COORDS = np.cumsum(np.arange(1, 8)).astype(np.float32)


@pytest.mark.parametrize(
    "args, kw",
    [
        ((X1, COORDS), {}),
        ((X2, np.array([0.0, 1, 3, 7]), 2.0), {}),
        ((X2, 0.5, np.array([0.0, 0.5, 2, 2.5, 4])), {}),
        ((X2, np.array([0.0, 0.5, 2, 2.5, 4])), dict(axis=1)),
        ((X2, 2.0), dict(axis=(0, 1))),
        ((np.array([1, 4, 9]), np.array([0, 1, 3])), {}),
        ((X2, 1.0, 2.0, 3.0), {}),  # too many spacings
        ((X2, np.array([0.0, 1])), {}),  # wrong length
        ((X2, np.ones((1, 4))), dict(axis=0)),  # not 1-D
        ((X2,), dict(edge_order=1)),  # JAX: NotImplementedError
    ],
)
def test_gradient_with_coordinates_matches_jax(args, kw):
    _same(lambda m: m.gradient(*args, **kw))
    if not kw and args[0] is X1:
        np.testing.assert_allclose(
            np.asarray(lnp.gradient(X1, COORDS)), np.gradient(X1, COORDS), rtol=1e-5
        )


@pytest.mark.parametrize(
    "kw",
    [
        dict(fweights=np.array([1, 2, 1, 3, 1])),
        dict(aweights=np.array([0.1, 0.2, 0.3, 0.2, 0.9])),
        dict(fweights=np.array([1, 2, 1, 3, 1]), aweights=np.array([0.1, 0.2, 0.3, 0.2, 0.9])),
        dict(fweights=np.array([1, 2, 1, 3, 1]), ddof=0),
        dict(aweights=np.array([0.1, 0.2, 0.3, 0.2, 0.9]), ddof=2, rowvar=True),
        dict(fweights=np.array([1.0, 2, 1, 3, 1])),  # TypeError: must be integer
        dict(aweights=np.ones((2, 5))),  # RuntimeError: multidimensional
        dict(fweights=np.array([1, 2])),  # RuntimeError: incompatible
        dict(dtype=np.int32),  # ValueError
    ],
)
def test_cov_weights_match_jax(kw):
    _same(lambda m: m.cov(X2, **kw))
    if "dtype" not in kw:
        _same(lambda m: m.cov(X2, X2[::-1] * 2, **kw))


@pytest.mark.parametrize("fn", ["quantile", "nanquantile", "percentile", "nanpercentile"])
@pytest.mark.parametrize("src", [X2, XN, XT], ids=["plain", "nan", "ties"])
def test_inverted_cdf_with_and_without_weights_matches_jax(fn, src):
    q = np.array([0.0, 0.13, 0.2, 0.4, 0.5, 0.99, 1.0])
    q = q * 100 if "percentile" in fn else q
    w_full = W[: src.shape[0]]
    wb_full = W_BAD[: src.shape[0]]
    for axis in (None, 0, 1, (0, 1)):
        for keepdims in (False, True):
            for w in (None, w_full, wb_full):
                _same(
                    lambda m: getattr(m, fn)(
                        src, q, axis=axis, method="inverted_cdf", keepdims=keepdims, weights=w
                    )
                )
    _same(lambda m: getattr(m, fn)(src, q, axis=1, method="inverted_cdf", weights=W[0]))
    for bad in (
        dict(axis=1, method="inverted_cdf", weights=W[0, :3]),
        dict(method="inverted_cdf", weights=W[0]),
        dict(method="linear", weights=w_full),
        dict(method="hazen"),
    ):
        _same(lambda m: getattr(m, fn)(src, q, **bad))


def test_inverted_cdf_under_jit_and_on_integers():
    def f(m, jit):
        fn = lambda a, w: m.quantile(
            a, np.array([0.1, 0.5]), axis=1, method="inverted_cdf", weights=w
        )  # noqa: E731
        return jit(fn)(X2, W)

    np.testing.assert_array_equal(np.asarray(f(lnp, jaxlite.jit)), np.asarray(f(jnp, jax.jit)))
    _same(lambda m: m.quantile(np.arange(10), 0.35, method="inverted_cdf"))
