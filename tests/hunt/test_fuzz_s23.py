"""Session 23 differential hunt (generators in tests/hunt/fuzz_s23.py: convolutions under
every layout, padding, dilation, grouping and transformation; jnp / jax.scipy.signal
convolutions; ``lax.reduce_window`` and the cumulative reductions) checked against JAX
0.10.2. Each case asserts a value or property that holds without JAX (so the file means
something in oracle mode, ``JAXLITE_ORACLE=jax``) and, where JAX is importable, compares the
whole result (or the raised exception's class) with JAX's through tests/hunt/oracle.py."""

from __future__ import annotations

import numpy as np
import pytest

from tests.hunt import fuzz_s23
from tests.hunt.oracle import JAX, LITE, same

_X = np.arange(1.0, 13.0, dtype=np.float32).reshape(1, 2, 6)  # N C W
_K = np.array([[[1.0, -1.0], [0.5, 2.0]]], np.float32)  # O I W


def _first_line(m, f):
    try:
        f(m)
    except Exception as e:  # noqa: BLE001 - the message is the subject
        return type(e), str(e).split("\n")[0]
    return None


# ------------------------------------------ conv argument checks (seeds conv 4, 15, 30, 94)
# jaxlite promoted mixed operand dtypes (JAX refuses them), accepted index-tuple dimension
# numbers (JAX takes strings or a ConvDimensionNumbers), strides of the wrong length and a
# negative padding larger than the input (an empty result where JAX raises). The checks
# now run in JAX's order with its messages.
_BAD_CONV = {
    "mixed_dtypes": lambda m: m.lax.conv_general_dilated(_X, _K.astype(np.int32), (1,), "VALID"),
    "index_tuples": lambda m: m.lax.conv_general_dilated(
        _X, _K, (1,), "VALID", dimension_numbers=((0, 1, 2), (0, 1, 2), (0, 1, 2))
    ),
    "strides_length": lambda m: m.lax.conv_general_dilated(_X, _K, (1, 1), "VALID"),
    "negative_padding": lambda m: m.lax.conv_general_dilated(_X, _K, (1,), ((-4, -3),)),
    "feature_count": lambda m: m.lax.conv_general_dilated(_X, _K[:, :1], (1,), "VALID"),
    "group_divides": lambda m: m.lax.conv_general_dilated(
        _X, _K, (1,), "VALID", feature_group_count=3
    ),
    "batch_group_divides": lambda m: m.lax.conv_general_dilated(
        _X, np.concatenate([_K, _K]), (1,), "VALID", batch_group_count=2
    ),
    "string_padding_lhs_dilation": lambda m: m.lax.conv_general_dilated(
        _X, _K, (1,), "SAME", lhs_dilation=(2,)
    ),
}
_BAD_CLASS = {"mixed_dtypes": TypeError, "index_tuples": TypeError}


@pytest.mark.parametrize("case", sorted(_BAD_CONV))
def test_conv_bad_arguments_raise_as_jax(case):
    f = _BAD_CONV[case]
    with pytest.raises(_BAD_CLASS.get(case, ValueError)):
        f(LITE)
    same(f)
    if JAX is not None:  # JAX's message too
        assert _first_line(LITE, f)[1] == _first_line(JAX, f)[1]


def test_conv_dimension_numbers_is_a_named_tuple():
    dn = LITE.lax.conv_dimension_numbers((1, 2, 3, 4), (5, 2, 1, 1), ("NHWC", "HWIO", "NCHW"))
    assert isinstance(dn, LITE.lax.ConvDimensionNumbers)
    assert dn == ((0, 3, 1, 2), (3, 2, 0, 1), (0, 1, 2, 3))
    if JAX is not None:
        ref = JAX.lax.conv_dimension_numbers((1, 2, 3, 4), (5, 2, 1, 1), ("NHWC", "HWIO", "NCHW"))
        assert tuple(ref) == tuple(dn) and ref._fields == dn._fields


# ------------------------------- derivatives of a convolution with no outputs (seed 248)
# The transpose rules sized the dilated cotangent of an empty output as one element: the
# gradients had wrong shapes (lhs (3, 3, ...) for a (3, 2, ...) input). And jacrev of an
# empty output batched the convolution over 0 basis vectors, which the loop fallback could
# not stack (seed 67).
def _empty_conv(m, x, k):
    return m.lax.conv_general_dilated(x, k, (1, 1), ((0, 0), (1, -3)), (2, 1), (1, 1))


