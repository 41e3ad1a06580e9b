"""JAX's dtype rules: canonical dtypes (x64 on/off), weak types and the promotion lattice.

JAX does not use NumPy's promotion. It promotes along a lattice in which Python scalars are
*weakly typed* (categories ``i*``, ``f*``, ``c*``) and defer to the other operand's width,
and where 64-bit types exist only when ``jax_enable_x64`` is on (otherwise they are
canonicalised to their 32-bit counterparts).
"""

from __future__ import annotations

import functools
from typing import Any

import ml_dtypes
import numpy as np

from jaxlite._src import config as _cfg
from jaxlite._src.config_more import ExplicitX64Mode

bfloat16 = np.dtype(ml_dtypes.bfloat16)
bool_ = np.dtype(np.bool_)
int8, int16, int32, int64 = (np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64))
uint8, uint16, uint32, uint64 = (np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64))
float16, float32, float64 = (np.dtype(t) for t in (np.float16, np.float32, np.float64))
complex64, complex128 = np.dtype(np.complex64), np.dtype(np.complex128)

# The narrow ml_dtypes types (8- and 4-bit floats, 1/2/4-bit integers). They sit in the
# promotion lattice but never promote implicitly to another type (JAX's rule): a join that
# involves one of them must come out as that type, or it raises TypePromotionError.
_FLOAT8_NAMES = (
    "float8_e3m4",
    "float8_e4m3",
    "float8_e4m3b11fnuz",
    "float8_e4m3fn",
    "float8_e4m3fnuz",
    "float8_e5m2",
    "float8_e5m2fnuz",
    "float8_e8m0fnu",
)
_FLOAT4_NAMES = ("float4_e2m1fn",)
_NARROW_SIGNED_NAMES = ("int2", "int4")
_NARROW_UNSIGNED_NAMES = ("uint2", "uint4")


def _ml_dtypes(names):
    return tuple(np.dtype(getattr(ml_dtypes, n)) for n in names if hasattr(ml_dtypes, n))


float8_types = _ml_dtypes(_FLOAT8_NAMES)
float4_types = _ml_dtypes(_FLOAT4_NAMES)
narrow_signed_types = _ml_dtypes(_NARROW_SIGNED_NAMES)
narrow_unsigned_types = _ml_dtypes(_NARROW_UNSIGNED_NAMES)

# The tangent dtype of integer and boolean values (JAX's float0): a zero-size void type.
float0 = np.dtype([("float0", np.void, 0)])


# ---------------------------------------------------------------------- extended dtypes


class extended(np.generic):
    """Scalar type of the extended dtypes (``jax.dtypes.extended``): element types that are
    not NumPy's, such as PRNG keys. Use it with ``issubdtype``."""


class prng_key(extended):
    """Scalar type of the PRNG key dtypes (``jax.dtypes.prng_key``)."""


class ExtendedDType:
    """Base of the extended dtypes (the ``key<fry>`` dtype of typed PRNG keys).

    An extended dtype is the ``dtype`` of an aval and of an ``Array``; each element is
    stored as one record of the NumPy dtype ``dtype`` (e.g. two ``uint32`` words for a
    threefry key), so an array of logical shape ``S`` is a NumPy array of shape ``S`` and
    every dtype-agnostic kernel (reshape, transpose, gather, concatenate, select, scatter)
    works on it unchanged. ``np.dtype(ext)`` gives that storage dtype (NumPy reads the
    ``dtype`` attribute), so buffers can be allocated for it anywhere.

    Subclasses set ``type`` (a subclass of ``extended``), ``name`` and ``dtype``.
    """

    type: type = extended
    name: str = "extended"
    dtype: np.dtype

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def kind(self) -> str:
        return "V"

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return self.name

    def compare(self, op: str, x: Any, y: Any):
        """``x == y`` (``op='eq'``) or ``x != y`` (``'ne'``) for arrays of this dtype."""
        raise TypeError(f"{op} does not accept dtype {self.name}")

    def to_physical(self, x: Any) -> Any:
        """The array of NumPy-typed data ``x`` overlays (what host callbacks receive)."""
        raise TypeError(f"dtype {self.name} has no physical representation")


# storage dtype -> extended dtype, so a raw buffer of an extended dtype's records is
# recognised as that dtype (a callback's operand buffer, for instance).
_EXTENDED_BY_STORAGE: dict = {}


def register_extended(dtype: ExtendedDType) -> None:
    _EXTENDED_BY_STORAGE[dtype.dtype] = dtype


