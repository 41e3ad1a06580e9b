"""``Mesh``, ``AbstractMesh``, ``AxisType``, ``make_mesh`` and the mesh context (S2)."""

from __future__ import annotations

import collections
import enum
import math
import threading
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxlite._src import config as _cfg, devices as _devices
from jaxlite._src.core import sharding_hooks


class AxisType(enum.Enum):
    """How a mesh axis is partitioned (``jax.sharding.AxisType``)."""

    Auto = enum.auto()
    Explicit = enum.auto()
    Manual = enum.auto()

    def __repr__(self) -> str:
        return self.name


def _types_str(axis_types) -> str:
    inner = ", ".join(t.name for t in axis_types)
    return f"({inner},)" if len(axis_types) == 1 else f"({inner})"


def _short_axes(names, sizes) -> str:
    return ", ".join(f"'{n}': {s}" for n, s in zip(names, sizes))


class _MeshBase:
    axis_names: tuple
    axis_sizes: tuple
    axis_types: tuple

    @property
    def shape(self) -> collections.OrderedDict:
        return collections.OrderedDict(zip(self.axis_names, self.axis_sizes))

    @property
    def shape_tuple(self) -> tuple:
        return tuple(zip(self.axis_names, self.axis_sizes))

    @property
    def size(self) -> int:
        return math.prod(self.axis_sizes)

    @property
    def empty(self) -> bool:
        return not self.axis_names

    def axis_type_of(self, name) -> AxisType:
        return self.axis_types[self.axis_names.index(name)]

    @property
    def explicit_axes(self) -> tuple:
        return tuple(n for n, t in zip(self.axis_names, self.axis_types) if t == AxisType.Explicit)

    @property
    def auto_axes(self) -> tuple:
        return tuple(n for n, t in zip(self.axis_names, self.axis_types) if t == AxisType.Auto)

    @property
    def manual_axes(self) -> tuple:
        return tuple(n for n, t in zip(self.axis_names, self.axis_types) if t == AxisType.Manual)

    @property
    def all_explicit(self) -> bool:
        return bool(self.axis_types) and all(t == AxisType.Explicit for t in self.axis_types)

    # JAX's names (flax.core.spmd asks ``mesh.are_all_axes_explicit``): every axis is of
    # the type; ``False`` for a mesh without axes.
    @property
    def are_all_axes_explicit(self) -> bool:
        return self.all_explicit

    @property
    def are_all_axes_auto(self) -> bool:
        return bool(self.axis_types) and all(t == AxisType.Auto for t in self.axis_types)

    @property
    def are_all_axes_manual(self) -> bool:
        return bool(self.axis_types) and all(t == AxisType.Manual for t in self.axis_types)


class AbstractMesh(_MeshBase):
    """A mesh's axis names, sizes and types without devices (``jax.sharding.AbstractMesh``)."""

    def __init__(self, axis_sizes: tuple, axis_names: tuple, axis_types=None):
        self.axis_sizes = tuple(int(s) for s in axis_sizes)
        self.axis_names = tuple(axis_names)
        if axis_types is None:
            axis_types = (AxisType.Auto,) * len(self.axis_names)
        self.axis_types = tuple(axis_types)

    def __eq__(self, other):
        return (
            isinstance(other, AbstractMesh)
            and self.axis_sizes == other.axis_sizes
            and self.axis_names == other.axis_names
            and self.axis_types == other.axis_types
        )

    def __hash__(self):
        return hash((self.axis_sizes, self.axis_names, self.axis_types))

    def __repr__(self) -> str:
        if self.empty:
            return "AbstractMesh((), axis_types=())"
        return (
            f"AbstractMesh({_short_axes(self.axis_names, self.axis_sizes)}, "
            f"axis_types={_types_str(self.axis_types)}, device_kind=cpu, num_cores=None, "
            "platform=cpu)"
        )

    @property
    def abstract_mesh(self) -> AbstractMesh:
        return self


