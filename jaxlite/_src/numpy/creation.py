"""``jax.numpy`` array creation: from data (``array``, ``asarray``, ``copy``), from a shape
or value (``zeros ones empty full *_like eye identity``), ranges (``arange``, ``linspace``),
``meshgrid`` and ``astype``.
"""

from __future__ import annotations

import builtins
import operator
from typing import Any

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.core.array import Array, ArrayImpl, owned
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.trace import (
    Tracer,
    concrete_index,
    concrete_or_error,
    new_array,
    staged_constant,
)
from jaxlite._src.numpy.shape import _canon_shape, _shape, broadcast_to, reshape
from jaxlite._src.numpy.util import (
    array,
    asarray_any,
    asarray_staged,
    check_order,
    promote_dtypes,
)
from jaxlite._src.ops import conversion, elementwise as _ew, shape as _sh
from jaxlite._src.ops.structural import with_vma
from jaxlite._src.ops.xla_fma import fma
from jaxlite._src.sharding import explicit as _explicit


# ----------------------------------------------------------------------------- creation
def asarray(a: Any, dtype=None, order=None, *, copy=None, device=None, out_sharding=None) -> Array:
    """``jnp.asarray``: like ``array`` without forcing a copy; ``device``/``out_sharding``
    place the result."""
    check_order(order)
    if device is not None or out_sharding is not None:
        return _explicit.created(asarray(a, dtype, order, copy=copy), out_sharding, device)
    if copy:  # a new array (a tracer while staging), as JAX's copy
        return array(a, dtype=dtype, copy=True)
    if dtype is None and isinstance(a, Array):
        return a
    return array(a, dtype=dtype, copy=False)


def _dtype_or_default(dtype, default=None):
    if dtype is None:
        return default if default is not None else dtypes.default_float_dtype()
    return dtypes.check_user_dtype_supported(dtype)


def zeros(shape, dtype=None, *, device=None, out_sharding=None) -> Array:
    """``jnp.zeros``; ``device``/``out_sharding`` place the result (S8.4, S8.5)."""
    out = _sh.full(_canon_shape(shape), 0, _dtype_or_default(dtype))
    return staged_constant(_explicit.created(out, out_sharding, device))


def ones(shape, dtype=None, *, device=None, out_sharding=None) -> Array:
    """``jnp.ones``; ``device``/``out_sharding`` place the result (S8.4, S8.5)."""
    out = _sh.full(_canon_shape(shape), 1, _dtype_or_default(dtype))
    return staged_constant(_explicit.created(out, out_sharding, device))


def empty(shape, dtype=None, *, device=None, out_sharding=None) -> Array:
    return zeros(shape, dtype, device=device, out_sharding=out_sharding)


def full(shape, fill_value, dtype=None, *, device=None, out_sharding=None) -> Array:
    """``jnp.full``; ``device``/``out_sharding`` place the result (S8.4, S8.5)."""
    return staged_constant(_explicit.created(_full(shape, fill_value, dtype), out_sharding, device))


def _full(shape, fill_value, dtype=None) -> Array:
    shape = _canon_shape(shape)
    if dtype is None:
        dt, weak = dtypes.result_type(fill_value, return_weak_type_flag=True)
        fv = asarray_any(fill_value)
        if _shape(fv) != () and _shape(fv) != shape:
            return broadcast_to(fv, shape)
        return (
            _sh.full(shape, fill_value, dt, weak)
            if not isinstance(fill_value, Tracer)
            else broadcast_to(fv, shape)
        )
    dt = dtypes.check_user_dtype_supported(dtype)
    if isinstance(fill_value, Tracer) or _shape(fill_value) != ():
        # As JAX: ``asarray(fill_value, dtype)``, so host data (NumPy arrays, lists) is cast
        # by NumPy and arrays by convert_element_type.
        return broadcast_to(asarray(fill_value, dt), shape)
    return _sh.full(shape, fill_value, dt)


def _like_aval(a):
    """``a``'s aval; as in JAX, the ``*_like`` functions also take any object with ``shape``
    and ``dtype`` (a ``jax.ShapeDtypeStruct``, a duck-typed array; optax's ``sm3``,
    ``MultiSteps`` and factored ``adafactor`` build their states this way)."""
    if not isinstance(a, (Array, Tracer)) and hasattr(a, "shape") and hasattr(a, "dtype"):
        if not isinstance(a, (np.ndarray, np.generic)):
            dt = dtypes.canonicalize_dtype(a.dtype)
            return ShapedArray(tuple(a.shape), dt)  # JAX ignores a struct's weak_type here
    return aval_of(a)


def _like(a, out, shape, device, out_sharding):
    # The result has ``a``'s sharding unless its shape differs or a placement is given.
    like = a if shape is None else None
    return staged_constant(_explicit.created(out, out_sharding, device, like=like))