def from_storage(dtype: np.dtype) -> Any:
    """``dtype``, or the extended dtype whose elements are stored as ``dtype`` records."""
    return _EXTENDED_BY_STORAGE.get(dtype, dtype) if dtype.kind == "V" else dtype


def is_extended(dtype: Any) -> bool:
    return isinstance(dtype, ExtendedDType)


_X64_TO_X32 = {int64: int32, uint64: uint32, float64: float32, complex128: complex64}

_SHORT_NAMES = {
    bool_: "bool",
    int8: "i8",
    int16: "i16",
    int32: "i32",
    int64: "i64",
    uint8: "u8",
    uint16: "u16",
    uint32: "u32",
    uint64: "u64",
    bfloat16: "bf16",
    float16: "f16",
    float32: "f32",
    float64: "f64",
    complex64: "c64",
    complex128: "c128",
    float0: "float0",
    **{d: d.name for d in float8_types + float4_types},
    **{d: d.name for d in narrow_signed_types + narrow_unsigned_types},
}

_float_types = {bfloat16, float16, float32, float64, *float8_types, *float4_types}
_complex_types = {complex64, complex128}
_signed_types = {int8, int16, int32, int64, *narrow_signed_types}
_unsigned_types = {uint8, uint16, uint32, uint64, *narrow_unsigned_types}
# What a TypePromotionError says of each narrow family, and the cast it suggests.
_NARROW_FAMILIES = (
    (frozenset(float8_types), "8-bit floats", "float32"),
    (frozenset(float4_types), "4-bit floats", "float32"),
    (
        frozenset(narrow_signed_types + narrow_unsigned_types),
        "1-bit, 2-bit and 4-bit integers",
        "int32",
    ),
)
_NARROW = frozenset().union(*(fam for fam, _, _ in _NARROW_FAMILIES))
_ML_FLOATS = frozenset((bfloat16, *float8_types, *float4_types))


def short_name(dtype: np.dtype) -> str:
    """``f32``, ``i32``, ``bool``... as in printed jaxprs."""
    return _SHORT_NAMES.get(dtype, str(dtype))


# NumPy dtype kinds that may have no JAX counterpart: object, bytes, str, void/structured,
# datetime64, timedelta64. Of kind "V" only raw void and structured dtypes (type np.void)
# are invalid: ml_dtypes' types (bfloat16, float8_*, int4...) are kind "V" too, and float0
# is a (zero-size) structured dtype.
_INVALID_KINDS = frozenset("OSUVMm")


def is_invalid_dtype(dtype: np.dtype) -> bool:
    """True for NumPy dtypes that JAX has no arrays of (str, object, datetime64, void...)."""
    if dtype.kind not in _INVALID_KINDS:
        return False
    if dtype.kind == "V":
        return dtype.type is np.void and dtype != float0
    return True


def check_valid_dtype(dtype: np.dtype, fun_name: str | None = None, orig: Any = None) -> None:
    """Raise ``TypeError`` for a dtype JAX has no arrays of (str, object, datetime64...)."""
    if is_invalid_dtype(dtype):
        where = f" in {fun_name}" if fun_name else ""
        shown = dtype if orig is None else orig
        raise TypeError(
            f"JAX only supports number, bool, and string dtypes, got dtype {shown}{where}"
        )


def _reject_array_dtype(dtype: Any) -> None:
    """Raise JAX's ``ValueError`` for an array (or tracer) given where a dtype belongs.

    NumPy's ``np.dtype`` would read the array's ``.dtype`` attribute and go on; JAX
    refuses, so ``jnp.zeros(3, dtype=x)`` is an error here too, not ``x.dtype``.
    """
    if getattr(dtype, "aval", None) is not None and not isinstance(dtype, type):
        raise ValueError(
            "Passing an array as a dtype argument is no longer supported; "
            "instead of dtype=arr use dtype=arr.dtype."
        )


def canonicalize_dtype(dtype: Any) -> np.dtype:
    """The dtype an array of ``dtype`` gets in the current x64 mode.

    Raises:
        TypeError: for dtypes that JAX has no arrays of (str, bytes, object, void and
            structured, datetime64, timedelta64).
    """
    orig = dtype
    if isinstance(dtype, ExtendedDType):
        return dtype
    if not isinstance(dtype, np.dtype):
        _reject_array_dtype(dtype)
        dtype = np.dtype(dtype)
    if dtype.kind in _INVALID_KINDS:
        check_valid_dtype(dtype, None, orig)
    if not _cfg.x64():
        return _X64_TO_X32.get(dtype, dtype)
    return dtype


