"""Run one generated program under one transformation stack, in jaxlite and in JAX, and
compare: raise/no-raise, exception type, output structure and shapes, dtypes, weak types and
values.

A stack is Python source too (``STACKS``): a body for ``def run(<inputs>): ...; return out``
over the program's ``f``. jaxlite runs ``run`` as written (eagerly, or under the ``jit`` the
stack names). JAX runs ``jax.jit(run)``: the same values, dtypes and weak types as eager JAX
with one compile instead of one per operation (which is what keeps the fuzzer fast); a
mismatch is confirmed against eager JAX (``run`` without ``jit_whole``) before it counts,
so eager JAX stays the reference (XLA may keep float16 intermediates in float32 under jit).

Everything here is test code: the generated text is executed by the test harness, never by
jaxlite itself.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass

import numpy as np

HELPERS = '''
def scal(o):
    """A scalar with distinct weights per element (so transposition errors show)."""
    o = jnp.asarray(o)
    w = np.linspace(0.5, 1.5, max(o.size, 1), dtype=np.float32)[: o.size].reshape(o.shape)
    return jnp.sum(o.astype(jnp.float32) * w)


def ct_like(o):
    """A cotangent for ``o`` (float outputs only)."""
    return jnp.full(jnp.shape(o), 0.75, jnp.result_type(o))


def scalt(t):
    """``scal`` summed over the leaves of a pytree (for derivatives of derivatives)."""
    return sum(scal(o) for o in jax.tree_util.tree_leaves(t))


def _cj_pow(n, x):
    return x ** n


cj_pow = jax.custom_jvp(_cj_pow, nondiff_argnums=(0,))


def _cj_pow_jvp(n, primals, tangents):
    (x,), (t,) = primals, tangents
    return cj_pow(n, x), 1.5 * n * x ** (n - 1) * t


cj_pow.defjvp(_cj_pow_jvp)


def _cv_clip(lo, x):
    return jnp.maximum(x, lo)


cv_clip = jax.custom_vjp(_cv_clip, nondiff_argnums=(0,))
cv_clip.defvjp(
    lambda lo, x: (jnp.maximum(x, lo), x),
    lambda lo, x, g: (jnp.where(x > lo, g, 0.25 * g),),
)
'''

# name -> (needs: "any" | "diff" (a float input) | "diff_out" (also a float output), body)
# Placeholders: {args} all inputs, {dargs} the differentiable ones, {fd} f of {dargs} with the
# others fixed, {axes} vmap in_axes over {args}, {daxes} over {dargs}, {nd} len(dargs).
STACKS = {
    "eval": ("any", "out = f({args})"),
    "jit": ("any", "out = jax.jit(f)({args})"),
    "vmap": ("any", "out = jax.vmap(f, in_axes={axes})({bargs})"),
    "jit(vmap)": ("any", "out = jax.jit(jax.vmap(f, in_axes={axes}))({bargs})"),
    "vmap(jit)": ("any", "out = jax.vmap(jax.jit(f), in_axes={axes})({bargs})"),
    "grad": ("diff", "out = jax.grad(lambda {dargs}: scal({fd}), argnums={argnums})({dargs})"),
    "jit(grad)": (
        "diff",
        "out = jax.jit(jax.grad(lambda {dargs}: scal({fd}), argnums={argnums}))({dargs})",
    ),
    "grad(jit)": (
        "diff",
        "out = jax.grad(lambda {dargs}: scal(jax.jit(fd)({dargs})), argnums={argnums})({dargs})",
    ),
    "vmap(grad)": (
        "diff",
        "out = jax.vmap(jax.grad(lambda {dargs}: scal({fd}), argnums={argnums}), "
        "in_axes={daxes})({bdargs})",
    ),
    "jit(vmap(grad))": (
        "diff",
        "out = jax.jit(jax.vmap(jax.grad(lambda {dargs}: scal({fd}), argnums={argnums}), "
        "in_axes={daxes}))({bdargs})",
    ),
    "jvp": ("diff", "out = jax.jvp(fd, ({dargs},), ({tangents},))"),
    "vmap(jvp)": (
        "diff",
        "out = jax.vmap(lambda {dargs}: jax.jvp(fd, ({dargs},), ({dargs},)), "
        "in_axes={daxes})({bdargs})",
    ),
    "vjp": ("diff_out", "o, pb = jax.vjp(fd, {dargs})\nout = (o, pb(ct_like(o)))"),
    "jacfwd": ("diff", "out = jax.jacfwd(fd, argnums={argnums})({dargs})"),
    "jacrev": ("diff_out", "out = jax.jacrev(fd, argnums={argnums})({dargs})"),
    "hessian": (
        "diff",
        "out = jax.hessian(lambda {dargs}: scal({fd}), argnums={argnums})({dargs})",
    ),
    "checkpoint": (
        "diff",
        "out = jax.grad(lambda {dargs}: scal(jax.checkpoint(fd)({dargs})), "
        "argnums={argnums})({dargs})",
    ),
    # vmap over the last axis of every array input, the batch axis last in every output
    "vmap(-1)": (
        "any",
        "out = jax.vmap(f, in_axes={axes_m1}, out_axes=-1)({bargs_m1})",
    ),
    "vmap(grad)(-1)": (
        "diff",
        "out = jax.vmap(jax.grad(lambda {dargs}: scal({fd}), argnums={argnums}), "
        "in_axes={daxes_m1}, out_axes=-1)({bdargs_m1})",
    ),
    "grad(grad)": (
        "diff",
        "out = jax.grad(lambda {dargs}: scalt(jax.grad(lambda {dargs}: scal({fd}), "
        "argnums={argnums})({dargs})), argnums={argnums})({dargs})",
    ),
    "jvp(grad)": (
        "diff",
        "out = jax.jvp(lambda {dargs}: jax.grad(lambda {dargs}: scal({fd}), "
        "argnums={argnums})({dargs}), ({dargs},), ({tangents},))",
    ),
    "linearize": (
        "diff",
        "y, f_lin = jax.linearize(fd, {dargs})\nout = (y, f_lin({tangents}))",
    ),
    "checkpoint(dots)": (
        "diff",
        "out = jax.grad(lambda {dargs}: scal(jax.checkpoint(fd, "
        "policy=jax.checkpoint_policies.dots_with_no_batch_dims_saveable)({dargs})), "
        "argnums={argnums})({dargs})",
    ),
    "jit(checkpoint(nothing))": (
        "diff",
        "out = jax.jit(jax.grad(lambda {dargs}: scal(jax.checkpoint(fd, "
        "policy=jax.checkpoint_policies.nothing_saveable)({dargs})), "
        "argnums={argnums}))({dargs})",
    ),
}

# Smaller stacks to try first when minimizing a failure of a larger one.
SIMPLER = {
    "jit(vmap)": ["vmap", "jit"],
    "vmap(jit)": ["vmap", "jit"],
    "jit(grad)": ["grad"],
    "grad(jit)": ["grad", "jit"],
    "vmap(grad)": ["grad", "vmap"],
    "jit(vmap(grad))": ["vmap(grad)", "jit(grad)", "grad", "vmap"],
    "vmap(jvp)": ["jvp", "vmap"],
    "vjp": ["grad", "eval"],
    "jacfwd": ["jvp", "eval"],
    "jacrev": ["grad", "eval"],
    "hessian": ["jacfwd", "grad", "jvp", "eval"],
    "checkpoint": ["grad", "eval"],
    "vmap(-1)": ["vmap", "eval"],
    "vmap(grad)(-1)": ["vmap(grad)", "grad", "vmap(-1)"],
    "grad(grad)": ["hessian", "grad", "jvp", "eval"],
    "jvp(grad)": ["grad", "jvp", "eval"],
    "linearize": ["jvp", "eval"],
    "checkpoint(dots)": ["checkpoint", "grad", "eval"],
    "jit(checkpoint(nothing))": ["checkpoint", "jit(grad)", "grad", "eval"],
    "grad": ["jvp", "eval"],
    "jvp": ["eval"],
    "vmap": ["eval"],
    "jit": ["eval"],
}


# Mismatches that are documented deliberate differences (docs/compat.md, "Differential
# fuzzer" rows): (class, text in the description or a regex over the program source) ->
# the compat row's topic.
class InDetail:
    """A ``KNOWN`` pattern: a regular expression over the mismatch's description."""

    def __init__(self, pattern):
        self.regex = re.compile(pattern)


