"""Arrays and ``shard_map`` executions that span processes (spec S13, S14.4).

Data model of an array spanning processes: a ``ShardedArray`` whose sharding names other
processes' devices keeps a buffer of the global shape in which only this process's blocks
(its devices' shards) are valid; the rest is zeros and never read. Such an array is
*local-only* unless this process's devices cover the whole value (a fully replicated array,
S16.12). Reading a local-only array as a whole (``np.asarray``, ``tolist``, printing the
values...) raises JAX's error; ``addressable_shards`` are this process's shards and
``global_shards`` list the remote ones with ``data=None`` after the local ones (S16.12).

Computing on local-only arrays (``check_eager``, ``blockwise_jit``): ``shard_map`` and
``pmap`` (each process runs its own devices' bodies, collectives cross processes), and
element-wise primitives whose local-only operands all have the result's shape and
sharding (each block depends only on the same block), run on this process's blocks. Any
other computation is *global view*: the local-only operands are first gathered from every
process (an MPI allgather of their blocks), and every process computes the same complete
result, bit-identical to one process; host callbacks in it run once, in process 0
(``callback_once``).

Collectives: ``shard_map`` executions over a mesh with devices in several processes get an
``spmd.Exchange`` over their local devices and an MPI transport (``_Transport``): at each
collective the processes first meet at a non-blocking barrier polled against a timeout
(``heartbeat_timeout_seconds`` of ``initialize``), then exchange their devices' values with
an MPI allgather; every device then reduces in axis-index order as in one process.
"""

from __future__ import annotations

import functools
import itertools
import os
import threading
import time
import zlib
from typing import Any

import numpy as np

from jaxlite._src import devices as _devices
from jaxlite._src.core import rules, sharding_hooks
from jaxlite._src.core.array import ArrayImpl
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.ops import elementwise as _ew
from jaxlite._src.sharding import array as _arr, distributed as _distributed
from jaxlite._src.sharding.callbacks_k import check_eager_primitive
from jaxlite._src.sharding.specs import NamedSharding, PartitionSpec, Sharding, padded

FETCH_ERROR = (
    "Fetching value for `jax.Array` that spans non-addressable (non process local) devices "
    "is not possible. You can use `jax.experimental.multihost_utils.process_allgather` to "
    "print the global array or use `.addressable_shards` method of jax.Array to inspect the "
    "addressable (process local) shards."
)


# ------------------------------------------------------------------- local-only arrays
def _key(idx: tuple, shape: tuple) -> tuple:
    return tuple(sl.indices(n)[:2] for sl, n in zip(idx, shape))


@functools.lru_cache(maxsize=512)
def _has_full_value(sharding: Sharding, shape: tuple) -> bool:
    """Whether this process's devices hold every block of a ``shape`` array."""
    me = _devices.process_index()
    every, mine = set(), set()
    for d, idx in sharding.devices_indices_map(shape).items():
        k = _key(idx, shape)
        every.add(k)
        if d.process_index == me:
            mine.add(k)
    return every == mine


def spans_processes(sharding: Sharding | None) -> bool:
    if sharding is None or _devices.process_count() == 1:
        return False
    me = _devices.process_index()
    return any(d.process_index != me for d in sharding.device_set)


def is_local_only(x: Any) -> bool:
    """Whether ``x`` is an array of which this process holds only some blocks."""
    s = getattr(x, "_sharding", None)
    if s is None or _devices.process_count() == 1 or not spans_processes(s):
        return False
    return not _has_full_value(s, tuple(x.aval.shape))


def _guarded(name: str, fallback=None):
    orig = getattr(ArrayImpl, name)

    @functools.wraps(orig)
    def method(self, *args, **kwargs):
        if is_local_only(self):
            if fallback is not None:
                return fallback(self)
            raise RuntimeError(FETCH_ERROR)
        return orig(self, *args, **kwargs)

    return method


def _short_repr(x) -> str:
    weak = ", weak_type=True" if x.aval.weak_type else ""
    return f"Array(shape={tuple(x.aval.shape)}, dtype={x.aval.dtype.name}{weak})"


