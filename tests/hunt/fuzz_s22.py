"""Session 22 differential hunt generators (test code, not a test module): seeded random
programs run under JAX and jaxlite in one process, compared leaf by leaf (exception class,
structure, shapes, dtypes, weak types, integers and booleans exactly, floats within a
tolerance per dtype and angle relative to the leaf's largest magnitude (``_TOLS``), NaN
and infinity positions, signs of zeros outside derivatives).

Angles (``GENERATORS``), chosen where no earlier generator draws (tests/fuzz draws square
float32 ``det``/``inv``/``slogdet``/``eigvalsh``/norms once, eagerly or under one stack;
the s18..s21 hunts draw no decomposition, no ``jax.scipy.linalg``, no ``jnp.fft`` under a
transformation, only ``softmax``/``logsumexp`` of ``jax.nn``, and sorting only through
``sort``/``argsort`` with NaN or on empty arrays):

* ``linalg``: ``jnp.linalg`` (solve with vector / matrix / batched right-hand sides,
  inv, det, slogdet with ``method``, cholesky ``upper``, qr of every ``mode``, svd with
  ``full_matrices`` / ``compute_uv`` / ``hermitian`` / ``subset_by_index``, eigh with
  ``UPLO`` / ``symmetrize_input`` on non-symmetric input, eigvalsh, eig / eigvals, pinv
  with ``rtol`` / ``hermitian``, lstsq with ``rcond`` / ``numpy_resid``, matrix_rank,
  matrix_power, cond with every ``p``, norm / matrix_norm / vector_norm with every ``ord``,
  ``axis`` pairs and ``keepdims``, tensorsolve, tensorinv, multi_dot, svdvals) and
  ``jax.scipy.linalg`` (solve with ``assume_a``, solve_triangular with ``trans`` /
  ``lower`` / ``unit_diagonal``, cho_factor / cho_solve, lu with ``permute_l``, lu_factor /
  lu_solve with ``trans``, expm, expm_frechet, sqrtm, polar, schur, hessenberg, funm,
  eigh with ``eigvals_only`` / ``subset_by_index``, svd, qr with ``pivoting`` and ``mode``,
  solve_sylvester, eigh_tridiagonal, block_diag and the special matrices) on float32 /
  complex64 / float64 (x64) / int32 / bool / float16 operands with leading batch
  dimensions, under eval / jit / vmap (batch axis first or last, the right-hand side alone
  batched) / grad / jvp / jacfwd / jacrev / hessian. Decompositions that are unique only up
  to the phases of their columns are compared after a phase normalization inside the
  program (column ``k`` divided by the phase of its entry in row 0), and their orthonormal
  completions through ``Q^H Q``.
* ``nn``: ``jax.nn`` functions with their options (softmax / log_softmax with ``axis``
  tuples and ``where=``, logsumexp with ``b=`` (negative and zero weights),
  ``return_sign``, ``where=``, ``keepdims``, one_hot with ``dtype`` / ``axis`` and
  negative / out-of-range / float indices, gelu ``approximate``, glu, standardize with
  ``mean`` / ``variance`` / ``epsilon`` / ``where``, celu / elu / leaky_relu /
  squareplus parameters, the piecewise activations at their kinks) on float32 / float16 /
  bfloat16 / float64 / int inputs with 0, -0.0, infinities and NaN, under eval / jit /
  vmap / grad / jvp / jacrev / hessian.
* ``fft``: ``jnp.fft`` (fft / ifft / rfft / irfft / hfft / ihfft with ``n`` shorter and
  longer than the axis, ``axis``, ``norm``; fft2 / ifft2 / rfft2 / irfft2 / fftn / ifftn /
  rfftn / irfftn with ``s`` and ``axes`` (negative, permuted); fftshift / ifftshift with
  ``axes``; fftfreq / rfftfreq with ``d`` and ``dtype``) on float32 / int32 / complex64 /
  float64 / complex128 / bool operands under eval / jit / vmap / grad / jvp / jacrev /
  ``linear_transpose``.
* ``order``: sort / argsort (``descending``, ``stable``), lexsort, ``lax.top_k``,
  searchsorted with every ``side`` and ``method``, partition / argpartition, unique with
  ``size`` / ``fill_value`` and its ``return_*`` outputs, nanargmax / nanargmin, median,
  quantile with every ``method``, sort_complex, multi-operand ``lax.sort`` with
  ``num_keys`` and ``sort_key_val``, on float32 / float16 / bfloat16 / float64 / int32 /
  uint8 operands with ties, NaN, infinities and -0.0, under eval / jit / vmap / grad / jvp.

Documented differences (docs/compat.md) are avoided by construction: no subnormal values,
well-conditioned matrices (a diagonal shift), distinct eigenvalues and singular values
where a derivative or an eigenvector is compared.

``python -m tests.hunt.fuzz_s22 NAME FIRST COUNT`` prints each disagreement with its
program. A generated program is source text that the harness executes (``jx``, ``jnp``,
``lax``, ``np`` bound to one library); jaxlite never executes generated text.
"""

# ruff: noqa: E501 (the program tables keep one expression a line)
from __future__ import annotations

import sys
import warnings

import numpy as np

from tests.hunt import fuzz_s21
from tests.hunt.oracle import JAX, LITE, builtin_base, run

# helpers every program may call: a weighted real loss of all inexact leaves, and the
# phase normalization of a decomposition's columns
_HELPERS = '''
def loss(out):
    tot = 0.0
    for i, l in enumerate(jx.tree_util.tree_leaves(out)):
        l = jnp.asarray(l)
        if not jnp.issubdtype(l.dtype, jnp.inexact):
            continue
        w = (((jnp.arange(l.size) * 7 + i) % 11 - 5) / 4).astype(jnp.real(l).dtype).reshape(l.shape)
        tot = tot + jnp.sum(jnp.real(l) * w)
        if jnp.iscomplexobj(l):
            tot = tot + jnp.sum(jnp.imag(l) * w * 0.5)
    return tot
def phase(u):
    """Phases (or signs) of the entries of u's row 0, per column (batched)."""
    r = u[..., :1, :]
    return r / jnp.abs(r)
def canon_cols(u):
    return u / phase(u)
def gram(q):
    return jnp.conj(jnp.swapaxes(q, -1, -2)) @ q
'''


def _lit(v):
    return repr(v.tolist()).replace("nan", "np.nan").replace("inf", "np.inf")


