"""dot_general: the one contraction primitive (matmul, dot, einsum build on it)."""

from __future__ import annotations

import math

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import rules, sharding_hooks
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero, is_undefined_primal, not_mapped
from jaxlite._src.ops import _native, blas_split, contract_types, conversion, shape as _shape
from jaxlite._src.ops._factories import defjvp
from jaxlite._src.ops.precision import check_precision

dot_general_p = Primitive("dot_general")


def _free_dims(ndim, contract, batch):
    return [i for i in range(ndim) if i not in contract and i not in batch]


def _dot_general_impl(x, y, *, dimension_numbers, precision, preferred_element_type):
    (xc, yc), (xb, yb) = dimension_numbers
    out_dtype = np.dtype(preferred_element_type or x.dtype)
    if contract_types.needs_rule(x.dtype, out_dtype):
        # XLA:CPU's element types (ops/contract_types.py): float8 x float8 -> float32 is
        # exact, int8 x int8 -> int32 does not wrap at int8, bfloat16 -> float16 rounds
        # the bfloat16 product.
        def kernel(a, b):
            return _dot_general_impl(
                a, b, dimension_numbers=dimension_numbers, precision=precision,
                preferred_element_type=None,
            )  # fmt: skip

        return contract_types.contract(kernel, x, y, out_dtype)
    if math.prod([x.shape[i] for i in xc]) == 1:
        # XLA turns a contraction over one element into a product: dot([-0.], [1.]) is
        # -0.0 (BLAS's 0 + -0.0 is +0.0)
        return _dot_one(x, y, xc, yc, xb, yb, out_dtype)
    if not xb and len(xc) == 1 and x.ndim <= 2 and y.ndim <= 2:
        # Vectors and matrices go straight to BLAS (transposes are free views).
        xm = x.T if x.ndim == 2 and xc[0] == 0 else x
        ym = y.T if y.ndim == 2 and yc[0] == 1 else y
        if xm.ndim == 2 and ym.ndim == 2:
            out = blas_split.matmul(xm, ym)  # large products: split across threads
            if out is not None:
                return np.asarray(out, dtype=out_dtype)
        return np.asarray(np.dot(xm, ym), dtype=out_dtype)
    xf = _free_dims(x.ndim, xc, xb)
    yf = _free_dims(y.ndim, yc, yb)
    xt = np.transpose(x, list(xb) + xf + list(xc))
    yt = np.transpose(y, list(yb) + list(yc) + yf)
    bshape = [x.shape[i] for i in xb]
    m = math.prod([x.shape[i] for i in xf])
    k = math.prod([x.shape[i] for i in xc])
    n = math.prod([y.shape[i] for i in yf])
    xt, yt = xt.reshape(bshape + [m, k]), yt.reshape(bshape + [k, n])
    out = blas_split.matmul(xt, yt)  # large products: split across threads
    if out is None:
        out = np.matmul(xt, yt)
    out = out.reshape(bshape + [x.shape[i] for i in xf] + [y.shape[i] for i in yf])
    return np.asarray(out, dtype=out_dtype)


def _dot_one(x, y, xc, yc, xb, yb, out_dtype):
    xf, yf = _free_dims(x.ndim, xc, xb), _free_dims(y.ndim, yc, yb)
    bshape = [x.shape[i] for i in xb]
    xt = np.transpose(x, list(xb) + xf + list(xc)).reshape(bshape + [x.shape[i] for i in xf])
    yt = np.transpose(y, list(yb) + yf + list(yc)).reshape(bshape + [y.shape[i] for i in yf])
    xt = xt.reshape(xt.shape + (1,) * len(yf))
    yt = yt.reshape(tuple(bshape) + (1,) * len(xf) + tuple(y.shape[i] for i in yf))
    return np.asarray(np.multiply(xt, yt), dtype=out_dtype)


def _dot_general_abstract_eval(x, y, *, dimension_numbers, precision, preferred_element_type):
    (xc, yc), (xb, yb) = dimension_numbers
    if len(xc) != len(yc) or len(xb) != len(yb):
        raise TypeError(
            f"dot_general requires equal numbers of contracting and batch "
            f"dimensions, got dimension_numbers {dimension_numbers}"
        )
    for a, b in zip(xc, yc):
        if x.shape[a] != y.shape[b]:
            raise TypeError(
                "dot_general requires contracting dimensions to have the same shape, got "
                f"{tuple(x.shape[i] for i in xc)} and {tuple(y.shape[i] for i in yc)}."
            )
    for a, b in zip(xb, yb):
        if x.shape[a] != y.shape[b]:
            raise TypeError(
                "dot_general requires lhs batch dimensions and rhs batch dimensions to have "
                f"the same shape, got {tuple(x.shape[i] for i in xb)} and "
                f"{tuple(y.shape[i] for i in yb)}."
            )
    if x.dtype != y.dtype:
        raise TypeError(
            "dot_general requires operands of the same dtype, got "
            f"{dtypes.short_name(x.dtype)} and {dtypes.short_name(y.dtype)}"
        )
    shape = (
        [x.shape[i] for i in xb]
        + [x.shape[i] for i in _free_dims(x.ndim, xc, xb)]
        + [y.shape[i] for i in _free_dims(y.ndim, yc, yb)]
    )
    dtype = preferred_element_type or x.dtype
    return ShapedArray(shape, dtype, x.weak_type and y.weak_type)


