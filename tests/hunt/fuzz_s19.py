"""Session 19 differential hunt generators (test code, not a test module): seeded random
programs over angles the session-16 fuzzer (tests/fuzz) and the session-18 hunt
(tests/hunt/fuzz_s18.py) do not draw, each run under JAX and jaxlite in one process and
compared through tests/hunt/fuzz_s18.difference (exception class, structure, shapes,
dtypes, weak types, values, NaN positions, signs of zeros).

Angles (``GENERATORS``):

* ``x64``: under ``enable_x64``, jnp unary / binary / reduction / cumulative / creation /
  cast / bit-level functions of int64 / uint64 / float64 / complex128 operands and Python
  scalars at the edges of the 64-bit ranges (``2**63 - 1``, ``-2**63``, ``2**64 - 1``,
  ``2**53 + 1``), creation functions' default dtypes, ``jax.random`` samplers with 64-bit
  dtypes and bounds, under eval / jit / vmap / grad.
* ``empty``: size-0 shapes through every reduction, cumulative op, sort / search, set and
  statistics function, with ``axis`` tuples, ``keepdims``, ``where=`` and ``initial=``,
  under eval / jit / vmap (of a size-0 batch too) / grad / jvp.
* ``named``: ``vmap`` with ``axis_name`` (nested, tuples of names, ``spmd_axis_name``)
  around ``psum`` / ``pmean`` / ``pmax`` / ``pmin`` / ``all_gather`` (``axis``,
  ``tiled``) / ``psum_scatter`` / ``ppermute`` / ``all_to_all`` / ``axis_index`` /
  ``pshuffle``, with ``in_axes`` / ``out_axes`` permutations and grad / jvp / jit.
* ``stacks``: small random programs (scan / while / cond / custom_jvp / custom_vjp /
  checkpoint bodies) under stacks of three or four transformations drawn from jit, vmap
  (random axes), grad, jacfwd, jacrev, jvp, linearize, ``closure_convert`` and
  ``eval_shape`` (its ShapeDtypeStructs compared by shape, dtype and weak type).

``python -m tests.hunt.fuzz_s19 NAME FIRST COUNT`` prints each disagreement with its
program. A generated program is source text that the harness executes (``jx``, ``jnp``,
``lax``, ``np`` bound to one library); jaxlite never executes generated text.
"""

# ruff: noqa: E501 (the program tables keep one expression a line)
from __future__ import annotations

import re
import sys

import numpy as np

from tests.hunt import fuzz_s18
from tests.hunt.oracle import JAX, LITE, builtin_base, run

# ------------------------------------------------------------------------------- x64
_D64 = ("float64", "int64", "uint64", "complex128", "int32", "float32", "bool", "uint32", "int8")
_D64 += ("float16", "uint8", "int16", "complex64")
_BIG = (
    "2**63 - 1", "-2**63", "2**53 + 1", "2**40", "-7", "3", "2.5", "1e300", "-0.0", "True",
    "1j", "2**31", "2**32 + 3",
)  # fmt: skip


def _arr64(rng, dt, shape):
    if dt == "bool":
        v = np.asarray(rng.rand(*shape) > 0.5).tolist()
        return f"jnp.array({v!r})"
    if dt in ("int64", "uint64"):
        pool = [0, 1, -1, 7, -9, 2**62, 2**63 - 1, -(2**63), 2**53 + 1, 123456789012]
        if dt == "uint64":
            pool = [0, 1, 7, 2**63, 2**64 - 1, 2**53 + 1, 123456789012, 2**32]
        v = [pool[i] for i in rng.randint(len(pool), size=int(np.prod(shape)))]
        return f"jnp.array(np.array({v!r}, dtype={dt!r}).reshape({shape!r}))"
    if dt.startswith(("int", "uint")):
        v = rng.randint(-5 if dt.startswith("int") else 0, 9, shape).tolist()
        return f"jnp.array({v!r}, dtype={dt!r})"
    pool = [0.0, -0.0, 1.5, -2.25, 1e-300, 1e300, np.inf, -np.inf, np.nan, 0.1, 3.0]
    if dt in ("float16", "float32", "complex64"):
        pool = [0.0, -0.0, 1.5, -2.25, 1e-3, np.inf, np.nan, 0.1, 3.0, 65504.0]
    v = [pool[i] for i in rng.randint(len(pool), size=int(np.prod(shape)))]
    if dt.startswith("complex"):
        w = [pool[i] for i in rng.randint(len(pool), size=len(v))]
        v = [complex(a, b) for a, b in zip(v, w)]
    text = repr(v).replace("nan", "np.nan").replace("inf", "np.inf")
    return f"jnp.array(np.array({text}, dtype={dt!r}).reshape({shape!r}))"


