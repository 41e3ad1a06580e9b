"""Session 18: the leftovers of session 17's sweep (``jax.nn``, ``jnp.kron``/``partition``,
``lax.mulhi``/``broadcast_like``/``shape_as_value``, the n-ary dtype messages), then the
same sweep over ``jax.random``'s parameters, ``jax.scipy.stats`` and ``jax.scipy.special``,
against JAX 0.10.2. Expected values are JAX's; the file passes in oracle mode
(``JAXLITE_ORACLE=jax``), and with JAX installed the ``*_against_jax`` tests compare every
input of the sweep (dtype, weak type, shape, values, exception class).

What it found (all fixed):

* ``jax.nn.sigmoid``/``silu``/``swish`` promoted integer and bool inputs to float (JAX:
  ``lax.logistic``'s ``TypeError``); ``log_sigmoid``/``log1mexp``/``softmax``/
  ``log_softmax`` promoted bools (JAX negates or subtracts in the input's dtype: ``neg``/
  ``sub``'s ``TypeError``) and unsigned integers (JAX's negation and shift wrap around, so
  ``log_sigmoid`` of ``uint32`` 1 is about ``-2**32`` and ``softmax`` NaN); ``glu`` follows
  ``sigmoid``.
* Every n-ary primitive's dtype error lacked JAX's ``at position i`` (``sub does not
  accept dtype bool at position 0. Accepted dtypes at position 0 are ...``), and
  ``lax.rem`` took complex operands into NumPy's ``fmod`` (JAX: integer and floating only).
* ``jnp.kron`` of two bool arrays answered (JAX multiplies with ``lax.mul``: ``TypeError``);
  ``jnp.partition``/``argpartition`` of bools answered (JAX negates first: ``TypeError``).
* ``lax.mulhi`` of two weak operands was strong; ``lax.broadcast_like`` to fewer dimensions
  returned the operand unchanged (JAX: ``ValueError``), raised ``TypeError`` for an
  incompatible dimension (JAX: ``ValueError``) and refused a ``ShapeDtypeStruct``;
  ``lax.shape_as_value`` truncated float dimensions and overflowed past int32 (JAX:
  ``TypeError``; an int64 vector).
* ``jax.random``: ``beta``/``chisquare``/``t``/``f``/``pareto``/``rayleigh``/``wald``/
  ``triangular``/``lognormal`` only refused complex parameters; JAX refuses every parameter
  that does not promote to ``dtype`` (``TypePromotionError``: a float32 array or a NumPy
  float64 for ``dtype=float16``, and ``lognormal``'s own default ``sigma``, a NumPy
  float32, for float16). ``lognormal`` refused complex dtypes (JAX takes them).
  ``uniform`` with a bound of shape ``(1,)`` and ``shape=()`` gave a 0-d sample (JAX:
  ``(1,)``, its final ``lax.max`` broadcasts) and with bounds of more dimensions than
  ``shape`` answered (JAX: ``TypeError``). ``double_sided_maxwell`` ignored the parameters'
  shape (JAX prepends ``shape`` to it, and takes an empty ``shape`` as it first: ``(5,)``
  parameters give ``(5, 5)`` samples). ``weibull_min`` and ``generalized_normal`` cast their
  parameters to ``dtype`` (JAX computes with them as given, so a float32 or complex
  parameter promotes the result); ``geometric`` of a complex ``p`` answered (JAX:
  ``uniform``'s ``ValueError``), and of a non-integer ``dtype`` answered in that dtype (JAX:
  ``ValueError``); ``dirichlet`` took a list ``alpha`` (JAX: ``TypeError``). Every sampler
  took a NumPy integer scalar as its ``shape`` and refused Python ``bool`` dimensions (JAX:
  ``TypeError`` for the scalar, which is not a sequence; ``True`` is a dimension of 1).
* ``jax.scipy.stats``: ``bernoulli``, ``expon``, ``geom``, ``gumbel_l``/``gumbel_r``,
  ``laplace``, ``pareto``, ``uniform`` and ``wrapcauchy`` answered complex arguments with
  complex values (JAX compares with ``lax.lt``/``le``/``gt``, or divides with ``lax.div``,
  which refuse them: ``TypeError``); ``logistic.ppf``/``isf`` named their argument ``q``
  (JAX: ``x``).
"""

