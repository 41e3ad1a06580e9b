"""Session 16: optax 0.2.8's own test suite run with jaxlite installed as ``jax``; each
jaxlite-only failure reduced here to plain jax/jnp. Expected values are JAX 0.10.2's (the
file passes in oracle mode, ``JAXLITE_ORACLE=jax``).

* ``jnp.broadcast_shapes`` / ``jax.lax.broadcast_shapes`` of incompatible shapes (optax's
  ``MultiNormalDiagFromLogScale`` checks its loc/scale shapes so): jaxlite raised NumPy's
  ``shape mismatch: objects cannot be broadcast ...``; JAX raises ``ValueError:
  Incompatible shapes for broadcasting: shapes=[...]``. ``jnp`` takes an int for a rank-1
  shape; ``lax`` does not (``TypeError``).
* ``jnp.float16 != jnp.float16`` (optax's dtype-stability test picks a dtype so, inside a
  jitted step): ``!=`` between a jnp scalar type and anything raised ``TypeError: expected
  1 argument, got 0``; JAX answers the negation of ``==``.
* ``x.copy()`` of a traced array (optax's ``schedule_free`` init copies the parameters so,
  also under ``jit`` and gradient accumulation): jaxlite's tracers had no ``copy`` method
  (AttributeError); JAX's copies, and rejects NumPy's ``order=`` (``TypeError``).
* ``jit(f).lower(x).compiler_ir("hlo")`` (optax compares the HLO of ``abs_sq`` with
  ``x * x``): jaxlite has no HLO; it raised a bare AttributeError, now a
  ``NotImplementedError`` that says why (docs/compat.md).
"""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp


# ------------------------------------------------------------------ broadcast_shapes
@pytest.mark.parametrize("fn", [jnp.broadcast_shapes, jax.lax.broadcast_shapes], ids=["jnp", "lax"])
@pytest.mark.parametrize(
    "shapes, listed",
    [
        (((2,), (3,)), "[(2,), (3,)]"),
        (((1, 2), (3, 1), (4,)), "[(1, 2), (3, 1), (4,)]"),
        (((2, 3), (3, 2)), "[(2, 3), (3, 2)]"),
    ],
)
def test_broadcast_shapes_incompatible_message(fn, shapes, listed):
    with pytest.raises(ValueError) as info:
        fn(*shapes)
    assert str(info.value) == f"Incompatible shapes for broadcasting: shapes={listed}"


def test_broadcast_shapes_message_shows_lists_as_each_api_does():
    with pytest.raises(ValueError, match=r"shapes=\[\(2, 3\), \(3, 2\)\]$"):
        jnp.broadcast_shapes([2, 3], (3, 2))
    with pytest.raises(ValueError, match=r"shapes=\[\[2, 3\], \(3, 2\)\]$"):
        jax.lax.broadcast_shapes([2, 3], (3, 2))


@pytest.mark.parametrize("fn", [jnp.broadcast_shapes, jax.lax.broadcast_shapes], ids=["jnp", "lax"])
def test_broadcast_shapes_results_are_int_tuples(fn):
    got = fn((2, 1), [1, 3], (5, 1, 1))
    assert got == (5, 2, 3) and type(got) is tuple
    assert all(type(d) is int for d in got)
    assert fn((2, 3)) == (2, 3)


def test_jnp_broadcast_shapes_of_nothing():
    assert jnp.broadcast_shapes() == ()


def test_broadcast_shapes_int_argument():
    assert jnp.broadcast_shapes(2, (1,)) == (2,)
    with pytest.raises(ValueError, match=r"shapes=\[\(2,\), \(3,\)\]"):
        jnp.broadcast_shapes(2, (3,))
    with pytest.raises(TypeError):
        jax.lax.broadcast_shapes(2, (3,))


# ------------------------------------------------------------------ scalar type !=
_SCALAR_TYPES = [
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "int8",
    "int32",
    "uint16",
    "bool_",
    "complex64",
    "complex128",
]
_OTHERS = [np.float32, np.dtype("float32"), np.int32, "float32", float, int, None, 3]


@pytest.mark.parametrize("name", _SCALAR_TYPES)
def test_scalar_type_ne_is_not_eq(name):
    t = getattr(jnp, name)
    others = [getattr(jnp, n) for n in _SCALAR_TYPES] + _OTHERS
    for other in others:
        assert (t != other) is (not (t == other)), other
        assert (other != t) is (not (other == t)), other
    assert (t != t) is False
    assert (jnp.float32 != np.float32) is False and (jnp.float32 != jnp.float16) is True
    assert (jnp.float32 != np.dtype("float32")) is False and (jnp.float32 != "float32") is True


# ------------------------------------------------------------------ Tracer.copy
def test_traced_array_copy():
    x = jnp.arange(3.0)
    np.testing.assert_array_equal(jax.jit(lambda a: a.copy() * 2)(x), [0.0, 2.0, 4.0])
    np.testing.assert_array_equal(jax.vmap(lambda a: a.copy())(x), x)
    np.testing.assert_array_equal(jax.grad(lambda a: (a.copy() ** 2).sum())(x), 2 * x)
    p, t = jax.jvp(lambda a: a.copy(), (x,), (jnp.ones(3),))
    np.testing.assert_array_equal(p, x)
    np.testing.assert_array_equal(t, jnp.ones(3))
    z, p = jax.jit(lambda a: (a.copy(), a))(x)
    assert z is not p and z is not x
    with pytest.raises(TypeError, match="unexpected keyword argument 'order'"):
        jax.jit(lambda a: a.copy(order="K"))(x)


# ------------------------------------------------------------------ Lowered.compiler_ir
@pytest.mark.jaxlite_only
def test_lowered_compiler_ir_says_there_is_no_hlo():
    lowered = jax.jit(lambda a: a * a).lower(jnp.float32(3.0))
    with pytest.raises(NotImplementedError, match="not implemented in jaxlite"):
        lowered.compiler_ir(dialect="hlo")
    assert "generated Python source" in lowered.as_text()
