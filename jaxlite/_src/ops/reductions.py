"""Reductions over axes, arg-reductions and cumulative reductions."""

from __future__ import annotations

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import rules, sharding_hooks
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero, not_mapped
from jaxlite._src.ops import (
    _native,
    elementwise as ew,
    minmax,
    reduce_order,
    shape as _shape,
)
from jaxlite._src.ops._factories import defjvp2, deflinear, dtype_rule_factory, non_differentiable


def _reduced_shape(shape, axes):
    return tuple(s for i, s in enumerate(shape) if i not in axes)


def _check_axes(name, x, axes):
    if any(not 0 <= a < x.ndim for a in axes):
        raise ValueError(
            f"reduction axes {tuple(axes)} contains out-of-bounds indices for {x.str_short()}."
        )
    if len(set(axes)) != len(axes):
        raise ValueError(f"{name}: duplicate value in 'axes': {axes}")


def _reduction(name, np_fn, kinds):
    p = Primitive(name)
    check = dtype_rule_factory(kinds)

    def abstract_eval(x, *, axes):
        check(name, x.dtype)
        _check_axes(name, x, axes)
        return ShapedArray(_reduced_shape(x.shape, axes), x.dtype, x.weak_type)

    def impl(x, *, axes):
        return np.asarray(np_fn(x, axis=axes), dtype=x.dtype)

    def batch(axis_data, args, dims, *, axes):
        (x,), (d,) = args, dims
        new_axes = tuple(a + (a >= d) for a in axes)
        # The batch dim moves left by the number of reduced axes before it.
        out_d = d - sum(a < d for a in new_axes)
        return p.bind(x, axes=new_axes), out_d

    rules.abstract_eval_rules[p] = abstract_eval
    rules.impl_rules[p] = impl
    rules.batch_rules[p] = batch
    return p


def _ordered(ufunc, np_fn):
    """The NumPy reduction ``np_fn``, or where XLA:CPU adds / multiplies floats in its
    window-tree order (``reduce_order``), that order."""

    def fn(x, axis):
        x = np.asarray(x)
        if axis and x.size and reduce_order.tree_order(ufunc, x.dtype, x.size):
            return reduce_order.tree_reduce(ufunc, x, tuple(axis))
        return np_fn(x, axis=axis, dtype=x.dtype)

    return fn


_sum_impl = _ordered(np.add, np.sum)
reduce_sum_p = _reduction("reduce_sum", _sum_impl, "fciu")
rules.native_rules[reduce_sum_p] = _native.reduction("sum", partial_axes=True, kinds="fiu")
rules.native_scalar_rules[reduce_sum_p] = _native.scalar_reduction(
    _native.binary("{0} + {1}"), "fiu", zero_sum=True
)


def _reduce_sum_transpose(ct, x, *, axes):
    if type(ct) is Zero:
        return [Zero(x.aval)]
    shape = x.aval.shape
    kept = tuple(i for i in range(len(shape)) if i not in axes)
    return [_shape.broadcast_in_dim(ct, shape, kept)]


deflinear(reduce_sum_p, _reduce_sum_transpose)


def _lowest(dtype):
    if dtype == np.bool_:
        return False
    if dtypes.is_int(dtype):
        return np.iinfo(dtype).min
    return -np.inf


def _highest(dtype):
    if dtype == np.bool_:
        return True
    if dtypes.is_int(dtype):
        return np.iinfo(dtype).max
    return np.inf


# Empty reductions give the identity (-inf / +inf, or the integer extremes), as in JAX.
# A zero maximum is +0 when any reduced element is +0 (a zero minimum -0 when any is -0),
# as XLA's max/min order -0 < +0 (``minmax``).
def _reduce_max_impl(x, axis):
    r = np.max(x, axis=axis, initial=_lowest(x.dtype))
    return minmax.fix_reduce(r, x, axis, True)


def _reduce_min_impl(x, axis):
    r = np.min(x, axis=axis, initial=_highest(x.dtype))
    return minmax.fix_reduce(r, x, axis, False)


