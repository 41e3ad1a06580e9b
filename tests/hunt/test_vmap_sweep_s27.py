"""Pins of the differences the session-27 batching sweep of ``jnp`` (tests/hunt/sweep_vmap_s27.py)
found: each compared with JAX where JAX is importable, else with a Python loop over the batch
or a value computed here without jaxlite."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special

import jaxlite
import jaxlite.numpy as jnp

try:
    import jax
    import jax.numpy as jax_np
except ImportError:
    jax = None

F32_EDGES = np.array(
    [
        0.0,
        -0.0,
        1.0,
        -1.0,
        2.5,
        -3.0,
        50.0,
        88.0,
        88.8,
        89.0,
        -89.0,
        100.0,
        np.inf,
        -np.inf,
        np.nan,
    ],
    np.float32,
)


def test_i0_derivative_is_jaxs_product_rule():
    # Before: t * exp(|x|) * i1e(x), inf where exp(|x|) overflows (x >= 88.8 in float32);
    # JAX differentiates exp(|x|) * i0e(|x|) term by term, and the two infinite terms cancel
    # to NaN there. Found as vmap-of-grad differences at x = 100.
    x = F32_EDGES
    got = np.asarray(jaxlite.vmap(jaxlite.grad(jnp.i0))(x))
    got_jvp = np.asarray(jaxlite.jvp(jnp.i0, (x,), (np.ones_like(x),))[1])
    np.testing.assert_array_equal(got, got_jvp)
    finite = np.abs(x) <= 88.0
    # i0' = i1 (SciPy's, in float64)
    i1 = scipy.special.i1(x[finite].astype(np.float64))
    np.testing.assert_allclose(got[finite], i1, rtol=2e-5)
    assert np.isnan(got[~finite]).all()
    if jax is not None:
        want = np.asarray(jax.vmap(jax.grad(jax_np.i0))(x))
        np.testing.assert_allclose(got, want, rtol=2e-5, equal_nan=True)


A2 = np.array([[1, 2, 2, 5], [3, 3, 0, 1]], np.int32)
B2 = np.array([[2, 7, 0, 0], [9, 9, 1, 1]], np.int32)


def _outcome(lib, np_, name, kw, in_axes):
    def f(x, y):
        return getattr(np_, name)(x, y, **kw)

    args = [np.stack([x, x + 1]) if ax == 0 else x for x, ax in zip((A2, B2), in_axes)]
    try:
        lib.vmap(f, in_axes=in_axes)(*args)
    except Exception as e:  # noqa: BLE001
        return type(e).__name__, str(e).split("\n")[0]
    return "ok", None


# Set operations without size= under vmap: which operand JAX checks first, in its own shape,
# and where JAX's boolean index of a traced mask raises NonConcreteBooleanIndexError. Before:
# union1d named the joined, flattened operands (int32[16]); setdiff1d with only ar2 traced,
# and intersect1d / setxor1d with assume_unique, raised ConcretizationTypeError.
SET_CASES = [
    ("union1d", {}, (0, None), "ConcretizationTypeError", "int32[2,4]"),
    ("union1d", {}, (None, 0), "ConcretizationTypeError", "int32[2,4]"),
    ("setdiff1d", {}, (0, None), "ConcretizationTypeError", "int32[2,4]"),
    ("setdiff1d", {}, (None, 0), "NonConcreteBooleanIndexError", "bool[5]"),
    ("setdiff1d", {"assume_unique": True}, (None, 0), "NonConcreteBooleanIndexError", "bool[8]"),
    ("intersect1d", {"assume_unique": True}, (0, 0), "NonConcreteBooleanIndexError", "bool[15]"),
    ("setxor1d", {"assume_unique": True}, (None, 0), "NonConcreteBooleanIndexError", "bool[16]"),
]


@pytest.mark.parametrize("name,kw,in_axes,cls,shape", SET_CASES)
def test_set_operations_without_size_under_vmap_raise_jaxs_error(name, kw, in_axes, cls, shape):
    got = _outcome(jaxlite, jnp, name, kw, in_axes)
    assert got[0] == cls
    assert got[1].endswith(shape)
    if jax is not None:
        assert got == _outcome(jax, jax_np, name, kw, in_axes)
