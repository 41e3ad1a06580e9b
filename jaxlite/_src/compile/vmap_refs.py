"""Refs among the mapped arguments of a ``vmap``ped function (``api.vmap`` calls this).

JAX maps a ref argument slice by slice: the function sees a ref of one slice, and its
writes land in the caller's ref. jaxlite reads the ref's (batched) value as an ordinary
mapped input, gives the function a fresh ref holding it (a *box*, per call), returns the
box's final value as an extra output of the batched function, and writes it back, moved to
the ref's own mapped axis, when the function returns (or raises: what it wrote before the
exception is kept, as JAX's buffer keeps it). A box the function returns comes back as the
caller's ref, a ref made inside as a ref of the batched value, as in JAX.

While the function runs, ``refs.mapped_args`` maps each caller's ref to its box, so that
the batch crossing rule (``state.py``) refuses a stale read of the ref itself.
"""

from __future__ import annotations

from jaxlite._src.compile.jit_refs import check_distinct_refs
from jaxlite._src.core import refs
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.refs import AbstractRef, Ref
from jaxlite._src.core.trace import trace_ctx
from jaxlite._src.interpreters import batching

__all__ = ["MappedRefs", "rewrap_made_refs"]


class MappedRefs:
    """The ref arguments of one ``vmap`` call: ``flat[i]`` for ``i`` in ``ref_pos`` (the
    positions among the flat arguments, whose values ``vals`` hold, mapped along ``dims``
    with ``size`` elements)."""

    __slots__ = ("flat", "ref_pos", "outer", "store")

    def __init__(self, fun, flat, ref_pos, args, kwargs, store):
        self.flat, self.ref_pos, self.store = flat, ref_pos, store
        self.outer = [flat[i] for i in ref_pos]
        check_distinct_refs(fun, self.outer, args, kwargs, "vmap")

    def wrap(self, flat_fun):
        """``flat_fun`` given boxes at ``ref_pos``, returning their final values after its
        own outputs (``store["written"]``: which it wrote)."""
        ref_pos, store, outer = self.ref_pos, self.store, self.outer

        def fun(*ins):
            ins = list(ins)
            initial = [ins[i] for i in ref_pos]
            boxes = store["boxes"] = [Ref._make(v, AbstractRef(aval_of(v))) for v in initial]
            for i, box in zip(ref_pos, boxes):
                ins[i] = box
            key = id(trace_ctx.trace)
            refs.mapped_args[key] = {id(r): (b, v) for r, b, v in zip(outer, boxes, initial)}
            try:
                outs = flat_fun(*ins)
            except BaseException:
                # JAX's vmap has written the slices into the ref by then: keep what was
                # written before the exception (as (value, batch dim) pairs of the
                # enclosing trace).
                trace = trace_ctx.trace
                finals = [b._value for b in boxes]
                try:  # (a value of a trace that has ended is not kept)
                    store["partial"] = [
                        trace.to_batch_info(f) if f is not v else None
                        for f, v in zip(finals, initial)
                    ]
                except Exception:  # noqa: BLE001 - the body's own exception is raised
                    pass
                raise
            finally:
                del refs.mapped_args[key]
            finals = [b._value for b in boxes]
            store["written"] = [f is not v for f, v in zip(finals, initial)]
            return [*outs, *finals]

        return fun

    def write_partial(self, vals, dims, size) -> None:
        """After the function raised: write back what it wrote before."""
        for i, p in zip(self.ref_pos, self.store.get("partial", ())):
            if p is not None:
                value = batching.move_dim(p[0], p[1], dims[i] % vals[i].ndim, size)
                refs.write(self.flat[i], value)

    def write_back(self, outs, out_dims, vals, dims, size) -> tuple[list, list]:
        """Write the boxes' final values (the last outputs) back to the refs the function
        wrote, at each ref's own axis; returns the function's own outputs and dims."""
        k = len(self.ref_pos)
        for i, o, d, w in zip(self.ref_pos, outs[-k:], out_dims[-k:], self.store["written"]):
            if w:
                refs.write(self.flat[i], batching.move_dim(o, d, dims[i] % vals[i].ndim, size))
        return outs[:-k], out_dims[:-k]


def returned_argument(raw, store, flat, ref_pos):
    """The caller's ref for a box the function returned (``raw``), or None."""
    boxes = store.get("boxes", ())
    for b, i in zip(boxes, ref_pos):
        if raw is b:
            return flat[i]
    return None


def rewrap_made_refs(res: list, raw: list) -> None:
    """A ref the function made and returned comes back as a ref of its batched value."""
    for i, o in enumerate(raw):
        if isinstance(o, Ref) and res[i] is not o and not isinstance(res[i], Ref):
            res[i] = Ref._make(res[i], AbstractRef(aval_of(res[i])))
