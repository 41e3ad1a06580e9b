"""Session 18 differential hunt generators (test code, not a test module): seeded random
programs over angles the session-16 fuzzer (tests/fuzz) draws rarely or never, each run
under JAX and jaxlite in one process and compared through tests/hunt/oracle.py.

Angles (``GENERATORS``):

* ``reductions``: jnp reductions and cumulative ops over float16 / bfloat16 / int8 / uint8 /
  uint32 / int32 / bool / complex64 inputs with ``axis`` tuples, ``keepdims``, ``where=``,
  ``initial=`` (Python scalars and Arrays of other dtypes), ``dtype=`` (bool included),
  ``ddof``, sort/argsort ``descending``/``stable`` with NaN and -0.0, under eval / jit /
  vmap (batch axis first or last) / grad / jvp / jacfwd.
* ``updates``: ``.at[]`` set/add/subtract/mul/min/max/get/divide/power with ``mode=``,
  ``unique_indices``/``indices_are_sorted``, negative and out-of-bounds indices, bool and
  mixed-dtype updates, and gathers (``take``, ``take_along_axis``, dynamic slices) with
  batched index arrays under vmap and grad.
* ``config``: binary lax / jnp operations, control flow and contractions between Python
  scalars, weakly and strongly typed arrays of every dtype, under
  ``numpy_dtype_promotion('strict')``, ``numpy_rank_promotion('raise')`` and x64.
* ``transforms``: scan / cond / switch / while / fori / custom_jvp / custom_vjp /
  checkpoint (with policies) / jit / vmap / associative_scan / lax.map bodies with pytree
  inputs and outputs under vmap with varied ``in_axes``/``out_axes`` (negative, None,
  per-leaf), jvp of grad, hessian, jacfwd / jacrev, vjp with ``has_aux``,
  ``linear_transpose`` of a jvp, linearize, and grad through a closed-over tracer.

``python -m tests.hunt.fuzz_s18 NAME FIRST COUNT`` prints each disagreement with its
program. A generated program is source text that the harness executes (``jx``, ``jnp``,
``lax``, ``np`` bound to one library); jaxlite never executes generated text.
"""

from __future__ import annotations

import sys

import numpy as np

from tests.hunt.oracle import JAX, LITE, builtin_base, run

_FLOATS = ("float32", "float16", "bfloat16")


def _arr(rng, dt, shape):
    if dt == "bool":
        v = rng.rand(*shape) > 0.5
    elif dt in ("int8", "int32"):
        v = rng.randint(-5, 6, shape)
    elif dt in ("uint8", "uint32"):
        v = rng.randint(0, 250, shape)
    elif dt == "complex64":
        v = np.round(rng.randn(*shape), 2) + 1j * np.round(rng.randn(*shape), 2)
    else:
        v = rng.choice([0.0, -0.0, 1.5, -2.0, np.nan, np.inf, 0.25, 3.0], size=shape)
    text = repr(np.asarray(v).tolist()).replace("nan", "np.nan").replace("inf", "np.inf")
    return f"np.array({text}, dtype={dt!r})"


# ------------------------------------------------------------------------- reductions
_RDT = ("float32", "float16", "bfloat16", "int8", "uint8", "uint32", "int32", "bool", "complex64")
_RED = (
    "sum prod max min mean var std any all argmax argmin nanmax nanmin nansum nanmean "
    "logsumexp cumsum cumprod cummax cummin nancumsum sort argsort count_nonzero ptp median "
    "nanargmax average"
).split()
_AXIS_ONLY = {"sort", "argsort", "cumsum", "cumprod", "cummax", "cummin", "nancumsum"}
_AXIS_ONLY |= {"argmax", "argmin", "nanargmax"}
_WHERE = {"sum", "prod", "max", "min", "mean", "var", "std", "any", "all", "nansum", "nanmax"}
_WHERE |= {"nanmin", "nanmean", "count_nonzero", "logsumexp"}
_INITIAL = {"sum", "prod", "max", "min", "nanmax", "nanmin", "nansum"}
_INITS = ("0", "-1.5", "2", "True", "np.float32(-0.0)", "jnp.int8(3)")
_DTYPE = {"sum", "prod", "mean", "var", "nansum", "cumsum"}
_DTYPES = ("jnp.float32", "jnp.int32", "jnp.float16", "jnp.bool_", "None")


