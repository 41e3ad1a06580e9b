"""Run benchmark workloads side by side with JAX (when importable) in one process.

Usage::

    python benchmarks/run.py                     # every workload
    python benchmarks/run.py jit_dispatch        # selected workloads (names or prefixes)
    python benchmarks/run.py --filter callback   # workloads whose name contains "callback"
    python benchmarks/run.py --list
    python benchmarks/run.py --quick --no-jax --markdown

Prints one row per workload: the median time per call (or per scan step, per loop
iteration: see ``per``/``unit`` in ``registry.py``) for jaxlite, JAX and (where the workload
has one) a hand-written NumPy baseline, the ratios jaxlite/JAX and jaxlite/NumPy (below 1
means jaxlite is faster), the workload's target and whether it is met, then one line per
target. Without JAX installed (or with ``--no-jax``) the JAX columns stay empty and ratio
targets against JAX read "n/a". Workloads are registered in ``benchmarks/workloads_*.py``
with ``registry.workload`` (see ``registry.py``).
"""

from __future__ import annotations

import argparse
import datetime
import gc
import glob
import importlib
import os
import platform
import re
import statistics
import sys
import time
import traceback
import types

try:
    import resource
except ImportError:  # not on Windows: children's CPU time is then not counted
    resource = None

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

from registry import WORKLOADS  # noqa: E402

# Files listed here load first (in issue order), then any other workloads_*.py alphabetically.
_FILE_ORDER = [
    "workloads_core.py",
    "workloads_ad.py",
    "workloads_control_flow.py",
    "workloads_callbacks.py",
    "workloads_sharding.py",
]


def _load_workloads():
    def key(path):
        base = os.path.basename(path)
        return (_FILE_ORDER.index(base) if base in _FILE_ORDER else len(_FILE_ORDER), base)

    for path in sorted(glob.glob(os.path.join(HERE, "workloads_*.py")), key=key):
        importlib.import_module(os.path.splitext(os.path.basename(path))[0])


def _libs(use_jax: bool) -> dict:
    import jaxlite
    import jaxlite.lax
    import jaxlite.numpy

    # Two virtual CPU devices for the sharding workloads (before first use; others use one).
    try:
        jaxlite.config.update("jax_num_cpu_devices", 2)
    except RuntimeError:
        pass
    libs = {
        "jaxlite": types.SimpleNamespace(
            name="jaxlite", jax=jaxlite, jnp=jaxlite.numpy, lax=jaxlite.lax
        )
    }
    if use_jax:
        try:
            import jax
            import jax.lax
            import jax.numpy

            jax.config.update("jax_platforms", "cpu")
            try:
                jax.config.update("jax_num_cpu_devices", 2)
            except RuntimeError:
                pass
            libs["jax"] = types.SimpleNamespace(name="jax", jax=jax, jnp=jax.numpy, lax=jax.lax)
        except ImportError:
            pass
    libs["numpy"] = types.SimpleNamespace(name="numpy", jax=None, jnp=None, lax=None)
    return libs


_BLAS_ENV = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")
_JAXLITE_BLAS_ENV = ("JAXLITE_BLAS_THREADS", "JAXLITE_BLAS_SPLIT")


def blas_summary() -> str:
    """One line on NumPy's BLAS as it ran: library, version, kernel (OpenBLAS's core type)
    and threads (threadpoolctl), and the environment variables that change them. The BLAS
    rows depend on all of it (docs/benchmarks.md)."""
    env = ", ".join(
        f"{k}={os.environ[k]}" for k in _BLAS_ENV + _JAXLITE_BLAS_ENV if k in os.environ
    )
    env = f"; environment: {env}" if env else "; none of OPENBLAS_CORETYPE, OPENBLAS_L2_SIZE set"
    split = os.environ.get("JAXLITE_BLAS_SPLIT", "off").lower() in ("on", "1", "auto")
    mode = "split" if split else os.environ.get("JAXLITE_BLAS_THREADS", "watch").lower()
    env += f"; jaxlite's products: {mode} (ops/blas_split.py)"
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "BLAS: unknown (threadpoolctl not installed)" + env
    libs = [i for i in threadpool_info() if i.get("user_api") == "blas"]
    if not libs:
        return "BLAS: none found by threadpoolctl" + env
    desc = [
        f"{os.path.basename(os.path.dirname(i.get('filepath', '')))}: "
        f"{i.get('internal_api')} {i.get('version')}, kernel {i.get('architecture')}, "
        f"{i.get('num_threads')} threads ({i.get('threading_layer')})"
        for i in libs
    ]
    return "BLAS: " + "; ".join(desc) + env


def cpu_time_with_children() -> float:
    """CPU seconds of this process and of its finished child processes: ``--timer cpu``
    for workloads whose timed call runs a subprocess (``children=True``)."""
    t = time.process_time()
    if resource is not None:
        ru = resource.getrusage(resource.RUSAGE_CHILDREN)
        t += ru.ru_utime + ru.ru_stime
    return t


