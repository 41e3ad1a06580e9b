"""``jnp.pad`` against real JAX 0.10.2 and NumPy: ``reflect_type="odd"`` was silently
ignored (a wrong answer: the even reflection came back), and the ``linear_ramp``,
``maximum``, ``minimum``, ``mean``, ``median`` and ``empty`` modes raised
NotImplementedError."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

import jaxlite  # noqa: E402
import jaxlite.numpy as lnp  # noqa: E402

_rng = np.random.RandomState(1)
X = _rng.randn(4, 5).astype(np.float32)
I = _rng.randint(-5, 5, (4, 5)).astype(np.int32)  # noqa: E741
WIDTHS = [1, (2, 3), ((1, 2), (3, 0)), ((0, 6), (5, 1)), ((7, 9), (12, 1))]


def _check(got, want, exact):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    if exact:
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-6)


@pytest.mark.parametrize("mode", ["reflect", "symmetric"])
@pytest.mark.parametrize("width", WIDTHS)
def test_odd_reflection_matches_jax_and_numpy(mode, width):
    for src in (X, I, np.arange(1.0, 6.0)[None, :], np.array([[3.0]])):
        want = jnp.pad(src, width, mode, reflect_type="odd")
        _check(lnp.pad(src, width, mode, reflect_type="odd"), want, src.dtype.kind == "i")
        _check(jaxlite.jit(lambda a: lnp.pad(a, width, mode, reflect_type="odd"))(src), want, False)
        np.testing.assert_allclose(
            np.asarray(lnp.pad(src, width, mode, reflect_type="odd")),
            np.pad(src, width, mode, reflect_type="odd"),
            rtol=1e-5,
            atol=1e-5,
        )


@pytest.mark.parametrize("mode", ["maximum", "minimum", "mean", "median"])
@pytest.mark.parametrize("width", WIDTHS)
def test_stat_modes_match_jax(mode, width):
    for src in (X, I):
        for kw in ({}, dict(stat_length=2), dict(stat_length=((1, 2), (3, 1)))):
            want = jnp.pad(src, width, mode, **kw)
            _check(lnp.pad(src, width, mode, **kw), want, src.dtype.kind == "i")


@pytest.mark.parametrize("width", WIDTHS)
def test_linear_ramp(width):
    for kw in ({}, dict(end_values=5), dict(end_values=((1, 2), (-1, 3)))):
        _check(
            lnp.pad(X, width, "linear_ramp", **kw), jnp.pad(X, width, "linear_ramp", **kw), False
        )
        # Integer ramps floor a float32 ramp, as JAX's: where a ramp lands on an exact
        # integer, JAX's, NumPy's (float64) and jaxlite's roundings can floor one apart
        # (4.9999995 -> 4), the linspace rounding row of docs/compat.md.
        got = np.asarray(lnp.pad(I, width, "linear_ramp", **kw))
        want = np.asarray(jnp.pad(I, width, "linear_ramp", **kw))
        assert got.dtype == want.dtype == np.int32 and got.shape == want.shape
        assert np.abs(got - want).max() <= 1 and (got == want).mean() > 0.9
        np.testing.assert_array_equal(
            got[
                tuple(
                    slice(lo, lo + n)
                    for (lo, _), n in zip(np.broadcast_to(np.asarray(width), (2, 2)), I.shape)
                )
            ],
            I,
        )


def test_empty_mode_shape_and_errors_match_jax():
    assert (
        lnp.pad(X, ((1, 2), (0, 3)), "empty").shape == jnp.pad(X, ((1, 2), (0, 3)), "empty").shape
    )
    for args, kw in [
        (("bogus",), {}),
        (("edge",), dict(foo=1)),
        (("edge",), dict(reflect_type="odd")),
        (("mean",), dict(stat_length=0)),
        (("reflect",), {}),  # an empty axis cannot be reflected
    ]:
        src = np.zeros((0, 3), np.float32) if args == ("reflect",) else X
        with pytest.raises(Exception) as want:
            jnp.pad(src, 2, *args, **kw)
        with pytest.raises(type(want.value)) as got:
            lnp.pad(src, 2, *args, **kw)
        assert str(got.value) == str(want.value)
