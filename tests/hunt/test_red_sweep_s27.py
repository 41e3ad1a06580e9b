"""Session 27: XLA-order reductions made cheap (``ops/reduce_order.plan``) without changing a
bit, and the reduction fidelity items left open by session 26.

The planned folds (a contiguous run per window, a ``reduce`` over a middle axis, or one
gather into rows or runs, chosen per level) are checked bit for bit against
``reduce_order.general_reduce``, the plain fold (every window moved to the leading axis and
accumulated from a row of the identity), itself checked here against a Python loop of XLA's
tree and in tests/hunt/test_red_sweep_s26.py against JAX. NaN payloads are not compared
(docs/compat.md: NaN bits)."""

import itertools

import ml_dtypes
import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax
from jaxlite._src.ops import reduce_order

try:
    import jax as real_jax
except ImportError:
    real_jax = None

BF16 = ml_dtypes.bfloat16
DTYPES = [np.float32, np.float64, np.float16, BF16, np.complex64]

# (shape, axes): vectors of every level count, row sums, middle axes with few and many kept
# elements, axis tuples with one and two windowed dimensions, size-1 axes, 3-level trees
SHAPES = [
    ((7,), (0,)), ((33,), (0,)), ((100,), (0,)), ((1000,), (0,)), ((1025,), (0,)),
    ((4095,), (0,)), ((128, 10), (0, 1)), ((128, 10), (0,)), ((10, 128), (1,)),
    ((40, 50), (0, 1)), ((40, 50), (0,)), ((40, 50), (1,)), ((64, 64), (0,)),
    ((8, 10), (0, 1)), ((3, 40, 5), (1, 2)), ((5, 6, 40), (0, 2)), ((1000, 2), (0,)),
    ((2, 70, 3), (1,)), ((40, 3, 50), (1,)), ((34, 3, 35), (0, 2)), ((1, 40), (0, 1)),
    ((40, 1), (0,)), ((6, 35, 33), (1, 2)), ((33, 33, 33), (0, 1, 2)), ((2, 40, 3, 40), (1, 3)),
]  # fmt: skip


def _data(shape, dt, kind, rng):
    with np.errstate(all="ignore"):
        return _draw(shape, dt, kind, rng)


def _draw(shape, dt, kind, rng):
    n = int(np.prod(shape))
    if kind == "random":
        v = rng.standard_normal(n) * np.exp2(rng.integers(-20, 20, n))
    elif kind == "zeros":  # signed zeros: a sum's sign depends on the fold's start
        v = np.where(rng.random(n) < 0.5, 0.0, -0.0)
    elif kind == "specials":
        v = rng.choice([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 3e38, -3e38, 1e-40], n)
    elif kind == "cancel":  # huge cancellations: the association decides the result
        v = rng.choice([1e30, -1e30, 1.0, -1.0, 3.0, 1e-30], n) * (rng.random(n) < 0.3)
    else:  # near 1: products neither overflow nor vanish
        v = 1 + rng.standard_normal(n) / 8
    if np.dtype(dt).kind == "c":
        v = v + 1j * np.roll(v, 1)[::-1]
    return np.asarray(v).astype(dt).reshape(shape)


def _bits(a):
    a = np.ascontiguousarray(a)
    if a.dtype.kind == "c":
        a = a.reshape(-1).view(a.real.dtype)
    return a.reshape(-1).view(np.dtype(f"u{a.dtype.itemsize}"))


def _parts(a):
    """The real numbers of ``a`` (both parts of a complex), as float64."""
    a = np.ascontiguousarray(a)
    return (a.reshape(-1).view(a.real.dtype) if a.dtype.kind == "c" else a.ravel()).astype(
        np.float64
    )


def _assert_same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype
    nan = np.isnan(_parts(want)) & np.isnan(_parts(got))
    np.testing.assert_array_equal(_bits(got)[~nan], _bits(want)[~nan])


@pytest.mark.parametrize("ufunc", [np.add, np.multiply], ids=["sum", "prod"])
@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: np.dtype(d).name)
def test_planned_folds_equal_the_general_fold_bit_for_bit(dt, ufunc):
    rng = np.random.default_rng(27)
    identity = 0 if ufunc is np.add else 1
    kinds = ["random", "zeros", "specials", "cancel", "near1"]
    for (shape, axes), kind in itertools.product(SHAPES, kinds):
        x = _data(shape, dt, kind, rng)
        if x.ndim > 1 and kind == "cancel":
            x = np.asfortranarray(x)  # a layout NumPy's reduce would iterate differently
        with np.errstate(all="ignore"):
            want = reduce_order.general_reduce(ufunc, identity, x, axes)
            got = reduce_order.tree_reduce(ufunc, x, axes)
        _assert_same(got, want)


