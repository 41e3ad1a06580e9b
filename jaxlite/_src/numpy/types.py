"""``jax.numpy`` scalar types, dtype queries and constants.

JAX-style scalar type objects: ``jnp.float32(3)`` builds a 0-d ``Array`` (not a NumPy
scalar) while ``jnp.float32`` still works wherever a dtype is expected
(``np.dtype(jnp.float32)``, ``x.astype(jnp.float32)``, ``x.dtype == jnp.float32``); the
abstract type classes (``jnp.floating``, ...), ``finfo``/``iinfo``, ``promote_types``,
``result_type``, ``can_cast``, ``isscalar``, ``iscomplexobj``; ``pi``, ``e``, ``inf``, ``nan``.
"""

from __future__ import annotations

import ml_dtypes

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.core.array import Array
from jaxlite._src.numpy import creation
from jaxlite._src.numpy.util import asarray_any

ndarray = Array


pi = np.pi


e = np.e


inf = np.inf


nan = np.nan


euler_gamma = np.euler_gamma


newaxis = None


dtype = np.dtype


generic, number, inexact, floating = np.generic, np.number, np.inexact, np.floating


integer, signedinteger, unsignedinteger = np.integer, np.signedinteger, np.unsignedinteger


complexfloating = np.complexfloating


iinfo = dtypes.iinfo


finfo = dtypes.finfo


promote_types = dtypes.promote_types


result_type = dtypes.public_result_type


issubdtype = dtypes.issubdtype


def _dtype_of(x):
    # Anything with a dtype (arrays, ShapeDtypeStruct) answers without being converted.
    dt = getattr(x, "dtype", None)
    return np.dtype(dt) if dt is not None else asarray_any(x).dtype


def isrealobj(x):
    """``jnp.isrealobj``: ``not iscomplexobj(x)``."""
    return not iscomplexobj(x)


def iscomplexobj(x):
    """``jnp.iscomplexobj``: whether ``x``'s dtype is complex. As JAX's shortcut, ``None``
    and Python / NumPy scalars (a string included) answer from their type alone."""
    if isinstance(x, (complex, np.complexfloating)):
        return True
    if x is None or isinstance(x, (bool, int, float, str, np.generic)):
        return False
    return dtypes.is_complex(_dtype_of(x))


def isscalar(element):
    """``jnp.isscalar``: Python/NumPy scalars and 0-d arrays."""
    if np.isscalar(element):  # Python and NumPy scalars, strings, bytes, Fractions... as JAX
        return True
    return hasattr(element, "shape") and element.shape == () and hasattr(element, "dtype")


def can_cast(from_, to, casting: str = "safe"):
    """``jnp.can_cast`` (NumPy's rules on dtypes)."""
    f = from_.dtype if hasattr(from_, "dtype") else from_
    return bool(np.can_cast(np.dtype(f), np.dtype(to), casting))


def iterable(y):
    """``jnp.iterable``."""
    try:
        iter(y)
    except TypeError:
        return False
    return True


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
        # ``cls.__eq__`` would find the scalar type's own (instance) ``__eq__``.
        return not _ScalarMeta.__eq__(cls, other)

    def __call__(cls, x=0):
        return creation.asarray(x, dtype=cls.dtype)

    def __instancecheck__(cls, instance):
        return isinstance(instance, cls.dtype.type)

    def __repr__(cls):
        return f"<class 'jaxlite.numpy.{cls.__name__}'>"


def _make(name, dt):
    return _ScalarMeta(name, (object,), {"dtype": np.dtype(dt)})


bool_ = _make("bool", np.bool_)  # JAX names it bool (jnp.bool is jnp.bool_)


int8, int16, int32, int64 = (_make(n, n) for n in ("int8", "int16", "int32", "int64"))


uint8, uint16, uint32, uint64 = (_make(n, n) for n in ("uint8", "uint16", "uint32", "uint64"))


float16, float32, float64 = (_make(n, n) for n in ("float16", "float32", "float64"))


bfloat16 = _make("bfloat16", dtypes.bfloat16)


complex64, complex128 = _make("complex64", np.complex64), _make("complex128", np.complex128)


# NumPy's C-style aliases, as in jax.numpy (jnp.double is jnp.float64).
single, double = float32, float64
csingle, cdouble = complex64, complex128
uint = uint64
# NumPy 1's default-type aliases: jax.numpy's 64-bit scalar types (so ``jnp.float_(x)`` is
# a float32 Array unless x64 is on, as in JAX; NumPy's np.float64 was here before).
float_, int_, complex_ = float64, int64, complex128

# Narrow floating-point and integer types from ml_dtypes (as in jax.numpy). jaxlite stores
# them but, like JAX, never promotes them implicitly.
float8_e4m3fn = _make("float8_e4m3fn", ml_dtypes.float8_e4m3fn)
float8_e5m2 = _make("float8_e5m2", ml_dtypes.float8_e5m2)
float8_e4m3b11fnuz = _make("float8_e4m3b11fnuz", ml_dtypes.float8_e4m3b11fnuz)
float8_e4m3fnuz = _make("float8_e4m3fnuz", ml_dtypes.float8_e4m3fnuz)
float8_e5m2fnuz = _make("float8_e5m2fnuz", ml_dtypes.float8_e5m2fnuz)
float8_e3m4 = _make("float8_e3m4", ml_dtypes.float8_e3m4)
float8_e4m3 = _make("float8_e4m3", ml_dtypes.float8_e4m3)
float8_e8m0fnu = _make("float8_e8m0fnu", ml_dtypes.float8_e8m0fnu)
float4_e2m1fn = _make("float4_e2m1fn", ml_dtypes.float4_e2m1fn)
int4, uint4 = _make("int4", ml_dtypes.int4), _make("uint4", ml_dtypes.uint4)
int2, uint2 = _make("int2", ml_dtypes.int2), _make("uint2", ml_dtypes.uint2)
