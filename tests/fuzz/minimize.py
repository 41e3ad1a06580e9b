"""Shrink a failing program to the smallest one that fails the same way.

Greedy reductions, repeated until none applies, each kept only if the mismatch class stays
the same: a smaller transformation stack; returning an earlier variable (a prefix of the
program); dead-line removal; replacing a line by an earlier variable or input of the same
shape and dtype; dropping unused inputs. The result prints as a standalone script.
"""

from __future__ import annotations

import copy
import re
import time

from tests.fuzz.runner import SIMPLER, applicable, compare, repro_source, run


def _fails(program, stack, lite, jax, cls):
    if not applicable(program, stack):
        return False
    got = compare(run(program, stack, lite), run(program, stack, jax))
    return got is not None and got[0] == cls


def _dce(program):
    """Drop lines the output does not depend on, and inputs nothing uses."""
    p = copy.deepcopy(program)
    live = {p.out}
    kept = []
    for v, e in reversed(p.lines):
        if v in live:
            kept.append((v, e))
            live |= {n for n in re.findall(r"\b[xv]\d+\b", e)}
    p.lines = list(reversed(kept))
    used = [i for i in p.inputs if i.name in live]
    p.inputs = used or p.inputs[:1]
    return p


def minimize(program, stack, cls, lite, jax, budget_s: float = 60.0):
    """The smallest (program, stack) found that still fails with mismatch class ``cls``."""
    t0 = time.monotonic()
    best, best_stack = _dce(program), stack
    if not _fails(best, best_stack, lite, jax, cls):
        best = program
    changed = True
    while changed and time.monotonic() - t0 < budget_s:
        changed = False
        for s in SIMPLER.get(best_stack, []):
            if _fails(best, s, lite, jax, cls):
                best_stack, changed = s, True
                break
        # A prefix: return an earlier variable.
        for k in range(len(best.lines) - 1):
            cand = copy.deepcopy(best)
            cand.lines = cand.lines[: k + 1]
            cand.out = cand.lines[-1][0]
            cand = _dce(cand)
            if _fails(cand, best_stack, lite, jax, cls):
                best, changed = cand, True
                break
        # Replace a line's uses by an earlier value of the same shape and dtype.
        for idx, (v, _e) in enumerate(best.lines[:-1]):
            av = best.avals.get(v)
            if av is None:
                continue
            earlier = [i.name for i in best.inputs] + [w for w, _ in best.lines[:idx]]
            subs = [
                w
                for w in earlier
                if best.avals.get(w) is not None
                and (best.avals[w].shape, best.avals[w].dtype) == (av.shape, av.dtype)
            ]
            for w in subs:
                cand = copy.deepcopy(best)
                cand.lines = [(u, re.sub(rf"\b{v}\b", w, f)) for u, f in cand.lines if u != v]
                cand = _dce(cand)
                if _fails(cand, best_stack, lite, jax, cls):
                    best, changed = cand, True
                    break
            if changed:
                break
    return best, best_stack


def report(program, stack, cls, detail):
    detail = "\n#   ".join(str(detail).splitlines())
    return (
        f"# mismatch: {cls} under {stack}: {detail}\n"
        f"# (seed {program.seed}; run this file with jaxlite, then with "
        f"'import jax' in place of jaxlite to see JAX's answer)\n" + repro_source(program, stack)
    )