reduce_max_p = _reduction("reduce_max", _reduce_max_impl, "fciub")
reduce_min_p = _reduction("reduce_min", _reduce_min_impl, "fciub")


def _signed_reduction(np_name, greater):
    # The native rule of a whole-array float max/min, then the zero-sign repair.
    plain = _native.reduction(np_name, partial_axes=False)

    def rule(ctx, eqn, ins, outs):
        lines = plain(ctx, eqn, ins, outs)
        x, out = eqn.invars[0].aval, eqn.outvars[0].aval
        if lines is None or np.dtype(x.dtype).kind != "f" or not eqn.params["axes"]:
            return lines
        zero = f"(({ins[0]}) == 0) & {'~' if greater else ''}np.signbit({ins[0]})"
        fixed = ctx.typed(f"{'' if greater else '-'}np.abs({outs[0]})", out)
        return lines + [f"if {outs[0]} == 0 and np.any({zero}):", f"    {outs[0]} = {fixed}"]

    return rule


rules.native_rules[reduce_max_p] = _signed_reduction("max", True)
rules.native_rules[reduce_min_p] = _signed_reduction("min", False)
rules.native_scalar_rules[reduce_max_p] = _native.scalar_reduction(
    _native.binary(minmax.MAX_SCALAR)
)
rules.native_scalar_rules[reduce_min_p] = _native.scalar_reduction(
    _native.binary(minmax.MIN_SCALAR)
)


def _minmax_jvp(p):
    # Gradient flows to every position equal to the extremum, split evenly (as JAX does).
    def jvp(t, ans, x, *, axes):
        shape = aval_of(x).shape
        kept = tuple(i for i in range(len(shape)) if i not in axes)
        ans_b = _shape.broadcast_in_dim(ans, shape, kept)
        hit = ew.eq(x, ans_b)
        counts = reduce_sum(ew.convert_element_type_like(hit, x), axes)
        # A select, not t * indicator: an infinite tangent elsewhere must not give NaN.
        # Where nothing attains the extremum (a NaN in the slice) the derivative is NaN
        # for every position, in reverse mode too (JAX's inf * 0 there): those slices'
        # other positions pass t * NaN, so the transpose's ct / 0 meets a NaN, not a 0
        # (the scale is 0 in the other slices, and selected away forward and backward).
        miss = ew.eq(counts, ew.zeros_like(counts))
        miss_b = _shape.broadcast_in_dim(miss, shape, kept)
        zeros = ew.zeros_like(t)
        scale = ew.select_n(miss_b, zeros, _shape.full(shape, np.nan, aval_of(t).dtype))
        other = ew.select_n(miss_b, zeros, ew.mul(t, scale))
        picked = ew.select_n(hit, other, t)
        return ew.div(reduce_sum(picked, axes), counts)

    defjvp2(p, jvp)


_minmax_jvp(reduce_max_p)
_minmax_jvp(reduce_min_p)

reduce_prod_p = _reduction("reduce_prod", _ordered(np.multiply, np.prod), "fciu")
rules.native_rules[reduce_prod_p] = _native.reduction("prod", partial_axes=False, kinds="fiu")
rules.native_scalar_rules[reduce_prod_p] = _native.scalar_reduction(
    _native.binary("{0} * {1}"), "fiu"
)


def _one(x):
    return _shape.full((), 1, aval_of(x).dtype)


def _zero(x):
    return _shape.full((), 0, aval_of(x).dtype)


