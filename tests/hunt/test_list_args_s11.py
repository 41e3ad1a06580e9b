"""Python lists and tuples in array positions, against JAX 0.10.2 live (session 11).

A sweep of every public ``jax.numpy`` callable with a list (and a tuple) in each array
position (tests/hunt/sweep_list_args_s11.py) compared the exception type and message. This
file holds the cases fixed so far: ``shape``/``ndim``/``size`` raised where JAX answers
(NumPy's answer, with a DeprecationWarning carrying the usual message)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import jaxlite.numpy as lnp

jax = pytest.importorskip("jax")
jnp = jax.numpy

CASES = [
    ("shape", ([[1.0, 2.0, 3.0]],)),
    ("shape", ((1, 2),)),
    ("shape", ([],)),
    ("ndim", ((1.0, 2.0),)),
    ("ndim", ([[1], [2]],)),
    ("size", ([[1, 2], [3, 4]],)),
    ("size", ([[1, 2], [3, 4]], 0)),
    ("size", (((1, 2, 3),), -1)),
]


def _run(f, args):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = f(*args)
    return out, [(w.category, str(w.message)) for w in caught]


@pytest.mark.parametrize("name,args", CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CASES)])
def test_sequences_answer_as_jax(name, args):
    want, want_warnings = _run(getattr(jnp, name), args)
    got, got_warnings = _run(getattr(lnp, name), args)
    assert got == want and type(got) is type(want)
    assert got_warnings == want_warnings


# Every function of jaxlite's table (jaxlite/_src/numpy/list_args.py): a list, then a tuple,
# in each listed position of the first argument set JAX accepts; the exception and its
# message must be JAX's, and the arrays themselves must still be accepted.
try:
    from jaxlite._src.numpy.list_args import CHECKED
except ImportError:  # oracle mode: jaxlite is jax
    CHECKED = {}

_a = np.array([1.0, 2.0, 3.0], np.float32)
_m = np.array([[2.0, 1.0], [1.0, 3.0]], np.float32)
_i = np.array([1, 2, 0], np.int32)
_b = np.array([True, False, True])
_CANDS = [
    (_a,), (_m,), (_a, _a), (_m, _m), (_a, _a, _a), (_i,), (_i, _i), (_b,), (_a, 1), (_a, 0),
    (_m, 0), (_a, _i), (_m, _a), (_a, _a, _a, _a), (_m, 0, 1),
]  # fmt: skip


def _outcome(f, args):
    try:
        f(*args)
        return ("ok", None)
    except Exception as e:
        return (type(e).__name__, str(e))


# (parameters named in the table, checked wherever given: tests/hunt/test_err_sweep_s26.py)
TABLE_CASES = [
    (name, pos, kind) for name, (_, spec) in CHECKED.items() for pos, _ in spec
    if isinstance(pos, int) for kind in ("list", "tuple")
]  # fmt: skip


@pytest.mark.parametrize(
    "name,pos,kind", TABLE_CASES, ids=[f"{n}-{p}-{k}" for n, p, k in TABLE_CASES]
)
def test_sequence_in_array_position_raises_as_jax(name, pos, kind):
    jf, lf = getattr(jnp, name), getattr(lnp, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # roll: not (a, a), the first set JAX accepts (jaxlite's roll takes no array shifts).
        cands = [(_a, 1)] if name == "roll" else _CANDS
        base = next(c for c in cands if _outcome(jf, c)[0] == "ok")
        assert _outcome(lf, base)[0] == "ok"
        args = list(base)
        seq = base[pos].tolist()
        args[pos] = seq if kind == "list" else tuple(map(tuple, seq) if base[pos].ndim > 1 else seq)
        want, got = _outcome(jf, args), _outcome(lf, args)
    assert want[0] == "TypeError" and "requires ndarray or scalar arguments" in want[1]
    assert got == want
