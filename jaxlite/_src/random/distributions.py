"""The samplers of ``jax.random`` built on raw bits (spec/random.md R6, R8).

Each public function checks its arguments as JAX does, then calls a jitted body with static
shape and dtype (so eager and jitted calls run the same generated code, R9.1). Bit-exact
with JAX 0.10.2: ``uniform``, ``randint``, ``bernoulli``, ``permutation``, ``choice`` (E0);
``normal``, ``gumbel``, ``exponential``, ``categorical``, ``laplace``, ``logistic`` through
XLA's arithmetic (``_xla_math``, E1). The rest agree to a tolerance (docs/compat.md).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.compile.jit import jit
from jaxlite._src.config import config
from jaxlite._src.core.array import Array, to_array
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.trace import concrete_or_error
from jaxlite._src.numpy import (
    creation,
    indexing_routines,
    reductions,
    shape as jshape,
    sorting,
    ufuncs,
)
from jaxlite._src.numpy.util import check_arraylike
from jaxlite._src.ops import (
    bitcast,
    conversion,
    elementwise as ew,
    shape as sh,
    sorting as lax_sorting,
    structural,
)
from jaxlite._src.ops.clamp import clamp
from jaxlite._src.random import _xla_math as xm, prng
from jaxlite._src.random.param_checks import BROADCAST, DIVIDE, DTYPE, TRACED, reject_sequences
from jaxlite._src.random.prng import canonicalize_shape, check_prng_key, random_bits, random_split
from jaxlite._src.sharding import explicit as _explicit

_UINT = {8: dtypes.uint8, 16: dtypes.uint16, 32: dtypes.uint32, 64: dtypes.uint64}


# --------------------------------------------------------------------------- helpers


def _float_dtype(name: str, dtype: Any, allow_complex: bool = False) -> np.dtype:
    if dtype is None:
        return dtypes.default_float_dtype()
    dt = np.dtype(dtype)
    ok = dtypes.is_float(dt) or (allow_complex and dtypes.is_complex(dt))
    if not ok:
        kind = "a float or complex dtype" if allow_complex else "a float dtype"
        raise ValueError(f"dtype argument to `{name}` must be {kind}, got {dt}")
    return dtypes.check_user_dtype_supported(dtype, name)


def _check_safe_cast(name: str, dtype, *args) -> None:
    """JAX's check that each parameter converts to the sampler's ``dtype`` without loss:
    its type promoted with ``dtype`` must be ``dtype`` (a Python scalar adapts; a
    float32 array, or a NumPy float64 scalar, does not go to float16; complex never goes
    to a real dtype).

    Raises:
      TypePromotionError: (a ``ValueError``) naming the first such parameter's type.
    """
    for x in args:
        if dtypes.result_type(x, dtype) != dtype:
            src = dtypes.dtype_and_weak_type(x)[0]
            raise dtypes.TypePromotionError(
                f"In arguments to {name}, cannot safely cast argument of type {src} to {dtype}"
            )


def _const(dtype, v):
    return np.asarray(v, dtype)


def _split2(key):
    ks = random_split(key, (2,))
    return ks[0], ks[1]


def _param(x, dtype):
    x = to_array(x) if not isinstance(x, Array) else x
    return conversion.convert_element_type(x, dtype)


def _jnp_broadcast(op: str, a: tuple, b: tuple) -> tuple:
    """NumPy broadcasting with JAX's ``jnp`` errors: operands of one rank reach ``lax``
    (``TypeError``), of different ranks fail in ``broadcast_shapes`` (``ValueError``)."""
    try:
        return tuple(np.broadcast_shapes(a, b))
    except ValueError:
        if len(a) == len(b):
            raise TypeError(f"{op} got incompatible shapes for broadcasting: {a}, {b}.") from None
        raise ValueError(f"Incompatible shapes for broadcasting: shapes=[{a}, {b}]") from None


def _bounds_shape(shape: tuple, *params) -> tuple:
    """The shape ``floats * (maxval - minval) + minval`` takes in JAX (rank-broadcast
    bounds, NumPy broadcasting); it must have ``shape``'s size (then it is reshaped)."""
    shapes = [tuple(aval_of(p).shape) for p in params]
    span = _jnp_broadcast("sub", *shapes[::-1])
    full = _jnp_broadcast("mul", tuple(shape), span)
    if math.prod(full) != math.prod(shape):
        raise TypeError(
            f"reshape total size must be unchanged, got new_sizes {shape} (of total size "
            f"{math.prod(shape)}) for shape {full} (of total size {math.prod(full)})."
        )
    return tuple(full)


