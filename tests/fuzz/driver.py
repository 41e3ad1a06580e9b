"""The fuzz loop: generate programs from consecutive seeds, run each under some stacks in
both engines, tally programs per stack and mismatches by class, minimize the failures.

``fuzz`` runs in this process; ``chunked`` runs a long seed range as a series of fresh
subprocesses (each at most ``chunk`` programs, stopped early past an RSS cap), each writing
one JSON file, so a run is bounded in memory, resumable, and ``summary`` merges the files.
"""

from __future__ import annotations

import gc
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from tests.fuzz.engines import jax_ns, jaxlite_ns
from tests.fuzz.generator import generate
from tests.fuzz.minimize import minimize, report
from tests.fuzz.runner import (
    CLASSES,
    STACKS,
    applicable,
    compare,
    known,
    low_precision,
    run,
    stack_source,
)

# Each jitted stack and the same stack without jit (its result must be the same in JAX).
UNJIT = {
    "jit": "eval",
    "jit(vmap)": "vmap",
    "vmap(jit)": "vmap",
    "jit(grad)": "grad",
    "grad(jit)": "grad",
    "jit(vmap(grad))": "vmap(grad)",
}
JIT_EAGER_TOPIC = "JAX's result under jit differs from its eager one (jaxlite: the eager one)"


def _signature(program, stack, cls, detail):
    """A coarse key for de-duplicating failures: the class, the stack family and the
    function names in the minimized program."""
    names = sorted(
        {
            w
            for _, e in program.lines
            for w in re.findall(r"[a-z_]+\.[a-z_.]+|\.at\[|[%/*+<>=-]+", e)
        }
    )
    return f"{cls} | {stack} | {' '.join(names)[:120]}"


