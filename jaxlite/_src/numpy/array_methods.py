"""Operators and methods of ``Array`` (concrete arrays and tracers alike).

Installed on the shared base class at import, so ``x + y`` on a tracer binds primitives
exactly as ``jnp.add(x, y)`` does.
"""

from __future__ import annotations

import numpy as np
from jaxlite._src.core.array import Array
from jaxlite._src.numpy import indexing, lax_numpy as jnp


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
    "add": jnp.add,
    "sub": jnp.subtract,
    "mul": jnp.multiply,
    "truediv": jnp.true_divide,
    "floordiv": jnp.floor_divide,
    "mod": jnp.remainder,
    "pow": jnp.power,
    "matmul": jnp.matmul,
    "and": jnp.bitwise_and,
    "or": jnp.bitwise_or,
    "xor": jnp.bitwise_xor,
    "lshift": jnp.left_shift,
    "rshift": jnp.right_shift,
}


def _divmod(a, b):
    return jnp.floor_divide(a, b), jnp.remainder(a, b)


def install() -> None:
    for name, f in _binops.items():
        setattr(Array, f"__{name}__", _defer(f))
        setattr(Array, f"__r{name}__", _defer(f, swap=True))
    Array.__divmod__ = _defer(_divmod)
    Array.__rdivmod__ = _defer(_divmod, swap=True)
    Array.__eq__ = _defer(jnp.equal)
    Array.__ne__ = _defer(jnp.not_equal)
    Array.__lt__ = _defer(jnp.less)
    Array.__le__ = _defer(jnp.less_equal)
    Array.__gt__ = _defer(jnp.greater)
    Array.__ge__ = _defer(jnp.greater_equal)
    Array.__neg__ = lambda self: jnp.negative(self)
    Array.__pos__ = lambda self: self
    Array.__abs__ = lambda self: jnp.abs(self)
    Array.__invert__ = lambda self: jnp.bitwise_not(self)
    Array.__getitem__ = lambda self, idx: indexing.getitem(self, idx)
    Array.__round__ = lambda self, ndigits=None: jnp.round(self, ndigits or 0)
    Array.at = property(lambda self: indexing._IndexUpdateHelper(self))
    Array.T = property(lambda self: jnp.transpose(self))
    Array.mT = property(lambda self: jnp.matrix_transpose(self))
    Array.real = property(lambda self: _real(self))
    Array.imag = property(lambda self: _imag(self))
    for name in [
        "sum",
        "prod",
        "max",
        "min",
        "mean",
        "var",
        "std",
        "all",
        "any",
        "argmax",
        "argmin",
        "cumsum",
        "cumprod",
        "ravel",
        "squeeze",
        "swapaxes",
        "dot",
        "clip",
        "round",
        "conj",
        "conjugate",
    ]:
        setattr(Array, name, getattr(jnp, name))
    Array.astype = lambda self, dtype, copy=False: jnp.astype(self, dtype)
    Array.reshape = _reshape_method
    Array.transpose = lambda self, *axes: jnp.transpose(
        self, axes[0] if len(axes) == 1 and not isinstance(axes[0], int) else (axes or None)
    )
    Array.flatten = lambda self, order="C": jnp.ravel(self, order)
    Array.__array_namespace__ = lambda self, api_version=None: __import__(
        "jaxlite.numpy", fromlist=["numpy"]
    )


def _reshape_method(self, *shape, order="C"):
    if len(shape) == 1 and not isinstance(shape[0], int):
        shape = shape[0]
    return jnp.reshape(self, shape, order)


def _real(x):
    from jaxlite._src import dtypes
    from jaxlite._src.ops import elementwise as ew

    return ew.real(x) if dtypes.is_complex(x.dtype) else x


def _imag(x):
    from jaxlite._src import dtypes
    from jaxlite._src.ops import elementwise as ew

    return ew.imag(x) if dtypes.is_complex(x.dtype) else jnp.zeros_like(x)


install()
