"""Session 28: the families session 27's sweep (tests/hunt/sweep_err_s27.py) found and left
open, each pinned here:

* ``scipy.linalg.qr_multiply``: ``a`` and ``c`` promoted to one inexact dtype (a complex
  ``c`` makes the product and ``R`` complex), batch axes of ``a`` and ``c`` broadcast, a 1-D
  ``c`` raveled, ``pivoting=True`` answered (the permutation third), JAX's shape messages;
  its neighbours ``scipy.linalg.qr(pivoting=True)`` of an integer matrix (promoted) and the
  pivots of a matrix without rows (JAX's zeros);
* arguments JAX's ``jit`` checks though a path does not read them (``trapezoid``'s ``dx``
  beside ``x``, ``matrix_rank``'s ``rtol`` of a vector), ``result_type`` of sequences and
  None, ``unroll`` of ``polyval`` / ``scan`` / ``fori_loop``;
* the set operations' ``fill_value`` (joined by ``where`` in ``unique``, a scalar in
  ``setdiff1d``) and their static flags;
* ``linalg.norm`` with a tuple ``ord``, ``tile`` with a 0-d ``reps``, ``repeat`` of a scalar
  along an axis;
* the special matrices' bool orders, ``helmert``'s positive order, ``fiedler_companion`` of
  one coefficient; ``scipy.signal``'s ``int()`` segment sizes; ``fftfreq``'s array ``d``;
* from this session's rerun over jnp 'g'..'isclose': ``gradient``'s order of checks,
  ``isclose``'s list tolerances, ``intersect1d``'s unused ``fill_value``.

The rest of ``jax.scipy.stats`` (``truncnorm``, ``uniform``, ``vonmises``, ``wrapcauchy``)
was swept in both directions and showed no difference; the ``isclose`` state leak err27 saw
once did not reproduce (jnp 'g'..'isclose' in one process).

Values are compared with a hand-derived expectation (NumPy / SciPy in float64) always and
with JAX 0.10.2 where it is installed (shape, dtype, weak type, value); errors with JAX's
class and first line, JAX's own asked after ``jax.clear_caches()``."""

from __future__ import annotations

import re

import numpy as np
import pytest
import scipy.linalg

import jaxlite
import jaxlite.numpy as jnp
import jaxlite.scipy.linalg as linalg

try:
    import jax as real_jax
    import jax.numpy as real_jnp
    import jax.scipy.linalg as real_linalg
except ImportError:  # the hand-derived expectations still hold
    real_jax = real_jnp = real_linalg = None


class _Mods:
    def __init__(self, jax_, jnp_, linalg_):
        self.jax, self.jnp, self.linalg = jax_, jnp_, linalg_


_LITE = _Mods(jaxlite, jnp, linalg)
_JAX = _Mods(real_jax, real_jnp, real_linalg) if real_jax is not None else None


def _leaves(x):
    return list(x) if isinstance(x, (tuple, list)) else [x]


def _check(build, want, rtol=2e-5, atol=2e-6, ask_jax=True):
    """jaxlite's answer (an array or a tuple of them) equals the hand-derived ``want`` and
    JAX's answer (shape, dtype, weak type and value; ``ask_jax=False`` where JAX compiles
    for seconds and another case of the family already asks it)."""
    got = _leaves(build(_LITE))
    want = _leaves(want)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(g), w, rtol=rtol, atol=atol)
    if _JAX is not None and ask_jax:
        theirs = _leaves(build(_JAX))
        assert len(theirs) == len(got)
        for g, t in zip(got, theirs):
            assert (g.shape, g.dtype, g.weak_type) == (t.shape, t.dtype, t.weak_type)
            np.testing.assert_allclose(np.asarray(g), np.asarray(t), rtol=rtol, atol=atol)
    return got


def _check_error(build, exc, first_line, ask_jax=True):
    """``first_line`` is a regular expression (JAX's message, escaped but for addresses;
    ``ask_jax=False`` as for ``_check``)."""
    with pytest.raises(exc, match="^" + first_line):
        build(_LITE)
    if _JAX is not None and ask_jax:
        real_jax.clear_caches()
        with pytest.raises(exc, match="^" + first_line):
            build(_JAX)


# -------------------------------------------------------------------------- qr_multiply
_RNG = np.random.default_rng(28)
A = _RNG.standard_normal((4, 3)).astype(np.float32)
AB = _RNG.standard_normal((2, 3, 3)).astype(np.float32)
AC = (A + 1j * _RNG.standard_normal((4, 3))).astype(np.complex64)


