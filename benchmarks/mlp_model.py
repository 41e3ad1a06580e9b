"""The model of the autodiff benchmark (``workloads_ad``): a tanh MLP with a softmax
cross-entropy loss, written once for any library. tests/compile/test_fold_and_tail.py
compiles the same loss at other sizes and checks its step's bits."""

from __future__ import annotations


def mlp_loss(jnp, n_classes: int):
    """``loss(params, x, y)``: ``params`` a list of ``(w, b)``, ``x`` float32[batch, in],
    ``y`` int32[batch] labels in ``[0, n_classes)``; the mean cross-entropy, a scalar."""

    def loss(params, x, y):
        h = x
        for w, b in params[:-1]:
            h = jnp.tanh(h @ w + b)
        w, b = params[-1]
        logits = h @ w + b
        logits = logits - jnp.max(logits, axis=1, keepdims=True)
        log_z = jnp.log(jnp.sum(jnp.exp(logits), axis=1))
        onehot = (y[:, None] == jnp.arange(n_classes)[None, :]).astype(jnp.float32)
        return jnp.mean(log_z - jnp.sum(onehot * logits, axis=1))

    return loss
