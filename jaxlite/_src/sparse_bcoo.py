"""A batch-free subset of ``jax.experimental.sparse``: the ``BCOO`` format.

A ``BCOO`` matrix holds ``nse`` stored elements: ``data`` (``nse``,) and ``indices``
(``nse``, ``ndim``), the coordinates of each element, duplicates summed. Everything is
written with ``jax.numpy`` (a densifying scatter-add, a gather and a segment sum for
products with dense arrays), so jit, vmap and grad come from those operations' rules.

What is here: construction from dense arrays (``fromdense``) and from SciPy sparse
matrices (``from_scipy_sparse``), ``todense``, products of a 1-D or 2-D ``BCOO`` with a
dense array on either side of ``@`` (NumPy's ``matmul`` broadcasting of the dense side),
scaling by a scalar, negation, ``.T``/``transpose`` and ``sum``. Batch and dense
dimensions (``n_batch``, ``n_dense`` other than 0) and sparse-sparse products are not
implemented and say so (docs/compat.md).

Padding: ``fromdense(x, nse=k)`` with more slots than nonzeros fills the extra slots with
``data`` 0 at the out-of-range coordinate ``shape`` (as JAX); ``todense`` drops them and
the products multiply them by 0 without reading outside the dense operand.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import jaxlite.numpy as jnp  # the public jnp namespace (stable across module splits)
from jaxlite._src import dtypes, tree_util
from jaxlite._src.core.trace import concrete_or_error
from jaxlite._src.segment_ops import segment_sum


def _not_implemented(what: str) -> NotImplementedError:
    return NotImplementedError(
        f"jax.experimental.sparse: {what} is not implemented in jaxlite (BCOO without "
        "batch or dense dimensions only; docs/compat.md)"
    )


def _check_layout(n_batch: int, n_dense: int) -> None:
    if n_batch or n_dense:
        raise _not_implemented(f"BCOO with n_batch={n_batch}, n_dense={n_dense}")


class JAXSparse:
    """Base class of jaxlite's sparse array formats (``jax.experimental.sparse.JAXSparse``)."""

    data: Any
    shape: tuple[int, ...]

    @property
    def dtype(self):
        return self.data.dtype

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]


