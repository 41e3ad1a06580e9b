"""``jax.numpy`` statistics: ``average``, ``median``, ``quantile``, ``percentile`` (and the
nan- forms), ``cov``, ``corrcoef``, ``bincount``, ``digitize``, ``histogram``,
``histogram_bin_edges``."""

from __future__ import annotations

import builtins
import operator

import numpy as np
from jaxlite._src import config as _cfg, dtypes
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.errors import ConcretizationTypeError
from jaxlite._src.core.sharding_types import ShardingTypeError
from jaxlite._src.core.trace import Tracer, concrete_index
from jaxlite._src.numpy import reductions, ufuncs
from jaxlite._src.numpy.creation import (
    full,
    full_like,
    linspace,
    ones,
    ones_like,
    zeros,
    zeros_like,
)
from jaxlite._src.numpy.indexing_routines import diagonal
from jaxlite._src.numpy.products import matmul
from jaxlite._src.numpy.reductions import _int_dtype, mean
from jaxlite._src.numpy.shape import (
    _reduction_axes,
    atleast_2d,
    broadcast_to,
    concatenate,
    ravel,
    reshape,
    squeeze,
    transpose,
)
from jaxlite._src.numpy.sorting import argsort, search_index_dtype, searchsorted
from jaxlite._src.numpy.ufuncs import (
    add,
    ceil,
    clip,
    conj,
    divide,
    equal,
    floor,
    greater_equal,
    less_equal,
    logical_and,
    logical_not,
    maximum,
    multiply,
    sqrt,
    subtract,
    where,
)
from jaxlite._src.numpy.util import (
    _rank_promotion_check,
    asarray_any,
    canonicalize_axis,
    check_arraylike,
    promote_dtypes_inexact,
)
from jaxlite._src.ops import (
    division,
    elementwise as ew,
    indexing as _ix,
    lax_api,
    shape as _sh,
    sorting as _sort,
)
from jaxlite._src.ops.conversion import convert_element_type
from jaxlite._src.ops.xla_fma import fma
from jaxlite._src.sharding import explicit as _explicit


def _cov_weights(name, w, n, integer):
    w = asarray_any(w)
    if w.ndim > 1:
        raise RuntimeError(f"cannot handle multidimensional {name}")
    if w.shape[0] != n:
        raise RuntimeError(f"incompatible numbers of samples and {name}")
    if integer and not dtypes.is_int(w.dtype):
        raise TypeError("fweights must be integer.")
    return ufuncs.abs(w)  # JAX takes |w| (NumPy raises for negative weights)


