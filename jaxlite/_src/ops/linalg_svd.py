"""The ``svd`` primitive (``jax.lax.linalg.svd``): LAPACK's SVD through NumPy, its JVP (the
real and complex forms), and its batching rule. The helpers are ``linalg_ops.py``'s."""

from __future__ import annotations

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import rules
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero
from jaxlite._src.ops import conversion, elementwise as ew, shape as _sh
from jaxlite._src.ops.linalg_ops import (
    _H,
    _batch_to_front,
    _diag,
    _eye_like,
    _mm,
    _nan_on_failure,
    _shape,
)

# --------------------------------------------------------------------------------- svd
svd_p = Primitive("svd", multiple_results=True)


def _svd_impl(x, *, full_matrices, compute_uv):
    rdt = dtypes.to_real_dtype(x.dtype)

    def shapes(m):
        r, c = m.shape
        k = min(r, c)
        if not compute_uv:
            return [((k,), rdt)]
        um, vn = (r, c) if full_matrices else (k, k)
        return [((r, um), m.dtype), ((k,), rdt), ((vn, c), m.dtype)]

    if not compute_uv:
        (s,) = _nan_on_failure(lambda m: (np.linalg.svd(m, compute_uv=False),), x, shapes)
        return [s.astype(rdt)]
    u, s, vh = _nan_on_failure(lambda m: np.linalg.svd(m, full_matrices=full_matrices), x, shapes)
    return [s.astype(rdt), u.astype(x.dtype), vh.astype(x.dtype)]


def _svd_abstract_eval(x, *, full_matrices, compute_uv):
    if x.ndim < 2:
        raise ValueError("svd: argument must have at least 2 dimensions")
    m, n = x.shape[-2:]
    k = min(m, n)
    b = x.shape[:-2]
    w = x.weak_type
    s = ShapedArray(b + (k,), dtypes.to_real_dtype(x.dtype), w)
    if not compute_uv:
        return [s]
    um, vn = (m, n) if full_matrices else (k, k)
    return [s, ShapedArray(b + (m, um), x.dtype, w), ShapedArray(b + (vn, n), x.dtype, w)]


def _svd_jvp(primals, tangents, *, full_matrices, compute_uv):
    (x,), (t,) = primals, tangents
    outs = svd_p.bind(x, full_matrices=full_matrices, compute_uv=compute_uv)
    if type(t) is Zero:
        return outs, [Zero(aval_of(o).to_tangent_aval()) for o in outs]
    if full_matrices and compute_uv and _shape(x)[-1] != _shape(x)[-2]:
        raise NotImplementedError(
            "Singular value decomposition JVP not implemented for full matrices"
        )
    s, U, Vt = svd_p.bind(x, full_matrices=False, compute_uv=True)
    dt = aval_of(x).dtype
    nd = len(_shape(x))
    Ut, V = _H(U), _H(Vt)
    dS = _mm(_mm(Ut, t), V)
    ds = _diag(dS)
    if dtypes.is_complex(aval_of(ds).dtype):
        ds = ew.real(ds)
    if not compute_uv:
        return outs, [ds]
    k = _shape(s)[-1]
    sc = conversion.convert_element_type(s, dt)
    kk = _shape(x)[:-2] + (k, k)
    s_row = _sh.broadcast_in_dim(sc, kk, tuple(range(nd - 2)) + (nd - 1,))  # s_j
    s_col = _sh.broadcast_in_dim(sc, kk, tuple(range(nd - 2)) + (nd - 2,))  # s_i
    eye = _sh.broadcast_to_rank(_eye_like(dS), kk)
    s_diffs = ew.mul(ew.add(s_row, s_col), ew.sub(s_row, s_col))
    one = _sh.full((), 1, dt)
    F = ew.sub(ew.div(one, ew.add(s_diffs, eye)), eye)
    dSS = ew.mul(s_row, dS)
    SdS = ew.mul(s_col, dS)
    zero_s = conversion.convert_element_type(ew.eq(sc, _sh.full((), 0, dt)), dt)
    s_inv = ew.sub(ew.div(one, ew.add(sc, zero_s)), zero_s)
    s_inv_mat = ew.mul(eye, _sh.broadcast_in_dim(s_inv, kk, tuple(range(nd - 2)) + (nd - 1,)))
    dUdV_diag = ew.mul(ew.mul(ew.sub(dS, _H(dS)), s_inv_mat), _sh.full((), 0.5, dt))
    dU = _mm(U, ew.add(ew.mul(F, ew.add(dSS, _H(dSS))), dUdV_diag))
    dV = _mm(V, ew.mul(F, ew.add(SdS, _H(SdS))))
    m, n = _shape(x)[-2:]
    s_b = _sh.broadcast_in_dim(sc, _shape(x)[:-2] + (1, k), tuple(range(nd - 2)) + (nd - 1,))
    if m > n:
        dAV = _mm(t, V)
        dU = ew.add(
            dU, ew.div(ew.sub(dAV, _mm(U, _mm(Ut, dAV))), _sh.broadcast_to_rank(s_b, _shape(dAV)))
        )
    if n > m:
        dAHU = _mm(_H(t), U)
        dV = ew.add(
            dV,
            ew.div(ew.sub(dAHU, _mm(V, _mm(Vt, dAHU))), _sh.broadcast_to_rank(s_b, _shape(dAHU))),
        )
    return outs, [ds, dU, _H(dV)]


def _svd_batch(axis_data, args, dims, **params):
    (x,) = _batch_to_front(axis_data, args, dims)
    outs = svd_p.bind(x, **params)
    return outs, [0] * len(outs)


rules.impl_rules[svd_p] = _svd_impl
rules.abstract_eval_rules[svd_p] = _svd_abstract_eval
rules.jvp_rules[svd_p] = _svd_jvp
rules.batch_rules[svd_p] = _svd_batch


def svd(x, *, full_matrices: bool = True, compute_uv: bool = True):
    """``jax.lax.linalg.svd``: ``(u, s, vh)`` as JAX returns them (the primitive's own output
    order is ``(s, u, vh)``), or ``s`` alone without ``compute_uv``."""
    outs = svd_p.bind(x, full_matrices=bool(full_matrices), compute_uv=bool(compute_uv))
    if not compute_uv:
        return outs[0]
    s, u, vh = outs
    return u, s, vh
