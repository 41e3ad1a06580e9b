"""JAX 0.10.2's other ``jax.config`` options: the ones that tune XLA, PJRT, GPUs, Pallas,
export, PGLE or JAX's own implementation choices, which jaxlite (NumPy, no compiler
backend) does not have.

Scripts written for JAX set them (``jax.config.update("jax_use_shardy_partitioner", True)``,
``"jax_cpu_collectives_implementation"``, ``"jax_logging_level"``...), so each is accepted
with JAX's default and JAX's validation, readable back, and recorded; ``config.py`` merges
this table into its own. A few have an effect here too: ``jax_logging_level`` and
``jax_debug_log_modules`` set the levels of the ``jax`` loggers (``hooks``),
``jax_explicit_x64_dtypes="error"`` raises JAX's ``ValueError`` (``dtypes``), and
``jax_disallow_mesh_context_manager`` refuses ``with mesh:`` (``sharding/mesh.py``). A value
that would make JAX behave in a way jaxlite does not model is refused with
``NotImplementedError`` (``REFUSED``) rather than ignored; the rest change nothing jaxlite
computes (docs/compat.md lists them).

Options JAX keeps as command-line/environment flags (``jax_dump_ir_to``,
``jax_cpu_enable_async_dispatch``...) take any value in ``config.update`` and are not
``jax.config`` attributes (reading one raises ``AttributeError``), in both (``FLAGS``).
"""

from __future__ import annotations

import enum
import os
from typing import Any


class ExplicitX64Mode(enum.IntEnum):
    """``jax_explicit_x64_dtypes``: what an explicitly requested 64-bit dtype does while
    ``jax_enable_x64`` is off (``"warn"``: truncate with a warning, JAX's default)."""

    WARN = 1
    ERROR = 2
    ALLOW = 3

    @classmethod
    def _missing_(cls, value: object):
        return {"warn": cls.WARN, "error": cls.ERROR, "allow": cls.ALLOW}.get(value)


class RuntimeTracebackMode(enum.Enum):
    """``jax_send_traceback_to_runtime`` (tracebacks sent to the XLA runtime: none here)."""

    OFF = "off"
    ON = "on"
    FULL = "full"


