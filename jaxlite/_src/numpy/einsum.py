"""``jnp.einsum`` (with contraction-path optimisation), ``tensordot`` and ``kron``.

einsum: subscripts are parsed (explicit ``->``, implicit output, ``...``), the pairwise
contraction order comes from ``numpy.einsum_path`` on zero-cost broadcast views of the
operand shapes, and each pairwise step is one ``dot_general`` (indices needed later become
batch dimensions, the others are contracted). Indices used by a single operand only are
summed out first; repeated indices within an operand take a diagonal.
"""

from __future__ import annotations

import string

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.core.trace import new_array
from jaxlite._src.numpy.indexing_routines import diagonal
from jaxlite._src.numpy.shape import broadcast_to, reshape
from jaxlite._src.numpy.ufuncs import multiply
from jaxlite._src.numpy.util import (
    asarray_any,
    canonicalize_axis,
    check_arraylike,
    check_out,
    promote_dtypes,
    promote_dtypes_for_contraction,
    with_weak_type,
)
from jaxlite._src.ops import lax_api, linalg as _linalg, reductions as _red, shape as _sh
from jaxlite._src.ops.precision import check_precision
from jaxlite._src.sharding import explicit as _explicit


def _parse(subscripts: str, shapes):
    subscripts = subscripts.replace(" ", "")
    if "->" in subscripts:
        lhs, out = subscripts.split("->")
        explicit = True
    else:
        lhs, out, explicit = subscripts, None, False
    ins = lhs.split(",")
    if len(ins) != len(shapes):
        raise ValueError(
            f"Number of einsum subscripts, {len(ins)}, must be equal to the number of "
            f"operands, {len(shapes)}."
        )
    used = set(c for c in subscripts if c.isalpha())
    free_letters = [c for c in string.ascii_letters if c not in used]
    max_ell = 0
    for s, shp in zip(ins, shapes):
        if "..." in s:
            max_ell = max(max_ell, len(shp) - (len(s) - 3))
    ell = "".join(free_letters[:max_ell])
    new_ins = []
    for s, shp in zip(ins, shapes):
        if "..." in s:
            k = len(shp) - (len(s) - 3)
            s = s.replace("...", ell[max_ell - k :] if k else "")
        if len(s) != len(shp):
            raise ValueError(f"einsum: subscript {s!r} does not match operand of rank {len(shp)}")
        new_ins.append(s)
    if explicit:
        out = out.replace("...", ell)
    else:
        counts = {}
        for s in new_ins:
            for c in s:
                counts[c] = counts.get(c, 0) + 1
        out = ell + "".join(sorted(c for c, n in counts.items() if n == 1 and c not in ell))
    for c in out:
        if not any(c in s for s in new_ins):
            raise ValueError(f"einsum: output subscript {c!r} does not appear in the inputs")
    return new_ins, out


def _interleaved(first, rest):
    """The interleaved form ``einsum(op0, sublist0, op1, sublist1, ..., [sublist_out])`` as
    ``(subscripts, operands)``. As JAX (through opt_einsum), the labels may be any hashable,
    mutually comparable objects: sorted, the k-th is the k-th letter; ``Ellipsis`` is
    ``...``."""
    args = (first, *rest)
    out = None
    if len(args) % 2:  # an odd count ends with the output sublist
        args, out = args[:-1], args[-1]
    operands, sublists = list(args[0::2]), list(args[1::2])
    message = (
        "For this input type lists must contain either Ellipsis or hashable and comparable "
        "object (e.g. int, str)."
    )
    try:
        every = [*sublists, *([] if out is None else [out])]
        labels = sorted({x for sub in every for x in sub if x is not Ellipsis})
    except TypeError as e:
        raise TypeError(message) from e
    if len(labels) > len(string.ascii_letters):
        raise ValueError(f"einsum: at most {len(string.ascii_letters)} distinct labels")
    letter = {x: string.ascii_letters[i] for i, x in enumerate(labels)}

    def text(sub):
        return "".join("..." if x is Ellipsis else letter[x] for x in sub)

    subscripts = ",".join(text(sub) for sub in sublists)
    if out is not None:
        subscripts += "->" + text(out)
    return subscripts, operands


