"""Every flag in one place. ``jaxlite.config.update(name, value)`` as in JAX.

A flag has a process-wide value, set by ``config.update``, and may be overridden in one
thread by a context manager (``enable_x64()``, ``disable_jit()``, ``debug_nans()``...). As in
JAX, context overrides are thread-local: a block in one thread never changes what another
thread sees, and leaving the block always restores the thread's previous state, whatever the
other threads did meanwhile. Reads check the calling thread's overrides first.

``config.epoch`` is part of every jit cache key: it names the global settings (a counter
bumped on each ``update``) and the calling thread's overrides, so code compiled under one
setting is never reused under another.

Tracing also depends on contexts that are not flags: the mesh context (``jax.set_mesh``),
``auto_axes``, relaxed sharding rules, ``checkify``. Their modules name them with
``set_trace_context`` (the calling thread's view) or ``set_global_trace_context`` (a
process-wide one), and the epoch names them too. Everything a trace may read from a context
must be named so (or be in the key some other way, as the axis environment is in
``compile/jit.py``): else a jitted function traced in one context is silently reused in
another.
"""

from __future__ import annotations

import contextlib
import os
import threading
from typing import Any

from jaxlite._src import config_more

_DEFAULTS: dict[str, Any] = {
    "jax_enable_x64": False,
    "jax_enable_checks": False,
    "jax_disable_jit": False,
    "jax_num_cpu_devices": -1,  # -1: unset (env vars / XLA_FLAGS decide, devices.py)
    "jax_platforms": "cpu",
    "jax_platform_name": "cpu",
    "jax_debug_nans": False,
    "jax_debug_infs": False,
    "jax_traceback_filtering": "auto",
    "jax_default_matmul_precision": None,
    "jax_numpy_dtype_promotion": "standard",
    "jax_numpy_rank_promotion": "allow",
    # jax.random (spec/random.md R1.1): threefry2x32 only; False for
    # jax_threefry_partitionable selects JAX's original split/bits scheme (R5.6).
    "jax_default_prng_impl": "threefry2x32",
    "jax_threefry_partitionable": True,
    "jax_enable_custom_prng": False,
    "jax_legacy_prng_key": "allow",
    "jax_high_dynamic_range_gumbel": False,
    "jax_random_seed_offset": 0,
    # The Numba tier (compile/native.py): "auto" (hot regions, background compile), "off",
    # "always" (compile every eligible region synchronously: deterministic, for tests).
    "jaxlite_native": os.environ.get("JAXLITE_NATIVE", "auto"),
    # float32/bfloat16 exp, log, tanh with XLA:CPU's own expansions (JAX's bits; ops/xla_math32),
    # some forty NumPy passes each in the Python tier, where NumPy's SIMD kernels make one.
    "jaxlite_xla_math": os.environ.get("JAXLITE_XLA_MATH", "0").lower() in ("1", "true", "on"),
    # Accepted with their JAX 0.10.2 meaning: explaining cache misses only logs, and the
    # remat implementation choice has no effect on results.
    "jax_explain_cache_misses": False,
    "jax_remat3": False,
    # Accepted and validated as in JAX 0.10.2; jaxlite's arrays are all host memory, so no
    # transfer ever happens and the guards never fire (docs/compat.md).
    "jax_transfer_guard": None,
    "jax_transfer_guard_host_to_device": None,
    "jax_transfer_guard_device_to_host": None,
    "jax_transfer_guard_device_to_device": None,
    # None, a Device or a platform name: where new arrays are placed (devices.py reads it).
    "jax_default_device": None,
    # jit logs each trace (a cache miss) at WARNING level (compile/jit.py).
    "jax_log_compiles": False,
    # After each jit trace, tracers of the finished trace still alive are leaks: Exception.
    "jax_check_tracer_leaks": False,
    # JAX's persistent compilation cache: recorded, never written (jaxlite has no
    # executables to persist; experimental/compilation_cache).
    "jax_compilation_cache_dir": None,
    "jax_enable_compilation_cache": True,
    "jax_persistent_cache_min_compile_time_secs": 1.0,
    "jax_persistent_cache_min_entry_size_bytes": 0,
    "jax_persistent_cache_enable_xla_caches": "xla_gpu_per_fusion_autotune_cache_dir",
    "jax_compilation_cache_max_size": -1,
    "jax_raise_persistent_cache_errors": False,
    # A jit trace (a cache miss) raises RuntimeError (compile/jit.py), as in JAX.
    "jax_no_tracing": False,
    # Accepted with no effect on jaxlite's results (docs/compat.md): NumPy reduces float16
    # as it does; the softmax JVP, the mesh-axis typing and jax2tf flags have no jaxlite
    # counterpart that would change a value.
    "jax_allow_f16_reductions": True,
    "jax_softmax_custom_jvp": False,
    "jax_auto_pcast": True,
    "jax_remove_size_one_mesh_axis_from_type": False,
    "jax2tf_associative_scan_reductions": False,
    "jax_array_garbage_collection_guard": None,
    # Not implemented: True raises NotImplementedError when set (ignoring it would hide
    # the errors the user asked for).
    "jax_debug_key_reuse": False,
    "jax_no_execution": False,
    "jax_thread_guard": False,
    # On inside ``jax.ensure_compile_time_eval``: while tracing, operations on concrete
    # values run at once (JAX's flag of the same name).
    "eager_constant_folding": False,
    # JAX's options for XLA, PJRT, GPUs, Pallas, export...: accepted and validated as in JAX
    # (config_more.py says which have an effect here and which values are refused).
    **{name: default for name, (default, _) in config_more.OPTIONS.items()},
}
_NATIVE_MODES = ("auto", "off", "always")

