"""Session 20 differential hunt (test code, not a test module): seeded random programs that
put host callbacks inside control flow and wrap them in random stacks of transformations,
run under JAX and jaxlite in one process, comparing the answers **and the host-callback
trace** (``shared/spec/callbacks.md``).

The callback fuzzer of tests/fuzz (``cb_gen``) draws one value ``v`` through ``jit``,
``vmap`` (axis 0/1/-1, same in and out), ``grad``/``jvp``/``vjp``/``linearize`` applied
once, ``checkpoint`` and loops over powers of two, and compares values, dtypes and calls.
The angles here are the ones it does not draw:

* outer stacks with ``jacfwd``, ``jacrev``, ``hessian``, a ``vjp`` pullback and a
  ``linearize`` linear map each applied **twice** (a callback in ``bwd`` / the linear part
  runs per application), ``value_and_grad``;
* ``vmap`` with ``out_axes`` unlike ``in_axes`` (0, 1, -1), ``in_axes=None`` with
  ``axis_size`` (F16: the callbacks run once), a batch made only of a closed-over factor,
  ``spmd_axis_name=None``;
* ``lax.scan`` with ``unroll`` (an int or ``True``), ``xs=None`` with ``length``, pytree
  carries, ``reverse``; ``fori_loop`` with ``unroll``; callbacks whose **results drive
  control flow** (a ``pure_callback`` / ``io_callback`` bool as a ``cond`` predicate or a
  ``while_loop`` predicate, an int32 result as a ``switch`` index);
* callback results of dtype float16 / int32 / bool / float32 and operands of several
  dtypes (Python scalars, int and bool arrays), the outputs' **weak types** compared too;
* ``custom_jvp`` with ``nondiff_argnums`` and a ``pure_callback`` derivative (G12),
  ``custom_vjp`` with callbacks in ``fwd`` and ``bwd`` (G9, G11), ``checkpoint`` with
  ``dots_saveable`` / ``save_only_these_names`` and ``checkpoint_name`` (H2).

Documented differences (docs/compat.md) are avoided by construction: loop bodies always
change their carry (no loop-invariant callback: the D7 and scan-under-reverse-AD rows), an
``io_callback`` in a loop under reverse-mode AD always feeds the carry, a while predicate
holds callbacks only outside ``vmap`` (the E8 row) and only ordered ones (the compiled
predicate row), no ``custom_jvp`` sits in a loop under a second derivative (the row on
second derivatives through loops of ``custom_jvp`` functions), no ``scan`` / ``fori_loop``
in a ``checkpoint`` in a loop under reverse mode over a backward pass (the row on JAX's loop
re-trace dropping a checkpoint's replays, seed 231097) and no ``checkpoint`` in a
``checkpoint`` there (the row on nested checkpoints at second order), no ``io_callback`` in a
``checkpoint`` under AD (H1); JAX's documented refusals (F11, F12, H1) count as documented
(``_DOCUMENTED``), and so does JAX's internal ``KeyError`` on a debug callback of a named
checkpoint output. A ``pure_callback`` may run more or fewer times (1.1, D7): only the
distinct argument values of its calls are compared.

``python -m tests.hunt.fuzz_s20 FIRST COUNT`` prints each disagreement with its program.
A generated program is source text that the harness executes (``jax``, ``jnp``, ``lax``,
``io_callback``, ``np`` bound to one library); jaxlite never executes generated text.
"""

from __future__ import annotations

import random
import sys

import numpy as np

from tests.hunt.oracle import builtin_base

HOST = '''
LOG = []


def _leaves(t):
    if t is None:
        return []
    if isinstance(t, dict):
        return [leaf for k in sorted(t) for leaf in _leaves(t[k])]
    if isinstance(t, (list, tuple)):
        return [leaf for e in t for leaf in _leaves(e)]
    return [t]


def _desc(t):
    if t is None:
        return None
    if isinstance(t, dict):
        return ("dict", tuple((k, _desc(t[k])) for k in sorted(t)))
    if isinstance(t, (list, tuple)):
        return (type(t).__name__, tuple(_desc(e) for e in t))
    if isinstance(t, str):
        return ("str", t)
    a = np.asarray(t)
    kind = "Array" if isinstance(t, jax.Array) else type(t).__name__
    return (kind, a.shape, str(a.dtype), bool(getattr(t, "weak_type", False)),
            a.astype(np.float64).ravel())


class Host:
    """One call site's host function: records each call and returns
    ``a0 * 0.5 + 1 + 0.25 * sum(other leaves)`` shaped as the first leaf, in ``dtype``
    (int32: the floor; bool: above 1)."""

    def __init__(self, sid, dtype=None, ordered=False):
        self.sid, self.dtype, self.ordered = sid, dtype, ordered

    def __call__(self, *args, **kwargs):
        LOG.append((self.sid, _desc((args, kwargs))))
        if self.dtype is None:
            return None
        leaves = [leaf for leaf in _leaves((args, kwargs)) if not isinstance(leaf, str)]
        a0 = np.asarray(leaves[0]).astype(np.float32)
        extra = sum(float(np.sum(np.asarray(leaf, np.float32))) for leaf in leaves[1:])
        r = (a0 * 0.5 + 1.0 + np.float32(extra * 0.25)).astype(np.float32)
        if self.dtype == "int32":
            return np.floor(r).astype(np.int32)
        if self.dtype == "bool":
            return r > 1.0
        return r.astype(self.dtype)
'''

