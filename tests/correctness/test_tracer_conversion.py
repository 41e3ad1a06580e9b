"""Issue 15 item 1: a traced value never silently becomes a NumPy or Python value under
autodiff. Every conversion follows JAX: ``__array__`` (so every NumPy function) raises
``TracerArrayConversionError``; ``float``/``complex``/``tolist`` (and so ``math.*``) raise
``ConcretizationTypeError``; ``int``/``bool``/``item``/``__index__`` of a concrete grad
or jvp tracer are allowed."""

import math

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite.errors import ConcretizationTypeError, TracerArrayConversionError


def _grad(f):
    return lambda x: jax.grad(f)(x)


def _jvp(f):
    return lambda x: jax.jvp(f, (x,), (x,))


def _vjp(f):
    return lambda x: jax.vjp(f, x)[1](x)


def _linearize(f):
    return lambda x: jax.linearize(f, x)[1](x)


def _value_and_grad(f):
    return lambda x: jax.value_and_grad(f)(x)


def _grad_grad(f):
    return lambda x: jax.grad(jax.grad(f))(x)


def _jacfwd(f):
    return lambda x: jax.jacfwd(f)(x)


def _jacrev(f):
    return lambda x: jax.jacrev(f)(x)


def _hessian(f):
    return lambda x: jax.hessian(f)(x)


def _grad_disable_jit(f):
    def run(x):
        with jax.disable_jit():
            return jax.grad(f)(x)

    return run


def _grad_of_jit(f):
    return lambda x: jax.grad(jax.jit(f))(x)


TRANSFORMS = [
    _grad,
    _jvp,
    _vjp,
    _linearize,
    _value_and_grad,
    _grad_grad,
    _jacfwd,
    _jacrev,
    _hessian,
    _grad_disable_jit,
    _grad_of_jit,
]

NUMPY_USES = {
    "asarray": lambda x: np.asarray(x) * x,
    "array": lambda x: np.array(x) * x,
    "add": lambda x: np.add(x, 1.0) * x,
    "exp": lambda x: np.exp(x),
    "cos": lambda x: np.cos(x),
    "dot": lambda x: np.dot(x, x),
    "where": lambda x: np.where(True, x, 0.0) * x,
    "stack": lambda x: np.stack([x, x]).sum() * x,
    "copy": lambda x: np.copy(x) * x,
    "float64": lambda x: np.float64(x) * x,
}

PYTHON_USES = {
    "float": lambda x: float(x) * x,
    "complex": lambda x: complex(x).real * x,
    "math.cos": lambda x: math.cos(x) * x,
    "tolist": lambda x: jnp.asarray(x.tolist()) * x,
}


@pytest.mark.parametrize("transform", TRANSFORMS, ids=lambda t: t.__name__[1:])
@pytest.mark.parametrize("name", sorted(NUMPY_USES))
def test_numpy_function_on_autodiff_tracer_raises(transform, name):
    with pytest.raises(TracerArrayConversionError):
        transform(NUMPY_USES[name])(2.0)


@pytest.mark.parametrize("transform", TRANSFORMS, ids=lambda t: t.__name__[1:])
@pytest.mark.parametrize("name", sorted(PYTHON_USES))
def test_python_scalar_conversion_of_autodiff_tracer_raises(transform, name):
    with pytest.raises(ConcretizationTypeError):
        transform(PYTHON_USES[name])(2.0)


def test_float_times_x_is_an_error_not_a_dropped_derivative():
    with pytest.raises(ConcretizationTypeError):
        jax.grad(lambda x: float(x) * x)(2.0)


@pytest.mark.parametrize(
    "f, expected",
    [
        (lambda x: int(x) * x, 2.0),
        (lambda x: x.item() * x, 2.0),
        (lambda x: x * 3.0 if x > 0 else -x, 3.0),
        (lambda x: jnp.array([1.0, 5.0, 7.0])[x.astype(int)] * x, 7.0),
    ],
    ids=["int", "item", "bool", "index"],
)
def test_concrete_conversions_stay_allowed_under_grad(f, expected):
    assert float(jax.grad(f)(2.0)) == expected
    _, t = jax.jvp(f, (2.0,), (1.0,))
    assert float(t) == expected


def test_raw_numpy_in_custom_jvp_rule_at_second_order_raises():
    @jax.custom_jvp
    def f(x):
        return jnp.sin(x)

    @f.defjvp
    def f_jvp(primals, tangents):
        (x,), (dx,) = primals, tangents
        return f(x), np.cos(x) * dx

    with pytest.raises(TracerArrayConversionError):
        jax.jvp(jax.grad(f), (1.0,), (1.0,))


@pytest.mark.parametrize("transform", [jax.jit, jax.vmap], ids=["jit", "vmap"])
def test_same_conversions_raise_under_jit_and_vmap(transform):
    x = jnp.ones(3)
    with pytest.raises(TracerArrayConversionError):
        transform(lambda x: np.exp(x))(x)
    with pytest.raises(ConcretizationTypeError):
        transform(lambda x: x.tolist())(x)
