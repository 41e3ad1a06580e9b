"""Session 21 fidelity fixes, each checked against JAX 0.10.2. Each case asserts JAX's
answer as a known value (so it means something without JAX, and the file passes in oracle
mode, ``JAXLITE_ORACLE=jax``) and, where JAX is importable, compares the whole result with
it through tests/hunt/oracle.py: raised exception class, or structure, shapes, dtypes, weak
types, values and signs of zeros."""

from __future__ import annotations

import numpy as np
import pytest

from tests.hunt.oracle import same


def _weak(x):
    return x.aval.weak_type if hasattr(x, "aval") else x.weak_type


# ------------------------------------------------ arrays made from host data while staging
# In JAX an array a creation function makes while a jaxpr is staged (jit, make_jaxpr,
# eval_shape, the bodies of cond / while_loop / scan / fori_loop / map, checkpoint) is a
# tracer: jnp.array, jnp.asarray, the scalar types (jnp.int32(3)), jnp.zeros / ones / full /
# empty / *_like / eye / copy, lax.full / full_like. Used where a static value is needed (a
# shape, an axis, int(), bool(), __index__, np.asarray, a Python `if`) it raises. Eagerly,
# under grad / vmap / linearize alone, inside ensure_compile_time_eval, and for a NumPy
# scalar or an array made outside (closed over, passed through jnp.asarray) it stays
# concrete. jaxlite kept every such constant concrete, so these calls computed.

_SHAPE = "Shapes must be 1D sequences of concrete values of integer type"
_CONC = "Abstract tracer value encountered where concrete value is expected"
_BOOL = "Attempted boolean conversion of traced array"
_INDEX = "The __index__() method was called on traced array"
_ARRAY = "The numpy.ndarray conversion method __array__() was called on traced array"


def _jit(m, f, *args):
    return m.jx.jit(f)(*args)


def _closed(m):
    return m.jnp.int32(3)  # made outside the traced function