def test_conv_gradient_of_an_empty_output():
    x = np.ones((2, 3, 2, 2), np.float32)
    k = np.ones((4, 3, 1, 2), np.float32)
    assert _empty_conv(LITE, x, k).shape == (2, 4, 3, 0)
    f = lambda m: m.jx.grad(lambda x, k: m.jnp.sum(_empty_conv(m, x, k)), argnums=(0, 1))(x, k)  # noqa: E731
    gx, gk = f(LITE)
    assert gx.shape == x.shape and gk.shape == k.shape
    assert not np.asarray(gx).any() and not np.asarray(gk).any()
    same(f)
    j = lambda m: m.jx.jacrev(lambda x, k: _empty_conv(m, x, k), argnums=(0, 1))(x, k)  # noqa: E731
    jx_, jk = j(LITE)
    assert jx_.shape == (2, 4, 3, 0) + x.shape and jk.shape == (2, 4, 3, 0) + k.shape
    same(j)


# --------------------------------------- a kernel-batched convolution is one convolution
def test_conv_vmap_over_the_kernel():
    ks = np.stack([_K, -2 * _K, _K[:, ::-1]])
    f = lambda m: m.jx.vmap(  # noqa: E731
        lambda k: m.lax.conv_general_dilated(_X, k, (2,), "SAME"), in_axes=0
    )(ks)
    out = np.asarray(f(LITE))
    for b in range(3):
        ref = np.asarray(LITE.lax.conv_general_dilated(_X, ks[b], (2,), "SAME"))
        np.testing.assert_array_equal(out[b], ref)
    # x[0] = 1..6 and 7..12, kernel rows (1, -1) and (0.5, 2), SAME pads (0, 1) at stride 2
    np.testing.assert_array_equal(
        out[0, 0, 0], [-1 + 7 * 0.5 + 16, -1 + 9 * 0.5 + 20, -1 + 11 * 0.5 + 24]
    )
    same(f)


# --------------------------- preferred_element_type under reverse mode (seeds 98, 289)
# The cotangent has the preferred type and the other operand the input type: the
# transpose convolutions refused the mixed dtypes. JAX converts the operand to the
# cotangent's type and the result back to the input's.
@pytest.mark.parametrize(
    "dt, pet", [("bfloat16", "float32"), ("float16", "float32"), ("bfloat16", "float16")]
)
def test_conv_preferred_element_type_gradient(dt, pet):
    def f(m):
        x, k = m.jnp.asarray(_X).astype(dt), m.jnp.asarray(_K).astype(dt)

        def loss(x, k):
            y = m.lax.conv_general_dilated(x, k, (1,), ((1, 1),), preferred_element_type=pet)
            assert y.dtype == np.dtype(pet)
            return m.jnp.sum(y * m.jnp.arange(7.0).astype(pet))

        return m.jx.grad(loss, argnums=(0, 1))(x, k)

    gx, gk = f(LITE)
    assert gx.dtype == np.dtype(LITE.jnp.bfloat16 if dt == "bfloat16" else dt)
    # d loss / d k[0, i, j] = sum_w c[w] * xpad[i, w + j] (xpad: x padded by one each side)
    xpad, c = np.pad(_X[0], ((0, 0), (1, 1))), np.arange(7.0)
    ref = [[sum(c[w] * xpad[i, w + j] for w in range(7)) for j in range(2)] for i in range(2)]
    np.testing.assert_allclose(np.asarray(gk, np.float32)[0], ref, rtol=1e-2)
    same(f, rtol=1e-2, atol=1e-2)


# ---------------------------------------------- lax.pad: negative past the operand (177)
# The NumPy kernel cropped before padding, so a negative amount larger than the operand's
# extent removed nothing from the padding on the other side (an empty axis padded (2, -1)
# kept two elements where the shape says one: an internal error under vmap of a hessian).
@pytest.mark.parametrize(
    "shape, config, expected",
    [((0,), ((2, -1, 0),), [9.0]), ((3,), ((-4, 2, 0),), [9.0]), ((3,), ((2, -4, 0),), [9.0]),
     ((3,), ((1, -2, 1),), [9.0, 0.0, 9.0, 1.0])],
)  # fmt: skip
def test_pad_negative_beyond_the_operand(shape, config, expected):
    x = np.arange(float(np.prod(shape)), dtype=np.float32).reshape(shape)
    f = lambda m: m.lax.pad(x, np.float32(9), config)  # noqa: E731
    np.testing.assert_array_equal(f(LITE), expected)
    np.testing.assert_array_equal(LITE.jx.jit(lambda: f(LITE))(), expected)
    same(f)
    same(
        lambda m: m.jx.vmap(lambda v: m.lax.pad(x + v, np.float32(9), config))(
            np.ones(2, np.float32)
        )
    )