def _install() -> None:
    cls = _arr.ShardedArray
    for name in ("__array__", "tolist", "item", "__bool__", "__int__", "__float__"):
        setattr(cls, name, _guarded(name))
    for name in ("__iter__", "__index__", "__complex__", "__dlpack__", "copy", "__reduce__"):
        setattr(cls, name, _guarded(name))
    cls.__repr__ = _guarded("__repr__", _short_repr)
    cls.__str__ = _guarded("__str__", _short_repr)
    cls.__format__ = _guarded("__format__", _short_repr)
    # (addressable_shards / global_shards: array.py lists this process's devices' buffers,
    # then the remote devices with data=None, S16.12.)


_install()


def global_buffer(shape: tuple, dtype, sharding: Sharding) -> np.ndarray:
    """A zero buffer for an array of ``shape``: only this process's blocks will be written."""
    return np.zeros(shape, dtype)


# ------------------------------------------------------------------ what may compute
_ELEMENTWISE: frozenset = frozenset(
    v for v in vars(_ew).values() if isinstance(v, Primitive) and not v.multiple_results
)
# Primitives that run per device on local blocks themselves (shard_map, placement).
passthrough: set = set()


def _blockwise_ok(primitive, operands: list, out_shape) -> bool:
    """Element-wise, every local-only operand shaped and sharded like the result."""
    if primitive not in _ELEMENTWISE:
        return False
    ref = None
    for s, shape in operands:
        if tuple(shape) != tuple(out_shape):
            return False
        if ref is None:
            ref = s
        elif not ref.is_equivalent_to(s, len(out_shape)):
            return False
    return True


def gather_values(args, vals: list) -> list:
    """``vals`` with each local-only operand's value replaced by its global value (every
    process's blocks, exchanged over MPI): a global-view computation across processes then
    computes on complete values, the same on every process."""
    return [allgather_global(a) if is_local_only(a) else v for a, v in zip(args, vals)]


def check_eager(primitive, args, vals, params):
    """Before an eager primitive with sharded operands: None if it can run on this
    process's blocks (no operand is local-only, or it is ``shard_map`` or element-wise
    over like-sharded operands); else the operand values gathered (``gather_values``).
    Eager control flow with ordered debug effects over several devices raises (K10)."""
    check_eager_primitive(primitive, args, params)
    if _devices.process_count() == 1 or primitive in passthrough:
        return None
    ops = [(a._sharding, a.aval.shape) for a in args if is_local_only(a)]
    if not ops:
        return None
    out_shape = ops[0][1]
    if all(tuple(getattr(a, "shape", ())) in ((), tuple(out_shape)) for a in args):
        if _blockwise_ok(primitive, ops, out_shape):
            return None
    if primitive in rules.runs_user_code:
        raise NotImplementedError(
            f"an eager {primitive.name} on an array spanning processes is not supported; "
            "call it under jax.jit (it then runs once, in process 0, with the gathered value)"
        )
    return gather_values(args, vals)


sharding_hooks.eval_check = check_eager


def blockwise_jit(jaxpr, placements: list) -> bool:
    """Whether a jitted jaxpr may run on this process's blocks of its local-only inputs
    (``placements``: per input, its sharding or None): every equation reading a local-only
    value is a ``shard_map`` whose in_specs match the operands' shardings, a nested jit of
    such equations, or element-wise over like-sharded operands. Otherwise the caller
    gathers the local-only inputs first (a global-view computation)."""
    env: dict = {}
    for v, s in zip(jaxpr.invars, placements):
        if s is not None and spans_processes(s) and not _has_full_value(s, tuple(v.aval.shape)):
            env[v] = s
    return _blockwise_eqns(jaxpr, env)


