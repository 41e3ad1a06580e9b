"""Virtual CPU devices (the sharding issue builds on this)."""

from __future__ import annotations

import functools


class Device:
    """A virtual CPU device."""

    platform = "cpu"
    device_kind = "cpu"

    def __init__(self, id: int):  # noqa: A002
        self.id = id
        self.process_index = 0

    def __repr__(self):
        return f"CpuDevice(id={self.id})"


@functools.lru_cache(None)
def _devices(n: int):
    return tuple(Device(i) for i in range(n))


def devices(backend=None) -> list:
    from jaxlite._src.config import config

    return list(_devices(int(config.jax_num_cpu_devices)))


def local_devices(process_index=None, backend=None) -> list:
    return devices()


def device_count(backend=None) -> int:
    return len(devices())


def local_device_count(backend=None) -> int:
    return len(devices())