KNOWN = [
    (
        "raise/no-raise",
        "JAX raised TypeError: a bytes-like object is required",
        "jacfwd of a bool-valued function",
    ),
    (
        "raise/no-raise",
        "with a float0 array. float0s do not support any operations",
        "JVP through a custom_jvp function (xlogy, ...) of an integer-derived operand",
    ),
    (
        "raise/no-raise",
        InDetail(r"JAX raised TypeError: log(1p)? does not accept dtype u?int"),
        "JVP through a custom_jvp function (xlogy, ...) of an integer-derived operand",
    ),
    (
        "raise/no-raise",
        "called on traced array with shape int32[",
        "indexing with an empty index array under a transformation",
    ),
    (
        "raise/no-raise",
        "JAX raised NotImplementedError: scatter_mul gradients are only implemented",
        "derivative of .at[index array].mul(u) w.r.t. u with distinct indices",
    ),
    (
        "raise/no-raise",
        "JAX raised TypeError: Slice size at index",
        "derivatives of .at[...] updates of an empty array",
    ),
    (
        "exception type",
        ("JAX TypeError: Slice size at index", re.compile(r"\.at\[")),
        "derivatives of .at[...] updates of an empty array",
    ),
    (
        "exception type",
        "JAX NotImplementedError: scatter_mul gradients are only implemented",
        "derivative of .at[index array].mul(u) w.r.t. u with distinct indices",
    ),
    (
        "exception type",
        "JAX TracerArrayConversionError: The numpy.ndarray conversion method",
        "a NumPy array indexed by a jnp array constant made under jit",
    ),
    (
        "value",
        re.compile(r"\.at\[[^\n]*\]\.(min|max)\([^\n]*mode='clip'"),
        "tangent of .at[...].min/max with mode='clip' and clamped indices",
    ),
    (
        "raise/no-raise",
        ("JAX raised IndexError: index", re.compile(r"jnp\.reshape\(")),
        "jnp.reshape of a NumPy array returns a NumPy array in JAX",
    ),
    (
        "raise/no-raise",
        ("JAX raised AttributeError: 'numpy.ndarray' object", re.compile(r"jnp\.reshape\(")),
        "jnp.reshape of a NumPy array returns a NumPy array in JAX",
    ),
    (
        "value",
        re.compile(r"\.at\[[^\n]*mode='promise_in_bounds'"),
        "out-of-bounds indices with mode='promise_in_bounds' (undefined)",
    ),
    (
        "value",
        (
            "nan",
            re.compile(r"jax\.(jacfwd|hessian)\("),
            re.compile(r"jnp\.(max|min|amax|amin)\("),
        ),
        "forward-mode derivative of a max/min reduction with NaN tangents off the extremum",
    ),
    (
        "value",
        # XLA's wrapped integer powers: a 0 of jaxlite's against a large integer of JAX's
        (re.compile(r"\*\*"), InDetail(r"\b0\b.* vs JAX .*\d{7}")),
        "an integer array to a negative integer array power (XLA's wrapped arithmetic)",
    ),
]

