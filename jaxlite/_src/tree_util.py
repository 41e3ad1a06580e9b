"""JAX's ``tree_util`` API on top of optree.

``None`` is an empty pytree node (not a leaf), as in JAX. Custom node types are registered in
optree's ``"jaxlite"`` namespace so that they do not leak into other optree users.
"""

from __future__ import annotations

import collections
import dataclasses
import difflib
import functools
import re
import warnings
from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar

import optree

from jaxlite._src.tree_registry import (  # noqa: F401 - re-exported: tree_util's API
    _PLAIN_FLATTEN,
    NAMESPACE,
    DictKey,
    FlattenedIndexKey,
    GetAttrKey,
    KeyEntry,
    KeyPath,
    Partial,
    SequenceKey,
    _to_key,
    keystr,
    register_dataclass,
    register_pytree_node,
    register_pytree_node_class,
    register_pytree_with_keys,
    register_pytree_with_keys_class,
    register_static,
    static_field,
)

PyTreeDef = optree.PyTreeSpec

_OPTS = dict(none_is_leaf=False, namespace=NAMESPACE)

# ``flatten_for_key(tree) -> (leaves, treespec)``: the leaves in ``tree_flatten``'s order and
# optree's own treespec (dicts in insertion order: not canonical), for cache keys only --
# nothing is rebuilt from it. One C call: ``jit``'s pytree hit path.
flatten_for_key = functools.partial(optree.tree_flatten, is_leaf=None, **_OPTS)


class _JaxLeafNode(Exception):
    """A treedef has a node that JAX's registry does not know (see ``_is_jax_leaf``)."""


def _jax_leaf_type(t: type) -> bool:
    """Whether ``t`` is ``deque`` or a struct sequence (``time.struct_time``,
    ``os.stat_result``): optree's built-in nodes, leaves in JAX."""
    return t is collections.deque or optree.is_structseq_class(t)


def _is_jax_leaf(x: Any) -> bool:
    return _jax_leaf_type(type(x))


def _with_jax_leaves(is_leaf: Callable | None) -> Callable:
    if is_leaf is None:
        return _is_jax_leaf
    return lambda x: _is_jax_leaf(x) or is_leaf(x)


def _sorted_dict_node(spec: PyTreeDef) -> PyTreeDef:
    """One node of a treedef, with a ``dict``'s keys in sorted order (see ``_canonical``).

    Raises:
        _JaxLeafNode: for a node that is a leaf in JAX.
    """
    if spec.type is not dict and spec.type is not collections.defaultdict:
        if _jax_leaf_type(spec.type):
            raise _JaxLeafNode
        return spec
    d = optree.tree_unflatten(spec, spec.children())  # insertion order, leaf specs
    keys = list(d)
    try:
        ordered = sorted(keys)
    except TypeError:
        if spec.type is not dict:  # JAX sorts a defaultdict's keys in Python: its TypeError
            raise
        raise ValueError(
            "Comparator raised exception while sorting pytree dictionary keys."
        ) from None
    if ordered == keys:
        return spec
    items = [(k, d[k]) for k in ordered]
    if spec.type is dict:
        return optree.treespec_dict(items, **_OPTS)
    return optree.treespec_defaultdict(d.default_factory, items, **_OPTS)


def _sorted_dicts(treedef: PyTreeDef) -> PyTreeDef:
    return optree.treespec_transform(treedef, _sorted_dict_node)


_sorted_dicts_memo = functools.lru_cache(maxsize=4096)(_sorted_dicts)


