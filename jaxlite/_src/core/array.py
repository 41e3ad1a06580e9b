"""``Array``: the public array type, and ``ArrayImpl``, its concrete NumPy-backed form.

``Array`` is the common base of concrete arrays and tracers, so ``isinstance(x, jax.Array)``
holds inside transformations too. Operators and methods (``+``, ``.sum()``, ``.at``...) are
installed on ``Array`` by ``jaxlite._src.numpy.array_methods`` (they are compositions of
``jax.numpy`` functions, a layer above this one).

``ArrayImpl`` wraps a read-only NumPy buffer. ``np.asarray(x)`` on one is zero-copy.

Buffer ownership (Arrays are immutable, as in JAX):

* Every ``ArrayImpl`` buffer belongs to jaxlite: nothing outside jaxlite holds a writeable
  handle to it, and every ndarray in its base chain is read-only (``ArrayImpl.__init__``
  freezes the chain, so ``setflags(write=True)`` on any view of it raises ``ValueError``).
* ``np.asarray(x)`` hands out a read-only *view* of a buffer that owns its memory, never the
  owner itself, so the user cannot re-enable writing on what they are given.
* Memory jaxlite does not own (the caller's NumPy arrays, read-only views of writeable
  memory, ``__array__`` results an object keeps, callback results the callback keeps) is
  copied on the way in; a fresh array nobody else can reach is taken over without a copy
  (``owned``: no base, no weak references, and a reference count showing that the caller's
  one local variable is its only holder).
"""

from __future__ import annotations

import sys
import weakref
from typing import Any

import numpy as np

from jaxlite._src import devices as _devices, dtypes
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.errors import JaxRuntimeError


class DeletedBuffer:
    """What a deleted ``ArrayImpl`` holds instead of its buffer (``Array.delete``, or a
    ``jit`` argument donated to an output): every use of it -- NumPy conversion, a ufunc, an
    attribute, indexing, arithmetic -- raises JAX's ``RuntimeError``, so a deleted array
    can only fail, never compute. Dunder lookups (introspection: ``copy``, ``pickle``,
    ``hasattr``) see a plain object."""

    __slots__ = ("message",)

    def __init__(self, aval: ShapedArray):
        self.message = f"Array has been deleted with shape={aval.str_short()}."

    def fail(self, *args, **kwargs):
        raise RuntimeError(self.message)

    def __getattr__(self, name: str):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        self.fail()


for _name in (
    "__array__ __array_ufunc__ __array_function__ __getitem__ __setitem__ __len__ __iter__ "
    "__bool__ __float__ __int__ __complex__ __index__ __neg__ __pos__ __abs__ __invert__ "
    "__add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ __truediv__ __rtruediv__ "
    "__floordiv__ __rfloordiv__ __mod__ __rmod__ __pow__ __rpow__ __matmul__ __rmatmul__ "
    "__and__ __rand__ __or__ __ror__ __xor__ __rxor__ __lshift__ __rlshift__ __rshift__ "
    "__rrshift__ __lt__ __le__ __gt__ __ge__ __reduce__ __reduce_ex__ __copy__ __deepcopy__ "
    "__str__ __format__"
).split():
    setattr(DeletedBuffer, _name, DeletedBuffer.fail)


class Array:
    """Base class of jaxlite arrays: concrete ``ArrayImpl`` values and tracers."""

    __slots__ = ()
    __array_priority__ = 100

    # Attributes every subclass provides through ``aval``.
    @property
    def shape(self) -> tuple:
        return self.aval.shape

    @property
    def dtype(self) -> np.dtype:
        return self.aval.dtype

    @property
    def ndim(self) -> int:
        return len(self.aval.shape)

    @property
    def size(self) -> int:
        return self.aval.size

    @property
    def itemsize(self) -> int:
        return self.aval.dtype.itemsize

    @property
    def weak_type(self) -> bool:
        return self.aval.weak_type

    def __len__(self) -> int:
        if not self.aval.shape:
            raise TypeError("len() of unsized object")
        return self.aval.shape[0]

    def __setitem__(self, idx, value):
        raise TypeError(
            "JAX arrays are immutable and do not support in-place item assignment. Instead "
            "of x[idx] = y, use x = x.at[idx].set(y) or another .at[] method: "
            "https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html"
        )


