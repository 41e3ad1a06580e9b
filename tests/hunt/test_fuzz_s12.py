"""Session 12 differential-fuzzer leftovers, checked against real JAX 0.10.2 live: each case
runs the same program under ``jax`` and ``jaxlite`` and compares the raised exception's
built-in class, or the outputs' structure, shapes, dtypes, weak types and values (the
harness of ``test_fuzz_s11``)."""

from __future__ import annotations

import numpy as np  # noqa: F401 (used below)
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402,F401

from tests.hunt.test_fuzz_s11 import _same  # noqa: E402

# ---------------------------------------------------------------- custom_vjp, unused output
# A custom_vjp call whose output does not reach the function's output: JAX's tangent map is
# dead-code eliminated (its tangent trace has auto DCE), so the forward-mode ``custom_lin``
# never runs; jaxlite evaluated the whole tangent map and raised "can't apply forward-mode
# autodiff (jvp) to a custom_vjp function" (linearize, vmap / linearize of a linearize, and
# a custom_vjp output returned as has_aux's aux).


def _cv(m):
    @m.jx.custom_vjp
    def f(x):
        return m.jnp.sin(x)

    f.defvjp(lambda x: (m.jnp.sin(x), m.jnp.cos(x)), lambda r, g: (g * r,))
    return f


_UNUSED = {
    "plain": lambda m, f: lambda x: (f(x), x * 2.0)[1],
    "jit": lambda m, f: lambda x: (m.jx.jit(f)(x), x * 2.0)[1],
    "checkpoint": lambda m, f: m.jx.checkpoint(lambda x: (f(x), x * 2.0)[1]),
    "cond": lambda m, f: lambda x: m.lax.cond(x > 0, lambda x: (f(x), x * 2.0)[1], lambda x: x, x),
    "scan_ys": lambda m, f: (
        lambda x: m.lax.scan(lambda c, _: (c * 2.0, f(c)), x, None, length=2)[0]
    ),
    "fori": lambda m, f: lambda x: m.lax.fori_loop(0, 2, lambda i, c: (f(c), c * 2.0)[1], x),
    "stop_gradient": lambda m, f: lambda x: x * 2.0 + m.lax.stop_gradient(f(x)),
    "vmap": lambda m, f: (
        lambda x: m.jx.vmap(lambda x: (f(x), x * 2.0)[1])(m.jnp.stack([x, x])).sum()
    ),
    # the output is used: JAX raises too
    "used": lambda m, f: lambda x: (f(x), x * 2.0),
}

_HOW = {
    "linearize": lambda m, g: m.jx.linearize(g, 1.5)[1](1.0),
    "jvp": lambda m, g: m.jx.jvp(g, (1.5,), (1.0,)),
    "vjp": lambda m, g: m.jx.vjp(g, 1.5)[0],
    "jit_linearize": lambda m, g: m.jx.jit(lambda x: m.jx.linearize(g, x)[1](1.0))(1.5),
    "vmap_linearize": lambda m, g: m.jx.vmap(lambda x: m.jx.linearize(g, x)[1](1.0))(m.jnp.ones(3)),
    "linearize_linearize": lambda m, g: m.jx.linearize(lambda x: m.jx.linearize(g, x)[1](1.0), 1.5)[
        1
    ](1.0),
    "jacfwd": lambda m, g: m.jx.jacfwd(g)(1.5),
}


@pytest.mark.parametrize("body", list(_UNUSED))
@pytest.mark.parametrize("how", list(_HOW))
def test_custom_vjp_output_not_reaching_the_output(body, how):
    _same(lambda m: _HOW[how](m, _UNUSED[body](m, _cv(m))))


@pytest.mark.parametrize("how", ["linearize", "jvp", "grad", "hessian"])
def test_custom_vjp_output_as_aux(how):
    def build(m):
        f = _cv(m)
        g = lambda x: (x * 2.0, f(x))  # noqa: E731
        if how == "linearize":
            out, lin, aux = m.jx.linearize(g, 1.5, has_aux=True)
            return out, lin(1.0), aux
        if how == "jvp":
            return m.jx.jvp(g, (1.5,), (1.0,), has_aux=True)
        return getattr(m.jx, how)(g, has_aux=True)(1.5)

    _same(build)