def _block(x):
    leaves = x if isinstance(x, (tuple, list)) else [x]
    for leaf in leaves:
        if hasattr(leaf, "block_until_ready"):
            leaf.block_until_ready()
        elif isinstance(leaf, (tuple, list)):
            _block(leaf)
    return x


def time_callable(
    fn, *, budget: float, repeats: int, fresh: bool, clock=time.perf_counter
) -> float:
    """Median seconds per call. Calls are batched so each timed sample lasts >= ~budget/
    repeats (one call per sample for ``fresh`` workloads, whose calls do new work).
    ``clock`` is wall time, or ``time.process_time`` (``--timer cpu``: the CPU time of all
    the process's threads, steadier on a busy machine, but it charges multi-threaded work
    such as BLAS for every core it uses)."""
    return time_interleaved({0: fn}, budget=budget, repeats=repeats, fresh=fresh, clock=clock)[0]


def time_interleaved(
    fns: dict, *, budget: float, repeats: int, fresh: bool, clock=time.perf_counter
) -> dict:
    """``time_callable`` for several callables at once, their samples taken in turn (one of
    each, ``repeats`` times), so that a change in the machine's load reaches all of them
    alike: how jaxlite is timed against its NumPy baseline (the floor of the callback rows)."""
    numbers = {}
    for key, fn in fns.items():
        _block(fn())  # warm-up
        t0 = clock()
        _block(fn())
        one = max(clock() - t0, 1e-7)
        numbers[key] = 1 if fresh else max(1, int(budget / repeats / one))
    samples: dict = {key: [] for key in fns}
    gc_was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            for key, fn in fns.items():
                number = numbers[key]
                t0 = clock()
                for _ in range(number):
                    _block(fn())
                samples[key].append((clock() - t0) / number)
    finally:
        if gc_was:
            gc.enable()
    return {key: statistics.median(ts) for key, ts in samples.items()}


_UNITS = {"ns": 1e-9, "us": 1e-6, "\u00b5s": 1e-6, "ms": 1e-3, "s": 1.0}
_RATIO_RE = re.compile(r"^\s*<=\s*([0-9.]+)\s*x\b\s*([^(]*)")
_ABS_RE = re.compile(r"^\s*<=\s*([0-9.]+)\s*(ns|us|\u00b5s|ms|s)\b")


def check_target(target, times):
    """``(met, explanation)`` for a target phrase (see ``registry.py``) given the per-unit
    times ``{"jaxlite": t, "jax": t, "numpy": t}``; ``met`` is None when it cannot be judged."""
    if not target:
        return None, "no target"
    mine = times.get("jaxlite")
    if mine is None:
        return None, "jaxlite did not run"
    m = _ABS_RE.match(target)
    if m:
        limit = float(m.group(1)) * _UNITS[m.group(2)]
        why = f"{_fmt_time(mine)} vs {_fmt_time(limit)}"
        if times.get("jax") is not None:
            ratio = mine / times["jax"]
            why += (
                f"; {ratio:.0f}x slower than JAX"
                if ratio >= 1
                else f"; {1 / ratio:.1f}x faster than JAX"
            )
        return mine <= limit, why
    m = _RATIO_RE.match(target)
    if m:
        limit, ref_text = float(m.group(1)), m.group(2)
        ref = (
            "numpy" if "numpy" in ref_text.lower() else "jax" if "jax" in ref_text.lower() else None
        )
        if ref is None:
            return None, f"unknown reference in target {target!r}"
        if times.get(ref) is None:
            return None, f"no {'JAX' if ref == 'jax' else 'NumPy'} figure"
        ratio = mine / times[ref]
        label = "JAX" if ref == "jax" else "NumPy"
        speed = f"{1 / ratio:.1f}x faster" if ratio < 1 else f"{ratio:.1f}x slower"
        return ratio <= limit, f"{ratio:.3g}x {label}, i.e. {speed}; needs <= {limit:g}x"
    return None, f"unparsed target {target!r}"


def _fmt_time(t):
    if t is None:
        return "-"
    if t < 1e-6:
        return f"{t * 1e9:.1f} ns"
    if t < 1e-3:
        return f"{t * 1e6:.2f} us" if t < 1e-5 else f"{t * 1e6:.1f} us"
    if t < 1:
        return f"{t * 1e3:.2f} ms"
    return f"{t:.2f} s"


def _fmt_ratio(a, b):
    if a is None or b is None:
        return "-"
    r = a / b
    return f"{r:.3f}x" if r < 0.1 else f"{r:.2f}x"


def _fmt_unit_time(t, w):
    if t is None:
        return "-"
    return _fmt_time(t) + ("" if w.per == 1 else f"/{w.unit}")


