"""Core engine tests (issue 2): jaxprs, the type checker, jit caching, tracing errors, dtype
promotion and the Array type.

Runs unchanged against real JAX (``JAXLITE_ORACLE=jax``) except the tests marked
``jaxlite_only`` (jaxlite's own introspection: jit counters, the generated source, the jaxpr
type checker). The promotion table is a differential test against JAX when it is installed.
"""

import functools
import operator
import re

import helpers
import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax
from jaxlite.errors import (
    ConcretizationTypeError,
    TracerArrayConversionError,
    TracerBoolConversionError,
    UnexpectedTracerError,
)

close = functools.partial(helpers.close, rtol=1e-6)


# ------------------------------------------------------------------------ jaxpr printing


def test_make_jaxpr_prints_like_jax_one_line():
    text = str(jax.make_jaxpr(lambda x: jnp.sin(x) * 2.0)(jnp.ones(3)))
    assert text == "{ lambda ; a:f32[3]. let b:f32[3] = sin a; c:f32[3] = mul b 2.0:f32[] in (c,) }"


def test_make_jaxpr_prints_like_jax_multi_line():
    text = str(jax.make_jaxpr(lambda x, y: (x + y, x * y))(jnp.ones(2), jnp.ones(2)))
    assert text == (
        "{ lambda ; a:f32[2] b:f32[2]. let\n"
        "    c:f32[2] = add a b\n"
        "    d:f32[2] = mul a b\n"
        "  in (c, d) }"
    )


def test_make_jaxpr_identity_and_params():
    assert str(jax.make_jaxpr(lambda x: x)(1.0)) == "{ lambda ; a:f32[]. let  in (a,) }"
    text = str(jax.make_jaxpr(lambda x: jnp.sum(x, axis=0))(jnp.ones((2, 3))))
    assert re.search(r"b:f32\[3\] = reduce_sum\[axes=\(0,\)", text)
    text = str(jax.make_jaxpr(lambda x: x.T)(jnp.ones((2, 3), jnp.int32)))
    assert "b:i32[3,2] = transpose[permutation=(1, 0)] a" in text


def test_make_jaxpr_nested_jit_is_one_equation():
    closed = jax.make_jaxpr(lambda x: jax.jit(lambda y: y + 1.0)(x) * x)(1.0)
    names = [e.primitive.name for e in closed.jaxpr.eqns]
    assert names[0] in ("jit", "pjit") and names[1] == "mul"
    assert "add a 1.0:f32[]" in str(closed)


def test_make_jaxpr_structure_and_avals():
    closed = jax.make_jaxpr(lambda x, y: (jnp.dot(x, y), x.astype(jnp.int32)))(
        jnp.ones((2, 3)), jnp.ones((3, 4))
    )
    assert [(a.shape, a.dtype) for a in closed.in_avals] == [
        ((2, 3), np.float32),
        ((3, 4), np.float32),
    ]
    assert [(a.shape, a.dtype) for a in closed.out_avals] == [
        ((2, 4), np.float32),
        ((2, 3), np.int32),
    ]
    assert [e.primitive.name for e in closed.jaxpr.eqns] == ["dot_general", "convert_element_type"]


def test_make_jaxpr_literals_and_weak_types():
    closed = jax.make_jaxpr(lambda x: x + 1)(jnp.ones(3, jnp.int32))
    assert "add a 1:i32[]" in str(closed)
    closed = jax.make_jaxpr(lambda x: x * 2)(3.0)
    assert closed.out_avals[0].weak_type


# --------------------------------------------------------------------- the type checker


@pytest.mark.jaxlite_only
def test_check_jaxpr_accepts_traced_programs():
    from jaxlite._src.core.ir import check_jaxpr

    def f(x, y):
        z = jnp.where(x > 0, jnp.sin(x), y) @ y.T
        return jax.jit(lambda a: jnp.sum(a * 2, axis=1))(z), jnp.max(y)

    closed = jax.make_jaxpr(f)(jnp.ones((3, 4)), jnp.ones((3, 4)))
    check_jaxpr(closed.jaxpr)
    vclosed = jax.make_jaxpr(jax.vmap(f))(jnp.ones((2, 3, 4)), jnp.ones((2, 3, 4)))
    check_jaxpr(vclosed.jaxpr)


