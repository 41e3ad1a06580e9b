"""Refs in loop and branch bodies: threading the refs a body touches through the loop.

``core/refs.py`` finds the refs made outside a ``scan``, ``while_loop``/``fori_loop`` or
``cond``/``switch`` body that the body reads or writes (a first trace stops at the
construct's bind point, ``refs.before_bind``). The construct then runs again with their
values as extra loop carries (extra operands and outputs of every branch), installed in the
refs while the body is traced, and writes the final values back to the refs afterwards:
JAX's state discharge of a loop over refs, done on the user's function.

A ref inside the arrays a construct carries (``init``, ``xs``) is refused as JAX refuses it:
a body may not return a ref. Ref operands of ``cond`` are passed to the branches as they
are (then threaded like closed-over ones), as in JAX.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from jaxlite._src import tree_util
from jaxlite._src.compile.jit_refs import check_distinct_refs, closed_over_error
from jaxlite._src.core import refs
from jaxlite._src.core.refs import Ref
from jaxlite._src.ops import conversion


def has_refs(tree: Any) -> bool:
    return any(isinstance(x, Ref) for x in tree_util.tree_leaves(tree))


def check_outputs(out: Any, fun: Callable, what: str, prefix: str | None = "result") -> None:
    """JAX's error for a body that returns a ref (``prefix``: how JAX names the output in
    the path it shows; None: no path, as for ``cond``)."""
    leaves = tree_util.tree_leaves(out)
    if not any(isinstance(x, Ref) for x in leaves):
        return
    for path, leaf in tree_util.tree_flatten_with_path(out)[0]:
        if isinstance(leaf, Ref):
            shown = "" if prefix is None else prefix + tree_util.keystr(path)
            shown = "" if shown == "result" else shown  # JAX names no path for the whole
            raise refs.returned_ref_error(leaf, fun, what, shown)


def refuse_carried(tree: Any, fun: Callable, what: str, prefix: str) -> None:
    """A ref in a loop's initial carry: the body returns its carry, and a ref cannot be
    returned, so JAX raises its error for the body's output (``prefix``: the carry's path
    there)."""
    for path, leaf in tree_util.tree_flatten_with_path(tree)[0]:
        if isinstance(leaf, Ref):
            shown = prefix + tree_util.keystr(path)
            raise refs.returned_ref_error(leaf, fun, what, "" if shown == "result" else shown)


def checked(fun: Callable, what: str, prefix: str | None = "result") -> Callable:
    """``fun`` raising JAX's error when it returns a ref."""

    @functools.wraps(fun)
    def wrapped(*args):
        out = fun(*args)
        check_outputs(out, fun, what, prefix)
        return out

    return wrapped


def threaded_body(fun: Callable, rs: list, unpack: Callable, pack: Callable) -> Callable:
    """A body taking the refs' values: ``unpack(args) -> (args for fun, ref values)``;
    returns ``pack(fun's output, final ref values)``."""

    def body(*args):
        inner, values = unpack(args)
        saved = refs.install(rs, values)
        try:
            out = fun(*inner)
        finally:
            finals = refs.restore(rs, saved)
        return pack(out, finals)

    return body


def read_all(rs: list) -> list:
    return [refs.read(r) for r in rs]


def write_all(rs: list, values, initial) -> None:
    """Write back the final values that differ from the ``initial`` ones read before the
    construct (one the body left alone comes back as given: the constructs forward loop
    invariants and passthroughs), so a ref a body only reads is never written, which under
    ``vmap`` would raise."""
    for r, v, v0 in zip(rs, values, initial):
        if v is not v0:
            refs.write(r, v)


def split_operands(operands: tuple) -> tuple[tuple, Callable]:
    """``operands`` without their ref leaves, and a function putting them back."""
    leaves, tree = tree_util.tree_flatten(operands)
    pos = [i for i, x in enumerate(leaves) if isinstance(x, Ref)]
    if not pos:
        return operands, lambda ops: ops
    kept = tuple(x for x in leaves if not isinstance(x, Ref))

    def rebuild(ops):
        it = iter(ops)
        return tree_util.tree_unflatten(
            tree, [leaves[i] if i in pos else next(it) for i in range(len(leaves))]
        )

    return kept, rebuild


