"""``python -m tests.fuzz.cb``: the differential fuzzer for host callbacks (see
tests/fuzz/README.md, "The callback fuzzer").

Options: ``--seed N`` (first seed), ``--count N`` (programs), ``--time S`` (stop after S
seconds), ``--minimize-budget S`` (seconds per failure), ``--out FILE`` (JSON report,
rewritten as the run goes), ``-v`` (print each minimized failure as it is found).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections import Counter

from tests.fuzz.cb_gen import generate
from tests.fuzz.cb_min import minimize
from tests.fuzz.cb_run import CLASSES, INFO_CLASSES, compare, known, namespaces, repro_source, run
from tests.fuzz.driver import code_version, rss_mb


class CbStats:
    def __init__(self):
        self.programs = 0
        self.outcomes = Counter()  # "both ok", "both raised <JAX type>", "differ"
        self.mismatches = Counter()  # class -> programs showing it (undocumented)
        self.documented = Counter()  # compat topic -> count
        self.info = Counter()  # informational classes
        self.coverage = Counter()  # wrapper kinds, site kinds and options
        self.failures = {}  # signature -> (repro text, count)
        self.version = ""
        self.seconds = 0.0
        self.seeds = None

    def summary(self) -> str:
        cov = ", ".join(f"{k} {n}" for k, n in sorted(self.coverage.items()))
        return "\n".join(
            [
                f"programs: {self.programs} (seeds {self.seeds}, {self.seconds:.0f} s, "
                f"code {self.version})",
                "outcomes: " + ", ".join(f"{k} {n}" for k, n in self.outcomes.most_common()),
                "mismatches: " + ", ".join(f"{c} {self.mismatches.get(c, 0)}" for c in CLASSES),
                "documented: "
                + (", ".join(f"{t} {n}" for t, n in self.documented.items()) or "none"),
                "informational: " + (", ".join(f"{c} {n}" for c, n in self.info.items()) or "none"),
                f"distinct failure signatures: {len(self.failures)}",
                f"coverage: {cov}",
            ]
        )

    def to_json(self):
        return dict(
            version=self.version,
            seeds=self.seeds,
            seconds=round(self.seconds, 1),
            programs=self.programs,
            outcomes=dict(self.outcomes),
            mismatches=dict(self.mismatches),
            documented=dict(self.documented),
            info=dict(self.info),
            coverage=dict(self.coverage),
            failures=[dict(signature=k, count=n, repro=r) for k, (r, n) in self.failures.items()],
        )


def _coverage(prog, cov: Counter):
    for n in prog.nodes():
        if n.kind != "site":
            cov[n.kind] += 1
            continue
        p = n.p
        cov[p["kind"] + ("-ordered" if p.get("ordered") else "")] += 1
        if p["kind"] == "pc":
            cov[f"vmap_method={p['vmap_method']}"] += 1
        if p["tree"]:
            cov["pytree args"] += 1
    cov["top-level jit"] += prog.top_jit
    cov["called twice"] += prog.repeat > 1
    cov["disable_jit"] += prog.no_jit
    for t in prog.tags().values():
        if "vmap" in t:
            cov["site under vmap"] += 1
        if any(k in t for k in ("grad", "vag", "jvp", "vjp", "lin")):
            cov["site under AD"] += 1


def _signature(prog, cls):
    kinds = sorted({n.kind for n in prog.nodes() if n.kind not in ("let", "arith")})
    sites = sorted({n.p["kind"] for n in prog.nodes() if n.kind == "site"})
    return f"{cls} | {' '.join(kinds)} | {' '.join(sites)}"


def report(prog, cls, detail) -> str:
    detail = "\n#   ".join(str(detail).splitlines())
    return (
        f"# mismatch: {cls}: {detail}\n# (seed {prog.seed}; set ENGINE = 'jax' for JAX's "
        f"answer)\n" + repro_source(prog)
    )


def fuzz(seeds, time_limit=None, minimize_budget=20.0, verbose=False, out=None, clear_every=50):
    """Run the callback fuzzer over ``seeds``; ``CbStats``, or ``None`` without JAX."""
    lite, jax = namespaces()
    if jax is None:
        return None
    stats = CbStats()
    stats.version = code_version()
    seeds = list(seeds)
    t0 = time.monotonic()
    first = seeds[0] if seeds else None
    for k, seed in enumerate(seeds):
        if time_limit is not None and time.monotonic() - t0 > time_limit:
            break
        prog = generate(seed)
        _coverage(prog, stats.coverage)
        a, b = run(prog, lite), run(prog, jax)
        stats.programs += 1
        stats.seeds = f"{first}-{seed}"
        found = compare(prog, a, b)
        if a.ok and b.ok:
            stats.outcomes["both ok"] += 1
        elif not a.ok and not b.ok:
            stats.outcomes[f"both raised {type(b.exc).__name__}"] += 1
        else:
            stats.outcomes["one raised"] += 1
        counted = []
        for cls, detail in found:
            if cls in INFO_CLASSES:
                stats.info[cls] += 1
                continue
            topic = known(prog, cls, detail, a, b, lite)
            if topic:
                stats.documented[topic] += 1
            else:
                counted.append((cls, detail))
        for cls, _ in counted:
            stats.mismatches[cls] += 1
        if counted:
            cls, detail = counted[0]
            small = minimize(prog, cls, lite, jax, minimize_budget)
            sa, sb = run(small, lite), run(small, jax)
            sdetail = next((d for c, d in compare(small, sa, sb) if c == cls), detail)
            sig = _signature(small, cls)
            text, n = stats.failures.get(sig, (None, 0))
            rep = report(small, cls, sdetail)
            if text is None or len(rep) < len(text):
                text = rep
            stats.failures[sig] = (text, n + 1)
            if verbose:
                print(f"\n=== seed {seed}: {sig}\n{rep}", flush=True)
        if clear_every and (k + 1) % clear_every == 0:
            lite["jax"].clear_caches()
            jax["jax"].clear_caches()
        stats.seconds = time.monotonic() - t0
        if out is not None and (k % 10 == 0 or k == len(seeds) - 1):
            _save(stats, out)
    stats.seconds = time.monotonic() - t0
    if out is not None:
        _save(stats, out)
    return stats


def _save(stats, out):
    tmp = f"{out}.tmp"
    with open(tmp, "w") as fh:
        json.dump(dict(stats.to_json(), rss_mb=round(rss_mb())), fh, indent=1)
    os.replace(tmp, out)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tests.fuzz.cb", description=__doc__)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--seeds", default="", help="a comma list of seeds (instead of a range)")
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--time", type=float, default=None)
    ap.add_argument("--minimize-budget", type=float, default=20.0)
    ap.add_argument("--out", default=None)
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args(argv)
    seeds = range(args.seed, args.seed + args.count)
    if args.seeds:
        seeds = [int(s) for s in args.seeds.split(",")]
    stats = fuzz(
        seeds,
        time_limit=args.time,
        minimize_budget=args.minimize_budget,
        verbose=args.v,
        out=args.out,
    )
    if stats is None:
        print("JAX is not installed: nothing to compare against")
        return 2
    print(stats.summary())
    for sig, (text, n) in stats.failures.items():
        print(f"\n=== {sig} (x{n})\n{text}")
    return 1 if stats.failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