KNOWN.append(
    (
        "raise/no-raise",
        (
            "JAX raised ZeroDivisionError: integer modulo by zero",
            re.compile(r"lax\.map\(.*batch_size"),
        ),
        "lax.map with batch_size and an output with a size-0 dimension",
    )
)
KNOWN.append(
    (
        "value",
        (
            re.compile(r"jax\.scipy\.special\.(digamma|polygamma)\("),
            InDetail(r"vs JAX .*nan"),
        ),
        "polygamma(m, inf) (digamma's derivative at inf) is 0, JAX's NaN",
    )
)

KNOWN.append(
    (
        "value",
        # JAX's JVP rule takes the log of the unpromoted real y: NaN where y < 0 and x is complex
        (re.compile(r"jax\.scipy\.special\.xlog(y|1py)\("), InDetail(r"vs JAX .*nan")),
        "JVP through a custom_jvp function (xlogy, ...) of an integer-derived operand",
    )
)

KNOWN.append(
    (
        "value",
        # a subnormal result (spacing of 0, nextafter towards 0) that XLA:CPU reads as 0 in the
        # next operation (floor, sign, a comparison...)
        re.compile(r"jnp\.(spacing|nextafter)\("),
        "Subnormal floats in arithmetic",
    )
)

CLASSES = ("raise/no-raise", "exception type", "shape", "dtype", "weak type", "value")


