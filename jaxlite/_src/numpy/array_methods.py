"""Operators and methods of ``Array`` (concrete arrays and tracers alike).

Installed on the shared base class at import, so ``x + y`` on a tracer binds primitives
exactly as ``jnp.add(x, y)`` does.
"""

from __future__ import annotations

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.core.array import Array, ArrayImpl
from jaxlite._src.core.trace import Tracer, new_array, staged_constant
from jaxlite._src.numpy import (
    indexing,
    indexing_routines,
    key_compare,
    products,
    reductions,
    sorting,
    ufuncs,
)
from jaxlite._src.numpy.creation import astype, copy as _jnp_copy, zeros_like
from jaxlite._src.numpy.products import dot, matmul
from jaxlite._src.numpy.reductions import argmax, argmin, cumprod, cumsum, mean, prod, std, var
from jaxlite._src.numpy.repeat import repeat
from jaxlite._src.numpy.shape import (
    matrix_transpose,
    ravel,
    reshape,
    squeeze,
    swapaxes,
    transpose,
)
from jaxlite._src.numpy.ufuncs import (
    add,
    bitwise_and,
    bitwise_not,
    bitwise_or,
    bitwise_xor,
    clip,
    conj,
    conjugate,
    equal,
    floor_divide,
    greater,
    greater_equal,
    left_shift,
    less,
    less_equal,
    multiply,
    negative,
    not_equal,
    power,
    remainder,
    right_shift,
    subtract,
    true_divide,
)
from jaxlite._src.ops import bitcast, elementwise as ew, shape as lax_shape


def _defer(f, swap=False):
    def op(self, other):
        if not _accepts(other):
            return NotImplemented
        return f(other, self) if swap else f(self, other)

    return op


def _accepts(x):
    return isinstance(
        x, (Array, np.ndarray, np.generic, bool, int, float, complex, list, tuple)
    ) or hasattr(x, "__jax_array__")


_binops = {
    "add": add,
    "sub": subtract,
    "mul": multiply,
    "truediv": true_divide,
    "floordiv": floor_divide,
    "mod": remainder,
    "pow": power,
    "matmul": matmul,
    "and": bitwise_and,
    "or": bitwise_or,
    "xor": bitwise_xor,
    "lshift": left_shift,
    "rshift": right_shift,
}


def _divmod(a, b):
    return floor_divide(a, b), remainder(a, b)


def install() -> None:
    for name, f in _binops.items():
        setattr(Array, f"__{name}__", _defer(f))
        setattr(Array, f"__r{name}__", _defer(f, swap=True))
    Array.__divmod__ = _defer(_divmod)
    Array.__rdivmod__ = _defer(_divmod, swap=True)
    Array.__eq__ = _defer(key_compare.equal)
    Array.__ne__ = _defer(key_compare.not_equal)
    Array.__lt__ = _defer(less)
    Array.__le__ = _defer(less_equal)
    Array.__gt__ = _defer(greater)
    Array.__ge__ = _defer(greater_equal)
    Array.__neg__ = lambda self: negative(self)
    Array.__pos__ = new_array  # +x is a new array, as JAX's
    Array.__abs__ = lambda self: ufuncs.abs(self)
    Array.__invert__ = lambda self: bitwise_not(self)
    Array.__getitem__ = lambda self, idx: indexing.getitem(self, idx)
    Array.__round__ = lambda self, ndigits=None: ufuncs.round(self, ndigits or 0)
    Array.at = property(lambda self: indexing._IndexUpdateHelper(self))
    Array.T = property(lambda self: transpose(self))
    Array.mT = property(lambda self: matrix_transpose(self))
    Array.real = property(lambda self: _real(self))
    Array.imag = property(lambda self: _imag(self))
    methods = {
        "sum": reductions.sum,
        "prod": prod,
        "max": reductions.max,
        "min": reductions.min,
        "mean": mean,
        "var": var,
        "std": std,
        "all": reductions.all,
        "any": reductions.any,
        "argmax": argmax,
        "argmin": argmin,
        "cumsum": cumsum,
        "cumprod": cumprod,
        "ravel": ravel,
        "squeeze": squeeze,
        "swapaxes": swapaxes,
        "dot": dot,
        "clip": clip,
        "round": ufuncs.round,
        "conj": conj,
        "conjugate": conjugate,
        "take": indexing_routines.take,
        "diagonal": indexing_routines.diagonal,
        "choose": indexing_routines.choose,
        "sort": sorting.sort,
        "argsort": sorting.argsort,
        "argpartition": sorting.argpartition,
        "searchsorted": sorting.searchsorted,
        "trace": products.trace,
        "repeat": repeat,
        "nonzero": indexing_routines.nonzero,
        "ptp": reductions.ptp,
    }
    for name, fn in methods.items():
        setattr(Array, name, fn)
    Array.compress = _compress
    Array.nbytes = property(lambda self: self.size * np.dtype(self.dtype).itemsize)
    Array.astype = _astype
    Array.copy = _copy
    ArrayImpl.copy = _concrete_copy
    Array.reshape = _reshape
    Array.transpose = _transpose
    Array.flatten = _flatten
    Array.view = _view
    Array.__array_namespace__ = lambda self, api_version=None: __import__(
        "jaxlite.numpy", fromlist=["numpy"]
    )