_O_LEVELS = ("UNKNOWN", "O0", "O1", "O2", "O3")
_LOG_LEVELS = ("NOTSET", "DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

# name -> (JAX 0.10.2's default, kind). Kinds: "bool" (any value, coerced with bool()),
# "int"/"float"/"str" (that type or None), "str!" (a str, never None), "dict|str" (either,
# or None), a tuple of allowed strings (an enum; "none+" first: None allowed too), or an
# Enum class.
OPTIONS: dict[str, tuple[Any, Any]] = {
    "check_vma": (False, "bool"),
    "jax2tf_default_native_serialization": (True, "bool"),
    "jax_bcoo_cusparse_lowering": (False, "bool"),
    "jax_captured_constants_report_frames": (0, "int"),
    "jax_captured_constants_warn_bytes": (2 * 10**9, "int"),
    "jax_check_static_indices": (False, "bool"),
    "jax_compilation_cache_check_contents": (False, "bool"),
    "jax_compilation_cache_expect_pgle": (False, "bool"),
    "jax_compilation_cache_include_metadata_in_key": (False, "bool"),
    "jax_compiler_enable_remat_pass": (True, "bool"),
    "jax_cpu_collectives_implementation": ("gloo", ("none+", "gloo", "mpi", "megascale")),
    "jax_cpu_get_global_topology_timeout_minutes": (5, "int"),
    "jax_cpu_get_local_topology_timeout_minutes": (2, "int"),
    "jax_custom_vjp3": (False, "bool"),
    "jax_debug_leaked_clients_on_clear_backends": (False, "bool"),
    "jax_debug_log_modules": ("", "str!"),
    "jax_disable_bwd_checks": (False, "bool"),
    "jax_disable_vmap_shmap_error": (False, "bool"),
    "jax_disallow_mesh_context_manager": (False, "bool"),
    "jax_distributed_debug": (False, "bool"),
    "jax_embedded_constants_max_bytes": (32, "int"),
    "jax_enable_pgle": (False, "bool"),
    "jax_enable_preemption_service": (True, "bool"),
    "jax_enable_recoverability": (False, "bool"),
    "jax_error_checking_behavior_divide": ("ignore", ("ignore", "raise")),
    "jax_error_checking_behavior_nan": ("ignore", ("ignore", "raise")),
    "jax_error_checking_behavior_oob": ("ignore", ("ignore", "raise")),
    "jax_exec_time_optimization_effort": (0.0, "float"),
    "jax_experimental_unsafe_xla_runtime_errors": (False, "bool"),
    "jax_explicit_x64_dtypes": (ExplicitX64Mode.WARN, ExplicitX64Mode),
    "jax_export_calling_convention_version": (10, "int"),
    "jax_export_ignore_forward_compatibility": (False, "bool"),
    "jax_hlo_source_file_canonicalization_regex": (None, "str"),
    "jax_include_full_tracebacks_in_locations": (True, "bool"),
    "jax_log_checkpoint_residuals": (False, "bool"),
    "jax_logging_level": ("NOTSET", ("none+", *_LOG_LEVELS)),
    "jax_memory_fitting_effort": (0.0, "float"),
    "jax_memory_fitting_level": ("O2", _O_LEVELS),
    "jax_mosaic_allow_hlo": (False, "bool"),
    "jax_mutable_array_checks": (True, "bool"),
    "jax_optimization_level": ("UNKNOWN", _O_LEVELS),
    "jax_pallas_enable_debug_checks": (False, "bool"),
    "jax_pallas_poison_buffers": (False, "bool"),
    "jax_pallas_use_mosaic_gpu": (True, "bool"),
    "jax_pgle_aggregation_percentile": (90, "int"),
    "jax_pgle_profiling_runs": (3, "int"),
    "jax_pjrt_client_create_options": (None, "dict|str"),
    "jax_pprint_use_color": (True, "bool"),
    "jax_ragged_dot_use_gpu_pallas_triton_lowering": (False, "bool"),
    "jax_ragged_dot_use_ragged_dot_instruction": (True, "bool"),
    "jax_refs_to_pins": (False, "bool"),
    "jax_remove_custom_partitioning_ptr_from_cache_key": (False, "bool"),
    "jax_scan3": (False, "bool"),
    "jax_send_traceback_to_runtime": (RuntimeTracebackMode.OFF, RuntimeTracebackMode),
    "jax_serialization_version": (0, "int"),
    "jax_share_binary_between_hosts": (False, "bool"),
    "jax_share_binary_between_hosts_timeout_ms": (20 * 60 * 1000, "int"),
    "jax_source_url_schema": (None, "str"),
    "jax_threefry_gpu_kernel_lowering": (False, "bool"),
    "jax_traceback_in_locations_limit": (100, "int"),
    "jax_use_direct_linearize": (True, "bool"),
    "jax_use_emit_pipeline_primitive": (False, "bool"),
    "jax_use_magma": ("auto", ("off", "on", "auto")),
    "jax_use_shardy_partitioner": (True, "bool"),
    "jax_use_simplified_jaxpr_constants": (False, "bool"),
    "jax_xla_profile_version": (0, "int"),
}

# JAX's command-line/environment flags: ``config.update`` takes any value for them (JAX
# checks nothing), but they are not ``jax.config`` attributes (reading one raises
# AttributeError in JAX too). None of them changes anything in jaxlite.
FLAGS = frozenset(
    {
        "jax_backend_target",
        "jax_check_proxy_envs",
        "jax_compiler_detailed_logging_min_ops",
        "jax_cpu_enable_async_dispatch",
        "jax_cross_host_transfer_socket_address",
        "jax_cross_host_transfer_timeout_seconds",
        "jax_cross_host_transfer_transfer_size",
        "jax_cross_host_transport_addresses",
        "jax_cuda_visible_devices",
        "jax_disable_most_optimizations",
        "jax_dump_ir_modes",
        "jax_dump_ir_to",
        "jax_force_dcn_cross_host_transfers",
        "jax_include_debug_info_in_dumps",
        "jax_mock_gpu_topology",
        "jax_oneapi_visible_devices",
        "jax_pallas_verbose_errors",
        "jax_rocm_visible_devices",
        "jax_sort_devices_by_process_index",
        "jax_tracer_error_num_traceback_frames",
        "jax_xla_backend",
        "mock_num_gpu_processes",
    }
)
flag_values: dict[str, Any] = {}  # what config.update set them to

BOOL_OPTIONS = frozenset(n for n, (_, kind) in OPTIONS.items() if kind == "bool")

# Values JAX acts on and jaxlite does not model: refused, never silently ignored.
REFUSED: dict[str, tuple[Any, str]] = {
    "jax_check_static_indices": (True, "bounds checks of static indices"),
    "jax_error_checking_behavior_divide": ("raise", "error checking of divisions by zero"),
    "jax_error_checking_behavior_nan": ("raise", "error checking of NaNs"),
    "jax_error_checking_behavior_oob": ("raise", "error checking of out-of-bounds indices"),
    "jax_explicit_x64_dtypes": (
        ExplicitX64Mode.ALLOW,
        "64-bit arrays while jax_enable_x64 is off (explicit 64-bit dtypes are truncated "
        "with a warning, or refused with 'error')",
    ),
}


def parse(name: str, value: Any) -> Any:
    """``value`` as option ``name`` stores it, validated as JAX validates it.

    Raises:
      ValueError, TypeError: JAX's errors for a value of the wrong type or outside the enum.
      NotImplementedError: a value jaxlite cannot honour (``REFUSED``).
    """
    kind = OPTIONS[name][1]
    if kind == "bool":
        value = bool(value)
    elif kind == "str!":
        if not isinstance(value, str):
            raise TypeError(
                f"new string config value must be of type str, got {value} of type {type(value)}."
            )
    elif kind in ("int", "float", "str", "dict|str"):
        types = {"int": (int,), "float": (float, int), "str": (str,), "dict|str": (dict, str)}
        if value is not None and not isinstance(value, types[kind]):
            what = {"int": "int", "float": "float"}.get(kind, "string")
            dot = "" if kind in ("int", "float") else "."
            raise ValueError(
                f"new {what} config value must be None or of type {kind.replace('|', ' | ')}, "
                f"got {value} of type {type(value)}{dot}"
            )
    elif isinstance(kind, tuple):
        none_ok = kind[0] == "none+"
        allowed = kind[1:] if none_ok else kind
        if not (value is None and none_ok) and value not in allowed:
            raise ValueError(
                f"new enum value must be {'None or ' if none_ok else ''}in {list(allowed)}, "
                f"got {value} of type {type(value)}."
            )
    elif isinstance(kind, type) and issubclass(kind, enum.Enum):
        if not isinstance(value, (str, kind)):
            raise TypeError(
                f"new enum value must be an instance of {kind}, got {value} of type {type(value)}."
            )
        try:
            value = kind(value)
        except ValueError:
            raise ValueError(f"{value!r} is not a valid {kind.__name__}") from None
    refused = REFUSED.get(name)
    if refused is not None and value == refused[0]:
        raise NotImplementedError(f"{name}={value!r} ({refused[1]}) is not implemented in jaxlite")
    return value


def _set_logging_level(level: str | None) -> None:
    # As JAX: the level of the "jax" logger (every jaxlite logger is below it); None
    # leaves it as it is.
    if level is not None:
        import logging

        logging.getLogger("jax").setLevel(level)


def _set_debug_log_modules(names: str | None) -> None:
    # As JAX: each named module's logger logs at DEBUG, to stderr.
    import logging

    for name in filter(None, (n.strip() for n in (names or "").split(","))):
        logger = logging.getLogger(name)
        logger.setLevel(logging.DEBUG)
        if not any(getattr(h, "_jaxlite_debug", False) for h in logger.handlers):
            handler = logging.StreamHandler()
            handler.setLevel(logging.DEBUG)
            handler._jaxlite_debug = True
            logger.addHandler(handler)


# name -> callable(new value), run after ``config.update`` set it.
hooks: dict[str, Any] = {
    "jax_logging_level": _set_logging_level,
    "jax_debug_log_modules": _set_debug_log_modules,
}


# As in JAX, a flag's starting value may come from the environment variable of its name in
# capitals (``JAX_ENABLE_X64=1``, ``JAX_NUMPY_RANK_PROMOTION=raise``), read once at import.
# Left out: the platform and device-count variables, which name JAX's backends (jaxlite has
# only its CPU; devices.py reads ``JAX_NUM_CPU_DEVICES`` itself).
_TRUTH = {
    **dict.fromkeys(("y", "yes", "t", "true", "on", "1"), True),
    **dict.fromkeys(("n", "no", "f", "false", "off", "0"), False),
}
_NOT_FROM_ENV = frozenset({"jax_platforms", "jax_platform_name", "jax_num_cpu_devices"})


def _env_value(name: str, raw: str, default: Any, bool_flag: bool) -> Any:
    kind = OPTIONS[name][1] if name in OPTIONS else None
    if bool_flag or kind == "bool" or isinstance(default, bool):
        value = _TRUTH.get(raw.lower())
        if value is None:
            raise ValueError(f"invalid truth value {raw!r} for environment {name.upper()!r}")
        return value
    if kind == "int" or (kind is None and type(default) is int):
        return int(raw)
    if kind == "float" or (kind is None and type(default) is float):
        return float(raw)
    return raw


def apply_environment(config: Any, defaults: dict, bool_flags) -> None:
    """Sets each ``jax_*`` flag of ``defaults`` whose variable is in the environment."""
    for name in defaults:
        if not name.startswith("jax") or name in _NOT_FROM_ENV:
            continue
        raw = os.environ.get(name.upper())
        if raw is None:
            continue
        value = _env_value(name, raw, defaults[name], name in bool_flags)
        try:
            config.update(name, value)
        except ValueError:
            raise ValueError(f'Invalid value "{raw}" for JAX flag {name}') from None
        except NotImplementedError as e:
            raise NotImplementedError(f"{e} (set by the environment: {name.upper()})") from None