class ArrayImpl(Array):
    """A concrete array: an immutable view of a read-only NumPy buffer plus its aval."""

    __slots__ = ("_value", "aval", "__weakref__")
    # True for arrays placed by a sharding (``ShardedArray``, sharding/array.py): the
    # subclasses that dispatch and ``jit`` route through the sharding hooks.
    _placed = False

    def __init__(self, value: np.ndarray, aval: ShapedArray | None = None):
        if type(value) is not np.ndarray:
            value = np.asarray(value)
        value.setflags(False)
        if value.base is not None:
            freeze_chain(value.base)
        self._value = value
        self.aval = aval if aval is not None else ShapedArray(value.shape, value.dtype, False)

    # ------------------------------------------------------------------ conversion
    def __array__(self, dtype=None, copy=None):
        v = self._value
        if dtype is None and not copy and v.dtype.kind != "V":
            # The common case first (a callback's np.asarray(x) is on its hot path): a fresh
            # view, never ``_value`` itself, since the caller may reshape what it gets in
            # place (``a.shape = ...``); its base is read-only, so the caller cannot
            # re-enable writing on it. Extended dtypes are stored as records ("V").
            return v.view()
        if dtypes.is_extended(self.aval.dtype):
            raise TypeError(
                "JAX array with PRNGKey dtype cannot be converted to a NumPy array. Use "
                "jax.random.key_data(arr) if you wish to extract the underlying integer array."
            )
        if dtype is not None and np.dtype(dtype) != v.dtype:
            return v.astype(dtype)
        if copy:
            return v.copy()
        return v.view()

    def __bool__(self) -> bool:
        if dtypes.is_extended(self.aval.dtype):
            raise TypeError("key array cannot be converted to boolean.")
        return bool(self._value)

    def _scalar_value(self):
        v = self._value
        if v.ndim:
            raise TypeError(
                f"Only scalar arrays can be converted to Python scalars; got arr.ndim={v.ndim}"
            )
        return v

    def __int__(self) -> int:
        return int(self._scalar_value())

    def __float__(self) -> float:
        return float(self._scalar_value())

    def __complex__(self) -> complex:
        return complex(self._scalar_value())

    def __index__(self) -> int:
        # As JAX: bools and arrays of rank > 0 are not indices (NumPy's bool scalars are not
        # either), so ``[10, 20][jnp.array(True)]`` raises rather than picking element 1.
        if not dtypes.is_int(self.dtype) or self.ndim != 0:
            raise TypeError("Only integer scalar arrays can be converted to a scalar index.")
        return int(self._value)

    def item(self, *args):
        return np.asarray(self).item(*args)

    def tolist(self):
        return np.asarray(self).tolist()

    def block_until_ready(self) -> ArrayImpl:
        if type(self._value) is DeletedBuffer:
            raise JaxRuntimeError(
                "INVALID_ARGUMENT: BlockHostUntilReady() called on deleted or donated buffer"
            )
        return self

    def delete(self) -> None:
        """Free the buffer (``jax.Array.delete``); deleting twice is allowed.

        Afterwards ``is_deleted()`` is True, the shape and dtype can still be read, and any
        use of the values raises ``RuntimeError: Array has been deleted with
        shape=float32[3].``, as in JAX. ``jit`` deletes the arguments it donates
        (``donate_argnums``/``donate_argnames``) the same way."""
        if type(self._value) is not DeletedBuffer:
            self._value = DeletedBuffer(self.aval)

    def is_deleted(self) -> bool:
        """Whether ``delete()`` (or a donation to ``jit``) freed this array's buffer."""
        return type(self._value) is DeletedBuffer

    def copy(self) -> ArrayImpl:
        return ArrayImpl(self._value.copy(), self.aval)

    def __copy__(self):
        if type(self._value) is DeletedBuffer:
            self._value.fail()
        return self

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __reduce__(self):
        return (_reconstruct, (np.asarray(self._value), self.aval.weak_type))

    # ``sharding``, ``devices()``, ``addressable_shards``... are installed by
    # ``jaxlite._src.sharding.array`` (placement is metadata of the layer above).

    # --------------------------------------------------------------------- display
    def __repr__(self) -> str:
        v = self._value
        if dtypes.is_extended(self.aval.dtype):
            # As JAX: the logical shape and dtype, then the physical data it overlays.
            return (
                f"Array({self.shape}, dtype={self.dtype.name}) overlaying:\n"
                f"{self.dtype.physical_value(v)}"
            )
        prefix = "Array("
        if v.size == 0 and v.ndim > 0:
            body = f"[], shape={v.shape}"
        else:
            body = np.array2string(v, separator=", ", prefix=prefix)
        weak = ", weak_type=True" if self.aval.weak_type else ""
        return f"{prefix}{body}, dtype={self.dtype.name}{weak})"

    def __str__(self) -> str:
        if dtypes.is_extended(self.aval.dtype):
            return repr(self)
        return str(self._value)

    def __format__(self, spec: str) -> str:
        if dtypes.is_extended(self.aval.dtype):
            return format(str(self), spec)
        if self._value.ndim == 0:
            return format(self._value[()], spec)
        return format(self._value, spec)

    def __iter__(self):
        if self.ndim == 0:  # raised by iter() itself, as NumPy and JAX do
            key = " key" if dtypes.is_extended(self.aval.dtype) else ""
            raise TypeError(f"iteration over a 0-d{key} array")
        rest = ShapedArray(self.shape[1:], self.dtype, self.weak_type)
        return (ArrayImpl(self._value[i], rest) for i in range(self.shape[0]))

    def __hash__(self):
        raise TypeError(f"unhashable type: '{type(self).__name__}'")

    def __dlpack__(self, *args, **kwargs):
        return self._value.__dlpack__(*args, **kwargs)

    def __dlpack_device__(self):
        return self._value.__dlpack_device__()  # (kDLCPU, 0): host memory


