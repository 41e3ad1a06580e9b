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


def _identity(x):
    return x


def _ignore(x):
    return None


def _callback_fn(lib, kind):
    """``v -> v`` through a callback of the given kind (debug.callback returns nothing, so
    its argument is passed through)."""
    jax = lib.jax
    spec = jax.ShapeDtypeStruct((4,), np.float32)
    if kind == "io":
        io_callback = _io_callback(lib)
        return lambda v: io_callback(_identity, spec, v)
    if kind == "pure":
        return lambda v: jax.pure_callback(_identity, spec, v)

    def debug(v):
        jax.debug.callback(_ignore, v)
        return v

    return debug


def _register_loop(kind, target):
    @workload(f"callback_jit_loop_{kind}", f"jitted function with one {_API[kind]} on "
              f"float32[4], called {LOOP_CALLS} times from Python", target=target,
              per=LOOP_CALLS, unit="call")
    def _(lib):
        jax = lib.jax
        f = jax.jit(_callback_fn(lib, kind))
        x = lib.jnp.ones(4, lib.jnp.float32)
        f(x)

        def run():
            out = None
            for _ in range(LOOP_CALLS):
                out = f(x)
            jax.block_until_ready(out)
            jax.effects_barrier()
            return out

        return run


_register_loop("io", "<= 0.05x JAX (20x faster)")
_register_loop("pure", "<= 0.05x JAX (same bar as io; no issue target)")
_register_loop("debug", "<= 0.05x JAX (same bar as io; no issue target)")


def _register_scan(kind):
    @workload(f"callback_scan_{kind}", f"jit(lax.scan) of {SCAN_STEPS} steps whose body calls "
              f"{_API[kind]} on a float32[4] carry",
              target="<= 0.05x JAX (20x fewer us/step)", per=SCAN_STEPS, unit="step")
    def _(lib):
        jax, lax = lib.jax, lib.lax
        cb = _callback_fn(lib, kind)

        def body(c, _):
            return cb(c) + 1.0, None

        f = jax.jit(lambda c: lax.scan(body, c, None, length=SCAN_STEPS)[0])
        x = lib.jnp.zeros(4, lib.jnp.float32)
        out = f(x)
        if float(out[0]) != SCAN_STEPS:
            raise AssertionError(f"{lib.name}: wrong scan result {out}")

        def run():
            out = jax.block_until_ready(f(x))
            jax.effects_barrier()
            return out

        return run


for _kind in ("io", "pure", "debug"):
    _register_scan(_kind)


def _register_vmap(method, target):
    @workload(f"callback_vmap_{method}", f"jit(vmap(pure_callback, vmap_method={method!r})) "
              f"over {VMAP_BATCH} elements of float32[4]", target=target)
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
