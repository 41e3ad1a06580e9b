"""Run one generated callback program in jaxlite and in JAX and compare what the caller and
the host functions saw.

Each engine executes the same source text (``cb_gen.render``) in a namespace where ``jax``,
``jnp``, ``lax``, ``io_callback`` are that engine's, with ``HOST`` (the recording host
functions) defined in it. ``debug.print`` output is captured by swapping ``sys.stdout``
(each write is one message). After the call (or its exception) ``jax.effects_barrier()``
runs, then the log is read.

Compared, in this order (``compare`` returns every class that differs):

* ``raise/no-raise`` and ``exception type`` (the built-in base class: JAX's
  ``JaxRuntimeError`` and jaxlite's ``CallbackError`` are both ``RuntimeError``);
* ``output``: the result's leaves, shapes, dtypes and values;
* ``calls``: the multiset of callback calls (site, argument pytree, shapes, dtypes, weak
  types, values; printed text for ``debug.print``), so call counts exactly;
* ``order``: the sequence of each ordered chain (ordered ``io_callback``; ordered
  ``debug.callback``/``debug.print``), which JAX guarantees;
* ``unordered order`` (informational, not a failure): the whole sequence, which JAX does not
  promise for unordered callbacks; ``calls before an error`` (informational): the calls made
  when both engines raised (which callbacks run before an error is not specified).

``known`` is the one place where documented deliberate differences (docs/compat.md, "Host
callbacks") are recognised.

Everything here is test code: generated text is executed by the harness, never by jaxlite.
"""

from __future__ import annotations

import itertools
import logging
import re
import sys
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from tests.fuzz.engines import jax_ns as _jax_ns, jaxlite_ns as _jaxlite_ns
from tests.fuzz.runner import _base

HOST = '''
LOG = []


def _leaves(t):
    if t is None:
        return []
    if isinstance(t, dict):
        return [leaf for k in sorted(t) for leaf in _leaves(t[k])]
    if isinstance(t, (list, tuple)):
        return [leaf for e in t for leaf in _leaves(e)]
    return [t]


def _desc(t):
    """A hashable description of a callback's argument pytree."""
    if t is None:
        return None
    if isinstance(t, dict):
        return ("dict", tuple((k, _desc(t[k])) for k in sorted(t)))
    if isinstance(t, (list, tuple)):
        return (type(t).__name__, tuple(_desc(e) for e in t))
    if isinstance(t, str):
        return ("str", t)
    a = np.asarray(t)
    kind = "Array" if isinstance(t, jax.Array) else type(t).__name__
    vals = tuple(round(float(e), 4) for e in a.astype(np.float64).ravel())
    return (kind, a.shape, str(a.dtype), bool(getattr(t, "weak_type", False)), vals)


class Host:
    """The host function of one call site: records each call, returns a deterministic
    result (``a0 * 0.5 + 1 + 0.25 * sum(other leaves)``, shaped as the first leaf)."""

    def __init__(self, sid, kind, ordered=False, raise_at=None, nout=1, int_out=False):
        self.sid, self.kind, self.ordered = sid, kind, ordered
        self.raise_at, self.nout, self.int_out = raise_at, nout, int_out
        self.calls = 0

    def __call__(self, *args, **kwargs):
        n = self.calls
        self.calls += 1
        LOG.append((self.sid, _desc((args, kwargs))))
        if self.raise_at == n:
            raise ValueError(f"boom at site {self.sid}")
        if self.kind == "dc" or self.nout == 0:
            return None
        leaves = [leaf for leaf in _leaves((args, kwargs)) if not isinstance(leaf, str)]
        a0 = np.asarray(leaves[0]).astype(np.float32)
        extra = sum(float(np.sum(np.asarray(leaf, np.float32))) for leaf in leaves[1:])
        r = (a0 * 0.5 + 1.0 + np.float32(extra * 0.25)).astype(np.float32)
        if self.nout == 1:
            return r
        return [r, {"z": (r * 2.0).astype(np.int32 if self.int_out else np.float32)}]
'''

CLASSES = ("raise/no-raise", "exception type", "output", "calls", "order")
INFO_CLASSES = ("unordered order", "calls before an error")


def namespaces():
    """(jaxlite's, JAX's) namespaces for the generated source; JAX's is ``None`` when JAX is
    not installed."""
    lite = _with_io(_jaxlite_ns(), "jaxlite")
    jax = _jax_ns()
    if jax is not None:
        jax = _with_io(jax, "jax")
    for name in ("jax._src.callback", "jax._src.debugging"):
        logging.getLogger(name).setLevel(logging.CRITICAL)  # C2's ERROR records: noise here
    return lite, jax


