"""Session 28 differential hunt of whole programs (test code, not a test module): seeded
random programs of the shape users write, run under JAX and jaxlite in one process and
compared leaf by leaf with fuzz_s22's ``difference`` (exception class, structure, shapes,
dtypes, weak types, integers and booleans exactly, floats within a per-dtype tolerance
relative to the leaf's largest magnitude, NaN and infinity positions). Earlier hunts draw
one family of operations at a time; these mix them.

Angles (``GENERATORS``):

* ``steps``: a small "model" (parameters in a dict / tuple / list / namedtuple with
  ``None`` leaves) and a per-example loss built from a random chain of blocks (``.at[]``
  add / set / mul / min / max / get with every ``mode``, ``jnp.take`` / ``take_along_axis``
  with out-of-range indices and every mode, ``jnp.where`` masks, ``segment_sum`` /
  ``segment_max`` with ``num_segments`` and out-of-range ids, ``dynamic_slice`` /
  ``dynamic_update_slice`` with out-of-bounds and traced starts, ``one_hot``,
  ``log_softmax``, ``logsumexp``, ``custom_jvp`` / ``custom_vjp`` functions,
  ``stop_gradient``, ``checkpoint`` with a policy, ``cond``, inner ``fori_loop`` / ``scan``,
  traced indices from the label), batched by ``vmap`` / ``lax.map(batch_size=)`` / a Python
  loop, differentiated by ``value_and_grad(has_aux=True)`` or per-example ``vmap(grad)``,
  and trained for a few SGD or Adam-like steps inside ``lax.scan`` / ``fori_loop`` / a
  Python loop, eagerly or under ``jit`` (with ``donate_argnums``).
* ``random_in_loops``: ``jax.random`` keys (typed or raw) split / folded in inside
  ``scan`` / ``fori_loop`` / ``while_loop`` / ``vmap``, dropout masks, permutations,
  ``choice``, categorical samples used as indices, normal / uniform noise, all feeding
  values that are then differentiated and updated; keys come back as ``key_data``.
* ``trees``: ``tree_map`` with ``is_leaf``, ``tree_transpose``, flatten / unflatten and
  ``ravel_pytree`` round trips through ``jit`` / ``vmap`` with ``in_axes`` given as pytree
  prefixes (``None`` entries), ``out_axes`` pytrees, ``static_argnums`` /
  ``static_argnames`` with hashable pytrees, ``donate_argnums``, ``tree_reduce``,
  ``tree_leaves_with_path`` keys, ``jacrev`` / ``jacfwd`` of pytree functions.

Documented differences (docs/compat.md) are avoided by construction: no ``clip`` mode for
scatter min / max, no fused multiply-add sensitive comparisons (loose float tolerances),
no ties in maxima.

``python -m tests.hunt.fuzz_s28 ANGLE FIRST COUNT`` prints each disagreement with its
program. A generated program is source text that the harness executes (``jx``, ``jnp``,
``lax``, ``np`` bound to one library); jaxlite never executes generated text.
"""

# ruff: noqa: E501 (the program tables keep one expression a line)
from __future__ import annotations

import sys

import numpy as np

from tests.hunt import fuzz_s22
from tests.hunt.oracle import LITE, run

_HELPERS = """
import collections
import importlib
ravel_pytree = importlib.import_module(jx.__name__ + ".flatten_util").ravel_pytree
checkpoint_name = importlib.import_module(jx.__name__ + ".ad_checkpoint").checkpoint_name
P = collections.namedtuple("P", ["w", "b", "u"])
def fit(a, n):
    a = jnp.ravel(a)
    return jnp.resize(a, (n,)) if a.size else jnp.zeros((n,), a.dtype)
@jx.custom_jvp
def softclip(x):
    return jnp.tanh(x) * 2.0
@softclip.defjvp
def _softclip_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return softclip(x), t * 2.0 / jnp.cosh(x) ** 2
@jx.custom_vjp
def clipgrad(x):
    return x * 1.0
def _clipgrad_fwd(x):
    return x * 1.0, x
def _clipgrad_bwd(res, g):
    return (jnp.clip(g, -0.3, 0.3) + 0.0 * res,)
clipgrad.defvjp(_clipgrad_fwd, _clipgrad_bwd)
"""


def _lit(a):
    return repr(np.asarray(a).tolist())


def _f32(a):
    return f"jnp.asarray({_lit(np.round(a, 2))}, dtype='float32')"


