"""flax.nnx programs (and flax.linen's lifted transforms), each once on jaxlite and once on
JAX (``test_eco_programs.py``); the plain-jax reductions of what differed are in
``tests/hunt/test_eco_nnx.py``.

flax.nnx did not import on jaxlite before jaxlite provided ``jax.experimental.hijax``'s
classes, ``jax._src.state.types.AbstractRef`` and ``jax.Ref``/``jax.new_ref`` (the types
nnx's Variables test values against). Parameters are initialised through ``jax.random``
(bit-exact on jaxlite), so every value can be compared with JAX's.

Run as a script in a fresh interpreter: ``python eco_programs_nnx.py jaxlite|jax NAME...``
prints one JSON line per program, as ``eco_programs_s12.py`` (whose ``main`` it uses).
"""

import sys

if __name__ == "__main__" and sys.argv[1] == "jaxlite":
    import jaxlite

    jaxlite.install_as_jax()

import numpy as np  # noqa: E402


def _data(*shape, seed=0):
    import jax.numpy as jnp

    return jnp.asarray(np.random.RandomState(seed).randn(*shape).astype(np.float32))


def _mlp_class():
    from flax import nnx

    class MLP(nnx.Module):
        def __init__(self, din, dhidden, dout, *, rngs):
            # No bias before BatchNorm: its gradient is zero in exact arithmetic and
            # rounding noise in float32, which Adam turns into full-size steps of random
            # sign (docs/ecosystem.md), on JAX as on jaxlite.
            self.linear1 = nnx.Linear(din, dhidden, use_bias=False, rngs=rngs)
            self.bn = nnx.BatchNorm(dhidden, rngs=rngs)
            self.dropout = nnx.Dropout(0.25, rngs=rngs)
            self.linear2 = nnx.Linear(dhidden, dout, rngs=rngs)

        def __call__(self, x):
            h = nnx.relu(self.bn(self.linear1(x)))
            return self.linear2(self.dropout(h))

    return MLP


def nnx_mlp_forward():  # Linear/BatchNorm/Dropout/relu: init, train and eval forward passes
    from flax import nnx

    model = _mlp_class()(3, 8, 2, rngs=nnx.Rngs(0))
    x = _data(6, 3)
    train1 = model(x)  # dropout on, batch statistics updated
    train2 = model(x)  # the dropout key stream advanced
    model.eval()
    evaluated = model(x)
    return {
        "train1": train1,
        "train2": train2,
        "eval": evaluated,
        "state": nnx.state(model),
    }


def nnx_split_merge_update():  # split by filter, merge, state, update, clone
    import jax
    from flax import nnx

    model = _mlp_class()(4, 5, 3, rngs=nnx.Rngs(params=1, dropout=2))
    model.eval()
    graphdef, params, rest = nnx.split(model, nnx.Param, ...)
    x = _data(2, 4, seed=1)
    merged = nnx.merge(graphdef, params, rest)
    doubled = jax.tree.map(lambda a: 2 * a, params)
    nnx.update(merged, doubled)
    batch_stats = nnx.state(model, nnx.BatchStat)
    return {
        "params": params,
        "batch_stats": batch_stats,
        "y": model(x),
        "y_doubled": merged(x),
        "n_params": jax.numpy.asarray(len(jax.tree.leaves(params))),
        "clone": nnx.state(nnx.clone(merged), nnx.Param),
    }


def nnx_adam_training():  # nnx.jit + value_and_grad + nnx.Optimizer(optax.adam / adamw)
    import jax.numpy as jnp
    import optax
    from flax import nnx

    model = _mlp_class()(3, 16, 1, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(1e-2), wrt=nnx.Param)
    x = _data(32, 3, seed=2)
    y = jnp.sum(jnp.sin(x), axis=1, keepdims=True)

    @nnx.jit
    def train_step(model, optimizer, x, y):
        def loss_fn(model):
            return jnp.mean((model(x) - y) ** 2)

        loss, grads = nnx.value_and_grad(loss_fn)(model)
        optimizer.update(model, grads)
        return loss

    losses = jnp.stack([train_step(model, optimizer, x, y) for _ in range(5)])
    model.eval()

    small = nnx.Linear(3, 1, rngs=nnx.Rngs(1))  # AdamW, both arguments donated
    adamw = nnx.Optimizer(small, optax.adamw(1e-2, weight_decay=0.1), wrt=nnx.Param)

    @nnx.jit(donate_argnums=(0, 1))
    def adamw_step(m, opt):
        grads = nnx.grad(lambda m: jnp.mean((m(x) - y) ** 2))(m)
        opt.update(m, grads)

    for _ in range(3):
        adamw_step(small, adamw)
    return {
        "adamw_params": nnx.state(small, nnx.Param),
        "losses": losses,
        "params": nnx.state(model, nnx.Param),
        "batch_stats": nnx.state(model, nnx.BatchStat),
        "opt_state": nnx.state(optimizer, nnx.OptState),
        "eval_loss": jnp.mean((model(x) - y) ** 2),
    }


