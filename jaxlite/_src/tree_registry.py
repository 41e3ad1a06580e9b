"""Key paths and node registration of ``jax.tree_util`` on optree (re-exported by
``tree_util``): the key entry classes and ``keystr``, ``register_pytree_node`` and its
variants (keys, classes, dataclasses, static types) in optree's ``"jaxlite"`` namespace,
and ``Partial``.
"""

from __future__ import annotations

import dataclasses
import functools
import warnings
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

import optree

NAMESPACE = "jaxlite"

# ------------------------------------------------------------------------- key paths


@dataclasses.dataclass(frozen=True)
class SequenceKey:
    idx: int

    def __str__(self):
        return f"[{self.idx!r}]"


@dataclasses.dataclass(frozen=True)
class DictKey:
    key: Hashable

    def __str__(self):
        return f"[{self.key!r}]"


@dataclasses.dataclass(frozen=True)
class GetAttrKey:
    name: str

    def __str__(self):
        return f".{self.name}"


@dataclasses.dataclass(frozen=True)
class FlattenedIndexKey:
    key: int

    def __str__(self):
        return f"[<flat index {self.key}>]"


class _UserKeyEntry(optree.PyTreeEntry):
    """The path entry of a node registered with keys: its ``entry`` is the user's key object
    (``GetAttrKey``, ``DictKey``, or any other), handed back unchanged, as JAX does."""


def _to_key(entry) -> Any:
    if isinstance(entry, _UserKeyEntry):
        return entry.entry
    if isinstance(entry, optree.NamedTupleEntry):  # before SequenceEntry, its base class
        return GetAttrKey(entry.field)
    if isinstance(entry, optree.SequenceEntry):
        return SequenceKey(entry.entry)
    if isinstance(entry, optree.MappingEntry):
        return DictKey(entry.entry)
    if isinstance(entry, (optree.GetAttrEntry, optree.DataclassEntry, optree.NamedTupleEntry)):
        name = entry.name if hasattr(entry, "name") else entry.entry
        if isinstance(name, str):
            return GetAttrKey(name)
        return SequenceKey(entry.entry)
    if isinstance(getattr(entry, "entry", None), (SequenceKey, DictKey, GetAttrKey)):
        return entry.entry
    return FlattenedIndexKey(getattr(entry, "entry", 0))


_SIMPLE_FIELD = ((SequenceKey, "idx"), (DictKey, "key"), (GetAttrKey, "name"))


def _simple_str(key: Any) -> str:
    for cls, field in _SIMPLE_FIELD + ((FlattenedIndexKey, "key"),):
        if isinstance(key, cls):
            return str(getattr(key, field))
    return str(key)


def keystr(keys: tuple, *, simple: bool = False, separator: str = "") -> str:
    """Render a key path like JAX: ``['a'][0].b``; ``simple=True`` gives ``a0b`` (each key
    bare), joined by ``separator``."""
    return separator.join(map(_simple_str if simple else str, keys))


# ---------------------------------------------------------------------- registration


def _optree_register(nodetype: type, *args, **kwargs) -> None:
    """``optree.register_pytree_node`` without optree's ``UserWarning`` for a subclass of
    a namedtuple or struct sequence ("... is already registered in the global namespace").
    JAX registers such a subclass silently (numpyro's ``_MinimizeState``), and test suites
    that turn warnings into errors would fail on import."""
    with warnings.catch_warnings():
        warnings.filterwarnings(
            "ignore", message=r"PyTree type .* is a subclass of ", category=UserWarning
        )
        try:
            optree.register_pytree_node(nodetype, *args, **kwargs)
        except ValueError as e:
            if "already registered" not in str(e) and "cannot be re-registered" not in str(e):
                raise
            raise ValueError(  # JAX's message
                f"Duplicate custom PyTreeDef type registration for {nodetype}."
            ) from None


# node type -> its flatten function, for the nodes registered without keys
# (``flatten_one_level`` hands back their children as the function returned them)
_PLAIN_FLATTEN: dict = {}


def register_pytree_node(
    nodetype: type, flatten_func: Callable, unflatten_func: Callable, flatten_with_keys_func=None
) -> None:
    """Register a container type (``jax.tree_util.register_pytree_node``).

    Args:
        nodetype: the class.
        flatten_func: ``x -> (children, aux_data)``; ``aux_data`` must be hashable.
        unflatten_func: ``(aux_data, children) -> x``.
    """
    if flatten_with_keys_func is None:
        _optree_register(
            nodetype,
            flatten_func,
            lambda aux, children: unflatten_func(aux, children),
            namespace=NAMESPACE,
        )
        _PLAIN_FLATTEN[nodetype] = flatten_func
        return

    def flatten(x):
        keyed, aux = flatten_with_keys_func(x)
        keys = [k for k, _ in keyed]
        return [c for _, c in keyed], aux, keys

    _optree_register(
        nodetype,
        flatten,
        lambda aux, ch: unflatten_func(aux, ch),
        path_entry_type=_UserKeyEntry,
        namespace=NAMESPACE,
    )


def register_pytree_with_keys(
    nodetype: type, flatten_with_keys: Callable, unflatten_func: Callable, flatten_func=None
) -> None:
    """Register a container whose flatten gives ``[(key, child), ...]`` (JAX's API)."""
    register_pytree_node(
        nodetype, flatten_func or _drop_keys(flatten_with_keys), unflatten_func, flatten_with_keys
    )