class Mesh(_MeshBase):
    """A named grid of devices (``jax.sharding.Mesh``).

    Args:
        devices: an ndarray (or nested sequence) of ``Device``s.
        axis_names: one name per dimension of ``devices`` (a single str for one axis).
        axis_types: one ``AxisType`` per axis; default ``Auto`` for every axis (S2.2).

    Raises:
        ValueError: if ``devices.ndim != len(axis_names)``.
    """

    def __init__(self, devices: Any, axis_names: Any, axis_types: Any = None):
        if isinstance(axis_names, str):
            axis_names = (axis_names,)
        axis_names = tuple(axis_names)
        arr = np.empty(np.shape(np.asarray(devices, dtype=object)), dtype=object)
        src = np.asarray(devices, dtype=object)
        for idx in np.ndindex(arr.shape):
            arr[idx] = src[idx]
        if arr.ndim != len(axis_names):
            raise ValueError(
                "Mesh requires the ndim of its first argument (`devices`) to equal the length "
                f"of its second argument (`axis_names`), but got devices.ndim == {arr.ndim} "
                f"and len(axis_names) == {len(axis_names)}."
            )
        if axis_types is None:
            axis_types = (AxisType.Auto,) * len(axis_names)
        elif isinstance(axis_types, AxisType):
            axis_types = (axis_types,)
        axis_types = tuple(axis_types)
        if len(axis_types) != len(axis_names):
            raise ValueError(
                f"Number of axis names should match the number of axis_types. Got "
                f"axis_names={axis_names} and axis_types={axis_types}"
            )
        if len(set(axis_names)) != len(axis_names):
            raise ValueError(f"Mesh axis names must be unique, got {axis_names}")
        flat = list(arr.flat)
        if len({id(d) for d in flat}) != len(flat):
            raise ValueError(f"Mesh devices must be unique, got {flat}")
        arr.flags.writeable = False
        self.devices = arr
        self.axis_names = axis_names
        self.axis_sizes = tuple(arr.shape)
        self.axis_types = axis_types
        self._key = (tuple(d.id for d in flat), self.axis_sizes, axis_names, axis_types)
        self._hash = hash(self._key)  # a mesh context is in every jit cache key: hash once

    @property
    def device_ids(self) -> np.ndarray:
        return np.vectorize(lambda d: d.id, otypes=[np.int64])(self.devices)

    @property
    def local_devices(self) -> list:
        me = _devices.process_index()
        return [d for d in self.devices.flat if d.process_index == me]

    @property
    def is_multi_process(self) -> bool:
        return len({d.process_index for d in self.devices.flat}) > 1

    @property
    def local_mesh(self) -> Mesh:
        """The sub-mesh of this process's devices (``jax.sharding.Mesh.local_mesh``): the
        mesh itself in one process; across processes the smallest block of the device grid
        holding this process's devices."""
        if not self.is_multi_process:
            return self
        me = _devices.process_index()
        mine = np.vectorize(lambda d: d.process_index == me, otypes=[bool])(self.devices)
        index = [
            np.flatnonzero(mine.any(axis=tuple(j for j in range(mine.ndim) if j != i)))
            for i in range(mine.ndim)
        ]
        return Mesh(self.devices[np.ix_(*index)], self.axis_names, self.axis_types)

    @property
    def abstract_mesh(self) -> AbstractMesh:
        return AbstractMesh(self.axis_sizes, self.axis_names, self.axis_types)

    def __eq__(self, other):
        return isinstance(other, Mesh) and self._key == other._key

    def __hash__(self):
        return self._hash

    def __repr__(self) -> str:
        if self.empty:
            return "Mesh(axis_sizes=(), axis_names=())"
        return (
            f"Mesh(axis_sizes={self.axis_sizes}, axis_names={self.axis_names}, "
            f"axis_types={_types_str(self.axis_types)})"
        )

    def short_str(self) -> str:
        return (
            f"Mesh({_short_axes(self.axis_names, self.axis_sizes)}, "
            f"axis_types={_types_str(self.axis_types)})"
        )

    __str__ = short_str

    # ``with mesh:`` (deprecated in 0.10.2, still works).
    def __enter__(self):
        if _cfg.config.read("jax_disallow_mesh_context_manager"):
            raise RuntimeError("Mesh context manager is disabled.")
        sharding_hooks.callback_wrap = _run_cleared
        warnings.warn(
            "`with mesh:` context manager has been deprecated. Please use `with "
            "jax.set_mesh(mesh):` instead.",
            DeprecationWarning,
            stacklevel=2,
        )
        _ctx.stack.append(_ctx.mesh)
        _ctx.mesh = self
        return self

    def __exit__(self, *exc):
        _ctx.mesh = _ctx.stack.pop()
        return False


