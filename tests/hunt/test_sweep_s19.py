"""Session 19: the two sweeps left by session 18, against JAX 0.10.2: every function of
``jax.scipy.stats`` over input and parameter kinds (Python/NumPy scalars, integer, bool,
half-precision and weak arrays) for dtype, weak type, shape and values, and the
``jax.random`` samplers not swept before (``randint``, ``categorical``, ``choice``,
``permutation``, ``multinomial``, ``orthogonal``, ``ball``, ``rademacher``, ``bits``,
``binomial``, ``poisson``, ``loggamma``, ``t``, ``chisquare``, ``f``, ``triangular``,
``wald``, ``lognormal``, ``truncated_normal``) with both key kinds, eagerly and under
``jit``. Expected values are JAX's; the file passes in oracle mode (``JAXLITE_ORACLE=jax``),
and with JAX installed the ``*_against_jax`` tests compare every input of the sweep.

What it found (all fixed):

* ``random.randint`` with a bound array narrower than 32 bits answered wrongly: JAX casts
  the bounds to int32 before clipping them to the dtype's range, jaxlite clipped them in
  their own dtype, where the upper limit ``info.max + 1`` wraps (``uint8`` bounds 3 and
  200 gave ``[3, 3, 3, ...]``; an ``int8`` -3 into ``uint8`` clipped to 255 instead of 0).
* ``jax.scipy.stats``: with every promoted argument weakly typed (integer or bool arrays
  with Python-scalar parameters, weak arrays) most functions' results were weak where
  JAX's are strong: JAX builds its constants with ``lax._const(example, value)``, weak
  only for a weak 0-d example. ``stats.strong_like_jax`` gives each function JAX's
  weak type (the arguments its constants come from, or always strong: ``norm.cdf``,
  ``truncnorm``, ``uniform.cdf``, ``poisson.entropy``). ``multivariate_normal.logpdf``
  with a scalar ``cov`` was strong where JAX's einsum keeps weak operands weak.
  ``norm.isf`` of a boolean answered (JAX: ``sub``'s ``TypeError``).
* ``random.categorical``/``choice``/``permutation``/``multinomial``/``binomial`` took Python
  lists (JAX: ``TypeError: ... requires ndarray or scalar arguments``);
  ``multinomial`` refused integer dtypes (JAX casts the counts to any dtype), took a
  scalar ``p`` (JAX: ``ValueError``) and cast ``n`` to ``p``'s dtype (JAX promotes them
  together); ``orthogonal``/``ball`` truncated a float size (JAX: ``TypeError``); the
  shape-check messages lacked the sampler's name (``categorical parameter shapes must
  be ...``), and ``orthogonal``/``ball``/``generalized_normal`` named themselves in dtype
  errors JAX raises from ``normal``/``gamma``.
"""

import inspect
import warnings

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp
from tests.hunt.oracle import JAX, LITE, builtin_base, run

ORACLE = jaxlite.__name__ == "jax"
st, rnd = jaxlite.scipy.stats, jaxlite.random


def _weak(x):
    return bool(x.weak_type) if hasattr(x, "weak_type") else bool(x.aval.weak_type)


# ------------------------------------------------------------------ jax.scipy.stats
_PARAMS = {"loc": 0.25, "scale": 2.0, "df": 3.5, "a": 2.0, "b": 2.5, "beta": 1.5,
           "kappa": 1.5, "c": 0.5, "p": 0.3, "n": 5.0, "mu": 2.5}  # fmt: skip
_TRUNC = {"a": -1.0, "b": 1.5}


def _stats_functions():
    out = []
    for dist in sorted(dir(st)):
        mod = getattr(st, dist)
        if not isinstance(mod, type) and not inspect.ismodule(mod):
            continue
        if dist in ("multivariate_normal", "dirichlet", "multinomial", "gaussian_kde"):
            continue
        for name in sorted(dir(mod)):
            fn = getattr(mod, name)
            if not name.startswith("_") and callable(fn) and not inspect.isclass(fn):
                out.append((dist, name))
    return out