def _with_io(ns, mod):
    import importlib

    ns = dict(ns)
    ns["io_callback"] = importlib.import_module(mod + ".experimental").io_callback
    return ns


class _Capture:
    """``sys.stdout`` while a program runs: each write is one ``debug.print`` message."""

    def __init__(self, log):
        self.log = log

    def write(self, text):
        m = re.match(r"s(\d+) ", text)
        if m:
            self.log.append((int(m.group(1)), ("printed", text.rstrip("\n"))))
        return len(text)

    def flush(self):
        pass


@dataclass
class Outcome:
    ok: bool
    exc: BaseException | None = None
    out: list = field(default_factory=list)  # (shape, dtype, values) per output leaf
    log: list = field(default_factory=list)  # (sid, description) per call, in call order


def run(prog, ns) -> Outcome:
    env = dict(ns)
    exec(HOST, env)  # noqa: S102 (test side: the harness's own text)
    exec(prog.source(), env)  # noqa: S102
    jax, jnp = env["jax"], env["jnp"]
    log = env["LOG"]
    old = sys.stdout
    sys.stdout = _Capture(log)
    res = Outcome(ok=True)
    try:
        fn = jax.jit(env["f"]) if prog.top_jit else env["f"]
        with jax.disable_jit(prog.no_jit):
            for _ in range(prog.repeat):
                out = fn(jnp.asarray(prog.x), jnp.asarray(prog.y))
        leaves = jax.tree_util.tree_leaves(out)
        res.out = [(np.shape(v), str(np.asarray(v).dtype), np.asarray(v)) for v in leaves]
        jax.effects_barrier()
    except Exception as e:  # noqa: BLE001 (any error is an outcome to compare)
        res.ok, res.exc = False, e
        try:
            jax.effects_barrier()
        except Exception:  # noqa: BLE001, S110 (an error already reported)
            pass
    finally:
        sys.stdout = old
    res.log = list(log)
    return res


def _exc_text(e):
    return f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}"


def _chain(prog, log, which):
    sites = prog.sites()

    def keep(sid):
        n = sites.get(sid)
        if n is None or not n.p.get("ordered"):
            return False
        return (n.p["kind"] == "io") == (which == "io")

    return [e for e in log if keep(e[0])]


def _fmt_calls(c: Counter, limit=4):
    items = sorted(c.items(), key=repr)[:limit]
    return "; ".join(f"{n}x s{sid} {str(d)[:160]}" for (sid, d), n in items)


def compare(prog, a: Outcome, b: Outcome) -> list:
    """[(class, detail)] for every way jaxlite's outcome ``a`` differs from JAX's ``b``."""
    found = []
    if a.ok != b.ok:
        who = "jaxlite" if not a.ok else "JAX"
        e = a.exc if not a.ok else b.exc
        found.append(("raise/no-raise", f"only {who} raised {_exc_text(e)}"))
    elif not a.ok and _base(a.exc) != _base(b.exc):
        found.append(("exception type", f"jaxlite {_exc_text(a.exc)} | JAX {_exc_text(b.exc)}"))
    if a.ok and b.ok:
        d = _out_diff(a.out, b.out)
        if d:
            found.append(("output", d))
    ca, cb = Counter(a.log), Counter(b.log)
    both_raised = not a.ok and not b.ok
    if ca != cb and both_raised:
        # a trace-time error: which callbacks already ran depends on how far each engine
        # executes while tracing; a callback's exception: independent unordered callbacks
        # around it may run before or after it (and not at all once it raised)
        found.append(("calls before an error", f"{len(a.log)} vs {len(b.log)} calls"))
    elif ca != cb:
        found.append(
            (
                "calls",
                f"{len(a.log)} vs {len(b.log)} calls; only jaxlite: {_fmt_calls(ca - cb)}"
                f" | only JAX: {_fmt_calls(cb - ca)}",
            )
        )
    else:
        for which in ("io", "debug"):
            sa, sb = _chain(prog, a.log, which), _chain(prog, b.log, which)
            if sa != sb:
                found.append(("order", f"ordered {which}: {_seq(sa)} vs JAX {_seq(sb)}"))
                break
        else:
            if a.log != b.log:
                found.append(("unordered order", f"{_seq(a.log)} vs JAX {_seq(b.log)}"))
    return found


def _seq(log):
    return " ".join(f"s{sid}" for sid, _ in log[:30])


