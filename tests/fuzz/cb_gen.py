"""The callback fuzzer's program generator: seeded random programs that place host callbacks
(``pure_callback`` with each ``vmap_method``, ``io_callback`` ordered or not,
``debug.callback``, ``debug.print``) inside random stacks of transformations and control flow.

A program is a tree of ``Node``s rendered to Python source: ``def f(x, y)`` whose body
transforms one value ``v`` statement by statement. A wrapper node (``jit``, ``vmap``,
``grad``, ``scan``, ``while``, ``cond``, ``custom_jvp``...) renders its bodies as nested
``def``s (each with its own ``v``) and applies them; a ``site`` node is one callback; a
``let`` node defines a closure variable ``w<uid>`` that nested bodies may pass to callbacks
(an operand that an inner ``vmap`` does not batch). Arithmetic multiplies only by powers of
two, so both engines compute the same bits and the callback log compares exactly.

Every callback's host function is a ``Host`` (``cb_run.HOST``) created once per call site at
module level, so a site keeps one identity; it records its calls into ``LOG``.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field

import numpy as np

KINDS = ("pc", "io", "dc", "dp")
VMAP_METHODS = (
    "sequential",
    "sequential_unrolled",
    "expand_dims",
    "broadcast_all",
    "legacy_vectorized",
)
WRAPPERS = (
    "jit",
    "vmap",
    "grad",
    "vag",
    "jvp",
    "vjp",
    "lin",
    "checkpoint",
    "cjvp",
    "cvjp",
    "scan",
    "scanrows",
    "fori",
    "while",
    "cond",
    "switch",
)
_BODY_TAG = {("while", 1): "while_cond", ("cjvp", 1): "cjvp_rule", ("cvjp", 1): "cvjp_bwd"}
# Wrappers under which ``v`` carries a tangent (one more level of differentiation).
DIFF = {"grad": "rev", "vag": "rev", "vjp": "rev", "lin": "rev", "jvp": "fwd"}


@dataclass
class Node:
    kind: str  # "site", "let", "arith" or one of WRAPPERS
    uid: int
    p: dict = field(default_factory=dict)
    bodies: list = field(default_factory=list)  # list[list[Node]]


@dataclass
class Program:
    seed: int
    x: np.ndarray
    y: np.ndarray
    body: list
    repeat: int = 1  # calls of ``f`` (ordered chains continue across calls)
    top_jit: bool = False  # call ``jax.jit(f)`` (made once: a second call is a cache hit)
    no_jit: bool = False  # run under ``jax.disable_jit()`` (E11)

    def nodes(self):
        """Every node, depth first."""

        def walk(nodes):
            for n in nodes:
                yield n
                for b in n.bodies:
                    yield from walk(b)

        return list(walk(self.body))

    def sites(self) -> dict:
        """sid -> the site node."""
        return {n.p["sid"]: n for n in self.nodes() if n.kind == "site"}

    def tags(self) -> dict:
        """sid -> the kinds of the wrappers around the site, outermost first (a while
        loop's predicate is ``while_cond``, a custom rule ``cjvp_rule`` / ``cvjp_bwd``)."""
        out = {}

        def walk(nodes, tags):
            for n in nodes:
                if n.kind == "site":
                    out[n.p["sid"]] = tags
                for k, b in enumerate(n.bodies):
                    walk(b, tags + (_BODY_TAG.get((n.kind, k), n.kind),))

        walk(self.body, ())
        return out

    def var_tags(self) -> dict:
        """Closure variable -> the wrapper kinds around its definition (as ``tags``)."""
        out = {"y": ()}

        def walk(nodes, tags):
            for n in nodes:
                u = n.uid
                if n.kind == "let":
                    out[f"w{u}"] = tags
                elif n.kind == "vmap":
                    out[f"u{u}a"] = out[f"u{u}b"] = tags + ("vmap",)
                elif n.kind in ("scan", "scanrows", "fori"):
                    out[f"i{u}"] = tags + (n.kind,)
                elif n.kind == "while":
                    out[f"i{u}"] = tags + ("while",)
                elif n.kind in ("cjvp", "cvjp"):
                    out[f"p{u}"] = out[f"r{u}"] = tags + (_BODY_TAG[(n.kind, 1)],)
                for k, b in enumerate(n.bodies):
                    walk(b, tags + (_BODY_TAG.get((n.kind, k), n.kind),))

        walk(self.body, ())
        return out

    def source(self) -> str:
        return render(self)

    def copy(self) -> Program:
        return copy.deepcopy(self)


@dataclass
class Ctx:
    shape: tuple  # the shape of ``v`` in this scope
    vars: list  # closure variables: (expr, shape, dtype), dtype "float32" | "int32"
    ndiff: int = 0  # levels of differentiation whose tangent reaches ``v``
    rev: bool = False  # some enclosing level is reverse mode
    vmap: int = 0  # enclosing vmaps
    depth: int = 0
    tags: tuple = ()  # enclosing wrapper kinds, outermost first

    def inner(self, kind, **kw) -> Ctx:
        c = copy.copy(self)
        c.vars = list(self.vars)
        c.depth = self.depth + 1
        c.tags = self.tags + (kind,)
        for k, val in kw.items():
            setattr(c, k, val)
        return c


class Gen:
    """One program from one seed."""

    def __init__(self, seed: int, max_depth: int = 3, max_nodes: int = 4):
        self.rng = random.Random(seed)
        self.seed = seed
        self.max_depth = max_depth
        self.max_nodes = max_nodes
        self.uid = 0
        self.sid = 0

    def new_uid(self) -> int:
        self.uid += 1
        return self.uid

    def program(self) -> Program:
        r = self.rng
        shape = r.choice([(3,), (2, 3), (2,), (3, 2), (2, 2, 2)])
        n = int(np.prod(shape))
        x = (np.arange(n, dtype=np.float32).reshape(shape) * 0.5 - 1.0).astype(np.float32)
        y = np.array([1.5, -0.5], np.float32)
        ctx = Ctx(shape=shape, vars=[("y", (2,), "float32")])
        body = self.block(ctx, r.randint(2, self.max_nodes))
        repeat = 2 if r.random() < 0.3 else 1
        top_jit = r.random() < 0.25
        no_jit = r.random() < 0.1
        return Program(self.seed, x, y, body, repeat=repeat, top_jit=top_jit, no_jit=no_jit)

    # -- blocks ---------------------------------------------------------------------------

    def block(self, ctx: Ctx, n: int) -> list:
        out = []
        for _ in range(n):
            out.append(self.node(ctx))
        if not any(_has_site(x) for x in out):
            out.append(self.site(ctx))
        return out

    def node(self, ctx: Ctx) -> Node:
        r = self.rng
        roll = r.random()
        if ctx.depth < self.max_depth and roll < (0.55, 0.4, 0.25, 0.15)[ctx.depth]:
            return self.wrapper(ctx)
        if roll < 0.55:
            return self.let(ctx)
        if roll < 0.65:
            return Node("arith", self.new_uid(), dict(op=r.choice(ARITH)))
        return self.site(ctx)

    def let(self, ctx: Ctx) -> Node:
        node = Node("let", self.new_uid(), dict(int=self.rng.random() < 0.25))
        name = f"w{node.uid}"
        if node.p["int"]:
            ctx.vars.append((name, (), "int32"))
        else:
            ctx.vars.append((name, ctx.shape, "float32"))
        return node

    def sub(self, ctx: Ctx, lo: int = 1, hi: int = 2) -> list:
        return self.block(ctx, self.rng.randint(lo, hi))

    def wrapper(self, ctx: Ctx) -> Node:
        r = self.rng
        rank = len(ctx.shape)
        choices = list(WRAPPERS) + ["vmap", "vmap", "jit"]  # vmap is where most rules differ
        if rank == 0:
            choices = [k for k in choices if k not in ("vmap", "scanrows")]
        if ctx.rev and r.random() < 0.85:  # while_loop is not reverse-differentiable: rarely
            choices.remove("while")
        kind = r.choice(choices)
        node = Node(kind, self.new_uid())
        u = node.uid
        if kind == "jit":
            node.bodies = [self.sub(ctx.inner(kind))]
        elif kind == "vmap":
            axis = 0 if rank == 1 or r.random() < 0.6 else r.choice([1, -1])
            extra = r.choice(["none", "none", "dict"])
            inner_shape = tuple(d for i, d in enumerate(ctx.shape) if i != axis % rank)
            node.p = dict(axis=axis, extra=extra)
            ic = ctx.inner(kind, shape=inner_shape, vmap=ctx.vmap + 1)
            if extra == "dict":
                w = self._float_var(ctx)
                node.p["w"] = w[0]
                ic.vars.append((f"u{u}a", w[1], "float32"))
                ic.vars.append((f"u{u}b", inner_shape, "float32"))
            node.bodies = [self.sub(ic)]
        elif kind in DIFF:
            ic = ctx.inner(kind, ndiff=ctx.ndiff + 1, rev=ctx.rev or DIFF[kind] == "rev")
            node.bodies = [self.sub(ic)]
        elif kind == "checkpoint":
            node.p = dict(policy=r.choice([None, None, "nothing_saveable", "everything_saveable"]))
            node.bodies = [self.sub(ctx.inner(kind))]
        elif kind == "cjvp":
            body = self.sub(ctx.inner(kind, ndiff=0, rev=False))
            rc = ctx.inner("cjvp_rule", ndiff=max(ctx.ndiff - 1, 0))
            rc.vars.append((f"p{u}", ctx.shape, "float32"))
            rule = [self.site(rc, kinds=("dc", "dp", "dc", "dp", "io", "pc"))]
            node.bodies = [body, rule]
        elif kind == "cvjp":
            body = self.sub(ctx.inner(kind, ndiff=max(ctx.ndiff - 1, 0)))
            bc = ctx.inner("cvjp_bwd", ndiff=max(ctx.ndiff - 1, 0))
            bc.vars.append((f"r{u}", ctx.shape, "float32"))
            bwd = [self.site(bc, kinds=("dc", "dp", "dc", "dp", "io", "pc"))]
            node.bodies = [body, bwd]
        elif kind == "scan":
            node.p = dict(length=r.randint(1, 3), reverse=r.random() < 0.3, ys=r.random() < 0.5)
            ic = ctx.inner(kind)
            ic.vars.append((f"i{u}", (), "int32"))
            node.bodies = [self.sub(ic)]
        elif kind == "scanrows":
            ic = ctx.inner(kind, shape=ctx.shape[1:])
            ic.vars.append((f"i{u}", (), "int32"))
            node.bodies = [self.sub(ic)]
        elif kind == "fori":
            node.p = dict(n=r.randint(0, 3), traced=(not ctx.rev) and r.random() < 0.3)
            ic = ctx.inner(kind)
            ic.vars.append((f"i{u}", (), "int32"))
            node.bodies = [self.sub(ic)]
        elif kind == "while":
            node.p = dict(n=r.randint(0, 2), batched=r.random() < 0.5, live=r.random() < 0.5)
            ic = ctx.inner(kind)
            ic.vars.append((f"i{u}", (), "int32"))
            cc = ctx.inner("while_cond")
            cc.vars.append((f"i{u}", (), "int32"))
            ncond = r.choice([0, 1, 1, 2])
            node.bodies = [self.sub(ic), [self.site(cc) for _ in range(ncond)]]
        elif kind == "cond":
            node.p = dict(pred=self._pred(ctx))
            node.bodies = [self.sub(ctx.inner("cond")), self.sub(ctx.inner("cond"))]
        elif kind == "switch":
            node.p = dict(idx=r.choice(["v", "v", "var", "const", "oob"]))
            if node.p["idx"] == "var":
                node.p["var"] = self._any_var(ctx)[0]
            node.bodies = [self.sub(ctx.inner("switch"), 1, 2) for _ in range(3)]
        return node

    def _pred(self, ctx):
        r = self.rng
        k = r.choice(["v", "v", "var", "true"])
        if k == "var":
            return ("var", self._any_var(ctx)[0], r.choice([-0.5, 0.5, 2.0]))
        return (k, None, r.choice([-0.5, 0.5, 2.0]))

    def _float_var(self, ctx):
        return self.rng.choice([v for v in ctx.vars if v[2] == "float32"])

    def _any_var(self, ctx):
        return self.rng.choice(ctx.vars)

    # -- callback sites -------------------------------------------------------------------

    def site(self, ctx: Ctx, kinds=KINDS) -> Node:
        r = self.rng
        kind = r.choice(kinds)
        self.sid += 1
        p = dict(kind=kind, sid=self.sid)
        # the primary operand: ``v`` (batched by every enclosing vmap) or a closure variable
        if r.random() < 0.8:
            p["primary"] = "v"
        else:
            p["primary"] = self._float_var(ctx)[0]
        p["stopgrad"] = (
            p["primary"] == "v" and ctx.ndiff > 0 and kind in ("pc", "io") and (r.random() < 0.85)
        )
        extras = []
        for _ in range(r.choice([0, 0, 1, 1, 2])):
            pick = r.random()
            if pick < 0.55 and ctx.vars:
                extras.append(self._any_var(ctx)[0])
            elif pick < 0.7 and p["primary"] == "v":
                extras.append("v")
            else:
                extras.append(r.choice(["2.0", "3", "np.float32(0.5)", "np.int32(7)"]))
        p["extras"] = extras
        p["tree"] = r.random() < 0.3  # pass the operands as a pytree
        p["kw"] = r.random() < 0.25 and bool(extras)  # the last extra as a keyword argument
        p["raise_at"] = r.choice([0, 1]) if r.random() < 0.04 else None
        if kind in ("io", "dc", "dp"):
            p["ordered"] = r.random() < (0.2 if ctx.vmap else 0.45)
        if kind in ("pc", "io"):
            zero = kind == "io" or r.random() < 0.2
            p["nout"] = r.choice([1, 1, 2] + ([0] if zero else []))
            p["int_out"] = p["nout"] == 2 and r.random() < 0.3
            p["use"] = kind == "io" or r.random() < 0.75
        if kind == "pc":
            p["vmap_method"] = r.choice(VMAP_METHODS + ((None,) if r.random() < 0.3 else ()))
        if kind == "dc":
            p["static"] = r.random() < 0.3
        return Node("site", self.new_uid(), p)


ARITH = ("v * 2.0", "v * 0.5", "v + 1.0", "v - 1.5", "-v", "jnp.flip(v)", "v * 0.5 + 1.0")


def _has_site(node) -> bool:
    return node.kind == "site" or any(_has_site(c) for b in node.bodies for c in b)


def generate(seed: int) -> Program:
    return Gen(seed).program()


# -- rendering -----------------------------------------------------------------------------


def render(prog: Program) -> str:
    """The program as Python source: host objects, then ``def f(x, y)``."""
    lines = []
    for sid, n in sorted(prog.sites().items()):
        p = n.p
        opts = [f"{sid}", repr(p["kind"])]
        if p.get("ordered"):
            opts.append("ordered=True")
        if p.get("raise_at") is not None:
            opts.append(f"raise_at={p['raise_at']}")
        if p["kind"] in ("pc", "io"):
            opts.append(f"nout={p['nout']}")
            if p["int_out"]:
                opts.append("int_out=True")
        if p["kind"] != "dp":
            lines.append(f"H{sid} = Host({', '.join(opts)})")
    lines.append("")
    lines.append("")
    lines.append("def f(x, y):")
    lines.append("    v = x")
    lines += _block(prog.body, 1)
    lines.append("    return v")
    return "\n".join(lines) + "\n"


def _ind(k):
    return "    " * k


def _block(nodes, k) -> list:
    out = []
    for n in nodes:
        out += _node(n, k)
    return out


def _def(name, args, body, k, ret="v", pre=()):
    lines = [f"{_ind(k)}def {name}({args}):"]
    lines += [f"{_ind(k + 1)}{p}" for p in pre]
    lines += _block(body, k + 1)
    lines.append(f"{_ind(k + 1)}return {ret}")
    return lines


def _node(n: Node, k: int) -> list:
    i, u, p = _ind(k), n.uid, n.p
    if n.kind == "arith":
        return [f"{i}v = {p['op']}"]
    if n.kind == "let":
        if p["int"]:
            return [f"{i}w{u} = jnp.sum(v > 0).astype(jnp.int32)"]
        return [f"{i}w{u} = v * 2.0 - 1.0"]
    if n.kind == "site":
        return [i + s for s in _site(p)]
    b = n.bodies
    g = f"g{u}"
    if n.kind == "jit":
        return _def(g, "v", b[0], k) + [f"{i}v = jax.jit({g})(v)"]
    if n.kind == "vmap":
        ax = p["axis"]
        if p["extra"] == "dict":
            pre = [f'u{u}a, u{u}b = d["a"], d["b"]']
            call = (
                f'v = jax.vmap({g}, in_axes=({ax}, {{"a": None, "b": {ax}}}), out_axes={ax})'
                f'(v, {{"a": {p["w"]}, "b": v * 0.5}})'
            )
            return _def(g, "v, d", b[0], k, pre=pre) + [i + call]
        axes = "" if ax == 0 else f", in_axes={ax}, out_axes={ax}"
        return _def(g, "v", b[0], k) + [f"{i}v = jax.vmap({g}{axes})(v)"]
    if n.kind == "grad":
        return _def(g, "v", b[0], k) + [f"{i}v = jax.grad(lambda t: jnp.sum({g}(t)))(v)"]
    if n.kind == "vag":
        return _def(g, "v", b[0], k) + [
            f"{i}val, v = jax.value_and_grad(lambda t: jnp.sum({g}(t)))(v)",
            f"{i}v = v + val",
        ]
    if n.kind == "jvp":
        return _def(g, "v", b[0], k) + [
            f"{i}pr, tn = jax.jvp({g}, (v,), (jnp.ones_like(v),))",
            f"{i}v = pr + tn",
        ]
    if n.kind == "lin":
        return _def(g, "v", b[0], k) + [
            f"{i}pr, fl = jax.linearize({g}, v)",
            f"{i}v = pr + fl(jnp.ones_like(v))",
        ]
    if n.kind == "vjp":
        return _def(g, "v", b[0], k) + [
            f"{i}pr, pb = jax.vjp({g}, v)",
            f"{i}v = pr + pb(jnp.ones_like(pr))[0]",
        ]
    if n.kind == "checkpoint":
        pol = "" if p["policy"] is None else f", policy=jax.checkpoint_policies.{p['policy']}"
        return _def(g, "v", b[0], k) + [f"{i}v = jax.checkpoint({g}{pol})(v)"]
    if n.kind == "cjvp":
        rule = [f"(p{u},), (v,) = primals, tangents"]
        return (
            _def(g, "v", b[0], k)
            + [f"{i}c{u} = jax.custom_jvp({g})"]
            + _def(f"j{u}", "primals, tangents", b[1], k, ret=f"c{u}(p{u}), v * 2.0", pre=rule)
            + [f"{i}c{u}.defjvp(j{u})", f"{i}v = c{u}(v)"]
        )
    if n.kind == "cvjp":
        return (
            _def(g, "v", b[0], k)
            + [f"{i}c{u} = jax.custom_vjp({g})"]
            + [f"{i}def f{u}(v):", f"{i}    return {g}(v), v"]
            + _def(f"b{u}", f"r{u}, v", b[1], k, ret="(v * 2.0,)")
            + [f"{i}c{u}.defvjp(f{u}, b{u})", f"{i}v = c{u}(v)"]
        )
    # ``one_trip`` (set by the callback fuzzer's rules only, never generated): the loop runs
    # once, to predict what JAX runs once when it hoists an effect out of the loop
    if n.kind == "scan":
        rev = ", reverse=True" if p["reverse"] else ""
        length = 1 if p.get("one_trip") else p["length"]
        lines = _def(g, f"v, i{u}", b[0], k, ret="v, v * 0.5") + [
            f"{i}v, ys{u} = lax.scan({g}, v, jnp.arange({length}){rev})"
        ]
        if p["ys"]:
            lines.append(f"{i}v = v + ys{u}[0]")
        return lines
    if n.kind == "scanrows":
        if p.get("one_trip"):  # the first row only; the others pass through
            return _def(g, f"i{u}, v", b[0], k, ret=f"i{u} + 1, v") + [
                f"{i}_, v1 = lax.scan({g}, 0, v[:1])",
                f"{i}v = jnp.concatenate([v1, v[1:]])",
            ]
        return _def(g, f"i{u}, v", b[0], k, ret=f"i{u} + 1, v") + [f"{i}_, v = lax.scan({g}, 0, v)"]
    if n.kind == "fori":
        trips = 1 if p.get("one_trip") else p["n"]
        hi = f"jnp.int32({trips})" if p["traced"] else f"{trips}"
        return _def(g, f"i{u}, v", b[0], k) + [f"{i}v = lax.fori_loop(0, {hi}, {g}, v)"]
    if n.kind == "while":
        bound = f"{p['n']}"
        if p["batched"]:
            bound = f"{p['n']} + (jnp.sum(v) > 1.0).astype(jnp.int32)"
        pred = f"i{u} < {bound}"
        if p["live"]:
            pred = f"jnp.logical_and({pred}, jnp.sum(v) > -1e6)"
        return (
            _def(f"c{u}", "c", b[1], k, ret=pred, pre=[f"i{u}, v = c"])
            + _def(g, "c", b[0], k, ret=f"i{u} + 1, v", pre=[f"i{u}, v = c"])
            + [f"{i}_, v = lax.while_loop(c{u}, {g}, (0, v))"]
        )
    if n.kind == "cond":
        kind, var, thr = p["pred"]
        pred = {
            "v": f"jnp.sum(v) > {thr}",
            "var": f"jnp.sum({var}) > {thr}",
            "true": "True",
        }[kind]
        return (
            _def(f"{g}t", "v", b[0], k)
            + _def(f"{g}f", "v", b[1], k)
            + [f"{i}v = lax.cond({pred}, {g}t, {g}f, v)"]
        )
    if n.kind == "switch":
        idx = {
            "v": "(jnp.sum(v) > 0.5).astype(jnp.int32) + (jnp.sum(v) > 3.0).astype(jnp.int32)",
            "var": f"jnp.sum({p.get('var')}).astype(jnp.int32) % 3",
            "const": "1",
            "oob": "jnp.int32(5)",
        }[p["idx"]]
        lines = []
        for j, bj in enumerate(b):
            lines += _def(f"{g}_{j}", "v", bj, k)
        names = ", ".join(f"{g}_{j}" for j in range(len(b)))
        return lines + [f"{i}v = lax.switch({idx}, [{names}], v)"]
    raise ValueError(n.kind)


def _site(p) -> list:
    sid, kind = p["sid"], p["kind"]
    prim = "lax.stop_gradient(v)" if p.get("stopgrad") else p["primary"]
    ops = [prim] + list(p["extras"])
    kw = ""
    if p["kw"]:
        kw = f", k={ops.pop()}"
    if p["tree"]:
        args = f'{{"a": {ops[0]}, "b": ({", ".join(ops[1:])}{"," if len(ops) == 2 else ""})}}'
        if len(ops) == 1:
            args = f"[{ops[0]}, None]"
    else:
        args = ", ".join(ops)
    if kind == "dp":
        fields = " ".join("{}" for _ in range(1 if p["tree"] else len(ops)))
        kf = " {k}" if kw else ""
        ordered = ", ordered=True" if p.get("ordered") else ""
        return [f'jax.debug.print("s{sid} {fields}{kf}", {args}{kw}{ordered})']
    if kind == "dc":
        static = ', "st"' if p.get("static") else ""
        ordered = ", ordered=True" if p.get("ordered") else ""
        return [f"jax.debug.callback(H{sid}, {args}{static}{kw}{ordered})"]
    spec = f"jax.ShapeDtypeStruct(jnp.shape({prim}), jnp.float32)"
    nout = p["nout"]
    if nout == 0:
        specs = "None"
    elif nout == 1:
        specs = spec
    else:
        spec2 = spec.replace("jnp.float32", "jnp.int32") if p["int_out"] else spec
        specs = f'({spec}, {{"z": {spec2}}})'
    if kind == "pc":
        call = f"jax.pure_callback(H{sid}, {specs}, {args}{kw}, vmap_method={p['vmap_method']!r})"
    else:
        ordered = ", ordered=True" if p.get("ordered") else ""
        call = f"io_callback(H{sid}, {specs}, {args}{kw}{ordered})"
    if nout == 0 or not p["use"]:
        return [f"r = {call}" if nout else call]
    leaves = ["r"] if nout == 1 else ["r[0]", 'r[1]["z"].astype(jnp.float32)']
    if p["primary"] == "v":
        total = " + ".join(leaves)
        return [f"r = {call}", f"v = v + ({total}) * 0.5"]
    total = " + ".join(f"jnp.sum({leaf})" for leaf in leaves)
    return [f"r = {call}", f"v = v + ({total}) * 0.5"]
