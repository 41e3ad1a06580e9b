"""Sharded arrays, ``device_put`` and the output-sharding rule (S5, S7.4).

Data model (S12.2): a ``ShardedArray`` is an ``ArrayImpl`` (one global, read-only NumPy value)
plus a ``Sharding`` and a ``committed`` flag. Each device's shard is a view of the global
value (``addressable_shards``), so placement copies nothing and every operation computes the
exact single-device value. A plain ``ArrayImpl`` is an uncommitted array on the default
device.

Output shardings of eager operations and of ``jit`` without ``out_shardings`` follow one
generic rule (``result_sharding``), never a per-primitive one: a result with the shape of a
sharded operand takes that operand's sharding, any other result is replicated (``P()``) on
the operands' mesh; single-device operands give that device.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxlite._src import devices as _devices, dtypes, tree_util
from jaxlite._src.core import sharding_hooks
from jaxlite._src.core.array import Array, ArrayImpl
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.trace import Tracer
from jaxlite._src.sharding.mesh import AxisType, Mesh, get_mesh
from jaxlite._src.sharding.specs import (
    IndivisibleError,
    NamedSharding,
    PartitionSpec,
    Sharding,
    SingleDeviceSharding,
    entry_names,
    padded,
    replica_ids,
)


class ShardedArray(ArrayImpl):
    """An ``ArrayImpl`` placed by a ``Sharding`` (committed, or produced from sharded inputs)."""

    __slots__ = ("_sharding", "_committed")

    def __init__(self, value: np.ndarray, aval: ShapedArray, sharding: Sharding, committed=True):
        super().__init__(value, aval)
        self._sharding = sharding
        self._committed = committed


def _default_sharding() -> SingleDeviceSharding:
    return SingleDeviceSharding(_devices.default_device())


def sharding_of(x: Any) -> Sharding:
    """The sharding of a concrete array (the default device for plain arrays)."""
    s = getattr(x, "_sharding", None)
    return _default_sharding() if s is None else s


def is_committed(x: Any) -> bool:
    return bool(getattr(x, "_committed", False))


class Shard:
    """One device's block of an array (``jax.Shard``)."""

    __slots__ = ("device", "index", "replica_id", "_array")

    def __init__(self, device, index, replica_id, array):
        self.device = device
        self.index = index
        self.replica_id = replica_id
        self._array = array

    @property
    def data(self):
        return self._array

    def __repr__(self) -> str:
        return (
            f"Shard(device={self.device!r}, index={self.index}, replica_id={self.replica_id}, "
            f"data={self._array})"
        )


def _shards(x: ArrayImpl) -> list:
    s = sharding_of(x)
    shape = x.aval.shape
    reps = replica_ids(s, shape)
    out = []
    for dev, idx in s.devices_indices_map(shape).items():
        block = x._value[idx]
        aval = ShapedArray(block.shape, x.aval.dtype, x.aval.weak_type)
        out.append(Shard(dev, idx, reps[dev], ShardedArray(block, aval, SingleDeviceSharding(dev))))
    return out


def _device_prop(x):
    s = sharding_of(x)
    devs = s.device_set
    if len(devs) == 1:
        return next(iter(devs))
    return s


def _install_array_properties() -> None:
    ArrayImpl.sharding = property(sharding_of, doc="The array's ``Sharding``.")
    ArrayImpl.committed = property(is_committed)
    ArrayImpl.addressable_shards = property(_shards, doc="Shards on this process's devices.")
    ArrayImpl.global_shards = property(_shards)
    ArrayImpl.is_fully_replicated = property(lambda x: sharding_of(x).is_fully_replicated)
    ArrayImpl.is_fully_addressable = property(lambda x: sharding_of(x).is_fully_addressable)
    ArrayImpl.devices = lambda x: set(sharding_of(x).device_set)
    ArrayImpl.device = property(_device_prop)
    ArrayImpl.addressable_data = lambda x, i: _shards(x)[i].data


_install_array_properties()


# ----------------------------------------------------------------------------- placement
def _resolve(target: Any, what: str = "device_put") -> Sharding | None:
    """A device, ``Sharding`` or ``P`` as a ``Sharding`` (``None`` stays ``None``)."""
    if target is None or isinstance(target, Sharding):
        return target
    if isinstance(target, _devices.Device):
        return SingleDeviceSharding(target)
    if isinstance(target, PartitionSpec):
        mesh = get_mesh()
        if mesh.empty:
            raise ValueError(
                f"Please set a mesh via `jax.set_mesh` if a PartitionSpec is passed to {what}"
            )
        return NamedSharding(mesh, target)
    raise TypeError(
        f"{what} expects a Device, a Sharding or a PartitionSpec as its target, got "
        f"{type(target).__name__}: {target!r}"
    )


