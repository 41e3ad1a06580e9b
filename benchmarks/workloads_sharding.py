"""Sharding workloads: shard_map's per-device bodies running on threads (issue 13).

``run.py`` gives both libraries 2 virtual CPU devices before first use.
"""

import numpy as np
from registry import workload

N = 4_000_000


def _chain(m, x):
    y = m.sin(x)
    y = y * 2.0
    y = y + 1.0
    y = m.exp(-y)
    y = y * x
    y = m.tanh(y)
    y = y - 0.5
    y = m.abs(y)
    y = m.sqrt(y)
    return y + x


@workload(
    "shard_map_chain_2dev",
    "jit(shard_map(chain of 10 elementwise ops)) on float32[4_000_000] over 2 devices; "
    "NumPy column: the same chain on one core",
    target="<= 0.625x NumPy (>= 1.6x faster than one device; JAX gains ~1.1x)",
    numpy=True,
)
def _shard_map_chain(lib):
    x0 = np.random.RandomState(0).rand(N).astype(np.float32)
    if lib.name == "numpy":
        return lambda: _chain(np, x0)
    jax = lib.jax
    if jax.device_count() < 2:
        return None  # the device count was fixed before run.py could raise it
    P = jax.sharding.PartitionSpec
    mesh = jax.make_mesh(
        (2,), ("i",), axis_types=(jax.sharding.AxisType.Auto,), devices=jax.devices()[:2]
    )
    x = jax.device_put(x0, jax.sharding.NamedSharding(mesh, P("i")))
    f = jax.jit(
        jax.shard_map(lambda a: _chain(lib.jnp, a), mesh=mesh, in_specs=P("i"), out_specs=P("i"))
    )
    f(x)
    return lambda: f(x)
