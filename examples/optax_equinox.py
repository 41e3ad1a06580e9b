"""The digits classifier written for the JAX ecosystem (equinox + optax + jax_tqdm),
run on jaxlite through ``jaxlite.install_as_jax()``.

Everything below the alias is ordinary JAX code: the model is an ``equinox.nn.MLP``, the
optimizer ``optax.adam``, and the whole training run is one jitted ``lax.scan`` over the
steps, with a ``jax_tqdm`` progress bar driven by host callbacks from inside the scan.
The data are scikit-learn's 1,797 8x8 digit images (no download). At the end the test
accuracy and the wall time are printed.

    python examples/optax_equinox.py                 # 600 steps
    python examples/optax_equinox.py --steps 50 --no-progress

The same file runs on the real JAX with ``--engine jax`` (for comparison).
"""

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import require  # noqa: E402

ENGINE_HINT = (
    'pip install -e ".[ecosystem]" && '
    "pip install --no-deps -r tests/ecosystem/requirements-libs.txt"
)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=600)
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--no-progress", action="store_true", help="no tqdm bar")
    p.add_argument("--engine", choices=["jaxlite", "jax"], default="jaxlite")
    return p.parse_args(argv)


def load_digits(datasets, seed, test_fraction=0.2):
    digits = datasets.load_digits()
    x = digits.data.astype(np.float32)
    y = digits.target.astype(np.int32)
    order = np.random.default_rng(seed).permutation(len(x))
    n_test = round(test_fraction * len(x))
    test, train = order[:n_test], order[n_test:]
    mean, std = x[train].mean(axis=0), x[train].std(axis=0)
    std[std < 1e-6] = 1.0
    x = (x - mean) / std
    return x[train], y[train], x[test], y[test]


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.engine == "jaxlite":
        import jaxlite

        jaxlite.install_as_jax()  # from here on, `import jax` (also inside libraries) is jaxlite
    (datasets,) = require("sklearn.datasets", example="optax_equinox.py")
    try:
        import equinox as eqx
        import jax
        import jax.numpy as jnp
        import optax
        from jax_tqdm import scan_tqdm
    except ModuleNotFoundError as e:
        if (e.name or "").split(".")[0] not in ("equinox", "optax", "jax_tqdm", "chex", "jax"):
            raise
        sys.stderr.write(f"optax_equinox.py needs the JAX libraries ({e}); install them with\n")
        sys.stderr.write(f"    {ENGINE_HINT}\n")
        return 2

    x_train, y_train, x_test, y_test = load_digits(datasets, args.seed)
    key = jax.random.PRNGKey(args.seed)
    model_key, data_key = jax.random.split(key)
    model = eqx.nn.MLP(in_size=64, out_size=10, width_size=64, depth=2, key=model_key)
    optimizer = optax.adam(args.lr)
    params, static = eqx.partition(model, eqx.is_array)
    opt_state = optimizer.init(params)

    x_train, y_train = jnp.asarray(x_train), jnp.asarray(y_train)
    n_train = x_train.shape[0]
    batch_idx = jax.random.randint(data_key, (args.steps, args.batch), 0, n_train)

    def loss_fn(params, x, y):
        logits = jax.vmap(eqx.combine(params, static))(x)
        return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()

    def step(carry, i):
        params, opt_state = carry
        idx = batch_idx[i]
        loss, grads = jax.value_and_grad(loss_fn)(params, x_train[idx], y_train[idx])
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return (optax.apply_updates(params, updates), opt_state), loss

    if not args.no_progress:
        step = scan_tqdm(args.steps, desc="training")(step)

    @jax.jit
    def train(params, opt_state):
        return jax.lax.scan(step, (params, opt_state), jnp.arange(args.steps))

    start = time.perf_counter()
    (params, opt_state), losses = train(params, opt_state)
    losses.block_until_ready()
    elapsed = time.perf_counter() - start

    model = eqx.combine(params, static)
    predictions = jnp.argmax(jax.vmap(model)(jnp.asarray(x_test)), axis=1)
    accuracy = float(jnp.mean(predictions == jnp.asarray(y_test)))
    print(f"engine: {args.engine} (jax.__version__ {jax.__version__})")
    print(f"first loss {float(losses[0]):.4f}, last loss {float(losses[-1]):.4f}")
    print(f"test accuracy: {accuracy:.4f}")
    print(f"training time: {elapsed:.2f} s for {args.steps} steps")
    return 0


if __name__ == "__main__":
    sys.exit(main())