def is_float(dtype: np.dtype) -> bool:
    return dtype in _float_types


def is_complex(dtype: np.dtype) -> bool:
    return dtype in _complex_types


def is_inexact(dtype: np.dtype) -> bool:
    return dtype in _float_types or dtype in _complex_types


def is_int(dtype: np.dtype) -> bool:
    return dtype in _signed_types or dtype in _unsigned_types


def is_signed(dtype: np.dtype) -> bool:
    return dtype in _signed_types


def is_unsigned(dtype: np.dtype) -> bool:
    return dtype in _unsigned_types


def issubdtype(arg1: Any, arg2: Any) -> bool:
    """``np.issubdtype`` that also knows the ml_dtypes floats are floating types and the
    extended dtypes (``issubdtype(key.dtype, jax.dtypes.prng_key)``)."""
    if isinstance(arg1, ExtendedDType) or isinstance(arg2, ExtendedDType):
        if isinstance(arg2, type) and isinstance(arg1, ExtendedDType):
            return issubclass(arg1.type, arg2)
        return arg1 == arg2
    if isinstance(arg1, type) and issubclass(arg1, extended):
        return isinstance(arg2, type) and issubclass(arg1, arg2)
    if isinstance(arg2, type) and issubclass(arg2, extended):
        return False
    arg1 = np.dtype(arg1)
    if arg1 in _ML_FLOATS:  # bfloat16, float8_*, float4_*: NumPy does not know their kind
        return arg2 in (np.floating, np.inexact, np.number, np.generic)
    if arg1 in _NARROW and arg1 not in _ML_FLOATS:  # int2, int4, uint2, uint4
        kind = np.signedinteger if arg1 in _signed_types else np.unsignedinteger
        return arg2 in (kind, np.integer, np.number, np.generic)
    if (
        isinstance(arg2, type)
        and issubclass(arg2, np.generic)
        and arg2
        not in (
            np.floating,
            np.inexact,
            np.number,
            np.integer,
            np.signedinteger,
            np.unsignedinteger,
            np.complexfloating,
            np.bool_,
            np.generic,
        )
    ):
        return arg1 == np.dtype(arg2)
    if not isinstance(arg2, type):
        return arg1 == np.dtype(arg2)
    return np.issubdtype(arg1, arg2)


# --------------------------------------------------------------------------- lattice

_WEAK_I, _WEAK_F, _WEAK_C = "i*", "f*", "c*"


def _lattice_edges(x64: bool) -> dict:
    edges = {
        bool_: [_WEAK_I],
        _WEAK_I: [uint8, int8, *narrow_signed_types, *narrow_unsigned_types],
        uint8: [int16, uint16],
        uint16: [int32, uint32],
        # Without x64 no 64-bit type is formed from 32-bit inputs (as in JAX).
        uint32: [int64 if x64 else int32, uint64],
        uint64: [_WEAK_F],
        int8: [int16],
        int16: [int32],
        int32: [int64],
        int64: [_WEAK_F],
        _WEAK_F: [bfloat16, float16, _WEAK_C, *float8_types, *float4_types],
        bfloat16: [float32],
        float16: [float32],
        float32: [float64, complex64],
        float64: [complex128],
        _WEAK_C: [complex64],
        # The narrow types hang off the weak nodes; a join with anything above them is
        # rejected by _check_narrow.
        **{d: [float32] for d in float8_types + float4_types},
        **{d: [int8] for d in narrow_signed_types},
        **{d: [uint8] for d in narrow_unsigned_types},
        complex64: [complex128],
        complex128: [],
    }
    return edges


@functools.lru_cache(None)
def _upper_sets(x64: bool) -> dict:
    edges = _lattice_edges(x64)
    ups: dict = {}

    def up(n):
        if n not in ups:
            s = {n}
            for m in edges[n]:
                s |= up(m)
            ups[n] = frozenset(s)
        return ups[n]

    for n in edges:
        up(n)
    return ups


def _join(a, b):
    return _join_in(a, b, bool(_cfg.x64()))


@functools.lru_cache(None)
def _join_in(a, b, x64: bool):
    ups = _upper_sets(x64)
    common = ups[a] & ups[b]
    for c in common:
        if common <= ups[c]:
            return c
    raise TypeError(f"no promotion path for {a} and {b}")  # pragma: no cover


_WEAK_DEFAULT = {_WEAK_I: int64, _WEAK_F: float64, _WEAK_C: complex128}


