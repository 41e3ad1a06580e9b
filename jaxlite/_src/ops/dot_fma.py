"""``p + alpha * (x @ y)`` rounded once: XLA's contraction of a product's scaled update.

Under ``jit``, XLA:CPU fuses ``p - 0.01 * dot(x, y)`` (an SGD update of a weight by its
gradient) into one loop whose multiply and subtract LLVM contracts into a fused
multiply-add: each element is ``fma(-0.01, g, p)``, one rounding, where eager JAX (and
NumPy) rounds the product and then the difference. ``compile/contract.py`` finds that
pattern in jitted code and replaces it by one ``dot_fma`` equation (compiled code only:
jaxprs users see keep ``dot_general``, ``mul`` and ``sub``).

``dot_fma`` runs as one GEMM of NumPy's own OpenBLAS with ``alpha`` and ``beta = 1`` into a
copy of ``p``: OpenBLAS's kernels add ``alpha * acc`` to ``C`` with one FMA per element
once the whole contraction is in the accumulator (one block of it: contractions no longer
than OpenBLAS's block depth), so the result is ``fma(alpha, x @ y, p)`` with ``x @ y``
NumPy's own product, and the update costs no pass of its own over the weights. Whether a
shape and layout gives exactly those bits (some small-matrix kernels round ``alpha * acc``
first; a contraction longer than the block depth adds ``C`` block by block) is checked
once per shape on random operands (``_probe``); where it does not, and where no such
OpenBLAS is found, the impl computes the product and then ``xla_fma.fma32``: the same
value, more slowly, so the contraction is made there only for small results
(``available``). float32 only (float64 would need the slower exact ``fma64``; it keeps two
roundings, docs/compat.md).
"""

from __future__ import annotations

import ctypes
import os
import time

import numpy as np

from jaxlite._src.core import rules
from jaxlite._src.core.avals import ShapedArray
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.ops import blas_split, elementwise as ew, linalg, xla_fma
from jaxlite._src.ops._factories import defjvp

_F32 = np.dtype(np.float32)
_ROW_MAJOR, _NO_TRANS, _TRANS = 101, 111, 112
# The sgemm entry points of NumPy's bundled OpenBLAS (64-bit integers: the ILP64 builds of
# NumPy's wheels name them with a 64_ suffix) or of an LP64 OpenBLAS.
_SYMBOLS = (
    ("scipy_cblas_sgemm64_", ctypes.c_int64),
    ("cblas_sgemm64_", ctypes.c_int64),
    ("cblas_sgemm", ctypes.c_int),
)

_state: dict = {}  # "lib": (controller, sgemm) or None
_probes: dict = {}  # (m, n, k, ta, tb) -> does the GEMM give fma32's bits


def _sgemm():
    """(threadpoolctl's controller of NumPy's OpenBLAS, its ``cblas_sgemm``), or None."""
    if "lib" in _state:
        return _state["lib"]
    _state["lib"] = None
    blas = blas_split.find_openblas()
    if not blas:
        return None
    try:
        lib = ctypes.CDLL(blas.filepath)
    except OSError:
        return None
    for name, index in _SYMBOLS:
        if index is ctypes.c_int and "64" in os.path.basename(blas.filepath):
            continue  # an ILP64 library under the LP64 name: integer widths unknown
        fn = getattr(lib, name, None)
        if fn is not None:
            fn.restype = None
            fn.argtypes = [ctypes.c_int] * 3 + [index] * 3 + [ctypes.c_float]
            fn.argtypes += [ctypes.c_void_p, index, ctypes.c_void_p, index, ctypes.c_float]
            fn.argtypes += [ctypes.c_void_p, index]
            _state["lib"] = (blas, fn)
            break
    return _state["lib"]