@pytest.mark.jaxlite_only
def test_check_jaxpr_rejects_wrong_output_aval():
    from jaxlite._src.core.avals import ShapedArray
    from jaxlite._src.core.errors import JaxprTypeError
    from jaxlite._src.core.ir import check_jaxpr

    closed = jax.make_jaxpr(lambda x: jnp.sin(x) + 1.0)(jnp.ones(3))
    eqn = closed.jaxpr.eqns[0]
    eqn.outvars[0].aval = ShapedArray((4,), np.dtype(np.float32))
    with pytest.raises(JaxprTypeError, match="sin"):
        check_jaxpr(closed.jaxpr)


@pytest.mark.jaxlite_only
def test_check_jaxpr_rejects_use_before_definition():
    from jaxlite._src.core.errors import JaxprTypeError
    from jaxlite._src.core.ir import Jaxpr, check_jaxpr

    closed = jax.make_jaxpr(lambda x: jnp.cos(jnp.sin(x)))(jnp.ones(3))
    j = closed.jaxpr
    swapped = Jaxpr(j.constvars, j.invars, j.outvars, list(reversed(j.eqns)))
    with pytest.raises(JaxprTypeError, match="before it is defined"):
        check_jaxpr(swapped)


@pytest.mark.jaxlite_only
def test_check_jaxpr_rejects_dtype_mismatch_in_operands():
    from jaxlite._src.core.avals import ShapedArray
    from jaxlite._src.core.ir import check_jaxpr

    closed = jax.make_jaxpr(lambda x, y: x + y)(jnp.ones(3), jnp.ones(3))
    closed.jaxpr.invars[1].aval = ShapedArray((3,), np.dtype(np.int32))
    with pytest.raises(TypeError):
        check_jaxpr(closed.jaxpr)


# ---------------------------------------------------------------------- jit and caching


def test_jit_traces_once_per_signature():
    count = [0]

    def f(x):
        count[0] += 1
        return x * 2 + 1

    jf = jax.jit(f)
    x = jnp.ones(3)
    for _ in range(3):
        close(jf(x), np.full(3, 3.0))
    close(jf(x * 2), np.full(3, 5.0))  # same signature: cached
    assert count[0] == 1 and jf._cache_size() == 1
    jf(jnp.ones(4))  # new shape
    jf(jnp.ones(3, jnp.int32))  # new dtype
    jf(1.0)  # weak scalar
    jf(2.0)  # same again
    assert count[0] == 4 and jf._cache_size() == 4
    jf(np.float32(1.0))  # strong scalar: a new signature
    assert count[0] == 5


@pytest.mark.jaxlite_only
def test_jit_stats_count_traces_and_compiles():
    before = jax.jit_stats()
    jf = jax.jit(lambda x: jnp.tanh(x) - x)
    for _ in range(4):
        jf(jnp.ones(5))
    after = jax.jit_stats()
    assert after["traces"] - before["traces"] == 1
    assert after["compiles"] - before["compiles"] == 1
    jf(jnp.ones(6))
    assert jax.jit_stats()["traces"] - before["traces"] == 2


def test_jit_of_vmap_traced_once_per_signature():
    count = [0]

    def f(x, w):
        count[0] += 1
        return jnp.tanh(x @ w)

    g = jax.jit(jax.vmap(f, in_axes=(0, None)))
    w = jnp.ones((3, 2))
    for _ in range(3):
        out = g(jnp.ones((5, 3)), w)
    assert out.shape == (5, 2) and count[0] == 1 and g._cache_size() == 1
    g(jnp.ones((7, 3)), w)
    assert count[0] == 2 and g._cache_size() == 2


def test_vmap_of_jit_traces_inner_function_once():
    count = [0]

    def f(x):
        count[0] += 1
        return jnp.sum(x**2)

    jf = jax.jit(f)
    v = jax.vmap(jf)
    for _ in range(3):
        close(v(jnp.ones((4, 3))), np.full(4, 3.0))
    assert count[0] == 1


def test_static_argnums_and_argnames():
    count = [0]

    def f(x, n, *, mode="add"):
        count[0] += 1
        return x + n if mode == "add" else x * n

    jf = jax.jit(f, static_argnums=1, static_argnames="mode")
    close(jf(jnp.ones(2), 3), np.full(2, 4.0))
    close(jf(jnp.ones(2), 3), np.full(2, 4.0))
    assert count[0] == 1
    close(jf(jnp.ones(2), 5), np.full(2, 6.0))
    close(jf(jnp.ones(2), 5, mode="mul"), np.full(2, 5.0))
    assert count[0] == 3


def test_static_argnames_by_position():
    jf = jax.jit(lambda x, k: x * k if k > 1 else x, static_argnames="k")
    close(jf(jnp.ones(2), 3), np.full(2, 3.0))
    close(jf(jnp.ones(2), k=1), np.ones(2))