_ARITH = (
    "v * 0.5 + 1.0",
    "jnp.sin(v) + v * 0.25",
    "jnp.tanh(v) * 2.0 - 0.5",
    "v * v * 0.25 + 0.5",
    "jnp.cos(v) - v",
)
_VM = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", "legacy_vectorized")
_DIFF = {"grad", "vag", "jacfwd", "jacrev", "hessian", "jvp", "vjp2", "lin2"}
_REV = {"grad", "vag", "jacrev", "hessian", "vjp2", "lin2"}
_VMAPS = {"vmap_stack", "vmap_none", "vmap_closure", "vmap_axis1"}


class Ctx:
    fwd = False  # some enclosing level is forward mode
    order2 = False  # the stack differentiates twice or more
    rev2 = False  # reverse mode (its partial evaluation) over a level with a backward pass

    def __init__(self, shape, ad, rev, vmapped, depth=0, loop=False, ckpt=False, idx=()):
        self.shape, self.ad, self.rev, self.vmapped = shape, ad, rev, vmapped
        self.depth, self.loop, self.ckpt, self.idx = depth, loop, ckpt, idx

    def inner(self, **kw):
        c = Ctx(self.shape, self.ad, self.rev, self.vmapped, self.depth + 1, self.loop,
                self.ckpt, self.idx)  # fmt: skip
        c.fwd, c.order2, c.rev2 = self.fwd, self.order2, self.rev2
        for k, val in kw.items():
            setattr(c, k, val)
        return c


