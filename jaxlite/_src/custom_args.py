"""The arguments of a call of a custom-rule function (``custom_jvp``, ``custom_vjp``,
``custom_vmap``) resolved to positions, as JAX resolves them before splitting off
``nondiff_argnums``."""

from __future__ import annotations

import functools
import inspect
import types
import weakref

_SIGNATURES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _signature(fun):
    """``(signature, number of positional parameters)`` of ``fun`` (cached for plain
    functions, which hash by identity), or None where it is opaque (a
    ``functools.partial``, as in JAX) or unknown (some builtins)."""
    plain = type(fun) is types.FunctionType
    if plain and fun in _SIGNATURES:
        return _SIGNATURES[fun]
    info = None
    if not isinstance(fun, functools.partial):
        try:
            sig = inspect.signature(fun)
            kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
            info = (sig, sum(p.kind in kinds for p in sig.parameters.values()))
        except (TypeError, ValueError):
            pass
    if plain:
        _SIGNATURES[fun] = info
    return info


def resolve_args(fun, args, kwargs, kind: str) -> tuple:
    """The arguments of a custom function as positions, as JAX resolves them: keyword
    arguments bound to their positions and omitted trailing ones given their defaults
    (``nondiff_argnums`` may name a defaulted parameter)."""
    info = _signature(fun)
    if not kwargs and (info is None or len(args) >= info[1]):
        return args
    name = getattr(fun, "__name__", type(fun).__name__)
    try:
        if info is None:
            raise TypeError(f"got unexpected keyword arguments {', '.join(kwargs)}")
        ba = info[0].bind(*args, **kwargs)
        ba.apply_defaults()
        passed = [k for k in ba.kwargs if k in kwargs]
        if passed:
            raise TypeError(
                "The following keyword arguments could not be resolved to positions: "
                f"{', '.join(passed)}"
            )
    except TypeError as e:
        raise TypeError(
            f"The input arguments to the {kind}-decorated function {name} could not be "
            f"resolved to positional-only arguments. Binding failed with the error:\n{e}"
        ) from None
    return tuple(ba.args)
