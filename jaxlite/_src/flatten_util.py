"""``jax.flatten_util.ravel_pytree``: a pytree of arrays as one flat vector, and back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import jaxlite.numpy as jnp  # the public jnp namespace (stable across module splits)
from jaxlite._src import dtypes
from jaxlite._src.core.array import Array, to_array
from jaxlite._src.ops import conversion, shape as _shape
from jaxlite._src.tree_util import tree_flatten, tree_unflatten


class _Unravel:
    """The inverse of one ``ravel_pytree`` call; equal (and hashing equal) to any other
    made for the same structure, so it can be a static argument of ``jit``."""

    def __init__(self, treedef, sizes: tuple, shapes: tuple, from_dtypes: tuple | None, to_dtype):
        self._key = (treedef, sizes, shapes, from_dtypes, to_dtype)

    def __eq__(self, other):
        return type(other) is _Unravel and self._key == other._key

    def __hash__(self):
        return hash(self._key)

    def __call__(self, flat) -> Any:
        treedef, sizes, shapes, from_dtypes, to_dtype = self._key
        if from_dtypes is not None:
            arr_dtype = dtypes.dtype_and_weak_type(flat)[0]
            if arr_dtype != to_dtype:
                raise TypeError(
                    f"unravel function given array of dtype {arr_dtype}, "
                    f"but expected dtype {to_dtype}"
                )
        flat = jnp.asarray(flat)
        total = int(sum(sizes))
        if flat.shape != (total,):
            raise ValueError(
                f"The unravel function expected an array of shape {(total,)}, "
                f"got shape {flat.shape}."
            )
        offsets = np.cumsum((0,) + sizes)
        leaves = []
        for i, shape in enumerate(shapes):
            chunk = flat[int(offsets[i]) : int(offsets[i + 1])].reshape(shape)
            if from_dtypes is not None:
                chunk = conversion.convert_element_type(chunk, from_dtypes[i])
            leaves.append(chunk)
        return tree_unflatten(treedef, leaves)


def ravel_pytree(pytree: Any) -> tuple[Array, Callable[[Array], Any]]:
    """Ravel the leaves of ``pytree`` into one 1-D array (``jax.flatten_util.ravel_pytree``).

    Args:
      pytree: a pytree of arrays and scalars.

    Returns:
      ``(flat, unravel)``: ``flat`` is a 1-D array of all leaves, raveled and concatenated
      in leaf order, with the promoted dtype of the leaves (``float32[0]`` for no leaves);
      ``unravel(flat_like)`` rebuilds a pytree of the original structure, shapes and dtypes.
      When the leaves have different dtypes, ``unravel`` raises TypeError for an input of
      another dtype than ``flat``'s; it raises ValueError for an input of another shape.
    """
    leaves, treedef = tree_flatten(pytree)
    if not leaves:
        return jnp.zeros((0,), jnp.float32), _Unravel(treedef, (), (), None, None)
    from_dtypes = tuple(dtypes.dtype_and_weak_type(x)[0] for x in leaves)
    to_dtype = dtypes.result_type(*from_dtypes)
    sizes = tuple(int(np.size(x)) for x in leaves)
    shapes = tuple(tuple(np.shape(x)) for x in leaves)
    mixed = any(d != to_dtype for d in from_dtypes)
    # As JAX, with lax's reshape and concatenate (no jnp promotion): leaves of one dtype
    # are joined as they are (weak only if all are weak, and a weak leaf's cotangent is a
    # slice of the strong one); mixed dtypes are first cast to a strong ``to_dtype``.
    if mixed:
        leaves = [conversion.convert_element_type(x, to_dtype) for x in leaves]
    else:
        leaves = [to_array(x) for x in leaves]
    flat = _shape.concatenate([_shape.reshape(x, (int(np.size(x)),)) for x in leaves], 0)
    unravel = _Unravel(treedef, sizes, shapes, from_dtypes if mixed else None, to_dtype)
    return flat, unravel