def _node(dtype: np.dtype, weak: bool):
    if weak:
        if dtype in _signed_types or dtype in _unsigned_types:
            return _WEAK_I
        if dtype in _float_types:
            return _WEAK_F
        if dtype in _complex_types:
            return _WEAK_C
    return dtype


def _check_known(dtype: np.dtype) -> None:
    if isinstance(dtype, ExtendedDType):
        raise TypeError(f"JAX-style type promotion does not support dtype {dtype}")
    if dtype not in _SHORT_NAMES or dtype == float0:
        raise TypeError(f"JAX-style type promotion does not support dtype {dtype}")


class TypePromotionError(ValueError):
    """Implicit promotion that JAX forbids: any under ``jax_numpy_dtype_promotion="strict"``,
    and one that would widen a narrow type (float8, float4, int4...) in any mode."""


def _check_narrow(items: list[tuple[np.dtype, bool]], node: Any) -> None:
    """Raise TypePromotionError when the join ``node`` of ``items`` widens a narrow type
    (or combines two different ones)."""
    narrow = {d for d, _ in items if d in _NARROW}
    if not narrow or (len(narrow) == 1 and node in narrow):
        return
    what, cast = next((w, c) for fam, w, c in _NARROW_FAMILIES if narrow & fam)
    names = []
    for d, weak in items:
        name = _WEAK_NAMES[_node(d, weak)] if weak else str(d)
        if name not in names:
            names.append(name)
    raise TypePromotionError(
        f"Input dtypes {tuple(names)} have no available implicit dtype promotion "
        f"path. To avoid unintended promotion, {what} do not support implicit "
        "promotion. If you'd like your inputs to be promoted to another type, you "
        f"can do so explicitly using e.g. x.astype('{cast}')"
    )


_WEAK_NAMES = {_WEAK_I: "<class 'int'>", _WEAK_F: "<class 'float'>", _WEAK_C: "<class 'complex'>"}


def _check_strict(items: list[tuple[np.dtype, bool]]) -> None:
    """Under strict promotion, only weakly typed values may combine with another dtype:
    all strong dtypes must be equal, and a weak ``int``/``float``/``complex`` must fit that
    dtype's kind (weak int into any number, weak float into inexact, weak complex into
    complex), as in JAX's strict lattice."""
    if _cfg.config.read("jax_numpy_dtype_promotion") != "strict":
        return
    # A weakly typed bool (e.g. ``lax.eq`` of two Python floats) is a plain bool node:
    # JAX's lattice has no weak bool, so it combines with bools only.
    strong = {d for d, w in items if not w or d == bool_}
    if not strong:
        return
    ok = len(strong) == 1
    if ok:
        (target,) = strong
        for d, w in items:
            if not w or d == bool_:
                continue
            if is_complex(d):
                ok = ok and is_complex(target)
            elif is_inexact(d):
                ok = ok and is_inexact(target)
            else:
                ok = ok and target != bool_
    if not ok:
        # JAX names each distinct lattice node: a weak int as "<class 'int'>", ...
        names = []
        for d, w in items:
            n = _node(d, w)
            name = _WEAK_NAMES[n] if isinstance(n, str) else str(d)
            if name not in names:
                names.append(name)
        names = tuple(names)
        raise TypePromotionError(
            f"Input dtypes {names} have no available implicit dtype promotion path when "
            "jax_numpy_dtype_promotion=strict. Try explicitly casting inputs to the desired "
            "output type, or set jax_numpy_dtype_promotion=standard."
        )


def promote_types(a: Any, b: Any) -> np.dtype:
    """Promote two (strongly typed) dtypes along JAX's lattice (``jnp.promote_types``).

    Returns:
        The result dtype, not canonicalised for the x64 mode (as in JAX).
    """
    a, b = np.dtype(a), np.dtype(b)
    _check_known(a)
    _check_known(b)
    _check_strict([(a, False), (b, False)])
    node = _join(a, b)
    _check_narrow([(a, False), (b, False)], node)
    if isinstance(node, str):  # e.g. int64 with uint64 meet at the weak float node
        node = _WEAK_DEFAULT[node]
    # Like JAX, not canonicalised: promote_types(int8, int64) is int64 even with x64 off.
    return np.dtype(node)


