"""Sweep (not a test): valid but unusual arguments against JAX, in one process. The other
direction of tests/hunt/sweep_err_s25.py: every public callable of the same modules is
called with the same base argument sets, and each argument is then replaced by a form JAX
accepts as well as the usual one:

* arrays: a size-1 array of the same rank, an integer array where the base is a float
  one, the array given by keyword (its parameter's name);
* integers (sizes, counts, axes): a NumPy scalar (``int32`` / ``int64``), a 0-d array, the
  negative form of an axis, a one-element tuple / list, the keyword form;
* tuples: a list, a NumPy array;
* keywords the signature names: ``axis`` as -1, ``(0,)``, ``[0]``, ``None`` and a NumPy
  integer; every keyword with a default given its default explicitly, ``None``, and (an
  integer or float default) the NumPy scalar of it.

Printed: the calls where JAX answers and jaxlite raises (``REFUSES``), where both answer
with a different structure, shape, dtype, weak type or value (``VALUE``, values compared
at ``rtol=1e-4``), where JAX raises and jaxlite answers (``ANSWERS``) and, with ``-c``,
where the classes differ (``CLASS``).

Run: ``nice -n 19 sh -c 'ulimit -v 8000000; PYTHONPATH=. python tests/hunt/sweep_err_s26.py
[-c] [-k LABEL] [module:name ...]'``.

Session 26 ran it only in pieces (the shared machine ran the s25 sweep at a fifth of its
quiet speed): a jaxlite-first probe of the same variants over ``jnp`` / ``linalg`` / ``fft``
(JAX asked only where jaxlite raised) and hand-picked cases found the families fixed in
tests/hunt/test_err_sweep_s26.py (tensordot axes, fftfreq of a float n, take of bool indices,
expm of empty matrices, ddof=None, histogram bins, fft axis=None, compress / gradient / lexsort
axes, isclose keywords) and the list family (``-k list``); the VALUE direction was not run
whole. Left: docs/compat.md, "Bad input, both directions"."""

from __future__ import annotations

import inspect
import sys

import jax
import numpy as np

import jaxlite
from tests.hunt.sweep_err_s25 import CANDS, MODULES, SIZES, SKIP, Timeout, a, m, signal

_SENTINEL = object()


def outcome(f, args, kwargs):
    """("ok", leaves) or (class name, first line)."""
    signal.alarm(10)
    try:
        return ("ok", f(*args, **kwargs))
    except Timeout:
        return ("Timeout", "")
    except Exception as e:  # noqa: BLE001 - the outcome is compared
        return (type(e).__name__, (str(e).split("\n") or [""])[0][:160])
    finally:
        signal.alarm(0)


def _leaves(v, tree_leaves):
    try:
        return tree_leaves(v)
    except Exception:  # noqa: BLE001
        return [v]


def value_diff(jv, lv):
    """None where the answers agree, else a short description."""
    jl = _leaves(jv, jax.tree_util.tree_leaves)
    ll = _leaves(lv, jaxlite.tree_util.tree_leaves)
    if len(jl) != len(ll):
        return f"{len(jl)} leaves vs {len(ll)}"
    for x, y in zip(jl, ll):
        if callable(x) or callable(y):
            continue
        try:
            xa, ya = np.asarray(x), np.asarray(y)
        except Exception:  # noqa: BLE001 - keys, opaque objects
            continue
        if xa.shape != ya.shape:
            return f"shape {xa.shape} vs {ya.shape}"
        if xa.dtype != ya.dtype:
            return f"dtype {xa.dtype} vs {ya.dtype}"
        wx, wy = getattr(x, "weak_type", None), getattr(y, "weak_type", None)
        if wx is not None and wy is not None and wx != wy:
            return f"weak_type {wx} vs {wy}"
        if xa.dtype.kind in "fciub" and xa.size:
            try:
                ok = np.allclose(xa, ya, rtol=1e-4, atol=1e-6, equal_nan=True)
            except TypeError:
                ok = bool(np.all(xa == ya))
            if not ok:
                return f"values {xa.ravel()[:4]} vs {ya.ravel()[:4]}"
    return None


def _pos_names(f):
    try:
        params = inspect.signature(f).parameters
    except (TypeError, ValueError):
        return {}, []
    pos = [n for n, q in params.items() if q.kind in (q.POSITIONAL_ONLY, q.POSITIONAL_OR_KEYWORD)]
    return params, pos


def unusual_arrays(x):
    out = [("size1", np.ones((1,) * x.ndim, x.dtype)), ("list", x.tolist())]
    if x.dtype.kind == "f":
        out.append(("int4float", x.astype(np.int32)))
    if x.ndim == 1:
        out.append(("npscalar0", x[0]))
    return out


def unusual_ints(v, axis_like, ndim):
    out = [("np32", np.int32(v)), ("np64", np.int64(v)), ("arr0d", np.array(v))]
    if axis_like:
        if 0 <= v < ndim:
            out.append(("negaxis", v - ndim))
        out += [("tuple1", (v,)), ("list1", [v])]
    return out