def test_unhashable_static_argument_is_a_value_error():
    jf = jax.jit(lambda x, s: x * len(s), static_argnums=1)
    with pytest.raises(ValueError, match="Non-hashable static arguments are not supported"):
        jf(1.0, [1, 2])


def test_static_argnums_out_of_range():
    with pytest.raises(ValueError, match="only accepts 2 positional arguments"):
        jax.jit(lambda x, s: x * s, static_argnums=5)(1.0, 3)


def test_static_args_of_equal_value_but_different_type_trace_apart():
    jf = jax.jit(lambda x, s: x * s, static_argnums=1)
    assert jf(jnp.ones(2), 2).dtype == jnp.float32
    assert jf(jnp.ones(2, jnp.int32), 2).dtype == jnp.int32
    assert jf(jnp.ones(2, jnp.int32), 2.0).dtype == jnp.float32  # 2.0 == 2, new trace


def test_pytree_inputs_and_outputs():
    def f(d):
        return {"s": d["a"] + d["b"][0], "t": (d["b"][1] * 2.0, None)}

    inp = {"a": 1.0, "b": (2.0, jnp.arange(3.0))}
    out = jax.jit(f)(inp)
    assert set(out) == {"s", "t"} and out["t"][1] is None
    close(out["s"], 3.0)
    close(out["t"][0], np.arange(3.0) * 2)


def test_keyword_arguments():
    jf = jax.jit(lambda x, y=1.0: x - y)
    close(jf(jnp.ones(2), y=jnp.arange(2.0)), 1 - np.arange(2.0))
    close(jf(jnp.ones(2)), np.zeros(2))


def test_closure_over_arrays_and_nested_jit():
    w = jnp.arange(3.0)

    @jax.jit
    def inner(x):
        return x * w

    @jax.jit
    def outer(x):
        return inner(x) + inner(x + 1.0)

    close(outer(jnp.ones(3)), np.arange(3.0) * 3)


def test_jit_matches_eager_on_a_program():
    def f(x, y):
        z = jnp.exp(-x) * jnp.cos(y) + jnp.maximum(x, y)
        z = jnp.where(z > 1.0, z, -z).reshape(2, 6)
        return jnp.sum(z, axis=1) @ jnp.ones(2), jnp.argmax(z, axis=0)

    x = jnp.asarray(np.random.RandomState(0).randn(12).astype(np.float32))
    y = jnp.asarray(np.random.RandomState(1).randn(12).astype(np.float32))
    e = f(x, y)
    j = jax.jit(f)(x, y)
    close(j[0], e[0], rtol=1e-5)
    np.testing.assert_array_equal(np.asarray(j[1]), np.asarray(e[1]))


@pytest.mark.jaxlite_only
def test_lower_as_text_shows_jaxpr_and_generated_source():
    lowered = jax.jit(lambda x: jnp.sin(x) * 2.0 + 1.0).lower(jnp.ones(3))
    text = lowered.as_text()
    assert "b:f32[3] = sin a" in text and "add c 1.0:f32[]" in text
    assert "def " in text and "return" in text
    compiled = lowered.compile()
    close(compiled(jnp.arange(3.0)), np.sin(np.arange(3.0)) * 2 + 1)
    assert "def " in compiled.as_text()


def test_lower_compile_runs_and_checks_argument_types():
    compiled = jax.jit(lambda x: x * 3.0).lower(jnp.ones(2)).compile()
    close(compiled(jnp.arange(2.0)), np.arange(2.0) * 3)
    with pytest.raises(TypeError, match="Argument types differ"):
        compiled(jnp.ones(3))


def test_disable_jit_runs_python():
    seen = []

    @jax.jit
    def f(x):
        seen.append(float(x))  # needs a concrete value: fine under disable_jit
        return x + 1

    with jax.disable_jit():
        f(1.0)
        f(2.0)
    assert seen == [1.0, 2.0]
    with pytest.raises(ConcretizationTypeError):
        f(jnp.asarray(3.0))  # traced: float() of a tracer


def test_disable_jit_values_are_concrete():
    @jax.jit
    def f(x):
        return x * 2 if x > 0 else -x  # Python control flow: fine without jit

    with jax.disable_jit():
        close(f(3.0), 6.0)
        close(f(-3.0), 3.0)


# ------------------------------------------------------------------- tracing errors


def test_if_on_traced_value_raises_concretization_error():
    with pytest.raises(ConcretizationTypeError) as info:
        jax.jit(lambda x: x if x > 0 else -x)(1.0)
    assert isinstance(info.value, TracerBoolConversionError)
    assert "concrete" in str(info.value)


