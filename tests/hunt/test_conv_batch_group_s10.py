"""lax.conv_general_dilated(..., batch_group_count > 1) against JAX 0.10.2 (it raised
NotImplementedError in jaxlite before session 10): values in several layouts, strides,
padding and dilations, gradients in both operands, jit/vmap, and JAX's ValueErrors for the
group counts (which also cover feature_group_count=0, a ZeroDivisionError before)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
from jax import lax as JL  # noqa: E402

import jaxlite  # noqa: E402
from jaxlite import lax as LL  # noqa: E402

rng = np.random.default_rng(4)


def close(a, b, rtol=1e-4, atol=1e-4):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, a.dtype, b.shape, b.dtype)
    np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)


def arr(*s):
    return rng.normal(size=s).astype(np.float32)


CASES = [
    (arr(4, 2, 5, 5), arr(6, 2, 3, 3), dict(window_strides=(1, 1), padding="VALID")),
    (
        arr(6, 3, 7, 6),
        arr(8, 3, 2, 3),
        dict(window_strides=(2, 1), padding="SAME", rhs_dilation=(2, 1)),
    ),
    (
        arr(4, 6, 5, 2),  # NHWC / HWIO
        arr(3, 2, 2, 4),
        dict(
            window_strides=(1, 1),
            padding=((1, 0), (0, 1)),
            lhs_dilation=(2, 1),
            dimension_numbers=("NHWC", "HWIO", "NHWC"),
        ),
    ),
    (arr(4, 1, 8), arr(4, 1, 3), dict(window_strides=(1,), padding="VALID")),
]


@pytest.mark.parametrize("i", range(len(CASES)))
def test_batch_group_conv_values_and_gradients(i):
    lhs, rhs, kw = CASES[i]
    bg = 2
    f = lambda m: lambda a, b: m.conv_general_dilated(a, b, batch_group_count=bg, **kw)  # noqa: E731
    want = f(JL)(lhs, rhs)
    close(f(LL)(lhs, rhs), want)
    close(jaxlite.jit(f(LL))(lhs, rhs), want)
    ct = rng.normal(size=want.shape).astype(np.float32)
    gl = jaxlite.grad(lambda a, b: (f(LL)(a, b) * ct).sum(), (0, 1))(lhs, rhs)
    gj = jax.grad(lambda a, b: (f(JL)(a, b) * ct).sum(), (0, 1))(lhs, rhs)
    close(gl[0], gj[0], 1e-3, 1e-3)
    close(gl[1], gj[1], 1e-3, 1e-3)


def test_batch_group_conv_vmap_and_jvp():
    lhs, rhs, kw = CASES[0]
    f = lambda m: lambda a, b: m.conv_general_dilated(a, b, batch_group_count=2, **kw)  # noqa: E731
    ls = np.stack([lhs, 2 * lhs])
    close(jaxlite.vmap(f(LL), (0, None))(ls, rhs), jax.vmap(f(JL), (0, None))(ls, rhs))
    t = (arr(*lhs.shape), arr(*rhs.shape))
    yl, tl = jaxlite.jvp(f(LL), (lhs, rhs), t)
    yj, tj = jax.jvp(f(JL), (lhs, rhs), t)
    close(yl, yj)
    close(tl, tj, 1e-3, 1e-3)


@pytest.mark.parametrize(
    "kw",
    [
        dict(batch_group_count=3),  # does not divide the batch (4)
        dict(batch_group_count=4),  # does not divide the output features (6)
        dict(batch_group_count=0),
        dict(feature_group_count=0),
        dict(batch_group_count=2, feature_group_count=2),
    ],
)
def test_group_count_errors(kw):
    fg = kw.get("feature_group_count", 1)
    lhs, rhs = arr(4, 2, 5, 5), arr(6, 2 // fg if fg > 0 else 2, 3, 3)
    with pytest.raises(ValueError) as ej:
        JL.conv_general_dilated(lhs, rhs, (1, 1), "VALID", **kw)
    with pytest.raises(ValueError) as el:
        LL.conv_general_dilated(lhs, rhs, (1, 1), "VALID", **kw)
    assert str(el.value) == str(ej.value)