def _take_diagonals(x, s):
    while True:
        dup = next((c for c in s if s.count(c) > 1), None)
        if dup is None:
            return x, s
        p = s.index(dup)
        q = s.index(dup, p + 1)

        x = diagonal(x, 0, p, q)
        s = "".join(c for i, c in enumerate(s) if i not in (p, q)) + dup


def _sum_unneeded(x, s, needed):
    axes = tuple(i for i, c in enumerate(s) if c not in needed)
    if axes:
        # A sum of booleans is their "or" (JAX sums bools in bool).
        x = _red.reduce_or(x, axes) if x.dtype == dtypes.bool_ else _red.reduce_sum(x, axes)
        s = "".join(c for c in s if c in needed)
    return x, s


def _contract_pair(a, sa, b, sb, keep, pet, dot=None, precision=None):
    batch = [c for c in sa if c in sb and c in keep]
    contract = [c for c in sa if c in sb and c not in keep]
    dn = (
        (tuple(sa.index(c) for c in contract), tuple(sb.index(c) for c in contract)),
        (tuple(sa.index(c) for c in batch), tuple(sb.index(c) for c in batch)),
    )
    if dot is None:
        out = _linalg.dot_general(a, b, dn, preferred_element_type=pet)
    else:  # a caller's ``_dot_general`` (flax's ``einsum_dot_general``), JAX's call form:
        # the result dtype as ``preferred_element_type`` when none was asked for
        out = dot(a, b, dn, precision, preferred_element_type=a.dtype if pet is None else pet)
    s_out = (
        "".join(batch)
        + "".join(c for c in sa if c not in batch and c not in contract)
        + "".join(c for c in sb if c not in batch and c not in contract)
    )
    return out, s_out


