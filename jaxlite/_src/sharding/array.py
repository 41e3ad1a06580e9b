"""Sharded arrays, ``device_put`` and the output-sharding rule (S5, S7.4).

Data model: a ``ShardedArray`` is an ``ArrayImpl`` placed by a ``Sharding`` (plus a
``committed`` flag) that holds **one NumPy buffer per device it lives on**
(``_buffers``: device -> read-only ndarray, in the sharding's device order). Its global
value is *gathered* from the buffers the first time it is needed (``np.asarray``, printing,
a global-view operation) and cached: arrays are immutable, so the cache never goes stale.
Conversely an array computed in the global view (an eager op, a jitted function's result)
starts from its global value, and each device's buffer is the read-only view of its block,
made on first use; nothing is copied either way.

Replicated blocks: devices holding the same block share one read-only buffer when the
array was built from a global value (JAX keeps a copy per device; nothing observable
differs, since no buffer can be written and jaxlite exposes no buffer pointers); arrays
built per device (``shard_map`` results, ``make_array_from_single_device_arrays``) keep
each device's own buffer, as JAX does: with ``check_vma=False`` the replicas of a
``P()`` result can differ, and ``addressable_shards`` shows each device's, while the gather
takes the first device (in mesh order) holding each block.

Multi-process seam: an array may hold only some devices' buffers (the addressable ones,
``Device.process_index == devices.process_index()``); build it with
``ShardedArray.from_buffers``. ``addressable_shards`` lists the buffers present,
``global_shards`` adds the remote devices with ``data=None``, and a gather that needs a
missing block raises JAX's ``RuntimeError`` ("Fetching value for `jax.Array` that spans
non-addressable ...") -- a fully replicated array gathers from any local replica.
(``multiprocess.py`` builds its arrays spanning processes, for now, as a zero-filled global
buffer holding this process's blocks, with its own guards; ``from_buffers`` is the
representation to move them to.)

Output shardings of eager operations and of ``jit`` without ``out_shardings`` follow one
generic rule (``result_sharding``), never a per-primitive one: a result with the shape of a
sharded operand takes that operand's sharding, any other result is replicated (``P()``) on
the operands' mesh; single-device operands give that device.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from jaxlite._src import devices as _devices, dtypes, tree_util
from jaxlite._src.core import sharding_hooks
from jaxlite._src.core.array import Array, ArrayImpl, DeletedBuffer, freeze_chain
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.refs import Ref
from jaxlite._src.core.shape_dtype import ShapeDtypeStruct
from jaxlite._src.core.trace import Tracer, staged_constant
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

# The base class's value slot: a ShardedArray caches its gathered global value there.
_GLOBAL = ArrayImpl._value

NOT_ADDRESSABLE = (
    "Fetching value for `jax.Array` that spans non-addressable (non process local) devices is "
    "not possible. You can use `jax.experimental.multihost_utils.process_allgather` to print "
    "the global array or use `.addressable_shards` method of jax.Array to inspect the "
    "addressable (process local) shards."
)


def _frozen(v: np.ndarray) -> np.ndarray:
    if type(v) is not np.ndarray:
        v = np.asarray(v)
    if v.flags.writeable:
        v.setflags(write=False)
    if v.base is not None:
        freeze_chain(v.base)
    return v


@functools.lru_cache(maxsize=4096)
def layout(sharding: Sharding, shape: tuple) -> tuple:
    """``((device, index, bounds), ...)`` in ``devices_indices_map`` order; ``bounds`` is
    the block as ``((start, stop), ...)`` per dimension."""
    out = []
    for dev, idx in sharding.devices_indices_map(tuple(shape)).items():
        bounds = tuple(
            (0 if s.start is None else s.start, n if s.stop is None else s.stop)
            for s, n in zip(idx, shape)
        )
        out.append((dev, idx, bounds))
    return tuple(out)


def _is_local(dev) -> bool:
    return dev.process_index == _devices.process_index()


class ShardedArray(ArrayImpl):
    """An ``ArrayImpl`` placed by a ``Sharding``, holding one buffer per device.

    ``ShardedArray(value, aval, sharding, committed)`` builds one from its global value
    (per-device buffers are views of it, made on demand); ``ShardedArray.from_buffers``
    builds one from per-device buffers (the global value is gathered on demand).
    """

    __slots__ = ("_sharding", "_committed", "_buffers")
    _placed = True

    def __init__(self, value: np.ndarray, aval: ShapedArray, sharding: Sharding, committed=True):
        super().__init__(value, aval)
        self._sharding = sharding
        self._committed = committed
        self._buffers = None

    @classmethod
    def from_buffers(
        cls, buffers: dict, aval: ShapedArray, sharding: Sharding, committed: bool = True
    ) -> ShardedArray:
        """An array from ``buffers`` (device -> the NumPy block of that device, per
        ``sharding.devices_indices_map(aval.shape)``), made read-only. Devices of
        ``sharding`` missing from ``buffers`` are not addressable here (their data lives in
        another process); gathering a block none of the present buffers holds raises."""
        self = cls.__new__(cls)
        self.aval = aval
        self._sharding = sharding
        self._committed = committed
        self._buffers = {d: _frozen(b) for d, b in buffers.items()}
        return self

    @property
    def _value(self) -> np.ndarray:
        try:
            return _GLOBAL.__get__(self, ShardedArray)
        except AttributeError:
            v = _gather(self)
            _GLOBAL.__set__(self, v)
            return v

    @_value.setter
    def _value(self, v) -> None:
        _GLOBAL.__set__(self, v)

    def delete(self) -> None:
        """``ArrayImpl.delete`` for every device's buffer (none is gathered first)."""
        _GLOBAL.__set__(self, DeletedBuffer(self.aval))
        self._buffers = None

    def is_deleted(self) -> bool:
        return self.has_global() and type(_GLOBAL.__get__(self, ShardedArray)) is DeletedBuffer

    def has_global(self) -> bool:
        """Whether the global value is at hand (given, or gathered already)."""
        try:
            _GLOBAL.__get__(self, ShardedArray)
        except AttributeError:
            return False
        return True