def _operand(a: np.ndarray) -> tuple[np.ndarray, int, int]:
    """``a`` (2-D float32) as a row-major BLAS operand: (array, trans flag, leading dim)."""
    if a.flags.c_contiguous and a.shape[1] > 0:
        return a, _NO_TRANS, max(a.strides[0] // 4, a.shape[1])
    if a.flags.f_contiguous and a.shape[0] > 0:
        return a, _TRANS, max(a.strides[1] // 4, a.shape[0])
    a = np.ascontiguousarray(a)
    return a, _NO_TRANS, a.shape[1]


def _gemm(lib, a, ta, lda, b, tb, ldb, alpha: float, p: np.ndarray, watch: bool = True):
    blas, fn = lib
    m, k = a.shape
    n = b.shape[1]
    out = np.array(p, dtype=_F32, order="C", copy=True)
    # Products run off OpenBLAS's threads for now (a busy core): so does this one.
    allowed = blas.get_num_threads() if blas_split.stalled() else 1
    one = allowed > 1
    if one:
        blas.set_num_threads(1)
    t0 = time.perf_counter()
    try:
        fn(_ROW_MAJOR, ta, tb, m, n, k, alpha, a.ctypes.data, lda, b.ctypes.data, ldb,
           1.0, out.ctypes.data, n)  # fmt: skip
    finally:
        if one:
            blas.set_num_threads(allowed)
    if watch and not one:  # a stall of OpenBLAS's threads here counts as one of a product's
        blas_split.note_call(("dot_fma", m, n, k, ta, tb), time.perf_counter() - t0)
    return out


def _probe(lib, m: int, n: int, k: int, ta: int, tb: int) -> bool:
    """Does OpenBLAS's GEMM with ``beta = 1`` give ``fma32(alpha, a @ b, c)`` for this shape
    and layout? Checked once, on random operands."""
    key = (m, n, k, ta, tb)
    ok = _probes.get(key)
    if ok is None:
        rng = np.random.default_rng(0)
        a = rng.standard_normal((m, k) if ta == _NO_TRANS else (k, m), _F32)
        b = rng.standard_normal((k, n) if tb == _NO_TRANS else (n, k), _F32)
        a = a if ta == _NO_TRANS else a.T
        b = b if tb == _NO_TRANS else b.T
        c = rng.standard_normal((m, n), _F32)
        alpha = np.float32(-0.0123)
        got = _gemm(lib, *_operand(a), *_operand(b), float(alpha), c, watch=False)
        ok = _probes[key] = bool(np.array_equal(got, xla_fma.fma32(alpha, np.matmul(a, b), c)))
    return ok


# Results up to this many elements are contracted even where the GEMM cannot do it: the
# product then ``fma32`` costs little more than NumPy's two passes on so few elements.
SMALL = 1 << 16


def available(m: int, n: int, k: int, x_transposed: bool, y_transposed: bool) -> bool:
    """Is ``dot_fma`` of this shape worth it: one GEMM gives its bits (operands laid out as
    said), or the result is small enough for the product and ``fma32``?"""
    if min(m, n, k) == 0:
        return False
    if m * n <= SMALL:
        return True
    lib = _sgemm()
    if lib is None:
        return False
    ta, tb = (_TRANS if t else _NO_TRANS for t in (x_transposed, y_transposed))
    return _probe(lib, m, n, k, ta, tb)


def _dot_fma_impl(x, y, p, *, dimension_numbers, alpha):
    (xc, yc), _ = dimension_numbers
    xm = x.T if xc[0] == 0 else x  # (m, k)
    ym = y.T if yc[0] == 1 else y  # (k, n)
    lib = _sgemm()
    if lib is not None and min(p.shape) > 0 and xm.shape[1] > 0:
        a, ta, lda = _operand(np.asarray(xm, _F32))
        b, tb, ldb = _operand(np.asarray(ym, _F32))
        if _probe(lib, a.shape[0], b.shape[1], a.shape[1], ta, tb):
            return _gemm(lib, a, ta, lda, b, tb, ldb, alpha, p)
    g = rules.impl_rules[linalg.dot_general_p](
        x, y, dimension_numbers=dimension_numbers, precision=None, preferred_element_type=None
    )
    return xla_fma.fma32(np.float32(alpha), g, np.asarray(p, _F32))


def _dot_fma_abstract_eval(x, y, p, *, dimension_numbers, alpha):
    return ShapedArray(p.shape, _F32)


def _scaled_product(x, y, dimension_numbers, alpha):
    prod = linalg.dot_general_p.bind(
        x, y, dimension_numbers=dimension_numbers, precision=None, preferred_element_type=None
    )
    return ew.mul(prod, np.float32(alpha))


dot_fma_p = Primitive("dot_fma")
rules.impl_rules[dot_fma_p] = _dot_fma_impl
rules.abstract_eval_rules[dot_fma_p] = _dot_fma_abstract_eval
rules.fresh_output.add(dot_fma_p)
# Compiled code is never transformed again; for completeness the rules are those of the
# unfused form (the JVP, linear in each operand) and a loop over the batch (exact).
defjvp(
    dot_fma_p,
    lambda t, x, y, p, **kw: _scaled_product(t, y, **kw),
    lambda t, x, y, p, **kw: _scaled_product(x, t, **kw),
    lambda t, x, y, p, **kw: t,
)
rules.loop_batched.add(dot_fma_p)
