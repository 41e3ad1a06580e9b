"""Which operations return their argument itself and which a new array, as JAX 0.10.2 does
eagerly (it decides what ``delete()`` and donation of the argument do to the result), and
``Array.view``: the bits of an array read as another dtype. Every test passes in oracle
mode (``JAXLITE_ORACLE=jax``)."""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax

RANKS = {
    "0d": lambda: jnp.zeros(()),
    "0d_weak": lambda: jnp.asarray(2.0),
    "1d": lambda: jnp.arange(3.0),
    "2d": lambda: jnp.arange(6.0).reshape(2, 3),
    "3d_int": lambda: jnp.arange(6).reshape(1, 2, 3),
}


def _ident(x):
    return tuple(range(x.ndim))


# (operation, ranks at which JAX returns the argument itself: the rest give a new array)
CASES = {
    "x.reshape(same)": (lambda x: x.reshape(x.shape), "123"),
    "jnp.reshape(same)": (lambda x: jnp.reshape(x, x.shape), "123"),
    "lax.reshape(same)": (lambda x: lax.reshape(x, x.shape), "123"),
    "jnp.expand_dims(())": (lambda x: jnp.expand_dims(x, ()), "0"),
    "lax.expand_dims(())": (lambda x: lax.expand_dims(x, ()), "0"),
    "lax.broadcast(())": (lambda x: lax.broadcast(x, ()), "0123"),
    "lax.broadcast_in_dim(same)": (
        lambda x: lax.broadcast_in_dim(x, x.shape, _ident(x)),
        "0",
    ),
    "jnp.broadcast_to(same)": (lambda x: jnp.broadcast_to(x, x.shape), "0123"),
    "jnp.moveaxis(same)": (lambda x: jnp.moveaxis(x, _ident(x), _ident(x)), ""),
    "jnp.transpose(identity)": (lambda x: jnp.transpose(x, _ident(x)), "0123"),
    "jnp.broadcast_arrays": (lambda x: jnp.broadcast_arrays(x)[0], ""),
    "jnp.broadcast_arrays(x, x)": (lambda x: jnp.broadcast_arrays(x, x)[1], ""),
    "jnp.squeeze(())": (lambda x: jnp.squeeze(x, ()), ""),
    "lax.squeeze(())": (lambda x: lax.squeeze(x, ()), "0123"),
    "x.view()": (lambda x: x.view(), "0123"),
    "x.view(same)": (lambda x: x.view(x.dtype), "123"),
}


@pytest.mark.parametrize("rank", RANKS)
@pytest.mark.parametrize("case", CASES)
def test_which_operations_return_the_argument_itself(case, rank):
    fun, same_at = CASES[case]
    x = RANKS[rank]()
    out = fun(x)
    assert (out is x) == (str(x.ndim) in same_at)
    x.delete()
    # A new array outlives its argument's deletion; the argument itself does not.
    assert out.is_deleted() == (str(x.ndim) in same_at)


def test_astype_to_the_same_dtype_returns_a_strong_array_itself():
    x = jnp.arange(3.0)
    assert x.astype(x.dtype) is x
    w = jnp.asarray(2.0)  # weakly typed: the result is a new, strong array
    out = w.astype(w.dtype)
    assert out is not w and not out.weak_type


@pytest.mark.parametrize(
    "fun",
    [
        lambda v, x: jnp.einsum("i", v),
        lambda v, x: jnp.einsum("ij->ij", x),
        lambda v, x: jnp.linalg.matrix_power(x, 1),
        lambda v, x: jnp.diff(v, n=0),
        lambda v, x: jnp.ix_(v)[0],
        lambda v, x: jnp.meshgrid(v)[0],
        lambda v, x: jnp.meshgrid(v, sparse=True)[0],
    ],
    ids=["einsum_i", "einsum_ij", "matrix_power_1", "diff_0", "ix_", "meshgrid", "meshgrid_sparse"],
)
def test_functions_that_change_nothing_return_a_new_array(fun):
    v, x = jnp.arange(3.0), jnp.arange(4.0).reshape(2, 2)
    out = fun(v, x)
    assert out is not v and out is not x
    want = np.asarray(out).copy()
    v.delete()
    x.delete()
    np.testing.assert_array_equal(np.asarray(out), want)