def _reduction_call(rng, r, nd):
    kw = []
    if r in _AXIS_ONLY:
        if rng.rand() < 0.8:
            kw.append(f"axis={rng.randint(-nd, nd)}")
        if r in ("sort", "argsort") and rng.rand() < 0.5:
            kw.append(f"descending={rng.rand() < 0.5}")
        if r in ("sort", "argsort") and rng.rand() < 0.3:
            kw.append(f"stable={rng.rand() < 0.5}")
        if r.endswith(("max", "min")) and rng.rand() < 0.4:
            kw.append("keepdims=True")
        return kw
    c = rng.rand()
    if c < 0.3:
        kw.append(f"axis={rng.randint(-nd, nd)}")
    elif c < 0.6:
        k = rng.randint(1, nd + 1)
        kw.append(f"axis={tuple(int(a) for a in rng.choice(range(-nd, 0), k, replace=False))}")
    if rng.rand() < 0.4:
        kw.append("keepdims=True")
    if r in _WHERE and rng.rand() < 0.5:
        kw.append("where=w")
    if r in _INITIAL and rng.rand() < 0.5:
        kw.append(f"initial={rng.choice(_INITS)}")
    if r in _DTYPE and rng.rand() < 0.3:
        kw.append(f"dtype={rng.choice(_DTYPES)}")
    if r in ("var", "std") and rng.rand() < 0.4:
        kw.append(f"ddof={rng.randint(0, 3)}")
    return kw


_WRAP = {
    "eval": "def run(): return f(x0)\n",
    "jit": "def run(): return jx.jit(f)(x0)\n",
    "vmap0": "def run(): return jx.vmap(f)(jnp.stack([x0, x0[::-1]]))\n",
    "vmap_last": (
        "def run(): return jx.vmap(f, in_axes=-1, out_axes=-1)(jnp.stack([x0, -x0], -1))\n"
    ),
    "grad": (
        "def run(): return jx.grad(lambda x: jnp.sum(jnp.asarray(f(x)).astype(jnp.float32)"
        " * jnp.linspace(0.5, 1.5, jnp.size(f(x))).reshape(jnp.shape(f(x)))))(x0)\n"
    ),
    "jvp": "def run(): return jx.jvp(f, (x0,), (jnp.ones_like(x0) * 0.5,))\n",
    "jacfwd": "def run(): return jx.jacfwd(f)(x0)\n",
}


def gen_reductions(rng):
    dt = _RDT[rng.randint(len(_RDT))]
    shape = tuple(rng.randint(0 if rng.rand() < 0.1 else 1, 4, size=rng.randint(1, 4)))
    r = _RED[rng.randint(len(_RED))]
    kw = _reduction_call(rng, r, len(shape))
    w = (rng.rand(*shape) > 0.4).tolist()
    if "where=w" in kw and rng.rand() < 0.3:  # a mask broadcast along the leading axes
        w = (rng.rand(*shape[-1:]) > 0.4).tolist()
    fn = "jx.scipy.special.logsumexp" if r == "logsumexp" else f"jnp.{r}"
    stack = rng.choice(list(_WRAP))
    if stack in ("grad", "jvp", "jacfwd") and (dt not in _FLOATS or r in ("max", "min")):
        # (the derivative of a NaN extremum is a documented difference, docs/compat.md)
        stack = rng.choice(["eval", "jit", "vmap0"])
    return (
        f"x0 = {_arr(rng, dt, shape)}\nw = np.array({w!r}, dtype=bool)\n"
        f"def f(x):\n    return {fn}(x, {', '.join(kw)})\n" + _WRAP[stack]
    )


