"""``jax.numpy`` products of the top-level namespace: ``dot matmul vdot inner outer vecdot
matvec vecmat cross trace``. ``einsum``, ``tensordot`` and ``kron`` are in ``einsum``;
``jnp.linalg`` is ``linalg``."""

from __future__ import annotations

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.numpy import reductions
from jaxlite._src.numpy.creation import eye, zeros_like
from jaxlite._src.numpy.indexing_routines import diagonal
from jaxlite._src.numpy.shape import (
    broadcast_arrays,
    broadcast_to,
    expand_dims,
    moveaxis,
    ravel,
    squeeze,
    stack,
)
from jaxlite._src.numpy.ufuncs import conj, multiply, subtract, where
from jaxlite._src.numpy.util import (
    asarray_any,
    canonicalize_axis,
    check_arraylike,
    check_out,
    promote_args,
    promote_dtypes,
    promote_dtypes_for_contraction,
    with_weak_type,
)
from jaxlite._src.ops import conversion, elementwise as ew, linalg as _linalg, shape as _sh
from jaxlite._src.ops.precision import check_precision
from jaxlite._src.sharding import explicit as _explicit


# -------------------------------------------------------------------------------- dots
def dot(a, b, *, precision=None, preferred_element_type=None, out_sharding=None):
    """``jnp.dot``: NumPy's rules for 0-d, 1-d and N-d operands; ``out_sharding``: the
    result's sharding (S8.4)."""
    check_precision(precision)
    check_arraylike("dot", a, b)
    if out_sharding is not None:
        return _explicit.apply_out_sharding(
            dot,
            out_sharding,
            a,
            b,
            precision=precision,
            preferred_element_type=preferred_element_type,
        )
    (a, b), weak = promote_dtypes_for_contraction(a, b)
    if a.ndim == 0 or b.ndim == 0:
        # JAX contracts nothing with dot_general: booleans multiply as a logical and
        mul = ew.and_ if a.dtype == np.bool_ else ew.mul
        return with_weak_type(mul(*broadcast_arrays(a, b)), weak)
    contract_b = 0 if b.ndim == 1 else b.ndim - 2
    out = _linalg.dot_general(
        a,
        b,
        (((a.ndim - 1,), (contract_b,)), ((), ())),
        preferred_element_type=preferred_element_type,
    )
    return with_weak_type(out, weak and preferred_element_type is None)


def matmul(a, b, *, precision=None, preferred_element_type=None, out_sharding=None):
    """``jnp.matmul`` with batch broadcasting; ``out_sharding``: the result's sharding."""
    check_precision(precision)
    check_arraylike("matmul", a, b)
    if out_sharding is not None:
        return _explicit.apply_out_sharding(
            matmul,
            out_sharding,
            a,
            b,
            precision=precision,
            preferred_element_type=preferred_element_type,
        )
    (a, b), weak = promote_dtypes_for_contraction(a, b)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError(f"matmul: inputs must be at least 1-D, got shapes {a.shape} and {b.shape}")
    try:  # batch dimensions first, then the contraction (JAX's order and exception types)
        batch = tuple(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]))
    except ValueError:
        t = lambda x: f"{np.dtype(x.dtype).name}[{','.join(map(str, x.shape))}]"  # noqa: E731
        raise ValueError(f"Incompatible types for matmul arguments: {t(a)} and {t(b)}") from None
    ka, kb = a.shape[-1], b.shape[-2 if b.ndim > 1 else -1]
    if ka != kb:
        raise TypeError(
            "dot_general requires contracting dimensions to have the same shape, "
            f"got ({ka},) and ({kb},)."
        )
    a_vec, b_vec = a.ndim == 1, b.ndim == 1
    if a_vec:
        a = _sh.reshape(a, (1,) + a.shape)
    if b_vec:
        b = _sh.reshape(b, b.shape + (1,))
    if a.ndim == 2 and b.ndim == 2:
        out = _linalg.dot_general(
            a, b, (((1,), (0,)), ((), ())), preferred_element_type=preferred_element_type
        )
    else:
        a = broadcast_to(a, batch + a.shape[-2:])
        b = broadcast_to(b, batch + b.shape[-2:])
        nb = len(batch)
        out = _linalg.dot_general(
            a,
            b,
            (((nb + 1,), (nb,)), (tuple(range(nb)), tuple(range(nb)))),
            preferred_element_type=preferred_element_type,
        )
    if a_vec:
        out = _sh.squeeze(out, (out.ndim - 2,))
    if b_vec:
        out = _sh.squeeze(out, (out.ndim - 1,))
    return with_weak_type(out, weak and preferred_element_type is None)