# ---------------------------------------------------------------------------- linalg
def _matrix(rng, kind, batch, m, n, cplx):
    """A NumPy float64/complex128 matrix (stack) of ``kind``: gen (diagonally shifted),
    spd (Hermitian positive definite, distinct eigenvalues), herm (Hermitian, distinct
    eigenvalues, indefinite), tri (lower triangular, shifted), rect, lowrank (rank 1 less
    than full), asym (no symmetry, for eigh's triangle choices)."""
    shape = (*batch, m, n)
    a = np.round(rng.uniform(-1, 1, shape), 2)
    if cplx:
        a = a + 1j * np.round(rng.uniform(-1, 1, shape), 2)
    eye = np.eye(m, n)
    if kind == "gen":
        a = a + (n + 1) * eye * rng.choice([1, -1])
    elif kind in ("spd", "herm"):
        d = np.arange(1, n + 1) * 1.5 + (0 if kind == "spd" else -n)
        a = (a + np.conj(np.swapaxes(a, -1, -2))) / 4 + np.diag(d + 0.3)
        if kind == "spd":
            a = a + n * np.eye(n)
    elif kind == "tri":
        a = np.tril(a) + (n + 1) * eye
    elif kind == "lowrank":
        a[..., -1, :] = a[..., 0, :] * 2
    a = np.round(a, 3)
    if kind in ("spd", "herm"):
        a = (a + np.conj(np.swapaxes(a, -1, -2))) / 2
    return a


def _arr_text(a, dt):
    if dt == "bool":
        return f"jnp.asarray(np.array({_lit(np.real(a) > 0)}))"
    if dt == "int32":
        return f"jnp.asarray(np.array({_lit(np.round(np.real(a) * 3).astype(int))}, dtype='int32'))"
    if dt.startswith("complex"):
        return (
            f"jnp.asarray(np.array({_lit(a.real)}) + 1j * np.array({_lit(a.imag)}), dtype={dt!r})"
        )
    return f"jnp.asarray(np.array({_lit(np.real(a))}), dtype={dt!r})"


