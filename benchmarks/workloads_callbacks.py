"""Host-callback workloads (issue 7): callbacks in a jitted scan body, a jitted function
with one callback called from a Python loop, and vmap of pure_callback per vmap_method."""

from __future__ import annotations

import importlib

import numpy as np
from registry import workload

SCAN_STEPS = 10_000
LOOP_CALLS = 2000
VMAP_BATCH = 256


def _io_callback(lib):
    return importlib.import_module(f"{lib.name}.experimental").io_callback


_API = {"io": "io_callback", "pure": "pure_callback", "debug": "debug.callback"}


def _host(x):
    """The host function of issue 17's workload: what a callback typically does."""
    return np.asarray(x) + 1


def _callback_fn(lib, kind):
    """``v -> v + 1`` computed by ``_host`` through a callback of the given kind; for
    debug.callback (which returns nothing) ``v -> v``, the host still doing its work."""
    jax = lib.jax
    spec = jax.ShapeDtypeStruct((4,), np.float32)
    if kind == "io":
        io_callback = _io_callback(lib)
        return lambda v: io_callback(_host, spec, v)
    if kind == "pure":
        return lambda v: jax.pure_callback(_host, spec, v)

    def debug(v):
        jax.debug.callback(_host, v)
        return v

    return debug


def _expected(kind, n):
    return 0.0 if kind == "debug" else float(n)


_FLOOR = "<= 2.0x NumPy (the bare-loop floor, the NumPy column)"


def _bare_loop(n, dispatch=None):
    """The floor: a Python loop calling ``_host`` on a NumPy float32[4] carry, ``n`` times
    (plus, for the jit-loop rows, one cached jaxlite dispatch per call)."""

    def run():
        c = np.zeros(4, np.float32)
        for _ in range(n):
            c = _host(c)
            if dispatch is not None:
                dispatch()
        return c

    return run


@workload(
    "callback_floor_loop",
    f"floor of callback_scan_*: a bare Python loop calling "
    f"np.asarray(c) + 1 on a float32[4] NumPy carry, {SCAN_STEPS} steps",
    per=SCAN_STEPS,
    unit="step",
)
def _(lib):
    return _bare_loop(SCAN_STEPS) if lib.name == "jaxlite" else None


def _register_loop(kind):
    @workload(
        f"callback_jit_loop_{kind}",
        f"jitted function with one {_API[kind]} of "
        f"np.asarray(x) + 1 on float32[4], called {LOOP_CALLS} times from Python "
        f"(floor: the host call plus a cached jaxlite dispatch)",
        target=_FLOOR,
        per=LOOP_CALLS,
        unit="call",
        numpy=True,
        interleave=True,
    )
    def _(lib):
        if lib.name == "numpy":
            import jaxlite

            g = jaxlite.jit(lambda x: x)
            x0 = jaxlite.numpy.zeros(4, np.float32)
            g(x0)
            return _bare_loop(LOOP_CALLS, lambda: g(x0))
        jax = lib.jax
        f = jax.jit(_callback_fn(lib, kind))
        x = lib.jnp.zeros(4, lib.jnp.float32)
        f(x)

        def run():
            c = x
            for _ in range(LOOP_CALLS):
                c = f(c)
            jax.block_until_ready(c)
            jax.effects_barrier()
            return c

        return run


for _kind in ("io", "pure", "debug"):
    _register_loop(_kind)


def _register_scan(kind):
    @workload(
        f"callback_scan_{kind}",
        f"jit(lax.scan) of {SCAN_STEPS} steps whose body calls "
        f"{_API[kind]} of np.asarray(c) + 1 on a float32[4] carry",
        target=_FLOOR,
        per=SCAN_STEPS,
        unit="step",
        numpy=True,
        interleave=True,
    )
    def _(lib):
        if lib.name == "numpy":
            return _bare_loop(SCAN_STEPS)
        jax, lax = lib.jax, lib.lax
        cb = _callback_fn(lib, kind)

        def body(c, _):
            return cb(c), None

        f = jax.jit(lambda c: lax.scan(body, c, None, length=SCAN_STEPS)[0])
        x = lib.jnp.zeros(4, lib.jnp.float32)
        out = f(x)
        if float(out[0]) != _expected(kind, SCAN_STEPS):
            raise AssertionError(f"{lib.name}: wrong scan result {out}")

        def run():
            out = jax.block_until_ready(f(x))
            jax.effects_barrier()
            return out

        return run


for _kind in ("io", "pure", "debug"):
    _register_scan(_kind)


def _register_vmap(method, target):
    @workload(
        f"callback_vmap_{method}",
        f"jit(vmap(pure_callback, vmap_method={method!r})) "
        f"over {VMAP_BATCH} elements of float32[4]",
        target=target,
    )
    def _(lib):
        jax, jnp = lib.jax, lib.jnp
        spec = jax.ShapeDtypeStruct((4,), np.float32)

        def host_add(a, b):
            return np.asarray(a) + np.asarray(b)

        def one(v, y):
            return jax.pure_callback(host_add, spec, v, y, vmap_method=method)

        f = jax.jit(jax.vmap(one, in_axes=(0, None)))
        xs = jnp.ones((VMAP_BATCH, 4), jnp.float32)
        y = jnp.full(4, 2.0, jnp.float32)
        out = np.asarray(f(xs, y))
        if out.shape != (VMAP_BATCH, 4) or not (out == 3.0).all():
            raise AssertionError(f"{lib.name}: wrong vmap result {out}")
        return lambda: f(xs, y)


_register_vmap("sequential", "<= 0.067x JAX (15x faster)")
_register_vmap("broadcast_all", "<= 1.0x JAX")
_register_vmap("expand_dims", "<= 1.0x JAX")
