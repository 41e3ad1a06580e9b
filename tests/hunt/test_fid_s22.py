"""Session 22 fidelity fixes, each checked against JAX 0.10.2. Each case asserts JAX's
answer as a known value (so it means something without JAX, and the file passes in oracle
mode, ``JAXLITE_ORACLE=jax``) and, where JAX is importable, compares the whole result with
it through tests/hunt/oracle.py: raised exception class, or structure, shapes, dtypes, weak
types, values and signs of zeros."""

from __future__ import annotations

import numpy as np
import pytest

from tests.hunt.oracle import LITE as _LITE, same

_ARRAY = "The numpy.ndarray conversion method __array__() was called on traced array"
_CONC = "Abstract tracer value encountered where concrete value is expected"


# ------------------------------------------ arrays made while staging, beyond creation
# Session 21 made the creation functions' arrays tracers while a jaxpr is staged. The
# other ways an array is made from host data (NumPy arrays and scalars, Python scalars)
# or a new array from a concrete one stayed concrete in jaxlite, where JAX's are tracers:
# lax.convert_element_type / astype / device_put / lax.broadcast(_in_dim) of host data,
# device_put and optimization_barrier of any array, a conversion to another dtype, and
# every jax.numpy function that is jitted in JAX and so returns a new array even where it
# changes nothing (ravel of a 1-d array, real of a real one, x.copy(), +x, jnp.asarray(x,
# copy=True)). A function that hands an Array back unchanged in JAX (convert_element_type
# to its own dtype, reshape to its own shape, transpose by the identity, concatenate of
# one array, broadcast_to its own shape) keeps a concrete one concrete, but converts host
# data to a tracer first. Each case under jit hands the result to np.asarray: a tracer
# raises TracerArrayConversionError, a concrete array computes.


def _staged(make):
    def build(m):
        c = m.jnp.arange(3, dtype=m.jnp.int32)  # made outside the traced function
        return m.jx.jit(lambda: np.asarray(make(m, c)).sum())()

    return build


_A = np.arange(3, dtype=np.int32)
_A2 = np.ones((2, 3), np.float32)

_TRACERS = {
    # lax.convert_element_type and astype
    "convert_numpy_scalar": lambda m, c: m.lax.convert_element_type(np.int32(3), np.int32),
    "convert_numpy_array": lambda m, c: m.lax.convert_element_type(_A, np.float32),
    "convert_python_int": lambda m, c: m.lax.convert_element_type(3, np.int32),
    "convert_python_float": lambda m, c: m.lax.convert_element_type(3.0, np.float32),
    "convert_closed_over_other_dtype": lambda m, c: m.lax.convert_element_type(c, np.float32),
    "astype_numpy_same_dtype": lambda m, c: m.jnp.astype(_A, np.int32),
    "astype_closed_over_other_dtype": lambda m, c: c.astype(np.float32),
    "astype_copy": lambda m, c: m.jnp.astype(c, np.int32, copy=True),
    # device_put: a primitive in JAX, whatever it is given
    "device_put_numpy": lambda m, c: m.jx.device_put(_A),
    "device_put_python_int": lambda m, c: m.jx.device_put(3),
    "device_put_closed_over": lambda m, c: m.jx.device_put(c),
    "device_put_to_device": lambda m, c: m.jx.device_put(c, m.jx.devices()[0]),
    # lax no-ops on host data
    "lax_broadcast_numpy": lambda m, c: m.lax.broadcast(np.int32(3), ()),
    "lax_broadcast_python": lambda m, c: m.lax.broadcast(3, ()),
    "lax_broadcast_in_dim_numpy": lambda m, c: m.lax.broadcast_in_dim(np.int32(3), (), ()),
    "lax_broadcast_in_dim_same_shape": lambda m, c: m.lax.broadcast_in_dim(c, (3,), (0,)),
    "lax_squeeze_numpy": lambda m, c: m.lax.squeeze(_A, ()),
    "lax_concatenate_one_numpy": lambda m, c: m.lax.concatenate([_A], 0),
    "optimization_barrier": lambda m, c: m.lax.optimization_barrier(c),
    # jax.numpy functions that change nothing: a new array (jitted in JAX)
    "asarray_copy": lambda m, c: m.jnp.asarray(c, copy=True),
    "ravel": lambda m, c: m.jnp.ravel(c),
    "flatten": lambda m, c: c.flatten(),
    "squeeze": lambda m, c: m.jnp.squeeze(c),
    "lax_expand_dims_none": lambda m, c: m.lax.expand_dims(c, ()),
    "atleast_1d": lambda m, c: m.jnp.atleast_1d(c),
    "real": lambda m, c: m.jnp.real(c),
    "real_property": lambda m, c: c.real,
    "conj": lambda m, c: m.jnp.conj(c),
    "copy_method": lambda m, c: c.copy(),
    "positive_operator": lambda m, c: +c,
    "round_integer": lambda m, c: m.jnp.round(c),
    "clip_no_bounds": lambda m, c: m.jnp.clip(c),
    "flip_no_axes": lambda m, c: m.jnp.flip(c, ()),
    "moveaxis_same": lambda m, c: m.jnp.moveaxis(c, 0, 0),
    "hstack_one": lambda m, c: m.jnp.hstack([c]),
    # jax.numpy functions given host data that they hand back unchanged
    "transpose_numpy": lambda m, c: m.jnp.transpose(_A),
    "permute_dims_numpy": lambda m, c: m.jnp.permute_dims(_A2, (0, 1)),
    "broadcast_to_numpy": lambda m, c: m.jnp.broadcast_to(_A, (3,)),
    "concatenate_one_numpy": lambda m, c: m.jnp.concatenate([_A]),
    "column_stack_one_numpy": lambda m, c: m.jnp.column_stack([_A2]),
}

