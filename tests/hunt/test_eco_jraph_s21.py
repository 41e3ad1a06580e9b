"""Session 21: jraph 0.0.6.dev0's own tests run with jaxlite installed as ``jax``; each
jaxlite-only failure reduced here to plain jax/jnp. Expected values are JAX 0.10.2's (the
file passes in oracle mode, ``JAXLITE_ORACLE=jax``).

* ``jax.ops.segment_sum/max/min/prod`` of a scalar (or single-row) ``data`` with 1-D
  ``segment_ids`` (jraph's attention ``GraphNetwork`` with a constant logit normalizes it
  with ``segment_softmax``): JAX scatters into ``out.at[segment_ids]``, broadcasting the
  datum to every id; jaxlite raised ``TypeError: reshape total size must be unchanged``.
* ``jax._src.xla_bridge.get_backend.cache_clear()`` (jraph's sharded tests call it after
  setting ``XLA_FLAGS``): JAX's ``get_backend`` is memoized; jaxlite's had no
  ``cache_clear`` (AttributeError).
"""

import importlib

import numpy as np
import pytest

from tests.hunt.oracle import same

IDS = [0, 1, 1, 2, 0, 3, 2, 1]
KINDS = ["segment_sum", "segment_max", "segment_min", "segment_prod"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("bucket_size", [None, 3], ids=["whole", "buckets"])
@pytest.mark.parametrize(
    "data", [np.float32(2.0), np.array([[1.0, 2.0, 3.0]], np.float32)], ids=["scalar", "row"]
)
def test_segment_broadcasts_scalar_and_single_row_data(kind, bucket_size, data):
    def build(m):
        ids = m.jnp.array(IDS)
        f = lambda d: getattr(m.jx.ops, kind)(d, ids, 4, bucket_size=bucket_size)
        # (segment_prod has no gradient for repeated ids on either engine)
        g = m.jx.grad(lambda d: f(d).sum())(data) if kind != "segment_prod" else m.jnp.zeros(0)
        return f(data), m.jx.jit(f)(data), g

    out, jitted, grad = same(build)
    expect_row = np.broadcast_to(data, (1,) + np.shape(data)[1:])[0]
    count = np.bincount(IDS, minlength=4)
    if kind == "segment_sum":
        want = count[:, None] * expect_row if np.ndim(data) else count * data
    elif kind == "segment_prod":
        want = expect_row[None] ** count[:, None] if np.ndim(data) else data**count
    else:
        want = np.broadcast_to(expect_row, (4,) + np.shape(expect_row))
    np.testing.assert_allclose(np.asarray(out), np.reshape(want, np.shape(out)), rtol=1e-6)
    np.testing.assert_array_equal(np.asarray(jitted), np.asarray(out))
    if kind == "segment_sum":  # each datum is used once per id
        np.testing.assert_allclose(np.asarray(grad), np.full(np.shape(data), len(IDS)))


def test_segment_scalar_data_softmax_as_jraph():
    def build(m):
        ids = m.jnp.array(IDS)
        logits = m.jnp.array(1.0)
        maxs = m.jx.ops.segment_max(logits, ids, 4)
        e = m.jnp.exp(logits - maxs[ids])
        return e / m.jx.ops.segment_sum(e, ids, 4)[ids]

    out = same(build)
    np.testing.assert_allclose(np.asarray(out), 1.0 / np.bincount(IDS)[IDS], rtol=1e-6)


def test_segment_data_rows_that_do_not_match_ids_still_raise():
    def build(m):
        return m.jx.ops.segment_sum(m.jnp.ones(3), m.jnp.array(IDS), 4)

    assert isinstance(same(build), ValueError)


def test_xla_bridge_get_backend_is_memoized():
    from tests.hunt.oracle import JAX, LITE

    for m in [LITE] + ([JAX] if JAX is not None else []):
        if m.jx.__name__ == "jaxlite":
            xb = importlib.import_module("jaxlite._jax_compat.xla_bridge")
        else:  # the real JAX (also LITE in oracle mode)
            xb = importlib.import_module("jax._src.xla_bridge")
        b = xb.get_backend()
        assert xb.get_backend() is b
        xb.get_backend.cache_clear()
        assert xb.get_backend().platform == "cpu"