def _dot_general_transpose_lhs(
    ct, y, x_aval, dimension_numbers, preferred_element_type, swap=False
):
    (xc, yc), (xb, yb) = dimension_numbers
    x_ndim = x_aval.ndim
    y_ndim = aval_of(y).ndim
    nb = len(xb)
    xf = _free_dims(x_ndim, xc, xb)
    yf = _free_dims(y_ndim, yc, yb)
    if swap:
        ct_yf = list(range(nb, nb + len(yf)))
    else:
        ct_yf = list(range(nb + len(xf), nb + len(xf) + len(yf)))
    y_rest = [xc[list(yc).index(d)] for d in sorted(yc)]  # x axes of y's remaining dims
    params = dict(precision=None, preferred_element_type=None)
    ct_dtype = aval_of(ct).dtype
    if ct_dtype != aval_of(y).dtype:
        # A preferred_element_type made the cotangent wider than the operands (float16
        # operands accumulated in float32): multiply in the cotangent's type, then cast
        # to x's below.
        y = conversion.convert_element_type(y, ct_dtype)
    if not nb and y_rest + xf == sorted(y_rest + xf):
        # Putting y first gives x's axis order directly: no transpose, so the cotangent has
        # x's memory layout (a transposed view would make later updates like
        # ``w - lr * g`` stride-mismatched and several times slower).
        dims = ((tuple(yf), tuple(ct_yf)), ((), ()))
        out = dot_general_p.bind(y, ct, dimension_numbers=dims, **params)
    else:
        dims = ((tuple(ct_yf), tuple(yf)), (tuple(range(nb)), tuple(yb)))
        out = dot_general_p.bind(ct, y, dimension_numbers=dims, **params)
        x_axes = list(xb) + xf + y_rest
        out = _shape.transpose(out, tuple(int(i) for i in np.argsort(x_axes)))
    if aval_of(out).dtype != x_aval.dtype:
        out = conversion.convert_element_type(out, x_aval.dtype, x_aval.weak_type)
    return out


def _dot_general_transpose(ct, x, y, *, dimension_numbers, precision, preferred_element_type):
    (xc, yc), (xb, yb) = dimension_numbers
    if type(ct) is Zero:
        return [
            Zero(x.aval) if is_undefined_primal(x) else None,
            Zero(y.aval) if is_undefined_primal(y) else None,
        ]
    ct_x = ct_y = None
    if is_undefined_primal(x):
        ct_x = _dot_general_transpose_lhs(ct, y, x.aval, dimension_numbers, preferred_element_type)
    if is_undefined_primal(y):
        swapped = ((yc, xc), (yb, xb))
        ct_y = _dot_general_transpose_lhs(ct, x, y.aval, swapped, preferred_element_type, swap=True)
    return [ct_x, ct_y]


def _shift(dims, by=1):
    return tuple(d + by for d in dims)


def _dot_general_batch(
    axis_data, args, dims, *, dimension_numbers, precision, preferred_element_type
):
    (x, y), (dx, dy) = args, dims
    (xc, yc), (xb, yb) = dimension_numbers
    params = dict(precision=precision, preferred_element_type=preferred_element_type)
    if dx is not not_mapped and dy is not not_mapped:
        x = _shape.moveaxis(x, dx, 0)
        y = _shape.moveaxis(y, dy, 0)
        dn = ((_shift(xc), _shift(yc)), ((0,) + _shift(xb), (0,) + _shift(yb)))
        return dot_general_p.bind(x, y, dimension_numbers=dn, **params), 0
    if dx is not not_mapped:
        x = _shape.moveaxis(x, dx, 0)
        dn = ((_shift(xc), yc), (_shift(xb), yb))
        return dot_general_p.bind(x, y, dimension_numbers=dn, **params), len(xb)
    y = _shape.moveaxis(y, dy, 0)
    dn = ((xc, _shift(yc)), (xb, _shift(yb)))
    nxf = aval_of(x).ndim - len(xc) - len(xb)
    return dot_general_p.bind(x, y, dimension_numbers=dn, **params), len(xb) + nxf


def _dot_jvp_lhs(t, x, y, **params):
    return dot_general_p.bind(t, y, **params)


