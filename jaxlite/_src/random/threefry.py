"""The threefry2x32 block function (Random123 Threefry-2x32, 20 rounds) as one primitive.

``threefry2x32_p(k0, k1, x0, x1)`` hashes counter words ``(x0, x1)`` under key words
``(k0, k1)``; the four ``uint32`` operands broadcast against each other (NumPy rules) and
the two ``uint32`` results have the broadcast shape. Every key derivation and every random
bit of ``jax.random`` comes from this one primitive, so a faster kernel (a native tier) has
exactly one place to go.

Rules: ``impl`` (a vectorised in-place NumPy kernel, also what generated code calls),
``abstract_eval``, ``batch`` (elementwise: batch dims move to the front and broadcast) and
a zero JVP (the outputs are integers; keys are not differentiable).
"""

from __future__ import annotations

import concurrent.futures
import os

import numpy as np

from jaxlite._src.core import rules
from jaxlite._src.core.avals import ShapedArray
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import not_mapped
from jaxlite._src.ops import _factories, shape as _shape
from jaxlite._src.util import usable_cores

_u32 = np.dtype(np.uint32)
# Rotation amounts of the even and odd groups of four rounds.
_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
_ROT_L = tuple(tuple(np.uint32(r) for r in g) for g in _ROTATIONS)
_ROT_R = tuple(tuple(np.uint32(32 - r) for r in g) for g in _ROTATIONS)
_PARITY = np.uint32(0x1BD11BDA)
# Lanes hashed per pass: small enough that the three working buffers stay in cache, large
# enough that the ~110 ufunc calls per pass cost little against the arithmetic.
_CHUNK = 1 << 16
# Inputs of at least this many lanes per worker are hashed on several threads.
_PARALLEL_MIN = 1 << 17
_THREADS = min(4, usable_cores())
# Up to this many lanes are hashed with Python integers (~4 us a lane) instead of the
# ~110 ufunc calls of a NumPy pass (~60 us however few lanes): key splits, fold_in and
# scalar draws, as in the inner loops of MCMC samplers.
_SMALL = 8
_MASK = 0xFFFFFFFF


def _flat(a: np.ndarray, shape: tuple) -> np.ndarray:
    """A broadcastable operand as a 1-element array (a scalar) or a flat array of ``shape``."""
    if a.size == 1:
        return a.reshape(1)
    return np.ascontiguousarray(np.broadcast_to(a, shape)).reshape(-1)


def _hash_lanes(y0, y1, x0, x1, ks, inj0, inj1, start, stop, tmp_full):
    """Hash lanes ``[start, stop)`` into ``y0``/``y1``, one cache-sized slice at a time."""
    add, xor, shl, shr, bor = np.add, np.bitwise_xor, np.left_shift, np.right_shift, np.bitwise_or
    k0, k1, _ = ks
    for lo in range(start, stop, _CHUNK):
        hi = min(lo + _CHUNK, stop)
        sl = slice(lo, hi)

        def part(a, sl=sl):
            return a if a.shape[0] == 1 else a[sl]

        a0, a1 = y0[sl], y1[sl]
        tmp = tmp_full[: hi - lo]
        add(part(x0), part(k0), out=a0)
        add(part(x1), part(k1), out=a1)
        for g in range(5):
            rl, rr = _ROT_L[g % 2], _ROT_R[g % 2]
            for i in range(4):
                add(a0, a1, out=a0)
                shl(a1, rl[i], out=tmp)
                shr(a1, rr[i], out=a1)
                bor(a1, tmp, out=a1)
                xor(a1, a0, out=a1)
            add(a0, part(inj0[g]), out=a0)
            add(a1, part(inj1[g]), out=a1)


_pool = None