@pytest.mark.jaxlite_only
def test_concretization_message_explains_the_fix():
    with pytest.raises(ConcretizationTypeError) as info:
        jax.jit(lambda x: x if x > 0 else -x)(1.0)
    msg = str(info.value)
    assert "static_argnums" in msg and "lax.cond" in msg


@pytest.mark.parametrize("conv", [int, float, lambda x: x.item()])
def test_python_scalar_conversion_of_tracer(conv):
    with pytest.raises(ConcretizationTypeError, match="Abstract tracer value encountered"):
        jax.jit(conv)(1.0)


def test_numpy_conversion_of_tracer():
    with pytest.raises(TracerArrayConversionError):
        jax.jit(lambda x: np.sin(x))(jnp.ones(2))


def test_concrete_values_work_outside_transformations():
    x = jnp.asarray(2.5)
    assert float(x) == 2.5 and int(x) == 2 and bool(x) and x.item() == 2.5
    assert [1, 2, 3][jnp.asarray(1)] == 2
    with pytest.raises(ValueError):
        bool(jnp.array([1, 2]))


def test_leaked_tracer_from_jit():
    leaked = []

    @jax.jit
    def f(x):
        leaked.append(x)
        return x

    f(1.0)
    with pytest.raises(UnexpectedTracerError, match="unexpected tracer"):
        leaked[0] + 1


def test_leaked_tracer_from_vmap():
    leaked = []

    def f(x):
        leaked.append(x)
        return x * 2

    jax.vmap(f)(jnp.ones(3))
    with pytest.raises(UnexpectedTracerError):
        jnp.sin(leaked[0])


def test_bad_argument_and_output_types():
    with pytest.raises(TypeError):
        jax.jit(lambda x: x)("abc")
    with pytest.raises(TypeError):
        jax.jit(lambda x: "abc")(1.0)


def test_isinstance_tracer_is_array():
    seen = []

    def f(x):
        seen.append(isinstance(x, jax.Array))
        return x

    jax.jit(f)(1.0)
    jax.vmap(f)(jnp.ones(2))
    jax.jvp(f, (1.0,), (1.0,))
    assert seen == [True, True, True]
    assert isinstance(jnp.ones(2), jax.Array)
    assert not isinstance(np.ones(2), jax.Array)


# --------------------------------------------------------------------- dtype promotion

_DTYPE_NAMES = [
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "bfloat16",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
]
_WEAK = ["weak_int", "weak_float", "weak_complex"]


def _operands(mod):
    """One 0-d operand per kind for library ``mod`` (jax or jaxlite); weak = Python scalars."""
    ops = {"weak_int": 1, "weak_float": 1.0, "weak_complex": 1.0j}
    for name in _DTYPE_NAMES:
        dt = mod.numpy.bfloat16 if name == "bfloat16" else np.dtype(name)
        ops[name] = np.zeros((), dt)
    return ops


def _promotion_table(mod, x64):
    """(result dtype, weak flag) of every pair, and promote_types of every dtype pair."""
    mod.config.update("jax_enable_x64", x64)
    try:
        ops = _operands(mod)
        table = {}
        kinds = _DTYPE_NAMES + _WEAK
        for a in kinds:
            for b in kinds:
                dt, weak = mod.dtypes.result_type(ops[a], ops[b], return_weak_type_flag=True)
                table[a, b] = (str(np.dtype(dt)), bool(weak))
                if a in _DTYPE_NAMES and b in _DTYPE_NAMES:
                    table[a, b, "promote"] = str(
                        np.dtype(mod.numpy.promote_types(ops[a].dtype, ops[b].dtype))
                    )
        return table
    finally:
        mod.config.update("jax_enable_x64", False)


@pytest.mark.parametrize("x64", [False, True])
def test_promotion_table_matches_jax(x64):
    real_jax = pytest.importorskip("jax")
    pytest.importorskip("jax.numpy")
    expected = _promotion_table(real_jax, x64)
    got = _promotion_table(jax, x64)
    diffs = {k: (got[k], expected[k]) for k in expected if got[k] != expected[k]}
    assert not diffs, diffs


_NARROW_NAMES = [
    "float8_e4m3fn",
    "float8_e5m2",
    "float8_e8m0fnu",
    "float4_e2m1fn",
    "int4",
    "uint4",
    "int2",
]


