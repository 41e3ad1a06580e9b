"""Differential test: a corpus of small programs built from jax.numpy / lax / nn /
scipy.special, run on random inputs under real JAX and under jaxlite (eagerly and under
``jit``); values, shapes and dtypes must agree.

The corpus has hand-written programs (realistic snippets: losses, normalisations, attention,
pooling, sorting-based selection, scatter updates...) plus generated compositions
(reduction of an elementwise function; binary function of two transformed operands).
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.nn  # noqa: E402,F401
import jax.numpy  # noqa: E402,F401
import jax.scipy.special  # noqa: E402,F401

import jaxlite  # noqa: E402
import jaxlite.nn  # noqa: E402,F401
import jaxlite.numpy  # noqa: E402,F401
import jaxlite.scipy.special  # noqa: E402,F401

jax.config.update("jax_platforms", "cpu")


class _NS:
    def __init__(self, root):
        self.root = root
        self.jnp = root.numpy
        self.lax = root.lax
        self.nn = root.nn
        self.special = root.scipy.special
        self.linalg = root.numpy.linalg


LITE = _NS(jaxlite)
JAX = _NS(jax)

F = "float32"
I = "int32"  # noqa: E741
B = "bool"


def _draw(spec, rng):
    shape, dtype = spec[0], spec[1]
    lo, hi = (spec[2], spec[3]) if len(spec) > 2 else (-2.0, 2.0)
    if dtype == B:
        return rng.random(shape) < 0.5
    if dtype in (I, "int8", "uint8"):
        return rng.integers(int(lo), int(hi), size=shape).astype(dtype)
    if dtype == "spd":
        n = shape[-1]
        m = rng.uniform(-1, 1, size=shape)
        return (m @ np.swapaxes(m, -1, -2) + n * np.eye(n)).astype(F)
    return rng.uniform(lo, hi, size=shape).astype(dtype)


PROGRAMS: list = []  # (name, fn(m) -> callable, input specs, rtol)


def prog(name, specs, rtol=2e-5):
    def deco(f):
        PROGRAMS.append((name, f, specs, rtol))
        return f

    return deco


# ------------------------------------------------------------------ hand-written corpus
@prog("softmax_xent", [((4, 5), F), ((4,), I, 0, 5)])
def _(m):
    def f(logits, labels):
        logp = m.nn.log_softmax(logits)
        return -m.jnp.mean(m.jnp.take_along_axis(logp, labels[:, None], axis=1))

    return f


@prog("layer_norm", [((3, 8), F), ((8,), F), ((8,), F)])
def _(m):
    def f(x, g, b):
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / m.jnp.sqrt(var + 1e-5) * g + b

    return f


@prog("mlp", [((4, 6), F), ((6, 8), F), ((8,), F), ((8, 3), F)])
def _(m):
    def f(x, w1, b1, w2):
        h = m.nn.gelu(x @ w1 + b1)
        return m.nn.softmax(h @ w2, axis=-1)

    return f


@prog("attention", [((2, 4, 8), F), ((2, 5, 8), F), ((2, 5, 8), F)], rtol=1e-4)
def _(m):
    def f(q, k, v):
        s = m.jnp.einsum("bqd,bkd->bqk", q, k) / m.jnp.sqrt(8.0)
        mask = m.jnp.tril(m.jnp.ones((4, 5), bool))
        s = m.jnp.where(mask, s, -1e9)
        return m.jnp.einsum("bqk,bkd->bqd", m.nn.softmax(s), v)

    return f


@prog("kmeans_assign", [((10, 2), F), ((3, 2), F)])
def _(m):
    def f(x, c):
        d = m.jnp.sum((x[:, None, :] - c[None, :, :]) ** 2, axis=-1)
        a = m.jnp.argmin(d, axis=1)
        oh = m.nn.one_hot(a, 3)
        return (oh.T @ x) / m.jnp.maximum(oh.sum(0)[:, None], 1.0), a

    return f


@prog("polyval_horner", [((7,), F)])
def _(m):
    def f(x):
        c = m.jnp.array([1.0, -2.0, 0.5, 3.0])
        out = m.jnp.zeros_like(x)
        for ci in c:
            out = out * x + ci
        return out

    return f


@prog("pairwise_dist", [((5, 3), F), ((4, 3), F)], rtol=1e-4)
def _(m):
    def f(a, b):
        d2 = m.jnp.sum(a * a, 1)[:, None] + m.jnp.sum(b * b, 1)[None, :] - 2 * a @ b.T
        return m.jnp.sqrt(m.jnp.maximum(d2, 0.0) + 1e-3)

    return f


@prog("clip_by_global_norm", [((3, 4), F), ((5,), F)])
def _(m):
    def f(a, b):
        n = m.jnp.sqrt(m.jnp.sum(a**2) + m.jnp.sum(b**2))
        s = m.jnp.minimum(1.0, 1.5 / n)
        return a * s, b * s

    return f


@prog("scatter_histogram", [((20,), I, 0, 6), ((20,), F)])
def _(m):
    def f(idx, w):
        return m.jnp.zeros(6).at[idx].add(w), m.jnp.bincount(idx, length=6)

    return f


@prog("at_ops_chain", [((6,), F)])
def _(m):
    def f(x):
        y = x.at[0].set(10.0).at[1:3].multiply(2.0).at[-1].add(-1.0)
        return y.at[m.jnp.array([2, 4])].min(0.0).at[3].max(5.0)

    return f


@prog("topk_via_sort", [((3, 7), F)])
def _(m):
    def f(x):
        v, i = m.lax.top_k(x, 3)
        s = m.jnp.sort(x, axis=-1)[:, ::-1][:, :3]
        return v, i, s

    return f


@prog("argsort_gather", [((8,), F), ((8,), F)])
def _(m):
    def f(k, v):
        p = m.jnp.argsort(k)
        return v[p], m.jnp.cumsum(v[p])

    return f


@prog("unique_counts", [((12,), I, 0, 5)])
def _(m):
    def f(x):
        return m.jnp.unique(x, size=5, fill_value=-1, return_counts=True)

    return f


@prog("masked_mean", [((4, 6), F), ((4, 6), B)])
def _(m):
    def f(x, w):
        return m.jnp.sum(m.jnp.where(w, x, 0.0), 1) / m.jnp.maximum(m.jnp.sum(w, 1), 1)

    return f


@prog("cumulative_stats", [((10,), F)])
def _(m):
    def f(x):
        c = m.jnp.cumsum(x)
        n = m.jnp.arange(1, 11)
        return c / n, m.lax.cummax(x, 0), m.jnp.cumprod(1 + 0.1 * x)

    return f


@prog("conv_relu_pool", [((2, 3, 8, 8), F), ((4, 3, 3, 3), F)], rtol=1e-4)
def _(m):
    def f(x, w):
        y = m.nn.relu(m.lax.conv_general_dilated(x, w, (1, 1), "SAME"))
        return m.lax.reduce_window(y, -m.jnp.inf, m.lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")

    return f


@prog("avg_pool_nhwc", [((2, 6, 6, 3), F)])
def _(m):
    def f(x):
        s = m.lax.reduce_window(x, 0.0, m.lax.add, (1, 3, 3, 1), (1, 2, 2, 1), "SAME")
        return s / 9.0

    return f


@prog("batched_solve", [((2, 3, 3), "spd"), ((2, 3), F)], rtol=1e-4)
def _(m):
    def f(a, b):
        return (
            m.linalg.solve(a, b[..., None]),
            m.linalg.solve(a[0], b[1]),
            m.linalg.det(a),
            m.linalg.slogdet(a)[1],
        )

    return f


@prog("cholesky_solve", [((4, 4), "spd"), ((4, 2), F)], rtol=1e-4)
def _(m):
    def f(a, b):
        L = m.linalg.cholesky(a)
        y = m.linalg.solve(L, b)
        return m.linalg.solve(L.T, y)

    return f


@prog("gram_schmidt_qr", [((5, 3), F)], rtol=1e-4)
def _(m):
    def f(x):
        q, r = m.linalg.qr(x)
        return q.T @ q, m.jnp.abs(m.jnp.diag(r))

    return f


@prog("spectral", [((4, 4), "spd")], rtol=1e-4)
def _(m):
    def f(a):
        w = m.linalg.eigvalsh(a)
        s = m.linalg.svd(a, compute_uv=False)
        return w, s, m.linalg.norm(a, 2), m.linalg.norm(a, "fro")

    return f


@prog("logsumexp_stable", [((3, 5), F, -50, 50)])
def _(m):
    def f(x):
        return (
            m.special.logsumexp(x, axis=1),
            m.nn.logsumexp(x),
            m.special.logsumexp(x, axis=0, keepdims=True),
        )

    return f


@prog("binary_xent_logits", [((6,), F), ((6,), F, 0, 1)])
def _(m):
    def f(z, y):
        return m.jnp.mean(-y * m.nn.log_sigmoid(z) - (1 - y) * m.nn.log_sigmoid(-z))

    return f


@prog("kl_divergence", [((5,), F, 0.1, 1), ((5,), F, 0.1, 1)])
def _(m):
    def f(p, q):
        p, q = p / p.sum(), q / q.sum()
        return m.jnp.sum(m.special.xlogy(p, p) - m.special.xlogy(p, q))

    return f


@prog("gaussian_logpdf", [((6,), F), ((6,), F, 0.5, 2)])
def _(m):
    def f(x, s):
        return -0.5 * (x / s) ** 2 - m.jnp.log(s) - 0.5 * m.jnp.log(2 * m.jnp.pi)

    return f


@prog("quantiles", [((4, 9), F)])
def _(m):
    def f(x):
        return (
            m.jnp.median(x, axis=1),
            m.jnp.percentile(x, 25.0, axis=0),
            m.jnp.quantile(x, m.jnp.array([0.1, 0.5]), axis=1, keepdims=True),
        )

    return f


@prog("stats_mix", [((3, 6), F)])
def _(m):
    def f(x):
        return (
            m.jnp.var(x, axis=0, ddof=1),
            m.jnp.std(x),
            m.jnp.ptp(x, axis=1),
            m.jnp.average(x, axis=1, weights=m.jnp.arange(1.0, 7.0)),
        )

    return f


@prog("nan_reductions", [((4, 5), F)])
def _(m):
    def f(x):
        y = m.jnp.where(x > 1.0, m.jnp.nan, x)
        return (
            m.jnp.nansum(y, 0),
            m.jnp.nanmean(y, 1),
            m.jnp.nanmax(y),
            m.jnp.nanmin(y, 0),
            m.jnp.nanstd(y),
            m.jnp.isnan(y).sum(),
        )

    return f


@prog("shape_gymnastics", [((2, 3, 4), F)])
def _(m):
    def f(x):
        y = m.jnp.transpose(x, (2, 0, 1)).reshape(4, 6)
        z = m.jnp.concatenate([y, y[:, ::-1]], axis=1)
        return m.jnp.stack(m.jnp.split(z, 3, axis=1), 0).sum(0)

    return f


@prog("tile_repeat_roll", [((2, 3), F)])
def _(m):
    def f(x):
        return (
            m.jnp.tile(x, (2, 2)),
            m.jnp.repeat(x, 2, axis=1),
            m.jnp.roll(x, 2),
            m.jnp.rot90(x, 1),
            m.jnp.flip(x),
        )

    return f


@prog("padding_modes", [((3, 4), F)])
def _(m):
    def f(x):
        return (
            m.jnp.pad(x, 1),
            m.jnp.pad(x, ((0, 2), (1, 1)), mode="edge"),
            m.jnp.pad(x, 2, mode="reflect"),
            m.jnp.pad(x, ((1, 1), (2, 0)), mode="wrap"),
            m.jnp.pad(x, 1, mode="symmetric"),
        )

    return f


@prog("indexing_mix", [((5, 6), F), ((3,), I, 0, 5)])
def _(m):
    def f(x, i):
        return x[i], x[:, i], x[i, i], x[1:4, ::2], x[..., None, -1], x[-1, None]

    return f


@prog("dynamic_slicing", [((6, 5), F), ((), I, 0, 6)])
def _(m):
    def f(x, i):
        a = m.lax.dynamic_slice(x, (i, 1), (2, 3))
        b = m.lax.dynamic_update_slice(x, m.jnp.zeros((2, 2)), (i, i))
        return a, b, m.lax.dynamic_index_in_dim(x, i, 1, keepdims=False)

    return f


@prog("integer_arith", [((8,), I, -20, 20), ((8,), I, 1, 7)])
def _(m):
    def f(a, b):
        return (
            a // b,
            a % b,
            m.jnp.fmod(a, b),
            a * b - a,
            a**2,
            a >> 1,
            a << 2,
            a & b,
            a | b,
            a ^ b,
            ~a,
        )

    return f


@prog("mixed_promotion", [((4,), "int8", -5, 5), ((4,), "uint8", 0, 9), ((4,), F)])
def _(m):
    def f(a, b, c):
        return a + b, a * 2, b + 1.5, a + c, c * 3, m.jnp.maximum(a, b), a.astype(F) / b

    return f


@prog("weak_type_scalars", [((3,), F)])
def _(m):
    def f(x):
        return x + 1, 2 * x, x**2, m.jnp.asarray(3.0) * x, m.jnp.float32(2) + 1

    return f


@prog("comparisons_logic", [((6,), F), ((6,), F)])
def _(m):
    def f(a, b):
        return (
            m.jnp.logical_and(a > 0, b < 0),
            m.jnp.logical_xor(a > b, b > 0),
            m.jnp.isclose(a, a + 1e-7),
            m.jnp.allclose(a, b),
            m.jnp.array_equal(a, a),
            m.jnp.any(a > 1),
            m.jnp.all(a > -3),
        )

    return f


@prog("searching", [((10,), F), ((4,), F)])
def _(m):
    def f(x, v):
        s = m.jnp.sort(x)
        return (
            m.jnp.searchsorted(s, v),
            m.jnp.searchsorted(s, v, side="right"),
            m.jnp.digitize(v, s),
            m.jnp.argmax(x),
            m.jnp.argmin(x),
        )

    return f


@prog("nonzero_sized", [((3, 4), I, 0, 2)])
def _(m):
    def f(x):
        return (
            m.jnp.nonzero(x, size=6),
            m.jnp.argwhere(x, size=3),
            m.jnp.count_nonzero(x, axis=1),
            m.jnp.where(x > 0, size=2, fill_value=-1),
        )

    return f


@prog("creation", [((3,), F)])
def _(m):
    def f(x):
        return (
            m.jnp.eye(3, 4, k=1),
            m.jnp.tri(3),
            m.jnp.linspace(0, 1, 5),
            m.jnp.logspace(0, 2, 3),
            m.jnp.geomspace(1, 8, 4),
            m.jnp.arange(2, 9, 3),
            m.jnp.full((2,), 7),
            m.jnp.zeros_like(x, dtype=I),
            m.jnp.identity(2),
            m.jnp.diag(x),
            m.jnp.indices((2, 3)),
        )

    return f


@prog("meshgrid_poly", [((3,), F), ((4,), F)])
def _(m):
    def f(a, b):
        X, Y = m.jnp.meshgrid(a, b)
        I_, J_ = m.jnp.meshgrid(a, b, indexing="ij")
        return X * Y + X**2, I_ - J_

    return f


@prog("kron_tensordot_einsum", [((2, 3), F), ((3, 2), F), ((3,), F)])
def _(m):
    def f(a, b, v):
        return (
            m.jnp.kron(a, b),
            m.jnp.tensordot(a, b, axes=1),
            m.jnp.einsum("ij,j->i", a, v),
            m.jnp.einsum("ij,jk,k", a, b, m.jnp.ones(2)),
            m.jnp.outer(v, v),
            m.jnp.inner(a, a),
            m.jnp.vdot(a, a),
            m.jnp.trace(a @ b),
        )

    return f


@prog("activations", [((10,), F, -4, 4)])
def _(m):
    def f(x):
        n = m.nn
        return (
            n.relu(x),
            n.relu6(x),
            n.elu(x),
            n.selu(x),
            n.gelu(x),
            n.gelu(x, False),
            n.silu(x),
            n.sigmoid(x),
            n.softplus(x),
            n.log_sigmoid(x),
            n.leaky_relu(x),
            n.hard_tanh(x),
            n.celu(x),
            n.soft_sign(x),
        )

    return f


@prog("special_funcs", [((8,), F, 0.2, 3)])
def _(m):
    def f(x):
        s = m.special
        return (
            s.erf(x),
            s.erfc(x),
            s.gammaln(x),
            s.digamma(x),
            s.expit(x),
            s.logit(x / 4),
            s.xlog1py(x, x),
            s.erfinv(x / 4),
        )

    return f


@prog("standardize_glu_onehot", [((3, 6), F), ((3,), I, 0, 4)])
def _(m):
    def f(x, y):
        return m.nn.standardize(x), m.nn.glu(x), m.nn.one_hot(y, 4, dtype=m.jnp.int32)

    return f


@prog("lax_elementwise", [((6,), F, 0.2, 2), ((6,), F, 0.2, 2)])
def _(m):
    def f(a, b):
        L = m.lax
        return (
            L.add(a, b),
            L.sub(a, b),
            L.mul(a, b),
            L.div(a, b),
            L.pow(a, b),
            L.rsqrt(a),
            L.logistic(a),
            L.integer_pow(a, 3),
            L.clamp(0.5, a, 1.5),
            L.max(a, b),
            L.exp(a),
            L.log(a),
            L.tanh(a),
            L.atan2(a, b),
            L.rem(a, b),
            L.sign(a - 1),
        )

    return f


@prog("lax_structural", [((2, 3, 4), F)])
def _(m):
    def f(x):
        L = m.lax
        return (
            L.reshape(x, (6, 4)),
            L.transpose(x, (2, 0, 1)),
            L.rev(x, (1,)),
            L.slice(x, (0, 1, 0), (2, 3, 4), (1, 1, 2)),
            L.pad(x, 0.0, ((1, 0, 1), (0, 0, 0), (0, 1, 0))),
            L.broadcast_in_dim(x[0, 0], (3, 4), (1,)),
            L.concatenate([x, x], 2),
            L.squeeze(x[:1], (0,)),
            L.expand_dims(x, (0,)),
            L.reduce_sum(x, (0, 2)),
            L.reduce_max(x, (1,)),
            L.argmax(x, 2, m.jnp.int32),
            L.cumsum(x, 1),
        )

    return f


@prog("lax_dtype_ops", [((5,), F)])
def _(m):
    def f(x):
        L = m.lax
        return (
            L.convert_element_type(x * 10, m.jnp.int32),
            L.bitcast_convert_type(x, m.jnp.int32),
            L.reduce_precision(x, 5, 10),
            L.population_count(m.jnp.arange(5)),
            L.sort(-x),
            L.sort_key_val(x, m.jnp.arange(5))[1],
        )

    return f


@prog("dot_general_batch", [((2, 3, 4), F), ((2, 4, 5), F)])
def _(m):
    def f(a, b):
        return m.lax.dot_general(a, b, (((2,), (1,)), ((0,), (0,)))), m.jnp.matmul(a, b)

    return f


@prog("diff_ops", [((7,), F)])
def _(m):
    def f(x):
        return m.jnp.diff(x), m.jnp.diff(x, n=2), m.jnp.ediff1d(x), m.jnp.append(x, 1.0)

    return f


@prog("float_edge_values", [((6,), F, -1, 1)])
def _(m):
    def f(x):
        y = m.jnp.array([0.0, -0.0, 1.0, -1.0, 2.5, -2.5])
        return (
            m.jnp.signbit(y),
            m.jnp.copysign(x, y),
            m.jnp.round(y),
            m.jnp.rint(y),
            m.jnp.trunc(y),
            m.jnp.floor(y),
            m.jnp.ceil(y),
            m.jnp.sign(y),
            m.jnp.nan_to_num(m.jnp.log(y)),
            m.jnp.heaviside(y, 0.5),
        )

    return f


@prog("rounding_decimals", [((6,), F, -10, 10)])
def _(m):
    def f(x):
        return m.jnp.round(x, 1), m.jnp.around(x, 2), m.jnp.trunc(x)

    return f


@prog("complex_basic", [((4,), F), ((4,), F)])
def _(m):
    def f(a, b):
        z = m.lax.complex(a, b)
        return (
            m.jnp.real(z),
            m.jnp.imag(z),
            m.jnp.abs(z),
            m.jnp.conj(z),
            m.jnp.angle(z),
            z * z,
            m.jnp.exp(z),
        )

    return f


@prog("hypot_logaddexp", [((6,), F), ((6,), F)])
def _(m):
    def f(a, b):
        return (
            m.jnp.hypot(a, b),
            m.jnp.logaddexp(a, b),
            m.jnp.logaddexp2(a, b),
            m.jnp.fmax(a, b),
            m.jnp.fmin(a, b),
            m.jnp.float_power(m.jnp.abs(a), b),
            m.jnp.sinc(a),
            m.jnp.deg2rad(a),
            m.jnp.rad2deg(b),
        )

    return f


@prog("lexsort_keys", [((9,), I, 0, 3), ((9,), I, 0, 3)])
def _(m):
    def f(a, b):
        return (
            m.jnp.lexsort((a, b)),
            m.jnp.argsort(a, descending=True),
            m.jnp.sort(b, descending=True),
        )

    return f


@prog("histogram_counts", [((30,), F)])
def _(m):
    def f(x):
        h, e = m.jnp.histogram(x, bins=5, range=(-2.0, 2.0))
        return h, e

    return f


@prog("linalg_misc", [((3, 3), "spd"), ((4, 3), F)], rtol=1e-4)
def _(m):
    def f(a, b):
        return (
            m.linalg.inv(a),
            m.linalg.pinv(b),
            m.linalg.matrix_power(a, 3),
            m.linalg.lstsq(b, m.jnp.ones(4))[0],
            m.linalg.matrix_rank(b),
            m.linalg.norm(b, axis=0),
            m.linalg.norm(b, 1),
            m.linalg.norm(b, -m.jnp.inf),
        )

    return f


@prog("take_modes", [((6,), F), ((4,), I, -8, 8)])
def _(m):
    def f(x, i):
        return (
            m.jnp.take(x, i, mode="clip"),
            m.jnp.take(x, i, mode="wrap"),
            m.jnp.take(x, i, mode="fill", fill_value=0.0),
        )

    return f


@prog("vmap_of_program", [((3, 4), F), ((4,), F)])
def _(m):
    def f(x, w):
        return m.root.vmap(lambda r: m.jnp.dot(r, w) + m.jnp.max(r))(x)

    return f


@prog("jvp_of_program", [((4,), F)])
def _(m):
    def f(x):
        return m.root.jvp(lambda y: m.jnp.sum(m.jnp.sin(y) * y), (x,), (m.jnp.ones(4),))

    return f


@prog("grad_of_program", [((4,), F), ((4, 2), F)], rtol=1e-4)
def _(m):
    def f(x, w):
        def loss(w):
            return m.jnp.sum(m.nn.softplus(x @ w) ** 2)

        return m.root.grad(loss)(w)

    return f


@prog("oob_index_semantics", [((5,), F), ((3,), I, -9, 9)])
def _(m):
    def f(x, i):
        return (
            x[7],
            x[-9],
            x[i],
            x.at[i].set(0.0),
            x.at[8].add(1.0),
            x.at[-7].set(3.0),
            x.at[i].add(1.0),
            x.at[i].get(mode="clip"),
        )

    return f


@prog("signal_processing", [((16,), F), ((5,), F)], rtol=1e-4)
def _(m):
    def f(x, k):
        sm = m.jnp.convolve(x, k / k.sum(), mode="same")
        return (
            sm,
            m.jnp.correlate(x, k, mode="full"),
            m.jnp.gradient(x),
            m.jnp.trapezoid(x),
            m.jnp.interp(m.jnp.linspace(-3, 3, 7), m.jnp.sort(k), k),
            m.jnp.unwrap(x * 4),
        )

    return f


@prog("set_operations", [((8,), I, 0, 6), ((5,), I, 0, 6)])
def _(m):
    def f(a, b):
        return (
            m.jnp.isin(a, b),
            m.jnp.union1d(a, b, size=7, fill_value=-1),
            m.jnp.intersect1d(a, b, size=4, fill_value=-1),
            m.jnp.setdiff1d(a, b, size=4, fill_value=-1),
            m.jnp.unique_counts(a, size=6, fill_value=0),
        )

    return f


@prog("selection_ops", [((3, 4), F), ((3, 4), I, 0, 3)])
def _(m):
    def f(x, i):
        return (
            m.jnp.select([x < 0, x > 1], [-x, x * x], 0.5),
            m.jnp.choose(i, [x, -x, 2 * x], mode="clip"),
            m.jnp.put(x, m.jnp.array([1, 7]), m.jnp.array([9.0, 8.0]), inplace=False),
            m.jnp.extract(x > 0, x, size=6),
            m.jnp.unravel_index(m.jnp.argmax(x), x.shape),
        )

    return f


@prog("statistics_ops", [((3, 7), F)], rtol=1e-4)
def _(m):
    def f(x):
        return (
            m.jnp.cov(x),
            m.jnp.corrcoef(x),
            m.jnp.cross(x[:, :3], x[:, 3:6]),
            m.jnp.vecdot(x, x),
            m.jnp.cumulative_sum(x, axis=1),
        )

    return f


@prog("transformer_block", [((2, 5, 8), F), ((8, 8), F), ((8, 8), F), ((8, 8), F)], rtol=1e-4)
def _(m):
    def f(x, wq, wk, wv):
        h = m.nn.standardize(x)
        q = (h @ wq).reshape(2, 5, 2, 4)
        k = (h @ wk).reshape(2, 5, 2, 4)
        v = (h @ wv).reshape(2, 5, 2, 4)
        a = m.nn.dot_product_attention(q, k, v, is_causal=True).reshape(2, 5, 8)
        return x + m.nn.gelu(a)

    return f


@prog("at_modes", [((5,), F), ((4,), I, -9, 9), ((2, 3), I, -4, 4)])
def _(m):
    def f(x, i, j):
        y = m.jnp.arange(6).reshape(2, 3)
        return (
            x.at[i].get(mode="fill"),
            x.at[i].get(mode="fill", fill_value=-1.0),
            x.at[i].set(7.0, mode="clip"),
            x.at[i].add(1.0, mode="drop"),
            y.at[j[0, 0], j[1]].get(mode="fill"),
            y.at[1, j[0]].set(0, mode="clip"),
            x.at[i].multiply(2.0),
            x.at[i].min(0.0),
            x.at[i].max(1.0),
            x.at[i].subtract(1.0),
            x.at[i].divide(2.0),
        )

    return f


@prog("lax_gather_scatter", [((6, 4), F), ((3, 1), I, -1, 7), ((3, 2, 4), F)])
def _(m):
    def f(x, i, u):
        L = m.lax
        gdn = L.GatherDimensionNumbers(
            offset_dims=(1, 2), collapsed_slice_dims=(), start_index_map=(0,)
        )
        sdn = L.ScatterDimensionNumbers(
            update_window_dims=(1, 2), inserted_window_dims=(), scatter_dims_to_operand_dims=(0,)
        )
        return (
            L.gather(x, i, gdn, (2, 4)),
            L.gather(x, i, gdn, (2, 4), mode="fill"),
            L.scatter_add(x, i, u, sdn),
            L.scatter(x, i, u, sdn, mode="clip"),
            L.scatter_mul(x, i, u, sdn),
        )

    return f


@prog("special_extras", [((6,), F, 0.1, 0.9), ((6,), F, 0.5, 3)], rtol=1e-4)
def _(m):
    def f(p, a):
        s = m.special
        return (
            s.ndtri(p),
            s.betaln(a, a + 1),
            s.multigammaln(a + 1, 2),
            s.entr(p),
            s.rel_entr(p, a),
            s.kl_div(p, a),
            s.softmax(a),
            s.log_softmax(a),
            s.ndtr(a),
        )

    return f


@prog("nan_and_tie_ordering", [((6,), F)])
def _(m):
    def f(x):
        y = m.jnp.where(x > 1.0, m.jnp.nan, m.jnp.round(x))
        return (
            m.jnp.sort(y),
            m.jnp.argsort(y),
            m.jnp.argsort(y, descending=True),
            m.jnp.searchsorted(m.jnp.sort(y), y),
            m.jnp.quantile(y, 0.5),
            m.jnp.nanquantile(y, 0.5),
            m.lax.top_k(y, 3)[1],
            m.jnp.unique(y, size=6, fill_value=0.0),
        )

    return f


@prog("infinities", [((5,), F)])
def _(m):
    def f(x):
        y = m.jnp.concatenate([x, m.jnp.array([-m.jnp.inf, m.jnp.inf])])
        return (
            m.nn.softmax(m.jnp.array([-m.jnp.inf, 0.0, 1.0])),
            m.nn.logsumexp(m.jnp.array([-m.jnp.inf, -m.jnp.inf])),
            m.jnp.sort(y),
            m.jnp.nan_to_num(y),
            m.jnp.isposinf(y),
            m.jnp.clip(y, -1, 1),
        )

    return f


# ------------------------------------------------------------- generated compositions
_UNARY = [
    "sin",
    "cos",
    "tanh",
    "exp",
    "log1p",
    "abs",
    "square",
    "sqrt",
    "arctan",
    "expm1",
    "negative",
    "floor",
    "sinh",
    "cbrt",
    "rint",
    "sign",
    "log",
    "reciprocal",
    "arcsinh",
    "deg2rad",
]
_RED = ["sum", "mean", "max", "min", "prod", "var"]
_POSITIVE = {"sqrt", "log", "reciprocal", "log1p", "cbrt"}

for _u in _UNARY:
    for _r in _RED:
        lo = 0.2 if _u in _POSITIVE else -1.5

        def _make(u=_u, r=_r):
            def build(m):
                def f(x):
                    return getattr(m.jnp, r)(getattr(m.jnp, u)(x), axis=1)

                return f

            return build

        PROGRAMS.append((f"{_r}_of_{_u}", _make(), [((3, 4), F, lo, 1.5)], 1e-4))

_BIN = ["add", "subtract", "multiply", "maximum", "minimum", "arctan2", "hypot", "logaddexp"]
_PRE = [
    ("T", lambda m, x: x.T),
    ("flip", lambda m, x: m.jnp.flip(x, 0)),
    ("cumsum", lambda m, x: m.jnp.cumsum(x, 1)),
    ("sort", lambda m, x: m.jnp.sort(x, 0)),
    ("roll", lambda m, x: m.jnp.roll(x, 1, 1)),
]
for _b in _BIN:
    for _pn, _pf in _PRE:

        def _make2(b=_b, pf=_pf):
            def build(m):
                def f(x, y):
                    return getattr(m.jnp, b)(pf(m, x), y[None, :]) @ m.jnp.ones((3,))

                return f

            return build

        PROGRAMS.append((f"{_b}_{_pn}", _make2(), [((3, 3), F), ((3,), F)], 1e-4))

_SHAPERS = [
    ("reshape", lambda m, x: x.reshape(4, 3)),
    ("swapaxes", lambda m, x: m.jnp.swapaxes(x, 0, 1)),
    ("expand_squeeze", lambda m, x: m.jnp.squeeze(m.jnp.expand_dims(x, 0), 0)),
    ("broadcast", lambda m, x: m.jnp.broadcast_to(x, (2, 3, 4))),
    ("hstack", lambda m, x: m.jnp.hstack([x, x])),
    ("vstack", lambda m, x: m.jnp.vstack([x, x])),
    ("dstack", lambda m, x: m.jnp.dstack([x, x])),
    ("column_stack", lambda m, x: m.jnp.column_stack([x[:, 0], x])),
    ("atleast_3d", lambda m, x: m.jnp.atleast_3d(x)),
    ("tril", lambda m, x: m.jnp.tril(x, 1)),
    ("triu", lambda m, x: m.jnp.triu(x, -1)),
    ("diagonal", lambda m, x: m.jnp.diagonal(x, 1)),
    ("array_split", lambda m, x: m.jnp.array_split(x, 3, axis=1)[1]),
    ("moveaxis", lambda m, x: m.jnp.moveaxis(x[None], 0, 2)),
    ("ravel", lambda m, x: m.jnp.ravel(x)),
    ("fliplr", lambda m, x: m.jnp.fliplr(x)),
]
for _sn, _sf in _SHAPERS:
    for _post in ("sum0", "cummax"):

        def _make3(sf=_sf, post=_post):
            def build(m):
                def f(x):
                    y = sf(m, x)
                    if post == "sum0":
                        return m.jnp.sum(y * 2.0 + 1.0, axis=0)
                    return m.lax.cummax(m.jnp.ravel(y), 0)

                return f

            return build

        PROGRAMS.append((f"{_sn}_{_post}", _make3(), [((3, 4), F)], 1e-5))

NAMES = [p[0] for p in PROGRAMS]
assert len(set(NAMES)) == len(NAMES), "duplicate program names"


def test_corpus_size():
    assert len(PROGRAMS) >= 200


def _leaves(x):
    if isinstance(x, (tuple, list)):
        out = []
        for y in x:
            out.extend(_leaves(y))
        return out
    return [x]


def _run(ns, f, args):
    return f(ns)(*[ns.jnp.asarray(a) for a in args])


def _compare(got, want, rtol, name):
    lg, lw = _leaves(got), _leaves(want)
    assert len(lg) == len(lw), f"{name}: {len(lg)} outputs vs {len(lw)}"
    for i, (g, w) in enumerate(zip(lg, lw)):
        g_np, w_np = np.asarray(g), np.asarray(w)
        assert g_np.shape == w_np.shape, f"{name}[{i}]: shape {g_np.shape} vs {w_np.shape}"
        assert np.dtype(g.dtype) == np.dtype(w.dtype), f"{name}[{i}]: {g.dtype} vs {w.dtype}"
        if g_np.dtype.kind in "biu":
            np.testing.assert_array_equal(g_np, w_np, err_msg=f"{name}[{i}]")
        else:
            np.testing.assert_allclose(
                g_np, w_np, rtol=rtol, atol=1e-5, equal_nan=True, err_msg=f"{name}[{i}]"
            )


_JAX_CACHE: dict = {}


def _inputs_and_expected(name, f, specs):
    """Inputs and JAX's result for a program (computed once, shared by both tests)."""
    if name not in _JAX_CACHE:
        rng = np.random.default_rng(zlib.crc32(name.encode()))
        args = [_draw(s, rng) for s in specs]
        _JAX_CACHE[name] = (args, _run(JAX, f, args))
    return _JAX_CACHE[name]