def _i32(a):
    return f"jnp.asarray({_lit(np.asarray(a, dtype=int))}, dtype='int32')"


# --------------------------------------------------------------------------- steps
_STRUCTS = {
    # (constructor text with {w} {b} {u}, accessors of w, b, u)
    "dict": ("{{'w': {w}, 'b': {b}, 'extra': [{u}, None]}}", "p['w']", "p['b']", "p['extra'][0]"),
    "tuple": ("({w}, {b}, {u})", "p[0]", "p[1]", "p[2]"),
    "list": ("[{{'w': {w}}}, ({b}, None, {u})]", "p[0]['w']", "p[1][0]", "p[1][2]"),
    "named": ("P({w}, {b}, {u})", "p.w", "p.b", "p.u"),
    "nested": (
        "{{'layer': P({w}, {b}, None), 'u': ({u},)}}",
        "p['layer'].w",
        "p['layer'].b",
        "p['u'][0]",
    ),
}


def _idx(rng, h, k, oob=True):
    lo, hi = (-h - 2, h + 3) if oob else (-h, h)
    return rng.randint(lo, hi, size=k)


def _block(rng, h):
    """One statement on ``v`` (float32[h]); may read ``U`` (float32[h]), ``yi`` (int32
    scalar label, traced) and ``xi``."""
    k = int(rng.randint(1, h + 1))
    c = int(rng.randint(-3, 4))
    kind = rng.randint(0, 35)
    if kind == 0:
        return "v = jnp.tanh(v)"
    if kind == 1:
        return (
            f"v = jnp.where(v > {rng.uniform(-0.5, 0.5):.2f}, v, {rng.uniform(0.1, 0.9):.2f} * v)"
        )
    if kind == 2:
        mode = rng.choice(["None", "'clip'", "'drop'", "'fill'"])
        return f"v = v.at[{_i32(_idx(rng, h, k))}].add(fit(U, {k}) * v[0], mode={mode})"
    if kind == 3:
        # distinct positions (set with duplicates is unordered in XLA)
        pos = rng.choice(np.arange(h), size=k, replace=False)
        i = np.where(rng.rand(k) < 0.5, pos - h, pos)
        mode = rng.choice(["None", "'clip'", "'drop'", "'promise_in_bounds'"])
        return f"v = v.at[{_i32(i)}].set(v[::-1][:{k}] * 0.5 + fit(U, {k}), mode={mode})"
    if kind == 4:
        mode = rng.choice(["None", "'clip'", "'drop'"])
        return f"v = v.at[{_i32(_idx(rng, h, k))}].mul({rng.uniform(0.5, 1.5):.2f}, mode={mode})"
    if kind == 5:
        op = rng.choice(["min", "max"])
        mode = rng.choice(["None", "'drop'"])
        return f"v = v.at[{_i32(_idx(rng, h, k))}].{op}(fit(U, {k}) * 0.7, mode={mode})"
    if kind == 6:
        # the default fill (NaN) is avoided: XLA rewrites a product with a 0/1 mask
        # (one_hot, a converted comparison) as a select under jit, so JAX's own jit and
        # eager answers differ on NaN cotangents there (docs/compat.md)
        fill = rng.choice([", fill_value=0.0", ", fill_value=1.5"])
        return f"v = v + fit(v.at[{_i32(_idx(rng, h, k))}].get(mode='fill'{fill}), {h}) * 0.5"
    if kind == 7:
        mode = rng.choice(["'fill'", "'clip'", "'wrap'", "None"])
        fill = ", fill_value=0.25"
        return f"v = v + fit(jnp.take(v, {_i32(_idx(rng, h, k))}, mode={mode}{fill}), {h}) * 0.5"
    if kind == 8:
        i2 = rng.randint(-h - 1, h + 2, size=(2, k))
        mode = rng.choice(["'fill'", "'clip'", "None"])
        fill = ", fill_value=-0.5"
        return f"v = v + fit(jnp.take_along_axis(jnp.outer(v[:2], U), {_i32(i2)}, axis={rng.choice([1, -1])}, mode={mode}{fill}).sum(0), {h})"
    if kind == 9:
        seg = rng.randint(-1, 5, size=h)
        ns = int(rng.randint(1, 5))
        srt = "" if rng.rand() < 0.7 else ", indices_are_sorted=False"
        return f"v = v + fit(jx.ops.segment_sum(v * U, {_i32(seg)}, num_segments={ns}{srt}), {h})"
    if kind == 10:
        seg = rng.randint(-1, 5, size=h)
        ns = int(rng.randint(1, 5))
        op = rng.choice(["segment_max", "segment_min"])
        return f"sm = jx.ops.{op}(v + U, {_i32(seg)}, num_segments={ns})\n    v = v + fit(jnp.where(jnp.isfinite(sm), sm, 0.0), {h})"
    if kind == 11:
        s = rng.choice([str(int(rng.randint(-3, h + 3))), f"yi + {c}", f"yi * 2 - {abs(c)}"])
        return f"v = v + fit(lax.dynamic_slice(v * U, ({s},), ({k},)), {h})"
    if kind == 12:
        s = rng.choice([str(int(rng.randint(-3, h + 3))), f"yi + {c}"])
        # the update is not a slice of the operand: XLA:CPU's jit miscomputes
        # dynamic_update_slice(c, c[:n] * 0.5, (1,)) of a cumsum c (docs/compat.md)
        return f"v = lax.dynamic_update_slice(v, jnp.tanh(U[:{k}]) * v.sum(), ({s},))"
    if kind == 13:
        return f"v = v + jx.nn.one_hot(yi + {c}, {h}) * U"
    if kind == 14:
        return "v = jx.nn.log_softmax(v)"
    if kind == 15:
        b = rng.choice(["", ", b=jnp.abs(U) + 0.1"])
        return (
            f"v = v - jx.nn.logsumexp(v{b}) * 0.5"
            if b == ""
            else f"v = v - jx.scipy.special.logsumexp(v{b}) * 0.5"
        )
    if kind == 16:
        return "v = softclip(v) + v * 0.1"
    if kind == 17:
        return "v = clipgrad(v * U + v)"
    if kind == 18:
        return "v = v + lax.stop_gradient(v * v) * 0.1"
    if kind == 19:
        pol = rng.choice(
            [
                "None",
                "jx.checkpoint_policies.nothing_saveable",
                "jx.checkpoint_policies.everything_saveable",
                "jx.checkpoint_policies.dots_with_no_batch_dims_saveable",
                "jx.checkpoint_policies.save_only_these_names('hid')",
            ]
        )
        return f"v = jx.checkpoint(lambda a, u: checkpoint_name(jnp.sin(a) * u, 'hid') + a * 0.5, policy={pol})(v, U)"
    if kind == 20:
        return "v = lax.cond(yi % 2 == 0, lambda a: a * 1.5, lambda a: jnp.cos(a) + a, v)"
    if kind == 21:
        return f"v = jnp.{rng.choice(['cumsum', 'cumprod'])}(v * 0.5)"
    if kind == 22:
        return "v = jnp.sort(v) * 0.5 + v * 0.5"
    if kind == 23:
        fill = rng.choice([", fill_value=0.0", ", fill_value=2.0"])
        return f"v = v + v.at[yi + {c}].get(mode='fill'{fill})"
    if kind == 24:
        return f"v = jnp.where(jnp.arange({h}) < yi + {c}, v, -v)"
    if kind == 25:
        mode = rng.choice(["None", "'drop'", "'clip'"])
        return f"v = v.at[yi * 2 + {c}].add(U[0], mode={mode})"
    if kind == 26:
        return "v = (v - v.mean()) / jnp.sqrt(v.var() + 1e-2)"
    if kind == 27:
        return f"v = jnp.clip(v, -{rng.uniform(0.5, 2):.2f}, {rng.uniform(0.5, 2):.2f})"
    if kind == 28:
        return "v = lax.fori_loop(0, 2, lambda i, a: a * 0.75 + jnp.roll(a, i) * 0.25, v)"
    if kind == 29:
        return "v, _s = lax.scan(lambda cc, u: (cc * 0.5 + u, cc.sum()), v, jnp.stack([U, -U]))\n    v = v + _s[1] * 0.1"
    if kind == 31:
        # an embedding lookup by plain indexing (out-of-range and negative tokens)
        tok = rng.randint(-h - 2, h + 3, size=(2,))
        return f"tab = jnp.outer(U, v[:2])\n    v = v + fit(tab[jnp.concatenate([{_i32(tok)}, jnp.stack([yi])])].sum(0), {h})"
    if kind == 32:
        return f"q = v[:, None] * U[None, :]\n    q = jnp.where(jnp.arange({h})[None, :] <= jnp.arange({h})[:, None] + yi, q, -1e9)\n    v = jx.nn.softmax(q, axis=-1) @ v + v"
    if kind == 33:
        return "v = jnp.einsum('i,ij->j', v, jnp.outer(U, v) * 0.1) + v"
    if kind == 34:
        return f"v = v + jx.nn.softmax(v * U, where=jnp.arange({h}) != yi + {c}) * 0.5"
    # 30: a gather with a traced index vector
    return f"v = v + jnp.take(v, (jnp.arange({k}) + yi * {c}) % {h}, mode='clip').sum() * 0.1"


