"""Multi-process runtime (``jax.distributed``) on MPI through mpi4py (spec S13, S14).

Every process runs the same program (multi-controller SPMD). ``initialize()`` learns this
process's rank and the rank count from MPI's ``COMM_WORLD`` and installs an
``_MPIProcessModel`` through the process-model seam of ``jaxlite._src.devices``; from then
on ``jax.devices()`` is the global list (process ``p``'s CPU devices are numbered from
``p * 2048``, S13.2) and ``jax.local_devices()`` this process's share.

Besides the process model, the runtime keeps the communicators of cross-process
collectives (``group_comm``: a duplicate of ``COMM_WORLD``, or a sub-communicator for a
mesh over some of the processes), their timeout (``heartbeat_timeout_seconds``), and the
fault handling: an uncaught exception in any process prints its traceback and aborts the
whole MPI job (``MPI.COMM_WORLD.Abort``), so no process waits forever for one that died;
at exit the processes meet at a barrier bounded by ``shutdown_timeout_seconds``.

mpi4py is optional (``pip install jaxlite[mpi]``) and imported only here, only when a
multi-process run is requested.
"""

from __future__ import annotations

import atexit
import importlib
import os
import sys
import time

from jaxlite._src import devices as _devices

_INSTALL_HINT = (
    "jaxlite's multi-process runtime runs on MPI through mpi4py, which is not installed. "
    "Install it with `pip install jaxlite[mpi]` (mpi4py and the mpich wheel) and launch "
    "the program with `mpiexec -n N python prog.py`."
)

# (rank, size) variables set by MPI launchers: MPICH/Hydra (PMI_*), Open MPI, PMIx.
_LAUNCHER_ENV = (
    ("PMI_RANK", "PMI_SIZE"),
    ("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"),
    ("PMIX_RANK", None),
)


class _MPIProcessModel:
    """The process model of an MPI job: ``size`` ranks, each with the same local devices.

    Attributes:
        comm: the ``mpi4py`` communicator (``COMM_WORLD``), or ``None`` for one process.
        process_index: this process's rank.
        process_count: the number of ranks.
        num_local: the local device count every rank agreed on at ``initialize``.
    """

    def __init__(
        self,
        comm,
        process_index: int,
        process_count: int,
        num_local: int,
        collective_timeout: float = 100.0,
        shutdown_timeout: float = 300.0,
    ):
        self.comm = comm
        self.process_index = process_index
        self.process_count = process_count
        self.num_local = num_local
        self.collective_timeout = float(collective_timeout)
        self.shutdown_timeout = float(shutdown_timeout)
        # Collectives and the exit barrier use their own duplicates of COMM_WORLD, so a
        # process leaving early never matches another's collective.
        self.coll_comm = comm.Dup() if comm is not None and process_count > 1 else None
        self.exit_comm = comm.Dup() if comm is not None and process_count > 1 else None
        self._groups: dict = {}

    def group_comm(self, procs: list):
        """The communicator of the processes ``procs`` (sorted ranks); None if this
        process is not one of them."""
        if self.process_index not in procs:
            return None
        if len(procs) == self.process_count:
            return self.coll_comm
        key = tuple(procs)
        c = self._groups.get(key)
        if c is None:
            group = self.coll_comm.Get_group().Incl(list(procs))
            c = self._groups[key] = self.coll_comm.Create_group(group)
        return c

    def make_devices(self, num_local: int) -> tuple:
        if num_local != self.num_local:
            raise RuntimeError(
                f"jax_num_cpu_devices changed from {self.num_local} to {num_local} after "
                "jax.distributed.initialize(); set it before initialize, the same on every "
                "process."
            )
        return tuple(
            _devices.Device(_devices.global_device_id(p, i), p, i)
            for p in range(self.process_count)
            for i in range(num_local)
        )


class _State:
    running = False
    model: _MPIProcessModel | None = None


_state = _State()