def einsum(
    subscripts,
    /,
    *operands,
    out=None,
    optimize="auto",
    precision=None,
    preferred_element_type=None,
    _dot_general=None,
    out_sharding=None,
):
    """``jnp.einsum``: Einstein summation over the operands.

    Args:
        subscripts: e.g. ``"ij,jk->ik"``; implicit output and ``...`` are supported.
            Or the interleaved form ``einsum(a, [0, 1], b, [1, 2], [0, 2])``: each operand
            followed by its list of labels (hashable, mutually comparable objects, or
            ``Ellipsis``), and optionally the output's list last.
        operands: arrays (promoted to a common dtype).
        optimize: contraction-order strategy (``"auto"``/``"greedy"``/``"optimal"``/False).
        preferred_element_type: accumulation/result dtype passed to ``dot_general``.
        _dot_general: the ``dot_general`` each pairwise contraction calls, as
            ``_dot_general(a, b, dimension_numbers, precision, preferred_element_type=)``
            (JAX's hook; default ``lax.dot_general``).
        out_sharding: the result's sharding (a ``NamedSharding``, or a ``P`` under
            ``jax.set_mesh``), S8.4.
    """
    check_out(out, "jnp.einsum is not supported.")
    check_precision(precision)
    if out_sharding is not None:
        return _explicit.apply_out_sharding(
            einsum,
            out_sharding,
            subscripts,
            *operands,
            out=out,
            optimize=optimize,
            precision=precision,
            preferred_element_type=preferred_element_type,
            _dot_general=_dot_general,
        )
    if _dot_general is _linalg.dot_general:
        _dot_general = None
    if not isinstance(subscripts, str):
        subscripts, operands = _interleaved(subscripts, operands)
    check_arraylike("einsum", *operands)
    ops, weak = promote_dtypes_for_contraction(*[asarray_any(o) for o in operands])
    weak = weak and preferred_element_type is None
    pet = (
        None
        if preferred_element_type is None
        else dtypes.canonicalize_dtype(preferred_element_type)
    )
    ins, out_s = _parse(subscripts, [o.shape for o in ops])
    # Sizes per label; broadcast size-1 dimensions of labels shared with larger sizes.
    sizes = {}
    for s, o in zip(ins, ops):
        for c, n in zip(s, o.shape):
            prev = sizes.get(c)
            if prev is None or prev == 1:
                sizes[c] = n  # a size-0 label stays 0
            elif n not in (1, prev):
                raise ValueError(f"einsum: size of label {c!r} differs: {prev} vs {n}")
    fixed = []
    for s, o in zip(ins, ops):
        target = tuple(sizes[c] for c in s)
        fixed.append(o if o.shape == target else broadcast_to(o, target))
    ops = fixed
    # Diagonals, then sum out labels that no other operand nor the output uses.
    items = []
    for i, (s, o) in enumerate(zip(ins, ops)):
        o, s = _take_diagonals(o, s)
        others = set(out_s).union(*[set(t) for j, t in enumerate(ins) if j != i])
        o, s = _sum_unneeded(o, s, others)
        items.append((o, s))
    if len(items) > 1:
        strategy = (
            "greedy"
            if optimize in ("auto", True, "greedy")
            else ("optimal" if optimize == "optimal" else False)
        )
        views = [np.broadcast_to(np.zeros((), np.float32), o.shape) for o, _ in items]
        expr = ",".join(s for _, s in items) + "->" + out_s
        if strategy:
            path = np.einsum_path(expr, *views, optimize=strategy)[0][1:]
        else:
            path = [(0, 1)] * (len(items) - 1)
    else:
        path = []
    for step in path:
        # One step of the path names two operands, or more: NumPy's path joins all the
        # operands of an outer or elementwise product (``i,j,k->ijk``, ``ij,ij,ij->ij``)
        # in one step. Those are folded pairwise, left to right.
        step = sorted(step)
        taken = [items[i] for i in step]
        items = [it for i, it in enumerate(items) if i not in step]
        a, sa = taken.pop(0)
        if not taken:
            a, sa = _sum_unneeded(a, sa, set(out_s).union(*[set(t) for _, t in items]))
        while taken:
            b, sb = taken.pop(0)
            keep = set(out_s).union(*[set(t) for _, t in items + taken])
            # Labels only in one of the pair and not needed later: sum them first.
            a, sa = _sum_unneeded(a, sa, keep | set(sb))
            b, sb = _sum_unneeded(b, sb, keep | set(sa))
            a, sa = _contract_pair(a, sa, b, sb, keep, pet, _dot_general, precision)
        items.append((a, sa))
    ((res, s),) = items
    res, s = _sum_unneeded(res, s, set(out_s))
    if s != out_s:
        res = _sh.transpose(res, tuple(s.index(c) for c in out_s))
    if pet is not None and res.dtype != pet:
        res = res.astype(pet)
    return new_array(with_weak_type(res, weak))  # jitted in JAX: never an operand itself


_TD_AXES = (
    "tensordot axes argument must be an int, a pair of ints, or a pair of lists/tuples of ints."
)


def _tensordot_axes(axes, a_shape, b_shape):
    """The contracted axes of ``a`` and ``b``, read as JAX reads ``axes``: a Python int ``k``
    (exactly: a bool or a NumPy integer is refused) names the last ``k`` axes of ``a`` and
    the first ``k`` of ``b`` (a negative ``k`` names none: an outer product, as JAX's
    ranges give); a tuple or list of two Python ints, or of two sequences of axes, names
    them pairwise (negative axes count from the end)."""
    na, nb = len(a_shape), len(b_shape)
    if type(axes) is int:
        if axes > min(na, nb):
            raise TypeError(
                f"Number of tensordot axes (axes {axes}) exceeds input ranks "
                f"({a_shape} and {b_shape})"
            )
        return tuple(range(na - axes, na)), tuple(range(axes))
    if not (isinstance(axes, (tuple, list)) and len(axes) == 2):
        raise TypeError(_TD_AXES)
    xa, xb = axes
    if isinstance(xa, int) and isinstance(xb, int):
        return (canonicalize_axis(xa, na),), (canonicalize_axis(xb, nb),)
    if not (isinstance(xa, (tuple, list)) and isinstance(xb, (tuple, list))):
        raise TypeError(
            f"tensordot requires both axes lists to be either ints, tuples or lists, got "
            f"{xa} and {xb}"
        )
    if len(xa) != len(xb):
        raise TypeError(f"tensordot requires axes lists to have equal length, got {xa} and {xb}.")
    ca = tuple(canonicalize_axis(i, na) for i in xa)
    return ca, tuple(canonicalize_axis(i, nb) for i in xb)


