"""Pytree conventions of ``custom_jvp`` / ``custom_vjp`` rules that JAX applies to what
the user's rules return (``custom_derivatives`` uses them): which ``fwd`` residuals stay
host values, and how a ``bwd`` output that is a prefix of the inputs' structure expands
to one cotangent per input leaf; and what rules defined with ``symbolic_zeros=True`` are
handed (``SymbolicZero``, ``CustomVJPPrimal``; ``zero_from_primal``)."""

from __future__ import annotations

import numpy as np

from jaxlite._src import tree_util
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.errors import UnexpectedTracerError
from jaxlite._src.core.trace import Tracer
from jaxlite._src.ops.structural import zeros


def bwd_cotangent_leaves(g, tree, whole=None) -> list:
    """One cotangent per leaf of an argument of structure ``tree``, from a bwd output ``g``
    whose structure is a prefix of it, as JAX: a None stands for zeros of the whole subtree
    it replaces (and matches the argument's own None holes), a leaf for every leaf below.

    Raises:
        TypeError: when ``g`` is not such a prefix; the message shows the structures of
            ``whole``, ``(the bwd output, the primal arguments)``, where given (JAX's).
    """
    out: list = []

    def take(x, d):
        out.extend([x] * tree_util.tree_structure(d).num_leaves)

    dummy = tree_util.tree_unflatten(tree, [_LEAF] * tree.num_leaves)
    try:
        tree_util.tree_map(take, g, dummy, is_leaf=lambda x: x is None)
    except ValueError:
        got, want = (g, tree) if whole is None else (whole[0], tree_util.tree_structure(whole[1]))
        raise TypeError(
            "Custom VJP bwd rule must produce an output with the same container (pytree) "
            "structure as the args tuple of the primal function, and in particular must "
            "produce a tuple of length equal to the number of arguments to the primal "
            "function, but got bwd output structure "
            f"{tree_util.treedef_repr(tree_util.tree_structure(got))} for primal input "
            f"structure {tree_util.treedef_repr(want)}."
        ) from None
    return out


_LEAF = object()


def is_host_residual(r) -> bool:
    """A custom_vjp residual kept as the host value it is (not converted to an Array)."""
    return type(r) in (bool, int, float, complex) or isinstance(r, (np.ndarray, np.generic))


def check_nondiff_not_traced(x) -> None:
    """JAX's refusal of a tracer among a ``custom_vjp`` function's ``nondiff_argnums``
    arguments (under ``jit``, ``vmap`` or differentiation alike).

    Raises:
        UnexpectedTracerError: when a leaf of ``x`` is a tracer.
    """
    for leaf in tree_util.tree_leaves(x):
        if isinstance(leaf, Tracer):
            raise UnexpectedTracerError(
                "Found a JAX Tracer object passed as an argument to a custom_vjp function in "
                "a position indicated by nondiff_argnums as non-differentiable. Tracers "
                "cannot be passed as non-differentiable arguments to custom_vjp functions; "
                "instead, nondiff_argnums should only be used for arguments that can't be "
                "or contain JAX tracers, e.g. function-valued arguments. In particular, "
                "array-valued arguments should typically not be indicated as nondiff_argnums."
            )


# ------------------------------------------------ zeros and primals handed to the rules
class SymbolicZero:
    """A zero tangent/cotangent passed to rules defined with ``symbolic_zeros=True``."""

    def __init__(self, aval: ShapedArray):
        self.aval = aval

    @property
    def shape(self):
        return self.aval.shape

    @property
    def dtype(self):
        return self.aval.dtype

    def instantiate(self):
        return zeros(self.aval)

    def __repr__(self):
        return f"SymbolicZero({self.aval.str_short(short_dtypes=True)})"


class CustomVJPPrimal:
    """An input to a ``custom_vjp`` fwd rule defined with ``symbolic_zeros=True``."""

    def __init__(self, value, perturbed: bool):
        self.value = value
        self.perturbed = perturbed

    def __repr__(self):
        return f"CustomVJPPrimal(value={self.value!r}, perturbed={self.perturbed})"


def zero_from_primal(val, symbolic_zeros: bool = False):
    """Zero tangents for the primal pytree ``val`` (``jax.custom_derivatives``): one
    ``SymbolicZero`` per leaf with ``symbolic_zeros``, else zero arrays of each leaf's
    tangent type (float0 for integer and boolean leaves)."""

    def zero(x):
        aval = aval_of(x).to_tangent_aval()
        return SymbolicZero(aval) if symbolic_zeros else zeros(aval)

    return tree_util.tree_map(zero, val)