_BOOL_FLAGS = frozenset(
    {
        "jax_enable_x64",
        "jax_enable_checks",
        "jax_disable_jit",
        "jax_debug_nans",
        "jax_debug_infs",
        "jax_explain_cache_misses",
        "jax_remat3",
        "eager_constant_folding",
        "jax_log_compiles",
        "jax_check_tracer_leaks",
        "jax_threefry_partitionable",
        "jax_enable_custom_prng",
        "jax_no_tracing",
        "jax_enable_compilation_cache",
        "jax_raise_persistent_cache_errors",
        "jax_allow_f16_reductions",
        "jax_softmax_custom_jvp",
        "jax_auto_pcast",
        "jax_remove_size_one_mesh_axis_from_type",
        "jax2tf_associative_scan_reductions",
        "jax_debug_key_reuse",
        "jax_no_execution",
        "jax_thread_guard",
    }
)
# Checkers JAX has and jaxlite does not: setting them True is refused.
_UNBUILT_CHECKERS = {
    "jax_debug_key_reuse": "the PRNG key-reuse checker",
    "jax_no_execution": "the no-execution guard",
    "jax_thread_guard": "the thread guard",
}
_GC_GUARDS = ("allow", "log", "fatal")


_RANK_PROMOTION = ("allow", "warn", "raise")
# JAX 0.10.2's accepted names (NumPy computes every product in full precision: the value
# is recorded, it never changes a result).
_MATMUL_PRECISIONS = (
    "default",
    "high",
    "highest",
    "bfloat16",
    "tensorfloat32",
    "float32",
    "ANY_F8_ANY_F8_F32",
    "ANY_F8_ANY_F8_F32_FAST_ACCUM",
    "ANY_F8_ANY_F8_ANY",
    "ANY_F8_ANY_F8_ANY_FAST_ACCUM",
    "F16_F16_F16",
    "F16_F16_F32",
    "BF16_BF16_BF16",
    "BF16_BF16_F32",
    "BF16_BF16_F32_X3",
    "BF16_BF16_F32_X6",
    "BF16_BF16_F32_X9",
    "TF32_TF32_F32",
    "TF32_TF32_F32_X3",
    "F32_F32_F32",
    "F64_F64_F64",
)


_TRANSFER_GUARDS = ("allow", "log", "disallow", "log_explicit", "disallow_explicit")
_TRANSFER_GUARD_FLAGS = (
    "jax_transfer_guard",
    "jax_transfer_guard_host_to_device",
    "jax_transfer_guard_device_to_host",
    "jax_transfer_guard_device_to_device",
)


# JAX 0.10.2's registered PRNG implementations (jaxlite implements threefry2x32 only; the
# others are refused when a key is made, random/prng.py).
_PRNG_IMPLS = ("threefry2x32", "threefry4x32", "rbg", "unsafe_rbg", "philox2x32", "philox4x32")


def _enum_error(value: Any, allowed, none_ok: bool = False) -> ValueError:
    return ValueError(
        f"new enum value must be {'None or ' if none_ok else ''}in {list(allowed)}, got "
        f"{value} of type {type(value)}."
    )