@tree_util.register_pytree_node_class
class BCOO(JAXSparse):
    """Sparse array in batched-coordinate format (no batch or dense dimensions here).

    Args:
        args: ``(data, indices)``: ``data`` of shape ``(nse,)``, ``indices`` integer of
            shape ``(nse, ndim)``.
        shape: the shape of the dense array this one stands for.
        indices_sorted: whether ``indices`` are in lexicographic order (recorded only).
        unique_indices: whether no coordinate repeats (recorded only).
    """

    n_batch = 0
    n_dense = 0

    def __init__(self, args, *, shape, indices_sorted: bool = False, unique_indices: bool = False):
        data, indices = args
        self.data = jnp.asarray(data)
        self.indices = jnp.asarray(indices)
        self.shape = tuple(int(d) for d in shape)
        self.indices_sorted = bool(indices_sorted)
        self.unique_indices = bool(unique_indices)
        if self.data.ndim != 1 or self.indices.ndim != 2:
            raise _not_implemented(
                f"BCOO with data of rank {self.data.ndim} and indices of rank {self.indices.ndim}"
            )
        if self.indices.shape != (self.data.shape[0], len(self.shape)):
            raise ValueError(
                f"BCOO: indices of shape {self.indices.shape} do not match data of shape "
                f"{self.data.shape} and shape {self.shape}"
            )

    @property
    def nse(self) -> int:
        return self.data.shape[0]

    @property
    def n_sparse(self) -> int:
        return len(self.shape)

    def __repr__(self) -> str:
        name = np.dtype(self.dtype).name
        dims = ", ".join(str(d) for d in self.shape)
        return f"BCOO({name}[{dims}], nse={self.nse})"

    # -- pytree ------------------------------------------------------------------------
    def tree_flatten(self):
        aux = {
            "shape": self.shape,
            "indices_sorted": self.indices_sorted,
            "unique_indices": self.unique_indices,
        }
        return (self.data, self.indices), aux

    @classmethod
    def tree_unflatten(cls, aux, children):
        obj = object.__new__(cls)
        obj.data, obj.indices = children
        obj.shape = aux["shape"]
        obj.indices_sorted = aux["indices_sorted"]
        obj.unique_indices = aux["unique_indices"]
        return obj

    # -- construction --------------------------------------------------------------------
    @classmethod
    def fromdense(
        cls, mat, *, nse=None, index_dtype=np.int32, n_dense: int = 0, n_batch: int = 0
    ) -> BCOO:
        """The nonzero entries of the dense array ``mat`` (``nse`` is required under jit)."""
        _check_layout(n_batch, n_dense)
        mat = jnp.asarray(mat)
        if nse is None:
            concrete = concrete_or_error(
                mat, "The error arose for the nse argument of bcoo_fromdense."
            )
            nse = int(np.count_nonzero(concrete))
        nse = int(nse)
        if mat.ndim == 0:
            raise _not_implemented("BCOO of a 0-d array")
        idx = jnp.nonzero(mat, size=nse, fill_value=mat.shape)
        indices = (
            jnp.stack(idx, axis=1).astype(index_dtype)
            if nse
            else jnp.zeros((0, mat.ndim), index_dtype)
        )
        data = mat.at[idx].get(mode="fill", fill_value=0)
        return cls((data, indices), shape=mat.shape, indices_sorted=True, unique_indices=True)

    @classmethod
    def from_scipy_sparse(
        cls, mat, *, index_dtype=None, n_dense: int = 0, n_batch: int = 0
    ) -> BCOO:
        """A ``BCOO`` copy of a SciPy sparse matrix (its coordinates, duplicates kept)."""
        _check_layout(n_batch, n_dense)
        coo = mat.tocoo()
        index_dtype = np.int32 if index_dtype is None else index_dtype
        indices = np.stack([coo.row, coo.col], axis=1).astype(index_dtype)
        return cls(
            (jnp.asarray(coo.data), jnp.asarray(indices)),
            shape=coo.shape,
            indices_sorted=bool(getattr(coo, "has_canonical_format", False)),
            unique_indices=bool(getattr(coo, "has_canonical_format", False)),
        )

    # -- conversion ----------------------------------------------------------------------
    def todense(self):
        """The dense array this one stands for (duplicates summed)."""
        out = jnp.zeros(self.shape, self.dtype)
        return out.at[tuple(self.indices.T)].add(self.data, mode="drop")

    # -- elementwise ---------------------------------------------------------------------
    def _with_data(self, data) -> BCOO:
        return BCOO(
            (data, self.indices),
            shape=self.shape,
            indices_sorted=self.indices_sorted,
            unique_indices=self.unique_indices,
        )

    def __neg__(self) -> BCOO:
        return self._with_data(-self.data)

    def __pos__(self) -> BCOO:
        return self

    def __mul__(self, other):
        if isinstance(other, JAXSparse):
            raise _not_implemented("elementwise products of two sparse arrays")
        other_arr = jnp.asarray(other)
        if other_arr.ndim == 0:
            return self._with_data(self.data * other_arr)
        if jnp.broadcast_shapes(self.shape, other_arr.shape) != self.shape:
            raise _not_implemented("a product with a dense array that broadcasts the BCOO")
        full = jnp.broadcast_to(other_arr, self.shape)
        picked = full.at[tuple(self.indices.T)].get(mode="fill", fill_value=0)
        return self._with_data(self.data * picked)

    __rmul__ = __mul__

    def __truediv__(self, other):
        other_arr = jnp.asarray(other)
        if other_arr.ndim:
            raise _not_implemented("dividing a BCOO by a non-scalar array")
        return self._with_data(self.data / other_arr)

    # -- structure -----------------------------------------------------------------------
    def transpose(self, axes=None) -> BCOO:
        """The transposed array (``axes`` a permutation of the dimensions, default reversed)."""
        perm = (
            tuple(range(self.ndim))[::-1]
            if axes is None
            else tuple(int(a) % self.ndim for a in axes)
        )
        if sorted(perm) != list(range(self.ndim)):
            raise ValueError(
                f"axes {axes} is not a permutation of the dimensions of a {self.ndim}-d array"
            )
        return BCOO(
            (self.data, self.indices[:, list(perm)]),
            shape=tuple(self.shape[p] for p in perm),
            unique_indices=self.unique_indices,
        )

    @property
    def T(self) -> BCOO:
        return self.transpose()

    def sum(self, axis=None):
        """Sum over ``axis``: a dense scalar over all axes, else a ``BCOO`` whose stored
        elements are this one's with the summed coordinates dropped (duplicates kept)."""
        axes = (
            tuple(range(self.ndim))
            if axis is None
            else ((axis,) if isinstance(axis, int) else tuple(axis))
        )
        axes = tuple(sorted({int(a) % self.ndim for a in axes})) if self.ndim else ()
        if len(axes) == self.ndim:
            return jnp.sum(self.data)
        keep = [d for d in range(self.ndim) if d not in axes]
        return BCOO((self.data, self.indices[:, keep]), shape=tuple(self.shape[d] for d in keep))

    # -- products with dense arrays ------------------------------------------------------
    def __matmul__(self, other):
        if isinstance(other, JAXSparse):
            raise _not_implemented("products of two sparse arrays")
        return _sparse_matmul(self, jnp.asarray(other))

    def __rmatmul__(self, other):
        if isinstance(other, JAXSparse):
            raise _not_implemented("products of two sparse arrays")
        return _dense_matmul_sparse(jnp.asarray(other), self)