def gen_steps(rng):
    h = int(rng.randint(3, 7))
    d = int(rng.randint(2, 4))
    b = int(rng.randint(2, 4))
    t = int(rng.randint(2, 4))
    ncls = 3
    struct = rng.choice(sorted(_STRUCTS))
    ctor, aw, ab, au = _STRUCTS[struct]
    params = ctor.format(
        w=_f32(rng.uniform(-1, 1, (d, h))),
        b=_f32(rng.uniform(-0.5, 0.5, h)),
        u=_f32(rng.uniform(-1, 1, h)),
    )
    blocks = [_block(rng, h) for _ in range(rng.randint(2, 6))]
    batching = rng.choice(["vmap", "vmap", "map", "loop"])
    if batching == "vmap" and rng.rand() < 0.4:
        coll = rng.choice(
            [
                "v = v - lax.pmean(v, 'b') * 0.5",
                "v = v * jnp.float32(1) + lax.psum(v[0], 'b') * 0.1",
                "v = v + lax.all_gather(v, 'b').mean(0) * 0.3",
                "v = v * (1.0 + 0.1 * lax.axis_index('b'))",
            ]
        )
        blocks.insert(rng.randint(0, len(blocks) + 1), coll)
    body = "\n    ".join(blocks)
    ex_loss = (
        f"def ex_loss(p, xi, yi):\n"
        f"    U = {au}\n"
        f"    v = jnp.tanh(xi @ {aw} + {ab})\n"
        f"    {body}\n"
        f"    logits = fit(v, {ncls})\n"
        f"    l = jx.nn.logsumexp(logits) - jnp.take(logits, yi, mode='clip')\n"
        f"    return l + 0.01 * jnp.sum(U ** 2), (v.sum(), jnp.max(logits))\n"
    )
    if batching == "vmap":
        batch = "ls, aux = jx.vmap(ex_loss, in_axes=(None, 0, 0), axis_name='b')(p, xb, yb)"
    elif batching == "map":
        bs = rng.choice(["", f", batch_size={rng.randint(1, b + 1)}"])
        batch = f"ls, aux = lax.map(lambda e: ex_loss(p, e[0], e[1]), (xb, yb){bs})"
    else:
        batch = (
            f"outs = [ex_loss(p, xb[j], yb[j]) for j in range({b})]\n"
            "    ls = jnp.stack([o[0] for o in outs])\n"
            "    aux = jx.tree_util.tree_map(lambda *a: jnp.stack(a), *[o[1] for o in outs])"
        )
    batch_loss = f"def batch_loss(p, xb, yb):\n    {batch}\n    return ls.mean(), aux\n"
    grad = rng.choice(["vg", "per_ex", "vg_jit"])
    if grad == "vg":
        g = "(l, aux), g = jx.value_and_grad(batch_loss, has_aux=True)(p, xb, yb)"
    elif grad == "vg_jit":
        g = "(l, aux), g = jx.jit(jx.value_and_grad(batch_loss, has_aux=True))(p, xb, yb)"
    else:
        g = (
            "gs, aux = jx.vmap(jx.grad(ex_loss, has_aux=True), in_axes=(None, 0, 0), axis_name='b')(p, xb, yb)\n"
            "        g = jx.tree_util.tree_map(lambda a: a.mean(0), gs)\n"
            "        l = jx.vmap(lambda xi, yi: ex_loss(p, xi, yi)[0], axis_name='b')(xb, yb).mean()"
        )
    if rng.rand() < 0.3:  # clipping by the global norm
        g += (
            "\n        gn = jnp.sqrt(sum(jnp.sum(x ** 2) for x in jx.tree_util.tree_leaves(g)))"
            "\n        g = jx.tree_util.tree_map(lambda x: x * jnp.minimum(1.0, 0.5 / (gn + 1e-6)), g)"
        )
    opt = rng.choice(["sgd", "adam"])
    lr = f"{rng.choice([0.05, 0.1, 0.3])}"
    if opt == "sgd":
        upd = f"p = jx.tree_util.tree_map(lambda a, b: a - {lr} * b, p, g)\n        st = st"
        init_st = "st = jnp.zeros((), 'float32')"
    else:
        upd = (
            "m, s = st\n"
            "        m = jx.tree_util.tree_map(lambda m, g: 0.9 * m + 0.1 * g, m, g)\n"
            "        s = jx.tree_util.tree_map(lambda s, g: 0.99 * s + 0.01 * g * g, s, g)\n"
            f"        p = jx.tree_util.tree_map(lambda a, m, s: a - {lr} * m / (jnp.sqrt(s) + 0.1), p, m, s)\n"
            "        st = (m, s)"
        )
        init_st = "st = (jx.tree_util.tree_map(jnp.zeros_like, p), jx.tree_util.tree_map(jnp.zeros_like, p))"
    step = f"def step(p, st, xb, yb):\n        {g}\n        {upd}\n        return p, st, l, aux\n"
    loop = rng.choice(["scan", "fori", "python"])
    if loop == "scan":
        train = (
            "def train(p, xs, ys):\n"
            f"    {init_st}\n"
            f"    {step}"
            "    def body(c, e):\n"
            "        p, st = c\n"
            "        p, st, l, aux = step(p, st, e[0], e[1])\n"
            "        return (p, st), (l, aux)\n"
            "    (p, st), (ls, aux) = lax.scan(body, (p, st), (xs, ys))\n"
            "    return p, st, ls, aux\n"
        )
    elif loop == "fori":
        train = (
            "def train(p, xs, ys):\n"
            f"    {init_st}\n"
            f"    {step}"
            "    def body(i, c):\n"
            "        p, st, tot = c\n"
            "        p, st, l, aux = step(p, st, xs[i], ys[i])\n"
            "        return p, st, tot + l\n"
            f"    p, st, tot = lax.fori_loop(0, {t}, body, (p, st, jnp.zeros((), 'float32')))\n"
            "    return p, st, tot\n"
        )
    else:
        train = (
            "def train(p, xs, ys):\n"
            f"    {init_st}\n"
            f"    {step}"
            "    ls = []\n"
            f"    for i in range({t}):\n"
            "        p, st, l, aux = step(p, st, xs[i], ys[i])\n"
            "        ls.append(l)\n"
            "    return p, st, jnp.stack(ls), aux\n"
        )
    wrap = rng.choice(["jit", "jit", "donate", "eager"])
    call = {"jit": "jx.jit(train)", "donate": "jx.jit(train, donate_argnums=0)", "eager": "train"}[
        wrap
    ]
    xs = _f32(rng.uniform(-1, 1, (t, b, d)))
    ys = _i32(rng.randint(-1, ncls + 1, (t, b)))
    src = (
        _HELPERS
        + ex_loss
        + batch_loss
        + train
        + f"def run():\n  with jx.enable_x64({rng.rand() < 0.3}):\n    p0 = {params}\n    return {call}(p0, {xs}, {ys})\n"
    )
    if "enable_x64(True)" in src:  # float64 parameters and data
        src = src.replace("dtype='float32'", "dtype='float64'").replace("'float32')", "'float64')")
    return src


