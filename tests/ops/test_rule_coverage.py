"""Every primitive has its rules: abstract_eval, batch, jvp (or is declared
non-differentiable), and linear primitives have a transpose.

A failure prints the primitive x table matrix of what is missing.
"""

from __future__ import annotations

import pytest

import jaxlite
import jaxlite.lax  # noqa: F401
import jaxlite.numpy  # noqa: F401

pytestmark = pytest.mark.jaxlite_only  # inspects jaxlite's own rule tables


def _load_everything():
    import importlib

    for name in ["jaxlite.nn", "jaxlite.scipy.special", "jaxlite.numpy.linalg"]:
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    from jaxlite._src.core import rules

    return rules


def _own(rules, p) -> bool:
    """Whether ``p`` is one of jaxlite's primitives: its impl (or the function a
    ``def_impl`` wraps) comes from a jaxlite module. Tests define primitives of their own
    (the extension API), which the same worker process may have registered before."""
    impl = rules.impl_rules[p]
    if getattr(impl, "__module__", None) != "jaxlite._src.core.primitive":
        return True  # registered by jaxlite's own modules
    return (getattr(impl.__wrapped__, "__module__", None) or "").startswith("jaxlite")


# Primitives whose JVP is built from the primitive applied to tangents: they must transpose.
LINEAR = {
    "neg",
    "real",
    "imag",
    "conj",
    "add",
    "sub",
    "complex",
    "broadcast_in_dim",
    "reshape",
    "transpose",
    "squeeze",
    "rev",
    "concatenate",
    "pad",
    "slice",
    "dynamic_slice",
    "dynamic_update_slice",
    "reduce_sum",
    "cumsum",
    "gather",
    "add_any",
    "convert_element_type",
    "copy_p",
    "select_n",
    "dot_general",
    "mul",
    "div",
    "triangular_solve",
    "reduce_window_sum",
    "conv_general_dilated",
    "scatter",
}


NO_OPERANDS = {"iota"}


def _matrix(rows):
    width = max(len(r[0]) for r in rows) + 2
    lines = [f"{'primitive':<{width}} abstract_eval  batch  jvp  transpose"]
    for name, ae, b, j, t in rows:
        lines.append(f"{name:<{width}} {ae:^13}  {b:^5}  {j:^3}  {t:^9}")
    return "\n".join(lines)


def test_every_primitive_has_its_rules():
    rules = _load_everything()
    rows, bad = [], []
    for p in sorted(rules.impl_rules, key=lambda p: p.name):
        if not _own(rules, p):
            continue
        ae = p in rules.abstract_eval_rules
        # A primitive without operands (iota) is never batched: it needs no batch rule.
        b = p in rules.batch_rules or p in rules.loop_batched or p.name in NO_OPERANDS
        j = p in rules.jvp_rules or p in rules.non_differentiable
        needs_t = p.name in LINEAR
        t = (p in rules.transpose_rules) if needs_t else None
        mark = lambda v: "-" if v is None else ("ok" if v else "MISSING")  # noqa: E731
        rows.append((p.name, mark(ae), mark(b), mark(j), mark(t)))
        if not (ae and b and j and t is not False):
            bad.append(p.name)
    assert not bad, "primitives with missing rules: " + ", ".join(bad) + "\n" + _matrix(rows)


def test_non_differentiable_primitives_still_have_a_jvp_rule():
    """Declared non-differentiable primitives give symbolic-zero tangents via a jvp rule."""
    rules = _load_everything()
    missing = [p.name for p in rules.non_differentiable if p not in rules.jvp_rules]
    assert not missing, f"non-differentiable primitives without a zero-tangent rule: {missing}"


def test_linear_primitives_listed_exist():
    """The LINEAR list above names real primitives (guards against typos going stale)."""
    rules = _load_everything()
    names = {p.name for p in rules.impl_rules}
    core = {
        "neg",
        "add",
        "sub",
        "reshape",
        "transpose",
        "reduce_sum",
        "dot_general",
        "gather",
        "select_n",
        "pad",
        "slice",
        "concatenate",
    }
    assert core <= names, core - names
