"""Sweep (not a test): every public ``jax.numpy`` callable with a list, then a tuple, in each
array position of the first argument set JAX accepts; prints each case where jaxlite's outcome
(result, or exception type and first line) differs from JAX's. Session 11 found ~190 such
cases (list and tuple), most of them jaxlite answering where JAX raises ``TypeError: <name>
requires ndarray or scalar arguments, got <class 'list'> at position N.``

Run: ``PYTHONPATH=. python tests/hunt/sweep_list_args_s11.py [names...]`` (~20 s).

Fixed: jaxlite/_src/numpy/list_args.py (one table, 158 functions; tested in
tests/hunt/test_list_args_s11.py). Left (25 lines of output, each with its reason):
``concat``/``concatenate`` of a list of scalars (JAX raises the list message for the sequence
parameter itself; a list of arrays is accepted by both, so the parameter cannot be checked
like the others); ``geomspace``/``logspace``/``gradient``/``result_type`` (JAX raises
``Cannot determine dtype of [...]``, not the list message; jaxlite answers, or for
``geomspace`` raises a broadcasting TypeError); ``array_str`` (JAX's AttributeError
``'list' object has no attribute 'shape'``) and ``average`` (JAX's TracerArrayConversionError)
are accidents of JAX's code; ``block`` of a tuple (same ValueError, the message shows tracers
in JAX); ``select`` with float conditions (JAX accepts a non-boolean condlist, jaxlite raises;
not a list question)."""

import inspect
import sys
import warnings

import jax.numpy as jnp
import numpy as np

import jaxlite.numpy as lnp

warnings.simplefilter("ignore")
a = np.array([1.0, 2.0, 3.0], np.float32)
m = np.array([[2.0, 1.0], [1.0, 3.0]], np.float32)
i = np.array([1, 2, 0], np.int32)
b = np.array([True, False, True])
CANDS = [
    (a,),
    (m,),
    (a, a),
    (m, m),
    (a, a, a),
    (i,),
    (i, i),
    (b,),
    (a, 1),
    (a, 0),
    (m, 0),
    (a, i),
    (m, a),
    (a, a, a, a),
]
skip = set(
    "array asarray asanyarray from_dlpack fromfunction frombuffer fromiter load save savez "
    "printoptions set_printoptions get_printoptions".split()
)
KNOWN = {  # name -> why the difference is left (see the docstring)
    "concat": "sequence parameter", "concatenate": "sequence parameter",
    "geomspace": "JAX: Cannot determine dtype", "logspace": "JAX: Cannot determine dtype",
    "gradient": "JAX: Cannot determine dtype", "result_type": "JAX: Cannot determine dtype",
    "array_str": "JAX: accidental AttributeError", "average": "JAX: accidental tracer error",
    "block": "same error, tracer repr", "select": "non-boolean condlist, not a list question",
}  # fmt: skip
names = sys.argv[1:] or sorted(n for n in dir(jnp) if not n.startswith("_"))


def outcome(f, args):
    try:
        f(*args)
        return ("ok", None)
    except Exception as e:
        return (type(e).__name__, str(e).split("\n")[0][:200])


for name in names:
    jf, lf = getattr(jnp, name, None), getattr(lnp, name, None)
    if name in skip or not callable(jf) or inspect.isclass(jf) or inspect.ismodule(jf):
        continue
    if lf is None:
        continue
    base = None
    for c in CANDS:
        if outcome(jf, c)[0] == "ok":
            base = c
            break
    if base is None:
        continue
    for pos, x in enumerate(base):
        if not isinstance(x, np.ndarray):
            continue
        for kind, conv in (
            ("list", lambda v: v.tolist()),
            (
                "tuple",
                lambda v: tuple(v.tolist()) if v.ndim == 1 else tuple(map(tuple, v.tolist())),
            ),
        ):
            args = list(base)
            args[pos] = conv(x)
            w = outcome(jf, args)
            g = outcome(lf, args)
            if w != g:
                why = f"  [left: {KNOWN[name]}]" if name in KNOWN else ""
                print(f"{name} {kind}@{pos} nargs={len(base)}: JAX {w} | jaxlite {g}{why}")
