"""Schur and Hessenberg decompositions (``jax.lax.linalg.schur`` / ``hessenberg``) and the
triangular Sylvester kernel behind ``jax.scipy.linalg.solve_sylvester``.

The kernels are LAPACK's, through SciPy (``gees`` via ``scipy.linalg.schur``, ``gehrd`` /
``orghr`` / ``unghr``, ``trsyl``): the routines JAX's CPU kernels call, so the factors agree
with JAX's up to rounding. Leading axes are batch axes (one LAPACK call per matrix); the
batching rules move the batch axis to the front. As in JAX none of these has a derivative:
their JVP rules raise JAX's ``NotImplementedError`` ("Differentiation rule for 'schur' not
implemented").
"""

from __future__ import annotations

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import rules
from jaxlite._src.core.array import to_array
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero
from jaxlite._src.ops import linalg_ops as _lo, linalg_svd as _svd
from jaxlite._src.ops.linalg_ops import _batch_to_front
from jaxlite._src.util import scipy  # a LazyModule: SciPy loads at the first use


def _per_matrix(fn, mats, out_specs, core=None):
    """``fn`` over the leading batch axes of ``mats`` (same batch shape; ``core[i]``
    trailing axes of ``mats[i]`` form one operand, 2 by default); ``out_specs``: per output,
    (shape of one result, dtype). Empty batches give empty outputs of the right shapes."""
    core = core or [2] * len(mats)
    batch = mats[0].shape[: mats[0].ndim - core[0]]
    count = int(np.prod(batch, dtype=np.int64))
    flat = [m.reshape((count,) + m.shape[m.ndim - c :]) for m, c in zip(mats, core)]
    outs = [np.empty((count,) + s, d) for s, d in out_specs]
    for k in range(count):
        res = fn(*(m[k] for m in flat))
        for o, r in zip(outs, res):
            o[k] = r
    return [o.reshape(batch + o.shape[1:]) for o in outs]


def _check_matrix(name, x, what="square matrix"):
    if len(x.shape) < 2:
        raise TypeError(f"Input 0 to {name} must have rank at least 2, but got shape={x.shape}")
    if not dtypes.is_inexact(x.dtype):
        raise TypeError(
            f"{name} does not accept dtype {x.dtype.name} at position 0. Accepted dtypes at "
            "position 0 are subtypes of floating, complexfloating."
        )


def _front_batch(p):
    def batch(axis_data, args, dims, **params):
        outs = p.bind(*_batch_to_front(axis_data, args, dims), **params)
        return outs, [0] * len(outs)

    rules.batch_rules[p] = batch


# ------------------------------------------------------------------------------- schur
schur_p = Primitive("schur", multiple_results=True)


def _schur_impl(x, *, compute_schur_vectors):
    n = x.shape[-1]

    def one(m):
        t, z = scipy.linalg.schur(m, output="complex" if np.iscomplexobj(m) else "real")
        return t, z

    t, z = _per_matrix(one, [x], [((n, n), x.dtype), ((n, n), x.dtype)])
    return [t, z] if compute_schur_vectors else [t]


def _schur_abstract_eval(x, *, compute_schur_vectors):
    _check_matrix("schur", x)
    if x.shape[-1] != x.shape[-2]:
        raise ValueError(f"The input to schur must be a square matrix. Got shape {x.shape}.")
    out = ShapedArray(x.shape, x.dtype, x.weak_type)
    return [out, out] if compute_schur_vectors else [out]


rules.impl_rules[schur_p] = _schur_impl
rules.abstract_eval_rules[schur_p] = _schur_abstract_eval
rules.no_derivative(schur_p)
_front_batch(schur_p)


def schur(
    x,
    *,
    compute_schur_vectors: bool = True,
    sort_eig_vals: bool = False,
    select_callable=None,
):
    """``jax.lax.linalg.schur``: the Schur decomposition ``x = Z T Z^H``.

    Args:
        x: a (batch of) square float or complex matrices.
        compute_schur_vectors: also return ``Z``.
        sort_eig_vals: must be False (LAPACK's sorting is not implemented, as in JAX).
        select_callable: must be None.

    Returns:
        ``[T, Z]`` (or ``[T]``): ``T`` quasi upper triangular (real input, 2x2 blocks for
        complex pairs) or upper triangular (complex input), ``Z`` unitary.
    """
    if sort_eig_vals or select_callable is not None:
        raise NotImplementedError("The sort feature of LAPACK's gees routine is not implemented.")
    return schur_p.bind(to_array(x), compute_schur_vectors=bool(compute_schur_vectors))