# (name, matrix kind, shape form, source) -- {a} the matrix, {b} a right-hand side;
# shape forms: sq (n x n), rect (m x n), tensor (special)
# fmt: off
_LINALG = [
    ("inv", "gen", "sq", "jnp.linalg.inv({a})"),
    ("solve_vec", "gen", "sq", "jnp.linalg.solve({a}, {bv})"),
    ("solve_mat", "gen", "sq", "jnp.linalg.solve({a}, {bm})"),
    ("solve_b1", "gen", "sq", "jnp.linalg.solve({a}, {bb})"),
    ("det", "gen", "sq", "jnp.linalg.det({a})"),
    ("det_low", "lowrank", "sq", "jnp.linalg.det({a})"),
    ("slogdet", "gen", "sq", "tuple(jnp.linalg.slogdet({a}))"),
    ("slogdet_qr", "gen", "sq", "tuple(jnp.linalg.slogdet({a}, method='qr'))"),
    ("cholesky", "spd", "sq", "jnp.linalg.cholesky({a}, upper={upper})"),
    ("qr", "rect", "rect", "qr_canon(jnp.linalg.qr({a}, mode={qmode!r}), {qmode!r})"),
    ("svd_vals", "rect", "rect", "jnp.linalg.svd({a}, compute_uv=False)"),
    ("svd", "rect", "rect", "svd_canon(jnp.linalg.svd({a}, full_matrices={full}))"),
    ("svd_herm", "spd", "sq", "svd_canon(jnp.linalg.svd({a}, hermitian=True))"),
    ("svd_subset", "rect", "rect", "svd_canon(jnp.linalg.svd({a}, full_matrices=False, subset_by_index=(0, 1)))"),
    ("svdvals", "rect", "rect", "jnp.linalg.svdvals({a})"),
    ("eigh", "herm", "sq", "eigh_canon(jnp.linalg.eigh({a}, UPLO={uplo!r}))"),
    ("eigh_asym", "asym", "sq", "eigh_canon(jnp.linalg.eigh({a}, UPLO={uplo!r}, symmetrize_input={sym}))"),
    ("eigvalsh", "asym", "sq", "jnp.linalg.eigvalsh({a}, UPLO={uplo!r})"),
    ("eigvals", "gen", "sq", "jnp.sort(jnp.linalg.eigvals({a}), axis=-1)"),
    ("eig", "gen", "sq", "eig_canon(jnp.linalg.eig({a}))"),
    ("pinv", "rect", "rect", "jnp.linalg.pinv({a}{rtol})"),
    ("pinv_low", "lowrank", "sq", "jnp.linalg.pinv({a})"),
    ("pinv_herm", "spd", "sq", "jnp.linalg.pinv({a}, hermitian=True)"),
    ("lstsq", "rect", "rect", "tuple(jnp.linalg.lstsq({a}, {bl}{rcond}))"),
    ("lstsq_np", "rect", "rect", "tuple(jnp.linalg.lstsq({a}, {bl}, numpy_resid=True))"),
    ("matrix_rank", "lowrank", "sq", "jnp.linalg.matrix_rank({a})"),
    ("matrix_rank_tol", "rect", "rect", "jnp.linalg.matrix_rank({a}, rtol=0.5)"),
    ("matrix_power", "gen", "sq", "jnp.linalg.matrix_power({a}, {power})"),
    ("cond", "gen", "sq", "jnp.linalg.cond({a}, p={cond_p})"),
    ("norm_mat", "rect", "rect", "jnp.linalg.norm({a}, ord={mord}, axis={maxis}, keepdims={keep})"),
    ("norm_vec", "rect", "rect", "jnp.linalg.norm({a}, ord={vord}, axis={vaxis}, keepdims={keep})"),
    ("norm_none", "rect", "rect", "jnp.linalg.norm({a}, keepdims={keep})"),
    ("matrix_norm", "rect", "rect", "jnp.linalg.matrix_norm({a}, ord={mord}, keepdims={keep})"),
    ("vector_norm", "rect", "rect", "jnp.linalg.vector_norm({a}, ord={vord}, axis={vaxis2}, keepdims={keep})"),
    ("multi_dot", "rect", "rect", "jnp.linalg.multi_dot([{a}[..., 0, :], jnp.swapaxes({a}, -1, -2), {a}])"),
    ("tensorinv", "gen", "sq", "jnp.linalg.tensorinv({a}.reshape(tinv_shape({a})), ind=2)"),
    ("tensorsolve", "gen", "sq", "jnp.linalg.tensorsolve({a}.reshape(tinv_shape({a})), {bm}.reshape(tinv_shape({a})[:2]))"),
    # jax.scipy.linalg
    ("sl_solve", "gen", "sq", "jx.scipy.linalg.solve({a}, {bm}, assume_a='gen')"),
    ("sl_solve_pos", "spd", "sq", "jx.scipy.linalg.solve({a}, {bm}, assume_a={assume!r}, lower={lower})"),
    ("solve_tri", "tri", "sq", "jx.scipy.linalg.solve_triangular({a}, {bvm}, trans={trans!r}, lower=True, unit_diagonal={unit})"),
    ("solve_tri_up", "tri", "sq", "jx.scipy.linalg.solve_triangular(jnp.swapaxes({a}, -1, -2), {bvm}, trans={trans!r}, lower=False)"),
    ("cho", "spd", "sq", "cho_canon(jx.scipy.linalg.cho_factor({a}, lower={lower}), {bm})"),
    ("sl_cholesky", "spd", "sq", "jx.scipy.linalg.cholesky({a}, lower={lower})"),
    ("lu", "gen", "sq", "tuple(jx.scipy.linalg.lu({a}, permute_l={permute}))"),
    ("lu_rect", "rect", "rect", "tuple(jx.scipy.linalg.lu({a}))"),
    ("lu_solve", "gen", "sq", "jx.scipy.linalg.lu_solve(jx.scipy.linalg.lu_factor({a}), {bvm}, trans={itrans})"),
    ("lu_factor", "gen", "sq", "tuple(jx.scipy.linalg.lu_factor({a}))"),
    ("sl_inv", "gen", "sq", "jx.scipy.linalg.inv({a})"),
    ("sl_det", "gen", "sq", "jx.scipy.linalg.det({a})"),
    ("expm", "rect_sq", "sq", "jx.scipy.linalg.expm({a} * 0.5)"),
    ("expm_frechet", "rect_sq", "sq", "tuple(jx.scipy.linalg.expm_frechet({a} * 0.5, jnp.ones_like({a})))"),
    ("sqrtm", "spd", "sq", "jx.scipy.linalg.sqrtm({a})"),
    ("polar", "gen", "sq", "tuple(jx.scipy.linalg.polar({a}, side={side!r}))"),
    ("polar_svd", "rect", "rect", "tuple(jx.scipy.linalg.polar({a}, side='right', method='svd'))"),
    ("schur", "gen", "sq", "schur_check(jx.scipy.linalg.schur({a}, output={sout!r}), {a})"),
    ("hessenberg", "gen", "sq", "hess_check(jx.scipy.linalg.hessenberg({a}, calc_q=True), {a})"),
    ("funm", "spd", "sq", "jx.scipy.linalg.funm({a} * 0.2, jnp.exp)"),
    ("sl_eigh", "herm", "sq", "eigh_canon(jx.scipy.linalg.eigh({a}, lower={lower}))"),
    ("sl_eigh_vals", "herm", "sq", "jx.scipy.linalg.eigh({a}, eigvals_only=True{subset})"),
    ("sl_svd", "rect", "rect", "svd_canon(jx.scipy.linalg.svd({a}, full_matrices={full}))"),
    ("sl_svd_vals", "rect", "rect", "jx.scipy.linalg.svd({a}, compute_uv=False)"),
    ("sl_qr", "rect", "rect", "qr_canon(jx.scipy.linalg.qr({a}, mode={slqmode!r}), {slqmode!r})"),
    ("sl_qr_piv", "rect", "rect", "qr_canon(jx.scipy.linalg.qr({a}, mode='economic', pivoting=True), 'piv')"),
    ("sylvester", "spd", "sq", "jx.scipy.linalg.solve_sylvester({a}, {a} * 0.5 + 1.0, {bm})"),
    ("block_diag", "rect", "rect", "jx.scipy.linalg.block_diag({a}, {a}[..., :1, :], jnp.float32(2))"),
    ("eigh_tri", "rect", "rect", "jx.scipy.linalg.eigh_tridiagonal(jnp.arange(1.0, 5.0) * 2, jnp.real({a}).ravel()[:3] * 0.3, eigvals_only=True)"),
    ("toeplitz", "rect", "rect", "jx.scipy.linalg.toeplitz({a}[..., 0, :], {a}[..., -1, :])"),
    ("toeplitz1", "rect", "rect", "jx.scipy.linalg.toeplitz({a}[..., 0, :])"),
    ("circulant", "rect", "rect", "jx.scipy.linalg.circulant({a}[..., 0, :])"),
    ("hankel", "rect", "rect", "jx.scipy.linalg.hankel({a}[..., 0, :], {a}[..., -1, :])"),
    ("companion", "rect", "rect", "jx.scipy.linalg.companion({a}[..., 0, :] + 2)"),
    ("leslie", "rect", "rect", "jx.scipy.linalg.leslie({a}[..., 0, :], {a}[..., -1, 1:])"),
    ("conv_mat", "rect", "rect", "jx.scipy.linalg.convolution_matrix({a}[..., 0, :], 4, mode={cmode!r})"),
    ("fiedler", "rect", "rect", "jx.scipy.linalg.fiedler({a}[..., 0, :])"),
]
# fmt: on

