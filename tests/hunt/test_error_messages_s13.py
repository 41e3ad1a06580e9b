"""Error types and first lines as JAX 0.10.2's (session 13), from a sweep of common user
mistakes run in both engines. jaxlite named tracers ``Traced<float32[]>with<StagingTrace>``
(JAX: ``JitTracer(~float32[])``, ``VmapTracer(...)``, ``GradTracer(...)``,
``JVPTracer(...)``), worded the leaked-tracer error, a non-array argument to ``jit`` and a
``tree_map`` structure mismatch its own way, and accepted some bad inputs silently. Each test
asserts JAX's behaviour and passes in oracle mode (``JAXLITE_ORACLE=jax``); jaxlite's extra
advice may follow on later lines."""

import functools
import re

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import errors, lax


def _raises(exc, first_line):
    return pytest.raises(exc, match="^" + re.escape(first_line))


def _first_line(excinfo):
    return str(excinfo.value).split("\n")[0]


# ------------------------------------------------------------------------ tracer reprs
def _seen(transform, fun, *args):
    got = []

    def record(x):
        got.append(repr(x))
        return fun(x)

    transform(record)(*args)
    return got[0]


@pytest.mark.parametrize(
    "transform, fun, arg, text",
    [
        (jax.jit, lambda x: x, 1.0, "JitTracer(~float32[])"),
        (jax.jit, lambda x: x, np.ones((2, 3), np.float32), "JitTracer(float32[2,3])"),
        (
            jax.vmap,
            lambda x: x,
            np.ones(3, np.float32),
            "VmapTracer(aval=float32[], batched=float32[3])",
        ),
        (jax.grad, lambda x: x, 1.0, "GradTracer(primal=1.0, typeof(tangent)=f32[])"),
        (
            lambda f: jax.grad(lambda x: f(x).sum()),
            lambda x: x,
            np.ones(2, np.float16),
            "GradTracer(primal=[1. 1.], typeof(tangent)=f16[2])",
        ),
        (
            lambda f: lambda x: jax.jvp(f, (x,), (x,)),
            lambda x: x,
            1.0,
            "JVPTracer(primal=1.0, tangent=1.0)",
        ),
        (
            lambda f: jax.jit(jax.grad(f)),
            lambda x: x,
            1.0,
            "GradTracer(primal=JitTracer(~float32[]), typeof(tangent)=f32[])",
        ),
    ],
)
def test_tracer_repr(transform, fun, arg, text):
    assert _seen(transform, fun, arg) == text


def test_nested_vmap_tracer_repr():
    got = []
    jax.vmap(jax.vmap(lambda x: got.append(repr(x)) or x))(jnp.ones((2, 3)))
    assert got == ["VmapTracer(aval=float32[], batched=float32[3])"]


def test_shaped_array_repr_uses_long_dtype_names():
    assert repr(jax.core.ShapedArray((2,), jnp.float32)) == "ShapedArray(float32[2])"
    with _raises(
        TypeError,
        "cond_fun must return a boolean scalar, but got output type(s) "
        "[ShapedArray(float32[], weak_type=True)].",
    ):
        lax.while_loop(lambda c: c, lambda c: c + 1.0, 0.0)


@pytest.mark.parametrize(
    "fun, shown",
    [
        (lambda x, n: jnp.zeros(x.shape[0] * n), "(JitTracer(~int32[]),)"),
        (lambda x, n: jnp.ones((n,)), "(JitTracer(~int32[]),)"),
        (lambda x, n: jnp.full((n, 2), 1.0), "(JitTracer(~int32[]), 2)"),
        (lambda x, n: x.reshape(n, -1), "(JitTracer(~int32[]), -1)"),
        (lambda x, n: jnp.broadcast_to(x[:1], (n,)), "(JitTracer(~int32[]),)"),
    ],
)
def test_traced_shape(fun, shown):
    with _raises(
        TypeError,
        f"Shapes must be 1D sequences of concrete values of integer type, got {shown}.",
    ):
        jax.jit(fun)(jnp.ones(6), 2)