class Gen:
    """One program from one seed: ``hosts`` (source lines) and ``f``'s body."""

    def __init__(self, seed):
        self.r = random.Random(seed)
        self.sid = 0
        self.uid = 0
        self.hosts = []
        self.ordered = {}  # sid -> "io" | "debug" for ordered sites
        self.pure = {0}  # pure_callback sites

    def new(self):
        self.uid += 1
        return self.uid

    # ---------------------------------------------------------------------------- sites
    def site(self, ctx, k, *, want=None, in_pred=False):
        """Lines of one callback site at indent ``k`` that update ``v``; ``want`` asks for
        a result of that role instead ("bool" predicate, "int" index): the lines then
        assign ``r``."""
        r = self.r
        self.sid += 1
        sid = self.sid
        i = "    " * k
        kinds = ["pc", "io", "dc"] if want is None else ["pc", "io"]
        if ctx.ckpt and ctx.ad:
            kinds = [x for x in kinds if x != "io"]  # H1: JAX refuses io in remat under AD
        kind = r.choice(kinds)
        if in_pred and kind == "io" and ctx.ad:
            kind = "pc"
        # operands: the first is v-derived (its shape is the result's)
        first = "v"
        if want is not None or r.random() < 0.3:
            first = "jnp.sum(v)"
        nodiff = ctx.ad and (kind != "dc") and r.random() < 0.93
        if nodiff:
            first = f"lax.stop_gradient({first})"
        ops = [first]
        for _ in range(r.choice([0, 0, 1, 2])):
            ops.append(r.choice(["2.0", "3", "np.float32(0.5)", "jnp.int32(4)", "v > 0.0",
                                 "(v * 2.0).astype(jnp.int32)", "jnp.float16(1.5)"]
                                + list(ctx.idx)))  # fmt: skip
        ops = [o if not ctx.ad or kind == "dc" or o in ctx.idx or "v" not in o
               or o.startswith("lax.stop")
               else f"lax.stop_gradient({o})" for o in ops]  # fmt: skip
        kw = ""
        if len(ops) > 1 and r.random() < 0.3:
            kw = f", k={ops.pop()}"
        args = ", ".join(ops)
        if r.random() < 0.2:
            args = f'{{"a": {ops[0]}, "b": [{", ".join(ops[1:])}]}}'
        if kind == "dc":
            ordered = r.random() < 0.4
            if in_pred:
                ordered = True  # compat row 23: XLA may drop an unordered one
            if ordered:
                self.ordered[sid] = "debug"
            self.hosts.append(f"H{sid} = Host({sid})")
            o = ", ordered=True" if ordered else ""
            return [f"{i}jax.debug.callback(H{sid}, {args}{kw}{o})"]
        if want == "bool":
            dt = "bool"
        elif want == "int":
            dt = "int32"
        else:
            dt = r.choice(["float32", "float32", "float16", "int32", "bool"])
        spec = f"jax.ShapeDtypeStruct(jnp.shape({ops[0]}), jnp.{'bool_' if dt == 'bool' else dt})"
        self.hosts.append(f"H{sid} = Host({sid}, {dt!r})")
        if kind == "pc":
            self.pure.add(sid)
            vm = r.choice(_VM + ((None,) if r.random() < 0.05 else ()))
            call = f"jax.pure_callback(H{sid}, {spec}, {args}{kw}, vmap_method={vm!r})"
        else:
            ordered = (not ctx.vmapped) and (in_pred or r.random() < 0.4)  # in_pred: row 23
            if ordered:
                self.ordered[sid] = "io"
            o = ", ordered=True" if ordered else ""
            call = f"io_callback(H{sid}, {spec}, {args}{kw}{o})"
        if want is not None:
            return [f"{i}r = {call}"]
        use = kind == "io" or ctx.loop or r.random() < 0.8
        if not use:
            return [f"{i}_ = {call}"]
        cast = "" if dt == "float32" else ".astype(jnp.float32)"
        return [f"{i}r = {call}", f"{i}v = v + r{cast} * 0.25"]

    # --------------------------------------------------------------------------- blocks
    def block(self, ctx, k, n=None):
        r = self.r
        lines = []
        n = n if n is not None else r.randint(1, 3)
        for _ in range(n):
            roll = r.random()
            if ctx.depth < 3 and roll < (0.6, 0.45, 0.25)[ctx.depth]:
                lines += self.wrapper(ctx, k)
            elif roll < 0.75:
                lines += self.site(ctx, k)
            else:
                lines.append("    " * k + f"v = {r.choice(_ARITH)}")
        return lines

    def _def(self, name, args, ctx, k, ret="v", pre=(), n=None, end_arith=False):
        i = "    " * k
        out = [f"{i}def {name}({args}):"] + [f"{i}    {p}" for p in pre]
        out += self.block(ctx, k + 1, n)
        if end_arith:  # a loop body always changes its carry (no loop-invariant callback)
            out.append(f"{i}    v = {self.r.choice(_ARITH)}")
        out.append(f"{i}    return {ret}")
        return out

    def aux(self, ctx):
        """Lines computing ``aux``, a value typed by Python scalars (weak) through control
        flow, with a callback on it now and then."""
        r = self.r
        u = self.new()
        site = []
        if r.random() < 0.6:
            self.sid += 1
            sid = self.sid
            ordered = r.random() < 0.4
            if ordered:
                self.ordered[sid] = "debug"
            self.hosts.append(f"H{sid} = Host({sid})")
            site = [f"        jax.debug.callback(H{sid}, c{', ordered=True' if ordered else ''})"]
        form = r.choice(["fori", "scan", "while", "cond", "where"])
        if form == "fori":
            init = r.choice(["1.0", "2", "jnp.float32(1.0)"])
            return ([f"    def a{u}(i, c):"] + site + ["        return c * 2 + 1"]
                    + [f"    aux = lax.fori_loop(0, {r.randint(0, 2)}, a{u}, {init})"])  # fmt: skip
        if form == "scan":
            init = r.choice(["1.0", "0", "jnp.int32(0)"])
            return ([f"    def a{u}(c, t):"] + site + ["        return c + 1, c * t"]
                    + [f"    _, aux = lax.scan(a{u}, {init}, jnp.arange(2.0))"])  # fmt: skip
        if form == "while":
            init = r.choice(["0", "0.5"])
            return ([f"    def a{u}(c):"] + site + ["        return c + 1"]
                    + [f"    aux = lax.while_loop(lambda c: c < 2, a{u}, {init})"])  # fmt: skip
        if form == "cond":
            a, b = r.choice([("1.0", "2.0"), ("1", "2"), ("1.0", "jnp.float32(2.0)")])
            return [f"    aux = lax.cond(jnp.sum(v) > 0.5, lambda: {a}, lambda: {b})"]
        return ["    aux = jnp.where(jnp.sum(v) > 0.5, 1.0, 2)"]

    def wrapper(self, ctx, k):
        r = self.r
        u = self.new()
        i = "    " * k
        kinds = ["scan", "scan", "fori", "while", "cond", "switch", "cjvp", "cvjp",
                 "checkpoint", "jit", "vmap"]  # fmt: skip
        if ctx.rev:
            kinds.remove("while")
        if ctx.fwd:  # forward mode refuses a custom_vjp function (JAX's TypeError)
            kinds.remove("cvjp")
        if ctx.loop and ctx.order2:  # compat.md: JAX's second order in a loop skips the rule
            kinds.remove("cjvp")
        if ctx.loop and ctx.ckpt and ctx.rev2:  # compat.md: JAX's loop re-trace drops replays
            kinds = [x for x in kinds if x not in ("scan", "fori")]
        if ctx.ckpt and ctx.rev2:  # compat.md: nested checkpoints at second order (seed 240171)
            kinds.remove("checkpoint")
        if not ctx.shape:
            kinds.remove("vmap")
        kind = r.choice(kinds)
        if kind == "jit":
            return self._def(f"g{u}", "v", ctx.inner(), k) + [f"{i}v = jax.jit(g{u})(v)"]
        if kind == "checkpoint":
            pol = r.choice([None, "nothing_saveable", "everything_saveable", "dots_saveable",
                            "names"])  # fmt: skip
            pre = []
            polt = ""
            if pol == "names":
                pre = [f"v = jax.ad_checkpoint.checkpoint_name(v * 1.0, 'n{u}')"]
                polt = f", policy=jax.checkpoint_policies.save_only_these_names('n{u}')"
            elif pol:
                polt = f", policy=jax.checkpoint_policies.{pol}"
            return self._def(f"g{u}", "v", ctx.inner(ckpt=True), k, pre=pre) + [
                f"{i}v = jax.checkpoint(g{u}{polt})(v)"
            ]
        if kind == "scan":
            length = r.randint(1, 3)
            unroll = r.choice([1, 1, 2, True])
            rev = r.random() < 0.3
            xs_kind = r.choice(["none", "arange", "tree"] + (["rows"] if ctx.shape else []))
            ic = ctx.inner(loop=True, idx=ctx.idx + (f"i{u}",))
            opts = f", reverse={rev}" if rev else ""
            opts += f", unroll={unroll}" if unroll != 1 else ""
            if xs_kind == "none":
                pre = [f"v, i{u} = c", f"i{u} = i{u} + 1"]
                body = self._def(f"g{u}", "c, _", ic, k, ret=f"(v, i{u}), v[..., :1] * 0.5"
                                 if ctx.shape else f"(v, i{u}), v * 0.5", pre=pre,
                                 end_arith=True)  # fmt: skip
                call = f"(v, _), ys{u} = lax.scan(g{u}, (v, jnp.int32(0)), None, "
                call += f"length={length}{opts})"
            elif xs_kind == "arange":
                body = self._def(f"g{u}", f"v, i{u}", ic, k, ret="v, jnp.sum(v)", end_arith=True)
                call = f"v, ys{u} = lax.scan(g{u}, v, jnp.arange({length}){opts})"
            elif xs_kind == "tree":
                pre = [f'i{u} = xs["i"]', 'v = v + xs["f"] * 0.5']
                body = self._def(f"g{u}", "v, xs", ic, k, ret="v, {'s': jnp.sum(v)}",
                                 pre=pre, end_arith=True)  # fmt: skip
                call = (f"v, ys{u} = lax.scan(g{u}, v, {{'i': jnp.arange({length}), "
                        f"'f': jnp.linspace(-1.0, 1.0, {length})}}{opts})")  # fmt: skip
            else:  # rows of v: the carry is a scalar accumulator
                rc = ic.inner(shape=ctx.shape[1:], idx=ctx.idx)
                pre = ["acc, v = c, row"]
                body = self._def(f"g{u}", "c, row", rc, k, ret="acc + jnp.sum(v), v",
                                 pre=pre, end_arith=True)  # fmt: skip
                call = f"_, v = lax.scan(g{u}, jnp.float32(0.0), v{opts})"
                return body + [f"{i}{call}"]
            out = body + [f"{i}{call}"]
            if r.random() < 0.5:
                out.append(f"{i}v = v + jnp.sum(jax.tree_util.tree_leaves(ys{u})[0]) * 0.125")
            return out
        if kind == "fori":
            n = r.randint(0, 3)
            unroll = r.choice([None, None, 2, True])
            ic = ctx.inner(loop=True, idx=ctx.idx + (f"i{u}",))
            opt = "" if unroll is None else f", unroll={unroll}"
            return self._def(f"g{u}", f"i{u}, v", ic, k, end_arith=True) + [
                f"{i}v = lax.fori_loop(0, {n}, g{u}, v{opt})"
            ]
        if kind == "while":
            n = r.randint(0, 2)
            ic = ctx.inner(loop=True, idx=ctx.idx + (f"i{u}",))
            pred_lines = [f"{i}    pr = i{u} < {n}"]
            if not ctx.vmapped and r.random() < 0.6:  # E8 row: no predicate callbacks in vmap
                if r.random() < 0.5:
                    pred_lines = self.site(ctx.inner(idx=ctx.idx + (f"i{u}",)), k + 1,
                                           want="bool", in_pred=True)  # fmt: skip
                    pred_lines.append(f"{i}    pr = jnp.logical_and(r, i{u} < {n})")
                else:
                    pred_lines += self.site(ctx.inner(idx=ctx.idx + (f"i{u}",)), k + 1,
                                            in_pred=True)  # fmt: skip
            cond = [f"{i}def c{u}(c):", f"{i}    i{u}, v = c"] + pred_lines + [f"{i}    return pr"]
            body = self._def(f"g{u}", "c", ic, k, ret=f"i{u} + 1, v",
                             pre=[f"i{u}, v = c"], end_arith=True)  # fmt: skip
            return cond + body + [f"{i}_, v = lax.while_loop(c{u}, g{u}, (0, v))"]
        if kind == "cond":
            lines = []
            if r.random() < 0.4:
                lines = self.site(ctx, k, want="bool")
                pred = "jnp.all(r)"
            else:
                pred = f"jnp.sum(v) > {r.choice([-0.5, 0.5, 2.0])}"
            t = self._def(f"g{u}t", "v", ctx.inner(), k)
            f = self._def(f"g{u}f", "v", ctx.inner(), k)
            return lines + t + f + [f"{i}v = lax.cond({pred}, g{u}t, g{u}f, v)"]
        if kind == "switch":
            lines = []
            if r.random() < 0.5:
                lines = self.site(ctx, k, want="int")
                idx = "jnp.sum(r)"
            else:
                idx = "(jnp.sum(v) > 0.5).astype(jnp.int32) + (jnp.sum(v) > 3.0).astype(jnp.int32)"
            bs = []
            for j in range(3):
                bs += self._def(f"g{u}_{j}", "v", ctx.inner(), k, n=1)
            names = ", ".join(f"g{u}_{j}" for j in range(3))
            return lines + bs + [f"{i}v = lax.switch({idx}, [{names}], v)"]
        if kind == "cjvp":
            nd = r.random() < 0.5
            body = self._def(f"g{u}", "v, s" if nd else "v", ctx.inner(), k)
            deco = ("functools.partial(jax.custom_jvp, nondiff_argnums=(1,))" if nd
                    else "jax.custom_jvp")  # fmt: skip
            rc = ctx.inner()
            rule = [f"{i}def j{u}({'s, ' if nd else ''}primals, tangents):",
                    f"{i}    (v,), (t,) = primals, tangents",
                    f"{i}    out = c{u}(v{', s' if nd else ''})"]  # fmt: skip
            rule += self.site(rc, k + 1)
            vm = r.choice(_VM)
            rule += [
                f"{i}    sc = jax.pure_callback(D, jax.ShapeDtypeStruct(jnp.shape(v), jnp.float32),"
                f" lax.stop_gradient(v), vmap_method={vm!r})",
                f"{i}    return out, t * sc",
            ]
            call = f"c{u}(v, 0.5)" if nd else f"c{u}(v)"
            return (
                body
                + [f"{i}c{u} = {deco}(g{u})"]
                + rule
                + [f"{i}c{u}.defjvp(j{u})", f"{i}v = {call}"]
            )
        if kind == "cvjp":
            body = self._def(f"g{u}", "v", ctx.inner(), k)
            fc = ctx.inner()
            fwd = (
                [f"{i}def f{u}(v):"] + self.site(fc, k + 1) + [f"{i}    return g{u}(v), (v * 1.0,)"]
            )
            bc = ctx.inner()
            bwd = (
                [f"{i}def b{u}(res, v):"]
                + self.site(bc, k + 1)
                + [f"{i}    return (v * jnp.cos(res[0]),)"]
            )
            return (
                body
                + [f"{i}c{u} = jax.custom_vjp(g{u})"]
                + fwd
                + bwd
                + [f"{i}c{u}.defvjp(f{u}, b{u})", f"{i}v = c{u}(v)"]
            )
        # vmap inside f
        rank = len(ctx.shape)
        form = r.choice(["axis", "stack", "none", "closure"])
        o = r.choice([0, 1, -1])
        sp = ", spmd_axis_name=None" if r.random() < 0.2 else ""
        if form == "axis":
            ax = r.randrange(-rank, rank)
            o = r.randrange(-rank, rank)
            inner = tuple(d for j, d in enumerate(ctx.shape) if j != ax % rank)
            ic = ctx.inner(shape=inner, vmapped=True)
            body = self._def(f"g{u}", "v", ic, k)
            out = f"jax.vmap(g{u}, in_axes={ax}, out_axes={o}{sp})(v)"
            # the batch axis goes back where it came from
            return body + [f"{i}v = jnp.moveaxis({out}, {o}, {ax})"]
        o = r.randrange(-(rank + 1), rank + 1)
        if form == "stack":
            ic = ctx.inner(vmapped=True)
            body = self._def(f"g{u}", "v, w", ic, k, pre=["v = v + w * 0.5"])
            out = (f"jax.vmap(g{u}, in_axes=(0, None), out_axes={o}{sp})"
                   f"(jnp.stack([v, v * 0.5 - 1.0]), jnp.float32(0.25))")  # fmt: skip
        elif form == "none":
            ic = ctx.inner()  # nothing batched: the callbacks run once (F16)
            body = self._def(f"g{u}", "v", ic, k)
            out = f"jax.vmap(g{u}, in_axes=None, out_axes={o}, axis_size=2{sp})(v)"
        else:
            ic = ctx.inner(vmapped=True)
            body = [f"{i}v{u} = v"] + self._def(f"g{u}", "kk", ic, k, pre=[f"v = v{u} * kk"])
            out = f"jax.vmap(g{u}, out_axes={o}{sp})(jnp.array([1.0, -0.5]))"
        return body + [f"{i}v = jnp.sum({out}, axis={o}) * 0.5"]