def _out_diff(oa, ob):
    if len(oa) != len(ob):
        return f"{len(oa)} vs {len(ob)} output leaves"
    for i, ((sa, da, va), (sb, db, vb)) in enumerate(zip(oa, ob)):
        if sa != sb or da != db:
            return f"leaf {i}: {da}{list(sa)} vs JAX {db}{list(sb)}"
        if not np.allclose(va.astype(np.float64), vb.astype(np.float64), 1e-5, 1e-6):
            return f"leaf {i}: {va.tolist()} vs JAX {vb.tolist()}"
    return None


# -- documented deliberate differences: the one place they are recognised ------------------

# JAX refuses; jaxlite runs the program (compat.md, "Host callbacks")
_JAX_RAISES = [
    ("IO effect not supported in vmap-of-cond", "io_callback in vmap of cond/switch (F11)"),
    (
        "IO effects not supported in while_loop with batched predicate",
        "io_callback in vmap of while_loop with a batched predicate (F12)",
    ),
    ("Ordered IO effects not supported in vmap", "io_callback in vmap of while_loop (F12)"),
    ("Effects not supported in partial-eval of `checkpoint`", "io_callback in checkpoint (H1)"),
    ("Effects not supported in AD of `checkpoint`", "io_callback in checkpoint (H1)"),
]


LOOPS = ("scan", "scanrows", "fori", "while", "while_cond")
REVERSE_AD = ("grad", "vag", "vjp", "lin")


TOPIC_E8 = "callbacks in the predicate of a vmapped while_loop (E8)"
TOPIC_D7 = "pure_callback on loop-invariant operands in a loop (D7)"
TOPIC_SCAN_AD = "effects in a scan under reverse-mode AD"
TOPIC_WHILE_IO = "unordered io/debug callback in a compiled while_loop predicate (D5, E7)"
TOPIC_RULE_IO = "io_callback on a tangent in a custom_jvp rule, under reverse mode (G4)"
TOPIC_CVJP_COND = "custom_vjp bwd closing over a jit value, in a cond under reverse mode"


def known(prog, cls, detail, a: Outcome, b: Outcome, lite=None):
    """The compat.md topic if this mismatch is a documented deliberate difference (the one
    place these rules live; each names its compat.md row). ``lite``: the namespace that
    produced ``a`` (jaxlite's by default), for rules that rerun a variant of the program."""
    if not b.ok:
        # JAX refuses what jaxlite allows: whatever follows differs too
        msg = str(b.exc)
        for text, topic in _JAX_RAISES:
            if text in msg:
                return topic
    if not b.ok and a.ok and "No constant handler for type" in str(b.exc) and _cvjp_in_cond(prog):
        # JAX fails to stage a custom_vjp bwd that closes over a value of the enclosing
        # jit when the call is in a cond under reverse-mode AD; jaxlite computes it
        return TOPIC_CVJP_COND
    if cls == "exception type" and "CpuCallback error" in str(b.exc):
        # C1: a cached pure_callback's C++ fast path reports a ValueError after a success
        return "callback exception as JaxRuntimeError / CallbackError (C1)"
    sites, tags = prog.sites(), prog.tags()

    def kind(sid):
        return sites[sid].p["kind"] if sid in sites else None

    def hoistable(sid):
        """The topic under which JAX may run this site fewer times (or once, hoisted)."""
        t = tags.get(sid, ())
        if kind(sid) == "pc" and _in(t, LOOPS):
            return TOPIC_D7
        if kind(sid) in ("dc", "dp", "io") and _scan_under_reverse_ad(t):
            return TOPIC_SCAN_AD
        return None

    if not a.ok and "IO callbacks do not support transpose" in str(a.exc):
        # JAX drops an io_callback on a tangent in a custom_jvp rule from the linear part
        rule_io = [s for s, n in sites.items() if n.p["kind"] == "io" and "cjvp_rule" in tags[s]]
        if rule_io:
            return TOPIC_RULE_IO
    if a.ok != b.ok or cls == "exception type":
        # a planted callback exception that one engine hits and the other does not (or hits
        # outside the compiled loop, keeping its type), because of the hoisting below; what
        # follows the exception differs too
        e = a.exc if not a.ok else b.exc
        m = re.match(r"(?:ValueError: )?boom at site (\d+)$", str(e))
        if not m:
            return None
        sid = int(m.group(1))
        site = sites.get(sid)
        if (
            not a.ok
            and site is not None
            and "while_cond" in tags[sid]
            and not site.p.get("ordered")
            and not any(c[0] == sid for c in b.log)
        ):
            # XLA removed the unordered io/debug callback from a compiled while predicate
            # that ignores it (the rule below), so JAX never reaches the planted exception
            return TOPIC_WHILE_IO
        topic = hoistable(sid)
        if topic is None or a.ok == b.ok:
            return topic
        return _raise_explained(prog, sid, a, lite)
    if cls != "calls":
        return None
    ca, cb = Counter(a.log), Counter(b.log)
    diff = list(((ca - cb) + (cb - ca)).keys())
    if not diff:
        return None

    def explained(e):
        """The topic explaining the difference in the count of this call, if any."""
        sid, k, t = e[0], kind(e[0]), tags[e[0]]
        # E8: JAX evaluates a batched while predicate again inside the body
        if k in ("dc", "dp", "pc") and _vmapped_while_cond(t):
            return TOPIC_E8
        # D7: XLA may hoist a pure_callback whose operands do not change out of a loop:
        # JAX runs it fewer times (once eagerly, even for zero iterations; per iteration
        # under jit). Scan under reverse-mode AD: JAX's linearization moves io and debug
        # callbacks on loop-invariant values out of the loop (once per execution of the
        # loop, even for zero iterations) and drops io_callbacks whose results nothing needs
        # on values that change (_scan_ad_expectations); jaxlite runs them once per
        # iteration, as JAX's jvp does.
        topic = hoistable(sid)
        if topic == TOPIC_SCAN_AD:
            # exact: JAX's calls of this site are what hoisting it out of some of its
            # loops gives (jaxlite's calls with those loops run once), or none (an
            # io_callback whose results nothing needs, in the loop)
            if sid not in expected:
                expected[sid] = _scan_ad_expectations(prog, sid, lite)
            got = Counter({_strong(c): n for c, n in cb.items() if c[0] == sid})
            # and jaxlite's calls there (one per iteration) carry the hoisted call's values
            mine = {_strong(c) for c in ca if c[0] == sid}
            ok = any(got == want and (not want or mine <= set(want)) for want in expected[sid])
            return topic if ok else None
        if topic and (cb[e] <= 1 or cb[e] < ca[e] or _invariant(prog, sid)):
            return topic
        if cb[e] == 0 and "while_cond" in t and not sites[sid].p.get("ordered"):
            # JAX (XLA) drops an unordered io/debug callback (and a pure_callback feeding
            # only it) from a compiled while predicate that ignores it (D5, D6)
            return TOPIC_WHILE_IO
        if cb[e] == 0 and k == "io" and "cjvp_rule" in t:
            return TOPIC_RULE_IO
        return None

    expected: dict = {}
    topics = [explained(e) for e in diff]
    if None in topics:
        return None
    return " + ".join(sorted(set(topics)))