def _dtype_name(d):
    return "jnp.bfloat16" if d == "bfloat16" else f"np.{d}"


def _literal(v, dtype):
    if isinstance(v, (bool, int, float)):
        return repr(v)
    lst = np.asarray(v, dtype=np.float32 if dtype == "bfloat16" else v.dtype).tolist()
    return f"np.array({lst!r}, dtype={_dtype_name(dtype)}).reshape({tuple(v.shape)!r})"


def is_diff_input(inp):
    return inp.kind == "float" or (inp.kind == "array" and inp.dtype.startswith(("float", "bf")))


def applicable(program, stack):
    need, _ = STACKS[stack]
    if need == "any":
        return True
    if not any(is_diff_input(i) for i in program.inputs):
        return False
    if need == "diff_out":
        out = program.out_aval
        return out is not None and out.is_float
    return True


def stack_source(program, stack):
    """``def run(...)`` for ``stack`` over the program's ``f``, as plain Python."""
    _, body = STACKS[stack]
    names = [i.name for i in program.inputs]
    d = [i.name for i in program.inputs if is_diff_input(i)]
    axes = tuple(0 if i.kind == "array" else None for i in program.inputs)
    daxes = tuple(0 if i.kind == "array" else None for i in program.inputs if is_diff_input(i))
    fmt = dict(
        args=", ".join(names),
        bargs=", ".join(("b" + i.name) if i.kind == "array" else i.name for i in program.inputs),
        dargs=", ".join(d),
        bdargs=", ".join(
            ("b" + i.name) if i.kind == "array" else i.name
            for i in program.inputs
            if is_diff_input(i)
        ),
        axes_m1=repr(tuple(-1 if i.kind == "array" else None for i in program.inputs)),
        daxes_m1=repr(
            tuple(-1 if i.kind == "array" else None for i in program.inputs if is_diff_input(i))
        ),
        bargs_m1=", ".join(
            f"jnp.moveaxis(b{i.name}, 0, -1)" if i.kind == "array" else i.name
            for i in program.inputs
        ),
        bdargs_m1=", ".join(
            f"jnp.moveaxis(b{i.name}, 0, -1)" if i.kind == "array" else i.name
            for i in program.inputs
            if is_diff_input(i)
        ),
        fd="fd(" + ", ".join(d) + ")",
        axes=repr(axes),
        daxes=repr(daxes),
        argnums=repr(tuple(range(len(d)))),
        tangents=", ".join("t" + n for n in d),
    )
    code = body.format(**fmt)
    fd = f"def fd({', '.join(d)}):\n    return f({', '.join(names)})\n" if d else ""
    return fd, code


