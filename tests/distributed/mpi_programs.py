"""Programs run twice by ``test_mpi_collectives.py``: under ``mpiexec -n 2`` (2 processes x
2 virtual devices) and in one process with 4 devices. Each run saves, for every result,
the blocks of its addressable devices keyed by the device's position in ``jax.devices()``;
the test checks that the two runs agree bit for bit.

Usage: ``python mpi_programs.py OUTDIR`` (one process) or
``mpiexec -n 2 python mpi_programs.py OUTDIR``.
"""

from __future__ import annotations

import os
import sys

import numpy as np

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax
from jaxlite.experimental import multihost_utils
from jaxlite.sharding import Mesh, NamedSharding, PartitionSpec as P

MULTI = "PMI_RANK" in os.environ or "OMPI_COMM_WORLD_RANK" in os.environ
jax.config.update("jax_num_cpu_devices", 2 if MULTI else 4)
if MULTI:
    jax.distributed.initialize()
RANK = jax.process_index()
DEVS = jax.devices()
POS = {d: i for i, d in enumerate(DEVS)}
OUT: dict = {}


def data(shape, seed):
    """Order-sensitive float32 data: sums of it depend on the order of addition."""
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * 10.0 ** rng.integers(-6, 7, shape)).astype(np.float32)


def global_array(value, sharding):
    return jax.make_array_from_callback(value.shape, sharding, lambda idx: value[idx])


def save(name, x):
    for k, leaf in enumerate(jax.tree_util.tree_leaves(x)):
        if not isinstance(leaf, jax.Array):
            OUT[f"{name}/{k}/host"] = np.asarray(leaf)
            continue
        for s in leaf.addressable_shards:
            OUT[f"{name}/{k}/{POS[s.device]}"] = np.asarray(s.data)


mesh1 = Mesh(np.array(DEVS), ("i",))
# 'x' crosses the process boundary, 'y' stays inside each process; mesh_t the other way.
mesh2 = Mesh(np.array(DEVS).reshape(2, 2), ("x", "y"))
mesh_t = Mesh(np.array(DEVS).reshape(2, 2).T, ("x", "y"))

x1 = global_array(data((8, 3), 0), NamedSharding(mesh1, P("i")))


def sm(body, mesh=mesh1, in_specs=None, out_specs=None, **kw):
    in_specs = P("i") if in_specs is None else in_specs
    out_specs = P() if out_specs is None else out_specs
    return jax.jit(jax.shard_map(body, mesh=mesh, in_specs=in_specs, out_specs=out_specs, **kw))


save("psum", sm(lambda b: lax.psum(b, "i"))(x1))
save("pmean", sm(lambda b: lax.pmean(b, "i"))(x1))
save("pmax", sm(lambda b: lax.pmax(b, "i"))(x1))
save("pmin", sm(lambda b: lax.pmin(b, "i"))(x1))
save(
    "psum_int",
    sm(lambda b: lax.psum(b, "i"))(
        global_array(np.arange(8, dtype=np.int32), NamedSharding(mesh1, P("i")))
    ),
)
save("all_gather", sm(lambda b: lax.all_gather(b, "i"), check_vma=False)(x1))
save(
    "all_gather_tiled",
    sm(lambda b: lax.all_gather(b, "i", axis=1, tiled=True), out_specs=P("i"))(x1),
)
save(
    "psum_scatter",
    sm(lambda b: lax.psum_scatter(jnp.tile(b, (2, 1)), "i", tiled=True), out_specs=P("i"))(x1),
)
ring = [(j, (j + 1) % 4) for j in range(4)]
save("ppermute_ring", sm(lambda b: lax.ppermute(b, "i", ring), out_specs=P("i"))(x1))
save("ppermute_partial", sm(lambda b: lax.ppermute(b, "i", [(0, 3), (3, 1)]), out_specs=P("i"))(x1))
x_a2a = global_array(data((16, 4), 1), NamedSharding(mesh1, P("i")))
save("all_to_all", sm(lambda b: lax.all_to_all(b, "i", 0, 0, tiled=True), out_specs=P("i"))(x_a2a))
save("axis_index", sm(lambda b: b * 0 + lax.axis_index("i"), out_specs=P("i"))(x1))
save(
    "eager_shard_map",
    jax.shard_map(lambda b: lax.psum(b * b, "i"), mesh=mesh1, in_specs=P("i"), out_specs=P())(x1),
)

# An Explicit mesh (make_mesh's default), as spec S13.4 ran it.
mesh_e = jax.make_mesh((4,), ("i",))
x_e = global_array(data((8, 3), 0), NamedSharding(mesh_e, P("i")))
save("psum_explicit", sm(lambda b: lax.psum(b, "i"), mesh=mesh_e)(x_e))
save("global_sum_explicit", jax.jit(jnp.sum)(x_e))

for tag, mesh in (("m2", mesh2), ("mt", mesh_t)):
    x2 = global_array(data((4, 6), 2), NamedSharding(mesh, P("x", "y")))
    s2 = lambda body, out, **kw: sm(body, mesh, P("x", "y"), out, **kw)  # noqa: E731
    save(f"{tag}_psum_x", s2(lambda b: lax.psum(b, "x"), P(None, "y"))(x2))
    save(f"{tag}_psum_y", s2(lambda b: lax.psum(b, "y"), P("x", None))(x2))
    save(f"{tag}_psum_xy", s2(lambda b: lax.psum(b, ("x", "y")), P())(x2))
    save(f"{tag}_psum_yx", s2(lambda b: lax.psum(b, ("y", "x")), P())(x2))
    save(
        f"{tag}_gather_x",
        s2(lambda b: lax.all_gather(b, "x", tiled=True), P(None, "y"), check_vma=False)(x2),
    )
    save(f"{tag}_index", s2(lambda b: b * 0 + lax.axis_index(("y", "x")), P("x", "y"))(x2))

# Gradients through shard_map (transposes of psum and of the implicit broadcast).
w = data((3, 2), 3)
xs = global_array(data((8, 3), 4), NamedSharding(mesh1, P("i")))


def loss(w, xb):
    return lax.psum(jnp.sum(jnp.tanh(xb @ w) ** 2), "i")


grad_fn = jax.jit(
    jax.grad(
        lambda w, x: jax.shard_map(loss, mesh=mesh1, in_specs=(P(), P("i")), out_specs=P())(w, x)
    )
)
save("grad", grad_fn(w, xs))

# pmap: each process passes its devices' elements (JAX's multi-process pmap).
full = data((4, 5), 5)
local = full[2 * RANK : 2 * RANK + 2] if MULTI else full
pm = jax.pmap(lambda v: v - lax.pmean(v, "p") + lax.axis_index("p"), axis_name="p")(local)
OUT[f"pmap/rows{2 * RANK if MULTI else 0}"] = np.asarray(pm)

# Global-view computations on arrays spanning processes: gathered, the same everywhere.
save("global_sum", jax.jit(jnp.sum)(x1))
save("eager_global", jnp.cumsum(x1, axis=0))
save("elementwise", jnp.sin(x1) * 2.0 + x1)
save("allgather_util", multihost_utils.process_allgather(x1, tiled=True))

np.savez(os.path.join(sys.argv[1], f"{'multi' if MULTI else 'single'}{RANK}.npz"), **OUT)
print(f"rank {RANK}: {len(OUT)} results", flush=True)
