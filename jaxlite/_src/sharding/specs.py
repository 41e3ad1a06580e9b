"""``PartitionSpec`` and the sharding classes (S3, S4).

A sharding answers one question: which block of a global array each device holds
(``devices_indices_map``). ``NamedSharding`` derives it from a mesh and a spec: dimension
``d`` is cut into ``prod(mesh.shape[n] for n in spec[d])`` blocks, the first name major.
"""

from __future__ import annotations

import math
from typing import Any

from jaxlite._src.core.errors import ShardingTypeError
from jaxlite._src.sharding.mesh import AbstractMesh, AxisType, Mesh


class IndivisibleError(ValueError):
    """A dimension is not divisible by its mesh axes (``jax.sharding`` raises it)."""


class DuplicateSpecError(Exception):
    """A spec maps one mesh axis to two dimensions."""


class _UnconstrainedSingleton:
    def __repr__(self):
        return "UNCONSTRAINED"


class PartitionSpec(tuple):
    """How each array dimension is split over mesh axes (``jax.sharding.PartitionSpec``, ``jax.P``).

    Each entry is ``None`` (not split), a mesh axis name, or a tuple of names (split over
    their product, the first name major). Missing trailing entries mean ``None``. Equality is
    structural: ``P('x') != P('x', None)`` (S3.2).
    """

    UNCONSTRAINED = _UnconstrainedSingleton()

    def __new__(cls, *partitions, unreduced=frozenset(), reduced=frozenset()):
        parts = tuple(_canonical_entry(p) for p in partitions)
        obj = super().__new__(cls, parts)
        obj.unreduced = frozenset(unreduced)
        obj.reduced = frozenset(reduced)
        return obj

    def __repr__(self) -> str:
        body = ", ".join(repr(p) for p in self)
        if len(self) == 1:
            body += ","
        extra = ""
        if self.unreduced:
            extra += f", unreduced={set(sorted(self.unreduced))!r}"
        if self.reduced:
            extra += f", reduced={set(sorted(self.reduced))!r}"
        return f"P({body}{extra})"

    __str__ = __repr__

    def __eq__(self, other):
        if isinstance(other, PartitionSpec):
            return (
                tuple.__eq__(self, other)
                and self.unreduced == other.unreduced
                and self.reduced == other.reduced
            )
        return False

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash((tuple(self), self.unreduced, self.reduced))

    def __getitem__(self, i):
        r = tuple.__getitem__(self, i)
        return tuple(r) if isinstance(i, slice) else r

    def __reduce__(self):
        return (_make_spec, (tuple(self), self.unreduced, self.reduced))

    @property
    def _partitions(self):
        return tuple(self)


def _canonical_entry(p):
    # As JAX: a list is a tuple, a one-name tuple is the bare name, an empty one None.
    if isinstance(p, list):
        p = tuple(p)
    if isinstance(p, tuple) and len(p) <= 1:
        return p[0] if p else None
    return p


def _make_spec(parts, unreduced, reduced):
    return PartitionSpec(*parts, unreduced=unreduced, reduced=reduced)


P = PartitionSpec


def entry_names(entry) -> tuple:
    """The mesh axis names of one spec entry (``None`` -> ``()``)."""
    if entry is None or entry is PartitionSpec.UNCONSTRAINED:
        return ()
    if isinstance(entry, tuple):
        return tuple(entry)
    return (entry,)


def spec_axes(spec) -> list:
    """Every mesh axis name a spec mentions, in order."""
    return [n for e in spec for n in entry_names(e)]


def padded(spec, ndim: int) -> tuple:
    """The spec's entries padded with ``None`` to ``ndim``."""
    return tuple(spec) + (None,) * (ndim - len(spec))


