"""Bessel functions of the first kind from SciPy, made differentiable in jaxlite.

``scipy.special.jv`` runs on the host through ``jax.pure_callback``. Wrapping the call in
``jax.custom_jvp`` gives it a derivative, written with the recurrence

    d/dx J_v(x) = (J_{v-1}(x) - J_{v+1}(x)) / 2

in terms of the same wrapped function, so ``jax.grad`` can be applied again for the second
derivative. ``vmap_method="broadcast_all"`` lets ``vmap`` hand SciPy whole arrays in one host
call. Every result is checked against SciPy's own analytic values (``scipy.special.jvp``).

    python examples/bessel.py            # float32 (jaxlite's default)
    python examples/bessel.py --x64      # float64, tighter tolerances
"""

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import require

import jaxlite as jax
import jaxlite.numpy as jnp

(special,) = require("scipy.special", example="examples/bessel.py")

HOST_CALLS = {"n": 0}  # how many times SciPy was entered (for the vectorisation check)


def _host_jv(v, x):
    """Runs on the host; v and x arrive as arrays (already broadcast by vmap if batched)."""
    HOST_CALLS["n"] += 1
    v, x = np.asarray(v), np.asarray(x)
    return special.jv(v, x).astype(x.dtype)


@jax.custom_jvp
def jv(v, x):
    """J_v(x) for real order v and argument x, broadcasting the two like NumPy."""
    v = jnp.asarray(v)
    x = jnp.asarray(x)
    x = x.astype(jnp.promote_types(x.dtype, jnp.float32))
    out_spec = jax.ShapeDtypeStruct(np.broadcast_shapes(v.shape, x.shape), x.dtype)
    return jax.pure_callback(_host_jv, out_spec, v.astype(x.dtype), x, vmap_method="broadcast_all")


@jv.defjvp
def _jv_jvp(primals, tangents):
    v, x = primals
    _, x_dot = tangents  # the order is treated as a constant: no derivative w.r.t. v
    y = jv(v, x)
    dy_dx = 0.5 * (jv(v - 1, x) - jv(v + 1, x))
    return y, dy_dx * x_dot


def _report(name, got, want, atol, rtol):
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    err = float(np.max(np.abs(got - want)))
    ok = bool(np.allclose(got, want, atol=atol, rtol=rtol))
    print(f"{name:<42s} max abs error {err:.2e}  {'ok' if ok else 'MISMATCH'}")
    if not ok:
        raise AssertionError(f"{name}: jaxlite and SciPy disagree (max abs error {err:.3e})")
    return err


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--x64", action="store_true", help="compute in float64")
    p.add_argument("--points", type=int, default=200, help="grid size for the vmap checks")
    args = p.parse_args(argv)

    if args.x64:
        jax.config.update("jax_enable_x64", True)
    t_start = time.perf_counter()
    try:
        errors = _run(args)
        print(f"wall time {time.perf_counter() - t_start:.2f} s")
        return errors
    finally:
        if args.x64:
            jax.config.update("jax_enable_x64", False)