def cases(f, base):
    args, kwargs = base
    params, pos = _pos_names(f)
    ndim = max((x.ndim for x in args if isinstance(x, np.ndarray)), default=0)
    arrays = [p for p, x in enumerate(args) if isinstance(x, np.ndarray)]
    first = args[arrays[0]] if arrays else None
    for p, x in enumerate(args):
        rep = [(lab, y) for lab, y in _variants(x, p, arrays, ndim)]
        for lab, y in rep:
            yield f"arg{p}={lab}", args[:p] + (y,) + args[p + 1 :], kwargs
        # the keyword form: this and every later positional argument by name
        if p < len(pos) and all(
            params[n].kind is params[n].POSITIONAL_OR_KEYWORD for n in pos[p : len(args)]
        ):
            kw = dict(zip(pos[p : len(args)], args[p:]))
            yield f"arg{p}=kw", args[:p], {**kwargs, **kw}
    names = [
        n for k, (n, q) in enumerate(params.items()) if k >= len(args) or q.kind is q.KEYWORD_ONLY
    ]
    for n in names:
        q = params[n]
        if n in kwargs or q.kind in (q.VAR_POSITIONAL, q.VAR_KEYWORD):
            continue
        d = q.default
        if n == "axis":
            for lab, y in [("neg1", -1), ("tuple0", (0,)), ("list0", [0]), ("tupleneg", (-1,)),
                           ("none", None), ("np64", np.int64(0)), ("zero", 0)]:  # fmt: skip
                yield f"axis={lab}", args, {**kwargs, n: y}
            continue
        if d is q.empty:
            continue
        if d is None and first is not None and n not in ("dtype", "out", "device"):
            # an optional operand: an array, then its list (JAX's check_arraylike)
            yield f"{n}=arr", args, {**kwargs, n: first}
            yield f"{n}=list", args, {**kwargs, n: first.tolist()}
        yield f"{n}=default", args, {**kwargs, n: d}
        if d is not None:
            yield f"{n}=None", args, {**kwargs, n: None}
        if isinstance(d, bool):
            yield f"{n}=npbool", args, {**kwargs, n: np.bool_(d)}
        elif isinstance(d, int):
            yield f"{n}=np64", args, {**kwargs, n: np.int64(d)}
            yield f"{n}=float", args, {**kwargs, n: float(d)}
            if n in SIZES:
                yield f"{n}=arr0d", args, {**kwargs, n: np.array(d)}
        elif isinstance(d, float):
            yield f"{n}=np32", args, {**kwargs, n: np.float32(d)}
            if np.isfinite(d) and d == int(d):
                yield f"{n}=int", args, {**kwargs, n: int(d)}


def _variants(x, p, arrays, ndim):
    if isinstance(x, np.ndarray):
        return unusual_arrays(x)
    if isinstance(x, bool):
        return []
    if isinstance(x, int):
        return unusual_ints(x, p > 0 and bool(arrays), ndim) + [("floatint", float(x))]
    if isinstance(x, tuple):
        return [("list", list(x)), ("ndarray", np.array(x))]
    if isinstance(x, float):
        return [("np32", np.float32(x)), ("arr0d", np.array(x, np.float32))]
    return []


# more base argument sets: a vector, its mean and a covariance (multivariate_normal), a
# matrix and a vector (solves, toeplitz with a row), a 1-d operand with an int bins / size
CANDS2 = CANDS + [(a[:2], a[:2], m), (m, a[:2]), (a, 2, (0.0, 4.0))]


def bases(jf):
    """The first candidate JAX accepts, and the first one holding a non-array (a size, an
    axis) if that is another, and the first one with three arguments."""
    ok = [c for c in CANDS2 if outcome(jf, c, {})[0] == "ok"]
    if not ok:
        return []
    out = [ok[0]]
    more = [c for c in ok if any(not isinstance(x, np.ndarray) for x in c)]
    three = [c for c in ok if len(c) >= 3]
    for c in more[:1] + three[:1]:
        if all(c is not o for o in out):
            out.append(c)
    return [(c, {}) for c in out]


def main(argv):
    show_class = "-c" in argv
    label = argv[argv.index("-k") + 1] if "-k" in argv else ""
    only = [x for x in argv if x not in ("-c", "-k", label)]
    rows = []
    for mod, (jm, lm) in MODULES.items():
        for name in sorted(dir(jm)):
            key = f"{mod}:{name}"
            if name.startswith("_") or name in SKIP or "random" in name:
                continue
            if only and key not in only and mod not in only:
                continue
            jf, lf = getattr(jm, name, None), getattr(lm, name, None)
            if lf is None or not callable(jf) or inspect.isclass(jf) or inspect.ismodule(jf):
                continue
            for base in bases(jf):
                for lab, args, kwargs in cases(jf, base):
                    if label not in lab:
                        continue
                    ja = outcome(jf, args, kwargs)
                    la = outcome(lf, args, kwargs)
                    if ja[0] == la[0] == "ok":
                        d = value_diff(ja[1], la[1])
                        if d is not None:
                            rows.append((key, lab, ("VALUE", d), ("VALUE", "")))
                    elif ja[0] == "ok":
                        rows.append((key, lab, ("ok", None), la))
                    elif la[0] == "ok":
                        rows.append((key, lab, ja, ("ok", None)))
                    elif ja[0] != la[0]:
                        rows.append((key, lab, ja, la))
            print(f"# {key}", file=sys.stderr, flush=True)

    def show(title, pred):
        sel = [r for r in rows if pred(r)]
        print(f"\n== {title}: {len(sel)}")
        for key, lab, ja, la in sel:
            print(f"{key} [{lab}]\n    JAX:     {ja[0]}: {ja[1]}\n    jaxlite: {la[0]}: {la[1]}")

    show("REFUSES (jaxlite raises, JAX returns)", lambda r: r[2][0] == "ok")
    show("VALUE (both answer, differently)", lambda r: r[2][0] == "VALUE")
    show("ANSWERS (JAX raises, jaxlite returns)", lambda r: r[3][0] == "ok")
    if show_class:
        show("CLASS", lambda r: "ok" not in (r[2][0], r[3][0]) and r[2][0] != "VALUE")


if __name__ == "__main__":
    main(sys.argv[1:])