_U64 = (
    "jnp.abs", "jnp.negative", "jnp.sign", "jnp.square", "jnp.sqrt", "jnp.cbrt", "jnp.exp2",
    "jnp.log1p", "jnp.round", "jnp.floor", "jnp.ceil", "jnp.rint", "jnp.trunc", "jnp.fix",
    "jnp.invert", "lax.population_count", "lax.clz", "jnp.reciprocal", "jnp.sinc", "jnp.i0",
    "jnp.deg2rad", "jnp.isfinite", "jnp.isnan", "jnp.signbit", "jnp.positive", "jnp.real",
    "jnp.imag", "jnp.conj", "jnp.angle", "jnp.frexp", "jnp.modf", "jnp.spacing",
    "jnp.nan_to_num", "jnp.log2", "jnp.log10", "jnp.expm1", "jnp.tanh", "jnp.arcsinh",
    "jnp.float_power(x, 2)", "jnp.power(x, 3)", "lax.integer_pow(x, 2)", "x // 3", "x % 3",
    "x >> 3", "x << 2", "x ** 2", "-x", "~x", "x * 2**32", "x + 2**31", "x / 3", "jnp.ldexp(x, 3)",
    "jnp.right_shift(x, 63)", "jnp.left_shift(x, 64)", "jnp.bitwise_count(x)",
    "jnp.astype(x, 'float32')", "jnp.astype(x, 'int64')", "jnp.astype(x, 'uint64')",
    "jnp.astype(x, 'int32')", "jnp.astype(x, 'float64')", "jnp.astype(x, 'complex128')",
    "jnp.astype(x, 'bool')", "jnp.astype(x, 'uint8')", "jnp.astype(x, 'bfloat16')",
    "x.view('float64') if x.dtype.itemsize == 8 else x", "jnp.nextafter(x, 0)",
    "jnp.copysign(x, -1)", "jnp.heaviside(x, 0.5)", "jnp.gcd(x, 6)", "jnp.lcm(x, 4)",
    "jnp.divmod(x, -4)", "jnp.fmod(x, -4)", "jnp.remainder(x, 5)", "jnp.floor_divide(x, -2)",
    "jnp.true_divide(x, 2)", "jnp.hypot(x, 4)", "jnp.arctan2(x, 2)", "jnp.logaddexp(x, 1)",
    "jnp.maximum(x, 2**40)", "jnp.minimum(x, -1)", "jnp.clip(x, -3, 2**33)",
    "jnp.where(x > 0, x, 2**35)", "jnp.isclose(x, 3)", "jnp.equal(x, 2**63 - 1)",
    "jnp.less(x, 2**53 + 1)", "x == 2**53", "jnp.trapezoid(jnp.atleast_1d(x))",
)  # fmt: skip
_R64 = (
    "sum", "prod", "mean", "var", "std", "max", "min", "argmax", "argmin", "cumsum",
    "cumprod", "cummax", "nancumsum", "ptp", "median", "average", "count_nonzero", "any",
    "all", "nanmean", "nansum", "nanprod", "nanvar", "sort", "argsort", "diff", "ediff1d",
    "unique_values", "bincount", "cumulative_sum", "cumulative_prod", "logsumexp",
)  # fmt: skip
_C64 = (
    "jnp.arange(3)", "jnp.arange(2**40, 2**40 + 3)", "jnp.arange(0.5, 3)", "jnp.arange(5, dtype='uint64')",
    "jnp.arange(3, 0, -1.5)", "jnp.linspace(0, 1, 4)", "jnp.linspace(0, 10, 3, dtype=int)",
    "jnp.linspace(2**40, 2**41, 3)", "jnp.logspace(0, 2, 3)", "jnp.geomspace(1, 1000, 4)",
    "jnp.eye(2)", "jnp.eye(2, dtype=int)", "jnp.identity(2, dtype='uint64')", "jnp.full(2, 2**40)",
    "jnp.full(2, 1.5)", "jnp.full(2, 1j)", "jnp.full((2,), True)", "jnp.ones(2)", "jnp.zeros(2, int)",
    "jnp.empty(2)", "jnp.array(2**40)", "jnp.array([1, 2.5])", "jnp.array([True, 2])",
    "jnp.array(2**63 - 1)", "jnp.array(-2**63)", "jnp.asarray(2**53 + 1)", "jnp.array(1e300)",
    "jnp.array([1j, 2])", "jnp.tri(2)", "jnp.tri(2, dtype=int)", "jnp.zeros_like(jnp.arange(2), float)",
    "jnp.full_like(jnp.arange(2.0), 2**40)", "jnp.full_like(jnp.arange(2), 2.7)",
    "jnp.ones_like(jnp.array(True), 'uint64')", "jnp.array(np.uint64(2**64 - 1))",
    "jnp.array(np.float64(0.1)) + 0.2", "jnp.int64(2**62) * 2", "jnp.uint64(2**64 - 1) + 1",
    "jnp.float64(0.1) + np.float32(0.2)", "jnp.iinfo('int64').min", "jnp.finfo(float).eps",
    "jnp.arange(2**31, 2**31 + 2)", "jnp.meshgrid(jnp.arange(2), jnp.arange(2.0))",
    "jnp.indices((2, 2))", "jnp.diag(jnp.arange(3))", "jnp.vander(jnp.arange(3))",
    "jnp.histogram(jnp.arange(5.0), 2)", "jnp.searchsorted(jnp.arange(4), 2)",
    "jnp.argwhere(jnp.arange(3), size=3)", "jnp.nonzero(jnp.arange(3), size=2)",
    "jnp.bincount(jnp.array([0, 2]), length=3)", "jnp.cumsum(jnp.ones(3, bool))",
    "jnp.sum(jnp.ones(3, 'uint8'))", "jnp.mean(jnp.arange(3))", "jnp.prod(jnp.ones(2, 'int8'))",
    "jnp.round(2.5)", "jnp.floor(3)", "jnp.sqrt(4)", "jnp.exp(1)", "jnp.abs(-3)", "jnp.sin(1j)",
    "jnp.packbits(jnp.array([1, 0, 1]))", "jnp.fft.fft(jnp.arange(4.0))", "jnp.fft.fftfreq(4)",
    "jnp.fft.rfft(jnp.arange(4))", "jnp.linalg.norm(jnp.arange(3))", "jnp.trace(jnp.eye(2, dtype=int))",
    "jnp.kron(jnp.arange(2), jnp.arange(2.0))", "jnp.outer(jnp.arange(2), jnp.ones(2, 'uint64'))",
    "jnp.dot(jnp.arange(2), jnp.arange(2))", "jnp.einsum('i,i', jnp.arange(2), jnp.arange(2.0))",
    "jnp.interp(0.5, jnp.arange(2), jnp.arange(2))", "jnp.polyval(jnp.arange(3), 2)",
    "jnp.convolve(jnp.arange(3), jnp.arange(2))", "jnp.corrcoef(jnp.arange(3), jnp.arange(3) ** 2)",
    "jnp.cov(jnp.arange(4))", "jnp.percentile(jnp.arange(5), 30)", "jnp.quantile(jnp.arange(5), 0.3)",
    "jnp.nanpercentile(jnp.arange(5), 30)", "jnp.digitize(jnp.arange(4), jnp.array([1, 2]))",
    "jnp.unravel_index(5, (2, 3))", "jnp.ravel_multi_index((jnp.array(1), jnp.array(2)), (2, 3))",
    "jnp.cumsum(jnp.arange(3), dtype='int32')", "jnp.sum(jnp.arange(3), dtype='uint8')",
    "jnp.astype(jnp.array(2**40), 'int32')", "jnp.astype(jnp.array(-1), 'uint64')",
    "jnp.astype(jnp.array(1e20), 'int64')", "jnp.astype(jnp.array(-1.5), 'uint64')",
    "jnp.astype(jnp.array(2**64 - 1, 'uint64'), 'float32')", "jnp.astype(jnp.array(np.nan), 'int64')",
    "lax.convert_element_type(2**40, 'float32')", "lax.iota('int64', 3)", "lax.full((2,), 2**40)",
    "lax.add(2**40, jnp.int64(1))", "lax.shift_right_logical(jnp.int64(-1), jnp.int64(60))",
    "lax.shift_right_arithmetic(jnp.int64(-8), jnp.int64(70))", "lax.rem(jnp.int64(-7), jnp.int64(2))",
    "lax.div(jnp.int64(-7), jnp.int64(2))", "lax.nextafter(jnp.float64(1), jnp.float64(2))",
    "lax.sort(jnp.array([2**62, -1, 2**53 + 1]))", "lax.top_k(jnp.array([2**62, -1, 2**53 + 1]), 2)",
    "lax.cumsum(jnp.array([2**62, 2**62]))", "lax.reduce_max(jnp.array([2**64 - 1, 3], 'uint64'), (0,))",
    "jnp.max(jnp.array([2**64 - 1, 3], 'uint64'))", "jnp.argmax(jnp.array([2**53 + 1, 2**53]))",
    "jnp.sort(jnp.array([2**53 + 1, 2**53, 2**53 - 1]))", "jnp.unique(jnp.array([2**53 + 1, 2**53]))",
    "jnp.array([2**53 + 1, 2**53]) == 2**53", "jnp.mean(jnp.array([2**62, 2**62]))",
    "jnp.var(jnp.array([2**53 + 1, 2**53]))", "jnp.float32(2**53 + 1) == 2**53",
    "jnp.int64(2**53 + 1).astype(float)", "jnp.uint64(2**63) // 3", "jnp.uint64(2**63) % 10",
    "jnp.uint64(2**63) >> 1", "jnp.int64(-2**63) // -1", "jnp.int64(-2**63) % -1", "jnp.abs(jnp.int64(-2**63))",
    "jnp.uint64(5) - 7", "jnp.int8(100) + 100", "jnp.int64(2**62) + jnp.int64(2**62)",
    "jnp.uint32(1) + jnp.int64(1)", "jnp.uint64(1) + jnp.int64(1)", "jnp.uint64(1) + 1",
    "jnp.uint64(1) + 1.5", "jnp.int64(1) + jnp.float16(1)", "jnp.uint64(3) * jnp.int8(-1)",
    "jnp.power(jnp.int64(3), 40)", "jnp.power(jnp.uint64(2), jnp.uint64(64))", "jnp.power(jnp.int64(-2), 63)",
    "jnp.left_shift(jnp.int64(1), 63)", "jnp.right_shift(jnp.int64(-1), 64)", "jnp.right_shift(jnp.uint64(2**63), 63)",
    "jnp.gcd(jnp.int64(2**62), jnp.int64(2**40))", "jnp.lcm(jnp.int64(2**31), jnp.int64(3))",
    "jnp.round(jnp.float64(2.5e15 + 0.5))", "jnp.round(jnp.int64(123456789), -3)",
    "jnp.round(jnp.float64(1.005), 2)", "jnp.floor_divide(jnp.float64(7), 0.1)",
    "jnp.fmod(jnp.float64(1e300), 3)", "jnp.remainder(jnp.float64(-1e-300), 3)",
    "jnp.sqrt(jnp.float64(2)) ** 2", "jnp.exp(jnp.float64(700))", "jnp.log(jnp.float64(1e-310))",
    "jnp.expm1(jnp.float64(1e-17))", "jnp.log1p(jnp.float64(1e-17))", "jnp.sinc(jnp.float64(1e-9))",
    "jnp.cos(jnp.float64(1e22))", "jnp.tan(jnp.float64(1e15))", "jnp.arctanh(jnp.float64(1 - 1e-16))",
    "jnp.cbrt(jnp.float64(-27))", "jnp.exp2(jnp.float64(-1074))", "jnp.ldexp(jnp.float64(1), -1075)",
    "jnp.frexp(jnp.float64(1e-310))", "jnp.spacing(jnp.float64(1))", "jnp.nextafter(jnp.float64(0), -1)",
    "jnp.i0(jnp.float64(700))", "jnp.sinh(jnp.float64(710))", "jnp.cosh(jnp.float64(-710))",
    "jnp.logaddexp(jnp.float64(-1e308), -1e308)", "jnp.logaddexp2(jnp.float64(1000), 1000)",
    "jnp.hypot(jnp.float64(1e300), 1e300)", "jnp.abs(jnp.complex128(1e300 + 1e300j))",
    "jnp.sqrt(jnp.complex128(-1e-310 + 0j))", "jnp.log(jnp.complex128(1e300 + 1e300j))",
    "jnp.exp(jnp.complex128(710 + 1j))", "jnp.arcsin(jnp.complex128(2 + 0j))", "jnp.tanh(jnp.complex128(400 + 1j))",
    "1 / jnp.complex128(1e-310 + 1e-310j)", "jnp.complex128(1e308 + 1e308j) * 10",
    "jnp.reciprocal(jnp.complex128(1e300 + 1e300j))", "jnp.power(jnp.complex128(2j), 0.5)",
    "jnp.sign(jnp.complex128(3 + 4j))", "jnp.float64(1e-320) * 1", "jnp.float64(5e-324) / 2",
    "jnp.astype(jnp.float64(1e-40), 'float32')", "jnp.astype(jnp.float64(3.4028235e38 * 1.0000001), 'float32')",
    "jnp.astype(jnp.float64(65520), 'float16')", "jnp.astype(jnp.float64(2**24 + 1), 'float32')",
    "jnp.astype(jnp.int64(2**24 + 1), 'float32')", "jnp.astype(jnp.uint64(2**64 - 1), 'float64')",
    "jnp.astype(jnp.float64(2**63), 'int64')", "jnp.astype(jnp.float64(-1), 'uint32')",
    "jnp.astype(jnp.float64(1e10), 'int8')", "jnp.astype(jnp.float64(300.7), 'uint8')",
    "jnp.astype(jnp.complex128(1 + 2j), 'float64')", "jnp.astype(jnp.complex128(1 + 2j), 'int64')",
    "jnp.astype(jnp.int64(-2**63), 'float16')", "jnp.astype(jnp.float64(np.inf), 'int32')",
)  # fmt: skip
_R64_AX = {"sort", "argsort", "cumsum", "cumprod", "cummax", "nancumsum", "argmax", "argmin",
           "diff", "cumulative_sum", "cumulative_prod"}  # fmt: skip