def _unit_floats(key, shape: tuple, dtype):
    """Uniform floats in ``[0, 1)`` from raw bits (spec R6.2): mantissa bits OR 1.0, minus 1."""
    fi = dtypes.finfo(dtype)
    nbits, nmant = fi.bits, fi.nmant
    rng_bits = 8 if nmant < 8 else nbits
    uint = _UINT[nbits]
    b = random_bits(key, rng_bits, shape)
    if rng_bits != nbits:
        b = conversion.convert_element_type(b, uint)
    one_bits = np.array(1.0, dtype).view(uint)
    b = ew.or_(ew.shift_right_logical(b, np.asarray(rng_bits - nmant, uint)), one_bits)
    return ew.sub(bitcast.bitcast_convert_type(b, dtype), _const(dtype, 1.0))


# Affine modes of uniform: 'unit' = [0, 1) (no arithmetic), 'exact' = the product f*span
# is exact (span a power of two, fused == unfused), 'fma' = XLA's contracted multiply-add.
def _affine_mode(minval, maxval, dtype) -> str:
    if not (dtypes.is_python_scalar(minval) and dtypes.is_python_scalar(maxval)):
        return "fma"
    if isinstance(minval, complex) or isinstance(maxval, complex):
        return "fma"
    lo, hi = np.asarray(minval, dtype), np.asarray(maxval, dtype)
    if lo == 0 and hi == 1:
        return "unit"
    with np.errstate(all="ignore"):
        span = float(hi - lo)
    if span > 0 and math.isfinite(span) and math.frexp(span)[0] == 0.5:
        return "exact"
    return "fma"


def _max_shape(lo_shape: tuple, shape: tuple) -> tuple:
    """The shape of JAX's final ``lax.max(minval, sample)``: a 0-d operand broadcasts;
    otherwise the ranks must agree and each dimension match or be 1 (JAX's errors), so
    a bound of more dimensions than ``shape`` is refused, or widens a 0-d ``shape``."""
    if not lo_shape:
        return shape
    if not shape:
        return lo_shape
    if len(lo_shape) != len(shape):
        ranks = ", ".join(str(r) for r in sorted({len(lo_shape), len(shape)}))
        raise TypeError(f"max: arrays must have the same number of dimensions, got {{{ranks}}}")
    if any(a != b and 1 not in (a, b) for a, b in zip(lo_shape, shape)):
        raise TypeError(
            f"max got incompatible shapes for broadcasting: {tuple(lo_shape)}, {tuple(shape)}."
        )
    return tuple(b if a == 1 else a for a, b in zip(lo_shape, shape))


def _rank_to(x, rank):
    # A 0-d bound broadcasts as it is (the same values as JAX's (1, ..., 1) reshape; one
    # equation fewer, so the native tier still fuses the sampler lane by lane).
    nd = aval_of(x).ndim
    return sh.reshape(x, (1,) * (rank - nd) + aval_of(x).shape) if 0 < nd < rank else x


def _uniform(key, shape, dtype, minval, maxval, mode):
    f = _unit_floats(key, shape, dtype)
    if mode == "unit":
        return f
    # As JAX: the bounds get ``shape``'s rank (leading 1s), ``floats * (hi - lo) + lo``
    # broadcasts NumPy-style and is reshaped to ``shape``, then ``max(lo, .)`` broadcasts
    # like lax (a bound of shape (1,) with ``shape=()`` gives a (1,) result, as JAX's).
    lo = _rank_to(_param(minval, dtype), len(shape))
    hi = _rank_to(_param(maxval, dtype), len(shape))
    full = _bounds_shape(shape, lo, hi)
    out_shape = _max_shape(aval_of(lo).shape, shape)
    f = sh.reshape(f, full) if full != shape else f
    lo_f, hi = jshape.broadcast_to(lo, full), jshape.broadcast_to(hi, full)
    span = ew.sub(hi, lo_f)
    if mode == "exact":
        out = ew.add(ew.mul(f, span), lo_f)
    else:
        out = xm.fma(f, span, lo_f)
    out = sh.reshape(out, shape) if full != shape else out
    if out_shape != shape:
        out = jshape.broadcast_to(out, out_shape)
    return ew.max(jshape.broadcast_to(lo, out_shape), out)


