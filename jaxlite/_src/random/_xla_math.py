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
from jaxlite._src.random import _xla_blocked as _blocked

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

_EI32_A = (
    2.81022636e-08,
    3.43273939e-07,
    -3.5233877e-06,
    -4.39150654e-06,
    0.00021858087,
    -0.00125372503,
    -0.00417768164,
    0.246640727,
    1.50140941,
)
_EI32_B = (
    -0.000200214257,
    0.000100950558,
    0.00134934322,
    -0.00367342844,
    0.00573950773,
    -0.0076224613,
    0.00943887047,
    1.00167406,
    2.83297682,
)
_EI64_A = (
    -3.64441206401782e-21,
    -1.6850591381820166e-19,
    1.28584807152564e-18,
    1.1157877678025181e-17,
    -1.333171662854621e-16,
    2.0972767875968562e-17,
    6.637638134358324e-15,
    -4.054566272975207e-14,
    -8.151934197605472e-14,
    2.6335093153082323e-12,
    -1.2975133253453532e-11,
    -5.415412054294628e-11,
    1.0512122733215323e-09,
    -4.112633980346984e-09,
    -2.9070369957882005e-08,
    4.2347877827932404e-07,
    -1.3654692000834679e-06,
    -1.3882523362786469e-05,
    0.00018673420803405714,
    -0.000740702534166267,
    -0.006033670871430149,
    0.24015818242558962,
    1.6536545626831027,
)
_EI64_B = (
    2.2137376921775787e-09,
    9.075656193888539e-08,
    -2.7517406297064545e-07,
    1.8239629214389228e-08,
    1.5027403968909828e-06,
    -4.013867526981546e-06,
    2.9234449089955446e-06,
    1.2475304481671779e-05,
    -4.7318229009055734e-05,
    6.828485145957318e-05,
    2.4031110387097894e-05,
    -0.0003550375203628475,
    0.0009532893797373805,
    -0.0016882755560235047,
    0.002491442096107851,
    -0.003751208507569241,
    0.005370914553590064,
    1.0052589676941592,
    3.0838856104922208,
)
_EI64_C = (
    -2.7109920616438573e-11, -2.555641816996525e-10, 1.5076572693500548e-09,
    -3.789465440126737e-09, 7.61570120807834e-09, -1.496002662714924e-08,
    2.914795345090108e-08, -6.771199775845234e-08, 2.2900482228026655e-07,
    -9.9298272942317e-07, 4.526062597223154e-06, -1.968177810553167e-05,
    7.599527703001776e-05, -0.00021503011930044477, -0.00013871931833623122,
    1.0103004648645344, 4.849906401408584,
)  # fmt: skip


_EI32_BLOCK = functools.partial(
    _blocked.erf_inv_block,
    central=tuple(_blocked.wide(c) for c in _EI32_A),
    tail=tuple(_blocked.wide(c) for c in _EI32_B),
)


def erf_inv_f32(x):
    """Giles' single-precision ``erf_inv`` as XLA:CPU evaluates it (spec R7.6)."""
    return _blocked.run_blocked(_EI32_BLOCK, x)


_EI64_BLOCK = functools.partial(
    _blocked.erf_inv64_block,
    central=tuple(np.float64(c) for c in _EI64_A),
    middle=tuple(np.float64(c) for c in _EI64_B),
    tail=tuple(np.float64(c) for c in _EI64_C),
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
