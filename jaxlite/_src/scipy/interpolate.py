"""``jax.scipy.interpolate.RegularGridInterpolator``: linear and nearest-neighbour
interpolation on a rectilinear grid, written with ``jax.numpy`` (``searchsorted`` per
axis, then the ``2**d`` corner values weighted), so it traces under ``jit``, batches under
``vmap`` and is differentiable in the query points and the values. The interpolator is a
pytree (grid, values and fill value are its leaves), as in JAX."""

from __future__ import annotations

import itertools

import numpy as np

import jaxlite.numpy as jnp  # the public jnp namespace (stable across module splits)
from jaxlite._src import tree_util
from jaxlite._src.numpy.util import check_arraylike, promote_dtypes_inexact

_METHODS = ("linear", "nearest")


def _check_method(method) -> None:
    if method not in _METHODS:
        raise ValueError(f"method {method!r} is not defined")


def _query_points(xi, ndim: int):
    """The query points as one ``(..., ndim)`` array: a tuple of coordinate arrays is
    broadcast and stacked (into the default float dtype, as JAX does); a 1-D array is read
    as a list of ``ndim``-vectors."""
    if isinstance(xi, tuple) and len(xi) == 1:
        xi = xi[0]
    if isinstance(xi, tuple):
        coords = jnp.broadcast_arrays(*xi)
        out = jnp.empty(coords[0].shape + (len(xi),), dtype=float)
        for j, c in enumerate(coords):
            out = out.at[..., j].set(c)
        return out
    check_arraylike("_ndim_coords_from_arrays", xi)
    xi = jnp.asarray(xi)
    if xi.ndim == 1:
        xi = xi.reshape(-1, ndim)
    return xi


class RegularGridInterpolator:
    """Interpolation on a regular (rectilinear) grid, mirrors
    ``jax.scipy.interpolate.RegularGridInterpolator``.

    Args:
        points: one strictly increasing 1-D coordinate array per grid axis (a decreasing
            axis gives wrong results, as in JAX).
        values: the grid values, shape ``(len(points[0]), ..., len(points[-1]), *rest)``;
            promoted to an inexact dtype.
        method: ``"linear"`` or ``"nearest"``.
        bounds_error: must be False (JAX raises NotImplementedError otherwise).
        fill_value: the value outside the grid (NaN by default); None extrapolates.

    Calling it with ``xi`` (a ``(..., d)`` array or a tuple of ``d`` coordinate arrays)
    returns the interpolated values, shape ``xi.shape[:-1] + rest``.

    Raises:
        ValueError: an unknown method; more point arrays than ``values`` has dimensions;
            a ``fill_value`` not castable to ``values``' dtype; query points of the wrong
            dimension.
        NotImplementedError: ``bounds_error=True``.
        TypeError: non-array inputs.
    """

    def __init__(self, points, values, method="linear", bounds_error=False, fill_value=np.nan):
        _check_method(method)
        self.method = method
        self.bounds_error = bounds_error
        if bounds_error:
            raise NotImplementedError("`bounds_error` takes no effect under JIT")
        check_arraylike("RegularGridInterpolator", values)
        if len(points) > values.ndim:
            raise ValueError(
                f"there are {len(points)} point arrays, but values has {values.ndim} dimensions"
            )
        (values,) = promote_dtypes_inexact(values)
        if fill_value is not None:
            check_arraylike("RegularGridInterpolator", fill_value)
            fill_value = jnp.asarray(fill_value)
            if not jnp.can_cast(fill_value.dtype, values.dtype, casting="same_kind"):
                raise ValueError(
                    "fill_value must be either 'None' or of a type compatible with values"
                )
        self.fill_value = fill_value
        check_arraylike("RegularGridInterpolator", *points)
        self.grid = tuple(jnp.asarray(p) for p in points)
        self.values = values

    def __call__(self, xi, method=None):
        method = self.method if method is None else method
        _check_method(method)
        ndim = len(self.grid)
        xi = _query_points(xi, ndim)
        if xi.shape[-1] != ndim:
            raise ValueError(
                f"the requested sample points xi have dimension {xi.shape[1]}, but this "
                f"RegularGridInterpolator has dimension {ndim}"
            )
        batch_shape = xi.shape[:-1]
        xi = xi.reshape(-1, ndim)
        cells, fractions, outside = self._locate(xi.T)
        if method == "linear":
            result = self._linear(cells, fractions)
        else:
            result = self._nearest(cells, fractions)
        if self.fill_value is not None:
            mask = outside.reshape(result.shape[:1] + (1,) * (result.ndim - 1))
            result = jnp.where(mask, self.fill_value, result)
        return result.reshape(batch_shape + self.values.shape[ndim:])

    def _locate(self, xi_t):
        """Per axis: the cell index ``i`` (clipped to ``[0, n - 2]``, so points outside
        extrapolate from the edge cell) and the fraction ``(x - g[i]) / (g[i+1] - g[i])``;
        and which points lie outside the grid."""
        cells, fractions = [], []
        outside = jnp.zeros((xi_t.shape[1],), dtype=bool)
        for x, g in zip(xi_t, self.grid):
            i = jnp.clip(jnp.searchsorted(g, x) - 1, 0, g.size - 2)
            cells.append(i)
            fractions.append((x - g[i]) / (g[i + 1] - g[i]))
            outside = outside | (x < g[0]) | (x > g[-1])
        return cells, fractions, outside

    def _linear(self, cells, fractions):
        trailing = (slice(None),) + (None,) * (self.values.ndim - len(cells))
        total = jnp.asarray(0.0)
        for corner in itertools.product(*[(i, i + 1) for i in cells]):
            weight = jnp.asarray(1.0)
            for c, i, t in zip(corner, cells, fractions):
                weight = weight * ((1 - t) if c is i else t)  # c is i or i + 1
            total = total + self.values[corner] * weight[trailing]
        return total

    def _nearest(self, cells, fractions):
        return self.values[tuple(jnp.where(t <= 0.5, i, i + 1) for i, t in zip(cells, fractions))]


tree_util.register_pytree_node(
    RegularGridInterpolator,
    lambda obj: ((obj.grid, obj.values, obj.fill_value), (obj.method, obj.bounds_error)),
    lambda aux, children: RegularGridInterpolator(
        children[0], children[1], aux[0], aux[1], children[2]
    ),
)