import warnings

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp
from tests.hunt.oracle import JAX, LITE, builtin_base, run

ORACLE = jaxlite.__name__ == "jax"
nn, lax = jaxlite.nn, jaxlite.lax


def _inputs(m):
    j = m.jnp
    wfs, wis = j.add(1.5, 0.25), j.add(2, 1)
    return {
        "pf": 0.75,
        "pi": 2,
        "pb": True,
        "sf_v": j.asarray([0.5, 0.0, -2.0, 3.0, 1.0], j.float32),
        "si_v": j.asarray([1, 0, -2, 3, 4], j.int32),
        "sb_v": j.asarray([True, False, True, True, False]),
        "wf_s": wfs,
        "wi_s": wis,
        "wf_v": j.broadcast_to(wfs, (5,)),
        "wi_v": j.broadcast_to(wis, (5,)),
        "wb_s": j.add(1.0, 0.0) > 0,
        "sf_s": j.float32(0.25),
        "si_s": j.int32(3),
        "i8_v": j.asarray([1, 0, -2, 3, 4], j.int8),
        "u32_v": j.asarray([1, 0, 2, 3, 4], j.uint32),
        "c64_v": j.asarray([0.5 + 1j, 0.0, -2.0, 3.0 - 1j, 1.0], j.complex64),
    }


KEYS = list(_inputs(LITE))


def _desc(r):
    if isinstance(r, (tuple, list)):
        return tuple(_desc(x) for x in r)
    return (str(r.dtype), bool(getattr(r, "weak_type", False)), tuple(np.shape(r)))


