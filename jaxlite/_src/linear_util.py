"""``jax.extend.linear_util``: wrapped functions whose auxiliary outputs are read back later.

A ``WrappedFun`` is a callable plus a chain of transformations applied when it is called
(``call_wrapped``); transformations such as ``api_util.flatten_fun`` report auxiliary data
(the output tree) through a ``Store`` that is filled when the function runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jaxlite._src import tree_util

_EMPTY = object()


class StoreException(Exception):
    pass


class Store:
    """A one-shot box for a value produced while a wrapped function runs."""

    __slots__ = ("_val",)

    def __init__(self):
        self._val = _EMPTY

    def store(self, val: Any) -> None:
        if self._val is not _EMPTY:
            raise StoreException("Store occupied")
        self._val = val

    def reset(self) -> None:
        self._val = _EMPTY

    @property
    def val(self) -> Any:
        if self._val is _EMPTY:
            raise StoreException("Store empty")
        return self._val

    def __bool__(self):
        return self._val is not _EMPTY


class WrappedFun:
    """``f`` with keyword ``params`` (``lu.wrap_init``); called with ``call_wrapped``."""

    def __init__(self, f: Callable, params: dict | None = None, debug_info: Any = None):
        self.f = f
        self.params = dict(params or {})
        self.debug_info = debug_info

    @property
    def __name__(self):
        return getattr(self.f, "__name__", "<unnamed wrapped function>")

    def call_wrapped(self, *args, **kwargs):
        return self.f(*args, **self.params, **kwargs)

    def __repr__(self):
        return f"Wrapped function: {self.__name__}"


def wrap_init(f: Callable, params: dict | None = None, *, debug_info: Any = None) -> WrappedFun:
    """Wrap ``f`` (called with ``params`` as keyword arguments)."""
    return WrappedFun(f, params, debug_info)


def flatten_fun(fun: WrappedFun, in_tree, *, with_kwargs: bool = True):
    """``fun`` on flat arguments (unflattened with ``in_tree``), with flat outputs.

    Returns ``(flat_fun, out_tree)``: ``out_tree()`` is the output treedef once
    ``flat_fun`` has run.
    """
    store = Store()

    def flat(*flat_args):
        tree = tree_util.tree_unflatten(in_tree, flat_args)
        if with_kwargs:
            args, kwargs = tree
            out = fun.call_wrapped(*args, **kwargs)
        else:
            out = fun.call_wrapped(*tree)
        leaves, out_tree = tree_util.tree_flatten(out)
        store.reset()
        store.store(out_tree)
        return leaves

    return WrappedFun(flat, None, fun.debug_info), lambda: store.val


def _run_generator(gen, gen_args: tuple, fun: WrappedFun, args: tuple, kwargs: dict):
    """Run a generator-style transformation: it yields ``(args, kwargs)`` to call ``fun``
    with, receives ``fun``'s answer and then yields its own."""
    g = gen(*gen_args, *args, **kwargs)
    call_args, call_kwargs = next(g)
    ans = fun.call_wrapped(*call_args, **call_kwargs)
    out = g.send(ans)
    g.close()
    return out


def transformation(gen: Callable) -> Callable:
    """Turn generator ``gen(*static, *args)`` into a transformation of ``WrappedFun``s.

    ``gen`` first yields ``(args, kwargs)``: the wrapped function is called with them and
    its answer sent back; what ``gen`` yields next is the transformed function's answer.
    ``transformation(gen)(fun, *static)`` is the transformed ``WrappedFun``.
    """

    def apply(fun: WrappedFun, *gen_args):
        def run(*args, **kwargs):
            return _run_generator(gen, gen_args, fun, args, kwargs)

        return WrappedFun(run, None, fun.debug_info)

    return apply


def transformation_with_aux(gen: Callable) -> Callable:
    """Like ``transformation``, but ``gen``'s final yield is ``(answer, aux)``.

    ``transformation_with_aux(gen)(fun, *static)`` returns ``(transformed, aux_thunk)``;
    ``aux_thunk()`` is ``aux`` once the transformed function has run; as in JAX, the
    transformed function runs once (a second call raises ``StoreException``).
    """

    def apply(fun: WrappedFun, *gen_args):
        store = Store()

        def run(*args, **kwargs):
            ans, aux = _run_generator(gen, gen_args, fun, args, kwargs)
            store.store(aux)
            return ans

        return WrappedFun(run, None, fun.debug_info), lambda: store.val

    return apply


def transformation2(gen: Callable) -> Callable:
    """Turn ``gen(f, *static, *args)``, which calls ``f`` itself, into a transformation."""

    def apply(fun: WrappedFun, *gen_args):
        def run(*args, **kwargs):
            return gen(fun.call_wrapped, *gen_args, *args, **kwargs)

        return WrappedFun(run, None, fun.debug_info)

    return apply


def transformation_with_aux2(gen: Callable) -> Callable:
    """Like ``transformation2``, with a ``Store`` passed after ``f`` for auxiliary output.

    Returns ``(transformed, aux_thunk)`` as ``transformation_with_aux`` does.
    """

    def apply(fun: WrappedFun, *gen_args):
        store = Store()

        def run(*args, **kwargs):
            return gen(fun.call_wrapped, store, *gen_args, *args, **kwargs)

        return WrappedFun(run, None, fun.debug_info), lambda: store.val

    return apply
