"""``forward_only``: the identity, marking a value that JAX differentiates in forward mode
only (a ``reduce_window`` whose JAX primitive has no reverse-mode rule).

Evaluation, ``jit``, ``vmap`` and ``jvp`` pass the value (and its tangent) through
unchanged. Reverse mode raises as JAX does: with ``refuse="linearize"`` when the tangent
is split from the primal (``grad``, ``vjp``, ``linearize``: a ValueError), with
``refuse="transpose"`` when the linear map is transposed (the backward pass of ``grad`` or
of ``vjp``'s function: a NotImplementedError). ``msg`` is the error's message.
"""

from __future__ import annotations

from jaxlite._src import dtypes
from jaxlite._src.core import rules
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero

forward_only_p = Primitive("forward_only")


def _impl(x, *, refuse, msg):
    return x


def _abstract_eval(x, *, refuse, msg):
    return x


def _jvp(primals, tangents, *, refuse, msg):
    (x,), (t,) = primals, tangents
    y = forward_only_p.bind(x, refuse=refuse, msg=msg)
    if type(t) is Zero:
        return y, t
    return y, forward_only_p.bind(t, refuse=refuse, msg=msg)


def _transpose(ct, x, *, refuse, msg):
    if refuse == "linearize":
        raise ValueError(msg)
    raise NotImplementedError(msg)


def _partial_eval(trace, tracers, *, refuse, msg):
    # reached with an unknown (tangent) operand only
    if refuse == "linearize":
        raise ValueError(msg)
    return trace.stage(forward_only_p, tracers, {"refuse": refuse, "msg": msg})


def _batch(axis_data, args, dims, *, refuse, msg):
    return forward_only_p.bind(args[0], refuse=refuse, msg=msg), dims[0]


rules.impl_rules[forward_only_p] = _impl
rules.abstract_eval_rules[forward_only_p] = _abstract_eval
rules.vma_rules[forward_only_p] = rules.keep_vma
rules.jvp_rules[forward_only_p] = _jvp
rules.transpose_rules[forward_only_p] = _transpose
rules.partial_eval_rules[forward_only_p] = _partial_eval
rules.batch_rules[forward_only_p] = _batch


def forward_only(x, refuse: str, msg: str):
    """``x``, refused in reverse mode (module docstring); ``refuse`` is ``"linearize"`` or
    ``"transpose"``."""
    if refuse not in ("linearize", "transpose"):
        raise ValueError(f"forward_only: unknown refuse={refuse!r}")
    return forward_only_p.bind(x, refuse=refuse, msg=msg)


_LINEARIZE_MSG = (
    "Linearization failed to produce known values for all output primals. This is "
    "typically caused by attempting to differentiate a function uses an operation that "
    "does not support reverse-mode autodiff."
)


def reduce_window_refusal(lax_monoid: bool, identity_init: bool, kind, window_dilation, dtype):
    """JAX's limits on reverse-mode derivatives of ``reduce_window`` (forward mode has none):
    only ``lax.add``/``lax.max``/``lax.min`` (``lax_monoid``) with a concrete identity init
    get a transposable primitive (any other computation, ``mul``, a jnp ufunc, another
    init: a ValueError when linearizing), and max/min windows with window dilation have no
    VJP (a NotImplementedError). ``(refuse, msg)`` for ``forward_only``, or None."""
    if not dtypes.is_inexact(dtype):
        return None
    if not (lax_monoid and identity_init):
        return ("linearize", _LINEARIZE_MSG)
    if kind in ("max", "min") and any(d != 1 for d in window_dilation):
        return (
            "transpose",
            "VJP not implemented for select_and_gather (MaxPool) with window dilation, "
            f"got window_dilation={tuple(window_dilation)}.",
        )
    return None
