"""Issue 15 items 11-13: data never raises in linear algebra (singular or NaN input gives
inf/NaN as in JAX, eagerly, under jit and inside a scan), arrays that cannot fit in memory
are refused with a clear resource error, and reduce_window with a window larger than the
operand gives an empty result."""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax

Z = np.zeros((2, 2), np.float32)
N = np.full((2, 2), np.nan, np.float32)

# (name, function, input, expected as nested lists; NaN compared as NaN)
CASES = [
    ("inv_singular", jnp.linalg.inv, Z, [[np.nan, np.nan], [np.nan, np.inf]]),
    ("solve_singular", lambda a: jnp.linalg.solve(a, jnp.ones(2)), Z, [np.nan, np.inf]),
    (
        "matrix_power_-1",
        lambda a: jnp.linalg.matrix_power(a, -1),
        Z,
        [[np.nan] * 2, [np.nan, np.inf]],
    ),
    ("svd_nan", lambda a: jnp.linalg.svd(a)[1], N, [np.nan, np.nan]),
    ("svdvals_nan", lambda a: jnp.linalg.svd(a, compute_uv=False), N, [np.nan, np.nan]),
    ("pinv_nan", jnp.linalg.pinv, N, [[np.nan] * 2] * 2),
    ("lstsq_nan", lambda a: jnp.linalg.lstsq(a, jnp.ones(2))[0], N, [np.nan, np.nan]),
    ("norm2_nan", lambda a: jnp.linalg.norm(a, 2), N, np.nan),
    ("matrix_rank_nan", jnp.linalg.matrix_rank, N, 0),
    ("det_singular", jnp.linalg.det, Z, 0.0),
    (
        "cholesky_indefinite",
        jnp.linalg.cholesky,
        -np.eye(2, dtype=np.float32),
        [[np.nan, 0.0], [np.nan, np.nan]],
    ),
    ("eigh_nan", lambda a: jnp.linalg.eigh(a)[0], N, [np.nan, np.nan]),
    (
        "triangular_solve_singular",
        lambda a: lax.linalg.triangular_solve(a, jnp.ones((2, 2)), left_side=True, lower=True),
        Z,
        [[np.inf, np.inf], [np.nan, np.nan]],
    ),
    (
        "inv_in_scan",
        lambda a: lax.scan(lambda c, m: (c, jnp.linalg.inv(m)), 0.0, jnp.stack([a, a]))[1][1],
        Z,
        [[np.nan, np.nan], [np.nan, np.inf]],
    ),
]


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name, f, a, want", CASES, ids=[c[0] for c in CASES])
def test_singular_or_nan_linalg_returns_values(name, f, a, want, jit):
    got = np.asarray((jax.jit(f) if jit else f)(a), dtype=np.float64)
    np.testing.assert_array_equal(got, np.asarray(want, dtype=np.float64))


def test_failed_matrices_in_a_batch_leave_the_others_exact():
    a = np.stack([np.eye(2, dtype=np.float32) * 2, N])
    s = np.asarray(jax.jit(lambda a: jnp.linalg.svd(a, compute_uv=False))(a))
    np.testing.assert_allclose(s[0], [2.0, 2.0])
    assert np.isnan(s[1]).all()
    inv = np.asarray(jnp.linalg.inv(np.stack([np.eye(2, dtype=np.float32) * 4, Z])))
    np.testing.assert_allclose(inv[0], np.eye(2) / 4)
    assert not np.isfinite(inv[1]).all()


# ------------------------------------------------------------- item 12: resource errors


@pytest.mark.parametrize(
    "f",
    [
        lambda: jnp.ones((10**6, 10**6)).sum(),
        lambda: jnp.zeros((10**6, 10**6), jnp.float32),
        lambda: jnp.full((10**7, 10**7), 2.0),
        lambda: jnp.broadcast_to(jnp.ones(3), (10**13, 3)),
    ],
    ids=["ones_sum", "zeros", "full", "broadcast_to"],
)
def test_allocations_that_cannot_fit_fail_at_once(f):
    with pytest.raises(jax.errors.JaxRuntimeError, match="RESOURCE_EXHAUSTED"):
        f()


@pytest.mark.jaxlite_only
def test_a_huge_primitive_result_fails_at_once():
    # Every primitive's result is checked (JAX's CPU client may overcommit this one).
    with pytest.raises(jax.errors.JaxRuntimeError, match="RESOURCE_EXHAUSTED"):
        jnp.ones(10**6)[:, None] * jnp.ones(10**6)[None, :]


@pytest.mark.jaxlite_only
def test_jit_of_a_huge_intermediate_fails_at_compile_time():
    # JAX fuses this under jit and returns 1e12; jaxlite would compute over a 10**12-element
    # broadcast for hours, so it refuses at compile time (docs/compat.md).
    with pytest.raises(jax.errors.JaxRuntimeError, match="RESOURCE_EXHAUSTED"):
        jax.jit(lambda: jnp.ones((10**6, 10**6)).sum())()


def test_eval_shape_of_a_huge_array_needs_no_memory():
    out = jax.eval_shape(lambda: jnp.ones((10**6, 10**6)))
    assert out.shape == (10**6, 10**6)


# ------------------------------------------------------ item 13: windows past the operand


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize(
    "op, init, window, strides, want_shape",
    [
        (lax.add, 0.0, (3, 4), (1, 1), (0, 0)),
        (lax.max, -np.inf, (3, 3), (1, 1), (0, 1)),
        (lax.min, np.inf, (1, 4), (1, 1), (2, 0)),
        (lax.mul, 1.0, (3, 1), (2, 1), (0, 3)),
    ],
)
def test_reduce_window_larger_than_operand_is_empty(op, init, window, strides, want_shape, jit):
    def f(x):
        return lax.reduce_window(x, init, op, window, strides, "VALID")

    out = (jax.jit(f) if jit else f)(jnp.ones((2, 3)))
    assert out.shape == want_shape
    assert out.dtype == np.float32
    if op is not lax.mul:  # JAX has no reverse mode for a product window
        g = jax.grad(lambda x: f(x).sum())(jnp.ones((2, 3)))
        np.testing.assert_array_equal(np.asarray(g), np.zeros((2, 3)))