def _reduce_prod_jvp(t, ans, x, *, axes):
    # The product as JAX's tree of pairwise multiplies over the (flattened) reduced axis
    # (halves, the second padded with a 1 when odd), differentiated by the product rule:
    # exact at zeros, unlike sum(t * prod / x), and with JAX's association, so products of
    # zeros and infinities give JAX's inf/nan pattern. Its own JVP gives higher derivatives.
    shape = aval_of(x).shape
    kept = tuple(i for i in range(len(shape)) if i not in axes)
    kept_shape = tuple(shape[i] for i in kept)
    n = int(np.prod([shape[i] for i in axes], dtype=np.int64))
    if n == 0:
        return ew.zeros_like(ans)
    perm = kept + tuple(axes)
    ax = len(kept_shape)
    v = _shape.reshape(_shape.transpose(x, perm), kept_shape + (n,))
    dv = _shape.reshape(_shape.transpose(t, perm), kept_shape + (n,))
    while n > 1:
        n1 = (n + 1) // 2
        v1, v2 = _shape.slice_in_dim(v, 0, n1, 1, ax), _shape.slice_in_dim(v, n1, n, 1, ax)
        d1, d2 = _shape.slice_in_dim(dv, 0, n1, 1, ax), _shape.slice_in_dim(dv, n1, n, 1, ax)
        if n - n1 != n1:
            config = [(0, 0, 0)] * (ax + 1)
            config[ax] = (0, 1, 0)
            v2, d2 = _shape.pad(v2, _one(x), config), _shape.pad(d2, _zero(t), config)
        dv = ew.add(ew.mul(d1, v2), ew.mul(v1, d2))
        v = ew.mul(v1, v2)
        n = n1
    return _shape.reshape(dv, kept_shape)


defjvp2(reduce_prod_p, _reduce_prod_jvp)


def _bitwise_reduction(logical, ufunc):
    """``logical`` (np.all / np.any) of booleans, ``ufunc``'s reduction (bitwise) of
    integers, as JAX's reduce_and / reduce_or."""

    def fn(x, axis):
        return logical(x, axis=axis) if x.dtype == np.bool_ else ufunc.reduce(x, axis=axis)

    return fn


reduce_and_p = _reduction("reduce_and", _bitwise_reduction(np.all, np.bitwise_and), "biu")
reduce_or_p = _reduction("reduce_or", _bitwise_reduction(np.any, np.bitwise_or), "biu")
rules.native_rules[reduce_and_p] = _native.reduction("all", partial_axes=False, kinds="b")
rules.native_rules[reduce_or_p] = _native.reduction("any", partial_axes=False, kinds="b")
rules.native_scalar_rules[reduce_and_p] = _native.scalar_reduction(_native.binary("{0} & {1}"), "b")
rules.native_scalar_rules[reduce_or_p] = _native.scalar_reduction(_native.binary("{0} | {1}"), "b")
reduce_xor_p = _reduction(
    "reduce_xor", lambda x, axis: np.bitwise_xor.reduce(x, axis=axis) if axis else x, "biu"
)
for _p in (reduce_and_p, reduce_or_p, reduce_xor_p):
    non_differentiable(_p)


# XLA rewrites a reduction of one element per output (every reduced axis of size 1, or no
# axes) to a reshape, so JAX's result is the element itself: sum([-0.0]) is -0.0 (NumPy's
# 0 + -0.0 is +0.0) and prod([inf + 1j]) is inf + 1j (1 * (inf + 1j) is inf + nanj).
def one_element(shape, axes) -> bool:
    """Whether a reduction of ``shape`` over ``axes`` reduces one element per output."""
    return all(shape[a] == 1 for a in axes)


def _identity_when_one(p):
    impl, native = rules.impl_rules[p], rules.native_rules.get(p)

    def one_impl(x, *, axes):
        if one_element(x.shape, axes):
            return x.reshape(_reduced_shape(x.shape, axes))
        return impl(x, axes=axes)

    def one_native(ctx, eqn, ins, outs):
        x, out = eqn.invars[0].aval, eqn.outvars[0].aval
        if one_element(x.shape, eqn.params["axes"]):
            # A reshape in the kernel's conventions: a shape-() operand (no axes) is a
            # Numba scalar, and a shape-() result of a one-element array is its element.
            return [f"{outs[0]} = {_native.reshape_to(ctx, ins[0], x, out.shape)}"]
        return native(ctx, eqn, ins, outs)

    one_impl.inner = impl  # the impl without the test (``compile/specialize.py``)
    rules.impl_rules[p] = one_impl
    if native is not None:
        rules.native_rules[p] = one_native


for _p in (reduce_sum_p, reduce_prod_p, reduce_max_p, reduce_min_p):
    _identity_when_one(_p)