# ---------------------------------------------------------------------- leaked tracers
@pytest.mark.parametrize(
    "transform, arg, shape, cls",
    [
        (jax.jit, 1.0, "float32[]", "DynamicJaxprTracer"),
        (jax.vmap, np.ones((2, 3), np.float32), "float32[3]", "BatchTracer"),
        (jax.grad, 1.0, "float32[]", "LinearizeTracer"),
        (lambda f: lambda x: jax.jvp(f, (x,), (x,)), 1.0, "float32[]", "JVPTracer"),
        (
            lambda f: lambda x: lax.scan(lambda c, _: (f(c), None), x, length=2),
            1.0,
            "float32[]",
            "DynamicJaxprTracer",
        ),
    ],
)
@pytest.mark.parametrize("use", ["add", "sin", "jit"])
def test_leaked_tracer_error(transform, arg, shape, cls, use):
    store = []

    def f(x):
        store.append(x)
        return x

    transform(f)(arg)
    leaked = store[0]
    use_it = {
        "add": lambda: leaked + 1,
        "sin": lambda: jnp.sin(leaked),
        "jit": lambda: jax.jit(lambda y: y + leaked)(1.0),
    }[use]
    with pytest.raises(errors.UnexpectedTracerError) as info:
        use_it()
    assert isinstance(info.value, TypeError)
    assert _first_line(info) == (
        "Encountered an unexpected tracer. A function transformed by JAX had a side effect, "
        f"allowing for a reference to an intermediate value with type {shape} wrapped in a "
        f"{cls} to escape the scope of the transformation."
    )
    assert str(info.value).split("\n")[1] == (
        "JAX transformations require that functions explicitly return their outputs, and "
        "disallow saving intermediate values to global state."
    )


# -------------------------------------------------------------- non-array arguments
def _va(*args):
    return args


def _kw(x, **kws):
    return x


def _dflt(x, y=1.0):
    return x


class _C:
    def m(self, x):
        return x


_lam = lambda x: x  # noqa: E731


@pytest.mark.parametrize(
    "fun, args, kwargs, typ, path",
    [
        (_lam, ("abc",), {}, str, "x"),
        (_lam, (object(),), {}, object, "x"),
        (_lam, (np.array(["a"]),), {}, np.ndarray, "x"),
        (_lam, ([1.0, {"k": (None, "s")}],), {}, str, "x[1]['k'][1]"),
        (_va, (1.0, ("a",)), {}, str, "args[1][0]"),
        (_kw, (1.0,), {"z": "a"}, str, "kws['z']"),
        (_dflt, (1.0, "a"), {}, str, "y"),
        (_dflt, (1.0,), {"y": "a"}, str, "y"),
        (functools.partial(_dflt, y=2.0), ("a",), {}, str, "x"),
        (_C().m, ("a",), {}, str, "x"),
    ],
)
@pytest.mark.parametrize("entry", ["jit", "make_jaxpr", "eval_shape", "jit_trace"])
def test_non_array_argument(fun, args, kwargs, typ, path, entry):
    call = {
        "jit": lambda: jax.jit(fun)(*args, **kwargs),
        "make_jaxpr": lambda: jax.make_jaxpr(fun)(*args, **kwargs),
        "eval_shape": lambda: jax.eval_shape(fun, *args, **kwargs),
        "jit_trace": lambda: jax.jit(fun).trace(*args, **kwargs),
    }[entry]
    with _raises(
        TypeError,
        f"Error interpreting argument to {fun!r} as an abstract array. The problematic value "
        f"is of type {typ} and was passed to the function at path {path}.",
    ):
        call()


def test_non_array_argument_skips_static_arguments():
    f = jax.jit(lambda s, y: y, static_argnums=0)
    with _raises(TypeError, "Error interpreting argument to"):
        f("static", "a")
    assert f("static is fine", 2.0) == 2.0


def test_shape_dtype_struct_argument_to_jit():
    with _raises(TypeError, "Argument 'x' of shape float32[2] of type"):
        jax.jit(_lam)(jax.ShapeDtypeStruct((2,), jnp.float32))


@pytest.mark.parametrize(
    "call",
    [
        lambda: jax.vmap(_lam)("a"),
        lambda: jax.jvp(_lam, ("a",), ("a",)),
        lambda: jax.checkpoint(_dflt)(1.0, "a"),
        lambda: lax.stop_gradient("a"),
    ],
)
def test_non_array_argument_other_transformations(call):
    with _raises(TypeError, "Argument 'a' of type <class 'str'> is not a valid JAX type"):
        call()