def _validate(name: str, value: Any) -> None:
    if name == "jax_numpy_dtype_promotion" and value not in ("standard", "strict"):
        raise ValueError(f"jax_numpy_dtype_promotion must be 'standard' or 'strict', got {value!r}")
    if name == "jax_numpy_rank_promotion" and value not in _RANK_PROMOTION:
        raise _enum_error(value, _RANK_PROMOTION)
    if (
        name == "jax_default_matmul_precision"
        and value is not None
        and value not in _MATMUL_PRECISIONS
    ):
        raise _enum_error(value, _MATMUL_PRECISIONS, none_ok=True)
    if name in _TRANSFER_GUARD_FLAGS and value is not None and value not in _TRANSFER_GUARDS:
        raise _enum_error(value, _TRANSFER_GUARDS, none_ok=True)
    if name == "jax_default_prng_impl" and value not in _PRNG_IMPLS:
        raise _enum_error(value, _PRNG_IMPLS)
    if name == "jax_legacy_prng_key" and value not in ("allow", "warn", "error"):
        raise ValueError(f"{value!r} is not a valid LegacyPrngKeyState")
    if name in _UNBUILT_CHECKERS and value:
        raise NotImplementedError(
            f"{name}=True ({_UNBUILT_CHECKERS[name]}) is not implemented in jaxlite"
        )
    if name == "jax_array_garbage_collection_guard" and value not in (None, *_GC_GUARDS):
        raise _enum_error(value, _GC_GUARDS, none_ok=True)
    if name == "jaxlite_native" and value not in _NATIVE_MODES:
        raise ValueError(f"jaxlite_native must be one of {_NATIVE_MODES}, got {value!r}")


_argv_parsed = False  # Config.parse_flags_with_absl ran
_TRUE_WORDS, _FALSE_WORDS = ("true", "t", "1"), ("false", "f", "0")


def _flag_value(name: str, text: str | None, current: Any) -> Any:
    """The value a command-line ``--name[=text]`` gives flag ``name`` (``current``: its
    value now, whose type says how ``text`` reads)."""
    if name in _BOOL_FLAGS or name in config_more.BOOL_OPTIONS:
        if text is None or text.lower() in _TRUE_WORDS:
            return True
        if text.lower() in _FALSE_WORDS:
            return False
        raise ValueError(f"flag --{name}={text}: Non-boolean argument to boolean flag")
    if text is None:
        raise ValueError(f"Missing value for flag --{name}")
    try:
        if isinstance(current, int):
            return int(text)
        if isinstance(current, float):
            return float(text)
    except ValueError:
        raise ValueError(f"flag --{name}={text}: not a {type(current).__name__}") from None
    return text


class _Local(threading.local):
    # Class attributes are the defaults every thread starts from.
    overrides: dict[str, Any] | None = None  # flag overrides of context managers
    contexts: dict[str, Any] | None = None  # trace contexts that are not flags (mesh...)
    ckey: tuple = ()  # the contexts as items sorted by name
    key: tuple = ()  # the overrides' items (sorted), then ``ckey``: what the epoch names


_local = _Local()
# Process-wide trace contexts (``set_global_trace_context``).
_global_contexts: dict[str, Any] = {}


def _rekey() -> None:
    """Recompute the calling thread's key after a change of its overrides."""
    ov = _local.overrides
    _local.key = (tuple(sorted(ov.items())) if ov else ()) + _local.ckey


