"""The op-spec machinery: argument kinds, the ``OpSpec`` row, the ``SPECS`` table the family
modules add to, and input drawing. (The table drives tests/ops/test_ops_generic.py.)

Each ``OpSpec`` row names a public function (resolved against a namespace ``m`` with
attributes ``jnp``, ``lax``, ``nn``, ``special``, ``linalg``, so the same row runs on
jaxlite and on JAX), the arguments to draw, an optional NumPy reference (used when JAX is not
importable), the derivative order to check against finite differences, and tolerances.

Argument kinds:

* ``A(shape, dtype, lo, hi, gen)``: a random array (``gen`` picks a special distribution:
  ``"spd"`` symmetric positive definite, ``"sorted"`` sorted along the last axis, ``"small"``
  small integers with repeats, ``"wellcond"`` a well-conditioned square matrix).
* ``P(value)``: a Python scalar, passed as is (weakly typed); never batched or differentiated.

``grad``: 0 = no derivative check, 1 = first order (jvp and grad), 2 = also second order;
``reverse=False`` limits the check to forward mode where JAX itself has no reverse mode.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np


@dataclasses.dataclass(frozen=True)
class A:
    shape: tuple = ()
    dtype: str = "float32"
    lo: float = -2.0
    hi: float = 2.0
    gen: str | None = None


@dataclasses.dataclass(frozen=True)
class P:
    value: Any


@dataclasses.dataclass(frozen=True)
class OpSpec:
    name: str
    fn: Callable  # fn(m) -> the callable under test
    args: tuple
    ref: Callable | None = None  # NumPy reference on NumPy arrays (when JAX is absent)
    grad: int = 1
    rtol: float = 1e-5
    atol: float = 1e-6
    vmap: bool = True
    jit: bool = True
    grad_rtol: float = 1e-4
    reverse: bool = True  # False: JAX has no reverse mode for it (grad tests not generated)
    # Derivative checks that only jaxlite passes (JAX computes this op in float32 even for
    # float64 inputs, so finite differences at float64 precision do not apply to JAX).
    grad_jaxlite_only: bool = False


def J(name, **kw):
    """``jnp.<name>`` with keyword arguments bound."""
    return lambda m: _bind(getattr(m.jnp, name), kw)


def L(name, **kw):
    return lambda m: _bind(getattr(m.lax, name), kw)


def NN(name, **kw):
    return lambda m: _bind(getattr(m.nn, name), kw)


def SP(name, **kw):
    return lambda m: _bind(getattr(m.special, name), kw)


def LA(name, **kw):
    return lambda m: _bind(getattr(m.linalg, name), kw)


def _bind(f, kw):
    if not kw:
        return f
    return lambda *a: f(*a, **kw)


F = "float32"
I = "int32"  # noqa: E741
B = "bool"
S34 = (3, 4)
S234 = (2, 3, 4)

SPECS: list[OpSpec] = []


def add(*specs):
    SPECS.extend(specs)


# -------------------------------------------------------------------- input drawing
def draw_args(spec: OpSpec, seed_extra: int = 0) -> list:
    """The NumPy arguments of ``spec`` (Python scalars for ``P``), deterministic per name."""
    import zlib

    rng = np.random.default_rng(zlib.crc32(spec.name.encode()) + seed_extra)
    return [draw_one(a, rng) for a in spec.args]


def draw_one(a, rng):
    if isinstance(a, P):
        return a.value
    dt = np.dtype(a.dtype)
    shape = a.shape
    if dt == np.bool_:
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        lo, hi = int(a.lo), int(a.hi)
        if a.gen == "small":
            hi = max(lo + 1, min(hi, lo + 4))
        v = rng.integers(lo, hi, size=shape).astype(dt)
        if a.gen == "sorted":
            v = np.sort(v, axis=-1)
        return v
    if a.gen == "spd":
        n = shape[-1]
        m = rng.uniform(-1, 1, size=shape)
        v = m @ np.swapaxes(m, -1, -2) + n * np.eye(n)
        return v.astype(dt)
    if a.gen == "wellcond":
        n = shape[-1]
        v = rng.uniform(a.lo, a.hi, size=shape) + 2.0 * np.eye(n)
        return v.astype(dt)
    v = rng.uniform(a.lo, a.hi, size=shape).astype(dt)
    if a.gen == "sorted":
        v = np.sort(v, axis=-1)
    return v