def _q(a):
    """The economic Q (LAPACK's Householder signs, as JAX's geqrf) in float64 / complex128."""
    a = np.asarray(a, np.complex128 if np.iscomplexobj(a) else np.float64)
    return np.linalg.qr(a)[0], np.linalg.qr(a)[1]


def test_qr_multiply_complex_c_makes_q_and_r_complex():
    c = (np.arange(8).reshape(2, 4) + 1j).astype(np.complex64)
    q, r = _q(A)
    got = _check(lambda m: m.linalg.qr_multiply(A, c), (c @ q, r))
    assert got[0].dtype == got[1].dtype == np.complex64


def test_qr_multiply_batch_axes_of_a_and_c_broadcast():
    c = _RNG.standard_normal((2, 1, 2, 3)).astype(np.float32)
    q, r = zip(*map(_q, AB))
    q, r = np.stack(q), np.stack(r)
    got = _check(lambda m: m.linalg.qr_multiply(AB, c), (c @ q, np.broadcast_to(r, (2, 2, 3, 3))))
    assert got[0].shape == (2, 2, 2, 3) and got[1].shape == (2, 2, 3, 3)
    # left: Q @ c with c of min(m, n) rows
    c = _RNG.standard_normal((3, 2)).astype(np.float32)
    _check(lambda m: m.linalg.qr_multiply(A, c, mode="left"), (_q(A)[0] @ c, _q(A)[1]))


def test_qr_multiply_vector_c_is_raveled_with_the_batch():
    c = np.array([1.0, -2.0, 0.5], np.float32)
    q = np.stack([_q(x)[0] for x in AB])
    got = _check(lambda m: m.linalg.qr_multiply(AB, c, mode="left")[0], (q @ c).ravel())
    assert got[0].shape == (6,)


def test_qr_multiply_conjugate_and_integer_inputs():
    c = _RNG.standard_normal((2, 4)).astype(np.float32)
    q, r = _q(AC)
    _check(lambda m: m.linalg.qr_multiply(AC, c, conjugate=True), (c @ q.conj(), r))
    ai = np.array([[2, 1], [1, 3], [0, 1]], np.int32)
    q, r = _q(ai)
    got = _check(lambda m: m.linalg.qr_multiply(ai, np.eye(2, dtype=np.int32), "left"), (q, r))
    assert got[0].dtype == np.float32


def test_qr_multiply_pivoting():
    c = _RNG.standard_normal((2, 4)).astype(np.float32)
    qp, rp, p = scipy.linalg.qr(A.astype(np.float64), mode="economic", pivoting=True)
    got = _check(lambda m: m.linalg.qr_multiply(A, c, pivoting=True), (c @ qp, rp, p))
    assert got[2].dtype == np.int32


def test_qr_multiply_shape_messages():
    c = np.ones((2, 3), np.float32)
    _check_error(
        lambda m: m.linalg.qr_multiply(A, c),
        ValueError,
        re.escape(
            "Array shapes are not compatible for c @ Q operation: a has shape (4, 3) so Q "
            "has 4 rows, but c has 3 columns (expected 4)."
        ),
    )
    _check_error(
        lambda m: m.linalg.qr_multiply(A, c, mode="left"),
        ValueError,
        re.escape(
            "Array shapes are not compatible for Q @ c operation: a has shape (4, 3) so Q "
            "has 3 columns, but c has 2 rows (expected 3)."
        ),
    )
    _check_error(
        lambda m: m.linalg.qr_multiply(A, c, mode="up"),
        ValueError,
        re.escape("mode must be 'right' or 'left', got 'up'"),
    )


def test_pivoted_qr_promotes_integers_and_pivots_of_no_rows():
    ai = np.array([[1, 2], [3, 4], [5, 7]], np.int32)
    q, r, p = scipy.linalg.qr(ai.astype(np.float64), pivoting=True)
    got = _check(lambda m: m.linalg.qr(ai, pivoting=True), (q, r, p))
    assert got[0].dtype == np.float32
    empty = np.ones((0, 2), np.float32)
    _check(lambda m: m.jax.lax.linalg.qr(empty, pivoting=True)[2], np.zeros(2))


# ------------------------------------------------- JAX's jit argument and unroll checks
X4 = np.arange(4.0, dtype=np.float32)


def _jit_arg_message(fun, path, kind="str"):
    return (
        f"Error interpreting argument to <function {fun} at 0x[0-9a-f]+> as an abstract "
        f"array. The problematic value is of type <class '{kind}'> and was passed to the "
        f"function at path {path}."
    )