STATS = _stats_functions()


def _xs(m, q):
    """The first argument's kinds: the weak-type cases (integer, bool and weak arrays
    with Python-scalar parameters) and the ordinary ones."""
    j = m.jnp
    v = [0.25, 0.5, 1.0] if q else [0.25, 1.5, 3.0]
    return {
        "py_float": v[1], "py_int": 1, "np_f32": np.float32(v[1]),
        "i32": j.asarray([0, 1, 2], j.int32), "bool": j.asarray([True, False]),
        "u8": j.asarray([0, 1, 2], j.uint8), "f16": j.asarray(v, j.float16),
        "f32": j.asarray(v, j.float32), "weak_s": j.add(v[1], 0.0),
        "weak_v": j.broadcast_to(j.add(v[1], 0.0), (3,)),
    }  # fmt: skip


def _call(m, dist, name, xkind, pkind):
    fn = getattr(getattr(m.jx.scipy.stats, dist), name)
    params = list(inspect.signature(fn).parameters)
    args = [_xs(m, name in ("ppf", "isf"))[xkind]]
    for p in params[1:]:
        v = (_TRUNC if dist == "truncnorm" and p in _TRUNC else _PARAMS)[p]
        args.append({"py": v, "weak_v": m.jnp.broadcast_to(m.jnp.add(v, 0.0), (3,)),
                     "f16": m.jnp.float16(v), "i32": m.jnp.int32(round(v))}[pkind])  # fmt: skip
    return fn(*args)


# (first argument, parameters): the weak-type cases, then the ordinary ones
_KINDS = [("py_float", "py"), ("py_int", "py"), ("i32", "py"), ("bool", "py"), ("u8", "py"),
          ("weak_s", "py"), ("weak_v", "py"), ("py_float", "weak_v"), ("weak_s", "weak_v"),
          ("np_f32", "py"), ("f16", "py"), ("f32", "i32"), ("i32", "f16")]  # fmt: skip


@pytest.mark.skipif(JAX is None or ORACLE, reason="compares jaxlite with JAX itself")
@pytest.mark.parametrize("dist,name", STATS, ids=[f"{d}.{n}" for d, n in STATS])
def test_stats_types_against_jax(dist, name):
    for xkind, pkind in _KINDS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ka, a = run(lambda m, xk=xkind, pk=pkind: _call(m, dist, name, xk, pk), JAX)
            kb, b = run(lambda m, xk=xkind, pk=pkind: _call(m, dist, name, xk, pk), LITE)
        label = (dist, name, xkind, pkind)
        assert ka == kb, (label, a, b)
        if ka == "err":
            assert builtin_base(a) is builtin_base(b), (label, a, b)
            continue
        assert (str(b.dtype), _weak(b), b.shape) == (str(a.dtype), _weak(a), a.shape), label
        # float16 formulas round each step (XLA's kernels upcast some): a few ulps apart
        rtol = {"float16": 5e-3, "bfloat16": 2e-2}.get(str(a.dtype), 2e-5)
        np.testing.assert_allclose(
            np.asarray(b, np.float64), np.asarray(a, np.float64), rtol=rtol, atol=1e-6
        )


