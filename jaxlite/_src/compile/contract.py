"""XLA's fused multiply-add contraction of a product's scaled update, in jitted code.

XLA:CPU compiles ``p - c * dot(x, y)`` (``c`` a scalar: an SGD step's learning rate) as the
product, then one loop whose multiply and subtract LLVM fuses into an FMA per element, so
JAX's jitted update is rounded once where its eager one is rounded twice. ``contract_dots``
finds that pattern in a jitted function's own jaxpr (after simplification, before code
generation) and replaces its three equations by one ``dot_fma`` (``ops/dot_fma.py``): the
same single rounding, computed inside the GEMM. Only where the product and the scaled
product feed nothing else (so nothing is computed twice), on float32 matrices with one
contraction dimension, and where ``dot_fma.available`` finds the GEMM gives those bits.
Loop and branch bodies are left as they are (their code stays two-rounding).
"""

from __future__ import annotations

import numpy as np

from jaxlite._src.core.ir import ClosedJaxpr, Jaxpr, JaxprEqn, Literal
from jaxlite._src.ops import dot_fma, elementwise as ew, linalg

_F32 = np.dtype(np.float32)


def _scalar_literal(v) -> float | None:
    if type(v) is Literal and v.aval.shape == () and np.isfinite(v.val):
        return float(v.val)
    return None


def _scaled_dot(term, producer, uses):
    """``(c, mul equation, dot equation)`` if ``term`` is ``c * dot(x, y)`` (either order),
    read only once, its product read only there; else None."""
    scale = producer.get(id(term))
    if scale is None or scale.primitive is not ew.mul_p or uses.get(id(term)) != 1:
        return None
    for ic in (0, 1):
        c, g = _scalar_literal(scale.invars[ic]), scale.invars[1 - ic]
        dot = None if c is None or type(g) is Literal else producer.get(id(g))
        if dot is not None and dot.primitive is linalg.dot_general_p and uses.get(id(g)) == 1:
            return c, scale, dot
    return None


def _one_gemm(dot, shape) -> bool:
    """Is ``dot`` a float32 matrix product of result ``shape`` that ``dot_fma`` can run?"""
    x, y = dot.invars
    (xc, yc), (xb, _) = dot.params["dimension_numbers"]
    if (
        xb
        or len(xc) != 1
        or any(type(v) is Literal or len(v.aval.shape) != 2 for v in (x, y))
        or any(np.dtype(v.aval.dtype) != _F32 for v in (x, y))
        or dot.params["preferred_element_type"] not in (None, _F32)
        or tuple(dot.outvars[0].aval.shape) != tuple(shape)
    ):
        return False
    # The layout the operands have when they are row-major arrays (the usual case).
    return dot_fma.available(*shape, x.aval.shape[xc[0]], xc[0] == 0, yc[0] == 1)


def _match(eqn, producer, uses) -> tuple | None:
    """``(dot_fma equation, [mul equation, dot equation])`` if ``eqn`` is
    ``p +- c * dot(x, y)``."""
    out = eqn.outvars[0].aval
    if eqn.primitive not in (ew.add_p, ew.sub_p) or np.dtype(out.dtype) != _F32:
        return None
    if len(out.shape) != 2:
        return None
    orders = [(0, 1, -1.0)] if eqn.primitive is ew.sub_p else [(0, 1, 1.0), (1, 0, 1.0)]
    for ip, it, sign in orders:
        p, term = eqn.invars[ip], eqn.invars[it]
        if type(p) is Literal or type(term) is Literal or p.aval.shape != out.shape:
            continue
        got = _scaled_dot(term, producer, uses)
        if got is None or not _one_gemm(got[2], out.shape):
            continue
        c, scale, dot = got
        alpha = float(np.float32(sign * c))
        params = dict(dimension_numbers=dot.params["dimension_numbers"], alpha=alpha)
        return JaxprEqn(dot_fma.dot_fma_p, [*dot.invars, p], eqn.outvars, params, ()), [scale, dot]
    return None


def contract_dots(closed: ClosedJaxpr) -> ClosedJaxpr:
    """``closed`` with each ``p +- c * dot(x, y)`` (module docstring) as one ``dot_fma``."""
    jaxpr = closed.jaxpr
    if not any(e.primitive is linalg.dot_general_p for e in jaxpr.eqns):
        return closed
    uses: dict[int, int] = {}
    for v in [v for e in jaxpr.eqns for v in e.invars] + list(jaxpr.outvars):
        if type(v) is not Literal:
            uses[id(v)] = uses.get(id(v), 0) + 1
    producer: dict[int, JaxprEqn] = {}
    replaced: dict[int, JaxprEqn] = {}  # index of the add/sub -> its dot_fma
    dead: set[int] = set()  # ids of the dot and mul equations a dot_fma absorbed
    for i, eqn in enumerate(jaxpr.eqns):
        for v in eqn.outvars:
            producer[id(v)] = eqn
        if eqn.effects:
            continue
        got = _match(eqn, producer, uses)
        if got is None:
            continue
        replaced[i], absorbed = got
        dead.update(id(e) for e in absorbed)
    if not replaced:
        return closed
    eqns = [replaced.get(i, e) for i, e in enumerate(jaxpr.eqns) if id(e) not in dead]
    return ClosedJaxpr(Jaxpr(jaxpr.constvars, jaxpr.invars, jaxpr.outvars, eqns), closed.consts)
