"""Data-parallel training of the digits MLP with ``jax.shard_map`` over virtual CPU devices.

The same model, data and optimiser as ``examples/train_digits.py``, trained data-parallel:
the parameters are replicated on every device, each minibatch is split over the devices
(``P("batch")``), every device computes the gradient of its shard's loss, and ``pmean``
averages the gradients, so every device applies the same update. Each device reports its
shard's loss through an *ordered* ``io_callback`` (one call per device per step, in program
order on each device). The final accuracy equals the single-device demo's to rounding: the
mean of equal-sized shards' mean gradients is the full batch's mean gradient.

    python examples/data_parallel.py                    # 2 devices, 20 epochs
    python examples/data_parallel.py --devices 4 --epochs 2
    mpiexec -n 2 python examples/data_parallel.py --distributed   # 2 processes x 2 devices

With ``--distributed`` (under an MPI launcher, ``pip install jaxlite[mpi]``) the program
runs in every process (``jax.distributed.initialize()``): ``--devices`` counts the devices
of all processes (default 2 per process), the mesh spans them, each process builds the
global batch from its own half (``make_array_from_process_local_data``), runs its own
devices' bodies and logs its own devices' shard losses; ``pmean`` crosses processes. The
final accuracy is the one of one process with the same number of devices, bit for bit.
"""

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import require
from train_digits import NUM_CLASSES, accuracy_of, cross_entropy, forward, init_params, load_data

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite.experimental import io_callback, multihost_utils

P = jax.sharding.PartitionSpec


def make_step(mesh, lr, momentum, weight_decay, log_fn):
    """One jitted SGD-with-momentum step: params/velocity replicated, batch sharded."""

    def loss_fn(params, x, y):
        l2 = sum(jnp.sum(params[k] * params[k]) for k in params if k.startswith("w"))
        return cross_entropy(forward(params, x), y) + 0.5 * weight_decay * l2

    def per_device(params, velocity, x, y, step):
        # Mark the replicated parameters as varying over the batch axis, so the gradient is
        # this device's own (JAX would otherwise sum it over devices, S16.5).
        local = jax.lax.pcast(params, "batch", to="varying")
        loss, grads = jax.value_and_grad(loss_fn)(local, x, y)
        io_callback(log_fn, None, jax.lax.axis_index("batch"), step, loss, ordered=True)
        grads = jax.lax.pmean(grads, "batch")
        velocity = jax.tree_util.tree_map(lambda v, g: momentum * v + g, velocity, grads)
        params = jax.tree_util.tree_map(lambda p, v: p - lr * v, params, velocity)
        return params, velocity

    sharded = jax.shard_map(
        per_device,
        mesh=mesh,
        in_specs=(P(), P(), P("batch"), P("batch"), P()),
        out_specs=(P(), P()),
    )
    return jax.jit(sharded)


class DeviceLog:
    """The io_callback target: (device, step, loss) rows, per device in program order."""

    def __init__(self):
        self.rows = []

    def __call__(self, device, step, loss):
        self.rows.append((int(device), int(step), float(loss)))


def _launcher_size() -> int:
    """The number of processes of the MPI job this process belongs to (1 outside one)."""
    for var in ("PMI_SIZE", "OMPI_COMM_WORLD_SIZE"):
        if var in os.environ:
            return int(os.environ[var])
    return 1


