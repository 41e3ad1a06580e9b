"""Bad input that JAX 0.10.2 refuses and jaxlite answered (session 25's sweep,
tests/hunt/sweep_err_s25.py): static integer arguments (sizes, counts, offsets, lengths,
bit counts) given as a float or a string were truncated with ``int()``; a bool offset or
axis was taken as 0/1; repeated or mismatched axis lists, wrong ranks and unknown enum
strings were answered. Each case asserts JAX's class and first line; the file runs
unchanged against JAX (``JAXLITE_ORACLE=jax``)."""

import re

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.nn
import jaxlite.numpy as jnp
import jaxlite.scipy.linalg as sla
import jaxlite.scipy.signal as signal
import jaxlite.scipy.special
from jaxlite import lax

A = np.array([1.0, 2.0, 3.0], np.float32)
M = np.array([[2.0, 1.0], [1.0, 3.0]], np.float32)
I = np.array([1, 2, 0], np.int32)  # noqa: E741

FLOAT = "'float' object cannot be interpreted as an integer"
STR = "'str' object cannot be interpreted as an integer"


def _raises(exc, first_line):
    return pytest.raises(exc, match="^" + re.escape(first_line))


# ---------------------------------------------- sizes and counts: operator.index, never int()
@pytest.mark.parametrize(
    "call, msg",
    [
        (lambda: jnp.unique(A, size=2.0), FLOAT),
        (lambda: jnp.unique(A, size="2"), STR),
        (lambda: jnp.unique_values(A, size=2.0), FLOAT),
        (lambda: jnp.union1d(A, A, size=2.0), FLOAT),
        (lambda: jnp.setxor1d(A, A, size=2.0), FLOAT),
        (lambda: jnp.intersect1d(A, A, size=2.0), FLOAT),
        (lambda: jnp.nonzero(A, size=2.0), FLOAT),
        (lambda: jnp.argwhere(A, size=2.0), FLOAT),
        (lambda: jnp.flatnonzero(A, size=2.0), FLOAT),
        (lambda: jnp.bincount(I, length=2.0), FLOAT),
        (lambda: jnp.bincount(I, minlength=2.0), FLOAT),
        (lambda: jnp.linspace(0.0, 1.0, num=2.0), FLOAT),
        (lambda: jnp.linspace(0.0, 1.0, num="2"), STR),
        (lambda: jnp.logspace(0.0, 1.0, num=2.0), FLOAT),
        (lambda: jnp.geomspace(1.0, 2.0, num=2.0), FLOAT),
        (lambda: jnp.fft.fft(A, n=2.0), FLOAT),
        (lambda: jnp.fft.irfft(A, n="2"), STR),
        (lambda: jnp.fft.fftn(A, s=[1.5]), FLOAT),
        (lambda: jnp.fft.rfft2(M, s=[1.5, 2]), FLOAT),
        (lambda: jnp.diagonal(M, offset=1.5), FLOAT),
        (lambda: jnp.diagonal(M, offset="1"), STR),
        (lambda: jnp.linalg.diagonal(M, offset=1.0), FLOAT),
        (lambda: jnp.tril(M, k=1.5), FLOAT),
        (lambda: jnp.triu(M, k=1.0), FLOAT),
        (lambda: jnp.diff(A, n=1.5), FLOAT),
        (lambda: lax.dynamic_slice_in_dim(A, 0, 1.5), FLOAT),
        (lambda: lax.reduce_precision(A, 1.5, 2), FLOAT),
        (lambda: lax.reduce_precision(A, 5, "2"), STR),
        (lambda: signal.istft(M, nfft=2.0), FLOAT),
        (lambda: jnp.linalg.norm(A, axis=(0.0,)), FLOAT),
        (lambda: jnp.linalg.vector_norm(A, axis=(0.0,)), FLOAT),
        (lambda: lax.expand_dims(A, np.array([0.0], np.float32)), "'numpy.float32' object"),
        (lambda: jnp.pad(A, 1, mode="mean", stat_length=1.5), "'numpy.float64' object"),
    ],
)
def test_float_or_string_count_is_a_type_error(call, msg):
    with _raises(TypeError, msg):
        call()