_R64_NOAX = {"ediff1d", "unique_values", "bincount"}


def _red64(rng, nd):
    r = _R64[rng.randint(len(_R64))]
    fn = "jx.scipy.special.logsumexp" if r == "logsumexp" else f"jnp.{r}"
    kw = []
    if r in _R64_NOAX:
        if r == "bincount":
            return "jnp.bincount(jnp.abs(x.ravel()).astype(int) % 5, length=5)"
        return f"{fn}(x.ravel())"
    if r in ("cumulative_sum", "cumulative_prod") and nd != 1:
        kw.append(f"axis={rng.randint(-nd, nd)}")
    elif r in _R64_AX:
        if rng.rand() < 0.7:
            kw.append(f"axis={rng.randint(-nd, nd)}")
    else:
        c = rng.rand()
        if c < 0.4:
            kw.append(f"axis={rng.randint(-nd, nd)}")
        elif c < 0.6:
            k = rng.randint(1, nd + 1)
            kw.append(f"axis={tuple(int(a) for a in rng.choice(range(-nd, 0), k, replace=False))}")
        if rng.rand() < 0.3:
            kw.append("keepdims=True")
        if r in ("sum", "prod", "mean", "cumsum", "var", "nansum") and rng.rand() < 0.3:
            dts = ("'int32'", "'uint64'", "'float32'", "'int64'", "'complex128'", "'float64'")
            kw.append(f"dtype={rng.choice(dts)}")
    return f"{fn}(x, {', '.join(kw)})"


