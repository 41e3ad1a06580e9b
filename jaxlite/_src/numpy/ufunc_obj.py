"""``jnp.ufunc`` and ``jnp.frompyfunc``: functions with NumPy's ufunc methods
(``reduce``, ``accumulate``, ``outer``, ``at``, ``reduceat``).

As in JAX, fourteen ``jax.numpy`` functions are ufunc objects (``UFUNCS`` below): ``add``,
``multiply``, ``maximum``, ``minimum``, ``logical_and``/``or`` use the matching reductions,
cumulative sums and scatter updates; the others, and every ``frompyfunc`` ufunc, use the
generic methods here: folds with ``lax.scan`` (so they trace, batch and differentiate),
sequential ``at`` updates with ``lax.fori_loop``, ``outer`` by broadcasting.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np
from jaxlite._src.api import vmap
from jaxlite._src.control_flow.scan import scan
from jaxlite._src.control_flow.while_loop import fori_loop
from jaxlite._src.core.avals import aval_of
from jaxlite._src.interpreters.staging import trace_to_jaxpr
from jaxlite._src.numpy import reductions as _red, ufuncs as _uf, ufuncs_extra as _ufx
from jaxlite._src.numpy.creation import asarray
from jaxlite._src.numpy.shape import (
    broadcast_to,
    concatenate,
    expand_dims,
    moveaxis,
    ravel,
    reshape,
    stack,
)
from jaxlite._src.numpy.util import check_arraylike
from jaxlite._src.numpy.vectorize import vectorize
from jaxlite._src.ops import windowed as _windowed

_AT_INPLACE = (
    "Because JAX arrays are immutable, jnp.ufunc.at() cannot operate inplace like\n"
    "np.ufunc.at(). Instead, you can pass inplace=False and capture the result; e.g.\n"
    ">>> arr = jnp.add.at(arr, ind, val, inplace=False)"
)


class ufunc:
    """``jax.numpy.ufunc``: a function with NumPy's ufunc methods.

    Args:
        func: the elementwise function (``nin`` arrays in, ``nout`` out).
        nin: number of inputs.
        nout: number of outputs.
        name: its name (default ``func.__name__``).
        nargs: reported number of arguments (default ``nin``).
        identity: the identity of the binary operation (``reduce`` starts from it), or None.
        call, reduce, accumulate, at, reduceat: optional specialised implementations of
            the methods (the generic ones otherwise).
    """

    def __init__(
        self,
        func: Callable[..., Any],
        /,
        nin: int,
        nout: int,
        *,
        name: str | None = None,
        nargs: int | None = None,
        identity: Any = None,
        call: Callable[..., Any] | None = None,
        reduce: Callable[..., Any] | None = None,
        accumulate: Callable[..., Any] | None = None,
        at: Callable[..., Any] | None = None,
        reduceat: Callable[..., Any] | None = None,
    ):
        if not callable(func):
            raise TypeError(f"jnp.ufunc: func must be callable, got {func!r}")
        self._func = func
        self.__doc__ = getattr(func, "__doc__", None) or type(self).__doc__
        self.__name__ = name or getattr(func, "__name__", type(func).__name__)
        self.nin = operator.index(nin)
        self.nout = operator.index(nout)
        self.nargs = self.nin if nargs is None else operator.index(nargs)
        self.identity = identity
        self._call, self._reduce, self._accumulate = call, reduce, accumulate
        self._at, self._reduceat = at, reduceat

    def __repr__(self):
        return f"<jnp.ufunc '{self.__name__}'>"

    def __call__(self, *args, out=None, where=None):
        if out is not None:
            raise NotImplementedError(f"out argument of {self}")
        if where is not None:
            raise NotImplementedError(f"where argument of {self}")
        if len(args) != self.nin:
            raise TypeError(
                f"{self.__name__}() takes {self.nin} positional arguments but {len(args)} "
                "were given"
            )
        return (self._call or self._func)(*args)

    # ---------------------------------------------------------------- checks
    def _binary(self, method: str):
        if self.nin != 2:
            raise ValueError(f"{method} only supported for binary ufuncs")
        if self.nout != 1:
            raise ValueError(f"{method} only supported for functions returning a single value")

    # ---------------------------------------------------------------- reduce
    def reduce(
        self, a, axis=0, dtype=None, out=None, keepdims: bool = False, initial=None, where=None
    ):
        """``jax.numpy.ufunc.reduce``: fold the ufunc along ``axis`` (None: all axes)."""
        self._binary("reduce")
        if out is not None:
            raise NotImplementedError(f"out argument of {self.__name__}.reduce()")
        if self._reduce is not None:
            return self._reduce(
                a, axis=axis, dtype=dtype, keepdims=keepdims, initial=initial, where=where
            )
        return self._reduce_generic(a, axis, dtype, keepdims, initial, where)

    def _reduce_generic(self, a, axis, dtype, keepdims, initial, where):
        a = asarray(a) if dtype is None else asarray(a, dtype=dtype)
        if isinstance(axis, tuple):
            if len(axis) != 1:
                raise NotImplementedError("tuple of axes")
            axis = axis[0]
        ndim = a.ndim
        if axis is None:
            flat = ravel(a)
            mask = None if where is None else ravel(_broadcast(where, a.shape))
            res = self._fold(flat, 0, initial, mask)
            return reshape(res, (1,) * ndim) if keepdims else res
        axis = _axis(axis, ndim)
        mask = None if where is None else _broadcast(where, a.shape)
        res = self._fold(a, axis, initial, mask)
        return expand_dims(res, axis) if keepdims else res

    def _fold(self, a, axis, initial, mask, use_identity=True):
        start = initial if initial is not None or not use_identity else self.identity
        if mask is not None and start is None:
            raise ValueError(
                f"reduction operation {self.__name__!r} does not have an identity, so to use "
                "a where mask one has to specify 'initial'."
            )
        xs = moveaxis(a, axis, 0)
        if xs.shape[0] == 0 and start is None:
            raise ValueError(
                f"zero-size array to reduction operation {self.__name__} which has no identity"
            )
        ms = None if mask is None else moveaxis(mask, axis, 0)
        out_dt = _out_dtype(self._func_call, xs[0] if xs.shape[0] else xs.sum(0), a.dtype)
        if start is None:
            carry, xs = xs[0].astype(out_dt), xs[1:]
            ms = None if ms is None else ms[1:]
        else:
            carry = broadcast_to(asarray(start).astype(out_dt), xs.shape[1:])
        f = self._func_call

        def body(c, x):
            if ms is None:
                return f(c, x).astype(out_dt), None
            v, m = x
            return _uf.where(m, f(c, v).astype(out_dt), c), None

        carry, _ = scan(body, carry, xs if ms is None else (xs, ms))
        return carry

    def _func_call(self, *args):
        return (self._call or self._func)(*args)

    # ------------------------------------------------------------ accumulate
    def accumulate(self, a, axis: int = 0, dtype=None, out=None):
        """``jax.numpy.ufunc.accumulate``: the running fold along ``axis``."""
        self._binary("accumulate")
        if out is not None:
            raise NotImplementedError(f"out argument of {self.__name__}.accumulate()")
        if self._accumulate is not None:
            return self._accumulate(a, axis=axis, dtype=dtype)
        a = asarray(a) if dtype is None else asarray(a, dtype=dtype)
        axis = _axis(axis, a.ndim)
        xs = moveaxis(a, axis, 0)
        if xs.shape[0] == 0:
            return a
        f = self._func_call
        out_dt = _out_dtype(f, xs[0], a.dtype)

        def body(c, x):
            c = f(c, x).astype(out_dt)
            return c, c

        first = xs[0].astype(out_dt)
        _, rest = scan(body, first, xs[1:])
        return moveaxis(concatenate([first[None], rest], 0), 0, axis)

    # ----------------------------------------------------------------- outer
    def outer(self, A, B, /):
        """``jax.numpy.ufunc.outer``: ``out[i..., j...] = f(A[i...], B[j...])``."""
        self._binary("outer")
        A, B = asarray(A), asarray(B)
        f = self._func_call
        flat = vmap(vmap(f, in_axes=(None, 0)), in_axes=(0, None))(ravel(A), ravel(B))
        return reshape(flat, A.shape + B.shape)

    # -------------------------------------------------------------------- at
    def at(self, a, indices, b=None, /, *, inplace: bool = True):
        """``jax.numpy.ufunc.at``: apply the ufunc at ``indices`` (repeated indices apply
        repeatedly). Only ``inplace=False`` is possible (JAX arrays are immutable)."""
        if inplace:
            raise NotImplementedError(_AT_INPLACE)
        if self._at is not None:
            return self._at(a, indices, b)
        a = asarray(a)
        f = self._func_call
        if b is None:
            if self.nin != 1:
                raise TypeError(f"{self.__name__}.at() of a binary ufunc needs b")
        elif self.nin == 1:
            raise TypeError(f"{self.__name__}() takes 1 positional argument but 2 were given")
        idx = indices if isinstance(indices, tuple) else (indices,)
        idx = [asarray(i) for i in idx]
        shape = np.broadcast_shapes(*[i.shape for i in idx])
        idx = [ravel(broadcast_to(i, shape)) for i in idx]
        count = int(np.prod(shape, dtype=np.int64))
        if count == 0:
            return a
        elem_shape = a[tuple(i[0] for i in idx)].shape
        if b is not None:
            bb = reshape(broadcast_to(asarray(b), shape + elem_shape), (count,) + elem_shape)

        def body(k, arr):
            where = tuple(i[k] for i in idx)
            cur = arr[where]
            new = f(cur) if b is None else f(cur, bb[k])
            return arr.at[where].set(new.astype(arr.dtype))

        return fori_loop(0, count, body, a)

    # -------------------------------------------------------------- reduceat
    def reduceat(self, a, indices, axis: int = 0, dtype=None, out=None):
        """``jax.numpy.ufunc.reduceat``: reductions over the slices
        ``a[indices[i]:indices[i + 1]]`` along ``axis`` (just ``a[indices[i]]`` where
        ``indices[i] >= indices[i + 1]``; the last runs to the end). ``indices`` must be
        concrete."""
        self._binary("reduceat")
        if out is not None:
            raise NotImplementedError(f"out argument of {self.__name__}.reduceat()")
        check_arraylike(f"{self.__name__}.reduceat", a, indices)
        if self._reduceat is not None:
            return self._reduceat(a, indices, axis=axis, dtype=dtype)
        a = asarray(a) if dtype is None else asarray(a, dtype=dtype)
        axis = _axis(axis, a.ndim)
        ind = np.asarray(indices)
        if ind.ndim != 1:
            raise ValueError("reduceat: indices must be one-dimensional")
        n = a.shape[axis]
        ind = [int(i) for i in ind]
        for i in ind:
            if not 0 <= i < n:
                raise IndexError(f"reduceat: index {i} out of bounds for axis of size {n}")
        xs = moveaxis(a, axis, 0)
        parts = []
        for k, start in enumerate(ind):
            stop = ind[k + 1] if k + 1 < len(ind) else n
            if stop <= start:
                parts.append(xs[start])
            else:
                parts.append(self._fold(xs[start:stop], 0, None, None, False).astype(xs.dtype))
        return moveaxis(stack(parts, 0), 0, axis)


def _axis(axis, ndim):
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim


def _broadcast(where, shape):
    return broadcast_to(asarray(where, dtype=bool), shape)


def _out_dtype(f, x, fallback):
    """The dtype of ``f(x, x)`` for one element slice ``x`` (traced abstractly)."""
    try:
        closed, _ = trace_to_jaxpr(lambda u, v: [asarray(f(u, v))], [aval_of(x)] * 2)
        return closed.out_avals[0].dtype
    except Exception:  # noqa: BLE001 (fall back to the input dtype; the fold reports errors)
        return fallback


def frompyfunc(func: Callable[..., Any], /, nin: int, nout: int, *, identity: Any = None) -> ufunc:
    """``jax.numpy.frompyfunc``: a ``jnp.ufunc`` from a scalar function.

    The function is vectorized over its inputs (``jnp.vectorize``), so it may use any
    traceable scalar code (``lax.cond`` included).

    Args:
        func: a function of ``nin`` scalars returning ``nout`` scalars.
        nin: number of inputs.
        nout: number of outputs.
        identity: the identity of the binary operation, or None.

    Returns:
        The ``jnp.ufunc``.
    """
    if not callable(func):
        raise TypeError(f"jnp.frompyfunc: func must be callable, got {func!r}")
    return ufunc(
        vectorize(func), nin, nout, name=getattr(func, "__name__", None), identity=identity
    )


# ----------------------------------------------------------------- the built-in ufuncs
def _sum(a, axis=0, dtype=None, keepdims=False, initial=None, where=None):
    return _red.sum(a, axis=axis, dtype=dtype, keepdims=keepdims, initial=initial, where=where)


def _prod(a, axis=0, dtype=None, keepdims=False, initial=None, where=None):
    return _red.prod(a, axis=axis, dtype=dtype, keepdims=keepdims, initial=initial, where=where)


def _minmax(fn, name):
    def reduce(a, axis=0, dtype=None, keepdims=False, initial=None, where=None):
        if where is not None and initial is None:
            raise ValueError(
                f"reduction operation {name!r} does not have an identity, so to use a where "
                "mask one has to specify 'initial'."
            )
        a = asarray(a) if dtype is None else asarray(a, dtype=dtype)
        return fn(a, axis=axis, keepdims=keepdims, initial=initial, where=where)

    return reduce


def _all_any(fn):
    def reduce(a, axis=0, dtype=None, keepdims=False, initial=None, where=None):
        a = asarray(a) if dtype is None else asarray(a, dtype=dtype)
        res = fn(a, axis=axis, keepdims=keepdims, where=where)
        if initial is not None:
            res = (_uf.logical_and if fn is _red.all else _uf.logical_or)(res, initial)
        return res

    return reduce


def _scatter(method):
    def at(a, indices, b):
        return getattr(asarray(a).at[indices], method)(b)

    return at


def _builtin(func, nin, identity=None, **methods):
    return ufunc(func, nin, 1, name=func.__name__, identity=identity, **methods)


UFUNCS = {
    "add": _builtin(_uf.add, 2, 0, reduce=_sum, accumulate=_red.cumsum, at=_scatter("add")),
    "multiply": _builtin(
        _uf.multiply, 2, 1, reduce=_prod, accumulate=_red.cumprod, at=_scatter("multiply")
    ),
    "maximum": _builtin(_uf.maximum, 2, reduce=_minmax(_red.max, "maximum"), at=_scatter("max")),
    "minimum": _builtin(_uf.minimum, 2, reduce=_minmax(_red.min, "minimum"), at=_scatter("min")),
    "subtract": _builtin(_uf.subtract, 2),
    "logaddexp": _builtin(_ufx.logaddexp, 2, -np.inf),
    "logaddexp2": _builtin(_ufx.logaddexp2, 2, -np.inf),
    "logical_and": _builtin(_uf.logical_and, 2, True, reduce=_all_any(_red.all)),
    "logical_or": _builtin(_uf.logical_or, 2, False, reduce=_all_any(_red.any)),
    "logical_xor": _builtin(_uf.logical_xor, 2, False),
    "bitwise_and": _builtin(_uf.bitwise_and, 2, -1),
    "bitwise_or": _builtin(_uf.bitwise_or, 2, 0),
    "bitwise_xor": _builtin(_uf.bitwise_xor, 2, 0),
    "negative": _builtin(_uf.negative, 1),
}

(
    add,
    bitwise_and,
    bitwise_or,
    bitwise_xor,
    logaddexp,
    logaddexp2,
    logical_and,
    logical_or,
    logical_xor,
    maximum,
    minimum,
    multiply,
    negative,
    subtract,
) = (
    UFUNCS[n]
    for n in (
        "add",
        "bitwise_and",
        "bitwise_or",
        "bitwise_xor",
        "logaddexp",
        "logaddexp2",
        "logical_and",
        "logical_or",
        "logical_xor",
        "maximum",
        "minimum",
        "multiply",
        "negative",
        "subtract",
    )
)

# reduce_window / lax.reduce recognise the ufunc objects as monoids, like the functions.
for _name, _kind in (("add", "add"), ("maximum", "max"), ("minimum", "min"), ("multiply", "mul")):
    _windowed.register_monoid(UFUNCS[_name], _kind)
del _name, _kind

__all__ = [
    "UFUNCS",
    "frompyfunc",
    "ufunc",
    "add",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "logaddexp",
    "logaddexp2",
    "logical_and",
    "logical_or",
    "logical_xor",
    "maximum",
    "minimum",
    "multiply",
    "negative",
    "subtract",
]