def vdot(a, b, *, precision=None, preferred_element_type=None):
    """``jnp.vdot``: the dot product of the flattened operands, the first conjugated.

    Args:
      preferred_element_type: the accumulation/result dtype (e.g. int32 for int8 input).
    """
    check_precision(precision)
    check_arraylike("vdot", a, b)
    (a, b), weak = promote_dtypes_for_contraction(a, b)
    if dtypes.is_complex(a.dtype):
        a = ew.conj(a)
    out = dot(ravel(a), ravel(b), preferred_element_type=preferred_element_type)
    return with_weak_type(out, weak and preferred_element_type is None)


def inner(a, b, *, precision=None, preferred_element_type=None):
    """``jnp.inner``: contract the last axes of ``a`` and ``b``.

    Args:
      preferred_element_type: the accumulation/result dtype (e.g. int32 for int8 input).
    """
    check_precision(precision)
    check_arraylike("inner", a, b)
    if np.ndim(a) == 0 or np.ndim(b) == 0:
        # As JAX's: the operands (cast to preferred_element_type if given) multiplied with
        # jnp's promotion, weak types included.
        a, b = asarray_any(a), asarray_any(b)
        if preferred_element_type is not None:
            a, b = (conversion.convert_element_type(x, preferred_element_type) for x in (a, b))
        return multiply(a, b)
    (a, b), weak = promote_dtypes_for_contraction(a, b)
    out = _linalg.dot_general(
        a,
        b,
        (((a.ndim - 1,), (b.ndim - 1,)), ((), ())),
        preferred_element_type=preferred_element_type,
    )
    return with_weak_type(out, weak and preferred_element_type is None)


def outer(a, b, out=None):
    check_out(out, "jnp.outer is not supported.")
    check_arraylike("outer", a, b)
    a, b = promote_dtypes(ravel(a), ravel(b))
    # Equal ranks: no rank promotion (jax_numpy_rank_promotion never fires here, as in JAX).
    return multiply(_sh.reshape(a, a.shape + (1,)), _sh.reshape(b, (1,) + b.shape))


def trace(a, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype=None, out=None):
    """``jnp.trace``: sum along a diagonal.

    As JAX: the matrices are masked with an ``eye`` (off-diagonal entries replaced by zeros)
    and summed, so the derivative reaches every entry (a zero cotangent off the diagonal,
    which is NaN where the entry's own derivative is infinite), an empty diagonal included.
    """
    check_arraylike("trace", a)
    a = asarray_any(a)
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.trace is not supported.")
    if isinstance(offset, (bool, np.bool_)):  # JAX's ValueError (an int offset only)
        raise ValueError(f"k must be a scalar integer; got {asarray_any(offset)!r}")
    if canonicalize_axis(axis1, a.ndim) == canonicalize_axis(axis2, a.ndim):
        raise ValueError(f"axis1 and axis2 can not be same. axis1={axis1} and axis2={axis2}")
    shape = a.shape
    a = moveaxis(a, (axis1, axis2), (-2, -1))
    mask = eye(shape[axis1], shape[axis2], k=offset, dtype=bool)
    return reductions.sum(where(mask, a, zeros_like(a)), axis=(-2, -1), dtype=dtype)