_RAISES = {
    # build(m), (exception class name, first words of JAX's message)
    "zeros_of_jnp_int32": (
        lambda m: _jit(m, lambda: m.jnp.zeros(m.jnp.int32(3))),
        ("TypeError", _SHAPE),
    ),
    "zeros_of_jnp_array": (
        lambda m: _jit(m, lambda: m.jnp.zeros(m.jnp.array(3))),
        ("TypeError", _SHAPE),
    ),
    "ones_shape_tuple": (
        lambda m: _jit(m, lambda: m.jnp.ones((m.jnp.asarray(2), 3))),
        ("TypeError", _SHAPE),
    ),
    "reshape": (
        lambda m: _jit(m, lambda x: x.reshape(m.jnp.int32(3)), m.jnp.ones(3)),
        ("TypeError", _SHAPE),
    ),
    "broadcast_to": (
        lambda m: _jit(m, lambda x: m.jnp.broadcast_to(x, (m.jnp.int32(2), 3)), m.jnp.ones(3)),
        ("TypeError", _SHAPE),
    ),
    "eval_shape": (
        lambda m: m.jx.eval_shape(lambda: m.jnp.zeros(m.jnp.int32(3))),
        ("TypeError", _SHAPE),
    ),
    "closed_over_copied": (
        lambda m: (lambda c: _jit(m, lambda: m.jnp.zeros(m.jnp.array(c))))(_closed(m)),
        ("TypeError", _SHAPE),
    ),
    "arange": (
        lambda m: _jit(m, lambda: m.jnp.arange(m.jnp.int32(4))),
        ("ConcretizationTypeError", _CONC),
    ),
    "int": (lambda m: _jit(m, lambda: int(m.jnp.int32(4))), ("ConcretizationTypeError", _CONC)),
    "float": (
        lambda m: _jit(m, lambda: float(m.jnp.float32(4))),
        ("ConcretizationTypeError", _CONC),
    ),
    "item": (lambda m: _jit(m, lambda: m.jnp.array(2).item()), ("ConcretizationTypeError", _CONC)),
    "tolist": (
        lambda m: _jit(m, lambda: m.jnp.array([1, 2]).tolist()),
        ("ConcretizationTypeError", _CONC),
    ),
    "int_of_full": (
        lambda m: _jit(m, lambda: int(m.jnp.full((), 3))),
        ("ConcretizationTypeError", _CONC),
    ),
    "int_of_lax_full": (
        lambda m: _jit(m, lambda: int(m.lax.full((), 3))),
        ("ConcretizationTypeError", _CONC),
    ),
    "int_of_lax_full_like": (
        lambda m: _jit(m, lambda: int(m.lax.full_like(np.int32(3), 2))),
        ("ConcretizationTypeError", _CONC),
    ),
    "int_of_zeros_like": (
        lambda m: _jit(m, lambda: int(m.jnp.zeros_like(np.int32(3)))),
        ("ConcretizationTypeError", _CONC),
    ),
    "int_of_copy": (
        lambda m: _jit(m, lambda: int(m.jnp.copy(np.int32(3)))),
        ("ConcretizationTypeError", _CONC),
    ),
    "int_of_eye": (
        lambda m: _jit(m, lambda: int(m.jnp.eye(2)[0, 0])),
        ("ConcretizationTypeError", _CONC),
    ),
    "int_of_asarray_list": (
        lambda m: _jit(m, lambda: int(m.jnp.asarray([1, 2])[0])),
        ("ConcretizationTypeError", _CONC),
    ),
    "linspace_num": (
        lambda m: _jit(m, lambda: m.jnp.linspace(0, 1, m.jnp.int32(3))),
        ("ConcretizationTypeError", _CONC),
    ),
    "nonzero_size": (
        lambda m: _jit(m, lambda x: m.jnp.nonzero(x, size=m.jnp.int32(2)), m.jnp.ones(3)),
        ("ConcretizationTypeError", _CONC),
    ),
    "scan_length": (
        lambda m: _jit(
            m, lambda: m.lax.scan(lambda c, x: (c, c), 0.0, None, length=m.jnp.int32(2))
        ),
        ("ConcretizationTypeError", _CONC),
    ),
    "bool_of_array": (
        lambda m: _jit(m, lambda: 1 if m.jnp.array(4) else 0),
        ("TracerBoolConversionError", _BOOL),
    ),
    "list_index": (
        lambda m: _jit(m, lambda: m.jnp.float32([1.0, 2.0][m.jnp.int32(1)])),
        ("TracerIntegerConversionError", _INDEX),
    ),
    "range": (
        lambda m: _jit(m, lambda: sum(range(m.jnp.int32(3)))),
        ("TracerIntegerConversionError", _INDEX),
    ),
    "np_asarray": (
        lambda m: _jit(m, lambda: np.asarray(m.jnp.ones(3)).sum()),
        ("TracerArrayConversionError", _ARRAY),
    ),
    "numpy_indexed_by_jnp_array": (
        lambda m: _jit(m, lambda: m.jnp.asarray(np.arange(4)[m.jnp.array([2, 0])])),
        ("TracerArrayConversionError", _ARRAY),
    ),
    # every staging trace, not only jit's
    "make_jaxpr": (
        lambda m: m.jx.make_jaxpr(lambda x: x * int(m.jnp.int32(2)))(1.0),
        ("ConcretizationTypeError", _CONC),
    ),
    "cond_branch": (
        lambda m: m.lax.cond(True, lambda x: x * int(m.jnp.int32(2)), lambda x: x, 1.0),
        ("ConcretizationTypeError", _CONC),
    ),
    "while_body": (
        lambda m: m.lax.while_loop(lambda c: c < 2, lambda c: c * int(m.jnp.int32(2)), 1.0),
        ("ConcretizationTypeError", _CONC),
    ),
    "fori_body": (
        lambda m: m.lax.fori_loop(0, 2, lambda i, c: c * int(m.jnp.int32(2)), 1.0),
        ("ConcretizationTypeError", _CONC),
    ),
    "map_body": (
        lambda m: m.lax.map(lambda x: x * int(m.jnp.int32(2)), m.jnp.ones(2)),
        ("ConcretizationTypeError", _CONC),
    ),
    "checkpoint": (
        lambda m: m.jx.checkpoint(lambda x: x * int(m.jnp.int32(2)))(1.0),
        ("ConcretizationTypeError", _CONC),
    ),
    "grad_checkpoint": (
        lambda m: m.jx.grad(m.jx.checkpoint(lambda x: x * int(m.jnp.int32(2))))(1.0),
        ("ConcretizationTypeError", _CONC),
    ),
    # a transformation inside jit, or jit inside one: still staged
    "grad_in_jit": (
        lambda m: m.jx.jit(m.jx.grad(lambda x: x * int(m.jnp.int32(2))))(1.0),
        ("ConcretizationTypeError", _CONC),
    ),
    "vmap_in_jit": (
        lambda m: m.jx.jit(m.jx.vmap(lambda x: x * int(m.jnp.int32(2))))(m.jnp.ones(2)),
        ("ConcretizationTypeError", _CONC),
    ),
    "jit_in_grad": (
        lambda m: m.jx.grad(m.jx.jit(lambda x: x * int(m.jnp.int32(2))))(1.0),
        ("ConcretizationTypeError", _CONC),
    ),
}