_W64 = {
    "eval": "f(x0)",
    "jit": "jx.jit(f)(x0)",
    "vmap": "jx.vmap(f)(jnp.stack([x0, x0[::-1]]))",
    "vmap_last": "jx.vmap(f, in_axes=-1, out_axes=-1)(jnp.stack([x0, x0], -1))",
    "grad": "jx.grad(lambda x: jnp.sum(jnp.real(jnp.asarray(jx.tree_util.tree_leaves(f(x))[0]))"
    ".astype(x.dtype if jnp.issubdtype(x.dtype, jnp.floating) else 'float64')))(x0)",
    "jvp": "jx.jvp(f, (x0,), (jnp.ones_like(x0),))",
    "eval_shape": "jx.eval_shape(f, x0)",
}
_RAND64 = (
    "jx.random.randint(k, (3,), -2**40, 2**40, dtype='int64')",
    "jx.random.randint(k, (3,), 0, 2**64 - 1, dtype='uint64')",
    "jx.random.randint(k, (3,), -2**63, 2**63 - 1, dtype='int64')",
    "jx.random.randint(k, (4,), 2**33, 2**33 + 5)",
    "jx.random.randint(k, (4,), 0, 10, dtype='uint8')",
    "jx.random.uniform(k, (3,), dtype='float64')",
    "jx.random.uniform(k, (3,), minval=-1e300, maxval=1e300)",
    "jx.random.uniform(k, (3,), minval=jnp.float64(2), maxval=3)",
    "jx.random.normal(k, (3,))", "jx.random.normal(k, (2,), dtype='complex128')",
    "jx.random.bits(k, (3,), dtype='uint64')", "jx.random.bits(k, (3,))",
    "jx.random.bernoulli(k, jnp.float64(0.3), (4,))", "jx.random.exponential(k, (3,))",
    "jx.random.gumbel(k, (3,))", "jx.random.laplace(k, (3,))", "jx.random.logistic(k, (3,))",
    "jx.random.truncated_normal(k, -1.0, 2.0, (3,))", "jx.random.cauchy(k, (3,))",
    "jx.random.choice(k, 5, (3,))", "jx.random.choice(k, jnp.arange(2**40, 2**40 + 5), (3,))",
    "jx.random.permutation(k, 5)", "jx.random.categorical(k, jnp.zeros(4))",
    "jx.random.gamma(k, 2.0, (3,))", "jx.random.beta(k, 2.0, 3.0, (2,))",
    "jx.random.dirichlet(k, jnp.ones(3))", "jx.random.poisson(k, 3.0, (3,))",
    "jx.random.poisson(k, 3.0, (3,), dtype='int64')", "jx.random.t(k, 3.0, (2,))",
    "jx.random.chisquare(k, 3.0, (2,))", "jx.random.rademacher(k, (3,))",
    "jx.random.rademacher(k, (3,), dtype='int64')", "jx.random.geometric(k, 0.3, (3,))",
    "jx.random.geometric(k, 0.3, (3,), dtype='int64')", "jx.random.split(k, 2)",
    "jx.random.key_data(jx.random.fold_in(k, 2**40))", "jx.random.key_data(jx.random.split(k))",
    "jx.random.randint(jx.random.PRNGKey(2**40 + 3), (2,), 0, 100)",
    "jx.random.uniform(jx.random.PRNGKey(-5), (2,))", "jx.random.ball(k, 3)",
    "jx.random.orthogonal(k, 2)", "jx.random.multivariate_normal(k, jnp.zeros(2), jnp.eye(2))",
    "jx.random.loggamma(k, 0.5, (2,))", "jx.random.binomial(k, 10, 0.3, (3,))",
    "jx.random.double_sided_maxwell(k, 0.0, 1.0, (2,))", "jx.random.weibull_min(k, 1.0, 2.0, (2,))",
    "jx.random.pareto(k, 3.0, (2,))", "jx.random.lognormal(k, 0.5, (2,))",
    "jx.random.maxwell(k, (2,))", "jx.random.rayleigh(k, 2.0, (2,))",
    "jx.random.triangular(k, 0.0, 0.5, 1.0, (2,))", "jx.random.wald(k, 1.0, (2,))",
    "jx.random.generalized_normal(k, 1.5, (2,))", "jx.random.multinomial(k, 10, jnp.ones(3) / 3)",
)  # fmt: skip


