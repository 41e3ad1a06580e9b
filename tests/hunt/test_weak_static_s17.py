"""Session 17: a sweep of ``jax.numpy`` over weakly typed inputs (Python scalars, weak
scalars and weak vectors from arithmetic on Python scalars, strong arrays, bools) and over
wrong-typed parameters, against JAX 0.10.2. Expected values are JAX's; the file passes in
oracle mode (``JAXLITE_ORACLE=jax``), and with JAX installed ``test_against_jax`` compares
every combination of the sweep's inputs.

What it found (all fixed):

* **Wrong values.** ``ediff1d(ary, to_begin/to_end)`` promoted the extra values with the
  differences (``ediff1d(arange(4), to_end=2.7)`` ended in 2.7; JAX casts them to the
  array's dtype: 2). ``round(x, decimals=1.5)`` scaled by ``10**1.5``; ``diff(x, n=1.5)``,
  ``diag(v, k=1.5)``, ``vander(x, N=2.5)``, ``indices([2.5])``, ``tri``/``tril_indices``/
  ``diag_indices`` of floats and every ``jnp`` axis given as a float truncated the float
  (JAX: ``TypeError``, ``operator.index``). ``compress``/``extract`` with ``True`` entries
  past the axis clipped them onto its last element (JAX: ``ValueError``), took a float
  condition's truth by ``!= 0`` only after clipping, and did not check ``size``.
  ``vecdot`` ignored ``preferred_element_type`` (int8 products wrapped; JAX accumulates in
  the preferred type) and summed booleans into int32 (JAX: a boolean dot product);
  ``convolve``/``correlate`` ignored ``preferred_element_type`` too.
* **Wrong dtypes.** ``jnp.float_``/``int_``/``complex_`` were NumPy's ``float64``/``int64``/
  ``complex128`` (so ``jnp.float_(1.5)`` was a NumPy float64, not a float32 Array); an
  array given as ``dtype=`` was read as its dtype (JAX: ``ValueError``).
* **Weak types** (which decide later promotions): logical ``and/or/xor/not`` and
  ``isreal``/``iscomplex`` of weak arrays (JAX: strong, its zero is typed), ``full_like``
  with an array fill, ``gcd``/``lcm`` of arrays, ``choose``, ``ediff1d`` with extra values
  (strong in JAX); ``diag``, ``convolve``/``correlate``/``polymul`` (``conv_general_dilated``
  of two weak operands), ``inner`` with a scalar, ``vecdot``, and the set operations
  ``union1d``/``intersect1d``/``setdiff1d``/``setxor1d`` (weak in JAX).
* **jax.lax**, the same sweep: ``lax.conj`` of a float returned it real (JAX: complex64,
  ``conj_p`` always complex; ``jnp.conj`` is the one that keeps reals real); float start
  indices of ``dynamic_slice``/``dynamic_update_slice``/``dynamic_index_in_dim`` and float
  sizes of ``full``/``broadcast``/``top_k``/``approx_max_k`` were truncated, and an array
  exponent of ``integer_pow`` was ``int()``-ed (``integer_pow(x, 1.75)`` was ``x``; JAX:
  ``TypeError``); ``lax.round`` took any ``rounding_method``; ``full_like`` took an array
  fill; ``cumsum``/``cumprod``/``cummax``/``cummin`` of a 0-d operand (JAX: axis error).
"""

import operator
import warnings

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp
from tests.hunt.oracle import JAX, LITE, builtin_base, run

ORACLE = jaxlite.__name__ == "jax"


def _inputs(m):
    j = m.jnp
    wfs, wis = j.add(1.5, 0.25), j.add(2, 1)
    return {
        "pf": 1.5,
        "pi": 2,
        "pb": True,
        "sf_v": j.asarray([1.5, 0.0, -2.0, 3.0, 1.0], j.float32),
        "si_v": j.asarray([1, 0, -2, 3, 4], j.int32),
        "sb_v": j.asarray([True, False, True, True, False]),
        "wf_s": wfs,
        "wi_s": wis,
        "wf_v": j.broadcast_to(wfs, (5,)),
        "wi_v": j.broadcast_to(wis, (5,)),
        "wb_s": j.add(1.0, 0.0) > 0,
        "sf_s": j.float32(2.5),
        "si_s": j.int32(3),
    }