@pytest.mark.parametrize(
    "call, exc, msg",
    [
        (
            lambda: jnp.linalg.matrix_power(M, 2.0),
            TypeError,
            "exponent must be an integer, got 2.0",
        ),
        (lambda: jnp.linalg.matrix_power(M, "2"), TypeError, "exponent must be an integer, got 2"),
        (
            lambda: jnp.repeat(A, 2, total_repeat_length=2.0),
            TypeError,
            "Shapes must be 1D sequences of concrete values of integer type, got [2.0].",
        ),
        (
            lambda: jnp.repeat(A, 2, total_repeat_length=-1),
            TypeError,
            "broadcast_in_dim shape must have every element be nonnegative, got (-1,).",
        ),
        (
            lambda: sla.hilbert(2.0),
            TypeError,
            "Shapes must be 1D sequences of concrete values of integer type, got (2.0, 1).",
        ),
        (
            lambda: sla.hilbert(-1),
            TypeError,
            "iota shape must have every element be nonnegative, got (-1, 1).",
        ),
        (
            lambda: jnp.tril_indices(-1),
            TypeError,
            "broadcast_in_dim shape must have every element be nonnegative, got (-1, -1).",
        ),
        (
            lambda: jnp.triu_indices(2, 0, -3),
            TypeError,
            "broadcast_in_dim shape must have every element be nonnegative, got (2, -3).",
        ),
        (
            lambda: lax.reduce_precision(A, 5, -5),
            ValueError,
            "reduce_precision: mantissa_bits must be non-negative; got -5",
        ),
        (
            lambda: lax.reduce_precision(A, 0, 2),
            ValueError,
            "reduce_precision: exponent_bits must be positive; got 0",
        ),
    ],
)
def test_count_errors_carry_jax_messages(call, exc, msg):
    with _raises(exc, msg):
        call()


def test_counts_that_are_integers_still_work():
    np.testing.assert_array_equal(jnp.unique(A, size=np.int32(2)), [1.0, 2.0])
    np.testing.assert_array_equal(jnp.linspace(0.0, 1.0, num=np.array(3)), [0.0, 0.5, 1.0])
    np.testing.assert_array_equal(jnp.tril_indices(0)[0], np.zeros(0, np.int32))
    np.testing.assert_array_equal(jnp.linalg.matrix_power(M, np.int64(2)), M @ M)
    np.testing.assert_array_equal(lax.reduce_precision(A, 8, 0), [1.0, 2.0, 2.0])


def test_traced_linspace_num_is_a_concretization_error():
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jax.jit(lambda n: jnp.linspace(0.0, 1.0, num=n))(3)


# ------------------------------------------------------------- bool offsets and axes
@pytest.mark.parametrize(
    "call, exc, msg",
    [
        (lambda: jnp.tri(3, k=True), TypeError, "offset must be an integer, got "),
        (lambda: jnp.tril(M, k=True), TypeError, "offset must be an integer, got "),
        (lambda: jnp.tril(M, k=np.bool_(True)), TypeError, "'numpy.bool' object cannot be"),
        (lambda: jnp.triu(M, k="2"), TypeError, "unsupported operand type(s) for -: 'str' and"),
        (lambda: jnp.trace(M, offset=True), ValueError, "k must be a scalar integer; got "),
        (lambda: jnp.swapaxes(M, True, 0), ValueError, "setting an array element with a"),
        (
            lambda: jnp.tensordot(M, M, axes=True),
            TypeError,
            "tensordot axes argument must be an int, a pair of ints, or a pair of lists/tuples",
        ),
        (lambda: sla.helmert(True), TypeError, "iota does not accept dtype bool."),
    ],
)
def test_bool_where_an_integer_is_required(call, exc, msg):
    with _raises(exc, msg):
        call()


# ------------------------------------------------ axis lists, ranks, enum strings
@pytest.mark.parametrize(
    "call, exc, msg",
    [
        (lambda: jnp.moveaxis(M, (0, 0), 1), ValueError, "Inconsistent number of elements: 2 vs 1"),
        (lambda: jnp.moveaxis(M, 0, (1, 0)), ValueError, "Inconsistent number of elements: 1 vs 2"),
        (lambda: jnp.cross(A, A, axis=(0, 0)), ValueError, "Inconsistent number of elements"),
        (lambda: jnp.trapezoid(A, axis=(0, 0)), ValueError, "Inconsistent number of elements"),
        (
            lambda: jnp.percentile(A, A[None]),
            ValueError,
            "q must be have rank <= 1, got shape (1, 3)",
        ),
        (
            lambda: jnp.nanquantile(A, np.ones((2, 2, 2), np.float32) / 2),
            ValueError,
            "q must be have rank <= 1, got shape (2, 2, 2)",
        ),
        (
            lambda: jnp.isin(A, A, method="bogus"),
            ValueError,
            "method='bogus' is not implemented; options are 'compare_all', 'binary_search', "
            "'sort', and 'auto'",
        ),
        (lambda: jnp.copy(A, order="bogus"), NotImplementedError, "Only implemented for order='K'"),
        (lambda: jnp.tril_indices_from(np.ones((2, 2, 2))), ValueError, "Only 2-D inputs are"),
        (lambda: jnp.triu_indices_from(A), ValueError, "Only 2-D inputs are accepted"),
        (
            lambda: jnp.linalg.lstsq(M, np.ones((2, 2, 2), np.float32)),
            TypeError,
            "3-dimensional array given. Array must be one or two-dimensional",
        ),
        (
            lambda: lax.mulhi(I, I[None]),
            TypeError,
            "mulhi: arrays must have the same number of dimensions, got {1, 2}",
        ),
        (
            lambda: jnp.linalg.cross(np.ones((2, 2, 2), np.float32), A),
            ValueError,
            "Both input arrays must be (arrays of) 3-dimensional vectors, but they have "
            "x1.shape[axis]=2 and x2.shape[axis]=3",
        ),
        (
            lambda: jnp.linalg.cross(A, A, axis=None),
            TypeError,
            "tuple indices must be integers or slices, not NoneType",
        ),
        (
            lambda: sla.hankel(np.float32(1.0)),
            ValueError,
            "hankel: c must be at least 1-dimensional, got a scalar.",
        ),
    ],
)
def test_axis_rank_and_enum_errors(call, exc, msg):
    with _raises(exc, msg):
        call()


