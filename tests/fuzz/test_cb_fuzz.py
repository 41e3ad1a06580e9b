"""The callback fuzzer's small, deterministic budget (the long run is
``python -m tests.fuzz.cb --count 2000``, see tests/fuzz/README.md), and checks that the
fuzzer itself notices a planted callback bug, minimizes it, and recognises a documented
difference."""

import pytest

pytest.importorskip("jax", reason="the callback fuzzer compares against real JAX")

from tests.fuzz.cb import fuzz  # noqa: E402
from tests.fuzz.cb_gen import Node, Program, generate  # noqa: E402
from tests.fuzz.cb_min import minimize  # noqa: E402
from tests.fuzz.cb_run import compare, known, namespaces, repro_source, run  # noqa: E402


def test_fixed_seed_range_has_no_undocumented_difference():
    stats = fuzz(range(0, 8), minimize_budget=10.0)
    assert stats.programs == 8
    failures = "\n\n".join(text for text, _ in stats.failures.values())
    assert not stats.failures, f"{stats.summary()}\n{failures}"


def test_generation_is_deterministic_and_covers_every_callback_kind():
    assert [generate(s).source() for s in range(5)] == [generate(s).source() for s in range(5)]
    kinds, wrappers = set(), set()
    for s in range(80):
        for n in generate(s).nodes():
            if n.kind == "site":
                kinds.add((n.p["kind"], bool(n.p.get("ordered"))))
            else:
                wrappers.add(n.kind)
    assert {("pc", False), ("io", False), ("io", True), ("dc", True), ("dp", False)} <= kinds
    assert {"jit", "vmap", "grad", "jvp", "scan", "while", "cond", "cjvp", "cvjp"} <= wrappers


class _Planted(dict):
    """jaxlite's namespace with a planted bug: io_callback runs its host function twice."""

    def __init__(self, lite):
        super().__init__(lite)
        real = lite["io_callback"]

        def twice(cb, *args, **kwargs):
            def host(*a, **k):
                cb(*a, **k)
                return cb(*a, **k)

            return real(host, *args, **kwargs)

        self["io_callback"] = twice


def _site(sid, kind, **p):
    base = dict(kind=kind, sid=sid, primary="v", extras=[], tree=False, kw=False)
    base.update(raise_at=None, stopgrad=False, ordered=False, nout=1, int_out=False, use=True)
    base.update(p)
    return Node("site", 100 + sid, base)


def _program(body):
    import numpy as np

    x = np.array([-1.0, -0.5, 0.0], np.float32)
    return Program(-1, x, np.array([1.5, -0.5], np.float32), body)


def test_a_planted_bug_is_found_and_minimized():
    lite, jax = namespaces()
    buggy = _Planted(lite)
    prog = _program(
        [
            _site(1, "dp"),
            Node("jit", 1, {}, [[_site(2, "pc", vmap_method="sequential"), _site(3, "io")]]),
        ]
    )
    found = compare(prog, run(prog, buggy), run(prog, jax))
    assert [c for c, _ in found] == ["calls"]
    small = minimize(prog, "calls", buggy, jax, budget_s=20.0)
    assert [n.kind for n in small.nodes()] == ["site"]
    assert small.nodes()[0].p["kind"] == "io"
    text = repro_source(small)
    compile(text, "<repro>", "exec")  # a standalone script
    assert "import jaxlite as jax" in text and "def f(x, y):" in text
    # without the planted bug the engines agree
    assert compare(prog, run(prog, lite), run(prog, jax)) == []


def test_a_documented_difference_is_recognised():
    # an io_callback in vmap of cond: JAX refuses (F11), jaxlite runs it per element
    lite, jax = namespaces()
    branch = [_site(1, "io")]
    cond = Node("cond", 2, dict(pred=("v", None, 0.5)), [branch, [Node("arith", 3, {"op": "-v"})]])
    prog = _program([Node("vmap", 1, dict(axis=0, extra="none"), [[cond]])])
    a, b = run(prog, lite), run(prog, jax)
    found = compare(prog, a, b)
    assert found and found[0][0] == "raise/no-raise"
    assert all(known(prog, c, d, a, b) for c, d in found)