@pytest.mark.parametrize(
    "call,weak",
    [
        (lambda x: st.norm.logpdf(x, 0.5, 2.0), False),
        (lambda x: st.norm.cdf(x), False),
        (lambda x: st.beta.cdf(x / 4, 2.0, 3.0), False),
        (lambda x: st.t.pdf(x, 3.0), False),
        (lambda x: st.bernoulli.pmf(x, 0.3), False),
        (lambda x: st.chi2.sf(x, 3), False),
        (lambda x: st.logistic.pdf(x), False),
        (lambda x: st.truncnorm.pdf(x, -1.0, 2.0), False),
        (lambda x: st.poisson.cdf(x, 2.0), False),
        (lambda x: st.expon.pdf(x, 0.5), True),  # JAX's constants here come from Python
        (lambda x: st.gumbel_r.logpdf(x, 0.5), True),
        (lambda x: st.poisson.pmf(x, 2.0), True),
        (lambda x: st.vonmises.pdf(x, 1.5), True),
        (lambda x: st.binom.pmf(x, 5, 0.5), True),
    ],
    ids=["norm_logpdf", "norm_cdf", "beta_cdf", "t_pdf", "bernoulli_pmf", "chi2_sf",
         "logistic_pdf", "truncnorm_pdf", "poisson_cdf", "expon_pdf", "gumbel_r_logpdf",
         "poisson_pmf", "vonmises_pdf", "binom_pmf"],
)  # fmt: skip
def test_stats_weak_type_of_integer_arrays_with_python_parameters(call, weak):
    r = call(jnp.arange(3))
    assert r.dtype == np.float32 and _weak(r) is weak and r.shape == (3,)
    r = call(jnp.broadcast_to(jnp.add(1.0, 0.0), (3,)))  # a weak array: the same
    assert r.dtype == np.float32 and _weak(r) is weak
    assert not _weak(call(jnp.arange(3.0)))  # strong inputs: strong results


def test_stats_weak_scalars_stay_weak_where_jax_keeps_them():
    assert _weak(st.norm.logpdf(0.5)) and _weak(st.cauchy.cdf(jnp.add(0.5, 0.0)))
    assert not _weak(st.norm.cdf(0.5))  # converted to a typed constant's dtype
    assert not _weak(st.uniform.cdf(0.5)) and not _weak(st.truncnorm.pdf(0.5, -1, 1))
    np.testing.assert_allclose(float(st.norm.logpdf(0.5)), -0.125 - np.log(2 * np.pi) / 2, 1e-6)
    # the argument a constant is built from decides: betabinom's ``loc`` as well as ``k``
    r = st.betabinom.pmf(1, 5, 2.0, 2.5, jnp.broadcast_to(jnp.add(0.0, 0.0), (2,)))
    assert r.shape == (2,) and not _weak(r)
    r = st.betabinom.pmf(1, jnp.broadcast_to(jnp.add(5.0, 0.0), (2,)), 2.0, 2.5)
    assert r.shape == (2,) and _weak(r)


def test_multivariate_normal_scalar_cov_keeps_weak_type():
    w = jnp.broadcast_to(jnp.add(0.5, 0.0), (2,))
    r = st.multivariate_normal.logpdf(w, jnp.broadcast_to(jnp.add(0.0, 0.0), (2,)), 1.5)
    assert r.shape == () and _weak(r)
    np.testing.assert_allclose(float(r), -0.25 / 1.5 - np.log(2 * np.pi * 1.5), rtol=1e-6)
    r = st.multivariate_normal.logpdf(jnp.arange(6.0).reshape(3, 2), jnp.zeros(2), 2.0)
    assert r.shape == (3,) and not _weak(r)


def test_norm_isf_refuses_booleans():
    for q in (True, jnp.array([True, False])):
        with pytest.raises(TypeError, match="sub does not accept dtype bool at position 0"):
            st.norm.isf(q)
    np.testing.assert_allclose(float(st.norm.isf(0.3)), 0.5244005, rtol=1e-6)


# ------------------------------------------------------------------ jax.random
@pytest.mark.parametrize("kind", ["key", "raw"])
@pytest.mark.parametrize("jitted", [False, True], ids=["eager", "jit"])
def test_randint_narrow_bounds_are_cast_to_int32_before_the_clip(kind, jitted):
    k = rnd.key(3) if kind == "key" else rnd.PRNGKey(3)
    f = jaxlite.jit(lambda k, a, b: rnd.randint(k, (64,), a, b, jnp.uint8)) if jitted else None
    call = f or (lambda k, a, b: rnd.randint(k, (64,), a, b, jnp.uint8))
    got = np.asarray(call(k, jnp.array(3, jnp.uint8), jnp.array(200, jnp.uint8)))
    want = np.asarray(rnd.randint(k, (64,), 3, 200, jnp.uint8))
    np.testing.assert_array_equal(got, want)
    assert got.min() >= 3 and got.max() < 200 and len(set(got.tolist())) > 20
    got = np.asarray(call(k, jnp.array(-3, jnp.int8), 100))  # -3 clips to 0, not 255
    np.testing.assert_array_equal(got, np.asarray(rnd.randint(k, (64,), 0, 100, jnp.uint8)))
    got = rnd.randint(k, (8,), jnp.array([250, 0], jnp.uint8)[:1], 256, jnp.uint8)
    assert (np.asarray(got) >= 250).all()


