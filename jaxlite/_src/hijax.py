"""``jax.experimental.hijax``'s names, so libraries that *define* high-level types import.

JAX's hijax layer lets a library add its own abstract values ("high" types, possibly
mutable, carrying quasi-dynamic data) and primitives that lower them to ordinary arrays
inside every transformation. jaxlite's transformations have no such lowering step, so this
module provides the classes and registries a library subclasses or fills at import time
(flax.nnx defines its hijax ``Variable`` this way), and nothing runs them:

* ``HiPrimitive.bind`` (and so every hijax primitive) raises ``NotImplementedError`` naming
  the primitive; no rule of any transformation is registered for it.
* ``register_hitype`` records the value type, but jaxlite never treats its instances as
  traceable values (no value of such a type can be made without binding a hijax
  primitive).

A library whose hijax path is opt-in (flax.nnx: ``Variable(..., hijax=True)`` or
``flax_hijax_variable``) therefore imports and runs its default path, and its hijax path
stops with that error instead of computing something else.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass
from typing import Any

from jaxlite._src.core.avals import AbstractValue
from jaxlite._src.core.primitive import Primitive

__all__ = [
    "AvalMutableQDD",
    "AvalQDD",
    "HiPrimitive",
    "HiType",
    "MutableHiType",
    "VJPHiPrimitive",
    "aval_method",
    "aval_property",
    "hitypes",
    "register_hitype",
]

_MISSING = (
    "{what} is not implemented in jaxlite: jaxlite's transformations have no hijax "
    "(high-level type) lowering, so hijax primitives cannot be bound. Libraries with an "
    "opt-in hijax mode must use their default mode (for flax.nnx: Variables with "
    "hijax=False, the default)."
)


def not_implemented(what: str) -> NotImplementedError:
    """The error every hijax operation raises."""
    return NotImplementedError(_MISSING.format(what=what))


# Forwarding of Tracer attributes to avals, as JAX's core declares them (a property's getter,
# a method): plain records, read only by JAX's tracers.
aval_property = namedtuple("aval_property", ["fget"])
aval_method = namedtuple("aval_method", ["fun"])


@dataclass(frozen=True)
class AvalQDD:
    """An abstract value with its (immutable) quasi-dynamic data."""

    aval: AbstractValue
    qdd: Any


@dataclass(frozen=True)
class AvalMutableQDD:
    """An abstract value with its mutable quasi-dynamic data."""

    aval: AbstractValue
    mutable_qdd: Any


class HiPrimitive(Primitive):
    """Base class of hijax primitives; subclasses define abstract_eval/to_lojax/jvp/...

    Raises:
        NotImplementedError: on ``bind``: jaxlite cannot lower hijax primitives.
    """

    def __init__(self, name: str):
        super().__init__(name)

    def is_high(self, *avals, **params) -> bool:
        return True

    def bind(self, *args, **params):
        raise not_implemented(f"binding the hijax primitive {self.name!r}")

    def bind_with_trace(self, trace, args, params):
        raise not_implemented(f"binding the hijax primitive {self.name!r}")


class VJPHiPrimitive:
    """Base class of hijax primitives defined by a VJP.

    Raises:
        NotImplementedError: when called (jaxlite cannot lower hijax primitives).
    """

    def __call__(self, *args, **kwargs):
        raise not_implemented(f"the hijax primitive {type(self).__name__}")


class HiType(AbstractValue):
    """Base class of immutable high-level abstract values (subclasses define lowering)."""

    is_high = True
    has_qdd = False


class MutableHiType(AbstractValue):
    """Base class of mutable high-level abstract values (subclasses define lowering)."""

    is_high = True
    has_qdd = True
    is_writer = False


class HiPspec:
    """A partition spec of a high-level type (for shard_map); no instances in jaxlite."""


# Value type -> its typeof function, as registered by libraries. Recorded only: jaxlite's
# avals never dispatch to it (see the module docstring).
hitypes: dict[type, Any] = {}


def register_hitype(val_cls: type, typeof_fn) -> None:
    """Record ``val_cls`` as a hijax value type whose abstract value is ``typeof_fn(x)``."""
    hitypes[val_cls] = typeof_fn