class CallbackArray(ArrayImpl):
    """The ``Array`` a host callback receives (``callback_host``): an ``ArrayImpl`` whose
    buffer is a read-only *view* made for this call (its base chain frozen), never an
    owning array nor a buffer the engine goes on using.

    That invariant makes ``np.asarray(x)``, the hot path of a callback, one attribute read:
    the view itself is returned (the user cannot re-enable writing on a view of a
    read-only owner, and reshaping it in place reaches nothing else: a callback result
    that is this view, or another view of an operand, is adopted as a new view of it, so
    the engine never holds an object the user can reach), with no check of the buffer.
    Everything else is ``ArrayImpl``'s; ``_placed`` stays False (not sharded).
    """

    __slots__ = ()

    def __array__(self, dtype=None, copy=None):
        if dtype is None and copy is None:
            return self._value
        return np.asarray(self._value, dtype=dtype, copy=copy)


_new = ArrayImpl.__new__


def callback_array(v: np.ndarray, aval: ShapedArray) -> CallbackArray:
    """A ``CallbackArray`` over a fresh view of ``v``, a buffer whose base chain is already
    frozen; extended dtypes (PRNG keys) keep ``ArrayImpl``'s ``__array__``, which refuses
    them."""
    if dtypes.is_extended(aval.dtype):
        a = _new(ArrayImpl)
    else:
        a = _new(CallbackArray)
        v = v.view()
    a._value = v
    a.aval = aval
    return a


def fresh(x: Any) -> Any:
    """``x`` as a new ``ArrayImpl`` object over the same immutable buffer if it is a concrete
    array (tracers and other values pass through). JAX's ``jax.numpy`` functions are jitted,
    so one that changes nothing (``ravel`` of a 1-d array, ``real`` of a real one,
    ``jnp.copy``) still returns a new array, and deleting or donating its argument leaves
    the result alive; a function that would return its argument itself returns this.

    Raises:
        RuntimeError: if ``x`` was deleted (as JAX's functions do for a deleted argument).
    """
    t = type(x)
    if t is ArrayImpl or t is CallbackArray:
        v = x._value
        if type(v) is DeletedBuffer:
            v.fail()
        a = _new(ArrayImpl)
        a._value = v
        a.aval = x.aval
        return a
    return x


def _reconstruct(value, weak_type):
    return ArrayImpl(np.array(value), ShapedArray(value.shape, value.dtype, weak_type))


# ----------------------------------------------------------------------------- ownership
_getrefcount = sys.getrefcount
_getweakrefcount = weakref.getweakrefcount
_ndarray = np.ndarray


