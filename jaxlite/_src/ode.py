"""``jax.experimental.ode.odeint``: the Dormand-Prince 5(4) Runge-Kutta pair with adaptive
steps, dense output at the requested times, and gradients by the adjoint method.

The integrator (Hairer, Norsett & Wanner, *Solving Ordinary Differential Equations I*,
sections II.4-II.6; Dormand & Prince 1980):

* the DOPRI5 tableau, advancing with the fifth-order solution (local extrapolation) and
  estimating the local error with the difference to an embedded fourth-order one (see
  ``_B4``);
* the error norm ``sqrt(mean(|err_i / (atol + rtol * max(|y0_i|, |y1_i|))|^2))``, a step
  accepted when it is at most 1;
* the next step ``h * min(10, max(0.9 * norm^(-1/5), fac_min))`` with ``fac_min`` 0.2 after
  a rejected step and 1 after an accepted one (an accepted step never shrinks the next),
  ``10 h`` when the norm is 0, clipped to ``[0, hmax]``;
* the starting step of HNW II.4 (with the Euclidean norm of the scaled vectors, as JAX's);
* dense output: the quartic in ``s = (t - t_n) / h`` through ``y_n``, ``y_{n+1}`` and
  Shampine's (Math. Comp. 46, 1986) fifth-order value at the midpoint, with slopes
  ``h f_n`` and ``h f_{n+1}`` at the ends.

These are the choices JAX makes, so the accepted steps agree with JAX's up to rounding.
``mxstep`` bounds the steps (accepted or not) taken towards each requested time.

Gradients (Chen, Rubanova, Bettencourt & Duvenaud, *Neural Ordinary Differential
Equations*, 2018, appendix C): the cotangent ``a(t)`` of the state obeys
``da/dt = -a^T df/dy`` and the parameters' cotangent accumulates ``-a^T df/dargs``; both are
integrated backwards from each requested time to the previous one together with the state
itself (so no trajectory is stored), by ``odeint`` on the augmented system in reversed
time. A requested time ``t_i`` has cotangent ``g_i . f(y_i, t_i)``; ``t_0`` collects the
rest.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

import jaxlite.numpy as jnp  # the public jnp namespace (stable across module splits)
from jaxlite import lax
from jaxlite._src import dtypes
from jaxlite._src.ad import closure_convert, vjp
from jaxlite._src.api import vmap
from jaxlite._src.core.avals import aval_of
from jaxlite._src.custom_derivatives import custom_vjp
from jaxlite._src.flatten_util import ravel_pytree
from jaxlite._src.tree_util import tree_flatten, tree_leaves, tree_map, tree_unflatten

__all__ = ["odeint"]

# --------------------------------------------------------------------- the DOPRI5 pair
# Nodes c_i and rows a_ij of the tableau (the seventh row is the fifth-order weights: the
# method is "first same as last", f at the new point is the seventh stage).
_C = (1 / 5, 3 / 10, 4 / 5, 8 / 9, 1.0, 1.0)
_A = (
    (1 / 5,),
    (3 / 40, 9 / 40),
    (44 / 45, -56 / 15, 32 / 9),
    (19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729),
    (9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656),
    (35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84),
)
_B5 = (35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0.0)
# The embedded fourth-order weights. Not DOPRI5's usual (5179/57600, 0, 7571/16695, ...) but
# another solution of the order-4 conditions on the same stages (its fifth-order residual is
# -71/405000 against -71/270000); it is the estimator JAX uses, so the step sequences agree.
_B4 = (1951 / 21600, 0.0, 22642 / 50085, 451 / 720, -12231 / 42400, 649 / 6300, 1 / 60)
_ERR = tuple(b5 - b4 for b5, b4 in zip(_B5, _B4))
# Shampine's continuous extension evaluated at the midpoint of the step.
_MID = tuple(
    w / 2
    for w in (
        6025192743 / 30085553152,
        0.0,
        51252292925 / 65400821598,
        -2691868925 / 45128329728,
        187940372067 / 1594534317056,
        -1776094331 / 19743644256,
        11237099 / 235043384,
    )
)

_SAFETY, _FAC_MAX, _FAC_MIN_REJECTED, _ORDER = 0.9, 10.0, 0.2, 5.0


def _weighted(y, h, weights, ks):
    """``y + h * sum_i w_i k_i`` over the nonzero weights (``h`` in ``y``'s dtype)."""
    acc = None
    for w, k in zip(weights, ks):
        if w != 0.0:
            term = np.asarray(w, k.dtype) * k
            acc = term if acc is None else acc + term
    return y if acc is None else y + h * acc


def _dopri5_step(f, y, fy, t, h):
    """One step from ``(t, y)`` (``fy = f(y, t)``): the fifth-order ``y1``, ``f(y1)``, the
    error estimate and the seven stage slopes."""
    hy = h.astype(y.dtype)
    ks = [fy]
    for c, row in zip(_C, _A):
        ks.append(f(_weighted(y, hy, row, ks), t + h * np.asarray(c, h.dtype)))
    y1 = _weighted(y, hy, _B5, ks)
    err = _weighted(jnp.zeros_like(y), hy, _ERR, ks)
    return y1, ks[-1], err, ks


def _dense_coefficients(y0, y1, ks, h):
    """The quartic ``p(s) = a s^4 + b s^3 + c s^2 + d s + e`` of the dense output, as the
    rows ``[a, b, c, d, e]`` (highest power first, for ``polyval``)."""
    hy = h.astype(y0.dtype)
    ymid = _weighted(y0, hy, _MID, ks)
    d = hy * ks[0]
    # p(1) = y1, p'(1) = h f1 and p(1/2) = ymid give a + b + c = u, 4a + 3b + 2c = v and
    # a + 2b + 4c = w.
    u = y1 - y0 - d
    v = hy * ks[-1] - d
    w = 16.0 * (ymid - y0) - 8.0 * d
    a = w - 8.0 * u + 2.0 * v
    b = 14.0 * u - 3.0 * v - 2.0 * w
    c = v + w - 5.0 * u
    return jnp.stack([a, b, c, d, y0])


def _abs2(x):
    return x.real**2 + x.imag**2 if jnp.iscomplexobj(x) else x**2


def _error_norm(err, y0, y1, rtol, atol):
    scale = atol + rtol * jnp.maximum(jnp.abs(y0), jnp.abs(y1))
    return jnp.sqrt(jnp.mean(_abs2(err / scale.astype(err.dtype))))


def _next_step(h, norm):
    fac_min = jnp.where(norm < 1, 1.0, _FAC_MIN_REJECTED)
    fac = jnp.minimum(_FAC_MAX, jnp.maximum(_SAFETY * norm ** (-1.0 / _ORDER), fac_min))
    return jnp.where(norm == 0, h * _FAC_MAX, h * fac)


def _initial_step(f, t0, y0, f0, rtol, atol):
    """HNW II.4's starting step for a method of order 4 (the embedded solution's)."""
    scale = (atol + rtol * jnp.abs(y0)).astype(y0.dtype)
    d0 = jnp.linalg.norm(y0 / scale)
    d1 = jnp.linalg.norm(f0 / scale)
    h0 = jnp.where((d0 < 1e-5) | (d1 < 1e-5), 1e-6, 0.01 * d0 / d1)
    f1 = f(y0 + h0.astype(y0.dtype) * f0, t0 + h0)
    d2 = jnp.linalg.norm((f1 - f0) / scale) / h0
    h1 = jnp.where(
        jnp.maximum(d1, d2) <= 1e-15,
        jnp.maximum(1e-6, h0 * 1e-3),
        (0.01 / jnp.maximum(d1, d2)) ** (1.0 / _ORDER),
    )
    return jnp.minimum(100.0 * h0, h1)


def _integrate(func, rtol, atol, mxstep, hmax, y0, ts, *args):
    """The solution of ``y' = func(y, t, *args)`` (flat ``y``) at the times ``ts``."""

    def f(y, t):
        return func(y, t, *args)

    f0 = f(y0, ts[0])
    h = jnp.clip(_initial_step(f, ts[0], y0, f0, rtol, atol), min=0.0, max=hmax)
    start = (y0, f0, ts[0], h, ts[0], jnp.stack([y0] * 5))

    def to_target(carry, target):
        def keep_going(state):
            i, _, _, t, h, _, _ = state
            return (t < target) & (i < mxstep) & (h > 0)

        def step(state):
            i, y, fy, t, h, t_prev, coeffs = state
            y1, f1, err, ks = _dopri5_step(f, y, fy, t, h)
            norm = _error_norm(err, y, y1, rtol, atol)
            h_next = jnp.clip(_next_step(h, norm), min=0.0, max=hmax)
            accept = norm <= 1.0
            taken = (y1, f1, t + h, t, _dense_coefficients(y, y1, ks, h))
            kept = (y, fy, t, t_prev, coeffs)
            y, fy, t, t_prev, coeffs = (jnp.where(accept, a, b) for a, b in zip(taken, kept))
            return i + 1, y, fy, t, h_next, t_prev, coeffs

        _, *carry = lax.while_loop(keep_going, step, (0, *carry))
        _, _, t, _, t_prev, coeffs = carry
        s = (target - t_prev) / (t - t_prev)
        return tuple(carry), jnp.polyval(coeffs, s.astype(coeffs.dtype))

    _, ys = lax.scan(to_target, start, ts[1:])
    return jnp.concatenate([y0[None], ys])


def _solve_fwd(f, rtol, atol, mxstep, hmax, y0, ts, *args):
    ys = _solve(f, rtol, atol, mxstep, hmax, y0, ts, *args)
    return ys, (ys, ts, args)


def _solve_bwd(f, rtol, atol, mxstep, hmax, res, g):
    ys, ts, args = res

    def adjoint_dynamics(state, s, *args):
        # Reversed time s = -t: dy/ds = -f, da/ds = a^T df/dy, and the cotangents of t and
        # of args accumulate a^T df/dt and a^T df/dargs.
        y, a, _, _ = state
        fy, pullback = vjp(f, y, -s, *args)
        y_bar, t_bar, *args_bar = pullback(a)
        return -fy, y_bar, t_bar, tuple(args_bar)

    def back_one_interval(carry, i):
        a, t0_bar, args_bar = carry
        t_bar = jnp.sum(f(ys[i], ts[i], *args) * g[i]).real
        state = (ys[i], a, t0_bar - t_bar, args_bar)
        sol = odeint(
            adjoint_dynamics,
            state,
            jnp.stack([-ts[i], -ts[i - 1]]),
            *args,
            rtol=rtol,
            atol=atol,
            mxstep=mxstep,
            hmax=hmax,
        )
        _, a, t0_bar, args_bar = tree_map(operator.itemgetter(1), sol)
        return (a + g[i - 1], t0_bar, args_bar), t_bar

    # Strongly typed zeros: a weak-typed start would make the scan's carry (and so the
    # cotangents of weak-typed args) weak, where JAX's are not.
    zeros = tree_map(lambda x: jnp.zeros(jnp.shape(x), jnp.result_type(x)), args)
    start = (g[-1], jnp.zeros((), ts.dtype), zeros)
    (a, t0_bar, args_bar), ts_bar = lax.scan(
        back_one_interval, start, jnp.arange(len(ts) - 1, 0, -1)
    )
    ts_bar = jnp.concatenate([t0_bar[None].astype(ts.dtype), ts_bar[::-1].astype(ts.dtype)])
    return (a, ts_bar, *args_bar)


_solve = custom_vjp(_integrate, nondiff_argnums=(0, 1, 2, 3, 4))
_solve.defvjp(_solve_fwd, _solve_bwd)


# ------------------------------------------------------------------------ flat states
def _describe(tree) -> str:
    return str(tree_map(lambda x: f"{jnp.result_type(x)}{list(np.shape(x))}", tree))


def _check_derivative(func, y0, t0, args):
    """A TypeError unless ``func(y0, t0, *args)`` has ``y0``'s structure and shapes and a
    floating-point dtype that the state's dtype holds."""
    out = func(y0, t0, *args)
    out_leaves, out_tree = tree_flatten(out)
    y_leaves, y_tree = tree_flatten(y0)
    shapes_agree = all(np.shape(a) == np.shape(b) for a, b in zip(out_leaves, y_leaves))
    if out_tree != y_tree or not shapes_agree:
        raise TypeError(
            "odeint: func(y, t, *args) must return a value with the same pytree structure "
            f"and shapes as y0 = {_describe(y0)}, but it returned {_describe(out)}."
        )
    state = dtypes.result_type(*y_leaves) if y_leaves else np.dtype(np.float32)
    for leaf in out_leaves:
        kind = jnp.result_type(leaf)
        if not jnp.issubdtype(kind, jnp.inexact):
            raise TypeError(
                "odeint: func(y, t, *args) must return floating-point or complex values, "
                f"but it returned {_describe(out)} for y0 = {_describe(y0)}."
            )
        if dtypes.result_type(state, leaf) != state:
            raise TypeError(
                f"odeint: func(y, t, *args) returned {_describe(out)}, of a wider dtype "
                f"than the state y0 = {_describe(y0)} ({state}); cast y0 or the result of "
                "func so that they agree."
            )


def _solve_flat(func, rtol, atol, mxstep, hmax, y0, ts, *args):
    y_flat, unravel = ravel_pytree(y0)
    if not jnp.issubdtype(y_flat.dtype, jnp.inexact):
        raise TypeError(f"odeint: y0 must be floating-point or complex, but it is {_describe(y0)}.")
    _check_derivative(func, y0, ts[0], args)
    if dtypes.result_type(ts.dtype, jnp.finfo(y_flat.dtype).dtype) != ts.dtype:
        raise TypeError(
            f"odeint: the times t ({ts.dtype}) must be of a dtype at least as wide as the "
            f"real dtype of the state y0 = {_describe(y0)}."
        )

    def flat_func(y, t, *args):
        out = ravel_pytree(func(unravel(y), t, *args))[0]
        return out.astype(y.dtype)

    ys = _solve(flat_func, rtol, atol, mxstep, hmax, y_flat, ts, *args)
    return vmap(unravel)(ys)


def odeint(
    func: Callable,
    y0: Any,
    t: Any,
    *args: Any,
    rtol: float = 1.4e-8,
    atol: float = 1.4e-8,
    mxstep: float = float("inf"),
    hmax: float = float("inf"),
):
    """Solve ``dy/dt = func(y, t, *args)`` from ``y(t[0]) = y0`` (mirrors
    ``jax.experimental.ode.odeint``).

    Adaptive Dormand-Prince 5(4) Runge-Kutta steps, with values at the requested times from
    the method's dense output. Differentiable in ``y0``, ``t`` and ``args`` (by the adjoint
    method: reverse mode integrates the adjoint system backwards in time); works under
    ``jit`` and ``vmap``.

    Args:
      func: the time derivative, ``func(y, t, *args)``, returning the structure, shapes
        and dtypes of ``y``. Arrays it closes over are differentiated too.
      y0: the initial state: an array or a pytree of arrays, floating-point or complex.
      t: 1-D floating-point array of strictly increasing times; ``t[0]`` is the time of
        ``y0``.
      *args: extra arguments of ``func``: arrays, scalars, or pytrees of them.
      rtol: relative local error tolerance.
      atol: absolute local error tolerance.
      mxstep: the most steps (accepted or rejected) taken towards each time in ``t``.
      hmax: the largest step.

    Returns:
      ``y`` at each time of ``t``: the structure of ``y0`` with a new leading axis of
      length ``len(t)``.

    Raises:
      TypeError: for ``args`` holding something that is not an array or scalar, a ``t``
        that is not floating-point, an integer ``y0``, or a ``func`` whose result has
        another structure, shape or a wider or non-floating dtype than ``y0``.
    """
    for arg in tree_leaves(args):
        try:
            aval_of(arg)
        except TypeError:
            raise TypeError(
                f"The contents of odeint *args must be arrays or scalars, but got {arg}."
            ) from None
    if not jnp.issubdtype(t.dtype, jnp.floating):
        raise TypeError(f"t must be an array of floats, but got {t}.")
    converted, consts = closure_convert(func, y0, t[0], *args)
    return _solve_flat(converted, rtol, atol, mxstep, hmax, y0, t, *args, *consts)