_CONCRETE = {
    # an Array handed back unchanged stays concrete, as in JAX
    "convert_closed_over_same_dtype": lambda m, c: m.lax.convert_element_type(c, np.int32),
    "astype_same_dtype": lambda m, c: c.astype(np.int32),
    "asarray_closed_over": lambda m, c: m.jnp.asarray(c, dtype=np.int32),
    "lax_broadcast_nothing": lambda m, c: m.lax.broadcast(c, ()),
    "lax_reshape_same": lambda m, c: m.lax.reshape(c, (3,)),
    "lax_squeeze_nothing": lambda m, c: m.lax.squeeze(c, ()),
    "lax_concatenate_one": lambda m, c: m.lax.concatenate([c], 0),
    "transpose_1d": lambda m, c: m.jnp.transpose(c),
    "concatenate_one": lambda m, c: m.jnp.concatenate([c]),
    "broadcast_to_same": lambda m, c: m.jnp.broadcast_to(c, (3,)),
    "full_slice": lambda m, c: c[:],
    # jnp.reshape of NumPy data stays NumPy in JAX
    "jnp_reshape_numpy": lambda m, c: m.jnp.reshape(_A, (3,)),
}


@pytest.mark.parametrize("name", sorted(_TRACERS))
def test_array_made_while_staging_is_a_tracer(name):
    err = same(_staged(_TRACERS[name]))
    assert type(err).__name__ == "TracerArrayConversionError", err
    assert str(err).startswith(_ARRAY), err


@pytest.mark.parametrize("name", sorted(_CONCRETE))
def test_array_handed_back_while_staging_stays_concrete(name):
    out = same(_staged(_CONCRETE[name]))
    assert not isinstance(out, Exception), out
    assert int(out) == 3


_INT_RAISES = {
    # int() of a converted constant: JAX's ConcretizationTypeError, in every staging trace
    "jit": lambda m: m.jx.jit(lambda: int(m.lax.convert_element_type(3.0, np.int32)))(),
    "make_jaxpr": lambda m: m.jx.make_jaxpr(
        lambda x: x * int(m.lax.convert_element_type(np.float32(2), np.int32))
    )(1.0),
    "fori_body": lambda m: m.lax.fori_loop(
        0, 2, lambda i, x: x * int(m.jx.device_put(np.int32(2))), 1.0
    ),
    "grad_in_jit": lambda m: m.jx.jit(
        m.jx.grad(lambda x: x * int(m.jnp.astype(np.float32(2), np.int32)))
    )(1.0),
    # 'raise' mode needs concrete indices: NumPy ones are traced too
    "ravel_multi_index": lambda m: m.jx.jit(
        lambda: m.jnp.ravel_multi_index((np.array([1, 2]),), (3,))
    )(),
}