def _narrow_table(mod):
    """result_type of each narrow ml_dtypes type with every dtype and Python scalar type:
    the dtype name, or the error class and message (the order of the dtypes a
    TypePromotionError lists is not part of the contract: JAX takes it from a set)."""
    import re

    others = [np.dtype(n) for n in _DTYPE_NAMES if n != "bfloat16"] + [mod.numpy.bfloat16]
    others += [bool, int, float, complex] + [getattr(mod.numpy, n) for n in _NARROW_NAMES]
    table = {}
    for name in _NARROW_NAMES:
        a = getattr(mod.numpy, name)
        for b in others:
            key = (name, str(getattr(b, "__name__", b)))
            try:
                table[key] = str(mod.numpy.result_type(a, b))
            except Exception as e:  # noqa: BLE001 - the class is what is compared
                msg = re.sub(r"Input dtypes \(.*?\) have", "Input dtypes (...) have", str(e))
                table[key] = (type(e).__name__, msg)
        kinds = (np.floating, np.inexact, np.integer, np.signedinteger, np.unsignedinteger)
        table[name, "issubdtype"] = [bool(mod.numpy.issubdtype(a, k)) for k in kinds]
    return table


def test_narrow_dtype_promotion_matches_jax():
    """float8/float4/int4/int2 never promote implicitly (TypePromotionError with JAX's
    text), except with bool, Python scalars of a fitting kind, and (floats) integers."""
    real_jax = pytest.importorskip("jax")
    pytest.importorskip("jax.numpy")
    expected = _narrow_table(real_jax)
    got = _narrow_table(jax)
    diffs = {k: (got[k], expected[k]) for k in expected if got[k] != expected[k]}
    assert not diffs, diffs


def test_narrow_dtype_arithmetic():
    x = jnp.ones(3, jnp.float8_e4m3fn)
    assert (x + 1.0).dtype == jnp.float8_e4m3fn and (x * 2).dtype == jnp.float8_e4m3fn
    assert (x + jnp.ones(3, jnp.int8)).dtype == jnp.float8_e4m3fn
    with pytest.raises(jax.dtypes.TypePromotionError, match="8-bit floats do not support"):
        x + jnp.ones(3, jnp.float32)
    with pytest.raises(jax.dtypes.TypePromotionError, match="4-bit integers do not support"):
        jnp.ones(3, jnp.int4) + jnp.ones(3, jnp.int8)
    assert (jnp.ones(3, jnp.int4) + 1).dtype == jnp.int4


@pytest.mark.parametrize("x64", [False, True])
def test_binary_ops_follow_the_promotion_table(x64):
    """Array arithmetic agrees with result_type on every pair (incl. weak scalars)."""
    table = _promotion_table(jax, x64)
    jax.config.update("jax_enable_x64", x64)
    try:
        arrays = {
            k: (jnp.asarray(v) if isinstance(v, np.ndarray) else v)
            for k, v in _operands(jax).items()
        }
        kinds = _DTYPE_NAMES + _WEAK
        for a in kinds:
            for b in kinds:
                if a in _WEAK and b in _WEAK:
                    out = jnp.asarray(arrays[a]) * arrays[b]
                elif a == b == "bool":
                    out = arrays[a] | arrays[b]
                else:
                    out = arrays[a] * arrays[b]
                assert (str(out.dtype), bool(out.weak_type)) == table[a, b], (a, b)
    finally:
        jax.config.update("jax_enable_x64", False)


def test_promotion_spot_checks():
    i8, u8 = jnp.zeros(2, jnp.int8), jnp.zeros(2, jnp.uint8)
    assert (i8 + u8).dtype == jnp.int16
    assert (i8 + 1).dtype == jnp.int8
    assert (i8 + 1.0).dtype == jnp.float32 and (i8 + 1.0).weak_type
    assert (jnp.zeros(2, jnp.bfloat16) + jnp.zeros(2, jnp.float16)).dtype == jnp.float32
    assert jnp.promote_types(jnp.int32, jnp.uint32) == jnp.int32  # x64 off
    assert jnp.promote_types(jnp.int8, jnp.int64) == jnp.int64  # not canonicalised
    assert (jnp.zeros(2, jnp.int32) + jnp.zeros(2, jnp.uint32)).dtype == jnp.int32  # x64 off
    assert jnp.asarray(1.0).weak_type and not jnp.asarray(np.float32(1.0)).weak_type


def test_x64_canonicalisation():
    assert jnp.asarray(np.arange(3, dtype=np.int64)).dtype == jnp.int32
    assert jnp.asarray(np.ones(2)).dtype == jnp.float32
    jax.config.update("jax_enable_x64", True)
    try:
        assert jnp.asarray(np.ones(2)).dtype == jnp.float64
        assert jnp.arange(3).dtype == jnp.int64
        assert (jnp.asarray(1.0) + 1).dtype == jnp.float64
    finally:
        jax.config.update("jax_enable_x64", False)
    assert jnp.arange(3).dtype == jnp.int32