# ---------------------------------------------------------------------------- updates
_UDT = ("float32", "float16", "bfloat16", "int8", "uint8", "uint32", "int32", "complex64", "bool")
_METHODS = ("set", "add", "mul", "min", "max", "get", "subtract", "divide", "power")
_MODES = ("", ", mode='clip'", ", mode='drop'", ", mode='fill'", ", unique_indices=True")
_MODES += (", indices_are_sorted=True",)
_VALUES = ("2", "2.5", "True", "-1", "0", "jnp.float32(3)", "jnp.int8(3)", "jnp.bfloat16(3)", "v")


def _update_expr(rng, n):
    kind = rng.randint(4)
    if kind == 0:
        idx = str(rng.randint(-n - 2, n + 2))
    elif kind == 1:
        idx = f"np.array({rng.randint(-n - 2, n + 2, rng.randint(1, 4)).tolist()})"
    elif kind == 2:
        idx = f"jnp.array({rng.randint(-n - 1, n + 1, rng.randint(0, 4)).tolist()}, jnp.int32)"
    else:
        idx = f"{rng.randint(-n, n)}:{rng.randint(-n, n + 1)}"
    meth, mode = rng.choice(_METHODS), rng.choice(_MODES)
    if meth == "get":
        return f"x.at[{idx}].get({mode.lstrip(', ')})", meth, mode
    return f"x.at[{idx}].{meth}({rng.choice(_VALUES)}{mode})", meth, mode


_UWRAP = {
    "eval": "def run(): return f(x0, v0)\n",
    "jit": "def run(): return jx.jit(f)(x0, v0)\n",
    "vmap": "def run(): return jx.vmap(f, in_axes=(0, None))(jnp.stack([x0, x0[::-1]]), v0)\n",
    "vmap_v": (
        "def run(): return jx.vmap(f, in_axes=(None, 1), out_axes=-1)"
        "(x0, jnp.stack([v0, v0[::-1]], 1))\n"
    ),
    "grad": (
        "def run(): return jx.grad(lambda x, v: jnp.sum(jnp.asarray(f(x, v)).astype(jnp.float32)"
        " * jnp.arange(1.0, 1.0 + jnp.size(f(x, v)))), argnums=(0, 1))(x0, v0)\n"
    ),
    "jvp": "def run(): return jx.jvp(f, (x0, v0), (x0 * 0.5 + 1, v0 * 2 - 1))\n",
    "jacrev": "def run(): return jx.jacrev(f, argnums=(0, 1))(x0, v0)\n",
}


def gen_updates(rng):
    dt = _UDT[rng.randint(len(_UDT))]
    n = rng.randint(1, 5)
    body, meth, mode = _update_expr(rng, n)
    stack = rng.choice(list(_UWRAP))
    known = meth in ("min", "max") and "clip" in mode  # docs/compat.md (fuzzer section)
    known |= meth in ("mul", "divide", "power")  # scatter_mul's unique_indices (compat.md)
    if stack in ("grad", "jvp", "jacrev") and (dt not in _FLOATS or known):
        stack = rng.choice(["eval", "jit", "vmap"])
    return (
        f"x0 = {_arr(rng, dt, (n,))}\nv0 = {_arr(rng, dt, (n,))}\n"
        f"def f(x, v):\n    return {body}\n" + _UWRAP[stack]
    )