def _loop_model(ufunc, x, axes):
    """XLA's window tree as Python loops over the elements, rounding after every step."""
    identity = x.dtype.type(0 if ufunc is np.add else 1)
    kept = [a for a in range(x.ndim) if a not in axes]
    rows = np.transpose(x, list(axes) + kept).reshape(-1, int(np.prod([x.shape[a] for a in kept])))
    dims = [x.shape[a] for a in axes]
    while True:
        last = max(dims) <= 32
        w = [d if last else min(d, 32) for d in dims]
        n = [-(-d // k) for d, k in zip(dims, w)]
        lo = [(c * k - d) // 2 for c, k, d in zip(n, w, dims)]
        out = np.full((int(np.prod(n)), rows.shape[1]), identity)
        for r, idx in enumerate(np.ndindex(*dims)):
            win = np.ravel_multi_index([(i + p) // k for i, p, k in zip(idx, lo, w)], n)
            out[win] = ufunc(out[win], rows[r])
        rows, dims = out, n
        if last:
            return rows[0].reshape([x.shape[a] for a in kept])


@pytest.mark.parametrize(
    "shape,axes", [((70,), (0,)), ((5, 40), (1,)), ((40, 5), (0,)), ((35, 3, 34), (0, 2))]
)
@pytest.mark.parametrize("dt", [np.float32, np.complex64])
def test_general_fold_is_the_window_tree(shape, axes, dt):
    rng = np.random.default_rng(3)
    cases = [("random", np.add), ("zeros", np.add), ("specials", np.add)]
    if dt != np.complex64:  # NumPy's complex multiply depends on the loop: not a reference
        cases.append(("near1", np.multiply))
    for kind, ufunc in cases:
        x = _data(shape, dt, kind, rng)
        identity = 0 if ufunc is np.add else 1
        with np.errstate(all="ignore"):
            want = _loop_model(ufunc, x, axes)
            _assert_same(reduce_order.general_reduce(ufunc, identity, x, axes), want)
            _assert_same(reduce_order.tree_reduce(ufunc, x, axes), want)


@pytest.mark.parametrize("dt", [np.float32, np.float16, np.complex64])
def test_jit_runs_the_same_plan_as_eager(dt):
    rng = np.random.default_rng(5)
    x = _data((40, 50), dt, "random", rng)
    fns = [
        lambda a: jnp.sum(a),
        lambda a: jnp.sum(a, axis=1, keepdims=True),
        lambda a: lax.reduce_sum(a, (0,)),
        lambda a: jnp.mean(a, axis=(0, 1)),
        lambda a: lax.reduce_prod(a[:, :3] / 2 + 1, (0,)),
    ]
    for f in fns:
        eager, jitted = np.asarray(f(x)), np.asarray(jax.jit(f)(x))
        _assert_same(jitted, eager)
    with np.errstate(all="ignore"):  # float16 sums of this range overflow
        want = reduce_order.general_reduce(np.add, 0, x, (0,))
    _assert_same(np.asarray(jax.jit(lambda a: lax.reduce_sum(a, (0,)))(x)), want)
    if real_jax is not None and dt != np.float16:
        oracle = np.asarray(real_jax.jit(lambda a: real_jax.lax.reduce_sum(a, (0,)))(x))
        _assert_same(want, oracle)


# ------------------------------------------------------------------- fidelity items (item 2)
def _jax_or_none(fn):
    return None if real_jax is None else np.asarray(fn(real_jax))


def test_bfloat16_norm_squares_in_float32():
    # JAX's jitted norm: XLA computes the bfloat16 square in float32 and sums it unrounded
    # (float32), then rounds the sum to bfloat16 before the square root. Column
    # [1, 1 + 11 * 2**-7, 1]: the middle square, 1 + 22 * 2**-7 + 121 * 2**-14, rounds up to
    # 1 + 23 * 2**-7 in bfloat16, and 3 + 23 * 2**-7 is a tie that rounds to 3 + 12 * 2**-6;
    # the float32 sum, 3 + 22 * 2**-7 + 121 * 2**-14, rounds down to 3 + 11 * 2**-6. Square
    # roots: 1.78125 (JAX) against 1.7890625 (bfloat16 squares).
    x = np.ones((3, 2), BF16)
    x[1] = 1 + 11 * 2.0**-7
    want = np.sqrt(np.float32(3 + 11 * 2.0**-6)).astype(BF16)
    assert float(want) == 1.78125
    assert float(np.sqrt(np.float32(np.asarray(3 + 23 * 2.0**-7, BF16))).astype(BF16)) == 1.7890625
    for f in (lambda m, a: m.linalg.norm(a, axis=0), lambda m, a: m.linalg.norm(a[:, :1], "fro")):
        got = np.asarray(f(jnp, x))
        assert got.dtype == BF16 and (got == want).all()
        assert (np.asarray(jax.jit(lambda a, f=f: f(jnp, a))(x)) == want).all()
        oracle = _jax_or_none(lambda m, f=f: f(m.numpy, x))
        if oracle is not None:
            np.testing.assert_array_equal(_bits(got), _bits(oracle))
    rng = np.random.default_rng(0)
    cols = rng.standard_normal((3, 500)).astype(BF16)
    oracle = _jax_or_none(lambda m: m.numpy.linalg.norm(cols, axis=0))
    if oracle is not None:
        np.testing.assert_array_equal(_bits(jnp.linalg.norm(cols, axis=0)), _bits(oracle))


def _sequential(x, w, s, dt, ufunc=np.add):
    """1-D reduce-window: each window folded element by element from the identity."""
    n_out = (len(x) - w) // s + 1
    acc = np.full(n_out, 0 if ufunc is np.add else 1, dt)
    for k in range(w):
        acc = ufunc(acc, x[k : k + (n_out - 1) * s + 1 : s]).astype(dt)
    return acc


@pytest.mark.parametrize("dt", [BF16, np.float16, np.float32])
def test_reduce_window_folds_each_window_in_order(dt):
    # XLA:CPU's reduce-window adds a window one element after the other (its reductions'
    # window tree does not apply): a window of 40 or 64 differs from the tree in most sums
    rng = np.random.default_rng(11)
    x = (rng.standard_normal(257) * np.exp2(rng.integers(-8, 8, 257))).astype(dt)
    for w, s in [(40, 1), (64, 3), (33, 5)]:
        want = _sequential(x, w, s, dt)
        f = lambda a, w=w, s=s: lax.reduce_window(a, np.array(0, dt), lax.add, (w,), (s,), "VALID")  # noqa: E731
        got = np.asarray(f(x))
        np.testing.assert_array_equal(_bits(got), _bits(want))
        np.testing.assert_array_equal(_bits(jax.jit(f)(x)), _bits(want))
        oracle = _jax_or_none(
            lambda m, w=w, s=s: m.lax.reduce_window(
                x, np.array(0, dt), m.lax.add, (w,), (s,), "VALID"
            )
        )
        if oracle is not None:
            np.testing.assert_array_equal(_bits(got), _bits(oracle))
    y = (1 + x / 64).astype(dt)
    f = lambda a: lax.reduce_window(a, np.array(1, dt), lax.mul, (50,), (7,), "VALID")  # noqa: E731
    np.testing.assert_array_equal(_bits(f(y)), _bits(_sequential(y, 50, 7, dt, np.multiply)))


def test_cumlogsumexp_scans_in_blocks_of_16():
    # XLA runs cumlogsumexp as it runs cumsum: a reduce-window scan of blocks of 16 whose
    # totals are scanned the same way; an output past the first block combines the scan of
    # the totals before its block with its block's own running fold (the running fold over
    # all elements, NumPy's accumulate, rounds differently in most of them).
    rng = np.random.default_rng(4)
    x = (rng.standard_normal((2, 100)) * 4).astype(np.float32)
    got = np.asarray(lax.cumlogsumexp(x, axis=1))
    la = np.logaddexp
    block0 = la.accumulate(x[:, :16], axis=1)
    np.testing.assert_array_equal(got[:, :16], block0)
    inner = la.accumulate(x[:, 16:32], axis=1)
    np.testing.assert_array_equal(got[:, 16:32], la(block0[:, -1:], inner))
    assert not np.array_equal(got, la.accumulate(x, axis=1))  # the plain running fold differs
    np.testing.assert_array_equal(
        np.asarray(jax.jit(lambda a: lax.cumlogsumexp(a, axis=1))(x)), got
    )
    if real_jax is not None:
        oracle = np.asarray(real_jax.lax.cumlogsumexp(x, axis=1))
        # the order is XLA's; its exp / log1p may round a few elements differently
        assert np.mean(oracle == got) > 0.97
        assert np.mean(oracle == la.accumulate(x, axis=1)) < 0.7