def _hash_small(k0, k1, x0, x1, n):
    """The same 20 rounds on Python integers, for ``n <= _SMALL`` lanes (operands flat
    arrays of 1 or ``n`` elements); returns ``(y0, y1)`` as flat ``uint32`` arrays."""
    k0s, k1s, x0s, x1s = (a.tolist() for a in (k0, k1, x0, x1))
    y0, y1 = [], []
    for lane in range(n):
        a, b = k0s[lane % len(k0s)], k1s[lane % len(k1s)]
        ks = (a, b, a ^ b ^ 0x1BD11BDA)
        v0 = (x0s[lane % len(x0s)] + a) & _MASK
        v1 = (x1s[lane % len(x1s)] + b) & _MASK
        for g in range(5):
            for r in _ROTATIONS[g % 2]:
                v0 = (v0 + v1) & _MASK
                v1 = (((v1 << r) & _MASK) | (v1 >> (32 - r))) ^ v0
            v0 = (v0 + ks[(g + 1) % 3]) & _MASK
            v1 = (v1 + ks[(g + 2) % 3] + g + 1) & _MASK
        y0.append(v0)
        y1.append(v1)
    return np.array(y0, _u32), np.array(y1, _u32)


def _thread_pool():
    global _pool
    if _pool is None:
        _pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=_THREADS, thread_name_prefix="jaxlite-threefry"
        )
    return _pool