def threaded_scan(scan_impl: Callable, f: Callable, init, xs, *rest):
    """``scan_impl(f, init, xs, *rest)`` threading the refs ``f`` touches as extra carries
    (and scanning the refs in ``xs``, ``_RefsInXs``)."""
    over = _RefsInXs(f, init, xs) if has_refs(xs) else None
    if over is not None:
        f, xs = over.body, over.xs

    def run(rs):
        if over is not None:
            over.check_not_closed_over(rs)
        if not rs:
            return refs.watch_recomputed(lambda: scan_impl(f, init, xs, *rest))

        def unpack(args):
            (carry, values), x = args
            return (carry, x), values

        def pack(out, finals):
            if isinstance(out, (tuple, list)) and len(out) == 2:
                return (out[0], finals), out[1]
            return out  # not a pair: scan_impl's error

        body = threaded_body(f, rs, unpack, pack)
        values = read_all(rs)
        (carry, finals), ys = refs.watch_recomputed(
            lambda: scan_impl(body, (init, values), xs, *rest)
        )
        write_all(rs, finals, values)
        return carry, ys

    out = refs.threading_construct(run, "scan")
    if over is not None:
        over.write_back()
    return out


class _RefsInXs:
    """A ``scan`` over refs in ``xs``, as JAX scans them: each iteration's body sees a ref
    of the ref's slice at the iteration index (a ref like any other: it can be passed to
    ``jit``, ``vmap``, ``checkpoint`` or scanned again), whose final value is written into
    the slice when the body returns.

    The refs' values are held by *shadow* refs of the scan's own trace, threaded as carries
    like closed-over refs; each ref in ``xs`` is replaced by the iteration index (an
    ``iota``). The body reaches the shadows only through the slices, so a ref of ``xs``
    that the threading discovers was touched directly: closed over by the body, which JAX
    refuses (``check_not_closed_over``)."""

    def __init__(self, f: Callable, init: Any, xs: Any):
        leaves, tree = tree_util.tree_flatten(xs)
        pos = [k for k, x in enumerate(leaves) if isinstance(x, Ref)]
        self.fun, self.init, self.given = f, init, xs
        self.refs = outer = [leaves[k] for k in pos]
        # one ref twice in xs: JAX's ValueError (naming the body's argument paths)
        check_distinct_refs(f, outer, (None, xs), {}, "scan")
        sizes = {r.shape[0] if r.shape else None for r in outer}
        if None in sizes:
            raise ValueError("scan got value with no leading axis to scan over: a 0-d jax.Ref")
        if len(sizes) > 1:
            raise ValueError(f"scan got values with different leading axis sizes: {sorted(sizes)}")
        index = conversion.iota(np.dtype(np.int32), sizes.pop())
        self.xs = ([x for x in leaves if not isinstance(x, Ref)], index)
        self.initial = [refs.read(r) for r in outer]
        self.shadows = shadows = [Ref._make(v, r._aval) for r, v in zip(outer, self.initial)]
        slice_avals = [
            refs.AbstractRef(a.inner_aval.update(shape=a.shape[1:]), a.memory_space)
            for a in (r._aval for r in outer)
        ]

        def body(carry, x):
            kept_x, i = x
            whole = [refs.read(s) for s in shadows]
            firsts = [w[i] for w in whole]
            slices = [Ref._make(v, a) for v, a in zip(firsts, slice_avals)]
            it, sl = iter(kept_x), iter(slices)
            args = [next(sl) if k in pos else next(it) for k in range(len(leaves))]
            try:
                return f(carry, tree_util.tree_unflatten(tree, args))
            finally:
                for s, w, v, v0 in zip(shadows, whole, slices, firsts):
                    if v._value is not v0:  # written: into the slice
                        refs.write(s, w.at[i].set(v._value))

        self.body = functools.wraps(f)(body)

    def check_not_closed_over(self, found: list) -> None:
        """JAX's ``ValueError`` for a ref of ``xs`` that the body also closes over."""
        for r in found:
            for k, q in enumerate(self.refs):
                if q is r:
                    raise closed_over_error(self.fun, "scan", r, ((self.init, self.given), {}), k)

    def write_back(self) -> None:
        """The refs of ``xs`` the scan wrote get the shadows' final values."""
        for r, s, v0 in zip(self.refs, self.shadows, self.initial):
            if s._value is not v0:
                refs.write(r, s._value)
