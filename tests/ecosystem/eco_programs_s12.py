"""Small library programs from session 12's differential hunt, each once on jaxlite and once
on JAX (``test_eco_programs.py``). Each one failed on jaxlite before its fix; the pure
jax reproductions are in ``tests/hunt/test_eco_s12.py``.

Run as a script in a fresh interpreter: ``python eco_programs_s12.py jaxlite|jax NAME...``
prints one JSON line per program: ``{"name", "paths", "leaves": [[dtype, shape, values]]}``
or ``{"name", "error"}``. With ``jaxlite`` it first calls ``jaxlite.install_as_jax()``.
"""

import json
import sys
import traceback

if __name__ == "__main__" and sys.argv[1] == "jaxlite":
    import jaxlite

    jaxlite.install_as_jax()

import numpy as np  # noqa: E402


def _data(*shape, seed=0):
    import jax.numpy as jnp

    return jnp.asarray(np.random.RandomState(seed).randn(*shape).astype(np.float32))


# ------------------------------------------------------------------------------- optax
def _optax_steps(make_opt, steps=4):
    import jax
    import jax.numpy as jnp
    import optax

    x, y = _data(8, 3), _data(8, 2, seed=1)
    params = {"w": _data(3, 2, seed=2) * 0.1, "b": jnp.zeros(2)}

    def loss(p):
        return jnp.mean((jnp.tanh(x @ p["w"] + p["b"]) - y) ** 2)

    opt = make_opt(optax)
    state = opt.init(params)

    @jax.jit
    def step(p, s):
        value, g = jax.value_and_grad(loss)(p)
        u, s = opt.update(g, s, p)
        return optax.apply_updates(p, u), s, value

    values = []
    for _ in range(steps):
        params, state, value = step(params, state)
        values.append(value)
    return {"params": params, "state": state, "values": values}


def optax_sm3():  # ShapeDtypeStruct given to zeros_like
    return _optax_steps(lambda o: o.sm3(0.1))


def optax_adafactor_factored():
    return _optax_steps(
        lambda o: o.adafactor(0.05, momentum=0.9, factored=True, min_dim_size_to_factor=1)
    )


def optax_multisteps():
    return _optax_steps(lambda o: o.MultiSteps(o.adam(0.05), every_k_schedule=2))


def optax_noisy_sgd():  # jax.typeof(x).sharding as out_sharding=
    return _optax_steps(lambda o: o.chain(o.add_noise(0.01, 0.55, 0), o.sgd(0.1)))


# -------------------------------------------------------------------------- flax.linen
def _linen(module, x, *args, **kwargs):
    import jax
    import jax.numpy as jnp

    variables = module.init(jax.random.PRNGKey(0), x, *args, **kwargs)

    def loss(params, x):
        out = module.apply({"params": params}, x, *args, **kwargs)
        return jnp.sum(jnp.sin(jax.tree_util.tree_leaves(out)[0]))

    return {
        "variables": variables,
        "y": module.apply(variables, x, *args, **kwargs),
        "grads": jax.jit(jax.grad(loss, argnums=(0, 1)))(variables["params"], x),
    }


def flax_lstm_rnn():  # ShapedArray.sharding, ShapedArray(sharding=), NamedSharding.update
    import flax.linen as nn

    return _linen(nn.RNN(nn.LSTMCell(4)), _data(2, 5, 3))


def flax_bidirectional_gru():
    import flax.linen as nn

    gru = nn.Bidirectional(nn.RNN(nn.GRUCell(3)), nn.RNN(nn.GRUCell(3)))
    return _linen(gru, _data(2, 5, 3))


def flax_attention_masked():  # einsum(_dot_general=)
    import flax.linen as nn
    import jax.numpy as jnp

    mask = nn.make_attention_mask(jnp.array([[1, 1, 1, 0], [1, 1, 1, 1]]), jnp.ones((2, 4)))
    mha = nn.MultiHeadDotProductAttention(num_heads=2, qkv_features=8)
    return _linen(mha, _data(2, 4, 6), _data(2, 4, 6, seed=1), _data(2, 4, 6, seed=2), mask=mask)