# ------------------------------------------------------------------------------- Array


def test_array_repr_and_str():
    assert repr(jnp.array([1.0, 2.0])) == "Array([1., 2.], dtype=float32)"
    assert repr(jnp.asarray(1.0)) == "Array(1., dtype=float32, weak_type=True)"
    assert repr(jnp.arange(3)) == "Array([0, 1, 2], dtype=int32)"
    assert repr(jnp.array([[1, 2], [3, 4]], dtype=jnp.int8)) == (
        "Array([[1, 2],\n       [3, 4]], dtype=int8)"
    )
    assert repr(jnp.zeros((2, 0))) == "Array([], shape=(2, 0), dtype=float32)"
    assert repr(jnp.array([True, False])) == "Array([ True, False], dtype=bool)"
    assert repr(jnp.ones(3, jnp.bfloat16)) == "Array([1, 1, 1], dtype=bfloat16)"
    assert str(jnp.array([1.0, 2.0])) == "[1. 2.]"
    assert str(jnp.asarray(3)) == "3"


def test_array_format():
    assert f"{jnp.asarray(1.5):.3f}" == "1.500"
    assert format(jnp.asarray(7), "d") == "7"
    assert f"{jnp.asarray(2.0)}" == "2.0"


def test_array_properties_and_conversions():
    x = jnp.arange(6.0).reshape(2, 3)
    assert x.shape == (2, 3) and x.ndim == 2 and x.size == 6 and len(x) == 2
    assert x.dtype == jnp.float32
    np_view = np.asarray(x)
    assert np_view.dtype == np.float32 and np_view.shape == (2, 3)
    assert x.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert jnp.asarray(3).item() == 3
    assert x.block_until_ready() is x
    assert jax.block_until_ready({"a": x})["a"] is x


def test_array_is_immutable():
    x = jnp.arange(3)
    with pytest.raises(TypeError):
        x[0] = 5
    with pytest.raises((ValueError, TypeError)):
        np.asarray(x)[0] = 5


_BINOPS = [
    operator.add,
    operator.sub,
    operator.mul,
    operator.truediv,
    operator.floordiv,
    operator.mod,
    operator.pow,
    operator.lt,
    operator.le,
    operator.gt,
    operator.ge,
    operator.eq,
    operator.ne,
]


@pytest.mark.parametrize("op", _BINOPS, ids=lambda o: o.__name__)
def test_arithmetic_and_comparison_operators(op):
    a = np.array([1.5, -2.0, 3.0], np.float32)
    b = np.array([0.5, 4.0, -1.5], np.float32)
    if op is operator.pow:
        a = np.abs(a)
    close(op(jnp.asarray(a), jnp.asarray(b)), op(a, b), rtol=1e-5)
    close(op(jnp.asarray(a), 2.0), op(a, np.float32(2.0)), rtol=1e-5)
    close(op(2.0, jnp.asarray(a)), op(np.float32(2.0), a), rtol=1e-5)  # reflected


def test_bitwise_and_unary_operators():
    a = np.array([1, 6, 12], np.int32)
    b = np.array([3, 5, 10], np.int32)
    x, y = jnp.asarray(a), jnp.asarray(b)
    for op in (operator.and_, operator.or_, operator.xor, operator.lshift, operator.rshift):
        np.testing.assert_array_equal(np.asarray(op(x, y)), op(a, b))
        np.testing.assert_array_equal(np.asarray(op(3, x)), op(np.int32(3), a))
    np.testing.assert_array_equal(np.asarray(~x), ~a)
    np.testing.assert_array_equal(np.asarray(-x), -a)
    np.testing.assert_array_equal(np.asarray(abs(-x)), a)
    m = jnp.arange(4.0).reshape(2, 2)
    close(m @ m, np.arange(4.0).reshape(2, 2) @ np.arange(4.0).reshape(2, 2))


def test_basic_and_advanced_indexing():
    a = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)
    x = jnp.asarray(a)
    idx_list = [
        1,
        (0, 2),
        (slice(None), 1),
        (Ellipsis, 2),
        (slice(None, None, -1),),
        (None, 0),
        (0, slice(1, 3), slice(None, None, 2)),
        (np.array([1, 0]),),
        (slice(None), np.array([0, 2, 2])),
        (a[..., 0] > 5,),
        (0, -1, -1),
        (np.array([0, 1]), np.array([2, 0])),
    ]
    for idx in idx_list:
        close(x[idx], a[idx])
    close(jax.jit(lambda x, i: x[i])(x, 1), a[1])
    close(jax.jit(lambda x, i: x[:, i])(x, jnp.asarray([2, 0])), a[:, [2, 0]])