# --------------------------------------------------------------------- tree_map structure
_DIFFERENT_TYPES = "pytree structure error: different types at key path"


@pytest.mark.parametrize(
    "a, b, first, where",
    [
        ((1, 2), [1, 2], _DIFFERENT_TYPES, ""),
        ({"x": [1, (2, 3)]}, {"x": [1, 2]}, _DIFFERENT_TYPES, "['x'][1]"),
        ([1, None], [1, 2], _DIFFERENT_TYPES, "[1]"),
        (
            (1, 2),
            (1, 2, 3),
            "pytree structure error: different lengths of tuple at key path",
            "",
        ),
        (
            {"x": [1, (2, 3)]},
            {"x": [1, (2, 3, 4)]},
            "pytree structure error: different lengths of tuple at key path",
            "['x'][1]",
        ),
        ([1], [1, 2], "pytree structure error: different lengths of list at key path", ""),
        ({"a": 1}, {"b": 1}, "pytree structure error: different pytree metadata at key path", ""),
        (
            {"a": 1, "b": 2},
            {"a": 1},
            "pytree structure error: different numbers of pytree children at key path",
            "",
        ),
    ],
)
def test_tree_map_structure_mismatch(a, b, first, where):
    with pytest.raises(ValueError) as info:
        jax.tree_util.tree_map(lambda u, v: u, a, b)
    lines = str(info.value).split("\n")
    assert lines[0] == first
    assert lines[1] == "    tree_map tree" + where
    with pytest.raises(ValueError) as info:
        jax.tree_util.tree_map_with_path(lambda p, u, v: u, a, b)
    assert str(info.value).split("\n")[:2] == [first, "    tree_map_with_path tree" + where]


def test_tree_map_prefix_still_works():
    # a leaf (or None) of the first tree matches any subtree of the others
    assert jax.tree_util.tree_map(lambda u, v: v, [1, 2], [1, None]) == [1, None]
    assert jax.tree_util.tree_map(lambda u, v: v, [1, 2], [(3, 4), {"a": 5}]) == [
        (3, 4),
        {"a": 5},
    ]


# -------------------------------------------- bad input that jaxlite accepted silently
@pytest.mark.parametrize(
    "call, exc, first",
    [
        # a short permutation returned the operand unchanged
        (
            lambda: jnp.transpose(jnp.ones((2, 3)), (0,)),
            TypeError,
            "transpose permutation isn't a permutation of operand dimensions, got permutation "
            "(0,) for operand shape (2, 3).",
        ),
        (
            lambda: lax.transpose(jnp.ones((2, 3)), (0,)),
            TypeError,
            "transpose permutation isn't a permutation of operand dimensions, got permutation "
            "(0,) for operand shape (2, 3).",
        ),
        # an out-of-range dimension wrapped around
        (
            lambda: lax.sort(jnp.ones(3), dimension=1),
            ValueError,
            "axis 1 is out of bounds for array of dimension 1",
        ),
        (
            lambda: lax.sort(jnp.ones(()), dimension=0),
            ValueError,
            "axis 0 is out of bounds for array of dimension 0",
        ),
        (
            lambda: lax.expand_dims(jnp.ones(3), (3,)),
            ValueError,
            "axis 3 is out of bounds for array of dimension 2",
        ),
        (
            lambda: lax.rev(jnp.ones(3), (1,)),
            TypeError,
            "rev dimensions must all be less than operand ndim, got dimensions (1,) for "
            "operand ndim 1.",
        ),
        (
            lambda: lax.rev(jnp.ones(3), (-1,)),
            TypeError,
            "rev dimensions must have every element be nonnegative, got (-1,).",
        ),
        # a float size or split index was truncated
        (
            lambda: lax.iota(jnp.int32, 2.5),
            TypeError,
            "Shapes must be 1D sequences of concrete values of integer type, got (2.5,).",
        ),
        (
            lambda: lax.iota(jnp.int32, -1),
            TypeError,
            "iota shape must have every element be nonnegative, got (-1,).",
        ),
        (
            lambda: jnp.split(jnp.ones(5), [1.5]),
            TypeError,
            "'float' object cannot be interpreted as an integer",
        ),
        (
            lambda: jnp.split(jnp.ones(4), jnp.array([1.0])),
            TypeError,
            "Only integer scalar arrays can be converted to a scalar index.",
        ),
        # a list of tangents for a tuple of primals was accepted
        (
            lambda: jax.jvp(lambda x: x, (1.0,), [1.0]),
            TypeError,
            "primal and tangent arguments to jax.jvp must have the same tree structure; "
            "primals have tree structure PyTreeDef((*,)) whereas tangents have tree "
            "structure PyTreeDef([*]).",
        ),
    ],
)
def test_bad_input_raises(call, exc, first):
    with _raises(exc, first):
        call()