class Config:
    """Holds the engine's flags. Attribute access (``config.jax_enable_x64``) reads a flag."""

    def __init__(self):
        object.__setattr__(self, "_values", dict(_DEFAULTS))
        object.__setattr__(self, "_epoch", 0)
        # The global part of the epoch: the counter, with the global trace contexts if any.
        object.__setattr__(self, "_global_key", 0)
        object.__setattr__(self, "_lock", threading.Lock())

    def _set_global_key(self) -> None:
        g = self._epoch
        if _global_contexts:
            g = (g, tuple(sorted(_global_contexts.items())))
        object.__setattr__(self, "_global_key", g)

    def update(self, name: str, value: Any) -> None:
        """Set flag ``name`` to ``value`` for the whole process (``jax.config.update``).

        Raises:
            AttributeError: for an unknown flag name.
        """
        if name in config_more.FLAGS:
            config_more.flag_values[name] = value  # JAX checks nothing: no effect here
            return
        value = self._checked(name, value)
        with self._lock:
            self._values[name] = value
            object.__setattr__(self, "_epoch", self._epoch + 1)
            self._set_global_key()
        hook = config_more.hooks.get(name)
        if hook is not None:
            hook(value)

    def new_epoch(self) -> None:
        """Start a new epoch with the same settings: every cache key made before misses
        (``jax.clear_caches``)."""
        with self._lock:
            object.__setattr__(self, "_epoch", self._epoch + 1)
            self._set_global_key()

    def read(self, name: str) -> Any:
        """The value of flag ``name`` seen by the calling thread."""
        ov = _local.overrides
        if ov is not None and name in ov:
            return ov[name]
        return self._values[name]

    @property
    def epoch(self) -> int | tuple:
        """A hashable name of the settings the calling thread sees (for cache keys): the
        global counter alone (an int, cheap to compare on jit's hit path) when no trace
        context is set and the thread has no overrides, else the counter with them."""
        key = _local.key
        return (self._global_key, key) if key else self._global_key

    @property
    def x64_enabled(self) -> bool:
        return x64()

    @property
    def values(self) -> dict[str, Any]:
        """A snapshot of every flag as the calling thread sees it."""
        out = dict(self._values)
        out.update(_local.overrides or {})
        return out

    def parse_flags_with_absl(self) -> None:
        """Set flags from the ``--jax...`` command-line arguments (``sys.argv`` up to the
        first ``--``), once per process, as JAX's test programs do at import.

        ``--name=value`` sets flag ``name``; a bare ``--name`` sets a boolean flag True
        (``true/t/1`` and ``false/f/0`` are the boolean spellings). Other arguments, and
        ``--jax...`` names jaxlite does not know, are ignored; later calls do nothing.

        Raises:
            ValueError: a value the flag does not accept, or a bare ``--name`` of a flag
              that is not boolean.
        """
        global _argv_parsed
        if _argv_parsed:
            return
        import itertools
        import sys

        for arg in itertools.takewhile(lambda a: a != "--", sys.argv[1:]):
            if not arg.startswith("--jax"):
                continue
            name, eq, text = arg[2:].partition("=")
            if name not in self._values:
                continue
            self.update(name, _flag_value(name, text if eq else None, self._values[name]))
        _argv_parsed = True

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self.read(name)
        except KeyError:
            if name in config_more.FLAGS:
                raise AttributeError(f"'Config' object has no attribute '{name}'") from None
            raise AttributeError(f"Unrecognized config option: {name}") from None

    def __setattr__(self, name, value):
        raise AttributeError("use config.update(name, value)")

    def _checked(self, name: str, value: Any) -> Any:
        """``value`` validated (and bools coerced) for flag ``name``; AttributeError if unknown."""
        if name not in self._values:
            raise AttributeError(f"Unrecognized config option: {name}")
        validator = _validators.get(name)
        if name in config_more.OPTIONS:  # JAX's type checks first, then the validator
            value = config_more.parse(name, value)
            if validator is not None:
                validator(value)
            return value
        if validator is not None:
            validator(value)
        if name in _BOOL_FLAGS:
            value = bool(value)
        _validate(name, value)
        return value

    @contextlib.contextmanager
    def _override(self, name: str, value: Any):
        """Set ``name`` to ``value`` in the calling thread for the duration of the block."""
        value = self._checked(name, value)
        prev_overrides = _local.overrides
        new = dict(prev_overrides or {})
        new[name] = value
        _local.overrides = new
        _rekey()
        try:
            yield
        finally:
            _local.overrides = prev_overrides
            _rekey()


# name -> callable(value) run before a flag changes; it raises to refuse the change.
_validators: dict[str, Any] = {}


def register_validator(name: str, fn) -> None:
    """Have ``config.update(name, v)`` call ``fn(v)`` first (a module above registers it)."""
    _validators[name] = fn


config = Config()


# As in JAX, a flag's starting value may come from its environment variable (config_more).
config_more.apply_environment(config, _DEFAULTS, _BOOL_FLAGS)


