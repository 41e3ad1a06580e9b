"""The digits classifier as a flax.nnx Module trained with optax, run on jaxlite through
``jaxlite.install_as_jax()``.

Everything below the alias is ordinary flax.nnx code: an ``nnx.Module`` of ``nnx.Linear``,
``nnx.BatchNorm`` and ``nnx.Dropout`` layers with its random streams in ``nnx.Rngs``, an
``nnx.Optimizer`` around ``optax.adamw``, and a training step under ``nnx.jit`` that updates
the model, the optimizer state and an ``nnx.MultiMetric`` in place. The data are
scikit-learn's 1,797 8x8 digit images (no download). At the end the test accuracy and the
wall time are printed.

    python examples/flax_nnx.py                 # 300 steps
    python examples/flax_nnx.py --steps 50

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
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--engine", choices=["jaxlite", "jax"], default="jaxlite")
    return p.parse_args(argv)


def load_digits(datasets, seed, test_fraction=0.2):
    digits = datasets.load_digits()
    x = digits.data.astype(np.float32) / 16.0
    y = digits.target.astype(np.int32)
    order = np.random.default_rng(seed).permutation(len(x))
    n_test = round(test_fraction * len(x))
    test, train = order[:n_test], order[n_test:]
    return x[train], y[train], x[test], y[test]


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.engine == "jaxlite":
        import jaxlite

        jaxlite.install_as_jax()  # from here on, `import jax` (also inside flax) is jaxlite
    (datasets,) = require("sklearn.datasets", example="flax_nnx.py")
    try:
        import jax
        import jax.numpy as jnp
        import optax
        from flax import nnx
    except ModuleNotFoundError as e:
        if (e.name or "").split(".")[0] not in ("flax", "optax", "chex", "jax"):
            raise
        sys.stderr.write(f"flax_nnx.py needs the JAX libraries ({e}); install them with\n")
        sys.stderr.write(f"    {ENGINE_HINT}\n")
        return 2

    class Classifier(nnx.Module):
        def __init__(self, rngs: nnx.Rngs):
            self.hidden = nnx.Linear(64, 128, use_bias=False, rngs=rngs)
            self.norm = nnx.BatchNorm(128, rngs=rngs)
            self.dropout = nnx.Dropout(0.2, rngs=rngs)
            self.out = nnx.Linear(128, 10, rngs=rngs)

        def __call__(self, x):
            h = nnx.relu(self.norm(self.hidden(x)))
            return self.out(self.dropout(h))

    x_train, y_train, x_test, y_test = load_digits(datasets, args.seed)
    model = Classifier(nnx.Rngs(params=args.seed, dropout=args.seed + 1))
    optimizer = nnx.Optimizer(model, optax.adamw(args.lr), wrt=nnx.Param)
    metrics = nnx.MultiMetric(accuracy=nnx.metrics.Accuracy(), loss=nnx.metrics.Average("loss"))

    def loss_fn(model, x, y):
        logits = model(x)
        return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean(), logits

    @nnx.jit
    def train_step(model, optimizer, metrics, x, y):
        (loss, logits), grads = nnx.value_and_grad(loss_fn, has_aux=True)(model, x, y)
        metrics.update(loss=loss, logits=logits, labels=y)
        optimizer.update(model, grads)
        return loss

    batches = np.random.default_rng(args.seed).integers(0, len(x_train), (args.steps, args.batch))
    start = time.perf_counter()
    losses = []
    for idx in batches:
        losses.append(float(train_step(model, optimizer, metrics, x_train[idx], y_train[idx])))
    elapsed = time.perf_counter() - start
    train_metrics = metrics.compute()

    model.eval()  # BatchNorm uses its running statistics, Dropout is off
    predictions = jnp.argmax(model(jnp.asarray(x_test)), axis=1)
    accuracy = float(jnp.mean(predictions == jnp.asarray(y_test)))
    print(f"engine: {args.engine} (jax.__version__ {jax.__version__})")
    print(f"first loss {losses[0]:.4f}, last loss {losses[-1]:.4f}")
    print(f"train accuracy (running): {float(train_metrics['accuracy']):.4f}")
    print(f"test accuracy: {accuracy:.4f}")
    print(f"training time: {elapsed:.2f} s for {args.steps} steps")
    return 0


if __name__ == "__main__":
    sys.exit(main())