def _blockwise_eqns(jaxpr, env: dict) -> bool:
    for eqn in jaxpr.eqns:
        ins = [(env[v], v.aval.shape) for v in eqn.invars if hasattr(v, "aval") and v in env]
        if not ins:
            continue
        name = eqn.primitive.name
        if name == "shard_map":
            mesh = eqn.params["mesh"]
            for v, spec in zip(eqn.invars, eqn.params["in_specs"]):
                s = env.get(v) if hasattr(v, "aval") else None
                if s is not None and not s.is_equivalent_to(
                    NamedSharding(mesh, spec), len(v.aval.shape)
                ):
                    return False
            for v, spec in zip(eqn.outvars, eqn.params["out_specs"]):
                s = NamedSharding(mesh, spec)
                if spans_processes(s) and not _has_full_value(s, tuple(v.aval.shape)):
                    env[v] = s
            continue
        if name in ("pjit", "jit", "closed_call"):
            inner = eqn.params.get("jaxpr")
            inner = getattr(inner, "jaxpr", inner)
            sub = {
                iv: env[v]
                for iv, v in zip(inner.invars, eqn.invars)
                if hasattr(v, "aval") and v in env
            }
            if not _blockwise_eqns(inner, sub):
                return False
            for ov, v in zip(inner.outvars, eqn.outvars):
                if hasattr(ov, "aval") and ov in sub:
                    env[v] = sub[ov]
            continue
        if len(eqn.outvars) != 1:
            return False
        out = eqn.outvars[0]
        shapes_ok = all(tuple(v.aval.shape) in ((), tuple(out.aval.shape)) for v in eqn.invars)
        if not shapes_ok or not _blockwise_ok(eqn.primitive, ins, out.aval.shape):
            return False
        env[out] = ins[0][0]
    return True


_view_cache: dict = {}


def global_view(compiled, key, flat: list, placements: list) -> bool:
    """Whether a jit call across processes must gather its local-only inputs first."""
    if _devices.process_count() == 1 or not any(is_local_only(x) for x in flat):
        return False
    ck = (id(compiled), key)
    hit = _view_cache.get(ck)
    if hit is None or hit[0] is not compiled:
        ok = blockwise_jit(compiled.jaxpr.jaxpr, [p._sharding for p in placements])
        hit = _view_cache[ck] = (compiled, not ok)
    return hit[1]


class callbacks_once:  # noqa: N801
    """While a global-view computation runs across processes, host callbacks run once, in
    process 0, and their results (or the text of their exception) reach every process."""

    def __enter__(self):
        self.prev = sharding_hooks.callback_wrap
        prev = self.prev
        comm = _distributed.communicator()

        def once(run, fn, args, kwargs):
            if comm.Get_rank() == 0:
                try:
                    res = prev(run, fn, args, kwargs) if prev is not None else run(fn, args, kwargs)
                except Exception as e:
                    comm.bcast(("error", f"{type(e).__name__}: {e}"), root=0)
                    raise
                comm.bcast(("ok", res), root=0)
                return res
            kind, res = comm.bcast(None, root=0)
            if kind == "error":
                raise RuntimeError(f"a host callback raised in process 0: {res}")
            return res

        sharding_hooks.callback_wrap = once
        _once_state.append((prev, once))
        return self

    def __exit__(self, *exc):
        _once_state.pop()
        sharding_hooks.callback_wrap = self.prev
        return False


# (wrapper before, the once-wrapper) of the running global-view computations.
_once_state: list = []


class per_device_callbacks:  # noqa: N801
    """Inside a ``shard_map`` execution each process runs its own devices' callbacks, also
    when the shard_map is part of a global-view computation (``callbacks_once``)."""

    def __enter__(self):
        self.active = bool(_once_state)
        if self.active:
            sharding_hooks.callback_wrap = _once_state[-1][0]
        return self

    def __exit__(self, *exc):
        if self.active:
            sharding_hooks.callback_wrap = _once_state[-1][1]
        return False


# ------------------------------------------------------------------ collectives (MPI)
class CollectiveError(RuntimeError):
    """A collective the processes did not agree on (timeout, different shapes)."""


class _Cancelled(threading.BrokenBarrierError):
    """Another device of this process failed while this one waited for the others."""


_WORDS = 18  # header: tag crc, step, ndim, 10 dims, dtype name (2 words), nbytes, count
_HEADER = 8 * _WORDS
_INLINE = 1 << 16  # payloads up to this size travel with the header (one round trip)
_MAX_DIMS = 10