def test_integer_pow_fractional_exponent_raises():
    # JAX's message is an accident of its implementation ('unsupported operand type(s) for
    # &'); the type is the same
    with pytest.raises(TypeError):
        lax.integer_pow(jnp.ones(3), 1.5)
    np.testing.assert_array_equal(lax.integer_pow(jnp.full(3, 3.0), 2.0), [9.0, 9.0, 9.0])


@pytest.mark.parametrize(
    "sections, sizes",
    [
        (3.0, [2, 2, 2]),  # a scalar is a number of sections, also a float (JAX int()s it)
        (np.int64(2), [3, 3]),
        (np.array(3), [2, 2, 2]),
        ([jnp.int32(1)], [1, 5]),
        (np.array([2, 4]), [2, 2, 2]),
        ((2,), [2, 4]),
    ],
)
def test_split_sections_and_indices(sections, sizes):
    assert [p.shape[0] for p in jnp.split(jnp.arange(6.0), sections)] == sizes


def test_lax_shape_functions_still_accept_valid_axes():
    assert lax.sort(jnp.array([[3.0, 1.0], [0.0, 2.0]]), dimension=-2).tolist() == [
        [0.0, 1.0],
        [3.0, 2.0],
    ]
    assert lax.expand_dims(jnp.ones(3), (-2,)).shape == (1, 3)
    assert lax.iota(jnp.int32, np.int64(2)).tolist() == [0, 1]
    assert lax.rev(jnp.arange(3), (0,)).tolist() == [2, 1, 0]
    assert lax.transpose(jnp.ones((2, 3)), (0, 1)).shape == (2, 3)


def _f2(x, y=1.0):
    return x


@pytest.mark.parametrize(
    "options, first",
    [
        (
            dict(donate_argnums=2),
            "Jitted function has donate_argnums=(2,), but only accepts 2 positional arguments.",
        ),
        (
            dict(donate_argnums=0, static_argnums=0),
            "static_argnames and donate_argnames cannot intersect. Argument names {'x'} appear "
            "in both static_argnames and donate_argnames",
        ),
        (
            dict(donate_argnames="y", static_argnums=1),
            "static_argnames and donate_argnames cannot intersect. Argument names {'y'} appear "
            "in both static_argnames and donate_argnames",
        ),
        (
            dict(donate_argnames="z"),
            "Jitted function has invalid argnames {'z'} in donate_argnames. Function does not "
            "take these args.",
        ),
    ],
)
def test_donate_argnums_checked(options, first):
    with _raises(ValueError, first):
        jax.jit(_f2, **options)(1.0, 2.0)


def test_donation_accepted_where_valid():
    assert jax.jit(_f2, donate_argnums=(0, 1))(1.0, 2.0) == 1.0
    assert jax.jit(lambda *a: a[0], donate_argnums=5)(1.0) == 1.0


# ------------------------------------------------------------- first lines of the sweep
def _returns_str(x):
    return "a"