def _dot_jvp_rhs(t, x, y, **params):
    return dot_general_p.bind(x, t, **params)


rules.impl_rules[dot_general_p] = _dot_general_impl


def _dot_one_native(eqn) -> tuple | None:
    """(free dims of x, free dims of y) when ``eqn`` is a product over one element (no batch
    dims, contracted dims of size 1 or none) of one integer or float dtype: ``_dot_one``,
    an outer product of the free dims (a vector times a scalar in a sampler's step)."""
    (xc, yc), (xb, yb) = eqn.params["dimension_numbers"]
    x, y = (v.aval for v in eqn.invars)
    out = eqn.outvars[0].aval
    if xb or math.prod(x.shape[i] for i in xc) != 1 or not (x.dtype == y.dtype == out.dtype):
        return None
    if np.dtype(x.dtype).kind not in "fiu":
        return None
    return _free_dims(x.ndim, xc, xb), _free_dims(y.ndim, yc, yb)


def _dot_one_native_rule(ctx, eqn, ins, outs, free):
    # The free dims keep their order and the contracted ones have one element: reshapes.
    x, y = (v.aval for v in eqn.invars)
    xf, yf = free
    xs = [x.shape[i] for i in xf] + [1] * len(yf)
    ys = [1] * len(xf) + [y.shape[i] for i in yf]
    xr = _native.reshape_to(ctx, ins[0], x, xs if xs else ())
    yr = _native.reshape_to(ctx, ins[1], y, ys if ys else ())
    return [f"{outs[0]} = {ctx.typed(f'{xr} * {yr}', eqn.outvars[0].aval)}"]


def _dot_general_scalar(ctx, eqn, ops):
    # Small outer products element by element (the same single multiplications).
    free = _dot_one_native(eqn)
    if free is None:
        return None
    (xo, yo), (xf, yf), out = ops, free, eqn.outvars[0].aval
    nx = math.prod(xo.aval.shape[i] for i in xf)
    ny = math.prod(yo.aval.shape[i] for i in yf)
    lines, res = [], []
    for i in range(nx):
        for j in range(ny):
            e = ctx.fresh("e")
            lines.append(
                f"{e} = {ctx.typed(f'{xo.elem(i)} * {yo.elem(j)}', ShapedArray((), out.dtype))}"
            )
            res.append(e)
    return lines, [res]


def _dot_general_native(ctx, eqn, ins, outs):
    # Vectors and matrices of one float dtype: np.dot (BLAS), as the Python tier's fast path.
    free = _dot_one_native(eqn)
    if free is not None:
        return _dot_one_native_rule(ctx, eqn, ins, outs, free)
    (xc, yc), (xb, yb) = eqn.params["dimension_numbers"]
    x, y = (v.aval for v in eqn.invars)
    out = eqn.outvars[0].aval
    if xb or len(xc) != 1 or not (1 <= x.ndim <= 2 and 1 <= y.ndim <= 2):
        return None
    if x.dtype != y.dtype or out.dtype != x.dtype or x.dtype not in (np.float32, np.float64):
        return None
    if x.shape[xc[0]] == 1:  # a product, not BLAS's 0 + product (the Python tier's rule)
        return None
    xm = f"{ins[0]}.T" if x.ndim == 2 and xc[0] == 0 else ins[0]
    ym = f"{ins[1]}.T" if y.ndim == 2 and yc[0] == 1 else ins[1]
    expr = f"np.dot(np.ascontiguousarray({xm}), np.ascontiguousarray({ym}))"
    return [f"{outs[0]} = {ctx.typed(expr, out)}"]


rules.native_rules[dot_general_p] = _dot_general_native
rules.native_scalar_rules[dot_general_p] = _dot_general_scalar
rules.fresh_output.add(dot_general_p)
rules.abstract_eval_rules[dot_general_p] = _dot_general_abstract_eval
rules.transpose_rules[dot_general_p] = _dot_general_transpose
rules.batch_rules[dot_general_p] = _dot_general_batch
defjvp(dot_general_p, _dot_jvp_lhs, _dot_jvp_rhs)


# JAX's float8 types whose mixed products XLA computes without first converting both
# operands to the result type (its CPU lowering converts any other mixed pair).
_FP8_NAMES = (
    "float8_e4m3fn",
    "float8_e5m2",
    "float8_e5m2fnuz",
    "float8_e4m3fnuz",
    "float8_e3m4",
    "float8_e4m3",
    "float8_e8m0fnu",
)


