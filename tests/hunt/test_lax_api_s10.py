"""jax.lax names jaxlite lacked (session 10), against JAX 0.10.2: the AccuracyMode /
RandomAlgorithm enums, Tolerance, the typing aliases, tokens, shape_as_value and stage."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
from jax import lax as JL  # noqa: E402

import jaxlite  # noqa: E402
from jaxlite import lax as LL  # noqa: E402


def test_enums_match_jax():
    for name in ("AccuracyMode", "RandomAlgorithm"):
        ours, theirs = getattr(LL, name), getattr(JL, name)
        assert [(e.name, e.value) for e in ours] == [(e.name, e.value) for e in theirs]
        assert [str(e) for e in ours] == [str(e) for e in theirs]
    assert int(LL.RandomAlgorithm.RNG_PHILOX) == int(JL.RandomAlgorithm.RNG_PHILOX)


def test_tolerance():
    t = LL.Tolerance(atol=1e-3)
    assert (t.atol, t.rtol, t.ulps) == (1e-3, 0.0, 0)
    with pytest.raises(ValueError) as ej:
        JL.Tolerance()
    with pytest.raises(ValueError) as el:
        LL.Tolerance()
    assert str(el.value) == str(ej.value)


def test_shape_as_value_and_stage():
    for shape in [(2, 3), (), (5,)]:
        a, b = LL.shape_as_value(shape), JL.shape_as_value(shape)
        np.testing.assert_array_equal(a, b)
        assert np.asarray(a).dtype == np.asarray(b).dtype == np.int32
    for v in (2.0, 3, np.arange(3, dtype=np.int16)):
        a, b = LL.stage(v), JL.stage(v)
        assert isinstance(a, jaxlite.Array)
        assert a.dtype == b.dtype and a.weak_type == b.weak_type
        np.testing.assert_array_equal(a, b)
    assert float(jaxlite.jit(lambda x: LL.stage(x) * 2)(3.0)) == float(
        jax.jit(lambda x: JL.stage(x) * 2)(3.0)
    )


def test_tokens_and_aliases():
    t = LL.create_token()
    assert LL.after_all(t, LL.create_token(1)) is not None
    for name in ("ConvGeneralDilatedDimensionNumbers", "DotDimensionNumbers", "PrecisionLike"):
        assert getattr(LL, name) is not None