def gen_x64(rng):
    kind = rng.choice(["unary", "reduce", "const", "random"], p=[0.35, 0.25, 0.3, 0.1])
    if kind == "const":
        expr = _C64[rng.randint(len(_C64))]
        stack = rng.choice(["eval", "jit"])
        body = f"    r = {expr}\n" if stack == "eval" else f"    r = jx.jit(lambda: {expr})()\n"
        return _x64_wrap(body)
    if kind == "random":
        expr = _RAND64[rng.randint(len(_RAND64))]
        k = rng.choice(["jx.random.PRNGKey(3)", "jx.random.key(3)", "jx.random.key(7, impl='rbg')"])
        stack = rng.choice(["eval", "jit", "vmap"])
        if stack == "eval":
            call = f"(lambda k: {expr})({k})"
        elif stack == "jit":
            call = f"jx.jit(lambda k: {expr})({k})"
        else:
            call = f"jx.vmap(lambda k: {expr})(jx.random.split({k}, 2))"
        if "key_data" not in expr and "split" not in expr:
            return _x64_wrap(f"    r = {call}\n")
        return _x64_wrap(f"    r = {call}\n")
    dt = _D64[rng.randint(len(_D64))]
    shape = ((), (3,), (2, 2), (1, 3))[rng.randint(4)]
    x = _arr64(rng, dt, shape)
    if kind == "unary":
        op = _U64[rng.randint(len(_U64))]
        body = op if re.search(r"\bx\b", op) else f"{op}(x)"
    else:
        body = _red64(rng, max(len(shape), 1))
        if not shape:
            x = f"jnp.atleast_1d({x})"
    stack = rng.choice(list(_W64))
    if stack in ("vmap", "vmap_last") and not shape:
        stack = "jit"
    return _x64_wrap(f"    x0 = {x}\n    def f(x):\n        return {body}\n    r = {_W64[stack]}\n")


def _x64_wrap(body):
    return (
        "def run():\n    with jx.enable_x64(True):\n"
        + "".join("    " + line + "\n" for line in body.rstrip("\n").split("\n"))
        + "        return jx.tree_util.tree_map(_leaf, r)\n"
    )


# ----------------------------------------------------------------------------- empty
_EMPTY_SHAPES = ((0,), (0, 3), (3, 0), (2, 0, 2), (0, 0), (1, 0))
_ERED = (
    "sum prod max min mean var std any all argmax argmin nanmax nanmin nansum nanmean nanvar "
    "nanstd nanprod nanargmin logsumexp cumsum cumprod cummax cummin nancumsum nancumprod "
    "sort argsort count_nonzero ptp median nanmedian average percentile quantile "
    "nanpercentile unique_values diff ediff1d trapezoid cumulative_sum searchsorted "
    "lexsort partition argpartition cov corrcoef histogram bincount amax amin flatnonzero "
    "argwhere nonzero norm einsum_sum matmul dot tensordot kron outer inner vdot cross "
    "convolve correlate polyval polyfit_skip trace diagonal tri_u tril flip roll rot90 "
    "concatenate stack take take_along_axis repeat tile pad clip round where select "
    "sort_complex msort argsort_desc top_k cumlogsumexp reduce_window segment_sum"
).split()
_EAX = {"cumsum", "cumprod", "cummax", "cummin", "nancumsum", "nancumprod", "sort", "argsort",
        "argmax", "argmin", "nanargmin", "diff", "cumulative_sum", "flip", "roll"}  # fmt: skip
