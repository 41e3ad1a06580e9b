"""Blocked NumPy regions: the native tier's kernel for elementwise chains NumPy does best.

NumPy's SIMD kernels for ``sin``, ``exp``, ``tanh``... beat Numba's scalar libm calls, so an
elementwise region that uses them (or any elementwise region when Numba is absent, or one
of dtypes Numba lacks: float16, bfloat16) keeps NumPy's ufuncs, and what changes is how
they walk memory. ``compile_blocks`` generates (``exec``, generated names only: constants
and callables are globals) one *block function* per region: it walks the flat operands in
blocks of ``block_size`` elements (sized so a block's working set stays in a core's L2
cache) and applies the region's equations to each block in turn, every ufunc writing with
``out=`` into a per-thread scratch buffer (buffers are reused by liveness: a value's
buffer is free after its last use, and a ufunc writes in place over an operand dying
there) and the region's outputs straight into their slice of the result; an input block
that NumPy's float32 sin/cos would read from memory is copied into scratch first
(``_STAGED``). Threads take blocks from one shared counter (a busy second core just takes
fewer), the calling thread among them; NumPy releases the GIL inside each ufunc loop.

Same bits as the Python tier: the same callables (a ufunc is called with ``out=`` only
when its own result dtype is the output's, so the same loop runs), the same constants (the
jaxpr's literal objects), and block edges at multiples of 4096 elements, so every element
runs the same SIMD path as in one call on the whole array (a loop's tail is the array's
tail in both). Equations that are not plain ufuncs (casts, ``select_n``...) are called on
the block and their result copied; their result dtype is checked once when the region is
built. Non C-contiguous operands (rare: jit arguments are contiguous) are copied first.

One exception, where Numba is installed: float32 ``exp``, ``log`` and ``tanh`` run the native
tier's loops over XLA:CPU's expansions (``ops/xla_math32_numba``), as its Numba kernels do:
JAX's bits (the Python tier's with ``jaxlite_xla_math`` on, NumPy's kernels' otherwise: a
hot function's low bits change when its region is installed, docs/compat.md), and 3-4x
faster than NumPy's own kernels on an AVX2 machine. Such a region is built on the native
tier's background thread (``needs_compile``) the first time its loops must be compiled.
"""

from __future__ import annotations

import functools
import itertools
import math
import os
import threading
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from jaxlite._src.core import rules
from jaxlite._src.core.ir import ClosedJaxpr, Jaxpr, Literal
from jaxlite._src.ops import spmd, xla_math_flag
from jaxlite._src.ops.xla_math_flag import numba_installed
from jaxlite._src.util import usable_cores

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

# A block's working set (scratch buffers, operand and result slices) targets this many
# bytes: half of a core's 1 MiB L2 on the development machine (an AMD EPYC with 1 MiB of L2
# per core and 48 KiB of L1d). Measured on the 10-op float32 chain (sin ... sqrt) on 4M
# elements, two threads: blocks of 4K elements 22 ms (the GIL-held Python between ufunc
# calls dominates), 16K 9.9 ms, 32K 7.8 ms, 64K-256K 5.6-6.9 ms; one thread 11-12 ms.
_BLOCK_BYTES = 768 * 1024
_BLOCK_MIN = 1 << 15
_BLOCK_MAX = 1 << 18
# Block edges are multiples of this many elements: a multiple of every SIMD width, so the
# only partial vector of a ufunc loop is the array's own tail, as in one whole-array call.
_ALIGN = 4096
_MAX_WORKERS = 8
# Ufunc loops that read an operand from memory much slower than from cache: NumPy's float32
# sin and cos (measured per 64K-element block, over 4M elements: 4.2-5.0 ms on an operand
# in memory, 2.3-2.4 ms copied into an L2 scratch buffer first, the copy included; every
# other float32 ufunc of the subset was as fast or faster reading memory directly). Such
# an operand, when it is a region input, is first copied into the equation's own scratch
# buffer, and the ufunc runs in place there (the same values, so the same bits).
_STAGED = {(np.sin, np.dtype(np.float32)), (np.cos, np.dtype(np.float32))}

