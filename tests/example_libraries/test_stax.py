"""jax.example_libraries.stax against JAX 0.10.2: output shapes, parameters (the same key
gives bit-identical parameters: jaxlite.random is bit-exact with JAX and the keys are split
in JAX's order) and outputs of every layer, strung into a few networks (stax_nets.py);
Dropout's keep-probability convention and its missing-key error; serial/parallel/FanOut/
FanIn/shape_dependent; a CNN's gradient under jit; vmap of apply.

JAX's parameters for the networks are recorded (stax_reference.npz, by
make_stax_reference.py): JAX compiles every operation of the initializers (threefry
included), seconds per network. One small init is compared with JAX live; the networks'
outputs and gradients are computed by JAX live (jitted) from the same parameters.
"""

from __future__ import annotations

import importlib
import pathlib

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp
from jaxlite.example_libraries import stax

from .stax_nets import NETS, seed

ref = pytest.importorskip("jax")
ref.config.update("jax_platforms", "cpu")
ref_stax = importlib.import_module("jax.example_libraries.stax")

RECORDED = np.load(pathlib.Path(__file__).with_name("stax_reference.npz"))
RNG = np.random.default_rng(0)


def leaves(tree, lib=jaxlite):
    return [np.asarray(a) for a in lib.tree_util.tree_leaves(tree)]


def as_numpy(tree):
    return jaxlite.tree_util.tree_map(np.asarray, tree)


def shape_of(s):
    return tuple(int(d) for d in s)


def test_live_init_is_bit_exact():
    make = lambda s: s.serial(s.Dense(3), s.Relu, s.Dense(2, b_init=s.randn(0.3)))  # noqa: E731
    shape, params = make(stax)[0](jaxlite.random.key(42), (5, 4))
    rshape, rparams = make(ref_stax)[0](ref.random.key(42), (5, 4))
    assert shape == rshape == (5, 2)
    got, want = leaves(params), leaves(rparams, ref)
    assert len(got) == len(want) == 4
    for a, b in zip(got, want):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)


def test_recording_covers_every_network():
    assert {k.split("|")[0] for k in RECORDED.files} == set(NETS)


@pytest.mark.parametrize("name", list(NETS))
def test_network_matches_jax(name):
    make, in_shape = NETS[name]
    init, apply = make(stax)
    shape, params = init(jaxlite.random.key(seed(name)), in_shape)
    assert shape_of(shape) == tuple(RECORDED[f"{name}|shape"])
    got = leaves(params)
    want = [RECORDED[f"{name}|{i}"] for i in range(len(got))]
    assert f"{name}|{len(got)}" not in RECORDED
    for a, b in zip(got, want):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a, b)  # bit-exact with JAX's eager init
    x = RNG.normal(size=in_shape).astype(np.float32)
    rapply = make(ref_stax)[1]
    if name == "dropout":
        out = apply(params, x, rng=jaxlite.random.key(7))
        rfun = ref.jit(lambda p, x, k: rapply(p, x, rng=k))
        want_out = rfun(as_numpy(params), x, ref.random.key(7))
    else:
        out, want_out = apply(params, x), ref.jit(rapply)(as_numpy(params), x)
    assert out.shape == want_out.shape == shape_of(shape)
    np.testing.assert_allclose(np.asarray(out), np.asarray(want_out), rtol=1e-5, atol=1e-6)


def test_layer_shapes_and_params():
    key = jaxlite.random.key(0)
    shape, (W, b) = stax.Dense(7)[0](key, (4, 5))
    assert shape == (4, 7) and W.shape == (5, 7) and b.shape == (7,)
    shape, (W, b) = stax.Conv(4, (3, 2), strides=(2, 2), padding="SAME")[0](key, (2, 7, 6, 3))
    assert shape_of(shape) == (2, 4, 3, 4) and W.shape == (3, 2, 3, 4) and b.shape == (1, 1, 1, 4)
    shape, (beta, gamma) = stax.BatchNorm()[0](key, (3, 4, 4, 2))
    assert shape == (3, 4, 4, 2) and beta.shape == gamma.shape == (2,)
    assert stax.BatchNorm(center=False, scale=False)[0](key, (3, 4, 4, 2))[1] == ((), ())
    assert shape_of(stax.MaxPool((2, 2), strides=(2, 2))[0](key, (2, 6, 5, 3))[0]) == (2, 3, 2, 3)
    assert stax.Flatten[0](key, (2, 3, 4)) == ((2, 12), ())
    assert stax.FanInConcat()[0](key, [(2, 3), (2, 5)]) == ((2, 8), ())
    shapes, params = stax.parallel(stax.Dense(2), stax.Dense(3))[0](key, ((1, 4), (1, 5)))
    assert shapes == ((1, 2), (1, 3)) and len(params) == 2