# -------------------------------------------------------------------------- hessenberg
hessenberg_p = Primitive("hessenberg", multiple_results=True)


def _hessenberg_impl(a):
    n = a.shape[-1]

    def one(m):
        if n == 0:
            return m, np.zeros((0,), m.dtype)
        gehrd = scipy.linalg.get_lapack_funcs("gehrd", (m,))
        ht, tau, _ = gehrd(m)
        return ht, tau[: n - 1]

    return _per_matrix(one, [a], [((n, n), a.dtype), ((max(n - 1, 0),), a.dtype)])


def _hessenberg_abstract_eval(a):
    _check_matrix("hessenberg", a)
    if a.shape[-1] != a.shape[-2]:
        raise ValueError(
            f"Argument to Hessenberg reduction must have shape [..., n, n], got shape {a.shape}"
        )
    n = a.shape[-1]
    w = a.weak_type
    return [
        ShapedArray(a.shape, a.dtype, w),
        ShapedArray(a.shape[:-2] + (max(n - 1, 0),), a.dtype, w),
    ]


rules.impl_rules[hessenberg_p] = _hessenberg_impl
rules.abstract_eval_rules[hessenberg_p] = _hessenberg_abstract_eval
rules.no_derivative(hessenberg_p)
_front_batch(hessenberg_p)


def hessenberg(a):
    """``jax.lax.linalg.hessenberg``: reduce a square matrix to upper Hessenberg form.

    Args:
        a: a (batch of) square float or complex matrices.

    Returns:
        ``[h, taus]`` (a list, as JAX's) in LAPACK's packed form: ``h``'s upper Hessenberg
        part is the reduced matrix, the Householder reflectors are below its first
        subdiagonal, ``taus`` (length ``n - 1``) their scales.
    """
    return hessenberg_p.bind(to_array(a))


# The unitary factor of the Hessenberg reduction from the packed form (orghr / unghr).
hessenberg_q_p = Primitive("hessenberg_q")


def _hessenberg_q_impl(h, taus):
    n = h.shape[-1]

    def one(m, tau):
        if n <= 1:
            return (np.eye(n, dtype=m.dtype),)
        orghr = scipy.linalg.get_lapack_funcs("unghr" if np.iscomplexobj(m) else "orghr", (m,))
        q, _ = orghr(m, tau, lo=0, hi=n - 1)
        return (q,)

    (q,) = _per_matrix(one, [h, taus], [((n, n), h.dtype)], core=[2, 1])
    return q


rules.impl_rules[hessenberg_q_p] = _hessenberg_q_impl
rules.abstract_eval_rules[hessenberg_q_p] = lambda h, taus: ShapedArray(
    h.shape, h.dtype, h.weak_type and taus.weak_type
)
rules.no_derivative(hessenberg_q_p)


def _hessenberg_q_batch(axis_data, args, dims):
    return hessenberg_q_p.bind(*_batch_to_front(axis_data, args, dims)), 0


rules.batch_rules[hessenberg_q_p] = _hessenberg_q_batch


# ------------------------------------------------------------------ triangular Sylvester
# X solving R X + X S = F for upper triangular (complex Schur) R (m x m) and S (n x n).
trsyl_p = Primitive("trsyl")


def _trsyl_impl(r, s, f):
    m, n = f.shape[-2], f.shape[-1]

    def one(r1, s1, f1):
        if m == 0 or n == 0:
            return (np.zeros((m, n), f.dtype),)
        trsyl = scipy.linalg.get_lapack_funcs("trsyl", (r1, s1, f1))
        x, scale, _ = trsyl(r1, s1, f1)
        return (x / scale,)

    (x,) = _per_matrix(one, [r, s, f], [((m, n), f.dtype)])
    return x


rules.impl_rules[trsyl_p] = _trsyl_impl
rules.abstract_eval_rules[trsyl_p] = lambda r, s, f: ShapedArray(
    f.shape, f.dtype, r.weak_type and s.weak_type and f.weak_type
)
rules.no_derivative(trsyl_p)


def _trsyl_batch(axis_data, args, dims):
    return trsyl_p.bind(*_batch_to_front(axis_data, args, dims)), 0


rules.batch_rules[trsyl_p] = _trsyl_batch

__all__ = ["hessenberg", "hessenberg_p", "schur", "schur_p"]


# ------------------------------------------------------------------------------ geqrf
# LAPACK's Householder QR (``geqrf``): ``a`` holds R on and above the diagonal and the
# reflectors' vectors below it, ``taus`` their scale factors. jnp.linalg.qr(mode="raw").
geqrf_p = Primitive("geqrf", multiple_results=True)


