"""Session 27's bad-input sweep (tests/hunt/sweep_err_s27.py: the s25 bad-input and s26
unusual-input directions in one pass, with the answers compared wherever both engines
answer). Each family found is pinned here:

* ``nanvar`` / ``nanstd`` / ``var`` with an array or traced ``ddof`` (JAX's is an operand of
  its jitted function: nanvar subtracts it with broadcasting, var with lax);
* ``linalg.pinv`` with an ``rtol`` that is not one value per matrix (it broadcasts against
  the batch, and the result gains its axes);
* ``nan_to_num`` with a non-array ``copy`` / ``nan`` / ``posinf`` (JAX's ``jit`` argument
  ``TypeError``).

Values are compared with a hand-derived expectation always and with JAX 0.10.2 where it is
installed (shape, dtype, weak type, value); errors with JAX's class and first line, JAX's
own asked after ``jax.clear_caches()``."""

from __future__ import annotations

import re

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp
import jaxlite.scipy.special as special
import jaxlite.scipy.stats as stats

try:
    import jax as real_jax
    import jax.numpy as real_jnp
    import jax.scipy.special as real_special
    import jax.scipy.stats as real_stats
except ImportError:  # the hand-derived expectations still hold
    real_jax = real_jnp = real_special = real_stats = None


class _Mods:
    def __init__(self, jax_, jnp_, special_, stats_):
        self.jax, self.jnp, self.special, self.stats = jax_, jnp_, special_, stats_


_LITE = _Mods(jaxlite, jnp, special, stats)
_JAX = _Mods(real_jax, real_jnp, real_special, real_stats) if real_jax is not None else None


def _raises(exc, first_line):
    return pytest.raises(exc, match="^" + first_line)


def _check(build, want, rtol=2e-6, atol=1e-7, ask_jax=True):
    """jaxlite's answer equals the hand-derived ``want`` and JAX's answer (shape, dtype,
    weak type and value, NaNs in the same places; ``ask_jax=False`` where JAX takes seconds
    to compile)."""
    got = build(_LITE)
    np.testing.assert_allclose(np.asarray(got), want, rtol=rtol, atol=atol)
    if _JAX is not None and ask_jax:
        theirs = build(_JAX)
        assert (got.shape, got.dtype) == (theirs.shape, theirs.dtype)
        assert got.weak_type == theirs.weak_type
        np.testing.assert_allclose(np.asarray(got), np.asarray(theirs), rtol=rtol, atol=atol)
    return got


def _check_error(build, exc, first_line):
    """``first_line`` is a regular expression (JAX's message, escaped but for addresses)."""
    with _raises(exc, first_line):
        build(_LITE)
    if _JAX is not None:
        real_jax.clear_caches()
        with _raises(exc, first_line):
            build(_JAX)


# --------------------------------------------------------------- an array or traced ddof
X = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, 7.0]], np.float32)
Y = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]], np.float32)
# row 0 without its NaN: [1, 3], squares about the mean 2: 2; row 1: [4, 5, 7], mean 16/3,
# squares 14/3
SS0, SS1 = 2.0, 14.0 / 3.0


def test_nanvar_ddof_array_one_per_result():
    _check(lambda m: m.jnp.nanvar(X, axis=1, ddof=np.array([0, 1])), [SS0 / 2, SS1 / 2])
    # column 0: [1, 4] -> 4.5 / 1; column 1: [5] with ddof 0 -> 0; column 2: [3, 7] -> 8 / 1
    _check(
        lambda m: m.jnp.nanstd(X, axis=0, ddof=np.array([1, 0, 1])),
        np.sqrt([4.5, 0.0, 8.0]),
    )


def test_nanvar_ddof_array_broadcasts_against_the_result():
    # nanvar subtracts ddof from its counts with broadcasting: (2, 1) against (2,) -> (2, 2)
    want = [[SS0 / 2, SS1 / 3], [SS0 / 1, SS1 / 2]]
    got = _check(lambda m: m.jnp.nanvar(X, axis=1, ddof=np.array([[0], [1]])), want)
    assert got.shape == (2, 2)
    # no degree of freedom left is NaN, a fractional ddof divides by what is left
    _check(lambda m: m.jnp.nanvar(X, axis=1, ddof=np.array([2, 0.5])), [np.nan, SS1 / 2.5])