_EWHERE = {"sum", "prod", "max", "min", "mean", "var", "std", "any", "all", "nansum", "nanmean",
           "nanmax", "nanmin", "count_nonzero", "nanvar", "nanprod", "logsumexp", "nanstd"}  # fmt: skip
_EINIT = {"sum", "prod", "max", "min", "nanmax", "nanmin", "nansum", "nanprod", "amax", "amin"}


def _empty_expr(rng, r, nd, shape):
    def ax():
        return rng.randint(-nd, nd)

    special = {
        "einsum_sum": "jnp.einsum('...->', x)",
        "matmul": "jnp.matmul(_mat(x), _mat(x).T)",
        "dot": "jnp.dot(x.ravel(), x.ravel())",
        "tensordot": f"jnp.tensordot(x, x, axes={nd})",
        "kron": "jnp.kron(x, jnp.ones(2))",
        "outer": "jnp.outer(x, jnp.arange(2.0))",
        "inner": "jnp.inner(x, x)",
        "vdot": "jnp.vdot(x, x)",
        "cross": "jnp.cross(jnp.zeros((0, 3)), jnp.zeros((0, 3)))",
        "convolve": "jnp.convolve(x.ravel(), jnp.ones(2))",
        "correlate": "jnp.correlate(jnp.ones(2), x.ravel(), mode='full')",
        "polyval": "jnp.polyval(x.ravel(), 2.0)",
        "polyfit_skip": "jnp.polyval(jnp.ones(2), x)",
        "trace": "jnp.trace(_mat(x))",
        "diagonal": "jnp.diagonal(_mat(x))",
        "tri_u": "jnp.triu(_mat(x))",
        "tril": "jnp.tril(x.reshape(-1, 2 if x.size else 0), k=1) if x.ndim else x",
        "rot90": "jnp.rot90(_mat(x))",
        "concatenate": "jnp.concatenate([x, x], axis=0)",
        "stack": f"jnp.stack([x, x], axis={rng.randint(-nd - 1, nd + 1)})",
        "take": f"jnp.take(x, jnp.array([0, -1]), axis={ax()}, mode='fill')",
        "take_along_axis": "jnp.take_along_axis(x, jnp.zeros(x.shape, int), axis=0)",
        "repeat": f"jnp.repeat(x, 2, axis={ax()})",
        "tile": "jnp.tile(x, 2)",
        "pad": "jnp.pad(x, 1)",
        "clip": "jnp.clip(x, 0.0, 1.0)",
        "round": "jnp.round(x, 2)",
        "where": "jnp.where(x > 0)[0]",
        "select": "jnp.select([x > 0, x < 0], [x, -x], 7.0)",
        "sort_complex": "jnp.sort_complex(x.ravel())",
        "msort": "jnp.sort(x, axis=0)",
        "argsort_desc": f"jnp.argsort(x, axis={ax()}, descending=True)",
        "top_k": "lax.top_k(x, 0)",
        "cumlogsumexp": f"lax.cumlogsumexp(x, axis={rng.randint(nd)})",
        "reduce_window": f"lax.reduce_window(x, 0.0, lax.add, {(1,) * nd}, {(1,) * nd}, 'VALID')",
        "segment_sum": "jx.ops.segment_sum(x.ravel(), jnp.zeros(x.size, int), num_segments=2)",
        "searchsorted": "jnp.searchsorted(x.ravel(), jnp.array([0.5, -1.0]))",
        "lexsort": "jnp.lexsort([x.ravel(), x.ravel()])",
        "partition": "jnp.partition(x.reshape(2, 0) if x.size == 0 else x, 0)",
        "argpartition": "jnp.argpartition(jnp.zeros((2, 0)), 0, axis=0)",
        "cov": "jnp.cov(_mat(x))",
        "corrcoef": "jnp.corrcoef(_mat(x))",
        "histogram": "jnp.histogram(x.ravel(), 3, range=(0.0, 1.0))",
        "bincount": "jnp.bincount(x.ravel().astype(int), length=3)",
        "flatnonzero": "jnp.flatnonzero(x, size=2, fill_value=-1)",
        "argwhere": "jnp.argwhere(x, size=2)",
        "nonzero": "jnp.nonzero(x, size=1)",
        "norm": f"jnp.linalg.norm(x, ord={rng.choice(['None', '1', '2', 'np.inf', '-np.inf', '0'])}"
        f", axis={ax()})",
        "percentile": f"jnp.percentile(x, 30.0, axis={ax()})",
        "quantile": f"jnp.quantile(x, jnp.array([0.25, 0.5]), axis={ax()})",
        "nanpercentile": f"jnp.nanpercentile(x, 30.0, axis={ax()})",
        "unique_values": "jnp.unique_values(x)",
        "ediff1d": "jnp.ediff1d(x, to_end=jnp.array([1.0]))",
        "trapezoid": f"jnp.trapezoid(x, axis={ax()})",
        "cumulative_sum": f"jnp.cumulative_sum(x, axis={ax()}, include_initial=True)",
    }
    if r in special:
        return special[r]
    kw = []
    if r in _EAX:
        kw.append(f"axis={ax()}")
    else:
        c = rng.rand()
        if c < 0.35:
            kw.append(f"axis={ax()}")
        elif c < 0.6:
            k = rng.randint(1, nd + 1)
            kw.append(f"axis={tuple(int(a) for a in rng.choice(range(-nd, 0), k, replace=False))}")
        if rng.rand() < 0.3:
            kw.append("keepdims=True")
        if r in _EWHERE and rng.rand() < 0.4:
            kw.append("where=w")
        if r in _EINIT and rng.rand() < 0.5:
            kw.append(f"initial={rng.choice(['0.0', '-1', '2.5', 'jnp.float32(3)'])}")
        if r in ("var", "std", "nanvar", "nanstd") and rng.rand() < 0.4:
            kw.append(f"ddof={rng.randint(0, 2)}")
    fn = "jx.scipy.special.logsumexp" if r == "logsumexp" else f"jnp.{r}"
    return f"{fn}(x, {', '.join(kw)})"


