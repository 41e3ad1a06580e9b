"""``jax._src.xla_bridge`` (chex's ``set_n_cpu_devices`` reads ``_backends`` to tell whether
the CPU backend is initialized already).

jaxlite has no XLA client: its one "backend" is the set of virtual CPU devices fixed on the
first device query or computation (``jaxlite._src.devices``). ``_backends`` is ``{}`` before
that and ``{"cpu": backend}`` after, as in JAX; the backend object answers the few
client queries libraries make (``platform``, ``devices()``, ``device_count()``, ...).
"""

from __future__ import annotations

import functools

from jaxlite._src import devices as _devices


class _CpuBackend:
    """The CPU "client" standing for jaxlite's virtual devices."""

    platform = "cpu"
    platform_version = "jaxlite"

    def devices(self):
        return _devices.devices()

    def local_devices(self):
        return _devices.local_devices()

    def device_count(self) -> int:
        return _devices.device_count()

    def local_device_count(self) -> int:
        return _devices.local_device_count()

    def process_index(self) -> int:
        return _devices.process_index()

    def __repr__(self) -> str:
        return "<jaxlite CPU backend>"


_BACKEND = _CpuBackend()


def backends_are_initialized() -> bool:
    """Whether the device set is fixed already (a device query or computation ran)."""
    return _devices.backends_initialized()


def backends() -> dict:
    """``{"cpu": backend}``; initializes the devices, as JAX's does."""
    _devices.initialize()
    return {"cpu": _BACKEND}


@functools.lru_cache
def get_backend(platform=None):
    """The CPU backend (``platform`` ``None`` or ``"cpu"``).

    Memoized as JAX's is, so ``get_backend.cache_clear()`` (jraph's tests call it after
    setting ``XLA_FLAGS``) works; clearing it does not change the devices once fixed.
    """
    if platform not in (None, "cpu"):
        raise RuntimeError(
            f"Unknown backend: '{platform}' requested, but no platforms that are instances "
            f"of {platform} are present. Platforms present are: cpu"
        )
    _devices.initialize()
    return _BACKEND


def __getattr__(name: str):
    # ``_backends`` is read, not called: it reflects whether the devices are fixed yet.
    if name == "_backends":
        return {"cpu": _BACKEND} if _devices.backends_initialized() else {}
    from jaxlite._src.jax_alias import not_implemented_message

    raise AttributeError(not_implemented_message(f"jax._src.xla_bridge.{name}"))
