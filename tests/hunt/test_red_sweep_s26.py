"""Session 26 reduction sweep (tests/hunt/sweep_red_s26.py), pinned: jnp.sum / prod of
float16 and bfloat16 accumulate in float32 and round once (unless ``dtype`` is given), as
JAX's jnp reductions; float sums and products add in XLA:CPU's window-tree order (windows
of 32 along each reduced dimension, ``pad // 2`` of padding first, each folded in order;
``ops/reduce_order``) except float32/float64 sums of 4,096 or more elements (YNNPACK's,
NumPy's pairwise order is kept). Each case has an expectation computed here independently
(float64 sums rounded once, hand-derived summation trees) and JAX as an oracle when it is
importable."""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax

try:
    import jax as real_jax
except ImportError:
    real_jax = None

import ml_dtypes

BF16 = ml_dtypes.bfloat16


def _both(f, *args):
    """``f`` eagerly and under ``jit`` (the two must agree), as NumPy."""
    eager, jitted = np.asarray(f(*args)), np.asarray(jax.jit(f)(*args))
    np.testing.assert_array_equal(_bits(jitted), _bits(eager))
    return eager


def _bits(a):
    a = np.asarray(a)
    return a.reshape(-1).view(np.dtype(f"u{a.dtype.itemsize}"))


def _jax(fn_name, *args, **kw):
    """JAX's answer (None without JAX)."""
    if real_jax is None:
        return None
    mod = {"jnp": real_jax.numpy, "lax": real_jax.lax}[fn_name.split(".")[0]]
    return np.asarray(getattr(mod, fn_name.split(".")[1])(*args, **kw))


def _check(got, want, oracle):
    np.testing.assert_array_equal(_bits(got), _bits(np.asarray(want, got.dtype)))
    if oracle is not None:
        np.testing.assert_array_equal(_bits(got), _bits(oracle))


# ------------------------------------------------------- half precision: float32 accumulation
@pytest.mark.parametrize("dt", [BF16, np.float16])
def test_jnp_sum_of_half_precision_rounds_once(dt):
    # 1 + 256 small terms: each alone is half an ulp of 1 (lost when added one at a time in
    # 16 bits); in float32 they add up to 1 (bfloat16) / 0.125 (float16).
    tiny = 2.0**-8 if dt is BF16 else 2.0**-11
    x = np.asarray([1.0] + [tiny] * 256, dt)
    want = np.float64(1.0) + 256 * tiny
    _check(_both(jnp.sum, x), want, _jax("jnp.sum", x))
    # three terms per output along a non-minor axis: float32, then one rounding
    m = np.asarray([[1.0, 3.0], [tiny, tiny], [tiny, tiny]], dt)
    got = _both(lambda a: jnp.sum(a, axis=0), m)
    want = m.astype(np.float64).sum(0)
    _check(got, want, _jax("jnp.sum", m, axis=0))
    assert got[0] != 1  # 16-bit accumulation would have lost both small terms


@pytest.mark.parametrize("dt", [BF16, np.float16])
def test_prod_nansum_and_initial_of_half_precision_round_once(dt):
    eps = 2.0**-7 if dt is BF16 else 2.0**-10  # an ulp of 1
    x = np.asarray([1 + eps] * 3 + [np.nan], dt)
    _check(_both(lambda a: jnp.prod(a[:3]), x), (1 + eps) ** 3, _jax("jnp.prod", x[:3]))
    y = np.asarray([1.0, eps / 2, eps / 2, np.nan], dt)
    _check(_both(jnp.nansum, y), 1 + eps, _jax("jnp.nansum", y))
    # ``initial`` joins in float32 too
    got = _both(lambda a: jnp.sum(a[1:3], initial=1.0), y)
    _check(got, 1 + eps, _jax("jnp.sum", y[1:3], initial=1.0))


@pytest.mark.parametrize("dt", [BF16, np.float16])
def test_given_dtype_and_nanmean_accumulate_in_half_precision(dt):
    # With ``dtype`` given (nanmean passes its own), the 16-bit sum rounds after every
    # addition, in order for 32 terms: 1 + a half ulp is 1 (ties to even), 31 times.
    tiny = 2.0**-8 if dt is BF16 else 2.0**-11
    x = np.asarray([1.0] + [tiny] * 31, dt)
    _check(_both(lambda a: jnp.sum(a, dtype=dt), x), 1.0, _jax("jnp.sum", x, dtype=dt))
    _check(_both(jnp.nanmean, x), 1.0 / 32, _jax("jnp.nanmean", x))
    _check(_both(lambda a: lax.reduce_sum(a, (0,)), x), 1.0, _jax("lax.reduce_sum", x, (0,)))


# ------------------------------------------------------------------- XLA's summation tree
def _meet_sizes(n, dt=np.float32):
    """For each j, the number of leaves under the node of XLA's summation tree of a 1-D
    sum of ``n`` where leaf 0 and leaf j meet: x[0] = M, x[j] = -M, the rest 1 (M absorbs
    a 1), so the sum is n minus that size."""
    big = dt(2.0**50)

    def f(x):
        return lax.reduce_sum(x, (0,))

    fj = jax.jit(f)
    sizes = []
    for j in range(1, n):
        x = np.ones(n, dt)
        x[0], x[j] = big, -big
        r = np.asarray(fj(x))
        assert r == np.asarray(f(x))
        sizes.append(n - int(r))
    return sizes