_pool: list[ThreadPoolExecutor] = []
_pool_lock = threading.Lock()
_local = threading.local()


# Float32 equations run by a Numba loop of ``ops/xla_math32_numba`` (module docstring).
_XLA_LOOPS = {"exp": "exp_block", "log": "log_block", "tanh": "tanh_block"}


def _xla_loop_name(eqn) -> str | None:
    name = _XLA_LOOPS.get(str(eqn.primitive))
    if (
        name is None
        or eqn.params
        or len(eqn.invars) != 1
        or eqn.invars[0].aval.dtype != np.float32
        or eqn.outvars[0].aval.dtype != np.float32
        or not numba_installed()
    ):
        return None
    return name


def _xla_loop(eqn, inplace: bool = False):
    """The Numba loop ``f(x, out)`` (``f(x)`` in place) computing ``eqn`` on a block, or
    None."""
    if _xla_loop_name(eqn) is None:
        return None
    return xla_math_flag.numba_loop(str(eqn.primitive), inplace)


def needs_compile(closed: ClosedJaxpr) -> bool:
    """Would building ``closed`` compile a Numba loop (none loaded in this process yet)?
    Checked without importing Numba: a loop counts as compiled once a region used it."""
    loaded = xla_math_flag._numba
    return any(
        (name := _xla_loop_name(e)) is not None and name not in loaded for e in closed.jaxpr.eqns
    )


class NotBlockable(Exception):
    """The region cannot be blocked (the Python tier keeps it)."""


@functools.cache
def workers() -> int:
    """Threads for one region: the cores this process may run on (at most 8)."""
    return min(usable_cores(), _MAX_WORKERS)


def _get_pool() -> ThreadPoolExecutor:
    with _pool_lock:
        if not _pool:
            from concurrent.futures import ThreadPoolExecutor  # import time: at first use

            _pool.append(ThreadPoolExecutor(max(workers() - 1, 1), thread_name_prefix="jaxlite-np"))
        return _pool[0]


def _scratch(spec: tuple) -> list[np.ndarray]:
    """This thread's scratch buffers for ``spec`` = (block, dtypes). One thread runs one
    block function at a time, so every region shares the thread's buffers: per dtype, a
    list of ``_BLOCK_MAX``-element arrays, the k-th buffer of a dtype a view of the k-th
    array (a thread's scratch is the largest need of any region, not the sum)."""
    views = getattr(_local, "views", None)
    if views is None:
        views = _local.views = {}
        _local.arrays = {}
    got = views.get(spec)
    if got is None:
        block, dts = spec
        arrays, used = _local.arrays, {}
        got = []
        for dt in dts:
            have = arrays.setdefault(dt, [])
            k = used[dt] = used.get(dt, -1) + 1
            if k == len(have):
                have.append(np.empty(0, dt))
            if have[k].size < block:  # (a larger block than ``_BLOCK_MAX`` was then)
                have[k] = np.empty(max(block, _BLOCK_MAX), dt)
            got.append(have[k][:block])
        views[spec] = got
    return got


def block_size(bytes_per_element: int) -> int:
    b = _BLOCK_BYTES // max(bytes_per_element, 1)
    b = max(_BLOCK_MIN, min(_BLOCK_MAX, b))
    return b // _ALIGN * _ALIGN


def _is_ufunc(eqn) -> bool:
    """A plain ufunc of the equation's operands with one result (so that a positional
    argument after the operands is its ``out``)."""
    f = rules.impl_for(eqn)
    return (
        not eqn.params
        and not eqn.primitive.multiple_results
        and isinstance(f, np.ufunc)
        and f.nout == 1
        and f.nin == len(eqn.invars)
        and len(eqn.outvars) == 1
    )


