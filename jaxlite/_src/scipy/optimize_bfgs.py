"""The solvers behind ``jax.scipy.optimize.minimize``: BFGS, L-BFGS, and their strong-Wolfe
line search (Nocedal & Wright, *Numerical Optimization*, algorithms 3.5/3.6, 6.1 and 7.5).

Everything is ``lax.while_loop``s over ``jax.numpy`` arrays, so ``minimize`` traces under
``jit`` and batches under ``vmap``. The iteration follows JAX's own choices, so that
iteration and evaluation counts agree with JAX: the first trial step
``min(1, 2.02 (f_k - f_{k-1}) / phi'(0))``, step doubling, both zoom phases traced in every
line-search step (the inactive one passes straight through), the zoom's cubic /
quadratic / bisection choice with JAX's safeguards and its failure after 30 steps or once
the bracket is narrower than 1e-5 (1e-10 in float64), a float32 step never smaller than
1e-8 in magnitude, and the status codes of ``OptimizeResults``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

import jaxlite.numpy as jnp  # the public jnp namespace (stable across module splits)
from jaxlite import lax
from jaxlite._src import dtypes
from jaxlite._src.ad import value_and_grad
from jaxlite._src.numpy.util import promote_dtypes_inexact


def _where_update(pred, state: NamedTuple, **new) -> Any:
    """``state`` with the fields in ``new`` replaced where ``pred`` holds."""
    return state._replace(
        **{name: jnp.where(pred, value, getattr(state, name)) for name, value in new.items()}
    )


# ---------------------------------------------------------------------- interpolation
def _cubic_argmin(a, fa, fpa, b, fb, c, fc):
    """The minimizer of the cubic through ``(a, fa)`` with slope ``fpa``, ``(b, fb)`` and
    ``(c, fc)``."""
    dtype = dtypes.result_type(a, fa, fpa, b, fb, c, fc)
    db, dc = b - a, c - a
    denom = (db * dc) ** 2 * (db - dc)
    m = jnp.array([[dc**2, -(db**2)], [-(dc**3), db**3]], dtype=dtype)
    rhs = jnp.array([fb - fa - fpa * db, fc - fa - fpa * dc], dtype=dtype)
    cubic, quad = jnp.dot(m, rhs) / denom
    return a + (-quad + jnp.sqrt(quad * quad - 3.0 * cubic * fpa)) / (3.0 * cubic)


def _quadratic_argmin(a, fa, fpa, b, fb):
    """The minimizer of the parabola through ``(a, fa)`` with slope ``fpa`` and ``(b, fb)``."""
    db = b - a
    curvature = (fb - fa - fpa * db) / (db**2)
    return a - fpa / (2.0 * curvature)


# ------------------------------------------------------------------------------- zoom
class _Zoom(NamedTuple):
    done: Any
    failed: Any
    j: Any
    a_lo: Any
    phi_lo: Any
    dphi_lo: Any
    a_hi: Any
    phi_hi: Any
    dphi_hi: Any
    a_rec: Any  # the previous endpoint, the third point of the cubic
    phi_rec: Any
    a_star: Any
    phi_star: Any
    dphi_star: Any
    g_star: Any
    nfev: Any
    ngev: Any


def _zoom(phi_dphi, armijo_fails, curvature_holds, lo, hi, g_0, skip):
    """Shrinks the bracket ``lo = (a, phi, dphi)``, ``hi = (a, phi, dphi)`` until a
    strong-Wolfe step is found (``done``), or fails. ``skip`` (traced) makes it return
    its initial state at once."""
    state = _Zoom(
        done=False,
        failed=False,
        j=0,
        a_lo=lo[0],
        phi_lo=lo[1],
        dphi_lo=lo[2],
        a_hi=hi[0],
        phi_hi=hi[1],
        dphi_hi=hi[2],
        a_rec=(lo[0] + hi[0]) / 2.0,
        phi_rec=(lo[1] + hi[1]) / 2.0,
        a_star=1.0,
        phi_star=lo[1],
        dphi_star=lo[2],
        g_star=g_0,
        nfev=0,
        ngev=0,
    )

    def step(s: _Zoom) -> _Zoom:
        width = s.a_hi - s.a_lo  # signed: a bracket given high-to-low fails here, as JAX's
        left, right = jnp.minimum(s.a_hi, s.a_lo), jnp.maximum(s.a_hi, s.a_lo)
        min_width = 1e-5 if dtypes.finfo(width.dtype).bits < 64 else 1e-10
        s = s._replace(failed=s.failed | (width <= min_width))
        a_cubic = _cubic_argmin(s.a_lo, s.phi_lo, s.dphi_lo, s.a_hi, s.phi_hi, s.a_rec, s.phi_rec)
        use_cubic = (s.j > 0) & (a_cubic > left + 0.2 * width) & (a_cubic < right - 0.2 * width)
        a_quad = _quadratic_argmin(s.a_lo, s.phi_lo, s.dphi_lo, s.a_hi, s.phi_hi)
        use_quad = ~use_cubic & (a_quad > left + 0.1 * width) & (a_quad < right - 0.1 * width)
        a_j = jnp.where(use_cubic, a_cubic, s.a_rec)
        a_j = jnp.where(use_quad, a_quad, a_j)
        a_j = jnp.where(~use_cubic & ~use_quad, (s.a_lo + s.a_hi) / 2.0, a_j)
        phi_j, dphi_j, g_j = phi_dphi(a_j)
        phi_j = phi_j.astype(s.phi_lo.dtype)
        dphi_j = dphi_j.astype(s.dphi_lo.dtype)
        g_j = g_j.astype(s.g_star.dtype)

        new_hi = armijo_fails(a_j, phi_j) | (phi_j >= s.phi_lo)
        found = curvature_holds(dphi_j) & ~new_hi
        new_lo = ~new_hi & ~found
        flip = (dphi_j * (s.a_hi - s.a_lo) >= 0.0) & new_lo  # hi becomes the old lo
        # Every case below reads the state before this step (the cases are disjoint).
        out = s._replace(nfev=s.nfev + 1, ngev=s.ngev + 1, done=s.done | found, j=s.j + 1)
        out = _where_update(
            new_hi, out, a_hi=a_j, phi_hi=phi_j, dphi_hi=dphi_j, a_rec=s.a_hi, phi_rec=s.phi_hi
        )
        out = _where_update(found, out, a_star=a_j, phi_star=phi_j, dphi_star=dphi_j, g_star=g_j)
        out = _where_update(
            flip,
            out,
            a_hi=s.a_lo,
            phi_hi=s.phi_lo,
            dphi_hi=s.dphi_lo,
            a_rec=s.a_hi,
            phi_rec=s.phi_hi,
        )
        out = _where_update(new_lo & ~flip, out, a_rec=s.a_lo, phi_rec=s.phi_lo)
        out = _where_update(new_lo, out, a_lo=a_j, phi_lo=phi_j, dphi_lo=dphi_j)
        return out._replace(failed=out.failed | (out.j >= 30))

    return lax.while_loop(lambda s: ~s.done & ~skip & ~s.failed, step, state)


# ------------------------------------------------------------------------ line search
class _Search(NamedTuple):
    done: Any
    failed: Any
    i: Any
    a_prev: Any
    phi_prev: Any
    dphi_prev: Any
    nfev: Any
    ngev: Any
    a_star: Any
    phi_star: Any
    dphi_star: Any
    g_star: Any


class LineSearchResults(NamedTuple):
    """What :func:`line_search` found: ``failed`` (no strong-Wolfe step), ``nit``,
    ``nfev``, ``ngev``, ``k`` (``nit + 1``), the step ``a_k``, ``f_k`` and ``g_k`` there,
    and ``status`` (0 found, 1 zoom failed, 3 ``maxiter`` reached)."""

    failed: Any
    nit: Any
    nfev: Any
    ngev: Any
    k: Any
    a_k: Any
    f_k: Any
    g_k: Any
    status: Any


def line_search(
    f: Callable,
    xk,
    pk,
    old_fval=None,
    old_old_fval=None,
    gfk=None,
    c1: float = 1e-4,
    c2: float = 0.9,
    maxiter: int = 20,
) -> LineSearchResults:
    """A step along ``pk`` from ``xk`` satisfying the strong Wolfe conditions, as JAX's
    private ``jax._src.scipy.optimize.line_search.line_search`` (not public in JAX).

    Args:
        f: a real scalar function of a 1-D array.
        xk, pk: the start and the (descent) direction, 1-D arrays.
        old_fval, gfk: ``f(xk)`` and its gradient, computed if either is missing.
        old_old_fval: the previous iterate's value, which sets the first trial step.
        c1, c2: the sufficient-decrease and curvature constants.
        maxiter: the most step-doublings.

    Returns:
        A :class:`LineSearchResults`.
    """
    xk, pk = promote_dtypes_inexact(xk, pk)

    def phi_dphi(t):
        t = jnp.array(t, dtype=pk.dtype)
        phi, g = value_and_grad(f)(xk + t * pk)
        return phi, jnp.real(jnp.dot(g, pk)), g

    given = old_fval is not None and gfk is not None
    if given:
        phi_0, dphi_0 = old_fval, jnp.real(jnp.dot(gfk, pk))
    else:
        phi_0, dphi_0, gfk = phi_dphi(0)
    if old_old_fval is None:
        first_step = 1
    else:
        guess = 1.01 * 2 * (phi_0 - old_old_fval) / dphi_0
        first_step = jnp.where(guess > 1, 1.0, guess)

    def armijo_fails(a, phi):
        return phi > phi_0 + c1 * a * dphi_0

    def curvature_holds(dphi):
        return jnp.abs(dphi) <= -c2 * dphi_0

    state = _Search(
        done=jnp.array(False),
        failed=jnp.array(False),
        i=1,
        a_prev=0.0,
        phi_prev=phi_0,
        dphi_prev=dphi_0,
        nfev=0 if given else 1,
        ngev=0 if given else 1,
        a_star=0.0,
        phi_star=phi_0,
        dphi_star=dphi_0,
        g_star=gfk,
    )

    def step(s: _Search) -> _Search:
        a_i = jnp.where(s.i == 1, first_step, s.a_prev * 2.0)
        phi_i, dphi_i, g_i = phi_dphi(a_i)
        zoom_up = armijo_fails(a_i, phi_i) | ((phi_i >= s.phi_prev) & (s.i > 1))
        found = curvature_holds(dphi_i) & ~zoom_up
        zoom_down = (dphi_i >= 0.0) & ~zoom_up & ~found
        prev = (s.a_prev, s.phi_prev, s.dphi_prev)
        here = (a_i, phi_i, dphi_i)
        z1 = _zoom(phi_dphi, armijo_fails, curvature_holds, prev, here, gfk, ~zoom_up)
        z2 = _zoom(phi_dphi, armijo_fails, curvature_holds, here, prev, gfk, ~zoom_down)
        out = s._replace(
            nfev=s.nfev + 1 + z1.nfev + z2.nfev,
            ngev=s.ngev + 1 + z1.ngev + z2.ngev,
            done=s.done | zoom_up | found | zoom_down,
            failed=s.failed | (zoom_up & z1.failed) | (zoom_down & z2.failed),
        )
        for pred, src in ((zoom_up, z1), (found, None), (zoom_down, z2)):
            if src is None:
                new = {"a_star": a_i, "phi_star": phi_i, "dphi_star": dphi_i, "g_star": g_i}
            else:
                new = {k: getattr(src, k) for k in ("a_star", "phi_star", "dphi_star", "g_star")}
            out = _where_update(pred, out, **new)
        return out._replace(i=s.i + 1, a_prev=a_i, phi_prev=phi_i, dphi_prev=dphi_i)

    s = lax.while_loop(lambda s: ~s.done & (s.i <= maxiter) & ~s.failed, step, state)
    status = jnp.where(s.failed, jnp.array(1), jnp.where(s.i > maxiter, jnp.array(3), 0))
    a_k = jnp.asarray(s.a_star)
    if dtypes.finfo(a_k.dtype).bits != 64:
        a_k = jnp.where(jnp.abs(a_k) < 1e-8, jnp.sign(a_k) * 1e-8, a_k)
    return LineSearchResults(
        failed=s.failed | ~s.done,
        nit=s.i - 1,
        nfev=s.nfev,
        ngev=s.ngev,
        k=s.i,
        a_k=a_k,
        f_k=s.phi_star,
        g_k=s.g_star,
        status=status,
    )


# ------------------------------------------------------------------------------- BFGS
class _BFGS(NamedTuple):
    converged: Any
    failed: Any
    k: Any
    nfev: Any
    ngev: Any
    x_k: Any
    f_k: Any
    g_k: Any
    H_k: Any
    f_prev: Any
    ls_status: Any


def minimize_bfgs(
    fun: Callable,
    x0,
    maxiter: int | None = None,
    norm=np.inf,
    gtol: float = 1e-5,
    line_search_maxiter: int = 10,
) -> tuple[_BFGS, Any]:
    """BFGS (Nocedal & Wright algorithm 6.1) from ``x0``, a 1-D array. Returns the final
    state and the status (0 converged, 1 ``maxiter`` reached, 2 + the line search's status
    when it failed, -1 otherwise)."""
    if maxiter is None:
        maxiter = np.size(x0) * 200
    n = x0.shape[0]
    f_0, g_0 = value_and_grad(fun)(x0)
    state = _BFGS(
        converged=jnp.linalg.norm(g_0, ord=norm) < gtol,
        failed=False,
        k=0,
        nfev=1,
        ngev=1,
        x_k=x0,
        f_k=f_0,
        g_k=g_0,
        H_k=jnp.eye(n, dtype=x0.dtype),
        f_prev=f_0 + jnp.linalg.norm(g_0) / 2,
        ls_status=0,
    )

    def step(s: _BFGS) -> _BFGS:
        p = -jnp.dot(s.H_k, s.g_k)
        ls = line_search(
            fun,
            s.x_k,
            p,
            old_fval=s.f_k,
            old_old_fval=s.f_prev,
            gfk=s.g_k,
            maxiter=line_search_maxiter,
        )
        step_vec = ls.a_k * p
        y = ls.g_k - s.g_k
        rho = jnp.reciprocal(jnp.dot(y, step_vec))
        # H <- (I - rho s y^T) H (I - rho y s^T) + rho s s^T, kept when y.s == 0
        w = jnp.eye(n, dtype=rho.dtype) - rho * jnp.outer(step_vec, y)
        H = w @ s.H_k @ w.T + rho * jnp.outer(step_vec, step_vec)
        return s._replace(
            converged=jnp.linalg.norm(ls.g_k, ord=norm) < gtol,
            failed=ls.failed,
            k=s.k + 1,
            nfev=s.nfev + ls.nfev,
            ngev=s.ngev + ls.ngev,
            x_k=s.x_k + step_vec,
            f_k=ls.f_k,
            g_k=ls.g_k,
            H_k=jnp.where(jnp.isfinite(rho), H, s.H_k),
            f_prev=s.f_k,
            ls_status=ls.status,
        )

    s = lax.while_loop(lambda s: ~s.converged & ~s.failed & (s.k < maxiter), step, state)
    status = jnp.where(
        s.converged, 0, jnp.where(s.k == maxiter, 1, jnp.where(s.failed, 2 + s.ls_status, -1))
    )
    return s, status


# ----------------------------------------------------------------------------- L-BFGS
class _LBFGS(NamedTuple):
    converged: Any
    failed: Any
    k: Any
    nfev: Any
    ngev: Any
    x_k: Any
    f_k: Any
    g_k: Any
    s_hist: Any
    y_hist: Any
    rho_hist: Any
    gamma: Any
    status: Any
    ls_status: Any


def _two_loop(s: _LBFGS):
    """The L-BFGS direction ``-H g`` from the stored pairs (oldest first in the history,
    the newest ``min(k, maxcor)`` of them filled)."""
    dtype = s.rho_hist.dtype
    size = s.rho_hist.shape[0]
    filled = jnp.where(s.k < size, s.k, size)

    def backward(j, carry):
        q, alphas = carry
        i = size - 1 - j
        a_i = s.rho_hist[i] * jnp.dot(jnp.conj(s.s_hist[i]), q).real.astype(dtype)
        return q - a_i * jnp.conj(s.y_hist[i]), alphas.at[i].set(a_i)

    q, alphas = lax.fori_loop(0, filled, backward, (-jnp.conj(s.g_k), jnp.zeros_like(s.rho_hist)))

    def forward(j, q):
        i = size - filled + j
        b_i = s.rho_hist[i] * jnp.dot(s.y_hist[i], q).real.astype(dtype)
        return q + (alphas[i] - b_i) * s.s_hist[i]

    return lax.fori_loop(0, filled, forward, s.gamma * q)


def _push(history, new):
    return jnp.roll(history, -1, axis=0).at[-1].set(new)


def minimize_lbfgs(
    fun: Callable,
    x0,
    maxiter: float | None = None,
    norm=np.inf,
    maxcor: int = 10,
    ftol: float = 2.220446049250313e-09,
    gtol: float = 1e-05,
    maxfun: float | None = None,
    maxgrad: float | None = None,
    maxls: int = 20,
) -> _LBFGS:
    """L-BFGS (Nocedal & Wright algorithm 7.5, complex variables as Sorber et al.) from
    ``x0``. Status: 0 converged, 1 ``maxiter``, 2 ``maxfun``, 3 ``maxgrad``, 4 the decrease
    fell under ``ftol``, 5 the line search failed."""
    n = len(x0)
    dtype = jnp.asarray(x0).dtype
    if maxiter is None and maxfun is None and maxgrad is None:
        maxiter = n * 200
    maxiter = np.inf if maxiter is None else maxiter
    maxfun = np.inf if maxfun is None else maxfun
    maxgrad = np.inf if maxgrad is None else maxgrad
    f_0, g_0 = value_and_grad(fun)(x0)
    state = _LBFGS(
        converged=jnp.array(False),
        failed=jnp.array(False),
        k=0,
        nfev=1,
        ngev=1,
        x_k=x0,
        f_k=f_0,
        g_k=g_0,
        s_hist=jnp.zeros((maxcor, n), dtype=dtype),
        y_hist=jnp.zeros((maxcor, n), dtype=dtype),
        rho_hist=jnp.zeros((maxcor,), dtype=dtype),
        gamma=1.0,
        status=0,
        ls_status=0,
    )

    def step(s: _LBFGS) -> _LBFGS:
        p = _two_loop(s)
        ls = line_search(f=fun, xk=s.x_k, pk=p, old_fval=s.f_k, gfk=s.g_k, maxiter=maxls)
        step_vec = jnp.asarray(ls.a_k).astype(p.dtype) * p
        y = ls.g_k - s.g_k
        sy = jnp.real(jnp.dot(y, step_vec))
        gamma = sy / jnp.real(jnp.dot(jnp.conj(y), y))
        status = jnp.array(0)
        status = jnp.where(s.f_k - ls.f_k < ftol, 4, status)
        status = jnp.where(s.ngev >= maxgrad, 3, status)
        status = jnp.where(s.nfev >= maxfun, 2, status)
        status = jnp.where(s.k >= maxiter, 1, status)
        status = jnp.where(ls.failed, 5, status)
        converged = jnp.linalg.norm(ls.g_k, ord=norm) < gtol
        return s._replace(
            converged=converged,
            failed=(status > 0) & ~converged,
            k=s.k + 1,
            nfev=s.nfev + ls.nfev,
            ngev=s.ngev + ls.ngev,
            x_k=(s.x_k + step_vec).astype(s.x_k.dtype),
            f_k=ls.f_k.astype(s.f_k.dtype),
            g_k=ls.g_k.astype(s.g_k.dtype),
            s_hist=_push(s.s_hist, step_vec),
            y_hist=_push(s.y_hist, y),
            rho_hist=_push(s.rho_hist, jnp.reciprocal(sy).astype(y.dtype)),
            gamma=gamma.astype(s.g_k.dtype),
            status=jnp.where(converged, 0, status),
            ls_status=ls.status,
        )

    return lax.while_loop(lambda s: ~s.converged & ~s.failed, step, state)
