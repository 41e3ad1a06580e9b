"""``jax.scipy.ndimage``: ``map_coordinates`` with nearest (order 0) and linear (order 1)
interpolation, as JAX's (higher orders raise ``NotImplementedError``).

Along each axis a coordinate gives one (order 0) or two (order 1) sample indices with
weights; the result sums, over every combination of one index per axis, the product of the
weights times the input gathered there. Out-of-range indices are mapped back into the
array by the boundary mode (``nearest`` clamps, ``wrap`` is periodic, ``mirror`` reflects
about the edge samples, ``reflect`` about the edges between samples); ``constant`` reads
``cval`` wherever any index of the combination is outside.
"""

from __future__ import annotations

import functools
import itertools
import operator

import jaxlite.lax as lax
import jaxlite.numpy as jnp
from jaxlite._src import dtypes
from jaxlite._src.compile.jit import jit


def _mirror(index, size: int):
    # Period 2(size - 1): ... 2 1 | 0 1 2 ... size-1 | size-2 ...
    s = size - 1
    return jnp.abs((index + s) % (2 * s) - s)


def _reflect(index, size: int):
    # Period 2 size, edge samples repeated: ... 1 0 | 0 1 ... size-1 | size-1 ...
    return jnp.floor_divide(_mirror(2 * index + 1, 2 * size + 1) - 1, 2)


_FIXERS = {
    "constant": lambda index, size: jnp.clip(index, 0, size - 1),
    "nearest": lambda index, size: jnp.clip(index, 0, size - 1),
    "wrap": lambda index, size: index % size,
    "mirror": _mirror,
    "reflect": _reflect,
}


def _round(a):
    # Half away from zero (lax.round's default), as JAX's integer results.
    return a if dtypes.issubdtype(a.dtype, jnp.integer) else lax.round(a)


def _nodes(coordinate, order: int):
    """[(index, weight)] of one axis: the nearest sample, or the two around it."""
    if order == 0:
        return [(_round(coordinate).astype(jnp.int32), coordinate.dtype.type(1))]
    lower = jnp.floor(coordinate)
    upper_weight = coordinate - lower
    index = lower.astype(jnp.int32)
    return [(index, 1 - upper_weight), (index + 1, upper_weight)]


def map_coordinates(input, coordinates, order: int, mode: str = "constant", cval=0.0):
    """Sample ``input`` at fractional coordinates (``jax.scipy.ndimage.map_coordinates``,
    after ``scipy.ndimage.map_coordinates`` with ``prefilter=False``).

    Args:
        input: the N-d array to sample.
        coordinates: a sequence of ``input.ndim`` arrays (broadcast together), the
            coordinates along each axis of the points to sample.
        order: ``0`` (nearest sample; halves round away from zero) or ``1`` (linear).
        mode: ``'constant'`` (``cval`` outside), ``'nearest'``, ``'wrap'``, ``'mirror'`` or
            ``'reflect'``.
        cval: the value outside the input in ``'constant'`` mode (cast to its dtype).

    Returns:
        The samples, the coordinates' broadcast shape, in ``input``'s dtype (integer inputs
        round half away from zero).

    Raises:
        ValueError: a number of coordinate arrays other than ``input.ndim``.
        NotImplementedError: another ``mode``, or ``order`` above 1.
        ValueError: a ``cval`` that is not hashable (an array, a traced value, a list):
            it is a static argument, as in JAX.
    """
    return _map_coordinates_jit(input, coordinates, order, mode, cval)


def _map_coordinates(input, coordinates, order: int, mode: str, cval):
    x = jnp.asarray(input)
    coords = [jnp.asarray(c) for c in coordinates]
    cval = jnp.asarray(cval, x.dtype)
    if len(coordinates) != x.ndim:
        raise ValueError(
            "coordinates must be a sequence of length input.ndim, but "
            f"{len(coordinates)} != {x.ndim}"
        )
    fixer = _FIXERS.get(mode)
    if fixer is None:
        raise NotImplementedError(
            f"jax.scipy.ndimage.map_coordinates does not yet support mode {mode}. "
            f"Currently supported modes are {set(_FIXERS)}."
        )
    if order not in (0, 1):
        raise NotImplementedError("jax.scipy.ndimage.map_coordinates currently requires order<=1")
    per_axis = []
    for c, size in zip(coords, x.shape):
        nodes = []
        for index, weight in _nodes(c, order):
            inside = ((index >= 0) & (index < size)) if mode == "constant" else None
            nodes.append((fixer(index, size), inside, weight))
        per_axis.append(nodes)
    terms = []
    for combo in itertools.product(*per_axis):
        indices = tuple(i for i, _, _ in combo)
        value = x[indices]
        masks = [m for _, m, _ in combo if m is not None]
        if masks:
            value = jnp.where(functools.reduce(operator.and_, masks), value, cval)
        weight = functools.reduce(operator.mul, [w for _, _, w in combo])
        terms.append(weight * value)
    result = functools.reduce(operator.add, terms)
    if dtypes.issubdtype(x.dtype, jnp.integer):
        result = _round(result)
    return result.astype(x.dtype)


# Compiled per (order, mode, cval), as JAX's: cval is static, so it must be hashable.
_map_coordinates_jit = jit(_map_coordinates, static_argnums=(2, 3, 4))
