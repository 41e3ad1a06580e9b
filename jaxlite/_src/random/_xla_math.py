"""XLA:CPU's arithmetic, reproduced in NumPy for the bit-exact samplers (spec R7).

JAX's ``normal``, ``gumbel``, ``exponential`` and general-range ``uniform`` give bits that
depend on how XLA:CPU evaluates ``log``, ``log1p``, ``erf_inv`` and ``a*b + c`` (fused
multiply-adds on FMA hosts). NumPy's own ``log`` differs in about 15% of float32 inputs,
so these samplers use the kernels below instead. Each is a private elementwise primitive
(impl + JVP + elementwise batching) so that samplers stay differentiable in their
parameters and jit/vmap carry them like any other op. ``jax.lax.log`` etc. are unchanged.

float16/bfloat16 inputs are computed in float32 and rounded, as XLA:CPU does. The float32
and float64 kernels are the cache-blocked, in-place ones of ``_xla_blocked``.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import rules
from jaxlite._src.ops import _factories, elementwise as ew
from jaxlite._src.ops._factories import FLOAT, defjvp, defjvp2, naryop, unop
from jaxlite._src.ops.xla_fma import fma, fma32, fma64  # noqa: F401 (re-exported)
from jaxlite._src.random import _xla_blocked as _blocked, _xla_native

_f32, _f64 = np.dtype(np.float32), np.dtype(np.float64)


# FMA: ``ops/xla_fma`` (numpy/ uses it too).


# ------------------------------------------------------------------------------- log


def log_f32(y):
    """XLA:CPU's float32 ``log`` (a Cephes-style polynomial, spec R7.3)."""
    return _blocked.run_blocked(_blocked.log_block, y)


log_f64 = _blocked.log_f64


def _by_dtype(f32_fn, f64_fn):
    def impl(x):
        x = np.asarray(x)
        if x.dtype == _f64:
            return f64_fn(x)
        if x.dtype == _f32:
            return f32_fn(x)
        return f32_fn(x.astype(_f32)).astype(x.dtype)

    return impl


log_p = unop("xla_log", _by_dtype(log_f32, log_f64), FLOAT)
defjvp(log_p, lambda t, x: ew.div(t, x))
rules.quiet_fp.add(log_p)


def log(x):
    return log_p.bind(x)


# ----------------------------------------------------------------------------- log1p


def log1p_f32(x):
    """XLA:CPU's float32 ``log1p`` (spec R7.4)."""
    return _blocked.run_blocked(_blocked.log1p_block, x)


def log1p_f64(x):
    """XLA:CPU's float64 ``log1p`` (spec R7.5)."""
    return _blocked.run_blocked(_blocked.log1p64_block, x, _f64)


log1p_p = unop("xla_log1p", _by_dtype(log1p_f32, log1p_f64), FLOAT)
defjvp(log1p_p, lambda t, x: ew.div(t, ew.add(x, np.ones((), x.dtype))))
rules.quiet_fp.add(log1p_p)


def log1p(x):
    return log1p_p.bind(x)


# --------------------------------------------------------------------------- erf_inv

_EI32_BLOCK = functools.partial(
    _blocked.erf_inv_block,
    central=tuple(_blocked.wide(c) for c in _blocked.EI32_A),
    tail=tuple(_blocked.wide(c) for c in _blocked.EI32_B),
)


def erf_inv_f32(x):
    """Giles' single-precision ``erf_inv`` as XLA:CPU evaluates it (spec R7.6)."""
    return _blocked.run_blocked(_EI32_BLOCK, x)


_EI64_BLOCK = functools.partial(
    _blocked.erf_inv64_block,
    central=tuple(np.float64(c) for c in _blocked.EI64_A),
    middle=tuple(np.float64(c) for c in _blocked.EI64_B),
    tail=tuple(np.float64(c) for c in _blocked.EI64_C),
)


def erf_inv_f64(x):
    """Giles' double-precision ``erf_inv`` as XLA:CPU evaluates it (spec R7.6)."""
    return _blocked.run_blocked(_EI64_BLOCK, x, _f64)


erf_inv_p = unop("xla_erf_inv", _by_dtype(erf_inv_f32, erf_inv_f64), FLOAT)
# d/dx erf_inv(x) = sqrt(pi)/2 * exp(erf_inv(x)**2)
defjvp2(
    erf_inv_p,
    lambda t, ans, x: ew.mul(
        t, ew.mul(np.asarray(math.sqrt(math.pi) / 2, ans.dtype), ew.exp(ew.square(ans)))
    ),
)
rules.quiet_fp.add(erf_inv_p)


def erf_inv(x):
    return erf_inv_p.bind(x)


__all__ = ["fma", "log", "log1p", "erf_inv", "dtypes", "_factories"]


_xla_native.register(log_p, log1p_p, erf_inv_p)