def _geqrf_impl(x):
    m, n = x.shape[-2:]

    def one(a):
        h, tau = np.linalg.qr(a, mode="raw")  # h is the transpose of LAPACK's a
        return h.T, tau

    return _per_matrix(one, [x], [((m, n), x.dtype), ((min(m, n),), x.dtype)])


def _geqrf_abstract_eval(x):
    _check_matrix("geqrf", x)
    m, n = x.shape[-2:]
    b = tuple(x.shape[:-2])
    w = x.weak_type
    return [ShapedArray(b + (m, n), x.dtype, w), ShapedArray(b + (min(m, n),), x.dtype, w)]


rules.impl_rules[geqrf_p] = _geqrf_impl
rules.abstract_eval_rules[geqrf_p] = _geqrf_abstract_eval
rules.no_derivative(geqrf_p)
_front_batch(geqrf_p)


def geqrf(x):
    """LAPACK ``geqrf`` (JAX's internal ``geqrf`` primitive): ``(a, taus)`` for ``x`` of
    shape ``(..., m, n)``: R in the upper triangle of ``a``, the Householder vectors below
    it, ``taus`` of shape ``(..., min(m, n))``. Not differentiable (as in JAX).

    Raises:
      TypeError: rank below 2 or a non-inexact dtype.
    """
    return tuple(geqrf_p.bind(to_array(x)))


# ------------------------------------------------------------------------- qr_pivots
# The column permutation of LAPACK's pivoted QR (``geqp3``). The factors themselves are
# the QR of the permuted matrix (scipy/linalg.py qr), so they are differentiable through qr's
# JVP; the permutation is piecewise constant and has no tangent.
qr_pivots_p = Primitive("qr_pivots")


def _qr_pivots_impl(x):
    n = x.shape[-1]

    def one(a):
        if a.shape[0] == 0:  # JAX's geqp3 leaves its zero-initialised pivots unchanged
            return (np.zeros(n, dtype=np.int32),)
        if a.size == 0:
            return (np.arange(n, dtype=np.int32),)
        return (scipy.linalg.qr(a, mode="r", pivoting=True, check_finite=False)[1],)

    return _per_matrix(one, [x], [((n,), np.int32)])[0]


def _qr_pivots_abstract_eval(x):
    _check_matrix("qr", x)
    return ShapedArray(tuple(x.shape[:-2]) + (x.shape[-1],), dtypes.int32)


def _qr_pivots_jvp(primals, tangents):
    p = qr_pivots_p.bind(*primals)
    return p, Zero(aval_of(p).to_tangent_aval())


def _qr_pivots_batch(axis_data, args, dims):
    return qr_pivots_p.bind(*_batch_to_front(axis_data, args, dims)), 0


rules.impl_rules[qr_pivots_p] = _qr_pivots_impl
rules.abstract_eval_rules[qr_pivots_p] = _qr_pivots_abstract_eval
rules.jvp_rules[qr_pivots_p] = _qr_pivots_jvp
rules.batch_rules[qr_pivots_p] = _qr_pivots_batch


def qr_pivots(x):
    """The int32 column permutation ``p`` of the pivoted QR ``x[..., :, p] = Q R``
    (LAPACK ``geqp3``: column norms decide the order)."""
    return qr_pivots_p.bind(to_array(x))


# --------------------------------------------------- LAPACK-backed primitives' dtypes
def lapack_dtype(x):
    """JAX's CPU kernels exist for float32/64 and complex64/128 only: for another dtype
    (float16, bfloat16) its lowering raises ``NotImplementedError`` with the failed lookup
    and this message (``make_jaxpr`` still traces)."""
    if x.dtype not in (np.float32, np.float64, np.complex64, np.complex128):
        raise NotImplementedError(KeyError(x.dtype.type), f"Unsupported dtype {x.dtype.name}.")


def _lapack_only(impl):
    def checked(x, *args, **params):
        lapack_dtype(x)
        return impl(x, *args, **params)

    return checked


# The primitives JAX lowers to LAPACK on CPU refuse half precisions when they run (eagerly
# or in jit), as JAX's lowering does; their other rules (tracing, vmap, derivatives) are
# unchanged.
for _p in (
    _lo.lu_p,
    _lo.cholesky_p,
    _lo.qr_p,
    _lo.eigh_p,
    _lo.eig_p,
    _svd.svd_p,
    schur_p,
    hessenberg_p,
    geqrf_p,
    qr_pivots_p,
):
    rules.impl_rules[_p] = _lapack_only(rules.impl_rules[_p])