def promote_dtypes_weak(items: list[tuple[np.dtype, bool]]) -> tuple[np.dtype, bool]:
    """Join ``(dtype, weak_type)`` pairs; returns the canonical dtype and the result weakness."""
    if any(isinstance(d, ExtendedDType) for d, _ in items):
        # Extended dtypes (keys) only combine with themselves (concatenate, where, stack).
        if all(d == items[0][0] for d, _ in items):
            return items[0][0], False
        names = ", ".join(short_name(d) for d, _ in items)
        raise TypeError(f"Cannot combine dtypes {names}: extended dtypes do not promote.")
    _check_strict(items)
    node = None
    for dtype, weak in items:
        _check_known(dtype)
        n = _node(dtype, weak)
        node = n if node is None else _join(node, n)
    _check_narrow(items, node)
    if isinstance(node, str):
        return canonicalize_dtype(_WEAK_DEFAULT[node]), True
    return canonicalize_dtype(node), False


def is_python_scalar(x: Any) -> bool:
    return type(x) in (bool, int, float, complex)


_PY_SCALAR_DTYPES = {bool: bool_, int: int64, float: float64, complex: complex128}


def python_scalar_base(t: type) -> type | None:
    """For a subclass of ``int``, ``float`` or ``complex`` that is not a NumPy scalar type
    (``enum.IntEnum`` members such as dm_env's ``StepType``, ``float`` subclasses), the
    built-in type it extends; else None. JAX treats such values as the Python scalar they
    are (weakly typed); ``np.float64`` and ``np.complex128`` subclass ``float`` and
    ``complex`` but are NumPy scalars with their own dtype."""
    if t in _PY_SCALAR_DTYPES or issubclass(t, np.generic):
        return None
    for base in (int, float, complex):
        if issubclass(t, base):
            return base
    return None


def dtype_and_weak_type(x: Any) -> tuple[np.dtype, bool]:
    """Canonical dtype and weak-typedness of any array-like value."""
    t = type(x)
    if t in _PY_SCALAR_DTYPES:
        return canonicalize_dtype(_PY_SCALAR_DTYPES[t]), t is not bool
    aval = getattr(x, "aval", None)
    if aval is not None:
        return aval.dtype, aval.weak_type
    if hasattr(x, "dtype"):
        return canonicalize_dtype(x.dtype), False
    if isinstance(x, (list, tuple)):
        return canonicalize_dtype(np.asarray(x).dtype), False
    if hasattr(x, "__jax_array__"):
        return dtype_and_weak_type(x.__jax_array__())
    base = python_scalar_base(t)
    if base is not None:
        return canonicalize_dtype(_PY_SCALAR_DTYPES[base]), True
    raise TypeError(f"Argument '{x}' of type {type(x)} is not a valid JAX type")


def result_type(*args: Any, return_weak_type_flag: bool = False):
    """The result dtype of combining ``args`` (arrays, dtypes or Python scalars), as JAX."""
    if not args:
        raise ValueError("at least one array or dtype is required")
    items = []
    for a in args:
        if isinstance(a, ExtendedDType):
            items.append((a, False))
        elif a is int or a is float or a is complex:
            # A Python scalar type is weak like a Python scalar: result_type(int8, int) is
            # int8, result_type(float16, float) float16 (as JAX).
            items.append((canonicalize_dtype(_PY_SCALAR_DTYPES[a]), True))
        elif isinstance(a, (np.dtype, type)) or (isinstance(a, str) and a):
            items.append((np.dtype(a), False))
        else:
            items.append(dtype_and_weak_type(a))
    dtype, weak = promote_dtypes_weak(items)
    return (dtype, weak) if return_weak_type_flag else dtype


def public_result_type(*args: Any, return_weak_type_flag: bool = False):
    """``jnp.result_type`` / ``jax.dtypes.result_type``: ``result_type`` with JAX's reading
    of a user's arguments: a list or tuple has no dtype (JAX's ``TypeError``; internal
    callers convert sequences themselves), ``None`` is the default float dtype (strong, as
    ``np.dtype(None)``)."""
    for a in args:
        if isinstance(a, (list, tuple)):
            raise TypeError(f"Cannot determine dtype of {a}")
    args = tuple(float64 if a is None else a for a in args)
    return result_type(*args, return_weak_type_flag=return_weak_type_flag)


_BITS = {**{d: 4 for d in float4_types}, **{d: int(d.name[-1]) for d in _NARROW if is_int(d)}}