def _launcher_world() -> tuple[int, int] | None:
    """(rank, size) from an MPI launcher's environment, or None outside one."""
    for rank_var, size_var in _LAUNCHER_ENV:
        if rank_var in os.environ:
            size = os.environ.get(size_var) if size_var else None
            return int(os.environ[rank_var]), (int(size) if size is not None else -1)
    return None


def _import_mpi():
    """``mpi4py.MPI``, or None when mpi4py is not installed."""
    try:
        return importlib.import_module("mpi4py.MPI")
    except ImportError:
        return None


def initialize(
    coordinator_address: str | None = None,
    num_processes: int | None = None,
    process_id: int | None = None,
    local_device_ids: int | list[int] | None = None,
    cluster_detection_method: str | None = None,
    initialization_timeout: int = 300,
    heartbeat_timeout_seconds: int = 100,
    shutdown_timeout_seconds: int = 300,
    coordinator_bind_address: str | None = None,
    slice_index: int | None = None,
    partition_index: int | None = None,
) -> None:
    """Start the multi-process runtime (``jax.distributed.initialize``).

    Under an MPI launcher (``mpiexec -n N``, detected from ``PMI_RANK``/``PMI_SIZE`` or
    ``OMPI_COMM_WORLD_*``) or with ``cluster_detection_method='mpi4py'``, no argument is
    needed: rank and size come from ``MPI.COMM_WORLD`` (JAX itself only auto-detects Open
    MPI, S16.10). Explicit ``num_processes``/``process_id`` are accepted and must agree
    with MPI; ``coordinator_address`` is accepted and unused (MPI needs no coordinator).
    Outside MPI only the one-process form (``num_processes=1``) works.

    Every process must set the same ``jax_num_cpu_devices`` before calling this.

    Raises:
        RuntimeError: ``distributed.initialize should only be called once.``; or called
            after the first device query or computation (JAX's message); or several
            processes requested without mpi4py (says ``pip install jaxlite[mpi]``); or
            ranks disagreeing on the local device count.
        ValueError: JAX's ``coordinator_address should be defined.`` /
            ``Number of processes must be defined.`` / ``The process id of the current
            process must be defined.`` outside a launcher; arguments that contradict MPI.
        NotImplementedError: ``local_device_ids`` (not supported yet).
    """
    del initialization_timeout, coordinator_bind_address, slice_index, partition_index
    if _devices.backends_initialized():
        raise RuntimeError(
            "jax.distributed.initialize() must be called before any JAX calls that might "
            "initialise the XLA backend. This includes any computation, but also calls to "
            "jax.devices, jax.device_put, and others."
        )
    if _state.running or _state.model is not None:
        raise RuntimeError("distributed.initialize should only be called once.")
    if local_device_ids is not None:
        raise NotImplementedError(
            "jax.distributed.initialize(local_device_ids=...) is not supported by jaxlite yet; "
            "set jax_num_cpu_devices on every process instead."
        )
    if cluster_detection_method not in (None, "mpi4py"):
        raise ValueError(
            f"cluster_detection_method={cluster_detection_method!r} is not supported by "
            "jaxlite; its multi-process runtime is MPI ('mpi4py')."
        )
    world = _launcher_world()
    want_mpi = cluster_detection_method == "mpi4py" or world is not None
    if not want_mpi:
        if coordinator_address is None:
            raise ValueError("coordinator_address should be defined.")
        if num_processes is None:
            raise ValueError("Number of processes must be defined.")
        if process_id is None:
            raise ValueError("The process id of the current process must be defined.")
        if num_processes != 1:
            raise RuntimeError(
                f"jax.distributed.initialize(num_processes={num_processes}) outside an MPI "
                "launcher: jaxlite's multi-process runtime is MPI; launch every process with "
                "`mpiexec -n N python prog.py` (install it with `pip install jaxlite[mpi]`)."
            )
        if process_id != 0:
            raise ValueError(f"process_id={process_id} is out of range for num_processes=1.")
        _install(None, 0, 1)
        return
    timeouts = (heartbeat_timeout_seconds, shutdown_timeout_seconds)
    mpi = _import_mpi()
    if mpi is None:
        if world is not None and world[1] == 1:
            _install(None, 0, 1)
            return
        raise RuntimeError(_INSTALL_HINT)
    comm = mpi.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    if num_processes is not None and num_processes != size:
        raise ValueError(f"num_processes={num_processes}, but the MPI job has {size} processes.")
    if process_id is not None and process_id != rank:
        raise ValueError(f"process_id={process_id}, but this process is MPI rank {rank}.")
    _install(comm, rank, size, timeouts)