# ----------------------------------------------------------------- equinox, optimistix
def equinox_paths():  # key paths of equinox Modules: .layers[0].weight
    import equinox as eqx
    import jax
    import jax.numpy as jnp

    mlp = eqx.nn.MLP(3, 2, 4, 1, key=jax.random.PRNGKey(0))
    grads = eqx.filter_grad(lambda m, x: jnp.sum(jax.vmap(m)(x) ** 2))(mlp, _data(4, 3))
    named = jax.tree_util.tree_map_with_path(
        lambda p, g: g * len(jax.tree_util.keystr(p)), eqx.filter(grads, eqx.is_array)
    )
    return {"grads": grads, "named": named}


def optimistix_bfgs():  # custom_jvp whose rule calls itself on the tangents
    import jax.numpy as jnp
    import optimistix as optx

    def rosenbrock(y, args):
        return (1 - y[0]) ** 2 + 100 * (y[1] - y[0] ** 2) ** 2

    sol = optx.minimise(rosenbrock, optx.BFGS(rtol=1e-6, atol=1e-6), jnp.array([-1.0, 1.0]))
    return {"value": sol.value, "steps": sol.stats["num_steps"]}


def optimistix_least_squares():  # linear_transpose at ShapeDtypeStruct primals (lineax)
    import jax.numpy as jnp
    import optimistix as optx

    def residuals(y, args):
        return jnp.array([y[0] ** 2 + y[1] - 3, y[0] - y[1] ** 2 + 1.0])

    y0 = jnp.array([1.0, 1.0])
    return {
        name: optx.least_squares(residuals, solver, y0, throw=False).value
        for name, solver in [
            ("gauss_newton", optx.GaussNewton(rtol=1e-6, atol=1e-6)),
            ("dogleg", optx.Dogleg(rtol=1e-6, atol=1e-6)),
        ]
    }


PROGRAMS = {
    "optax_sm3": (optax_sm3, ["optax"]),
    "optax_adafactor_factored": (optax_adafactor_factored, ["optax"]),
    "optax_multisteps": (optax_multisteps, ["optax"]),
    "optax_noisy_sgd": (optax_noisy_sgd, ["optax"]),
    "flax_lstm_rnn": (flax_lstm_rnn, ["flax"]),
    "flax_bidirectional_gru": (flax_bidirectional_gru, ["flax"]),
    "flax_attention_masked": (flax_attention_masked, ["flax"]),
    "equinox_paths": (equinox_paths, ["equinox"]),
    "optimistix_bfgs": (optimistix_bfgs, ["optimistix", "equinox", "lineax"]),
    "optimistix_least_squares": (optimistix_least_squares, ["optimistix", "lineax"]),
}


def _describe(tree) -> dict:
    import jax

    with_paths, _ = jax.tree_util.tree_flatten_with_path(tree)
    leaves = []
    for _, leaf in with_paths:
        if jax.dtypes.issubdtype(getattr(leaf, "dtype", None), jax.dtypes.prng_key):
            leaf = jax.random.key_data(leaf)  # optax's noise state holds a typed key
        a = np.asarray(leaf)
        leaves.append([str(a.dtype), list(a.shape), a.astype(np.float64).ravel().tolist()])
    return {"paths": [jax.tree_util.keystr(p) for p, _ in with_paths], "leaves": leaves}


def main(names, programs=None):
    """Print one JSON record per program of ``programs`` (default: this file's)."""
    programs = PROGRAMS if programs is None else programs
    for name in names:
        try:
            record = {"name": name, **_describe(programs[name][0]())}
        except Exception:  # reported to the test, which fails with the traceback
            record = {"name": name, "error": traceback.format_exc()[-6000:]}
        print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main(sys.argv[2:])