def nnx_grad_and_transforms():  # nnx.grad, remat, cond, fori_loop, jit with a Variable update
    import jax.numpy as jnp
    from flax import nnx

    model = nnx.Linear(3, 2, rngs=nnx.Rngs(4))
    x = _data(5, 3, seed=3)
    grads = nnx.grad(lambda m: jnp.sum(m(x) ** 2))(model)

    @nnx.remat
    def rematted(m, x):
        return nnx.gelu(m(x))

    def scale(i, m):
        m.kernel[...] = m.kernel[...] * 0.5
        return m

    cond_out = nnx.cond(True, lambda m, x: m(x), lambda m, x: -m(x), model, x)

    @nnx.jit
    def shift(m):
        m.bias[...] = m.bias[...] + 1.0
        return m(x)

    shifted = shift(model)
    looped = nnx.fori_loop(0, 3, scale, model)
    return {
        "grads": grads,
        "remat": rematted(model, x),
        "cond": cond_out,
        "shifted": shifted,
        "looped": nnx.state(looped),
    }


def nnx_vmap_scan():  # an ensemble built with split_rngs + vmap, layers run by nnx.scan
    import jax.numpy as jnp
    from flax import nnx

    @nnx.split_rngs(splits=4)
    @nnx.vmap(in_axes=(0,), out_axes=0)
    def make_ensemble(rngs):
        return nnx.Linear(3, 2, rngs=rngs)

    ensemble = make_ensemble(nnx.Rngs(1))
    x = _data(5, 3, seed=4)

    @nnx.vmap(in_axes=(0, None), out_axes=0)
    def ensemble_forward(m, x):
        return m(x)

    class Block(nnx.Module):
        def __init__(self, rngs):
            self.linear = nnx.Linear(4, 4, rngs=rngs)

        def __call__(self, x):
            return nnx.tanh(self.linear(x))

    @nnx.split_rngs(splits=3)
    @nnx.vmap(in_axes=(0,), out_axes=0)
    def make_blocks(rngs):
        return Block(rngs)

    blocks = make_blocks(nnx.Rngs(2))

    @nnx.scan(in_axes=(nnx.Carry, 0), out_axes=nnx.Carry)
    def run(h, block):
        return block(h)

    return {
        "ensemble": nnx.state(ensemble),
        "ensemble_y": ensemble_forward(ensemble, x),
        "blocks": nnx.state(blocks),
        "scanned": run(jnp.ones((2, 4)), blocks),
    }


def nnx_layers():  # convolutions, norms, embeddings, einsum, attention, LoRA, recurrent cells
    import jax.numpy as jnp
    from flax import nnx

    x = _data(2, 6, 6, 3, seed=5)
    seq = x[:, 0]  # (batch, time, features)
    return {
        "conv": nnx.Conv(3, 4, (3, 3), strides=(2, 1), rngs=nnx.Rngs(0))(x),
        "conv_transpose": nnx.ConvTranspose(3, 2, (3, 3), rngs=nnx.Rngs(1))(x),
        "layer_norm": nnx.LayerNorm(3, rngs=nnx.Rngs(0))(x),
        "rms_norm": nnx.RMSNorm(3, rngs=nnx.Rngs(0))(x),
        "group_norm": nnx.GroupNorm(3, num_groups=3, rngs=nnx.Rngs(0))(x),
        "embed": nnx.Embed(10, 4, rngs=nnx.Rngs(2))(jnp.array([1, 3, 9])),
        "einsum": nnx.Einsum("bi,io->bo", (3, 5), (5,), rngs=nnx.Rngs(3))(seq[:, 0]),
        "attention": nnx.MultiHeadAttention(
            num_heads=2, in_features=3, qkv_features=8, decode=False, rngs=nnx.Rngs(4)
        )(seq),
        "lora": nnx.LoRALinear(3, 4, lora_rank=2, rngs=nnx.Rngs(5))(seq[:, 0]),
        "lstm": nnx.RNN(nnx.LSTMCell(3, 5, rngs=nnx.Rngs(6)))(seq),
        "gru": nnx.RNN(nnx.GRUCell(3, 5, rngs=nnx.Rngs(7)))(seq),
        "sequential": nnx.Sequential(
            nnx.Linear(3, 4, rngs=nnx.Rngs(8)), nnx.gelu, nnx.Linear(4, 1, rngs=nnx.Rngs(9))
        )(seq[:, 0]),
    }


