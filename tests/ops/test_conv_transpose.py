"""lax.conv_transpose against JAX: every padding mode (forward "SAME"/"VALID", explicit
transposed-conv pairs, explicit forward pairs with use_consistent_padding), strides,
kernel dilation, transpose_kernel, ranks 1-3, explicit layouts, and its gradients, vmap
and jit (it is a composition of conv_general_dilated, so these come from that primitive).
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.numpy  # noqa: E402,F401

import jaxlite  # noqa: E402
import jaxlite.numpy  # noqa: E402,F401

jax.config.update("jax_platforms", "cpu")

RNG = np.random.default_rng(3)

CASES = [
    # (lhs shape, rhs shape, strides, padding, rhs_dilation, dimension_numbers)
    ((2, 5, 5, 3), (3, 3, 3, 4), (2, 2), "SAME", None, None),
    ((2, 5, 5, 3), (3, 3, 3, 4), (2, 2), "VALID", None, None),
    ((1, 4, 6, 2), (2, 3, 2, 3), (1, 3), "SAME", None, None),
    ((1, 4, 6, 2), (4, 2, 2, 3), (3, 2), "VALID", (2, 1), None),
    ((2, 5, 5, 3), (3, 3, 3, 4), (2, 2), ((1, 2), (0, 1)), None, None),
    ((2, 7, 3), (3, 3, 2), (2,), "SAME", None, None),
    ((2, 7, 3), (1, 3, 2), (3,), "VALID", None, None),
    ((1, 3, 4, 4, 2), (2, 2, 2, 2, 3), (2, 1, 2), "SAME", None, None),
    ((2, 3, 5, 5), (4, 3, 3, 3), (2, 2), "SAME", None, ("NCHW", "OIHW", "NCHW")),
    ((2, 5, 5, 3), (3, 3, 3, 4), (2, 2), "SAME", None, ("NHWC", "HWIO", "NCHW")),
]


def _operands(lhs_shape, rhs_shape):
    return (
        RNG.standard_normal(lhs_shape).astype(np.float32),
        RNG.standard_normal(rhs_shape).astype(np.float32),
    )


def _call(m, lhs, rhs, case, **kw):
    _, _, strides, padding, rd, dn = case
    return m.lax.conv_transpose(lhs, rhs, strides, padding, rd, dn, **kw)


@pytest.mark.parametrize("transpose_kernel", [False, True])
@pytest.mark.parametrize("case", CASES, ids=[str(i) for i in range(len(CASES))])
def test_matches_jax(case, transpose_kernel):
    lhs_shape, rhs_shape = case[:2]
    if transpose_kernel:
        # I and O swap: the kernel's I axis must then match the input's features.
        rhs_shape = list(rhs_shape)
        dn = case[5] or {3: "HIO", 4: "HWIO", 5: "HWDIO"}[len(rhs_shape)]
        ri, ro = dn[1].index("I") if isinstance(dn, tuple) else dn.index("I"), None
        ro = dn[1].index("O") if isinstance(dn, tuple) else dn.index("O")
        rhs_shape[ri], rhs_shape[ro] = rhs_shape[ro], rhs_shape[ri]
    lhs, rhs = _operands(lhs_shape, tuple(rhs_shape))
    want = _call(jax, lhs, rhs, case, transpose_kernel=transpose_kernel)
    got = _call(jaxlite, lhs, rhs, case, transpose_kernel=transpose_kernel)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("padding", [((1, 2), (0, 1)), ((0, 0), (2, 2))])
def test_use_consistent_padding(padding):
    lhs, rhs = _operands((2, 5, 5, 3), (3, 3, 3, 4))
    args = (lhs, rhs, (2, 2), padding)
    want = jax.lax.conv_transpose(*args, use_consistent_padding=True)
    got = jaxlite.lax.conv_transpose(*args, use_consistent_padding=True)
    assert got.shape == want.shape
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-5, atol=1e-5)


def test_grad_vmap_jit():
    lhs, rhs = _operands((2, 4, 4, 3), (3, 3, 3, 2))
    case = CASES[0]
    for m in (jax, jaxlite):
        f = lambda x, k, m=m: (_call(m, x, k, case) ** 2).sum()  # noqa: E731
        g = m.jit(m.grad(f, argnums=(0, 1)))(lhs, rhs)
        v = m.vmap(lambda x, m=m: _call(m, x[None], rhs, case)[0])(lhs)
        if m is jax:
            want_g, want_v = g, v
    for a, b in zip(g, want_g):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(np.asarray(v), np.asarray(want_v), rtol=1e-5, atol=1e-5)


def test_errors():
    lhs, rhs = _operands((1, 2, 2, 2, 2, 2, 1), (1, 1, 1, 1, 1, 1, 1))
    with pytest.raises(ValueError, match="No 4\\+ dimensional dimension_number defaults"):
        jaxlite.lax.conv_transpose(lhs, rhs, (1,) * 5, "SAME")
    lhs, rhs = _operands((2, 5, 5, 3), (3, 3, 3, 4))
    with pytest.raises(ValueError, match="Invalid padding mode"):
        jaxlite.lax.conv_transpose(lhs, rhs, (2, 2), "FULL", use_consistent_padding=True)


# conv_general_dilated itself: 3-D convolutions (its einsum once reused the channel label
# for the third spatial dim) and spatial dims taken in the kernel string's order (they
# were sorted alphabetically, so "HWD" strides and padding applied to D, H, W).
@pytest.mark.parametrize(
    "dn, lhs_shape, rhs_shape",
    [
        (("NHWDC", "HWDIO", "NHWDC"), (1, 6, 7, 8, 2), (2, 3, 2, 2, 3)),
        (("NCDHW", "OIDHW", "NCDHW"), (2, 2, 6, 7, 8), (3, 2, 2, 3, 2)),
        (("NCWH", "OIWH", "NCWH"), (1, 2, 6, 7), (3, 2, 2, 3)),
        (("NHWC", "WHIO", "NWHC"), (1, 6, 7, 2), (3, 2, 2, 3)),
    ],
)
def test_conv_general_dilated_layouts(dn, lhs_shape, rhs_shape):
    lhs, rhs = _operands(lhs_shape, rhs_shape)
    nsp = len(lhs_shape) - 2
    strides = (1, 2, 3)[:nsp]
    padding = ((1, 0), (0, 2), (1, 1))[:nsp]
    dil = (2, 1, 1)[:nsp]
    args = (lhs, rhs, strides, padding, None, dil, dn)
    want = jax.lax.conv_general_dilated(*args)
    got = jaxlite.lax.conv_general_dilated(*args)
    assert got.shape == want.shape
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    "dn, match",
    [
        (
            ("NHWC", "HWIO", "NHWC "),
            r"dimension_numbers\[2\] must have len equal to the ndim",
        ),
        (("NHHC", "HWIO", "NHWC"), "cannot have duplicate characters"),
        (("NHWC", "HWOO", "NHWC"), "'O' and 'I' exactly once"),
        (("NHWC", "HXIO", "NHWC"), "same set of spatial characters"),
    ],
)
def test_conv_layout_errors(dn, match):
    lhs, rhs = _operands((1, 5, 5, 2), (2, 2, 2, 3))
    for m in (jax, jaxlite):
        with pytest.raises(TypeError, match=match):
            m.lax.conv_general_dilated(lhs, rhs, (1, 1), "VALID", dimension_numbers=dn)