# ------------------------------------------------------------------ random_in_loops
def _rand_use(rng, n):
    """A statement drawing from ``sub`` and producing ``z`` (float32[n]) that depends on
    ``w`` (float32[n]) differentiably."""
    kind = rng.randint(0, 9)
    if kind == 0:
        p = rng.choice([0.3, 0.5, 0.8])
        return (
            f"keep = jx.random.bernoulli(sub, {p}, ({n},))\n    z = jnp.where(keep, w / {p}, 0.0)"
        )
    if kind == 1:
        return f"z = w[jx.random.permutation(sub, {n})] * 1.0"
    if kind == 2:
        return "z = jx.random.permutation(sub, w) * 1.5"
    if kind == 3:
        return f"c = jx.random.categorical(sub, w, shape=({n},))\n    z = w[c] + jnp.take(w, c + 1, mode='clip')"
    if kind == 4:
        return f"z = w + 0.1 * jx.random.normal(sub, ({n},))"
    if kind == 5:
        return f"z = w * jx.random.uniform(sub, ({n},), minval=0.5, maxval=1.5)"
    if kind == 6:
        k = int(rng.randint(1, n + 1))
        rep = rng.choice(["True", "False"])
        return (
            f"ch = jx.random.choice(sub, {n}, ({k},), replace={rep})\n    z = w.at[ch].add(1.0) * w"
        )
    if kind == 7:
        return f"z = w * jx.random.truncated_normal(sub, -1.0, 1.0, ({n},))"
    return f"g = jx.random.gumbel(sub, ({n},))\n    z = jx.nn.softmax(w + g) * {n}.0 * w"