def nnx_control_flow_and_metrics():  # while/switch/checkify/custom_vjp/metrics/eval_shape
    import jax
    import jax.numpy as jnp
    from flax import nnx
    from jax.experimental import checkify

    x = _data(4, 3, seed=6)
    model = nnx.Linear(3, 3, rngs=nnx.Rngs(0))

    def grow(carry):
        m, i = carry
        m.kernel[...] = m.kernel[...] * 1.1
        return m, i + 1

    looped, count = nnx.while_loop(lambda c: c[1] < 4, grow, (model, 0))
    switched = nnx.switch(1, [lambda m, x: m(x), lambda m, x: 2 * m(x)], looped, x)

    def checked(m, x):
        checkify.check(jnp.all(jnp.isfinite(x)), "x must be finite")
        return m(x)

    err, y = nnx.checkify(checked)(looped, x)

    class Scale(nnx.Module):
        def __init__(self):
            self.w = nnx.Param(jnp.array([1.0, -2.0, 0.5]))

    @nnx.custom_vjp(graph_updates=True)
    def squashed(m, v):
        return jnp.sum(jnp.tanh(m.w * v))

    def squashed_fwd(m, v):
        t = jnp.tanh(m.w * v)
        return jnp.sum(t), (t, m, v)

    def squashed_bwd(res, g):
        input_updates, out_g = g
        t, m, v = res
        m_g = jax.tree.map(lambda a: a, input_updates[0])
        m_g["w"][...] = out_g * (1 - t**2) * v
        return m_g, out_g * (1 - t**2) * m.w

    squashed.defvjp(squashed_fwd, squashed_bwd)
    scale, v = Scale(), jnp.array([0.3, 0.1, -0.7])

    metrics = nnx.MultiMetric(accuracy=nnx.metrics.Accuracy(), loss=nnx.metrics.Average("loss"))
    logits = jnp.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]])
    metrics.update(logits=logits, labels=jnp.array([1, 1, 1]), loss=jnp.array(0.5))
    metrics.update(logits=logits, labels=jnp.array([0, 0, 1]), loss=jnp.array(1.5))
    abstract = nnx.eval_shape(lambda: nnx.Linear(3, 4, rngs=nnx.Rngs(0)))
    return {
        "looped": nnx.state(looped),
        "count": jnp.asarray(count),
        "switched": switched,
        "checked": y,
        "check_passed": jnp.asarray(err.get() is None),
        "custom_vjp_wrt_module": nnx.state(nnx.grad(squashed)(scale, v)),
        "custom_vjp_wrt_input": nnx.grad(squashed, argnums=1)(scale, v),
        "metrics": metrics.compute(),
        "eval_shape": jnp.asarray(abstract.kernel.shape),
    }