def tensordot(a, b, axes=2, *, precision=None, preferred_element_type=None, out_sharding=None):
    """``jnp.tensordot``: contract the last ``axes`` of ``a`` with the first of ``b``, or the
    given pairs of axis sequences; ``out_sharding``: the result's sharding."""
    check_precision(precision)
    if out_sharding is not None:
        return _explicit.apply_out_sharding(
            tensordot, out_sharding, a, b, axes, precision=precision,
            preferred_element_type=preferred_element_type,
        )  # fmt: skip
    check_arraylike("tensordot", a, b)
    (a, b), weak = promote_dtypes_for_contraction(a, b)
    ca, cb = _tensordot_axes(axes, a.shape, b.shape)
    out = _linalg.dot_general(
        a, b, ((ca, cb), ((), ())), preferred_element_type=preferred_element_type
    )
    return with_weak_type(out, weak and preferred_element_type is None)


def kron(a, b):
    """``jnp.kron``: the Kronecker product.

    Raises:
      TypeError: two bool operands (JAX multiplies them with ``lax.mul``).
    """
    check_arraylike("kron", a, b)
    a, b = promote_dtypes(a, b)
    lax_api.check_accepted("mul", (lax_api.NUMBER,) * 2, a, b)  # JAX's lax.mul: no bools
    nd = max(a.ndim, b.ndim)
    a = reshape(a, (1,) * (nd - a.ndim) + a.shape)
    b = reshape(b, (1,) * (nd - b.ndim) + b.shape)
    ai, bi = [], []
    for n, m in zip(a.shape, b.shape):
        ai += [n, 1]
        bi += [1, m]
    prod = multiply(reshape(a, ai), reshape(b, bi))
    return reshape(prod, tuple(n * m for n, m in zip(a.shape, b.shape)))


def einsum_path(subscripts, /, *operands, optimize="auto"):
    """``jnp.einsum_path``: the contraction order ``einsum`` would use, and a report.

    As JAX, this asks ``opt_einsum.contract_path`` (given the operands' shapes; arrays and
    ``ShapeDtypeStruct``s both work); without opt_einsum installed, NumPy's
    ``np.einsum_path`` answers (its report is a string).

    Args:
        subscripts: the einsum subscripts, e.g. ``"ij,jk,kl->il"``, or the interleaved
            form as in ``einsum``.
        operands: arrays or objects with a ``shape``.
        optimize: ``"auto"``, ``"greedy"``, ``"optimal"``, False, ... (opt_einsum's names).

    Returns:
        ``(path, info)``: ``path`` a list of operand-index tuples to contract in order.
    """
    if not isinstance(subscripts, str):
        subscripts, operands = _interleaved(subscripts, operands)
    shapes = [tuple(o.shape) if hasattr(o, "shape") else np.shape(o) for o in operands]
    try:
        import opt_einsum
    except ImportError:  # pragma: no cover (opt_einsum is installed with the test extras)
        opt_einsum = None
    if optimize is False and len(shapes) > 1:
        optimize = [(0, 1)] * (len(shapes) - 1)  # JAX's "no optimization": left to right
    if opt_einsum is not None:
        path, info = opt_einsum.contract_path(subscripts, *shapes, optimize=optimize, shapes=True)
        return list(path), info
    if isinstance(optimize, list):
        strategy = ["einsum_path", *optimize]
    else:
        strategy = "optimal" if optimize == "optimal" else "greedy"
    views = [np.broadcast_to(np.zeros((), np.float32), s) for s in shapes]
    path, info = np.einsum_path(subscripts, *views, optimize=strategy)
    return list(path[1:]), info