def test_sum_of_100_folds_windows_of_32_after_14_of_padding():
    # 100 -> padded to 128, 14 zeros first: windows hold elements 0-17, 18-49, 50-81,
    # 82-99; leaf 0 meets 1..17 one at a time in its window, then whole windows in order.
    want = [j + 1 for j in range(1, 18)] + [50] * 32 + [82] * 32 + [100] * 18
    assert _meet_sizes(100) == want


def test_sum_of_40_and_of_1025_window_trees():
    # 40 -> 64, 12 first: windows 0-19 and 20-39.
    assert _meet_sizes(40) == [j + 1 for j in range(1, 20)] + [40] * 20
    # 1025 -> 1056 (pad 15 first): 33 windows (the first holds 0-16), which are again
    # windowed (33 -> 64, 15 first): the second-level windows hold first-level windows
    # 0-16 (elements 0-528) and 17-32. Checked on a few leaves.
    s = _meet_sizes(1025)
    assert s[:16] == [j + 1 for j in range(1, 17)]
    assert s[16] == 17 + 32  # element 17 starts first-level window 1
    assert s[527] == 529  # element 528: the last of second-level window 0
    assert s[528] == 1025


def _random(shape, dt, rng):
    return (rng.standard_normal(shape) * np.exp2(rng.integers(-20, 20, shape))).astype(dt)


def _model(x, axes):
    """XLA's window-tree sum written out here with Python loops (float64 inputs here are
    exact in float64 only when the dtype is float64, so the loop rounds to x's dtype after
    every addition)."""
    dt = x.dtype.type
    axes = tuple(sorted(axes))
    kept = [a for a in range(x.ndim) if a not in axes]
    xt = np.transpose(x, axes + tuple(kept))
    dims = list(xt.shape[: len(axes)])
    flat = xt.reshape(int(np.prod(dims)), -1)
    while True:
        last = max(dims) <= 32
        w = [d if last else min(d, 32) for d in dims]
        nw = [-(-d // k) for d, k in zip(dims, w)]
        lo = [(n * k - d) // 2 for n, k, d in zip(nw, w, dims)]
        out = np.zeros((int(np.prod(nw)), flat.shape[1]), x.dtype)
        for r, idx in enumerate(np.ndindex(*dims)):
            win = np.ravel_multi_index([(i + p) // k for i, p, k in zip(idx, lo, w)], nw)
            for c in range(flat.shape[1]):
                out[win, c] = dt(out[win, c] + flat[r, c])
        flat, dims = out, nw
        if last:
            return flat[0].reshape([x.shape[a] for a in kept])


@pytest.mark.parametrize(
    "shape,axes",
    [((1000,), (0,)), ((3, 1000), (1,)), ((40, 50), (0,)), ((70, 9), (0,)), ((5, 6, 40), (0, 2))],
)
@pytest.mark.parametrize("dt", [np.float32, np.float64, BF16])
def test_sums_follow_xla_tree_order(shape, axes, dt):
    rng = np.random.default_rng(sum(shape))
    x = _random(shape, dt, rng)
    with jax.enable_x64(True):
        got = _both(lambda a: lax.reduce_sum(a, axes), x)
    want = _model(x, axes)
    assert not np.array_equal(np.sum(x, axis=axes, dtype=dt), want)  # the order matters here
    if real_jax is not None:
        with real_jax.enable_x64(True):
            oracle = _jax("lax.reduce_sum", x, axes)
    else:
        oracle = None
    _check(got, want, oracle)


def test_jnp_functions_of_small_float32_arrays_match_jax():
    rng = np.random.default_rng(7)
    x = _random((40, 50), np.float32, rng)
    for ax in (0, 1):
        got = _both(lambda a, ax=ax: jnp.mean(a, axis=ax), x)
        want = _model(x, (ax,)) * np.float32(1 / np.float32(x.shape[ax]))
        _check(got, want, _jax("jnp.mean", x, axis=ax))


def test_products_follow_the_same_tree_and_zero_sums_are_positive():
    x = np.asarray(1 + np.random.default_rng(3).standard_normal(300) / 4, np.float32)
    got = _both(lambda a: lax.reduce_prod(a, (0,)), x)
    # 300 -> 320 (10 of padding first): windows 0-21, 22-53, ...
    wins = [x[max(0, s - 10) : s + 22] for s in range(0, 320, 32)]
    acc = np.float32(1)
    for w in wins:
        p = np.float32(1)
        for v in w:
            p = np.float32(p * v)
        acc = np.float32(acc * p)
    want = acc
    _check(got, want, _jax("lax.reduce_prod", x, (0,)))
    z = np.full((3, 40), -0.0, np.float32)
    got = _both(lambda a: lax.reduce_sum(a, (1,)), z)
    _check(got, np.zeros(3), _jax("lax.reduce_sum", z, (1,)))
    # one element per output is the element itself (XLA's reshape)
    got = _both(lambda a: lax.reduce_sum(a, (0,)), z[:1])
    _check(got, z[0], _jax("lax.reduce_sum", z[:1], (0,)))
