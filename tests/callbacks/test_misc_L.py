"""Spec callbacks.md section L (L1-L4): miscellaneous runtime behaviour.

Not tested, as not applicable to a single-device, CPU-only NumPy engine:
* L1 (no CPU backend -> "failed to find a local CPU device"): the engine always has its CPU
  device; there is no configuration without one to test.
* L2 (sub-byte dtypes int2/int4/uint2/uint4/float4_e2m1fn): NumPy has no packed sub-byte
  storage and the engine does not support these dtypes.
* L3 (multi-platform lowering, unsupported platforms, partitioned callbacks on TPU): the
  engine has a single platform and no lowering to other backends.
"""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite.experimental import io_callback

F32 = jax.ShapeDtypeStruct((), np.float32)


def _kwarg_recorder(seen):
    def cb(x, **kwargs):
        seen.append(sorted(kwargs))
        return x

    return cb


@pytest.mark.parametrize("use_jit", [False, True], ids=["eager", "jit"])
def test_L4_pure_callback_reserved_kwargs(use_jit):
    """L4: `sharding` and `vmap_method` are consumed by pure_callback."""
    seen = []

    def f(x):
        return jax.pure_callback(
            _kwarg_recorder(seen),
            F32,
            x,
            sharding=None,
            vmap_method="sequential",
            other=x,
        )

    out = (jax.jit(f) if use_jit else f)(jnp.float32(1.0))
    jax.effects_barrier()
    assert float(out) == 1.0
    assert seen == [["other"]]


@pytest.mark.parametrize("ordered", [False, True])
def test_L4_io_callback_reserved_kwargs(ordered):
    """L4: `sharding` and `ordered` are consumed by io_callback."""
    seen = []
    out = jax.jit(
        lambda x: io_callback(
            _kwarg_recorder(seen), F32, x, sharding=None, ordered=ordered, other=x
        )
    )(jnp.float32(1.0))
    jax.effects_barrier()
    assert float(out) == 1.0
    assert seen == [["other"]]


@pytest.mark.parametrize("use_jit", [False, True], ids=["eager", "jit"])
def test_L4_debug_callback_single_call_reserved_kwargs(use_jit):
    """L4: `ordered` and `partitioned` are consumed by single-call debug.callback."""
    seen = []

    def f(x):
        jax.debug.callback(_kwarg_recorder(seen), x, ordered=True, partitioned=False, other=x)

    (jax.jit(f) if use_jit else f)(jnp.float32(1.0))
    jax.effects_barrier()
    assert seen == [["other"]]


@pytest.mark.parametrize("use_jit", [False, True], ids=["eager", "jit"])
def test_L4_debug_print_single_call_reserved_kwargs(capsys, use_jit):
    """L4: `ordered`, `partitioned`, `skip_format_check`, `_use_logging` are consumed by
    single-call debug.print and are not format arguments."""

    def f(x):
        jax.debug.print(
            "{x}",
            x=x,
            ordered=True,
            partitioned=False,
            skip_format_check=False,
            _use_logging=False,
        )

    (jax.jit(f) if use_jit else f)(jnp.float32(1.0))
    jax.effects_barrier()
    assert capsys.readouterr().out == "1.0\n"


def test_L4_reserved_names_used_as_fields_are_missing():
    """L4: since the option names are consumed, a field named after one cannot be filled."""
    with pytest.raises(KeyError):
        jax.debug.print("{ordered}", ordered=True)
