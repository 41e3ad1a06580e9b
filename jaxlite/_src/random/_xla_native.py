"""Native-tier rules (``compile/native.py``) for XLA:CPU's ``log``, ``log1p`` and ``erf_inv``.

With these, a jitted ``normal`` (threefry, bits to floats, ``erf_inv``) is one lane-fused
Numba loop: each lane hashes its counter and finishes its sample in registers. A rule emits
a call of the element function in ``_xla_numba`` (hand-written Numba code, inlined into the
kernel), which performs the operations of the NumPy kernels in ``_xla_blocked``: both tiers
give the same bits (tests/random/test_random_native.py checks the kernels against JAX).

float64 ``log`` is the C library's in both tiers; with Intel SVML present Numba may
vectorise it to SVML's ``log``, whose bits differ, so the float64 rules then decline and the
region stays in the Python tier. float16/bfloat16 decline too.
"""

from __future__ import annotations

import numpy as np

from jaxlite._src.core import rules

_f32, _f64 = np.dtype(np.float32), np.dtype(np.float64)
_MODULE = "jaxlite._src.random._xla_numba"
# The homes of the constants and of the fma the element functions compile.
_DEPS = ("jaxlite._src.random._xla_blocked", "jaxlite._src.ops.xla_fma")


def _svml() -> bool:
    try:
        from numba.core import config as numba_config
    except Exception:  # noqa: BLE001 (no Numba: no kernel is compiled at all)
        return False
    return bool(getattr(numba_config, "USING_SVML", False))


def _rule(name: str):
    def rule(ctx, eqn, ins, outs):
        aval = eqn.outvars[0].aval
        dt = np.dtype(aval.dtype)
        if dt not in (_f32, _f64) or np.dtype(eqn.invars[0].aval.dtype) != dt:
            return None
        if dt == _f64 and _svml():
            return None
        fn = ctx.helper(_MODULE, f"{name}_{'f32' if dt == _f32 else 'f64'}", _DEPS)
        # An array operand (a region that is not lane-fused): one parallel loop.
        return ctx.map_helper(fn, ins[0], outs[0], aval)

    return rule


def register(log_p, log1p_p, erf_inv_p) -> None:
    for p, name in ((log_p, "log"), (log1p_p, "log1p"), (erf_inv_p, "erf_inv")):
        rules.native_rules[p] = _rule(name)
        rules.native_elementwise.add(p)