def zeros_like(a, dtype=None, shape=None, *, device=None, out_sharding=None) -> Array:
    """``jnp.zeros_like``: with ``a``'s sharding unless ``out_sharding``/``device`` say."""
    av = _like_aval(a)
    out = _sh.full(
        av.shape if shape is None else _canon_shape(shape),
        0,
        av.dtype if dtype is None else _dtype_or_default(dtype),
        av.weak_type and dtype is None,
    )
    return with_vma(_like(a, out, shape, device, out_sharding), av.vma)


def ones_like(a, dtype=None, shape=None, *, device=None, out_sharding=None) -> Array:
    """``jnp.ones_like``: with ``a``'s sharding unless ``out_sharding``/``device`` say."""
    av = _like_aval(a)
    out = _sh.full(
        av.shape if shape is None else _canon_shape(shape),
        1,
        av.dtype if dtype is None else _dtype_or_default(dtype),
        av.weak_type and dtype is None,
    )
    return with_vma(_like(a, out, shape, device, out_sharding), av.vma)


def full_like(a, fill_value, dtype=None, shape=None, *, device=None, out_sharding=None) -> Array:
    """``jnp.full_like``: with ``a``'s sharding unless ``out_sharding``/``device`` say."""
    av = _like_aval(a)
    out = _full(
        av.shape if shape is None else shape, fill_value, av.dtype if dtype is None else dtype
    )
    if dtype is None and av.weak_type and np.ndim(fill_value) == 0:
        # As in JAX, the result takes ``a``'s weak type when no dtype is given and the fill
        # value is a scalar (an array fill value is converted to ``a``'s dtype: strong).
        out = conversion.convert_element_type(out, av.dtype, weak_type=True)
    return with_vma(_like(a, out, shape, device, out_sharding), av.vma)


def empty_like(prototype, dtype=None, shape=None, *, device=None) -> Array:
    return zeros_like(prototype, dtype, shape, device=device)


def arange(start, stop=None, step=None, dtype=None, *, device=None, out_sharding=None) -> Array:
    """``jnp.arange`` (arguments must be concrete); ``device``/``out_sharding`` place it."""
    return _explicit.created(_arange(start, stop, step, dtype), out_sharding, device)


def _arange(start, stop=None, step=None, dtype=None) -> Array:
    """``jnp.arange`` (arguments must be concrete scalars), with JAX's arithmetic: the
    dtype is ``result_type`` of the arguments (NumPy scalars strong, Python ones weak); the
    length is NumPy's ``ceil((stop - start) / step)`` of the raw values; the values are
    ``start + step * iota`` computed in the result dtype (float32 for half precision) after
    casting ``start`` and ``step`` to it, so ``arange(0, 5, 1.5, dtype=int32)`` is
    ``[0, 1, 2, 3]`` (the step truncates to 1), not the truncated ``[0, 1.5, 3, 4.5]``.

    Raises:
      ValueError: a non-scalar or complex argument.
      TypeError: a bool dtype (JAX's iota refuses it).
      OverflowError: a Python int outside the result dtype.
    """
    ctx = "It arose in jnp.arange: its arguments determine the output shape."
    vals = []
    for name, x in (
        ("stop" if stop is None and step is None else "start", start),
        ("stop", stop),
        ("step", step),
    ):
        if x is not None:
            if isinstance(x, Tracer):
                x = concrete_or_error(x, ctx)
            if np.ndim(x) != 0:
                raise ValueError(f"jax.numpy.arange: arguments must be scalars; got {name}={x}")
            if isinstance(x, Array):  # a weak one stays weak, as a Python scalar
                x = x.item() if aval_of(x).weak_type else np.asarray(x)[()]
        vals.append(x)
    start, stop, step = vals
    if dtype is None:
        dt = dtypes.result_type(*(x for x in vals if x is not None))
    else:
        dt = dtypes.check_user_dtype_supported(dtype, "arange")
    if builtins.any(np.iscomplexobj(x) for x in vals if x is not None):
        raise ValueError(
            "Passing complex start/stop/step to jnp.arange is no longer supported starting "
            "in JAX v0.10.0."
        )
    if dt == dtypes.bool_:
        raise TypeError(
            "iota does not accept dtype bool. Accepted dtypes are subtypes of integer, "
            "floating, complexfloating."
        )
    if stop is None:
        start, stop = 0, start
    if step is None:
        size = builtins.max(0, int(np.ceil(stop - start)))
        ramp = conversion.iota(dt, size)
        if not (type(start) in (int, float, bool) and start == 0):
            ramp = _ew.add(conversion.convert_element_type(start, dt), ramp)
        return ramp
    size = builtins.max(0, int(np.ceil((stop - start) / step)))
    half = dtypes.is_float(dt) and np.dtype(dt).itemsize < 4
    wdt = np.dtype(np.float32) if half else dt
    ramp = _ew.add(
        conversion.convert_element_type(start, wdt),
        _ew.mul(conversion.convert_element_type(step, wdt), conversion.iota(wdt, size)),
    )
    return conversion.convert_element_type(ramp, dt)


