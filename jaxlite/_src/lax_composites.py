"""``jax.lax`` functions built on other operations here: ``cumlogsumexp`` (a primitive whose
JVP is an associative scan of ``logaddexp``), ``optimization_barrier`` (the identity:
jaxlite has no compiler to stop), ``stack``, ``unstack`` and ``split`` (reshapes,
concatenations and slices).

JAX has a primitive for each; here all but ``cumlogsumexp`` are built from existing
primitives, so jit, vmap and the derivatives come from those primitives' rules.
"""

from __future__ import annotations

import operator

import numpy as np

from jaxlite._src import dtypes, tree_util
from jaxlite._src.control_flow.scan import associative_scan
from jaxlite._src.core import rules
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.trace import new_array
from jaxlite._src.interpreters.jvp import jvp_flat
from jaxlite._src.numpy.ufuncs_extra import logaddexp
from jaxlite._src.numpy.util import asarray_any, canonicalize_axis, lax_asarray
from jaxlite._src.ops import cumulative as _cumulative, shape as _sh, split as _split_op
from jaxlite._src.ops.lax_strict import check_cumulative
from jaxlite._src.ops.sharding_rules import _cumulative_rule

cumlogsumexp_p = Primitive("cumlogsumexp")


def _cumlogsumexp_abstract_eval(x, *, axis, reverse):
    return x  # the operand's aval, weak type included (JAX's standard rule)


def _cumlogsumexp_impl(x, *, axis, reverse):
    if dtypes.is_int(x.dtype):
        # JAX's lowering makes the reduction's initial value, -inf, in the operand's dtype.
        raise OverflowError("cannot convert float infinity to integer")
    if x.ndim == 0:
        return x
    if dtypes.is_complex(x.dtype):
        return _complex_cumlogsumexp(x, axis, reverse)
    # XLA's reduce-window scan (``ops/cumulative``: blocks of 16, block totals scanned the
    # same way); a 16-bit logaddexp computes in float32 and rounds (ml_dtypes, as XLA)
    with np.errstate(all="ignore"):
        out = _cumulative._xla_scan(np.moveaxis(x, axis, -1), np.logaddexp, -np.inf, reverse)
    return np.asarray(np.moveaxis(out, -1, axis), dtype=x.dtype)


def _complex_logaddexp_np(a, b):
    """JAX's complex ``logaddexp``: shifted by the larger operand (lexicographic
    ``max``), ``amax + log1p(exp(a + b - 2 amax))`` with the imaginary part wrapped into
    ``[-pi, pi]`` (``rem``, then ``+ 2 pi`` where negative). The doubling is a complex
    product, so an infinite ``amax`` gives NaN as in JAX."""
    amax = np.maximum(a, b)
    out = amax + np.log1p(np.exp((a + b) - amax * np.asarray(2, a.dtype)))
    pi = np.asarray(np.pi, out.real.dtype)
    rem = np.fmod(out.imag + pi, 2 * pi)
    rem = np.where(rem < 0, rem + 2 * pi, rem)
    return (out.real + 1j * (rem - pi)).astype(a.dtype)


def _complex_cumlogsumexp(x, axis, reverse):
    """XLA's reduce-window: output ``i`` folds ``logaddexp`` from -inf over its window in
    order (``x[0..i]``, or ``x[i..n-1]`` when ``reverse``); so a first element with an
    infinite real part gives NaN, as in JAX."""
    y = np.moveaxis(x, axis, 0)
    n = y.shape[0]
    acc = np.full(y.shape, complex(-np.inf, 0), x.dtype)
    with np.errstate(all="ignore"):
        if not reverse:
            out = np.empty_like(y)
            prev = acc[0]
            for i in range(n):
                prev = out[i] = _complex_logaddexp_np(prev, y[i])
        else:
            out = acc
            for k in range(n):  # step k adds x[i + k] to output i's fold
                out[: n - k] = _complex_logaddexp_np(out[: n - k], y[k:])
    return np.moveaxis(out, 0, axis)


def _cumlogsumexp_batch(axis_data, args, dims, *, axis, reverse):
    (x,), (d,) = args, dims
    return cumlogsumexp_p.bind(x, axis=axis + (axis >= d), reverse=reverse), d


def _cumlogsumexp_jvp(primals, tangents, *, axis, reverse):
    # JAX's: the JVP of an associative scan of logaddexp, primal output included (so it
    # is strongly typed past one element, like every associative scan's result).
    def scan(a):
        return [associative_scan(logaddexp, a, reverse=reverse, axis=axis)]

    (out,), (t_out,) = jvp_flat(scan, primals, tangents)
    return out, t_out