# ----------------------------------------------------------------------------- config
_CDT = ("float32", "float16", "bfloat16", "int8", "uint8", "uint32", "int32", "bool", "complex64")
_CDT64 = _CDT + ("float64", "int64", "uint64", "complex128")
_PY = ("2", "2.5", "True", "-1", "1j", "np.float32(1.5)", "np.int8(3)")
_BIN = (
    "x + y", "x * y", "x - y", "jnp.maximum(x, y)", "jnp.where(x == x, x, y)",
    "lax.cond(True, lambda: x, lambda: y)",
    "jnp.concatenate([jnp.atleast_1d(x), jnp.atleast_1d(y)])",
    "jnp.stack([x, y])", "jnp.clip(x, y)", "lax.fori_loop(0, 2, lambda i, c: c + y, x)",
    "lax.scan(lambda c, _: (c * y, c), x, None, length=2)",
    "lax.while_loop(lambda c: c[0] < 2, lambda c: (c[0] + 1, c[1] + y), (0, x))",
    "jnp.dot(x, y)", "jnp.matmul(jnp.atleast_1d(x), jnp.atleast_1d(y))", "x ** y", "x / y",
    "x // y", "x % y", "jnp.arctan2(x, y)", "jnp.hypot(x, y)", "x == y", "x < y", "x & y", "x << y",
    "jnp.where(x > 0, x, y)", "jnp.select([x > 0], [x], y)", "jnp.append(x, y)",
    "jnp.polyval(jnp.atleast_1d(x), y)", "jnp.heaviside(x, y)", "jnp.copysign(x, y)",
    "jnp.ldexp(x, y)", "lax.switch(1, [lambda: x, lambda: y])", "jnp.inner(x, y)", "jnp.vdot(x, y)",
    "jnp.full_like(x, y)", "jnp.array([x, y])", "jnp.isclose(x, y)", "jnp.logaddexp(x, y)",
    "jnp.float_power(x, y)", "jnp.fmod(x, y)", "lax.select(x == x, x, y)", "lax.clamp(x, y, x)",
    "jnp.interp(x, jnp.atleast_1d(y), jnp.atleast_1d(y))",
)  # fmt: skip
_SHX = ((), (2,), (3, 2), (1,))
_SHY = ((), (2,), (3, 2), (1,), (3, 1))


def _operand(rng, x64, shape):
    if rng.rand() < 0.25:
        return _PY[rng.randint(len(_PY))]
    dts = _CDT64 if x64 else _CDT
    dt = dts[rng.randint(len(dts))]
    vals = rng.randint(-3, 4, shape)
    if dt.startswith("uint"):
        vals = np.abs(vals)
    if dt == "bool":
        return f"jnp.array({(vals > 0).tolist()})"
    return f"jnp.array({vals.tolist()}, dtype={dt!r})"


def gen_config(rng):
    x64 = rng.rand() < 0.3
    cfg = rng.choice(["none", "strict", "rank", "both"], p=[0.2, 0.4, 0.2, 0.2])
    x = _operand(rng, x64, _SHX[rng.randint(len(_SHX))])
    y = _operand(rng, x64, _SHY[rng.randint(len(_SHY))])
    stack = rng.choice(["eval", "jit", "vmap", "grad"], p=[0.35, 0.35, 0.2, 0.1])
    call = {
        "eval": "f(x, y)",
        "jit": "jx.jit(f)(x, y)",
        "vmap": "jx.vmap(f, in_axes=(None, 0))(x, jnp.stack([y, y]))",
        "grad": (
            "jx.grad(lambda x, y: jnp.sum(jnp.real(jnp.asarray(jx.tree_util.tree_leaves("
            "f(x, y))[0])).astype(float)), argnums=(0, 1), allow_int=True)(x, y)"
        ),
    }[stack]
    ctx = ["jx.enable_x64(True)"] if x64 else []
    if cfg in ("strict", "both"):
        ctx.append("jx.numpy_dtype_promotion('strict')")
    if cfg in ("rank", "both"):
        ctx.append("jx.numpy_rank_promotion('raise')")
    src = f"def f(x, y):\n    return {_BIN[rng.randint(len(_BIN))]}\ndef run():\n"
    ind = "    "
    for c in ctx:
        src += f"{ind}with {c}:\n"
        ind += "    "
    return src + (
        f"{ind}x = {x}\n{ind}y = {y}\n{ind}r = {call}\n"
        f"{ind}return jx.tree_util.tree_map(lambda a: np.asarray(a) if isinstance(a, (int, "
        "float, complex, bool)) else a, r)\n"
    )