@pytest.mark.parametrize("name", sorted(_RAISES))
def test_array_made_while_staging_is_not_concrete(name):
    build, (cls, first) = _RAISES[name]
    err = same(build)
    assert isinstance(err, TypeError), err
    assert type(err).__name__ == cls, err
    assert str(err).startswith(first), err


_COMPUTES = {
    # build(m), expected value
    "eager": (lambda m: m.jnp.zeros(m.jnp.int32(3)), np.zeros(3, np.float32)),
    "numpy_scalar_under_jit": (lambda m: _jit(m, lambda: m.jnp.zeros(np.int32(3))), np.zeros(3)),
    "closed_over": (
        lambda m: (lambda c: _jit(m, lambda: m.jnp.zeros(c)))(_closed(m)),
        np.zeros(3),
    ),
    "closed_over_asarray": (
        lambda m: (lambda c: _jit(m, lambda: m.jnp.zeros(m.jnp.asarray(c))))(_closed(m)),
        np.zeros(3),
    ),
    "closed_over_same_dtype": (
        lambda m: (lambda c: _jit(m, lambda: m.jnp.zeros(m.jnp.int32(c))))(_closed(m)),
        np.zeros(3),
    ),
    "shape_of_staged_array": (
        lambda m: _jit(m, lambda: m.jnp.zeros(m.jnp.ones((2, 3)).shape[1])),
        np.zeros(3),
    ),
    "grad": (lambda m: m.jx.grad(lambda x: x * int(m.jnp.int32(4)))(1.0), 4.0),
    "vmap": (lambda m: m.jx.vmap(lambda x: x * int(m.jnp.int32(4)))(m.jnp.ones(2)), [4.0, 4.0]),
    "jacrev": (lambda m: m.jx.jacrev(lambda x: x * int(m.jnp.int32(2)))(1.0), 2.0),
    "linearize": (
        lambda m: m.jx.linearize(lambda x: x * int(m.jnp.int32(2)), 1.0)[1](1.0),
        2.0,
    ),
    "custom_jvp_grad": (
        lambda m: m.jx.grad(_custom_jvp_int(m))(1.0),
        1.0,
    ),
    "index_with_staged_int": (
        lambda m: _jit(m, lambda x: x[m.jnp.int32(2)], m.jnp.arange(3.0)),
        2.0,
    ),
    "index_with_staged_array": (
        lambda m: _jit(m, lambda x: x[m.jnp.array([2, 0])], m.jnp.arange(3.0)),
        [2.0, 0.0],
    ),
    "fori_upper_staged": (
        lambda m: _jit(m, lambda: m.lax.fori_loop(0, m.jnp.int32(3), lambda i, c: c + 1, 0)),
        3,
    ),
    "while_predicate": (
        lambda m: _jit(
            m, lambda: m.lax.while_loop(lambda c: c < m.jnp.int32(3), lambda c: c + 1, 0)
        ),
        3,
    ),
    "cond_predicate": (
        lambda m: _jit(m, lambda: m.lax.cond(m.jnp.array(True), lambda: 1.0, lambda: 2.0)),
        1.0,
    ),
    "power_staged_exponent": (
        lambda m: _jit(m, lambda x: x ** m.jnp.array(2), m.jnp.ones(2, "int8")),
        [1, 1],
    ),
    "ensure_compile_time_eval": (lambda m: _jit(m, lambda: _compile_time(m)), np.zeros(2)),
    "random_permutation_of_python_int": (
        lambda m: m.jnp.sort(_jit(m, lambda k: m.jx.random.permutation(k, 4), m.jx.random.key(0))),
        [0, 1, 2, 3],
    ),
}