def check_fits(sharding: Sharding, aval: ShapedArray, what: str = "device_put args") -> None:
    """Raise JAX's errors if ``sharding`` cannot place a value of type ``aval`` (S5.4)."""
    if not isinstance(sharding, NamedSharding):
        return
    shape = aval.shape
    if len(sharding.spec) > len(shape):
        raise ValueError(
            f"One of {what} is incompatible with its sharding annotation {sharding}: "
            f"Sharding {sharding} is only valid for values of rank at least "
            f"{len(sharding.spec)}, but was applied to a value of rank {len(shape)}."
        )
    mesh = sharding.mesh
    explicit = any(
        mesh.axis_type_of(n) == AxisType.Explicit for e in sharding.spec for n in entry_names(e)
    )
    try:
        sharding.check_shape(shape)
    except IndivisibleError as e:
        if not explicit:
            raise
        tiling = sharding._tiling(len(shape))
        d = next(i for i, (n, t) in enumerate(zip(shape, tiling)) if n % t)
        abstract = str(NamedSharding(mesh.abstract_mesh, sharding.spec))
        abstract = abstract.replace(", memory_kind=device", "")
        raise ValueError(
            f"Sharding spec {tuple(sharding.spec)} implies that array axis {d} is partitioned "
            f"{tiling[d]} times, but does not evenly divide the dimension size {shape[d]}. Got "
            f"shape: {tuple(shape)} and sharding {abstract}"
        ) from e


def _as_value(v: Any) -> tuple[np.ndarray, ShapedArray]:
    if isinstance(v, Tracer):
        raise TypeError("device_put of a traced value with a sharding is not supported")
    if isinstance(v, ArrayImpl):
        return v._value, v.aval
    if hasattr(v, "__jax_array__"):
        return _as_value(v.__jax_array__())
    aval = aval_of(v)
    value = np.array(v, dtype=aval.dtype)
    return value, aval


def place(v: Any, sharding: Sharding, committed: bool = True) -> ShardedArray:
    value, aval = _as_value(v)
    check_fits(sharding, aval)
    return ShardedArray(value, aval, sharding, committed)


def _is_target_leaf(x) -> bool:
    return x is None or isinstance(x, (Sharding, _devices.Device, PartitionSpec))


def device_put(
    x: Any, device: Any = None, *, src: Any = None, donate: bool = False, may_alias=None
):
    """Place the arrays of ``x`` (``jax.device_put``).

    Args:
        x: a pytree of arrays or array-likes.
        device: ``None`` (the default device, uncommitted), a ``Device``, a ``Sharding``, a
            ``PartitionSpec`` (needs a mesh context), or a pytree prefix of ``x`` of these.

    Returns:
        The same tree of Arrays, committed to their targets (``device=None``: uncommitted).

    Raises:
        ValueError: for a spec that does not fit a leaf (rank, divisibility, unknown axis),
            or a ``P`` without a mesh context. Every leaf is checked before any is placed.
    """
    del src, donate, may_alias
    leaves, treedef = tree_util.tree_flatten(x)
    if _is_target_leaf(device):
        targets = [device] * len(leaves)
    else:
        targets = tree_util.broadcast_prefix(device, x, is_leaf=_is_target_leaf)
    shardings = [_resolve(t) for t in targets]
    plans = []
    for v, s in zip(leaves, shardings):
        if s is None or isinstance(v, Tracer):
            # Under a transformation placement is the enclosing computation's business:
            # the value passes through (check what can be checked).
            if s is not None:
                check_fits(s, v.aval)
            plans.append((v, None))
            continue
        value, aval = _as_value(v)
        check_fits(s, aval)
        plans.append((value, aval, s))
    out = []
    for plan in plans:
        if len(plan) == 2:
            out.append(_uncommitted(plan[0]))
        else:
            value, aval, s = plan
            out.append(ShardedArray(value, aval, s, True))
    return tree_util.tree_unflatten(treedef, out)


def _uncommitted(v):
    if isinstance(v, Array):
        return v
    value, aval = _as_value(v)
    return ArrayImpl(value, aval)


# ------------------------------------------------------------------------ output rule
def _device_ids(s: Sharding) -> list:
    return sorted(d.id for d in s.device_set)


def _type_str(aval) -> str:
    return f"{aval.dtype.name}[{','.join(map(str, aval.shape))}]"


def _incompatible(prim_name: str, a, i, b, j, extra: str = "", names=None) -> ValueError:
    def arg(x, k):
        if names is not None:
            name = names[k]
        else:
            name = ("x", "y")[k] if k < 2 else f"args[{k}]"
        return (
            f"argument {name} of {prim_name} with shape {_typed_str(x)} and with device ids "
            f"{_device_ids(sharding_of(x))} on platform CPU"
        )

    return ValueError(
        f"Received incompatible devices for jitted computation. Got {arg(a, i)} and "
        f"{arg(b, j)}{extra}"
    )