@pytest.mark.parametrize("site_kind", ["io", "dc"])
def test_scan_under_reverse_ad_rule_is_exact(site_kind):
    """compat.md, effects in a scan under reverse-mode AD: JAX hoists a callback on a
    closed-over value out of the linearized loop (one call where jaxlite makes three), and
    the rule accepts exactly that (its expectation is jaxlite's calls with the loop run
    once); a planted bug (the io_callback's host function run twice) is no longer hidden."""
    lite, jax = namespaces()
    site = _site(1, site_kind, primary="y")
    scan = Node("scan", 2, dict(length=3, reverse=False, ys=False), [[site]])
    prog = _program([Node("grad", 1, {}, [[scan]])])
    a, b = run(prog, lite), run(prog, jax)
    assert [len(a.log), len(b.log)] == [3, 1]
    found = compare(prog, a, b)
    assert [c for c, _ in found] == ["calls"]
    assert known(prog, *found[0], a, b, lite) == "effects in a scan under reverse-mode AD"
    if site_kind == "io":
        buggy = _Planted(lite)
        a = run(prog, buggy)
        found = compare(prog, a, b)
        assert [c for c, _ in found] == ["calls"]
        assert not known(prog, *found[0], a, b, buggy)


def test_planted_exception_in_a_dropped_while_predicate_callback_is_recognised():
    """compat.md, unordered callbacks in a compiled while predicate (seed 50334): XLA removes
    the debug callback from ``while i < 0`` under jit, so JAX never reaches the planted
    exception that jaxlite's one predicate evaluation raises."""
    lite, jax = namespaces()
    pred = [_site(5, "dc", raise_at=0)]
    loop = Node("while", 2, dict(n=0, batched=False, live=False), [[], pred])
    prog = _program([Node("jit", 1, {}, [[loop]])])
    a, b = run(prog, lite), run(prog, jax)
    found = compare(prog, a, b)
    assert [c for c, _ in found] == ["raise/no-raise", "calls"]
    assert all(known(prog, c, d, a, b, lite) for c, d in found)


@pytest.mark.parametrize("site_kind", ["io", "dc"])
def test_raise_at_a_hoisted_site_is_accepted_only_when_the_counts_explain_it(site_kind):
    """A planted exception at a site JAX hoists out of a loop (here a scan under ``grad``):
    jaxlite calls it per iteration and reaches call number 1, JAX calls it once and does not.
    The raise/no-raise difference is documented only if the program rerun without the
    exception shows that count difference, itself documented (exactly); a planted bug that
    calls the host function twice (so it raises where JAX's single call does not) is
    counted, where the rule used to accept any raise/no-raise difference at such a site."""
    lite, jax = namespaces()

    def prog_of(length):
        site = _site(1, site_kind, primary="y", raise_at=1)
        scan = Node("scan", 2, dict(length=length, reverse=False, ys=False), [[site]])
        return _program([Node("grad", 1, {}, [[scan]])])

    prog = prog_of(3)
    a, b = run(prog, lite), run(prog, jax)
    found = compare(prog, a, b)
    assert found[0][0] == "raise/no-raise" and not a.ok and b.ok
    assert known(prog, *found[0], a, b, lite) == "effects in a scan under reverse-mode AD"
    if site_kind == "io":
        buggy = _Planted(lite)
        prog = prog_of(1)  # one iteration: the engines agree on one call, the bug makes two
        a, b = run(prog, buggy), run(prog, jax)
        found = compare(prog, a, b)
        assert found[0][0] == "raise/no-raise" and not a.ok and b.ok
        assert not known(prog, *found[0], a, b, buggy)
        assert compare(prog, run(prog, lite), b) == []