def threefry2x32_kernel(k0, k1, x0, x1):
    """NumPy threefry2x32: returns ``(y0, y1)``, ``uint32`` arrays of the broadcast shape.

    The rounds run in place on cache-sized slices of the output buffers with one scratch
    buffer per worker; key words and round injections that are scalars stay scalars.
    Large inputs are split across a few threads (NumPy releases the GIL in its loops).
    """
    arrs = [np.asarray(a, dtype=_u32) for a in (k0, k1, x0, x1)]
    shape = np.broadcast_shapes(*(a.shape for a in arrs))
    k0, k1, x0, x1 = (_flat(a, shape) for a in arrs)
    n = int(np.prod(shape, dtype=np.int64))
    if n <= _SMALL:
        y0, y1 = _hash_small(k0, k1, x0, x1, n)
        return y0.reshape(shape), y1.reshape(shape)
    k2 = k0 ^ k1 ^ _PARITY
    ks = (k0, k1, k2)
    # Round injections: x0 += ks[(g+1) % 3]; x1 += ks[(g+2) % 3] + (g+1).
    inj0 = [ks[(g + 1) % 3] for g in range(5)]
    inj1 = [ks[(g + 2) % 3] + np.uint32(g + 1) for g in range(5)]
    y0 = np.empty(n, _u32)
    y1 = np.empty(n, _u32)
    workers = min(_THREADS, n // _PARALLEL_MIN) if _THREADS > 1 else 1
    if workers <= 1:
        _hash_lanes(y0, y1, x0, x1, ks, inj0, inj1, 0, n, np.empty(min(n, _CHUNK), _u32))
    else:
        # Contiguous ranges of whole chunks, one per worker.
        chunks = -(-n // _CHUNK)
        per = -(-chunks // workers) * _CHUNK
        futures = [
            _thread_pool().submit(
                _hash_lanes, y0, y1, x0, x1, ks, inj0, inj1, lo, min(lo + per, n),
                np.empty(_CHUNK, _u32),
            )
            for lo in range(0, n, per)
        ]  # fmt: skip
        for f in futures:
            f.result()
    return y0.reshape(shape), y1.reshape(shape)


threefry2x32_p = Primitive("threefry2x32", multiple_results=True)


def _threefry2x32_impl(k0, k1, x0, x1):
    return list(threefry2x32_kernel(k0, k1, x0, x1))


def _threefry2x32_abstract_eval(*avals):
    if any(a.dtype != _u32 for a in avals):
        raise TypeError(
            f"threefry_2x32 requires uint32 arguments, got {[str(a.dtype) for a in avals]}"
        )
    try:
        shape = np.broadcast_shapes(*(a.shape for a in avals))
    except ValueError:
        raise TypeError(
            "threefry2x32 got incompatible shapes for broadcasting: "
            + ", ".join(str(a.shape) for a in avals)
            + "."
        ) from None
    return [ShapedArray(shape, _u32), ShapedArray(shape, _u32)]


def _threefry2x32_batch(axis_data, args, dims):
    # Elementwise with NumPy broadcasting: put each batch dim in front, padded to the
    # common logical rank; unbatched operands broadcast from the right as they are.
    ranks = [np.ndim(a) - (d is not not_mapped) for a, d in zip(args, dims)]
    rank = max(ranks)
    new_args = []
    for a, d, r in zip(args, dims, ranks):
        if d is not_mapped:
            new_args.append(a)
            continue
        a = _shape.moveaxis(a, d, 0)
        shp = np.shape(a) if not hasattr(a, "aval") else a.aval.shape
        new_args.append(_shape.reshape(a, (shp[0],) + (1,) * (rank - r) + tuple(shp[1:])))
    return threefry2x32_p.bind(*new_args), [0, 0]


rules.impl_rules[threefry2x32_p] = _threefry2x32_impl
rules.abstract_eval_rules[threefry2x32_p] = _threefry2x32_abstract_eval
rules.batch_rules[threefry2x32_p] = _threefry2x32_batch
rules.fresh_output.add(threefry2x32_p)  # both results are new buffers


def _threefry2x32_native(ctx, eqn, ins, outs):
    # The same 20 rounds as threefry2x32_kernel, one lane per iteration of a (parallel)
    # loop; every uint32 operation is re-cast so it wraps in 32 bits. The rotation amounts
    # and round constants are this module's integers, written as literals so that LLVM
    # sees constant shifts (rotates) and vectorises the loop.
    shape = tuple(int(d) for d in eqn.outvars[0].aval.shape)
    if shape == ():  # one lane, scalar operands (a fused lane loop or a scalarized array)
        return _threefry_lane(ctx, list(ins), outs[0], outs[1])
    n = int(np.prod(shape, dtype=np.int64))
    lines, lane = [], ctx.fresh("j")
    words = []
    for name, v in zip(ins, eqn.invars):
        if v.aval.shape == ():
            words.append(name)
            continue
        flat = ctx.fresh("w")
        src = name if tuple(v.aval.shape) == shape else f"np.broadcast_to({name}, {shape!r})"
        lines.append(f"{flat} = np.ascontiguousarray({src}).reshape(-1)")
        words.append(f"{flat}[{lane}]")
    y0, y1 = ctx.fresh("y"), ctx.fresh("y")
    lines += [f"{y0} = np.empty({n}, np.uint32)", f"{y1} = np.empty({n}, np.uint32)"]
    body = _threefry_lane(ctx, words, f"{y0}[{lane}]", f"{y1}[{lane}]")
    lines += [f"for {lane} in prange({n}):"] + ["    " + b for b in body]
    return lines + [f"{outs[0]} = {y0}.reshape({shape!r})", f"{outs[1]} = {y1}.reshape({shape!r})"]


def _threefry_lane(ctx, words, out0: str, out1: str) -> list[str]:
    """Lines computing one lane of threefry2x32 from four uint32 scalar expressions."""
    u = "np.uint32"
    k0, k1, k2, a0, a1 = (ctx.fresh(p) for p in ("k", "k", "k", "a", "a"))
    body = [f"{k0} = {words[0]}", f"{k1} = {words[1]}"]
    body += [f"{k2} = {u}({k0} ^ {k1} ^ {u}({int(_PARITY)}))"]
    body += [f"{a0} = {u}({words[2]} + {k0})", f"{a1} = {u}({words[3]} + {k1})"]
    ks = (k0, k1, k2)
    for g in range(5):
        for r in _ROTATIONS[g % 2]:
            body.append(f"{a0} = {u}({a0} + {a1})")
            body.append(f"{a1} = {u}({u}({a1} << {u}({r})) | ({a1} >> {u}({32 - r}))) ^ {a0}")
        body.append(f"{a0} = {u}({a0} + {ks[(g + 1) % 3]})")
        body.append(f"{a1} = {u}({u}({a1} + {ks[(g + 2) % 3]}) + {u}({g + 1}))")
    return body + [f"{out0} = {a0}", f"{out1} = {a1}"]


rules.native_rules[threefry2x32_p] = _threefry2x32_native
rules.native_elementwise.add(threefry2x32_p)
_factories.non_differentiable(threefry2x32_p)


def threefry2x32(k0, k1, x0, x1):
    """Bind ``threefry2x32_p``: ``(y0, y1)`` for key words ``k0, k1`` and counters ``x0, x1``."""
    return tuple(threefry2x32_p.bind(k0, k1, x0, x1))