def _status(met):
    return {True: "met", False: "MISSED", None: "n/a"}[met]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="workload names or name prefixes (default: all)")
    ap.add_argument(
        "--filter",
        action="append",
        default=[],
        metavar="TEXT",
        help="run workloads whose name contains TEXT (repeatable)",
    )
    ap.add_argument("--list", action="store_true", help="list the workloads and exit")
    ap.add_argument("--no-jax", action="store_true", help="do not run JAX")
    ap.add_argument("--quick", action="store_true", help="fewer, shorter samples")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument("--repeats", type=int, default=None)
    ap.add_argument(
        "--timer",
        choices=["wall", "cpu"],
        default="wall",
        help="wall time (default) or the process's CPU time (steadier on a busy "
        "machine; charges multi-threaded BLAS for every core)",
    )
    args = ap.parse_args(argv)

    _load_workloads()
    selected = [
        w
        for w in WORKLOADS.values()
        if (not args.names or any(w.name.startswith(n) for n in args.names))
        and (not args.filter or any(f in w.name for f in args.filter))
    ]
    if args.list:
        for w in selected:
            print(f"{w.name:28s} {w.description}" + (f"  [target {w.target}]" if w.target else ""))
        return 0
    if not selected:
        print("no workload matches", args.names, args.filter, file=sys.stderr)
        return 2
    libs = _libs(not args.no_jax)
    repeats = args.repeats or (5 if args.quick else 15)
    budget = 0.3 if args.quick else 1.5
    clock = time.process_time if args.timer == "cpu" else time.perf_counter
    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else None

    rows, errors = [], []
    for w in selected:
        times = {}
        # With ``interleave``, jaxlite and the NumPy baseline are timed in turn (ratios to the
        # floor stay honest when the load moves); JAX always on its own (a workload's setup
        # may start a busy process).
        if w.interleave and w.numpy:
            groups = [["jaxlite", "numpy"], ["jax"]]
        else:
            groups = [["jaxlite"], ["jax"], ["numpy"] if w.numpy else []]
        for group in groups:
            fns = {}
            for lib_name in group:
                if lib_name not in libs:
                    continue
                try:
                    fn = w.setup(libs[lib_name])
                except Exception as e:  # noqa: BLE001 -- report it, go on with the others
                    errors.append(f"{w.name} [{lib_name}]: {type(e).__name__}: {e}")
                    traceback.print_exc(file=sys.stderr)
                    continue
                if fn is not None:
                    fns[lib_name] = fn
            fn = None
            if fns:
                w_clock = cpu_time_with_children if w.children and args.timer == "cpu" else clock
                try:
                    got = time_interleaved(
                        fns, budget=budget, repeats=repeats, fresh=w.fresh, clock=w_clock
                    )
                except Exception as e:  # noqa: BLE001 -- report it, go on with the others
                    errors.append(f"{w.name} [{', '.join(fns)}]: {type(e).__name__}: {e}")
                    traceback.print_exc(file=sys.stderr)
                    got = {}
                for lib_name, t in got.items():
                    times[lib_name] = t / w.per
            fns = None
            gc.collect()
        rows.append((w, times))
        if not args.markdown:
            print(f"  done {w.name}", file=sys.stderr)
    load_after = os.getloadavg()[0] if hasattr(os, "getloadavg") else None

    header = [
        "workload",
        "jaxlite",
        "JAX",
        "jaxlite/JAX",
        "NumPy",
        "jaxlite/NumPy",
        "target",
        "met",
    ]
    table, verdicts = [], []
    for w, t in rows:
        met, why = check_target(w.target, t)
        verdicts.append((w, met, why))
        table.append(
            [
                w.name,
                _fmt_unit_time(t.get("jaxlite"), w),
                _fmt_unit_time(t.get("jax"), w),
                _fmt_ratio(t.get("jaxlite"), t.get("jax")),
                _fmt_unit_time(t.get("numpy"), w),
                _fmt_ratio(t.get("jaxlite"), t.get("numpy")),
                w.target or "",
                _status(met),
            ]
        )
    import numpy

    versions = [f"python {platform.python_version()}", f"numpy {numpy.__version__}"]
    versions.append(f"jax {libs['jax'].jax.__version__}" if "jax" in libs else "no JAX")
    load = (
        ""
        if load_before is None
        else f"; 1-min load average {load_before:.2f} before, {load_after:.2f} after"
    )
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    print(
        f"{when}; {', '.join(versions)}; {platform.machine()}, {os.cpu_count()} CPUs; "
        f"median of {repeats} samples, {args.timer} time{load}"
    )
    print(blas_summary())
    print()
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "|".join("---" for _ in header) + "|")
        for r in table:
            print("| " + " | ".join(r) + " |")
    else:
        widths = [max(len(h), *(len(r[i]) for r in table)) for i, h in enumerate(header)]
        print("  ".join(h.ljust(wd) for h, wd in zip(header, widths)).rstrip())
        for r in table:
            print("  ".join(c.ljust(wd) for c, wd in zip(r, widths)).rstrip())
    print()
    bullet = "* " if args.markdown else ""
    for w, met, why in verdicts:
        if w.target:
            print(f"{bullet}{w.name}: {_status(met)} ({why}; target {w.target})")
    for e in errors:
        print(f"{bullet}ERROR {e}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