def test_rot90_refuses_a_string_k():
    # JAX's own TypeError is an accident of its code (a string's % 4); the class agrees.
    # A float k is refused too (docs/compat.md: JAX rotates as if k were 3).
    with pytest.raises(TypeError):
        jnp.rot90(M, k="2")


# ------------------------------------------------ lists where JAX wants an array operand
@pytest.mark.parametrize(
    "fun, name",
    [
        (lambda x: jax.scipy.special.erf(x), "erf"),
        (lambda x: jax.scipy.special.gammaln(x), "gammaln"),
        (lambda x: jax.scipy.special.logsumexp(x), "logsumexp"),
        (lambda x: jax.nn.logsumexp(x), "logsumexp"),
        (lambda x: sla.toeplitz(x), "toeplitz"),
        (lambda x: sla.circulant(x), "circulant"),
        (lambda x: sla.fiedler_companion(x), "fiedler_companion"),
    ],
)
def test_scipy_functions_refuse_a_list_operand(fun, name):
    msg = f"{name} requires ndarray or scalar arguments, got <class 'list'> at position 0."
    with _raises(TypeError, msg):
        fun([1.0, 2.0])


@pytest.mark.parametrize(
    "call, exc, msg",
    [
        (
            lambda: jnp.where(A > 1, A, A, size=2),
            ValueError,
            "size and fill_value arguments cannot be used in three-term where function.",
        ),
        (
            lambda: jnp.array_equiv(A, np.ones(5, np.float32)),
            TypeError,
            "eq got incompatible shapes for broadcasting: (3,), (5,).",
        ),
        (lambda: jnp.nanvar(A, ddof=None), TypeError, ""),
        (lambda: jnp.nanstd(A, ddof="1"), TypeError, ""),
        (lambda: lax.broadcast(A, 5), TypeError, "object of type 'int' has no len()"),
        (
            lambda: sla.convolution_matrix(np.zeros(0, np.float32), 2),
            ValueError,
            "len(a) must be at least 1; got shape (0,).",
        ),
        (
            lambda: sla.fiedler_companion(np.zeros(0, np.float32)),
            ValueError,
            "fiedler_companion requires the last axis of 'a' to have nonzero length, but got "
            "an array of shape (0,).",
        ),
    ],
)
def test_operand_errors(call, exc, msg):
    with _raises(exc, msg):
        call()


def test_array_equiv_of_broadcastable_operands_still_answers():
    assert bool(jnp.array_equiv(A, A[None])) and not bool(jnp.array_equiv(A, A[:1]))


# ------------------------------------------------- traced values where JAX wants static ones
@pytest.mark.parametrize(
    "fun, v",
    [
        (lambda v: jnp.sum(M, axis=v), 0),
        (lambda v: jnp.flip(M, v), 0),
        (lambda v: jnp.roll(M, 1, axis=v), 0),
        (lambda v: jnp.squeeze(M[None], v), 0),
        (lambda v: jnp.expand_dims(A, v), 0),
        (lambda v: jnp.moveaxis(M, v, 1), 0),
        (lambda v: jax.nn.softmax(M, axis=v), 0),
        (lambda v: jax.nn.one_hot(I, v), 2),
        (lambda v: jnp.unique(A, size=v), 2),
        (lambda v: jnp.triu_indices(v), 2),
        (lambda v: lax.reduce_precision(A, v, 2), 5),
        (lambda v: jnp.linspace(0.0, 1.0, v), 3),
    ],
)
def test_traced_static_is_a_concretization_error(fun, v):
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jax.jit(fun)(v)


@pytest.mark.parametrize(
    "fun",
    [
        lambda v: jnp.argmax(M, axis=v),
        lambda v: jnp.concatenate([M, M], axis=v),
        lambda v: jnp.stack([A, A], axis=v),
        lambda v: jnp.take(M, I[:2], axis=v),
    ],
)
def test_traced_axis_read_with_index_is_an_integer_conversion_error(fun):
    with pytest.raises(jax.errors.TracerIntegerConversionError):
        jax.jit(fun)(0)


def test_traced_eye_and_trace_offsets_are_values():
    # JAX takes eye's k and trace's offset as values, so a traced one works under jit
    np.testing.assert_array_equal(jax.jit(lambda k: jnp.eye(3, 4, k=k))(1), np.eye(3, 4, 1))
    x = np.arange(9.0, dtype=np.float32).reshape(3, 3)
    np.testing.assert_array_equal(jax.jit(lambda k: jnp.trace(x, offset=k))(-1), 3.0 + 7.0)