def _custom_jvp_int(m):
    f = m.jx.custom_jvp(lambda x: x * int(m.jnp.int32(2)))
    f.defjvp(lambda p, t: (p[0] * int(m.jnp.int32(2)), t[0]))
    return f


def _compile_time(m):
    with m.jx.ensure_compile_time_eval():
        n = m.jnp.int32(2)
        z = m.jnp.zeros(n)
    return z + int(n) * 0


@pytest.mark.parametrize("name", sorted(_COMPUTES))
def test_array_made_while_staging_computes_like_jax(name):
    build, want = _COMPUTES[name]
    out = same(build)
    assert not isinstance(out, Exception), out
    np.testing.assert_array_equal(np.asarray(out), want)


def test_staged_constant_jaxpr_is_unchanged():
    # the staged constant is a literal (a scalar) or a constvar (an array), as before
    import jaxlite
    import jaxlite.numpy as jnp

    text = str(jaxlite.make_jaxpr(lambda x: x * jnp.float32(2))(1.0))
    assert "mul b 2.0:f32[]" in text
    assert str(jaxlite.make_jaxpr(lambda: jnp.array([1.0, 2.0]))()).startswith(
        "{ lambda a:f32[2]; . let"
    )
    assert (
        str(jaxlite.make_jaxpr(lambda: jnp.float32(2))()) == "{ lambda ; . let  in (2.0:f32[],) }"
    )


# --------------------------------------- derivatives through concatenate / stack / split
# JAX transposes concatenate into a split primitive and split into a concatenate, so
# a weakly typed cotangent stays weak through second derivatives of jnp.stack /
# jnp.concatenate / lax.concatenate of weakly typed pieces, and through the first
# derivative of jnp.split / lax.split. jaxlite's concatenate transposed to slices and
# split was slices, whose transpose pads with a strongly typed zero (JAX's slice
# transpose does too): strong.


def _stack(m):
    return lambda a: m.jnp.sin(m.jnp.stack([a, 2 * a])).prod()


def _concat(m):
    return lambda a: m.jnp.sin(m.jnp.concatenate([a[None], a[None] * 3])).sum()


def _lax_concat(m):
    return lambda a: m.jnp.sin(m.lax.concatenate([a[None], a[None]], 0)).sum()


def _jnp_split(m):
    return lambda a: m.jnp.sin(m.jnp.split(m.jnp.stack([a, a, 2 * a, a]), 2)[1]).sum()


def _lax_split(m):
    return lambda a: m.jnp.sin(m.lax.split(m.jnp.stack([a, 2 * a, a]), (1, 2))[1]).prod()


