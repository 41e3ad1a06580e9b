"""The stax networks of test_stax.py, shared with make_stax_reference.py (which records
JAX's parameters for them into stax_reference.npz)."""

from __future__ import annotations

# Each network strings several layers together, so one JAX compilation covers them all; a
# wrong layer (shape, parameters, key order or values) changes the network's results.
NETS = {
    "nhwc": (
        lambda s: s.serial(
            s.Conv(4, (3, 3), strides=(2, 1), padding="SAME"),
            s.BatchNorm(),
            s.Relu,
            s.MaxPool((2, 2), strides=(1, 2)),
            s.Conv(3, (2, 2)),
            s.SumPool((3, 2), padding="SAME"),
            s.AvgPool((2, 2), strides=(2, 2), padding="SAME"),
            s.Flatten,
            s.Dense(5, W_init=s.glorot_normal(), b_init=s.randn(0.5)),
            s.Tanh,
            s.Dense(3),
            s.LogSoftmax,
        ),
        (2, 9, 8, 3),
    ),
    "nchw": (
        lambda s: s.serial(
            s.GeneralConv(("NCHW", "OIHW", "NCHW"), 3, (3, 2), padding="SAME"),
            s.AvgPool((2, 2), spec="NCHW", padding="SAME"),
            s.BatchNorm(axis=(0, 2, 3), center=False, gamma_init=s.randn(1.0)),
            s.Elu,
            s.Flatten,
            s.Dense(4),
            s.Softmax,
        ),
        (2, 2, 6, 5),
    ),
    "transpose": (
        lambda s: s.serial(
            s.ConvTranspose(3, (3, 3), strides=(2, 2)),
            s.BatchNorm(axis=(0, 1, 2), scale=False, beta_init=s.randn()),
            s.Gelu,
            s.Flatten,
            s.shape_dependent(lambda shape: s.Dense(shape[-1] // 10)),
            s.Selu,
        ),
        (1, 4, 4, 2),
    ),
    "conv1d-transpose": (
        lambda s: s.serial(
            s.Conv1DTranspose(2, (3,), padding="SAME"),
            s.BatchNorm(axis=0, center=False, scale=False),
            s.LeakyRelu,
            s.Flatten,
            s.Dense(3),
            s.Softplus,
            s.Identity,
            s.Sigmoid,
        ),
        (2, 5, 3),
    ),
    "fan": (
        lambda s: s.serial(
            s.Dense(4),
            s.FanOut(3),
            s.parallel(s.Dense(4), s.serial(s.Dense(4), s.Relu), s.Identity),
            s.parallel(s.Identity, s.Identity, s.Dense(4)),
            s.FanInSum,
            s.FanOut(2),
            s.parallel(s.Dense(3), s.Dense(5)),
            s.FanInConcat(axis=-1),
            s.Exp,
        ),
        (2, 4),
    ),
    # Dropout inside serial: the apply key is split once per layer, in JAX's order
    "dropout": (
        lambda s: s.serial(s.Dense(8), s.Dropout(0.5), s.Relu, s.Dropout(0.8), s.Dense(2)),
        (6, 3),
    ),
}


def seed(name: str) -> int:
    return len(name)
