"""``jax.nn.dot_product_attention`` against real JAX: every mask kind, grouped heads,
low precision, the residual, and JAX's argument errors.

Found by a sweep against JAX 0.10.2: ``local_window_size`` was ignored (every query
attended to every key) and padded query rows (``query_seq_lengths``) were not zeroed.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.nn  # noqa: E402,F401

import jaxlite  # noqa: E402
import jaxlite.nn  # noqa: E402,F401

B, T, S, N, H = 2, 4, 5, 2, 3
_rng = np.random.RandomState(0)
Q = _rng.randn(B, T, N, H).astype(np.float32)
K = _rng.randn(B, S, N, H).astype(np.float32)
V = _rng.randn(B, S, N, H).astype(np.float32)
K1 = _rng.randn(B, S, 1, H).astype(np.float32)  # one key/value head: grouped-query
BIAS = _rng.randn(B, N, T, S).astype(np.float32)
MASK = _rng.rand(B, N, T, S) > 0.3
LENS = dict(query_seq_lengths=np.array([2, 4], np.int32))
KVLENS = dict(key_value_seq_lengths=np.array([3, 5], np.int32))

CASES = {
    "plain": ((Q, K, V), {}),
    "bias": ((Q, K, V), dict(bias=BIAS)),
    "bias_3d": ((Q, K, V), dict(bias=BIAS[0])),
    "mask": ((Q, K, V), dict(mask=MASK)),
    "mask_2d": ((Q, K, V), dict(mask=MASK[0, 0])),
    "causal": ((Q, K[:, :4], V[:, :4]), dict(is_causal=True)),
    "scale": ((Q, K, V), dict(scale=0.3)),
    "unbatched": ((Q[0], K[0], V[0]), {}),
    "query_lengths": ((Q, K, V), LENS),
    "kv_lengths": ((Q, K, V), KVLENS),
    "both_lengths": ((Q, K, V), {**LENS, **KVLENS}),
    "window": ((Q, K[:, :4], V[:, :4]), dict(local_window_size=(1, 1))),
    "window_int_causal": ((Q, K[:, :4], V[:, :4]), dict(local_window_size=2, is_causal=True)),
    "grouped": ((Q, K1, K1), {}),
    "grouped_mask_bias": ((Q, K1, K1), dict(mask=MASK, bias=BIAS[:, :1])),
    "everything": ((Q, K, V), dict(bias=BIAS, mask=MASK, is_causal=True, **LENS, **KVLENS)),
}


def _np(tree, lib):
    return [np.asarray(t) for t in lib.tree_util.tree_leaves(tree)]


@pytest.mark.parametrize("case", sorted(CASES))
def test_values_and_gradients_match_jax(case):
    args, kw = CASES[case]
    want = _np(jax.nn.dot_product_attention(*args, **kw), jax)
    got = _np(jaxlite.nn.dot_product_attention(*args, **kw), jaxlite)
    got_jit = _np(
        jaxlite.jit(lambda *a: jaxlite.nn.dot_product_attention(*a, **kw))(*args), jaxlite
    )
    for g in (got, got_jit):
        np.testing.assert_allclose(g[0], want[0], rtol=2e-5, atol=2e-6)
        assert g[0].dtype == want[0].dtype

    def loss(lib):
        return lambda *a: (lib.nn.dot_product_attention(*a, **kw) * 1.37).sum()

    gw = jax.grad(loss(jax), argnums=(0, 1, 2))(*args)
    gl = jaxlite.grad(loss(jaxlite), argnums=(0, 1, 2))(*args)
    for a, b in zip(gl, gw):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=5e-5, atol=5e-6)


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16])
def test_low_precision_takes_the_softmax_in_float32(dtype):
    args = tuple(t.astype(dtype) for t in (Q, K, V))
    want = np.asarray(jax.nn.dot_product_attention(*args, mask=MASK, bias=BIAS), np.float64)
    got = jaxlite.nn.dot_product_attention(*args, mask=MASK, bias=BIAS)
    assert got.dtype == dtype
    np.testing.assert_allclose(np.asarray(got, np.float64), want, rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("batched", [True, False])
def test_residual(batched):
    args = (Q, K, V) if batched else (Q[0], K[0], V[0])
    kw = dict(mask=MASK if batched else MASK[0], return_residual=True, **(LENS if batched else {}))
    want = _np(jax.nn.dot_product_attention(*args, **kw), jax)
    got = _np(jaxlite.nn.dot_product_attention(*args, **kw), jaxlite)
    assert [g.shape for g in got] == [w.shape for w in want]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=2e-5, atol=2e-6)


@pytest.mark.parametrize(
    "kw",
    [
        dict(mask=MASK.astype(np.int32)),
        dict(implementation="foo"),
        dict(implementation="cudnn"),
        dict(query_seq_lengths=np.array([1, 2, 3], np.int32)),
        dict(key_value_seq_lengths=np.array([[1, 2]], np.int32)),
    ],
)
def test_argument_errors_match_jax(kw):
    with pytest.raises(Exception) as want:
        jax.nn.dot_product_attention(Q, K, V, **kw)
    with pytest.raises(type(want.value)) as got:
        jaxlite.nn.dot_product_attention(Q, K, V, **kw)
    assert str(got.value) == str(want.value)


def test_head_and_dtype_errors_match_jax():
    for args in [(Q, np.repeat(K1, 3, 2), np.repeat(K1, 3, 2)), (Q, K.astype(np.float16), V)]:
        with pytest.raises(ValueError) as want:
            jax.nn.dot_product_attention(*args)
        with pytest.raises(ValueError) as got:
            jaxlite.nn.dot_product_attention(*args)
        assert str(got.value) == str(want.value)


def test_one_hot_of_bool_is_refused_as_in_jax():
    with pytest.raises(TypeError) as want:
        jax.nn.one_hot(np.array([True, False]), 3)
    with pytest.raises(TypeError) as got:
        jaxlite.nn.one_hot(np.array([True, False]), 3)
    assert str(got.value) == str(want.value)