def nnx_rng_streams_and_lifted_grad():  # Rngs streams, vmapped dropout, grad of scan(remat)
    import jax
    import jax.numpy as jnp
    from flax import nnx

    rngs = nnx.Rngs(params=0, dropout=1)
    keys = [rngs.params(), rngs.dropout(), rngs.params()]
    dropout = nnx.Dropout(0.5, rngs=nnx.Rngs(3))

    @nnx.split_rngs(splits=4)
    @nnx.vmap(in_axes=(0, None))
    def dropped(m, x):
        return m(x)

    class Block(nnx.Module):
        def __init__(self, rngs):
            self.linear = nnx.Linear(3, 3, rngs=rngs)

        def __call__(self, h):
            return nnx.relu(self.linear(h))

    @nnx.split_rngs(splits=2)
    @nnx.vmap
    def make_blocks(rngs):
        return Block(rngs)

    blocks = make_blocks(nnx.Rngs(5))
    x = _data(2, 3, seed=7)

    def loss(blocks):
        @nnx.scan(in_axes=(nnx.Carry, 0), out_axes=nnx.Carry)
        @nnx.remat
        def run(h, block):
            return block(h)

        return jnp.sum(run(x, blocks))

    return {
        "keys": [jax.random.key_data(k) for k in keys],
        "dropped": dropped(dropout, jnp.ones((6,))),
        "scan_grads": nnx.state(nnx.grad(loss)(blocks)),
    }


def nnx_sharded_variables():  # nnx.with_partitioning under jax.set_mesh (Explicit and Auto)
    import jax
    import jax.numpy as jnp
    from flax import nnx
    from jax.sharding import AxisType

    x = _data(4, 6, seed=8)
    out = {}
    for name, types in (("explicit", (AxisType.Explicit,)), ("auto", (AxisType.Auto,))):
        with jax.set_mesh(jax.make_mesh((1,), ("d",), axis_types=types)):
            model = nnx.Linear(
                6,
                4,
                kernel_init=nnx.with_partitioning(nnx.initializers.lecun_normal(), (None, "d")),
                bias_init=nnx.with_partitioning(nnx.initializers.uniform(), ("d",)),
                rngs=nnx.Rngs(0),
            )
            out[name] = {
                "params": nnx.state(model),
                "y": nnx.jit(lambda m, x: m(x))(model, x),
                "grads": nnx.grad(lambda m: jnp.sum(m(x) ** 2))(model),
            }
    return out


def nnx_cnn_training():  # a small CNN trained in nnx.jit with metrics, per-example grads
    from functools import partial

    import jax.numpy as jnp
    import optax
    from flax import nnx

    class CNN(nnx.Module):
        def __init__(self, rngs):
            self.conv1 = nnx.Conv(1, 8, (3, 3), rngs=rngs)
            self.conv2 = nnx.Conv(8, 8, (3, 3), rngs=rngs)
            self.pool = partial(nnx.avg_pool, window_shape=(2, 2), strides=(2, 2))
            self.hidden = nnx.Linear(8 * 3 * 3, 16, rngs=rngs)
            self.dropout = nnx.Dropout(0.1, rngs=rngs)
            self.out = nnx.Linear(16, 10, rngs=rngs)

        def __call__(self, x):
            x = self.pool(nnx.relu(self.conv1(x)))
            x = self.pool(nnx.relu(self.conv2(x)))
            x = x.reshape(x.shape[0], -1)
            return self.out(self.dropout(nnx.relu(self.hidden(x))))

    images = jnp.abs(_data(8, 12, 12, 1, seed=9))
    labels = jnp.asarray(np.random.RandomState(1).randint(0, 10, 8))
    model = CNN(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adamw(1e-3, 0.9), wrt=nnx.Param)
    metrics = nnx.MultiMetric(accuracy=nnx.metrics.Accuracy(), loss=nnx.metrics.Average("loss"))

    def loss_fn(m, x, y):
        logits = m(x)
        return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean(), logits

    @nnx.jit
    def train_step(m, opt, metrics, x, y):
        (loss, logits), grads = nnx.value_and_grad(loss_fn, has_aux=True)(m, x, y)
        metrics.update(loss=loss, logits=logits, labels=y)
        opt.update(m, grads)

    for _ in range(3):
        train_step(model, optimizer, metrics, images, labels)

    class Blocks(nnx.Module):  # nnx.List of layers, nnx.static / nnx.data attributes
        def __init__(self, rngs):
            self.layers = nnx.List([nnx.Linear(4, 4, rngs=rngs) for _ in range(3)])
            self.depth = nnx.static(3)
            self.offset = nnx.data(jnp.full((4,), 0.5))

        def __call__(self, x):
            for layer in self.layers:
                x = layer(x)
            return x + self.offset

    blocks = Blocks(nnx.Rngs(2))
    per_example = nnx.vmap(nnx.grad(lambda m, x: jnp.sum(m(x) ** 2)), in_axes=(None, 0), out_axes=0)
    linear = nnx.Linear(3, 2, rngs=nnx.Rngs(3))
    return {
        "metrics": metrics.compute(),
        "params": nnx.state(model, nnx.Param),
        "blocks_y": blocks(jnp.ones((2, 4))),
        "n_modules": jnp.asarray(len(list(nnx.iter_modules(blocks)))),
        "per_example_grads": per_example(linear, _data(5, 3, seed=10)),
        "causal_attention": nnx.MultiHeadAttention(
            num_heads=2,
            in_features=4,
            qkv_features=8,
            dropout_rate=0.1,
            decode=False,
            rngs=nnx.Rngs(4),
        )(
            _data(2, 5, 4, seed=11),
            mask=nnx.make_causal_mask(jnp.ones((2, 5))),
            deterministic=False,
        ),
    }


