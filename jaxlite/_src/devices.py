"""Virtual CPU devices and the process model (one module: the multi-process seam).

A *device* here is a label: every device of this process shares the host's memory and
cores. How many there are is fixed when the "backend" initializes, i.e. on the first device
query or computation, from (in this precedence, S1.1 of spec/sharding.md):

1. ``config.update("jax_num_cpu_devices", N)`` (or the ``JAX_NUM_CPU_DEVICES`` env var),
2. ``XLA_FLAGS=--xla_force_host_platform_device_count=N``,
3. 1.

After that, changing ``jax_num_cpu_devices`` to another value raises JAX's
``RuntimeError``.

The process model lives here too: ``process_index()``/``process_count()`` and the global
device list. In one process these are 0/1 and every device is local. A multi-process
runtime (``jaxlite.distributed``, MPI) replaces ``_ProcessModel`` through
``set_process_model``: it must supply the rank, the rank count and the number of local
devices per rank; global device ``g`` of process ``p`` then gets JAX's CPU id
``p * 2048 + local`` (S13.2, S14.4.1), ``devices()`` is the global list and
``local_devices()`` this process's share.
"""

from __future__ import annotations

import os
import re
import warnings

from jaxlite._src.config import config, register_validator

# JAX numbers process p's CPU devices from p * 2048 (S13.2).
_PROCESS_ID_STRIDE = 2048


class Device:
    """A virtual CPU device (``jax.Device``).

    Attributes:
        id: the global device id (``p * 2048 + local_hardware_id`` for process ``p``).
        platform: ``'cpu'``.
        device_kind: ``'cpu'``.
        process_index: the index of the process that owns the device.
        local_hardware_id: the device's index within its process.
    """

    __slots__ = ("id", "process_index", "local_hardware_id")
    platform = "cpu"
    device_kind = "cpu"
    client = None

    def __init__(self, id: int, process_index: int = 0, local_hardware_id: int | None = None):  # noqa: A002
        self.id = id
        self.process_index = process_index
        self.local_hardware_id = id if local_hardware_id is None else local_hardware_id

    @property
    def host_id(self) -> int:
        return self.process_index

    @property
    def task_id(self) -> int:
        return self.process_index

    def __repr__(self) -> str:
        return f"CpuDevice(id={self.id})"

    def __str__(self) -> str:
        return f"cpu:{self.id}"

    # Devices compare and hash by identity (the default), as in JAX.


class _ProcessModel:
    """One process holding every device (the default)."""

    process_index = 0
    process_count = 1

    def make_devices(self, num_local: int) -> tuple[Device, ...]:
        return tuple(Device(i, 0, i) for i in range(num_local))


class _State:
    initialized = False
    devices: tuple[Device, ...] = ()
    model: _ProcessModel = _ProcessModel()


_state = _State()


def _xla_flags_device_count() -> int | None:
    m = re.search(r"--xla_force_host_platform_device_count=(\d+)", os.environ.get("XLA_FLAGS", ""))
    return int(m.group(1)) if m else None


def _requested_count() -> int:
    n = config.jax_num_cpu_devices
    if n is None or int(n) < 0:
        env = os.environ.get("JAX_NUM_CPU_DEVICES")
        if env is not None:
            n = int(env)
        else:
            n = _xla_flags_device_count()
    n = 1 if n is None or int(n) < 0 else int(n)
    if n < 1:
        raise ValueError(f"jax_num_cpu_devices must be at least 1, got {n}")
    return n


def initialize() -> tuple[Device, ...]:
    """Fix the device set (the first device query or computation calls this)."""
    if not _state.initialized:
        _state.devices = _state.model.make_devices(_requested_count())
        _state.initialized = True
    return _state.devices


def backends_initialized() -> bool:
    return _state.initialized


def _validate_num_cpu_devices(value) -> None:
    if value is None or int(value) < 0:
        return
    if int(value) < 1:
        raise ValueError(f"jax_num_cpu_devices must be at least 1, got {value}")
    if _state.initialized and int(value) != sum(
        d.process_index == _state.model.process_index for d in _state.devices
    ):
        raise RuntimeError(
            "jax_num_cpu_devices config should be updated before backends are initialized "
            "i.e. before any JAX operation is executed. You should initialize this config "
            "immediately after `import jax`."
        )


register_validator("jax_num_cpu_devices", _validate_num_cpu_devices)


def _fixed_at_init(name: str):
    """A validator refusing a new value of ``name`` once the devices exist (JAX's backend
    reads it when it is made; None and the current value stay accepted, as in JAX)."""

    def check(value) -> None:
        if _state.initialized and value is not None and value != config.read(name):
            raise RuntimeError(
                f"{name} config should be updated before backends are initialized i.e. "
                "before any JAX operation is executed. You should initialize this config "
                "immediately after `import jax`."
            )

    return check