@pytest.mark.parametrize("name,f,specs,rtol", PROGRAMS, ids=NAMES)
def test_program_eager_matches_jax(name, f, specs, rtol):
    args, expected = _inputs_and_expected(name, f, specs)
    _compare(_run(LITE, f, args), expected, rtol, name)


@pytest.mark.parametrize("name,f,specs,rtol", PROGRAMS, ids=NAMES)
def test_program_jit_matches_jax(name, f, specs, rtol):
    args, expected = _inputs_and_expected(name, f, specs)
    got = LITE.root.jit(f(LITE))(*[LITE.jnp.asarray(a) for a in args])
    _compare(got, expected, rtol, name)


# --------------------------------------------------------------------------- bad input
# Programs that must fail: jaxlite must raise the same kind of exception as JAX (the same
# class name, e.g. NonConcreteBooleanIndexError, or the same builtin base class).
def _jit(m, f):
    return m.root.jit(f)


ERRORS = [
    ("add_shape_mismatch", lambda m: lambda x: m.jnp.add(x, m.jnp.ones(4)), [((3,), F)]),
    ("reshape_bad_size", lambda m: lambda x: m.jnp.reshape(x, (5,)), [((2, 3), F)]),
    ("sum_axis_out_of_range", lambda m: lambda x: m.jnp.sum(x, axis=3), [((2, 3), F)]),
    ("concatenate_mismatch", lambda m: lambda x: m.jnp.concatenate([x, x.T]), [((2, 3), F)]),
    ("matmul_mismatch", lambda m: lambda x: x @ x, [((2, 3), F)]),
    ("inv_not_square", lambda m: lambda x: m.linalg.inv(x), [((2, 3), F)]),
    ("split_uneven", lambda m: lambda x: m.jnp.split(x, 4), [((6,), F)]),
    ("float_index", lambda m: lambda x: x[m.jnp.array([0.5])], [((3,), F)]),
    ("bool_mask_under_jit", lambda m: _jit(m, lambda x: x[x > 0]), [((4,), F)]),
    ("nonzero_under_jit", lambda m: _jit(m, lambda x: m.jnp.nonzero(x)), [((4,), F)]),
    ("unique_under_jit", lambda m: _jit(m, lambda x: m.jnp.unique(x)), [((4,), F)]),
    ("arange_traced", lambda m: _jit(m, lambda x: m.jnp.arange(x)), [((), I, 2, 5)]),
    ("lax_add_mixed_dtypes", lambda m: lambda x, y: m.lax.add(x, y), [((3,), F), ((3,), I)]),
    ("broadcast_to_bad", lambda m: lambda x: m.jnp.broadcast_to(x, (4,)), [((3,), F)]),
    ("swapaxes_bad_axis", lambda m: lambda x: m.jnp.swapaxes(x, 0, 5), [((2, 3), F)]),
    ("squeeze_non_unit", lambda m: lambda x: m.jnp.squeeze(x, 0), [((2, 3), F)]),
    ("stack_mismatch", lambda m: lambda x: m.jnp.stack([x, x[:1]]), [((2, 3), F)]),
    (
        "dot_general_mismatch",
        lambda m: (
            lambda x: (
                m.lax.dot_general(x, x, (((1,), (1,)), ((), ())))
                + m.lax.dot_general(x, x, (((0,), (1,)), ((), ())))
            )
        ),
        [((2, 3), F)],
    ),
    ("solve_mismatch", lambda m: lambda a, b: m.linalg.solve(a, b), [((3, 3), F), ((4,), F)]),
    (
        "conv_feature_mismatch",
        lambda m: lambda x, w: m.lax.conv_general_dilated(x, w, (1, 1), "VALID"),
        [((1, 3, 4, 4), F), ((2, 2, 2, 2), F)],
    ),
    ("pad_negative", lambda m: lambda x: m.jnp.pad(x, -1), [((3,), F)]),
    ("tril_1d", lambda m: lambda x: m.jnp.tril(x), [((3,), F)]),
    ("bincount_float", lambda m: lambda x: m.jnp.bincount(x, length=3), [((3,), F)]),
    (
        "searchsorted_bad_side",
        lambda m: lambda x: m.jnp.searchsorted(x, x, side="middle"),
        [((3,), F)],
    ),
    ("top_k_too_large", lambda m: lambda x: m.lax.top_k(x, 5), [((3,), F)]),
    ("reshape_two_minus_one", lambda m: lambda x: m.jnp.reshape(x, (-1, -1)), [((4,), F)]),
    ("where_one_of_two", lambda m: lambda x: m.jnp.where(x > 0, x), [((3,), F)]),
    ("scalar_index_on_0d", lambda m: lambda x: x[0], [((), F)]),
    ("sin_of_string", lambda m: lambda x: m.jnp.sin("a"), [((3,), F)]),
    ("bitwise_on_float", lambda m: lambda x: m.jnp.bitwise_and(x, x), [((3,), F)]),
    (
        "choose_raise_under_jit",
        lambda m: _jit(m, lambda i: m.jnp.choose(i, [i, -i])),
        [((3,), I, 0, 2)],
    ),
    ("choose_out_of_range", lambda m: lambda i: m.jnp.choose(i, [i, -i]), [((3,), I, 2, 4)]),
]
ERR_NAMES = [e[0] for e in ERRORS]
_BUILTINS = (IndexError, TypeError, ValueError)


def _exc(ns, f, args):
    try:
        f(ns)(*[ns.jnp.asarray(a) for a in args])
    except Exception as e:  # noqa: BLE001 - we classify whatever was raised
        return e
    return None


def test_error_corpus_size():
    assert len(ERRORS) >= 30


@pytest.mark.parametrize("name,f,specs", ERRORS, ids=ERR_NAMES)
def test_bad_input_raises_like_jax(name, f, specs):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    args = [_draw(s, rng) for s in specs]
    want = _exc(JAX, f, args)
    got = _exc(LITE, f, args)
    assert want is not None, f"{name}: JAX did not raise (bad test)"
    assert got is not None, f"{name}: jaxlite did not raise; JAX raised {want!r}"
    if type(got).__name__ == type(want).__name__:
        return
    bases_w = {b for b in _BUILTINS if isinstance(want, b)}
    bases_g = {b for b in _BUILTINS if isinstance(got, b)}
    assert bases_w & bases_g, f"{name}: jaxlite raised {got!r}, JAX raised {want!r}"