def test_var_ddof_array_and_traced():
    _check(lambda m: m.jnp.var(Y, axis=1, ddof=np.array([0, 3])), [SS0 / 3, np.nan])
    # Y's six values: mean 22/6, squares 70/3; jit traces ddof (JAX's is not static)
    _check(lambda m: m.jax.jit(lambda d: m.jnp.var(Y, ddof=d))(1), 70.0 / 3 / 5)
    _check(lambda m: m.jax.jit(lambda d: m.jnp.nanvar(X, axis=0, ddof=d))(1), [4.5, np.nan, 8.0])
    # var's lax division refuses a ddof that broadcasts the result to a higher rank
    _check_error(
        lambda m: m.jnp.var(Y, axis=1, ddof=np.array([[0], [3]])),
        TypeError,
        re.escape("div: arrays must have the same number of dimensions, got {1, 2}"),
    )


# ---------------------------------------------------------------------- pinv's rtol shape
D = np.diag(np.array([1.0, 0.5, 0.01], np.float32))


def test_pinv_rtol_broadcasts_against_the_batch():
    # cutoffs rtol * 1: 0.1 and 0.3 keep 1 and 0.5, 0.6 keeps 1, 0.001 keeps all three
    keep2, keep1, keep3 = np.diag([1.0, 2.0, 0.0]), np.diag([1.0, 0.0, 0.0]), np.linalg.inv(D)
    got = _check(
        lambda m: m.jnp.linalg.pinv(D, rtol=np.array([[0.1, 0.6], [0.001, 0.3]])),
        [[keep2, keep1], [keep3, keep2]],
        rtol=1e-5,
    )
    assert got.shape == (2, 2, 3, 3)
    assert _check(lambda m: m.jnp.linalg.pinv(D, rtol=np.array([0.1])), [keep2]).shape == (
        1,
        3,
        3,
    )


def test_pinv_rtol_and_rcond_not_both():
    _check_error(
        lambda m: m.jnp.linalg.pinv(D, rtol=0.1, rcond=0.1),
        ValueError,
        re.escape("pinv: only one of rtol and rcond may be specified."),
    )
    _check(lambda m: m.jnp.linalg.pinv(D, rcond=0.1), np.diag([1.0, 2.0, 0.0]), rtol=1e-5)


def test_pinv_rtol_one_per_matrix():
    a = np.stack([D, 2 * D])
    _check(
        lambda m: m.jnp.linalg.pinv(a, rtol=np.array([0.001, 0.3])),
        [np.linalg.inv(D), np.diag([0.5, 1.0, 0.0])],
        rtol=1e-5,
    )


# ------------------------------------------------------------- nan_to_num's jit arguments
@pytest.mark.parametrize(
    "kw, path, kind",
    [({"copy": "abc"}, "copy", "str"), ({"copy": [1, "a"]}, r"copy\[1\]", "str"),
     ({"nan": "x"}, "nan", "str"), ({"posinf": object()}, "posinf", "object")],
    ids=["copy-str", "copy-list-str", "nan-str", "posinf-object"],
)  # fmt: skip
def test_nan_to_num_non_array_arguments(kw, path, kind):
    _check_error(
        lambda m: m.jnp.nan_to_num(X, **kw),
        TypeError,
        r"Error interpreting argument to <function nan_to_num at 0x[0-9a-f]+> as an abstract "
        rf"array\. The problematic value is of type <class '{kind}'> and was passed to the "
        rf"function at path {path}\.",
    )


@pytest.mark.parametrize("copy", [None, False, [1, 2], np.array(0)], ids=repr)
def test_nan_to_num_copy_is_otherwise_unused(copy):
    _check(lambda m: m.jnp.nan_to_num(X, copy=copy), [[1.0, 0.0, 3.0], [4.0, 5.0, 7.0]])