@pytest.mark.parametrize("name", sorted(_INT_RAISES))
def test_converted_constant_is_not_concrete_while_staging(name):
    err = same(_INT_RAISES[name])
    assert type(err).__name__ == "ConcretizationTypeError", err
    assert str(err).startswith(_CONC), err


_INT_COMPUTES = {
    # eagerly, under grad / vmap alone, or inside ensure_compile_time_eval: concrete
    "eager": lambda m: m.jnp.ones(int(m.lax.convert_element_type(3.0, np.int32))),
    "grad": lambda m: m.jx.grad(lambda x: x * int(m.lax.convert_element_type(3, np.int32)))(1.0),
    "vmap": lambda m: m.jx.vmap(lambda x: x * int(m.jx.device_put(np.int32(3))))(m.jnp.ones(2)),
    "compile_time_eval": lambda m: m.jx.jit(lambda: _compile_time(m))(),
}


def _compile_time(m):
    with m.jx.ensure_compile_time_eval():
        n = int(m.lax.convert_element_type(np.float32(3), np.int32))
    return m.jnp.ones(n)


@pytest.mark.parametrize("name", sorted(_INT_COMPUTES))
def test_converted_constant_is_concrete_outside_staging(name):
    out = same(_INT_COMPUTES[name])
    assert not isinstance(out, Exception), out
    assert np.asarray(out).sum() in (3, 6)


def test_no_op_conversions_return_arrays_like_jax():
    # eagerly: lax functions of NumPy data return Arrays (jaxlite returned the NumPy array
    # or Python float itself); a copy is a new object
    import jaxlite
    import jaxlite.numpy as jnp

    for out in (jaxlite.lax.squeeze(_A, ()), jaxlite.lax.concatenate([_A], 0)):
        assert isinstance(out, jaxlite.Array)
        np.testing.assert_array_equal(np.asarray(out), _A)
    c = jnp.arange(3)
    assert jnp.asarray(c, copy=True) is not c
    assert jnp.astype(c, c.dtype, copy=True) is not c
    assert c.real is not c
    assert jnp.asarray(c) is c and c.astype(c.dtype) is c
    err = same(lambda m: m.lax.concatenate([3.0], 0))  # a scalar is refused, as in JAX
    assert isinstance(err, TypeError) and "concatenate dimension out of bounds" in str(err)


def test_converted_constants_stay_literals_in_jaxprs():
    # the staged constant is the literal or constvar the conversion gave before
    import jaxlite
    import jaxlite.numpy as jnp

    text = str(jaxlite.make_jaxpr(lambda x: jnp.sin(x) * 2.0)(jnp.ones(3)))
    assert text == "{ lambda ; a:f32[3]. let b:f32[3] = sin a; c:f32[3] = mul b 2.0:f32[] in (c,) }"
    text = str(
        jaxlite.make_jaxpr(lambda x: x + jaxlite.lax.convert_element_type(2, np.float32))(
            np.float32(1)
        )
    )
    assert text == "{ lambda ; a:f32[]. let b:f32[] = add a 2.0:f32[] in (b,) }"


# ----------------------------------------------- first lines of tracer conversion errors
# A tracer converted to a Python scalar or index is checked as a concrete array is, before
# its value is asked for: int/float/complex of an array of rank > 0 raise JAX's
# "Only scalar arrays can be converted to Python scalars; got arr.ndim=N" TypeError, and
# __index__ of anything but an integer scalar "Only integer scalar arrays can be converted
# to a scalar index." (jaxlite raised ConcretizationTypeError / TracerIntegerConversionError,
# and under grad / jvp indexed a list with a float tracer of known value). hash() and a
# format specification name JAX's tracer classes; a weakly typed VmapTracer shows "~".

