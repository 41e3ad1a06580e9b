"""jax.ops.segment_sum/prod/max/min: values against a NumPy loop, negative and too-large ids
dropped (or clamped with mode="clip"), bucket_size, integer identities, jit/vmap/grad (tied
maxima share the cotangent, as JAX's scatter-max), and JAX's errors. Runs in oracle mode."""

from __future__ import annotations

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp

OPS = {
    "sum": (np.add, 0.0),
    "prod": (np.multiply, 1.0),
    "max": (np.maximum, -np.inf),
    "min": (np.minimum, np.inf),
}

DATA = np.array([1.0, 3.0, 3.0, 2.0, 5.0, 5.0, 5.0, 0.5, 4.0, 2.5], np.float32)
IDS = np.array([0, 0, 1, 1, 1, 3, 3, 5, -1, 7], np.int32)


def reference(kind, data, ids, n, clip=False):
    op, init = OPS[kind]
    out = np.full((n, *data.shape[1:]), init, data.dtype)
    for row, i in zip(data, ids):
        if clip:
            i = min(max(i, 0), n - 1)
        if 0 <= i < n:
            out[i] = op(out[i], row)
    return out


def seg(kind):
    return getattr(jax.ops, f"segment_{kind}")


@pytest.mark.parametrize("kind", sorted(OPS))
@pytest.mark.parametrize("n", [4, 6, 8])
def test_values_drop_out_of_range_ids(kind, n):
    got = seg(kind)(jnp.asarray(DATA), jnp.asarray(IDS), n)
    np.testing.assert_allclose(np.asarray(got), reference(kind, DATA, IDS, n), rtol=1e-6)


@pytest.mark.parametrize("kind", sorted(OPS))
def test_default_num_segments_is_max_id_plus_one(kind):
    got = seg(kind)(jnp.asarray(DATA), jnp.asarray(IDS))
    assert got.shape == (8,)
    np.testing.assert_allclose(np.asarray(got), reference(kind, DATA, IDS, 8), rtol=1e-6)


@pytest.mark.parametrize("kind", sorted(OPS))
def test_clip_mode_clamps_ids(kind):
    got = seg(kind)(jnp.asarray(DATA), jnp.asarray(IDS), 4, mode="clip")
    np.testing.assert_allclose(np.asarray(got), reference(kind, DATA, IDS, 4, clip=True), rtol=1e-6)
    enum = seg(kind)(jnp.asarray(DATA), jnp.asarray(IDS), 4, mode=jax.lax.GatherScatterMode.CLIP)
    np.testing.assert_array_equal(np.asarray(enum), np.asarray(got))


@pytest.mark.parametrize("kind", sorted(OPS))
@pytest.mark.parametrize("bucket", [1, 2, 3, 4, 10, 20])
@pytest.mark.parametrize("mode", [None, "clip"])
def test_bucket_size_does_not_change_the_result(kind, bucket, mode):
    data = np.arange(20.0, dtype=np.float32).reshape(10, 2) / 4 + 0.5
    got = seg(kind)(jnp.asarray(data), jnp.asarray(IDS), 6, bucket_size=bucket, mode=mode)
    want = reference(kind, data, IDS, 6, clip=mode == "clip")
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5)


def test_trailing_dims_and_int_identities():
    data = np.arange(24, dtype=np.int32).reshape(6, 2, 2) - 10
    ids = np.array([2, 0, 2, 2, 4, 0])
    for kind in ("max", "min", "sum"):
        got = seg(kind)(jnp.asarray(data), jnp.asarray(ids), 5)
        assert got.dtype == jnp.int32 and got.shape == (5, 2, 2)
        want = reference(kind, data.astype(np.float64), ids, 5)
        if kind == "max":
            want[np.isinf(want)] = np.iinfo(np.int32).min
        if kind == "min":
            want[np.isinf(want)] = np.iinfo(np.int32).max
        np.testing.assert_array_equal(np.asarray(got), want.astype(np.int32))
    u8 = jax.ops.segment_min(jnp.arange(5, dtype=jnp.uint8), jnp.array([0, 0, 2, 2, 2]), 4)
    np.testing.assert_array_equal(np.asarray(u8), [0, 255, 2, 255])
    b = jax.ops.segment_max(jnp.array([True, False]), jnp.array([0, 0]), 3)
    np.testing.assert_array_equal(np.asarray(b), [True, False, False])
    i8 = jax.ops.segment_sum(jnp.arange(4, dtype=jnp.int8), jnp.array([0, 0, 1, 1], jnp.uint8))
    assert i8.dtype == jnp.int8