rules.abstract_eval_rules[cumlogsumexp_p] = _cumlogsumexp_abstract_eval
rules.impl_rules[cumlogsumexp_p] = _cumlogsumexp_impl
rules.batch_rules[cumlogsumexp_p] = _cumlogsumexp_batch
rules.jvp_rules[cumlogsumexp_p] = _cumlogsumexp_jvp
rules.sharding_rules[cumlogsumexp_p] = _cumulative_rule


def cumlogsumexp(operand, axis: int = 0, reverse: bool = False):
    """Cumulative ``log(sum(exp(x)))`` along ``axis`` (``jax.lax.cumlogsumexp``).

    A running ``logaddexp``, so every prefix is exact in its own scale (no common shift
    that would underflow small prefixes); weakly typed for a weak operand, and, as in JAX,
    strongly typed under differentiation (whose rule is an associative scan).

    Args:
      operand: a floating-point or complex array (for complex operands the imaginary
        parts are kept in ``[-pi, pi]``, JAX's complex ``logaddexp``).
      axis: the axis to accumulate along (non-negative, as in JAX).
      reverse: accumulate from the end.

    Returns:
      An array of ``operand``'s shape and dtype.

    Raises:
      TypeError: for bool operands.
      OverflowError: for integer operands, when computed (as JAX's: -inf is no integer).
      ValueError: for a negative ``axis`` or one past the operand's rank.
    """
    axis = check_cumulative("cumlogsumexp", operand, axis)  # a list: JAX's bind TypeError
    return cumlogsumexp_p.bind(asarray_any(operand), axis=axis, reverse=bool(reverse))


def optimization_barrier(operand, /):
    """``jax.lax.optimization_barrier``: the identity on a pytree of arrays.

    In JAX it keeps XLA from moving computations across it; jaxlite compiles no fused
    program that could, so it only converts the leaves to arrays. Differentiable and
    batchable as the identity.

    Args:
      operand: a pytree of arrays or scalars.

    Returns:
      The same pytree with every leaf an array (Python scalars weakly typed).
    """
    return tree_util.tree_map(lambda x: new_array(asarray_any(x)), operand)


def stack(operands, axis: int = 0):
    """Stack arrays of one shape and dtype along a new ``axis`` (``jax.lax.stack``).

    Args:
      operands: a non-empty sequence of arrays of one dtype (Python scalars are not
        converted to the others' dtype, as in JAX).
      axis: where the new axis goes (negative counts from the end of the result).

    Returns:
      An array of shape ``shape[:axis] + (len(operands),) + shape[axis:]``.

    Raises:
      ValueError: for operands of different shapes.
      TypeError: for operands of different (strong) dtypes.
    """
    xs = [asarray_any(x) for x in operands]
    shapes = [tuple(aval_of(x).shape) for x in xs]
    if len(set(shapes)) != 1:
        raise ValueError(
            "All input arrays must have the same shape. Got " + ", ".join(map(str, shapes)) + "."
        )
    dts = [aval_of(x).dtype for x in xs]
    if len(set(dts)) != 1:
        raise TypeError(
            "lax.stack requires arguments to have the same dtypes, got "
            + ", ".join(np.dtype(d).name for d in dts)
            + "."
        )
    axis = canonicalize_axis(operator.index(axis), len(shapes[0]) + 1)
    return _sh.concatenate([_sh.expand_dims(x, (axis,)) for x in xs], axis)


def unstack(x, axis: int = 0):
    """Split ``x`` into the slices along ``axis``, that axis removed (``jax.lax.unstack``).

    Returns:
      A tuple of ``x.shape[axis]`` arrays.
    """
    x = lax_asarray(x)
    axis = canonicalize_axis(operator.index(axis), x.ndim)
    return tuple(
        _sh.squeeze(_sh.slice_in_dim(x, i, i + 1, axis=axis), (axis,)) for i in range(x.shape[axis])
    )


def split(operand, sizes, axis: int = 0):
    """Split ``operand`` along ``axis`` into pieces of the given static sizes
    (``jax.lax.split``).

    Args:
      operand: an array.
      sizes: non-negative piece lengths summing to ``operand.shape[axis]``.
      axis: the axis to split.

    Returns:
      A list of arrays.

    Raises:
      ValueError: when the sizes do not sum to the axis length, or a size is negative.
    """
    x = lax_asarray(operand)
    axis = canonicalize_axis(operator.index(axis), x.ndim)
    # the sizes are checked by the primitive's abstract evaluation, which runs eagerly too
    # (and under vmap sees the batched operand, whose shape JAX's message names)
    return _split_op.split(x, [operator.index(s) for s in sizes], axis)