_STACK = ("jit", "vmap_stack", "vmap_none", "vmap_closure", "vmap_axis1", "grad", "vag",
          "jacfwd", "jacrev", "hessian", "jvp", "vjp2", "lin2", "checkpoint")  # fmt: skip


def _wrap(kind, inner, r):
    """Source of the function ``kind`` makes of the function named ``inner``."""
    o = r.choice([0, 1, -1])
    if kind == "jit":
        return f"jax.jit({inner})"
    if kind == "checkpoint":
        return f"jax.checkpoint({inner})"
    if kind == "vmap_stack":
        return f"lambda x: jax.vmap({inner}, out_axes={o})(jnp.stack([x, x * 0.5 - 1.0]))"
    if kind == "vmap_axis1":
        return (f"lambda x: jax.vmap({inner}, in_axes=-1, out_axes={o})"
                f"(jnp.stack([x, x * 0.5 - 1.0], axis=-1))")  # fmt: skip
    if kind == "vmap_none":
        return f"lambda x: jax.vmap({inner}, in_axes=None, out_axes={o}, axis_size=2)(x)"
    if kind == "vmap_closure":
        return f"lambda x: jax.vmap(lambda s: {inner}(x * s), out_axes={o})(jnp.array([1.0, -0.5]))"
    if kind == "grad":
        return f"jax.grad(lambda t: jnp.sum({inner}(t)))"
    if kind == "vag":
        return (
            f"lambda x: (lambda a, g: g + a)(*jax.value_and_grad(lambda t: jnp.sum({inner}(t)))(x))"
        )
    if kind == "jacfwd":
        return f"jax.jacfwd({inner})"
    if kind == "jacrev":
        return f"jax.jacrev({inner})"
    if kind == "hessian":
        return f"jax.hessian(lambda t: jnp.sum(jnp.tanh({inner}(t))))"
    if kind == "jvp":
        return f"lambda x: (lambda p, t: p + 2.0 * t)(*jax.jvp({inner}, (x,), (jnp.ones_like(x),)))"
    if kind == "vjp2":
        return (f"lambda x: (lambda pr, pb: pb(jnp.ones_like(pr))[0] + pb(pr * 0.5)[0])"
                f"(*jax.vjp({inner}, x))")  # fmt: skip
    if kind == "lin2":
        return (f"lambda x: (lambda pr, fl: jnp.sum(pr) + fl(jnp.ones_like(x)) + fl(x * 0.5))"
                f"(*jax.linearize({inner}, x))")  # fmt: skip
    raise ValueError(kind)


