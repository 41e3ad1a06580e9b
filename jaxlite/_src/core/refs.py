"""Mutable array references (``jax.Ref``, ``jax.new_ref``): the types, not yet the values.

JAX's refs are mutable arrays threaded through every transformation as stateful effects
(reads and writes staged as ``get``/``swap`` equations, discharged into functional updates
by ``jit``). jaxlite does not build them yet. What is here is what libraries need to *ask*
whether a value is a ref without making one:

* ``AbstractRef``: the abstract value of a ref (``jax.typeof(ref)``), wrapping the aval of
  the array it holds; ``isinstance(aval, AbstractRef)`` is how flax.nnx tells refs apart.
* ``Ref``: the type of ref values. No instance can exist: making one raises.
* ``new_ref`` / ``empty_ref`` / ``freeze``: raise ``NotImplementedError`` naming what is
  missing, so code that opts into refs (flax.nnx's ``ref=True`` Variables) fails loudly
  instead of running with copy semantics that would give different answers.
"""

from __future__ import annotations

from typing import Any

from jaxlite._src.core.avals import AbstractValue

__all__ = [
    "AbstractRef",
    "Ref",
    "TransformedRef",
    "addupdate",
    "empty_ref",
    "free_ref",
    "freeze",
    "get",
    "new_ref",
    "set",
    "swap",
]

_MISSING = (
    "mutable array references ({what}) are not implemented in jaxlite: jaxlite's "
    "transformations have no stateful ref effects (get/swap), so a ref cannot be read or "
    "written under jit/grad/vmap as JAX does. Use ordinary arrays and return the updated "
    "values (for flax.nnx: keep Variables in their default, non-ref mode)."
)


def not_implemented(what: str) -> NotImplementedError:
    """The error raised by every operation that would make or use a ref."""
    return NotImplementedError(_MISSING.format(what=what))


class AbstractRef(AbstractValue):
    """The abstract value of a mutable array reference (``jax.typeof(ref)`` in JAX).

    Attributes:
        inner_aval: the abstract value of the array the ref holds.
        memory_space: where the ref lives (``None``: the default memory).
        kind: JAX's ref kind tag (``None`` for an ordinary ref).
    """

    __slots__ = ("inner_aval", "memory_space", "kind")

    def __init__(self, inner_aval: AbstractValue, memory_space: Any = None, kind: Any = None):
        self.inner_aval = inner_aval
        self.memory_space = memory_space
        self.kind = kind

    @property
    def shape(self) -> tuple:
        return self.inner_aval.shape

    @property
    def dtype(self):
        return self.inner_aval.dtype

    @property
    def ndim(self) -> int:
        return len(self.inner_aval.shape)

    @property
    def weak_type(self) -> bool:
        return getattr(self.inner_aval, "weak_type", False)

    def str_short(self, short_dtypes: bool = False) -> str:
        inner = self.inner_aval
        shown = inner.str_short(short_dtypes) if hasattr(inner, "str_short") else str(inner)
        return f"Ref{{{shown}}}"

    def __repr__(self) -> str:
        return self.str_short()

    def __eq__(self, other) -> bool:
        return (
            type(other) is type(self)
            and self.inner_aval == other.inner_aval
            and self.memory_space == other.memory_space
            and self.kind == other.kind
        )

    def __hash__(self) -> int:
        return hash((type(self), self.inner_aval, self.memory_space, self.kind))


class Ref:
    """A mutable array reference (``jax.Ref``). Not built in jaxlite: no instance can exist.

    The class is provided so that ``isinstance(x, jax.Ref)`` answers ``False`` for every
    jaxlite value, as it does in JAX for every value that is not a ref.

    Raises:
        NotImplementedError: on construction.
    """

    __slots__ = ()

    def __new__(cls, *args, **kwargs):
        raise not_implemented("jax.Ref")


class TransformedRef:
    """A view of a ref through indexers or bitcasts (``jax._src.state.TransformedRef``).

    Raises:
        NotImplementedError: on construction (jaxlite has no refs to view).
    """

    __slots__ = ()

    def __new__(cls, *args, **kwargs):
        raise not_implemented("TransformedRef")


def new_ref(init_val: Any, *, memory_space: Any = None, kind: str | None = None) -> Ref:
    """``jax.new_ref``: a mutable reference holding ``init_val``. Not built in jaxlite.

    Raises:
        NotImplementedError: always, naming what jaxlite lacks.
    """
    raise not_implemented("jax.new_ref")


def empty_ref(ty: Any, *, memory_space: Any = None) -> Ref:
    """``jax.empty_ref``: an uninitialised mutable reference. Not built in jaxlite.

    Raises:
        NotImplementedError: always, naming what jaxlite lacks.
    """
    raise not_implemented("jax.empty_ref")


def freeze(ref: Any) -> Any:
    """``jax.freeze``: a ref's value, consuming the ref. Not built in jaxlite.

    Raises:
        NotImplementedError: always (jaxlite has no refs).
    """
    raise not_implemented("jax.freeze")


def free_ref(ref: Any) -> None:
    """``jax.free_ref``: release a ref. Not built in jaxlite.

    Raises:
        NotImplementedError: always (jaxlite has no refs).
    """
    raise not_implemented("jax.free_ref")


def get(ref: Any, idx: Any = None) -> Any:
    """``jax.ref.get``: read ``ref[idx]``. Not built in jaxlite.

    Raises:
        NotImplementedError: always (jaxlite has no refs).
    """
    raise not_implemented("jax.ref.get")


def swap(ref: Any, idx: Any, value: Any) -> Any:
    """``jax.ref.swap``: write ``ref[idx] = value``, returning the old value. Not built.

    Raises:
        NotImplementedError: always (jaxlite has no refs).
    """
    raise not_implemented("jax.ref.swap")


def set(ref: Any, idx: Any, value: Any) -> None:  # noqa: A001 (JAX's name)
    """``jax.ref.set``: write ``ref[idx] = value``. Not built in jaxlite.

    Raises:
        NotImplementedError: always (jaxlite has no refs).
    """
    raise not_implemented("jax.ref.set")


def addupdate(ref: Any, idx: Any, x: Any) -> None:
    """``jax.ref.addupdate``: ``ref[idx] += x``. Not built in jaxlite.

    Raises:
        NotImplementedError: always (jaxlite has no refs).
    """
    raise not_implemented("jax.ref.addupdate")