def cov(
    m,
    y=None,
    rowvar: bool = True,
    bias: bool = False,
    ddof=None,
    fweights=None,
    aweights=None,
    dtype=None,
):
    """``jnp.cov``: the covariance matrix of the variables (rows by default).

    Args:
        m: 1-D or 2-D array; each row a variable, each column an observation (``rowvar``).
        y: more variables, stacked under ``m``'s.
        rowvar: False when the variables are the columns.
        bias: normalise by N instead of N - 1 (when ``ddof`` is None).
        ddof: the delta degrees of freedom (overrides ``bias``).
        fweights: 1-D integer frequency weights, one per observation.
        aweights: 1-D observation weights.
        dtype: an inexact dtype to compute in.

    Returns:
        ``(V, V)`` for V variables (a scalar for one variable).

    Raises:
        ValueError: for more than 2 dimensions or a non-inexact ``dtype``.
        RuntimeError: for weights of the wrong rank or length (JAX's messages).
        TypeError: for non-integer ``fweights``.
    """
    # JAX's order: m and y promoted together (dtype and rank), their ranks checked, then
    # the dtype; no variables gives a (0, 0) array, no observations NaN (both before any
    # ``dtype`` cast).
    if y is not None:
        check_arraylike("cov", m, y)
        m, y = promote_dtypes_inexact(asarray_any(m), asarray_any(y))
        _rank_promotion_check("cov", [m, y])
        if m.ndim != y.ndim:
            # as JAX's promote_shapes: shapes of two ranks must broadcast, but only the
            # ranks are promoted (leading size-1 axes)
            try:
                np.broadcast_shapes(m.shape, y.shape)
            except ValueError:
                shapes = [m.shape, y.shape]
                raise ValueError(f"Incompatible shapes for broadcasting: shapes={shapes}") from None
            r = builtins.max(m.ndim, y.ndim)
            m, y = (reshape(a, (1,) * (r - a.ndim) + a.shape) for a in (m, y))
        if y.ndim > 2:
            raise ValueError("y has more than 2 dimensions")
    else:
        check_arraylike("cov", m)
        (m,) = promote_dtypes_inexact(asarray_any(m))
    if m.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if dtype is not None and not dtypes.is_inexact(np.dtype(dtype)):
        raise ValueError(f"cov: dtype must be a subclass of float or complex; got {dtype=}")
    x = atleast_2d(m)
    if not rowvar and m.ndim != 1:
        x = x.T
    if x.shape[0] == 0:
        return zeros((0, 0), dtypes.default_float_dtype())
    if y is not None:
        y = atleast_2d(y)
        if not rowvar and y.shape[0] != 1:
            y = y.T
        x = concatenate([x, y], 0)
    if x.shape[1] == 0:
        return full(() if x.shape[0] == 1 else (x.shape[0],) * 2, np.nan, x.dtype)
    if ddof is None:  # JAX's test is ``bias == 0``: bias=None divides by N, as bias=True
        ddof = 1 if bias == 0 else 0
    n = x.shape[1]
    w = None
    if fweights is not None:
        w = _cov_weights("fweights", fweights, n, True)
    if aweights is not None:
        aweights = _cov_weights("aweights", aweights, n, False)
        w = aweights if w is None else multiply(w, aweights)
    if dtype is not None:
        x = x.astype(dtype)
        w = None if w is None else w.astype(dtype)
    avg, w_sum = average(x, axis=1, weights=w, returned=True)
    w_sum = w_sum[0]
    if w is None:
        fact = n - ddof
    elif ddof == 0:
        fact = w_sum
    elif aweights is None:
        fact = subtract(w_sum, ddof)
    else:
        fact = subtract(w_sum, divide(multiply(ddof, reductions.sum(multiply(w, aweights))), w_sum))
    c = subtract(x, avg[:, None])
    c_t = c.T if w is None else multiply(c, w[None, :]).T
    return squeeze(divide(matmul(c, conj(c_t)), fact))


def corrcoef(x, y=None, rowvar: bool = True, dtype=None):
    """``jnp.corrcoef``: Pearson correlation coefficients, computed in ``dtype`` (an inexact
    type; passed to ``cov``). Complex input keeps its phase: the real and imaginary parts
    are each clipped to [-1, 1]."""
    check_arraylike("corrcoef", x)
    if dtype is not None and not dtypes.issubdtype(dtype, np.inexact):
        raise ValueError(f"corrcoef: dtype must be a subclass of float or complex; got {dtype=}")
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return divide(c, c)
    d = diagonal(c)
    sd = sqrt(ufuncs.real(d)).astype(c.dtype)
    out = divide(divide(c, sd[:, None]), sd[None, :])
    re = clip(ufuncs.real(out), -1, 1)
    if dtypes.is_complex(out.dtype):
        return ew.complex_(re, clip(ufuncs.imag(out), -1, 1))
    return re


def histogram_bin_edges(a, bins=10, range=None, weights=None):  # noqa: A002
    """``jnp.histogram_bin_edges``: ``bins`` itself (in ``a``'s inexact dtype) when it is
    1-d, else ``bins + 1`` edges spanning ``range`` (the data's, by default).

    Raises:
      TypeError: ``a`` or ``bins`` a list or tuple; a non-integer count.
      NotImplementedError: a string ``bins``.
      ValueError: a ``range`` not of two values.
    """
    del weights  # as JAX: string bins, the only use NumPy has for them, are refused
    if isinstance(bins, str):
        raise NotImplementedError("string values for `bins` not implemented.")
    check_arraylike("histogram_bin_edges", a, bins)
    a = asarray_any(a)
    return _bin_edges(a, bins, range, dtypes.to_inexact_dtype(a.dtype))