def generate(seed):
    """(source, x, ordered sites, repeat) of one seed."""
    r = random.Random(seed)
    shape = r.choice([(3,), (2,), (), (2, 2)])
    nstack = r.choice([1, 1, 2, 2, 3])
    stack = []
    for _ in range(nstack):
        choices = list(_STACK)
        if sum(s in ("jacfwd", "jacrev", "hessian") for s in stack) >= 1:
            choices = [c for c in choices if c not in ("jacfwd", "jacrev", "hessian")]
        stack.append(r.choice(choices))
    # stack[0] is innermost
    ad = any(s in _DIFF for s in stack)
    rev = any(s in _REV for s in stack)
    vm = any(s in _VMAPS for s in stack)
    g = Gen(seed)
    ctx = Ctx(shape, ad, rev, vm)
    ctx.fwd = any(s in ("jvp", "jacfwd", "hessian", "lin2") for s in stack)
    ctx.order2 = sum(2 if s == "hessian" else s in _DIFF for s in stack) >= 2
    bw = [j for j, s in enumerate(stack) if s in _REV - {"lin2"}]
    ctx.rev2 = bool(bw) and any(s in _REV and j > bw[0] for j, s in enumerate(stack))
    body = g.block(ctx, 1, r.randint(2, 4))
    lines = list(g.hosts) + ["D = Host(0, 'float32')", "", "", "def f(x):", "    v = x"]
    ret = "v"
    if not ad and r.random() < 0.5:  # a second, weakly typed output through control flow
        body += g.aux(ctx)
        ret = "v, aux"
    lines += body + [f"    return {ret}", "", ""]
    prev = "f"
    for j, s in enumerate(stack):
        lines.append(f"F{j} = {_wrap(s, prev, r)}")
        prev = f"F{j}"
    lines.append(f"main = {prev}")
    n = int(np.prod(shape))
    x = (np.arange(n, dtype=np.float32).reshape(shape) * 0.5 - 0.25).astype(np.float32)
    repeat = 2 if r.random() < 0.25 else 1
    return "\n".join(lines) + "\n", x, (dict(g.ordered), g.pure), repeat, stack


