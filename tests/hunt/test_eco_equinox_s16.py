"""Session 16: equinox 0.13.8's own test suite run on jaxlite-as-jax (docs/ecosystem.md);
the deviations it showed, reduced to plain jax. Every test runs on jaxlite and, when it is
installed, on JAX 0.10.2 with the same assertions (``engine`` fixture).

* Strict promotion (``jax_numpy_dtype_promotion="strict"``, equinox's test setting) with a
  weakly typed bool (``lax.eq`` of two Python floats, the inner comparisons of
  ``jnp.isclose``): jaxlite took the weak bool for a weak scalar, so ``isclose`` and
  ``allclose`` of two float arrays raised TypePromotionError while a weak bool plus an
  int32 array or a Python number was silently promoted (JAX: a bool node, which joins only
  bools). Two weak bools combined gave a weak bool (JAX: strong). The strict error named a
  weak int ``int32`` (JAX: ``<class 'int'>``).
* ``Trace.main`` (equinox's ``filter_jvp`` and ``noinline`` tell their own tracers by
  ``x._trace.main is main``): AttributeError.
* ``jax.core.ShapedArray`` arguments to ``make_jaxpr``, ``jit(f).trace/lower`` and
  ``linear_transpose`` (equinox transposes its primitives at ShapedArrays): TypeError;
  ``jit(f).trace/lower`` rejected ``ShapeDtypeStruct`` arguments too.
* float0 gradients (of integer inputs, ``allow_int=True``) came back as jaxlite Arrays on
  which ``==`` raised; JAX returns NumPy arrays (equinox compares them with ``==``).
"""

import warnings

import numpy as np
import pytest

import jaxlite

try:
    import jax as _real_jax
except ImportError:  # pragma: no cover - JAX is the optional oracle
    _real_jax = None

ENGINES = [jaxlite] + ([_real_jax] if _real_jax is not None else [])


@pytest.fixture(params=ENGINES, ids=lambda m: m.__name__)
def engine(request):
    m = request.param
    import importlib

    importlib.import_module(m.__name__ + ".numpy")
    importlib.import_module(m.__name__ + ".extend")
    importlib.import_module(m.__name__ + ".core")
    return m


def _strict(m):
    return m.numpy_dtype_promotion("strict")


# ------------------------------------------------------------------ strict weak bools
def test_strict_isclose_and_allclose_of_float_arrays(engine):
    jnp = engine.numpy
    a = jnp.array([1.0, np.inf, 2.0])
    b = jnp.array([1.0, np.inf, 2.5])
    with _strict(engine):
        close = jnp.isclose(a, b)
        assert close.tolist() == [True, True, False]
        assert close.dtype == np.bool_ and not close.weak_type
        assert bool(jnp.allclose(a, a))
        assert not bool(jnp.allclose(a, b))


def test_weak_bool_is_a_plain_bool_under_strict(engine):
    jnp = engine.numpy
    wb = jnp.equal(1.0, 2.0)
    assert wb.dtype == np.bool_ and wb.weak_type  # the weak bool of lax.eq
    sb = jnp.array([True, False])
    with _strict(engine):
        for r in (jnp.logical_and(wb, sb), jnp.where(sb, wb, sb), wb | True, wb & wb):
            assert r.dtype == np.bool_ and not r.weak_type
        for bad in (
            lambda: wb + jnp.array([1, 2]),
            lambda: wb + 1,
            lambda: wb + 1.5,
        ):
            with pytest.raises(engine.dtypes.TypePromotionError, match="no available implicit"):
                bad()


def test_weak_bools_combine_to_a_strong_bool(engine):
    jnp = engine.numpy
    wb = jnp.equal(1.0, 2.0)
    for r in (jnp.logical_and(wb, wb), wb * wb, wb & wb):
        assert r.dtype == np.bool_ and not r.weak_type


def test_strict_error_names_weak_scalars_by_their_python_type(engine):
    jnp = engine.numpy
    with _strict(engine):
        with pytest.raises(engine.dtypes.TypePromotionError) as e:
            jnp.add(jnp.array([True, False]), 1)
        assert "<class 'int'>" in str(e.value) and "'bool'" in str(e.value)
        with pytest.raises(engine.dtypes.TypePromotionError) as e:
            jnp.equal(jnp.array([1, 2]), 1.5)
        assert "<class 'float'>" in str(e.value) and "'int32'" in str(e.value)