_EWRAP = {
    "eval": "f(x0)",
    "jit": "jx.jit(f)(x0)",
    "vmap": "jx.vmap(f)(jnp.stack([x0, x0 + 1]))",
    "vmap0": "jx.vmap(f)(jnp.zeros((0,) + x0.shape, x0.dtype))",
    "vmap_last": "jx.vmap(f, in_axes=-1, out_axes=-1)(jnp.stack([x0, x0], -1))",
    "grad": "jx.grad(lambda x: jnp.sum(jnp.real(jnp.asarray(jx.tree_util.tree_leaves(f(x))[0]))"
    ".astype(jnp.float32)))(x0)",
    "jvp": "jx.jvp(f, (x0,), (jnp.ones_like(x0),))",
    "jacrev": "jx.jacrev(f)(x0)",
    "eval_shape": "jx.eval_shape(f, x0)",
}


_MAT = "def _mat(x):\n    return x.reshape(x.shape[0], int(np.prod(x.shape[1:])))\n"


def gen_empty(rng):
    shape = _EMPTY_SHAPES[rng.randint(len(_EMPTY_SHAPES))]
    if rng.rand() < 0.15:  # a non-empty operand with an empty where= mask-free reduction
        shape = (2, 0, 3)
    dt = rng.choice(["float32", "float32", "int32", "bool", "complex64", "float16", "uint8"])
    r = _ERED[rng.randint(len(_ERED))]
    nd = len(shape)
    expr = _empty_expr(rng, r, nd, shape)
    stack = rng.choice(list(_EWRAP))
    if stack in ("grad", "jvp", "jacrev") and dt not in ("float32", "float16", "complex64"):
        dt = "float32"
    if stack == "grad" and dt == "complex64":
        dt = "float32"
    w = (rng.rand(*shape) > 0.5).tolist()
    return (
        _MAT + f"w = np.array({w!r}, dtype=bool).reshape({shape!r})\n"
        f"x0 = jnp.zeros({shape!r}, {dt!r})\n"
        f"def f(x):\n    return {expr}\n"
        f"def run():\n    r = {_EWRAP[stack]}\n    return jx.tree_util.tree_map(_leaf, r)\n"
    )


# ----------------------------------------------------------------------------- named
_COLL = (
    "lax.psum(x, {n})", "lax.pmean(x, {n})", "lax.pmax(x, {n})", "lax.pmin(x, {n})",
    "x * lax.axis_index({n})", "x - lax.pmean(x, {n})", "jx.nn.softmax(x) * lax.psum(1, {n})",
    "lax.psum((x, 2 * x), {n})", "lax.pmax(x, {n}) - lax.pmin(x, {n})",
    "lax.psum(jnp.sum(x), {n})", "lax.axis_size({n}) * x", "lax.psum(x.astype(jnp.int32), {n})",
    "lax.pmax(x > 0, {n})", "jnp.where(lax.axis_index({n}) % 2 == 0, x, lax.psum(x, {n}))",
    "lax.pmean(jnp.sin(x), {n}) * x", "lax.psum(x ** 2, {n}) ** 0.5",
)  # fmt: skip
# collectives of one axis whose axis size must be 2 (every mapped size is 2 here)
_COLL1 = (
    "lax.all_gather(x, {n})", "lax.all_gather(x, {n}, axis=1)", "lax.all_gather(x, {n}, tiled=True)",
    "lax.all_gather(x, {n}, axis=-1, tiled=True)", "lax.psum_scatter(x, {n})",
    "lax.psum_scatter(x, {n}, tiled=True)", "lax.psum_scatter(x, {n}, scatter_dimension=1)",
    "lax.ppermute(x, {n}, [(0, 1), (1, 0)])", "lax.ppermute(x, {n}, [(0, 1)])",
    "lax.all_to_all(x, {n}, 0, 0)", "lax.all_to_all(x, {n}, 0, 1)",
    "lax.all_to_all(x, {n}, 1, 0, tiled=True)", "lax.pshuffle(x, {n}, [1, 0])",
    "lax.all_gather(x, {n}, axis=0, tiled=True) * 2", "lax.psum_scatter(x * 3, {n}, tiled=True)",
)  # fmt: skip
_NONDIFF = ("pmax", "pmin", "ppermute(x, {n}, [(0, 1)])")