# ------------------------------------------------------------------------------ running
def namespaces():
    import jaxlite
    import jaxlite.ad_checkpoint  # noqa: F401
    import jaxlite.experimental
    import jaxlite.numpy  # noqa: F401

    lite = dict(jax=jaxlite, jnp=jaxlite.numpy, lax=jaxlite.lax, np=np,
                io_callback=jaxlite.experimental.io_callback)  # fmt: skip
    try:
        import jax
        import jax.ad_checkpoint  # noqa: F401
        import jax.experimental
        import jax.numpy  # noqa: F401
    except ImportError:
        return lite, None
    ref = dict(jax=jax, jnp=jax.numpy, lax=jax.lax, np=np,
               io_callback=jax.experimental.io_callback)  # fmt: skip
    return lite, ref


_QUIET = ("jax._src.callback", "jax._src.debugging", "jaxlite")  # callback errors they log


def execute(src, x, repeat, ns):
    """("ok", [(shape, dtype, weak, values)], log) or ("err", exception, log). The loggers
    of ``_QUIET`` are silenced for the run only (a level left set would hide the logs other
    tests in the same process look for)."""
    import logging

    loggers = [logging.getLogger(name) for name in _QUIET]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL)
    try:
        return _execute(src, x, repeat, ns)
    finally:
        for lg, level in zip(loggers, levels):
            lg.setLevel(level)


