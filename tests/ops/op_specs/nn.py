"""Op-spec rows: jax.nn."""

from __future__ import annotations

import numpy as np

from ._base import NN, S34, A, F, I, OpSpec, add

# ---------------------------------------------------------------------------- jax.nn
add(
    OpSpec("nn_relu", NN("relu"), (A(S34),), lambda x: np.maximum(x, 0)),
    OpSpec("nn_relu6", NN("relu6"), (A(S34, F, -3, 8),), lambda x: np.clip(x, 0, 6)),
    OpSpec("nn_elu", NN("elu"), (A(S34),), None, grad=1),
    OpSpec("nn_selu", NN("selu"), (A(S34),), None, grad=1),
    OpSpec("nn_celu", NN("celu"), (A(S34),), None, grad=1),
    OpSpec("nn_leaky_relu", NN("leaky_relu"), (A(S34),), None, grad=1),
    OpSpec("nn_gelu_tanh", NN("gelu"), (A(S34),), None, grad=2),
    OpSpec("nn_gelu_exact", NN("gelu", approximate=False), (A(S34),), None, grad=2),
    OpSpec("nn_silu", NN("silu"), (A(S34),), lambda x: x / (1 + np.exp(-x)), grad=2),
    OpSpec("nn_swish", NN("swish"), (A(S34),), lambda x: x / (1 + np.exp(-x)), grad=1),
    OpSpec("nn_sigmoid", NN("sigmoid"), (A(S34),), lambda x: 1 / (1 + np.exp(-x)), grad=2),
    OpSpec("nn_softplus", NN("softplus"), (A(S34),), lambda x: np.logaddexp(x, 0), grad=2),
    OpSpec("nn_soft_sign", NN("soft_sign"), (A(S34),), lambda x: x / (np.abs(x) + 1)),
    OpSpec("nn_log_sigmoid", NN("log_sigmoid"), (A(S34),), lambda x: -np.logaddexp(0, -x), grad=2),
    OpSpec("nn_hard_tanh", NN("hard_tanh"), (A(S34),), lambda x: np.clip(x, -1, 1)),
    OpSpec("nn_softmax", NN("softmax"), (A(S34),), None, grad=2),
    OpSpec("nn_softmax_ax0", NN("softmax", axis=0), (A(S34),), None, grad=1),
    OpSpec("nn_log_softmax", NN("log_softmax"), (A(S34),), None, grad=2),
    OpSpec("nn_logsumexp", NN("logsumexp", axis=1), (A(S34),), None, grad=2),
    OpSpec("nn_one_hot", NN("one_hot", num_classes=5), (A((4,), I, 0, 6),), None, grad=0),
    OpSpec("nn_standardize", NN("standardize"), (A(S34),), None, grad=1, rtol=1e-4),
    OpSpec("nn_glu", NN("glu"), (A(S34),), None, grad=1),
    OpSpec("nn_relu_int", NN("relu"), (A(S34, I, -3, 3),), lambda x: np.maximum(x, 0), grad=0),
)