_JAX_NS = []


def _raise_explained(prog, sid, a, lite=None):
    """The topic if a raise/no-raise difference at site ``sid`` (its host function raises
    on call number ``raise_at``) is the documented difference in how often the engines call
    it: rerun without the planted exception in both engines, the engine that raised must
    call the site more than ``raise_at`` times, the other at most ``raise_at`` times, and
    every difference of the rerun must be a documented difference in call counts. None
    otherwise (then the raise/no-raise difference counts)."""
    q = prog.copy()
    at = q.sites()[sid].p["raise_at"]
    q.sites()[sid].p["raise_at"] = None
    if lite is None:
        if not _LITE_NS:
            _LITE_NS.append(namespaces()[0])
        lite = _LITE_NS[0]
    if not _JAX_NS:
        _JAX_NS.append(namespaces()[1])
    qa, qb = run(q, lite), run(q, _JAX_NS[0])
    na = sum(1 for c in qa.log if c[0] == sid)
    nb = sum(1 for c in qb.log if c[0] == sid)
    raised, other = (na, nb) if not a.ok else (nb, na)
    if not (qa.ok and qb.ok and raised > at >= other):
        return None
    found = [(c, d) for c, d in compare(q, qa, qb) if c not in INFO_CLASSES]
    if [c for c, _ in found] != ["calls"]:
        return None
    return known(q, "calls", found[0][1], qa, qb, lite)


def _cvjp_in_cond(prog):
    """Some custom_vjp call sits in a cond / switch branch."""

    def walk(nodes, in_cond):
        for n in nodes:
            if n.kind == "cvjp" and in_cond:
                return True
            if any(walk(b, in_cond or n.kind in ("cond", "switch")) for b in n.bodies):
                return True
        return False

    return walk(prog.body, False)


def _ancestors(prog, sid):
    """The nodes around site ``sid``, outermost first."""

    def walk(nodes, chain):
        for n in nodes:
            if n.kind == "site" and n.p["sid"] == sid:
                return chain
            for b in n.bodies:
                found = walk(b, chain + [n])
                if found is not None:
                    return found
        return None

    return walk(prog.body, []) or []