_LINALG_HELPERS = """
def qr_canon(res, mode):
    if mode == 'r':
        r = res[0] if isinstance(res, tuple) else res
        return jnp.abs(r), r.shape
    if mode == 'raw':
        h, tau = res
        return h.shape, tau.shape
    if mode == 'piv':
        q, r, p = res
        return jnp.abs(q @ r), jnp.abs(r), p
    q, r = res
    k = min(r.shape[-2], r.shape[-1])
    d = jnp.diagonal(r[..., :k, :k], axis1=-2, axis2=-1)
    ph = (d / jnp.abs(d))[..., None, :]
    qk = q[..., :, :k] / ph
    rk = r[..., :k, :] / jnp.swapaxes(ph, -1, -2)
    return qk, rk, q @ r, gram(q), q.shape, r.shape
def svd_canon(res):
    u, s, vh = res
    k = s.shape[-1]
    ph = phase(u[..., :, :k])
    return u[..., :, :k] / ph, s, vh[..., :k, :] * jnp.swapaxes(ph, -1, -2), gram(u), gram(jnp.swapaxes(vh, -1, -2)), u.shape, vh.shape
def eigh_canon(res):
    w, v = res
    return w, canon_cols(v)
def eig_canon(res):
    w, v = res
    i = jnp.argsort(jnp.real(w), axis=-1)
    w = jnp.take_along_axis(w, i, axis=-1)
    v = jnp.take_along_axis(v, i[..., None, :], axis=-1)
    return w, canon_cols(v) * jnp.linalg.norm(v, axis=-2, keepdims=True)
def cho_canon(cf, b):
    c, low = cf
    return jnp.tril(c) if low else jnp.triu(c), jx.scipy.linalg.cho_solve(cf, b)
def schur_check(res, a):
    t, z = res
    return jnp.abs(jnp.diagonal(t, axis1=-2, axis2=-1)).sum(-1), z @ t @ jnp.conj(jnp.swapaxes(z, -1, -2)), gram(z)
def hess_check(res, a):
    h, q = res
    return jnp.abs(jnp.tril(h, -2)).sum(), q @ h @ jnp.conj(jnp.swapaxes(q, -1, -2)), gram(q)
def tinv_shape(a):
    n = a.shape[-1]
    return (n, n // 2, 2) if n % 2 == 0 else (n, 1, n)
"""

_UNIQUE_ONLY_EVAL = {"lu", "lu_rect", "lu_factor", "qr_piv", "matrix_rank", "eigvals", "eig",
                     "eigh_tri", "sl_qr_piv", "matrix_rank_tol", "schur", "hessenberg"}  # fmt: skip
_NO_DERIV = {"matrix_rank", "matrix_rank_tol", "lu_factor", "eigh_tri", "sl_qr_piv", "schur",
             "hessenberg", "funm", "polar", "polar_svd", "sqrtm", "eig", "eigvals", "det_low",
             "pinv_low", "lstsq", "lstsq_np", "tensorinv", "tensorsolve", "cond"}  # fmt: skip
_REAL_ONLY = {"eigh_tri", "sylvester", "fiedler", "companion", "leslie", "sl_qr_piv", "funm"}


def gen_linalg(rng):
    name, kind, form, src = _LINALG[rng.randint(len(_LINALG))]
    c = rng.rand()
    dt = ("float32" if c < 0.55 else "complex64" if c < 0.72 else "float64" if c < 0.84
          else "int32" if c < 0.92 else "bool" if c < 0.95 else "float16")  # fmt: skip
    if name in _REAL_ONLY and dt.startswith("complex"):
        dt = "float32"
    x64 = dt == "float64" or (rng.rand() < 0.1 and dt == "complex64")
    if x64 and dt == "complex64" and rng.rand() < 0.5:
        dt = "complex128"
    n = int(rng.randint(2, 5))
    m = n if form == "sq" else int(rng.choice([n - 1, n + 1, n + 2])) if n > 2 else n + 1
    batch = (
        () if rng.rand() < 0.5 else tuple(int(b) for b in rng.randint(1, 3, size=rng.randint(1, 3)))
    )
    mk = "gen" if kind == "rect_sq" else ("rect" if kind == "asym" else kind)
    a = _matrix(rng, mk, batch, m, n, dt.startswith("complex"))
    k = int(rng.randint(1, 3))
    bv = np.round(rng.uniform(-2, 2, (n,)), 2)
    bm = np.round(rng.uniform(-2, 2, (n, k)), 2)
    bb = np.round(rng.uniform(-2, 2, (*batch, n)), 2)
    bl = np.round(rng.uniform(-2, 2, (m,) if rng.rand() < 0.5 else (m, k)), 2)
    bdt = "float32" if dt in ("int32", "bool", "float16") else dt
    fmt = {
        "a": "a",
        "bv": _arr_text(bv, bdt),
        "bm": _arr_text(bm, bdt),
        "bb": _arr_text(bb, bdt),
        "bl": _arr_text(bl, bdt),
        "bvm": _arr_text(bv if rng.rand() < 0.5 else bm, bdt),
        "upper": bool(rng.rand() < 0.5),
        "qmode": rng.choice(["reduced", "complete", "r", "raw"]),
        "slqmode": rng.choice(["full", "economic", "r"]),
        "full": bool(rng.rand() < 0.5),
        "uplo": rng.choice(["L", "U"]),
        "sym": bool(rng.rand() < 0.5),
        "rtol": rng.choice(["", ", rtol=0.3", ", rtol=jnp.float32(1e-3)"]),
        "rcond": rng.choice(["", ", rcond=None", ", rcond=0.5"]),
        "power": int(rng.randint(-2, 4)),
        "cond_p": rng.choice(["None", "1", "-1", "2", "-2", "np.inf", "-np.inf", "'fro'", "'nuc'"]),
        "mord": rng.choice(["None", "1", "-1", "2", "-2", "np.inf", "-np.inf", "'fro'", "'nuc'"]),
        "vord": rng.choice(["None", "0", "1", "-1", "2", "-2", "np.inf", "-np.inf", "3", "0.5"]),
        "maxis": rng.choice(["(-2, -1)", "(-1, -2)", "None"]),
        "vaxis": rng.choice(["-1", "-2", "0"]),
        "vaxis2": rng.choice(["-1", "-2", "None", "(-2, -1)"]),
        "keep": bool(rng.rand() < 0.4),
        "assume": rng.choice(["pos", "sym", "her", "gen"]),
        "lower": bool(rng.rand() < 0.5),
        "trans": [0, 1, 2, "N", "T", "C"][rng.randint(6)],
        "itrans": int(rng.randint(0, 3)),
        "unit": bool(rng.rand() < 0.3),
        "permute": bool(rng.rand() < 0.4),
        "side": rng.choice(["right", "left"]),
        "sout": rng.choice(["real", "complex"]),
        "subset": rng.choice(["", ", subset_by_index=(0, 1)", ", subset_by_index=(1, 2)"]),
        "cmode": rng.choice(["full", "valid", "same"]),
    }
    for key in ("qmode", "slqmode", "uplo", "side", "sout", "cmode", "assume"):
        v = fmt[key]
        fmt[key] = int(v) if isinstance(v, (np.integer,)) else str(v)
    if fmt["maxis"] == "None" and batch:
        fmt["maxis"] = "(-2, -1)"
    if name == "norm_vec" and batch and fmt["vaxis"] == "0":
        fmt["vaxis"] = "-1"
    body = src.format(**fmt)
    stacks = ["eval", "jit", "vmap", "vmap_last", "vmap_b"]
    deriv = name not in _NO_DERIV and dt not in ("int32", "bool", "float16")
    if deriv:
        stacks += ["grad", "grad", "jvp", "jvp", "jacfwd", "jacrev", "hessian", "jit_grad"]
    if name in _UNIQUE_ONLY_EVAL:
        stacks = ["eval", "jit", "vmap"]
    stack = rng.choice(stacks)
    if stack == "hessian" and (n > 3 or batch or dt.startswith("complex")):
        stack = "grad"
    if stack in ("jacfwd", "jacrev") and dt.startswith("complex"):
        stack = "jvp"
    tang = (
        _matrix(
            rng,
            "herm" if kind in ("spd", "herm") else "rect",
            batch,
            m,
            n,
            dt.startswith("complex"),
        )
        * 0.1
    )
    lines = [f"a0 = {_arr_text(a, dt)}"]
    lines.append(f"def f(a):\n    return {body}")
    if stack == "eval":
        call = "f(a0)"
    elif stack == "jit":
        call = "jx.jit(f)(a0)"
    elif stack == "vmap":
        call = "jx.vmap(f)(jnp.stack([a0, a0 * 2]))"
    elif stack == "vmap_last":
        call = "jx.vmap(f, in_axes=-1, out_axes=-1)(jnp.stack([a0, a0 * 2], -1))"
    elif stack == "vmap_b":
        call = "jx.vmap(f, in_axes=None, axis_size=2)(a0)"
    elif stack == "grad":
        call = "jx.grad(lambda a: loss(f(a)))(a0)"
    elif stack == "jit_grad":
        call = "jx.jit(jx.grad(lambda a: loss(f(a))))(a0)"
    elif stack == "jvp":
        call = f"jx.jvp(f, (a0,), ({_arr_text(tang, dt)},))"
    elif stack == "jacfwd":
        call = "jx.jacfwd(lambda a: loss(f(a)) * a)(a0)" if rng.rand() < 0.3 else "jx.jacfwd(f)(a0)"
    elif stack == "jacrev":
        call = "jx.jacrev(lambda a: jnp.real(jnp.asarray(jx.tree_util.tree_leaves(f(a))[0])).ravel()[:3])(a0)"
    else:
        call = "jx.hessian(lambda a: loss(f(a)))(a0)"
    head = _HELPERS + _LINALG_HELPERS
    return (
        head
        + "\n".join(lines)
        + f"\ndef run():\n    with jx.enable_x64({x64}):\n        a0 = {_arr_text(a, dt)}\n        return {call}\n"
    )