def gen_named(rng):
    nested = rng.rand() < 0.5
    if rng.rand() < 0.45:
        coll = _COLL1[rng.randint(len(_COLL1))]
        which = rng.choice(["'i'", "'j'"]) if nested else "'i'"
    else:
        coll = _COLL[rng.randint(len(_COLL))]
        which = rng.choice(["'i'", "'j'", "('i', 'j')", "('j', 'i')"]) if nested else "'i'"
    expr = coll.replace("{n}", which)
    in_ax = rng.choice(["0", "1", "-1"])
    out_ax = rng.choice(["0", "1", "-1"])
    base = "jnp.arange(16.0).reshape(2, 2, 2, 2) * 0.5 - 3.0"
    spmd = ", spmd_axis_name='s'" if rng.rand() < 0.2 else ""
    inner = f"jx.vmap(f, axis_name='i', in_axes={in_ax}, out_axes={out_ax})"
    if nested:
        inner = f"jx.vmap({inner}, axis_name='j', in_axes={rng.choice(['0', '1', '-1'])}{spmd})"
    stacks = ["eval", "jit", "vmap_out", "eval_shape"]
    if not any(k in coll for k in _NONDIFF):
        stacks += ["grad", "jvp", "jacfwd", "jacrev", "jit_grad"]
    stack = rng.choice(stacks)
    lossf = f"jnp.sum(jnp.sin(jx.tree_util.tree_leaves({inner}(x))[0].astype(jnp.float32)))"
    call = {
        "eval": f"{inner}(x0)",
        "jit": f"jx.jit({inner})(x0)",
        "grad": f"jx.grad(lambda x: {lossf})(x0)",
        "jit_grad": f"jx.jit(jx.grad(lambda x: {lossf}))(x0)",
        "jvp": f"jx.jvp({inner}, (x0,), (jnp.cos(x0),))",
        "vmap_out": f"jx.vmap({inner}, axis_name='k')(jnp.stack([x0, -x0]))",
        "jacfwd": f"jx.jacfwd(lambda x: jx.tree_util.tree_leaves({inner}(x))[0])(x0[..., :1])",
        "jacrev": f"jx.jacrev(lambda x: jx.tree_util.tree_leaves({inner}(x))[0])(x0[..., :1])",
        "eval_shape": f"jx.eval_shape({inner}, x0)",
    }[stack]
    return (
        f"x0 = {base}\n"
        f"def f(x):\n    return {expr}\n"
        f"def run():\n    r = {call}\n    return jx.tree_util.tree_map(_leaf, r)\n"
    )


# ---------------------------------------------------------------------------- stacks
_SBODIES = fuzz_s18._BODIES
_SINNER = (
    "jx.jit({f})",
    "jx.vmap({f}, in_axes=({a}, None))",
    "jx.grad(lambda x, y: scal({f}(x, y)))",
    "(lambda x, y: jx.jacfwd({f})(x, y))",
    "(lambda x, y: jx.jacrev({f})(x, y))",
    "(lambda x, y: jx.jvp(lambda u: {f}(u, y), (x,), (jnp.cos(x),))[1])",
    "(lambda x, y: jx.linearize(lambda u: {f}(u, y), x)[1](jnp.sin(x)))",
    "jx.checkpoint({f})",
    "(lambda x, y: (lambda cc: cc[0](x, *cc[1]))(jx.closure_convert(lambda u: {f}(u, y), x)))",
    "(lambda x, y: jx.vjp(lambda u: {f}(u, y), x)[1](ones_like_tree({f}(x, y)))[0])",
    "jx.remat({f}, prevent_cse=False)",
    "(lambda x, y: jx.hessian(lambda u: scal({f}(u, y)))(x))",
)  # fmt: skip


def gen_stacks(rng):
    body = _SBODIES[rng.randint(len(_SBODIES))]
    src = fuzz_s18._HELPERS + f"def f0(x, y):\n    return ({body})\n"
    name, axes = "f0", []
    for i in range(rng.randint(2, 4)):
        t = _SINNER[rng.randint(len(_SINNER))]
        a = 0
        if "vmap" in t:
            a = int(rng.choice([0, -1, 1])) if not axes else 0
            axes.append(a)
        src += f"f{i + 1} = {t.format(f=name, a=a)}\n"
        name = f"f{i + 1}"
    # x gets one batch axis per vmap layer (the outermost layer's axis is added last)
    call = f"jx.eval_shape({name}, x, Y)" if rng.rand() < 0.2 else f"{name}(x, Y)"
    return src + (
        f"def run():\n    x = X\n    for ax in {axes[::-1]!r}:\n"
        "        x = jnp.stack([x, x * 0.5 - 0.1], axis=ax)\n"
        f"    r = {call}\n    return jx.tree_util.tree_map(_leaf, r)\n"
    )


GENERATORS = {"x64": gen_x64, "empty": gen_empty, "named": gen_named, "stacks": gen_stacks}


# ------------------------------------------------------------------------- comparison
def _leaf_of(m):
    def leaf(a):
        if isinstance(a, (int, float, complex, bool)):
            return np.asarray(a)
        if type(a).__name__ == "PRNGKeyArray":
            return m.jx.random.key_data(a)
        if type(a).__name__ == "ShapeDtypeStruct":
            return (tuple(a.shape), str(a.dtype), bool(getattr(a, "weak_type", False)))
        return a

    return leaf


def _build(src):
    def build(m):
        ns = {"jx": m.jx, "jnp": m.jnp, "lax": m.lax, "np": np, "_leaf": _leaf_of(m)}
        exec(src, ns)  # noqa: S102 - the harness runs its own generated test programs
        return ns["run"]()

    return build


def difference(src):
    """How jaxlite's run of the program differs from JAX's (None when they agree, or
    without JAX), as fuzz_s18.difference; the program may call ``_leaf`` (Python scalars
    to NumPy, ShapeDtypeStructs to a (shape, dtype, weak type) tuple)."""
    if JAX is None:
        return None
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
        scalars = (int, float, bool, complex, str)
        if type(x) in scalars or type(y) in scalars:
            if type(x) is not type(y) or x != y:
                return f"leaf {i}: {x!r} vs {y!r}"
            continue
        d = fuzz_s18._leaf_difference(i, x, y)
        if d:
            return d
    return None


def hunt(name, seeds):
    """``[(seed, difference, program)]`` for the seeds whose programs disagree."""
    gen = GENERATORS[name]
    found = []
    for s in seeds:
        src = gen(np.random.RandomState(s))
        d = difference(src)
        if d:
            found.append((s, d, src))
    return found


if __name__ == "__main__":
    import warnings

    warnings.filterwarnings("ignore")
    name, first, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    for seed, d, src in hunt(name, range(first, first + count)):
        print(f"--- {name} seed {seed}: {d}\n{src}")