def _global_batch(mesh, local_full, rank, procs):
    """The global batch from this process's contiguous share of it (rows of its devices)."""
    n = len(local_full) // procs
    sharding = jax.sharding.NamedSharding(mesh, P("batch"))
    return jax.make_array_from_process_local_data(sharding, local_full[rank * n : (rank + 1) * n])


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--devices", type=int, default=None, help="virtual CPU devices, all processes (2 or 4)"
    )
    p.add_argument(
        "--distributed",
        action="store_true",
        help="run as one process of an MPI job (mpiexec -n 2 ... --distributed)",
    )
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--momentum", type=float, default=0.9)
    p.add_argument("--weight-decay", type=float, default=1e-4)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    procs = _launcher_size() if args.distributed else 1
    if args.devices is None:
        args.devices = 2 * procs
    if args.devices % procs:
        raise SystemExit(f"--devices {args.devices} must be divisible by the {procs} processes")
    try:
        jax.config.update("jax_num_cpu_devices", args.devices // procs)
    except RuntimeError:
        pass  # the count is fixed already (a host program used jaxlite first)
    if args.distributed:
        jax.distributed.initialize()
    rank = jax.process_index()
    if jax.device_count() < args.devices:
        raise SystemExit(f"need {args.devices} devices, have {jax.device_count()}")
    (datasets,) = require("sklearn.datasets", example="examples/data_parallel.py")
    if args.batch_size % args.devices:
        raise SystemExit("--batch-size must be divisible by --devices")
    t_start = time.perf_counter()
    mesh = jax.make_mesh(
        (args.devices,),
        ("batch",),
        axis_types=(jax.sharding.AxisType.Auto,),
        devices=jax.devices()[: args.devices],
    )
    x_train, y_train, x_test, y_test = load_data(datasets, args.seed)
    # The same jax.random keys as train_digits.py: the same initial weights and batch order.
    key = jax.random.key(args.seed)
    key, init_key = jax.random.split(key)
    params = init_params(init_key, [x_train.shape[1], args.hidden, NUM_CLASSES])
    velocity = jax.tree_util.tree_map(jnp.zeros_like, params)
    steps_per_epoch = len(x_train) // args.batch_size
    say = print if rank == 0 else (lambda *a, **k: None)
    say(
        f"digits: {len(x_train)} train / {len(x_test)} test images, MLP 64-{args.hidden}-10, "
        f"{args.epochs} epochs x {steps_per_epoch} steps, batch {args.batch_size} split over "
        f"{args.devices} devices" + (f" in {procs} processes" if args.distributed else "")
    )
    log = DeviceLog()
    step_fn = make_step(mesh, args.lr, args.momentum, args.weight_decay, log)
    step = 0
    for epoch in range(args.epochs):
        perm = jax.random.permutation(jax.random.fold_in(key, epoch), len(x_train))
        order = np.asarray(perm)[: steps_per_epoch * args.batch_size]
        for idx in order.reshape(steps_per_epoch, -1):
            xb, yb = x_train[idx], y_train[idx]
            if procs > 1:  # this process's half of the global batch
                xb, yb = _global_batch(mesh, xb, rank, procs), _global_batch(mesh, yb, rank, procs)
            params, velocity = step_fn(params, velocity, xb, yb, jnp.int32(step))
            step += 1
    jax.block_until_ready(params)
    jax.effects_barrier()

    evaluate = jax.jit(lambda p, x, y: accuracy_of(forward(p, x), y))
    train_acc = float(evaluate(params, jnp.asarray(x_train), jnp.asarray(y_train)))
    test_acc = float(evaluate(params, jnp.asarray(x_test), jnp.asarray(y_test)))
    per = args.devices // procs
    mine = []  # (device, logged steps, last shard loss) of this process's devices
    for d in range(rank * per, (rank + 1) * per):
        rows = [r for r in log.rows if r[0] == d]
        mine.append((d, len(rows), rows[-1][2]))
    if args.distributed:
        # Every process's summary, to process 0 (the processes' stdout would interleave).
        summary = multihost_utils.process_allgather(np.asarray(mine, np.float64), tiled=True)
    else:
        summary = mine
    for d, n, loss in summary:
        where = f"process {int(d) // per} " if args.distributed else ""
        say(f"{where}device {int(d)}: {int(n)} logged steps, last shard loss {loss:.4f}")
    say(f"train accuracy {train_acc:.4f}")
    say(f"test accuracy {test_acc:.4f}")
    say(f"wall time {time.perf_counter() - t_start:.2f} s")
    return {"train_accuracy": train_acc, "test_accuracy": test_acc, "rows": log.rows}


if __name__ == "__main__":
    main()