def test_avg_pool_counts_only_real_elements():
    x = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
    out = stax.AvgPool((3, 3), padding="SAME")[1]((), x)
    # corner window covers 4 real elements: (0 + 1 + 4 + 5) / 4
    assert float(out[0, 0, 0, 0]) == 2.5
    np.testing.assert_allclose(np.asarray(out)[0, 1:3, 1:3, 0], [[5, 6], [9, 10]])


def test_elementwise_layers_match_jax():
    x = RNG.normal(size=(3, 5)).astype(np.float32)
    names = ["Tanh", "Relu", "Exp", "LogSoftmax", "Softmax", "Softplus", "Sigmoid", "Elu"]
    for name in names + ["LeakyRelu", "Selu", "Gelu"]:
        init, apply = getattr(stax, name)
        assert init(jaxlite.random.key(0), (3, 5)) == ((3, 5), ())
        want = ref.jit(getattr(ref_stax, name)[1])((), x)
        np.testing.assert_allclose(np.asarray(apply((), x)), np.asarray(want), rtol=2e-6, atol=1e-6)
    init, apply = stax.elementwise(jnp.clip, min=-0.5, max=0.25)
    np.testing.assert_array_equal(np.asarray(apply((), x)), np.clip(x, -0.5, 0.25))


def test_dropout():
    x = RNG.normal(size=(50, 40)).astype(np.float32) + 3.0
    init, apply = stax.Dropout(0.7)
    _, rapply = ref_stax.Dropout(0.7)
    got = apply((), x, rng=jaxlite.random.key(3))
    want = ref.jit(lambda x, k: rapply((), x, rng=k))(x, ref.random.key(3))
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)
    kept = np.asarray(got) != 0
    assert abs(kept.mean() - 0.7) < 0.05  # `rate` is the keep probability, as in JAX
    np.testing.assert_allclose(np.asarray(got)[kept], x[kept] / 0.7, rtol=1e-6)
    _, test_apply = stax.Dropout(0.7, mode="test")
    assert test_apply((), x, rng=jaxlite.random.key(3)) is x
    with pytest.raises(ValueError) as e1:
        apply((), x)
    with pytest.raises(ValueError) as e2:
        rapply((), x)
    assert str(e1.value) == str(e2.value)


def cnn(s):
    return s.serial(
        s.Conv(4, (3, 3), padding="SAME"),
        s.BatchNorm(),
        s.Relu,
        s.MaxPool((2, 2), strides=(2, 2)),
        s.Flatten,
        s.Dense(3),
        s.LogSoftmax,
    )


def test_cnn_grad_under_jit_and_vmap_of_apply():
    init, apply = cnn(stax)
    params = init(jaxlite.random.key(11), (2, 6, 6, 3))[1]
    x = RNG.normal(size=(2, 6, 6, 3)).astype(np.float32)
    labels = np.eye(3, dtype=np.float32)[[0, 2]]

    def loss(apply_fn):
        return lambda p, x: -(apply_fn(p, x) * labels).sum()

    got = jaxlite.jit(jaxlite.grad(loss(apply)))(params, x)
    want = ref.jit(ref.grad(loss(cnn(ref_stax)[1])))(as_numpy(params), x)
    for a, b in zip(leaves(got), leaves(want, ref)):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)
    # vmap over examples (BatchNorm then normalises within each example)
    batched = jaxlite.vmap(lambda xi: apply(params, xi))(x[:, None])
    for i in range(2):
        np.testing.assert_allclose(
            np.asarray(batched[i]), np.asarray(apply(params, x[i : i + 1])), rtol=1e-5, atol=1e-6
        )


def test_public_names_match_jax():
    assert stax.glorot is stax.glorot_normal
    assert stax.randn is stax.normal
    assert stax.logsoftmax is stax.log_softmax
    missing = [n for n in dir(ref_stax) if not n.startswith("_") and not hasattr(stax, n)]
    assert missing == []