def gen_random(rng):
    n = int(rng.randint(2, 6))
    t = int(rng.randint(2, 5))
    typed = rng.rand() < 0.5
    key0 = (
        f"jx.random.key({rng.randint(0, 1000)})"
        if typed
        else f"jx.random.PRNGKey({rng.randint(0, 1000)})"
    )
    kd = "jx.random.key_data" if typed else "(lambda k: k)"
    derive = rng.choice(["split", "split3", "fold_in"])
    if derive == "split":
        dk = "key, sub = jx.random.split(key)"
    elif derive == "split3":
        dk = "key, sub, _unused = jx.random.split(key, 3)"
    else:
        dk = "sub = jx.random.fold_in(key, i)"
    use = _rand_use(rng, n)
    use2 = _rand_use(rng, n)
    lr = rng.choice([0.1, 0.2])
    loss = (
        "def loss(w, sub):\n"
        f"    {use}\n"
        "    sub = jx.random.fold_in(sub, 7)\n"
        "    w = jnp.sin(z)\n"
        f"    {use2}\n"
        "    return jnp.sum(z ** 2) * 0.5 + jnp.sum(jnp.cos(z)), z\n"
    )
    grad = rng.choice(["vg", "jit_vg", "vmap_keys"])
    if grad == "vg":
        g = "(l, z), gw = jx.value_and_grad(loss, has_aux=True)(w, sub)"
    elif grad == "jit_vg":
        g = "(l, z), gw = jx.jit(jx.value_and_grad(loss, has_aux=True))(w, sub)"
    else:
        g = (
            "subs = jx.random.split(sub, 3)\n"
            "        (ls_, z), gws = jx.vmap(jx.value_and_grad(loss, has_aux=True), in_axes=(None, 0))(w, subs)\n"
            "        l, gw = ls_.mean(), gws.mean(0)"
        )
    loop = rng.choice(["scan", "fori", "while"])
    if loop == "scan":
        drv = dk
        prog = (
            "def train(w, key):\n"
            "    def body(c, i):\n"
            "        w, key = c\n"
            f"        {drv}\n"
            f"        {g}\n"
            f"        w = w - {lr} * gw\n"
            "        return (w, key), (l, z)\n"
            f"    (w, key), (ls, zs) = lax.scan(body, (w, key), jnp.arange({t}))\n"
            f"    return w, {kd}(key), ls, zs\n"
        )
    elif loop == "fori":
        prog = (
            "def train(w, key):\n"
            "    def body(i, c):\n"
            "        w, key, acc = c\n"
            f"        {dk}\n"
            f"        {g}\n"
            f"        w = w - {lr} * gw\n"
            "        return w, key, acc + l\n"
            f"    w, key, acc = lax.fori_loop(0, {t}, body, (w, key, jnp.zeros((), 'float32')))\n"
            f"    return w, {kd}(key), acc\n"
        )
    else:
        prog = (
            "def train(w, key):\n"
            "    def cond(c):\n"
            f"        return c[0] < {t}\n"
            "    def body(c):\n"
            "        i, w, key, acc = c\n"
            f"        {dk}\n"
            f"        {g}\n"
            f"        w = w - {lr} * gw\n"
            "        return i + 1, w, key, acc + l\n"
            "    i, w, key, acc = lax.while_loop(cond, body, (0, w, key, jnp.zeros((), 'float32')))\n"
            f"    return i, w, {kd}(key), acc\n"
        )
    outer = rng.choice(["jit", "eager", "vmap_w", "vmap_key"])
    w0 = _f32(rng.uniform(-1, 1, n))
    if outer == "jit":
        call = f"jx.jit(train)({w0}, {key0})"
    elif outer == "eager":
        call = f"train({w0}, {key0})"
    elif outer == "vmap_w":
        call = f"jx.jit(jx.vmap(train, in_axes=(0, None)))(jnp.stack([{w0}, -{w0}]), {key0})"
    else:
        call = f"jx.vmap(train, in_axes=(None, 0))({w0}, jx.random.split({key0}, 2))"
    return _HELPERS + loss + prog + f"def run():\n    return {call}\n"