KEYS = list(_inputs(LITE))
# (a subset of the sweep's pairs, to keep the test short: JAX compiles every new signature)
FIRST = ["pf", "sf_v", "sb_v", "wf_s", "wf_v", "wi_v"]
SECOND = ["pf", "pi", "pb", "si_v", "wi_s", "wf_v", "wi_v", "wb_s", "sf_s"]
COMBOS = [(a,) for a in KEYS] + [(a, b) for a in FIRST for b in SECOND]
SWEPT = [
    "logical_and", "logical_or", "logical_xor", "logical_not", "isreal", "iscomplex",
    "full_like", "gcd", "lcm", "ediff1d", "choose", "diag", "diagflat", "convolve",
    "correlate", "inner", "vecdot", "polymul", "union1d", "intersect1d", "setdiff1d",
    "setxor1d", "unique", "compress", "extract", "round", "diff", "indices", "tril_indices",
    "triu_indices", "diag_indices", "tri", "eye", "identity", "vander",
]  # fmt: skip


def _desc(r):
    if isinstance(r, (tuple, list)):
        return tuple(_desc(x) for x in r)
    return (str(r.dtype), bool(r.weak_type), tuple(r.shape), np.asarray(r).tolist())


@pytest.mark.skipif(JAX is None or ORACLE, reason="compares jaxlite with JAX itself")
@pytest.mark.parametrize("name", SWEPT)
def test_against_jax(name):
    """Every input combination JAX answers gets the same dtype, weak type, shape and
    values here; every one where JAX raises for a Python scalar raises the same built-in
    exception class. (JAX also refuses arrays as its static arguments, ``diff(x, n=arr)``,
    which jaxlite takes when they are concrete integers: docs/compat.md.)"""
    ins = {"jax": _inputs(JAX), "lite": _inputs(LITE)}
    for combo in COMBOS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ka, a = run(lambda m: getattr(m.jnp, name)(*[ins["jax"][c] for c in combo]), JAX)
            kb, b = run(lambda m: getattr(m.jnp, name)(*[ins["lite"][c] for c in combo]), LITE)
        if ka == "ok":
            assert kb == "ok", (name, combo, b)
            assert _desc(b) == _desc(a), (name, combo)
        elif all(c[0] == "p" or c == "sf_v" for c in combo[1:]) and "hashable" not in str(a):
            assert kb == "err", (name, combo, a, b)
            assert builtin_base(a) is builtin_base(b), (name, combo, a, b)


# ------------------------------------------------------------------ wrong values
def test_ediff1d_casts_its_extra_values_to_the_arrays_dtype():
    out = jnp.ediff1d(jnp.arange(4), to_begin=jnp.array([-1.9]), to_end=2.7)
    assert out.dtype == np.int32 and not out.weak_type
    assert out.tolist() == [-1, 1, 1, 1, 2]


@pytest.mark.parametrize(
    "call",
    [
        lambda x: jnp.round(x, 1.5),
        lambda x: jnp.around(x, decimals=0.5),
        lambda x: jnp.diff(x, 1.5),
        lambda x: jnp.diag(x, 1.0),
        lambda x: jnp.vander(x, 2.5),
        lambda x: jnp.indices([2.5]),
        lambda x: jnp.tri(2.0),
        lambda x: jnp.tril_indices(3.0),
        lambda x: jnp.diag_indices(2.5),
        lambda x: jnp.eye(2.5),
        lambda x: jnp.sum(x, axis=0.0),
        lambda x: jnp.cumsum(x, axis=0.5),
        lambda x: jnp.argmax(x, axis=0.0),
        lambda x: jnp.partition(x, 1.5),
    ],
    ids=[
        "round", "around", "diff", "diag", "vander", "indices", "tri", "tril_indices",
        "diag_indices", "eye", "sum_axis", "cumsum_axis", "argmax_axis", "partition",
    ],
)  # fmt: skip
def test_float_sizes_offsets_and_axes_raise_instead_of_truncating(call):
    with pytest.raises(TypeError):
        call(jnp.array([1.25, 2.5, -3.0]))


def test_integer_sizes_as_bools_and_integer_arrays_work():
    assert jnp.eye(True).shape == (1, 1)
    assert jnp.tri(jnp.int32(2)).tolist() == [[1.0, 0.0], [1.0, 1.0]]
    assert jnp.round(jnp.array([1.26]), np.int64(1)).tolist() == [pytest.approx(1.3)]


@pytest.mark.parametrize(
    "cond,axis,size,expect",
    [
        ([True, False, True], 1, None, [[0, 2], [3, 5]]),
        ([1.0, 0.0, 2.5], 1, None, [[0, 2], [3, 5]]),  # truth of a float condition
        ([True, False, True, True, False], 1, 2, [[0, 2], [3, 5]]),  # size: extra ignored
        ([False, True, True] + [False] * 5, None, 2, [1, 2]),
    ],
)
def test_compress_within_the_axis(cond, axis, size, expect):
    x = jnp.arange(6).reshape(2, 3)
    assert jnp.compress(jnp.array(cond), x, axis=axis, size=size).tolist() == expect


