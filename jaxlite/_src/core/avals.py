"""Abstract values: what a tracer knows about an array (shape, dtype, weak type)."""

from __future__ import annotations

import math
import operator
import os
from typing import Any

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import sharding_hooks
from jaxlite._src.core.errors import JaxRuntimeError


def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # not POSIX: assume a large machine
        return 1 << 40


# An array larger than the machine's physical memory cannot be allocated (NumPy may accept
# it lazily, e.g. a broadcast view, and then compute over it for hours).
MAX_ARRAY_BYTES = _physical_memory()


def canonicalize_shape(shape: Any) -> tuple[int, ...]:
    """A shape argument as a tuple of Python ints (``jax.core.canonicalize_shape``).

    Accepts an integer, a 0-d integer array, or a sequence of them. Anything else (floats,
    strings, traced values) is refused: ``int(1.5)`` would silently truncate a dimension.

    Raises:
        TypeError: "Shapes must be 1D sequences of concrete values of integer type".
    """
    try:
        # An integer or a 0-d array is one dimension; a 1-d array (NumPy's have an
        # ``__index__`` that refuses them) is a sequence, as in JAX.
        ndim = getattr(shape, "ndim", None)
        if ndim == 0 or (ndim is None and hasattr(shape, "__index__")):
            return (operator.index(shape),)
        if not isinstance(shape, (dict, set, frozenset)):  # unordered: never a shape
            return tuple(operator.index(d) for d in shape)
    except TypeError:
        pass
    # JAX reports a non-sequence (or a string) as the 1-tuple it would have been.
    seq = np.iterable(shape) and not isinstance(shape, (str, dict, set, frozenset))
    shown = shape if seq else (shape,)
    msg = f"Shapes must be 1D sequences of concrete values of integer type, got {shown}."
    if any(type(d).__name__.endswith("Tracer") for d in _as_tuple(shape)):
        msg += (
            "\nIf using `jit`, try using `static_argnums` or applying `jit` to smaller "
            "subfunctions."
        )
    raise TypeError(msg)


def _as_tuple(shape) -> tuple:
    try:
        return tuple(shape)
    except TypeError:
        return (shape,)


def check_nonnegative_shape(shape: tuple, name: str) -> None:
    """Raise JAX's ``TypeError`` for a negative dimension in ``name``'s shape."""
    if any(d < 0 for d in shape):
        raise TypeError(f"{name} shape must have every element be nonnegative, got {shape}.")


def fits_in_memory(aval: ShapedArray) -> bool:
    return math.prod(aval.shape) * aval.dtype.itemsize <= MAX_ARRAY_BYTES


def check_allocation(avals, where: str) -> None:
    """Refuse arrays that cannot fit in memory, as JAX's allocator does.

    Raises:
        JaxRuntimeError: ``RESOURCE_EXHAUSTED`` if an aval in ``avals`` needs more bytes
            than the machine has.
    """
    for a in avals:
        nbytes = math.prod(a.shape) * a.dtype.itemsize
        if nbytes > MAX_ARRAY_BYTES:
            raise JaxRuntimeError(
                f"RESOURCE_EXHAUSTED: Out of memory allocating {nbytes} bytes "
                f"(an array of shape {a.shape} and dtype {a.dtype.name}, produced by "
                f"{where}; this machine has {MAX_ARRAY_BYTES} bytes of memory)."
            )


class AbstractValue:
    """Base class of abstract values (``jax.core.AbstractValue``)."""

    __slots__ = ()


# Mesh-axis order for printing varying manual axes (``{V:x,y}``): names in the order the
# shard_map bodies that bind them list them (``note_axis_order``, called by ``ops/spmd``).
_AXIS_ORDER: dict = {}


def note_axis_order(names) -> None:
    for n in names:
        _AXIS_ORDER.setdefault(n, len(_AXIS_ORDER))


def ordered_axes(vma) -> tuple:
    """``vma``'s axis names in mesh order (as JAX prints and lists them)."""
    return tuple(sorted(vma, key=lambda n: (_AXIS_ORDER.get(n, len(_AXIS_ORDER)), str(n))))


_EMPTY = frozenset()


def _dtype_name(dtype) -> str:
    return str(getattr(dtype, "name", dtype))


class ManualAxisType:
    """``jax.typeof(x).mat`` inside ``shard_map``: the manual axes along which a value may
    differ between devices (``varying``); ``unreduced``/``reduced`` are always empty here."""

    __slots__ = ("varying", "unreduced", "reduced")

    def __init__(self, *, varying=_EMPTY, unreduced=_EMPTY, reduced=_EMPTY):
        self.varying = frozenset(varying)
        self.unreduced = frozenset(unreduced)
        self.reduced = frozenset(reduced)

    def __eq__(self, other):
        return isinstance(other, ManualAxisType) and (
            (self.varying, self.unreduced, self.reduced)
            == (other.varying, other.unreduced, other.reduced)
        )

    def __hash__(self):
        return hash((self.varying, self.unreduced, self.reduced))

    def __repr__(self):
        return (
            f"ManualAxisType(varying={self.varying}, unreduced={self.unreduced}, "
            f"reduced={self.reduced})"
        )