# ------------------------------------------------- scipy.special under JAX's vectorize
def test_vectorized_special_functions_take_lists():
    # JAX's hyp1f1 / hyp2f1 / expn run under jnp.vectorize, which makes arrays of lists
    # and tuples. 1F1(1; b; x) at b = 1 is exp(x); 2F1(a, b; b; x) = (1 - x)**-a;
    # E_1(0.5) = 0.5597736, E_1(1.5) = 0.1000196 (tables) and E_2(x) = exp(-x) - x E_1(x):
    # E_2(0.5) = 0.3266439, E_2(1.5) = 0.0731008
    _check(lambda m: m.special.hyp1f1([1.0, 1.0], (1.0,), [0.5, 1.5]), np.exp([0.5, 1.5]))
    # JAX's hyp2f1 compiles for seconds: checked by hand (JAX's dtype: float32, strong)
    got = _check(lambda m: m.special.hyp2f1([0.5], [0.5], (0.5,), [0.5]), [2**0.5], ask_jax=False)
    assert (got.shape, got.dtype, got.weak_type) == ((1,), np.float32, False)
    got = _check(
        lambda m: m.special.expn((1, 2), [[0.5], [1.5]]),
        [[0.5597736, 0.3266439], [0.1000196, 0.0731008]],
        rtol=2e-6,
    )
    assert got.shape == (2, 2)


def test_ndtri_refuses_sequences():
    # JAX reads the operand's dtype before anything else (spence takes a list: both agree)
    for seq in ([0.5, 0.9], (0.5,)):
        _check_error(
            lambda m: m.special.ndtri(seq),
            TypeError,
            re.escape(f"Cannot determine dtype of {seq!r}"),
        )


def test_multigammaln_without_terms_keeps_the_shape():
    # d <= 0: JAX's sum over an empty axis is 0 in a's shape, plus d (d - 1) / 4 log(pi)
    a = np.array([1.0, 2.0, 3.0], np.float32)
    got = _check(lambda m: m.special.multigammaln(a, -5), np.full(3, 7.5 * np.log(np.pi)))
    assert got.shape == (3,)
    got = _check(lambda m: m.special.multigammaln(2.0, 0), 0.0)
    assert isinstance(got, jaxlite.Array) and got.shape == ()


def test_norm_isf_refuses_sequences():
    _check_error(
        lambda m: m.stats.norm.isf([0.1, 0.2]),
        TypeError,
        re.escape("Cannot determine dtype of [0.1, 0.2]"),
    )


# --------------------------------------------------------------------------------- lax
V = np.array([2.0, 5.0, 5.0, 1.0], np.float32)
GET = re.escape(
    "get(): incompatible function arguments. The following argument types are supported:"
)


def test_approx_k_ties_at_k_1_take_the_last_index():
    # JAX's CPU k = 1 reduction keeps the last of equal best values; k >= 2 sorts stably
    for name, want in (("approx_max_k", 2), ("approx_min_k", 3)):
        got = _check(lambda m: getattr(m.jax.lax, name)(V, 1)[1], [want])
        assert got.dtype == np.int32
    _check(lambda m: m.jax.lax.approx_max_k(V, 2)[1], [1, 2])
    _check(lambda m: m.jax.lax.approx_min_k(np.array([1, -0.0, 0.0], np.float32), 1)[1], [2])
    _check(lambda m: m.jax.lax.approx_max_k(np.ones((2, 3), np.float32), 1)[1], [[2], [2]])
    _check_error(lambda m: m.jax.lax.approx_max_k(V, 1, recall_target=None), TypeError, GET)


def test_lax_sort_static_arguments():
    _check_error(
        lambda m: m.jax.lax.sort(V, 0.0),
        TypeError,
        re.escape("'float' object cannot be interpreted as an integer"),
    )
    _check_error(
        lambda m: m.jax.lax.sort_key_val(V, V, dimension=0.0),
        TypeError,
        re.escape("'float' object cannot be interpreted as an integer"),
    )
    for stable in (None, 1, np.bool_(True)):  # an MLIR bool attribute: a Python bool only
        _check_error(lambda m: m.jax.lax.sort(V, 0, stable), TypeError, GET)
    _check(lambda m: m.jax.lax.sort(V, 0, False), [1.0, 2.0, 5.0, 5.0])


def test_lax_static_shapes_and_exponents():
    m23 = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    shape_msg = "Shapes must be 1D sequences of concrete values of integer type, got "
    _check_error(
        lambda m: m.jax.lax.reshape(V, (4.0,)), TypeError, re.escape(shape_msg + "(4.0,).")
    )
    _check_error(
        lambda m: m.jax.lax.reshape(m23, (6,), (1.0, 0)),
        TypeError,
        re.escape("'float' object cannot be interpreted as an integer"),
    )
    _check(lambda m: m.jax.lax.reshape(m23, (3, 2), (1, 0)), m23.T.reshape(3, 2))
    _check_error(
        lambda m: m.jax.lax.full(np.int32(3), 1.0),
        TypeError,
        re.escape("'numpy.int32' object is not iterable"),
    )
    _check_error(
        lambda m: m.jax.lax.full(np.array(3), 1.0), TypeError, "iteration over a 0-d array"
    )
    _check(lambda m: m.jax.lax.full(3, 1.0), [1.0, 1.0, 1.0])
    _check_error(
        lambda m: m.jax.lax.integer_pow(V, "2"),
        TypeError,
        re.escape("'<' not supported between instances of 'str' and 'int'"),
    )