@pytest.mark.parametrize(
    "call,msg",
    [
        (lambda x: jnp.compress(jnp.array([True, False, True, True]), x, axis=1), "out of bounds"),
        (lambda x: jnp.extract(jnp.array([0] * 6 + [1]), x), "out of bounds"),
        (lambda x: jnp.compress(jnp.array([True]), x, axis=1, size=2), "size must be"),
        (lambda x: jnp.compress(jnp.ones((2, 2), bool), x), "1D"),
    ],
    ids=["past_axis", "extract_past_end", "size_too_big", "2d_condition"],
)
def test_compress_refuses_conditions_past_the_axis(call, msg):
    with pytest.raises(ValueError, match=msg):
        call(jnp.arange(6).reshape(2, 3))


def test_vecdot_accumulates_in_the_preferred_type_and_dots_booleans():
    a = jnp.array(np.array([100, 100], np.int8))
    r = jnp.vecdot(a, a, preferred_element_type=jnp.int32)
    assert r.dtype == np.int32 and int(r) == 20000
    b = jnp.array([True, False, True])
    r = jnp.vecdot(b, jnp.array([False, False, True]))
    assert r.dtype == np.bool_ and bool(r) is True
    assert not bool(jnp.vecdot(b, jnp.array([False, True, False])))
    with pytest.raises(IndexError):
        jnp.vecdot(jnp.ones(3), 2.0)  # JAX reads shape[axis] of the 0-d operand
    with pytest.raises(ValueError, match="axes must match"):
        jnp.vecdot(jnp.ones(3), jnp.ones(2))


def test_convolve_and_correlate_honour_preferred_element_type():
    a = jnp.array(np.array([100, 100], np.int8))
    r = jnp.convolve(a, a, preferred_element_type=jnp.int32)
    assert r.dtype == np.int32 and r.tolist() == [10000, 20000, 10000]
    h = a.astype(jnp.float16)
    assert jnp.correlate(h, h, preferred_element_type=jnp.float32).dtype == np.float32
    with pytest.raises(ValueError, match=r"convolve: inputs cannot be empty, got shapes"):
        jnp.convolve(jnp.ones(0), jnp.ones(2))


# ------------------------------------------------------------------ wrong dtypes
def test_numpy1_default_type_aliases_are_jax_scalar_types():
    for alias, big, small in [
        (jnp.float_, jnp.float64, np.float32),
        (jnp.int_, jnp.int64, np.int32),
        (jnp.complex_, jnp.complex128, np.complex64),
    ]:
        assert alias is big
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the x64 truncation warning
            x = alias(1)
        assert isinstance(x, jaxlite.Array) and x.dtype == small


@pytest.mark.parametrize(
    "call",
    [
        lambda d: jnp.zeros(3, dtype=d),
        lambda d: jnp.ones_like(jnp.ones(2), dtype=d),
        lambda d: jnp.asarray([1, 2], dtype=d),
        lambda d: jnp.ones(2).astype(d),
        lambda d: jnp.arange(3, dtype=d),
        lambda d: jnp.full(2, 1, d),
        lambda d: jnp.hstack([jnp.ones(2)], dtype=d),
    ],
    ids=["zeros", "ones_like", "asarray", "astype", "arange", "full", "hstack"],
)
def test_an_array_is_not_a_dtype(call):
    with pytest.raises(ValueError, match="Passing an array as a dtype argument"):
        call(jnp.zeros(2, jnp.int32))


def test_choose_needs_integer_indices():
    with pytest.raises(ValueError, match="`a` array must be integer typed"):
        jnp.choose(jnp.array([0.0, 1.0]), [jnp.ones(2), jnp.zeros(2)])


# ------------------------------------------------------------------ weak types
def _weak_vec(v):
    return jnp.broadcast_to(jnp.add(v, 0), (3,))


def test_truth_tests_of_weak_arrays_are_strong_and_of_weak_scalars_weak():
    wv, ws = _weak_vec(1.5), jnp.add(1.5, 0.0)
    for r in (jnp.logical_and(wv, wv), jnp.logical_not(wv), jnp.isreal(wv), jnp.iscomplex(wv)):
        assert r.dtype == np.bool_ and not r.weak_type
    for r in (jnp.logical_and(ws, ws), jnp.logical_not(ws), jnp.isreal(ws)):
        assert r.dtype == np.bool_ and r.weak_type


