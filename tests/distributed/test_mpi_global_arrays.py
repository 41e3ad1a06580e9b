# ruff: noqa: E501 (the launched script is kept in one piece)
"""Global arrays and host callbacks across 2 processes x 2 devices (spec S13.3, S16.12).

One ``mpiexec -n 2`` launch; every rank reports each check it passed.
"""

from __future__ import annotations

from tests.distributed.mpi_helpers import launch, pytestmark  # noqa: F401

CHECKS = [
    "local_data",
    "shards",
    "fetch_error",
    "replicated",
    "allgather",
    "single_device_arrays",
    "callback_local",
    "bad_local_data",
    "device_put",
    "shard_map_callbacks",
    "global_view_callback",
    "eager_callback_error",
    "mixed_callbacks",
]


def test_global_arrays_and_callbacks_across_processes():
    launch(
        """
        from jaxlite.experimental import io_callback, multihost_utils as mh
        from jaxlite.sharding import Mesh, NamedSharding, PartitionSpec as P
        jax.config.update("jax_num_cpu_devices", 2)
        jax.distributed.initialize()
        devs = jax.devices()
        mesh = Mesh(np.array(devs), ("i",))
        s = NamedSharding(mesh, P("i"))
        mine = np.arange(4, dtype=np.float32) + 10 * rank
        x = jax.make_array_from_process_local_data(s, mine)
        assert x.shape == (8,) and x.dtype == np.float32, (x.shape, x.dtype)
        ok("local_data")
        sh = x.addressable_shards
        assert [d.device.id for d in sh] == ([0, 1] if rank == 0 else [2048, 2049])
        assert [d.index for d in sh] == [(slice(2 * k, 2 * k + 2),) for k in
                                         ((0, 1) if rank == 0 else (2, 3))]
        assert [np.asarray(d.data).tolist() for d in sh] == [mine[:2].tolist(), mine[2:].tolist()]
        assert not x.is_fully_addressable and not x.is_fully_replicated
        g = x.global_shards
        assert len(g) == 4
        assert [d.device.id for d in g] == ([0, 1, 2048, 2049] if rank == 0 else [2048, 2049, 0, 1])
        assert [d.data is None for d in g] == [False, False, True, True]
        ok("shards")
        raises(RuntimeError, "Fetching value for `jax.Array` that spans non-addressable", np.asarray, x)
        raises(RuntimeError, "process_allgather", x.tolist)
        assert repr(x) == "Array(shape=(8,), dtype=float32)", repr(x)
        ok("fetch_error")
        r = jax.make_array_from_process_local_data(NamedSharding(mesh, P()), np.arange(3.0))
        assert not r.is_fully_addressable and r.is_fully_replicated
        assert np.asarray(r).tolist() == [0.0, 1.0, 2.0]
        ok("replicated")
        assert mh.process_allgather(x, tiled=True).tolist() == [0, 1, 2, 3, 10, 11, 12, 13]
        raises(ValueError, "only supports tiled=True", mh.process_allgather, x)
        ok("allgather")
        local = jax.local_devices()
        arrs = [jax.device_put(np.full((2, 3), 100 * rank + k, np.int32), d)
                for k, d in enumerate(local)]
        y = jax.make_array_from_single_device_arrays((8, 3), s, arrs)
        assert [np.asarray(d.data)[0, 0] for d in y.addressable_shards] == [100 * rank, 100 * rank + 1]
        assert mh.process_allgather(y, tiled=True)[:, 0].tolist() == [0, 0, 1, 1, 100, 100, 101, 101]
        raises(ValueError, "2 addressable devices but 1 arrays", jax.make_array_from_single_device_arrays,
               (8, 3), s, arrs[:1])
        ok("single_device_arrays")
        seen = []
        def cb(index):
            seen.append(index)
            return np.arange(16, dtype=np.float32).reshape(8, 2)[index]
        z = jax.make_array_from_callback((8, 2), s, cb)
        assert seen == [(slice(4 * rank, 4 * rank + 2),), (slice(4 * rank + 2, 4 * rank + 4),)] or \\
            [i[0].start for i in seen] == [4 * rank, 4 * rank + 2], seen
        assert mh.process_allgather(z, tiled=True).tolist() == np.arange(16.0).reshape(8, 2).tolist()
        ok("callback_local")
        raises(ValueError, "does not match this process's part", jax.make_array_from_process_local_data,
               s, np.zeros(3, np.float32), (8,))
        ok("bad_local_data")
        full = np.arange(8.0, dtype=np.float32)
        w = jax.device_put(full, s)
        assert [np.asarray(d.data).tolist() for d in w.addressable_shards] == \\
            [full[4 * rank: 4 * rank + 2].tolist(), full[4 * rank + 2: 4 * rank + 4].tolist()]
        raises(RuntimeError, "non-addressable", np.asarray, w)
        ok("device_put")
        # shard_map: each process runs the callbacks of its own devices.
        rows = []
        def log(i, v):
            rows.append((int(i), float(v)))
        f = jax.jit(jax.shard_map(
            lambda b: (io_callback(log, None, jax.lax.axis_index("i"), b.sum(), ordered=True), b * 2)[1],
            mesh=mesh, in_specs=P("i"), out_specs=P("i")))
        out = f(x)
        jax.effects_barrier()
        want = [(2 * rank + k, float(mine[2 * k] + mine[2 * k + 1])) for k in (0, 1)]
        assert sorted(rows) == want, (rows, want)
        assert mh.process_allgather(out, tiled=True).tolist() == [0, 2, 4, 6, 20, 22, 24, 26]
        ok("shard_map_callbacks")
        # Global view: the callback runs once, in process 0, with the gathered value.
        calls = []
        def host(v):
            calls.append(np.asarray(v).tolist())
            return np.asarray(v) * 3
        gv = jax.jit(lambda v: jax.pure_callback(host, jax.ShapeDtypeStruct(v.shape, v.dtype), v) + 1)(x)
        assert calls == ([[0, 1, 2, 3, 10, 11, 12, 13]] if rank == 0 else []), calls
        assert mh.process_allgather(gv, tiled=True).tolist() == [1, 4, 7, 10, 31, 34, 37, 40]
        ok("global_view_callback")
        raises(NotImplementedError, "under jax.jit", io_callback, log, None, x, 1.0)
        ok("eager_callback_error")
        # A global-view jit with a shard_map inside: the shard_map's callbacks stay per
        # device (each process its own), the global-view callback runs once, in process 0.
        rows.clear()
        calls.clear()
        inner = jax.shard_map(
            lambda b: (io_callback(log, None, jax.lax.axis_index("i"), b.sum(), ordered=True), b * 2)[1],
            mesh=mesh, in_specs=P("i"), out_specs=P("i"))
        def mixed(v):
            total = jnp.sum(v)
            return inner(v), jax.pure_callback(host, jax.ShapeDtypeStruct((), v.dtype), total)
        y2, t2 = jax.jit(mixed)(x)
        jax.effects_barrier()
        assert sorted(rows) == want, (rows, want)
        assert calls == ([52.0] if rank == 0 else []), calls
        assert float(t2) == 156.0
        assert mh.process_allgather(y2, tiled=True).tolist() == [0, 2, 4, 6, 20, 22, 24, 26]
        ok("mixed_callbacks")
        """,
        CHECKS,
    )