# ------------------------------------------------------------------ Trace.main
def test_trace_main_tells_one_jvp_from_another(engine):
    seen = {}

    def inner(y):
        t = engine.extend.core.find_top_trace([y])
        seen["inner"] = (t.main, y._trace.main)
        return y * 2.0

    def outer(x):
        t = engine.extend.core.find_top_trace([x])
        seen["outer"] = (t.main, x._trace.main)
        return engine.jvp(inner, (x * 1.0,), (1.0,))[1] + x

    engine.jvp(outer, (3.0,), (1.0,))
    (om, ox), (im, iy) = seen["outer"], seen["inner"]
    assert om is ox and im is iy
    assert om is not None and im is not None and om is not im


# ------------------------------------------------------------------ abstract arguments
def test_shaped_array_arguments_of_the_abstract_apis(engine):
    jnp = engine.numpy
    S = engine.core.ShapedArray((2,), jnp.float32)

    def f(x):
        return 2.0 * x

    jaxpr = engine.make_jaxpr(f)(S)
    assert [tuple(v.aval.shape) for v in jaxpr.jaxpr.invars] == [(2,)]
    out = engine.jit(f).trace(S).out_info
    assert out.shape == (2,) and out.dtype == np.float32
    out = engine.jit(f).lower(engine.ShapeDtypeStruct((3,), jnp.float32)).out_info
    assert out.shape == (3,) and out.dtype == np.float32
    (ct,) = engine.linear_transpose(f, S)(jnp.ones(2, jnp.float32))
    np.testing.assert_array_equal(np.asarray(ct), [2.0, 2.0])
    # a call with values still rejects them
    with pytest.raises(TypeError):
        engine.jit(f)(S)


# ------------------------------------------------------------------ float0 gradients
@pytest.mark.parametrize("wrap", ["eager", "jit"])
def test_float0_gradients_are_numpy_arrays(engine, wrap):
    g = engine.grad(lambda x, i: x * i, argnums=(0, 1), allow_int=True)
    if wrap == "jit":
        g = engine.jit(g)
    gx, gi = g(1.0, 2)
    assert float(gx) == 2.0
    assert isinstance(gi, np.ndarray) and gi.dtype == engine.dtypes.float0
    assert gi.shape == ()
    assert bool(np.all(gi == np.zeros((), engine.dtypes.float0)))
    (ct,) = engine.vjp(lambda i: i * 2, np.arange(3))[1](np.arange(3))
    assert isinstance(ct, np.ndarray) and ct.dtype == engine.dtypes.float0 and ct.shape == (3,)


# ------------------------------------------------------------------ get_bind_params
def test_rebinding_equations_with_get_bind_params(engine):
    jnp, lax = engine.numpy, engine.lax

    def f(x, i):
        y = engine.jit(lambda a: jnp.sin(a) * 2.0)(x)
        return lax.cond(i > 0, lambda a: a + 1.0, lambda a: a - 1.0, y)

    x = jnp.array([0.5, 1.5], jnp.float32)
    closed = engine.make_jaxpr(f)(x, 1)
    env = dict(zip(closed.jaxpr.invars, (x, 1)))
    env.update(zip(closed.jaxpr.constvars, closed.consts))
    read = lambda v: v.val if type(v) is engine.extend.core.Literal else env[v]  # noqa: E731
    for eqn in closed.jaxpr.eqns:
        params = eqn.primitive.get_bind_params(eqn.params)
        out = eqn.primitive.bind(*map(read, eqn.invars), **params)
        env.update(zip(eqn.outvars, out if eqn.primitive.multiple_results else [out]))
    got = env[closed.jaxpr.outvars[0]]
    np.testing.assert_allclose(np.asarray(got), np.sin([0.5, 1.5]) * 2 + 1, rtol=1e-6)


# ------------------------------------------------------------------ batching rule arguments
def test_library_batching_rules_get_tuples(engine):
    from importlib import import_module

    batching = import_module(engine.__name__ + ".interpreters.batching")
    seen = []
    prims = []
    for kind in ("primitive_batchers", "axis_primitive_batchers", "fancy"):
        p = engine.extend.core.Primitive(f"s16_{kind}")
        p.def_impl(lambda x: x * 2)
        p.def_abstract_eval(lambda x: x)

        def rule(*a, p=p, kind=kind):
            args, dims = a[-2], a[-1]
            seen.append((kind, type(args), type(dims)))
            return p.bind(*args), dims[0]

        if kind == "fancy":
            batching.fancy_primitive_batchers[p] = rule
        else:
            getattr(batching, kind)[p] = rule
        prims.append(p)
    for p in prims:
        out = engine.vmap(p.bind)(engine.numpy.ones(3))
        np.testing.assert_array_equal(np.asarray(out), [2.0, 2.0, 2.0])
    assert [k for k, _, _ in seen] == ["primitive_batchers", "axis_primitive_batchers", "fancy"]
    assert all(a is tuple and d is tuple for _, a, d in seen), seen