def _stack_2d(m):
    return lambda a: m.jnp.sin(m.jnp.stack([m.jnp.stack([a, a])] * 2).T).prod()


_FUNS = {
    "stack": _stack,
    "concatenate": _concat,
    "lax_concatenate": _lax_concat,
    "jnp_split": _jnp_split,
    "lax_split": _lax_split,
    "stack_2d": _stack_2d,
}
_ORDERS = {
    "grad": lambda jx, f: jx.grad(f)(0.7),
    "grad_grad": lambda jx, f: jx.grad(jx.grad(f))(0.7),
    "hessian": lambda jx, f: jx.hessian(f)(0.7),
    "jacfwd_jacrev": lambda jx, f: jx.jacfwd(jx.jacrev(f))(0.7),
    "jacrev_jacrev": lambda jx, f: jx.jacrev(jx.jacrev(f))(0.7),
    "jvp_grad": lambda jx, f: jx.jvp(jx.grad(f), (0.7,), (1.0,))[1],
    "jit_grad_grad": lambda jx, f: jx.jit(jx.grad(jx.grad(f)))(0.7),
}


def _finite_difference(f, order, x=0.7, h=1e-3):
    g = lambda a: float(f(np.float64(a)))  # noqa: E731
    if order == 1:
        return (g(x + h) - g(x - h)) / (2 * h)
    return (g(x + h) - 2 * g(x) + g(x - h)) / h**2


def _numpy_fun(name):
    fun = {
        "stack": lambda a: np.prod(np.sin(np.stack([a, 2 * a]))),
        "concatenate": lambda a: np.sum(np.sin([a, 3 * a])),
        "lax_concatenate": lambda a: np.sum(np.sin([a, a])),
        "jnp_split": lambda a: np.sum(np.sin([2 * a, a])),
        "lax_split": lambda a: np.prod(np.sin([2 * a, a])),
        "stack_2d": lambda a: np.sin(a) ** 4,
    }
    return fun[name]


@pytest.mark.parametrize("order", sorted(_ORDERS))
@pytest.mark.parametrize("fun", sorted(_FUNS))
def test_concatenate_split_derivatives_keep_weak_types_like_jax(fun, order):
    out = same(lambda m: _ORDERS[order](m.jx, _FUNS[fun](m)), rtol=1e-4)
    assert _weak(out) is True, out  # JAX: every one of these is weakly typed
    want = _finite_difference(_numpy_fun(fun), 1 if order == "grad" else 2)
    np.testing.assert_allclose(float(np.asarray(out)), want, rtol=2e-3, atol=2e-3)


def test_split_primitive_rules():
    # the new primitive under vmap, jit and linear_transpose, against slicing
    import jaxlite
    import jaxlite.numpy as jnp

    x = jnp.arange(12.0).reshape(3, 4)
    pieces = jaxlite.vmap(lambda r: jaxlite.lax.split(r, (1, 3)))(x)
    np.testing.assert_array_equal(np.asarray(pieces[0]), np.asarray(x)[:, :1])
    np.testing.assert_array_equal(np.asarray(pieces[1]), np.asarray(x)[:, 1:])
    jitted = jaxlite.jit(lambda v: jnp.split(v, [1, 3], axis=1))(x)
    for a, b in zip(jitted, np.split(np.asarray(x), [1, 3], axis=1)):
        np.testing.assert_array_equal(np.asarray(a), b)
    (ct,) = jaxlite.linear_transpose(lambda v: jaxlite.lax.split(v, (2, 2), 1), x)(
        [jnp.ones((3, 2)), 2 * jnp.ones((3, 2))]
    )
    np.testing.assert_array_equal(np.asarray(ct), np.repeat([[1.0, 1, 2, 2]], 3, 0))
    with pytest.raises(ValueError, match="Sum of sizes 3 must be equal to dimension 0"):
        jaxlite.lax.split(jnp.ones(4), (1, 2))
