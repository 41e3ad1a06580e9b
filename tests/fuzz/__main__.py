"""``python -m tests.fuzz --time 600``: the long differential fuzz run against JAX.

Options: ``--time SECONDS`` (stop after this long), ``--seed N`` (first seed, default 0),
``--count N`` (at most N programs), ``--per-program K`` (stacks per program, 0 = all),
``--stacks a,b`` (only these stacks), ``--out FILE`` (JSON report, rewritten as it goes),
``-v`` (print each minimized failure as it is found).
"""

from __future__ import annotations

import argparse
import sys

from tests.fuzz.driver import fuzz


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__)
    ap.add_argument("--time", type=float, default=600.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=10**9)
    ap.add_argument("--per-program", type=int, default=2)
    ap.add_argument("--stacks", default="")
    ap.add_argument("--out", default="fuzz_report.json")
    ap.add_argument("--minimize-budget", type=float, default=20.0)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    stats = fuzz(
        range(args.seed, args.seed + args.count),
        stacks=[s for s in args.stacks.split(",") if s] or None,
        per_program=args.per_program or None,
        time_limit=args.time,
        minimize_budget=args.minimize_budget,
        verbose=args.verbose,
        log=args.out,
    )
    if stats is None:
        print("JAX is not installed: nothing to compare against.")
        return 2
    print(stats.summary())
    for sig, (text, n) in stats.failures.items():
        print(f"\n=== {sig} (x{n})\n{text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
