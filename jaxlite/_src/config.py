"""Every flag in one place. ``jaxlite.config.update(name, value)`` as in JAX."""

from __future__ import annotations

import contextlib
import os
from typing import Any

_DEFAULTS: dict[str, Any] = {
    "jax_enable_x64": False,
    "jax_enable_checks": False,
    "jax_disable_jit": False,
    "jax_num_cpu_devices": -1,  # -1: unset (env vars / XLA_FLAGS decide, devices.py)
    "jax_platforms": "cpu",
    "jax_platform_name": "cpu",
    "jax_debug_nans": False,
    "jax_traceback_filtering": "auto",
    "jax_default_matmul_precision": None,
    "jax_numpy_dtype_promotion": "standard",
    # jax.random (spec/random.md R1.1). Only the default, partitionable threefry exists.
    "jax_default_prng_impl": "threefry2x32",
    "jax_threefry_partitionable": True,
    "jax_enable_custom_prng": False,
    "jax_legacy_prng_key": "allow",
    "jax_high_dynamic_range_gumbel": False,
    "jax_random_seed_offset": 0,
    # The Numba tier (compile/native.py): "auto" (hot regions, background compile), "off",
    # "always" (compile every eligible region synchronously: deterministic, for tests).
    "jaxlite_native": os.environ.get("JAXLITE_NATIVE", "auto"),
}
_NATIVE_MODES = ("auto", "off", "always")


class Config:
    """Holds the engine's flags. Attribute access (``config.jax_enable_x64``) reads a flag."""

    def __init__(self):
        object.__setattr__(self, "_values", dict(_DEFAULTS))
        # Bumped on every change that invalidates compiled code (part of jit cache keys).
        object.__setattr__(self, "epoch", 0)

    def update(self, name: str, value: Any) -> None:
        """Set flag ``name`` to ``value`` (mirrors ``jax.config.update``).

        Raises:
            AttributeError: for an unknown flag name.
        """
        if name not in self._values:
            raise AttributeError(f"Unrecognized config option: {name}")
        validator = _validators.get(name)
        if validator is not None:
            validator(value)
        if name == "jax_enable_x64":
            value = bool(value)
        if name == "jax_numpy_dtype_promotion" and value not in ("standard", "strict"):
            raise ValueError(
                f"jax_numpy_dtype_promotion must be 'standard' or 'strict', got {value!r}"
            )
        if name == "jaxlite_native" and value not in _NATIVE_MODES:
            raise ValueError(f"jaxlite_native must be one of {_NATIVE_MODES}, got {value!r}")
        self._values[name] = value
        object.__setattr__(self, "epoch", self.epoch + 1)
        global x64_enabled
        x64_enabled = self._values["jax_enable_x64"]

    def read(self, name: str) -> Any:
        return self._values[name]

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"Unrecognized config option: {name}") from None

    def __setattr__(self, name, value):
        raise AttributeError("use config.update(name, value)")

    @contextlib.contextmanager
    def _override(self, name: str, value: Any):
        old = self._values[name]
        self.update(name, value)
        try:
            yield
        finally:
            self.update(name, old)


# name -> callable(value) run before a flag changes; it raises to refuse the change.
_validators: dict[str, Any] = {}


def register_validator(name: str, fn) -> None:
    """Have ``config.update(name, v)`` call ``fn(v)`` first (a module above registers it)."""
    _validators[name] = fn


config = Config()
x64_enabled = False


def enable_x64(new_val: bool = True):
    """Temporarily set ``jax_enable_x64`` (``jax.experimental.enable_x64``)."""
    return config._override("jax_enable_x64", new_val)


def numpy_dtype_promotion(val: str):
    """Temporarily set ``jax_numpy_dtype_promotion`` (``jax.numpy_dtype_promotion``).

    ``"standard"`` is JAX's promotion lattice; ``"strict"`` forbids implicit promotion
    between different dtypes (Python scalars still adapt), raising ``TypePromotionError``.
    """
    return config._override("jax_numpy_dtype_promotion", val)