def _bin_edges(a, bins, range, dt):  # noqa: A002
    if np.ndim(bins) == 1:
        return asarray_any(bins).astype(dt)
    count = concrete_index(bins, "bins argument of histogram_bin_edges")
    if range is None:
        lo, hi = reductions.min(a), reductions.max(a)
    else:
        r = asarray_any(range).astype(dt)
        if r.shape != (2,):
            raise ValueError(f"`range` must be either None or a sequence of scalars, got {r}")
        lo, hi = r[0], r[1]
    lo, hi = lo.astype(dt), hi.astype(dt)
    # An empty range (constant data) is widened to +-0.5 around it, as NumPy and JAX do.
    same = equal(lo, hi)
    lo, hi = where(same, subtract(lo, 0.5), lo), where(same, add(hi, 0.5), hi)
    return linspace(lo, hi, count + 1, dtype=dt)


def _move_to_last(a, axis):
    """Move the reduced axes to one trailing axis; returns (array, kept shape, axes)."""
    axes = _reduction_axes(a, axis)
    rest = [i for i in range(a.ndim) if i not in axes]
    t = transpose(a, rest + list(axes))
    kept = tuple(a.shape[i] for i in rest)
    n = int(np.prod([a.shape[i] for i in axes], dtype=np.int64))
    return reshape(t, kept + (n,)), kept, axes


_METHODS = ("linear", "lower", "higher", "midpoint", "nearest", "inverted_cdf")


def _quantile_weights(a, weights, axis, method):
    """JAX's checks of quantile ``weights``; returns them broadcast to ``a``'s shape."""
    w = asarray_any(weights)
    if dtypes.is_complex(w.dtype):
        raise ValueError("Weights cannot be complex types.")
    if method != "inverted_cdf":
        raise NotImplementedError(
            f"{method} doesn't support weights. Only method 'inverted_cdf' supports weights."
        )
    a, w = promote_dtypes_inexact(a, w)
    if w.shape != a.shape:
        if axis is None:
            raise ValueError("Weights shape must match 'a' shape when axis is None.")
        axes = _reduction_axes(a, axis)
        want = tuple(a.shape[i] for i in axes)
        if w.shape != want:
            raise ValueError(f"Weights shape {w.shape} must match reduction axes {want}")
        shape = [a.shape[i] if i in axes else 1 for i in range(a.ndim)]
        w = broadcast_to(reshape(w, shape), a.shape)
    return a, w


def _inverted_cdf(s, ws, qe, count, isnan_sorted):
    """The first sorted value whose cumulative weight reaches ``q * total`` (NumPy's
    ``inverted_cdf``); NaNs and negative or NaN weights weigh nothing."""
    bad_w = ufuncs.logical_or(ufuncs.less(ws, 0), ufuncs.isnan(ws))
    clean = where(ufuncs.logical_or(bad_w, isnan_sorted), zeros_like(ws), ws)
    cw = reductions.cumsum(clean, axis=-1)
    total = _sh.slice_in_dim(cw, cw.shape[-1] - 1, cw.shape[-1], 1, cw.ndim - 1)
    below = ufuncs.less(cw, multiply(qe, total))  # q.shape + kept + (n,)
    idx = reductions.sum(below.astype(np.int32), axis=-1, keepdims=True)
    idx = clip(idx, 0, maximum(subtract(count, 1), 0).astype(np.int32))
    return idx, reductions.any(bad_w, axis=-1)


