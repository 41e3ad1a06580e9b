"""``python -m tests.fuzz --time 600``: the long differential fuzz run against JAX.

Options: ``--time SECONDS`` (stop after this long), ``--seed N`` (first seed, default 0),
``--count N`` (at most N programs), ``--per-program K`` (stacks per program, 0 = all),
``--stacks a,b`` (only these stacks), ``--out FILE`` (JSON report, rewritten as it goes),
``-v`` (print each minimized failure as it is found), ``--rss-limit MB`` (stop early past
this resident size).

Chunked, resumable runs: ``--dir D --chunk N`` runs the seed range as fresh subprocesses
of N programs each, one ``D/chunk_<seed>.json`` per chunk (rerun the same command to
continue); ``--summary D`` merges a directory's chunks and prints the totals.
"""

from __future__ import annotations

import argparse
import sys

from tests.fuzz.driver import chunked, fuzz, summary
from tests.fuzz.recheck import recheck
from tests.fuzz.runner import CLASSES


def _print(stats, versions=None):
    print(stats.summary())
    if versions:
        print("programs per code version: " + ", ".join(f"{v} {n}" for v, n in versions.items()))
        for v in versions:
            m = stats.version_mismatches[v]
            print(
                f"  {v}: mismatches "
                + ", ".join(f"{c} {m.get(c, 0)}" for c in CLASSES)
                + f"; documented {stats.version_documented[v]}"
            )
    print(f"JAX-under-jit disagreed but eager JAX agreed (not counted): {stats.jit_only}")
    for sig, (text, n) in stats.failures.items():
        print(f"\n=== {sig} (x{n})\n{text}")


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__)
    ap.add_argument("--time", type=float, default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=None)
    ap.add_argument("--per-program", type=int, default=2)
    ap.add_argument("--stacks", default="")
    ap.add_argument("--out", default="fuzz_report.json")
    ap.add_argument("--minimize-budget", type=float, default=20.0)
    ap.add_argument("--rss-limit", type=float, default=None)
    ap.add_argument("--dir", default=None)
    ap.add_argument("--chunk", type=int, default=250)
    ap.add_argument("--summary", default=None, metavar="DIR")
    ap.add_argument("--recheck", default=None, metavar="DIR")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    if args.recheck:
        stats = summary(args.recheck)
        fails = [dict(signature=k, repro=r) for k, (r, _n) in stats.failures.items()]
        rows = recheck(fails)
        for sig, status, detail in rows:
            print(f"{status:>10} | {sig}" + (f"\n           {detail}" if detail else ""))
        counts = {}
        for _, status, _ in rows:
            counts[status.split(":")[0]] = counts.get(status.split(":")[0], 0) + 1
        print("recheck of the minimized failures:", counts)
        return 0
    if args.summary:
        stats = summary(args.summary)
        _print(stats, stats.versions)
        return 0
    if args.time is None and args.count is None:
        args.time = 600.0
    count = args.count if args.count is not None else 10**9
    if args.dir:
        child = ["--per-program", str(args.per_program)]
        child += ["--minimize-budget", str(args.minimize_budget)]
        if args.stacks:
            child += ["--stacks", args.stacks]
        stats = chunked(
            args.dir,
            args.seed,
            count,
            chunk=args.chunk,
            time_limit=args.time,
            child_args=child,
            rss_limit_mb=args.rss_limit or 1200.0,
            echo=lambda s: print(s, flush=True),
        )
        _print(stats, stats.versions)
        return 0
    stats = fuzz(
        range(args.seed, args.seed + count),
        stacks=[s for s in args.stacks.split(",") if s] or None,
        per_program=args.per_program or None,
        time_limit=args.time,
        minimize_budget=args.minimize_budget,
        verbose=args.verbose,
        log=args.out,
        rss_limit_mb=args.rss_limit,
    )
    if stats is None:
        print("JAX is not installed: nothing to compare against.")
        return 2
    _print(stats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