class Sharding:
    """Base class of shardings (``jax.sharding.Sharding``)."""

    memory_kind = "device"

    @property
    def device_set(self) -> set:
        raise NotImplementedError

    @property
    def num_devices(self) -> int:
        return len(self.device_set)

    @property
    def addressable_devices(self) -> set:
        from jaxlite._src import devices as _devices

        me = _devices.process_index()
        return {d for d in self.device_set if d.process_index == me}

    @property
    def is_fully_addressable(self) -> bool:
        return self.addressable_devices == self.device_set

    def devices_indices_map(self, global_shape: tuple) -> dict:
        raise NotImplementedError

    def addressable_devices_indices_map(self, global_shape: tuple) -> dict:
        me = self.addressable_devices
        return {d: i for d, i in self.devices_indices_map(global_shape).items() if d in me}

    def shard_shape(self, global_shape: tuple) -> tuple:
        raise NotImplementedError

    def is_equivalent_to(self, other: Sharding, ndim: int) -> bool:
        """Whether both place every block of a rank-``ndim`` array on the same devices."""
        if not isinstance(other, Sharding):
            return False
        shape = tuple([_LCM] * ndim)
        try:
            return _norm_map(self, shape) == _norm_map(other, shape)
        except ValueError:
            return False

    @property
    def _device_assignment(self) -> tuple:
        return tuple(sorted(self.device_set, key=lambda d: d.id))


_LCM = 2**4 * 3**2 * 5 * 7  # a dimension size divisible by any small mesh


def _norm_map(s: Sharding, shape) -> dict:
    return {
        d: tuple(
            (sl.start or 0, sl.stop if sl.stop is not None else n) for sl, n in zip(idx, shape)
        )
        for d, idx in s.devices_indices_map(shape).items()
    }


class SingleDeviceSharding(Sharding):
    """The whole array on one device (``jax.sharding.SingleDeviceSharding``)."""

    def __init__(self, device, *, memory_kind: str | None = None):
        self._device = device

    @property
    def device_set(self) -> set:
        return {self._device}

    @property
    def is_fully_replicated(self) -> bool:
        return True

    def devices_indices_map(self, global_shape: tuple) -> dict:
        return {self._device: (slice(None),) * len(global_shape)}

    def shard_shape(self, global_shape: tuple) -> tuple:
        return tuple(global_shape)

    def __eq__(self, other):
        return isinstance(other, SingleDeviceSharding) and other._device is self._device

    def __hash__(self):
        return hash(("single", id(self._device)))

    def __repr__(self) -> str:
        return f"SingleDeviceSharding(device={self._device!r}, memory_kind=device)"


def _check_spec(mesh, spec) -> None:
    if not isinstance(spec, PartitionSpec):
        raise TypeError(
            f"NamedSharding spec must be a jax.sharding.PartitionSpec (jax.P), got "
            f"{type(spec).__name__} {spec!r}"
        )
    seen: set = set()
    for n in spec_axes(spec):
        if n not in mesh.axis_names:
            raise ValueError(
                f"Resource axis: {n} of {spec} is not found in mesh: {mesh.axis_names}."
            )
        if n in seen:
            raise DuplicateSpecError(
                "A single NamedSharding spec specification can map every mesh axis to at most "
                f"one positional dimension, but {spec} has duplicate entries for `{n}`"
            )
        seen.add(n)


