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
from jaxlite._src.ad import linearize, vjp
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
    """A standard-normal draw shaped like ``x`` (real and imaginary parts for complex);
    a Python scalar stays a Python scalar."""
    dt = _dtype_of(x)
    shape = np.shape(x)
    v = np.asarray(rng.randn(*shape), dtype=dt)
    if np.issubdtype(dt, np.complexfloating):
        v = v + dt.type(1j) * np.asarray(rng.randn(*shape), dtype=dt)
    return v.item() if _is_py_scalar(x) else v


def _is_py_scalar(x) -> bool:
    return isinstance(x, (bool, int, float, complex)) and not isinstance(x, np.generic)


def _dtype_of(x) -> np.dtype:
    if hasattr(x, "dtype"):
        return np.dtype(x.dtype)
    if _is_py_scalar(x):
        return np.dtype(dtypes.dtype_and_weak_type(x)[0])
    return np.asarray(x).dtype


def _in_dtype_of_first(op):
    # The result in the first operand's dtype; Python scalars give Python scalars.
    def f(x, y):
        out = np.array(op(x, y), dtype=_dtype_of(x))
        return out.item() if _is_py_scalar(x) and _is_py_scalar(y) else out

    return f


def _add(xs, ys):
    return tree_util.tree_map(_in_dtype_of_first(lambda a, b: a + b), xs, ys)


def _sub(xs, ys):
    return tree_util.tree_map(_in_dtype_of_first(lambda a, b: a - b), xs, ys)


def _scale(xs, c):
    def one(x):
        dt = _dtype_of(x)
        out = np.multiply(x, np.array(c, dtype=dt), dtype=dt)
        return out.item() if _is_py_scalar(x) else out

    return tree_util.tree_map(one, xs)


def _diff(xs, ys):
    # ``x - y`` with ``inf - inf`` (any equal pair) giving 0, in ``x``'s dtype.
    def one(x, y):
        dt = _dtype_of(x)
        with np.errstate(invalid="ignore"):
            return np.where(np.equal(x, y), np.array(0, dt), np.subtract(x, y, dtype=dt))

    return tree_util.tree_map(one, xs, ys)


def _conj(xs):
    return tree_util.tree_map(lambda x: np.array(np.conj(x), dtype=_dtype_of(x)), xs)


def _inner(xs, ys):
    """The real part of the sum over leaves of ``<conj(x), y>``, in the leaves' dtypes."""
    parts = [
        np.real(np.dot(np.conj(np.asarray(x)).reshape(-1), np.asarray(y).reshape(-1)))
        for x, y in zip(tree_util.tree_leaves(xs), tree_util.tree_leaves(ys))
    ]
    total = parts[0]
    for p in parts[1:]:
        total = np.add(total, p)
    return total


def numerical_jvp(f: Callable, primals: Sequence[Any], tangents: Sequence[Any], eps=EPS):
    """Central finite difference ``(f(x + eps t) - f(x - eps t)) / (2 eps)``, in the
    arguments' dtypes (as JAX's)."""
    delta = _scale(tangents, eps)
    f_pos = f(*_add(primals, delta))
    f_neg = f(*_sub(primals, delta))
    return _scale(_diff(f_pos, f_neg), 0.5 / eps)


def _tol_for(dtype, tol, default_table) -> float:
    if tol is None:
        tol = default_table
    if not isinstance(tol, dict):
        return tol
    table = {np.dtype(k): v for k, v in tol.items()}
    dtype = np.dtype(dtype)
    return table.get(dtype, default_table.get(dtype, default_tolerance.get(dtype, 1e-6)))


def _check_close(xs, ys, atol, rtol, err_msg):
    """Leaf by leaf, as JAX's ``check_close``: the tolerances are per dtype (the larger of
    the two leaves') and scale with the leaf's element count."""

    def one(a, b):
        a, b = np.asarray(a), np.asarray(b)
        assert a.shape == b.shape, (err_msg, a.shape, b.shape)
        at = max(
            _tol_for(a.dtype, atol, default_tolerance), _tol_for(b.dtype, atol, default_tolerance)
        )
        rt = max(
            _tol_for(a.dtype, rtol, default_tolerance), _tol_for(b.dtype, rtol, default_tolerance)
        )
        if a.dtype == b.dtype == dtypes.float0:
            np.testing.assert_array_equal(a, b, err_msg=err_msg)
            return

        def up(v):  # NumPy's allclose cannot take bfloat16
            return v.astype(np.float32) if v.dtype == dtypes.bfloat16 else v

        kw = {}
        if at:
            kw["atol"] = at * a.size
        if rt:
            kw["rtol"] = rt * b.size
        with np.errstate(invalid="ignore"):
            np.testing.assert_allclose(
                up(a),
                up(b),
                **kw,
                err_msg=err_msg,
            )

    tree_util.tree_map(one, xs, ys)