def _gather(x: ShardedArray) -> np.ndarray:
    """The global value of ``x`` from its buffers: each block from the first device (in
    the sharding's order) that holds it."""
    shape = x.aval.shape
    bufs = x._buffers or {}
    blocks: dict = {}
    for dev, idx, bounds in layout(x._sharding, shape):
        if bounds not in blocks or blocks[bounds] is None:
            b = bufs.get(dev)
            blocks[bounds] = None if b is None else (idx, b)
    if any(v is None for v in blocks.values()):
        raise RuntimeError(NOT_ADDRESSABLE)
    if len(blocks) == 1:  # replicated: any buffer is the whole value
        return next(iter(blocks.values()))[1]
    first = next(iter(blocks.values()))[1]
    out = np.empty(tuple(shape) + first.shape[len(shape) :], first.dtype)
    for idx, b in blocks.values():
        out[idx] = b
    out.setflags(write=False)
    return out


def buffers(x: Any) -> dict:
    """device -> buffer for the devices of this process that hold ``x`` (a concrete
    array; a plain ``ArrayImpl`` lives on the default device)."""
    b = getattr(x, "_buffers", None)
    if b is not None:
        return b
    if not isinstance(x, ShardedArray):
        return {_devices.default_device(): x._value}
    value = x._value
    b = {dev: value[idx] for dev, idx, _ in layout(x._sharding, x.aval.shape) if _is_local(dev)}
    x._buffers = b
    return b


def _contains(outer: tuple, inner: tuple) -> bool:
    return all(a0 <= b0 and b1 <= a1 for (a0, a1), (b0, b1) in zip(outer, inner))


def block_of(x: Any, device, bounds: tuple) -> np.ndarray:
    """The block ``bounds`` (``((start, stop), ...)``) of ``x``, for ``device``: a view of
    the buffer of ``device`` (or another device) that holds it, else of the global value
    (gathered if need be). ``x`` is a concrete array or a NumPy value."""
    if isinstance(x, ShardedArray) and x._buffers is not None and not x.has_global():
        lay = layout(x._sharding, x.aval.shape)
        order = sorted(lay, key=lambda t: t[0] is not device)  # the device's own first
        for dev, _, have in order:
            b = x._buffers.get(dev)
            if b is None or not _contains(have, bounds):
                continue
            if have == bounds:
                return b
            return b[tuple(slice(lo - h0, hi - h0) for (lo, hi), (h0, _) in zip(bounds, have))]
    value = x._value if isinstance(x, ArrayImpl) else x
    return value[tuple(slice(lo, hi) for lo, hi in bounds)]