def test_lax_dynamic_in_dim_allow_negative_none_is_false():
    # JAX puts the value at ``axis`` of a per-axis list, read for its truth
    _check(lambda m: m.jax.lax.dynamic_index_in_dim(V, 1, allow_negative_indices=None), [5.0])
    _check_error(
        lambda m: m.jax.lax.dynamic_slice_in_dim(V, -1, 1, allow_negative_indices=None),
        ValueError,
        re.escape("Index -1 is out of bounds for dimension 4 if allow_negative_indices=False"),
    )


def test_lax_list_operands():
    for name in ("cumsum", "cumlogsumexp"):
        _check_error(
            lambda m: getattr(m.jax.lax, name)([1.0, 2.0]),
            TypeError,
            re.escape(
                f"Error interpreting argument to {name} as a JAX value. The problematic value "
                f"is of type <class 'list'> and was passed to {name} at position 0."
            ),
        )
    for build in (
        lambda m: m.jax.lax.split([1.0, 2.0], (1, 1)),
        lambda m: m.jax.lax.unstack((1.0, 2.0)),
    ):
        _check_error(build, TypeError, re.escape("asarray: expected ArrayLike, got "))


# --------------------------------------------------------------------------------- jnp
def test_isclose_tolerances_are_lax_operands():
    a = np.array([1.0, 2.0, 3.0], np.float32)
    b = a + np.float32(1e-5)
    # one tolerance per element: |a - b| = 1e-5 (float32: 0.95e-5 .. 2.4e-5) <= rtol |b|
    _check(lambda m: m.jnp.isclose(a, b, rtol=np.array([1e-9, 1e-3, 1e-9])), [False, True, False])
    mul_rank = re.escape("mul: arrays must have the same number of dimensions, got {1, 2}")
    _check_error(
        lambda m: m.jnp.isclose(a, b, rtol=np.array([[1e-9, 1e-3, 1e-9]])), TypeError, mul_rank
    )
    _check_error(lambda m: m.jnp.allclose(a[None], a, a), TypeError, mul_rank)


def test_nonzero_fill_value_checked_without_size():
    a = np.array([1.0, 0.0, 3.0], np.float32)
    _check_error(
        lambda m: m.jnp.argwhere(a, fill_value=[1.0, 2.0]),
        ValueError,
        re.escape("fill_value must be a scalar or a tuple of length 1; got [1.0, 2.0]"),
    )
    _check(lambda m: m.jnp.nonzero(a, fill_value=7)[0], [0, 2])


def test_sort_stable_is_a_python_bool():
    a = np.array([1.0, 0.0, 1.0], np.float32)
    for stable in (None, np.bool_(False), 0):
        _check_error(lambda m: m.jnp.argsort(a, stable=stable), TypeError, GET)
        _check_error(lambda m: m.jnp.sort(a, stable=stable), TypeError, GET)
    _check(lambda m: m.jnp.argsort(a, stable=False, descending=True), [2, 0, 1])


def test_average_and_compress_operands():
    a = np.array([1.0, 2.0, 3.0], np.float32)
    _check_error(
        lambda m: m.jnp.average(a, weights=[1.0, 2.0, 3.0]),
        TypeError,
        re.escape(
            "average requires ndarray or scalar arguments, got <class 'list'> at position 1."
        ),
    )
    # (1 + 4 + 9) / 6
    _check(lambda m: m.jnp.average(a, weights=a), 14.0 / 6.0)
    cond = np.array([True, False, True])
    for name, fn in (("compress", "compress"), ("extreact", "extract")):
        _check_error(
            lambda m: getattr(m.jnp, fn)(cond, a, size=3, fill_value=None),
            TypeError,
            re.escape(
                f"{name} requires ndarray or scalar arguments, got <class 'NoneType'> at "
                "position 2."
            ),
        )
    _check(lambda m: m.jnp.compress(cond, a, size=3, fill_value=-1), [1.0, 3.0, -1.0])


