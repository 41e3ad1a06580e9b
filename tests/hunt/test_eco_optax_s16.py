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
* ``jax.scipy.special.logsumexp`` / ``jax.nn.logsumexp`` with scale factors ``b`` that
  are zero (optax's ``sigmoid_focal_loss`` with hard labels 0/1 weights its two terms by
  ``b = [1 - y, y]``; its Hessian came out NaN): JAX leaves the terms with ``b == 0`` out
  of the sum and of the maximum; jaxlite let a large ``a`` there set the shift, so
  ``logsumexp([1000, 0], b=[0, 1])`` was ``-inf`` (JAX: ``0``), an ``inf``/``nan`` ``a``
  with ``b == 0`` made the result NaN, and gradients and Hessians through such terms were
  NaN (JAX: zero). Complex ``a``: JAX shifts by the maximum real part, so the result is
  the principal logarithm of the sum and ``return_sign=True`` gives a real magnitude;
  jaxlite shifted by a complex maximum (imaginary part off by multiples of 2*pi, a
  complex "magnitude").
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


# ------------------------------------------------------------------ logsumexp
_lse = jax.scipy.special.logsumexp


@pytest.mark.parametrize("lse", [_lse, jax.nn.logsumexp], ids=["scipy", "nn"])
def test_logsumexp_leaves_out_zero_scale_terms(lse):
    a = jnp.array([1000.0, 0.0, -3.0])
    b = jnp.array([0.0, 1.0, 2.0])
    want = np.log(1.0 + 2.0 * np.exp(-3.0))
    np.testing.assert_allclose(lse(a, b=b), want, rtol=1e-6)
    out, sign = lse(a, b=b, return_sign=True)
    np.testing.assert_allclose(out, want, rtol=1e-6)
    assert float(sign) == 1.0
    for bad in (np.inf, np.nan):
        got = lse(jnp.array([bad, 0.0]), b=jnp.array([0.0, 1.0]))
        assert float(got) == 0.0
    assert float(lse(jnp.array([5.0, 2.0]), b=jnp.zeros(2))) == -np.inf
    # the gradient through a left-out term is zero, the others' softmax weights
    g = jax.grad(lambda x: lse(x, b=b))(a)
    w = np.array([0.0, 1.0, 2.0 * np.exp(-3.0)]) / (1.0 + 2.0 * np.exp(-3.0))
    np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-30)
    # a negative sum: NaN without return_sign, the magnitude and -1 with it
    assert np.isnan(lse(jnp.array([1000.0, 0.0]), b=jnp.array([0.0, -1.0])))
    out, sign = lse(jnp.array([1000.0, 0.0]), b=jnp.array([0.0, -1.0]), return_sign=True)
    assert float(out) == 0.0 and float(sign) == -1.0


def test_logsumexp_hessian_with_hard_weights_is_finite():
    # optax's focal loss: log((1 - y) sigmoid(x) + y sigmoid(-x)) for y in {0, 1} is a
    # log-sigmoid, whose second derivative is -sigmoid(x) sigmoid(-x)
    x = jnp.array([50.0, -50.0, 3.0, -2.0])
    y = jnp.array([1.0, 0.0, 0.0, 1.0])

    def f(z):
        logs = jnp.stack([jax.nn.log_sigmoid(z), jax.nn.log_sigmoid(-z)], axis=-1)
        return _lse(logs, axis=-1, b=jnp.stack([1 - y, y], axis=-1)).sum()

    h = np.diag(np.asarray(jax.hessian(f)(x)))
    s = 1.0 / (1.0 + np.exp(-np.asarray(x, np.float64)))
    np.testing.assert_allclose(h, -s * (1 - s), rtol=1e-5, atol=1e-12)


@pytest.mark.parametrize(
    "a, b",
    [
        ([1 + 2j, 3 - 4j], None),
        ([1 + 2j, 3 + 5j], [1.0, 2.0]),
        ([100 + 2j, 3 + 5j], [0.0, 2.0]),
        ([[0.5 - 3j, 2 + 3j], [-1 + 1j, 1 - 2.5j]], None),
    ],
)
def test_logsumexp_complex_is_the_principal_log(a, b):
    a64 = np.asarray(a, np.complex128)
    b64 = np.ones(a64.shape) if b is None else np.asarray(b)
    terms = np.where(b64 != 0, b64 * np.exp(np.where(b64 != 0, a64, 0)), 0)
    want = np.log(terms.sum(-1))
    bj = None if b is None else jnp.array(b, jnp.float32)
    got = _lse(jnp.array(a, jnp.complex64), axis=-1, b=bj)
    np.testing.assert_allclose(got, want, rtol=2e-5)
    out, sign = _lse(jnp.array(a, jnp.complex64), axis=-1, b=bj, return_sign=True)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, np.log(np.abs(terms.sum(-1))), rtol=2e-5)
    np.testing.assert_allclose(sign, terms.sum(-1) / np.abs(terms.sum(-1)), rtol=2e-5)