def _quantile(a, q, axis, method, keepdims, ignore_nan, name, weights=None, percent=False):
    """JAX's quantile: positions, weights and the linear interpolation are computed in
    ``q``'s own (inexact) dtype, the result cast to ``a``'s (float16 ``q`` on float32 data
    interpolates in float16, as JAX). ``percent``: ``q`` is in percent, divided by 100 as
    JAX's compiled ``percentile`` does it (``_percent_positions``)."""
    # The broadcasts of ``q`` against the data are internal: as JAX's, they never raise
    # under jax_numpy_rank_promotion="raise".
    with _cfg.numpy_rank_promotion("allow"):
        return _quantile_impl(a, q, axis, method, keepdims, ignore_nan, name, weights, percent)


def _recip_100(dt):
    """``1 / 100`` rounded in ``dt``, by which XLA multiplies for a division by 100; None
    for bfloat16 (computed in float32 by XLA:CPU, no reciprocal: it divides exactly)."""
    dt = np.dtype(dt)
    return np.true_divide(dt.type(1), dt.type(100)) if dt in division.RECIP_DTYPES else None


def _percent_of(q):
    """``q / 100`` as compiled code computes it (``_recip_100``)."""
    recip = _recip_100(q.dtype)
    return divide(q, 100) if recip is None else multiply(q, recip)


def _percent_positions(qe, count, n, ignore_nan, q_ndim):
    """``q / 100 * (count - 1)`` as XLA:CPU compiles JAX's ``percentile`` (a jitted
    function, also when called eagerly): the division is a product by the reciprocal of
    100 rounded in ``q``'s dtype, and the two factors merge first, ``q * (0.01 * (n - 1))``
    (``ops/const_chains``): with a static count always (the constant rounded once), with
    the NaN-ignoring count (computed at run time) where ``q`` is a vector, as measured on
    JAX 0.10.2 (a scalar ``q`` is multiplied in turn). So float32
    ``percentile(arange(21.), 50, method='lower')`` is 9.0 in JAX (50 * 0.19999999 < 10),
    where exact arithmetic (and NumPy) gives 10.0."""
    recip = _recip_100(qe.dtype)
    if recip is not None and not ignore_nan:
        return multiply(qe, np.multiply(recip, qe.dtype.type(n - 1)))
    if recip is not None and q_ndim:
        return multiply(qe, multiply(recip, subtract(count, 1)))
    return multiply(_percent_of(qe), subtract(count, 1))