def test_cov_bias_none_divides_by_n():
    # JAX picks ddof = 1 if bias == 0 else 0: None (not == 0) divides by N, as bias=True.
    # Row 0 of x: [1, 2, 4], mean 7/3, squares 14/3: 14/9 over N, 7/3 over N - 1
    x = np.array([[1.0, 2.0, 4.0], [2.0, 2.0, 5.0]], np.float32)
    _check(lambda m: m.jnp.cov(x, bias=None)[0, 0], 14.0 / 9.0)
    _check(lambda m: m.jnp.cov(x, bias=False)[0, 0], 7.0 / 3.0)


def test_nan_to_num_array_replacements_broadcast():
    x = np.array([np.nan, np.inf, -np.inf], np.float32)
    r = np.array([1.0, 2.0, 3.0], np.float32)
    # JAX's where: each element takes its own replacement (nan at 0, posinf at 1, neginf at 2)
    got = _check(lambda m: m.jnp.nan_to_num(x, True, r, r, r), [1.0, 2.0, 3.0])
    assert got.dtype == np.float32 and not got.weak_type
    big = np.finfo(np.float32).max
    got = _check(lambda m: m.jnp.nan_to_num(x, nan=r[:, None]), [[v, big, -big] for v in r])
    assert got.shape == (3, 3)


def test_isscalar_and_meshgrid_copy():
    for v, want in (("abc", True), (b"a", True), (None, False), (np.float32(1), True)):
        assert jnp.isscalar(v) is want
        if real_jnp is not None:
            assert real_jnp.isscalar(v) is want
    for copy in (None, False):
        _check_error(
            lambda m: m.jnp.meshgrid(np.ones(2), copy=copy),
            ValueError,
            re.escape("jax.numpy.meshgrid only supports copy=True"),
        )


def test_lstsq_rcond_as_jax():
    m = np.array([[2.0, 1.0], [1.0, 3.0]], np.float32)
    # singular values (5 +- sqrt(5)) / 2: rcond = 1 keeps the largest (JAX's s >= rcond s[0]),
    # the rank-1 pseudo-inverse u0 u0^T / s0 of this symmetric matrix
    s0 = (5 + 5**0.5) / 2
    u0 = np.array([1.0, (1 + 5**0.5) / 2]) / np.sqrt(1 + ((1 + 5**0.5) / 2) ** 2)
    want = np.outer(u0, u0) / s0 @ m
    _check(lambda m_: m_.jnp.linalg.lstsq(m, m, np.float32(1.0))[0], want, rtol=1e-5, atol=1e-6)
    assert int(jnp.linalg.lstsq(m, m, np.float32(1.0))[2]) == 1
    # a negative rcond is eps (full rank)
    _check(lambda m_: m_.jnp.linalg.lstsq(m, m, -1.0)[0], np.eye(2), rtol=1e-5, atol=1e-6)
    # a matrix rcond broadcasts as JAX's where(mask, 1 / s, 0)[:, None] does: for
    # diag(2, 1) (u = v = I, s = [2, 1]) the mask row i is s >= rcond[i] * 2, and the
    # (2, 1, 2) inverse scales the columns of u^T b = diag(2, 1)
    d = np.diag(np.array([2.0, 1.0], np.float32))
    got = _check(
        lambda m_: m_.jnp.linalg.lstsq(d, d, np.array([[0.1, 1.0], [0.6, 0.4]]))[0],
        [[[1.0, 0.0], [0.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]]],
        rtol=1e-5,
        atol=1e-6,
    )
    assert got.shape == (2, 2, 2)


def test_fft_without_axes_converts_the_dtype():
    # no axis to transform (a 0-d operand, axes=()): the operand in the transform's dtype
    for name, dt in (("fftn", np.complex64), ("ifftn", np.complex64), ("rfftn", np.float32)):
        got = _check(lambda m: getattr(m.jnp.fft, name)(np.int32(3)), 3.0)
        assert got.dtype == dt and not got.weak_type
    got = _check(lambda m: m.jnp.fft.fftn(np.ones(2, np.float32), axes=()), [1.0, 1.0])
    assert got.dtype == np.complex64
    got = _check(lambda m: m.jax.lax.fft(np.int32(3), "IRFFT", ()), 3.0)
    assert got.dtype == np.complex64
