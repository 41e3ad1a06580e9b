"""``jnp.vectorize``: NumPy's generalised-ufunc vectorisation, built on ``vmap``.

The loop dimensions of the arguments (everything left of their core dimensions) are
broadcast NumPy-style. Instead of materialising the broadcast, each loop dimension becomes
one ``vmap`` level: an argument whose size there is 1 (or that lacks the dimension) is
squeezed beforehand and enters that level with ``in_axes=None``.
"""

from __future__ import annotations

import functools
import re
import warnings
from collections.abc import Callable

import numpy as np
from jaxlite._src import config as _cfg
from jaxlite._src.api import vmap
from jaxlite._src.numpy.creation import asarray
from jaxlite._src.numpy.shape import squeeze

_DIM = r"\w+"
_CORE = rf"\((?:{_DIM}(?:,{_DIM})*)?\)"
_ARGLIST = rf"{_CORE}(?:,{_CORE})*"
_SIGNATURE = rf"^{_ARGLIST}->{_ARGLIST}$"


def _parse_signature(signature: str):
    """'(m,n),(n)->(m)' -> ([('m','n'), ('n',)], [('m',)]), plus whether the output is a
    tuple (more than one output core spec)."""
    sig = re.sub(r"\s+", "", signature)
    if not re.match(_SIGNATURE, sig):
        raise ValueError(f"not a valid gufunc signature: {signature}")
    lhs, rhs = sig.split("->")
    ins = [tuple(re.findall(_DIM, a)) for a in re.findall(_CORE, lhs)]
    outs = [tuple(re.findall(_DIM, a)) for a in re.findall(_CORE, rhs)]
    return ins, outs


def _bind_sizes(sizes: dict, core: tuple, shape: tuple, context: str):
    for name, n in zip(core, shape):
        if name in sizes and sizes[name] != n:
            raise ValueError(
                f"inconsistent size for core dimension {name!r}: {n} vs {sizes[name]} {context}"
            )
        sizes[name] = n


def vectorize(pyfunc: Callable, *, excluded=frozenset(), signature: str | None = None):
    """``jax.numpy.vectorize``: vectorise ``pyfunc`` with NumPy broadcasting rules.

    Args:
        pyfunc: function of arrays with the core shapes given by ``signature`` (scalars if
            no signature).
        excluded: positional indices (ints) or keyword names (strs) passed through
            unvectorised. Other keyword arguments are passed through unchanged too.
        signature: generalised-ufunc signature such as ``"(n),(n)->()"``.
    """
    shown = excluded  # the messages name it as given (JAX's repr)
    excluded = frozenset(excluded)
    for e in excluded:
        if not isinstance(e, (int, str)):
            raise TypeError(
                "jax.numpy.vectorize can only exclude integer or string "
                f"arguments, but excluded={excluded!r}"
            )
        if isinstance(e, int) and e < 0:
            raise ValueError(f"excluded={excluded!r} contains negative numbers")
    parsed = _parse_signature(signature) if signature is not None else None

    @functools.wraps(pyfunc)
    def wrapped(*args, **kwargs):
        context = f"on vectorized function with excluded={shown!r} and signature={signature!r}"
        dyn_pos = [i for i in range(len(args)) if i not in excluded and args[i] is not None]
        static = {i: a for i, a in enumerate(args) if i not in dyn_pos}

        if parsed is None:
            in_core = [()] * len(dyn_pos)
            out_core = None
        else:
            in_core, out_core = parsed
            n_vec = len([i for i in range(len(args)) if i not in excluded])
            if len(in_core) != n_vec:
                raise TypeError(
                    f"wrong number of positional arguments: expected "
                    f"{len(in_core)}, got {n_vec} {context}"
                )
            # None arguments (allowed only for scalar cores) are passed through.
            vec_idx = [i for i in range(len(args)) if i not in excluded]
            in_core = [c for i, c in zip(vec_idx, in_core) if args[i] is not None]
            for i, c in zip(vec_idx, parsed[0]):
                if args[i] is None and c != ():
                    raise ValueError(
                        f"Cannot pass None at location {i} with signature={signature!r}"
                    )
        dyn = [asarray(args[i]) for i in dyn_pos]

        sizes: dict = {}
        loop_shapes = []
        for x, core in zip(dyn, in_core):
            if x.ndim < len(core):
                raise ValueError(
                    f"input with shape {x.shape!r} does not have enough "
                    f"dimensions for all core dimensions {core!r} {context}"
                )
            k = x.ndim - len(core)
            _bind_sizes(sizes, core, x.shape[k:], context)
            loop_shapes.append(x.shape[:k])
        _rank_promotion_check(dyn, in_core, signature)
        try:
            loop = tuple(np.broadcast_shapes(*loop_shapes)) if loop_shapes else ()
        except ValueError:
            shapes = [tuple(sh) for sh in loop_shapes]
            raise ValueError(f"Incompatible shapes for broadcasting: shapes={shapes}") from None

        def core_fun(*dyn_vals):
            it = iter(dyn_vals)
            full = [static[i] if i in static else next(it) for i in range(len(args))]
            out = pyfunc(*full, **kwargs)
            if out_core is not None:
                _check_outputs(out, out_core, dict(sizes), context)
            return out

        # Squeeze each argument's loop axes of size 1 (and record, per level, who maps).
        levels = len(loop)
        squeezed, maps = [], []
        for x, ls in zip(dyn, loop_shapes):
            pad = levels - len(ls)
            drop = tuple(j for j, n in enumerate(ls) if n == 1 and loop[pad + j] != 1)
            squeezed.append(squeeze(x, drop) if drop else x)
            maps.append(
                [False] * pad + [not (n == 1 and loop[pad + j] != 1) for j, n in enumerate(ls)]
            )
        fun = core_fun
        for level in reversed(range(levels)):
            in_axes = tuple(0 if m[level] else None for m in maps)
            fun = vmap(fun, in_axes=in_axes, axis_size=loop[level])
        return fun(*squeezed)

    return wrapped


def _rank_promotion_check(dyn, in_core, signature) -> None:
    """``jax_numpy_rank_promotion`` for the loop dimensions (rank-0 operands never count)."""
    mode = _cfg.numpy_rank_promotion_mode()
    if mode == "allow":
        return
    if len({x.ndim - len(c) for x, c in zip(dyn, in_core) if x.ndim != 0}) < 2:
        return
    msg = (
        f"operands with shapes {[x.shape for x in dyn]} require rank promotion for "
        f"jnp.vectorize function with signature {signature}. Set the "
        "jax_numpy_rank_promotion config option to 'allow' to disable this message; for more "
        "information, see https://docs.jax.dev/en/latest/rank_promotion_warning.html."
    )
    if mode == "warn":
        warnings.warn(msg, stacklevel=3)
    else:
        raise ValueError(msg)


def _check_outputs(out, out_core, sizes, context):
    if len(out_core) == 1:
        outs = [out]
    else:
        if not isinstance(out, tuple):
            raise TypeError(
                "output must be a tuple when multiple outputs are expected, "
                f"got: {out!r}\n{context}"
            )
        if len(out) != len(out_core):
            raise TypeError(
                f"wrong number of output arguments: expected {len(out_core)}, "
                f"got {len(out)} {context}"
            )
        outs = list(out)
    for o, core in zip(outs, out_core):
        shape = asarray(o).shape
        if len(shape) != len(core):
            raise ValueError(
                f"output shape {shape!r} does not match core dimensions {core!r} {context}"
            )
        _bind_sizes(sizes, core, shape, context)