def _canonical(treedef: PyTreeDef) -> PyTreeDef:
    """``treedef`` with every ``dict``/``defaultdict`` rebuilt in sorted key order.

    JAX's treedefs store dict keys sorted, so everything rebuilt from one (``tree_map``,
    ``tree_unflatten``, the outputs of ``jit``/``vmap``/``grad``) is a dict in sorted key
    order, and keys that cannot be sorted raise ``ValueError``. optree sorts the leaves the
    same way but rebuilds dicts in their original insertion order; this restores JAX's
    behaviour (memoised per treedef, so a hot flatten pays one lookup).

    The memo compares treedefs of equal hash, and so the auxiliary data of custom nodes,
    with ``==`` (optree's hash leaves unhashable auxiliary data out): NumPy arrays there
    (numpyro's ``MultinomialProbs``) make that comparison raise, and a warning that is an
    error (SciPy's ``SparseEfficiencyWarning`` of sparse matrices) raises too. JAX's
    flatten compares nothing, so such a treedef is rebuilt without the memo.
    """
    canonical = _canonical_or_none(treedef)
    return treedef if canonical is None else canonical


def _canonical_or_none(treedef: PyTreeDef) -> PyTreeDef | None:
    """``_canonical(treedef)``, or None where ``treedef`` has a node that JAX's registry
    does not have (a ``deque``, a struct sequence): the tree is to be flattened again with
    those as leaves (``_with_jax_leaves``)."""
    try:
        return _sorted_dicts_memo(treedef)
    except _JaxLeafNode:
        return None
    except Exception:  # noqa: BLE001 - the memo's comparison (unsortable keys raise again)
        try:
            return _sorted_dicts(treedef)
        except _JaxLeafNode:
            return None


def treedef_repr(treedef: PyTreeDef) -> str:
    """``repr`` of a treedef as JAX prints it in messages (``PyTreeDef((*, *))``)."""
    r = repr(treedef)
    return "PyTreeDef" + r[len("PyTreeSpec") :] if r.startswith("PyTreeSpec") else r


def tree_flatten(tree: Any, is_leaf: Callable[[Any], bool] | None = None):
    """Flatten ``tree`` into (leaves, treedef) (``jax.tree_util.tree_flatten``).

    Raises:
        ValueError: for a dict whose keys cannot be sorted (``{1: 7, "y": 42}``), as JAX.
    """
    leaves, treedef = optree.tree_flatten(tree, is_leaf, **_OPTS)
    canonical = _canonical_or_none(treedef)
    if canonical is None:  # a deque or struct sequence in it: a leaf, as in JAX
        leaves, treedef = optree.tree_flatten(tree, _with_jax_leaves(is_leaf), **_OPTS)
        canonical = _canonical(treedef)
    return leaves, canonical


def tree_unflatten(treedef: PyTreeDef, leaves: Iterable[Any]) -> Any:
    """Rebuild a pytree from ``treedef`` and ``leaves`` (``jax.tree_util.tree_unflatten``)."""
    try:
        return optree.tree_unflatten(treedef, leaves)
    except ValueError as e:
        # JAX's wording of a leaf-count mismatch
        m = re.match(
            r"Too (few|many) leaves for PyTreeSpec; expected: (\d+)(?:, got: (\d+))?", str(e)
        )
        if m is None:
            raise
        got = f", got {m.group(3)}" if m.group(3) else "."
        raise ValueError(
            f"Too {m.group(1)} leaves for PyTreeDef; expected {m.group(2)}{got}"
        ) from None


