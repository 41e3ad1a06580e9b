"""jnp.var/std/nanvar/nanstd/mean/nanmean against JAX 0.10.2 (a session-8 sweep).

Wrong answers fixed: nanvar/nanstd skipped the NaN that ``inf - inf`` makes, so a slice
holding both infinities had variance 0 (JAX: NaN) and one with an infinity had inf (NaN);
var/std ignored ``dtype`` (float16 input with dtype=float32 stayed float16); mean with an
integer dtype returned int32, nanmean float32 (JAX: that dtype, dividing truncating).
Refusals as JAX: std with an integer dtype, a real dtype for complex input, nanstd in an
integer dtype."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax.numpy as J  # noqa: E402

import jaxlite.numpy as L  # noqa: E402

X = np.array([[1, 2, 3], [4, 5, 7]], np.float32)
INPUTS = {
    "f32": X,
    "f16": X.astype(np.float16),
    "u8": np.array([[1, 200, 3], [5, 6, 7]], np.uint8),
    "c64": (X + 1j * X[::-1]).astype(np.complex64),
    "i32": X.astype(np.int32),
    "inf": np.array([[1, np.nan, 3, -np.inf], [0, -0.0, 2, np.inf], [5, 6, 7, 8]], np.float32),
}
WHERE = np.array([[True, False, True], [True, True, False]])
KWARGS = [{"axis": 0}, {"axis": 1, "keepdims": True, "ddof": 1}, {"where": WHERE}]
# Casting inf/NaN to int16 is undefined (the two libraries give different garbage).
CASES = [
    (f, x, d)
    for f in ["var", "std", "nanvar", "nanstd", "mean", "nanmean"]
    for x in INPUTS
    for d in [None, np.float32, np.int16, np.complex64]
    if not (x == "inf" and d is np.int16)
]


def outcome(fn):
    try:
        r = np.asarray(fn())
    except (TypeError, ValueError) as e:
        return type(e), str(e)[:60]
    return r.dtype, r


@pytest.mark.parametrize("fname,xname,dtype", CASES)
def test_matches_jax(fname, xname, dtype):
    x = INPUTS[xname]
    for kw in KWARGS:
        if "ddof" in kw and fname in ("mean", "nanmean"):
            kw = {k: v for k, v in kw.items() if k != "ddof"}
        if "where" in kw and x.shape != WHERE.shape:
            continue
        ours = outcome(lambda: getattr(L, fname)(x, dtype=dtype, **kw))
        theirs = outcome(lambda: getattr(J, fname)(x, dtype=dtype, **kw))
        assert ours[0] == theirs[0], (kw, ours, theirs)
        if isinstance(ours[1], np.ndarray):
            a, b = ours[1].astype(np.complex128), theirs[1].astype(np.complex128)
            assert a.shape == b.shape
            np.testing.assert_allclose(a, b, rtol=2e-3, atol=1e-3, equal_nan=True)
        else:
            assert ours[1] == theirs[1]


def test_nanvar_keeps_the_nan_of_infinities():
    x = np.array([[-np.inf, np.inf, 8.0], [1.0, np.nan, -np.inf]], np.float32)
    assert np.isnan(np.asarray(L.nanvar(x, axis=1))).all()
    assert np.isnan(np.asarray(L.nanstd(x[1]))) and float(L.nanvar(x[1, :2])) == 0.0


def test_results_of_python_scalars_are_strong():
    for fname in ("mean", "var", "nanmean", "nanvar", "std"):
        assert getattr(L, fname)(1.0).weak_type is False
        assert getattr(L, fname)(1.0).weak_type == getattr(J, fname)(1.0).weak_type


@pytest.mark.parametrize("fname", ["var", "nanvar", "mean", "nanmean"])
@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint8, np.float16, np.float32])
def test_weak_type_of_an_integer_dtype_matches_jax(fname, dtype):
    # Session 10: jnp.var(x, dtype=int32) is a *weak* float32 in JAX; it was strong.
    x = X.astype(np.float32)
    ours, theirs = getattr(L, fname)(x, dtype=dtype), getattr(J, fname)(x, dtype=dtype)
    assert (ours.dtype, ours.weak_type) == (theirs.dtype, theirs.aval.weak_type)
