"""``jax.nn.dot_product_attention`` (the XLA implementation's semantics, on jax.numpy).

Shapes use JAX's letters: ``B`` batch, ``T`` query length, ``S`` key/value length, ``N``
query heads, ``K`` key/value heads (``N % K == 0``: grouped-query attention), ``H`` head
size. The logits are accumulated in ``promote_types(query.dtype, float32)``, the softmax is
taken in float32, masked logits are replaced by a large finite negative number, and output
rows of padded queries (``query_seq_lengths``) are zero.
"""

from __future__ import annotations

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.nn import softmax
from jaxlite._src.numpy.creation import arange
from jaxlite._src.numpy.einsum import einsum
from jaxlite._src.numpy.shape import expand_dims, reshape, transpose
from jaxlite._src.numpy.ufuncs import (
    add,
    greater_equal,
    less,
    less_equal,
    logical_and,
    multiply,
    where as _where,
)
from jaxlite._src.numpy.util import asarray_any
from jaxlite._src.ops.structural import stop_gradient_p
from jaxlite._src.scipy.special import logsumexp


def _as_4d(t):
    t = asarray_any(t)
    return expand_dims(t, tuple(range(4 - t.ndim))) if t.ndim < 4 else t


def _check(t, shape, dtype, name):
    """JAX's argument checks (same messages): rank, then dtype, then each fixed dim."""
    if t is None:
        return
    if t.ndim != len(shape):
        raise ValueError(f"{name} ndim should be {len(shape)}, but got {t.ndim}")
    if dtype is not None and t.dtype != dtype:
        raise ValueError(f"{name} dtype should be {dtype}, but got {t.dtype}")
    if any(want != -1 and got != want for got, want in zip(t.shape, shape)):
        raise ValueError(f"{name} shape should be {list(shape)}: but got {t.shape}")


def _keep_mask(T, S, mask, is_causal, q_seqlen, kv_seqlen, window):
    """The combined boolean mask (True = attend), broadcastable to ``(B, N, T, S)``, or
    ``None`` when nothing is masked."""
    keep = mask
    q_pos, k_pos = arange(T)[:, None], arange(S)[None, :]

    def both(a, b):
        return b if a is None else logical_and(a, b)

    if is_causal:
        keep = both(keep, greater_equal(q_pos, k_pos)[None, None])
    if window is not None:
        left, right = window
        in_window = logical_and(
            less_equal(q_pos, add(k_pos, left)), greater_equal(q_pos, k_pos - right)
        )
        keep = both(keep, in_window[None, None])
    if q_seqlen is not None:
        keep = both(keep, less(arange(T)[None, :], q_seqlen[:, None])[:, None, :, None])
    if kv_seqlen is not None:
        keep = both(keep, less(arange(S)[None, :], kv_seqlen[:, None])[:, None, None, :])
    return keep


def dot_product_attention(
    query,
    key,
    value,
    bias=None,
    mask=None,
    *,
    scale=None,
    is_causal: bool = False,
    query_seq_lengths=None,
    key_value_seq_lengths=None,
    local_window_size=None,
    implementation=None,
    return_residual: bool = False,
):
    """``jax.nn.dot_product_attention``: ``softmax(q k^T * scale + bias, masked) v`` per head.

    Args:
        query: ``(B, T, N, H)`` or ``(T, N, H)``.
        key, value: ``(B, S, K, H)`` or ``(S, K, H)``, the dtype of ``query``; ``N`` must be
            a multiple of ``K`` (head ``n`` reads key/value head ``n // (N // K)``).
        bias: added to the logits; broadcastable to ``(B, N, T, S)`` (``(N, T, S)`` etc. get
            leading axes).
        mask: boolean, broadcastable to ``(B, N, T, S)``; True means attend.
        scale: multiplies the logits; default ``1 / sqrt(H)``.
        is_causal: query ``t`` attends only to keys ``s <= t``.
        query_seq_lengths, key_value_seq_lengths: int32 ``(B,)``: positions at or past the
            length are padding (padded query rows of the output are 0).
        local_window_size: ``w`` or ``(left, right)``: query ``t`` attends to keys
            ``t - left <= s <= t + right``.
        implementation: ``None`` or ``"xla"`` (``"cudnn"`` raises: there is no GPU).
        return_residual: also return the float32 log-sum-exp of the masked logits,
            ``(B, T, N)`` (as the output's dtype, gradient stopped).

    Returns:
        The attention output, shaped like ``query`` (and the residual when asked).

    Raises:
        ValueError: shapes, ranks or dtypes that do not fit (JAX's messages), an unknown
            ``implementation``.
        RuntimeError: ``implementation="cudnn"``.
    """
    out_shape = asarray_any(query).shape
    q, k, v = _as_4d(query), _as_4d(key), _as_4d(value)
    bias = None if bias is None else _as_4d(bias)
    mask = None if mask is None else _as_4d(mask)
    q_len = None if query_seq_lengths is None else asarray_any(query_seq_lengths)
    kv_len = None if key_value_seq_lengths is None else asarray_any(key_value_seq_lengths)
    if isinstance(local_window_size, int):
        local_window_size = (local_window_size, local_window_size)
    B, S, K, H = k.shape
    _check(v, [B, S, K, H], k.dtype, "value")
    _check(q, [B, -1, -1, H], k.dtype, "query")
    _check(mask, [-1] * 4, np.dtype(bool), "mask")
    _check(bias, [-1] * 4, None, "bias")
    _check(q_len, [B], np.dtype("int32"), "query_seq_lengths")
    _check(kv_len, [B], np.dtype("int32"), "key_value_seq_lengths")
    T, N = q.shape[1], q.shape[2]
    if N % K:
        raise ValueError(
            f"The number of query heads must be a multiple of key/value heads, but got {N} vs {K}"
        )
    if implementation == "cudnn":
        raise RuntimeError("cuDNN is not detected.")
    if implementation not in (None, "xla"):
        raise ValueError(f"Unsupported implementation option: {implementation}")
    scale = 1.0 / np.sqrt(H) if scale is None else scale
    G = N // K
    # Heads grouped as (K, G): query head n = k * G + g reads key/value head k.
    qg = reshape(q, (B, T, K, G, H))
    acc = dtypes.promote_types(q.dtype, np.float32)
    logits = einsum("btkgh,bskh->bkgts", qg, k, preferred_element_type=acc)
    logits = reshape(logits, (B, N, T, S))
    logits = multiply(logits, asarray_any(scale).astype(acc))
    if bias is not None:
        logits = add(logits, bias).astype(acc)
    keep = _keep_mask(T, S, mask, is_causal, q_len, kv_len, local_window_size)
    if keep is not None:
        big = min(float(dtypes.finfo(acc).max), float(dtypes.finfo(np.float32).max))
        logits = _where(keep, logits, asarray_any(-0.7 * big).astype(acc))
    logits = logits.astype(np.float32)
    probs = softmax(logits, axis=-1).astype(k.dtype)
    probs = reshape(probs, (B, K, G, T, S))
    out = reshape(einsum("bkgts,bskh->btkgh", probs, v), (B, T, N, H))
    if q_len is not None:
        rows = less(arange(T)[None, :], q_len[:, None])[:, :, None, None]
        out = multiply(out, rows.astype(out.dtype))
    out = reshape(out, out_shape)
    if not return_residual:
        return out
    lse = transpose(logsumexp(logits, axis=-1).astype(k.dtype), (0, 2, 1))
    return out, reshape(stop_gradient_p.bind(lse), out_shape[:-1])