# -------------------------------------------------------------------------------- nn
_NN_DT = ("float32", "float32", "float16", "bfloat16", "float64", "int32")
_NN = [
    "jx.nn.softmax({x}, axis={axis}{where})",
    "jx.nn.log_softmax({x}, axis={axis}{where})",
    "jx.nn.logsumexp({x}, axis={axis}{bw}{keep}{sign}{where})",
    "jx.scipy.special.logsumexp({x}, axis={axis}{bw}{keep}{sign}{where})",
    "jx.nn.one_hot({idx}, {ncls}{ohdt}{ohaxis})",
    "jx.nn.gelu({x}, approximate={approx})",
    "jx.nn.glu({x}, axis=-1)",
    "jx.nn.standardize({x}, axis={axis}{mean}{var}{eps}{where})",
    "jx.nn.celu({x}, alpha={alpha})",
    "jx.nn.elu({x}, alpha={alpha})",
    "jx.nn.leaky_relu({x}, negative_slope={alpha})",
    "jx.nn.squareplus({x}, b={sqb})",
    "jx.nn.{act}({x})",
]
_ACTS = ("relu", "relu6", "hard_sigmoid", "hard_silu", "hard_swish", "hard_tanh", "sparse_plus",
         "sparse_sigmoid", "log1mexp", "selu", "mish", "silu", "swish", "log_sigmoid", "softplus",
         "sigmoid", "soft_sign", "tanh", "identity", "gelu")  # fmt: skip


def _nn_values(rng, shape, dt, edges):
    pool = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 6.0, -3.0, 2.0, 7.5, -0.25, 1.25]
    if edges:
        pool += [np.inf, -np.inf, np.nan, 30.0, -30.0]
    v = rng.choice(pool, size=shape)
    if dt == "int32":
        v = np.nan_to_num(v, nan=0, posinf=5, neginf=-5).round()
        return f"jnp.asarray(np.array({_lit(v.astype(int))}, dtype='int32'))"
    if dt == "bfloat16":
        return f"jnp.asarray(np.array({_lit(v)}, dtype='float32')).astype('bfloat16')"
    return f"jnp.asarray(np.array({_lit(v)}, dtype={dt!r}))"