def _install(comm, rank: int, size: int, timeouts=(100.0, 300.0)) -> None:
    num_local = _devices._requested_count()
    if comm is not None and size > 1:
        counts = comm.allgather(num_local)
        if len(set(counts)) != 1:
            raise RuntimeError(
                "every process must have the same number of local devices "
                f"(jax_num_cpu_devices); per process: {counts}"
            )
    model = _MPIProcessModel(comm, rank, size, num_local, *timeouts)
    _devices.set_process_model(model)
    _state.model = model
    _state.running = True
    if model.coll_comm is not None:
        _install_fault_handling(comm)


_hooks_installed = [False]


def _install_fault_handling(comm) -> None:
    """An uncaught exception aborts the job; the exit waits (bounded) for every process."""
    if _hooks_installed[0]:
        return
    _hooks_installed[0] = True
    previous = sys.excepthook

    def excepthook(kind, value, tb):
        previous(kind, value, tb)
        rank = comm.Get_rank()
        _abort(comm, f"jaxlite: process {rank} raised {kind.__name__}; aborting the MPI job")

    sys.excepthook = excepthook
    atexit.register(_exit_barrier)


def _abort(comm, message: str) -> None:
    """Print ``message``, give the launcher a moment to forward this process's output (an
    abort kills every process at once), then abort the whole MPI job."""
    sys.stdout.flush()
    sys.stderr.write(message + "\n")
    sys.stderr.flush()
    time.sleep(0.5)
    comm.Abort(1)


def _exit_barrier() -> None:
    model = _state.model
    if model is None or model.exit_comm is None or not _state.running:
        return
    req = model.exit_comm.Ibarrier()
    deadline = time.monotonic() + model.shutdown_timeout
    while not req.Test():
        if time.monotonic() > deadline:
            _abort(
                model.comm,
                f"jaxlite: process {model.process_index} is exiting, but not every process "
                f"reached the end of the program within {model.shutdown_timeout:g} s "
                "(shutdown_timeout_seconds); aborting the MPI job",
            )
        time.sleep(1e-3)


def shutdown() -> None:
    """Shut the multi-process runtime down (``jax.distributed.shutdown``).

    Does nothing if it is not running. Ranks synchronize (an MPI barrier) so none leaves
    while another still communicates. The device set stays fixed, so a later
    ``initialize()`` raises JAX's "must be called before" error.
    """
    if not _state.running:
        return
    model = _state.model
    if model is not None and model.exit_comm is not None:
        _exit_barrier()
    _state.running = False
    if not _devices.backends_initialized():
        # Devices never used: back to one process, so initialize() may run again (as JAX).
        _devices.set_process_model(_devices._ProcessModel())
        _state.model = None


def is_initialized() -> bool:
    """Whether ``initialize`` ran and ``shutdown`` did not (``jax.distributed.is_initialized``)."""
    return _state.running


def communicator():
    """The MPI communicator of the running job's collectives (a duplicate of
    ``COMM_WORLD``), or None (one process, or not initialized)."""
    if not _state.running or _state.model is None:
        return None
    return _state.model.coll_comm


def runtime() -> _MPIProcessModel:
    """The running multi-process model (``RuntimeError`` if there is none)."""
    if not _state.running or _state.model is None or _state.model.coll_comm is None:
        raise RuntimeError(
            "this mesh spans several processes, but jax.distributed is not running; call "
            "jax.distributed.initialize() first"
        )
    return _state.model


__all__ = ["communicator", "initialize", "is_initialized", "runtime", "shutdown"]