def _run(args):
    dtype = np.float64 if args.x64 else np.float32
    atol, rtol = (1e-10, 1e-9) if args.x64 else (2e-5, 2e-4)
    errors = {}

    # 1. plain values, eager and jitted, with broadcasting between orders and arguments
    orders = np.arange(4, dtype=dtype)
    xs = np.linspace(0.5, 20.0, args.points, dtype=dtype)
    print(f"J_0(2.5) = {float(jv(0, 2.5)):.6f}   (SciPy {special.jv(0, 2.5):.6f})")
    table = jax.jit(jv)(orders[:, None], xs[None, :])
    errors["values"] = _report(
        "jit(jv)(v[:, None], x[None, :])",
        table,
        special.jv(orders[:, None], xs[None, :]),
        atol,
        rtol,
    )

    # 2. first and second derivatives with grad, for one point
    v0, x0 = 2.0, 3.7
    d1 = jax.grad(jv, argnums=1)(v0, x0)
    d2 = jax.grad(jax.grad(jv, argnums=1), argnums=1)(v0, x0)
    print(
        f"J_2'(3.7) = {float(d1):.6f}  J_2''(3.7) = {float(d2):.6f}   "
        f"(SciPy {special.jvp(v0, x0, 1):.6f}, {special.jvp(v0, x0, 2):.6f})"
    )
    errors["grad"] = _report("grad(jv)(2, 3.7)", d1, special.jvp(v0, x0, 1), atol, rtol)
    errors["grad2"] = _report("grad(grad(jv))(2, 3.7)", d2, special.jvp(v0, x0, 2), atol, rtol)

    # 3. the same derivatives vmapped over a grid (one SciPy call per callback site)
    d1_fn = jax.jit(jax.vmap(jax.grad(jv, argnums=1), in_axes=(None, 0)))
    d2_fn = jax.jit(jax.vmap(jax.grad(jax.grad(jv, argnums=1), argnums=1), in_axes=(None, 0)))
    for v in (0.0, 1.0, 2.5):
        vv = np.asarray(v, dtype)
        HOST_CALLS["n"] = 0
        got1 = d1_fn(vv, xs)
        got2 = d2_fn(vv, xs)
        calls = HOST_CALLS["n"]
        errors[f"vmap_grad_v{v}"] = _report(
            f"vmap(grad(jv)) over {len(xs)} x, v={v}",
            got1,
            special.jvp(v, xs.astype(np.float64), 1),
            atol,
            rtol,
        )
        errors[f"vmap_grad2_v{v}"] = _report(
            f"vmap(grad(grad(jv))) over {len(xs)} x, v={v}",
            got2,
            special.jvp(v, xs.astype(np.float64), 2),
            atol * 10,
            rtol * 10,
        )
        if calls >= len(xs):
            raise AssertionError(
                f"vmap should batch the host calls, but SciPy ran {calls} "
                f"times for {len(xs)} points"
            )
    print(f"(the two vmapped derivative grids entered SciPy {calls} times in total)")

    # 4. vmap over orders and arguments together, and a nested vmap giving a table
    vs = np.linspace(0.0, 5.0, args.points, dtype=dtype)
    errors["vmap_pairs"] = _report(
        "vmap(jv)(v, x) elementwise", jax.vmap(jv)(vs, xs), special.jv(vs, xs), atol, rtol
    )
    nested = jax.vmap(jax.vmap(jv, in_axes=(None, 0)), in_axes=(0, None))(orders, xs[:17])
    errors["vmap_nested"] = _report(
        "vmap(vmap(jv)) table", nested, special.jv(orders[:, None], xs[None, :17]), atol, rtol
    )

    # 5. Bessel's equation x^2 y'' + x y' + (x^2 - v^2) y = 0, from the three jitted grids
    v = 1.5
    y = jax.jit(jax.vmap(jv, in_axes=(None, 0)))(np.asarray(v, dtype), xs)
    y1 = d1_fn(np.asarray(v, dtype), xs)
    y2 = d2_fn(np.asarray(v, dtype), xs)
    residual = xs**2 * np.asarray(y2) + xs * np.asarray(y1) + (xs**2 - v**2) * np.asarray(y)
    scale = xs**2 * np.abs(np.asarray(y2)) + xs * np.abs(np.asarray(y1)) + xs**2
    errors["ode"] = _report(
        "Bessel ODE residual (relative), v=1.5",
        residual / scale,
        np.zeros_like(residual),
        20 * atol,
        0,
    )

    # 6. first zeros of J_0 .. J_3 by Newton's method inside jit (fori_loop over grad)
    @jax.jit
    def newton_zero(v, guess):
        def step(_, x):
            return x - jv(v, x) / jax.grad(jv, argnums=1)(v, x)

        return jax.lax.fori_loop(0, 8, step, guess)

    zeros = np.array(
        [float(newton_zero(np.asarray(k, dtype), np.asarray(k + 2.5, dtype))) for k in range(4)]
    )
    want = np.array([special.jn_zeros(k, 1)[0] for k in range(4)])
    print("first zeros of J_0..J_3:", np.array2string(zeros, precision=6))
    errors["zeros"] = _report(
        "Newton zeros vs scipy.special.jn_zeros", zeros, want, atol * 10, rtol
    )

    print(f"all {len(errors)} checks agree with SciPy")
    return errors


if __name__ == "__main__":
    main()