def _empty_mesh() -> Mesh:
    m = object.__new__(Mesh)
    m.devices = np.empty((0,), dtype=object)
    m.axis_names, m.axis_sizes, m.axis_types = (), (), ()
    m._key = ((), (), (), ())
    m._hash = hash(m._key)
    return m


_EMPTY_MESH = _empty_mesh()
_EMPTY_ABSTRACT = AbstractMesh((), ())


def make_mesh(
    axis_shapes: Sequence[int],
    axis_names: Sequence[str],
    axis_types: Sequence[AxisType] | None = None,
    *,
    devices: Sequence | None = None,
) -> Mesh:
    """A mesh over the first ``prod(axis_shapes)`` devices, row-major (``jax.make_mesh``).

    Args:
        axis_shapes: the mesh shape (entries go through ``int()``).
        axis_names: one name per axis.
        axis_types: one ``AxisType`` per axis; default ``Explicit`` for every axis (S2.1).
        devices: the devices to use (default ``jax.devices()``).

    Raises:
        ValueError: for non-integer shapes, too few devices, or a names/shape mismatch.
        TypeError: if ``axis_shapes`` is not iterable.
    """
    shapes = list(axis_shapes)
    try:
        shapes = tuple(int(s) for s in shapes)
    except (TypeError, ValueError):
        raise ValueError(
            f"`axis_shapes` passed to `make_mesh` should be a sequence of ints. Got {axis_shapes}"
        ) from None
    if isinstance(axis_names, str):
        axis_names = (axis_names,)
    axis_names = tuple(axis_names)
    if axis_types is None:
        axis_types = (AxisType.Explicit,) * len(axis_names)
    devs = list(_devices.devices() if devices is None else devices)
    need = math.prod(shapes)
    if len(devs) < need:
        raise ValueError(
            f"Number of devices {len(devs)} must be >= the product of mesh_shape {shapes}"
        )
    arr = np.empty(len(devs[:need]), dtype=object)
    for i, d in enumerate(devs[:need]):
        arr[i] = d
    if len(shapes) != len(axis_names):
        raise ValueError(
            "Mesh requires the ndim of its first argument (`devices`) to equal the length "
            f"of its second argument (`axis_names`), but got devices.ndim == {len(shapes)} "
            f"and len(axis_names) == {len(axis_names)}."
        )
    return Mesh(arr.reshape(shapes), axis_names, axis_types)


# ------------------------------------------------------------------------ mesh context
class _MeshCtx(threading.local):
    def __init__(self):
        self.mesh = _EMPTY_MESH
        self.stack: list = []


_ctx = _MeshCtx()
# The mesh set globally with ``jax.set_mesh(m)`` (not as a context manager); threads start
# from it.
_global_mesh = [_EMPTY_MESH]


def _current() -> Mesh:
    m = _ctx.mesh
    if m is _EMPTY_MESH and not _ctx.stack:
        return _global_mesh[0]
    return m


def _sync_trace_context() -> None:
    """Name the mesh context in jit's cache key (config.epoch): a trace reads it (creation
    under ``set_mesh``, ``P`` specs, shard_map...). Called after every change of it.

    Two entries: the global mesh (what threads without a context of their own see), and
    this thread's own mesh context where it has one (an empty one too, unless the global
    mesh is empty as well: then it changes nothing a trace sees)."""
    g = _global_mesh[0]
    _cfg.set_global_trace_context("mesh", None if g.empty else g)
    local = None
    if _ctx.stack or _ctx.mesh is not _EMPTY_MESH:
        local = _ctx.mesh
        if local.empty and g.empty:
            local = None
    _cfg.set_trace_context("mesh", local)