def set_trace_context(name: str, value: Any) -> Any:
    """Name, in the calling thread's epoch, a context tracing depends on (``None``: none).

    ``value`` must be hashable; equal values name the same context (a jitted function
    traced under it is reused). Returns the previous value, for the caller to restore.
    """
    # Cheap: the mesh context changes around every callback (K13).
    ctx = _local.contexts
    prev = None if ctx is None else ctx.get(name)
    if value is prev:
        return prev
    new = dict(ctx) if ctx else {}
    if value is None:
        del new[name]
    else:
        new[name] = value
    old_ckey = _local.ckey
    ckey = tuple(sorted(new.items())) if new else ()  # names are unique: values never compared
    _local.contexts = new or None
    _local.ckey = ckey
    key = _local.key
    _local.key = key[: len(key) - len(old_ckey)] + ckey
    return prev


def set_global_trace_context(name: str, value: Any) -> Any:
    """``set_trace_context`` for a context every thread sees (a process-wide setting)."""
    prev = _global_contexts.get(name)
    if value is prev:
        return prev
    with config._lock:
        prev = _global_contexts.get(name)
        if value is None:
            _global_contexts.pop(name, None)
        else:
            _global_contexts[name] = value
        config._set_global_key()
    return prev


def trace_context_state() -> tuple:
    """The calling thread's trace contexts, opaque, for ``restore_trace_context_state``
    (cheaper than a second ``set_trace_context`` where a block restores them)."""
    return _local.contexts, _local.ckey, _local.key, _local.overrides


def restore_trace_context_state(state: tuple) -> None:
    """Restore what ``trace_context_state`` returned (flag overrides included: the block
    must not have left one open)."""
    _local.contexts, _local.ckey, _local.key, _local.overrides = state


@contextlib.contextmanager
def trace_context(name: str, value: Any):
    """``set_trace_context(name, value)`` for the duration of the block."""
    prev = set_trace_context(name, value)
    try:
        yield
    finally:
        set_trace_context(name, prev)


def x64() -> bool:
    """Whether 64-bit types are enabled for the calling thread."""
    ov = _local.overrides
    if ov is not None and "jax_enable_x64" in ov:
        return ov["jax_enable_x64"]
    return config._values["jax_enable_x64"]


def debug_value_checks() -> tuple[bool, bool] | None:
    """``(jax_debug_nans, jax_debug_infs)`` for the calling thread, or None when both are off
    (the common case, answered without building a tuple)."""
    ov = _local.overrides
    vals = config._values
    if ov is None:
        if not (vals["jax_debug_nans"] or vals["jax_debug_infs"]):
            return None
        return vals["jax_debug_nans"], vals["jax_debug_infs"]
    nans = ov.get("jax_debug_nans", vals["jax_debug_nans"])
    infs = ov.get("jax_debug_infs", vals["jax_debug_infs"])
    return (nans, infs) if (nans or infs) else None


def numpy_rank_promotion_mode() -> str:
    """``jax_numpy_rank_promotion`` for the calling thread (read by every broadcasting
    ``jax.numpy`` function, so cheaply)."""
    ov = _local.overrides
    if ov is not None and "jax_numpy_rank_promotion" in ov:
        return ov["jax_numpy_rank_promotion"]
    return config._values["jax_numpy_rank_promotion"]


def eager_constant_folding_enabled() -> bool:
    """Whether traces evaluate operations on concrete values at once (read for every
    staged primitive, so cheaply)."""
    ov = _local.overrides
    if ov is not None and "eager_constant_folding" in ov:
        return ov["eager_constant_folding"]
    return config._values["eager_constant_folding"]


def disable_jit_enabled() -> bool:
    ov = _local.overrides
    if ov is not None and "jax_disable_jit" in ov:
        return ov["jax_disable_jit"]
    return config._values["jax_disable_jit"]


def __getattr__(name: str) -> Any:
    # ``config.x64_enabled`` (a module attribute in earlier versions) reads the calling
    # thread's setting; it is computed on access so it can never go stale.
    if name == "x64_enabled":
        return x64()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def enable_x64(new_val: bool = True):
    """Temporarily set ``jax_enable_x64`` in this thread (``jax.enable_x64``)."""
    return config._override("jax_enable_x64", new_val)


def debug_nans(new_val: bool = True):
    """Temporarily set ``jax_debug_nans`` in this thread (``jax.debug_nans``)."""
    return config._override("jax_debug_nans", new_val)


def debug_infs(new_val: bool = True):
    """Temporarily set ``jax_debug_infs`` in this thread (``jax.debug_infs``)."""
    return config._override("jax_debug_infs", new_val)