@pytest.mark.parametrize(
    "call,name",
    [
        (lambda k: rnd.categorical(k, [0.1, 0.2]), "categorical"),
        (lambda k: rnd.choice(k, [1, 2, 3], (2,)), "choice"),
        (lambda k: rnd.choice(k, 3, (2,), p=[0.2, 0.3, 0.5]), "choice"),
        (lambda k: rnd.permutation(k, [3, 1, 2]), "permutation"),
        (lambda k: rnd.multinomial(k, 10, [0.5, 0.5]), "multinomial"),
        (lambda k: rnd.binomial(k, [5, 6], 0.5), "binomial"),
    ],
    ids=["categorical", "choice", "choice_p", "permutation", "multinomial", "binomial"],
)
def test_samplers_refuse_lists(call, name):
    with pytest.raises(TypeError, match=f"{name} requires ndarray or scalar arguments"):
        call(rnd.key(0))


def test_multinomial_dtypes_and_shapes_as_jax():
    k = rnd.key(0)
    p = jnp.array([0.2, 0.3, 0.5])
    r = rnd.multinomial(k, 10, p, dtype=jnp.int8)
    assert r.dtype == np.int8 and int(np.asarray(r).sum()) == 10
    np.testing.assert_array_equal(np.asarray(r), np.asarray(rnd.multinomial(k, 10, p)))
    assert rnd.multinomial(k, 10, p.astype(jnp.float16)).dtype == np.float32
    r = rnd.multinomial(k, jnp.array([5, 10]), p, shape=[2, 3])
    assert r.shape == (2, 3) and np.asarray(r).sum(-1).tolist() == [5, 10]
    with pytest.raises(ValueError, match="axis -1 is out of bounds for array of dimension 0"):
        rnd.multinomial(k, 10, 0.5)
    with pytest.raises(ValueError, match="Incompatible types for broadcasting"):
        rnd.multinomial(k, 10, p, shape=(4, 2))


def test_orthogonal_and_ball_sizes_and_dtype_errors():
    k = rnd.key(0)
    for call in (lambda: rnd.orthogonal(k, 3.0), lambda: rnd.orthogonal(k, 3, m=2.0),
                 lambda: rnd.ball(k, 3.0)):  # fmt: skip
        with pytest.raises(TypeError, match="'float' object cannot be interpreted as an integer"):
            call()
    assert rnd.orthogonal(k, np.int64(3)).shape == (3, 3)
    assert rnd.ball(k, np.int32(2), shape=[3]).shape == (3, 2)
    with pytest.raises(ValueError, match="dtype argument to `normal` must be a float or complex"):
        rnd.orthogonal(k, 3, dtype=jnp.int32)
    for call in (lambda: rnd.ball(k, 3, dtype=jnp.int32),
                 lambda: rnd.generalized_normal(k, 2.0, (3,), jnp.int32)):  # fmt: skip
        with pytest.raises(ValueError, match="dtype argument to `gamma` must be a float dtype"):
            call()


def test_shape_check_messages_name_the_sampler():
    k = rnd.key(0)
    logits = jnp.zeros((2, 3))
    with pytest.raises(ValueError, match="^categorical parameter shapes must be broadcast"):
        rnd.categorical(k, logits, shape=(1,))
    with pytest.raises(ValueError, match="^gamma parameter shapes must be broadcast"):
        rnd.generalized_normal(k, jnp.ones(3), ())
    with pytest.raises(ValueError, match="^t parameter shapes must be broadcast"):
        rnd.t(k, jnp.ones(2), (1,))
    with pytest.raises(ValueError, match="^binomial parameter shapes must be broadcast"):
        rnd.binomial(k, jnp.ones(2), 0.5, (1,))