def inputs_source(program):
    lines = []
    for i in program.inputs:
        lines.append(f"{i.name} = {_literal(i.value, i.dtype)}")
        if i.kind == "array":
            lines.append(f"b{i.name} = {_literal(i.batched, i.dtype)}")
        if is_diff_input(i):
            if i.kind == "float":
                lines.append(f"t{i.name} = 0.5")
            else:
                lines.append(f"t{i.name} = np.full({i.name}.shape, 0.5, {i.name}.dtype)")
    return "\n".join(lines)


def repro_source(program, stack, engine="jaxlite"):
    """A standalone script that reproduces ``program`` under ``stack``."""
    fd, code = stack_source(program, stack)
    head = (
        "import numpy as np\nimport jaxlite as jax\nimport jaxlite.numpy as jnp\n"
        "from jaxlite import lax\nimport jaxlite.scipy.special\n"
        if engine == "jaxlite"
        else "import numpy as np\nimport jax\nimport jax.numpy as jnp\nfrom jax import lax\n"
        "import jax.scipy.special\n"
    )
    return (
        head
        + "nan, inf = np.nan, np.inf\n"
        + HELPERS
        + "\n"
        + program.source()
        + "\n"
        + fd
        + "\n"
        + inputs_source(program)
        + "\n"
        + "".join(f"{p} = jnp.asarray({p})\n" for p in _array_params(program))
        + code
        + "\nprint(out)\n"
    )


def _array_params(program):
    """The names of the array-valued inputs (passed as the engine's arrays, as a user would)."""
    out = []
    for i in program.inputs:
        if i.kind == "array":
            out += [i.name, "b" + i.name]
        if is_diff_input(i) and i.kind == "array":
            out.append("t" + i.name)
    return out


@dataclass
class Outcome:
    ok: bool
    leaves: list | None = None  # [(np value, shape, dtype str, weak)]
    exc: BaseException | None = None


def _leaf(x):
    if isinstance(x, (bool, int, float, complex)):
        return (np.asarray(x), (), type(x).__name__, True)
    a = np.asarray(x)
    dt = "float0" if "float0" in str(x.dtype) else str(x.dtype)
    return (a, tuple(np.shape(x)), dt, bool(getattr(x, "weak_type", False)))


def run(program, stack, ns, jit_whole=False) -> Outcome:
    """Execute ``program`` under ``stack`` with the engine modules in ``ns``; ``jit_whole``
    wraps the whole stack in ``jit`` (used for JAX, except where float0 results can appear:
    a jitted function cannot return them)."""
    out_aval = program.out_aval
    if STACKS[stack][0] != "any" and (out_aval is None or not out_aval.is_float):
        jit_whole = False  # derivatives of a non-float output are float0
    fd, code = stack_source(program, stack)
    g = dict(ns)
    g["nan"], g["inf"] = np.nan, np.inf
    try:
        exec(HELPERS, g)  # noqa: S102 (test side: generated text, never user input)
        exec(program.source(), g)  # noqa: S102
        if fd:
            exec(fd, g)  # noqa: S102
        exec(inputs_source(program), g)  # noqa: S102
    except Exception as e:  # pragma: no cover (the harness itself failing)
        return Outcome(False, exc=e)
    params = []
    for i in program.inputs:
        params.append(i.name)
        if i.kind == "array":
            params.append("b" + i.name)
        if is_diff_input(i):
            params.append("t" + i.name)
    src = "def run(" + ", ".join(params) + "):\n"
    src += "".join("    " + ln + "\n" for ln in code.split("\n")) + "    return out\n"
    try:
        exec(src, g)  # noqa: S102
        fn = g["run"]
        if jit_whole:
            fn = ns["jax"].jit(fn)
        # Array inputs are passed as the engine's arrays (as a user would), Python scalars as
        # they are (weakly typed).
        vals = [
            g[p] if isinstance(g[p], (bool, int, float)) else ns["jnp"].asarray(g[p])
            for p in params
        ]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = fn(*vals)
            leaves = ns["flatten"](out)
            leaves = [_leaf(x) for x in leaves]
    except Exception as e:
        return Outcome(False, exc=e)
    return Outcome(True, leaves=leaves)