def gen_nn(rng):
    dt = _NN_DT[rng.randint(len(_NN_DT))]
    x64 = dt == "float64" or rng.rand() < 0.1
    nd = int(rng.randint(1, 4))
    shape = tuple(int(s) for s in rng.randint(1, 4, size=nd))
    template = _NN[rng.randint(len(_NN))]
    if "glu" in template:
        shape = shape[:-1] + (2 * shape[-1],)
    edges = rng.rand() < 0.3
    c = rng.rand()
    if c < 0.4:
        axis = str(int(rng.randint(-nd, nd)))
    elif c < 0.7 and nd > 1:
        k = int(rng.randint(1, nd + 1))
        ax = [int(a) for a in rng.choice(range(nd), k, replace=False)]
        axis = repr(tuple(a - nd if rng.rand() < 0.5 else a for a in ax))
    elif c < 0.85:
        axis = "None"
    else:
        axis = "-1"
    wshape = shape if rng.rand() < 0.7 else shape[-1:]
    w = rng.rand(*wshape) > 0.35
    if rng.rand() < 0.15:
        w[...] = False
    where = f", where=np.array({_lit(w)})" if rng.rand() < 0.4 else ""
    bvals = np.round(
        rng.choice(
            [1.0, 0.5, -1.0, 0.0, 2.0, -0.5], size=shape if rng.rand() < 0.7 else shape[-1:]
        ),
        2,
    )
    bw = ""
    if rng.rand() < 0.4:
        bw = f", b=np.array({_lit(bvals)}, dtype='float32')" if rng.rand() < 0.5 else ", b=2.0"
    idx = rng.randint(-2, 6, size=shape)
    idx_text = f"np.array({_lit(idx)}, dtype='int32')"
    if rng.rand() < 0.2:
        idx_text = (
            f"np.array({_lit(idx.astype(float) + 0.5 * (rng.rand(*shape) < 0.3))}, dtype='float32')"
        )
    fmt = {
        "x": "x",
        "axis": axis,
        "where": where,
        "bw": bw,
        "keep": ", keepdims=True" if rng.rand() < 0.4 else "",
        "sign": ", return_sign=True" if rng.rand() < 0.4 else "",
        "idx": "i",
        "ncls": int(rng.randint(1, 5)),
        "ohdt": rng.choice(["", ", dtype=jnp.int32", ", dtype=jnp.bool_", ", dtype=jnp.float16"]),
        "ohaxis": rng.choice(["", ", axis=0", ", axis=-2", f", axis={nd}"]),
        "approx": bool(rng.rand() < 0.5),
        "mean": rng.choice(["", ", mean=0.5", ", mean=jnp.mean(x, axis=-1, keepdims=True)"])
        if axis == "-1"
        else "",
        "var": rng.choice(["", ", variance=2.0"]),
        "eps": rng.choice(["", ", epsilon=0.0", ", epsilon=1.0"]),
        "alpha": rng.choice(["1.0", "0.5", "2", "-0.5", "jnp.float32(0.3)"]),
        "sqb": rng.choice(["4", "0", "1.5"]),
        "act": _ACTS[rng.randint(len(_ACTS))],
    }
    body = template.format(**fmt)
    is_oh = "one_hot" in template
    stacks = ["eval", "jit", "vmap", "vmap_last"]
    if dt != "int32" and not is_oh and not edges:
        stacks += ["grad", "grad", "jvp", "jacrev", "hessian", "jit_grad"]
    stack = rng.choice(stacks)
    xs = _nn_values(rng, shape, dt, edges)
    lines = [f"def f(x, i):\n    return {body}"]
    if stack == "eval":
        call = "f(x0, i0)"
    elif stack == "jit":
        call = "jx.jit(f)(x0, i0)"
    elif stack == "vmap":
        call = "jx.vmap(f)(jnp.stack([x0, x0 * 2]), jnp.stack([i0, i0[::-1] if i0.ndim else i0]))"
    elif stack == "vmap_last":
        call = "jx.vmap(f, in_axes=-1, out_axes=-1)(jnp.stack([x0, -x0], -1), jnp.stack([i0, i0 + 1], -1))"
    elif stack == "grad":
        call = "jx.grad(lambda x: loss(f(x, i0)))(x0)"
    elif stack == "jit_grad":
        call = "jx.jit(jx.grad(lambda x: loss(f(x, i0))))(x0)"
    elif stack == "jvp":
        call = "jx.jvp(lambda x: f(x, i0), (x0,), (jnp.ones_like(x0) * 0.5,))"
    elif stack == "jacrev":
        call = "jx.jacrev(lambda x: loss(f(x, i0)) * x)(x0)"
    else:
        if x0_size(shape) > 8:
            call = "jx.grad(lambda x: loss(f(x, i0)))(x0)"
        else:
            call = "jx.hessian(lambda x: loss(f(x, i0)))(x0)"
    return (
        _HELPERS
        + "\n".join(lines)
        + f"\ndef run():\n    with jx.enable_x64({x64}):\n        x0 = {xs}\n        i0 = jnp.asarray({idx_text})\n        return {call}\n"
    )


def x0_size(shape):
    return int(np.prod(shape))


# ------------------------------------------------------------------------------- fft
_FFT_DT = (
    "float32",
    "float32",
    "complex64",
    "complex64",
    "int32",
    "float64",
    "complex128",
    "bool",
    "float16",
)
_FFT1 = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
_FFTN = ("fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn", "rfftn", "irfftn")


def gen_fft(rng):
    dt = _FFT_DT[rng.randint(len(_FFT_DT))]
    x64 = dt in ("float64", "complex128")
    nd = int(rng.randint(1, 4))
    shape = tuple(int(s) for s in rng.randint(1, 6, size=nd))
    v = np.round(rng.uniform(-2, 2, shape), 2)
    if dt.startswith("complex"):
        v = v + 1j * np.round(rng.uniform(-2, 2, shape), 2)
    xs = (
        _arr_text(v, dt)
        if dt not in ("float16",)
        else f"jnp.asarray(np.array({_lit(v)}), dtype='float16')"
    )
    norm = rng.choice(["", ", norm='backward'", ", norm='ortho'", ", norm='forward'"])
    c = rng.rand()
    if c < 0.45:
        fn = _FFT1[rng.randint(len(_FFT1))]
        ax = int(rng.randint(-nd, nd))
        nn = "" if rng.rand() < 0.5 else f", n={int(rng.randint(1, 8))}"
        body = f"jnp.fft.{fn}(x{nn}, axis={ax}{norm})"
    elif c < 0.85:
        fn = _FFTN[rng.randint(len(_FFTN))]
        if fn.endswith("2"):
            axes = rng.choice(["", ", axes=(-2, -1)", ", axes=(-1, -2)", ", axes=(0, -1)"])
            k = 2
        else:
            k = int(rng.randint(1, nd + 1))
            chosen = [int(a) for a in rng.choice(range(nd), k, replace=False)]
            chosen = [a - nd if rng.rand() < 0.5 else a for a in chosen]
            axes = "" if rng.rand() < 0.25 else f", axes={tuple(chosen)!r}"
            if not axes:
                k = nd
        s = ""
        if rng.rand() < 0.4:
            s = f", s={tuple(int(q) for q in rng.randint(1, 7, size=k))!r}"
        body = f"jnp.fft.{fn}(x{s}{axes}{norm})"
    elif c < 0.95:
        fn = rng.choice(["fftshift", "ifftshift"])
        axes = rng.choice(["", ", axes=0", ", axes=-1", f", axes=({-nd}, {nd - 1})"])
        body = f"jnp.fft.{fn}(x{axes})"
    else:
        fn = rng.choice(["fftfreq", "rfftfreq"])
        d = rng.choice(["", ", d=0.5", ", d=2"])
        dty = rng.choice(["", ", dtype=jnp.float16", ", dtype=jnp.complex64"])
        body = f"jnp.fft.{fn}({int(rng.randint(1, 7))}{d}{dty}) + jnp.sum(x) * 0"
    stacks = ["eval", "jit", "vmap", "vmap_last"]
    if dt not in ("int32", "bool", "float16") and "freq" not in body:
        stacks += ["grad", "grad", "jvp", "jacrev", "transpose", "jit_grad"]
    stack = rng.choice(stacks)
    if stack == "jacrev" and dt.startswith("complex"):
        stack = "jvp"
    if stack == "eval":
        call = "f(x0)"
    elif stack == "jit":
        call = "jx.jit(f)(x0)"
    elif stack == "vmap":
        call = "jx.vmap(f)(jnp.stack([x0, x0 * 2]))"
    elif stack == "vmap_last":
        call = "jx.vmap(f, in_axes=-1, out_axes=-1)(jnp.stack([x0, x0 * 3], -1))"
    elif stack == "grad":
        call = "jx.grad(lambda x: loss(f(x)))(x0)"
    elif stack == "jit_grad":
        call = "jx.jit(jx.grad(lambda x: loss(f(x))))(x0)"
    elif stack == "jvp":
        call = "jx.jvp(f, (x0,), (x0 * 0.5 + 1,))"
    elif stack == "jacrev":
        call = "jx.jacrev(lambda x: jnp.real(f(x)).ravel()[:4])(x0)"
    else:
        call = "transpose_of(f, x0)"
    helper = """
def transpose_of(f, x0):
    y = jx.eval_shape(f, x0)
    ct = jnp.cos(jnp.arange(np.prod(y.shape)) * 0.9).reshape(y.shape).astype(y.dtype)
    return jx.linear_transpose(f, x0)(ct)
"""
    return (
        _HELPERS
        + helper
        + f"def f(x):\n    return {body}\n"
        + f"def run():\n    with jx.enable_x64({x64}):\n        x0 = {xs}\n        return {call}\n"
    )