def _header(tag: int, step: int, v0: np.ndarray, nbytes: int, count: int) -> np.ndarray:
    h = np.zeros(_WORDS, np.int64)
    if v0.ndim > _MAX_DIMS:
        raise NotImplementedError(
            f"collectives across processes support operands of rank <= {_MAX_DIMS}"
        )
    h[0], h[1], h[2] = tag, step, v0.ndim
    h[3 : 3 + v0.ndim] = v0.shape
    name = v0.dtype.name.encode()[:16].ljust(16, b"\0")
    h[13:15] = np.frombuffer(name, np.int64)
    h[15], h[16] = nbytes, count
    return h


def _header_str(h: np.ndarray) -> str:
    name = h[13:15].tobytes().rstrip(b"\0").decode(errors="replace")
    dims = ",".join(str(int(d)) for d in h[3 : 3 + int(h[2])])
    return f"collective #{int(h[1])} on {name}[{dims}]"


# Buffers of the transport, reused from one collective to the next: MPI's first transfer
# into fresh pages costs ~10x a warm one here. Safe because a collective's received values
# are read only until every local device reaches the next collective (the results of the
# collective primitives are new arrays), and multi-process computations run one at a time
# (they must run in the same order on every process).
_buffers: dict = {}


def _buffer(role: str, nbytes: int) -> np.ndarray:
    b = _buffers.get(role)
    if b is None or b.size < nbytes:
        b = _buffers[role] = np.empty(max(nbytes, 2 * (b.size if b is not None else 0)), np.uint8)
    return b[:nbytes]


class _Transport:
    """Exchange one collective's values between the processes of a mesh.

    One MPI ``Iallgather`` of a fixed-size record per process: a header (which shard_map
    execution and collective, the operand's shape and dtype, its byte count) and, up to
    64 KiB, the process's values themselves, polled against the timeout; larger payloads
    follow in an ``Allgatherv`` of raw bytes (every dtype, bfloat16 and bool included),
    blocking, since every process has arrived by then. Headers that disagree raise
    ``CollectiveError`` on every process. ``owners[r]``: the flat device indices of
    communicator rank ``r``.
    """

    def __init__(self, comm, n: int, timeout: float, tag: str, owners: list):
        self.comm = comm
        self.n = n
        self.timeout = timeout
        self.tag = tag
        self.crc = zlib.crc32(tag.encode())
        self.owners = owners

    def _wait(self, req, what: str, cancelled) -> None:
        if req.Test():
            return
        start = time.monotonic()
        deadline = start + self.timeout
        delay = 0.0
        while not req.Test():
            waited = time.monotonic() - start
            if waited < 20e-3:
                # Poll, yielding the core: the other processes may need it (MPI progresses
                # a transfer only inside Test).
                os.sched_yield()
                continue
            if cancelled is not None and cancelled():
                raise _Cancelled()
            if time.monotonic() > deadline:
                raise CollectiveError(
                    f"process {_devices.process_index()} waited {self.timeout:g} s at {what}, "
                    "and not every process reached it: every process must run the same "
                    "sequence of multi-process computations (jax.distributed.initialize("
                    "heartbeat_timeout_seconds=...) sets this bound)"
                )
            time.sleep(delay)
            delay = min(1e-3, delay * 2 or 1e-6)

    def __call__(self, local: list, values: list, step: int, cancelled=None) -> list:
        values = [np.asarray(v) for v in values]  # (not ascontiguousarray: keeps 0-d)
        values = [v if v.flags.c_contiguous else v.copy(order="C") for v in values]
        v0 = values[0]
        nbytes = sum(v.nbytes for v in values)
        nprocs = self.comm.Get_size()
        send = _buffer("send", _HEADER + _INLINE)
        recv = _buffer("recv", nprocs * (_HEADER + _INLINE)).reshape(nprocs, -1)
        if nbytes <= _INLINE:
            payload = send[_HEADER : _HEADER + nbytes]
        else:
            payload = _buffer("payload", nbytes)
        np.concatenate([v.reshape(-1).view(np.uint8) for v in values], out=payload)
        what = f"collective #{step} of shard_map {self.tag}"
        send[:_HEADER] = _header(self.crc, step, v0, nbytes, len(values)).view(np.uint8)
        self._wait(self.comm.Iallgather(send, recv), what, cancelled)
        heads = recv[:, :_HEADER].copy().view(np.int64)
        if any((h[:15] != heads[0][:15]).any() for h in heads):
            per = "; ".join(
                f"process {p}: {self.tag if h[0] == self.crc else 'another shard_map'} "
                f"{_header_str(h)}"
                for p, h in enumerate(heads)
            )
            raise CollectiveError(
                f"processes disagree at {what}: {per}. Every process must run the same "
                "program on values of the same shapes and dtypes."
            )
        sizes = [int(h[15]) for h in heads]
        if max(sizes) <= _INLINE:
            blobs = [recv[r, _HEADER : _HEADER + sizes[r]] for r in range(len(sizes))]
        else:
            mpi = _distributed._import_mpi()
            displs = np.concatenate([[0], np.cumsum(sizes)[:-1]]).tolist()
            flat = _buffer("flat", sum(sizes))
            # Every process is here (its header arrived), so this cannot hang; polled like
            # the header, yielding the core between tests.
            if len(set(sizes)) == 1:  # (MPICH's Allgather is much faster than Allgatherv)
                req = self.comm.Iallgather(payload, flat)
            else:
                req = self.comm.Iallgatherv(payload, [flat, (sizes, displs), mpi.BYTE])
            self._wait(req, what, cancelled)
            blobs = [flat[d : d + n] for d, n in zip(displs, sizes)]
        out = [None] * self.n
        for idxs, blob in zip(self.owners, blobs):
            arr = blob.view(v0.dtype).reshape((len(idxs), *v0.shape))
            for i, v in zip(idxs, arr):
                out[i] = v
        return out