# ---------------------------------------------------------------------------- trees
def _tree(rng, depth=0):
    """Source of a random pytree of float32 arrays (leading dimension 2 on every leaf) and
    ``None`` leaves."""
    kind = rng.randint(0, 6) if depth < 2 else 0
    if kind in (0, 1):
        shape = (2,) + tuple(int(s) for s in rng.randint(1, 4, size=rng.randint(0, 2)))
        return _f32(rng.uniform(-1, 1, shape))
    n = int(rng.randint(1, 3))
    kids = [_tree(rng, depth + 1) for _ in range(n)]
    if kind == 2:
        return (
            "{"
            + ", ".join(f"'k{j}': {c}" for j, c in enumerate(kids))
            + (", 'none': None}" if rng.rand() < 0.3 else "}")
        )
    if kind == 3:
        return "(" + ", ".join(kids) + ",)"
    if kind == 4:
        return "[" + ", ".join(kids) + (", None]" if rng.rand() < 0.3 else "]")
    return f"P({kids[0]}, {kids[-1]}, None)"


def gen_trees(rng):
    tree = _tree(rng)
    kind = rng.randint(0, 10)
    if kind == 0:
        # in_axes as a prefix: the tree mapped, a second argument broadcast
        out_axes = rng.choice(["0", "1", "-1", "(0, None)"])
        if out_axes == "(0, None)":
            body = "def f(t, s):\n    return jx.tree_util.tree_map(lambda a: jnp.sin(a) * s, t), s * 2.0\n"
        else:
            body = "def f(t, s):\n    return jx.tree_util.tree_map(lambda a: jnp.sin(a) * s, t)\n"
        return (
            _HELPERS
            + body
            + f"def run():\n    t = {tree}\n    return jx.jit(jx.vmap(f, in_axes=(0, None), out_axes={out_axes}))(t, jnp.float32(1.5))\n"
        )
    if kind == 1:
        # flatten / unflatten round trip through jit
        return (
            _HELPERS
            + "def f(leaves, aux):\n    return [jnp.cos(l) for l in leaves]\n"
            + f"def run():\n    t = {tree}\n    leaves, td = jx.tree_util.tree_flatten(t)\n"
            + "    out = jx.jit(f, static_argnums=1)(leaves, 3)\n"
            + "    back = jx.tree_util.tree_unflatten(td, out)\n"
            + "    return back, td == jx.tree_util.tree_structure(back)\n"
        )
    if kind == 2:
        # ravel_pytree round trip, grad through the flat vector
        return (
            _HELPERS
            + f"def run():\n    t = {tree}\n"
            + "    flat, unravel = ravel_pytree(t)\n"
            + "    g = jx.grad(lambda v: sum(jnp.sum(jnp.sin(l)) for l in jx.tree_util.tree_leaves(unravel(v))))(flat)\n"
            + "    return flat, unravel(g), jx.jit(lambda v: unravel(v * 2.0))(flat)\n"
        )
    if kind == 3:
        # tree_map with is_leaf stopping at tuples
        return (
            _HELPERS
            + f"def run():\n    t = {{'a': {tree}, 'b': ({_f32(rng.uniform(-1, 1, (2,)))}, {_f32(rng.uniform(-1, 1, (2,)))})}}\n"
            + "    f = jx.jit(lambda t: jx.tree_util.tree_map(lambda x: jnp.stack(x).sum(0) if isinstance(x, tuple) else x * 2.0, t, is_leaf=lambda x: isinstance(x, tuple)))\n"
            + "    return f(t), jx.tree_util.tree_structure(f(t)) == jx.tree_util.tree_structure(jx.tree_util.tree_map(lambda x: x, f(t)))\n"
        )
    if kind == 4:
        # tree_transpose of a list of dicts of per-step outputs
        n = int(rng.randint(1, 4))
        return (
            _HELPERS
            + f"def run():\n    t = {tree}\n"
            + f"    steps = [jx.tree_util.tree_map(lambda a: a * (j + 1.0), {{'x': t, 'y': jnp.float32(j)}}) for j in range({n})]\n"
            + f"    outer = jx.tree_util.tree_structure([0] * {n})\n"
            + "    inner = jx.tree_util.tree_structure({'x': jx.tree_util.tree_map(lambda a: 0, t), 'y': 0})\n"
            + "    tt = jx.tree_util.tree_transpose(outer, inner, steps)\n"
            + "    return jx.jit(lambda tt: jx.tree_util.tree_map(lambda *a: a, tt['x'], tt['x']))(tt), tt['y']\n"
        )
    if kind == 5:
        # static hashable pytree arguments (tuples of tuples) by name and position
        sc = tuple(int(x) for x in rng.randint(1, 4, size=2))
        return (
            _HELPERS
            + "def f(t, cfg, *, scale=(1.0, (2.0,))):\n"
            + "    return jx.tree_util.tree_map(lambda a: a * cfg[0] + scale[1][0] - cfg[1], t)\n"
            + f"def run():\n    t = {tree}\n"
            + "    g = jx.jit(f, static_argnums=1, static_argnames='scale')\n"
            + f"    return g(t, {sc}, scale=(0.5, (3.0,))), g(t, {sc}), g(t, ({sc[1]}, {sc[0]}), scale=(0.5, (3.0,)))\n"
        )
    if kind == 6:
        # donate_argnums with a pytree argument, a second call reusing the output
        return (
            _HELPERS
            + "def upd(t, g):\n    return jx.tree_util.tree_map(lambda a, b: a - 0.1 * b, t, g)\n"
            + f"def run():\n    t = {tree}\n"
            + "    u = jx.jit(upd, donate_argnums=(0,))\n"
            + "    g = jx.tree_util.tree_map(jnp.ones_like, t)\n"
            + "    t1 = u(jx.tree_util.tree_map(lambda a: a + 0.0, t), g)\n"
            + "    return u(t1, g)\n"
        )
    if kind == 7:
        # vmap with in_axes as a pytree prefix with None entries, over a dict argument
        return (
            _HELPERS
            + "def f(d):\n    return jx.tree_util.tree_map(lambda a: a * d['s'], d['t']), d['s'] + 1.0\n"
            + f"def run():\n    t = {tree}\n"
            + "    d = {'t': t, 's': jnp.float32(2.0)}\n"
            + f"    return jx.vmap(f, in_axes=({{'t': {rng.choice(['0', '-1', '1'])}, 's': None}},), out_axes=({rng.choice(['0', '-1'])}, None))(d)\n"
        )
    if kind == 8:
        # jacrev / jacfwd of a pytree-to-pytree function
        jac = rng.choice(["jacrev", "jacfwd"])
        return (
            _HELPERS
            + "def f(t):\n    l = jx.tree_util.tree_leaves(t)\n    return {'s': sum(jnp.sum(jnp.sin(a)) for a in l), 'first': l[0][0] * 2.0}\n"
            + f"def run():\n    t = {tree}\n"
            + f"    return jx.jit(jx.{jac}(f))(t)\n"
        )
    # 9: keys with paths, tree_reduce, leaves_with_path through jit
    return (
        _HELPERS
        + f"def run():\n    t = {tree}\n"
        + "    kl = jx.tree_util.tree_leaves_with_path(t)\n"
        + "    names = [jx.tree_util.keystr(k) for k, _ in kl]\n"
        + "    tot = jx.jit(lambda t: jx.tree_util.tree_reduce(lambda a, b: a + jnp.sum(b), t, jnp.float32(0)))(t)\n"
        + "    return tot, [len(n) for n in names], jx.tree_util.tree_map_with_path(lambda k, a: a * len(k), t)\n"
    )


