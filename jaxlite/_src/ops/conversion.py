"""convert_element_type and iota."""

from __future__ import annotations

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import rules, sharding_hooks
from jaxlite._src.core.avals import (
    ShapedArray,
    aval_of,
    canonicalize_shape,
    check_nonnegative_shape,
)
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero, is_undefined_primal
from jaxlite._src.core.trace import Tracer, eval_trace, staged_constant
from jaxlite._src.ops import _native

# --- convert_element_type ----------------------------------------------------------------
convert_element_type_p = Primitive("convert_element_type")


def _convert_impl(x, *, new_dtype, weak_type):
    if new_dtype == dtypes.bool_ and x.dtype != dtypes.bool_:
        return np.asarray(x != 0)
    if dtypes.is_complex(x.dtype) and not dtypes.is_complex(new_dtype):
        x = np.real(x)
    if dtypes.is_int(new_dtype) and dtypes.is_inexact(x.dtype):
        return _float_to_int_saturating(np.asarray(x), np.dtype(new_dtype))
    return np.asarray(x).astype(new_dtype)


def convert_value(x: np.ndarray, new_dtype) -> np.ndarray:
    """A NumPy value cast as ``convert_element_type`` casts (XLA's rules)."""
    return _convert_impl(x, new_dtype=np.dtype(new_dtype), weak_type=False)


def _float_to_int_saturating(x: np.ndarray, new_dtype: np.dtype) -> np.ndarray:
    """Float -> int as XLA does: truncate toward zero, saturate out-of-range values (+inf
    to the maximum, -inf to the minimum) and send NaN to 0.

    The integer bounds are not always floats of ``x``'s dtype (int32's maximum rounds up to
    2**31 in float32, which would overflow to INT_MIN), so the clip uses the largest float
    below each bound, and values beyond it are set to the bound exactly.
    """
    info = dtypes.iinfo(new_dtype)  # ml_dtypes' iinfo: also int2/int4/uint2/uint4
    fdt = x.dtype if x.dtype.itemsize >= 4 else np.dtype(np.float32)
    xf = x.astype(fdt, copy=False)
    hi = fdt.type(info.max)
    if int(hi) > info.max:
        hi = np.nextafter(hi, fdt.type(0))
    lo = fdt.type(info.min)  # 0 or -2**(bits-1): exactly representable
    with np.errstate(invalid="ignore"):
        out = np.clip(np.nan_to_num(xf, nan=0.0, posinf=hi, neginf=lo), lo, hi).astype(new_dtype)
        return np.where(xf > hi, new_dtype.type(info.max), out)


def _convert_abstract_eval(x, *, new_dtype, weak_type):
    if (dtypes.is_extended(x.dtype) or dtypes.is_extended(new_dtype)) and x.dtype != new_dtype:
        if any(dtypes.issubdtype(d, dtypes.prng_key) for d in (x.dtype, new_dtype)):
            # JAX's message for a PRNG key dtype on either side
            raise ValueError(f"Cannot convert_element_type from {x.dtype} to {new_dtype}")
        raise TypeError(
            f"convert_element_type cannot convert {x.dtype} to {new_dtype}: use "
            "jax.random.key_data / jax.random.wrap_key_data for PRNG keys"
        )
    return ShapedArray(x.shape, new_dtype, weak_type)


def _convert_jvp(primals, tangents, *, new_dtype, weak_type):
    (x,), (t,) = primals, tangents
    out = convert_element_type_p.bind(x, new_dtype=new_dtype, weak_type=weak_type)

    if type(t) is Zero or not dtypes.is_inexact(new_dtype) or not dtypes.is_inexact(x.dtype):
        return out, Zero(aval_of(out).to_tangent_aval())
    return out, convert_element_type_p.bind(t, new_dtype=new_dtype, weak_type=weak_type)


def _convert_transpose(ct, x, *, new_dtype, weak_type):
    assert is_undefined_primal(x)
    if type(ct) is Zero:
        return [Zero(x.aval)]
    return [convert_element_type_p.bind(ct, new_dtype=x.aval.dtype, weak_type=x.aval.weak_type)]