_counter = itertools.count()


def plan(mesh, manual_axes: tuple, coords: list, name: str):
    """``(local, transport, timeout)`` for a ``shard_map`` over ``mesh`` spanning processes,
    or None (one process, or a mesh of this process's devices only)."""
    if _devices.process_count() == 1:
        return None
    me = _devices.process_index()
    procs = {d.process_index for d in mesh.devices.flat}
    if procs == {me}:
        return None
    auto = [a for a in mesh.axis_names if a not in manual_axes and mesh.shape[a] > 1]
    if auto:
        raise NotImplementedError(
            f"shard_map over a mesh spanning processes with automatic axes {auto}: only "
            "fully manual shard_maps (every mesh axis of size > 1 manual) run across processes"
        )
    rt = _distributed.runtime()
    comm = rt.group_comm(sorted(procs))
    local = []
    for i, c in enumerate(coords):
        dev = mesh.devices[tuple(c.get(a, 0) for a in mesh.axis_names)]
        if dev.process_index == me:
            local.append(i)
    tag = f"{name}@{next(_counter)}"
    if comm is None:  # this process owns none of the mesh's devices
        return local, None, rt.collective_timeout
    ranks = sorted(procs)  # communicator rank r is process ranks[r]
    owners: list = [[] for _ in ranks]
    for i, c in enumerate(coords):
        dev = mesh.devices[tuple(c.get(a, 0) for a in mesh.axis_names)]
        owners[ranks.index(dev.process_index)].append(i)
    transport = _Transport(comm, len(coords), rt.collective_timeout, tag, owners)
    return local, transport, rt.collective_timeout


def out_providers(out_specs, coords: list, local: list) -> list:
    """Per output, the local device indices that write their block: the first local
    device (in flat order) holding each block."""
    res = []
    for spec in out_specs:
        named = [a for e in spec for a in (e if isinstance(e, tuple) else (e,)) if a]
        seen, mine = set(), set()
        for i in local:
            k = tuple(coords[i].get(a) for a in named)
            if k not in seen:
                seen.add(k)
                mine.add(i)
        res.append(mine)
    return res