GENERATORS = {"steps": gen_steps, "random_in_loops": gen_random, "trees": gen_trees}

# a few training steps amplify last-bit differences of float32 (NumPy's and XLA's
# transcendental kernels, docs/compat.md) by small factors
_TOLS = {"float16": 3e-2, "bfloat16": 3e-2, "float32": 1e-4, "float64": 1e-10}


def check(name, seed):
    """(difference or None, program) of one seed of one generator; the generator runs on
    its own ``RandomState(seed)`` (so it also runs without JAX)."""
    src = GENERATORS[name](np.random.RandomState(seed))
    return fuzz_s22.difference(src, _TOLS, signs=False), src


def hunt(name, seeds):
    """``[(seed, difference, program)]`` for the seeds whose programs disagree."""
    found = []
    for s in seeds:
        d, src = check(name, s)
        if d:
            found.append((s, d, src))
    return found


if __name__ == "__main__":
    name, first, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    for seed in range(first, first + count):  # printed as found (a run may be cut short)
        d, src = check(name, seed)
        if d:
            print(f"--- {name} seed {seed}: {d}\n{src}", flush=True)
        elif len(sys.argv) > 4:  # "errors": the programs both engines refuse
            kind, res = run(fuzz_s22._build(src), LITE)
            if kind == "err":
                print(f"... {name} seed {seed} raises {res!r:.300}", flush=True)
    print(f"=== {name} {first}..{first + count - 1} done", flush=True)