def vecdot(x1, x2, /, *, axis: int = -1, precision=None, preferred_element_type=None):
    """``jnp.vecdot``: ``sum(conj(x1) * x2, axis)`` with broadcasting."""
    check_precision(precision)
    check_arraylike("jnp.vecdot", x1, x2)
    x1, x2 = asarray_any(x1), asarray_any(x2)
    # JAX reads both operands' ``shape[axis]`` before broadcasting them
    n1 = x1.shape[canonicalize_axis(axis, x1.ndim, index_error=True)]
    n2 = x2.shape[canonicalize_axis(axis, x2.ndim, index_error=True)]
    if n1 != n2:
        raise ValueError(f"axes must match; got shapes {x1.shape} and {x2.shape} with axis={axis}")
    weak = dtypes.result_type(x1, x2, return_weak_type_flag=True)[1]
    x1, x2 = promote_args("vecdot", x1, x2)
    if preferred_element_type is not None:
        # the products and their sum in preferred_element_type (int8 inputs do not wrap)
        pet = dtypes.check_user_dtype_supported(preferred_element_type, "vecdot")
        x1, x2 = (conversion.convert_element_type(x, pet) for x in (x1, x2))
        weak = False
    x1, x2 = broadcast_arrays(x1, x2)
    if dtypes.is_complex(x1.dtype):
        x1 = conj(x1)
    if x1.dtype == np.bool_:  # a boolean dot product, as JAX's dot_general: any(x1 & x2)
        return with_weak_type(reductions.any(ew.and_(x1, x2), axis=axis), weak)
    # The sum in the operands' own dtype, as JAX's dot_general: integers wrap there (an
    # int8 vecdot is int8, not the default integer jnp.sum widens small integers to).
    # Half-precision floats, as XLA's dot: products and sum in float32, rounded once (a
    # float16 product past 65504 does not overflow on its own).
    dt = x1.dtype
    if dt in (dtypes.float16, dtypes.bfloat16):
        x1, x2 = (conversion.convert_element_type(x, dtypes.float32) for x in (x1, x2))
    total = reductions.sum(multiply(x1, x2), axis=axis, dtype=x1.dtype)
    if dt != x1.dtype:
        total = conversion.convert_element_type(total, dt)
    return with_weak_type(total, weak)


def matvec(x1, x2, /):
    """``jnp.matvec``: batched matrix-vector product (``x1`` at least 2-D, ``x2`` at
    least 1-D, as JAX's signature ``(n,m),(m)->(n)``)."""
    for x, need, core in ((x1, 2, "('n', 'm')"), (x2, 1, "('m',)")):
        if np.ndim(x) < need:
            raise ValueError(
                f"input with shape {np.shape(x)} does not have enough dimensions for all core "
                f"dimensions {core} on vectorized function with excluded=frozenset() and "
                "signature='(n,m),(m)->(n)'"
            )
    return squeeze(matmul(x1, expand_dims(x2, -1)), -1)


def vecmat(x1, x2, /):
    """``jnp.vecmat``: batched (conjugated) vector-matrix product."""
    x1 = asarray_any(x1)
    if dtypes.is_complex(x1.dtype):
        x1 = conj(x1)
    return squeeze(matmul(expand_dims(x1, -2), x2), -2)


def cross(a, b, axisa: int = -1, axisb: int = -1, axisc: int = -1, axis=None):
    """``jnp.cross``: the cross product of 3-vectors (or the z-component for 2-vectors)."""
    a, b = promote_dtypes(asarray_any(a), asarray_any(b))
    if axis is not None:
        axisa = axisb = axisc = axis
    a = moveaxis(a, axisa, -1)
    b = moveaxis(b, axisb, -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError("Dimension must be either 2 or 3 for cross product")
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return subtract(multiply(a[..., 0], b[..., 1]), multiply(a[..., 1], b[..., 0]))
    a0, a1 = a[..., 0], a[..., 1]
    a2 = a[..., 2] if a.shape[-1] == 3 else zeros_like(a0)
    b0, b1 = b[..., 0], b[..., 1]
    b2 = b[..., 2] if b.shape[-1] == 3 else zeros_like(b0)
    c = stack(
        [
            subtract(multiply(a1, b2), multiply(a2, b1)),
            subtract(multiply(a2, b0), multiply(a0, b2)),
            subtract(multiply(a0, b1), multiply(a1, b0)),
        ],
        -1,
    )
    return moveaxis(c, -1, axisc)
