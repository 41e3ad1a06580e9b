"""Small library programs from session 13's differential hunt, each once on jaxlite and once
on JAX (``test_eco_programs.py``). Each one failed on jaxlite before its fix; the pure
jax reductions are in ``tests/hunt/test_eco_s13.py``.

Run as a script in a fresh interpreter: ``python eco_programs_s13.py jaxlite|jax NAME...``
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


# -------------------------------------------------------------------------- flax.linen
def flax_tabulate():  # jnp.shape/result_type of the ShapeDtypeStructs in the table
    import flax.linen as nn
    import jax
    import jax.numpy as jnp

    model = nn.Sequential([nn.Dense(4), nn.relu, nn.Dense(1)])
    table = model.tabulate(jax.random.PRNGKey(0), jnp.ones((2, 3)), compute_flops=False)
    rows = [line for line in table.splitlines() if "float32[" in line]
    return {
        "rows": jnp.array(len(rows)),
        "reprs": jnp.array(table.count("ShapeDtypeStruct")),
        "shapes": [jnp.array(jnp.shape(s)) for s in jax.tree_util.tree_leaves(
            jax.eval_shape(model.init, jax.random.PRNGKey(0), jnp.ones((2, 3)))
        )],
    }


def flax_orthogonal_and_bf16_inits():  # wide orthogonal kernels; 16-bit truncated normal
    import flax.linen as nn
    import jax
    import jax.numpy as jnp

    class M(nn.Module):
        @nn.compact
        def __call__(self, x):
            x = nn.Dense(6, kernel_init=nn.initializers.orthogonal())(x)
            x = nn.Conv(5, (3,), kernel_init=nn.initializers.orthogonal(column_axis=-1))(x)
            return nn.Dense(3, param_dtype=jnp.bfloat16, dtype=jnp.float32)(x)

    x = _data(2, 7, 4)
    variables = M().init(jax.random.PRNGKey(0), x)
    k = jax.random.PRNGKey(3)
    return {
        "variables": jax.tree_util.tree_map(lambda a: a.astype(jnp.float32), variables),
        "y": M().apply(variables, x),
        "inits": [
            nn.initializers.lecun_normal(dtype=jnp.bfloat16)(k, (6, 5)).astype(jnp.float32),
            nn.initializers.he_normal(dtype=jnp.float16)(k, (4, 9)).astype(jnp.float32),
            jax.random.uniform(k, (64,), jnp.bfloat16, -0.3, 2.7).astype(jnp.float32),
        ],
    }


# ------------------------------------------------------------------------------ equinox
def equinox_checkpointed_while_grad():  # custom_jvp None holes, host residuals of a vjp
    import jax
    import jax.numpy as jnp
    from equinox.internal import while_loop

    def body(carry):
        i, x = carry
        return i + 1, jnp.sin(x) * 1.1

    def run(kind):
        def f(x):
            carry = while_loop(lambda c: c[0] < 5, body, (0, x), max_steps=8, kind=kind)
            return carry[1].sum()

        return f

    x = _data(3)
    return {
        kind: (jax.jit(run(kind))(x), jax.grad(run(kind))(x))
        for kind in ["checkpointed", "bounded"]
    }


# ------------------------------------------------------------------------------ distrax
def distrax_lambda_bijector():  # inverse through make_jaxpr: ClosedJaxpr.literals, ...
    import distrax
    import jax
    import jax.numpy as jnp

    x = _data(4, 3) * 0.5
    bij = distrax.Chain([distrax.ScalarAffine(shift=1.0, scale=2.0), distrax.Tanh(),
                         distrax.Lambda(lambda x: 2.0 * x ** 3)])
    y, logdet = bij.forward_and_log_det(x)
    dist = distrax.Transformed(
        distrax.MultivariateNormalDiag(jnp.zeros(3), jnp.ones(3)), distrax.Block(bij, 1)
    )
    sample, log_prob = dist.sample_and_log_prob(seed=jax.random.PRNGKey(3), sample_shape=(2,))
    return {
        "y": y,
        "logdet": logdet,
        "inverse": bij.inverse(y),
        "grad": jax.grad(lambda x: jnp.sum(bij.forward_and_log_det(x)[1]))(x),
        "sample": sample,
        "log_prob": log_prob,
        "log_prob_y": dist.log_prob(y),
    }


PROGRAMS = {
    "flax_tabulate": (flax_tabulate, ["flax", "rich"]),
    "flax_orthogonal_and_bf16_inits": (flax_orthogonal_and_bf16_inits, ["flax"]),
    "equinox_checkpointed_while_grad": (equinox_checkpointed_while_grad, ["equinox"]),
    "distrax_lambda_bijector": (distrax_lambda_bijector, ["distrax", "tensorflow_probability"]),
}


if __name__ == "__main__":
    from tests.ecosystem.eco_programs_s12 import main

    main(sys.argv[2:], PROGRAMS)