def _grad_tols(atol, rtol):
    if atol is None:
        atol = default_gradient_tolerance
    elif isinstance(atol, dict):
        atol = {**default_gradient_tolerance, **{np.dtype(k): v for k, v in atol.items()}}
    if rtol is None:
        rtol = default_gradient_tolerance
    elif isinstance(rtol, dict):
        rtol = {**default_gradient_tolerance, **{np.dtype(k): v for k, v in rtol.items()}}
    return atol, rtol


def check_jvp(
    f: Callable, f_jvp: Callable, args, atol=None, rtol=None, eps=EPS, err_msg=""
) -> None:
    """Check ``f_jvp(primals, tangents)`` against ``f`` and central finite differences
    along one random direction (``np.random.RandomState(0)``), as ``jax.test_util``."""
    atol, rtol = _grad_tols(atol, rtol)
    eps = EPS if eps is None else eps
    rng = np.random.RandomState(0)
    tangent = tree_util.tree_map(lambda x: _rand_like(rng, x), args)
    v_out, t_out = f_jvp(args, tangent)
    _check_close(v_out, f(*args), atol, rtol, f"{err_msg} primal" if err_msg else "primal")
    t_expected = numerical_jvp(f, args, tangent, eps)
    _check_close(t_out, t_expected, atol, rtol, f"{err_msg} tangent" if err_msg else "tangent")


def check_vjp(
    f: Callable, f_vjp: Callable, args, atol=None, rtol=None, eps=EPS, err_msg=""
) -> None:
    """Check ``f_vjp(*primals) -> (out, vjp_fn)``: ``<t, vjp(ct)>`` against
    ``<numerical jvp(t), ct>`` for random ``t`` and ``ct`` (one ``RandomState(0)``)."""
    atol, rtol = _grad_tols(atol, rtol)
    eps = EPS if eps is None else eps
    rng = np.random.RandomState(0)
    v_out, vjp_fn = f_vjp(*args)
    _check_close(v_out, f(*args), atol, rtol, f"{err_msg} primal" if err_msg else "primal")
    tangent = tree_util.tree_map(lambda x: _rand_like(rng, x), args)
    t_out = numerical_jvp(f, args, tangent, eps)
    cotangent = tree_util.tree_map(lambda x: _rand_like(rng, x), v_out)
    ct_in = _conj(vjp_fn(_conj(cotangent)))
    ip, ip_expected = _inner(tangent, ct_in), _inner(t_out, cotangent)
    msg = f"{err_msg} cotangent projection" if err_msg else "cotangent projection"
    _check_close(ip, ip_expected, atol, rtol, msg)


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
        modes: ``"fwd"`` (jvp against finite differences), ``"rev"`` (vjp against finite
            differences through inner products) and/or ``"lin"`` (``linearize``).
        atol, rtol: tolerances, a number or a dict by dtype (default: by dtype,
            ``default_gradient_tolerance``); they scale with each output's element count.
        eps: finite-difference step (default ``1e-4``).

    Raises:
        AssertionError: if a derivative does not match.
        ValueError: for an unknown mode.
    """
    args = tuple(args)
    eps = eps or EPS
    for m in modes:
        if m not in ("fwd", "rev", "lin"):
            raise ValueError(f"Unrecognized mode: {m}")

    def jvp_of(fun):
        return lambda primals, tangents: jvp(fun, primals, tangents)

    def jvp_from_lin(fun):
        def run(primals, tangents):
            out, f_lin = linearize(fun, *primals)
            return out, f_lin(*tangents)

        return run

    def _check(fun, args, order, err_msg=""):
        if "fwd" in modes:
            msg = f"JVP of {err_msg}" if err_msg else "JVP"
            check_jvp(fun, jvp_of(fun), args, atol, rtol, eps, msg)
            if order > 1:
                _check(jvp_of(fun), (args, args), order - 1, msg)
        if "rev" in modes:
            msg = f"VJP of {err_msg}" if err_msg else "VJP"
            check_vjp(fun, lambda *a: vjp(fun, *a), args, atol, rtol, eps, msg)
            if order > 1:

                def f_vjp(*a):
                    out, vjp_fn = vjp(fun, *a)
                    return vjp_fn(out)

                _check(f_vjp, args, order - 1, msg)
        if "lin" in modes:
            msg = f"LIN of {err_msg}" if err_msg else "LIN"
            check_jvp(fun, jvp_from_lin(fun), args, atol, rtol, eps, msg)
            if order > 1:
                _check(jvp_from_lin(fun), (args, args), order - 1, msg)

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