# ------------------------------------------------------------------------- transforms
_HELPERS = """
@jx.custom_jvp
def cj(x):
    return jnp.sin(x) * 2.0
@cj.defjvp
def _cj(p, t):
    (x,), (tx,) = p, t
    return cj(x), 3.0 * jnp.cos(x) * tx
@jx.custom_vjp
def cv(x, y):
    return x * jnp.tanh(y)
cv.defvjp(lambda x, y: (cv(x, y), (x, y)),
          lambda r, g: (1.5 * g * jnp.tanh(r[1]), jnp.sum(g * r[0]) * 0.5 + 0 * r[1]))
X = jnp.array([0.3, -1.2, 0.7], 'float32')
Y = {'a': jnp.array([0.5, 1.5, -0.25], 'float32'), 'b': jnp.float32(0.8)}
def scal(t):
    return sum(jnp.sum(l * (1.0 + 0.25 * i)) for i, l in enumerate(jx.tree_util.tree_leaves(t)))
def ones_like_tree(t):
    return jx.tree_util.tree_map(lambda l: jnp.ones_like(l) * 0.7, t)
"""
_CP = "jx.checkpoint_policies"
_BODIES = (
    "lax.scan(lambda c, xi: (c * 0.9 + xi * y['b'], c * xi), y['b'], x)[1] + y['a']",
    "lax.scan(lambda c, xi: ((c[0] + xi, c[1] * 1.1), jnp.sin(c[0]) * xi), (y['b'], 1.0), x,"
    " reverse=True)[1]",
    "lax.cond(y['b'] > 0, lambda: x * y['a'], lambda: jnp.cos(x) - y['b'])",
    "lax.cond(jnp.sum(x) > 0.5, lambda u: u[0] ** 2 + u[1], lambda u: u[0] - 1.0, (x, y['a']))",
    "lax.switch(jnp.clip(jnp.sum(x > 0), 0, 2), [lambda: x, lambda: x * y['b'],"
    " lambda: jnp.exp(-x ** 2)])",
    "lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * 0.5 + jnp.sin(c[1]) * y['b']),"
    " (0, x))[1]",
    "lax.fori_loop(0, 3, lambda i, c: c + jnp.sin(c * i) * y['a'], x)",
    "cj(x * y['b']) + y['a']",
    "cv(x, y['a']) + y['b']",
    "jx.checkpoint(lambda u, v: jnp.sin(u) * jnp.exp(v['a']) + v['b'] ** 2)(x, y)",
    "jx.checkpoint(lambda u, v: jnp.sin(jnp.sin(u)) * v['a'],"
    f" policy={_CP}.nothing_saveable)(x, y)",
    "jx.checkpoint(lambda u, v: jnp.dot(jnp.outer(u, v['a']), u) * v['b'],"
    f" policy={_CP}.dots_saveable)(x, y)",
    "jnp.where(x > 0, x * y['a'], y['b'] * jnp.ones(3))",
    "jx.jit(lambda u, v: jnp.cumsum(u * v['a']) + jnp.max(u) * v['b'])(x, y)",
    "jx.vmap(lambda u, a: u * a + y['b'], in_axes=(0, 0))(x, y['a'])",
    "jx.vmap(lambda u: jnp.sum(u * y['a']))(jnp.stack([x, x * 2]))",
    "x.at[1].set(y['b']) * y['a']",
    "x.at[jnp.array([0, 2, 0])].add(y['a'])",
    "jnp.sort(x * y['b'] - y['a'])",
    "lax.associative_scan(jnp.add, x * y['a'])",
    "lax.map(lambda u: jnp.sin(u[0]) * u[1], (x, y['a']))",
    "jx.nn.softmax(x * y['b'])",
)
_IN_AXES = (
    ("0", {"a": 0, "b": 0}), ("0", None), (None, {"a": 0, "b": None}), ("-1", {"a": -1, "b": 0}),
    ("0", {"a": None, "b": 0}), (None, {"a": -1, "b": None}),
)  # fmt: skip
_OUT_AXES = {
    "arr": ("-1", "0", "1", "None"),
    "tuple": ("(1, 0)", "(-1, None)", "(0, 0)"),
    "dict": ("{'o': -1, 'p': 0}", "{'o': 0, 'p': None}", "-1"),
}
_GRAD = "jx.grad(lambda x, y: scal(f(x, y)), argnums=(0, 1))"
_TSTACKS = {
    "jvp_grad": f"jx.jvp({_GRAD}, (X, Y), (jnp.ones(3) * 0.5, jx.tree_util.tree_map("
    "lambda l: l * 0 + 0.3, Y)))",
    "hessian": "jx.hessian(lambda x: scal(f(x, Y)))(X)",
    "jacfwd": "jx.jacfwd(f, argnums=(0, 1))(X, Y)",
    "jacrev": "jx.jacrev(f, argnums=(0, 1))(X, Y)",
    "vjp_aux": "(lambda o: (o[0], o[1](ones_like_tree(o[0])), o[2]))(jx.vjp(lambda x, y: "
    "(f(x, y), jnp.sum(x)), X, Y, has_aux=True))",
    "linear_transpose": "jx.linear_transpose(lambda t: jx.jvp(lambda x: f(x, Y), (X,), (t,))[1],"
    " X)(ones_like_tree(f(X, Y)))",
    "closure": "jx.grad(lambda s: scal(jx.vmap(lambda r: f(X * r + s, Y))(jnp.array([1.0, -0.5]))))"
    "(jnp.float32(0.2))",
    "grad_vmap": "jx.grad(lambda y: scal(jx.vmap(lambda x: f(x, y))(jnp.stack([X, X * 0.5]))))(Y)",
    "linearize": "(lambda pr: (pr[0], pr[1](jnp.ones(3) * 0.5)))"
    "(jx.linearize(lambda x: f(x, Y), X))",
}