def test_arguments_a_path_does_not_read_are_still_checked():
    # trapezoid reads dx only without x, matrix_rank rtol / tol only for a matrix: JAX's
    # jit checks every argument first
    _check_error(
        lambda m: m.jnp.trapezoid(X4, X4, "2"), TypeError, _jit_arg_message("trapezoid", "dx")
    )
    _check_error(
        lambda m: m.jnp.trapezoid(X4, X4, object()),
        TypeError,
        _jit_arg_message("trapezoid", "dx", "object"),
    )
    _check_error(
        lambda m: m.jnp.linalg.matrix_rank(X4, "2"),
        TypeError,
        _jit_arg_message("matrix_rank", "rtol"),
    )
    _check_error(
        lambda m: m.jnp.linalg.matrix_rank(X4, tol="2"),
        TypeError,
        _jit_arg_message("matrix_rank", "tol"),
    )
    # the integral 0 + 1 + 2 + 1.5 of [0, 1, 2, 3]: dx unread beside x, None accepted
    _check(lambda m: m.jnp.trapezoid(X4, X4, None), np.float32(4.5))


def test_result_type_of_sequences_and_none():
    for seq in ([1.0, 2.0], (1, 2)):
        _check_error(
            lambda m: m.jnp.result_type(seq),
            TypeError,
            re.escape(f"Cannot determine dtype of {seq}"),
        )
        _check_error(
            lambda m: m.jnp.result_type(np.int8, seq),
            TypeError,
            re.escape(f"Cannot determine dtype of {seq}"),
        )
    # None is the default float dtype, strongly typed: it wins over int8
    assert jnp.result_type(None) == jnp.result_type(None, np.int8) == np.float32
    assert jaxlite.dtypes.result_type(None, np.int8) == np.float32
    if _JAX is not None:
        assert real_jnp.result_type(None, np.int8) == np.float32


@pytest.mark.parametrize(
    "unroll, exc, message",
    [
        (None, TypeError, "'<' not supported between instances of 'NoneType' and 'int'"),
        ("a", TypeError, "'<' not supported between instances of 'str' and 'int'"),
        (1.5, TypeError, "'float' object cannot be interpreted as an integer"),
        (-1, ValueError, re.escape("`unroll` must be a `bool` or a non-negative `int`.")),
    ],
)
def test_unroll_of_polyval_scan_and_fori_loop(unroll, exc, message):
    _check_error(lambda m: m.jnp.polyval(X4, X4, unroll=unroll), exc, message)
    _check_error(
        lambda m: m.jax.lax.scan(lambda c, y: (c + y, y), 0.0, X4, unroll=unroll), exc, message
    )
    if unroll is not None:  # (fori_loop's default: no unrolling)
        _check_error(
            lambda m: m.jax.lax.fori_loop(0, 3, lambda i, c: c + i, 0.0, unroll=unroll),
            exc,
            message,
        )


def test_valid_unrolls_answer():
    # p = [0, 1, 2, 3] is x^2 + 2 x + 3: 3, 6, 11, 18 at x = 0, 1, 2, 3
    want = np.array([3.0, 6.0, 11.0, 18.0], np.float32)
    for unroll in (True, 0, 3, np.int32(2)):
        _check(lambda m: m.jnp.polyval(X4, X4, unroll=unroll), want)


# ------------------------------------------------------------ set operations' fill_value
SA = np.array([3, 1, 2, 1], np.int32)
SB = np.array([2, 5], np.int32)
_UNHASHABLE = "Non-hashable static arguments are not supported"


def test_unique_family_joins_an_array_fill_by_where():
    fill = np.array([7, 8, 9, 10, 11], np.int32)
    # unique values 1, 2, 3; the two padding slots take the fill's entries there
    want = np.array([1, 2, 3, 10, 11], np.int32)
    _check(lambda m: m.jnp.unique(SA, size=5, fill_value=fill), want)
    # (unique_values / unique_counts / unique_all / unique_inverse / union1d call unique)
    assert np.array_equal(jnp.unique_counts(SA, size=5, fill_value=fill)[0], want)
    # a fill of more dimensions broadcasts the result (union values 1, 2, 3, 5)
    fill2 = np.full((2, 6), 9, np.int32)
    _check(
        lambda m: m.jnp.union1d(SA, SB, size=6, fill_value=fill2),
        np.broadcast_to(np.array([1, 2, 3, 5, 9, 9], np.int32), (2, 6)),
    )
    # an empty operand is all fill (JAX's full_like with the result's shape)
    _check(
        lambda m: m.jnp.unique(np.zeros(0, np.int32), size=3, fill_value=np.arange(3)),
        np.arange(3, dtype=np.int32),
        ask_jax=False,
    )
    _check_error(
        lambda m: m.jnp.unique(SA, size=5, fill_value=np.arange(4)),
        ValueError,
        re.escape("Incompatible shapes for broadcasting: shapes=[(5,), (5,), (4,)]"),
        ask_jax=False,
    )
    _check_error(
        lambda m: m.jnp.unique(SA, size=5, fill_value=[7, 8, 9, 10, 11]),
        TypeError,
        re.escape("asarray: expected ArrayLike, got [7, 8, 9, 10, 11] of type <class 'list'>."),
    )