def _local_region(sharding: NamedSharding, shape: tuple) -> list:
    """Per dimension, the ``(start, stop)`` of the blocks this process's devices hold."""
    me = _devices.process_index()
    starts = [[] for _ in shape]
    stops = [[] for _ in shape]
    for d, idx in sharding.devices_indices_map(shape).items():
        if d.process_index != me:
            continue
        for k, (a, b) in enumerate(_key(idx, shape)):
            starts[k].append(a)
            stops[k].append(b)
    return [(min(a), max(b)) if a else (0, 0) for a, b in zip(starts, stops)]


def global_shape_from_local(sharding: Sharding, local_shape: tuple) -> tuple:
    """The global shape whose local region (this process's blocks) has ``local_shape``."""
    if not isinstance(sharding, NamedSharding):
        raise NotImplementedError(
            "make_array_from_process_local_data across processes needs a NamedSharding"
        )
    mesh = sharding.mesh
    me = _devices.process_index()
    out = []
    for n, e in zip(local_shape, padded(sharding.spec, len(local_shape))):
        names = [a for a in (e if isinstance(e, tuple) else (e,)) if a]
        if not names:
            out.append(n)
            continue
        total = 1
        for a in names:
            total *= mesh.shape[a]
        ax = [mesh.axis_names.index(a) for a in names]
        positions = set()
        for pos in np.ndindex(*mesh.devices.shape):
            if mesh.devices[pos].process_index == me:
                b = 0
                for a, i in zip(names, ax):
                    b = b * mesh.shape[a] + pos[i]
                positions.add(b)
        out.append(n * total // max(1, len(positions)))
    return tuple(out)


def from_process_local(sharding: Sharding, local_data: np.ndarray, global_shape) -> Any:
    """``make_array_from_process_local_data`` when the sharding spans processes."""
    shape = (
        tuple(global_shape)
        if global_shape is not None
        else global_shape_from_local(sharding, local_data.shape)
    )
    region = _local_region(sharding, shape)
    want = tuple(b - a for a, b in region)
    if want != tuple(local_data.shape):
        raise ValueError(
            f"local_data of shape {tuple(local_data.shape)} does not match this process's "
            f"part {want} of the global shape {shape} under {sharding}"
        )
    out = global_buffer(shape, local_data.dtype, sharding)
    out[tuple(slice(a, b) for a, b in region)] = local_data
    return out, shape


def global_from_local(sharding: NamedSharding, x) -> Any:
    """A process-local array as this process's part of a global one (pmap's inputs)."""
    out, shape = from_process_local(sharding, np.asarray(x), None)
    aval = type(x.aval)(shape, x.aval.dtype, x.aval.weak_type)
    return _arr.ShardedArray(out, aval, sharding, True)


def local_part(x, sharding: NamedSharding | None = None) -> Any:
    """This process's blocks of a global array (laid out as ``sharding``, default its
    own), as an array over ``mesh.local_mesh``: the process-local result of pmap and of
    ``multihost_utils.global_array_to_host_local_array``."""
    if not is_local_only(x):
        return x
    sharding = x.sharding if sharding is None else sharding
    region = _local_region(sharding, tuple(x.aval.shape))
    value = x._value[tuple(slice(a, b) for a, b in region)]
    aval = type(x.aval)(value.shape, x.aval.dtype, x.aval.weak_type)
    return _arr.ShardedArray(
        value, aval, NamedSharding(sharding.mesh.local_mesh, sharding.spec), True
    )


def allgather_global(x) -> np.ndarray:
    """The full value of a local-only array: every process's blocks (``process_allgather``
    with ``tiled=True``)."""
    comm = _distributed.communicator()
    shape = tuple(x.aval.shape)
    mine = [(s.index, np.asarray(s.data._value)) for s in x.addressable_shards]
    out = np.zeros(shape, x.aval.dtype)
    for blocks in comm.allgather(mine):
        for idx, v in blocks:
            out[idx] = v
    return out


__all__ = [
    "CollectiveError",
    "FETCH_ERROR",
    "blockwise_jit",
    "check_eager",
    "gather_values",
    "from_process_local",
    "is_local_only",
    "out_providers",
    "passthrough",
    "plan",
    "spans_processes",
]
