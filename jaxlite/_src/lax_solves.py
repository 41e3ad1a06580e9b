"""``lax.custom_linear_solve`` (``linear_solve_p``) and ``lax.custom_root``: solves whose
derivatives come from the implicit function theorem instead of from differentiating the
solver (which may be an iterative ``while_loop``, not differentiable in reverse mode).

``linear_solve_p`` operands are ``(*matvec_consts, *vecmat_consts, *solve_consts,
*transpose_solve_consts, *b)``; params ``const_lengths`` and ``jaxprs`` (``_SolveJaxprs``:
closed jaxprs taking ``(*consts, *vector)``, ``vecmat``/``transpose_solve`` None when no
``transpose_solve`` was given). Its value is ``solve(b)``. Rules (all here): impl and lower
(the solve jaxpr), abstract eval, effects, jvp (``x' = solve(b' - A' x)``: the primitive
again, so higher orders work), transpose (the transposed primitive: ``vecmat`` for
``matvec``, ``transpose_solve`` for ``solve``), batch (every jaxpr batched, vectors batched
at axis 0).

``custom_root`` is a ``custom_jvp`` over the solve jaxpr whose JVP solves the linearized
system with ``tangent_solve``, as in JAX.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from jaxlite._src import tree_util
from jaxlite._src.ad import linear_transpose, linearize
from jaxlite._src.control_flow import common
from jaxlite._src.core import rules
from jaxlite._src.core.array import to_array
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero, is_undefined_primal
from jaxlite._src.custom_derivatives import custom_jvp
from jaxlite._src.interpreters.batching import batch_jaxpr, move_dim
from jaxlite._src.interpreters.jvp import jvp_jaxpr
from jaxlite._src.ops.elementwise import neg, sub
from jaxlite._src.ops.structural import instantiate
from jaxlite._src.util import split_list


class _SolveJaxprs(NamedTuple):
    matvec: Any
    vecmat: Any
    solve: Any
    transpose_solve: Any

    def transpose(self):
        return type(self)(self.vecmat, self.matvec, self.transpose_solve, self.solve)


def _split_groups(args, lengths) -> tuple[list, list]:
    """``args`` cut into one group per length, and the rest (the vectors)."""
    parts = split_list(list(args), list(lengths))
    return parts[:-1], parts[-1]


def _split(args, const_lengths: _SolveJaxprs):
    groups, rest = _split_groups(args, const_lengths)
    return _SolveJaxprs(*groups), rest


def _flat(groups) -> list:
    return [x for g in groups for x in g]


# ------------------------------------------------------------------------------ tracing
def _check_shapes(func_name: str, expected_name: str, actual, expected) -> None:
    actual_shapes = [np.shape(a) for a in actual]
    expected_shapes = [np.shape(e) for e in expected]
    if actual_shapes != expected_shapes:
        raise ValueError(
            f"{func_name}() output shapes must match {expected_name}, "
            f"got {actual_shapes} and {expected_shapes}"
        )


def _check_tree(func_name: str, expected_name: str, actual_tree, expected_tree, has_aux: bool):
    if has_aux:
        children = tree_util.treedef_children(actual_tree)
        if len(children) != 2:
            raise ValueError(
                f"{func_name}() produced a pytree with structure {actual_tree}, but a pytree "
                "tuple with auxiliary output was expected because has_aux was set to True."
            )
        actual_tree = children[0]
    if actual_tree != expected_tree:
        raise TypeError(
            f"{func_name}() output pytree structure must match {expected_name}, "
            f"got {actual_tree} and {expected_tree}."
        )


def _trace(fun: Callable, in_tree, avals, n_args: int = 1):
    """Trace ``fun`` on ``n_args`` pytrees of structure ``in_tree`` (flat avals, one group
    per argument). Returns ``(closed, consts, out_tree)``; ``closed`` takes
    ``(*consts, *leaves)``."""
    store: dict = {}
    n = len(avals) // n_args

    def flat(*xs):
        args = [tree_util.tree_unflatten(in_tree, xs[i * n : (i + 1) * n]) for i in range(n_args)]
        leaves, tree = tree_util.tree_flatten(fun(*args))
        store["tree"] = tree
        return [to_array(o) for o in leaves]

    closed, consts = common.trace_closure_converted(flat, avals)
    return closed, consts, store["tree"]


def _shape_checked(fun: Callable, name: str, b_flat, has_aux: bool) -> Callable:
    def checked(x):
        out = fun(x)
        y = out
        if has_aux:
            y, _ = out  # unpacked as JAX does (its error if not a pair)
        _check_shapes(name, "b", tree_util.tree_leaves(y), b_flat)
        return out

    return checked


def _transpose_one_output(linear_fun: Callable, primal) -> Callable:
    transposed = linear_transpose(linear_fun, primal)
    return lambda ct: transposed(ct)[0]


# --------------------------------------------------------------------------- front ends
def custom_linear_solve(
    matvec: Callable,
    b: Any,
    solve: Callable[[Callable, Any], Any],
    transpose_solve: Callable[[Callable, Any], Any] | None = None,
    symmetric: bool = False,
    has_aux: bool = False,
):
    """``jax.lax.custom_linear_solve``: ``solve(matvec, b)``, differentiated implicitly.

    The derivative assumes ``matvec(x) == b`` at the solution ``x`` (not checked): forward
    mode solves ``matvec(x') = b' - matvec'(x)`` with ``solve``, reverse mode solves the
    transposed system with ``transpose_solve`` on ``vecmat`` (the transpose of ``matvec``,
    computed by ``linear_transpose``). ``solve`` itself is never differentiated, so it may
    be an iterative ``while_loop``.

    Args:
        matvec: the linear map ``A``, a function of one pytree like ``b``.
        b: the right-hand side, a pytree of arrays.
        solve: ``solve(matvec, b) -> x`` with ``matvec(x) == b``.
        transpose_solve: ``transpose_solve(vecmat, b) -> x`` with ``vecmat(x) == b``;
            needed for reverse mode unless ``symmetric`` (then ``solve`` is used).
        symmetric: whether ``A`` equals its transpose.
        has_aux: ``solve`` and ``transpose_solve`` return ``(x, aux)``.

    Returns:
        ``solve(matvec, b)``: ``x`` with the structure, shapes and dtypes of ``b`` (plus
        ``aux`` if ``has_aux``).

    Raises:
        ValueError: ``matvec``/``solve``/``transpose_solve`` output shapes differ from
            ``b``'s; ``has_aux`` without a pair returned.
        TypeError: output structures differ from ``b``'s; reverse mode without
            ``transpose_solve`` (and not ``symmetric``).
    """
    if transpose_solve is None and symmetric:
        transpose_solve = solve
    b_flat, tree = tree_util.tree_flatten(b)
    b_flat = [to_array(x) for x in b_flat]
    avals = [aval_of(x) for x in b_flat]

    mv_j, mv_c, out_tree = _trace(_shape_checked(matvec, "matvec", b_flat, False), tree, avals)
    _check_tree("matvec", "b", out_tree, tree, False)
    solve_fn = _shape_checked(lambda x: solve(matvec, x), "solve", b_flat, has_aux)
    s_j, s_c, solution_tree = _trace(solve_fn, tree, avals)
    _check_tree("solve", "b", solution_tree, tree, has_aux)
    if transpose_solve is None:
        vm_j = ts_j = None
        vm_c = ts_c = []
    else:
        if symmetric:
            vecmat, vm_j, vm_c = matvec, mv_j, mv_c
        else:
            vecmat = _transpose_one_output(matvec, b)
            vm_j, vm_c, _ = _trace(vecmat, tree, avals)
        ts_fn = _shape_checked(
            lambda x: transpose_solve(vecmat, x), "transpose_solve", b_flat, has_aux
        )
        ts_j, ts_c, ts_tree = _trace(ts_fn, tree, avals)
        _check_tree("transpose_solve", "b", ts_tree, tree, has_aux)
    consts = [mv_c, vm_c, s_c, ts_c]
    common.check_effects("custom_linear_solve", s_j.effects)
    outs = linear_solve_p.bind(
        *_flat(consts),
        *b_flat,
        const_lengths=_SolveJaxprs(*map(len, consts)),
        jaxprs=_SolveJaxprs(mv_j, vm_j, s_j, ts_j),
    )
    return tree_util.tree_unflatten(solution_tree, outs)


def custom_root(
    f: Callable,
    initial_guess: Any,
    solve: Callable[[Callable, Any], Any],
    tangent_solve: Callable[[Callable, Any], Any],
    has_aux: bool = False,
):
    """``jax.lax.custom_root``: ``solve(f, initial_guess)``, a root of ``f``, differentiated
    by the implicit function theorem with respect to what ``f`` closes over.

    With ``f(x*(θ), θ) = 0``, the tangent is ``x*' = -g⁻¹(∂f/∂θ · θ')`` where ``g`` is ``f``
    linearized in ``x`` at the root; ``tangent_solve(g, y)`` must return ``z`` with
    ``g(z) == y`` (e.g. ``lambda g, y: y / g(1.0)`` for a scalar). ``solve`` itself is never
    differentiated. Reverse mode transposes ``tangent_solve``, so it must be linear and
    transposable (wrap an iterative one in ``custom_linear_solve``).

    Args:
        f: a function of one pytree, returning a pytree of the same structure.
        initial_guess: the starting point, a pytree of arrays.
        solve: ``solve(f, initial_guess) -> x`` with ``f(x) == 0`` (or ``(x, aux)``).
        tangent_solve: ``tangent_solve(g, y) -> z`` with ``g(z) == y``.
        has_aux: ``solve`` returns ``(x, aux)``; ``aux`` gets zero tangents.

    Returns:
        ``solve(f, initial_guess)``, shaped like ``initial_guess`` (plus ``aux``).

    Raises:
        TypeError: ``f``, ``solve`` or ``tangent_solve`` return a structure other than
            ``initial_guess``'s.
        ValueError: ``has_aux`` without a pair returned by ``solve``.
    """
    guess_flat, tree = tree_util.tree_flatten(initial_guess)
    guess_flat = [to_array(x) for x in guess_flat]
    avals = [aval_of(x) for x in guess_flat]
    f_j, f_c, f_tree = _trace(f, tree, avals)
    _check_tree("f", "initial_guess", f_tree, tree, False)
    s_j, s_c, solution_tree = _trace(lambda x: solve(f, x), tree, avals)
    _check_tree("solve", "initial_guess", solution_tree, tree, has_aux)

    def linearize_and_solve(x, rhs):
        _, f_jvp = linearize(f, x)
        return tangent_solve(f_jvp, rhs)

    ls_j, ls_c, ls_tree = _trace(linearize_and_solve, tree, avals + avals, n_args=2)
    _check_tree("tangent_solve", "x", ls_tree, tree, False)
    consts = [f_c, s_c, ls_c]
    lengths = tuple(map(len, consts))
    outs = _custom_root(lengths, (f_j, s_j, ls_j), *_flat(consts), *guess_flat)
    return tree_util.tree_unflatten(solution_tree, outs)


def _root_impl(lengths, jaxprs, *args):
    (_, s_c, _), guess = _split_groups(args, lengths)
    return common.eval_closed(jaxprs[1], *s_c, *guess)


_custom_root = custom_jvp(_root_impl, nondiff_argnums=(0, 1))


@_custom_root.defjvp
def _root_jvp(lengths, jaxprs, primals, tangents):
    f_j, _, ls_j = jaxprs
    (f_c, _, ls_c), _ = _split_groups(primals, lengths)
    (f_t, _, _), _ = _split_groups(tangents, lengths)
    out = _custom_root(lengths, jaxprs, *primals)
    n = len(f_j.out_avals)
    solution, aux = out[:n], out[n:]
    # ∂f/∂θ · θ' at the root: the JVP of f in its closed-over values, x held fixed.
    nonzero = [common.differentiable(aval_of(c)) for c in f_c]
    f_jvp, _ = jvp_jaxpr(f_j, nonzero + [False] * n, True)
    nz_t = [t for t, nz in zip(f_t, nonzero) if nz]
    rhs = common.eval_closed(f_jvp, *f_c, *solution, *nz_t)[n:]
    dx = common.eval_closed(ls_j, *ls_c, *solution, *rhs)
    return out, [neg(t) for t in dx] + [
        instantiate(Zero(aval_of(a).to_tangent_aval())) for a in aux
    ]


# ------------------------------------------------------------------------- linear_solve_p
linear_solve_p = Primitive("custom_linear_solve", multiple_results=True)

_NO_TRANSPOSE_SOLVE = (
    "transpose_solve required for backwards mode automatic differentiation of custom_linear_solve"
)


def _ls_abstract_eval(*avals, const_lengths, jaxprs):
    return list(jaxprs.solve.out_avals)


def _ls_effects(*avals, const_lengths, jaxprs):
    return jaxprs.solve.effects


def _ls_impl(*args, const_lengths, jaxprs):
    params, b = _split(args, const_lengths)
    return common.eval_numpy(jaxprs.solve, list(params.solve) + list(b))


def _ls_lower(ctx, eqn, ins, outs):
    params, b = _split(ins, eqn.params["const_lengths"])
    body, res = common.emit_inline(ctx, eqn.params["jaxprs"].solve, list(params.solve) + list(b))
    return body + common.assign(outs, res)


def _ls_jvp(primals, tangents, *, const_lengths, jaxprs):
    x = linear_solve_p.bind(*primals, const_lengths=const_lengths, jaxprs=jaxprs)
    params, b = _split(primals, const_lengths)
    params_t, b_t = _split(tangents, const_lengths)
    nb = len(b)
    mv_nz = [common.nonzero_tangent(t) for t in params_t.matvec]
    rhs = list(b_t)
    if any(mv_nz):
        # A' x: the JVP of matvec in its closed-over values, x held fixed.
        mv_jvp, _ = jvp_jaxpr(jaxprs.matvec, mv_nz + [False] * nb, True)
        nz_t = [t for t, nz in zip(params_t.matvec, mv_nz) if nz]
        a_t = common.eval_closed(mv_jvp, *params.matvec, *x[:nb], *nz_t)[nb:]
        rhs = [neg(a) if type(r) is Zero else sub(r, a) for r, a in zip(rhs, a_t)]
    outs_t = [Zero(a.to_tangent_aval()) for a in jaxprs.solve.out_avals]
    if all(type(r) is Zero for r in rhs):
        return x, outs_t
    rhs = [instantiate(r) for r in rhs]
    x_t = linear_solve_p.bind(*_flat(params), *rhs, const_lengths=const_lengths, jaxprs=jaxprs)
    return x, list(x_t[:nb]) + outs_t[nb:]  # aux gets zero tangents


def _ls_transpose(cts, *args, const_lengths, jaxprs):
    if jaxprs.transpose_solve is None:
        raise TypeError(_NO_TRANSPOSE_SOLVE)
    params, b = _split(args, const_lengths)
    if any(is_undefined_primal(x) for x in _flat(params)):
        raise NotImplementedError(
            "custom_linear_solve: reverse mode with respect to values matvec closes over "
            "through the linear part of the computation is not supported (as in JAX)."
        )
    nb, nc = len(b), sum(const_lengths)
    cts_x = cts[:nb]
    if all(type(c) is Zero for c in cts_x):
        return [None] * nc + [
            Zero(x.aval.to_tangent_aval()) if is_undefined_primal(x) else None for x in b
        ]
    cts_b = linear_solve_p.bind(
        *_flat(params.transpose()),
        *[instantiate(c) for c in cts_x],
        const_lengths=const_lengths.transpose(),
        jaxprs=jaxprs.transpose(),
    )
    return [None] * nc + [c if is_undefined_primal(x) else None for c, x in zip(cts_b[:nb], b)]


def _ls_batch(axis_data, args, dims, *, const_lengths, jaxprs):
    params, b = _split(args, const_lengths)
    p_dims, b_dims = _split(dims, const_lengths)
    vec = [0] * len(b)

    def batched(j, ds):
        return None if j is None else batch_jaxpr(j, axis_data, list(ds) + vec, True)[0]

    new = _SolveJaxprs(*(batched(j, ds) for j, ds in zip(jaxprs, p_dims)))
    b = [move_dim(x, d, 0, axis_data.size) for x, d in zip(b, b_dims)]
    outs = linear_solve_p.bind(*_flat(params), *b, const_lengths=const_lengths, jaxprs=new)
    return outs, [0] * len(outs)


rules.impl_rules[linear_solve_p] = _ls_impl
rules.abstract_eval_rules[linear_solve_p] = _ls_abstract_eval
rules.vma_rules[linear_solve_p] = rules.keep_vma
rules.effects_rules[linear_solve_p] = _ls_effects
rules.jvp_rules[linear_solve_p] = _ls_jvp
rules.transpose_rules[linear_solve_p] = _ls_transpose
rules.batch_rules[linear_solve_p] = _ls_batch
rules.lower_rules[linear_solve_p] = _ls_lower

__all__ = ["custom_linear_solve", "custom_root", "linear_solve_p"]
