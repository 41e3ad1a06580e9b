"""``jax.scipy.optimize``: ``minimize`` (BFGS and JAX's experimental L-BFGS) and its
``OptimizeResults``. The solvers live in ``optimize_bfgs``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import jaxlite.numpy as jnp  # the public jnp namespace (stable across module splits)
from jaxlite._src.scipy.optimize_bfgs import minimize_bfgs, minimize_lbfgs


class OptimizeResults(NamedTuple):
    """The result of :func:`minimize` (mirrors ``jax.scipy.optimize.OptimizeResults``).

    Attributes:
        x: the final point.
        success: whether the solver converged without a line-search failure.
        status: 0 converged; BFGS: 1 ``maxiter`` reached, 3 zoom failed, 5 the line search
            hit its ``maxiter``, -1 undefined; L-BFGS: 1 ``maxiter``, 2 ``maxfun``,
            3 ``maxgrad``, 4 the decrease fell under ``ftol``, 5 the line search failed.
        fun: the objective at ``x``.
        jac: its gradient at ``x``.
        hess_inv: the final inverse-Hessian estimate (None for L-BFGS).
        nfev, njev: objective and gradient evaluations.
        nit: iterations.
    """

    x: Any
    success: Any
    status: Any
    fun: Any
    jac: Any
    hess_inv: Any
    nfev: Any
    njev: Any
    nit: Any


def minimize(
    fun: Callable,
    x0,
    args: tuple = (),
    *,
    method: str,
    tol: float | None = None,
    options: Mapping[str, Any] | None = None,
) -> OptimizeResults:
    """Minimizes ``fun(x, *args)`` over a 1-D ``x``, as ``jax.scipy.optimize.minimize``.

    Gradients come from ``grad``; the solver is a ``while_loop`` (so ``minimize`` works
    under ``jit`` and ``vmap``, but is not differentiable in reverse mode).

    Args:
        fun: a real scalar function ``fun(x, *args)`` of a 1-D array ``x`` of shape
            ``(n,)``.
        x0: the starting point, shape ``(n,)``.
        args: extra positional arguments of ``fun`` (a tuple).
        method: ``"BFGS"`` or ``"l-bfgs-experimental-do-not-rely-on-this"`` (any case).
        tol: accepted and unused, as in JAX (use ``options={"gtol": ...}``).
        options: the solver's keyword options: BFGS ``maxiter`` (``200 n``), ``norm``
            (``inf``), ``gtol`` (1e-5), ``line_search_maxiter`` (10); L-BFGS ``maxiter``,
            ``norm``, ``maxcor`` (10), ``ftol``, ``gtol``, ``maxfun``, ``maxgrad``,
            ``maxls`` (20).

    Returns:
        An :class:`OptimizeResults`.

    Raises:
        TypeError: ``args`` is not a tuple; an unknown option.
        ValueError: an unknown ``method`` ("Method nope not recognized").
    """
    del tol  # unused, as in JAX
    if options is None:
        options = {}
    if not isinstance(args, tuple):
        raise TypeError(f"args argument to jax.scipy.optimize.minimize must be a tuple, got {args}")

    def objective(x):
        return fun(x, *args)

    if method.lower() == "bfgs":
        s, status = minimize_bfgs(objective, x0, **options)
        return OptimizeResults(
            x=s.x_k,
            success=s.converged & jnp.logical_not(s.failed),
            status=status,
            fun=s.f_k,
            jac=s.g_k,
            hess_inv=s.H_k,
            nfev=s.nfev,
            njev=s.ngev,
            nit=s.k,
        )
    if method.lower() == "l-bfgs-experimental-do-not-rely-on-this":
        s = minimize_lbfgs(objective, x0, **options)
        return OptimizeResults(
            x=s.x_k,
            success=s.converged & jnp.logical_not(s.failed),
            status=s.status,
            fun=s.f_k,
            jac=s.g_k,
            hess_inv=None,
            nfev=s.nfev,
            njev=s.ngev,
            nit=s.k,
        )
    raise ValueError(f"Method {method} not recognized")