def tree_leaves(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> list:
    return tree_flatten(tree, is_leaf)[0]


_METADATA_EQUALITY = (
    "Exception raised while checking equality of metadata fields of pytree. Make sure that "
    "metadata fields are hashable and have simple equality semantics. (Note: arrays cannot "
    "be passed as metadata fields!)"
)


def treedefs_equal(a: PyTreeDef, b: PyTreeDef) -> bool:
    """``a == b`` as JAX's transformations compare structures (a trace cache lookup, branch
    outputs, loop carries): where comparing a node's metadata raises (arrays in it, whose
    ``==`` has no truth value, or tracers of a finished trace) JAX's ``ValueError``, with
    the comparison's exception as its cause."""
    try:
        return a == b
    except Exception as e:
        raise ValueError(_METADATA_EQUALITY) from e


def tree_structure(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> PyTreeDef:
    canonical = _canonical_or_none(optree.tree_structure(tree, is_leaf, **_OPTS))
    if canonical is None:  # see tree_flatten
        canonical = _canonical(optree.tree_structure(tree, _with_jax_leaves(is_leaf), **_OPTS))
    return canonical


def tree_map(f: Callable, tree: Any, *rest: Any, is_leaf: Callable | None = None) -> Any:
    """Map ``f`` over the leaves of ``tree`` and the matching leaves of ``rest`` (dicts come
    back in sorted key order, as in JAX)."""
    leaves, treedef = tree_flatten(tree, is_leaf)
    if not rest:
        return treedef.unflatten(map(f, leaves))
    rests = [_flatten_up_to(treedef, r, "tree_map tree") for r in rest]
    return treedef.unflatten(f(*xs) for xs in zip(leaves, *rests))


def _flatten_up_to(treedef: PyTreeDef, full: Any, name: str) -> list:
    """``treedef.flatten_up_to(full)``, failing with JAX's pytree structure error.

    optree lets a ``dict``, an ``OrderedDict`` and a ``defaultdict`` stand for one another
    (matching children by key); JAX's node types must be equal, so ``full`` is checked at
    the prefix's dict nodes (``_dict_plan``), and compared node by node where that check
    cannot vouch for it."""
    try:
        subtrees = treedef.flatten_up_to(full)
    except ValueError as e:
        err = _prefix_mismatch(treedef, full, name)
        if err is None:
            raise
        raise err from e
    plan = _dict_plan(treedef)
    if plan is not None and not _dict_types_agree(plan, full):
        err = _prefix_mismatch(treedef, full, name)
        if err is not None:
            raise err
    return subtrees


_DICTS = (dict, collections.OrderedDict, collections.defaultdict)


def _find_dict_plan(spec: PyTreeDef):
    """``(type, ((child index, plan), ...))`` for ``spec``'s nodes on the way to its
    ``dict`` / ``OrderedDict`` / ``defaultdict`` nodes (``type`` is None for the others);
    None where there is no such node."""
    subs = []
    for i, child in enumerate(spec.children()):
        if not child.is_leaf():
            sub = _find_dict_plan(child)
            if sub is not None:
                subs.append((i, sub))
    typ = spec.type if spec.type in _DICTS else None
    if typ is None and not subs:
        return None
    return typ, tuple(subs)


_find_dict_plan_memo = functools.lru_cache(maxsize=4096)(_find_dict_plan)


def _dict_plan(treedef: PyTreeDef):
    """``_find_dict_plan``, memoised (see ``_canonical`` on treedefs whose comparison
    raises)."""
    try:
        return _find_dict_plan_memo(treedef)
    except Exception:  # noqa: BLE001 - the memo's comparison of auxiliary data
        return _find_dict_plan(treedef)


def _dict_types_agree(plan, full: Any) -> bool:
    """Whether ``full`` has a plain ``dict`` wherever the prefix (whose ``_dict_plan`` is
    ``plan``) has one; False, to compare node by node, at an ``OrderedDict`` /
    ``defaultdict`` (whose key order and factory are metadata too)."""
    typ, subs = plan
    if typ is not None and (typ is not dict or type(full) is not dict):
        return False
    if subs:
        try:
            children = optree.tree_flatten_one_level(full, **_OPTS)[0]
        except Exception:  # noqa: BLE001 - the full tree's own error is the walk's affair
            return False
        for i, sub in subs:
            if not _dict_types_agree(sub, children[i]):
                return False
    return True


def check_prefix(treedef: PyTreeDef, full: Any, name: str) -> None:
    """Raise JAX's ``ValueError`` ("pytree structure error: ... at key path\n    NAME...")
    unless ``treedef`` is a prefix of ``full``'s structure."""
    _flatten_up_to(treedef, full, name)


def _node_and_children(node: Any):
    """``node``'s own pytree node (its direct children as leaves) and those children."""
    calls = iter((False,))
    leaves, spec = optree.tree_flatten(node, lambda _: next(calls, True), **_OPTS)
    return spec, leaves


def _prefix_mismatch(spec: PyTreeDef, full: Any, name: str, path: tuple = ()):
    """The first place where ``full`` does not have the prefix structure ``spec``, as JAX's
    ``ValueError`` ("pytree structure error: different types at key path..."); None if it
    has it."""
    if spec.is_leaf():
        return None
    where = f"pytree structure error: {{}} at key path\n    {name}{keystr(path)}\n"
    head = f"At that key path, the prefix pytree {name} has a subtree of type"
    fspec, children = _node_and_children(full)
    if fspec.type is not spec.type:
        return ValueError(
            where.format("different types")
            + f"{head}\n    {spec.type}\nbut at the same key path the full pytree has a "
            f"subtree of different type\n    {type(full)}."
        )
    if spec.type in (tuple, list) and spec.num_children != fspec.num_children:
        t = spec.type.__name__
        return ValueError(
            where.format(f"different lengths of {t}")
            + f"{head} {t} of length {spec.num_children}, but the full pytree has a subtree "
            f"of the same type but of length {fspec.num_children}."
        )
    ka, kb = spec.entries(), fspec.entries()
    if len(ka) != len(kb) or spec.num_children != fspec.num_children:
        diff = ""
        if spec.type in _DICTS:
            sym = set(ka).symmetric_difference(kb)
            diff = "\nso the symmetric difference on key sets is\n    " + " ".join(
                map(str, sorted(sym, key=str))
            )
        return ValueError(
            where.format("different numbers of pytree children")
            + f"{head}\n    {spec.type}\nwith {len(ka)} child keys\n    "
            f"{' '.join(map(str, ka))}\nbut at the same key path the full pytree has a "
            f"subtree of the same type but with {len(kb)} child keys\n    "
            f"{' '.join(map(str, kb))}{diff}"
        )
    if spec.type is dict:
        meta_a, meta_b = tuple(ka), tuple(kb)
    else:
        try:
            meta_a, meta_b = _node_metadata(spec), _one_level(full)[1]
        except Exception:  # noqa: BLE001 - a node that cannot be rebuilt with placeholders
            meta_a, meta_b = tuple(ka), tuple(kb)
    try:
        same = bool(meta_a == meta_b)
    except Exception:  # noqa: BLE001 - arrays in the metadata (JAX's message)
        return ValueError(_METADATA_EQUALITY)
    if not same:
        ndiff = "\n    ".join(difflib.ndiff([repr(meta_a)], [repr(meta_b)]))
        return ValueError(
            where.format("different pytree metadata")
            + f"{head}\n    {spec.type}\nwith metadata\n    {meta_a!r}\nbut at the same "
            "key path the full pytree has a subtree of the same type but with metadata\n    "
            f"{meta_b!r}\nso the diff in the metadata at these pytree nodes is\n    {ndiff}"
        )
    keys = [_to_key(a[0]) for a in fspec.accessors()]
    for sub, child, key in zip(spec.children(), children, keys):
        err = _prefix_mismatch(sub, child, name, (*path, key))
        if err is not None:
            return err
    return None


def _node_metadata(spec: PyTreeDef) -> Any:
    """The auxiliary data of ``spec``'s root node as JAX reports it (``flatten_one_level``'s),
    read from a node rebuilt with placeholder children."""
    node = spec.one_level().unflatten([None] * spec.num_children)
    return _one_level(node)[1]


def tree_map_with_path(
    f: Callable,
    tree: Any,
    *rest: Any,
    is_leaf: Callable | None = None,
    is_leaf_takes_path: bool = False,
):
    """Like ``tree_map`` but ``f`` also receives the key path of each leaf first.

    With ``is_leaf_takes_path=True``, ``is_leaf`` is called as ``is_leaf(path, node)``.
    """
    leaves_with_path, treedef = tree_flatten_with_path(tree, is_leaf, is_leaf_takes_path)
    paths = [p for p, _ in leaves_with_path]
    leaves = [x for _, x in leaves_with_path]
    rests = [_flatten_up_to(treedef, r, "tree_map_with_path tree") for r in rest]
    return treedef.unflatten(f(p, *xs) for p, *xs in zip(paths, leaves, *rests))


def _one_level_keys(node: Any) -> list:
    """The JAX key entries of ``node``'s direct children ([] for a leaf)."""
    calls = iter((False,))
    if _is_jax_leaf(node):
        return []
    spec = optree.tree_structure(node, lambda _: next(calls, True), **_OPTS)
    if spec.is_leaf():
        return []
    return [_to_key(acc[0]) for acc in spec.accessors()]


def _path_is_leaf(tree: Any, is_leaf: Callable) -> Callable:
    """A plain ``is_leaf(node)`` replaying ``is_leaf(path, node)`` decisions.

    The decisions are made by a pre-order walk (dict keys sorted), the order in which
    optree calls ``is_leaf``; the returned callable answers optree's calls in turn.
    """
    decisions: list[bool] = []

    def walk(node, path):
        if _is_jax_leaf(node):  # decided before ``is_leaf`` (see tree_flatten_with_path)
            return
        stop = bool(is_leaf(path, node))
        decisions.append(stop)
        if stop:
            return
        keys = _one_level_keys(node)
        if keys:
            children = optree.tree_flatten_one_level(node, **_OPTS)[0]
            for key, child in zip(keys, children):
                walk(child, path + (key,))

    walk(tree, ())
    answers = iter(decisions)
    return lambda _: next(answers)


def tree_flatten_with_path(
    tree: Any, is_leaf: Callable | None = None, is_leaf_takes_path: bool = False
):
    """Returns ([(key_path, leaf), ...], treedef) with JAX-style key entries.

    With ``is_leaf_takes_path=True``, ``is_leaf`` is called as ``is_leaf(path, node)``.
    """
    if is_leaf_takes_path and is_leaf is not None:
        is_leaf = _with_jax_leaves(_path_is_leaf(tree, is_leaf))
    accessors, leaves, treedef = optree.tree_flatten_with_accessor(tree, is_leaf, **_OPTS)
    if _canonical_or_none(treedef) is None:  # see tree_flatten
        accessors, leaves, treedef = optree.tree_flatten_with_accessor(
            tree, _with_jax_leaves(is_leaf), **_OPTS
        )
    keypaths = [tuple(_to_key(e) for e in acc) for acc in accessors]
    return list(zip(keypaths, leaves)), _canonical(treedef)


def tree_leaves_with_path(
    tree: Any, is_leaf: Callable | None = None, is_leaf_takes_path: bool = False
) -> list:
    return tree_flatten_with_path(tree, is_leaf, is_leaf_takes_path)[0]


def tree_all(tree: Any, *, is_leaf: Callable | None = None) -> bool:
    return all(tree_leaves(tree, is_leaf))


_NO_INITIALIZER = object()


def tree_reduce(
    function: Callable, tree: Any, initializer: Any = _NO_INITIALIZER, is_leaf=None
) -> Any:
    """Reduce the leaves of ``tree`` with ``function`` (``jax.tree_util.tree_reduce``).

    Raises:
      TypeError: for a tree without leaves and no ``initializer``.
    """
    leaves = tree_leaves(tree, is_leaf)
    if initializer is _NO_INITIALIZER:
        return functools.reduce(function, leaves)
    return functools.reduce(function, leaves, initializer)


def treedef_is_leaf(treedef: PyTreeDef) -> bool:
    """``jax.tree_util.treedef_is_leaf``: whether ``treedef`` has a single node (a leaf, or
    an empty node such as ``None``'s, as in JAX)."""
    return treedef.num_nodes == 1


def treedef_is_one_leaf(treedef: PyTreeDef) -> bool:
    """Whether ``treedef`` is exactly one leaf (``None``'s is not)."""
    return treedef.num_nodes == 1 and treedef.num_leaves == 1


def all_leaves(iterable: Iterable[Any], is_leaf: Callable | None = None) -> bool:
    """Whether every element of ``iterable`` is a leaf (with ``is_leaf``: whether
    flattening the list of elements gives back those very objects)."""
    if is_leaf is None:
        return all(treedef_is_one_leaf(tree_structure(x)) for x in iterable)
    items = list(iterable)
    leaves = tree_leaves(items, is_leaf)
    return len(leaves) == len(items) and all(a is b for a, b in zip(items, leaves))


def tree_transpose(outer_treedef, inner_treedef, pytree_to_transpose):
    """``jax.tree_util.tree_transpose``; with ``inner_treedef=None`` the inner structure is
    that of the first outer subtree, as in JAX.

    Raises:
      TypeError: ``pytree_to_transpose`` is not ``outer_treedef`` composed with
        ``inner_treedef`` (JAX's ``Mismatch`` message; JAX itself compares only the
        numbers of leaves, see docs/compat.md).
    """
    outer_treedef = _canonical(outer_treedef)
    if inner_treedef is None:
        subtrees = outer_treedef.flatten_up_to(pytree_to_transpose)
        if not subtrees:
            raise ValueError("tree_transpose cannot infer the inner structure of an empty tree")
        inner_treedef = tree_structure(subtrees[0])
    inner_treedef = _canonical(inner_treedef)
    flat, treedef = tree_flatten(pytree_to_transpose)
    expected = outer_treedef.compose(inner_treedef)
    if not treedefs_equal(treedef, expected):
        raise TypeError(f"Mismatch\n{treedef_repr(treedef)}\n != \n{treedef_repr(expected)}")
    n_inner, n_outer = inner_treedef.num_leaves, outer_treedef.num_leaves
    rows = [flat[i * n_inner : (i + 1) * n_inner] for i in range(n_outer)]
    if rows:
        columns = [outer_treedef.unflatten(col) for col in zip(*rows)]
    else:  # no outer leaves: each inner leaf is an empty outer tree
        columns = [outer_treedef.unflatten([]) for _ in range(n_inner)]
    return inner_treedef.unflatten(columns)


def broadcast_prefix(
    prefix_tree: Any, full_tree: Any, is_leaf=None, name: str = "broadcast_prefix prefix_tree"
) -> list:
    """Leaves of ``prefix_tree`` repeated to match the leaves of ``full_tree``.

    ``is_leaf`` applies to ``prefix_tree`` only (e.g. ``None`` as an axis leaf): the full
    tree is flattened normally, so a ``None`` there is an empty subtree with no leaves,
    as in JAX (``vmap(f, in_axes=((None, 0),))((None, x))`` maps ``x``).

    Raises:
      ValueError: if ``prefix_tree`` is not a tree prefix of ``full_tree``.
    """
    prefix_leaves, prefix_def = optree.tree_flatten(prefix_tree, is_leaf, **_OPTS)
    if _canonical_or_none(prefix_def) is None:  # a deque or struct sequence: a leaf
        prefix_leaves, prefix_def = optree.tree_flatten(
            prefix_tree, _with_jax_leaves(is_leaf), **_OPTS
        )
    subtrees = _flatten_up_to(prefix_def, full_tree, name)
    out: list = []
    for leaf, sub in zip(prefix_leaves, subtrees):
        out.extend([leaf] * len(tree_leaves(sub)))
    return out


# ------------------------------------------------------- more of jax.tree_util's surface


def treedef_tuple(treedefs: Iterable[PyTreeDef]) -> PyTreeDef:
    """The treedef of a tuple of trees with these treedefs (``jax.tree_util.treedef_tuple``)."""
    return optree.treespec_tuple(list(treedefs), **_OPTS)


def treedef_children(treedef: PyTreeDef) -> list[PyTreeDef]:
    return treedef.children()


class _NodeRegistry:
    """``type in registry``: whether a type is a pytree node for jaxlite (a container)."""

    def __contains__(self, nodetype) -> bool:
        return optree.register_pytree_node.get(nodetype, namespace=NAMESPACE) is not None


node_registry = _NodeRegistry()


def is_tree_node(typ: type) -> bool:
    """``jax.tree_util.is_tree_node``: whether ``typ`` is a pytree node type (a container,
    ``NoneType`` included), not a leaf type."""
    if _jax_leaf_type(typ):
        return False  # optree's built-in nodes, not JAX's
    return typ is type(None) or typ in node_registry


def _one_level(tree: Any):
    if tree is None:
        return (), None
    if _is_jax_leaf(tree):
        raise ValueError(f"can't tree-flatten type: {type(tree)}")
    try:
        children, meta, _, _ = optree.tree_flatten_one_level(tree, **_OPTS)
    except ValueError:
        raise ValueError(f"can't tree-flatten type: {type(tree)}") from None
    if isinstance(meta, list):  # dict keys: a tuple, as JAX's aux data
        meta = tuple(meta)
    elif isinstance(meta, tuple) and len(meta) == 2 and isinstance(meta[1], list):
        meta = (meta[0], tuple(meta[1]))  # defaultdict: (factory, keys)
    # JAX: a list for a list and for the nodes its Python registry flattens (namedtuples,
    # OrderedDict, defaultdict, dataclasses and nodes registered with keys), a tuple for a
    # tuple, dict or None, and a node registered with a plain flatten function's own
    as_list = type(tree) not in (tuple, dict)
    user_flatten = _PLAIN_FLATTEN.get(type(tree))
    if user_flatten is not None:
        as_list = not isinstance(user_flatten(tree)[0], tuple)
    return (list(children) if as_list else tuple(children)), meta


def flatten_one_level(tree: Any) -> tuple[Iterable[Any], Hashable]:
    """``jax.tree_util.flatten_one_level``: the direct children of a pytree node and its
    auxiliary data (dict keys in sorted order, the type of a namedtuple, a custom node's aux).

    Raises:
      ValueError: ``tree`` is a leaf.
    """
    return _one_level(tree)


def flatten_one_level_with_keys(tree: Any):
    """``jax.tree_util.flatten_one_level_with_keys``: as ``flatten_one_level``, each child
    paired with its key (``DictKey``, ``SequenceKey``, ``GetAttrKey``, ...)."""
    _, meta = _one_level(tree)
    pairs, _ = tree_flatten_with_path(tree, is_leaf=lambda x: x is not tree)
    keyed = [(path[0], child) for path, child in pairs]
    # JAX: a list for the nodes its Python registry flattens, else a tuple
    builtin = type(tree) in (tuple, list, dict, type(None))
    return (tuple(keyed) if builtin else keyed), meta


def tree_broadcast(prefix_tree: Any, full_tree: Any, is_leaf=None) -> Any:
    """``jax.tree_util.tree_broadcast``: ``full_tree``'s structure with each leaf of
    ``prefix_tree`` repeated over the subtree it is a prefix of.

    Raises:
      ValueError: ``prefix_tree`` is not a tree prefix of ``full_tree``.
    """
    leaves = broadcast_prefix(prefix_tree, full_tree, is_leaf)
    return tree_unflatten(tree_structure(full_tree), leaves)


class _Unspecified:
    def __repr__(self):
        return "<unspecified>"


_UNSPECIFIED = _Unspecified()


def tree_reduce_associative(
    operation: Callable, tree: Any, *, identity: Any = _UNSPECIFIED, is_leaf=None
) -> Any:
    """``jax.tree_util.tree_reduce_associative``: reduce the leaves with an associative
    ``operation`` as a balanced binary tree (the first half, then the second half, then the
    two combined), so the depth is ``log2`` of the number of leaves.

    Raises:
      TypeError: no leaves and no ``identity``.
    """
    leaves = tree_leaves(tree, is_leaf)
    if not leaves:
        if identity is _UNSPECIFIED:
            raise TypeError("Must specify identity for parallel reduction of empty sequence.")
        return identity

    def reduce(xs):
        if len(xs) == 1:
            return xs[0]
        mid = len(xs) // 2
        return operation(reduce(xs[:mid]), reduce(xs[mid:]))

    return reduce(leaves)