# ----------------------------------------------------------------------------- order
_ORDER = [
    "jnp.sort(x, axis={axis}{desc}{stable})",
    "jnp.argsort(x, axis={axis}{desc}{stable})",
    "jnp.lexsort((x, jnp.round(x)), axis={axis})",
    "lax.top_k(x, {k})",
    "jnp.searchsorted(jnp.sort(x.ravel()), v, side={side!r}, method={method!r})",
    "jnp.partition(x, {kth}, axis=-1)",
    "jnp.argpartition(x, {kth}, axis=-1)",
    "jnp.unique(x.ravel(), size={size}, fill_value={fill}{uret})",
    "jnp.nanargmax(x, axis={axis})",
    "jnp.nanargmin(x, axis={axis}, keepdims=True)",
    "jnp.median(x, axis={axis})",
    "jnp.quantile(x, 0.3, axis={axis}, method={qmethod!r})",
    "jnp.sort_complex(x + 0.5j * jnp.round(x))",
    "lax.sort((x, jnp.round(x)), dimension=-1, num_keys={nkeys}, is_stable=True)",
    "lax.sort_key_val(x, jnp.arange(x.shape[-1]) * jnp.ones_like(x), dimension=-1)",
]


def gen_order(rng):
    dt = rng.choice(["float32", "float32", "float16", "bfloat16", "int32", "uint8", "float64"])
    x64 = dt == "float64"
    nd = int(rng.randint(1, 3))
    shape = tuple(int(q) for q in rng.randint(1, 5, size=nd))
    pool = [0.0, -0.0, 1.0, 1.0, -1.5, 2.0, 2.0, np.nan, np.inf, -np.inf, 0.5]
    if dt in ("int32", "uint8"):
        pool = [0, 1, 1, 3, 2, 2, 7] + ([-2, -2] if dt == "int32" else [])
    v = rng.choice(pool, size=shape)
    if dt == "bfloat16":
        xs = f"jnp.asarray(np.array({_lit(np.asarray(v, float))}, dtype='float32')).astype('bfloat16')"
    else:
        xs = f"jnp.asarray(np.array({_lit(np.asarray(v))}, dtype={dt!r}))"
    template = _ORDER[rng.randint(len(_ORDER))]
    ax = int(rng.randint(-nd, nd))
    body = template.format(
        axis=ax if rng.rand() < 0.8 else "None" if "sort" not in template else -1,
        desc=", descending=True" if rng.rand() < 0.4 else "",
        stable=rng.choice(["", ", stable=True", ", stable=False"]),
        k=int(rng.randint(1, shape[-1] + 1)),
        side=rng.choice(["left", "right"]),
        method=rng.choice(["scan", "scan_unrolled", "sort", "compare_all"]),
        kth=int(rng.randint(0, shape[-1])),
        size=int(rng.randint(1, 6)),
        fill=rng.choice(["None", "0", "-1"]),
        uret=rng.choice(
            ["", ", return_index=True", ", return_inverse=True", ", return_counts=True"]
        ),
        qmethod=rng.choice(["linear", "lower", "higher", "nearest", "midpoint"]),
        nkeys=int(rng.randint(1, 3)),
    )
    if "argsort" in body and "stable=False" in body:
        body = body.replace("stable=False", "stable=True")  # unstable order is unspecified
    vv = rng.choice(pool, size=(3,))
    vs = f"jnp.asarray(np.array({_lit(np.asarray(vv))}, dtype={dt if dt != 'bfloat16' else 'float32'!r}))"
    stacks = ["eval", "jit", "vmap", "vmap_last"]
    inexact = dt not in ("int32", "uint8")
    no_nan = not np.isnan(np.asarray(v, float)).any() and np.isfinite(np.asarray(v, float)).all()
    if (
        inexact
        and no_nan
        and any(
            k in template
            for k in ("jnp.sort(", "top_k", "partition(x", "median", "quantile", "lax.sort(")
        )
    ):
        stacks += ["grad", "jvp"]
    stack = rng.choice(stacks)
    calls = {
        "eval": "f(x0, v0)",
        "jit": "jx.jit(f)(x0, v0)",
        "vmap": "jx.vmap(f)(jnp.stack([x0, x0[::-1] if x0.ndim else x0]), jnp.stack([v0, v0[::-1]]))",
        "vmap_last": "jx.vmap(f, in_axes=(-1, 0), out_axes=-1)(jnp.stack([x0, -x0 if x0.dtype != jnp.uint8 else x0], -1), jnp.stack([v0, v0]))",
        "grad": "jx.grad(lambda x: loss(f(x, v0)))(x0)",
        "jvp": "jx.jvp(lambda x: f(x, v0), (x0,), (jnp.ones_like(x0) * 0.5,))",
    }
    return (
        _HELPERS
        + f"def f(x, v):\n    return {body}\n"
        + f"def run():\n    with jx.enable_x64({x64}):\n        x0 = {xs}\n        v0 = {vs}\n        return {calls[stack]}\n"
    )