def _writes_out(eqn) -> bool:
    """May ``eqn``'s ufunc write into a buffer of its output's dtype? Only when that is the
    ufunc's own result dtype for these operands (then ``out=`` selects the same loop)."""
    if not _is_ufunc(eqn):
        return False
    try:
        resolved = rules.impl_for(eqn).resolve_dtypes(
            tuple(np.dtype(v.aval.dtype) for v in eqn.invars) + (None,)
        )
    except (TypeError, ValueError, AttributeError):
        return False
    return resolved[-1] == np.dtype(eqn.outvars[0].aval.dtype)


@functools.cache
def _positional_out(ufunc: np.ufunc) -> bool:
    """May ``ufunc``'s ``out`` be passed positionally, after the operands? The same call as
    ``out=`` without the keyword's parsing (~0.15 us of the ~0.5 us a small ufunc call
    costs, under the GIL), unless this NumPy deprecates it (``maximum``/``minimum``)."""
    dt = next((t[0] for t in ufunc.types if t[0] in "fdl?"), None)
    if dt is None:
        return False
    args = [np.zeros(1, dt) for _ in range(ufunc.nin)]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with np.errstate(all="ignore"):
                ufunc(*args, np.empty(1, ufunc(*args).dtype))
    except Exception:  # noqa: BLE001 (a warning or an error: keep the keyword)
        return False
    return True


def _check_result_dtypes(eqn, fn) -> None:
    """Call ``fn`` on one-element operands of the equation's dtypes: its results must have
    the output avals' dtypes (they are copied into buffers of those dtypes)."""
    args = [
        v.val
        if type(v) is Literal
        else np.zeros((), v.aval.dtype)
        if v.aval.shape == ()
        else np.zeros(1, v.aval.dtype)
        for v in eqn.invars
    ]
    try:
        with np.errstate(all="ignore"):
            out = fn(*args)
    except Exception as e:  # noqa: BLE001 (any failure keeps the Python tier)
        raise NotBlockable(f"{eqn.primitive}: {type(e).__name__}") from e
    outs = out if eqn.primitive.multiple_results else [out]
    for o, v in zip(outs, eqn.outvars):
        if np.asarray(o).dtype != np.dtype(v.aval.dtype):
            raise NotBlockable(f"{eqn.primitive} returns {np.asarray(o).dtype}")


class _Buffers:
    """Liveness-based assignment of per-thread scratch buffers (one list per dtype)."""

    def __init__(self):
        self.dtypes: list[np.dtype] = []
        self.free: dict[np.dtype, list[int]] = {}
        self.holders: dict[int, set[int]] = {}  # buffer -> vars whose value lives in it

    def take(self, dtype, var: int, reuse: int | None = None) -> int:
        if reuse is None:
            pool = self.free.get(dtype)
            if pool:
                reuse = pool.pop()
            else:
                reuse = len(self.dtypes)
                self.dtypes.append(dtype)
        self.holders.setdefault(reuse, set()).add(var)
        return reuse

    def hold(self, buf: int, var: int) -> None:
        self.holders[buf].add(var)

    def release(self, buf: int, var: int) -> None:
        h = self.holders[buf]
        h.discard(var)
        if not h:
            self.free.setdefault(self.dtypes[buf], []).append(buf)