def reduce_sum(operand, axes, *, out_sharding=None):
    """``jax.lax.reduce_sum`` over ``axes`` (a tuple of non-negative ints);
    ``out_sharding``: the result's sharding."""
    if out_sharding is not None:
        return sharding_hooks.apply_out_sharding(reduce_sum, out_sharding, operand, axes)
    return reduce_sum_p.bind(operand, axes=tuple(int(a) for a in axes))


def reduce_max(operand, axes):
    return reduce_max_p.bind(operand, axes=tuple(int(a) for a in axes))


def reduce_min(operand, axes):
    return reduce_min_p.bind(operand, axes=tuple(int(a) for a in axes))


def reduce_prod(operand, axes):
    return reduce_prod_p.bind(operand, axes=tuple(int(a) for a in axes))


def _check_logical(operand):
    dt = np.dtype(aval_of(operand).dtype)
    if dt != np.bool_ and dt.kind not in "iu":
        raise TypeError(f"logical reduction requires operand dtype bool or int, got {dt.name}.")


def reduce_and(operand, axes):
    """``jax.lax.reduce_and`` over ``axes`` (bool or integer operands, bitwise)."""
    _check_logical(operand)
    return reduce_and_p.bind(operand, axes=tuple(int(a) for a in axes))


def reduce_or(operand, axes):
    """``jax.lax.reduce_or`` over ``axes`` (bool or integer operands, bitwise)."""
    _check_logical(operand)
    return reduce_or_p.bind(operand, axes=tuple(int(a) for a in axes))


def reduce_xor(operand, axes):
    """``jax.lax.reduce_xor`` over ``axes`` (bool or integer operands)."""
    _check_logical(operand)
    return reduce_xor_p.bind(operand, axes=tuple(int(a) for a in axes))


# ---------------------------------------------------------------------- argmax / argmin
def _arg_reduction(name, np_fn):
    p = Primitive(name)

    def abstract_eval(x, *, axes, index_dtype):
        if len(axes) != 1:
            raise ValueError(f"{name} takes exactly one axis, got {axes}")
        if not 0 <= axes[0] < x.ndim:
            raise ValueError(f"Invalid axis {axes[0]} for operand shape {x.shape}")
        if x.shape[axes[0]] == 0:
            # before the dtype check, as JAX
            raise ValueError(
                "argmin and argmax require non-empty reduced dimension. "
                f"operand.shape={x.shape} axis={axes[0]}"
            )
        if dtypes.is_complex(x.dtype):
            # JAX's argmax/argmin compare with gt/lt, which take no complex numbers.
            raise TypeError(
                f"{'gt' if name == 'argmax' else 'lt'} does not accept dtype {x.dtype} at "
                "position 0. Accepted dtypes at position 0 are subtypes of integer, floating, "
                "bool."
            )
        return ShapedArray(_reduced_shape(x.shape, axes), index_dtype)

    def impl(x, *, axes, index_dtype):
        if dtypes.is_inexact(x.dtype):
            # NaN wins, as in JAX (NumPy's argmax already returns the first NaN).
            pass
        return np.asarray(np_fn(x, axis=axes[0]), dtype=index_dtype)

    def batch(axis_data, args, dims, *, axes, index_dtype):
        (x,), (d,) = args, dims
        a = axes[0] + (axes[0] >= d)
        out_d = d - (a < d)
        return p.bind(x, axes=(a,), index_dtype=index_dtype), out_d

    rules.abstract_eval_rules[p] = abstract_eval
    rules.impl_rules[p] = impl
    rules.batch_rules[p] = batch
    non_differentiable(p)
    return p


argmax_p = _arg_reduction("argmax", np.argmax)
argmin_p = _arg_reduction("argmin", np.argmin)


def argmax(operand, axis: int, index_dtype):
    return argmax_p.bind(
        operand, axes=(int(axis),), index_dtype=dtypes.canonicalize_dtype(index_dtype)
    )


def argmin(operand, axis: int, index_dtype):
    return argmin_p.bind(
        operand, axes=(int(axis),), index_dtype=dtypes.canonicalize_dtype(index_dtype)
    )