def _operand_dtype(lt, rt, pet):
    """``(higher, common)`` for ``dot_general`` operands of dtypes ``lt`` != ``rt``: the
    operand type of higher precision, and the one dtype both are converted to, as JAX's CPU
    lowering does: the result type (``pet``, else ``higher``); for two float8 types,
    ``higher`` unless ``pet`` is higher still."""
    kl, kr = contract_types.precision_key(lt), contract_types.precision_key(rt)
    if kl == kr:
        raise TypeError(f"lax.dot_general argument type error: {lt}, {rt}")
    higher = lt if kl > kr else rt
    if pet is None:
        return higher, higher
    fp8 = {d for d in dtypes.float8_types if d.name in _FP8_NAMES}
    if lt in fp8 and rt in fp8:
        if contract_types.precision_key(pet) <= max(kl, kr):
            return higher, higher
    return higher, pet


def dot_general(
    lhs, rhs, dimension_numbers, precision=None, preferred_element_type=None, out_sharding=None
):
    """``jax.lax.dot_general``: contract ``lhs`` and ``rhs``.

    Args:
        dimension_numbers: ``((lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch))``.
        out_sharding: the result's sharding (a ``NamedSharding``, or a ``P`` under
            ``jax.set_mesh``); it resolves contracting dimensions sharded on both sides.
    Returns:
        An array of shape ``batch + lhs_free + rhs_free``.
    """
    if out_sharding is not None:
        return sharding_hooks.apply_out_sharding(
            dot_general,
            out_sharding,
            lhs,
            rhs,
            dimension_numbers,
            precision,
            preferred_element_type,
        )
    check_precision(precision)
    (xc, yc), (xb, yb) = dimension_numbers
    dn = (
        (tuple(int(i) for i in xc), tuple(int(i) for i in yc)),
        (tuple(int(i) for i in xb), tuple(int(i) for i in yb)),
    )
    pet = (
        None
        if preferred_element_type is None
        else dtypes.canonicalize_dtype(preferred_element_type)
    )
    lt, rt = aval_of(lhs).dtype, aval_of(rhs).dtype
    higher = lt
    if lt != rt:
        higher, common = _operand_dtype(lt, rt, pet)
        lhs = conversion.convert_element_type(lhs, common)
        rhs = conversion.convert_element_type(rhs, common)
    if pet is not None:  # (on the operand type of higher precision, before any conversion)
        _check_preferred_narrowing(higher, pet)
    return dot_general_p.bind(
        lhs, rhs, dimension_numbers=dn, precision=None, preferred_element_type=pet
    )


def _bit_width(dt) -> int:
    dt = np.dtype(dt)
    return 1 if dt == np.bool_ else 8 * dt.itemsize // (2 if dt.kind == "c" else 1)


def _check_preferred_narrowing(result_dtype, pet) -> None:
    """JAX's rule: a non-floating product (integer, bool, complex) may not be accumulated in
    a narrower ``preferred_element_type`` (int16 operands with int8, int32 with float16);
    floating products may (float32 with bfloat16 or int8 is allowed)."""
    if np.dtype(result_dtype).kind != "f" and _bit_width(pet) < _bit_width(result_dtype):
        raise TypeError(
            "`preferred_element_type` must not be narrower than the original type, got "
            f"preferred_element_type of {np.dtype(pet).name} for result type of "
            f"{np.dtype(result_dtype).name}."
        )


def dot(
    lhs,
    rhs,
    *,
    dimension_numbers=None,
    precision=None,
    preferred_element_type=None,
    out_sharding=None,
):
    """``jax.lax.dot``: ``dot_general`` with ``dimension_numbers`` (contracting and batch
    dimensions, each an int or a tuple); without them, a vector/matrix product (operands of
    rank 1 or 2, ``lhs``'s last dimension against ``rhs``'s first). ``out_sharding``: as
    ``dot_general``.

    Raises:
        ValueError: no ``dimension_numbers`` for operands that are not vectors or matrices
            with matching inner dimensions (JAX's message).
    """
    check_precision(precision)
    xs, ys = aval_of(lhs).shape, aval_of(rhs).shape
    if dimension_numbers is None:
        if 1 <= len(xs) <= 2 and 1 <= len(ys) <= 2 and xs[-1] == ys[0]:
            dimension_numbers = (((len(xs) - 1,), (0,)), ((), ()))
        else:
            raise ValueError(
                "jax.lax.dot: dimension_numbers must be specified when not performing simple "
                "un-batched matrix-matrix, matrix-vector, or vector-vector products; got "
                f"lhs_shape={xs} rhs_shape={ys}"
            )
    (lc, rc), (lb, rb) = dimension_numbers
    dims = ((_index_tuple(lc), _index_tuple(rc)), (_index_tuple(lb), _index_tuple(rb)))
    return dot_general(lhs, rhs, dims, precision, preferred_element_type, out_sharding)


def _index_tuple(d):
    return (int(d),) if isinstance(d, (int, np.integer)) else tuple(int(i) for i in d)