def _block_source(jaxpr: Jaxpr, g: dict, n: int) -> tuple[str, tuple]:
    """The source of ``_run(take, A0.., O0..)`` and its scratch spec (block, dtypes)."""
    eqns = jaxpr.eqns
    last: dict[int, int] = {}
    for i, e in enumerate(eqns):
        for v in e.invars:
            if type(v) is not Literal:
                last[id(v)] = i
    out_pos = {}
    for k, v in enumerate(jaxpr.outvars):
        if type(v) is Literal or id(v) in out_pos or v in jaxpr.invars:
            raise NotBlockable("an output that is not computed by the region")
        out_pos[id(v)] = k
        last[id(v)] = len(eqns)  # live to the end of the block
    where: dict[int, str] = {}  # var -> the name its block value is read from
    bufs_of: dict[int, set[int]] = {}  # var -> scratch buffers its value may live in
    lane_in = []
    lanes = set()  # the names of region inputs' blocks (read from memory)
    for j, v in enumerate(jaxpr.invars):
        if v.aval.shape == ():
            where[id(v)] = f"A{j}"
        else:
            where[id(v)] = f"x{j}"
            lane_in.append(j)
            lanes.add(f"x{j}")
        bufs_of[id(v)] = set()
    bufs = _Buffers()
    body: list[str] = []
    temps = itertools.count()

    def read(v) -> str:
        if type(v) is Literal:
            return _global(g, v.val, "_c")
        return where[id(v)]

    for i, eqn in enumerate(eqns):
        ins = [read(v) for v in eqn.invars]
        impl = rules.impl_for(eqn)
        loop = _xla_loop(eqn)
        if loop is not None or _writes_out(eqn):
            v = eqn.outvars[0]
            if id(v) in out_pos:
                dest = where[id(v)] = f"r{out_pos[id(v)]}"
                bufs_of[id(v)] = set()
            else:
                dt = np.dtype(v.aval.dtype)
                reuse = next(
                    (
                        b
                        for u in eqn.invars
                        if type(u) is not Literal and last.get(id(u)) == i
                        for b in bufs_of[id(u)]
                        if bufs.holders[b] == {id(u)} and bufs.dtypes[b] == dt
                    ),
                    None,
                )
                b = bufs.take(dt, id(v), reuse)
                dest = where[id(v)] = f"s{b}"
                bufs_of[id(v)] = {b}
                if (impl, dt) in _STAGED and impl.nin == 1 and ins[0] in lanes:
                    body.append(f"{_global(g, np.copyto, '_f')}({dest}, {ins[0]})")
                    ins = [dest]
            if loop is not None and ins[0] == dest:  # in place (see ``xla_math32_numba``)
                body.append(f"{_global(g, _xla_loop(eqn, inplace=True), '_u')}({dest})")
            else:
                fn = _global(g, impl if loop is None else loop, "_u")
                out = dest if loop is not None or _positional_out(impl) else f"out={dest}"
                body.append(f"{fn}({', '.join(ins)}, {out})")
        else:
            call = functools.partial(impl, **eqn.params) if eqn.params else impl
            _check_result_dtypes(eqn, call)
            fn = _global(g, call, "_f")
            names = [f"t{next(temps)}" for _ in eqn.outvars]
            target = ", ".join(names) + ("," if len(names) == 1 else "")
            body.append(
                f"{target} = {fn}({', '.join(ins)})"
                if eqn.primitive.multiple_results
                else f"{names[0]} = {fn}({', '.join(ins)})"
            )
            # The result may be a view of an operand: it keeps the operands' buffers.
            held = set().union(*(bufs_of[id(u)] for u in eqn.invars if type(u) is not Literal))
            for v, name in zip(eqn.outvars, names):
                if id(v) in out_pos:
                    r = f"r{out_pos[id(v)]}"
                    body.append(f"{r}[...] = {name}")
                    where[id(v)], bufs_of[id(v)] = r, set()
                else:
                    where[id(v)], bufs_of[id(v)] = name, set(held)
                    for b in held:
                        bufs.hold(b, id(v))
        for u in dict.fromkeys(
            id(u) for u in list(eqn.invars) + list(eqn.outvars) if type(u) is not Literal
        ):
            if last.get(u, -1) <= i:
                for b in bufs_of.get(u, ()):
                    bufs.release(b, u)
                bufs_of[u] = set()
    per_elem = sum(d.itemsize for d in bufs.dtypes)
    per_elem += sum(np.dtype(jaxpr.invars[j].aval.dtype).itemsize for j in lane_in)
    per_elem += sum(np.dtype(v.aval.dtype).itemsize for v in jaxpr.outvars)
    block = block_size(per_elem)
    # A region of a few blocks still gives every thread one (down to ``_BLOCK_MIN``).
    per_thread = -(-n // workers())
    share = -(-per_thread // _ALIGN) * _ALIGN
    block = max(min(block, share), min(block, _BLOCK_MIN))
    nblocks = -(-n // block)
    spec = (block, tuple(bufs.dtypes))
    g["_scratch"], g["_spec"] = _scratch, spec
    n_in, n_out = len(jaxpr.invars), len(jaxpr.outvars)
    params = ", ".join(["take"] + [f"A{j}" for j in range(n_in)] + [f"O{k}" for k in range(n_out)])
    scratch = [f"s{b}" for b in range(len(bufs.dtypes))]
    lines = [f"def _run({params}):"]
    if scratch:
        lines.append(f"    {', '.join(scratch)}, = _scratch(_spec)")
    lines += [
        "    for k in take:",
        f"        if k >= {nblocks}:",
        "            return",
        f"        b = k * {block}",
        f"        e = b + {block}",
        f"        if e > {n}:",
        f"            e = {n}",
    ]
    lines += [f"            {s} = {s}[:e - b]" for s in scratch]
    lines += [f"        x{j} = A{j}[b:e]" for j in lane_in]
    lines += [f"        r{k} = O{k}[b:e]" for k in range(n_out)]
    lines += ["        " + line for line in body]
    return "\n".join(lines) + "\n", spec


def _global(g: dict, value: Any, prefix: str) -> str:
    ids = g.setdefault("__ids__", {})
    name = ids.get(id(value))
    if name is None or g.get(name) is not value:
        name = ids[id(value)] = f"{prefix}{len(ids)}"
        g[name] = value
    return name


def compile_blocks(closed: ClosedJaxpr) -> Callable:
    """``closed`` (elementwise on one shape: every value of that shape, operands of that
    shape or ``()``) as a blocked, threaded NumPy function of NumPy values returning a list
    of NumPy arrays, like the Python tier's function. Raises ``NotBlockable``."""
    jaxpr = closed.jaxpr
    if closed.consts or jaxpr.constvars or not jaxpr.outvars:
        raise NotBlockable("constants or no outputs")
    shape = tuple(jaxpr.outvars[0].aval.shape)
    for e in jaxpr.eqns:
        if any(tuple(v.aval.shape) != shape for v in e.outvars) or any(
            tuple(v.aval.shape) not in (shape, ()) for v in e.invars
        ):
            raise NotBlockable("not elementwise on one shape")
    n = math.prod(shape)
    for e in jaxpr.eqns:  # compile (or load from Numba's disk cache) the loops used now
        loop = _xla_loop(e)
        if loop is not None:
            xla_math_flag.warm(loop)  # region inputs are jit's read-only arguments too
            _xla_loop(e, inplace=True)(np.zeros(1, np.float32))
            xla_math_flag._numba[_xla_loop_name(e)] = True
    g: dict[str, Any] = {}
    source, spec = _block_source(jaxpr, g, n)
    exec(compile(source, "<jaxlite-native-blocks>", "exec"), g)  # noqa: S102 (generated names)
    run = g["_run"]
    block = spec[0]
    nblocks = -(-n // block)
    lane = [v.aval.shape != () for v in jaxpr.invars]
    out_dtypes = [np.dtype(v.aval.dtype) for v in jaxpr.outvars]
    errstate = np.errstate

    def work(take, args):
        with errstate(all="ignore"):  # per thread (NumPy's error state is thread-local)
            run(take, *args)

    def call(*args):
        flat = []
        for a, ln in zip(args, lane):
            if ln:
                a = np.ascontiguousarray(a).reshape(-1)
            flat.append(a)
        outs = [np.empty(n, dt) for dt in out_dtypes]
        flat.extend(outs)
        take = itertools.count()
        nthreads = min(workers(), nblocks)
        if nthreads > 1 and spmd.current() is None:
            # (A shard_map device body runs blocks on its own thread only: the devices'
            # threads already occupy the cores.)
            pool = _get_pool()
            futs = [pool.submit(work, take, flat) for _ in range(nthreads - 1)]
            try:
                work(take, flat)
            finally:
                for f in futs:
                    if not f.cancel():
                        f.result()
        elif nblocks:
            work(take, flat)
        return [o.reshape(shape) for o in outs]

    call.__jaxlite_source__ = source
    return call