def linen_lifted_transforms():  # flax.linen's nn.scan / nn.vmap / nn.remat / nn.jit
    import flax.linen as nn
    import jax
    import jax.numpy as jnp

    x = _data(5, 2, 3, seed=12)  # (time, batch, features)

    class Cell(nn.Module):
        @nn.compact
        def __call__(self, c, xi):
            h = nn.tanh(nn.Dense(3)(c) + nn.Dense(3)(xi))
            return h, h

    rnn = nn.scan(
        Cell, variable_broadcast="params", split_rngs={"params": False}, in_axes=0, out_axes=0
    )()
    c0 = jnp.zeros((2, 3))
    rnn_vars = rnn.init(jax.random.key(0), c0, x)

    class Block(nn.Module):
        @nn.compact
        def __call__(self, h, _):
            return nn.relu(nn.Dense(3)(h)), None

    stack = nn.scan(Block, variable_axes={"params": 0}, split_rngs={"params": True}, length=4)()
    stack_vars = stack.init(jax.random.key(3), x[0], None)
    ensemble = nn.vmap(
        nn.Dense, in_axes=0, out_axes=0, variable_axes={"params": 0}, split_rngs={"params": True}
    )(4)
    ensemble_vars = ensemble.init(jax.random.key(1), x)

    class Rematted(nn.Module):  # nn.remat passes the rng keys through jax.checkpoint
        @nn.compact
        def __call__(self, h):
            return jnp.sum(jnp.sin(nn.remat(nn.Dense)(4)(h))) + jnp.sum(nn.jit(nn.Dense)(2)(h))

    remat = Rematted()
    remat_vars = remat.init(jax.random.key(2), x[0])
    return {
        "rnn_vars": rnn_vars,
        "rnn": rnn.apply(rnn_vars, c0, x),
        "rnn_grads": jax.grad(lambda v: jnp.sum(rnn.apply(v, c0, x)[1] ** 2))(rnn_vars),
        "stack_vars": stack_vars,
        "stack": stack.apply(stack_vars, x[0], None)[0],
        "ensemble_vars": ensemble_vars,
        "ensemble": ensemble.apply(ensemble_vars, x),
        "remat_vars": remat_vars,
        "remat_grads": jax.grad(lambda v: remat.apply(v, x[0]))(remat_vars),
    }


PROGRAMS = {
    "nnx_mlp_forward": (nnx_mlp_forward, ["flax"]),
    "nnx_split_merge_update": (nnx_split_merge_update, ["flax"]),
    "nnx_adam_training": (nnx_adam_training, ["flax", "optax"]),
    "nnx_grad_and_transforms": (nnx_grad_and_transforms, ["flax"]),
    "nnx_vmap_scan": (nnx_vmap_scan, ["flax"]),
    "nnx_layers": (nnx_layers, ["flax"]),
    "nnx_control_flow_and_metrics": (nnx_control_flow_and_metrics, ["flax"]),
    "nnx_rng_streams_and_lifted_grad": (nnx_rng_streams_and_lifted_grad, ["flax"]),
    "nnx_sharded_variables": (nnx_sharded_variables, ["flax"]),
    "nnx_cnn_training": (nnx_cnn_training, ["flax", "optax"]),
    "linen_lifted_transforms": (linen_lifted_transforms, ["flax"]),
}


if __name__ == "__main__":
    from tests.ecosystem.eco_programs_s12 import main

    main(sys.argv[2:], PROGRAMS)