# -------------------------------- reduce_window: a max/min init enters every window (31)
# The init of add/mul entered each window once, but a max/min init only filled the
# padding: a window inside the operand ignored it (max with init 1.5 over ones gave 1).
@pytest.mark.parametrize(
    "comp, init, expected", [("max", 1.5, 1.5), ("min", -1.5, -1.5), ("max", 0.5, 1.0)]
)
def test_reduce_window_init_enters_every_window(comp, init, expected):
    x = np.ones((4,), np.float32)
    f = lambda m: m.lax.reduce_window(x, init, getattr(m.lax, comp), (2,), (1,), "VALID")  # noqa: E731
    np.testing.assert_array_equal(f(LITE), [expected] * 3)
    same(f)
    same(
        lambda m: m.jx.jit(
            lambda x, i: m.lax.reduce_window(x, i, getattr(m.lax, comp), (2,), (1,), "VALID")
        )(x, np.float32(init))
    )


# ---------------------------------- reduce_window: JAX's monoid and generic paths (182)
# lax.add / max / min with an init equal to the identity *of the init's type* reduce with
# the operand type's identity (False for an int32 max pads with int32's lowest value, not
# 0) and keep a weak operand's type; anything else is JAX's generic path, whose init must
# have the operand's dtype (a Python int init of a float operand is a TypeError there).
def test_reduce_window_identity_of_the_operand_type():
    x = np.array([-3, -1], np.int32)
    f = lambda m: m.lax.reduce_window(x, False, m.lax.max, (3,), (1,), "SAME")  # noqa: E731
    np.testing.assert_array_equal(f(LITE), [-1, -1])
    same(f)
    g = lambda m: m.jx.vmap(
        lambda v: m.lax.reduce_window(v * 2 - 1, False, m.lax.max, (2,), (1,), ((1, 0),))
    )(np.array([[True, False]]))  # noqa: E731
    out = g(LITE)
    np.testing.assert_array_equal(out, [[1, 1]])
    assert out.weak_type
    same(g)


@pytest.mark.parametrize(
    "init, comp, ok",
    [(0, "add", True), (2, "add", False), (1, "mul", False), (1.0, "mul", True),
     (-np.inf, "max", True), (1.5, "max", True), (3, "max", False)],
)  # fmt: skip
def test_reduce_window_generic_init_dtype(init, comp, ok):
    x = np.arange(4.0, dtype=np.float32)
    f = lambda m: m.lax.reduce_window(x, init, getattr(m.lax, comp), (2,), (1,), "VALID")  # noqa: E731
    if ok:
        f(LITE)
    else:
        with pytest.raises(TypeError, match="inconsistent dtypes"):
            f(LITE)
    same(f)


# ------------------------- reduce_window: JVP of the generic path with ties (seed 34)
# JAX differentiates a generic reduce_window by folding the computation's JVP over each
# window in order, so max ties split their tangents; jaxlite used its max-pool rule (the
# first winner takes the whole tangent) for a non-identity init too.
def test_reduce_window_generic_max_jvp_splits_ties():
    x = np.array([2.0, 2.0, 1.0], np.float32)
    t = np.array([1.0, 3.0, 5.0], np.float32)
    f = lambda m, init: m.jx.jvp(
        lambda v: m.lax.reduce_window(v, init, m.lax.max, (2,), (1,), "VALID"), (x,), (t,)
    )  # noqa: E731
    _, dt = f(LITE, np.float32(0))
    np.testing.assert_array_equal(dt, [2.0, 3.0])  # (1 + 3) / 2, then 3 alone
    _, dt = f(LITE, -np.inf)  # the max-pool primitive: the first winner's tangent
    np.testing.assert_array_equal(dt, [1.0, 3.0])
    same(lambda m: f(m, np.float32(0)))
    same(lambda m: f(m, -np.inf))


def test_reduce_window_empty_generic_refused_in_reverse_mode():
    x = np.ones((2, 2), np.float32)
    f = lambda m: m.jx.jacrev(
        lambda v: m.lax.reduce_window(
            v, -np.inf, lambda a, b: m.jnp.maximum(a, b), (3, 1), (1, 1), "VALID"
        )
    )(x)  # noqa: E731
    with pytest.raises(ValueError, match="Linearization failed"):
        f(LITE)
    same(f)


# ------------------------------------------------------------------ a spread of seeds
_SPREAD = {"conv": (33, 98, 139, 248, 301), "signal": (0, 7), "window": (34, 182, 237)}


@pytest.mark.parametrize("name, seed", [(n, s) for n, seeds in _SPREAD.items() for s in seeds])
def test_hunt_seed_agrees_with_jax(name, seed):
    pytest.importorskip("jax")
    d, src = fuzz_s23.check(name, seed)
    assert d is None, f"{d}\n{src}"