rules.impl_rules[convert_element_type_p] = _convert_impl
rules.native_rules[convert_element_type_p] = _native.convert_element_type
rules.native_elementwise.add(convert_element_type_p)
rules.abstract_eval_rules[convert_element_type_p] = _convert_abstract_eval
rules.jvp_rules[convert_element_type_p] = _convert_jvp
rules.transpose_rules[convert_element_type_p] = _convert_transpose
rules.batch_rules[convert_element_type_p] = lambda ad, args, dims, **p: (
    convert_element_type_p.bind(*args, **p),
    dims[0],
)


def convert_element_type(operand, new_dtype, weak_type: bool = False):
    """Cast ``operand`` to ``new_dtype`` (``jax.lax.convert_element_type``)."""
    if not dtypes.is_extended(new_dtype):
        dtypes.check_valid_dtype(np.dtype(new_dtype), "convert_element_type", new_dtype)
    new_dtype = dtypes.canonicalize_dtype(new_dtype)
    aval = aval_of(operand)
    if aval.dtype == new_dtype and aval.weak_type == weak_type and hasattr(operand, "aval"):
        return operand

    if not isinstance(operand, Tracer):
        # Constants are converted now rather than staged (they become literals); while a
        # jaxpr is staged the result is a tracer, as JAX's (it binds the primitive).
        return staged_constant(
            convert_element_type_p.bind_with_trace(
                eval_trace, (operand,), dict(new_dtype=new_dtype, weak_type=bool(weak_type))
            )
        )
    return convert_element_type_p.bind(operand, new_dtype=new_dtype, weak_type=bool(weak_type))


# --- iota --------------------------------------------------------------------------------
iota_p = Primitive("iota")


def _iota_impl(*, dtype, shape, dimension):
    r = np.arange(shape[dimension], dtype=dtype)
    bshape = [1] * len(shape)
    bshape[dimension] = shape[dimension]
    return np.broadcast_to(r.reshape(bshape), shape)


rules.impl_rules[iota_p] = _iota_impl
rules.native_rules[iota_p] = _native.iota
rules.native_scalar_rules[iota_p] = _native.scalar_iota


def _iota_abstract_eval(*, dtype, shape, dimension):
    check_nonnegative_shape(tuple(shape), "iota")
    if not 0 <= dimension < len(shape):
        # JAX's check (a negative dimension is an error too, not counted from the end)
        raise ValueError(
            "iota dimension must be between 0 and len(shape), got "
            f"dimension={dimension} for shape={tuple(shape)}"
        )
    if not dtypes.is_extended(dtype) and np.dtype(dtype) == np.bool_:
        raise TypeError(
            "iota does not accept dtype bool. Accepted dtypes are "
            "subtypes of integer, floating, complexfloating."
        )
    return ShapedArray(shape, dtype)


rules.abstract_eval_rules[iota_p] = _iota_abstract_eval
rules.non_differentiable.add(iota_p)
rules.jvp_rules[iota_p] = lambda primals, tangents, **p: (
    iota_p.bind(**p),
    Zero(ShapedArray(p["shape"], p["dtype"]).to_tangent_aval()),
)


def iota(dtype, size: int):
    """``jax.lax.iota``: ``[0, 1, ..., size-1]``."""
    (n,) = canonicalize_shape((size,))
    check_nonnegative_shape((n,), "iota")
    return iota_p.bind(dtype=dtypes.canonicalize_dtype(dtype), shape=(n,), dimension=0)


def broadcasted_iota(dtype, shape, dimension: int, *, out_sharding=None):
    """``jax.lax.broadcasted_iota``; ``out_sharding``: the result's sharding."""
    if out_sharding is not None:
        return sharding_hooks.apply_out_sharding(
            broadcasted_iota, out_sharding, dtype, shape, dimension
        )
    return iota_p.bind(
        dtype=dtypes.canonicalize_dtype(dtype), shape=tuple(shape), dimension=int(dimension)
    )