def _quantile_impl(a, q, axis, method, keepdims, ignore_nan, name, weights, percent):
    if method not in _METHODS:
        raise ValueError(
            "method can only be 'linear', 'lower', 'higher', 'midpoint', 'nearest' or "
            "'inverted_cdf'"
        )
    a = asarray_any(a)
    w = None
    if weights is not None:
        a, w = _quantile_weights(a, weights, axis, method)
    if dtypes.is_complex(a.dtype):
        raise ValueError(f"{name} does not support complex input")
    (a,) = promote_dtypes_inexact(a)
    q = asarray_any(q)
    if q.ndim > 1:
        raise ValueError(f"q must be have rank <= 1, got shape {q.shape}")
    (q,) = promote_dtypes_inexact(q)
    if method == "inverted_cdf":
        if percent:
            q, percent = _percent_of(q), False
        q = q.astype(a.dtype)  # compared with the cumulative weights, in the data's dtype
    qdt = q.dtype
    shape_in = a.shape
    flat, kept, axes = _move_to_last(a, axis)
    n = flat.shape[-1]
    if ignore_nan and n == 0 and not kept and not keepdims and q.ndim == 0:
        # JAX's NaN-ignoring quantile of no elements (a scalar result) indexes an empty axis
        raise IndexError("index is out of bounds for axis 0 with size 0")
    isnan = ufuncs.isnan(flat)
    if not ignore_nan:
        # JAX's: a slice holding a NaN is all NaN before sorting, so its value is NaN and so
        # is its derivative in q (the interpolation weights meet NaN values), while the
        # operand's tangents there are 0
        flat = where(reductions.any(isnan, axis=-1, keepdims=True), full_like(flat, np.nan), flat)
    if method == "inverted_cdf":
        order = argsort(flat, axis=-1)  # stable; NaNs last
        s = _ix.take_along_axis(flat, order, flat.ndim - 1)
        w = ones_like(flat) if w is None else _move_to_last(w, axis)[0]
        ws = _ix.take_along_axis(w, order, flat.ndim - 1)
    else:
        s = _sort.sort(flat, flat.ndim - 1)  # NaNs sort last
    if ignore_nan:
        count = reductions.sum(logical_not(isnan), axis=-1, keepdims=True).astype(qdt)
    else:
        count = full(kept + (1,), n, qdt)
    qe = reshape(q, q.shape + (1,) * (len(kept) + 1))  # q dims lead
    if percent:
        pos = _percent_positions(qe, count, n, ignore_nan, q.ndim)
    else:
        pos = multiply(qe, subtract(count, 1))
    lo = floor(pos)
    hi = ceil(pos)
    bad_weight = None
    if method == "inverted_cdf":
        idx_lo, bad_weight = _inverted_cdf(s, ws, qe, count, ufuncs.isnan(s))
        idx_hi = idx_lo
    elif method == "lower":
        idx_lo = idx_hi = lo
    elif method == "higher":
        idx_lo = idx_hi = hi
    elif method == "nearest":
        # JAX takes the lower neighbour at an exact half (NumPy rounds half to even).
        idx_lo = idx_hi = ufuncs._where(less_equal(subtract(pos, lo), 0.5), lo, hi)
    else:
        idx_lo, idx_hi = lo, hi
    maxi = maximum(subtract(count, 1), 0)
    idx_lo = clip(idx_lo, 0, maxi).astype(np.int32)
    idx_hi = clip(idx_hi, 0, maxi).astype(np.int32)
    sb = broadcast_to(s, q.shape + s.shape)
    bshape = q.shape + kept + (1,)
    v_lo = _ix.take_along_axis(sb, broadcast_to(idx_lo, bshape), sb.ndim - 1)
    v_hi = _ix.take_along_axis(sb, broadcast_to(idx_hi, bshape), sb.ndim - 1)
    if method == "linear":
        # JAX's weights and XLA's contraction of its multiply-add: lo*(1-f) + hi*f with the
        # first product fused (a signed zero and the last bit are JAX's).
        high_w = subtract(pos, lo)
        low_w = subtract(ones_like(high_w), high_w)
        v_lo, v_hi = v_lo.astype(qdt), v_hi.astype(qdt)
        if ignore_nan:  # XLA fuses the other product there
            out = fma(v_hi, high_w, multiply(v_lo, low_w))
        else:
            out = fma(v_lo, low_w, multiply(v_hi, high_w))
    elif method == "midpoint":
        out = multiply(add(v_lo, v_hi), 0.5)
    else:
        out = v_lo
    out = squeeze(out, -1)
    bad = equal(squeeze(count, -1), 0) if ignore_nan else None
    if bad_weight is not None:
        bad = bad_weight if bad is None else ufuncs.logical_or(bad, bad_weight)
    if bad is not None:
        out = where(bad, full_like(out, np.nan), out)
    if keepdims:
        ks = [1 if i in axes else d for i, d in enumerate(shape_in)]
        if not shape_in:
            ks = [1]  # JAX's: a 0-d operand is reshaped to one element, whose axis is kept
        out = reshape(out, q.shape + tuple(ks))
    # JAX ends with a cast to the operand's dtype: the result is strongly typed
    return convert_element_type(out, a.dtype)


def _check_quantile_args(name: str, out, overwrite_input) -> None:
    """JAX's refusal of NumPy's ``out=`` and ``overwrite_input=True`` (``name`` is
    ``quantile`` or ``nanquantile``, whichever the function computes with)."""
    if overwrite_input or out is not None:
        raise ValueError(f"jax.numpy.{name} does not support overwrite_input=True or out != None")