def _execute(src, x, repeat, ns):
    import functools

    env = dict(ns, functools=functools)
    exec(HOST, env)  # noqa: S102 (test side: the harness's own text)
    exec(src, env)  # noqa: S102
    jax = env["jax"]
    try:
        for _ in range(repeat):
            out = env["main"](env["jnp"].asarray(x))
        leaves = jax.tree_util.tree_leaves(out)
        res = [(np.shape(v), str(v.dtype), bool(getattr(v, "weak_type", False)),
                np.asarray(v)) for v in leaves]  # fmt: skip
        jax.effects_barrier()
        return "ok", res, list(env["LOG"])
    except Exception as e:  # noqa: BLE001 (compared)
        try:
            jax.effects_barrier()
        except Exception:  # noqa: BLE001, S110
            pass
        return "err", e, list(env["LOG"])


def _first_line(e):
    s = str(e).strip().splitlines()
    return s[0][:160] if s else ""


def _key(desc):
    """The call description without values (values compared with a tolerance)."""
    if isinstance(desc, tuple) and len(desc) == 5 and isinstance(desc[4], np.ndarray):
        return desc[:4]
    if isinstance(desc, tuple):
        return tuple(_key(d) for d in desc)
    return desc


def _vals(desc):
    if isinstance(desc, tuple) and len(desc) == 5 and isinstance(desc[4], np.ndarray):
        return [desc[4]]
    if isinstance(desc, tuple):
        return [v for d in desc for v in _vals(d)]
    return []


def _close(a, b):
    return np.allclose(a, b, rtol=2e-4, atol=1e-5, equal_nan=True)


def _same_call(a, b):
    return (
        a[0] == b[0]
        and _key(a[1]) == _key(b[1])
        and all(_close(p, q) for p, q in zip(_vals(a[1]), _vals(b[1])))
    )


def _rounded(c):
    return (c[0], repr(_key(c[1])), tuple(tuple(np.round(v, 3).tolist()) for v in _vals(c[1])))


# JAX refuses what jaxlite allows (docs/compat.md, "Host callbacks")
_DOCUMENTED = (
    "IO effect not supported in vmap-of-cond",
    "IO effects not supported in while_loop with batched predicate",
    "Ordered IO effects not supported in vmap",
    "Effects not supported in partial-eval of `checkpoint`",
    "Effects not supported in AD of `checkpoint`",
    "No constant handler for type",
    "Var(id=",  # JAX's internal KeyError: a debug callback on a named output (seed 240124)
)


def compare(a, b, ordered, pure=()):
    """The differences of jaxlite's run ``a`` from JAX's ``b`` as ``(class, detail)``."""
    if b[0] == "err" and any(t in str(b[1]) for t in _DOCUMENTED):
        return []
    if a[0] != b[0]:
        who, e = ("jaxlite", a[1]) if a[0] == "err" else ("JAX", b[1])
        return [("raise/no-raise", f"only {who} raised {type(e).__name__}: {_first_line(e)}")]
    if a[0] == "err":
        ea, eb = a[1], b[1]
        if builtin_base(ea) is not builtin_base(eb):
            return [("exception type", f"{type(ea).__name__}: {_first_line(ea)} | JAX "
                     f"{type(eb).__name__}: {_first_line(eb)}")]  # fmt: skip
        if _first_line(ea) != _first_line(eb) and not isinstance(eb, RuntimeError):
            return [("message", f"{_first_line(ea)} | JAX {_first_line(eb)}")]
        return []
    found = []
    oa, ob = a[1], b[1]
    if len(oa) != len(ob):
        found.append(("output", f"{len(oa)} vs {len(ob)} leaves"))
    for j, (p, q) in enumerate(zip(oa, ob)):
        if p[:3] != q[:3]:
            found.append(("output", f"leaf {j}: {p[:3]} vs JAX {q[:3]}"))
        elif not _close(p[3].astype(np.float64), q[3].astype(np.float64)):
            found.append(("output", f"leaf {j}: {p[3].ravel()[:8]} vs JAX {q[3].ravel()[:8]}"))
    la, lb = a[2], b[2]
    if len(la) == len(lb) and all(_same_call(p, q) for p, q in zip(la, lb)):
        return found
    only_a, only_b = _unmatched(la, lb)
    # D7 / 1.1: JAX may run a pure_callback more or fewer times (remat, hoisting); its
    # calls count only when one engine passes arguments the other never does
    pcs = {c[0] for c in la + lb if c[0] in pure}
    if any(c[0] not in pcs for c in only_a + only_b):
        sa, sb = [_short(c) for c in only_a][:4], [_short(c) for c in only_b][:4]
        found.append(("calls", f"{len(la)} vs {len(lb)} calls; only jaxlite {sa} | only JAX {sb}"))
        return found
    pa, pb = _unmatched(_distinct(la, pcs), _distinct(lb, pcs))
    if pa or pb:
        found.append(("pc arguments", f"only jaxlite {[_short(c) for c in pa][:4]} | only JAX "
                      f"{[_short(c) for c in pb][:4]}"))  # fmt: skip
        return found
    for chain in ("io", "debug"):
        sa = [c for c in la if ordered.get(c[0]) == chain]
        sb = [c for c in lb if ordered.get(c[0]) == chain]
        if len(sa) != len(sb) or not all(_same_call(p, q) for p, q in zip(sa, sb)):
            found.append(("order", f"ordered {chain}: {[c[0] for c in sa]} vs JAX "
                          f"{[c[0] for c in sb]}"))  # fmt: skip
    return found