def test_setdiff1d_fill_is_a_scalar_and_set_flags_are_static():
    for assume_unique in (False, True):
        _check_error(
            lambda m: m.jnp.setdiff1d(SA, SB, assume_unique, size=3, fill_value=np.arange(3)),
            ValueError,
            re.escape("Cannot broadcast to shape with fewer dimensions: arr_shape=(3,) shape=()"),
        )
    # 1 and 3 are not in SB; the third slot is the fill
    _check(lambda m: m.jnp.setdiff1d(SA, SB, size=3, fill_value=np.array(7)), np.array([1, 3, 7]))
    _check_error(
        lambda m: m.jnp.intersect1d(SA, SB, size=3, fill_value=np.arange(3)),
        ValueError,
        _UNHASHABLE,
    )
    _check_error(lambda m: m.jnp.setdiff1d(SA, SB, [1, 2]), ValueError, _UNHASHABLE)
    _check_error(lambda m: m.jnp.isin(SA, SB, invert=np.array(1)), ValueError, _UNHASHABLE)
    _check_error(lambda m: m.jnp.unique(SA, equal_nan=[1]), ValueError, _UNHASHABLE)


# --------------------------------------------------- norm / tile / repeat JAX answers
V3 = np.array([0.0, 1.0, 2.0], np.float32)


def test_norm_with_a_tuple_ord_is_the_p_norm_of_an_array_ord():
    # JAX's p-norm branch makes ord an array: (sum |x|^p)^(1/p) broadcast against (1,)
    _check(lambda m: m.jnp.linalg.norm(V3, (2,)), np.array([np.sqrt(5.0)], np.float32))
    _check(lambda m: m.jnp.linalg.norm(V3, (1,)), np.array([3.0], np.float32))
    # (inf,) is not compared with inf: sum(|x|^inf)^0 = 1; (-1,): (inf + 1 + 1/2)^-1 = 0
    _check(lambda m: m.jnp.linalg.norm(V3, (np.inf,)), np.array([1.0], np.float32))
    _check(lambda m: m.jnp.linalg.vector_norm(V3, ord=(-1,)), np.array([0.0], np.float32))
    rows = np.stack([V3, 2 * V3])
    _check(
        lambda m: m.jnp.linalg.norm(rows, (2,), axis=1),
        np.array([np.sqrt(5.0), np.sqrt(20.0)], np.float32),
    )
    _check_error(lambda m: m.jnp.linalg.norm(V3, [2]), ValueError, _UNHASHABLE)
    _check_error(
        lambda m: m.jnp.linalg.norm(V3, "inf"),
        ValueError,
        re.escape("Invalid order 'inf' for vector norm.Use 'jax.numpy.inf' instead."),
    )


def test_tile_of_a_0d_reps_and_repeat_of_a_scalar_along_an_axis():
    x = np.array([0, 1, 2], np.int32)
    _check(lambda m: m.jnp.tile(x, np.array(2)), np.array([0, 1, 2, 0, 1, 2], np.int32))
    _check_error(
        lambda m: m.jnp.tile(x, (2.0,)),
        TypeError,
        "Shapes must be 1D sequences of concrete values of integer type",
    )
    with pytest.raises(TypeError, match="^Shapes must be 1D sequences"):
        jnp.tile(x, 2.0)  # (JAX names the product shape (6.0,) in the message)
    # any integer axis (0-d a has none to check), weak type kept
    for axis in (0, 1, -1):
        got = _check(lambda m: m.jnp.repeat(3, 2, axis=axis), np.array([3, 3], np.int32))
        assert got[0].weak_type
    _check(
        lambda m: m.jnp.repeat(np.float32(3), np.array([2]), axis=0),
        np.array([3.0, 3.0], np.float32),
    )
    _check_error(
        lambda m: m.jnp.repeat(3, np.array([2, 3]), axis=0),
        ValueError,
        re.escape("`repeat` with a scalar parameter `a` is only implemented for scalar values"),
    )