def quantile(
    a,
    q,
    axis=None,
    out=None,
    overwrite_input=False,
    method="linear",
    keepdims: bool = False,
    *,
    weights=None,
):
    """``jnp.quantile``: the ``q``-th quantiles (``q`` in [0, 1]) along ``axis``.

    The result has shape ``q.shape + reduced shape``; NaN where the slice contains NaN.
    JAX 0.10.2 removed the deprecated ``interpolation=`` keyword (use ``method=``), here and
    in ``percentile``, ``nanquantile``, ``nanpercentile``: passing it is a ``TypeError``.
    """
    check_arraylike("quantile", a, q)
    _check_quantile_args("quantile", out, overwrite_input)
    _check_float_q(q)
    return _quantile(a, q, axis, method, keepdims, False, "quantile", weights)


def _check_float_q(q):
    """JAX's quantile/nanquantile floor ``q`` in its own dtype: integer (or bool) ``q`` is
    a TypeError there, even 0 or 1 (percentile divides by 100 first)."""
    lax_api.check_accepted("floor", (lax_api.FLOAT,), asarray_any(q))


def percentile(
    a,
    q,
    axis=None,
    out=None,
    overwrite_input=False,
    method="linear",
    keepdims: bool = False,
    *,
    weights=None,
    out_sharding=None,
):
    """``jnp.percentile``: ``quantile(a, q / 100)``; ``out_sharding``: the result's
    sharding."""
    if out_sharding is not None:
        return _explicit.apply_out_sharding(
            percentile, out_sharding, a, q, axis, out, overwrite_input, method, keepdims,
            weights=weights,
        )  # fmt: skip
    check_arraylike("percentile", a, q)
    _check_quantile_args("quantile", out, overwrite_input)
    (q,) = promote_dtypes_inexact(asarray_any(q))
    return _quantile(a, q, axis, method, keepdims, False, "percentile", weights, percent=True)


def median(a, axis=None, out=None, overwrite_input=False, keepdims: bool = False):
    """``jnp.median``: the 0.5 quantile along ``axis``."""
    _check_quantile_args("quantile", out, overwrite_input)
    # JAX's median is the midpoint 0.5 quantile ((lo + hi) / 2: median([inf]) is inf,
    # where the linear one gives inf + (inf - inf) * 0 = nan)
    return _quantile(a, 0.5, axis, "midpoint", keepdims, False, "median")


def nanquantile(
    a,
    q,
    axis=None,
    out=None,
    overwrite_input=False,
    method="linear",
    keepdims: bool = False,
    *,
    weights=None,
):
    """``jnp.nanquantile``: ``quantile`` ignoring NaNs."""
    check_arraylike("nanquantile", a, q)
    _check_quantile_args("nanquantile", out, overwrite_input)
    _check_float_q(q)
    return _quantile(a, q, axis, method, keepdims, True, "nanquantile", weights)


def nanpercentile(
    a,
    q,
    axis=None,
    out=None,
    overwrite_input=False,
    method="linear",
    keepdims: bool = False,
    *,
    weights=None,
):
    """``jnp.nanpercentile``."""
    check_arraylike("nanpercentile", a, q)
    _check_quantile_args("nanquantile", out, overwrite_input)
    (q,) = promote_dtypes_inexact(asarray_any(q))
    return _quantile(a, q, axis, method, keepdims, True, "nanpercentile", weights, percent=True)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims: bool = False):
    """``jnp.nanmedian``."""
    _check_quantile_args("nanquantile", out, overwrite_input)
    return _quantile(a, 0.5, axis, "midpoint", keepdims, True, "nanmedian")  # JAX's