def rss_mb() -> float:
    """This process's resident set size in MiB (0 where /proc is missing)."""
    try:
        with open("/proc/self/statm") as fh:
            pages = int(fh.read().split()[1])
    except OSError:
        return 0.0
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def code_version(root: Path | str = ".") -> str:
    """``git describe``-like label of the code under test: the commit, ``+dirty`` when the
    jaxlite sources or the fuzzer differ from it, or the ``FUZZ_VERSION`` file of an exported
    snapshot."""
    root = Path(root)
    if (root / "FUZZ_VERSION").exists():
        return (root / "FUZZ_VERSION").read_text().strip()
    try:
        sha = subprocess.run(
            ["git", "rev-parse", "--short=10", "HEAD"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "jaxlite", "tests/fuzz"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return sha + ("+dirty" if dirty else "")


class Stats:
    def __init__(self):
        self.programs = 0
        self.runs = Counter()  # stack -> programs run under it
        self.mismatches = Counter()  # class -> count
        self.by_stack = defaultdict(Counter)  # stack -> class -> count
        self.failures = {}  # signature -> (report text, count)
        self.documented = Counter()  # compat-row topic -> count (deliberate differences)
        self.jit_only = 0  # JAX-under-jit disagreed, eager JAX agreed: not counted
        self.first_seed = None
        self.next_seed = None  # the first seed not run
        self.stopped = "done"  # or "time", "rss"
        self.version = ""
        self.seconds = 0.0
        self.per_program = None

    def summary(self) -> str:
        lines = [f"programs: {self.programs}; program x stack runs: {sum(self.runs.values())}"]
        lines.append("runs per stack: " + ", ".join(f"{s} {n}" for s, n in self.runs.items()))
        lines.append(
            "mismatches by class: " + ", ".join(f"{c} {self.mismatches.get(c, 0)}" for c in CLASSES)
        )
        lines.append(
            "documented differences: "
            + (", ".join(f"{t} {n}" for t, n in self.documented.items()) or "none")
        )
        lines.append(f"distinct failure signatures: {len(self.failures)}")
        return "\n".join(lines)

    def to_json(self):
        return dict(
            version=self.version,
            first_seed=self.first_seed,
            next_seed=self.next_seed,
            stopped=self.stopped,
            seconds=round(self.seconds, 1),
            per_program=self.per_program,
            programs=self.programs,
            runs=dict(self.runs),
            mismatches={c: self.mismatches.get(c, 0) for c in CLASSES},
            by_stack={s: dict(c) for s, c in self.by_stack.items()},
            documented=dict(self.documented),
            jit_only=self.jit_only,
            failures=[dict(signature=k, count=n, repro=r) for k, (r, n) in self.failures.items()],
        )

    def merge(self, d: dict):
        """Add one chunk's ``to_json`` record."""
        self.programs += d["programs"]
        self.runs.update(d["runs"])
        self.mismatches.update(d["mismatches"])
        for s, c in d["by_stack"].items():
            self.by_stack[s].update(c)
        self.documented.update(d["documented"])
        self.jit_only += d.get("jit_only", 0)
        self.seconds += d.get("seconds", 0.0)
        for f in d["failures"]:
            text, n = self.failures.get(f["signature"], (None, 0))
            if text is None or len(f["repro"]) < len(text):
                text = f["repro"]
            self.failures[f["signature"]] = (text, n + f["count"])


def fuzz(
    seeds,
    stacks=None,
    per_program: int | None = 2,
    time_limit: float | None = None,
    minimize_budget: float = 20.0,
    verbose: bool = False,
    log=None,
    rss_limit_mb: float | None = None,
    clear_every: int = 100,
):
    """Run the fuzzer over ``seeds``; returns ``Stats`` (``None`` if JAX is missing).

    ``per_program``: how many applicable stacks each program runs under (chosen from the
    seed); ``None`` runs all of them. JAX runs each stack under one ``jit`` (one compile per
    program, not one per operation); a disagreement is re-run in eager JAX, the reference,
    and counts only if eager JAX disagrees too. ``rss_limit_mb`` stops the loop (with
    ``stopped="rss"``) once this process grows past it; ``clear_every`` programs the
    engines' compile caches are dropped.
    """
    jax = jax_ns()
    if jax is None:
        return None
    lite = jaxlite_ns()
    stacks = list(stacks or STACKS)
    stats = Stats()
    stats.version = code_version()
    stats.per_program = per_program
    t0 = time.monotonic()

    def save():
        stats.seconds = time.monotonic() - t0
        if log is not None:
            tmp = f"{log}.tmp"
            with open(tmp, "w") as fh:
                json.dump(stats.to_json(), fh, indent=1)
            os.replace(tmp, log)

    for seed in seeds:
        if stats.first_seed is None:
            stats.first_seed = seed
        stats.next_seed = seed
        if time_limit is not None and time.monotonic() - t0 > time_limit:
            stats.stopped = "time"
            break
        if rss_limit_mb is not None and rss_mb() > rss_limit_mb:
            stats.stopped = "rss"
            break
        program = generate(seed, jax)
        stats.programs += 1
        ok = [s for s in stacks if applicable(program, s)]
        if per_program is not None and len(ok) > per_program:
            rng = np.random.default_rng(10_000_000 + seed)
            ok = [ok[i] for i in sorted(rng.choice(len(ok), per_program, replace=False))]
        for stack in ok:
            stats.runs[stack] += 1
            mine = run(program, stack, lite)
            lp = low_precision(program)
            got = compare(mine, run(program, stack, jax, jit_whole=True), lp)
            if got is not None:
                # Eager JAX is the reference (jit may change float16 rounding and errors).
                got = compare(mine, run(program, stack, jax), lp)
                if got is None:
                    stats.jit_only += 1
            if got is None:
                continue
            cls, detail = got
            topic = known(cls, detail, program.source() + stack_source(program, stack)[1])
            if topic is None and stack in UNJIT and applicable(program, UNJIT[stack]):
                # JAX disagreeing with itself: its result under the same stack without jit
                # is jaxlite's (documented: jaxlite gives the eager result everywhere).
                if compare(mine, run(program, UNJIT[stack], jax), lp) is None:
                    topic = JIT_EAGER_TOPIC
            if topic is not None:
                stats.documented[topic] += 1
                continue
            small, small_stack = minimize(program, stack, cls, lite, jax, minimize_budget)
            again = compare(run(small, small_stack, lite), run(small, small_stack, jax))
            detail = again[1] if again else detail
            # A documented difference whose effect later lines obscure (an XLA-wrapped
            # integer sorted, say) shows in the minimized program: documented too.
            topic = again and known(*again, small.source() + stack_source(small, small_stack)[1])
            if topic:
                stats.documented[topic] += 1
                continue
            stats.mismatches[cls] += 1
            stats.by_stack[stack][cls] += 1
            sig = _signature(small, small_stack, cls, detail)
            text, n = stats.failures.get(sig, (None, 0))
            if text is None or len(text) > len(report(small, small_stack, cls, detail)):
                text = report(small, small_stack, cls, detail)
            stats.failures[sig] = (text, n + 1)
            if verbose:
                print(f"--- seed {seed} {stack}: {cls}\n{text}", flush=True)
        stats.next_seed = seed + 1
        if clear_every and stats.programs % clear_every == 0:
            jax["jax"].clear_caches()
            gc.collect()
        if stats.programs % 25 == 0:
            save()
    save()
    return stats


def chunked(
    out_dir,
    first_seed: int,
    count: int,
    chunk: int = 250,
    time_limit: float | None = None,
    child_args=(),
    rss_limit_mb: float = 1200.0,
    echo=print,
):
    """Run seeds ``first_seed .. first_seed + count`` as fresh ``python -m tests.fuzz``
    subprocesses of at most ``chunk`` programs, each writing ``out_dir/chunk_<seed>.json``.

    Resumable: a seed range already covered by a chunk file is skipped, so rerunning the
    same command continues where a stopped run left off. A child stops early past
    ``rss_limit_mb`` (the next child continues from its next seed). Returns the merged
    ``Stats``.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    done = {}
    for f in out.glob("chunk_*.json"):
        d = json.loads(f.read_text())
        done[d["first_seed"]] = d["next_seed"]
    end = first_seed + count
    seed = first_seed
    t0 = time.monotonic()
    while seed < end:
        if seed in done and done[seed] > seed:
            seed = done[seed]
            continue
        left = None if time_limit is None else time_limit - (time.monotonic() - t0)
        if left is not None and left <= 0:
            break
        n = min(chunk, end - seed)
        nxt = min([s for s in done if seed < s < seed + n], default=None)
        if nxt is not None:
            n = nxt - seed
        log = out / f"chunk_{seed}.json"
        cmd = [sys.executable, "-m", "tests.fuzz", "--seed", str(seed), "--count", str(n)]
        cmd += ["--out", str(log), "--rss-limit", str(rss_limit_mb), *child_args]
        if left is not None:
            cmd += ["--time", str(max(left, 1.0))]
        subprocess.run(cmd, stdout=subprocess.DEVNULL, check=False)
        if not log.exists():
            echo(f"chunk at seed {seed} wrote nothing; stopping")
            break
        d = json.loads(log.read_text())
        done[seed] = d["next_seed"]
        echo(
            f"seeds {seed}..{d['next_seed'] - 1}: {d['programs']} programs in "
            f"{d['seconds']:.0f} s ({d['stopped']}), mismatches {sum(d['mismatches'].values())}"
        )
        if d["next_seed"] <= seed:
            break
        seed = d["next_seed"]
    return summary(out)


def summary(out_dir) -> Stats:
    """Merge every ``chunk_*.json`` under ``out_dir``; ``Stats.versions`` maps each code
    version to the programs that ran on it."""
    total = Stats()
    total.versions = Counter()
    total.version_mismatches = defaultdict(Counter)  # version -> class -> count
    total.version_documented = Counter()  # version -> documented differences
    for f in sorted(Path(out_dir).glob("chunk_*.json")):
        d = json.loads(f.read_text())
        total.merge(d)
        v = d.get("version", "unknown")
        total.versions[v] += d["programs"]
        total.version_mismatches[v].update(d["mismatches"])
        total.version_documented[v] += sum(d["documented"].values())
    return total