def _batched(expr, ax):
    if ax is None or ax == "None":
        return expr
    return f"jnp.stack([{expr}, ({expr}) * -0.5 + 0.25], axis={int(ax)})"


def _vmap_call(rng, stack, outs):
    ax, ay = _IN_AXES[rng.randint(len(_IN_AXES))]
    bx = _batched("X", ax)
    by = "Y" if ay is None else "{" + ", ".join(
        f"'{k}': {_batched(f'Y[{k!r}]', v)}" for k, v in ay.items()
    ) + "}"  # fmt: skip
    oa = rng.choice(_OUT_AXES[outs]) if stack == "vmap_out" else "0"
    inner = _GRAD if stack == "vmap_grad" else "f"
    axes = f"({ax}, {ay!r})"
    if stack == "jit_vmap":
        return f"jx.jit(jx.vmap(f, in_axes={axes}))({bx}, {by})"
    return f"jx.vmap({inner}, in_axes={axes}, out_axes={oa})({bx}, {by})"


def gen_transforms(rng):
    body = _BODIES[rng.randint(len(_BODIES))]
    outs = rng.choice(["arr", "tuple", "dict"])
    ret = {
        "arr": f"({body})",
        "tuple": f"(({body}), jnp.sum(x) * y['b'])",
        "dict": f"{{'o': ({body}), 'p': y['b'] + 1.0}}",
    }[outs]
    stack = rng.choice(["vmap", "vmap_out", "jit_vmap", "vmap_grad", *_TSTACKS])
    if stack in _TSTACKS:
        call = _TSTACKS[stack]
    else:
        call = _vmap_call(rng, stack, outs)
    return _HELPERS + f"def f(x, y):\n    return {ret}\ndef run():\n    return {call}\n"