def average(a, axis=None, weights=None, returned: bool = False, keepdims: bool = False):
    """``jnp.average``: (weighted) mean along ``axis``; ``returned`` adds the weight sum."""
    a = asarray_any(a)
    if weights is None:
        _reduction_axes(a, axis)  # JAX checks the axis first: ValueError, not mean's error
        avg = mean(a, axis, keepdims=keepdims)
        if not returned:
            return avg
        axes = _reduction_axes(a, axis)
        cnt = int(np.prod([a.shape[i] for i in axes], dtype=np.int64))
        return avg, full_like(avg, cnt)
    w = asarray_any(weights)
    a, w = promote_dtypes_inexact(a, w)
    if w.shape != a.shape:
        if axis is None:
            raise ValueError("Axis must be specified when shapes of a and weights differ.")
        if w.ndim != 1:
            raise ValueError("1D weights expected when shapes of a and weights differ.")
        ax = canonicalize_axis(axis, a.ndim)
        if w.shape[0] != a.shape[ax]:
            raise ValueError("Length of weights not compatible with specified axis.")
        shape = [1] * a.ndim
        shape[ax] = w.shape[0]
        w = broadcast_to(reshape(w, shape), a.shape)
    wsum = reductions.sum(w, axis, keepdims=keepdims)
    avg = divide(reductions.sum(multiply(a, w), axis, keepdims=keepdims), wsum)
    if returned:
        return avg, broadcast_to(wsum, avg.shape)
    return avg


def digitize(x, bins, right: bool = False, *, method: str | None = None):
    """``jnp.digitize``: index of the bin each ``x`` falls in (monotonic ``bins``).

    As JAX (and NumPy), decreasing bins search the reversed bins on the same side, and
    bins are taken as increasing when ``bins[-1] >= bins[0]`` (so a trailing NaN makes
    them decreasing). ``method`` is passed to ``searchsorted``.
    """
    x, bins = asarray_any(x), asarray_any(bins)
    if bins.ndim != 1:
        raise ValueError(f"digitize: bins must be a 1-dimensional array; got bins={bins}")
    if bins.shape[0] == 0:
        return zeros(x.shape, search_index_dtype(0))
    side = "left" if right else "right"
    kw = {} if method is None else {"method": method}
    inc = searchsorted(bins, x, side=side, **kw)
    dec = subtract(bins.shape[0], searchsorted(_sh.rev(bins, (0,)), x, side=side, **kw))
    return where(greater_equal(bins[-1], bins[0]), inc, dec)


def _replicated_or_unreduced(sharding) -> bool:
    """JAX's test of ``bincount``'s ``out_sharding``: a spec with no entries at all (even
    ``P(None)`` fails), nothing reduced, and unreduced along no axis or every mesh axis."""
    spec = sharding.spec
    if len(tuple(spec)) or getattr(spec, "reduced", None):
        return False
    unreduced = getattr(spec, "unreduced", None)
    return not unreduced or set(unreduced) == set(sharding.mesh.axis_names)


def bincount(x, weights=None, minlength: int = 0, *, length: int | None = None, out_sharding=None):
    """``jnp.bincount``: counts (or summed weights) of each non-negative integer.

    Under transformations ``length=`` must be given (the output shape depends on data).
    As in JAX, negative values count in bin 0 and values ``>= length`` are dropped;
    booleans count as 0 and 1. ``out_sharding``: the result's sharding, replicated
    (``P()``).

    Raises:
        ShardingTypeError: an ``out_sharding`` that shards the result (as JAX).
    """
    if out_sharding is not None:
        if not _replicated_or_unreduced(_explicit.resolve_out_sharding(out_sharding)):
            raise ShardingTypeError(
                "out_sharding passed to `jnp.bincount` can only be fully replicated or fully "
                "unreduced along all mesh axes"
            )
        return _explicit.apply_out_sharding(
            bincount, out_sharding, x, weights, minlength, length=length
        )
    x = asarray_any(x)
    if x.dtype == dtypes.bool_:
        x = x.astype(_int_dtype())
    if not dtypes.is_int(x.dtype):
        raise TypeError(f"x argument to bincount must have an integer type; got {x.dtype}")
    if x.ndim != 1:
        raise ValueError("only 1-dimensional input supported.")
    minlength = operator.index(minlength)  # as JAX: a float length is a TypeError
    if length is not None and not isinstance(length, Tracer):
        length = operator.index(length)
    if length is None:
        if isinstance(x, Tracer) and x.to_concrete_value() is None:
            raise ConcretizationTypeError(
                x,
                "The error occurred because of argument 'length' of jnp.bincount: it must "
                "be static under transformations.",
            )
        v = np.asarray(x if not isinstance(x, Tracer) else x.to_concrete_value())
        length = builtins.max(int(minlength), builtins.max(0, int(v.max())) + 1 if v.size else 0)
    length = int(length)
    if dtypes.is_signed(x.dtype) and length > np.iinfo(x.dtype).max:
        # JAX's scatter meets the length in the indices' dtype (unsigned ones are widened)
        raise OverflowError(f"Python integer {length} out of bounds for {x.dtype}")
    if weights is None:
        w = ones(x.shape, _int_dtype())
    else:
        w = _bincount_weights(x, weights)
    base = zeros((length,), w.dtype)
    return _ix.scatter(base, w, [maximum(x, 0).astype(np.int32)], "add")


