"""``jax.numpy`` index helpers: ``mgrid``, ``ogrid``, ``r_``, ``c_``, ``s_``, ``index_exp``.

Objects indexed with slices (``jnp.mgrid[0:3, 0:2]``): a slice with a real step is an
``arange``, one with an imaginary step ``Nj`` is a ``linspace`` of ``N`` points including the
stop.
"""

from __future__ import annotations

import numpy as np
from jaxlite._src.numpy import creation
from jaxlite._src.numpy.shape import concatenate, expand_dims, reshape, stack, transpose
from jaxlite._src.numpy.util import asarray_any

s_ = np.s_

index_exp = np.index_exp


def _slice_to_range(s: slice):
    """A 1-D array for one slice of an mgrid/ogrid/r_ key (arange or linspace)."""
    start = 0 if s.start is None else s.start
    step = 1 if s.step is None else s.step
    stop = s.stop
    if isinstance(step, complex) or np.iscomplexobj(step):
        num = int(abs(step))
        return creation.linspace(start, stop, num, endpoint=True)
    return creation.arange(start, stop, step)


def _grid(key, sparse: bool):
    single = not isinstance(key, tuple)
    keys = (key,) if single else key
    for k in keys:
        if not isinstance(k, slice):
            raise IndexError(f"only slices are supported in grid indexing, got {k!r}")
    ranges = [_slice_to_range(k) for k in keys]
    if single:
        return ranges[0]
    if not ranges:
        return [] if sparse else creation.asarray([], dtype=np.int32)
    # A common dtype for all axes, as a grid is one array (dense) or a list of one dtype.
    out_dtype = np.result_type(*[r.dtype for r in ranges])
    ranges = [r.astype(out_dtype) for r in ranges]
    n = len(ranges)
    if sparse:
        return [
            reshape(r, tuple(-1 if i == j else 1 for j in range(n))) for i, r in enumerate(ranges)
        ]
    return stack(creation.meshgrid(*ranges, indexing="ij"), 0)


class _Mgrid:
    """``jnp.mgrid``: a dense multi-dimensional mesh grid.

    Mirrors ``jax.numpy.mgrid``: ``mgrid[a:b:s, c:d:t]`` is an array of shape
    ``(2, len_1, len_2)``; an imaginary step ``Nj`` gives ``N`` points (stop included). One
    slice gives a 1-D array. Integer slices give the default integer dtype, others the
    default float dtype.

    Raises:
      IndexError: for keys other than slices.
    """

    def __getitem__(self, key):
        return _grid(key, sparse=False)

    def __repr__(self):
        return "jaxlite.numpy.mgrid"


class _Ogrid:
    """``jnp.ogrid``: an open (sparse) mesh grid.

    Mirrors ``jax.numpy.ogrid``: ``ogrid[a:b, c:d]`` is a list of arrays of shapes
    ``(len_1, 1)`` and ``(1, len_2)`` that broadcast against each other; one slice gives a
    1-D array.

    Raises:
      IndexError: for keys other than slices.
    """

    def __getitem__(self, key):
        return _grid(key, sparse=True)

    def __repr__(self):
        return "jaxlite.numpy.ogrid"


def _parse_directive(directive: str, params: list[int]) -> list[int]:
    """[axis, ndmin, trans1d, matrix] from an r_/c_ string directive (matrix: -1 none, 0
    row, 1 column); fields after the third are ignored, as in JAX."""
    if directive == "r":
        return params[:3] + [0]
    if directive == "c":
        return params[:3] + [1]
    fields = directive.split(",")
    fields = fields + params[len(fields) :] if len(fields) < 4 else fields[:3] + params[3:]
    try:
        return [int(v) for v in fields]
    except ValueError as err:
        raise ValueError(f"could not understand directive {directive!r}") from err


def _upgrade(arr, item_ndim: int, ndmin: int, trans1d: int):
    """``arr`` made ``ndmin``-dimensional (leading unit axes), then, for ``trans1d != -1``,
    its axes rotated left so the original ones start near ``trans1d`` (JAX's rule)."""
    if arr.ndim < ndmin:
        arr = reshape(arr, (1,) * (ndmin - arr.ndim) + tuple(arr.shape))
    if trans1d != -1 and ndmin - item_ndim > 0:
        shift = ndmin - abs(ndmin + trans1d + 1) % ndmin
        order = list(range(ndmin))
        arr = transpose(arr, tuple(order[shift:] + order[:shift]))
    return arr


class _AxisConcatenator:
    def __init__(self, axis: int, ndmin: int, trans1d: int, name: str):
        self._axis, self._ndmin, self._trans1d, self._name = axis, ndmin, trans1d, name

    def __getitem__(self, key):
        items = key if isinstance(key, tuple) else (key,)
        params = [self._axis, self._ndmin, self._trans1d, -1]
        if items and isinstance(items[0], str):
            params = _parse_directive(items[0], params)
            items = items[1:]
        axis, ndmin, trans1d, matrix = params
        arrays = []
        for item in items:
            if isinstance(item, str):
                raise ValueError("string directive must be placed at the beginning")
            if isinstance(item, slice):
                arr, item_ndim = _slice_to_range(item), 0
            else:
                arr = asarray_any(item)
                item_ndim = arr.ndim
            arrays.append(_upgrade(arr, item_ndim, ndmin, trans1d))
        out = concatenate(arrays, axis=axis)
        if matrix != -1 and out.ndim == 1:
            out = expand_dims(out, matrix)
        return out

    def __len__(self):
        return 0

    def __repr__(self):
        return f"jaxlite.numpy.{self._name}"


mgrid = _Mgrid()
ogrid = _Ogrid()
r_ = _AxisConcatenator(0, 1, -1, "r_")
r_.__doc__ = """``jnp.r_``: concatenate slices, scalars and arrays along the first axis.

Mirrors ``jax.numpy.r_``: ``r_[1, 2, x, 0:3]``; a slice is an ``arange`` (or a
``linspace`` for an imaginary step); a leading string ``'axis,ndmin,trans1d'`` picks the
concatenation axis, the minimum rank and where upgraded arrays' axes go; ``'r'``/``'c'``
give a row/column 2-D result.

Raises:
  ValueError: for a string that is not a directive or not the first item.
"""
c_ = _AxisConcatenator(-1, 2, 0, "c_")
c_.__doc__ = """``jnp.c_``: concatenate along the last axis, upgrading to at least 2-D with
1-D inputs as columns (mirrors ``jax.numpy.c_``; ``r_['-1,2,0', ...]``)."""
