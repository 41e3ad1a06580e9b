"""Numerical jnp functions against JAX 0.10.2: quantile methods, interp, bincount, digitize,
searchsorted, convolve, polynomials, cross, diff, cov/corrcoef, average, histograms,
windows, rounding, isclose, bit packing, frexp/ldexp/... (a session-10 sweep of 170
calls: dtype, shape and values within float32 tolerance, and the exception class).

Fixed: ``jnp.i0`` was a 40-term series, wrong for large arguments (i0(80) gave 1.20e33,
JAX 2.475e33; i0(88) inf, JAX 7.03e36) and it accepted complex input (JAX ValueError);
``diff(x, n=-1)`` returned x (JAX ValueError); ``partition``/``argpartition`` ignored an
out-of-range ``kth`` (JAX ValueError) and sorted complex input (JAX NotImplementedError).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

import jaxlite.numpy as lnp  # noqa: E402


def res(mod, f, a, k):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = getattr(mod, f)(
                *[mod.asarray(x) if isinstance(x, np.ndarray) else x for x in a], **k
            )
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        return e
    rs, flat = [r], []
    while rs:  # histogramdd returns (hist, [edges...])
        t = rs.pop(0)
        if isinstance(t, (list, tuple)):
            rs[:0] = list(t)
        else:
            flat.append((str(t.dtype), np.asarray(t), np.shape(t)))
    return flat


rng = np.random.default_rng(0)
x = rng.normal(size=(4, 5)).astype(np.float32)
y = rng.normal(size=7).astype(np.float32)
xi = np.array([3, 1, 4, 1, 5, 9, 2, 6], np.int32)
xs = np.sort(y)
xn = x.copy()
xn[1, 2] = np.nan
xn[3, 0] = np.inf
cases = []
for m in [
    "linear",
    "lower",
    "higher",
    "midpoint",
    "nearest",
    "inverted_cdf",
    "averaged_inverted_cdf",
    "closest_observation",
    "interpolated_inverted_cdf",
    "hazen",
    "weibull",
    "median_unbiased",
    "normal_unbiased",
]:
    cases.append(("quantile", (x, np.array([0.0, 0.1, 0.5, 0.99, 1.0], np.float32)), {"method": m}))
    cases.append(("percentile", (xi, 37.5), {"method": m}))
    cases.append(("nanquantile", (xn, 0.3), {"method": m, "axis": 1}))
cases += [
    ("quantile", (x, 0.5), {"axis": (0, 1), "keepdims": True}),
    ("quantile", (x, 1.5), {}),
    ("quantile", (xi, 0.5), {}),
    ("median", (xi,), {}),
    ("nanmedian", (xn, 0), {}),
    ("percentile", (x, [10, 50]), {"axis": 0}),
    ("interp", (np.float32([0.5, 1.5, -1, 9]), np.float32([0, 1, 2]), np.float32([5, 6, 8])), {}),
    (
        "interp",
        (np.float32([0.5, 1.5, -1, 9]), np.float32([0, 1, 2]), np.float32([5, 6, 8])),
        {"left": -1, "right": 99},
    ),
    (
        "interp",
        (np.float32([0.5, 7.5, -1]), np.float32([0, 1, 2]), np.float32([5, 6, 8])),
        {"period": 3},
    ),
    ("interp", (np.float32([1.0]), np.float32([1, 1, 2]), np.float32([5, 6, 8])), {}),
    ("interp", (xi, xi[:3].astype(np.float32), np.float32([1, 2, 3])), {}),
    ("bincount", (xi,), {}),
    ("bincount", (xi,), {"minlength": 12}),
    ("bincount", (xi,), {"length": 5}),
    ("bincount", (xi, np.float32(np.arange(8))), {}),
    ("bincount", (np.array([-1, 2]),), {}),
    ("digitize", (y, np.float32([-1, 0, 1])), {}),
    ("digitize", (y, np.float32([1, 0, -1])), {}),
    ("digitize", (y, np.float32([-1, 0, 1])), {"right": True}),
    ("digitize", (np.float32([0.0, 1.0]), np.float32([0, 1])), {"right": True}),
    ("searchsorted", (xs, np.float32([0, -5, 5, xs[2]])), {}),
    ("searchsorted", (xs, np.float32([xs[2]])), {"side": "right"}),
    ("searchsorted", (xs, np.float32([0.1])), {"method": "compare_all"}),
    ("searchsorted", (xs, np.float32([0.1])), {"method": "sort"}),
    ("searchsorted", (np.float32([1, np.nan]), np.float32([np.nan, 2])), {}),
    ("convolve", (y, np.float32([1, 2, 3])), {}),
    ("convolve", (y, np.float32([1, 2, 3])), {"mode": "same"}),
    ("convolve", (y, np.float32([1, 2, 3])), {"mode": "valid"}),
    ("convolve", (np.float32([1, 2]), y), {"mode": "valid"}),
    ("correlate", (y, np.float32([1, 2, 3])), {"mode": "full"}),
    ("convolve", (xi, xi), {}),
    ("polyval", (np.float32([1, 2, 3]), y), {}),
    ("polyadd", (np.float32([1, 2]), np.float32([1, 2, 3])), {}),
    ("polysub", (np.float32([1, 2]), np.float32([1, 2, 3])), {}),
    ("polymul", (np.float32([1, 2]), np.float32([1, 2, 3])), {}),
    ("polydiv", (np.float32([1, 2, 3, 4]), np.float32([1, 2])), {}),
    ("polyder", (np.float32([1, 2, 3, 4]), 2), {}),
    ("polyint", (np.float32([1, 2, 3]),), {"k": 2}),
    ("polyint", (np.float32([1, 2, 3]), 2), {"k": [1, 2]}),
    ("polyfit", (y, y**2, 2), {}),
    ("polyfit", (y, y**2, 1), {"w": np.abs(y)}),
    ("polyfit", (y, y**2, 2), {"full": True}),
    ("polyfit", (y, np.stack([y, y**2], 1), 1), {}),
    ("polyfit", (y, y**2, 2), {"cov": True}),
    ("cross", (np.float32([1, 2, 3]), np.float32([4, 5, 6])), {}),
    ("cross", (np.float32([1, 2]), np.float32([4, 5, 6])), {}),
    ("cross", (np.float32([[1, 2]]), np.float32([[4, 5]])), {}),
    ("cross", (x[:3].T, x[:3].T), {"axisa": 1}),
    ("nan_to_num", (xn,), {}),
    ("nan_to_num", (xn,), {"nan": 1.0, "posinf": 2.0}),
    ("nan_to_num", (xi,), {}),
    ("diff", (y,), {"n": 2}),
    ("diff", (x,), {"axis": 0, "prepend": 0}),
    ("diff", (y,), {"append": np.float32([1, 2])}),
    ("diff", (y,), {"n": 0}),
    ("diff", (y,), {"n": -1}),
    ("diff", (xi > 2,), {}),
    ("ediff1d", (y,), {"to_begin": np.float32([1, 2]), "to_end": 3}),
    ("cumulative_sum", (xi,), {"include_initial": True}),
    ("cumulative_sum", (x,), {"axis": 1, "dtype": "int32"}),
    ("cumulative_prod", (x[0],), {"include_initial": True}),
    ("cov", (x,), {}),
    ("cov", (x,), {"rowvar": False}),
    ("cov", (x,), {"bias": True}),
    ("cov", (x,), {"ddof": 2}),
    ("cov", (x,), {"fweights": np.array([1, 2, 1, 1, 3])}),
    ("cov", (x,), {"aweights": np.float32([1, 2, 1, 1, 3])}),
    ("cov", (y, y * 2), {}),
    ("corrcoef", (x,), {}),
    ("corrcoef", (y, y**2), {}),
    ("cov", (xi,), {}),
    ("average", (x,), {"weights": x.any(0) * 1.0 + np.arange(5), "axis": 1}),
    ("average", (x, 1), {"weights": np.arange(5.0), "returned": True}),
    ("average", (xi,), {}),
    ("average", (x,), {"weights": np.arange(20.0).reshape(4, 5), "keepdims": True, "axis": 0}),
    ("histogram", (y,), {"bins": 4}),
    ("histogram", (y,), {"bins": np.float32([-2, 0, 2])}),
    ("histogram", (y,), {"bins": 3, "range": (-1, 1), "density": True}),
    ("histogram", (y,), {"bins": 3, "weights": np.abs(y)}),
    ("histogram_bin_edges", (y, 5), {}),
    ("histogram2d", (y, y**2), {"bins": 3}),
    ("histogramdd", (np.stack([y, y**2], 1),), {"bins": 2}),
    ("unwrap", (np.float32([0, 3, 6.5, 10]),), {}),
    ("unwrap", (np.float32([0, 3, 6.5, 10]),), {"period": 4}),
    ("unwrap", (np.float32([0, 3, 6.5, 10]),), {"discont": 1}),
    ("sinc", (np.float32([0, 0.5, 1e-8]),), {}),
    ("i0", (np.float32([0, 1, 50]),), {}),
    ("kaiser", (5, 3.0), {}),
    ("hamming", (1,), {}),
    ("blackman", (6,), {}),
    ("bartlett", (5,), {}),
    ("hanning", (0,), {}),
    ("round", (np.float32([0.5, 1.5, 2.5, -0.5, 1.2345]), 2), {}),
    ("round", (np.float32([15, 25, -35]), -1), {}),
    ("round", (xi, -1), {}),
    ("around", (np.float16([2.675]), 2), {}),
    ("isclose", (np.float32([1, np.nan, np.inf]), np.float32([1.0000001, np.nan, np.inf])), {}),
    ("isclose", (np.float32([1, np.nan]), np.float32([1, np.nan])), {"equal_nan": True}),
    ("allclose", (xi, xi + 1e-9), {}),
    ("isclose", (xi, xi), {}),
    ("gcd", (xi, np.int32(6)), {}),
    ("lcm", (xi, np.int32(-4)), {}),
    ("gcd", (np.int32([0, -4]), np.int32([0, 6])), {}),
    ("trapezoid", (y,), {"dx": 0.5}),
    ("trapezoid", (y, np.arange(7.0)), {}),
    ("apply_along_axis", (lambda t: t.sum(), 0, x), {}),
    ("sort_complex", (y,), {}),
    ("lexsort", ((xi, xi % 3),), {}),
    ("argsort", (xi,), {"stable": True, "descending": True}),
    ("sort", (xn,), {"axis": None}),
    ("nonzero", (xi > 2,), {"size": 7, "fill_value": -1}),
    ("flatnonzero", (xi,), {"size": 3}),
    ("argwhere", (x > 0,), {"size": 4}),
    ("count_nonzero", (x > 0,), {"axis": 1, "keepdims": True}),
    ("packbits", (xi > 2,), {}),
    ("packbits", (xi > 2,), {"bitorder": "little"}),
    ("unpackbits", (np.uint8([3, 255]),), {}),
    ("unpackbits", (np.uint8([3, 255]),), {"count": 5}),
    ("unpackbits", (np.uint8([[3, 255]]), 1), {"bitorder": "little"}),
    ("frexp", (np.float32([0, 1, 3.5, -0.1, np.inf]),), {}),
    ("ldexp", (np.float32([1, 2]), np.int32([3, -130])), {}),
    ("modf", (np.float32([-1.5, 2.25]),), {}),
    ("divmod", (xi, np.int32(-3)), {}),
    ("spacing", (np.float32([1, 0, -1e30]),), {}),
    ("nextafter", (np.float32([1, 0]), np.float32([2, -1])), {}),
    ("copysign", (np.float32([1, -0.0]), np.float32([-0.0, 1])), {}),
    ("float_power", (xi, 2), {}),
    ("heaviside", (y, 0.5), {}),
    ("logaddexp2", (y, y), {}),
    ("hypot", (np.float32([3, np.inf]), np.float32([4, np.nan])), {}),
    ("signbit", (np.float32([-0.0, 0, -np.nan]),), {}),
]


@pytest.mark.parametrize("i", range(len(cases)))
def test_matches_jax(i):
    f, a, k = cases[i]
    ours, theirs = res(lnp, f, a, k), res(jnp, f, a, k)
    if isinstance(theirs, Exception):
        assert isinstance(ours, type(theirs)), (f, k, ours, theirs)
        return
    assert not isinstance(ours, Exception), (f, k, ours)
    assert len(ours) == len(theirs)
    for (d1, v1, s1), (d2, v2, s2) in zip(ours, theirs):
        assert (d1, s1) == (d2, s2), (f, k)
        np.testing.assert_allclose(
            v1.astype(np.complex128), v2.astype(np.complex128), rtol=2e-5, atol=1e-6
        )


@pytest.mark.parametrize("kth", [0, 3, -1, 6])
def test_partition_is_a_partition_and_checks_kth_as_jax(kth):
    y = np.random.default_rng(1).normal(size=7).astype(np.float32)
    p, ip = lnp.partition(y, kth), lnp.argpartition(y, kth)
    kth %= 7
    ref = np.sort(y)
    assert float(p[kth]) == ref[kth] and float(y[int(ip[kth])]) == ref[kth]
    assert (np.asarray(p[:kth]) <= ref[kth]).all() and (np.asarray(p[kth + 1 :]) >= ref[kth]).all()
    assert sorted(np.asarray(ip).tolist()) == list(range(7))
    for bad in (7, -8):
        for m in (lnp, jnp):
            with pytest.raises(ValueError):
                m.partition(y, bad)
    for m in (lnp, jnp):
        with pytest.raises(NotImplementedError):
            m.partition(y.astype(np.complex64), 1)


def test_i0_large_arguments_and_derivative():
    import jax

    import jaxlite

    v = np.float32([0.5, -3, 20, 50, -80, 88, 89])
    np.testing.assert_allclose(np.asarray(lnp.i0(v)), np.asarray(jnp.i0(v)), rtol=3e-6)
    for a in (-3.0, 0.0, 40.0):
        np.testing.assert_allclose(
            float(jaxlite.grad(lnp.i0)(a)), float(jax.grad(jnp.i0)(a)), rtol=2e-6
        )