def _result_dtype(sp: BCOO, dense):
    return dtypes.result_type(sp.data, dense)


def _gather_rows(b, idx, axis):
    """``b`` indexed by ``idx`` along ``axis``; out-of-range slots (padding) read 0."""
    return jnp.take(b, idx, axis=axis, mode="fill", fill_value=0)


def _sparse_matmul(a: BCOO, b):
    """``a @ b`` for a 1-D/2-D ``BCOO`` ``a`` and a dense ``b`` (matmul's broadcasting)."""
    if b.ndim == 0:
        raise ValueError("matmul: Input operand 1 does not have enough dimensions")
    dtype = _result_dtype(a, b)
    data = a.data.astype(dtype)
    b = b.astype(dtype)
    k = a.shape[-1]
    contract = b.shape[0] if b.ndim == 1 else b.shape[-2]
    if contract != k:
        raise TypeError(
            f"dot_general requires contracting dimensions to have the same "
            f"shape, got ({k},) and ({contract},)."
        )
    if a.ndim == 1:
        if b.ndim == 1:
            return jnp.sum(data * _gather_rows(b, a.indices[:, 0], 0))
        g = _gather_rows(b, a.indices[:, 0], b.ndim - 2)
        g = g * jnp.expand_dims(data, -1)
        return jnp.sum(g, axis=-2)
    if a.ndim != 2:
        raise _not_implemented(f"matmul of a {a.ndim}-d BCOO")
    rows, cols = a.indices[:, 0], a.indices[:, 1]
    m = a.shape[0]
    if b.ndim == 1:
        return segment_sum(data * _gather_rows(b, cols, 0), rows, num_segments=m)
    # b: (..., k, n) -> per stored element: (..., nse, n) scaled by its value.
    g = _gather_rows(b, cols, b.ndim - 2) * jnp.expand_dims(data, -1)
    g = jnp.moveaxis(g, -2, 0)
    out = segment_sum(g, rows, num_segments=m)
    return jnp.moveaxis(out, 0, -2)


def _dense_matmul_sparse(b, a: BCOO):
    """``b @ a`` for a dense ``b`` and a 1-D/2-D ``BCOO`` ``a``."""
    if b.ndim == 0:
        raise ValueError("matmul: Input operand 0 does not have enough dimensions")
    dtype = _result_dtype(a, b)
    data = a.data.astype(dtype)
    b = b.astype(dtype)
    k = a.shape[0]
    if b.shape[-1] != k:
        raise TypeError(
            f"dot_general requires contracting dimensions to have the same "
            f"shape, got ({b.shape[-1]},) and ({k},)."
        )
    if a.ndim == 1:
        return jnp.sum(_gather_rows(b, a.indices[:, 0], b.ndim - 1) * data, axis=-1)
    if a.ndim != 2:
        raise _not_implemented(f"matmul with a {a.ndim}-d BCOO")
    rows, cols = a.indices[:, 0], a.indices[:, 1]
    g = _gather_rows(b, rows, b.ndim - 1) * data  # (..., nse)
    g = jnp.moveaxis(g, -1, 0)
    out = segment_sum(g, cols, num_segments=a.shape[1])
    return jnp.moveaxis(out, 0, -1)


def bcoo_fromdense(
    mat, *, nse=None, n_batch: int = 0, n_dense: int = 0, index_dtype=np.int32
) -> BCOO:
    """``BCOO.fromdense`` as a function (``jax.experimental.sparse.bcoo_fromdense``)."""
    return BCOO.fromdense(mat, nse=nse, n_batch=n_batch, n_dense=n_dense, index_dtype=index_dtype)


def bcoo_todense(mat: BCOO):
    """``mat.todense()`` (``jax.experimental.sparse.bcoo_todense``)."""
    return mat.todense()


def todense(arr):
    """A sparse array's dense value; any other value is returned as it is."""
    if isinstance(arr, JAXSparse):
        return arr.todense()
    return arr