for _name in (
    "jax_cpu_get_local_topology_timeout_minutes",
    "jax_cpu_get_global_topology_timeout_minutes",
):
    register_validator(_name, _fixed_at_init(_name))


def set_process_model(model) -> None:
    """Install a multi-process model (``jaxlite.distributed``); before first use only.

    ``model`` provides ``process_index``, ``process_count`` and
    ``make_devices(num_local) -> tuple[Device, ...]`` (the global device list).
    """
    if _state.initialized:
        raise RuntimeError("distributed.initialize should only be called once.")
    _state.model = model


def global_device_id(process_index: int, local: int) -> int:
    return process_index * _PROCESS_ID_STRIDE + local


def _check_backend(backend) -> None:
    if backend is None:
        return
    name = getattr(backend, "platform", backend)
    if name != "cpu":
        raise RuntimeError(
            f"Unknown backend: '{name}' requested, but no platforms that are instances of "
            f"{name} are present. Platforms present are: cpu"
        )


def devices(backend=None) -> list[Device]:
    """All devices (``jax.devices``): ``[CpuDevice(id=0), ...]``, the same objects each call.

    Raises:
        RuntimeError: for a backend other than ``'cpu'``.
    """
    _check_backend(backend)
    return list(initialize())


def local_devices(process_index: int | None = None, backend=None, host_id=None) -> list[Device]:
    """This process's devices (``jax.local_devices``).

    Raises:
        ValueError: ``Unknown process_index`` for a process that does not exist.
    """
    _check_backend(backend)
    if process_index is None:
        process_index = host_id if host_id is not None else _state.model.process_index
    if not 0 <= process_index < _state.model.process_count:
        raise ValueError(f"Unknown process_index {process_index}")
    return [d for d in initialize() if d.process_index == process_index]


def device_count(backend=None) -> int:
    """The number of devices over all processes (``jax.device_count``)."""
    return len(devices(backend))


def local_device_count(backend=None) -> int:
    """The number of this process's devices (``jax.local_device_count``)."""
    return len(local_devices(backend=backend))


def default_device() -> Device:
    """The device new arrays are placed on: ``jax_default_device`` (``jax.default_device``)
    when it names a device, else this process's first device."""
    chosen = config.read("jax_default_device")
    if isinstance(chosen, Device):
        return chosen
    if isinstance(chosen, str):
        _check_backend(chosen)
    return local_devices()[0]


def _check_default_device(value) -> None:
    # JAX 0.10.2 accepts these platform names (and no others) before any device is made.
    if value is None or isinstance(value, Device) or value in ("cpu", "gpu", "tpu"):
        return
    raise ValueError(
        "jax.default_device must be passed either a Device object (e.g. "
        "`jax.devices('cpu')[0]`) or a platform name string like 'cpu' or 'gpu', got: "
        f"{value!r}"
    )


register_validator("jax_default_device", _check_default_device)


def process_index(backend=None) -> int:
    """This process's index (``jax.process_index``): 0 in one process."""
    _check_backend(backend)
    return _state.model.process_index


def process_indices(backend=None) -> list[int]:
    """The indices of all processes (``jax.process_indices``): ``[0]`` in one process."""
    return list(range(process_count(backend)))


def _renamed(old: str, new: str):
    # JAX 0.10.2's message (its wording, "renamed to" the same name, included).
    warnings.warn(
        f"jax.{old} has been renamed to jax.{new}. This alias will eventually be removed; "
        "please update your code.",
        UserWarning,
        stacklevel=3,
    )


def host_count(backend=None) -> int:
    """``jax.host_count``: the deprecated alias of ``process_count`` (warns)."""
    _renamed("process_count", "process_count")
    return process_count(backend)


def host_id(backend=None) -> int:
    """``jax.host_id``: the deprecated alias of ``process_index`` (warns)."""
    _renamed("process_index", "process_index")
    return process_index(backend)


def host_ids(backend=None) -> list[int]:
    """``jax.host_ids``: the deprecated alias of ``process_indices`` (warns)."""
    _renamed("process_indexs", "process_indices")
    return process_indices(backend)


def process_count(backend=None) -> int:
    """The number of processes (``jax.process_count``): 1 in one process."""
    _check_backend(backend)
    return _state.model.process_count


def default_backend() -> str:
    """The default platform (``jax.default_backend``): ``'cpu'``."""
    return "cpu"


__all__ = [
    "Device",
    "backends_initialized",
    "default_backend",
    "default_device",
    "host_count",
    "host_id",
    "host_ids",
    "process_indices",
    "device_count",
    "devices",
    "global_device_id",
    "initialize",
    "local_device_count",
    "local_devices",
    "process_count",
    "process_index",
    "set_process_model",
]