def _copy(self):
    # Tracers' ``x.copy()`` (concrete arrays have their own, over a copied buffer).
    return _jnp_copy(self)


_buffer_copy = ArrayImpl.copy


def _concrete_copy(self):
    # A concrete array's ``x.copy()``: over a copied buffer, and while a jaxpr is staged a
    # tracer (JAX's copy binds a primitive there).
    return staged_constant(_buffer_copy(self))


def _astype(self, dtype, copy=False, device=None):
    if dtypes.is_extended(self.dtype) and not isinstance(self, Tracer):
        # a concrete key array's method is abstract in JAX; a traced one converts (and
        # raises convert_element_type's ValueError for another dtype)
        raise NotImplementedError("Cannot call abstract method astype")
    return astype(self, dtype, copy=copy, device=device)


# The methods below are named as JAX's: a TypeError for an unknown keyword (NumPy's
# ``reshape(newshape=...)``) names the function, ``_reshape() got an unexpected keyword``.
def _compress(self, condition, axis=None):
    return indexing_routines.compress(condition, self, axis)


def _transpose(self, *axes):
    return transpose(
        self, axes[0] if len(axes) == 1 and not isinstance(axes[0], int) else (axes or None)
    )


def _flatten(self, order="C"):
    return ravel(self, order)


def _reshape(self, *shape, order="C"):
    if len(shape) == 1 and not isinstance(shape[0], int):
        shape = shape[0]
    return reshape(self, shape, order)


def _view(self, dtype=None, type=None):
    """``x.view(dtype)`` (JAX's ``Array.view``): the bits of ``x`` read as ``dtype``, the last
    axis scaled by the ratio of the item sizes (a new array: JAX arrays share no memory).

    Raises:
        NotImplementedError: for ``type``.
        ValueError: for a 0-d array and a dtype of another item size, or a wider dtype whose
            size does not divide the bytes of the last axis.
    """
    if type is not None:
        raise NotImplementedError("`type` argument of array.view() is not supported.")
    if dtype is None:
        return self
    dtype = dtypes.check_user_dtype_supported(dtype, "view")
    src = np.dtype(self.dtype)
    if self.ndim == 0:
        if src.itemsize != dtype.itemsize:
            raise ValueError("view() of a 0d array is only supported if the itemsize is unchanged.")
        return _view(lax_shape.expand_dims(self, (0,)), dtype)[0]
    if src == dtype:
        return self
    if dtype.itemsize > src.itemsize and (self.shape[-1] * src.itemsize) % dtype.itemsize:
        raise ValueError(
            "When changing to a larger dtype, its size must be a divisor of the total "
            "size in bytes of the last axis of the array."
        )
    x = self
    if src == np.bool_:
        x = astype(x, np.uint8)
    elif dtypes.is_complex(src):  # (re, im) pairs along the last axis
        n, *lead, last = x.ndim, *x.shape
        parts = [lax_shape.expand_dims(part, (n,)) for part in (ew.real(x), ew.imag(x))]
        x = lax_shape.reshape(lax_shape.concatenate(parts, n), (*lead, 2 * last))
    width = np.dtype(x.dtype).itemsize
    target = dtype
    if dtype == np.bool_:
        target = np.dtype(np.uint8)
    elif dtypes.is_complex(dtype):
        target = np.dtype(dtypes.finfo(dtype).dtype)
    new = target.itemsize
    *lead, last = x.shape
    if new < width:
        x = bitcast.bitcast_convert_type(x, target)
        x = lax_shape.reshape(x, (*lead, last * (width // new)))
    elif new > width:
        ratio = new // width
        x = lax_shape.reshape(x, (*lead, last // ratio, ratio))
        x = bitcast.bitcast_convert_type(x, target)
    else:
        x = bitcast.bitcast_convert_type(x, target)
    if dtype == np.bool_:
        return ufuncs.not_equal(x, 0)
    if dtypes.is_complex(dtype):
        return ew.complex_(x[..., ::2], x[..., 1::2])
    return x


def _real(x):
    return ew.real(x) if dtypes.is_complex(x.dtype) else new_array(x)  # jnp.real's new array


def _imag(x):
    return ew.imag(x) if dtypes.is_complex(x.dtype) else zeros_like(x)


install()
