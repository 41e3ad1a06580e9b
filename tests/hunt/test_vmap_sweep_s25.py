"""Pins of the differences the session-25 batching sweep (tests/hunt/sweep_vmap_s25.py)
found: each compared with JAX where JAX is importable, else with a value computed here
without jaxlite (NumPy in float64, or the exact message)."""

from __future__ import annotations

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp
import jaxlite.scipy.linalg as jsl

try:
    import jax
    import jax.scipy.linalg as jax_sl
except ImportError:
    jax = None

R = np.random.default_rng(25)
SQ = R.random((4, 4)).astype(np.float32) + 2 * np.eye(4, dtype=np.float32)
SPD = (SQ @ SQ.T).astype(np.float32)
SPD3 = np.stack([SPD, SPD * 1.3 + np.eye(4, dtype=np.float32), SPD + 0.05]).astype(np.float32)
RHS3 = R.random((3, 4, 2)).astype(np.float32)


def _solve_pos_grad_a(lib, sl, a, b, lower):
    return lib.grad(lambda a_, b_: sl.solve(a_, b_, assume_a="pos", lower=lower).sum())(a, b)


def _expected_grad_a(a, b):
    """d/da of sum(a^-1 b): -(a^-T 1) x^T (summed over b's columns), in float64."""
    a, b = a.astype(np.float64), b.astype(np.float64)
    x = np.linalg.solve(a, b)
    g = np.linalg.solve(a.T, np.ones_like(x))
    return -(g.reshape(4, -1) @ x.reshape(4, -1).T)


@pytest.mark.parametrize("lower", [False, True])
def test_scipy_solve_pos_gradient_is_the_whole_outer_product(lower):
    # Before: differentiated through the Cholesky factorization, the cotangent of ``a``
    # fell on one triangle (half the entries 0); JAX's is the full -(a^-T g) x^T.
    b = RHS3[0]
    got = np.asarray(_solve_pos_grad_a(jaxlite, jsl, SPD, b, lower))
    np.testing.assert_allclose(got, _expected_grad_a(SPD, b), rtol=2e-4, atol=1e-6)
    if jax is not None:
        want = np.asarray(_solve_pos_grad_a(jax, jax_sl, SPD, b, lower))
        np.testing.assert_allclose(got, want, rtol=2e-4, atol=1e-6)


def test_scipy_solve_pos_vmap_of_grad_and_batched_shapes():
    f = jaxlite.vmap(lambda a, b: _solve_pos_grad_a(jaxlite, jsl, a, b, False))
    got = np.asarray(f(SPD3, RHS3))
    for k in range(3):
        np.testing.assert_allclose(got[k], _expected_grad_a(SPD3[k], RHS3[k]), rtol=2e-4, atol=1e-6)
    # batched factors with a matrix and a vector right-hand side, as jnp.linalg.solve
    a64 = SPD3.astype(np.float64)
    np.testing.assert_allclose(
        np.asarray(jsl.solve(SPD3, RHS3, assume_a="pos")), np.linalg.solve(a64, RHS3), rtol=1e-4
    )
    np.testing.assert_allclose(
        np.asarray(jsl.solve(SPD3, RHS3[..., 0], assume_a="pos")),
        np.linalg.solve(a64, RHS3[..., :1])[..., 0],
        rtol=1e-4,
    )
    msg = (
        "The arguments to solve must have shapes a=[..., m, m] and b=[..., m, k] or b=[..., m]; "
        "got a=(3, 4, 4) and b=(4,)"
    )
    with pytest.raises(ValueError) as e:
        jsl.solve(SPD3, RHS3[0, :, 0], assume_a="pos")
    assert str(e.value) == msg


def test_vmap_non_array_output_message_shows_its_repr():
    # JAX formats the offending output with repr: dtype('float32'), not 'float32'
    with pytest.raises(TypeError) as e:
        jaxlite.vmap(lambda x: x.dtype)(jnp.ones(3))
    assert str(e.value).startswith(
        "Output from batched function dtype('float32') with type <class 'numpy.dtypes."
    )
    if jax is not None:
        with pytest.raises(TypeError) as f:
            jax.vmap(lambda x: x.dtype)(jax.numpy.ones(3))
        assert str(f.value).split("\n")[0] == str(e.value).split("\n")[0]


X3 = (R.random((2, 4, 5)) - 0.5).astype(np.float32)


@pytest.mark.parametrize("ord_", [None, 1, 0, np.inf, -np.inf, 3])
@pytest.mark.parametrize("axis", [(0, 1), (-1, 0), (0, 1, 2)])
def test_vector_norm_over_several_axes_is_a_vector_norm(axis, ord_):
    # Before: two axes went to norm(), which read them as a matrix (ord=1 gave the largest
    # column sum, ord=None the Frobenius norm only by luck); a vmapped tuple axis too
    got = jnp.linalg.vector_norm(X3, axis=axis, ord=ord_, keepdims=True)
    a = np.abs(X3.astype(np.float64))
    if ord_ is None:
        want = np.sqrt((a * a).sum(axis=axis, keepdims=True))
    elif ord_ == 0:
        want = (a != 0).sum(axis=axis, keepdims=True)
    elif ord_ in (np.inf, -np.inf):
        want = (a.max if ord_ > 0 else a.min)(axis=axis, keepdims=True)
    else:
        want = (a**ord_).sum(axis=axis, keepdims=True) ** (1 / ord_)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5)
    v = jaxlite.vmap(lambda x: jnp.linalg.vector_norm(x, axis=(0, -1), ord=ord_), in_axes=1)
    np.testing.assert_allclose(
        np.asarray(v(X3)),
        np.stack([np.asarray(jnp.linalg.vector_norm(X3[:, k], ord=ord_)) for k in range(4)]),
        rtol=1e-5,
    )


def test_packbits_unpackbits_take_a_one_element_axis_tuple():
    x = np.array([[1, 0, 3, 1], [0, 0, 1, 1]], np.int32)
    for ax in (0, 1, -1):
        np.testing.assert_array_equal(
            np.asarray(jnp.packbits(x, axis=(ax,))), np.packbits(x != 0, axis=ax)
        )
        u = x.astype(np.uint8)
        np.testing.assert_array_equal(
            np.asarray(jnp.unpackbits(u, axis=(ax,))), np.unpackbits(u, axis=ax)
        )