class _NoDefault:
    """The default of a context manager that needs a value (JAX's ``NoDefault``)."""

    def __repr__(self):
        return "<NoDefault>"


_NO_DEFAULT = _NoDefault()


def _required(name: str, new_val: Any) -> Any:
    if new_val is _NO_DEFAULT:
        raise TypeError(
            f"Context manager for {name} config option requires an argument representing "
            "the new value for the config option."
        )
    return new_val


def numpy_dtype_promotion(new_val: Any = _NO_DEFAULT):
    """Temporarily set ``jax_numpy_dtype_promotion`` in this thread
    (``jax.numpy_dtype_promotion``).

    ``"standard"`` is JAX's promotion lattice; ``"strict"`` forbids implicit promotion
    between different dtypes (Python scalars still adapt), raising ``TypePromotionError``.
    """
    new_val = _required("numpy_dtype_promotion", new_val)
    return config._override("jax_numpy_dtype_promotion", new_val)


def numpy_rank_promotion(new_val: Any = _NO_DEFAULT):
    """Temporarily set ``jax_numpy_rank_promotion`` in this thread
    (``jax.numpy_rank_promotion``).

    ``"allow"`` broadcasts operands of different ranks as NumPy does; ``"warn"`` also
    warns, ``"raise"`` raises ``ValueError`` instead (rank-0 operands always broadcast).

    Raises:
        ValueError: for any other value.
    """
    new_val = _required("numpy_rank_promotion", new_val)
    return config._override("jax_numpy_rank_promotion", new_val)


def default_matmul_precision(new_val: Any = _NO_DEFAULT):
    """Temporarily set ``jax_default_matmul_precision`` in this thread
    (``jax.default_matmul_precision``). Accepted for compatibility: NumPy computes every
    product in full precision, so results do not change.

    Raises:
        ValueError: for a name JAX does not accept.
    """
    new_val = _required("default_matmul_precision", new_val)
    return config._override("jax_default_matmul_precision", new_val)


def transfer_guard(new_val: str):
    """Temporarily set every transfer guard in this thread (``jax.transfer_guard``).

    Accepted for compatibility: jaxlite keeps every array in host memory, so nothing is
    ever transferred and no guard fires (docs/compat.md).

    Args:
        new_val: ``"allow"``, ``"log"``, ``"disallow"``, ``"log_explicit"`` or
            ``"disallow_explicit"``.

    Raises:
        ValueError: for another value.
    """

    @contextlib.contextmanager
    def guard():
        with contextlib.ExitStack() as stack:
            for flag in _TRANSFER_GUARD_FLAGS:
                stack.enter_context(config._override(flag, new_val))
            yield

    if new_val is not None and new_val not in _TRANSFER_GUARDS:
        raise _enum_error(new_val, _TRANSFER_GUARDS, none_ok=True)
    return guard()


def transfer_guard_host_to_device(new_val: str | None):
    """Temporarily set ``jax_transfer_guard_host_to_device``
    (``jax.transfer_guard_host_to_device``); accepted, never fires (see ``transfer_guard``)."""
    return config._override("jax_transfer_guard_host_to_device", new_val)


def transfer_guard_device_to_host(new_val: str | None):
    """Temporarily set ``jax_transfer_guard_device_to_host``
    (``jax.transfer_guard_device_to_host``); accepted, never fires (see ``transfer_guard``)."""
    return config._override("jax_transfer_guard_device_to_host", new_val)


def transfer_guard_device_to_device(new_val: str | None):
    """Temporarily set ``jax_transfer_guard_device_to_device``
    (``jax.transfer_guard_device_to_device``); accepted, never fires (see ``transfer_guard``)."""
    return config._override("jax_transfer_guard_device_to_device", new_val)


def default_device(new_val: Any):
    """Temporarily set where new arrays are placed in this thread (``jax.default_device``).

    Args:
        new_val: a ``Device`` (e.g. ``jax.devices()[1]``), a platform name (``"cpu"``) or
            None (the first device).

    Raises:
        ValueError: for anything else.
    """
    return config._override("jax_default_device", new_val)


def log_compiles(new_val: bool = True):
    """Temporarily log every jit trace in this thread (``jax.log_compiles``): a WARNING from
    the ``jaxlite._src.compile.jit`` logger naming the function and its argument types."""
    return config._override("jax_log_compiles", new_val)


