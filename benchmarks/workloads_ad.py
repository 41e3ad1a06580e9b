"""Autodiff workload: a jitted value_and_grad SGD step of an MLP (issue 4)."""

from __future__ import annotations

import itertools
import subprocess
import sys
import weakref

import numpy as np
from mlp_model import mlp_loss
from registry import workload

SIZES = (784, 512, 512, 10)
BATCH = 128


def _data():
    rng = np.random.RandomState(0)
    params = [
        ((rng.randn(m, n) / np.sqrt(m)).astype(np.float32), np.zeros(n, np.float32))
        for m, n in itertools.pairwise(SIZES)
    ]
    x = rng.randn(BATCH, SIZES[0]).astype(np.float32)
    y = rng.randint(0, SIZES[-1], BATCH).astype(np.int32)
    return params, x, y


@workload(
    "ad_mlp_sgd_step",
    "jit(value_and_grad) SGD step, 784-512-512-10 tanh MLP, "
    "batch 128, float32, softmax cross-entropy",
    target="<= 1.0x JAX (issue 17)",
)
def _mlp_sgd_step(lib):
    return _make_step(lib)


# A Python busy loop in another process, bounded in time in case this one dies first.
_BUSY = "import time\nend = time.time() + 300\nwhile time.time() < end:\n    pass\n"


@workload(
    "ad_mlp_sgd_step_busy_core",
    "ad_mlp_sgd_step while another process keeps one "
    "core busy (a Python busy loop, started by the setup and stopped with the workload)",
    target="<= 1.0x JAX (issue 17: robust to a busy second core)",
)
def _mlp_sgd_step_busy(lib):
    step = _make_step(lib)
    busy = subprocess.Popen([sys.executable, "-c", _BUSY])

    def run():
        return step()

    weakref.finalize(run, _stop, busy)
    return run


def _stop(proc):
    proc.kill()
    proc.wait()


def _make_step(lib):
    jax, jnp = lib.jax, lib.jnp
    params_np, x_np, y_np = _data()
    params = [(jnp.asarray(w), jnp.asarray(b)) for w, b in params_np]
    x, y = jnp.asarray(x_np), jnp.asarray(y_np)
    loss = mlp_loss(jnp, SIZES[-1])

    @jax.jit
    def step(params, x, y):
        value, grads = jax.value_and_grad(loss)(params, x, y)
        new = jax.tree_util.tree_map(lambda p, g: p - 0.01 * g, params, grads)
        return new, value

    # Sanity check: a few steps lower the loss (both engines compute the same thing).
    p, first = step(params, x, y)
    for _ in range(3):
        p, last = step(p, x, y)
    if not float(last) < float(first):
        raise AssertionError(f"{lib.name}: SGD did not lower the loss ({first} -> {last})")
    return lambda: step(params, x, y)