@pytest.mark.parametrize(
    "call, exc, first",
    [
        (
            lambda: jnp.concatenate([jnp.ones((2, 3)), jnp.ones(3)]),
            TypeError,
            "Cannot concatenate arrays with different numbers of dimensions: got (2, 3), (3,).",
        ),
        (
            lambda: lax.concatenate([jnp.ones(3), jnp.ones((3, 1))], 0),
            TypeError,
            "Cannot concatenate arrays with different numbers of dimensions: got (3,), (3, 1).",
        ),
        (
            lambda: jnp.stack([jnp.ones(2), jnp.ones(3)]),
            ValueError,
            "All input arrays must have the same shape. Got (2,), (3,).",
        ),
        (
            lambda: lax.dynamic_slice(jnp.ones(3), (0,), (5,)),
            TypeError,
            "slice slice_sizes must be less than or equal to operand shape, got slice_sizes "
            "(5,) for operand shape (3,).",
        ),
        (
            lambda: lax.pad(jnp.ones(3), 0, [(0, 0, 0)]),
            TypeError,
            "pad operand and padding_value must be same dtype: got float32 and int32.",
        ),
        (
            lambda: lax.select(jnp.array([True, False]), jnp.ones(3), jnp.ones(3)),
            TypeError,
            "select `which` must be scalar or have the same shape as cases, got `which` shape "
            "(2,) but case shape (3,).",
        ),
        (
            lambda: lax.select(jnp.ones(3), jnp.ones(3), jnp.ones(3)),
            TypeError,
            "select `which` must be boolean or integer type, got float32.",
        ),
        (
            lambda: lax.clamp(jnp.ones(2), jnp.ones(3), jnp.ones(4)),
            TypeError,
            "clamp requires min.shape == operand.shape or min.shape == (), got "
            "min.shape=(2,), operand.shape=(3,).",
        ),
        (
            lambda: lax.reduce(jnp.ones(3), 0.0, lax.add, (2,)),
            ValueError,
            "reduction axes (2,) contains out-of-bounds indices for float32[3].",
        ),
        (
            lambda: lax.cumsum(jnp.ones(3), axis=1),
            ValueError,
            "axis 1 is out of bounds for array of shape (3,)",
        ),
        (
            lambda: lax.argmax(jnp.ones(3), 1, jnp.int32),
            ValueError,
            "Invalid axis 1 for operand shape (3,)",
        ),
        (
            lambda: lax.top_k(jnp.ones(3), 5),
            ValueError,
            "k argument to top_k must be no larger than size along axis; got k=5 with "
            "shape=[3] and axis=0",
        ),
        (
            lambda: jax.jvp(lambda x: x, (1.0,), (jnp.int32(1),)),
            TypeError,
            "primal and tangent arguments to jax.jvp do not match; dtypes must be equal, or in "
            "case of int/bool primal dtype the tangent dtype must be float0.Got primal dtype "
            "float32 and so expected tangent dtype float32, but got tangent dtype int32 "
            "instead.",
        ),
        (
            lambda: jax.jvp(lambda x: x, (jnp.ones(3),), (jnp.ones(2),)),
            ValueError,
            "jvp called with different primal and tangent shapes;Got primal shape (3,) and "
            "tangent shape as (2,)",
        ),
        (
            lambda: jax.jit(lambda n: lax.fori_loop(0, n, lambda i, c: c + 1.0, 0.0))(3.0),
            TypeError,
            "lower and upper arguments to fori_loop must have equal types, got int32 and "
            "float32",
        ),
        (
            lambda: jax.jit(lambda x, y: x, static_argnums=1)(1.0, np.ones(3)),
            ValueError,
            "Non-hashable static arguments are not supported. An error occurred while trying "
            "to hash an object of type <class 'numpy.ndarray'>, [1. 1. 1.]. The error was:",
        ),
        (
            lambda: jnp.array("abc"),
            TypeError,
            "Value 'abc' with dtype <U3 is not a valid JAX array type. Only arrays of numeric "
            "types are supported by JAX.",
        ),
        (
            lambda: jnp.array([1.0, "a"]),
            TypeError,
            "Value 'a' with dtype <U1 is not a valid JAX array type.",
        ),
        (lambda: jnp.asarray(None), ValueError, "None is not a valid value for jnp.array"),
        (lambda: jnp.array([1, None]), ValueError, "None is not a valid value for jnp.array"),
        (
            lambda: jax.jit(lambda x: x[x > 0])(jnp.ones(3)),
            errors.NonConcreteBooleanIndexError,
            "Array boolean indices must be concrete; got bool[3]",
        ),
        (
            lambda: jnp.linalg.inv(jnp.ones((2, 3))),
            ValueError,
            "Argument to inv must have shape [..., n, n], got (2, 3).",
        ),
        (
            lambda: jax.tree_util.tree_unflatten(jax.tree_util.tree_structure((1, 2)), [1]),
            ValueError,
            "Too few leaves for PyTreeDef; expected 2, got 1",
        ),
        (
            lambda: jax.tree_util.tree_unflatten(
                jax.tree_util.tree_structure((1, 2)), [1, 2, 3]
            ),
            ValueError,
            "Too many leaves for PyTreeDef; expected 2.",
        ),
        (
            lambda: jnp.einsum("ij,jk->ik", jnp.ones((2, 3))),
            ValueError,
            "Number of einsum subscripts, 2, must be equal to the number of operands, 1.",
        ),
        (
            lambda: jnp.power(jnp.int32(2), -1),
            TypeError,
            "Integers cannot be raised to negative powers, got integer_pow(int32[], -1)",
        ),
        (
            lambda: float(jnp.ones(3)),
            TypeError,
            "Only scalar arrays can be converted to Python scalars; got arr.ndim=1",
        ),
        (
            lambda: int(jnp.ones((1, 1))),
            TypeError,
            "Only scalar arrays can be converted to Python scalars; got arr.ndim=2",
        ),
        (
            lambda: jnp.ones(3)["a"],
            TypeError,
            "JAX does not support string indexing; got idx='a'",
        ),
        (
            lambda: jnp.ones(3)[None, "a"],
            TypeError,
            "JAX does not support string indexing; got idx='a'",
        ),
        (
            lambda: lax.scan(lambda c, x: c, 0.0, jnp.ones(3)),
            TypeError,
            "scan body output must be a pair, got ~float32[].",
        ),
        (
            lambda: lax.scan(lambda c, x: (c, x, x), 0.0, jnp.ones(3)),
            TypeError,
            "scan body output must be a pair, got (ShapedArray(float32[], weak_type=True), "
            "ShapedArray(float32[]), ShapedArray(float32[])).",
        ),
        (
            lambda: jax.grad(_returns_str)(1.0),
            TypeError,
            "Argument 'a' of type <class 'str'> is not a valid JAX type",
        ),
    ],
)
def test_sweep_first_lines(call, exc, first):
    with _raises(exc, first):
        call()


