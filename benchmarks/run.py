"""Run benchmark workloads side by side with JAX (when importable) in one process.

Usage::

    python benchmarks/run.py                 # every workload
    python benchmarks/run.py jit_dispatch    # selected workloads (names or prefixes)
    python benchmarks/run.py --list
    python benchmarks/run.py --quick --no-jax --markdown

Prints one row per workload: the median time per call for jaxlite, JAX and (where the
workload has one) a hand-written NumPy baseline, and the ratios jaxlite/JAX and
jaxlite/NumPy (below 1 means jaxlite is faster). Workloads are registered in
``benchmarks/workloads_*.py`` with ``registry.workload`` (see ``registry.py``).
"""

from __future__ import annotations

import argparse
import gc
import glob
import importlib
import os
import platform
import statistics
import sys
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

from registry import WORKLOADS


def _load_workloads():
    for path in sorted(glob.glob(os.path.join(HERE, "workloads_*.py"))):
        importlib.import_module(os.path.splitext(os.path.basename(path))[0])


def _libs(use_jax: bool) -> dict:
    import jaxlite
    import jaxlite.lax
    import jaxlite.numpy

    libs = {"jaxlite": types.SimpleNamespace(name="jaxlite", jax=jaxlite, jnp=jaxlite.numpy,
                                            lax=jaxlite.lax)}
    if use_jax:
        try:
            import jax
            import jax.lax
            import jax.numpy

            jax.config.update("jax_platforms", "cpu")
            libs["jax"] = types.SimpleNamespace(name="jax", jax=jax, jnp=jax.numpy, lax=jax.lax)
        except ImportError:
            pass
    libs["numpy"] = types.SimpleNamespace(name="numpy", jax=None, jnp=None, lax=None)
    return libs


def _block(x):
    leaves = x if isinstance(x, (tuple, list)) else [x]
    for leaf in leaves:
        if hasattr(leaf, "block_until_ready"):
            leaf.block_until_ready()
        elif isinstance(leaf, (tuple, list)):
            _block(leaf)
    return x


def time_callable(fn, *, budget: float, repeats: int, fresh: bool) -> float:
    """Median seconds per call. Calls are batched so each timed sample lasts >= ~budget/
    repeats (one call per sample for ``fresh`` workloads, whose calls do new work)."""
    _block(fn())                       # warm-up
    t0 = time.perf_counter()
    _block(fn())
    one = max(time.perf_counter() - t0, 1e-7)
    number = 1 if fresh else max(1, int(budget / repeats / one))
    samples = []
    gc_was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            t0 = time.perf_counter()
            for _ in range(number):
                _block(fn())
            samples.append((time.perf_counter() - t0) / number)
    finally:
        if gc_was:
            gc.enable()
    return statistics.median(samples)


def _fmt_time(t):
    if t is None:
        return "-"
    if t < 1e-3:
        return f"{t * 1e6:.1f} us"
    if t < 1:
        return f"{t * 1e3:.2f} ms"
    return f"{t:.2f} s"


def _fmt_ratio(a, b):
    return "-" if a is None or b is None else f"{a / b:.2f}x"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="workload names or name prefixes (default: all)")
    ap.add_argument("--list", action="store_true", help="list the workloads and exit")
    ap.add_argument("--no-jax", action="store_true", help="do not run JAX")
    ap.add_argument("--quick", action="store_true", help="fewer, shorter samples")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument("--repeats", type=int, default=None)
    args = ap.parse_args(argv)

    _load_workloads()
    if args.list:
        for w in WORKLOADS.values():
            print(f"{w.name:28s} {w.description}" + (f"  [target {w.target}]" if w.target else ""))
        return 0
    selected = [w for w in WORKLOADS.values()
                if not args.names or any(w.name.startswith(n) for n in args.names)]
    if not selected:
        print("no workload matches", args.names, file=sys.stderr)
        return 2
    libs = _libs(not args.no_jax)
    repeats = args.repeats or (5 if args.quick else 15)
    budget = 0.3 if args.quick else 1.5

    rows = []
    for w in selected:
        times = {}
        for lib_name, lib in libs.items():
            if lib_name == "numpy" and not w.numpy:
                continue
            fn = w.setup(lib)
            if fn is None:
                continue
            times[lib_name] = time_callable(fn, budget=budget, repeats=repeats, fresh=w.fresh)
        rows.append((w, times))
        if not args.markdown:
            print(f"  done {w.name}", file=sys.stderr)

    header = ["workload", "jaxlite", "JAX", "jaxlite/JAX", "NumPy", "jaxlite/NumPy", "target"]
    table = []
    for w, t in rows:
        table.append([w.name, _fmt_time(t.get("jaxlite")), _fmt_time(t.get("jax")),
                      _fmt_ratio(t.get("jaxlite"), t.get("jax")), _fmt_time(t.get("numpy")),
                      _fmt_ratio(t.get("jaxlite"), t.get("numpy")), w.target or ""])
    versions = [f"python {platform.python_version()}"]
    import numpy

    versions.append(f"numpy {numpy.__version__}")
    if "jax" in libs:
        versions.append(f"jax {libs['jax'].jax.__version__}")
    print(f"# {', '.join(versions)}; {platform.machine()}, {os.cpu_count()} CPUs; "
          f"median of {repeats} samples")
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "|".join("---" for _ in header) + "|")
        for r in table:
            print("| " + " | ".join(r) + " |")
    else:
        widths = [max(len(h), *(len(r[i]) for r in table)) for i, h in enumerate(header)]
        print("  ".join(h.ljust(wd) for h, wd in zip(header, widths)))
        for r in table:
            print("  ".join(c.ljust(wd) for c, wd in zip(r, widths)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