def test_at_updates():
    a = np.arange(5.0, dtype=np.float32)
    x = jnp.asarray(a)
    e = a.copy()
    e[1] = 10.0
    close(x.at[1].set(10.0), e)
    e = a.copy()
    np.add.at(e, [0, 0, 2], 1.0)
    close(x.at[jnp.array([0, 0, 2])].add(1.0), e)
    e = a.copy()
    e[1:3] *= 3.0
    close(x.at[1:3].multiply(3.0), e)
    close(x.at[3].min(-1.0), np.where(np.arange(5) == 3, -1.0, a))
    close(x.at[0].max(7.0), np.where(np.arange(5) == 0, 7.0, a))
    close(x.at[2].get(), a[2])
    close(x, a)  # the original is unchanged
    close(jax.jit(lambda x: x.at[1].set(-1.0))(x), np.where(np.arange(5) == 1, -1.0, a))


def test_array_methods():
    a = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    x = jnp.asarray(a)
    assert x.astype(jnp.int32).dtype == jnp.int32
    close(x.reshape(3, 2), a.reshape(3, 2))
    close(x.reshape((6,)), a.reshape(6))
    close(x.sum(), a.sum())
    close(x.sum(axis=0), a.sum(axis=0))
    close(x.mean(axis=1), a.mean(axis=1))
    close(x.max(), a.max())
    close(x.min(axis=0), a.min(axis=0))
    assert int(x.argmax()) == 5
    close(x.transpose(), a.T)
    close(x.T, a.T)
    close(x.ravel(), a.ravel())
    close(jnp.ones((1, 3, 1)).squeeze(), np.ones(3))


def test_array_methods_under_jit_match_eager():
    def f(x):
        return x.reshape(3, 2).T.sum(axis=1) + x.max() - x.astype(jnp.int32).sum()

    x = jnp.arange(6.0)
    close(jax.jit(f)(x), f(x))


def test_device_get_and_eval_shape():
    out = jax.device_get({"a": jnp.ones(2)})
    assert isinstance(out["a"], np.ndarray)
    s = jax.eval_shape(lambda x: x.sum(axis=0), jnp.ones((3, 4)))
    assert s.shape == (4,) and s.dtype == jnp.float32
    s = jax.eval_shape(lambda x: x * 2, jax.ShapeDtypeStruct((2, 3), jnp.int32))
    assert s.shape == (2, 3) and s.dtype == jnp.int32


def test_lax_level_ops_on_arrays():
    x = jnp.arange(6.0).reshape(2, 3)
    close(lax.reduce_sum(x, (1,)), np.arange(6.0).reshape(2, 3).sum(1))
    close(lax.broadcast_in_dim(jnp.arange(3.0), (2, 3), (1,)), np.tile(np.arange(3.0), (2, 1)))
    close(
        lax.dot_general(x, x, (((1,), (1,)), ((), ()))),
        np.arange(6.0).reshape(2, 3) @ np.arange(6.0).reshape(2, 3).T,
    )
    close(lax.concatenate([x, x], 0), np.concatenate([np.arange(6.0).reshape(2, 3)] * 2))
    close(lax.slice(x, (0, 1), (2, 3)), np.arange(6.0).reshape(2, 3)[:, 1:])
    close(
        lax.select_n(x > 2, x, -x),
        np.where(
            np.arange(6.0).reshape(2, 3) > 2,
            -np.arange(6.0).reshape(2, 3),
            np.arange(6.0).reshape(2, 3),
        ),
    )
    np.testing.assert_array_equal(np.asarray(lax.iota(jnp.int32, 4)), np.arange(4))


# ------------------------------------------------- generated code: buffer reuse is safe


def test_jit_never_writes_into_inputs_or_returned_values():
    def f(x, y):
        a = jnp.sin(x) * 2.0  # a is returned *and* used again below
        b = (a + y) * (a + y)  # same buffer on both sides of a ufunc
        c = jnp.exp(-b) - x  # x is an input: never overwritten
        return a, c, x + 1.0

    x0 = np.linspace(-1, 1, 6).astype(np.float32)
    y0 = np.linspace(0, 2, 6).astype(np.float32)
    x, y = jnp.asarray(x0), jnp.asarray(y0)
    for _ in range(2):
        out = jax.jit(f)(x, y)
        expected = f(x, y)
        for o, e in zip(out, expected):
            close(o, e, rtol=1e-6)
    np.testing.assert_array_equal(np.asarray(x), x0)
    np.testing.assert_array_equal(np.asarray(y), y0)