class set_mesh:  # noqa: N801 (JAX's name)
    """Set the mesh context (``jax.set_mesh``): as a context manager, or globally.

    Raises:
        ValueError: for anything but a ``Mesh`` or ``None``.
    """

    def __init__(self, mesh: Mesh | None):
        if mesh is not None and not isinstance(mesh, Mesh):
            raise ValueError(f"Expected mesh of type `jax.sharding.Mesh`. Got {type(mesh)}")
        new = _EMPTY_MESH if mesh is None else mesh
        if not new.empty:
            sharding_hooks.callback_wrap = _run_cleared  # K13, from now on
        self._prev = _current()
        self._prev_global = _global_mesh[0]
        _ctx.mesh = new
        _global_mesh[0] = new
        _sync_trace_context()

    def __enter__(self):
        _ctx.stack.append(self._prev)
        _sync_trace_context()
        return _ctx.mesh

    def __exit__(self, *exc):
        _ctx.stack.pop()
        _ctx.mesh = self._prev
        _global_mesh[0] = self._prev_global
        _sync_trace_context()
        return False


# The last (thread's trace-context key, global mesh, state inside ``_cleared_mesh``),
# matched by identity: one tuple, replaced whole, so threads never see a mixed one.
_last_cleared: list = [None]


class _cleared_mesh:  # noqa: N801
    """Inside a callback the mesh context is empty (K13)."""

    def __enter__(self):
        m = self._saved_mesh = _ctx.mesh
        self._saved_stack = _ctx.stack
        # The cache key changes only if a mesh was visible (the common case, no mesh
        # context, stays as cheap as it was: this runs around every callback).
        self._sync = (m if m is not _EMPTY_MESH or self._saved_stack else _global_mesh[0]) is not (
            _EMPTY_MESH
        )
        _ctx.mesh = _EMPTY_MESH
        _ctx.stack = [_EMPTY_MESH]
        if self._sync:
            # The cleared state of each context is computed once (this runs per callback).
            saved = self._saved_key = _cfg.trace_context_state()
            last, g = _last_cleared[0], _global_mesh[0]
            if last is not None and last[0] is saved[2] and last[1] is g:
                _cfg.restore_trace_context_state(last[2])
            else:
                _sync_trace_context()
                _last_cleared[0] = (saved[2], g, _cfg.trace_context_state())
        return self

    def __exit__(self, *exc):
        _ctx.mesh, _ctx.stack = self._saved_mesh, self._saved_stack
        if self._sync:
            # The global mesh is unchanged: only this thread's key is restored.
            _cfg.restore_trace_context_state(self._saved_key)
        return False


def _run_cleared(run, fn, args, kwargs):
    with _cleared_mesh():
        return run(fn, args, kwargs)


def get_mesh() -> Mesh:
    """The context's concrete mesh (``jax.sharding.get_mesh``); an empty mesh if none."""
    return _current()


def concrete_mesh(mesh: AbstractMesh, own_devices, aval) -> Mesh:
    """The devices a value of ``aval`` placed on ``mesh`` (an abstract mesh) lands on, as
    JAX resolves them: the context mesh's (``jax.set_mesh``), else ``own_devices`` (the
    value's own), in id order, shaped as ``mesh``.

    Raises:
        ValueError: if there are not exactly as many devices as the mesh has (JAX's text).
    """
    ctx = _current()
    if not ctx.empty:
        devices = list(ctx.devices.flat)
    else:
        devices = sorted(own_devices, key=lambda d: d.id)
    if len(devices) != mesh.size:
        raise ValueError(
            f"Length of device assignment {len(devices)} is not equal to the size of the "
            f"mesh {mesh.size} of aval {aval.str_short(short_dtypes=True)}. Please enter "
            "your `jit` into a mesh context via `jax.set_mesh`."
        )
    grid = np.empty(len(devices), dtype=object)
    grid[:] = devices
    return Mesh(grid.reshape(mesh.axis_sizes), mesh.axis_names, mesh.axis_types)


def get_abstract_mesh() -> AbstractMesh:
    """The context's abstract mesh (``jax.sharding.get_abstract_mesh``)."""
    m = _current()
    return _EMPTY_ABSTRACT if m.empty else m.abstract_mesh


__all__ = [
    "AbstractMesh",
    "AxisType",
    "Mesh",
    "concrete_mesh",
    "get_abstract_mesh",
    "get_mesh",
    "make_mesh",
    "set_mesh",
]