def test_weak_results_of_products_convolutions_and_set_operations():
    wv = _weak_vec(2.0)
    for r in (
        jnp.convolve(wv, wv),
        jnp.correlate(wv, wv, "full"),
        jnp.polymul(wv, wv),
        jnp.inner(wv, 2),
        jnp.vecdot(wv, wv),
        jnp.diag(wv),
        jnp.union1d(wv, wv),
        jnp.intersect1d(wv, wv),
        jnp.setdiff1d(wv, jnp.array([1.0])),
        jnp.setxor1d(wv, 1.0),
        jaxlite.lax.conv_general_dilated(wv[None, None], wv[None, None], (1,), [(0, 0)]),
    ):
        assert r.dtype == np.float32 and r.weak_type, r


def test_strong_results_where_jax_uses_typed_constants():
    wv, wi = _weak_vec(2.0), _weak_vec(6)
    for r in (
        jnp.gcd(wi, wi),
        jnp.lcm(wi, 4),
        jnp.choose(jnp.array([0, 1, 0]), [wi, wi]),
        jnp.ediff1d(wv, to_end=1.0),
        jnp.full_like(wv, jnp.array([1.0, 2.0, 3.0])),
        jnp.round(wv, 1),
        jnp.diagflat(wv),
    ):
        assert not r.weak_type, r
    assert jnp.gcd(jnp.add(6, 0), 4).weak_type  # weak scalars stay weak
    assert jnp.full_like(wv, 3.0).weak_type


def test_operator_index_message_for_float_arrays():
    with pytest.raises(TypeError, match="Only integer scalar arrays"):
        operator.index(jnp.float32(1.0))


# ------------------------------------------------------------------ jax.lax
def test_lax_conj_is_always_complex():
    lax = jaxlite.lax
    r = lax.conj(np.float32(1.5))
    assert r.dtype == np.complex64 and complex(r) == 1.5
    assert lax.conj(1.5).weak_type
    assert lax.conj(jnp.array([1 + 2j])).tolist() == [1 - 2j]
    assert jnp.conj(jnp.ones(2)).dtype == np.float32  # jnp.conj keeps real input real
    with pytest.raises(TypeError, match="conj does not accept dtype int32"):
        lax.conj(np.int32(2))


@pytest.mark.parametrize("name", ["cumsum", "cumprod", "cummax", "cummin"])
def test_lax_cumulative_ops_refuse_a_0d_operand(name):
    with pytest.raises(ValueError, match="axis 0 is out of bounds"):
        getattr(jaxlite.lax, name)(np.float32(2.0))


@pytest.mark.parametrize(
    "call,msg",
    [
        (lambda l, x: l.dynamic_slice(x, (1.5,), (2,)), "must be integers"),
        (lambda l, x: l.dynamic_slice_in_dim(x, 1.5, 2), "must be integers"),
        (lambda l, x: l.dynamic_index_in_dim(x, 2.5), "must be integers"),
        (lambda l, x: l.dynamic_update_slice(x, x[:1], (2.5,)), "must be integers"),
        (lambda l, x: l.dynamic_slice(x, (True,), (2,)), "must be integers"),
        (lambda l, x: l.full((2.5,), 1.0), "Shapes must be"),
        (lambda l, x: l.full_like(x, x), "scalar fill_value"),
        (lambda l, x: l.top_k(x, 1.5), "Shapes must be"),
        (lambda l, x: l.approx_max_k(x, 1.5), "Shapes must be"),
        (lambda l, x: l.broadcast(x, (1.5,)), "integer type"),
    ],
    ids=[
        "dynamic_slice", "dynamic_slice_in_dim", "dynamic_index_in_dim",
        "dynamic_update_slice", "bool_start", "full", "full_like", "top_k", "approx_max_k",
        "broadcast",
    ],
)  # fmt: skip
def test_lax_float_indices_sizes_and_fills_raise(call, msg):
    with pytest.raises(TypeError, match=msg):
        call(jaxlite.lax, np.arange(5.0, dtype=np.float32))


def test_lax_integer_starts_of_any_width_still_work():
    x = np.arange(5.0, dtype=np.float32)
    for s in (1, np.int8(1), jnp.int32(1), jnp.add(1, 0)):
        assert jaxlite.lax.dynamic_slice(x, (s,), (2,)).tolist() == [1.0, 2.0]
    vals, idx = jaxlite.lax.approx_max_k(jnp.broadcast_to(jnp.add(1.5, 0.0), (3,)), 2)
    assert vals.weak_type and idx.dtype == np.int32 and idx.weak_type  # as JAX's