@pytest.mark.parametrize(
    "call, what",
    [
        (lambda: jax.jit(_returns_str)(1.0), "jit"),
        (lambda: jax.make_jaxpr(_returns_str)(1.0), "jit"),
        (lambda: jax.eval_shape(_returns_str, 1.0), "jit"),
        (lambda: jax.checkpoint(_returns_str)(1.0), "checkpoint / remat"),
    ],
)
def test_non_array_output(call, what):
    code = _returns_str.__code__
    with _raises(
        TypeError,
        f"function _returns_str at {code.co_filename}:{code.co_firstlineno} traced for {what} "
        "returned a value of type <class 'str'>, which is not a valid JAX type",
    ):
        call()


def test_scan_body_may_return_a_list_pair():
    carry, ys = lax.scan(lambda c, x: [c + x, x * 2.0], 0.0, jnp.arange(3.0))
    assert float(carry) == 3.0
    np.testing.assert_array_equal(np.asarray(ys), [0.0, 2.0, 4.0])


def test_custom_vjp_rule_structure_messages():
    @jax.custom_vjp
    def f(x, y):
        return x * y

    f.defvjp(lambda x, y: (x * y, (x, y)), lambda r, g: (g,))
    with pytest.raises(TypeError) as info:
        jax.grad(f)(1.0, 2.0)
    assert "but got bwd output structure PyTreeDef((*,)) for primal input structure" in str(
        info.value
    )

    @jax.custom_vjp
    def g(x):
        return x

    g.defvjp(lambda x: x, lambda r, ct: (ct,))
    with _raises(
        TypeError,
        "Custom VJP fwd rule <lambda> for function g must produce a pair (list or tuple of "
        "length two) where the first element represents the primal output (equal to those of "
        "the custom_vjp-decorated function g)",
    ):
        jax.grad(g)(1.0)


# Session 14: the value jnp.nonzero (and one-argument where, argwhere) needs concrete under
# jit is the count of nonzero entries, a traced int32[], whatever the operand's shape.
@pytest.mark.parametrize(
    "fun",
    [jnp.nonzero, jnp.argwhere, jnp.where, jnp.flatnonzero],
    ids=["nonzero", "argwhere", "where", "flatnonzero"],
)
@pytest.mark.parametrize("shape", [(3,), (2, 3)])
def test_nonzero_under_jit_names_the_traced_count(fun, shape):
    x = jnp.ones(shape, jnp.int32)
    with _raises(
        errors.ConcretizationTypeError,
        "Abstract tracer value encountered where concrete value is expected: "
        "traced array with shape int32[]",
    ):
        jax.jit(fun)(x)