def linspace(
    start,
    stop,
    num: int = 50,
    endpoint: bool = True,
    retstep: bool = False,
    dtype=None,
    axis: int = 0,
    *,
    device=None,
):
    """``jnp.linspace``; ``device`` places the result."""
    out = _linspace(start, stop, num, endpoint, retstep, dtype, axis)
    if retstep:
        return _explicit.created(out[0], None, device), out[1]
    return _explicit.created(out, None, device)


def _linspace(start, stop, num, endpoint, retstep, dtype, axis):
    """JAX's arithmetic as XLA:CPU compiles it, eager and traced alike: ``start * (1 - t) +
    stop * t`` in the (inexact) result dtype with ``t = i * (1 / div)`` (XLA turns the
    division by a constant into a product), the stop appended when ``endpoint``. For
    float32/float64 the final add is XLA's fused multiply-add, on the product LLVM fuses:
    ``fma(i, stop / div, start * (1 - t))`` for scalar endpoints (XLA folds the constant
    into ``stop``), ``fma(stop, t, ...)`` for a scalar start, ``fma(start, 1 - t, stop * t)``
    otherwise (NumPy's float64 ``start + i * step`` differs from JAX's in the last bits)."""
    num = concrete_index(num, "It arose in jnp.linspace: num sets the output shape.")
    # a 0-d integer array axis is its integer (a 1-d one operator.index's TypeError)
    axis = concrete_index(axis, "The axis argument of jnp.linspace must be static.")
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    start, stop = asarray_any(start), asarray_any(stop)
    if dtype is None:
        dt = dtypes.to_inexact_dtype(dtypes.result_type(start, stop))
    else:
        dt = dtypes.check_user_dtype_supported(dtype)
    cdt = dtypes.to_inexact_dtype(dt)
    start = conversion.convert_element_type(start, cdt)
    stop = conversion.convert_element_type(stop, cdt)
    bshape = tuple(np.broadcast_shapes(_shape(start), _shape(stop)))
    start_shape, stop0 = _shape(start), stop  # the layout picks XLA's fused product
    start, stop = broadcast_to(start, bshape), broadcast_to(stop, bshape)
    ax = len(bshape) + axis + 1 if axis < 0 else axis
    keep = tuple(d for d in range(len(bshape) + 1) if d != ax)  # bshape's dims in the output
    div = num - 1 if endpoint else num
    nan = _sh.full((), np.nan, cdt)
    if num > 1:
        delta = _ew.div(_ew.sub(stop, start), _sh.full(bshape, div, cdt))
        out_shape = bshape[:ax] + (div,) + bshape[ax:]
        rdt = dtypes.finfo(cdt).dtype
        recip = np.asarray(1, rdt) / np.asarray(div, rdt)
        iota = conversion.iota(rdt, div)
        t = _ew.mul(iota, _sh.full((div,), recip, rdt))
        t = _sh.broadcast_in_dim(conversion.convert_element_type(t, cdt), out_shape, (ax,))
        one_minus_t = _ew.sub(_sh.full(out_shape, 1, cdt), t)
        a = _sh.broadcast_in_dim(start, out_shape, keep)
        b = _sh.broadcast_in_dim(stop, out_shape, keep)
        fused = np.dtype(cdt) in (np.float32, np.float64)
        a_t = _ew.mul(a, one_minus_t)
        if fused and _shape(stop0) == ():  # XLA folds 1/div into the scalar stop
            b_recip = _sh.broadcast_to_rank(_ew.mul(stop0, _sh.full((), recip, cdt)), out_shape)
            i = _sh.broadcast_in_dim(iota, out_shape, (ax,))
            if bshape == ():
                out = fma(i, b_recip, a_t)
            else:
                out = fma(a, one_minus_t, _ew.mul(i, b_recip))
        elif fused and start_shape == ():
            out = fma(b, t, a_t)
        elif fused and start_shape == bshape and ax == 0:
            out = fma(a, one_minus_t, _ew.mul(b, t))
        elif fused and start_shape == bshape and ax == len(bshape):
            out = fma(b, t, a_t)
        else:  # other layouts fuse differently in XLA; the unfused formula
            t = _ew.div(conversion.iota(rdt, div), _sh.full((div,), div, rdt))
            t = _sh.broadcast_in_dim(conversion.convert_element_type(t, cdt), out_shape, (ax,))
            one_minus_t = _ew.sub(_sh.full(out_shape, 1, cdt), t)
            out = _ew.add(_ew.mul(a, one_minus_t), _ew.mul(b, t))
        if endpoint:
            out = _sh.concatenate([out, _sh.expand_dims(stop, (ax,))], ax)
    elif num == 1:
        delta = nan if endpoint else _ew.sub(stop, start)
        out = _sh.expand_dims(start, (ax,))
    else:
        delta = nan
        out = _sh.full(bshape[:ax] + (0,) + bshape[ax:], 0, cdt)
    if dtypes.is_int(dt) and not dtypes.is_int(cdt):
        out = _ew.floor(out)
    out = conversion.convert_element_type(out, dt)
    return (out, delta) if retstep else out


