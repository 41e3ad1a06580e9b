"""Seeded generator of random jnp/lax programs (a DAG of 1-8 lines over 1-3 inputs).

A program is kept as *source text* (so the minimizer can print it as plain Python) plus its
inputs. Each line is evaluated eagerly with real JAX while the program is built, to learn
its shape and dtype (so later lines pick fitting operands) and to drop lines JAX rejects; a
few rejected lines are kept on purpose, as the program's last line, to compare errors.

Inputs include size-0 and size-1 dimensions, Python scalars (weakly typed), float16 /
bfloat16 / int32 / bool arrays, and the values where functions misbehave: NaN, +-inf, +-0,
and points where they are not differentiable (0, integers, ties).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np

from tests.fuzz.engines import X64
from tests.fuzz.ops import OPS as _BASE_OPS, Var
from tests.fuzz.ops_more import MORE_OPS

OPS = _BASE_OPS + MORE_OPS

SHAPES = [(), (1,), (0,), (3,), (2,), (2, 3), (1, 3), (3, 1), (2, 0), (0, 3), (2, 1, 3), (3, 3)]
SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, -2.0, np.nan, np.inf, -np.inf]
DTYPES = ["float32"] * 14 + ["int32"] * 3 + ["bool", "float16", "bfloat16"]
if X64:  # 64-bit inputs next to the 32-bit ones, and 64-bit Python scalars
    DTYPES = DTYPES + ["float64"] * 8 + ["int64"] * 2 + ["uint32", "complex128"]


@dataclass
class Input:
    name: str
    kind: str  # "array", "float" (a Python float) or "int" (a Python int)
    value: object  # one example
    batched: object  # a batch of examples (leading axis), for the vmap stacks
    dtype: str = "float32"


@dataclass
class Program:
    seed: int
    inputs: list
    lines: list  # [(var, expr)]
    out: str
    avals: dict = field(default_factory=dict)  # var -> Var (shape/dtype as JAX computed)
    expect_error: bool = False

    def source(self) -> str:
        args = ", ".join(i.name for i in self.inputs)
        body = "".join(f"    {v} = {e}\n" for v, e in self.lines)
        return f"def f({args}):\n{body}    return {self.out}\n"

    @property
    def out_aval(self):
        return self.avals.get(self.out)


def _np_dtype(name):
    if name == "bfloat16":
        import ml_dtypes

        return ml_dtypes.bfloat16
    return np.dtype(name)


def _values(rng, shape, dtype):
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == "bool":
        return rng.random(n).reshape(shape) < 0.5
    if dtype.startswith(("int", "uint")):
        lo = 0 if dtype.startswith("u") else -3
        return rng.integers(lo, 6, size=n).astype(dtype).reshape(shape)
    if dtype.startswith("complex"):
        re, im = _values(rng, shape, "float64"), _values(rng, shape, "float64")
        return (re + 1j * im).astype(dtype)
    special = rng.random(n) < 0.25
    vals = np.round(rng.normal(0, 1.5, n), 2)
    vals[special] = rng.choice(SPECIAL, size=int(special.sum()))
    # NaN/inf everywhere makes gradients all-NaN: keep most programs finite.
    if rng.random() < 0.6:
        vals = np.where(np.isfinite(vals), vals, 0.5)
    return vals.astype(_np_dtype(dtype)).reshape(shape)


def make_inputs(rng):
    inputs = []
    batch = int(rng.choice([1, 2, 2, 3, 0] if rng.random() < 0.1 else [1, 2, 2, 3]))
    for k in range(int(rng.integers(1, 4))):
        name = f"x{k}"
        r = rng.random()
        if r < 0.12:
            v = float(_values(rng, (), "float32"))
            inputs.append(Input(name, "float", v, None))
        elif r < 0.15:
            inputs.append(Input(name, "int", int(rng.integers(-2, 4)), None, "int32"))
        else:
            dt = DTYPES[int(rng.integers(len(DTYPES)))]
            shape = SHAPES[int(rng.integers(len(SHAPES)))]
            v = _values(rng, shape, dt)
            b = _values(rng, (batch,) + shape, dt)
            if b.size and v.size:
                b[0] = v  # the first example is the one the generator evaluated
            inputs.append(Input(name, "array", v, b, dt))
    return inputs


def _var_of(name, x, inp=None):
    if inp is not None and inp.kind != "array":
        bits = "64" if X64 else "32"
        return Var(name, (), ("float" if inp.kind == "float" else "int") + bits, True)
    return Var(name, tuple(x.shape), str(x.dtype), bool(getattr(x, "weak_type", False)))


def generate(seed: int, jax_ns: dict, max_lines: int = 8) -> Program:
    """A random program for ``seed``, its lines checked against JAX (``jax_ns`` holds the
    ``jax``, ``jnp``, ``lax`` and ``np`` modules)."""
    rng = np.random.default_rng(seed)
    jax = jax_ns["jax"]
    inputs = make_inputs(rng)
    env = [_var_of(i.name, np.asarray(i.value), i) for i in inputs]
    avals = {v.name: v for v in env}
    weights = np.array([w for _, w, _ in OPS], dtype=float)
    weights /= weights.sum()
    lines = []
    n_lines = int(rng.integers(1, max_lines + 1))
    expect_error = False
    attempts = 0
    while len(lines) < n_lines and attempts < 60:
        attempts += 1
        _, _, gen = OPS[int(rng.choice(len(OPS), p=weights))]
        expr = gen(rng, env)
        if expr is None:
            continue
        name = f"v{len(lines)}"
        names = [v.name for v in env]
        structs = [jax.ShapeDtypeStruct(v.shape, _np_dtype(v.dtype), weak_type=v.weak) for v in env]

        def line(*vals, expr=expr, names=names):
            ns = dict(jax_ns)
            ns.update(zip(names, vals))
            return eval(expr, ns)  # noqa: S307 (test side: generated text, never user input)

        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                val = jax.eval_shape(line, *structs)
        except Exception:
            if rng.random() < 0.08 and lines:
                lines.append((name, expr))
                expect_error = True
                break
            continue
        if not hasattr(val, "shape") or not hasattr(val, "dtype") or np.prod(val.shape) > 400:
            continue
        lines.append((name, expr))
        var = _var_of(name, val)
        env.append(var)
        avals[name] = var
    if not lines:
        lines.append(("v0", f"{inputs[0].name} * 1"))
    return Program(seed, inputs, lines, lines[-1][0], avals, expect_error)