# The samplers' sweep: each call under both key kinds, eagerly and under jit.
_R = [
    ("randint_u8", lambda m, k: m.jx.random.randint(k, (9,), m.jnp.array(3, m.jnp.uint8), m.jnp.array(200, m.jnp.uint8), m.jnp.uint8)),  # noqa: E501
    ("randint_i8_into_u8", lambda m, k: m.jx.random.randint(k, (9,), m.jnp.array(-3, m.jnp.int8), 100, m.jnp.uint8)),  # noqa: E501
    ("randint_i16_list_shape", lambda m, k: m.jx.random.randint(k, [2, 3], -1000, 1000, m.jnp.int16)),  # noqa: E501
    ("categorical_axis0", lambda m, k: m.jx.random.categorical(k, m.jnp.log(m.jnp.array([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]])), axis=0, shape=(4, 3))),  # noqa: E501
    ("categorical_noreplace", lambda m, k: m.jx.random.categorical(k, m.jnp.zeros((2, 3, 4)), axis=1, shape=(2, 2, 4), replace=False)),  # noqa: E501
    ("choice_p_noreplace_axis1", lambda m, k: m.jx.random.choice(k, m.jnp.arange(12.0).reshape(3, 4), (3,), False, m.jnp.array([0.1, 0.2, 0.3, 0.4]), axis=1)),  # noqa: E501
    ("choice_p", lambda m, k: m.jx.random.choice(k, 4, (6,), p=m.jnp.array([0.1, 0.2, 0.3, 0.4]))),  # noqa: E501
    ("permutation_independent", lambda m, k: m.jx.random.permutation(k, m.jnp.arange(12).reshape(3, 4), axis=-1, independent=True)),  # noqa: E501
    ("permutation_np_int", lambda m, k: m.jx.random.permutation(k, np.int64(7))),
    ("rademacher_int8", lambda m, k: m.jx.random.rademacher(k, (6,), m.jnp.int8)),
    ("bits_uint16", lambda m, k: m.jx.random.bits(k, [5], m.jnp.uint16)),
    ("multinomial_int8", lambda m, k: m.jx.random.multinomial(k, 10, m.jnp.array([0.2, 0.3, 0.5]), dtype=m.jnp.int8)),  # noqa: E501
    ("binomial", lambda m, k: m.jx.random.binomial(k, m.jnp.array([5.0, 50.0]), 0.3, (3, 2))),
    ("poisson", lambda m, k: m.jx.random.poisson(k, m.jnp.array([0.0, 1.0, 15.0]), (2, 3))),
    ("triangular", lambda m, k: m.jx.random.triangular(k, 0.0, 0.3, 1.0, (5,))),
    ("truncated_normal", lambda m, k: m.jx.random.truncated_normal(k, -1.0, m.jnp.array([0.5, 2.0]), (3, 2))),  # noqa: E501
]  # fmt: skip


@pytest.mark.skipif(JAX is None or ORACLE, reason="compares jaxlite with JAX itself")
@pytest.mark.parametrize("name,call", _R, ids=[n for n, _ in _R])
def test_random_samplers_against_jax(name, call):
    for kind in ("key", "raw"):
        for jitted in (False, True):
            res = []
            for m in (JAX, LITE):
                k = m.jx.random.key(42) if kind == "key" else m.jx.random.PRNGKey(42)
                f = (
                    m.jx.jit(lambda kk, m=m: call(m, kk))
                    if jitted
                    else (lambda kk, m=m: call(m, kk))
                )
                res.append(f(k))
            a, b = res
            assert (str(b.dtype), _weak(b), b.shape) == (str(a.dtype), _weak(a), a.shape), name
            np.testing.assert_array_equal(np.asarray(b), np.asarray(a), err_msg=name)
