"""Effects are data: each equation carries a set of effect objects.

An effect is an instance of ``Effect``. Passes never special-case primitives; they ask the
named policy sets below:

* every effect keeps its equation alive under DCE;
* ``ordered_effects`` get a token chain: they run in program order within a computation and
  across dispatches from one thread, each kind with its own chain;
* ``control_flow_allowed_effects``: may appear inside cond/while/scan bodies;
* ``remat_allowed_effects``: may appear inside ``checkpoint`` under AD (JAX: debug only);
* ``custom_derivatives_allowed_effects``: may appear inside custom_jvp/custom_vjp;
* ``batched_cond_allowed_effects``: may appear under a cond/while whose predicate is batched
  (JAX raises for IO there; jaxlite runs such bodies per element instead, see callbacks.py).
"""

from __future__ import annotations

from collections.abc import Iterable


class Effect:
    """Base class of all effects. Instances are hashable and compared by value."""

    def __repr__(self):
        return type(self).__name__ + "()"

    def __eq__(self, other):
        return type(self) is type(other)

    def __hash__(self):
        return hash(type(self))


class EffectTypeSet:
    """A set of effect *types*; membership is tested with an effect instance."""

    def __init__(self):
        self._types: set[type] = set()

    def add_type(self, t: type) -> None:
        self._types.add(t)

    def contains(self, eff: Effect) -> bool:
        return any(isinstance(eff, t) for t in self._types)

    def filter_not_in(self, effs: Iterable[Effect]) -> list[Effect]:
        return [e for e in effs if not self.contains(e)]


no_effects: frozenset = frozenset()

ordered_effects = EffectTypeSet()
control_flow_allowed_effects = EffectTypeSet()
remat_allowed_effects = EffectTypeSet()
custom_derivatives_allowed_effects = EffectTypeSet()
batched_cond_allowed_effects = EffectTypeSet()


def join_effects(*sets: Iterable[Effect]) -> frozenset:
    out: set = set()
    for s in sets:
        out.update(s)
    return frozenset(out)