GENERATORS = {
    "reductions": gen_reductions,
    "updates": gen_updates,
    "config": gen_config,
    "transforms": gen_transforms,
}


# ------------------------------------------------------------------------- comparison
def _build(src):
    def build(m):
        ns = {"jx": m.jx, "jnp": m.jnp, "lax": m.lax, "np": np}
        exec(src, ns)  # noqa: S102 - the harness runs its own generated test programs
        return ns["run"]()

    return build


def _tolerance(dtype):
    return (3e-2, 1e-2) if dtype in ("float16", "bfloat16") else (2e-3, 1e-4)


def _leaf_difference(i, x, y):
    dx, dy = str(x.dtype), str(y.dtype)
    if np.shape(x) != np.shape(y) or dx != dy:
        return f"leaf {i}: {np.shape(x)} {dx} vs {np.shape(y)} {dy}"
    if not isinstance(x, np.ndarray) and getattr(x, "weak_type", None) != getattr(
        y, "weak_type", None
    ):
        return f"leaf {i}: weak type {x.weak_type} vs {y.weak_type}"
    if "float0" in dx:
        return None
    x, y = np.asarray(x), np.asarray(y)
    if x.dtype.kind not in "fcV" and dx != "bfloat16":
        return None if np.array_equal(x, y) else f"leaf {i}: values {x!r} vs {y!r}"
    wide = np.complex128 if x.dtype.kind == "c" else np.float64
    xw, yw = x.astype(wide), y.astype(wide)
    rtol, atol = _tolerance(dx)
    if not np.array_equal(np.isnan(xw), np.isnan(yw)):
        return f"leaf {i}: NaN positions {x!r} vs {y!r}"
    if not np.isclose(yw, xw, rtol=rtol, atol=atol, equal_nan=True).all():
        return f"leaf {i}: values {x!r} vs {y!r}"
    if x.dtype.kind != "c":
        z = xw == 0
        if not np.array_equal(np.signbit(yw[z]), np.signbit(xw[z])):
            return f"leaf {i}: signs of zeros {x!r} vs {y!r}"
    return None


def difference(src):
    """How jaxlite's run of the program differs from JAX's (None when they agree, or
    without JAX): raise/no-raise, exception class, structure, shapes, dtypes, weak types,
    values (NaN positions, signs of zeros)."""
    if JAX is None:
        return None
    kb, b = run(_build(src), LITE)
    ka, a = run(_build(src), JAX)
    if ka != kb:
        return f"raise/no-raise: JAX {ka} {a!r:.200}, jaxlite {kb} {b!r:.200}"
    if ka == "err":
        if builtin_base(a) is not builtin_base(b):
            return f"exception class: JAX {a!r:.200}, jaxlite {b!r:.200}"
        return None
    la, ta = JAX.jx.tree_util.tree_flatten(a)
    lb, tb = LITE.jx.tree_util.tree_flatten(b)
    if len(la) != len(lb):
        return f"structure: {ta} vs {tb}"
    for i, (x, y) in enumerate(zip(la, lb)):
        if type(x) in (int, float, bool, complex) or type(y) in (int, float, bool, complex):
            if type(x) is not type(y):
                return f"leaf {i}: Python type {type(x)} vs {type(y)}"
            x, y = np.asarray(x), np.asarray(y)
        d = _leaf_difference(i, x, y)
        if d:
            return d
    return None


def hunt(name, seeds):
    """``[(seed, difference, program)]`` for the seeds whose programs disagree."""
    gen = GENERATORS[name]
    found = []
    for s in seeds:
        src = gen(np.random.RandomState(s))
        d = difference(src)
        if d:
            found.append((s, d, src))
    return found


if __name__ == "__main__":
    import warnings

    warnings.filterwarnings("ignore")
    name, first, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    for seed, d, src in hunt(name, range(first, first + count)):
        print(f"--- {name} seed {seed}: {d}\n{src}")