GENERATORS = {"linalg": gen_linalg, "nn": gen_nn, "fft": gen_fft, "order": gen_order}


# ------------------------------------------------------------------------- comparison
def _build(src):
    def build(m):
        ns = {"jx": m.jx, "jnp": m.jnp, "lax": m.lax, "np": np}
        exec(src, ns)  # noqa: S102 - the harness runs its own generated test programs
        return ns["run"]()

    return build


# decompositions in float32 agree to a few thousand ulps between LAPACK paths; the nn and
# fft angles' derivatives to a few ulps of the leaf's largest magnitude
_TOLS = {
    "linalg": {"float16": 3e-2, "bfloat16": 3e-2, "float32": 2e-3, "complex64": 2e-3,
               "float64": 1e-9, "complex128": 1e-9},
    "close": {"float16": 3e-3, "bfloat16": 1.6e-2, "float32": 1e-5, "complex64": 1e-5,
              "float64": 1e-12, "complex128": 1e-12},
}  # fmt: skip


def _leaf_difference(i, x, y, tols, signs=True):
    dx, dy = str(x.dtype), str(y.dtype)
    if np.shape(x) != np.shape(y) or dx != dy:
        return f"leaf {i}: {np.shape(x)} {dx} vs jaxlite {np.shape(y)} {dy}"
    if not isinstance(x, np.ndarray) and getattr(x, "weak_type", None) != getattr(
        y, "weak_type", None
    ):
        return f"leaf {i}: weak type {x.weak_type} vs jaxlite {y.weak_type}"
    if isinstance(x, np.ndarray) != isinstance(y, np.ndarray):
        return f"leaf {i}: type {type(x)} vs jaxlite {type(y)}"
    if dx not in tols:
        return fuzz_s21._leaf_difference(i, x, y)
    wide = np.complex128 if np.asarray(x).dtype.kind == "c" else np.float64
    xw = fuzz_s21._flush(np.asarray(x).astype(wide), dx)
    yw = fuzz_s21._flush(np.asarray(y).astype(wide), dx)
    if not np.array_equal(np.isnan(xw), np.isnan(yw)):
        return f"leaf {i}: NaN positions {x!r} vs jaxlite {y!r}"
    fin = np.isfinite(xw)
    inf = ~fin & ~np.isnan(xw)
    if not np.array_equal(xw[inf], yw[inf]) or not np.isfinite(yw[fin]).all():
        return f"leaf {i}: infinities {x!r} vs jaxlite {y!r}"
    tol = tols[dx]
    scale = max(1.0, float(np.max(np.abs(xw[fin]), initial=0.0)))
    if not np.allclose(yw[fin], xw[fin], rtol=tol, atol=tol * scale):
        return f"leaf {i}: values {x!r} vs jaxlite {y!r}"
    if signs and wide is np.float64:  # signs of zeros where both are zero
        z = (xw == 0) & (yw == 0)
        if not np.array_equal(np.signbit(xw[z]), np.signbit(yw[z])):
            return f"leaf {i}: signs of zeros {x!r} vs jaxlite {y!r}"
    return None


def difference(src, tols=None, signs=True):
    """How jaxlite's run of the program differs from JAX's (None when they agree, or
    without JAX). ``tols``: float tolerances per dtype relative to the leaf's largest
    magnitude (``_TOLS``), or None for fuzz_s21's per-element ones; ``signs``: compare the
    signs of zeros (that both give) too."""
    if JAX is None:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kb, b = run(_build(src), LITE)
        ka, a = run(_build(src), JAX)
    if ka != kb:
        return f"raise/no-raise: JAX {ka} {a!r:.300}, jaxlite {kb} {b!r:.300}"
    if ka == "err":
        if builtin_base(a) is not builtin_base(b):
            return f"exception class: JAX {a!r:.300}, jaxlite {b!r:.300}"
        return None
    la, ta = JAX.jx.tree_util.tree_flatten(a)
    lb, tb = LITE.jx.tree_util.tree_flatten(b)
    if len(la) != len(lb):
        return f"structure: {ta} vs {tb}"
    for i, (x, y) in enumerate(zip(la, lb)):
        if type(x) in (int, float, bool, complex) or type(y) in (int, float, bool, complex):
            if type(x) is not type(y):
                return f"leaf {i}: Python type {type(x)} vs {type(y)}"
            if x != y and not (x != x and y != y):
                return f"leaf {i}: Python value {x!r} vs {y!r}"
            continue
        d = _leaf_difference(i, x, y, tols or {}, signs)
        if d:
            return d
    return None


def check(name, seed):
    """(difference or None, program) of one seed of one generator; the generator runs on
    its own ``RandomState(seed)`` (so it also runs without JAX)."""
    src = GENERATORS[name](np.random.RandomState(seed))
    # the signs of zero derivatives are not compared (they follow each library's order of
    # accumulating zero tangents)
    deriv = any(k in src for k in ("jx.grad", "jx.jvp", "jx.hessian", "jx.jac", "transpose_of"))
    tols = _TOLS["linalg" if name == "linalg" else "close"]
    return difference(src, tols, signs=not deriv), src


def hunt(name, seeds):
    """``[(seed, difference, program)]`` for the seeds whose programs disagree."""
    found = []
    for s in seeds:
        d, src = check(name, s)
        if d:
            found.append((s, d, src))
    return found


if __name__ == "__main__":
    name, first, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    for seed in range(first, first + count):  # printed as found (a run may be cut short)
        d, src = check(name, seed)
        if d:
            print(f"--- {name} seed {seed}: {d}\n{src}", flush=True)
    print(f"=== {name} {first}..{first + count - 1} done", flush=True)