def _default_sharding() -> SingleDeviceSharding:
    return SingleDeviceSharding(_devices.default_device())


def sharding_of(x: Any) -> Sharding:
    """The sharding of a concrete array (the default device for plain arrays)."""
    s = getattr(x, "_sharding", None)
    return _default_sharding() if s is None else s


def is_committed(x: Any) -> bool:
    return bool(getattr(x, "_committed", False))


class Shard:
    """One device's block of an array (``jax.Shard``); ``data`` is ``None`` for a device
    of another process."""

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


def _shards(x: ArrayImpl, include_remote: bool = False) -> list:
    s = sharding_of(x)
    shape = x.aval.shape
    reps = replica_ids(s, shape)
    bufs = buffers(x)
    local, remote = [], []
    for dev, idx, _ in layout(s, shape):
        b = bufs.get(dev)
        if b is None:
            remote.append(Shard(dev, idx, reps[dev], None))
            continue
        aval = ShapedArray(b.shape[: len(shape)], x.aval.dtype, x.aval.weak_type)
        data = ShardedArray(b, aval, SingleDeviceSharding(dev))
        local.append(Shard(dev, idx, reps[dev], data))
    # S16.12: the calling process's own shards first.
    return local + remote if include_remote else local


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
    ArrayImpl.global_shards = property(
        lambda x: _shards(x, True), doc="Every device's shard (``data=None`` if remote)."
    )
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
    """Raise JAX's errors if ``sharding`` cannot place a value of type ``aval`` (S5.4).

    jit's ``in_shardings`` / ``out_shardings`` (``what`` starting with ``pjit``) raise the
    Auto-mesh ``IndivisibleError`` on Explicit meshes too, as JAX does."""
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
        if not explicit or what.startswith("pjit"):
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


def reshard_value(v: Any, sharding: Sharding, committed: bool = True) -> ShardedArray:
    """``v`` (a concrete array or array-like that fits ``sharding``) placed by ``sharding``.

    An array that holds per-device buffers but no global value is resharded block by block
    (each target block a view of a source buffer that holds it, gathering only blocks that
    span several); any other value is sliced from its global value.
    """
    if isinstance(v, ShardedArray) and v._buffers is not None and not v.has_global():
        if v._sharding == sharding:
            return ShardedArray.from_buffers(v._buffers, v.aval, sharding, committed)
        bufs = {
            dev: block_of(v, dev, bounds)
            for dev, _, bounds in layout(sharding, v.aval.shape)
            if _is_local(dev)
        }
        return ShardedArray.from_buffers(bufs, v.aval, sharding, committed)
    value, aval = _as_value(v)
    return ShardedArray(value, aval, sharding, committed)


def place(v: Any, sharding: Sharding, committed: bool = True) -> ShardedArray:
    check_fits(sharding, aval_of(v) if not isinstance(v, Array) else v.aval)
    return reshard_value(v, sharding, committed)


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
    for v in leaves:
        if isinstance(v, Ref):  # JAX's words (it has no transfer for a ref's type)
            raise TypeError(f"No pxla_result_handler for type: {type(v.aval)}")
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
        if not isinstance(v, ArrayImpl):
            v = _uncommitted(v)
        check_fits(s, v.aval)
        plans.append((v, s, True))
    out = []
    for plan in plans:
        if len(plan) == 2:
            v = _uncommitted(plan[0])
        else:
            v = reshard_value(plan[0], plan[1], True)
        # while a jaxpr is staged JAX's device_put binds a primitive: a tracer, even of a
        # concrete array
        out.append(staged_constant(v))
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
    if isinstance(x, ShapeDtypeStruct):  # its aval, as JAX's (equinox's symbolic zeros)
        return ShapedArray(x.shape, x.dtype, x.weak_type)
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