# Freezing is ``a.setflags(False)``: positional (``write``), unconditional. It costs about as
# much as reading ``a.flags.writeable`` and a tenth of ``a.flags.writeable = False``, which
# goes through a Python-level ``setflags`` call with keyword arguments.


def freeze_chain(b: Any) -> None:
    """Make every ndarray in a base chain read-only (the chain of a buffer jaxlite owns)."""
    while type(b) is _ndarray:
        b.setflags(False)
        b = b.base


def _param_refs(v: Any) -> int:
    return _getrefcount(v)


def _local_refs() -> int:
    v = np.empty(0)
    return _getrefcount(v)


# Reference counts of an array nobody else holds (calibrated, so they hold on every CPython
# version): ``SOLE_REFS`` as a function sees its parameter when the caller passed a
# temporary (``f(np.add(a, b))``, ``f(lst.pop())``); ``LOCAL_REFS`` as a function sees its
# own local variable. Any other holder (the caller's variable, a list, a view of the array,
# the object it came from) adds at least one.
SOLE_REFS = _param_refs(np.empty(0))
LOCAL_REFS = _local_refs()


def owned(v: np.ndarray, held: int = 0) -> np.ndarray:
    """``v`` as a read-only buffer jaxlite owns: ``v`` itself, frozen, when nobody else can
    reach its memory, otherwise a read-only copy.

    Pass ``v`` as a temporary (``owned(np.asarray(x))``), or say with ``held=1`` that the
    caller holds it in exactly one local variable. A caller holding more references than it
    declares only makes this copy (safe); declaring more than it holds would be unsound.
    """
    if (
        type(v) is _ndarray
        and v.base is None
        and _getrefcount(v) <= SOLE_REFS + held
        and not _getweakrefcount(v)
    ):
        v.setflags(False)
        return v
    c = np.array(v)
    c.setflags(False)
    return c


def foreign_to_numpy(x: Any, dtype: Any) -> np.ndarray:
    """A value from outside jaxlite (NumPy array or scalar, Python scalar, ``__array__``
    object) as a read-only NumPy buffer of ``dtype`` that jaxlite owns: converted without a
    copy only when the conversion made a fresh array; the caller's memory is copied
    (writeable or not: a read-only view of writeable memory changes when the memory does)."""
    return owned(np.asarray(x, dtype=dtype))


def make_array(value: Any, aval: ShapedArray) -> ArrayImpl:
    """Wrap a NumPy result as an Array with the given aval, fixing the dtype if needed."""
    if type(value) is not np.ndarray or value.dtype != aval.dtype:
        value = np.asarray(value, dtype=aval.dtype)
    if value.shape != aval.shape:
        # An impl whose NumPy kernel changed the rank (np.ascontiguousarray makes 0-d arrays
        # 1-d, for one) must not give a buffer that disagrees with ``.shape``.
        if value.size != aval.size:
            raise AssertionError(
                f"internal error: a kernel returned shape {value.shape} for "
                f"{aval.str_short(short_dtypes=True)}"
            )
        value = value.reshape(aval.shape)
    return ArrayImpl(value, aval)


def make_output(value: Any, aval: ShapedArray):
    """A jitted call's output: ``make_array``, except that a float0 output (the gradient of
    an integer input) is a NumPy array, as JAX returns it."""
    if aval.dtype == dtypes.float0:
        return np.zeros(aval.shape, dtypes.float0)
    return make_array(value, aval)


def to_array(x: Any) -> Array:
    """An array operand of a primitive: Arrays and tracers pass through; NumPy arrays and
    scalars and Python scalars (weakly typed) become ``ArrayImpl``s.

    A NumPy array is copied (``foreign_to_numpy``), so the caller's buffer is never frozen
    or aliased.

    Raises:
        TypeError: for values that are not arrays or scalars (lists included, as in JAX's
            ``lax`` functions; ``jax.numpy`` functions accept lists).
    """
    if isinstance(x, Array):
        return x
    if hasattr(x, "__jax_array__"):
        return to_array(x.__jax_array__())

    aval = aval_of(x)
    return ArrayImpl(foreign_to_numpy(x, aval.dtype), aval)
