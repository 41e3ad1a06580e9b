"""JAX-style scalar type objects: ``jnp.float32(3)`` builds a 0-d ``Array`` (not a NumPy
scalar) while ``jnp.float32`` still works wherever a dtype is expected
(``np.dtype(jnp.float32)``, ``x.astype(jnp.float32)``, ``x.dtype == jnp.float32``)."""

from __future__ import annotations

import numpy as np
from jaxlite._src import dtypes


class _ScalarMeta(type):
    dtype: np.dtype

    def __hash__(cls):
        return hash(cls.dtype.type)

    def __eq__(cls, other):
        return (
            cls is other
            or other is cls.dtype.type
            or (isinstance(other, np.dtype) and other == cls.dtype)
        )

    def __ne__(cls, other):
        return not cls.__eq__(other)

    def __call__(cls, x=0):
        from jaxlite._src.numpy import lax_numpy

        return lax_numpy.asarray(x, dtype=cls.dtype)

    def __instancecheck__(cls, instance):
        return isinstance(instance, cls.dtype.type)

    def __repr__(cls):
        return f"<class 'jaxlite.numpy.{cls.__name__}'>"


def _make(name, dt):
    return _ScalarMeta(name, (object,), {"dtype": np.dtype(dt)})


bool_ = _make("bool_", np.bool_)
int8, int16, int32, int64 = (_make(n, n) for n in ("int8", "int16", "int32", "int64"))
uint8, uint16, uint32, uint64 = (_make(n, n) for n in ("uint8", "uint16", "uint32", "uint64"))
float16, float32, float64 = (_make(n, n) for n in ("float16", "float32", "float64"))
bfloat16 = _make("bfloat16", dtypes.bfloat16)
complex64, complex128 = _make("complex64", np.complex64), _make("complex128", np.complex128)