_CONVERSIONS = {
    "int_of_vector": (lambda x: int(x), "vec", "Only scalar arrays can be converted to Python"),
    "float_of_matrix": (lambda x: float(x), "mat", "Only scalar arrays can be converted"),
    "complex_of_vector": (lambda x: complex(x), "vec", "Only scalar arrays can be converted"),
    "index_of_float": (lambda x: [1, 2, 3][x], "f32", "Only integer scalar arrays"),
    "index_of_bool": (lambda x: [1, 2, 3][x], "bool", "Only integer scalar arrays"),
    "index_of_int_vector": (lambda x: [1, 2, 3][x], "ivec", "Only integer scalar arrays"),
    "range_of_float": (lambda x: range(x), "f32", "Only integer scalar arrays"),
    "hash": (lambda x: hash(x), "f32", "unhashable type: '"),
    "format_spec": (lambda x: f"{x:.2f}", "f32", "unsupported format string passed to "),
}
_VALUES = {
    "vec": np.ones(3, np.float32),
    "mat": np.ones((1, 1), np.float32),
    "f32": np.float32(2),
    "bool": np.bool_(True),
    "ivec": np.arange(2, dtype=np.int32),
}
_TRANSFORMS = {
    "jit": lambda m, f, x: m.jx.jit(f)(x),
    "vmap": lambda m, f, x: m.jx.vmap(f)(m.jnp.stack([x, x])),
    "grad": lambda m, f, x: m.jx.grad(lambda y: (f(y), m.jnp.sum(y * 1.0))[1])(x),
    "jvp": lambda m, f, x: m.jx.jvp(lambda y: (f(y), y * 1.0)[1], (x,), (x,)),
    "scan": lambda m, f, x: m.lax.scan(lambda c, _: ((f(c), c)[1], None), x, None, length=1),
}


_CASES = [  # differentiated inputs are floats
    (name, transform)
    for name in sorted(_CONVERSIONS)
    for transform in sorted(_TRANSFORMS)
    if transform not in ("grad", "jvp") or _VALUES[_CONVERSIONS[name][1]].dtype.kind == "f"
]


@pytest.mark.parametrize("name,transform", _CASES)
def test_tracer_conversion_errors_first_lines_like_jax(name, transform):
    conv, value, first = _CONVERSIONS[name]
    err = same(lambda m: _TRANSFORMS[transform](m, conv, m.jnp.asarray(_VALUES[value])))
    assert type(err) is TypeError, err
    assert str(err).startswith(first), err


def test_tracer_class_names_and_weak_vmap_tracer_like_jax():
    for transform, cls in (("jit", "DynamicJaxprTracer"), ("grad", "LinearizeTracer")):
        err = same(lambda m: _TRANSFORMS[transform](m, hash, m.jnp.float32(2)))
        assert str(err) == f"unhashable type: '{cls}'", err
    err = same(lambda m: m.jx.vmap(lambda x: m.jnp.zeros(x))(m.jnp.asarray([2.0, 3.0]) * 1.0))
    assert "VmapTracer(aval=float32[], batched=float32[2])" in str(err), err
    err = same(lambda m: m.jx.vmap(lambda x: m.jnp.zeros(x))(m.jnp.stack([2.0, 3.0])))
    assert "VmapTracer(aval=~float32[], batched=~float32[2])" in str(err), err


# ------------------------------------------- arrays in a custom pytree node's aux data
# JAX compares structures with an error of its own where a node's metadata cannot be
# compared (arrays: their == has no truth value; tracers of a finished trace): the second
# jit call with such an argument (its trace cache compares the structures), cond/switch
# branch outputs, scan/while_loop carries. jaxlite raised NumPy's ValueError there, and an
# UnexpectedTracerError (a TypeError) for cond branches returning arrays made inside them.


def _node(m):
    class Node:
        def __init__(self, x, aux):
            self.x, self.aux = x, aux

    m.jx.tree_util.register_pytree_node(
        Node, lambda n: ((n.x,), n.aux), lambda aux, ch: Node(ch[0], aux)
    )
    return Node


def _jit_twice(m, make_aux):
    node, f = _node(m), m.jx.jit(lambda n: n.x)
    return [f(node(1.0, make_aux())) for _ in range(2)]