def check_tracer_leaks(new_val: bool = True):
    """Temporarily check for leaked tracers in this thread (``jax.check_tracer_leaks``):
    after each jit trace, a tracer of that trace still referenced (stored in a global, a
    list, an attribute) raises ``Exception: Leaked trace ...``. Slow: for debugging."""
    return config._override("jax_check_tracer_leaks", new_val)


def checking_leaks():
    """``jax.checking_leaks()``: ``check_tracer_leaks(True)``."""
    return check_tracer_leaks(True)


def explain_cache_misses(new_val: bool = True):
    """Temporarily set ``jax_explain_cache_misses`` (``jax.explain_cache_misses``); accepted
    (jaxlite does not log the explanations)."""
    return config._override("jax_explain_cache_misses", new_val)


def enable_checks(new_val: bool = True):
    """Temporarily type-check every jaxpr a pass produces (``jax.enable_checks``)."""
    return config._override("jax_enable_checks", new_val)


def default_prng_impl(new_val: str):
    """Temporarily set ``jax_default_prng_impl`` (``jax.default_prng_impl``); only
    ``"threefry2x32"`` makes keys in jaxlite (the others raise when a key is made)."""
    return config._override("jax_default_prng_impl", new_val)


def threefry_partitionable(new_val: bool = True):
    """Temporarily set ``jax_threefry_partitionable`` (``jax.threefry_partitionable``);
    False selects JAX's original ``split``/bits scheme (spec/random.md R5.6)."""
    return config._override("jax_threefry_partitionable", new_val)


def enable_custom_prng(new_val: bool = True):
    """Temporarily set ``jax_enable_custom_prng`` (``jax.enable_custom_prng``)."""
    return config._override("jax_enable_custom_prng", new_val)


def legacy_prng_key(new_val: str):
    """Temporarily set ``jax_legacy_prng_key`` (``jax.legacy_prng_key``): ``"allow"``,
    ``"warn"`` or ``"error"`` for raw uint32 keys passed to ``jax.random``."""
    return config._override("jax_legacy_prng_key", new_val)


def _flag_context(flag: str, doc: str):
    def ctx(new_val: Any = True):
        return config._override(flag, new_val)

    ctx.__name__ = flag.removeprefix("jax_")
    ctx.__doc__ = doc
    return ctx


no_tracing = _flag_context(
    "jax_no_tracing",
    "Temporarily make every jit trace (cache miss) raise RuntimeError (``jax.no_tracing``).",
)
allow_f16_reductions = _flag_context(
    "jax_allow_f16_reductions", "``jax.allow_f16_reductions``: accepted, no effect in jaxlite."
)
softmax_custom_jvp = _flag_context(
    "jax_softmax_custom_jvp", "``jax.softmax_custom_jvp``: accepted, no effect in jaxlite."
)
auto_pcast = _flag_context("jax_auto_pcast", "``jax.auto_pcast``: accepted, no effect.")
remove_size_one_mesh_axis_from_type = _flag_context(
    "jax_remove_size_one_mesh_axis_from_type",
    "``jax.remove_size_one_mesh_axis_from_type``: accepted, no effect.",
)
jax2tf_associative_scan_reductions = _flag_context(
    "jax2tf_associative_scan_reductions",
    "``jax.jax2tf_associative_scan_reductions``: accepted, no effect (no jax2tf).",
)
array_garbage_collection_guard = _flag_context(
    "jax_array_garbage_collection_guard",
    "``jax.array_garbage_collection_guard``: None/'allow'/'log'/'fatal' accepted, no effect.",
)
debug_key_reuse = _flag_context(
    "jax_debug_key_reuse", "``jax.debug_key_reuse``: True raises NotImplementedError."
)
no_execution = _flag_context(
    "jax_no_execution", "``jax.no_execution``: True raises NotImplementedError."
)
thread_guard = _flag_context(
    "jax_thread_guard", "``jax.thread_guard``: True raises NotImplementedError."
)


def set_compilation_cache_dir(path) -> None:
    """``compilation_cache.set_cache_dir``: record ``path`` as ``jax_compilation_cache_dir``
    (jaxlite writes nothing there: its compiled functions live in memory only)."""
    config.update("jax_compilation_cache_dir", None if path is None else str(path))


def reset_compilation_cache() -> None:
    """``compilation_cache.reset_cache``: forget the cache directory."""
    config.update("jax_compilation_cache_dir", None)