# -------------------------------------------- scipy.linalg special matrices: what JAX takes
def test_special_matrix_orders_read_bools_as_jax():
    # a bool order is 0 / 1 for dft / pascal / invpascal / invhilbert / hadamard
    _check(lambda m: m.linalg.pascal(True), np.ones((1, 1), np.float32))
    _check(lambda m: m.linalg.invhilbert(np.True_), np.ones((1, 1), np.float32))
    _check(lambda m: m.linalg.dft(True), np.ones((1, 1), np.complex64))
    _check(lambda m: m.linalg.invpascal(False), np.zeros((0, 0), np.float32))
    _check(lambda m: m.linalg.hadamard(True), np.ones((1, 1), np.int32))
    _check(lambda m: m.linalg.convolution_matrix(np.ones(2), True), np.ones((2, 1)))
    # helmert: a non-positive order is JAX's ValueError (an empty matrix before), a bool
    # order JAX's iota TypeError
    for n in (0, -1, False):
        _check_error(
            lambda m: m.linalg.helmert(n),
            ValueError,
            re.escape(f"n must be a positive integer; got {n}."),
        )
    _check_error(lambda m: m.linalg.helmert(True), TypeError, "iota does not accept dtype bool")


def test_fiedler_companion_of_one_coefficient_is_empty():
    for a, weak in ((3, True), (np.array(2.5, np.float32), False), (np.array([2.0]), False)):
        got = _check(lambda m: m.linalg.fiedler_companion(a), np.zeros((0, 0), np.float32))
        assert got[0].weak_type == weak


# ------------------------------------------------ scipy.signal segment sizes, fftfreq's d
def test_spectral_segment_sizes_are_read_with_int_as_jax_and_scipy():
    import jaxlite.scipy.signal as lsignal

    x = np.sin(np.arange(32.0, dtype=np.float32))
    f8, t8, z8 = lsignal.stft(x, nperseg=8)  # the integer call's answer
    for nperseg in (8.7, "8", np.float32(8.0)):
        f, t, z = lsignal.stft(x, nperseg=nperseg)
        assert f.shape == (5,) and t.shape == (9,) and np.allclose(z, z8)
    f, p = lsignal.welch(x, nperseg=8, nfft=16.0)
    assert p.shape == (9,)
    if _JAX is not None:
        import jax.scipy.signal as real_signal

        z = real_signal.stft(x, nperseg=8.7)[2]
        np.testing.assert_allclose(np.asarray(z), np.asarray(z8), rtol=1e-5, atol=1e-6)
    # a float axis stays refused (operator.index), as JAX's canonicalize_axis
    with pytest.raises(TypeError, match="'float' object cannot be interpreted as an integer"):
        lsignal.istft(np.asarray(z8), time_axis=1.0)
    with pytest.raises(ValueError, match="invalid literal for int"):
        lsignal.stft(x, nperseg="a")


def test_fftfreq_array_spacing_broadcasts():
    d = np.array([[1.0], [2.0]], np.float32)
    k = np.array([0.0, 1.0, -2.0, -1.0], np.float32)
    _check(lambda m: m.jnp.fft.fftfreq(4, d), k / (4 * d))
    _check(lambda m: m.jnp.fft.rfftfreq(4, d), np.array([0.0, 1.0, 2.0], np.float32) / (4 * d))
    _check_error(
        lambda m: m.jnp.fft.fftfreq(4, np.ones(3, np.float32)),
        TypeError,
        re.escape("div got incompatible shapes for broadcasting: (4,), (3,)."),
    )


# ------------------------------------- found by this session's rerun (jnp 'g'..'isclose')
def test_gradient_order_of_checks_and_isclose_list_tolerances():
    # a 0-d f has no axis: JAX returns [] before counting the spacings
    assert jnp.gradient(0.0, 1.0, 5) == []
    if _JAX is not None:
        assert real_jnp.gradient(0.0, 1.0, 5) == []
    _check_error(
        lambda m: m.jnp.gradient(np.ones(1, np.float32), 1.0, 2.0),
        ValueError,
        re.escape("Shape of array too small to calculate a numerical gradient, at least 2"),
    )
    for tol in ({"rtol": [1.0, 2.0, 3.0]}, {"atol": (1.0,)}):
        _check_error(lambda m: m.jnp.isclose(V3, V3, **tol), TypeError, "Cannot determine dtype of")
    # intersect1d reads fill_value only with a size (JAX's jitted part): unused, accepted
    _check(lambda m: m.jnp.intersect1d(SA, SB, fill_value=np.arange(3)), np.array([2], np.int32))