_METADATA = {
    "jit_second_call_numpy": lambda m: _jit_twice(m, lambda: np.ones(2)),
    "jit_second_call_array": lambda m: _jit_twice(m, lambda: m.jnp.ones(2)),
    "jit_second_call_tuple": lambda m: _jit_twice(m, lambda: (1, np.ones(2))),
    "cond_branches": lambda m: (
        lambda n: m.lax.cond(True, lambda: n(1.0, m.jnp.ones(2)), lambda: n(1.0, m.jnp.ones(2)))
    )(_node(m)),
    "cond_branches_numpy": lambda m: (
        lambda n: m.lax.cond(True, lambda: n(1.0, np.ones(2)), lambda: n(1.0, np.ones(2)))
    )(_node(m)),
    "scan_carry": lambda m: (
        lambda n: m.lax.scan(
            lambda c, _: (n(c.x, np.ones(2)), None), n(1.0, np.ones(2)), None, length=1
        )
    )(_node(m)),
    "while_carry": lambda m: (
        lambda n: m.lax.while_loop(
            lambda c: False, lambda c: n(c.x, np.ones(2)), n(1.0, np.ones(2))
        )
    )(_node(m)),
}


@pytest.mark.parametrize("name", sorted(_METADATA))
def test_array_metadata_comparison_raises_jax_error(name):
    err = same(_METADATA[name])
    assert type(err) is ValueError, err
    assert str(err).startswith("Exception raised while checking equality of metadata fields"), err


_METADATA_OK = {
    # the same object compares equal by identity; one call compares nothing; a 0-d or
    # one-element array has a truth value
    "same_aux_object": lambda m: (lambda a: _jit_twice(m, lambda: a))(np.ones(2)),
    "one_call": lambda m: m.jx.jit(lambda n: n.x)(_node(m)(1.0, np.ones(2))),
    "scalar_aux": lambda m: _jit_twice(m, lambda: np.float32(1)),
    "one_element_aux": lambda m: _jit_twice(m, lambda: np.ones(1)),
    "returned_twice": lambda m: (lambda f: [f(1.0), f(1.0)])(
        (lambda n: m.jx.jit(lambda x: n(x, m.jnp.ones(2))))(_node(m))
    ),
}


@pytest.mark.parametrize("name", sorted(_METADATA_OK))
def test_array_metadata_that_jax_accepts(name):
    out = same(_METADATA_OK[name])
    assert not isinstance(out, Exception), out


# ------------------------------------------- JVP rules that decide with their tangents
# A custom_jvp rule whose tangent output branches on (lax.cond / switch), selects by
# (jnp.where, lax.select) or indexes with (dynamic_slice, x[i]) its input tangents is not
# linear in them: forward mode runs, reverse mode cannot transpose it. JAX fails an
# assertion in the transpose (an AssertionError without a message); jaxlite failed the
# same assertion for cond and select_n, and a TypeError ("int() argument must be ... not
# 'UndefinedPrimal'") for the indices of dynamic_slice and gather. Now an AssertionError
# that says why, for all of them (core.rule_types.check_not_linear).


def _tangent_rule(m, body):
    @m.jx.custom_jvp
    def f(x):
        return m.jnp.sin(x)

    @f.defjvp
    def f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return m.jnp.sin(x), body(m, x, t)

    return f


_TANGENT_DECIDES = {
    "cond": lambda m, x, t: m.lax.cond(t > 0, lambda a: a * m.jnp.cos(x), lambda a: 2.0 * a, t),
    "switch": lambda m, x, t: m.lax.switch(m.jnp.int32(t > 0), [lambda a: 2.0 * a, lambda a: a], t),
    "where": lambda m, x, t: m.jnp.where(t > 0, t * m.jnp.cos(x), 2.0 * t),
    "select": lambda m, x, t: m.lax.select(t > 0, t, 2.0 * t),
    "dynamic_slice": lambda m, x, t: m.lax.dynamic_slice(
        m.jnp.stack([2 * t, t]), (m.jnp.int32(t > 0),), (1,)
    )[0],
    "index": lambda m, x, t: m.jnp.stack([2 * t, t])[m.jnp.int32(t > 0)],
}
_DIFF = {
    "grad": lambda m, f: m.jx.grad(f)(0.5),
    "jit_grad": lambda m, f: m.jx.jit(m.jx.grad(f))(0.5),
    "vjp": lambda m, f: m.jx.vjp(f, 0.5)[1](1.0),
}