def _compare(call, ins, label, rtol=2e-6):
    """``call(module, inputs)`` under JAX and jaxlite: the same exception class, or the
    same dtype, weak type, shape and values (NaNs in the same places)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ka, a = run(lambda m: call(m, ins["jax"]), JAX)
        kb, b = run(lambda m: call(m, ins["lite"]), LITE)
    assert ka == kb, (label, a, b)
    if ka == "err":
        assert builtin_base(a) is builtin_base(b), (label, a, b)
        return
    assert _desc(b) == _desc(a), (label, _desc(a), _desc(b))
    for x, y in zip(jaxlite.tree_util.tree_leaves(b), JAX.jx.tree_util.tree_leaves(a)):
        np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=rtol, atol=1e-7)


# ------------------------------------------------------------------ jax.nn
NN = ["sigmoid", "silu", "swish", "log_sigmoid", "log1mexp", "softmax", "log_softmax",
      "logsumexp", "logmeanexp", "standardize", "gelu", "relu", "relu6", "hard_sigmoid",
      "hard_silu", "tanh", "identity"]  # fmt: skip


@pytest.mark.skipif(JAX is None or ORACLE, reason="compares jaxlite with JAX itself")
@pytest.mark.parametrize("name", NN)
def test_nn_against_jax(name):
    ins = {"jax": _inputs(JAX), "lite": _inputs(LITE)}
    for key in KEYS:
        _compare(lambda m, i: getattr(m.jx.nn, name)(i[key]), ins, (name, key))


@pytest.mark.parametrize("name", ["sigmoid", "silu", "swish"])
@pytest.mark.parametrize("x", [2, True, np.int32(3), np.array([1, 2], np.uint8)])
def test_logistic_activations_refuse_integers_and_bools(name, x):
    dt = np.asarray(x).dtype
    dt = "int32" if dt == np.int64 else dt.name
    with pytest.raises(TypeError, match=f"logistic does not accept dtype {dt}. Accepted"):
        getattr(nn, name)(x)


@pytest.mark.parametrize("name", ["log_sigmoid", "log1mexp"])
def test_negating_activations_refuse_bools(name):
    with pytest.raises(TypeError, match="neg does not accept dtype bool. Accepted dtypes"):
        getattr(nn, name)(jnp.array([True, False]))


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_refuses_bools(name):
    msg = "sub does not accept dtype bool at position 0. Accepted dtypes at position 0 are"
    with pytest.raises(TypeError, match=msg):
        getattr(nn, name)(jnp.array([True, False]))


def test_unsigned_inputs_are_negated_in_their_own_type():
    u = jnp.array([1, 0, 2], jnp.uint32)
    r = nn.log_sigmoid(u)  # -softplus(-u): -1 wraps to 2**32 - 1
    assert r.dtype == np.float32 and not r.weak_type
    np.testing.assert_allclose(np.asarray(r), [-(2.0**32) + 1, -np.log(2), -(2.0**32) + 2])
    assert np.isnan(np.asarray(nn.softmax(u))[:2]).all()  # u - max(u) wraps as well
    assert np.asarray(nn.log1mexp(u))[1] == -np.inf
    assert np.isnan(np.asarray(nn.log1mexp(u))[[0, 2]]).all()


def test_integer_inputs_still_work_where_jax_takes_them():
    i = jnp.array([1, 0, -2])
    np.testing.assert_allclose(
        np.asarray(nn.softmax(i)), np.exp([1, 0, -2]) / np.exp([1, 0, -2]).sum(), rtol=1e-6
    )
    r = nn.log_sigmoid(i)
    assert r.dtype == np.float32 and not r.weak_type
    np.testing.assert_allclose(np.asarray(r), -np.log1p(np.exp([-1.0, 0.0, 2.0])), rtol=1e-6)
    r = nn.softmax(i, where=jnp.array([True, False, True]))
    np.testing.assert_allclose(np.asarray(r), [np.e / (np.e + np.exp(-2)), 0, 0.0474259], 1e-5)
    with pytest.raises(TypeError, match="logistic does not accept dtype int32"):
        nn.glu(jnp.ones((2, 4), jnp.int32))


# ------------------------------------------------------------------ n-ary dtype messages
@pytest.mark.parametrize(
    "op,dt,msg",
    [
        ("sub", "bool_", "sub does not accept dtype bool at position 0. Accepted dtypes at "
         "position 0 are subtypes of integer, floating, complexfloating."),
        ("atan2", "int32", "atan2 does not accept dtype int32 at position 0. Accepted dtypes "
         "at position 0 are subtypes of floating, complexfloating."),
        ("shift_left", "float32", "shift_left does not accept dtype float32 at position 0. "
         "Accepted dtypes at position 0 are subtypes of integer."),
        ("rem", "complex64", "rem does not accept dtype complex64 at position 0. Accepted "
         "dtypes at position 0 are subtypes of integer, floating."),
        ("rem", "bool_", "rem does not accept dtype bool at position 0. Accepted "
         "dtypes at position 0 are subtypes of integer, floating."),
    ],
    ids=["sub", "atan2", "shift_left", "rem_complex", "rem_bool"],
)  # fmt: skip
def test_nary_primitive_dtype_errors_name_the_position(op, dt, msg):
    x = jnp.ones(2, getattr(jnp, dt))
    with pytest.raises(TypeError) as e:
        getattr(lax, op)(x, x)
    assert str(e.value).splitlines()[0] == msg


def test_unary_primitive_dtype_errors_do_not():
    with pytest.raises(TypeError) as e:
        lax.neg(jnp.array([True]))
    assert str(e.value).splitlines()[0] == (
        "neg does not accept dtype bool. Accepted dtypes are subtypes of integer, floating, "
        "complexfloating."
    )


# ------------------------------------------------------------------ jnp.kron / partition
def test_kron_of_two_bool_operands_raises():
    b = jnp.array([True, False])
    with pytest.raises(TypeError, match="mul does not accept dtype bool at position 0"):
        jnp.kron(b, b)
    with pytest.raises(TypeError, match="mul does not accept dtype bool"):
        jnp.kron(True, True)
    r = jnp.kron(b, jnp.array([1.0, 2.0]))  # promoted to float32 first: fine
    assert r.dtype == np.float32 and r.tolist() == [1.0, 2.0, 0.0, 0.0]
    r = jnp.kron(True, 2)
    assert r.dtype == np.int32 and r.weak_type and int(r) == 2


@pytest.mark.parametrize("name", ["partition", "argpartition"])
def test_partition_of_bools_raises(name):
    with pytest.raises(TypeError, match="neg does not accept dtype bool. Accepted dtypes"):
        getattr(jnp, name)(jnp.array([True, False, True]), 1)
    with pytest.raises(ValueError):  # the kth check comes first, as in JAX
        getattr(jnp, name)(jnp.array([True, False, True]), 5)


def test_repeat_with_negative_scalar_repeats_raises():
    with pytest.raises(TypeError, match="must have every element be nonnegative"):
        jnp.repeat(jnp.arange(3), -1)


# ------------------------------------------------------------------ jax.lax
def test_mulhi_of_weak_operands_is_weak():
    r = lax.mulhi(jnp.add(2, 1), jnp.broadcast_to(jnp.add(2**30, 1), (2,)))
    assert r.dtype == np.int32 and r.weak_type and r.tolist() == [0, 0]
    r = lax.mulhi(jnp.add(2**20, 0), jnp.int32(2**20))
    assert not r.weak_type and int(r) == 2**8
    r = lax.mulhi(jnp.int32(-3), jnp.add(5, 0))
    assert not r.weak_type and int(r) == -1


def test_broadcast_like_checks_the_shapes():
    x = jnp.zeros(3)
    assert lax.broadcast_like(x, jnp.zeros(3)) is x
    w = jnp.broadcast_to(jnp.add(1.0, 0.0), (1,))
    r = lax.broadcast_like(w, jaxlite.ShapeDtypeStruct((2, 5), np.int8))
    assert r.shape == (2, 5) and r.dtype == np.float32 and r.weak_type
    with pytest.raises(ValueError, match=r"fewer dimensions: arr_shape=\(3,\) shape=\(\)"):
        lax.broadcast_like(x, 2.0)
    with pytest.raises(ValueError) as e:
        lax.broadcast_like(jnp.broadcast_to(jnp.add(1.0, 0.0), (3,)), jnp.zeros((2, 5)))
    assert str(e.value) == (
        "Incompatible types for broadcasting: input type=~float32[3] and requested "
        "type=float32[2,5]"
    )


def test_shape_as_value():
    r = lax.shape_as_value((2, 3))
    assert isinstance(r, np.ndarray) and r.dtype == np.int32 and r.tolist() == [2, 3]
    r = lax.shape_as_value((2**31, 1))
    assert isinstance(r, np.ndarray) and r.dtype == np.int64 and r.tolist() == [2**31, 1]
    with pytest.raises(TypeError, match="'float' object cannot be interpreted as an integer"):
        lax.shape_as_value((2.0,))
    e = lax.shape_as_value(())
    assert e.shape == (0,) and e.dtype == np.int32 and not e.weak_type


# ------------------------------------------------------------------ jax.random
rnd = jaxlite.random


@pytest.mark.parametrize(
    "call,src",
    [
        (lambda k, d: rnd.beta(k, jnp.float32(2.0), 3.0, dtype=d), "float32"),
        (lambda k, d: rnd.beta(k, 2.0, np.float64(3.0), dtype=d), "float32"),
        (lambda k, d: rnd.chisquare(k, jnp.ones(2), dtype=d), "float32"),
        (lambda k, d: rnd.t(k, jnp.bfloat16(3.0), dtype=d), "bfloat16"),
        (lambda k, d: rnd.f(k, 3.0, jnp.float32(4.0), dtype=d), "float32"),
        (lambda k, d: rnd.pareto(k, jnp.float32(2.0), dtype=d), "float32"),
        (lambda k, d: rnd.rayleigh(k, jnp.float32(1.0), dtype=d), "float32"),
        (lambda k, d: rnd.wald(k, jnp.float32(1.0), dtype=d), "float32"),
        (lambda k, d: rnd.triangular(k, 0.0, jnp.float32(0.5), 1.0, dtype=d), "float32"),
        (lambda k, d: rnd.lognormal(k, dtype=d), "float32"),  # its default sigma is strong
    ],
    ids=["beta", "beta_np64", "chisquare", "t", "f", "pareto", "rayleigh", "wald",
         "triangular", "lognormal_default"],
)  # fmt: skip
def test_random_parameters_must_promote_to_the_dtype(call, src):
    with pytest.raises(ValueError) as e:  # TypePromotionError is a ValueError
        call(rnd.key(0), jnp.float16)
    assert type(e.value).__name__ == "TypePromotionError"
    assert f", cannot safely cast argument of type {src} to float16" in str(e.value)
    assert str(e.value).startswith("In arguments to ")


def test_random_parameters_that_promote_are_taken():
    k = rnd.key(0)
    for r in (
        rnd.beta(k, jnp.int32(2), 3.0, dtype=jnp.float16),
        rnd.chisquare(k, jnp.add(2.0, 0.0), (2,), dtype=jnp.float16),
        rnd.t(k, True, dtype=jnp.float16),
        rnd.lognormal(k, 0.5, dtype=jnp.float16),
    ):
        assert r.dtype == np.float16 and not r.weak_type
    with pytest.raises(ValueError, match="cannot safely cast argument of type complex64"):
        rnd.chisquare(k, 1 + 1j)
    r = rnd.lognormal(k, 0.5, (2,), dtype=jnp.complex64)
    assert r.dtype == np.complex64 and r.shape == (2,)


def test_uniform_bounds_broadcast_like_jax():
    k = rnd.key(0)
    r = rnd.uniform(k, (), minval=jnp.zeros(1))  # lax.max(minval, sample) broadcasts
    assert r.shape == (1,) and float(r[0]) == float(rnd.uniform(k, ()))
    with pytest.raises(TypeError, match=r"max: arrays must have the same number of dimensions"):
        rnd.uniform(k, (5,), minval=jnp.zeros((1, 1)))
    with pytest.raises(ValueError, match=r"Incompatible shapes for broadcasting"):
        rnd.uniform(k, (10,), minval=jnp.zeros((2, 5)))
    with pytest.raises(TypeError, match="incompatible shapes"):
        rnd.uniform(k, (2,), minval=jnp.zeros(5))
    r = rnd.uniform(k, (3, 3), minval=jnp.zeros((3, 1)), maxval=jnp.arange(1.0, 4.0))
    assert r.shape == (3, 3)
    assert (np.asarray(r) < np.arange(1.0, 4.0)).all() and (np.asarray(r) >= 0).all()


def test_double_sided_maxwell_prepends_shape_to_the_parameters_shape():
    k = rnd.key(0)
    assert rnd.double_sided_maxwell(k, jnp.zeros(3), 1.0).shape == (3, 3)
    assert rnd.double_sided_maxwell(k, jnp.zeros(3), jnp.ones((2, 1)), (4,)).shape == (4, 2, 3)
    r = rnd.double_sided_maxwell(k, 0.0, 1.0, (2,))
    assert r.shape == (2,)
    loc = jnp.array([0.0, 100.0])
    r = np.asarray(rnd.double_sided_maxwell(k, loc, 1.0))
    assert r.shape == (2, 2) and (np.abs(r[:, 1] - 100) < 10).all() and (np.abs(r[:, 0]) < 10).all()


def test_weibull_and_generalized_normal_compute_with_the_parameters_as_given():
    k = rnd.key(0)
    r = rnd.weibull_min(k, jnp.float32(1.0), 2.0, dtype=jnp.float16)
    assert r.dtype == np.float32  # float16 samples times a float32 scale
    r = rnd.weibull_min(k, 1.0, 2.0 + 0j, (3,))
    assert r.dtype == np.complex64 and (np.asarray(r).imag == 0).all()
    r = rnd.generalized_normal(k, jnp.float32(2.0), (3,), dtype=jnp.float16)
    assert r.dtype == np.float32 and r.shape == (3,)
    assert rnd.generalized_normal(k, 2.0, (3,), dtype=jnp.float16).dtype == np.float16
    assert rnd.generalized_normal(k, 2.0 + 0j, (3,)).dtype == np.complex64
    with pytest.raises(ValueError, match="dtype argument to `uniform` must be a float dtype"):
        rnd.geometric(k, 0.5 + 0j)
    r = rnd.geometric(k, jnp.float16(0.3), (3,))
    assert r.dtype == np.int32 and (np.asarray(r) >= 1).all()


# ------------------------------------------------------------------ jax.scipy.stats
st = jaxlite.scipy.stats


@pytest.mark.parametrize(
    "call,op",
    [
        (lambda c: st.expon.logpdf(c), "lt"),
        (lambda c: st.expon.sf(0.5, scale=c), "lt"),
        (lambda c: st.uniform.cdf(c), "lt"),
        (lambda c: st.uniform.pdf(0.5, loc=c), "gt"),
        (lambda c: st.laplace.cdf(c), "le"),
        (lambda c: st.gumbel_r.ppf(c), "gt"),
        (lambda c: st.gumbel_l.logsf(0.5, c), "gt"),
        (lambda c: st.pareto.logpdf(2.0, c), "lt"),
        (lambda c: st.wrapcauchy.pdf(0.5, c), "gt"),
        (lambda c: st.bernoulli.pmf(1, c), "lt"),
        (lambda c: st.bernoulli.ppf(c, 0.5), "le"),
        (lambda c: st.geom.logpmf(2, c), "le"),
    ],
    ids=["expon_logpdf", "expon_sf", "uniform_cdf", "uniform_pdf", "laplace_cdf",
         "gumbel_r_ppf", "gumbel_l_logsf", "pareto_logpdf", "wrapcauchy_pdf",
         "bernoulli_pmf", "bernoulli_ppf", "geom_logpmf"],
)  # fmt: skip
def test_stats_refuse_complex_arguments(call, op):
    msg = f"{op} does not accept dtype complex64 at position 0. Accepted dtypes at position 0"
    with pytest.raises(TypeError, match=msg):
        call(jnp.complex64(0.5))
    with pytest.raises(TypeError):
        call(0.5 + 0j)  # a Python complex too


def test_stats_complex_refusal_keeps_real_inputs_and_signatures():
    with pytest.raises(TypeError, match="lax.div requires arguments to have the same dtypes"):
        st.laplace.logpdf(jnp.complex64(0.5))
    np.testing.assert_allclose(float(st.expon.logpdf(2.0, scale=2.0)), -1 - np.log(2), 1e-6)
    np.testing.assert_allclose(float(st.bernoulli.pmf(1, 0.3)), 0.3, 1e-6)
    g = jaxlite.grad(lambda x: st.gumbel_r.logpdf(x))(0.5)
    np.testing.assert_allclose(float(g), -1 + np.exp(-0.5), 1e-6)
    np.testing.assert_allclose(float(st.logistic.ppf(x=0.25)), np.log(1 / 3), 1e-6)
    np.testing.assert_allclose(float(st.logistic.isf(x=0.25, loc=1.0)), 1 - np.log(1 / 3), 1e-6)


def test_random_shape_and_dtype_arguments():
    k = rnd.key(0)
    assert rnd.normal(k, 3).shape == (3,)
    assert rnd.normal(k, (True, 2)).shape == (1, 2)  # Python bools count as 0/1
    assert rnd.bits(k, True).shape == (1,)
    for bad in (np.int64(3), np.array(3), jnp.int32(3)):
        with pytest.raises(TypeError):
            rnd.normal(k, bad)  # a scalar is not a sequence
    assert rnd.uniform(k, np.array([2, 3])).shape == (2, 3)
    with pytest.raises(TypeError, match="Shapes must be 1D sequences"):
        rnd.normal(k, (np.True_,))
    for dt in (jnp.float32, jnp.bool_, jnp.complex64):
        with pytest.raises(ValueError, match="dtype argument to `geometric` must be an int dtype"):
            rnd.geometric(k, 0.3, (2,), dtype=dt)
    assert rnd.geometric(k, 0.3, (2,), dtype=jnp.uint8).dtype == np.uint8
    with pytest.raises(TypeError):
        rnd.dirichlet(k, [1.0, 2.0])
    assert rnd.dirichlet(k, np.array([1.0, 2.0]), (3,)).shape == (3, 2)