_uniform_jit = jit(_uniform, static_argnums=(1, 2, 5))


@_explicit.placed_result
def uniform(
    key: Any,
    shape: Sequence[int] = (),
    dtype: Any = None,
    minval: Any = 0.0,
    maxval: Any = 1.0,
    *,
    out_sharding: Any = None,
) -> Array:
    """Uniform floats in ``[minval, maxval)`` (``jax.random.uniform``).

    Args:
        key: a single PRNG key (typed or legacy).
        shape: output shape (an int or a sequence of ints).
        dtype: a float dtype (default float32, float64 with x64).
        minval, maxval: bounds, broadcastable to ``shape``.

    Returns:
        An array of ``shape`` and ``dtype``; ``max(minval, fma(u, maxval - minval, minval))``
        for ``u`` uniform in ``[0, 1)``, bit-exact with JAX.

    Raises:
        ValueError: for a non-float dtype or a batch of keys.
        TypeError: for bounds that do not broadcast to ``shape``.
    """
    typed, _ = check_prng_key("uniform", key)
    dt = _float_dtype("uniform", dtype)
    shape = canonicalize_shape(shape)
    mode = _affine_mode(minval, maxval, dt)
    if mode == "unit":
        minval = maxval = 0.0
    return _uniform_jit(typed, shape, dt, minval, maxval, mode)


# ----------------------------------------------------------------------------- normal


def _normal_real(key, shape, dtype):
    lo = np.nextafter(np.array(-1.0, dtype), np.array(0.0, dtype))
    f = _unit_floats(key, shape, dtype)
    # maxval - minval rounds to exactly 2, so the product is exact (no FMA question).
    u = ew.max(lo, ew.add(ew.mul(f, _const(dtype, 2.0)), lo))
    return ew.mul(_const(dtype, np.sqrt(2)), xm.erf_inv(u))


def _normal(key, shape, dtype):
    if dtypes.is_complex(dtype):
        real = dtypes.finfo(dtype).dtype
        k_re, k_im = _split2(key)
        re = _normal_real(k_re, shape, real)
        im = _normal_real(k_im, shape, real)
        inv = _const(real, 1 / np.sqrt(2))
        # JAX divides the complex number by sqrt(2), and its parts come out as these
        # products. The copies keep ``(sqrt(2) * e) * inv`` from reading as a chain of
        # real products, whose constants compiled code merges (ops/const_chains.py) as XLA
        # would, but JAX's complex arithmetic has no such chain.
        re, im = structural.copy_p.bind(re), structural.copy_p.bind(im)
        return ew.complex_(ew.mul(re, inv), ew.mul(im, inv))
    return _normal_real(key, shape, dtype)


_normal_jit = jit(_normal, static_argnums=(1, 2))


@_explicit.placed_result
def normal(
    key: Any, shape: Sequence[int] = (), dtype: Any = None, *, out_sharding: Any = None
) -> Array:
    """Standard normal samples (``jax.random.normal``): ``sqrt(2) * erf_inv(u)`` for ``u``
    uniform in ``(-1, 1)``; complex dtypes have independent parts of variance 1/2.

    Raises:
        ValueError: for a dtype that is neither float nor complex.
    """
    typed, _ = check_prng_key("normal", key)
    dt = _float_dtype("normal", dtype, allow_complex=True)
    return _normal_jit(typed, canonicalize_shape(shape), dt)


# ---------------------------------------------------------------------------- randint


def _clip_to(x, dtype):
    """Convert integer ``x`` to ``dtype``, clipping to ``dtype``'s range first."""
    src = aval_of(x).dtype
    if src == dtype:
        return x
    info, sinfo = dtypes.iinfo(dtype), dtypes.iinfo(src)
    lo, hi = max(int(info.min), int(sinfo.min)), min(int(info.max), int(sinfo.max))
    x = clamp(np.asarray(lo, src), x, np.asarray(hi, src))
    return conversion.convert_element_type(x, dtype)


