"""Reverse mode and its front ends: linearize, vjp, grad, value_and_grad, jacfwd, jacrev,
hessian, linear_transpose, closure_convert.

Reverse mode is JVP + partial evaluation + transposition:

* ``linearize_flat`` runs the function under a ``JVPTrace`` stacked on a
  ``PartialEvalTrace``: primals are known, input tangents unknown. Everything computing
  primal values runs now (in the forward pass, once); the tangent computation is staged
  into a linear jaxpr whose constants (residuals) are primal values.
* ``vjp`` transposes that linear jaxpr with ``backward_pass``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxlite._src import dtypes, tree_util, util as _util
from jaxlite._src.api import jvp as _api_jvp, split_aux, vmap
from jaxlite._src.api_plumbing import check_callable, flatten_fun
from jaxlite._src.compile.jit import jit
from jaxlite._src.control_flow.common import quiet_unless_user_code
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.ir import ClosedJaxpr
from jaxlite._src.core.rule_types import UndefinedPrimal, Zero
from jaxlite._src.core.shape_dtype import ShapeDtypeStruct
from jaxlite._src.core.trace import Tracer
from jaxlite._src.interpreters import jvp as _jvp
from jaxlite._src.interpreters.dce import dce_jaxpr
from jaxlite._src.interpreters.eval import eval_jaxpr
from jaxlite._src.interpreters.partial_eval import trace_partial
from jaxlite._src.interpreters.staging import (
    abstract_arg_aval,
    abstractify,
    check_output_leaf,
    trace_flat,
)
from jaxlite._src.interpreters.transpose import backward_pass
from jaxlite._src.numpy.creation import zeros as jnp_zeros
from jaxlite._src.numpy.shape import moveaxis, reshape
from jaxlite._src.numpy.util import asarray_any
from jaxlite._src.ops.conversion import convert_element_type as _convert
from jaxlite._src.ops.shape import full as _full
from jaxlite._src.ops.structural import instantiate, zeros
from jaxlite._src.sharding import explicit as _explicit


# ------------------------------------------------------------------------ flat engines
def linearize_flat(fun: Callable, primals: Sequence[Any]):
    """Returns ``(primals_out, lin_closed, residuals, out_tangent_avals)``.

    ``lin_closed`` maps ``(*residuals, *tangents_in)`` to the output tangents (one per
    output). Inputs with a ``float0`` tangent space get a symbolic-zero tangent and still
    take a (ignored) tangent argument in ``lin_closed``.
    """
    primals = list(primals)
    n = len(primals)
    tan_avals = [aval_of(p).to_tangent_aval() for p in primals]

    def f_jvp(*args):
        ps, ts = args[:n], args[n:]
        ts = [Zero(a) if a.dtype == dtypes.float0 else t for a, t in zip(tan_avals, ts)]
        p_out, t_out = _jvp.jvp_flat(fun, ps, ts)

        return list(p_out) + [instantiate(t) for t in t_out]

    unknowns = [False] * n + [True] * n
    n_out_box = {}

    def f_jvp_counted(*args):
        outs = f_jvp(*args)
        n_out_box["n"] = len(outs) // 2
        return outs

    # Tangent outputs are always staged (instantiate), primal outputs never are.
    known_outs, out_unk, lin, res = trace_partial(
        f_jvp_counted,
        primals + tan_avals,
        unknowns,
        lambda k: [False] * (k // 2) + [True] * (k // 2),
    )
    # The tangent map is dead-code eliminated, as JAX's tangent trace is (auto DCE): a
    # tangent computed but not reaching an output is never evaluated, so e.g. the
    # forward-mode ``custom_lin`` of a custom_vjp call whose output is unused does not raise.
    lin = ClosedJaxpr(dce_jaxpr(lin.jaxpr)[0], lin.consts)
    n_out = n_out_box["n"]
    primals_out = known_outs[:n_out]
    if any(out_unk[:n_out]):  # pragma: no cover (primal outputs never depend on tangents)
        raise RuntimeError("linearize: a primal output depends on the input tangents")
    return primals_out, lin, res, [aval_of(p).to_tangent_aval() for p in primals_out]


def _eval_lin(lin, res, tangents):
    with quiet_unless_user_code([lin.jaxpr]):
        return eval_jaxpr(lin.jaxpr, lin.consts, *res, *tangents)


def vjp_backward(lin, res, in_avals, cts):
    """Transpose ``lin`` (from ``linearize_flat``) at cotangents ``cts``. Evaluated now,
    the derivative code runs silent on IEEE exceptions (``quiet_unless_user_code``): an
    untaken branch of a batched ``cond`` computes ``0 * inf`` where its derivative is
    infinite, which JAX computes silently."""
    nres = len(res)
    primals_in = list(res) + [UndefinedPrimal(a.to_tangent_aval()) for a in in_avals]
    jaxpr = lin.jaxpr
    with quiet_unless_user_code([lin.jaxpr]):
        cts_in = backward_pass(jaxpr, lin.consts, primals_in, cts)
    return cts_in[nres:]


# ------------------------------------------------------------------------ linearize
def _flatten_fun(fun: Callable, primals, has_aux: bool, what: str):
    """Flatten ``primals`` and wrap ``fun`` as a flat function; ``store`` receives the output
    tree (``"tree"``) and, with ``has_aux``, the auxiliary output (``"aux"``)."""
    check_callable(fun)
    p_flat, p_tree = tree_util.tree_flatten(primals)
    p_flat = [asarray_any(p) for p in p_flat]

    raw = []

    def out_leaves(out_flat):
        for o in out_flat:
            try:
                check_output_leaf(o)
            except TypeError:
                # JAX's wording for a non-array output of a differentiated function
                raise TypeError(
                    f"Argument '{o}' of type {type(o)} is not a valid JAX type"
                ) from None
        raw[:] = out_flat
        return [asarray_any(o) for o in out_flat]

    flat_fun, store = flatten_fun(
        fun,
        p_tree,
        split_aux=(lambda out: split_aux(out, what)) if has_aux else None,
        out_leaves=out_leaves,
    )
    store["raw"] = raw
    return p_flat, p_tree, flat_fun, store


def _as_returned(p_out, store):
    """Primal outputs that ``fun`` returned as Python scalars come back as those scalars
    (constants of the input, as JAX's ``linearize`` and ``vjp`` return them)."""
    raw = store["raw"]
    return [r if _is_py_scalar(r) else o for o, r in zip(p_out, raw)]


def _is_py_scalar(r) -> bool:
    return type(r) in (bool, int, float, complex) or dtypes.python_scalar_base(type(r)) is not None


def linearize(fun: Callable, *primals, has_aux: bool = False):
    """``jax.linearize``: ``(primals_out, f_jvp)`` (plus ``aux`` with ``has_aux``)."""
    p_flat, p_tree, flat_fun, store = _flatten_fun(fun, primals, has_aux, "linearize")
    p_out, lin, res, out_avals = linearize_flat(flat_fun, p_flat)
    out_tree = store["tree"]
    in_avals = tuple(aval_of(p) for p in p_flat)
    f_jvp = _LinFun(res, (lin, in_avals, p_tree, out_tree))
    out = tree_util.tree_unflatten(out_tree, _as_returned(p_out, store))
    if has_aux:
        return out, f_jvp, store["aux"]
    return out, f_jvp


class _LinFun:
    """The linear function returned by ``jax.linearize``: a pytree whose leaves are the
    residuals (so it can be returned from or passed into ``jit``)."""

    def __init__(self, res, meta):
        self._res = list(res)
        self._meta = meta

    def __call__(self, *tangents):
        lin, in_avals, p_tree, out_tree = self._meta
        t_flat, t_tree = tree_util.tree_flatten(tangents)
        if t_tree != p_tree:
            raise TypeError(  # JAX's message
                f"expected {tree_util.treedef_repr(p_tree)}, got {tree_util.treedef_repr(t_tree)}"
            )
        ts = []
        for t, a in zip(t_flat, in_avals):
            ta, want = aval_of(t), a.to_tangent_aval()
            if ta.shape != want.shape or ta.dtype != want.dtype:
                # JAX's check (float0 for an integer primal; weak types aside)
                raise ValueError(
                    "linearized function called on tangent values inconsistent with the "
                    f"original primal values:\nGot tangent aval {_aval_str(ta)} for primal "
                    f"aval {_aval_str(a)} but expected {_aval_str(want)}."
                )
            ts.append(asarray_any(t))
        outs = _eval_lin(lin, self._res, ts)
        return tree_util.tree_unflatten(out_tree, outs)


def _aval_str(a) -> str:
    """An aval as JAX prints one in messages: ``~float32[]`` (weak), ``float0[3]``."""
    dt = "float0" if a.dtype == dtypes.float0 else a.dtype.name
    return f"{'~' if a.weak_type else ''}{dt}[{','.join(map(str, a.shape))}]"


tree_util.register_pytree_node(
    _LinFun, lambda f: (f._res, f._meta), lambda meta, res: _LinFun(res, meta)
)


# ------------------------------------------------------------------------------- vjp
class _VjpFun:
    """The pullback returned by ``jax.vjp``."""

    def __init__(self, lin, res, in_avals, in_tree, out_tree, out_avals):
        self._lin = lin
        self._res = list(res)
        self._in_avals = tuple(in_avals)
        self._in_tree = in_tree
        self._out_tree = out_tree
        self._out_avals = tuple(out_avals)

    def _meta(self):
        return (self._lin, self._in_avals, self._in_tree, self._out_tree, self._out_avals)

    def __call__(self, *cts):
        if len(cts) != 1:
            ct = cts
        else:
            (ct,) = cts
        ct_flat, ct_tree = tree_util.tree_flatten(ct)
        if ct_tree != self._out_tree:
            raise ValueError(
                "unexpected tree structure.\n\nThe argument to a VJP function returned by "
                "`jax.vjp` must match the pytree structure of the differentiated function's "
                f"output.\n\nBut the tree structures differ: got {ct_tree}, expected "
                f"{self._out_tree}."
            )
        flat = []
        for c, a in zip(ct_flat, self._out_avals):
            ca = aval_of(c)
            if ca.shape != a.shape or (a.dtype != dtypes.float0 and ca.dtype != a.dtype):
                raise ValueError(
                    "unexpected JAX type (e.g. shape/dtype) for argument to VJP function: "
                    f"got {_ty(ca)}, but expected {_ty(a)} because the corresponding output "
                    f"of the differentiated function had JAX type {_ty(a)}"
                )
            if a.dtype == dtypes.float0:
                flat.append(Zero(a))
            else:
                flat.append(asarray_any(c))
        cts_in = vjp_backward(self._lin, self._res, self._in_avals, flat)
        cts_in = [_instantiate_ct(c, a) for c, a in zip(cts_in, self._in_avals)]
        shardings = getattr(self, "_in_shardings", None)
        if shardings is not None:
            # On an Explicit mesh a cotangent has its primal's sharding, as in JAX.
            cts_in = [_explicit.like_primal(c, s) for c, s in zip(cts_in, shardings)]
        return tree_util.tree_unflatten(self._in_tree, cts_in)


def _ty(aval) -> str:
    return f"{aval.dtype.name}[{','.join(map(str, aval.shape))}]"


tree_util.register_pytree_node(
    _VjpFun, lambda f: (f._res, f._meta()), lambda meta, res: _VjpFun(meta[0], res, *meta[1:])
)


def _instantiate_ct(ct, primal_aval):
    ta = primal_aval.to_tangent_aval()
    if type(ct) is Zero or ct is None:
        return zeros(ta)
    if ta.dtype == dtypes.float0:
        return zeros(ta)
    # No cast to the primal's weak type: JAX's cotangent is weak exactly where its
    # computation is (the seed has the output's weak type, literals keep theirs), e.g. the
    # gradient of lax.div(x1, x0) w.r.t. a Python float x1 is strong when x0 is.
    return ct


def vjp(fun: Callable, *primals, has_aux: bool = False, reduce_axes=()):
    """``jax.vjp``: ``(primals_out, vjp_fun)`` (plus ``aux`` with ``has_aux``).

    ``reduce_axes`` is kept for JAX's signature: any non-empty value raises
    ``NotImplementedError`` as in JAX 0.10.2 (the option was removed).

    ``vjp_fun(ct)`` takes a cotangent with the structure of ``primals_out`` and returns a
    tuple with one cotangent per primal argument. The forward computation (including any
    effects it performs) runs now, once; calling ``vjp_fun`` only runs the linear part.
    """
    if reduce_axes:
        raise NotImplementedError("reduce_axes argument to vjp is deprecated")
    p_flat, p_tree, flat_fun, store = _flatten_fun(fun, primals, has_aux, "vjp")
    p_out, lin, res, out_avals = linearize_flat(flat_fun, p_flat)
    out_tree = store["tree"]
    in_avals = [aval_of(p) for p in p_flat]
    out_avals_full = [aval_of(p).to_tangent_aval() for p in p_out]
    pullback = _VjpFun(lin, res, in_avals, p_tree, out_tree, out_avals_full)
    shardings = [_explicit.sharding_of_value(p) for p in p_flat]
    if any(_explicit.is_explicit_sharding(s) for s in shardings):
        pullback._in_shardings = shardings
    out = tree_util.tree_unflatten(out_tree, _as_returned(p_out, store))
    if has_aux:
        return out, pullback, store["aux"]
    return out, pullback


def fwd_and_bwd(fun: Callable, argnums, has_aux: bool = False, jitted: bool = True):
    """``jax.fwd_and_bwd``: split ``vjp`` into a forward and a reusable backward function.

    ``fwd(*args)`` returns ``(fun(*args), residuals)`` (plus ``aux`` with ``has_aux``),
    differentiating the positional arguments ``argnums``; ``bwd(residuals, ct)`` returns
    their cotangents: one array for an int ``argnums``, a tuple for a sequence. The residuals
    are ``vjp``'s pullback, a pytree, so both functions can be jitted (``jitted=True``,
    the default), and ``bwd`` then compiles once for all iterations.

    Raises:
      TypeError: ``argnums`` is not an int or a sequence of ints, or names a missing
        positional argument.
    """
    check_callable(fun)

    def fwd(*args):
        nums = _check_argnums(argnums, len(args))

        def f_part(*dyn):
            full = list(args)
            for i, v in zip(nums, dyn):
                full[i] = v
            return fun(*full)

        return vjp(f_part, *[args[i] for i in nums], has_aux=has_aux)

    def bwd(residuals, cotangent):
        cts = residuals(cotangent)
        return cts[0] if isinstance(argnums, (int, np.integer)) else cts

    if jitted:
        return jit(fwd), jit(bwd)
    return fwd, bwd


# ------------------------------------------------------------------------------ grad
def _check_argnums(argnums, nargs):
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    for a in nums:
        if not isinstance(a, (int, np.integer)):
            raise TypeError(f"argnums must be an int or a tuple of ints, got {argnums}")
        if not -nargs <= a < nargs:
            raise TypeError(
                f"differentiating with respect to argnums={argnums} requires at least "
                f"{max(nums) + 1} positional arguments to be passed by the caller, but got "
                f"only {nargs} positional arguments."
            )
    if len({int(a) % nargs for a in nums}) != len(nums):
        # JAX fails with a TypeError from inside (the repeated argument's slot is None);
        # differentiating one argument twice would hand the function a stale copy of it
        raise TypeError(f"argnums must not repeat an argument, got argnums={argnums}")
    return nums


def _check_input_dtype(x, holomorphic, allow_int, who):
    dt = aval_of(x).dtype
    if holomorphic:
        if not dtypes.is_complex(dt):
            raise TypeError(
                f"{who} with holomorphic=True requires inputs with complex dtype, "
                f"but got {dt.name}."
            )
    if dtypes.is_inexact(dt) or dt == dtypes.float0:
        return
    if allow_int:
        return
    raise TypeError(
        f"{who} requires real- or complex-valued inputs (input dtype that is a sub-dtype of "
        f"np.inexact), but got {dt.name}. If you want to use Boolean- or integer-valued "
        "inputs, use vjp or set allow_int to True."
    )


def _check_scalar_output(y, holomorphic, who):
    if y is None or isinstance(y, (tuple, list, dict)):
        # A container (or None) is never a scalar, even when it holds a single scalar.
        raise TypeError(f"Gradient only defined for scalar-output functions. Output was {y}.")
    a = aval_of(y)
    if a.shape != ():
        raise TypeError(
            f"Gradient only defined for scalar-output functions. Output had shape: {a.shape}."
        )
    _check_output_dtype(a, holomorphic, who)


def _check_output_dtype(a, holomorphic, who):
    # Reverse mode needs float outputs (complex ones with holomorphic=True): JAX's check,
    # shared by grad and jacrev (an int or bool output of jacrev is JAX's TypeError, not a
    # zero Jacobian).
    if holomorphic:
        if not dtypes.is_complex(a.dtype):
            raise TypeError(
                f"{who} with holomorphic=True requires outputs with complex dtype, "
                f"but got {a.dtype.name}."
            )
    elif not dtypes.is_float(a.dtype):
        if dtypes.is_complex(a.dtype):
            raise TypeError(
                f"{who} requires real-valued outputs (output dtype that is a sub-dtype of "
                f"np.floating), but got {a.dtype.name}. For holomorphic differentiation, pass "
                "holomorphic=True. For differentiation of non-holomorphic functions involving "
                "complex outputs, use jax.vjp directly."
            )
        raise TypeError(
            f"{who} requires real-valued outputs (output dtype that is a sub-dtype of "
            f"np.floating), but got {a.dtype.name}. For differentiation of functions with "
            "integer outputs, use jax.vjp directly."
        )


def value_and_grad(
    fun: Callable,
    argnums=0,
    has_aux: bool = False,
    holomorphic: bool = False,
    allow_int: bool = False,
    reduce_axes=(),
):
    """``jax.value_and_grad``: ``(value, grad)`` (``((value, aux), grad)`` with has_aux).

    Raises:
        TypeError: for a non-scalar or non-real output, integer/boolean inputs (unless
            ``allow_int``), or ``has_aux`` with a function not returning a pair.
    """
    check_callable(fun)
    who = "value_and_grad"

    @_util.wraps(fun)
    def vg(*args, **kwargs):
        return _value_and_grad(fun, argnums, has_aux, holomorphic, allow_int, who, args, kwargs)

    return vg


def _value_and_grad(fun, argnums, has_aux, holomorphic, allow_int, who, args, kwargs):
    nums = _check_argnums(argnums, len(args))
    nums = tuple(a % len(args) for a in nums)
    diff_args = tuple(args[i] for i in nums)
    for leaf in tree_util.tree_leaves(diff_args):
        _check_input_dtype(leaf, holomorphic, allow_int, "grad" if who == "grad" else who)

    def f_partial(*dargs):
        full = list(args)
        for i, d in zip(nums, dargs):
            full[i] = d
        return fun(*full, **kwargs)

    if has_aux:
        ans, pullback, aux = vjp(f_partial, *diff_args, has_aux=True)
    else:
        ans, pullback = vjp(f_partial, *diff_args)
    _check_scalar_output(ans, holomorphic, "grad" if who == "grad" else who)
    # The seed cotangent has the output's weak type (as JAX's): with the transpose rules, the
    # gradient w.r.t. a Python float then comes out weak exactly where JAX's does.
    a = aval_of(ans)
    g = pullback(_full((), 1, a.dtype, a.weak_type))
    g = g[0] if isinstance(argnums, int) else tuple(g)
    if has_aux:
        return (ans, aux), g
    return ans, g


def grad(
    fun: Callable,
    argnums=0,
    has_aux: bool = False,
    holomorphic: bool = False,
    allow_int: bool = False,
    reduce_axes=(),
):
    """``jax.grad``: the gradient of a scalar-output function w.r.t. ``argnums``."""
    check_callable(fun)

    @_util.wraps(fun)
    def g(*args, **kwargs):
        (ans_aux, grads) = _value_and_grad(
            fun, argnums, has_aux, holomorphic, allow_int, "grad", args, kwargs
        )
        if has_aux:
            return grads, ans_aux[1]
        return grads

    return g


# --------------------------------------------------------------------------- jacobians
def zeros_of(shape, dtype, weak_type=False):
    return _full(tuple(shape), 0, dtype, weak_type)


def _std_basis(flat_avals):
    """Rows of an identity over the concatenated flattened inputs, one array per input."""
    sizes = [a.size for a in flat_avals]
    total = int(sum(sizes))
    eye = np.eye(total)
    outs, start = [], 0
    for a, s in zip(flat_avals, sizes):
        block = eye[:, start : start + s].reshape((total,) + a.shape)
        outs.append(block.astype(a.dtype))
        start += s
    return total, outs


def jacfwd(fun: Callable, argnums=0, has_aux: bool = False, holomorphic: bool = False):
    """``jax.jacfwd``: Jacobian by forward mode (vmap of jvp over a standard basis)."""
    check_callable(fun)

    @_util.wraps(fun)
    def jac(*args, **kwargs):
        nums = _check_argnums(argnums, len(args))
        nums = tuple(a % len(args) for a in nums)
        diff_args = tuple(args[i] for i in nums)
        flat, tree = tree_util.tree_flatten(diff_args)
        flat = [asarray_any(x) for x in flat]
        for x in flat:
            dt = aval_of(x).dtype
            if holomorphic and not dtypes.is_complex(dt):
                raise TypeError(
                    "jacfwd with holomorphic=True requires inputs with complex "
                    f"dtype, but got {dt.name}."
                )
            if not holomorphic and not dtypes.is_float(dt):
                raise TypeError(
                    "jacfwd requires real-valued inputs (input dtype that is a sub-dtype of "
                    f"np.floating), but got {dt.name}. For holomorphic differentiation, pass "
                    "holomorphic=True. For differentiation of non-holomorphic functions "
                    "involving complex inputs or integer inputs, use jax.jvp directly."
                )
        avals = [aval_of(x) for x in flat]
        total, basis = _std_basis(avals)

        def f_partial(*dargs):
            full = list(args)
            for i, d in zip(nums, dargs):
                full[i] = d
            return fun(*full, **kwargs)

        def push(*ts):
            tangents = tree_util.tree_unflatten(tree, list(ts))
            res = _api_jvp(f_partial, diff_args, tangents, has_aux=has_aux)
            return (res[0], res[1], res[2]) if has_aux else (res[0], res[1])

        # Basis tangents have their primal's weak type (a Python float input gives a weak
        # Jacobian, as in JAX).
        basis_arrays = [
            _convert(asarray_any(b), a.dtype, a.weak_type) for b, a in zip(basis, avals)
        ]
        if has_aux:
            primal, pushed, aux = vmap(push, out_axes=(None, 0, None))(*basis_arrays)
        else:
            primal, pushed = vmap(push, out_axes=(None, 0))(*basis_arrays)

        def reshape_leaf(y, p):
            # y: (total, *out_shape) -> per input: (*out_shape, *in_shape)
            out_shape = tuple(y.shape[1:])
            if y.dtype == dtypes.float0:
                # An integer (or bool) output: JAX's Jacobian is zeros of the output's dtype.
                pa = aval_of(p)
                parts = [zeros_of(out_shape + a.shape, pa.dtype, pa.weak_type) for a in avals]
                parts = tree_util.tree_unflatten(tree, parts)
                return parts[0] if isinstance(argnums, int) else tuple(parts)
            y = moveaxis(y, 0, -1)
            parts, start = [], 0
            pa = aval_of(p)
            for a in avals:
                part = y[..., start : start + a.size]
                # Cast to the output's dtype and weak type, as JAX's jacfwd does.
                parts.append(_like(reshape(part, out_shape + a.shape), pa))
                start += a.size
            parts = tree_util.tree_unflatten(tree, parts)
            return parts[0] if isinstance(argnums, int) else tuple(parts)

        out = tree_util.tree_map(reshape_leaf, pushed, primal)
        if has_aux:
            return out, aux
        return out

    return jac


def _like(x, example):
    """``x`` cast to ``example``'s dtype and weak type (a no-op where they agree)."""
    a = aval_of(x)
    if (a.dtype, a.weak_type) == (example.dtype, example.weak_type):
        return x
    if dtypes.is_complex(a.dtype) and not dtypes.is_complex(example.dtype):
        return x  # JAX would take the real part; keep the complex block
    return _convert(x, example.dtype, example.weak_type)


def jacrev(
    fun: Callable,
    argnums=0,
    has_aux: bool = False,
    holomorphic: bool = False,
    allow_int: bool = False,
):
    """``jax.jacrev``: Jacobian by reverse mode (vmap of the pullback over a basis)."""
    check_callable(fun)

    @_util.wraps(fun)
    def jac(*args, **kwargs):
        nums = _check_argnums(argnums, len(args))
        nums = tuple(a % len(args) for a in nums)
        diff_args = tuple(args[i] for i in nums)
        for leaf in tree_util.tree_leaves(diff_args):
            _check_input_dtype(leaf, holomorphic, allow_int, "jacrev")

        def f_partial(*dargs):
            full = list(args)
            for i, d in zip(nums, dargs):
                full[i] = d
            return fun(*full, **kwargs)

        if has_aux:
            y, pullback, aux = vjp(f_partial, *diff_args, has_aux=True)
        else:
            y, pullback = vjp(f_partial, *diff_args)
        y_flat, y_tree = tree_util.tree_flatten(y)
        y_avals = [aval_of(v) for v in y_flat]
        for a in y_avals:
            _check_output_dtype(a, holomorphic, "jacrev")
        total, basis = _std_basis(y_avals)
        in_flat, in_tree = tree_util.tree_flatten(diff_args)
        in_avals = [aval_of(x) for x in in_flat]

        inexact = [dtypes.is_inexact(a.dtype) for a in in_avals]

        def pull(*cts):
            res = pullback(tree_util.tree_unflatten(y_tree, list(cts)))
            return [c for c, ok in zip(tree_util.tree_leaves(res), inexact) if ok]

        basis = [_convert(asarray_any(b), a.dtype, a.weak_type) for b, a in zip(basis, y_avals)]
        cts_ok = iter(vmap(pull)(*basis))  # (total, *in_shape)

        # Integer inputs (allow_int): zero Jacobian blocks in the input's dtype, as JAX.
        cts_in = [
            next(cts_ok) if ok else jnp_zeros((total,) + a.shape, a.dtype)
            for ok, a in zip(inexact, in_avals)
        ]

        # For each output leaf and input leaf: (*out_shape, *in_shape).
        per_out = []
        start = 0
        for ya in y_avals:
            parts = []
            for c, xa in zip(cts_in, in_avals):
                blk = c[start : start + ya.size]
                # Cast to the input's dtype and weak type, as JAX's jacrev does.
                parts.append(_like(reshape(blk, ya.shape + xa.shape), xa))
            parts = tree_util.tree_unflatten(in_tree, parts)
            per_out.append(parts[0] if isinstance(argnums, int) else tuple(parts))
            start += ya.size
        out = tree_util.tree_unflatten(y_tree, per_out)
        if has_aux:
            return out, aux
        return out

    return jac


jacobian = jacrev  # ``jax.jacobian`` is an alias of ``jax.jacrev``


def hessian(fun: Callable, argnums=0, has_aux: bool = False, holomorphic: bool = False):
    """``jax.hessian``: ``jacfwd(jacrev(fun))``."""
    check_callable(fun)
    return jacfwd(
        jacrev(fun, argnums, has_aux=has_aux, holomorphic=holomorphic),
        argnums,
        has_aux=has_aux,
        holomorphic=holomorphic,
    )


# --------------------------------------------------------------------- linear_transpose
def linear_transpose(fun: Callable, *primals, reduce_axes=()):
    """``jax.linear_transpose``: the transpose of a linear function at the given avals."""
    flat, in_tree = tree_util.tree_flatten(primals)
    _, call_tree = tree_util.tree_flatten((primals, {}))
    # As in JAX, the primals may be ShapeDtypeStructs (lineax transposes its function
    # operators at ``in_structure()``): only their shapes and dtypes are used.
    in_avals = [abstract_arg_aval(x) for x in flat]
    for a in in_avals:
        if not dtypes.is_inexact(a.dtype):
            raise TypeError(
                "linear_transpose only supports [float or complex] -> "
                f"[float or complex], and integer -> integer functions, but got "
                f"{a.dtype.name}."
            )
    closed, out_tree = trace_flat(fun, call_tree, in_avals)
    out_avals = closed.out_avals
    # As JAX, the parts that do not depend on the inputs are evaluated now (partial
    # evaluation with every input unknown) and only the rest is transposed: a jvp of a
    # scan or loop carries its primal values next to the tangents, and that primal half
    # is no linear function of the inputs.
    _, _, lin, res = trace_partial(
        lambda *xs: eval_jaxpr(closed.jaxpr, closed.consts, *xs),
        in_avals,
        [True] * len(in_avals),
        True,
    )

    def transposed(*cts):
        ct = cts[0] if len(cts) == 1 else cts
        ct_flat, ct_tree = tree_util.tree_flatten(ct)
        if ct_tree != out_tree:
            raise TypeError(
                "cotangent tree does not match function output, "
                f"expected {out_tree} but got {ct_tree}"
            )
        for c, a in zip(ct_flat, out_avals):
            ca = aval_of(c)
            if ca.shape != a.shape:
                raise TypeError(
                    "cotangent type does not match function output, "
                    f"expected {a.str_short(short_dtypes=True)} but got "
                    f"{ca.str_short(short_dtypes=True)}"
                )
        primals_in = list(res) + [UndefinedPrimal(a) for a in in_avals]
        cts = [asarray_any(c) for c in ct_flat]
        with quiet_unless_user_code([lin.jaxpr]):
            cts_in = backward_pass(lin.jaxpr, lin.consts, primals_in, cts)
        cts_in = cts_in[len(res) :]
        cts_in = [_instantiate_ct(c, a) for c, a in zip(cts_in, in_avals)]
        return tree_util.tree_unflatten(in_tree, cts_in)

    return transposed


# ------------------------------------------------------------------------ closure_convert
def closure_convert(fun: Callable, *example_args):
    """``jax.closure_convert``: ``(converted, consts)`` with ``converted(*args, *consts)``
    equal to ``fun(*args)``, hoisting closed-over floating-point arrays (and tracers) out of
    ``fun`` so custom-derivative rules can see them as explicit arguments."""

    flat, in_tree = tree_util.tree_flatten(example_args)
    _, call_tree = tree_util.tree_flatten((example_args, {}))
    avals = [abstractify(x) for x in flat]
    closed, out_tree = trace_flat(fun, call_tree, avals)
    hoist = [isinstance(c, Tracer) or dtypes.is_inexact(aval_of(c).dtype) for c in closed.consts]
    consts = [c for c, h in zip(closed.consts, hoist) if h]
    n_args = len(flat)

    def converted(*args_and_consts):
        args, cs = (
            args_and_consts[: len(args_and_consts) - len(consts)],
            args_and_consts[len(args_and_consts) - len(consts) :],
        )
        a_flat, a_tree = tree_util.tree_flatten(args)
        if a_tree != in_tree or len(a_flat) != n_args:
            raise TypeError(
                "closure_convert: converted function called with arguments of a "
                "different structure than the example arguments."
            )
        it = iter(cs)
        all_consts = [next(it) if h else c for c, h in zip(closed.consts, hoist)]
        outs = eval_jaxpr(closed.jaxpr, all_consts, *a_flat)
        return tree_util.tree_unflatten(out_tree, outs)

    return converted, consts


__all__ = [
    "linearize",
    "vjp",
    "grad",
    "value_and_grad",
    "jacfwd",
    "jacrev",
    "jacobian",
    "hessian",
    "linear_transpose",
    "closure_convert",
    "linearize_flat",
    "vjp_backward",
]
