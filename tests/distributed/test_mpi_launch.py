"""``jax.distributed`` under ``mpiexec -n 2`` (2 processes x 2 virtual devices; spec S13.2).

One launch runs many checks; every rank appends ``<check>`` lines to its own file (output
of two ranks interleaves on stdout) and the test asserts both ranks reported every check.
Skipped when mpi4py or mpiexec is absent.
"""

from __future__ import annotations

from tests.distributed.mpi_helpers import launch as _launch, pytestmark  # noqa: F401

CHECKS = [
    "mismatch",
    "explicit",
    "twice",
    "process",
    "devices",
    "local",
    "compute",
    "multihost",
    "shutdown",
]


def test_two_processes_two_devices_each():
    _launch(
        """
        jax.config.update("jax_num_cpu_devices", 2)
        # Arguments contradicting MPI raise before anything is installed.
        raises(ValueError, "the MPI job has 2 processes", jax.distributed.initialize,
               num_processes=3)
        raises(ValueError, f"this process is MPI rank {rank}", jax.distributed.initialize,
               process_id=1 - rank)
        assert not jax.distributed.is_initialized()
        ok("mismatch")
        # The explicit form is accepted (the coordinator address is unused under MPI).
        jax.distributed.initialize(coordinator_address="localhost:12355", num_processes=2,
                                   process_id=rank)
        assert jax.distributed.is_initialized()
        ok("explicit")
        raises(RuntimeError, "distributed.initialize should only be called once.",
               jax.distributed.initialize)
        ok("twice")
        assert jax.process_index() == rank and jax.process_count() == 2
        ok("process")
        devs = jax.devices()
        assert [d.id for d in devs] == [0, 1, 2048, 2049], devs
        assert [d.process_index for d in devs] == [0, 0, 1, 1]
        assert [d.local_hardware_id for d in devs] == [0, 1, 0, 1]
        assert jax.device_count() == 4
        assert devs == jax.devices() and all(a is b for a, b in zip(devs, jax.devices()))
        ok("devices")
        local = jax.local_devices()
        assert local == devs[2 * rank: 2 * rank + 2], local
        assert jax.local_device_count() == 2
        assert jax.local_devices(process_index=1 - rank) == devs[2 * (1 - rank): 2 * (1 - rank) + 2]
        raises(ValueError, "Unknown process_index 2", jax.local_devices, process_index=2)
        ok("local")
        # Process-local computation runs on this process's first device.
        x = jnp.arange(4.0) + 10 * rank
        y = jax.jit(lambda v: (v * 2).sum())(x)
        assert float(y) == float(np.sum((np.arange(4.0) + 10 * rank) * 2))
        assert x.devices() == {local[0]}, x.devices()
        ok("compute")
        from jaxlite.experimental import multihost_utils as mh
        mine = np.arange(3.0, dtype=np.float32) + 10 * rank
        g = mh.process_allgather(mine)
        assert g.shape == (2, 3) and g.tolist() == [[0, 1, 2], [10, 11, 12]], g
        assert mh.process_allgather(x, tiled=True).tolist() == [0, 1, 2, 3, 10, 11, 12, 13]
        assert mh.process_allgather({"a": float(rank)})["a"].tolist() == [0.0, 1.0]
        b = mh.broadcast_one_to_all(mine)
        assert b.dtype == np.float32 and b.tolist() == [0, 1, 2], b
        assert mh.broadcast_one_to_all(mine, is_source=rank == 1).tolist() == [10, 11, 12]
        assert mh.sync_global_devices("step") is None
        ok("multihost")
        jax.distributed.shutdown()
        assert not jax.distributed.is_initialized()
        raises(RuntimeError, "must be called before any JAX calls", jax.distributed.initialize)
        ok("shutdown")
        """,
        CHECKS,
    )


def test_ranks_disagreeing_on_local_device_count_fail_on_every_rank():
    _launch(
        """
        jax.config.update("jax_num_cpu_devices", 1 + rank)
        raises(RuntimeError, "per process: [1, 2]", jax.distributed.initialize)
        assert not jax.distributed.is_initialized()
        ok("disagree")
        """,
        ["disagree"],
    )
