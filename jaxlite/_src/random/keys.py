"""The key functions of ``jax.random``: ``key``, ``PRNGKey``, ``split``, ``fold_in``, ``bits``,
``key_data``, ``wrap_key_data``, ``key_impl``, ``key_dtype``, ``clone``.

Keys are created from seeds as JAX does (spec R3), and every function accepts typed keys
and legacy ``uint32[2]`` keys; legacy inputs give legacy outputs. The bodies are jitted
with static shapes, as in JAX, so eager calls and calls under ``jit`` run the same code.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.compile.jit import jit
from jaxlite._src.config import config
from jaxlite._src.core.array import Array, to_array
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.trace import Tracer
from jaxlite._src.ops import conversion, elementwise as ew, shape as sh
from jaxlite._src.random import prng
from jaxlite._src.random.prng import (
    canonicalize_shape,
    check_prng_key,
    is_key_dtype,
    random_unwrap,
    random_wrap,
    resolve_impl,
)
from jaxlite._src.sharding import explicit as _explicit

_u32 = np.dtype(np.uint32)


# ---------------------------------------------------------------------------- seeding


def _seed_array(seed: Any, name: str):
    if isinstance(seed, Array) and is_key_dtype(seed.dtype):
        raise TypeError(f"{name} accepts a scalar seed, but was given a PRNG key.")
    if type(seed) is int:
        seed = np.int64(seed)  # OverflowError outside int64, as JAX
        seed = seed.astype(dtypes.default_int_dtype())  # x32: wraps to int32
    elif type(seed) is bool:
        seed = np.int32(seed)
    seed = to_array(seed) if not isinstance(seed, Array) else seed
    aval = aval_of(seed)
    if not (dtypes.is_int(aval.dtype)):
        raise TypeError(f"PRNG key seed must be an integer; got {seed!r}")
    if aval.shape:
        raise TypeError(
            f"{name} accepts a scalar seed, but was given an array of shape {aval.shape} != (). "
            "Use jax.vmap for batching"
        )
    return seed


def _seed_words(seed):
    """``[hi, lo]`` key data for an integer seed (spec R3.1-R3.2)."""
    aval = aval_of(seed)
    offset = config.jax_random_seed_offset
    if offset:
        seed = ew.add(seed, np.asarray(offset, aval.dtype))
    if aval.dtype.itemsize == 8:
        u = conversion.convert_element_type(seed, dtypes.uint64)
        hi = conversion.convert_element_type(ew.shift_right_logical(u, np.uint64(32)), _u32)
        lo = conversion.convert_element_type(ew.and_(u, np.uint64(0xFFFFFFFF)), _u32)
    else:
        lo = conversion.convert_element_type(seed, _u32)
        hi = ew.mul(lo, np.zeros((), _u32))  # zeros, batched like the seed
    return sh.concatenate([sh.reshape(hi, (1,)), sh.reshape(lo, (1,))], 0)


def _key_from_seed(seed, impl):
    return random_wrap(_seed_words(seed), impl)


_key_from_seed_jit = jit(_key_from_seed, static_argnums=1)


def key(seed: Any, *, impl: Any = None, dtype: Any = None) -> Array:
    """Create a typed PRNG key from an integer seed (``jax.random.key``).

    Args:
        seed: an integer scalar (Python int, NumPy or jaxlite integer, may be traced).
        impl: the PRNG implementation name (only ``"threefry2x32"``).
        dtype: a key dtype (``key_dtype()``), instead of ``impl``.

    Returns:
        A key array of shape ``()`` and dtype ``key<fry>``.

    Raises:
        TypeError: for a non-integer, non-scalar or key seed.
        OverflowError: for a Python int outside int64.
        ValueError: when both ``impl`` and ``dtype`` are given, or for an unknown impl.
    """
    if impl is not None and dtype is not None:
        raise ValueError("Cannot specify both `impl` and `dtype` arguments to jax.random.key")
    impl = resolve_impl(dtype if dtype is not None else impl)
    return _key_from_seed_jit(_seed_array(seed, "key"), impl)


def PRNGKey(seed: Any, *, impl: Any = None) -> Array:  # noqa: N802 (JAX's name)
    """Create a legacy key, a ``uint32[2]`` array, from a seed (``jax.random.PRNGKey``).

    In x32 mode the seed is first converted to int32 (so only ``seed mod 2**32`` matters);
    in x64 mode both 32-bit halves of the int64 seed are kept.

    Raises:
        TypeError, OverflowError: as ``key``.
    """
    impl = resolve_impl(impl)
    return random_unwrap(_key_from_seed_jit(_seed_array(seed, "PRNGKey"), impl))


# ---------------------------------------------------------------------- data and impls


def key_data(keys: Any) -> Array:
    """The ``uint32`` data of a key array, shape ``keys.shape + (2,)`` (``jax.random.key_data``).

    Legacy keys are validated and returned unchanged.
    """
    typed, wrapped = check_prng_key("key_data", keys, allow_batched=True)
    if wrapped:
        return keys if isinstance(keys, Array) else to_array(keys)
    return random_unwrap(typed)


def wrap_key_data(key_bits_array: Any, *, impl: Any = None, dtype: Any = None) -> Array:
    """Wrap ``uint32[..., 2]`` data as typed keys (``jax.random.wrap_key_data``).

    Raises:
        TypeError: ``JAX encountered invalid PRNG key data: ...`` for data of the wrong
            rank, trailing shape or dtype (typed keys included).
        ValueError: when both ``impl`` and ``dtype`` are given.
    """
    if impl is not None and dtype is not None:
        raise ValueError(
            "Cannot specify both `impl` and `dtype` arguments to jax.random.wrap_key_data"
        )
    impl = resolve_impl(dtype if dtype is not None else impl)
    if not isinstance(key_bits_array, Array):
        key_bits_array = to_array(np.asarray(key_bits_array))
    return random_wrap(key_bits_array, impl)


def key_impl(keys: Any) -> str:
    """The implementation of a key array (``jax.random.key_impl``): the name of a registered
    implementation (all of jaxlite's are), a ``str`` as JAX's."""
    typed, _ = check_prng_key("key_impl", keys, allow_batched=True)
    return typed.dtype._impl.name


def key_dtype(impl_spec: Any = None):
    """The key dtype of an implementation (``jax.random.key_dtype``), ``key<fry>``."""
    return prng.key_dtype_of(resolve_impl(impl_spec))


def clone(key: Any) -> Array:
    """``jax.random.clone``: the same key (jaxlite values are immutable)."""
    return key


# ------------------------------------------------------------------- split, fold_in, bits


def _split(keys, shape):
    return prng.random_split(keys, shape)


_split_jit = jit(_split, static_argnums=1)


def _return_like(out, wrapped):
    return random_unwrap(out) if wrapped else out


def split(key: Any, num: int | tuple = 2) -> Array:
    """Split a key into ``num`` new keys (``jax.random.split``).

    Element ``i`` of the result equals ``fold_in(key, i)``.

    Args:
        key: a single typed key or legacy ``uint32[2]`` key.
        num: the number of keys, or a shape.

    Returns:
        Keys of shape ``num`` (typed) or ``num + (2,)`` (legacy input).

    Raises:
        ValueError: for a batch of keys (use ``jax.vmap``).
    """
    typed, wrapped = check_prng_key("split", key)
    # as JAX's: a non-sequence (a NumPy integer, a 0-d array) is one dimension
    shape = canonicalize_shape(tuple(num) if isinstance(num, Sequence) else (num,), "num")
    return _return_like(_split_jit(typed, shape), wrapped)


def _fold_in(keys, data):
    return prng.random_fold_in(keys, data)


_fold_in_jit = jit(_fold_in)


def fold_in(key: Any, data: Any) -> Array:
    """Fold an integer into a key (``jax.random.fold_in``): ``threefry2x32(key, (0, data))``.

    ``data`` is converted to uint32 (floats truncate).

    Raises:
        OverflowError: for Python ints outside uint32.
        TypeError: for non-scalar data.
    """
    typed, wrapped = check_prng_key("fold_in", key)
    if isinstance(data, Array):
        d = conversion.convert_element_type(data, _u32)
    else:
        d = to_array(np.asarray(data, dtype=_u32))
    if aval_of(d).shape:
        raise TypeError(
            f"fold_in accepts a scalar, but was given an array ofshape {aval_of(d).shape} != (). "
            "Use jax.vmap for batching."
        )
    return _return_like(_fold_in_jit(typed, d), wrapped)


def _bits(keys, bit_width, shape):
    return prng.random_bits(keys, bit_width, shape)


_bits_jit = jit(_bits, static_argnums=(1, 2))


@_explicit.placed_result
def bits(key: Any, shape: Any = (), dtype: Any = None, *, out_sharding: Any = None) -> Array:
    """Uniform random bits (``jax.random.bits``).

    Args:
        key: a single key.
        shape: the output shape.
        dtype: an unsigned integer dtype (default uint32, uint64 with x64).

    Raises:
        ValueError: for a dtype that is not an unsigned integer type.
    """
    typed, _ = check_prng_key("bits", key)
    if dtype is None:
        dtype = dtypes.default_uint_dtype()
    dt = np.dtype(dtype)
    if not dtypes.is_unsigned(dt):
        raise ValueError(f"dtype argument to `bits` must be an unsigned int dtype, got {dt}")
    dt = dtypes.check_user_dtype_supported(dtype, "bits")
    shape = canonicalize_shape(shape)
    return _bits_jit(typed, dt.itemsize * 8, shape)


__all__ = [
    "key",
    "PRNGKey",
    "key_data",
    "wrap_key_data",
    "key_impl",
    "key_dtype",
    "clone",
    "split",
    "fold_in",
    "bits",
    "Tracer",
]