# ------------------------------------------------------------------ non-string __name__
class _Unnamed:
    """A callable whose ``__name__`` is not a string (an equinox Module rebuilt from its
    leaves has the ``Missing`` sentinel there)."""

    def __init__(self):
        self.__name__ = object()
        self.__qualname__ = 3

    def __call__(self, x):
        return (x**2).sum()


@pytest.mark.parametrize(
    "transform", ["vmap", "grad", "value_and_grad", "jacfwd", "jacrev", "hessian", "checkpoint"]
)
def test_transformations_of_callables_with_a_non_string_name(engine, transform):
    f = _Unnamed()
    x = engine.numpy.ones(2)
    if transform == "vmap":
        out = engine.vmap(f)(engine.numpy.ones((3, 2)))
        np.testing.assert_array_equal(np.asarray(out), [2.0, 2.0, 2.0])
        return
    g = getattr(engine, transform)(f)
    assert isinstance(g.__name__, str)
    out = g(x)
    leaves = [np.asarray(v) for v in engine.tree_util.tree_leaves(out)]
    assert all(np.all(np.isfinite(v)) for v in leaves) and leaves


# ------------------------------------------------------------------ predicate weak types
# Found with the weak-bool family above: JAX's predicates compare with strongly typed
# constants (isinf, signbit of integers, isclose of integers: strong results for weak
# inputs) or weak ones (isreal, iscomplex: weak results); jaxlite had it the other way.
_PRED_INPUTS = {
    "py_float": lambda m: 1.5,
    "py_int": lambda m: -2,
    "py_complex": lambda m: 1 + 2j,
    "weak_float": lambda m: m.jnp.add(1.0, 0.5),
    "weak_int": lambda m: m.jnp.add(1, -3),
    "f32": lambda m: m.jnp.array([1.0, -np.inf, np.nan, -0.0]),
    "i32": lambda m: m.jnp.array([1, -2, 0]),
    "c64": lambda m: m.jnp.array([1 + 1j, np.inf, 2.0]),
    "bool": lambda m: m.jnp.array([True, False]),
}


@pytest.mark.parametrize("inp", sorted(_PRED_INPUTS))
@pytest.mark.parametrize(
    "fn", ["isinf", "isposinf", "isneginf", "signbit", "isreal", "iscomplex", "isclose"]
)
def test_predicate_results_weak_types_and_errors(fn, inp):
    from tests.hunt.oracle import same

    def build(m):
        x = _PRED_INPUTS[inp](m)
        return m.jnp.isclose(x, x) if fn == "isclose" else getattr(m.jnp, fn)(x)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # jaxlite's NumPy inf - inf
        same(build)


def test_library_jvp_rules_get_tuples(engine):
    from importlib import import_module

    ad = import_module(engine.__name__ + ".interpreters.ad")
    seen = []
    p = engine.extend.core.Primitive("s16_jvp_tuples")
    p.def_impl(lambda x: x * 2)
    p.def_abstract_eval(lambda x: x)

    def rule(primals, tangents):
        seen.append((type(primals), type(tangents)))
        return p.bind(*primals), tangents[0] * 2

    ad.primitive_jvps[p] = rule
    out, t = engine.jvp(p.bind, (engine.numpy.ones(2),), (engine.numpy.ones(2),))
    np.testing.assert_array_equal(np.asarray(t), [2.0, 2.0])
    assert seen == [(tuple, tuple)]


def test_primitive_impl_is_the_def_impl_function(engine):
    jnp = engine.numpy
    p = engine.extend.core.Primitive("s16_impl")

    def impl(x):
        return jnp.sin(x) + 1.0

    p.def_impl(impl)
    p.def_abstract_eval(lambda x: x)
    # Called inside a trace, the impl traces (its equations join the jaxpr)
    jaxpr = engine.make_jaxpr(lambda x: p.impl(x) * 2.0)(jnp.ones(2))
    names = [e.primitive.name for e in jaxpr.jaxpr.eqns]
    assert "sin" in names and "s16_impl" not in names
    np.testing.assert_allclose(np.asarray(p.impl(jnp.zeros(2))), [1.0, 1.0])


# ------------------------------------------------------------------ pmap(f).lower
def test_pmap_lower_and_compile(engine):
    jnp = engine.numpy
    f = engine.pmap(lambda x, y: 2 * x + y, in_axes=(0, None))
    lowered = f.lower(jnp.array([3]), 4)
    assert isinstance(lowered.as_text(), str)
    out = lowered.compile()(jnp.array([3]), 4)
    np.testing.assert_array_equal(np.asarray(out), [10])
    g = engine.pmap(lambda x, n: x * n, static_broadcasted_argnums=1)
    out = g.lower(jnp.array([1.0]), 3).compile()(jnp.array([1.0]))
    np.testing.assert_array_equal(np.asarray(out), [3.0])