def _bincount_weights(x, weights):
    """``weights`` as an array of ``x``'s shape, or JAX's errors: ``ValueError`` for
    another shape (a scalar is not broadcast), ``TypeError`` for a list or bool weights."""
    if isinstance(weights, (list, tuple)):
        kind = type(weights)
        raise TypeError(f"Argument '{weights}' of type '{kind}' is not a valid JAX type")
    w = asarray_any(weights)
    if w.shape != x.shape:
        ax, aw = aval_of(x), aval_of(w)
        raise ValueError(
            "type of weights must match type of x. Got "
            f"typeof(x)={ax.str_short(True)}({{}}) and typeof(weights)={aw.str_short(True)}({{}})"
        )
    if w.dtype == dtypes.bool_:
        raise TypeError(
            "add does not accept dtype bool at position 0. Accepted dtypes at position 0 are "
            "subtypes of integer, floating, complexfloating."
        )
    return w


def histogram(a, bins=10, range=None, weights=None, density=None):  # noqa: A002
    """``jnp.histogram``: ``(counts, bin_edges)``; the last bin includes its right edge.
    ``bins`` and ``range`` as ``histogram_bin_edges`` (a 0-d integer array is a count).

    Raises:
      TypeError: ``a``, ``bins`` or ``weights`` a list or tuple (JAX's positions 0, 1, 2).
      ValueError: ``weights`` not of ``a``'s shape.
    """
    if weights is None:
        check_arraylike("histogram", a, bins)
        (a,) = _inexact_pair(asarray_any(a))
        w = None
    else:
        check_arraylike("histogram", a, bins, weights)
        a, w = asarray_any(a), asarray_any(weights)
        if a.shape != w.shape:
            raise ValueError("weights should have the same shape as a.")
        # As JAX: data and weights take one inexact dtype (int weights count in float32,
        # float16 data with float32 weights bins in float32).
        a, w = _inexact_pair(a, w)
        w = ravel(w)
    a = ravel(a)
    edges = _bin_edges(a, bins, range, a.dtype)
    ne = edges.shape[0]
    # JAX's counting: an element's slot is the number of edges <= it (its right edge's
    # index), the last edge counted in the last bin; slot 0 (below the first edge) and
    # ``ne`` (above the last, NaN) are dropped. Edges that do not increase are not
    # checked (NumPy raises): they give what ``searchsorted`` gives on them (docs/compat.md
    # on unsorted input).
    idx = searchsorted(edges, a, side="right")
    idx = where(equal(a, edges[-1]), ne - 1, idx)
    w = ones_like(a) if w is None else w
    counts = bincount(idx, w, length=ne)[1:]
    if density:
        widths = subtract(edges[1:], edges[:-1])
        counts = divide(divide(counts, widths), reductions.sum(counts))
    return counts, edges


def _inexact_pair(*args):
    return promote_dtypes_inexact(*args)