class NamedSharding(Sharding):
    """Blocks of an array over a mesh, per a ``PartitionSpec`` (``jax.sharding.NamedSharding``).

    Args:
        mesh: a ``Mesh`` (or an ``AbstractMesh``, for types).
        spec: a ``PartitionSpec``.

    Raises:
        ValueError: for a spec naming an axis the mesh does not have.
        DuplicateSpecError: for a spec naming one axis twice.
        TypeError: for a spec that is not a ``PartitionSpec`` (JAX: ``AttributeError``).
    """

    def __init__(self, mesh: Mesh | AbstractMesh, spec: PartitionSpec, *, memory_kind=None):
        _check_spec(mesh, spec)
        self.mesh = mesh
        self.spec = spec

    def update(self, **kwargs) -> NamedSharding:
        """A copy with ``mesh=`` and/or ``spec=`` replaced (``NamedSharding.update``; flax's
        scan drops a carry's leading axis this way); other keywords are ignored, as in JAX."""
        return NamedSharding(kwargs.get("mesh", self.mesh), kwargs.get("spec", self.spec))

    @property
    def device_set(self) -> set:
        return set(self.mesh.devices.flat)

    @property
    def num_devices(self) -> int:
        return self.mesh.size

    @property
    def is_fully_replicated(self) -> bool:
        return all(self.mesh.shape[n] == 1 for n in spec_axes(self.spec))

    def _tiling(self, ndim: int) -> list:
        return [
            math.prod(self.mesh.shape[n] for n in entry_names(e)) for e in padded(self.spec, ndim)
        ]

    def check_shape(self, global_shape: tuple) -> None:
        """Raise if the spec does not fit ``global_shape`` (rank, divisibility)."""
        if len(self.spec) > len(global_shape):
            raise ValueError(
                f"Sharding {self} is only valid for values of rank at least {len(self.spec)}, "
                f"but was applied to a value of rank {len(global_shape)}."
            )
        tiling = self._tiling(len(global_shape))
        for d, (n, t) in enumerate(zip(global_shape, tiling)):
            if n % t:
                raise IndivisibleError(
                    f"Sharding {self} implies that array axis {d} is partitioned {t} times, "
                    f"but the dimension size is {n} (full shape: {tuple(global_shape)}, "
                    f"per-dimension tiling factors: {tiling} should evenly divide the shape)"
                )

    def shard_shape(self, global_shape: tuple) -> tuple:
        self.check_shape(global_shape)
        return tuple(n // t for n, t in zip(global_shape, self._tiling(len(global_shape))))

    def block_coords(self, ndim: int) -> dict:
        """device -> the block index along each dimension (first name major)."""
        names = self.mesh.axis_names
        out = {}
        shape = self.mesh.axis_sizes
        for flat_i, dev in enumerate(self.mesh.devices.flat):
            coords = dict(zip(names, _unravel(flat_i, shape)))
            blk = []
            for e in padded(self.spec, ndim):
                b = 0
                for n in entry_names(e):
                    b = b * self.mesh.shape[n] + coords[n]
                blk.append(b)
            out[dev] = tuple(blk)
        return out

    def devices_indices_map(self, global_shape: tuple) -> dict:
        sizes = self.shard_shape(global_shape)
        tiling = self._tiling(len(global_shape))
        out = {}
        for dev, blk in self.block_coords(len(global_shape)).items():
            out[dev] = tuple(
                slice(None) if t == 1 else slice(b * s, (b + 1) * s)
                for b, s, t in zip(blk, sizes, tiling)
            )
        return out

    def with_spec(self, spec) -> NamedSharding:
        return NamedSharding(self.mesh, spec)

    def __eq__(self, other):
        return (
            isinstance(other, NamedSharding) and self.mesh == other.mesh and self.spec == other.spec
        )

    def __hash__(self):
        return hash((self.mesh, self.spec))

    def __repr__(self) -> str:
        if not isinstance(self.mesh, Mesh):
            # Over an AbstractMesh (``jax.typeof(x).sharding``) JAX prints no memory kind.
            return f"NamedSharding(mesh={self.mesh!r}, spec={self.spec})"
        return f"NamedSharding(mesh={self.mesh.short_str()}, spec={self.spec}, memory_kind=device)"


def _unravel(i: int, shape: tuple) -> tuple:
    out = []
    for s in reversed(shape):
        out.append(i % s)
        i //= s
    return tuple(reversed(out))


def replica_ids(sharding: Sharding, shape: tuple) -> dict:
    """device -> how many earlier devices (in device order) hold the same block."""
    seen: dict = {}
    out = {}
    for dev, idx in sharding.devices_indices_map(shape).items():
        key = tuple((s.start, s.stop) for s in idx)
        out[dev] = seen.get(key, 0)
        seen[key] = out[dev] + 1
    return out


def make_single_device_sharding(device) -> SingleDeviceSharding:
    return SingleDeviceSharding(device)


__all__ = [
    "AxisType",
    "DuplicateSpecError",
    "IndivisibleError",
    "NamedSharding",
    "P",
    "PartitionSpec",
    "Sharding",
    "ShardingTypeError",
    "SingleDeviceSharding",
    "entry_names",
    "make_single_device_sharding",
    "padded",
    "replica_ids",
    "spec_axes",
]