def test_jit_dtype_changing_ops_stay_exact():
    def f(i, x):
        q = (i * 3) // 2 + i  # integer chain
        r = q / 2  # int -> float: a new buffer
        return q, r, jnp.abs(x * (1 + 1j))  # complex -> float abs

    i = jnp.arange(-4, 4)
    x = jnp.linspace(-1.0, 1.0, 8)
    for got, exp in zip(jax.jit(f)(i, x), f(i, x)):
        assert got.dtype == exp.dtype
        close(got, exp)


@pytest.mark.parametrize(
    "view",
    [
        lambda a: a.reshape(2, 3),
        lambda a: a.T,
        lambda a: a[1:],
        lambda a: a[::-1],
        lambda a: jnp.broadcast_to(a, (2, 2, 3)),
        lambda a: a.astype(jnp.float32),
        lambda a: lax.stop_gradient(a),
        lambda a: jnp.expand_dims(a, 0),
        lambda a: a[0],
    ],
    ids=[
        "reshape",
        "T",
        "slice",
        "rev",
        "broadcast",
        "astype",
        "stop_gradient",
        "expand_dims",
        "index",
    ],
)
def test_jit_buffer_reuse_respects_views(view):
    """A value some other value may be a view of is never overwritten in place."""

    def f(x):
        a = jnp.sin(x) * 2.0
        b = view(a)  # possibly a view of a's buffer
        c = a + 1.0  # last use of a
        return b * 1.0, c * 1.0

    x = jnp.arange(6.0).reshape(2, 3)
    for got, exp in zip(jax.jit(f)(x), f(x)):
        close(got, exp)


def test_jit_buffer_reuse_respects_callbacks():
    from jaxlite.experimental import io_callback

    seen = []

    def keep(v):
        seen.append(v)
        return np.zeros((), np.float32)

    def f(x):
        a = jnp.exp(x)
        io_callback(keep, jax.ShapeDtypeStruct((), jnp.float32), a)
        return a * 3.0 - 1.0

    x = jnp.arange(3.0)
    close(jax.jit(f)(x), np.exp(np.arange(3.0)) * 3 - 1, rtol=1e-6)
    close(seen[0], np.exp(np.arange(3.0)), rtol=1e-6)


@pytest.mark.jaxlite_only
def test_generated_code_frees_and_reuses_intermediates():
    def f(x):
        y = jnp.sin(x) * 2.0 + 1.0
        return jnp.sqrt(jnp.abs(y)) + x

    text = jax.jit(f).lower(jnp.ones(4)).as_text()
    source = text.split("# generated Python source")[1]
    assert "del " in source and "out=" in source
    assert "out=v0" not in source  # v0 is the argument: never a destination
    close(jax.jit(f)(jnp.arange(4.0)), f(jnp.arange(4.0)))


def test_ieee_exceptions_are_silent_like_jax():
    """log(0), 1/0 and overflow give IEEE values without NumPy RuntimeWarnings, eagerly,
    under jit and inside a compiled loop body (JAX is silent too)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        z = jnp.zeros(3)
        assert np.all(np.isneginf(np.asarray(jnp.log(z))))
        assert np.all(np.isposinf(np.asarray(jax.jit(lambda x: 1.0 / x)(z))))
        big = jnp.full(2, 1e30, dtype=jnp.float32)
        out = jax.jit(
            lambda c: jax.lax.scan(lambda c, _: (c * c * jnp.exp(c), None), c, None, length=2)[0]
        )(big)
        assert np.all(np.isposinf(np.asarray(out)))


def test_itemsize_bits_and_scalar_type_of():
    d = jax.dtypes
    assert [d.itemsize_bits(t) for t in (jnp.int4, jnp.float32, jnp.bfloat16, jnp.bool_)] == [
        4,
        32,
        16,
        8,
    ]
    assert d.itemsize_bits(jnp.float4_e2m1fn) == 4
    got = [
        d.scalar_type_of(v) for v in (jnp.ones(2), 1, np.int8(1), True, 1j, jnp.ones(2, jnp.int4))
    ]
    assert got == [float, int, int, bool, complex, int]
    assert d.scalar_type_of(jnp.ones(2, jnp.bfloat16)) is float
    with pytest.raises(ValueError, match="dtype cannot be None"):
        d.itemsize_bits(None)
    with pytest.raises(ValueError):
        d.itemsize_bits(jax.random.key(0).dtype)