def _short(c):
    return f"s{c[0]} {[np.round(v, 3).tolist() for v in _vals(c[1])]}"


def _unmatched(la, lb):
    """The calls of each log that no call of the other matches (values within tolerance)."""
    rest = list(lb)
    only_a = []
    for c in la:
        j = next((j for j, d in enumerate(rest) if _same_call(c, d)), None)
        if j is None:
            only_a.append(c)
        else:
            rest.pop(j)
    return only_a, rest


def _distinct(log, sids):
    out = []
    for c in log:
        if c[0] in sids and not any(_same_call(c, d) for d in out):
            out.append(c)
    return out


_NS = None


def check(seed):
    """(differences, source) of one seed (differences empty when JAX is missing)."""
    global _NS
    if _NS is None:
        _NS = namespaces()
    lite, ref = _NS
    src, x, meta, repeat, _ = generate(seed)
    return differ(src, x, repeat, meta), src


def differ(src, x, repeat, meta):
    """The differences of one program (none when JAX is missing)."""
    global _NS
    if _NS is None:
        _NS = namespaces()
    lite, ref = _NS
    try:
        a = execute(src, x, repeat, lite)
    except Exception:  # noqa: BLE001 (a reduction step broke the source text)
        return []
    if ref is None:
        return []
    b = execute(src, x, repeat, ref)
    return compare(a, b, *meta)


def reduce(src, x, repeat, meta, cls, budget=600.0):
    """Greedy line and block deletion keeping a difference of class ``cls``; also turns a
    stack level ``Fj = wrap(Fi)`` into ``Fj = Fi``."""
    import re
    import time

    t0 = time.time()

    def keeps(lines):
        # an error's difference must stay the same error (not one the deletion caused)
        return any(
            (c, d if c in ("exception type", "message", "raise/no-raise") else "") == cls
            for c, d in differ("\n".join(lines) + "\n", x, repeat, meta)
        )

    lines = src.splitlines()
    progress = True
    while progress and time.time() - t0 < budget:
        progress = False
        for i in range(len(lines) - 1, -1, -1):
            if i >= len(lines) or time.time() - t0 > budget:
                continue
            line = lines[i]
            ind = len(line) - len(line.lstrip())
            j = i + 1
            while j < len(lines) and (
                not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > ind
            ):
                j += 1
            cands = [lines[:i] + lines[j:]]
            m = re.match(r"(F\d+) = .*\b(F\d+|f)\b", line)
            if m and not line.startswith(f"{m.group(1)} = {m.group(2)}"):
                cands.insert(0, lines[:i] + [f"{m.group(1)} = {m.group(2)}"] + lines[i + 1 :])
            if "ordered=True" in line:
                cands.append(lines[:i] + [line.replace(", ordered=True", "")] + lines[i + 1 :])
            for c in cands:
                if keeps(c):
                    lines = c
                    progress = True
                    break
    return "\n".join(lines) + "\n"


def hunt(seeds):
    found = []
    for s in seeds:
        d, src = check(s)
        if d:
            found.append((s, d, src))
    return found


if __name__ == "__main__":
    if sys.argv[1] == "reduce":
        for s in map(int, sys.argv[2:]):
            src, x, meta, repeat, _ = generate(s)
            d = differ(src, x, repeat, meta)
            if d:
                c, detail = d[0]
                small = reduce(
                    src,
                    x,
                    repeat,
                    meta,
                    (c, detail if c in ("exception type", "message", "raise/no-raise") else ""),
                )
                print(
                    f"=== seed {s}: {differ(small, x, repeat, meta)} x={x.tolist()} "
                    f"repeat={repeat}\n{small}",
                    flush=True,
                )
        sys.exit(0)
    first, count = int(sys.argv[1]), int(sys.argv[2])
    for s in range(first, first + count):
        d, src = check(s)
        if d:
            print(f"=== seed {s}: {d}\n{src}", flush=True)
