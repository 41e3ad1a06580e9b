"""Multi-process benchmarks (issue 19): ``psum`` of float32[1M] across 2 processes, and the
data-parallel digits step at 1 and 2 processes.

    python benchmarks/mpi_bench.py            # launches the runs below, prints a table
    python benchmarks/mpi_bench.py --markdown

Rows (medians of ``--repeat`` timed calls after a warm-up, each in a fresh interpreter):

* ``psum_1M_2proc``: ``jit(shard_map(psum))`` of float32[1_000_000] per device, 2 processes
  x 1 device (``mpiexec -n 2``), against the same program in 1 process x 2 devices (threads).
* ``data_parallel_step``: one jitted data-parallel SGD step of ``examples/data_parallel.py``
  (batch 64 over 4 devices): 1 process x 4 devices, and 2 processes x 2 devices.

With ``--jax`` the psum rows also run in JAX 0.10.2 (the oracle in the venv): 2 processes
launched by the same ``mpiexec``, joined by ``jax.distributed.initialize`` on a localhost
coordinator, collectives over Gloo (spec S13). The data-parallel step has no JAX column (the
example is jaxlite's). The MPI rows need ``pip install jaxlite[mpi]`` and ``mpiexec``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def _child(kind: str, repeat: int, lib: str, port: int) -> None:
    """Run one measurement in this (possibly MPI) process; rank 0 prints JSON."""
    sys.path.insert(0, str(ROOT / "examples"))
    multi = "PMI_RANK" in os.environ or "OMPI_COMM_WORLD_RANK" in os.environ
    procs = int(os.environ.get("PMI_SIZE", os.environ.get("OMPI_COMM_WORLD_SIZE", "1")))
    total = 2 if kind == "psum" else 4
    if lib == "jax":
        import jax

        jax.config.update("jax_num_cpu_devices", total // procs)
        if multi:
            jax.distributed.initialize(
                coordinator_address=f"localhost:{port}",
                num_processes=procs,
                process_id=int(os.environ.get("PMI_RANK", os.environ.get("OMPI_COMM_WORLD_RANK"))),
            )
    else:
        import jaxlite as jax

        jax.config.update("jax_num_cpu_devices", total // procs)
        if multi:
            jax.distributed.initialize()
    P = jax.sharding.PartitionSpec
    mesh = jax.sharding.Mesh(np.array(jax.devices()), ("batch",))
    sharding = jax.sharding.NamedSharding(mesh, P("batch"))
    rank = jax.process_index()
    if kind == "psum":
        n = 1_000_000
        local = np.random.RandomState(rank).rand(n * total // procs).astype(np.float32)
        x = jax.make_array_from_process_local_data(sharding, local)
        f = jax.jit(
            jax.shard_map(
                lambda b: jax.lax.psum(b, "batch"), mesh=mesh, in_specs=P("batch"), out_specs=P()
            )
        )

        def call():
            return f(x)
    else:
        import data_parallel as dp
        from sklearn import datasets
        from train_digits import NUM_CLASSES, init_params, load_data

        x_train, y_train, _, _ = load_data(datasets, 0)
        params = init_params(jax.random.key(1), [x_train.shape[1], 128, NUM_CLASSES])
        velocity = jax.tree_util.tree_map(jax.numpy.zeros_like, params)
        step = dp.make_step(mesh, 0.05, 0.9, 1e-4, lambda *a: None)
        xb, yb = x_train[:64], y_train[:64]
        if procs > 1:
            xb = dp._global_batch(mesh, xb, rank, procs)
            yb = dp._global_batch(mesh, yb, rank, procs)
        k = jax.numpy.int32(0)

        def call():
            return step(params, velocity, xb, yb, k)

    for _ in range(3):
        jax.block_until_ready(call())
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        jax.block_until_ready(call())
        times.append(time.perf_counter() - t0)
    if rank == 0:
        print(json.dumps({"median_s": float(np.median(times)), "min_s": float(np.min(times))}))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("localhost", 0))
        return sock.getsockname()[1]


def _run(kind: str, mpi: bool, repeat: int, lib: str = "jaxlite"):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    for var in ("PMI_RANK", "PMI_SIZE", "JAX_NUM_CPU_DEVICES"):
        env.pop(var, None)
    cmd = [sys.executable, __file__, "--child", kind, "--repeat", str(repeat), "--lib", lib]
    cmd += ["--port", str(_free_port())]
    if mpi:
        mpiexec = shutil.which("mpiexec") or shutil.which(
            "mpiexec", path=str(Path(sys.executable).parent)
        )
        if mpiexec is None:
            return None
        cmd = [mpiexec, "-n", "2", *cmd]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    if out.returncode != 0:
        raise RuntimeError(f"{cmd} failed:\n{out.stderr[-3000:]}")
    lines = [ln for ln in out.stdout.splitlines() if ln.startswith("{")]
    return json.loads(lines[-1])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--child", choices=["psum", "step"])
    p.add_argument("--repeat", type=int, default=30)
    p.add_argument("--markdown", action="store_true")
    p.add_argument("--jax", action="store_true", help="also time the psum rows in JAX")
    p.add_argument("--lib", default="jaxlite", help=argparse.SUPPRESS)
    p.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        _child(args.child, args.repeat, args.lib, args.port)
        return 0
    rows = []
    for kind, label1, label2 in (
        ("psum", "psum float32[1M], 1 process x 2 devices", "psum float32[1M], 2 processes x 1"),
        ("step", "data-parallel step, 1 process x 4 devices", "data-parallel step, 2 x 2"),
    ):
        jx = args.jax and kind == "psum"
        for label, mpi in ((label1, False), (label2, True)):
            mine = _run(kind, mpi, args.repeat)
            theirs = _run(kind, mpi, args.repeat, "jax") if jx else None
            rows.append((label, mine, theirs))
    fmt = "| {} | {} | {} | {} |" if args.markdown else "{:<44} {:>10} {:>10} {:>14}"
    print(fmt.format("workload", "median", "min", "JAX median"))
    if args.markdown:
        print("|---|---|---|---|")
    for label, r, j in rows:
        if r is None:
            print(fmt.format(label, "skipped", "(no mpiexec)", ""))
            continue
        other = "" if j is None else f"{j['median_s'] * 1e3:.2f} ms"
        print(
            fmt.format(label, f"{r['median_s'] * 1e3:.2f} ms", f"{r['min_s'] * 1e3:.2f} ms", other)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
