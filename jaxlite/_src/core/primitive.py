"""Primitives: inert names. What they mean lives in the rule tables (``core.rules``).

jaxlite's own primitives register their rules into the tables directly (NumPy-level impl
rules). ``def_impl`` / ``def_abstract_eval`` / ``def_effectful_abstract_eval`` are the JAX
way (``jax.extend.core.Primitive``) used by third-party libraries: their impl receives and
returns ``Array``s, so it is adapted to the NumPy-level impl table here.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from jaxlite._src.core import rules, trace as _trace
from jaxlite._src.core.array import ArrayImpl, make_array
from jaxlite._src.core.avals import ShapedArray, aval_of


class Primitive:
    """A named operation. ``bind`` hands it to the current trace.

    Bind convention: array operands positional; metadata as hashable keyword params.
    Mirrors ``jax.extend.core.Primitive`` (``def_impl``, ``def_abstract_eval``,
    ``def_effectful_abstract_eval``, ``multiple_results``).
    """

    multiple_results = False
    # JAX's other class-level flags, read by libraries that walk jaxprs (distrax's Lambda
    # bijector asks every equation's primitive for ``call_primitive``). jaxlite has no
    # final-style call primitives and no mutable refs, so all are False.
    call_primitive = False
    ref_primitive = False
    ref_allocating = False
    skip_canonicalization = False
    is_effectful = None

    def __init__(self, name: str, multiple_results: bool = False):
        self.name = name
        self.multiple_results = multiple_results

    def bind(self, *args, **params):
        return _trace.trace_ctx.trace.process_primitive(self, args, params)

    def bind_with_trace(self, trace, args, params):
        return trace.process_primitive(self, args, params)

    def get_bind_params(self, params: dict) -> dict:
        """The keyword parameters that re-bind an equation of this primitive (JAX's
        ``Primitive.get_bind_params``, used by libraries that interpret jaxprs themselves,
        such as equinox's ``finalise_jaxpr``): ``prim.bind(*invals, **get_bind_params(
        eqn.params))``. Every jaxlite equation re-binds with its own parameters (as
        ``eval_jaxpr`` does), so they are returned as they are."""
        return params

    def __repr__(self):
        return self.name

    # -- the JAX way of giving a primitive its rules -------------------------------------

    def def_impl(self, impl: Callable) -> Callable:
        """Eager evaluation: ``impl(*arrays, **params)`` on ``Array``s returns the outputs.

        The impl may use any jaxlite operation; it also runs from jitted code.
        """
        rules.impl_rules[self] = array_level_impl(self, impl)
        # As JAX's ``Primitive.impl``: the function itself, so calling it while tracing
        # traces it (equinox's finalise_jaxpr inlines primitives so).
        self.impl = impl
        return impl

    def def_abstract_eval(self, abstract_eval: Callable) -> Callable:
        """``abstract_eval(*avals, **params)`` returns the output aval(s) (``ShapedArray``)."""
        rules.abstract_eval_rules[self] = _normalised_abstract_eval(self, abstract_eval)
        return abstract_eval

    def def_effectful_abstract_eval(self, effectful_abstract_eval: Callable) -> Callable:
        """As ``def_abstract_eval``, but the rule returns ``(avals_out, effects)``."""
        avals_rule = _normalised_abstract_eval(
            self, lambda *avals, **params: effectful_abstract_eval(*avals, **params)[0]
        )
        rules.abstract_eval_rules[self] = avals_rule
        rules.effects_rules[self] = lambda *avals, **params: set(
            effectful_abstract_eval(*avals, **params)[1]
        )
        return effectful_abstract_eval

    def impl(self, *args, **params):
        """Evaluate the primitive eagerly (JAX's ``Primitive.impl``); a primitive given
        its impl by ``def_impl`` has that function here instead."""
        with _trace.set_current_trace(_trace.eval_trace):
            return self.bind(*args, **params)


def _to_aval(a) -> ShapedArray:
    if isinstance(a, ShapedArray):
        return a
    if hasattr(a, "shape") and hasattr(a, "dtype"):  # ShapeDtypeStruct and the like
        return ShapedArray(a.shape, a.dtype, getattr(a, "weak_type", False))
    raise TypeError(f"An abstract evaluation rule returned {a!r}, which is not an aval")


def _normalised_abstract_eval(prim: Primitive, rule: Callable) -> Callable:
    def abstract_eval(*avals, **params):
        out = rule(*avals, **params)
        if prim.multiple_results:
            return [_to_aval(a) for a in out]
        return _to_aval(out)

    return abstract_eval


def _read_only_view(x) -> np.ndarray:
    # A read-only view, so that wrapping never freezes a buffer generated code may reuse.
    v = np.asarray(x)
    if v.flags.writeable:
        v = v.view()
        v.flags.writeable = False
    return v


def array_level_impl(prim: Primitive, fun: Callable) -> Callable:
    """Adapt ``fun`` on ``Array``s (JAX's impl / lowering functions) to a NumPy-level impl.

    The outputs get the dtypes the primitive's abstract-eval rule gives, as in JAX, where
    the compiled computation's types come from abstract evaluation.
    """

    def impl(*args, **params):
        arrays = [ArrayImpl(_read_only_view(a)) for a in args]
        with _trace.set_current_trace(_trace.eval_trace):
            out = fun(*arrays, **params)
        abstract_eval = rules.abstract_eval_rules.get(prim)
        avals_out = None
        if abstract_eval is not None:
            avals = [aval_of(a) for a in arrays]
            avals_out = _trace.eval_abstract(prim, abstract_eval, avals, params)
        if prim.multiple_results:
            if avals_out is None:
                return [np.asarray(o) for o in out]
            return [make_array(o, a)._value for o, a in zip(out, avals_out)]
        return np.asarray(out) if avals_out is None else make_array(out, avals_out)._value

    impl.__wrapped__ = fun
    return impl
