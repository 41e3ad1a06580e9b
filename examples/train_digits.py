"""Train a small MLP on scikit-learn's handwritten digits with jaxlite.

The data are the 1,797 real 8x8 digit images that ship inside scikit-learn (no download).
Randomness comes from ``jax.random`` as in JAX programs: the weights are initialised from a
``jax.random.key``, and each epoch shuffles the training set with ``jax.random.permutation``
inside the compiled epoch. One epoch of minibatch SGD with momentum is a single jitted call:
``lax.scan`` runs a jitted ``value_and_grad`` training step over the epoch's minibatches, and
after every step an ordered ``io_callback`` sends (step, loss, batch accuracy) to the host,
where it is appended to a CSV file and advances a ``tqdm`` progress bar. ``jax.debug.print``
reports each epoch's mean loss from inside the compiled epoch. At the end the test accuracy
and the wall time are printed and the loss curve is saved as a PNG next to the CSV.

    python examples/train_digits.py                 # full run, writes examples/out/
    python examples/train_digits.py --epochs 2 --out /tmp/digits --no-progress
"""

import argparse
import csv
import itertools
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import default_out_dir, require

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite.experimental import io_callback

NUM_CLASSES = 10


# ----------------------------------------------------------------------------- data


def load_data(datasets, seed, test_fraction=0.2):
    """Digits as float32 (n, 64) standardised with the training statistics, int32 labels."""
    digits = datasets.load_digits()
    x = digits.data.astype(np.float32)
    y = digits.target.astype(np.int32)
    order = np.random.default_rng(seed).permutation(len(x))
    n_test = round(test_fraction * len(x))
    test, train = order[:n_test], order[n_test:]
    mean = x[train].mean(axis=0)
    std = x[train].std(axis=0)
    std[std < 1e-6] = 1.0  # a few border pixels are always blank
    x = (x - mean) / std
    return x[train], y[train], x[test], y[test]


# ----------------------------------------------------------------------------- model


def init_params(key, sizes):
    """A dict pytree {w0, b0, w1, b1, ...}, normal weights scaled by 1/sqrt(fan_in)."""
    params = {}
    keys = jax.random.split(key, len(sizes) - 1)
    for i, (n_in, n_out) in enumerate(itertools.pairwise(sizes)):
        params[f"w{i}"] = jax.random.normal(keys[i], (n_in, n_out)) / np.sqrt(n_in)
        params[f"b{i}"] = jnp.zeros((n_out,), jnp.float32)
    return params


def forward(params, x):
    n_layers = len(params) // 2
    h = x
    for i in range(n_layers - 1):
        h = jnp.tanh(jnp.dot(h, params[f"w{i}"]) + params[f"b{i}"])
    last = n_layers - 1
    return jnp.dot(h, params[f"w{last}"]) + params[f"b{last}"]


def cross_entropy(logits, labels):
    """Mean softmax cross-entropy; log-sum-exp with the row maximum subtracted."""
    top = jnp.max(logits, axis=1, keepdims=True)
    log_norm = top[:, 0] + jnp.log(jnp.sum(jnp.exp(logits - top), axis=1))
    onehot = (labels[:, None] == jnp.arange(NUM_CLASSES)[None, :]).astype(logits.dtype)
    target_logit = jnp.sum(onehot * logits, axis=1)
    return jnp.mean(log_norm - target_logit)


def accuracy_of(logits, labels):
    return jnp.mean((jnp.argmax(logits, axis=1) == labels).astype(jnp.float32))


def make_trainer(lr, momentum, weight_decay, log_fn, batch_size, steps_per_epoch):
    """Return (train_epoch, evaluate), both jitted."""

    def loss_fn(params, x, y):
        logits = forward(params, x)
        l2 = sum(jnp.sum(params[k] * params[k]) for k in params if k.startswith("w"))
        return cross_entropy(logits, y) + 0.5 * weight_decay * l2, logits

    @jax.jit
    def train_step(params, velocity, x, y):
        (loss, logits), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, x, y)
        velocity = jax.tree_util.tree_map(lambda v, g: momentum * v + g, velocity, grads)
        params = jax.tree_util.tree_map(lambda p, v: p - lr * v, params, velocity)
        return params, velocity, loss, accuracy_of(logits, y)

    @jax.jit
    def train_epoch(params, velocity, x_train, y_train, key, step0, epoch):
        # This epoch's minibatches: a fresh permutation of the training set.
        order = jax.random.permutation(key, x_train.shape[0])
        batch_index = order[: steps_per_epoch * batch_size].reshape(steps_per_epoch, batch_size)

        def body(carry, idx):
            params, velocity, step = carry
            params, velocity, loss, acc = train_step(params, velocity, x_train[idx], y_train[idx])
            io_callback(log_fn, None, step, loss, acc, ordered=True)
            return (params, velocity, step + 1), loss

        (params, velocity, step), losses = jax.lax.scan(
            body, (params, velocity, step0), batch_index
        )
        jax.debug.print("epoch {e} loss {l:.4f}", e=epoch, l=jnp.mean(losses))
        return params, velocity, step

    @jax.jit
    def evaluate(params, x, y):
        return accuracy_of(forward(params, x), y)

    return train_epoch, evaluate