def test_scalar_data_and_concrete_array_num_segments():
    np.testing.assert_array_equal(np.asarray(jax.ops.segment_sum(3.0, jnp.array(1), 3)), [0, 3, 0])
    got = jax.ops.segment_sum(jnp.asarray(DATA), jnp.asarray(IDS), jnp.array(3))
    np.testing.assert_allclose(np.asarray(got), reference("sum", DATA, IDS, 3))
    assert jax.ops.segment_sum(jnp.asarray(DATA), jnp.asarray(IDS), 0).shape == (0,)


@pytest.mark.parametrize("kind", sorted(OPS))
def test_jit_and_vmap(kind):
    f = seg(kind)
    got = jax.jit(f, static_argnums=2)(jnp.asarray(DATA), jnp.asarray(IDS), 6)
    np.testing.assert_allclose(np.asarray(got), reference(kind, DATA, IDS, 6), rtol=1e-6)
    data = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    ids = np.array([[0, 0, 1, 3], [1, 1, 1, 1], [3, 2, 1, 0]])
    got = jax.vmap(lambda x, i: f(x, i, 4))(jnp.asarray(data), jnp.asarray(ids))
    want = np.stack([reference(kind, d, i, 4) for d, i in zip(data, ids)])
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)


def test_grad_of_sum_gathers_the_cotangent():
    w = jnp.arange(1.0, 5.0)
    ids = jnp.asarray(IDS % 4)
    g = jax.grad(lambda x: (jax.ops.segment_sum(x, ids, 4) * w).sum())(jnp.asarray(DATA))
    np.testing.assert_array_equal(np.asarray(g), np.arange(1.0, 5.0)[IDS % 4])


@pytest.mark.parametrize("kind", ["max", "min"])
def test_grad_of_extrema_splits_among_ties(kind):
    # JAX's scatter-max/min JVP: the segments' tangent is the mean over the tied rows.
    x = jnp.array([1.0, 3.0, 3.0, 2.0, 5.0, 5.0, 5.0])
    ids = jnp.array([0, 0, 0, 1, 2, 2, 2])
    w = jnp.arange(1.0, 5.0)
    g = jax.grad(lambda x: (seg(kind)(x, ids, 4) * w).sum())(x)
    # segment 2 (weight 3) has three tied maxima: 1 each; segment 0 (weight 1) two: 0.5 each.
    want = {"max": [0, 0.5, 0.5, 2, 1, 1, 1], "min": [1, 0, 0, 2, 1, 1, 1]}[kind]
    np.testing.assert_allclose(np.asarray(g), want, rtol=1e-6)
    _, t = jax.jvp(lambda x: seg(kind)(x, ids, 3), (x,), (jnp.arange(7.0),))
    want_t = {"max": [1.5, 3.0, 5.0], "min": [0.0, 3.0, 5.0]}[kind]
    np.testing.assert_allclose(np.asarray(t), want_t, rtol=1e-6)


def test_grad_of_prod_with_unique_indices():
    x = jnp.array([2.0, 3.0, 4.0])
    g = jax.grad(
        lambda x: jax.ops.segment_prod(x, jnp.array([2, 0, 1]), 4, unique_indices=True).sum()
    )(x)
    np.testing.assert_allclose(np.asarray(g), [1.0, 1.0, 1.0])
    with pytest.raises(NotImplementedError, match="unique_indices=True"):
        jax.grad(lambda x: jax.ops.segment_prod(x, jnp.array([0, 0, 1]), 2).sum())(x)


def test_errors():
    d, ids = jnp.asarray(DATA), jnp.asarray(IDS)
    with pytest.raises(TypeError, match="requires ndarray or scalar arguments"):
        jax.ops.segment_sum([1.0, 2.0], [0, 1])
    with pytest.raises(TypeError, match="Indexer must have integer or boolean type"):
        jax.ops.segment_sum(d, ids.astype(jnp.float32), 3)
    with pytest.raises(ValueError, match="num_segments must be non-negative"):
        jax.ops.segment_sum(d, ids, -1)
    with pytest.raises(TypeError):
        jax.ops.segment_sum(d, ids, 2.5)
    with pytest.raises(ValueError):
        jax.ops.segment_sum(d, ids[:3], 4)
    with pytest.raises(ValueError, match='Unknown gather mode "foo"'):
        jax.ops.segment_sum(d, ids, 3, mode="foo")
    with pytest.raises(ValueError, match="zero-size array"):
        jax.ops.segment_sum(d[:0], ids[:0])
    with pytest.raises(TypeError, match="add does not accept dtype bool"):
        jax.ops.segment_sum(jnp.array([True]), jnp.array([0]), 1)
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jax.jit(lambda i: jax.ops.segment_sum(d, i))(ids)
    with pytest.raises(ValueError):
        jax.ops.segment_sum(jnp.ones(3), jnp.array(1), 3)
