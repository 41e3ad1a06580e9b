"""Shrink a failing callback program: greedy tree reductions, each kept only if the same
mismatch class remains (and is still not a documented difference).

Reductions, tried until none applies: delete a node; replace a wrapper by one of its bodies
(inlined into the parent); simplify a call site (no extra operands, no pytree, no keyword,
one output, used, unordered, no raise, ``vmap_method="sequential"``); shrink a wrapper's
parameters (loop lengths, ``vmap`` axis 0, no extra ``vmap`` operand); a smaller input.
"""

from __future__ import annotations

import time

import numpy as np

from tests.fuzz.cb_run import compare, known, run

SITE_SIMPLER = [
    ("extras", []),
    ("tree", False),
    ("kw", False),
    ("static", False),
    ("raise_at", None),
    ("ordered", False),
    ("nout", 1),
    ("int_out", False),
    ("use", True),
    ("vmap_method", "sequential"),
    ("primary", "v"),
    ("stopgrad", False),
]
WRAP_SIMPLER = [
    ("length", 1),
    ("n", 0),
    ("reverse", False),
    ("ys", False),
    ("traced", False),
    ("axis", 0),
    ("extra", "none"),
    ("policy", None),
    ("live", False),
    ("batched", False),
    ("idx", "const"),
]


def _fails(prog, cls, lite, jax):
    try:
        a, b = run(prog, lite), run(prog, jax)
    except Exception:  # noqa: BLE001 (a candidate that breaks the harness does not count)
        return False
    if isinstance(a.exc, NameError) or isinstance(b.exc, NameError):
        return False  # a cut that broke the program (a closure variable's definition)
    return any(c == cls and not known(prog, c, d, a, b, lite) for c, d in compare(prog, a, b))


def _lists(prog):
    """Every body list in the tree (the program's own body first)."""
    out = [prog.body]
    for n in prog.nodes():
        out += n.bodies
    return out


def _candidates(prog):
    """Smaller programs, roughly biggest cut first."""
    nlists = len(_lists(prog))
    for li in range(nlists):  # inline a wrapper's body in its place
        for j in range(len(_lists(prog)[li])):
            node = _lists(prog)[li][j]
            for b in range(len(node.bodies)):
                cand = prog.copy()
                lst = _lists(cand)[li]
                lst[j : j + 1] = lst[j].bodies[b]
                yield cand
    for li in range(nlists):  # delete a node
        for j in range(len(_lists(prog)[li])):
            cand = prog.copy()
            del _lists(cand)[li][j]
            yield cand
    for k, n in enumerate(prog.nodes()):  # simpler parameters
        table = SITE_SIMPLER if n.kind == "site" else WRAP_SIMPLER
        for key, val in table:
            if key in n.p and n.p[key] != val:
                cand = prog.copy()
                cand.nodes()[k].p[key] = val
                yield cand
    if prog.repeat > 1:
        cand = prog.copy()
        cand.repeat = 1
        yield cand
    for flag in ("top_jit", "no_jit"):
        if getattr(prog, flag):
            cand = prog.copy()
            setattr(cand, flag, False)
            yield cand
    if prog.x.size > 1:
        for shape in [(2,), (3,)] + ([prog.x.shape[:-1]] if prog.x.ndim > 1 else []):
            if int(np.prod(shape)) < prog.x.size:
                cand = prog.copy()
                n = int(np.prod(shape))
                cand.x = (np.arange(n, dtype=np.float32).reshape(shape) * 0.5 - 1.0).astype(
                    np.float32
                )
                yield cand


def minimize(prog, cls, lite, jax, budget_s: float = 60.0):
    """The smallest program found that still shows mismatch class ``cls``."""
    t0 = time.monotonic()
    best = prog
    changed = True
    while changed and time.monotonic() - t0 < budget_s:
        changed = False
        for cand in _candidates(best):
            if time.monotonic() - t0 > budget_s:
                break
            if _fails(cand, cls, lite, jax):
                best, changed = cand, True
                break
    return best