class ShapedArray(AbstractValue):
    """The abstract value of an array: its shape, dtype and whether it is weakly typed.

    ``vma`` (a frozenset of mesh axis names, empty outside ``shard_map`` bodies) is the set
    of manual axes along which the value may differ between devices; it is part of the
    type (equality, hashing, printing ``float32[2]{V:i}``), as in JAX.
    """

    __slots__ = ("shape", "dtype", "weak_type", "vma", "_hash")

    def __init__(
        self, shape: tuple, dtype: Any, weak_type: bool = False, vma=_EMPTY, *, sharding=None
    ):
        # ``sharding=`` is accepted as JAX's constructor does (flax's scan builds carries
        # with it) and not kept: avals carry no sharding (see ``sharding`` below).
        self.shape = tuple(shape)
        # Extended dtypes (typed PRNG keys) are kept as they are; everything else is NumPy's.
        self.dtype = dtype if isinstance(dtype, dtypes.ExtendedDType) else np.dtype(dtype)
        self.weak_type = bool(weak_type)
        self.vma = vma if type(vma) is frozenset else frozenset(vma)
        self._hash = hash((self.shape, self.dtype, self.weak_type, self.vma))

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def mat(self) -> ManualAxisType:
        """``jax.typeof(x).mat`` (``ManualAxisType``): ``.varying`` is the vma."""
        return ManualAxisType(varying=self.vma)

    manual_axis_type = mat

    @property
    def sharding(self):
        """``jax.typeof(x).sharding`` of an unplaced (or traced) value: replicated over the
        context's abstract mesh, ``NamedSharding(AbstractMesh(()), P(None, ...))`` outside
        any mesh, as in JAX (libraries pass it on as ``out_sharding=``)."""
        return sharding_hooks.aval_sharding(self)

    def __eq__(self, other):
        return (
            type(other) is ShapedArray
            and self.shape == other.shape
            and self.dtype == other.dtype
            and self.weak_type == other.weak_type
            and self.vma == other.vma
        )

    def __hash__(self):
        return self._hash

    def update(self, shape=None, dtype=None, weak_type=None, vma=None) -> ShapedArray:
        return ShapedArray(
            self.shape if shape is None else shape,
            self.dtype if dtype is None else dtype,
            self.weak_type if weak_type is None else weak_type,
            self.vma if vma is None else vma,
        )

    def strip_weak_type(self) -> ShapedArray:
        return self if not self.weak_type else ShapedArray(self.shape, self.dtype, False, self.vma)

    def vma_str(self) -> str:
        if not self.vma:
            return ""
        names = ordered_axes(self.vma)
        inner = ",".join(map(str, names))
        return f"{{V:{inner if len(names) == 1 else f'({inner})'}}}"

    def str_short(self, short_dtypes: bool = False) -> str:
        """``float32[2]{V:i}`` (JAX's ``str_short``; ``f32[2]`` with ``short_dtypes``, as
        jaxprs print)."""
        shape = ",".join(map(str, self.shape))
        dt = dtypes.short_name(self.dtype) if short_dtypes else _dtype_name(self.dtype)
        return f"{dt}[{shape}]{self.vma_str()}"

    def __repr__(self):
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapedArray({self.str_short()}{weak})"

    def to_tangent_aval(self) -> ShapedArray:
        """Tangent space: same for inexact types, float0 for integers and booleans."""
        if dtypes.is_inexact(self.dtype):
            return ShapedArray(self.shape, self.dtype, self.weak_type, self.vma)
        return ShapedArray(self.shape, dtypes.float0, False, self.vma)

    # JAX's other names for the tangent (and cotangent) space (distrax's custom JVP rules
    # call ``jax.typeof(x).at_least_vspace()``).
    at_least_vspace = to_tangent_aval
    to_ct_aval = to_tangent_aval


def aval_of(x: Any) -> ShapedArray:
    """The abstract value of a concrete value or tracer (Python scalars are weakly typed)."""
    aval = getattr(x, "aval", None)
    if aval is not None:
        return aval
    t = type(x)
    if t in (bool, int, float, complex):
        dtype, weak = dtypes.dtype_and_weak_type(x)
        return ShapedArray((), dtype, weak)
    if isinstance(x, (np.ndarray, np.generic)):
        if isinstance(x, np.ma.MaskedArray):
            raise ValueError(
                "numpy masked arrays are not supported as direct inputs to JAX functions. "
                "Use arr.filled() to convert the value to a standard numpy array."
            )
        if dtypes.is_invalid_dtype(x.dtype):
            raise TypeError(
                f"Dtype {x.dtype} is not a valid JAX array type. Only arrays of numeric "
                "types are supported by JAX."
            )
        return ShapedArray(x.shape, dtypes.canonicalize_dtype(x.dtype), False)
    if hasattr(x, "__jax_array__"):
        return aval_of(x.__jax_array__())
    for cls in t.__mro__:  # types registered by libraries (jax.core.pytype_aval_mappings)
        handler = pytype_aval_mappings.get(cls)
        if handler is not None:
            return handler(x)
    raise TypeError(f"Argument '{x}' of type {type(x)} is not a valid JAX type")


def _ndarray_aval(x) -> ShapedArray:
    return ShapedArray(np.shape(x), dtypes.canonicalize_dtype(x.dtype), False)


def _python_scalar_aval(x) -> ShapedArray:
    # Reached through the MRO walk for subclasses of int/float/complex (IntEnum members):
    # the weakly typed scalar of their built-in base, as JAX abstracts them.
    dtype, weak = dtypes.dtype_and_weak_type(x)
    return ShapedArray((), dtype, weak)


# type -> (value -> ShapedArray): how array-like types of libraries are abstracted
# (``jax.core.pytype_aval_mappings``; tensorflow_probability registers its variables).
pytype_aval_mappings: dict = {
    np.ndarray: _ndarray_aval,
    np.generic: _ndarray_aval,
    **{t: _python_scalar_aval for t in (bool, int, float, complex)},
}


def raise_to_shaped(aval: ShapedArray, weak_type: bool | None = None) -> ShapedArray:
    if weak_type is None:
        return aval
    return aval.update(weak_type=weak_type)
