"""Typed PRNG keys (the ``key<fry>`` extended dtype) and the key operations of ``jax.random``.

A typed key array has an aval whose shape is the *logical* shape (``()`` for one key) and
whose dtype is a ``KeyTy`` (an ``ExtendedDType``). Its buffer is a NumPy array of that
logical shape whose elements are records of two ``uint32`` words, so every structural
kernel (reshape, transpose, gather, concatenate, select, scatter, scan stacking...) carries
keys unchanged and jit/vmap/scan/cond need no key-specific code. Two primitives cross
between the views: ``random_wrap_p`` (``uint32[..., 2]`` data -> keys, with JAX's
validation) and ``random_unwrap_p`` (keys -> data, a zero-copy field view).

``split``, ``fold_in`` and the raw bits are compositions over ``threefry2x32_p`` using the
partitionable counter scheme (spec/random.md R5): element ``i`` of an output of ``n``
elements hashes the 64-bit counter ``i`` as ``(i >> 32, i & 0xFFFFFFFF)``. With
``jax_threefry_partitionable=False``, ``split`` and the raw bits follow JAX's original
scheme instead (R5.6: counters ``0..n-1`` hashed half against half); ``fold_in`` is the
same in both.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.config import config
from jaxlite._src.core import rules
from jaxlite._src.core.array import Array
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import not_mapped
from jaxlite._src.numpy import reductions, ufuncs
from jaxlite._src.ops import _factories, conversion, elementwise as ew, shape as sh
from jaxlite._src.random.threefry import threefry2x32

_u32 = np.dtype(np.uint32)


class PRNGImpl:
    """A PRNG implementation: its name, key shape and dtype tag (``fry`` for threefry)."""

    def __init__(self, name: str, tag: str, key_shape: tuple):
        self.name = name
        self.tag = tag
        self.key_shape = key_shape

    def __repr__(self) -> str:
        return f"PRNGImpl({self.name})"

    def __str__(self) -> str:
        return self.name


threefry_prng_impl = PRNGImpl("threefry2x32", "fry", (2,))
_IMPLS = {"threefry2x32": threefry_prng_impl}


class KeyTy(dtypes.ExtendedDType):
    """The dtype of typed PRNG keys, ``key<fry>`` for threefry (JAX's ``KeyTy``)."""

    type = dtypes.prng_key

    def __init__(self, impl: PRNGImpl):
        self._impl = impl
        self.name = f"key<{impl.tag}>"
        self.dtype = np.dtype([("key", _u32, impl.key_shape)])

    def physical_value(self, value: np.ndarray) -> np.ndarray:
        """The ``uint32[..., 2]`` data of a key buffer (a view)."""
        return value["key"]

    def compare(self, op: str, x, y):
        """Keys compare their data: ``k1 == k2`` is True where all words are equal."""
        for v in (x, y):
            if not (isinstance(v, Array) and v.dtype == self):
                dt = getattr(v, "dtype", None) or dtypes.dtype_and_weak_type(v)[0]
                name = {"eq": "equal", "ne": "not_equal"}.get(op, op)  # JAX names the ufunc
                raise TypeError(f"{name} does not accept dtypes {self.name}, {dt}.")
        same = reductions.all(ufuncs.equal(random_unwrap(x), random_unwrap(y)), axis=-1)
        return same if op == "eq" else ew.bitwise_not(same)

    def to_physical(self, x):
        """Host callbacks receive key data, as in JAX."""
        return random_unwrap(x)

    def __eq__(self, other):
        return type(other) is KeyTy and other._impl is self._impl

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash((KeyTy, self._impl.name))


_KEY_DTYPES = {name: KeyTy(impl) for name, impl in _IMPLS.items()}
for _kt in _KEY_DTYPES.values():
    dtypes.register_extended(_kt)


def resolve_impl(impl: Any = None) -> PRNGImpl:
    """The ``PRNGImpl`` named by ``impl`` (a name, an impl or None for the default)."""
    if impl is None:
        impl = config.jax_default_prng_impl
    if isinstance(impl, PRNGImpl):
        return impl
    if isinstance(impl, KeyTy):
        return impl._impl
    if isinstance(impl, str) and impl in _IMPLS:
        return _IMPLS[impl]
    names = ", ".join(f'"{n}"' for n in _IMPLS)
    raise ValueError(f'unrecognized PRNG implementation "{impl}". Did you mean one of: {names}?')


def key_dtype_of(impl: PRNGImpl) -> KeyTy:
    return _KEY_DTYPES[impl.name]


def is_key_dtype(dtype: Any) -> bool:
    return type(dtype) is KeyTy


# ----------------------------------------------------------------- wrap / unwrap primitives


def _bad_data(msg: str) -> TypeError:
    return TypeError(f"JAX encountered invalid PRNG key data: {msg}")


random_wrap_p = Primitive("random_wrap")


def _random_wrap_abstract_eval(data, *, impl):
    if data.ndim < 1:
        raise _bad_data(f"expected key_data.ndim >= 1; got ndim={data.ndim}")
    if data.shape[-len(impl.key_shape) :] != impl.key_shape:
        raise _bad_data(
            f"expected key_data.shape to end with {impl.key_shape}; got shape={data.shape} "
            f"for impl={impl!r}"
        )
    if data.dtype != _u32:
        raise _bad_data(f"expected key_data.dtype = uint32; got dtype={data.dtype}")
    return ShapedArray(data.shape[: -len(impl.key_shape)], key_dtype_of(impl))


def _random_wrap_impl(data, *, impl):
    storage = key_dtype_of(impl).dtype
    out = np.empty(data.shape[: -len(impl.key_shape)], storage)
    out["key"] = data
    return out


def _random_wrap_batch(axis_data, args, dims, *, impl):
    (x,), (d,) = args, dims
    if d >= np.ndim(x) - len(impl.key_shape):  # batched along the key words: move in front
        x, d = sh.moveaxis(x, d, 0), 0
    return random_wrap_p.bind(x, impl=impl), d


rules.impl_rules[random_wrap_p] = _random_wrap_impl
rules.abstract_eval_rules[random_wrap_p] = _random_wrap_abstract_eval
rules.batch_rules[random_wrap_p] = _random_wrap_batch
rules.fresh_output.add(random_wrap_p)
_factories.non_differentiable(random_wrap_p)
rules.native_key_views.add(random_wrap_p)  # the native tier carries keys as words


random_unwrap_p = Primitive("random_unwrap")


def _random_unwrap_abstract_eval(keys):
    if not is_key_dtype(keys.dtype):
        raise TypeError(f"random_unwrap takes key arrays, got dtype {keys.dtype}")
    return ShapedArray(keys.shape + keys.dtype._impl.key_shape, _u32)


rules.impl_rules[random_unwrap_p] = lambda keys: keys["key"]
rules.abstract_eval_rules[random_unwrap_p] = _random_unwrap_abstract_eval
rules.batch_rules[random_unwrap_p] = lambda axis_data, args, dims: (
    random_unwrap_p.bind(*args),
    dims[0],
)
_factories.non_differentiable(random_unwrap_p)
rules.native_key_views.add(random_unwrap_p)


def random_wrap(data, impl: PRNGImpl):
    return random_wrap_p.bind(data, impl=impl)


def random_unwrap(keys):
    return random_unwrap_p.bind(keys)


# ----------------------------------------------------------------------- argument checks


def _legacy_policy_check() -> None:
    policy = config.jax_legacy_prng_key
    if policy == "allow":
        return
    msg = (
        "Legacy uint32 key array passed as key to jax.random function. Please create keys "
        "using jax.random.key(). If use of a raw key array was intended, set "
        'jax_legacy_prng_key="allow".'
    )
    if policy == "error":
        raise ValueError(msg)
    warnings.warn(msg, stacklevel=4)


def check_prng_key(name: str, key: Any, *, allow_batched: bool = False):
    """Typed keys pass through; legacy ``uint32[..., 2]`` data is validated and wrapped.

    Returns:
        ``(typed_keys, wrapped)``; ``wrapped`` says the input was legacy data (results that
        are keys are then unwrapped again).

    Raises:
        TypeError: for objects that are not key arrays or valid key data.
        ValueError: for a key array of rank >= 1 unless ``allow_batched``.
    """
    if isinstance(key, Array) and is_key_dtype(key.dtype):
        keys, wrapped, shape = key, False, key.shape
    else:
        if isinstance(key, (list, tuple)):
            raise TypeError(f"unexpected PRNG key type {type(key)}")
        if not all(hasattr(key, a) for a in ("ndim", "shape", "dtype")):
            raise _bad_data(
                f"expected key_data to have ndim, shape, and dtype attributes. Got {key}"
            )
        _legacy_policy_check()
        keys, wrapped, shape = random_wrap(key, threefry_prng_impl), True, tuple(key.shape)
    if not allow_batched and keys.ndim:
        raise ValueError(
            f"{name} accepts a single key, but was given a key array of shape {shape} != (). "
            "Use jax.vmap for batching."
        )
    return keys, wrapped


def _as_shape(shape: Any, name: str = "shape") -> tuple:
    # As JAX's samplers: a Python int (a bool too) is one dimension, but a NumPy integer
    # scalar or a 0-d array is not a sequence (TypeError); Python bool dimensions count
    # as 0/1, NumPy bools are refused.
    if isinstance(shape, int):
        shape = (shape,)
    try:
        shape = tuple(shape)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of integers, got {shape}") from None
    out = []
    for d in shape:
        bad_array = isinstance(d, (Array, np.ndarray)) and (
            not dtypes.is_int(d.dtype) or np.ndim(d) != 0
        )
        if bad_array or not isinstance(d, (int, np.integer, Array, np.ndarray)):
            raise TypeError(
                f"Shapes must be 1D sequences of concrete values of integer type, got {shape}."
            )
        d = int(d)
        if d < 0:
            raise TypeError(
                "Shapes must be 1D sequences of concrete values of integer type, "
                f"got {shape}. Negative dimensions are not allowed."
            )
        out.append(d)
    return tuple(out)


canonicalize_shape = _as_shape


# ------------------------------------------------------------------------ key operations


def _key_words(keys):
    """The two ``uint32`` words of each key, shaped like the key array."""
    data = random_unwrap(keys)
    nd = keys.ndim
    k0 = sh.reshape(sh.slice_in_dim(data, 0, 1, axis=nd), keys.shape)
    k1 = sh.reshape(sh.slice_in_dim(data, 1, 2, axis=nd), keys.shape)
    return k0, k1


def _counters(shape: tuple):
    """The partitionable scheme's counter words ``(hi, lo)`` for an output of ``shape``."""
    n = int(np.prod(shape, dtype=object)) if shape else 1
    if n > 2**64:
        raise NotImplementedError("random bits array of size exceeding 2 ** 64")
    if n > 2**32:  # pragma: no cover (needs more memory than NumPy could allocate here)
        idx = np.arange(n, dtype=np.uint64).reshape(shape)
        return (idx >> np.uint64(32)).astype(_u32), (idx & np.uint64(0xFFFFFFFF)).astype(_u32)
    lo = conversion.iota(_u32, n)
    if shape != (n,):
        lo = sh.reshape(lo, shape)
    return np.zeros((), _u32), lo


def hash_counters(keys, shape: tuple):
    """``threefry2x32(key, counter_i)`` for every element ``i`` of ``shape``: ``(y0, y1)``.

    ``keys`` is a single typed key (under vmap, one per batch element).
    """
    k0, k1 = _key_words(keys)
    hi, lo = _counters(shape)
    return threefry2x32(k0, k1, hi, lo)


def _stack_words(y0, y1):
    shape = aval_of(y0).shape
    y0 = sh.reshape(y0, shape + (1,))
    y1 = sh.reshape(y1, shape + (1,))
    return sh.concatenate([y0, y1], len(shape))


def _partitionable() -> bool:
    return config.read("jax_threefry_partitionable")


def _original_words(keys, n: int):
    """The original (non-partitionable) scheme's ``n`` output words of one key (spec R5.6):
    the counters ``0..n-1``, padded with a single 0 when ``n`` is odd, are cut in half; the
    first half is hashed against the second (``x0[i]``, ``x1[i]``) and the two output
    halves are concatenated, the padding's word dropped."""
    if n >= 2**32:  # JAX splits the key into blocks there; no array here is that large
        raise NotImplementedError(
            "random bits of 2 ** 32 or more words with jax_threefry_partitionable=False"
        )
    k0, k1 = _key_words(keys)
    half = (n + 1) // 2
    x0 = conversion.iota(_u32, half)
    x1 = ew.add(x0, np.uint32(half))
    if n % 2:  # the second half ends with the padding zero instead of counter 2 * half - 1
        x1 = sh.concatenate([sh.slice_in_dim(x1, 0, half - 1), np.zeros((1,), _u32)], 0)
    y0, y1 = threefry2x32(k0, k1, x0, x1)
    words = sh.concatenate([y0, y1], 0)
    return sh.slice_in_dim(words, 0, n) if n % 2 else words


def _size(shape: tuple) -> int:
    return int(np.prod(shape, dtype=object)) if shape else 1


def random_split(keys, shape: tuple):
    if not _partitionable():
        words = _original_words(keys, 2 * _size(shape))
        return random_wrap(sh.reshape(words, (*shape, 2)), keys.dtype._impl)
    y0, y1 = hash_counters(keys, shape)
    return random_wrap(_stack_words(y0, y1), keys.dtype._impl)


def random_fold_in(keys, data):
    k0, k1 = _key_words(keys)
    y0, y1 = threefry2x32(k0, k1, np.zeros((), _u32), data)
    return random_wrap(_stack_words(y0, y1), keys.dtype._impl)


_UINT_OF_WIDTH = {8: dtypes.uint8, 16: dtypes.uint16, 32: dtypes.uint32, 64: dtypes.uint64}


def random_bits(keys, bit_width: int, shape: tuple):
    """Raw bits (spec R5.4): ``y0 ^ y1`` truncated for widths <= 32, ``(y0 << 32) | y1``
    for 64 bits."""
    if bit_width not in _UINT_OF_WIDTH:
        raise TypeError("requires 8-, 16-, 32- or 64-bit field width.")
    if not _partitionable():
        return _original_bits(keys, bit_width, shape)
    y0, y1 = hash_counters(keys, shape)
    if bit_width == 64:
        u64 = dtypes.uint64
        hi = ew.shift_left(conversion.convert_element_type(y0, u64), np.uint64(32))
        return ew.or_(hi, conversion.convert_element_type(y1, u64))
    bits = ew.xor(y0, y1)
    if bit_width < 32:
        bits = conversion.convert_element_type(bits, _UINT_OF_WIDTH[bit_width])
    return bits


def _original_bits(keys, bit_width: int, shape: tuple):
    """Raw bits in the original scheme (spec R5.6): ``ceil(bit_width * size / 32)`` words of
    ``_original_words``. 32 bits: the words; 64 bits: the first half of the words are the
    high halves, the second half the low halves; 8 and 16 bits: each word gives
    ``32 // bit_width`` values, its lowest bits first."""
    size = _size(shape)
    n = -(-bit_width * size // 32)
    words = _original_words(keys, n)
    if bit_width == 64:
        u64 = dtypes.uint64
        hi = conversion.convert_element_type(sh.slice_in_dim(words, 0, size), u64)
        lo = conversion.convert_element_type(sh.slice_in_dim(words, size, 2 * size), u64)
        bits = ew.or_(ew.shift_left(hi, np.uint64(32)), lo)
    elif bit_width == 32:
        bits = words
    else:
        per_word = 32 // bit_width
        mask = np.uint32(2**bit_width - 1)
        parts = [
            sh.reshape(
                ew.and_(ew.shift_right_logical(words, np.uint32(bit_width * j)), mask), (n, 1)
            )
            for j in range(per_word)
        ]
        bits = sh.reshape(sh.concatenate(parts, 1), (n * per_word,))
        bits = sh.slice_in_dim(bits, 0, size)
        bits = conversion.convert_element_type(bits, _UINT_OF_WIDTH[bit_width])
    return sh.reshape(bits, shape) if shape != (size,) else bits


__all__ = [
    "KeyTy",
    "PRNGImpl",
    "check_prng_key",
    "random_wrap",
    "random_unwrap",
    "random_split",
    "random_fold_in",
    "random_bits",
    "not_mapped",
]
