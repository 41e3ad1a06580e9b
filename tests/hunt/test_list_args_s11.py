"""Python lists and tuples in array positions, against JAX 0.10.2 live (session 11).

A sweep of every public ``jax.numpy`` callable with a list (and a tuple) in each array
position (tests/hunt/sweep_list_args_s11.py) compared the exception type and message. This
file holds the cases fixed so far: ``shape``/``ndim``/``size`` raised where JAX answers
(NumPy's answer, with a DeprecationWarning carrying the usual message)."""

from __future__ import annotations

import warnings

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