def _drop_keys(fwk):
    def flatten(x):
        keyed, aux = fwk(x)
        return [c for _, c in keyed], aux

    return flatten


def register_pytree_node_class(cls: type) -> type:
    """Class decorator using ``cls.tree_flatten`` / ``cls.tree_unflatten``."""
    register_pytree_node(cls, lambda x: x.tree_flatten(), cls.tree_unflatten)
    return cls


def register_dataclass(nodetype: type, data_fields=None, meta_fields=None, drop_fields=()):
    """``jax.tree_util.register_dataclass``: ``data_fields`` are children, ``meta_fields``
    static aux data; unflattening calls ``nodetype(**fields)`` (so ``__post_init__`` runs
    and ``drop_fields`` take their defaults), as in JAX.

    Raises:
        TypeError: only one of ``data_fields``/``meta_fields`` given, or neither for a
            type that is not a dataclass.
        ValueError: for a dataclass, the fields given are not exactly its ``init=True``
            fields less ``drop_fields`` (JAX's message names the missing/unexpected ones).
    """
    if data_fields is None or meta_fields is None:
        if (data_fields is None) != (meta_fields is None):
            raise TypeError(
                "register_dataclass: data_fields and meta_fields must both be specified "
                f"when either is specified. Got data_fields={data_fields!r} "
                f"meta_fields={meta_fields!r}."
            )
        if not dataclasses.is_dataclass(nodetype):
            raise TypeError(
                "register_dataclass: data_fields and meta_fields are required when nodetype "
                f"is not a dataclass. Got nodetype={nodetype!r}."
            )
        fields = dataclasses.fields(nodetype)
        meta_fields = [f.name for f in fields if f.metadata.get("static", False)]
        data_fields = [f.name for f in fields if not f.metadata.get("static", False)]
    data_fields, meta_fields = tuple(data_fields), tuple(meta_fields)
    if dataclasses.is_dataclass(nodetype):
        init = {f.name for f in dataclasses.fields(nodetype) if f.init} - set(drop_fields)
        given = {*data_fields, *meta_fields}
        if given != init:
            msg = (
                "data_fields and meta_fields must include all dataclass fields with "
                "``init=True`` and only them."
            )
            if init - given:
                msg += (
                    f" Missing fields: {init - given}. Add them to drop_fields to suppress "
                    "this error."
                )
            if given - init:
                msg += f" Unexpected fields: {given - init}."
            raise ValueError(msg)

    def flatten_with_keys(x):
        keyed = [(GetAttrKey(n), getattr(x, n)) for n in data_fields]
        return keyed, tuple(getattr(x, n) for n in meta_fields)

    def unflatten(aux, children):
        kw = dict(zip(meta_fields, aux))
        kw.update(zip(data_fields, children))
        return nodetype(**kw)

    register_pytree_with_keys(nodetype, flatten_with_keys, unflatten)
    return nodetype


class Partial(functools.partial):
    """A ``functools.partial`` that is a pytree: bound arguments are its leaves."""

    def __new__(cls, func, *args, **kw):
        if isinstance(func, functools.partial):
            original = func
            func = _HashableCallableShim(original)
            out = super().__new__(cls, func, *args, **kw)
            func.func = original
            return out
        return super().__new__(cls, func, *args, **kw)


class _HashableCallableShim:
    def __init__(self, func):
        self.func = func

    def __call__(self, *args, **kw):
        return self.func(*args, **kw)

    def __eq__(self, other):
        return self.func == getattr(other, "func", other)

    def __hash__(self):
        return hash(self.func)


optree.register_pytree_node(
    Partial,
    lambda p: ((p.args, p.keywords), p.func),
    lambda func, xs: Partial(func, *xs[0], **xs[1]),
    namespace=NAMESPACE,
)


KeyEntry = TypeVar("KeyEntry", bound=Any)
# A path of keys from the root of a pytree to one of its leaves.
KeyPath = tuple[KeyEntry, ...]


def register_pytree_with_keys_class(cls: type) -> type:
    """Class decorator using ``cls.tree_flatten_with_keys`` / ``cls.tree_unflatten``.

    Mirrors ``jax.tree_util.register_pytree_with_keys_class``; ``cls.tree_flatten`` is used
    for plain flattening when the class defines it.
    """
    flatten = getattr(cls, "tree_flatten", None)
    register_pytree_with_keys(
        cls,
        lambda x: x.tree_flatten_with_keys(),
        cls.tree_unflatten,
        None if flatten is None else (lambda x: x.tree_flatten()),
    )
    return cls


def register_static(cls: type) -> type:
    """Register ``cls`` as a pytree with no leaves: instances are static (hashable) data.

    Mirrors ``jax.tree_util.register_static``.
    """
    register_pytree_node(cls, lambda x: ((), x), lambda x, _: x)
    return cls


def static_field(**kwargs):
    """``jax.tree.static``: ``dataclasses.field`` marked ``static`` for
    ``register_dataclass`` (the field is aux data, not a child)."""
    kwargs["metadata"] = {**kwargs.get("metadata", {}), "static": True}
    return dataclasses.field(**kwargs)
