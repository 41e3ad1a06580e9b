"""Faults across processes end the whole job within a bounded time, with a clear error
(issue 19): a collective only one process reaches, processes disagreeing on shapes, and a
process raising inside a host callback. Never a silent hang: each launch has a timeout
well under the subprocess limit, and the job's exit status is non-zero."""

from __future__ import annotations

import textwrap
import time

from tests.distributed.mpi_helpers import launch, pytestmark  # noqa: F401

SETUP = """
from jaxlite.experimental import io_callback
from jaxlite.sharding import Mesh, NamedSharding, PartitionSpec as P
jax.config.update("jax_num_cpu_devices", 2)
jax.distributed.initialize(heartbeat_timeout_seconds=HEARTBEAT, shutdown_timeout_seconds=8)
mesh = Mesh(np.array(jax.devices()), ("i",))
s = NamedSharding(mesh, P("i"))
psum = jax.jit(jax.shard_map(lambda b: jax.lax.psum(b, "i"), mesh=mesh, in_specs=P("i"),
                             out_specs=P()))
"""


def _run(body: str, heartbeat: int = 4):
    t0 = time.monotonic()
    script = f"HEARTBEAT = {heartbeat}\n" + SETUP + textwrap.dedent(body)
    proc, done = launch(script, [], timeout=240, check=False)
    return proc, done, time.monotonic() - t0


def test_collective_reached_by_one_process_times_out_and_aborts():
    proc, done, wall = _run(
        """
        x = jax.make_array_from_process_local_data(s, np.ones(2, np.float32))
        ok("before")
        if rank == 0:
            psum(x)
            ok("after")
        """
    )
    assert proc.returncode != 0, proc.stdout
    assert "not every process reached it" in proc.stderr, proc.stderr[-3000:]
    assert "after" not in done[0] and "before" in done[1]
    assert wall < 120


def test_processes_disagreeing_on_shapes_get_a_clear_error():
    proc, done, wall = _run(
        """
        x = jax.make_array_from_process_local_data(s, np.ones(2 + 2 * rank, np.float32))
        psum(x)
        ok("after")
        """
    )
    assert proc.returncode != 0
    assert "processes disagree at collective #0" in proc.stderr, proc.stderr[-3000:]
    assert "float32[1]" in proc.stderr and "float32[2]" in proc.stderr, proc.stderr[-2000:]
    assert done == {0: [], 1: []}
    assert wall < 120


def test_exception_in_one_process_callback_aborts_the_job_with_its_text():
    proc, done, wall = _run(
        """
        def check(i):
            if int(i) == 3:
                raise ValueError("bad shard on device 3")
        def body(b):
            io_callback(check, None, jax.lax.axis_index("i"))
            return jax.lax.psum(b, "i")
        f = jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P("i"), out_specs=P()))
        x = jax.make_array_from_process_local_data(s, np.ones(2, np.float32))
        f(x)
        ok("after")
        """,
        # Far beyond the test's bound: the abort must not wait for the collective timeout.
        heartbeat=300,
    )
    info = (wall, done, proc.stdout[-2000:], proc.stderr[-3000:])
    assert proc.returncode != 0, info
    assert "bad shard on device 3" in proc.stderr, info
    assert "aborting the MPI job" in proc.stderr or "MPI_Abort" in proc.stderr, info
    assert "after" not in done[0] and "after" not in done[1], info
    assert wall < 150, info  # far below the 300 s collective timeout


def test_process_that_dies_ends_the_job():
    proc, done, wall = _run(
        """
        x = jax.make_array_from_process_local_data(s, np.ones(2, np.float32))
        ok("before")
        if rank == 1:
            os._exit(3)  # dies without a word: no exception, no MPI finalize
        psum(x)
        ok("after")
        """
    )
    info = (wall, done, proc.stdout[-2000:], proc.stderr[-3000:])
    assert proc.returncode != 0, info
    assert "after" not in done[0], info
    assert wall < 120, info
