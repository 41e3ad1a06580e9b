"""Buffer donation (``jit(..., donate_argnums=..., donate_argnames=...)``), as JAX runs it on
CPU.

jaxlite's arrays are immutable NumPy buffers, so donating one saves no memory here; what
donation changes is what the caller may do afterwards, and that is JAX's: an argument
whose buffer an output can take over is *deleted* by the call (``x.is_deleted()``; any
later use raises ``RuntimeError: Array has been deleted with shape=float32[3].``), and a
donation no output can use gives JAX's warning ("Some donated buffers were not usable").

Which arguments an output takes over is decided per compiled signature, as JAX decides it:

1. Only the leaves of donated arguments that the computation uses (``keep_unused=False``
   prunes the others: they are neither deleted nor warned about).
2. Each output, in order, takes the first remaining donated input of the same shape and
   dtype (weak types ignored): that input is deleted.
3. Each donated input left, in order, takes the first output not yet taken with as many
   elements: XLA may then reuse its buffer, and does when the sizes in bytes agree (that
   input is deleted; otherwise it is kept, with no warning).
4. The donated inputs left after that are "not usable": one ``UserWarning`` per compiled
   signature lists them.

Only ``jax.Array`` leaves are deleted (a NumPy array or a Python scalar donated is copied
in, and takes part in the matching like any input). The same ``Array`` passed twice with
one occurrence deleted raises JAX's ``JaxRuntimeError`` before anything runs. Donation
applies to top-level calls only (under ``disable_jit`` or inside a transformation the
arguments are kept, as in JAX for jit inside jit).
"""

from __future__ import annotations

import collections
import warnings
from collections.abc import Sequence

from jaxlite._src import tree_util
from jaxlite._src.core.array import ArrayImpl
from jaxlite._src.core.errors import JaxRuntimeError
from jaxlite._src.core.ir import ClosedJaxpr

_EXPLAIN = "See an explanation at https://docs.jax.dev/en/latest/faq.html#buffer-donation."


def leaf_mask(
    args: Sequence, kwargs: dict, static_argnums, static_argnames, nums, names
) -> tuple[bool, ...] | None:
    """Per leaf of the traced arguments ``(dynamic args, dynamic kwargs)`` (in flatten
    order: positional arguments, then keyword arguments by sorted name), whether it is
    donated; None if nothing is."""
    n = len(args)
    mask: list[bool] = []
    for i, a in enumerate(args):
        if i in static_argnums or i - n in static_argnums:
            continue
        mask += [i in nums or i - n in nums] * len(tree_util.tree_leaves(a))
    for k in sorted(kwargs):
        if k not in static_argnames:
            mask += [k in names] * len(tree_util.tree_leaves(kwargs[k]))
    return tuple(mask) if any(mask) else None


def _nbytes(aval) -> int | None:
    itemsize = getattr(aval.dtype, "itemsize", None)  # None for extended dtypes (keys)
    return None if itemsize is None else aval.size * itemsize


class Plan:
    """What a call of one compiled signature does with its donated leaves (flat indices):
    ``kept`` are the leaves the computation uses, ``deleted`` those an output takes
    over, ``unusable`` the warning's text (or None), given once per compiled signature."""

    __slots__ = ("kept", "deleted", "unusable")

    def __init__(self, closed: ClosedJaxpr, in_avals: Sequence, mask: Sequence[bool], keep_all):
        jaxpr = closed.jaxpr
        used = set(map(id, jaxpr.outvars))
        for eqn in jaxpr.eqns:
            used.update(map(id, eqn.invars))
        self.kept = tuple(i for i, v in enumerate(jaxpr.invars) if keep_all or id(v) in used)
        donated = [i for i in self.kept if mask[i]]
        by_type = collections.defaultdict(collections.deque)
        for i in donated:
            by_type[in_avals[i].shape, in_avals[i].dtype].append(i)
        outs = closed.out_avals
        taken, deleted = set(), []
        for j, o in enumerate(outs):
            queue = by_type.get((o.shape, o.dtype))
            if queue:
                deleted.append(queue.popleft())
                taken.add(j)
        by_size = collections.defaultdict(collections.deque)
        for j, o in enumerate(outs):
            if j not in taken:
                by_size[o.size].append(j)
        unusable = []
        for i in donated:
            if i in deleted:
                continue
            queue = by_size.get(in_avals[i].size)
            if not queue:
                unusable.append(in_avals[i])
                continue
            nbytes = _nbytes(outs[queue.popleft()])
            if nbytes is not None and nbytes == _nbytes(in_avals[i]):
                deleted.append(i)
        self.deleted = frozenset(deleted)
        self.unusable = None
        if unusable:
            names = ", ".join(("~" if a.weak_type else "") + a.str_short() for a in unusable)
            self.unusable = f"Some donated buffers were not usable: {names}.\n{_EXPLAIN}"

    def warn_once(self) -> None:
        if self.unusable is not None:
            text, self.unusable = self.unusable, None
            warnings.warn(text, UserWarning, stacklevel=4)

    def check(self, flat: Sequence) -> None:
        """JAX's error for an ``Array`` both donated (deleted) and passed again."""
        first: dict[int, tuple[int, bool]] = {}
        for k, i in enumerate(self.kept):
            x = flat[i]
            if not isinstance(x, ArrayImpl):
                continue
            gone = i in self.deleted
            seen = first.get(id(x))
            if seen is None:
                first[id(x)] = (k, gone)
                continue
            if gone and seen[1]:
                what, toy = "donate the same buffer twice in", "f(donate(a), donate(a))"
            elif seen[1]:
                what = "use a buffer that was previously donated in the same call to"
                toy = "f(donate(a), a)"
            elif gone:
                what = "donate a buffer which is also used by the same call to"
                toy = "f(a, donate(a))"
            else:
                continue
            raise JaxRuntimeError(
                f"INVALID_ARGUMENT: Attempt to {what} Execute() (flattened argument {k}, "
                f"replica 0, partition 0, first use: {seen[0]}). Toy example for this bug: "
                f"`{toy}`."
            )

    def delete(self, flat: Sequence) -> None:
        for i in self.deleted:
            x = flat[i]
            if isinstance(x, ArrayImpl):
                x.delete()