# ----------------------------------------------------------------------------- host side


class MetricsLog:
    """The io_callback target: one CSV row per training step plus a progress bar."""

    def __init__(self, csv_file, bar, steps_per_epoch):
        self.rows = []
        self.bar = bar
        self.steps_per_epoch = steps_per_epoch
        self._writer = csv.writer(csv_file)
        self._writer.writerow(["step", "loss", "batch_accuracy"])

    def __call__(self, step, loss, acc):
        row = (int(step), float(loss), float(acc))
        self.rows.append(row)
        self._writer.writerow([row[0], f"{row[1]:.6f}", f"{row[2]:.6f}"])
        self.bar.update(1)
        if row[0] % 10 == 0:
            self.bar.set_postfix(loss=f"{row[1]:.3f}", refresh=False)
        if (row[0] + 1) % self.steps_per_epoch == 0:
            self.bar.clear()  # leave a clean line for the epoch's jax.debug.print


def plot_losses(plt, rows, steps_per_epoch, test_acc, path):
    steps = np.array([r[0] for r in rows])
    losses = np.array([r[1] for r in rows])
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(steps, losses, lw=0.7, alpha=0.6, label="minibatch loss")
    n_epochs = len(losses) // steps_per_epoch
    if n_epochs:
        per_epoch = losses[: n_epochs * steps_per_epoch].reshape(n_epochs, -1).mean(axis=1)
        centres = (np.arange(n_epochs) + 0.5) * steps_per_epoch
        ax.plot(centres, per_epoch, "o-", ms=3, label="epoch mean")
    ax.set_yscale("log")
    ax.set_xlabel("training step")
    ax.set_ylabel("cross-entropy loss")
    ax.set_title(f"MLP on sklearn digits (jaxlite) - test accuracy {test_acc:.3f}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--momentum", type=float, default=0.9)
    p.add_argument("--weight-decay", type=float, default=1e-4)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=default_out_dir(), help="directory for metrics.csv/loss.png")
    p.add_argument(
        "--target",
        type=float,
        default=0.95,
        help="exit with status 1 if the test accuracy ends below this",
    )
    p.add_argument("--no-progress", action="store_true", help="hide the tqdm progress bar")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    datasets, tqdm, matplotlib = require(
        "sklearn.datasets", "tqdm", "matplotlib", example="examples/train_digits.py"
    )
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t_start = time.perf_counter()
    x_train, y_train, x_test, y_test = load_data(datasets, args.seed)
    key = jax.random.key(args.seed)
    key, init_key = jax.random.split(key)
    params = init_params(init_key, [x_train.shape[1], args.hidden, NUM_CLASSES])
    velocity = jax.tree_util.tree_map(jnp.zeros_like, params)

    steps_per_epoch = len(x_train) // args.batch_size
    os.makedirs(args.out, exist_ok=True)
    csv_path = os.path.join(args.out, "metrics.csv")
    png_path = os.path.join(args.out, "loss.png")
    print(
        f"digits: {len(x_train)} train / {len(x_test)} test images, "
        f"MLP 64-{args.hidden}-10, {args.epochs} epochs x {steps_per_epoch} steps"
    )
    xs_train, ys_train = jnp.asarray(x_train), jnp.asarray(y_train)
    step = jnp.asarray(0, jnp.int32)
    with (
        open(csv_path, "w", newline="") as csv_file,
        tqdm.tqdm(
            total=args.epochs * steps_per_epoch,
            unit="step",
            desc="training",
            disable=args.no_progress,
        ) as bar,
    ):
        log = MetricsLog(csv_file, bar, steps_per_epoch)
        train_epoch, evaluate = make_trainer(
            args.lr, args.momentum, args.weight_decay, log, args.batch_size, steps_per_epoch
        )
        for epoch in range(args.epochs):
            params, velocity, step = train_epoch(
                params,
                velocity,
                xs_train,
                ys_train,
                jax.random.fold_in(key, epoch),
                step,
                jnp.int32(epoch),
            )
        jax.block_until_ready(params)
        jax.effects_barrier()  # every queued metrics row is written before the file closes

    train_acc = float(evaluate(params, xs_train, ys_train))
    test_acc = float(evaluate(params, jnp.asarray(x_test), jnp.asarray(y_test)))
    wall = time.perf_counter() - t_start
    plot_losses(plt, log.rows, steps_per_epoch, test_acc, png_path)
    print(f"train accuracy {train_acc:.4f}")
    print(f"test accuracy {test_acc:.4f}")
    print(f"wall time {wall:.2f} s")
    print(f"wrote {csv_path} ({len(log.rows)} steps) and {png_path}")
    result = {
        "train_accuracy": train_acc,
        "test_accuracy": test_acc,
        "wall_time": wall,
        "csv_path": csv_path,
        "png_path": png_path,
        "steps": len(log.rows),
        "steps_per_epoch": steps_per_epoch,
    }
    if test_acc < args.target:
        print(f"test accuracy {test_acc:.4f} is below the target {args.target}", file=sys.stderr)
        result["exit_code"] = 1
    else:
        result["exit_code"] = 0
    return result


if __name__ == "__main__":
    sys.exit(main()["exit_code"])