def eye(N: int, M: int | None = None, k: int = 0, dtype=None, *, device=None) -> Array:
    # sizes as JAX's canonicalize_dim takes them: ints, bools, integer arrays; floats raise
    N = operator.index(N)
    M = N if M is None else operator.index(M)
    if isinstance(k, Tracer) and k.to_concrete_value() is None:
        return _eye_traced_offset(N, M, k, _dtype_or_default(dtype))
    k = operator.index(k)
    out = ArrayImpl(np.eye(N, M, k, dtype=_dtype_or_default(dtype)))
    return staged_constant(_explicit.created(out, None, device))


def _eye_traced_offset(N: int, M: int, k, dtype) -> Array:
    """``eye`` with a traced diagonal offset (JAX takes ``k`` as a value): ``i + k == j``."""
    if k.aval.ndim or not dtypes.is_int(k.aval.dtype):
        raise TypeError(f"eye: k must be an integer scalar, got {k.aval.str_short()}")
    rows = conversion.broadcasted_iota(dtypes.int32, (N, M), 0)
    cols = conversion.broadcasted_iota(dtypes.int32, (N, M), 1)
    k = _sh.broadcast_to_rank(conversion.convert_element_type(k, dtypes.int32), (N, M))
    return conversion.convert_element_type(_ew.eq(_ew.add(rows, k), cols), dtype)


def identity(n: int, dtype=None) -> Array:
    return eye(n, dtype=dtype)


def astype(x, dtype, /, *, copy: bool = False, device=None):
    """``jnp.astype``: ``x`` cast to ``dtype`` (None: the default float type), placed on
    ``device`` (a device or sharding) when given. Casting complex to a real or integer type
    keeps the real part, with JAX's DeprecationWarning. ``copy=True``: a new array even
    where the dtype is ``x``'s already (a tracer while staging, as JAX's copy)."""
    x = asarray_staged(x)
    if dtype is None:
        dtype = dtypes.default_float_dtype()
    else:
        dtype = dtypes.check_user_dtype_supported(dtype, "astype")
    if dtypes.is_complex(x.dtype) and (dtypes.is_int(dtype) or dtypes.is_float(dtype)):
        import warnings

        warnings.warn(
            "Casting from complex to real dtypes will soon raise a ValueError. Please first use "
            "jnp.real or jnp.imag to take the real/imaginary component of your input.",
            DeprecationWarning,
            stacklevel=2,
        )
    out = conversion.convert_element_type(x, dtype)
    if copy and out is x:
        out = new_array(out)  # a new array (a tracer while staging), as JAX's copy
    return out if device is None else _explicit.created(out, None, device)


def meshgrid(*xi, copy: bool = True, sparse: bool = False, indexing: str = "xy"):
    """``jnp.meshgrid``: coordinate matrices from coordinate vectors."""
    args = [asarray_any(x) for x in xi]
    if not copy:  # JAX's arrays are new ones: copy=False (or None) is refused
        raise ValueError("jax.numpy.meshgrid only supports copy=True")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Valid values for indexing are 'xy' and 'ij', got {indexing}")
    if any(a.ndim != 1 for a in args):
        raise ValueError("Arguments to jax.numpy.meshgrid must be 1D")
    shape = [a.shape[0] for a in args]
    if indexing == "xy" and len(args) >= 2:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    nd = len(args)
    for i, a in enumerate(args):
        d = i
        if indexing == "xy" and nd >= 2 and i < 2:
            d = 1 - i
        s = [1] * nd
        s[d] = a.shape[0]
        r = reshape(a, s)
        out.append(new_array(r if sparse else broadcast_to(r, shape)))  # new arrays, as JAX's
    return out


def copy(a, order=None):
    """``jnp.copy``: a new array (over the same immutable buffer); a tracer while staging,
    as JAX's copy."""
    check_order(order)
    return new_array(asarray_any(a))