def test_lax_round_method_and_integer_pow_exponent_are_checked():
    lax = jaxlite.lax
    x = np.array([0.5, 1.5, 2.5], np.float32)
    assert lax.round(x, 1.0).tolist() == [0.0, 2.0, 2.0]  # 1.0 is TO_NEAREST_EVEN
    for bad in (1.5, 2, "x"):
        with pytest.raises(ValueError, match="is not a valid RoundingMethod"):
            lax.round(x, bad)
    assert lax.integer_pow(x, 2.0).tolist() == [0.25, 2.25, 6.25]
    for bad in (jnp.float32(1.75), jnp.int32(2), np.array(2)):
        with pytest.raises(TypeError, match="unhashable type"):
            lax.integer_pow(x, bad)  # was x ** int(1.75) = x


# ------------------------------------------------------------------ jax.nn / scipy / linalg
def test_one_hot_linalg_outer_and_logit():
    with pytest.raises(TypeError):
        jaxlite.nn.one_hot(jnp.array([0, 1]), 2.5)  # was int(2.5) classes
    assert jaxlite.nn.one_hot(jnp.array([1]), np.int64(2)).tolist() == [[0.0, 1.0]]
    for bad in ((jnp.ones(2), 2.0), (jnp.ones((2, 2)), jnp.ones(2))):
        with pytest.raises(ValueError, match="Input arrays must be one-dimensional"):
            jnp.linalg.outer(*bad)
    assert jnp.outer(jnp.ones((2, 2)), jnp.ones(2)).shape == (4, 2)  # jnp.outer flattens
    logit = jaxlite.scipy.special.logit
    assert not logit(jnp.broadcast_to(jnp.add(0.25, 0.0), (3,))).weak_type
    assert logit(jnp.add(0.25, 0.0)).weak_type


def test_quantile_integer_q_repeat_float_repeats_and_matvec_ranks():
    x = jnp.arange(5.0)
    assert float(jnp.percentile(x, 50)) == 2.0  # percentile divides by 100 first
    for bad in (1, jnp.array([0, 1])):
        with pytest.raises(TypeError, match="floor does not accept dtype"):
            jnp.quantile(x, bad)  # JAX floors q in its own (integer) dtype
    with pytest.raises(TypeError):
        jnp.repeat(x, 1.5)  # was int(1.5) repeats
    assert jnp.repeat(x[:2], np.int64(2)).tolist() == [0.0, 0.0, 1.0, 1.0]
    with pytest.raises(ValueError, match="does not have enough dimensions"):
        jnp.matvec(jnp.ones(3), jnp.ones(3))  # was a scalar


NN_WEAK = ["celu", "elu", "leaky_relu", "selu", "soft_sign", "softplus", "sparse_plus",
           "sparse_sigmoid", "squareplus", "mish", "hard_tanh"]  # fmt: skip


@pytest.mark.skipif(JAX is None or ORACLE, reason="compares jaxlite with JAX itself")
def test_nn_activations_of_integer_and_bool_inputs_against_jax():
    """JAX writes these with Python-float constants, so an integer or bool input gives a
    weakly typed float32 (a bool input to softplus too; hard_tanh of bools: a weak int32);
    jaxlite promoted the input to a strong float first."""
    ins = {"jax": _inputs(JAX), "lite": _inputs(LITE)}
    for name in NN_WEAK:
        for key in KEYS:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ka, a = run(lambda m: getattr(m.jx.nn, name)(ins["jax"][key]), JAX)
                kb, b = run(lambda m: getattr(m.jx.nn, name)(ins["lite"][key]), LITE)
            assert ka == kb == "ok", (name, key, a, b)
            assert _desc(b)[:3] == _desc(a)[:3], (name, key)
            np.testing.assert_allclose(np.asarray(b), np.asarray(a), rtol=2e-6, atol=1e-7)


def test_nn_activation_weak_types():
    nn = jaxlite.nn
    for r in (nn.elu(jnp.array([1, -2])), nn.leaky_relu(2), nn.squareplus(jnp.array([1, 2]), 1.5)):
        assert r.dtype == np.float32 and r.weak_type
    assert not nn.softplus(jnp.array([1, -2])).weak_type  # logaddexp(x, 0): int32 strong
    assert nn.softplus(jnp.array([True])).weak_type
    r = nn.hard_tanh(jnp.array([True, False]))
    assert r.dtype == np.int32 and r.weak_type and r.tolist() == [1, 0]
    assert not nn.elu(jnp.array([1.0, -2.0])).weak_type