def test_swapaxes_of_an_axis_with_itself_is_a_new_array():
    x = jnp.arange(6.0).reshape(2, 3)
    y = jnp.swapaxes(x, 1, 1)
    assert y is not x
    x.delete()
    np.testing.assert_array_equal(np.asarray(y), np.arange(6.0).reshape(2, 3))


# ------------------------------------------------------------------------------- view
def _bits(a):
    return np.asarray(a).tobytes()


@pytest.mark.parametrize(
    "src, dtype",
    [
        (np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5, np.int32),
        (np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5, np.uint8),
        (np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5, np.float16),
        (np.array([[0, 1, 2, 0], [255, 3, 0, 7]], np.uint8), np.int16),
        (np.array([[0, 1, 2, 0], [255, 3, 0, 7]], np.uint8), np.float32),
        (np.array([[1, 256, -1, 0]], np.int16), np.uint8),
        (np.arange(8, dtype=np.int32).reshape(1, 2, 4), np.uint16),
        (np.array([1 + 2j, -3.5j], np.complex64), np.float32),
        (np.array([1 + 2j, -3.5j], np.complex64), np.int16),
        (np.array([1.5, -2.0, 3.0, 0.25], np.float32), np.complex64),
        (np.zeros((2, 0), np.uint8), np.int16),
    ],
    ids=str,
)
def test_view_reads_the_same_bytes_as_numpy(src, dtype):
    out = jnp.asarray(src).view(dtype)
    want = src.view(dtype)
    assert out.shape == want.shape and out.dtype == want.dtype
    assert _bits(out) == want.tobytes()
    jitted = jax.jit(lambda a: a.view(dtype))(jnp.asarray(src))
    assert _bits(jitted) == want.tobytes()


def test_view_of_and_as_bool():
    b = jnp.array([[True, False, True, True]])
    np.testing.assert_array_equal(b.view(jnp.uint8), [[1, 0, 1, 1]])
    assert b.view(jnp.int16).shape == (1, 2)
    np.testing.assert_array_equal(b.view(jnp.int16), [[1, 257]])
    # Any nonzero byte reads as True.
    u = jnp.array([0, 1, 2, 0], jnp.uint8)
    np.testing.assert_array_equal(u.view(jnp.bool_), [False, True, True, False])


def test_view_of_a_0d_array_keeps_the_itemsize():
    s = jnp.float32(1.5)
    out = s.view(jnp.int32)
    assert out.shape == () and int(out) == np.float32(1.5).view(np.int32)
    with pytest.raises(ValueError, match="view\\(\\) of a 0d array is only supported"):
        s.view(jnp.int16)


def test_view_errors():
    x = jnp.arange(6, dtype=jnp.float32).reshape(2, 3)
    with pytest.raises(ValueError, match="When changing to a larger dtype"):
        jnp.zeros((2, 3), jnp.uint8).view(jnp.int16)
    with pytest.raises(ValueError, match="When changing to a larger dtype"):
        x.view(jnp.complex64)  # 12 bytes on the last axis, 8 per element
    with pytest.raises(NotImplementedError, match="`type` argument"):
        x.view(jnp.float32, type=np.ndarray)


def test_view_under_transformations():
    x = jnp.arange(6, dtype=jnp.float32).reshape(2, 3)
    g = jax.grad(lambda a: a.view(jnp.float32).sum())(x)
    np.testing.assert_array_equal(np.asarray(g), np.ones((2, 3), np.float32))
    v = jax.vmap(lambda a: a.view(jnp.uint8))(x)
    assert v.shape == (2, 12) and _bits(v) == np.asarray(x).tobytes()


@pytest.mark.parametrize("value", [np.ones(3, np.float32), np.float32(1.5), 2.0], ids=repr)
def test_lax_shape_functions_of_non_arrays_return_arrays(value):
    for out in (lax.expand_dims(value, ()), lax.reshape(value, np.shape(value))):
        assert isinstance(out, jax.Array)
        np.testing.assert_array_equal(np.asarray(out), np.asarray(value, np.float32))