def _typed_str(x) -> str:
    # ``float32[8@x,8]`` on an Explicit mesh, as JAX prints the type.
    s = sharding_of(x)
    return spec_str(x.aval, s) if isinstance(s, NamedSharding) else _type_str(x.aval)


def check_devices(name: str, args: list, names=None) -> None:
    """Committed operands must share their devices (S5.5)."""
    committed = [(i, a) for i, a in enumerate(args) if getattr(a, "_committed", False)]
    if len(committed) > 1:
        i0, a0 = committed[0]
        d0 = a0._sharding.device_set
        for i, a in committed[1:]:
            if a._sharding.device_set != d0:
                raise _incompatible(name, a0, i0, a, i, names=names)


def result_sharding(name: str, args: list, out_aval: ShapedArray):
    """The sharding of a result computed from ``args`` (None: the default, uncommitted)."""
    placed = [(i, a) for i, a in enumerate(args) if getattr(a, "_sharding", None) is not None]
    if not placed:
        return None, False
    committed = [(i, a) for i, a in placed if a._committed]
    check_devices(name, args)
    ref = committed if committed else placed
    for _, a in ref:
        s = a._sharding
        if a.aval.shape == out_aval.shape:
            return s, bool(committed)
    s = ref[0][1]._sharding
    if isinstance(s, NamedSharding):
        return NamedSharding(s.mesh, PartitionSpec()), bool(committed)
    return s, bool(committed)


def _eval_outputs(primitive, args, outs):
    single = not isinstance(outs, list)
    res = [outs] if single else outs
    new = []
    for o in res:
        s, committed = result_sharding(primitive.name, args, o.aval)
        new.append(o if s is None else ShardedArray(o._value, o.aval, s, committed))
    return new[0] if single else new


sharding_hooks.eval_outputs = _eval_outputs


def with_sharding(x: ArrayImpl, sharding: Sharding, committed: bool = True) -> ShardedArray:
    """``x`` relabelled with ``sharding`` (no copy)."""
    return ShardedArray(x._value, x.aval, sharding, committed)


def spec_str(aval: ShapedArray, sharding: Sharding) -> str:
    """``float32[8@x,8@y]`` for explicit axes (S8.1)."""
    if not isinstance(sharding, NamedSharding):
        return aval.str_short()
    mesh = sharding.mesh
    dims = []
    for n, e in zip(aval.shape, padded(sharding.spec, aval.ndim)):
        names = [a for a in entry_names(e) if mesh.axis_type_of(a) == AxisType.Explicit]
        if not names:
            dims.append(str(n))
        elif len(names) == 1:
            dims.append(f"{n}@{names[0]}")
        else:
            dims.append(f"{n}@({','.join(names)})")
    return f"{aval.dtype.name}[{','.join(dims)}]"


class ShardedType:
    """``jax.typeof`` of a placed array: its aval plus the sharding over the abstract mesh."""

    def __init__(self, aval: ShapedArray, sharding: Sharding):
        self._aval = aval
        self._concrete = sharding
        if isinstance(sharding, NamedSharding):
            explicit = [
                tuple(
                    a for a in entry_names(e) if sharding.mesh.axis_type_of(a) == AxisType.Explicit
                )
                for e in padded(sharding.spec, aval.ndim)
            ]
            spec = PartitionSpec(*[None if not t else t[0] if len(t) == 1 else t for t in explicit])
            self.sharding = NamedSharding(sharding.mesh.abstract_mesh, spec)
        else:
            self.sharding = sharding

    def __getattr__(self, name):
        return getattr(self._aval, name)

    def __eq__(self, other):
        return self._aval == (other._aval if isinstance(other, ShardedType) else other)

    def __hash__(self):
        return hash(self._aval)

    def str_short(self) -> str:
        return spec_str(self._aval, self._concrete)

    def __str__(self) -> str:
        # JAX marks a weak type with ``~`` (``~float32[8@x]``).
        return ("~" if self._aval.weak_type else "") + self.str_short()

    def __repr__(self) -> str:
        weak = ", weak_type=True" if self._aval.weak_type else ""
        return f"ShapedArray({self.str_short()}{weak})"


def typeof(x: Any):
    """``jax.typeof``: the aval, with the sharding of placed arrays (S8.1)."""
    s = getattr(x, "_sharding", None)
    if s is None:
        return aval_of(x)
    return ShardedType(x.aval, s)


def mesh_of(x) -> Mesh | None:
    s = getattr(x, "_sharding", None)
    return s.mesh if isinstance(s, NamedSharding) else None


__all__ = [
    "Shard",
    "ShardedArray",
    "ShardedType",
    "check_fits",
    "device_put",
    "is_committed",
    "place",
    "result_sharding",
    "sharding_of",
    "typeof",
    "with_sharding",
]
