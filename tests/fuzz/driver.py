"""The fuzz loop: generate programs from consecutive seeds, run each under some stacks in
both engines, tally programs per stack and mismatches by class, minimize the failures."""

from __future__ import annotations

import json
import time
from collections import Counter, defaultdict

import numpy as np

from tests.fuzz.engines import jax_ns, jaxlite_ns
from tests.fuzz.generator import generate
from tests.fuzz.minimize import minimize, report
from tests.fuzz.runner import CLASSES, STACKS, applicable, compare, known, run


def _signature(program, stack, cls, detail):
    """A coarse key for de-duplicating failures: the class, the stack family and the
    function names in the minimized program."""
    names = sorted(
        {
            w
            for _, e in program.lines
            for w in __import__("re").findall(r"[a-z_]+\.[a-z_.]+|\.at\[|[%/*+<>=-]+", e)
        }
    )
    return f"{cls} | {stack} | {' '.join(names)[:120]}"


class Stats:
    def __init__(self):
        self.programs = 0
        self.runs = Counter()  # stack -> programs run under it
        self.mismatches = Counter()  # class -> count
        self.by_stack = defaultdict(Counter)  # stack -> class -> count
        self.failures = {}  # signature -> (report text, count)
        self.documented = Counter()  # compat-row topic -> count (deliberate differences)

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
            programs=self.programs,
            runs=dict(self.runs),
            mismatches={c: self.mismatches.get(c, 0) for c in CLASSES},
            by_stack={s: dict(c) for s, c in self.by_stack.items()},
            documented=dict(self.documented),
            failures=[dict(signature=k, count=n, repro=r) for k, (r, n) in self.failures.items()],
        )


def fuzz(
    seeds,
    stacks=None,
    per_program: int | None = 2,
    time_limit: float | None = None,
    minimize_budget: float = 20.0,
    verbose: bool = False,
    log=None,
):
    """Run the fuzzer over ``seeds``; returns ``Stats`` (``None`` if JAX is missing).

    ``per_program``: how many applicable stacks each program runs under (chosen from the
    seed); ``None`` runs all of them.
    """
    jax = jax_ns()
    if jax is None:
        return None
    lite = jaxlite_ns()
    stacks = list(stacks or STACKS)
    stats = Stats()
    t0 = time.monotonic()
    for seed in seeds:
        if time_limit is not None and time.monotonic() - t0 > time_limit:
            break
        program = generate(seed, jax)
        stats.programs += 1
        ok = [s for s in stacks if applicable(program, s)]
        if per_program is not None and len(ok) > per_program:
            rng = np.random.default_rng(10_000_000 + seed)
            ok = [ok[i] for i in sorted(rng.choice(len(ok), per_program, replace=False))]
        for stack in ok:
            stats.runs[stack] += 1
            # JAX runs the stack as written (eagerly unless the stack says jit): its per-op
            # compile caches warm up quickly over the fuzzer's small set of shapes, and
            # wrapping everything in jit would change NaN/overflow patterns (XLA fuses
            # float16 arithmetic in float32).
            got = compare(run(program, stack, lite), run(program, stack, jax))
            if got is None:
                continue
            cls, detail = got
            topic = known(cls, detail)
            if topic is not None:
                stats.documented[topic] += 1
                continue
            stats.mismatches[cls] += 1
            stats.by_stack[stack][cls] += 1
            small, small_stack = minimize(program, stack, cls, lite, jax, minimize_budget)
            again = compare(run(small, small_stack, lite), run(small, small_stack, jax))
            detail = again[1] if again else detail
            sig = _signature(small, small_stack, cls, detail)
            text, n = stats.failures.get(sig, (None, 0))
            if text is None or len(text) > len(report(small, small_stack, cls, detail)):
                text = report(small, small_stack, cls, detail)
            stats.failures[sig] = (text, n + 1)
            if verbose:
                print(f"--- seed {seed} {stack}: {cls}\n{text}", flush=True)
        if log is not None and stats.programs % 50 == 0:
            with open(log, "w") as fh:
                json.dump(stats.to_json(), fh, indent=1)
    if log is not None:
        with open(log, "w") as fh:
            json.dump(stats.to_json(), fh, indent=1)
    return stats
