"""Top-level names added in session 8, against JAX 0.10.2: fwd_and_bwd, no_tracing, the
accepted and the refused config flags, NamedSharding/Shard, copy_to_host_async,
print_environment_info."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402

import jaxlite  # noqa: E402
import jaxlite.numpy as jnp  # noqa: E402

X = (np.arange(4.0, dtype=np.float32).reshape(2, 2) - 1.5) * 0.4
W = np.array([[0.3, -0.2], [0.5, 0.1]], np.float32)
CT = np.array([[1.0, 2.0], [-1.0, 0.5]], np.float32)


def _f(m):
    return lambda x, w: m.numpy.tanh(x @ w) * w.sum()


@pytest.mark.parametrize("argnums", [0, 1, (0, 1), (1,)])
@pytest.mark.parametrize("jitted", [True, False])
def test_fwd_and_bwd(argnums, jitted):
    ours = jaxlite.fwd_and_bwd(_f(jaxlite), argnums, jitted=jitted)
    theirs = jax.fwd_and_bwd(_f(jax), argnums, jitted=jitted)
    (y1, r1), (y2, r2) = ours[0](X, W), theirs[0](X, W)
    np.testing.assert_allclose(np.asarray(y1), np.asarray(y2), rtol=1e-6)
    g1, g2 = ours[1](r1, CT), theirs[1](r2, CT)
    assert isinstance(g1, tuple) == isinstance(g2, tuple)
    for a, b in zip(jaxlite.tree_util.tree_leaves(g1), jax.tree_util.tree_leaves(g2)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-6)


def test_fwd_and_bwd_has_aux_and_reuse():
    f = lambda x, w: (jnp.sin(x * w).sum(), {"x": x})  # noqa: E731
    fwd, bwd = jaxlite.fwd_and_bwd(f, argnums=1, has_aux=True)
    for i in range(3):
        y, res, aux = fwd(X * i, W)
        want = np.cos(X * i * W) * X * i
        got = np.asarray(bwd(res, np.float32(1.0)))
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
        np.testing.assert_array_equal(np.asarray(aux["x"]), X * i)
    assert bwd.trace_count == 1  # the jitted backward compiled once for all three steps
    with pytest.raises(TypeError):
        jaxlite.fwd_and_bwd(f, argnums=3)[0](X, W)


def test_no_tracing():
    f = jaxlite.jit(lambda x: x * 2)
    g = jax.jit(lambda x: x * 2)
    for fn, m in ((f, jaxlite), (g, jax)):
        with m.no_tracing(True):
            with pytest.raises(RuntimeError, match="for `jit`, but 'no_tracing' is set"):
                fn(1.0)
    assert float(f(3.0)) == 6.0


def test_flags():
    for name in ("allow_f16_reductions", "softmax_custom_jvp", "auto_pcast"):
        assert getattr(jaxlite.config, f"jax_{name}") == getattr(jax.config, f"jax_{name}")
        with getattr(jaxlite, name)(not getattr(jaxlite.config, f"jax_{name}")):
            pass
    with jaxlite.array_garbage_collection_guard("log"):
        assert jaxlite.config.jax_array_garbage_collection_guard == "log"
    with pytest.raises(ValueError):
        with jaxlite.array_garbage_collection_guard("sometimes"):
            pass
    for name in ("debug_key_reuse", "no_execution", "thread_guard"):
        with pytest.raises(NotImplementedError, match="not implemented in jaxlite"):
            with getattr(jaxlite, name)(True):
                pass


def test_small_names():
    assert jaxlite.NamedSharding is jaxlite.sharding.NamedSharding
    assert jaxlite.Shard.__name__ == "Shard"
    tree = {"a": jnp.ones(2)}
    assert jaxlite.copy_to_host_async(tree) is tree
    text = jaxlite.print_environment_info(return_string=True)
    assert "numpy:" in text and "device info: cpu-" in text and "0.10.2" in text