def _base(exc):
    for c in type(exc).__mro__:
        if c.__module__ == "builtins":
            return c.__name__
    return "Exception"


def _tol(dtype):
    if dtype in ("float16", "bfloat16"):
        return 3e-2, 3e-2
    return 2e-3, 1e-4


def low_precision(program) -> bool:
    """Whether the program computes in float16/bfloat16 anywhere (then every float output
    is compared at their tolerance: a float32 result can carry their rounding)."""
    dts = [v.dtype for v in program.avals.values()] + [i.dtype for i in program.inputs]
    return any(d in ("float16", "bfloat16") for d in dts) or "float16" in program.source()


def compare(a: Outcome, b: Outcome, low_precision: bool = False):
    """The first mismatch class between jaxlite's ``a`` and JAX's ``b`` (or ``None``), with
    a short description. ``low_precision``: use the float16/bfloat16 tolerance throughout."""
    if a.ok != b.ok:
        what = (
            f"jaxlite raised {type(a.exc).__name__}: {a.exc}"
            if not a.ok
            else (f"JAX raised {type(b.exc).__name__}: {b.exc}")
        )
        return "raise/no-raise", what[:300]
    if not a.ok:
        if _base(a.exc) != _base(b.exc):
            return "exception type", (
                f"jaxlite {type(a.exc).__name__}: {str(a.exc)[:150]} | "
                f"JAX {type(b.exc).__name__}: {str(b.exc)[:150]}"
            )
        return None
    if len(a.leaves) != len(b.leaves):
        return "shape", f"{len(a.leaves)} outputs vs JAX {len(b.leaves)}"
    for k, ((va, sa, da, wa), (vb, sb, db, wb)) in enumerate(zip(a.leaves, b.leaves)):
        if sa != sb or va.shape != vb.shape:
            return "shape", f"output {k}: {sa} (buffer {va.shape}) vs JAX {sb}"
        if da != db:
            return "dtype", f"output {k}: {da} vs JAX {db}"
        if wa != wb:
            return "weak type", f"output {k}: weak_type={wa} vs JAX {wb}"
        if va.size == 0 or db == "float0" or va.dtype.kind == "V" or vb.dtype.kind == "V":
            continue
        if va.dtype.kind in "biu" or db == "bool":
            if not np.array_equal(va, vb):
                return "value", f"output {k}: {va.tolist()} vs JAX {vb.tolist()}"
            continue
        fa = np.asarray(va, np.complex128 if va.dtype.kind == "c" else np.float64)
        fb = np.asarray(vb, np.complex128 if vb.dtype.kind == "c" else np.float64)
        rtol, atol = _tol("bfloat16" if low_precision else db)
        if not np.allclose(fa, fb, rtol=rtol, atol=atol, equal_nan=True):
            return "value", f"output {k}: {_short(fa)} vs JAX {_short(fb)}"
    return None


def known(cls, detail, source=""):
    """The compat-row topic of a documented difference, or ``None``. A pattern is text in
    the mismatch's description, a regular expression over ``source`` (the program and the
    stack it ran under, for differences its values alone do not show), or a tuple of
    these (all must match)."""
    for c, pat, topic in KNOWN:
        if c != cls:
            continue
        pats = pat if isinstance(pat, tuple) else (pat,)
        if all(
            p in detail
            if isinstance(p, str)
            else p.regex.search(detail)
            if isinstance(p, InDetail)
            else p.search(source)
            for p in pats
        ):
            return topic
    return None


def _short(x):
    s = np.array2string(np.asarray(x), precision=5, threshold=20)
    return s if len(s) < 200 else s[:200] + "..."
