"""Numerical checks of transformations, for jaxlite's tests and for users' own primitives:
``check_grads`` (``jax.test_util.check_grads``), ``check_jvp``, ``check_vjp``,
``check_vmap`` and ``assert_close``.

Derivatives are checked against central finite differences along a random direction
(forward mode), and reverse mode against forward mode through the inner-product identity
``<t_in, vjp(ct)> == <jvp(t_in), ct>``; higher orders recurse on the derivative functions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxlite._src import dtypes, tree_util
from jaxlite._src.ad import vjp
from jaxlite._src.api import jvp, vmap

EPS = 1e-4

# Tolerances for comparisons with finite differences, by dtype (JAX's defaults).
default_gradient_tolerance = {
    np.dtype(np.float16): 1e-2,
    np.dtype(dtypes.bfloat16): 1e-1,
    np.dtype(np.float32): 2e-3,
    np.dtype(np.float64): 1e-5,
    np.dtype(np.complex64): 1e-3,
    np.dtype(np.complex128): 1e-5,
}

# Tolerances for comparing two computations of the same value, by dtype.
default_tolerance = {
    np.dtype(np.bool_): 0,
    np.dtype(np.int8): 0,
    np.dtype(np.int16): 0,
    np.dtype(np.int32): 0,
    np.dtype(np.int64): 0,
    np.dtype(np.uint8): 0,
    np.dtype(np.uint16): 0,
    np.dtype(np.uint32): 0,
    np.dtype(np.uint64): 0,
    np.dtype(np.float16): 1e-3,
    np.dtype(dtypes.bfloat16): 1e-2,
    np.dtype(np.float32): 1e-6,
    np.dtype(np.float64): 1e-15,
    np.dtype(np.complex64): 1e-6,
    np.dtype(np.complex128): 1e-15,
}


def _tol(dtype, given, table) -> float:
    if given is not None:
        return given
    return table.get(np.dtype(dtype), 1e-6)


def assert_close(actual: Any, expected: Any, *, atol=None, rtol=None, err_msg: str = "") -> None:
    """Assert two pytrees of arrays are equal in structure, shape and (within tolerance)
    value. Default tolerances depend on the dtype (``default_tolerance``).

    Raises:
        AssertionError: on a structure, shape or value mismatch.
    """
    a_leaves, a_tree = tree_util.tree_flatten(actual)
    e_leaves, e_tree = tree_util.tree_flatten(expected)
    if a_tree != e_tree:
        raise AssertionError(f"{err_msg} tree structures differ: {a_tree} vs {e_tree}")
    for a, e in zip(a_leaves, e_leaves):
        a, e = np.asarray(a), np.asarray(e)
        if a.shape != e.shape:
            raise AssertionError(f"{err_msg} shapes differ: {a.shape} vs {e.shape}")
        dt = np.result_type(a.dtype, e.dtype)
        np.testing.assert_allclose(
            a.astype(np.promote_types(dt, np.float64)) if a.dtype == np.bool_ else a,
            e.astype(np.promote_types(dt, np.float64)) if e.dtype == np.bool_ else e,
            atol=_tol(dt, atol, default_tolerance),
            rtol=_tol(dt, rtol, default_tolerance),
            err_msg=err_msg,
        )


def _rand_like(rng, x):
    x = np.asarray(x)
    if np.issubdtype(x.dtype, np.complexfloating):
        v = rng.standard_normal(x.shape) + 1j * rng.standard_normal(x.shape)
    else:
        v = rng.standard_normal(x.shape)
    return np.asarray(v, dtype=x.dtype)


def _add(xs, ys, scale):
    return tree_util.tree_map(lambda x, y: np.asarray(x) + scale * np.asarray(y), xs, ys)


def _sub(xs, ys):
    return tree_util.tree_map(lambda x, y: np.asarray(x) - np.asarray(y), xs, ys)


def _scale(xs, c):
    return tree_util.tree_map(lambda x: np.asarray(x) * c, xs)


def _inner(xs, ys) -> complex:
    parts = [
        np.sum(np.asarray(x, np.complex128) * np.conj(np.asarray(y, np.complex128)))
        for x, y in zip(tree_util.tree_leaves(xs), tree_util.tree_leaves(ys))
    ]
    return complex(sum(parts))


def numerical_jvp(f: Callable, primals: Sequence[Any], tangents: Sequence[Any], eps=EPS):
    """Central finite difference ``(f(x + eps t) - f(x - eps t)) / (2 eps)``."""
    f_pos = f(*_add(primals, tangents, eps))
    f_neg = f(*_add(primals, tangents, -eps))
    return _scale(_sub(f_pos, f_neg), 0.5 / eps)


def _grad_tol(args, given, table):
    dts = [np.asarray(x).dtype for x in tree_util.tree_leaves(args)]
    return max((_tol(d, given, table) for d in dts), default=_tol(np.float32, given, table))


def check_jvp(f: Callable, f_jvp: Callable, args, atol=None, rtol=None, eps=None) -> None:
    """Check ``f_jvp(primals, tangents)`` against ``f`` and finite differences."""
    atol = _grad_tol(args, atol, default_gradient_tolerance)
    rtol = _grad_tol(args, rtol, default_gradient_tolerance)
    eps = EPS if eps is None else eps
    rng = np.random.RandomState(0)
    tangent = tree_util.tree_map(lambda x: _rand_like(rng, x), args)
    v_out, t_out = f_jvp(args, tangent)
    assert_close(v_out, f(*args), atol=atol, rtol=rtol, err_msg="jvp primal output:")
    t_expected = numerical_jvp(f, args, tangent, eps)
    assert_close(t_out, t_expected, atol=atol, rtol=rtol, err_msg="jvp tangent output:")


def check_vjp(f: Callable, f_vjp: Callable, args, atol=None, rtol=None, eps=None) -> None:
    """Check ``f_vjp(*primals) -> (out, vjp_fn)`` against finite differences of ``f``."""
    atol = _grad_tol(args, atol, default_gradient_tolerance)
    rtol = _grad_tol(args, rtol, default_gradient_tolerance)
    eps = EPS if eps is None else eps
    rng = np.random.RandomState(1)
    args_tangent = tree_util.tree_map(lambda x: _rand_like(rng, x), args)
    v_out, vjp_fn = f_vjp(*args)
    assert_close(v_out, f(*args), atol=atol, rtol=rtol, err_msg="vjp primal output:")
    ct_out = tree_util.tree_map(lambda x: _rand_like(rng, x), v_out)
    ct_in = vjp_fn(ct_out)
    t_out = numerical_jvp(f, args, args_tangent, eps)
    ip = _inner(args_tangent, ct_in)
    ip_expected = _inner(t_out, ct_out)
    np.testing.assert_allclose(
        ip, ip_expected, atol=atol, rtol=rtol, err_msg="vjp: <t_in, vjp(ct)> != <jvp(t_in), ct>"
    )


def check_grads(
    f: Callable,
    args: Sequence[Any],
    order: int,
    modes: Sequence[str] = ("fwd", "rev"),
    atol=None,
    rtol=None,
    eps=None,
) -> None:
    """Check the derivatives of ``f`` up to ``order`` numerically (``jax.test_util.check_grads``).

    Args:
        f: function of ``len(args)`` array arguments (pytrees allowed) with an array (or
            pytree) output.
        args: the point at which to check, a tuple of arguments.
        order: highest derivative order to check (1 = first derivatives).
        modes: ``"fwd"`` (jvp against finite differences) and/or ``"rev"`` (vjp against
            forward differences through inner products).
        atol, rtol: tolerances (default: by dtype, ``default_gradient_tolerance``).
        eps: finite-difference step (default ``1e-4``).

    Raises:
        AssertionError: if a derivative does not match.
        ValueError: for an unknown mode.
    """
    args = tuple(args)
    for m in modes:
        if m not in ("fwd", "rev"):
            raise ValueError(f"Unrecognized mode: {m}")

    def _check(f, args, order):
        if "fwd" in modes:
            check_jvp(f, lambda p, t: jvp(f, p, t), args, atol, rtol, eps)
            if order > 1:
                rng = np.random.RandomState(2)
                tangent = tree_util.tree_map(lambda x: _rand_like(rng, x), args)
                _check(lambda *a: jvp(f, a, tangent)[1], args, order - 1)
        if "rev" in modes:
            check_vjp(f, lambda *a: vjp(f, *a), args, atol, rtol, eps)
            if order > 1:
                rng = np.random.RandomState(3)
                ct = tree_util.tree_map(lambda x: _rand_like(rng, x), f(*args))

                def f_vjp(*a):
                    _, vjp_fn = vjp(f, *a)
                    return vjp_fn(ct)

                _check(f_vjp, args, order - 1)

    _check(f, args, order)


def check_vmap(f: Callable, args: Sequence[Any], in_axes=0, *, atol=None, rtol=None) -> None:
    """Check ``vmap(f, in_axes)(*args)`` against ``f`` applied to each slice (stacked).

    Only leaf ``in_axes`` (an int or None per argument) are supported here.
    """
    args = tuple(args)
    axes = in_axes if isinstance(in_axes, (tuple, list)) else (in_axes,) * len(args)
    sizes = {np.shape(a)[d] for a, d in zip(args, axes) if d is not None}
    if len(sizes) != 1:
        raise ValueError(f"check_vmap: mapped sizes differ or none is mapped: {sizes}")
    (n,) = sizes
    got = vmap(f, in_axes=tuple(axes))(*args)
    slices = [
        f(*[a if d is None else np.take(np.asarray(a), i, axis=d) for a, d in zip(args, axes)])
        for i in range(n)
    ]
    expected = tree_util.tree_map(lambda *xs: np.stack([np.asarray(x) for x in xs]), *slices)
    assert_close(got, expected, atol=atol, rtol=rtol, err_msg="vmap vs a loop:")