@pytest.mark.parametrize("how", sorted(_DIFF))
@pytest.mark.parametrize("name", sorted(_TANGENT_DECIDES))
def test_jvp_rule_deciding_with_tangents_is_not_transposable(name, how):
    err = same(lambda m: _DIFF[how](m, _tangent_rule(m, _TANGENT_DECIDES[name])))
    assert isinstance(err, AssertionError), err
    # forward mode computes: the tangent output of t = -1 takes the second branch
    out = same(lambda m: m.jx.jvp(_tangent_rule(m, _TANGENT_DECIDES[name]), (0.5,), (-1.0,)))
    assert float(out[1]) == -2.0


@pytest.mark.jaxlite_only
def test_jvp_rule_deciding_with_tangents_error_says_why():
    import jaxlite

    with pytest.raises(AssertionError, match="cannot transpose cond: the values being diff"):
        _DIFF["grad"](_LITE, _tangent_rule(_LITE, _TANGENT_DECIDES["cond"]))
    with pytest.raises(AssertionError, match="transpose dynamic_slice: the values being diff"):
        jaxlite.grad(_tangent_rule(_LITE, _TANGENT_DECIDES["dynamic_slice"]))(0.5)


def _rule_on_primals(m):
    @m.jx.custom_jvp
    def f(x, y):
        return m.jnp.sin(x) * y

    @f.defjvp
    def f_jvp(primals, tangents):
        (x, y), (tx, ty) = primals, tangents
        tout = m.lax.cond(x > 0, lambda a: a[0] * m.jnp.cos(a[1]) * y, lambda a: -a[0], (tx, x))
        return f(x, y), tout + m.jnp.sin(x) * ty

    return f


@pytest.mark.parametrize("argnums,want", [(0, 2 * np.cos(0.5)), (1, np.sin(0.5))])
def test_jvp_rule_deciding_with_primals_differentiates(argnums, want):
    # a predicate of primals, tangents among the operands: transposable, as in JAX
    out = same(lambda m: m.jx.grad(_rule_on_primals(m), argnums=argnums)(0.5, 2.0))
    np.testing.assert_allclose(float(out), want, rtol=1e-6)


# ---------------------------------------------------------------- lax.split's size checks
# lax.split repeated the split primitive's abstract-evaluation checks before binding it;
# the primitive's own checks run eagerly too (EvalTrace evaluates the abstract rule before
# the impl), so the copy went. Under vmap JAX's message names the batched operand (the
# primitive sees it), which the copy in the wrapper hid.

_SPLIT = {
    "eager_sum": (
        lambda m: m.lax.split(m.jnp.ones((2, 5)), (2, 2), 1),
        "Sum of sizes 4 must be equal to dimension 1 of the operand shape [2, 5]",
    ),
    "eager_negative": (
        lambda m: m.lax.split(m.jnp.ones(5), (6, -1)),
        "Sizes passed to split must be nonnegative, got [6, -1]",
    ),
    "numpy_operand": (
        lambda m: m.lax.split(np.ones(5), [2, 2]),
        "Sum of sizes 4 must be equal to dimension 0 of the operand shape [5]",
    ),
    "jit": (
        lambda m: m.jx.jit(lambda x: m.lax.split(x, (2, 2), -1))(m.jnp.ones((2, 5))),
        "Sum of sizes 4 must be equal to dimension 1 of the operand shape [2, 5]",
    ),
    "vmap": (
        lambda m: m.jx.vmap(lambda x: m.lax.split(x, (2, 2)))(m.jnp.ones((3, 5))),
        "Sum of sizes 4 must be equal to dimension 1 of the operand shape [3, 5]",
    ),
}


@pytest.mark.parametrize("name", sorted(_SPLIT))
def test_lax_split_size_errors_like_jax(name):
    build, message = _SPLIT[name]
    err = same(build)
    assert type(err) is ValueError and str(err) == message, err