_LITE_NS = []


def _scan_ad_expectations(prog, sid, lite=None):
    """What JAX may log for site ``sid`` inside a scan / fori_loop under reverse-mode AD
    (compat.md, "effects moved out of a scan under reverse-mode AD"), as a list of call
    multisets. JAX's linearization of a loop evaluates the body's equations whose operands
    do not change between iterations (closed-over values, a carry the body passes through,
    a whole inner loop over such values) once, before the loop, even for zero iterations,
    so such a callback runs once per execution of the loop, with the values any iteration
    would give it. So, for each non-empty set of the linearized loops around the site:
    jaxlite's calls of the site in the program with those loops made to run once. Values
    compare without weak types: a hoisted call that ends up outside any compiled code
    receives a Python scalar operand weakly typed. And an io_callback whose results nothing
    needs (it has none, or only the primal value of a ``grad`` inside the loop uses them)
    and whose operands change in the loop is dropped from it: no call at all."""
    chain = _ancestors(prog, sid)
    first = next((k for k, n in enumerate(chain) if n.kind in REVERSE_AD), None)
    if first is None:
        return []
    loops = [n.uid for n in chain[first + 1 :] if n.kind in ("scan", "scanrows", "fori")]
    if lite is None:
        if not _LITE_NS:
            _LITE_NS.append(namespaces()[0])
        lite = _LITE_NS[0]
    out = []
    for k in range(1, len(loops) + 1):
        for once in itertools.combinations(loops, k):
            q = prog.copy()
            for n in q.nodes():
                if n.uid in once:
                    n.p["one_trip"] = True
            got = run(q, lite)
            if got.ok:
                out.append(Counter(_strong(c) for c in got.log if c[0] == sid))
    if prog.sites()[sid].p["kind"] == "io":
        out.append(Counter())
    return out


def _strong(d):
    """A call's description with every weak-type flag cleared."""
    if isinstance(d, tuple):
        if len(d) == 5 and isinstance(d[0], str) and isinstance(d[3], bool):
            return (*d[:3], False, d[4])
        return tuple(_strong(e) for e in d)
    return d


def _invariant(prog, sid):
    """Whether every operand of a site is defined outside its innermost loop (a closed-over
    value or a literal: the same in every iteration)."""
    site, t = prog.sites()[sid], prog.tags()[sid]
    loops = [k for k, tag in enumerate(t) if tag in LOOPS]
    if not loops:
        return False
    defined = prog.var_tags()
    names = [site.p["primary"]] + [x for x in site.p["extras"] if x[:1].isalpha()]
    names = [n for n in names if not n.startswith("np.")]
    return all(n in defined and len(defined[n]) <= loops[-1] for n in names)


def _in(tags, kinds):
    return any(t in kinds for t in tags)


def _vmapped_while_cond(t):
    return "while_cond" in t and "vmap" in t[: t.index("while_cond")]


def _scan_under_reverse_ad(t):
    for k, tag in enumerate(t):
        if tag in ("scan", "scanrows", "fori") and _in(t[:k], REVERSE_AD):
            return True
    return False


def repro_source(prog, engine="jaxlite") -> str:
    """A standalone script: run it as is (jaxlite), or with ``ENGINE = "jax"``."""
    return (
        "import sys\n\nimport numpy as np\n\n"
        f'ENGINE = "{engine}"\n'
        "if ENGINE == 'jax':\n"
        "    import jax\n    import jax.numpy as jnp\n    from jax import lax\n"
        "    from jax.experimental import io_callback\n"
        "else:\n"
        "    import jaxlite as jax\n    import jaxlite.numpy as jnp\n    from jaxlite import lax\n"
        "    from jaxlite.experimental import io_callback\n"
        + HOST
        + "\n\n"
        + prog.source()
        + f"\n\nx = jnp.asarray(np.array({prog.x.tolist()!r}, np.float32))\n"
        f"y = jnp.asarray(np.array({prog.y.tolist()!r}, np.float32))\n"
        + ("f = jax.jit(f)\n" if prog.top_jit else "")
        + f"try:\n    with jax.disable_jit({prog.no_jit}):\n"
        + f"        for _ in range({prog.repeat}):\n            print('out:', f(x, y))\n"
        "except Exception as e:\n    print('raised', type(e).__name__, e)\n"
        "jax.effects_barrier()\n"
        "for entry in LOG:\n    print(entry)\n"
    )