def itemsize_bits(dtype: Any) -> int:
    """Number of bits one element of ``dtype`` takes (``jax.dtypes.itemsize_bits``): 4 for
    int4 and float4_e2m1fn, 2 for int2, 8 for bool.

    Raises:
        ValueError: for ``None`` and for extended dtypes (PRNG keys).
    """
    if dtype is None:
        raise ValueError("dtype cannot be None.")
    if isinstance(dtype, ExtendedDType):
        raise ValueError(f"unexpected input: dtype={dtype}")
    dtype = np.dtype(dtype)
    return _BITS.get(dtype, dtype.itemsize * 8)


def scalar_type_of(x: Any) -> type:
    """The Python scalar type (``bool``, ``int``, ``float`` or ``complex``) of the kind of
    ``x``'s dtype (``jax.dtypes.scalar_type_of``).

    Raises:
        TypeError: when ``x`` is not a numeric value.
    """
    dtype, _ = dtype_and_weak_type(x) if not isinstance(x, str) else (np.asarray(x).dtype, 0)
    if dtype == bool_:
        return bool
    if is_int(dtype):
        return int
    if is_float(dtype):
        return float
    if is_complex(dtype):
        return complex
    raise TypeError(
        f"Value {x!r} with dtype {dtype} is not a valid JAX array type. Only arrays of "
        "numeric types are supported by JAX."
    )


def default_int_dtype() -> np.dtype:
    return canonicalize_dtype(int64)


def default_uint_dtype() -> np.dtype:
    return canonicalize_dtype(uint64)


def default_float_dtype() -> np.dtype:
    return canonicalize_dtype(float64)


def default_complex_dtype() -> np.dtype:
    return canonicalize_dtype(complex128)


def to_inexact_dtype(dtype: np.dtype) -> np.dtype:
    """The float dtype integer/bool values are promoted to by ``sin`` etc."""
    if is_inexact(dtype):
        return dtype
    # As JAX: integers of up to 32 bits (and bool) go to float32, 64-bit ones to float64
    # (float32 again once canonicalised with x64 off); not simply the default float type.
    wide = np.dtype(dtype).itemsize >= 8
    return canonicalize_dtype(np.dtype(np.float64 if wide else np.float32))


def to_complex_dtype(dtype: np.dtype) -> np.dtype:
    """The complex dtype of ``dtype`` values (complex stays; float64-wide values go to
    complex128, everything else, float16/bfloat16 included, to complex64)."""
    dtype = np.dtype(dtype)
    if is_complex(dtype):
        return dtype
    wide = to_inexact_dtype(dtype) == np.float64
    return np.dtype(np.complex128 if wide else np.complex64)


def to_real_dtype(dtype: np.dtype) -> np.dtype:
    """The real dtype of a complex one's parts; other dtypes are returned as they are."""
    dtype = np.dtype(dtype)
    if dtype == np.complex128:
        return np.dtype(np.float64)
    if dtype == np.complex64:
        return np.dtype(np.float32)
    return dtype


def check_user_dtype_supported(dtype: Any, fun_name: str | None = None) -> np.dtype:
    """Canonicalise an explicitly requested dtype, warning when x64 truncation happens."""
    import warnings

    if isinstance(dtype, ExtendedDType):
        return dtype
    _reject_array_dtype(dtype)
    d = np.dtype(dtype)
    check_valid_dtype(d, fun_name or "asarray", dtype)
    c = canonicalize_dtype(d)
    # Python's own int/float/complex mean "the default type of that kind": never a warning.
    if c != d and dtype not in (int, float, complex):
        if _cfg.config.read("jax_explicit_x64_dtypes") == ExplicitX64Mode.ERROR:
            raise ValueError(
                f"Explicitly requested dtype {d} requested in {fun_name or 'asarray'} is not "
                "available. To enable more dtypes, set the jax_enable_x64 or "
                "allow_explicit_x64_dtypes configuration options.See "
                "https://github.com/jax-ml/jax#current-gotchas for more."
            )
        msg = (
            f"Explicitly requested dtype {d} requested in {fun_name or 'asarray'} is not "
            f"available, and will be truncated to dtype {c}. To enable more dtypes, set the "
            "jax_enable_x64 configuration option."
        )
        warnings.warn(msg, stacklevel=3)
    return c


# As JAX's, ``iinfo``/``finfo`` are ml_dtypes' classes applied to the argument as given:
# NumPy's rules then decide (a Python int means int64; ``np.str_('float16')`` is a string
# *value*, a ``<U7`` scalar, so both raise ValueError on it, while ``'float16'`` works).
def iinfo(dtype):
    return ml_dtypes.iinfo(dtype)


def finfo(dtype):
    return ml_dtypes.finfo(dtype)
