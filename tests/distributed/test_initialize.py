"""``jax.distributed`` error paths, in-process (no MPI launch; spec S13.1, S16.10).

Each test runs against a fresh device state and a fresh distributed state, so the
process-wide device set of the test session is untouched.
"""

from __future__ import annotations

import os

import pytest

if os.environ.get("JAXLITE_ORACLE", "") == "jax":
    pytest.skip("swaps jaxlite's internal device state (jaxlite_only)", allow_module_level=True)

import jaxlite as jax  # noqa: E402
from jaxlite._src import devices as _devices  # noqa: E402
from jaxlite._src.sharding import distributed as _dist  # noqa: E402

pytestmark = pytest.mark.jaxlite_only  # these tests swap jaxlite's internal state


@pytest.fixture
def fresh(monkeypatch):
    monkeypatch.setattr(_devices, "_state", _devices._State())
    monkeypatch.setattr(_dist, "_state", _dist._State())
    for rank_var, size_var in _dist._LAUNCHER_ENV:
        monkeypatch.delenv(rank_var, raising=False)
        if size_var:
            monkeypatch.delenv(size_var, raising=False)
    return monkeypatch


def test_missing_arguments_outside_a_launcher_raise_jax_errors(fresh):
    with pytest.raises(ValueError, match="coordinator_address should be defined."):
        jax.distributed.initialize()
    with pytest.raises(ValueError, match="Number of processes must be defined."):
        jax.distributed.initialize("localhost:1234")
    with pytest.raises(ValueError, match="The process id of the current process must be"):
        jax.distributed.initialize("localhost:1234", num_processes=1)
    assert not jax.distributed.is_initialized()
    assert not _devices.backends_initialized()


def test_one_process_explicit_form_then_twice_then_after_device_use(fresh):
    jax.distributed.initialize("localhost:1234", num_processes=1, process_id=0)
    assert jax.distributed.is_initialized()
    with pytest.raises(RuntimeError, match="distributed.initialize should only be called once."):
        jax.distributed.initialize("localhost:1234", num_processes=1, process_id=0)
    assert jax.process_index() == 0 and jax.process_count() == 1
    assert [d.id for d in jax.devices()] == list(range(len(jax.devices())))
    jax.distributed.shutdown()
    assert not jax.distributed.is_initialized()
    with pytest.raises(RuntimeError, match=r"must be called before any JAX calls"):
        jax.distributed.initialize("localhost:1234", num_processes=1, process_id=0)


def test_initialize_after_first_device_use_raises(fresh):
    jax.devices()
    with pytest.raises(RuntimeError, match=r"initialize\(\) must be called before any JAX calls"):
        jax.distributed.initialize()


def test_shutdown_without_initialize_is_a_no_op_and_reinitialize_works(fresh):
    jax.distributed.shutdown()
    jax.distributed.initialize("localhost:1234", num_processes=1, process_id=0)
    jax.distributed.shutdown()
    # No device was used in between, so initialize may run again (as in JAX).
    jax.distributed.initialize("localhost:1234", num_processes=1, process_id=0)
    assert jax.distributed.is_initialized()


def test_several_processes_without_mpi4py_says_what_to_install(fresh):
    fresh.setattr(_dist, "_import_mpi", lambda: None)
    fresh.setenv("PMI_RANK", "0")
    fresh.setenv("PMI_SIZE", "2")
    with pytest.raises(RuntimeError, match=r"pip install jaxlite\[mpi\]"):
        jax.distributed.initialize()
    assert not jax.distributed.is_initialized()
    # A one-rank launch needs no MPI: it is the single-process model.
    fresh.setenv("PMI_SIZE", "1")
    jax.distributed.initialize()
    assert jax.process_count() == 1


def test_several_processes_outside_a_launcher_point_to_mpiexec(fresh):
    with pytest.raises(RuntimeError, match="mpiexec -n N"):
        jax.distributed.initialize("localhost:1234", num_processes=2, process_id=0)
    with pytest.raises(ValueError, match="out of range"):
        jax.distributed.initialize("localhost:1234", num_processes=1, process_id=1)
    with pytest.raises(NotImplementedError, match="local_device_ids"):
        jax.distributed.initialize(local_device_ids=[0])
    with pytest.raises(ValueError, match="cluster_detection_method"):
        jax.distributed.initialize(cluster_detection_method="slurm")
    assert not jax.distributed.is_initialized()