def _randint(key, shape, minval, maxval, dtype):
    minval = creation.asarray(minval)
    maxval = creation.asarray(maxval)
    if not dtypes.is_int(minval.dtype):
        minval = minval.astype(dtypes.default_int_dtype())
    if not dtypes.is_int(maxval.dtype):
        maxval = maxval.astype(dtypes.default_int_dtype())
    info = dtypes.iinfo(dtype)
    dmax = _clip_to(creation.asarray(np.array(info.max, dtype)), maxval.dtype)
    out_of_range = ew.gt(maxval, dmax)
    minval = _clip_to(minval, dtype)
    maxval = _clip_to(maxval, dtype)
    nbits = info.bits
    uint = _UINT[nbits]
    k1, k2 = _split2(key)
    higher = random_bits(k1, nbits, shape)
    lower = random_bits(k2, nbits, shape)
    minval = jshape.broadcast_to(minval, shape)
    maxval = jshape.broadcast_to(maxval, shape)
    out_of_range = jshape.broadcast_to(out_of_range, shape)
    span = conversion.convert_element_type(ew.sub(maxval, minval), uint)
    one = creation.ones(shape, uint)
    span = ew.select_n(ew.le(maxval, minval), span, one)
    span = ew.select_n(ew.and_(out_of_range, ew.gt(maxval, minval)), span, ew.add(span, one))
    # span may need nbits+1 bits: (hi * 2**nbits + lo) mod span, computed as
    # ((hi mod span) * (2**(nbits/2) mod span)**2 + lo mod span) mod span, wrapping.
    mult = ew.rem(np.full(shape, 2 ** (nbits // 2), uint), span)
    mult = ew.rem(ew.mul(mult, mult), span)
    off = ew.add(ew.mul(ew.rem(higher, span), mult), ew.rem(lower, span))
    off = ew.rem(off, span)
    return ew.add(minval, conversion.convert_element_type(off, dtype))


_randint_jit = jit(_randint, static_argnums=(1, 4))


def _check_int_bound(x, name: str):
    if type(x) is int:
        info = dtypes.iinfo(dtypes.default_int_dtype())
        if not int(info.min) <= x <= int(info.max):
            raise OverflowError(
                "An overflow was encountered while parsing an argument to a jitted "
                f"computation, whose argument path is {name}. Got {type(x)} with value {x}"
            )
    elif not isinstance(x, (Array, np.ndarray, np.generic, float, bool)) and not hasattr(
        x, "__jax_array__"
    ):
        raise TypeError(
            f"randint requires {name} to be a scalar or array, got {type(x).__name__}: {x!r}"
        )
    dt = dtypes.dtype_and_weak_type(x)[0]
    if not (dtypes.is_int(dt) or dtypes.is_float(dt) or dt == dtypes.bool_):
        raise TypeError(f"randint requires integer or float bounds, got {name} of dtype {dt}")


@_explicit.placed_result
def randint(
    key: Any,
    shape: Sequence[int],
    minval: Any,
    maxval: Any,
    dtype: Any = None,
    *,
    out_sharding: Any = None,
) -> Array:
    """Uniform integers in ``[minval, maxval)`` (``jax.random.randint``).

    Float bounds are truncated toward zero; ``maxval <= minval`` gives ``minval``; bounds
    beyond the dtype's range are clipped (``maxval = 256`` with uint8 covers 255).

    Raises:
        TypeError: for a non-integer dtype or bounds that are not numbers/arrays.
        OverflowError: for Python-int bounds outside the default integer type.
        ValueError: for bounds that do not broadcast to ``shape``.
    """
    reject_sequences(TRACED, minval=minval, maxval=maxval)
    typed, _ = check_prng_key("randint", key)
    if dtype is None:
        dtype = dtypes.default_int_dtype()
    dt = np.dtype(dtype)
    if not dtypes.is_int(dt):
        raise TypeError(f"randint only accepts integer dtypes, got {dt}")
    dt = dtypes.check_user_dtype_supported(dtype, "randint")
    shape = canonicalize_shape(shape)
    _check_int_bound(minval, "minval")
    _check_int_bound(maxval, "maxval")
    shapes = [b.shape if isinstance(b, Array) else np.shape(b) for b in (minval, maxval)]
    try:
        full = np.broadcast_shapes(shape, *shapes)
    except ValueError:
        full = None
    if full != shape:
        listed = ", ".join(str(tuple(s)) for s in (shape, *shapes))
        raise ValueError(f"Incompatible shapes for broadcasting: shapes=[{listed}]")
    if dt.itemsize < 4:
        # Narrow types are sampled as int32 within the type's range, then cast (R8.4 step 1).
        # The bounds are cast to int32 (wrapping, truncating floats) before the clip, so
        # the clip's limits (``info.max + 1`` is 256 for uint8) fit their dtype.
        info = dtypes.iinfo(dt)
        lo = conversion.convert_element_type(creation.asarray(minval), dtypes.int32)
        hi = conversion.convert_element_type(creation.asarray(maxval), dtypes.int32)
        minval = ufuncs.clip(lo, int(info.min), int(info.max))
        maxval = ufuncs.clip(hi, int(info.min), int(info.max) + 1)
        out = _randint_jit(typed, shape, minval, maxval, dtypes.int32)
        return conversion.convert_element_type(out, dt)
    return _randint_jit(typed, shape, minval, maxval, dt)


# -------------------------------------------------------------------------- bernoulli


def _bernoulli(key, p, shape, mode):
    dtype = aval_of(p).dtype
    p = jshape.broadcast_to(p, shape)
    if mode == "high":
        u = _unit_floats(key, (2,) + shape, dtype)
        u1, u2 = u[0], u[1]
        u2 = ew.mul(u2, _const(dtype, 2.0 ** -dtypes.finfo(dtype).nmant))
        return ew.lt(u2, ew.sub(p, u1))
    return ew.lt(_unit_floats(key, shape, dtype), p)


_bernoulli_jit = jit(_bernoulli, static_argnums=(2, 3))


@_explicit.placed_result
def bernoulli(
    key: Any,
    p: Any = 0.5,
    shape: Sequence[int] | None = None,
    mode: str = "low",
    *,
    out_sharding: Any = None,
) -> Array:
    """Boolean samples, ``True`` with probability ``p`` (``jax.random.bernoulli``).

    Raises:
        TypeError: for a non-float ``p``.
        ValueError: for a bad ``mode`` or a ``p`` that does not broadcast to ``shape``.
    """
    reject_sequences(DTYPE, p=p)
    typed, _ = check_prng_key("bernoulli", key)
    if mode not in ("high", "low"):
        raise ValueError(f"got {mode=}, expected 'high' or 'low'")
    dt = dtypes.dtype_and_weak_type(p)[0]
    if not dtypes.is_float(dt):
        raise TypeError(f"bernoulli probability `p` must have a floating dtype, got {dt}.")
    p = conversion.convert_element_type(creation.asarray(p), dt)
    if shape is None:
        shape = p.shape
    else:
        shape = canonicalize_shape(shape)
        _check_shape("bernoulli", shape, p.shape)
    return _bernoulli_jit(typed, p, shape, mode)


def _check_shape(name: str, shape, *param_shapes):
    try:
        full = np.broadcast_shapes(shape, *param_shapes)
    except ValueError:
        full = None
    if full is None:
        shapes = ", ".join(str(s) for s in (shape, *param_shapes))
        raise ValueError(f"Incompatible shapes for broadcasting: shapes=[{shapes}]")
    if full != tuple(shape):
        raise ValueError(
            f"{name} parameter shapes must be broadcast-compatible with shape argument, and the "
            "result of broadcasting the shapes must equal the shape argument, but got "
            f"result {full} for shape argument {shape}."
        )


# ----------------------------------------------------------------------------- gumbel


def _gumbel(key, shape, dtype, mode):
    fi = dtypes.finfo(dtype)
    tiny = _const(dtype, fi.tiny)
    if mode == "high":
        u = _unit_floats(key, (2,) + shape, dtype)
        hi, lo = u[0], u[1]
        x = ew.add(ew.add(hi, ew.mul(_const(dtype, 2.0**-fi.nmant), lo)), tiny)
        x = ew.select_n(ew.ge(hi, _const(dtype, 0.5)), x, hi)
        return ew.neg(xm.log(ew.neg(xm.log1p(ew.neg(x)))))
    # uniform in [tiny, 1): 1 - tiny rounds to 1, so f*1 + tiny is exact either way.
    f = _unit_floats(key, shape, dtype)
    u = ew.max(tiny, ew.add(f, tiny))
    return ew.neg(xm.log(ew.neg(xm.log(u))))


_gumbel_jit = jit(_gumbel, static_argnums=(1, 2, 3))


def _gumbel_mode(mode):
    if mode is None:
        mode = "high" if config.jax_high_dynamic_range_gumbel else "low"
    if mode not in ("low", "high"):
        raise ValueError(f"Must provide valid mode for gumbel got: {mode}")
    return mode


@_explicit.placed_result
def gumbel(
    key: Any,
    shape: Sequence[int] = (),
    dtype: Any = None,
    mode: str | None = None,
    *,
    out_sharding: Any = None,
) -> Array:
    """Standard Gumbel samples, ``-log(-log(u))`` (``jax.random.gumbel``).

    Raises:
        ValueError: for a non-float dtype or a mode other than ``'low'``/``'high'``.
    """
    typed, _ = check_prng_key("gumbel", key)
    dt = _float_dtype("gumbel", dtype)
    return _gumbel_jit(typed, canonicalize_shape(shape), dt, _gumbel_mode(mode))


# ------------------------------------------------------------------------ exponential


def _exponential(key, shape, dtype):
    return ew.neg(xm.log1p(ew.neg(_unit_floats(key, shape, dtype))))


_exponential_jit = jit(_exponential, static_argnums=(1, 2))


@_explicit.placed_result
def exponential(
    key: Any, shape: Sequence[int] = (), dtype: Any = None, *, out_sharding: Any = None
) -> Array:
    """Standard exponential samples, ``-log1p(-u)`` (``jax.random.exponential``)."""
    typed, _ = check_prng_key("exponential", key)
    dt = _float_dtype("exponential", dtype)
    return _exponential_jit(typed, canonicalize_shape(shape), dt)


# ------------------------------------------------------------------------ categorical


@_explicit.placed_result
def categorical(
    key: Any,
    logits: Any,
    axis: int = -1,
    shape: Sequence[int] | None = None,
    replace: bool = True,
    mode: str | None = None,
    *,
    out_sharding: Any = None,
) -> Array:
    """Samples from a categorical distribution given by unnormalised log-probabilities
    (``jax.random.categorical``), by the Gumbel-max trick (top-k without replacement).

    Returns:
        Integer indices along ``axis``, of shape ``shape`` (default: ``logits`` without
        ``axis``).

    Raises:
        ValueError: for a ``shape`` that does not end with the batch shape, or more samples
            without replacement than categories.
    """
    typed, _ = check_prng_key("categorical", key)
    check_arraylike("categorical", logits)
    logits = creation.asarray(logits)
    nd = logits.ndim
    if not -nd <= axis < nd:
        raise IndexError(f"index {axis} is out of bounds for axis 0 with size {nd}")
    if axis >= 0:
        axis -= nd
    batch_shape = tuple(np.delete(logits.shape, axis))
    if shape is None:
        shape = batch_shape
    else:
        shape = canonicalize_shape(shape)
        _check_shape("categorical", shape, batch_shape)
    prefix = shape[: len(shape) - len(batch_shape)]
    logits_shape = list(shape[len(shape) - len(batch_shape) :])
    logits_shape.insert(axis % nd, logits.shape[axis])
    mode = _gumbel_mode(mode)
    dtype = logits.dtype
    if replace:
        g = gumbel(typed, (*prefix, *logits_shape), dtype, mode)
        expanded = jshape.reshape(logits, (1,) * len(prefix) + logits.shape)
        return reductions.argmax(g + expanded, axis=axis)
    noisy = logits + gumbel(typed, logits.shape, dtype, mode)
    k = math.prod(prefix)
    if k > logits.shape[axis]:
        raise ValueError(
            f"Number of samples without replacement ({k}) cannot exceed number of "
            f"categories ({logits.shape[axis]})."
        )
    _, idx = lax_sorting.top_k(jshape.moveaxis(noisy, axis, -1), k)
    return jshape.reshape(jshape.moveaxis(idx, -1, 0), shape)


# ------------------------------------------------------------------ permutation, choice


def _shuffle(key, x, axis):
    n = int(np.prod(aval_of(x).shape))
    rounds = int(np.ceil(3 * np.log(max(1, n)) / np.log(np.iinfo(np.uint32).max)))
    for _ in range(rounds):
        key, sub = _split2(key)
        sort_keys = random_bits(sub, 32, aval_of(x).shape)
        _, x = lax_sorting.sort_key_val(sort_keys, x, axis)
    return x


_shuffle_jit = jit(_shuffle, static_argnums=2)


@_explicit.placed_result
def permutation(
    key: Any, x: Any, axis: int = 0, independent: bool = False, *, out_sharding: Any = None
) -> Array:
    """A random permutation of ``arange(x)`` or of ``x`` along ``axis``
    (``jax.random.permutation``).

    Raises:
        TypeError: for a float scalar ``x``.
        ConcretizationTypeError: for a traced integer ``x``.
    """
    typed, _ = check_prng_key("permutation", key)
    check_arraylike("permutation", x)
    raw = x  # a Python or NumPy integer stays concrete under jit (the converted one not)
    if not isinstance(x, Array):
        x = creation.asarray(x)
    nd = x.ndim
    axis = _canon_axis(axis, nd or 1)
    if nd == 0:
        if not dtypes.is_int(x.dtype):
            raise TypeError("x must be an integer or at least 1-dimensional")
        r = int(
            concrete_or_error(
                x if isinstance(raw, Array) else raw, "argument x of jax.random.permutation()"
            )
        )
        return _shuffle_jit(typed, creation.arange(r), axis)
    if independent or nd == 1:
        return _shuffle_jit(typed, x, axis)
    ind = _shuffle_jit(typed, creation.arange(x.shape[axis]), 0)
    return indexing_routines.take(x, ind, axis)


def _canon_axis(axis, nd):
    axis = operator.index(axis)  # a float axis is JAX's TypeError, never truncated
    if not -nd <= axis < nd:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {nd}")
    return axis % nd


def choice(
    key: Any,
    a: Any,
    shape: Sequence[int] = (),
    replace: bool = True,
    p: Any = None,
    axis: int = 0,
    mode: str | None = None,
) -> Array:
    """Random samples from ``a`` (an int ``n`` means ``arange(n)``) (``jax.random.choice``).

    Raises:
        TypeError: for a non-sequence ``shape``.
        ValueError: for an empty population, too many samples without replacement, or a
            ``p`` of the wrong shape.
    """
    typed, _ = check_prng_key("choice", key)
    if not isinstance(shape, Sequence):
        raise TypeError(f"shape argument of jax.random.choice must be a sequence, got {shape}")
    shape = canonicalize_shape(shape)
    check_arraylike("choice", a)
    arr = creation.asarray(a)
    if arr.ndim == 0:
        n_inputs = int(concrete_or_error(a, "The error occurred in jax.random.choice()"))
    else:
        axis = _canon_axis(axis, arr.ndim)
        n_inputs = arr.shape[axis]
    n_draws = math.prod(shape)
    if n_draws == 0:
        return creation.zeros(shape, dtype=arr.dtype)
    if n_inputs <= 0:
        raise ValueError("a must be greater than 0 unless no samples are taken")
    if not replace and n_draws > n_inputs:
        raise ValueError(
            f"Cannot take a larger sample (size {n_draws}) than population (size {n_inputs}) "
            "when 'replace=False'"
        )
    if p is None:
        if replace:
            ind = randint(typed, shape, 0, n_inputs)
            result = ind if arr.ndim == 0 else indexing_routines.take(arr, ind, axis)
        else:
            perm = permutation(typed, n_inputs if arr.ndim == 0 else arr, axis)
            result = sh.slice_in_dim(perm, 0, n_draws, axis=axis)
    else:
        check_arraylike("choice", p)
        p_arr = creation.asarray(p)
        if not dtypes.is_inexact(p_arr.dtype):
            p_arr = p_arr.astype(dtypes.to_inexact_dtype(p_arr.dtype))
        if p_arr.shape != (n_inputs,):
            raise ValueError(
                "p must be None or a 1D vector with the same size as a.shape[axis]. "
                f"p has shape {p_arr.shape} and a.shape[axis] is {n_inputs}."
            )
        if replace:
            cuml = reductions.cumsum(p_arr)
            r = cuml[-1] * (1 - uniform(typed, shape, dtype=cuml.dtype))
            ind = sorting.searchsorted(cuml, r).astype(dtypes.default_int_dtype())
        else:
            g = gumbel(typed, (n_inputs,), dtype=p_arr.dtype, mode=mode) + xm.log(p_arr)
            ind = lax_sorting.top_k(g, n_draws)[1].astype(dtypes.default_int_dtype())
        result = ind if arr.ndim == 0 else indexing_routines.take(arr, ind, axis)
    out_shape = shape if arr.ndim == 0 else arr.shape[:axis] + shape + arr.shape[axis + 1 :]
    return jshape.reshape(result, out_shape)


__all__ = [
    "uniform",
    "normal",
    "randint",
    "bernoulli",
    "gumbel",
    "exponential",
    "categorical",
    "permutation",
    "choice",
    "prng",
]
