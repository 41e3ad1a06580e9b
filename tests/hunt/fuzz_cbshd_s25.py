"""Session 25 differential hunt (test code, not a test module): host callbacks under
sharding (``shared/spec/callbacks.md`` section K with ``spec/sharding.md``), seeded program
text run under JAX and jaxlite in one process, both with 8 virtual CPU devices, comparing
the answers **and the host-callback trace**.

The callback hunts (fuzz_s20, tests/fuzz/cb.py) draw no mesh and the sharding hunt
(fuzz_sharding_s16) draws no callback. The angles here (``KINDS``):

* ``gv``: global-view computations over inputs placed by ``NamedSharding`` on 1-D and 2-D
  meshes (Auto and Explicit axis types): eager, ``jit``, ``jit`` with ``in_shardings`` /
  ``out_shardings``, ``grad``; ``with_sharding_constraint`` / ``reshard`` between sites;
  ``pure_callback`` / ``io_callback`` (ordered or not) / ``debug.callback`` /
  ``debug.print`` run once with the gathered value (K1, K6), ``sharding=`` (K2) and its
  errors, ``partitioned=True`` debug callbacks (K7), callbacks in loops, ``cond`` and
  ``vmap`` (every ``vmap_method``);
* ``sm``: fully manual ``shard_map`` (K3, K4, K7, K9): one call per device with its block,
  per-device order of ordered ``io_callback``, in/out specs of ranks 1-3, callbacks around
  ``psum`` / ``all_gather`` / ``ppermute`` / ``axis_index``, inside ``scan`` / ``cond`` /
  ``fori_loop`` / ``while_loop`` and ``vmap`` in the body; eager and jitted, ``vmap`` of a
  shard_map, ``grad`` through one with ``custom_jvp`` / ``custom_vjp`` callbacks;
* ``partial``: partially manual ``shard_map`` (K5 errors, K8 debug callbacks);
* ``pmap`` (K10, K11): scalars and arrays per device, ``while_loop`` with a trip count per
  device, ordered effects.

Hosts sometimes run library code themselves and record whether the mesh context is empty
(K13). Every site in a per-device body passes ``dev=lax.axis_index(...)`` so the trace
knows the device: ordered calls are compared per device and chain in program order, all
calls as a multiset (values within a tolerance), ``debug.print`` lines as a multiset.

Documented differences (docs/compat.md, docs/sharding.md "Where jaxlite differs") are kept
out by construction or by the comparison: every ``pure_callback`` result is used (the eager
dead-code row); in an eager ``shard_map`` a debug callback's operands vary along every
manual axis (the S9.8 row: JAX's eager rule cuts calls on invariant operands); ``sharding=``
names device 0 where the operand is sharded (the K2 zeros row); JAX's refusals of
partially manual shard_maps eagerly or under ``vmap`` count as documented.

``python -m tests.hunt.fuzz_cbshd_s25 KIND FIRST COUNT`` prints each disagreement with its
program (KIND one of ``KINDS`` or ``all``). A generated program is source text that the
harness executes (``jax``, ``jnp``, ``lax``, ``np``... bound to one library); jaxlite never
executes generated text.
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import re
import sys

import numpy as np

from tests.hunt.fuzz_s20 import HOST as _HOST20, _close, _first_line, _key, _vals
from tests.hunt.oracle import builtin_base

KINDS = ("gv", "sm", "partial", "pmap")
NO_DCP = os.environ.get("CBSHD_NO_DCP") == "1"  # leave K7's partitioned callbacks out

HOST = (
    _HOST20.replace("LOG.append((self.sid, _desc((args, kwargs))))", "_record(self, args, kwargs)")
    + """

def _record(h, args, kwargs):
    kwargs = dict(kwargs)
    dev = kwargs.pop("dev", None)
    if dev is not None:
        dev = int(np.asarray(dev).ravel()[0])
    extra = ()
    if getattr(h, "lib", False):  # K13: library code inside the callback
        extra = (jax.sharding.get_abstract_mesh().empty,
                 float(np.asarray(jax.jit(lambda t: jnp.sum(t * 2.0))(
                     jnp.asarray(np.asarray(_leaves((args, kwargs))[0], np.float32))))))
    LOG.append((h.sid, _desc((args, kwargs)), dev, extra))


class HostJ(Host):
    lib = True
"""
)

_ARITH = ("v * 0.5 + 1.0", "jnp.sin(v) + v * 0.25", "jnp.tanh(v) * 2.0 - 0.5", "jnp.cos(v) - v")
_VM = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all")
MESHES = {
    "m8": ((8,), ("i",)),
    "m24": ((2, 4), ("x", "y")),
    "m42": ((4, 2), ("x", "y")),
    "m222": ((2, 2, 2), ("a", "b", "c")),
    "m4": ((4,), ("i",)),
}


class Ctx:
    def __init__(self, mode, shape, **kw):
        self.mode = mode  # gv | sm | partial | pmap
        self.shape = shape  # v's shape here
        self.axes = ()  # manual axes (sm, partial, pmap)
        self.sizes = {}
        self.vma = set()  # axes v varies along (sm with check_vma)
        self.check_vma = True
        self.ad = False  # under grad
        self.vmapped = False
        self.loop = False  # inside a loop or cond branch: v's vma must stay as it is
        self.coll = True  # collectives allowed here
        self.eager = False  # the shard_map runs eagerly (S9.8 row)
        self.explicit = False
        self.mesh = None
        self.depth = 0
        self.__dict__.update(kw)

    def inner(self, **kw):
        c = Ctx(self.mode, self.shape)
        c.__dict__.update(self.__dict__)
        c.vma = set(self.vma)
        c.depth = self.depth + 1
        c.__dict__.update(kw)
        return c


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.sid = 0
        self.uid = 0
        self.hosts = []
        self.ordered = {}  # sid -> "io" | "debug"
        self.pure = set()

    def new(self):
        self.uid += 1
        return self.uid

    # ----------------------------------------------------------------------------- sites
    def _dev(self, ctx):
        if ctx.mode == "gv" or not ctx.axes:
            return ""
        names = ctx.axes if len(ctx.axes) > 1 else ctx.axes[0]
        return f", dev=lax.axis_index({names!r})"

    def site(self, ctx, k):
        r = self.r
        self.sid += 1
        sid = self.sid
        i = "    " * k
        kinds = ["pc", "pc", "io", "dc", "dprint"]
        if ctx.mode == "gv" and not ctx.vmapped and not ctx.ad and not NO_DCP:
            kinds.append("dcp")  # K7: partitioned debug callback
        if ctx.mode == "partial" and r.random() < 0.85:
            kinds = ["dc", "dprint"]  # K5: pure/io raise in a partially manual shard_map
        kind = r.choice(kinds)
        first = r.choice(["v", "v", "jnp.sum(v)", "v * 2.0"] + (["v[0]"] if ctx.shape else []))
        ops = [first]
        eager_dc0 = ctx.eager and ctx.mode in ("sm", "partial") and kind in ("dc", "dprint")
        if r.random() < 0.25:
            # (S9.8 row: eagerly, an operand invariant across devices cuts JAX's calls)
            ops.append(r.choice(["v > 0.0"] if eager_dc0 else
                                ["2.0", "np.float32(0.5)", "jnp.int32(3)", "v > 0.0"]))  # fmt: skip
        eager_dc = ctx.eager and ctx.mode in ("sm", "partial") and kind in ("dc", "dprint")
        if eager_dc and ctx.check_vma and set(ctx.axes) - ctx.vma:
            # S9.8 row: eagerly JAX cuts calls on operands invariant along some axes
            miss = tuple(sorted(set(ctx.axes) - ctx.vma))
            ops = [f"lax.pcast({o}, {miss!r}, to='varying')" if "v" in o else o for o in ops]
        if ctx.ad and kind not in ("dc", "dprint", "dcp"):
            ops = [f"lax.stop_gradient({o})" if "v" in o else o for o in ops]
        args = ", ".join(ops)
        dev = self._dev(ctx)
        if eager_dc and not ctx.check_vma:
            dev = ""
        # (compat.md: JAX's eager debug callbacks in a shard_map see its mesh, K13)
        hcls = "HostJ" if r.random() < 0.15 and not eager_dc else "Host"
        if kind in ("dc", "dcp"):
            ordered = ctx.mode in ("gv", "sm") and not ctx.vmapped and r.random() < 0.3
            if ordered:
                self.ordered[sid] = "debug"
            self.hosts.append(f"H{sid} = {hcls}({sid})")
            o = ", ordered=True" if ordered else ""
            p = ", partitioned=True" if kind == "dcp" else ""
            return [f"{i}jax.debug.callback(H{sid}, {args}{dev}{o}{p})"]
        if kind == "dprint":
            ordered = ctx.mode in ("gv", "sm") and not ctx.vmapped and r.random() < 0.2
            if ordered:
                self.ordered[sid] = "debug"
            o = ", ordered=True" if ordered else ""
            fmt = f"s{sid} {{}} {{}}" if len(ops) > 1 else f"s{sid} {{}}"
            dv = ""
            if dev:
                dv = dev.replace(", dev=", ", ")
                fmt = fmt.replace(f"s{sid}", f"s{sid} d{{}}", 1)
                return [f'{i}jax.debug.print("{fmt}", {dv[2:]}, {args}{o})']
            return [f'{i}jax.debug.print("{fmt}", {args}{o})']
        dt = r.choice(["float32", "float32", "float32", "int32", "float16"])
        spec = f"jax.ShapeDtypeStruct(jnp.shape({ops[0]}), jnp.{dt})"
        self.hosts.append(f"H{sid} = {hcls}({sid}, {dt!r})")
        shd = ""
        if ctx.mode == "gv" and r.random() < 0.3:
            shd = ", sharding=" + r.choice(
                [
                    "SingleDeviceSharding(jax.devices()[0])",
                    "SingleDeviceSharding(jax.devices()[0])",
                    "NamedSharding(M1, P())",
                    "NamedSharding(MESH, P())",
                    "SingleDeviceSharding(jax.devices()[7])",
                ]
            )
        elif ctx.mode != "gv" and r.random() < 0.04:
            shd = ", sharding=SingleDeviceSharding(jax.devices()[0])"  # K5
        if kind == "pc":
            self.pure.add(sid)
            vm = r.choice(_VM)
            call = f"jax.pure_callback(H{sid}, {spec}, {args}{dev}{shd}, vmap_method={vm!r})"
        else:
            ordered = not ctx.vmapped and r.random() < 0.45
            if ctx.mode in ("pmap",) and r.random() < 0.7:
                ordered = False
            if ordered:
                self.ordered[sid] = "io"
            o = ", ordered=True" if ordered else ""
            call = f"io_callback(H{sid}, {spec}, {args}{dev}{shd}{o})"
        cast = "" if dt == "float32" else ".astype(jnp.float32)"
        use = [f"{i}r = {call}", f"{i}v = v + r{cast} * 0.25"]
        miss = tuple(sorted(set(ctx.axes) - ctx.vma)) if ctx.mode in ("sm", "partial") else ()
        if miss:
            # A result typed invariant may differ between devices: v then varies along
            # every manual axis (no false replication promise through out_specs)
            if ctx.loop or not ctx.check_vma:
                return [f"{i}r = {call}", f"{i}v = v + r{cast} * 0.0"]
            ctx.vma |= set(miss)
            use.append(f"{i}v = lax.pcast(v, {miss!r}, to='varying')")
        return use

    # ------------------------------------------------------------------------ collectives
    def collective(self, ctx, k):
        """One collective on v that keeps its shape, updating ``ctx.vma``; None if none
        fits here."""
        r = self.r
        i = "    " * k
        ax = r.choice(ctx.axes)
        n = ctx.sizes[ax]
        cands = []
        inv = ax not in ctx.vma
        if not ctx.loop or inv or not ctx.check_vma:
            cands.append("psum")
        if not ctx.loop or not inv or not ctx.check_vma:
            cands += ["ppermute", "idx"]
        if not ctx.loop:
            cands.append("ag")
        if not cands:
            return None
        c = r.choice(cands)
        if c == "psum":
            ctx.vma.discard(ax)
            return [f"{i}v = lax.psum(v, {ax!r}) * {1.0 / n}"]
        ctx.vma.add(ax)
        if c == "ppermute":
            shift = r.randint(1, max(1, n - 1))
            perm = [(j, (j + shift) % n) for j in range(n)]
            return [f"{i}v = lax.ppermute(v, {ax!r}, {perm})"]
        if c == "idx":
            return [f"{i}v = v + lax.axis_index({ax!r}).astype(v.dtype) * 0.5"]
        return [f"{i}v = v + lax.all_gather(v, {ax!r}).sum(0) * 0.125"]

    # ----------------------------------------------------------------------------- blocks
    def block(self, ctx, k, n=None):
        r = self.r
        lines = []
        n = n if n is not None else r.randint(1, 3)
        for _ in range(n):
            roll = r.random()
            if ctx.depth < 2 and roll < (0.4, 0.25)[ctx.depth]:
                lines += self.wrapper(ctx, k)
            elif roll < 0.72:
                lines += self.site(ctx, k)
            elif roll < 0.88 and ctx.mode != "gv" and ctx.coll:
                lines += self.collective(ctx, k) or []
            elif roll < 0.93 and ctx.mode == "gv" and not ctx.vmapped and ctx.depth == 0:
                lines += self.constraint(ctx, k)
            else:
                lines.append("    " * k + f"v = {r.choice(_ARITH)}")
        return lines

    def constraint(self, ctx, k):
        i = "    " * k
        spec = gen_spec(self.r, ctx.shape, ctx.mesh)
        if ctx.explicit:
            return [f"{i}v = jax.sharding.reshard(v, P{spec})"]
        return [f"{i}v = lax.with_sharding_constraint(v, NamedSharding(MESH, P{spec}))"]

    def _def(self, name, args, ctx, k, ret="v", pre=(), n=None, end_arith=False):
        i = "    " * k
        out = [f"{i}def {name}({args}):"] + [f"{i}    {p}" for p in pre]
        out += self.block(ctx, k + 1, n)
        if end_arith:
            out.append(f"{i}    v = {self.r.choice(_ARITH)}")
        out.append(f"{i}    return {ret}")
        return out

    def wrapper(self, ctx, k):
        r = self.r
        u = self.new()
        i = "    " * k
        kinds = ["scan", "fori", "while", "cond", "jit"]
        if ctx.shape and ctx.shape[0] >= 2:
            kinds.append("vmap")
        if ctx.ad:
            kinds = [x for x in kinds if x != "while"] + ["cjvp", "cvjp"]
        kind = r.choice(kinds)
        if kind == "jit":
            c = ctx.inner()
            out = self._def(f"g{u}", "v", c, k) + [f"{i}v = jax.jit(g{u})(v)"]
            ctx.vma = c.vma
            return out
        if kind == "scan":
            c = ctx.inner(loop=True)
            body = self._def(f"g{u}", "v, t", c, k, ret="v, jnp.sum(v)", end_arith=True)
            n = r.randint(1, 3)
            return body + [f"{i}v, _ = lax.scan(g{u}, v, jnp.arange({n}.0))"]
        if kind == "fori":
            c = ctx.inner(loop=True)
            body = self._def(f"g{u}", f"i{u}, v", c, k, end_arith=True)
            return body + [f"{i}v = lax.fori_loop(0, {r.randint(0, 2)}, g{u}, v)"]
        if kind == "while":
            # a trip count per device where nothing inside needs the others (K11)
            varying = ctx.mode != "gv" and r.random() < 0.6 and not ctx.vmapped
            c = ctx.inner(loop=True, coll=ctx.coll and not varying)
            n = r.randint(1, 3)
            pred = f"i{u} < {n}"
            if varying:
                pred += " + (jnp.sum(v) > 0.0).astype(jnp.int32)"
                if ctx.mode == "sm" and ctx.check_vma:
                    pred = f"jnp.logical_and(i{u} < 4, i{u} < {n} + (jnp.sum(v) > 0.0))"
            cond = [f"{i}def c{u}(c):", f"{i}    i{u}, v = c", f"{i}    return {pred}"]
            body = self._def(
                f"g{u}", "c", c, k, ret=f"i{u} + 1, v", pre=[f"i{u}, v = c"], end_arith=True
            )
            return cond + body + [f"{i}_, v = lax.while_loop(c{u}, g{u}, (0, v))"]
        if kind == "cond":
            c = ctx.inner(loop=True, coll=False)
            t = self._def(f"g{u}t", "v", c, k)
            f = self._def(f"g{u}f", "v", ctx.inner(loop=True, coll=False), k)
            pred = f"jnp.sum(v) > {r.choice([-0.5, 0.5, 2.0])}"
            return t + f + [f"{i}v = lax.cond({pred}, g{u}t, g{u}f, v)"]
        if kind == "cjvp":
            c = ctx.inner()
            body = self._def(f"g{u}", "v", c, k)
            ctx.vma = c.vma
            rule = [
                f"{i}def j{u}(primals, tangents):",
                f"{i}    (v,), (t,) = primals, tangents",
                f"{i}    out = c{u}(v)",
            ]
            vm = r.choice(_VM)
            dev = self._dev(ctx)
            rule += [
                f"{i}    sc = jax.pure_callback(D, jax.ShapeDtypeStruct(jnp.shape(v), jnp.float32),"
                f" lax.stop_gradient(v){dev}, vmap_method={vm!r})",
                f"{i}    return out, t * sc",
            ]
            return (
                body
                + [f"{i}c{u} = jax.custom_jvp(g{u})"]
                + rule
                + [
                    f"{i}c{u}.defjvp(j{u})",
                    f"{i}v = c{u}(v)",
                ]
            )
        if kind == "cvjp":
            c = ctx.inner(coll=False)
            body = self._def(f"g{u}", "v", c, k)
            fwd = [f"{i}def f{u}(v):"] + self.site(ctx.inner(coll=False), k + 1)
            fwd += [f"{i}    return g{u}(v), (v * 1.0,)"]
            bwd = [f"{i}def b{u}(res, v):"] + self.site(ctx.inner(coll=False), k + 1)
            bwd += [f"{i}    return (v * jnp.cos(res[0]),)"]
            return (
                body
                + [f"{i}c{u} = jax.custom_vjp(g{u})"]
                + fwd
                + bwd
                + [
                    f"{i}c{u}.defvjp(f{u}, b{u})",
                    f"{i}v = c{u}(v)",
                ]
            )
        # vmap over v's leading axis inside
        c = ctx.inner(shape=ctx.shape[1:], vmapped=True)
        body = self._def(f"g{u}", "v", c, k)
        ctx.vma = c.vma
        return body + [f"{i}v = jax.vmap(g{u})(v)"]


def gen_spec(r, shape, mesh, avoid=()):
    """A spec tuple (source text) for ``shape`` over the axes of ``mesh``, each axis at
    most once, dividing the dimensions."""
    sizes = dict(zip(MESHES[mesh][1], MESHES[mesh][0]))
    free = [a for a in sizes if a not in avoid]
    r.shuffle(free)
    out = []
    for d in shape:
        if free and r.random() < 0.7 and d % sizes[free[-1]] == 0:
            out.append(free.pop())
        else:
            out.append(None)
    while out and out[-1] is None and r.random() < 0.5:
        out.pop()
    return "(" + "".join(f"{e!r}, " for e in out) + ")"


def _data_line(shape):
    n = int(np.prod(shape))
    return f"np.arange({n}, dtype=np.float32).reshape({shape}) * 0.25 - 1.0"


# ------------------------------------------------------------------------------ programs
def gen_gv(seed):
    r = random.Random(seed)
    g = Gen(seed)
    mesh = r.choice(["m8", "m24", "m42", "m4"])
    explicit = r.random() < 0.3
    shape = r.choice([(8,), (8, 2), (4, 4), (2, 8), (16,), (8, 4)])
    spec = gen_spec(r, shape, mesh)
    wrap = r.choice(["eager", "jit", "jit", "jit_shd", "grad", "jit_grad", "vmap"])
    ctx = Ctx("gv", shape, mesh=mesh, explicit=explicit, ad="grad" in wrap)
    if wrap == "vmap":
        ctx = ctx.inner(shape=shape[1:], vmapped=True, depth=0)
    body = g.block(ctx, 1, r.randint(2, 4))
    at = "AxisType.Explicit" if explicit else "AxisType.Auto"
    ms, names = MESHES[mesh]
    lines = list(g.hosts) + [
        "D = Host(0, 'float32')",
        f"MESH = jax.make_mesh({ms}, {names}, axis_types=({at},) * {len(ms)})",
        "M1 = jax.make_mesh((1,), ('s',))",
        f"X = jax.device_put({_data_line(shape)}, NamedSharding(MESH, P{spec}))",
        "",
        "def f(v):",
    ]
    lines += body + ["    return v", ""]
    spec2 = gen_spec(r, shape, mesh)
    main = {
        "eager": "f(X)",
        "jit": "jax.jit(f)(X)",
        "jit_shd": f"jax.jit(f, in_shardings=NamedSharding(MESH, P{spec2}), "
        f"out_shardings=NamedSharding(MESH, P{gen_spec(r, shape, mesh)}))(X)",
        "grad": "jax.grad(lambda t: jnp.sum(jnp.sin(f(t))))(X)",
        "jit_grad": "jax.jit(jax.grad(lambda t: jnp.sum(f(t) ** 2)))(X)",
        "vmap": "jax.jit(jax.vmap(f))(X)" if r.random() < 0.7 else "jax.vmap(f)(X)",
    }[wrap]
    ctxm = r.random() < 0.3
    lines += ["def main():"]
    if ctxm:
        lines += ["    with jax.set_mesh(MESH):", f"        return {main}"]
    else:
        lines += [f"    return {main}"]
    return "\n".join(lines) + "\n", (dict(g.ordered), g.pure, False)


def gen_sm(seed, partial=False):
    r = random.Random(seed)
    g = Gen(seed)
    if partial:
        mesh = r.choice(["m24", "m42", "m222"])
    else:
        mesh = r.choice(["m8", "m24", "m42", "m222", "m4"])
    ms, names = MESHES[mesh]
    sizes = dict(zip(names, ms))
    manual = list(names)
    if partial:
        manual = [a for a in names if r.random() < 0.5] or [names[0]]
        if len(manual) == len(names):
            manual = manual[:-1]
    rank = r.randint(1, 3)
    block = tuple(r.choice([1, 2, 2, 4]) for _ in range(rank))
    free = list(manual)
    r.shuffle(free)
    spec = []
    for _ in range(rank):
        spec.append(free.pop() if free and r.random() < 0.7 else None)
    shape = tuple(b * (sizes[e] if e else 1) for b, e in zip(block, spec))
    check_vma = r.random() < 0.75
    wrap = r.choice(["eager", "jit", "jit", "vmap", "smvmap", "grad", "jit_grad", "scan"])
    if partial:
        # JAX's debug callbacks in a partially manual shard_map fail under jit (an internal
        # TypeError, _DOCUMENTED): mostly eager, where K8 can be compared
        wrap = r.choice(["eager", "eager", "eager", "smvmap_eager", "jit"])
    smvmap_eager = wrap == "smvmap_eager" or (wrap == "smvmap" and r.random() < 0.3)
    if wrap == "smvmap_eager":
        wrap = "smvmap"
    ctx = Ctx(
        "partial" if partial else "sm",
        block,
        axes=tuple(manual),
        sizes=sizes,
        vma={e for e in spec if e},
        check_vma=check_vma,
        ad="grad" in wrap,
        # (grad and vmap of a shard_map run it eagerly too: JAX's eager rules apply)
        eager=wrap in ("eager", "grad", "vmap") or smvmap_eager,
        mesh=mesh,
    )
    if not check_vma:
        ctx.vma = set(manual)
    if wrap == "smvmap":
        ctx = ctx.inner(shape=block[1:], vmapped=True, depth=0)
    body = g.block(ctx, 1, r.randint(2, 4))
    # out_specs: every axis v varies along, others maybe
    want = sorted(ctx.vma) if check_vma else []
    extra = [a for a in manual if a not in ctx.vma and r.random() < 0.3]
    if not check_vma:
        # with check_vma=False the value must really be replicated along what it omits
        want = sorted(manual)
        extra = []
    oshape = block
    out = [[] for _ in oshape]
    for a in want + extra:
        out[r.randrange(len(oshape))].append(a)
    ospec = (
        "("
        + "".join(
            "None, " if not e else (f"{e[0]!r}, " if len(e) == 1 else f"{tuple(e)!r}, ")
            for e in out
        )
        + ")"
    )
    ispec = "(" + "".join(f"{e!r}, " for e in spec) + ")"
    second = r.random() < 0.3 and ctx.mode == "sm" and wrap not in ("smvmap",)
    ms_, _ = MESHES[mesh]
    lines = list(g.hosts) + [
        "D = Host(0, 'float32')",
        f"MESH = jax.make_mesh({ms}, {names}, axis_types=(AxisType.Auto,) * {len(ms)})",
        f"X = jnp.asarray({_data_line(shape)})",
        "",
        "def body(v):",
    ]
    if wrap == "smvmap":
        lines = lines[:-1] + ["def inner(v):"]
    lines += body
    if second:
        allax = tuple(manual) if len(manual) > 1 else manual[0]
        lines += [f"    return v, lax.psum(jnp.sum(v), {allax!r})", ""]
        outs = f"(P{ospec}, P())"
    else:
        lines += ["    return v", ""]
        outs = f"P{ospec}"
    if wrap == "smvmap":
        lines += ["def body(v):", "    return jax.vmap(inner)(v)", ""]
    an = f", axis_names={set(manual)!r}" if partial else ""
    lines += [
        f"SM = jax.shard_map(body, mesh=MESH, in_specs=P{ispec}, out_specs={outs}, "
        f"check_vma={check_vma}{an})",
        "",
    ]
    first = "SM(t)[0]" if second else "SM(t)"
    main = {
        "eager": "SM(X)",
        "jit": "jax.jit(SM)(X)",
        "smvmap": "SM(X)" if smvmap_eager else "jax.jit(SM)(X)",
        "vmap": "jax.vmap(SM)(jnp.stack([X, X * 0.5 - 1.0]))",
        "grad": f"jax.grad(lambda t: jnp.sum(jnp.sin({first})))(X)",
        "jit_grad": f"jax.jit(jax.grad(lambda t: jnp.sum({first} ** 2)))(X)",
        "scan": "lax.scan(lambda c, t: (c + 1.0, SM(t)), 0.0, jnp.stack([X, X + 1.0]))[1]",
    }[wrap]
    if wrap == "vmap" and r.random() < 0.5:
        main = "jax.jit(jax.vmap(SM))(jnp.stack([X, X * 0.5 - 1.0]))"
    lines += ["def main():", f"    return {main}"]
    return "\n".join(lines) + "\n", (dict(g.ordered), g.pure, wrap == "eager")


def gen_pmap(seed):
    r = random.Random(seed)
    g = Gen(seed)
    n = r.choice([8, 8, 4, 2])
    rank = r.randint(0, 2)
    block = tuple(r.choice([1, 2, 3]) for _ in range(rank))
    ctx = Ctx("pmap", block, axes=("i",), sizes={"i": n}, check_vma=False, vma={"i"})
    wrap = r.choice(["eager", "eager", "jit", "grad"])
    ctx.ad = wrap == "grad"
    body = g.block(ctx, 1, r.randint(1, 4))
    in_axis = r.randint(0, rank)
    shape = list(block)
    shape.insert(in_axis, n)
    lines = list(g.hosts) + [
        "D = Host(0, 'float32')",
        f"X = jnp.asarray({_data_line(tuple(shape))})",
        "",
        "def body(v):",
    ]
    lines += body + ["    return v", ""]
    lines += [f"PM = jax.pmap(body, axis_name='i', in_axes={in_axis})", ""]
    main = {
        "eager": "PM(X)",
        "jit": "jax.jit(PM)(X)",
        "grad": "jax.grad(lambda t: jnp.sum(jnp.sin(PM(t))))(X)",
    }[wrap]
    lines += ["def main():", f"    return {main}"]
    return "\n".join(lines) + "\n", (dict(g.ordered), g.pure, False)


def generate(kind, seed):
    if kind == "gv":
        return gen_gv(seed)
    if kind == "sm":
        return gen_sm(seed)
    if kind == "partial":
        return gen_sm(seed, partial=True)
    return gen_pmap(seed)


# ------------------------------------------------------------------------------- running
def namespaces():
    import jaxlite
    import jaxlite.experimental
    import jaxlite.numpy  # noqa: F401

    lite = _ns(jaxlite, jaxlite.experimental.io_callback)
    try:
        import jax
        import jax.experimental
        import jax.numpy  # noqa: F401
    except ImportError:
        return lite, None
    return lite, _ns(jax, jax.experimental.io_callback)


def _ns(jx, io_cb):
    sh = jx.sharding
    return dict(jax=jx, jnp=jx.numpy, lax=jx.lax, np=np, io_callback=io_cb,
                P=sh.PartitionSpec, NamedSharding=sh.NamedSharding, AxisType=sh.AxisType,
                SingleDeviceSharding=sh.SingleDeviceSharding)  # fmt: skip


_QUIET = ("jax._src.callback", "jax._src.debugging", "jaxlite")


def execute(src, ns):
    """("ok", leaves, log, printed) or ("err", exception, log, printed)."""
    import logging

    loggers = [logging.getLogger(name) for name in _QUIET]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL)
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            res = _execute(src, ns)
    finally:
        for lg, level in zip(loggers, levels):
            lg.setLevel(level)
    return res + (sorted(line for line in buf.getvalue().splitlines() if line),)


def _execute(src, ns):
    env = dict(ns)
    exec(HOST, env)  # noqa: S102 (test side: the harness's own text)
    jax = env["jax"]
    try:
        exec(src, env)  # noqa: S102
        out = env["main"]()
        leaves = jax.tree_util.tree_leaves(out)
        res = [(np.shape(v), str(v.dtype), np.asarray(v)) for v in leaves]
        jax.effects_barrier()
        return "ok", res, list(env["LOG"])
    except Exception as e:  # noqa: BLE001 (compared)
        try:
            jax.effects_barrier()
        except Exception:  # noqa: BLE001, S110
            pass
        return "err", e, list(env["LOG"])


def _same_call(a, b):
    return (
        a[0] == b[0]
        and a[2] == b[2]
        and _key(a[1]) == _key(b[1])
        and all(_close(p, q) for p, q in zip(_vals(a[1]), _vals(b[1])))
        and len(a[3]) == len(b[3])
        and all(
            p == q if isinstance(p, bool) else _close(np.float64(p), np.float64(q))
            for p, q in zip(a[3], b[3])
        )
    )


def _unmatched(la, lb):
    rest = list(lb)
    only_a = []
    for c in la:
        j = next((j for j, d in enumerate(rest) if _same_call(c, d)), None)
        if j is None:
            only_a.append(c)
        else:
            rest.pop(j)
    return only_a, rest


def _short(c):
    dev = "" if c[2] is None else f"@d{c[2]}"
    return f"s{c[0]}{dev} {[np.round(v, 3).tolist() for v in _vals(c[1])]}{c[3] or ''}"


# JAX refuses what jaxlite allows (documented rows)
_DOCUMENTED = (
    "shard_map out_specs argument must refer to an axis marked as manual",  # compat row 83
    "IO effect not supported in vmap-of-cond",  # fuzz_s20's documented refusals
    "IO effects not supported in while_loop with batched predicate",
    "Ordered IO effects not supported in vmap",
    "into SdyArray",  # JAX's internal TypeError (a maximal sharding under grad of vmap)
    # JAX's internal TypeError for debug callbacks in a partially manual shard_map under jit
    "axis_index() takes 1 positional argument but 2 were given",
    # JAX's sequential vmap of a callback over an Explicit-sharded batch axis (its scan)
    "0th dimension of all xs should be replicated",
    "slicing on sharded dims where out dim (1) is not divisible",  # the same, unrolled
    "select `which` must be scalar or have the same sharding",  # sharding.md (select_n)
    "tuple.index(x): x not in tuple",  # K2: JAX's message for a device outside (compat.md)
    "is not found in mesh: ()",  # JAX's internal error: sharding= in vmap over Explicit axes
)


def _norm(line):
    """A first line without object addresses (effect reprs in the K10 message)."""
    return re.sub(r"\[<[^\]]*\]|\[[A-Za-z]*Effect\(\)[^\]]*\]", "[effects]", line)


def compare(a, b, meta):
    """The differences of jaxlite's run ``a`` from JAX's ``b`` as ``(class, detail)``."""
    ordered, pure, eager_sm = meta
    if b[0] == "err" and any(t in str(b[1]) for t in _DOCUMENTED):
        return []
    found = []
    if a[0] != b[0]:
        who, e = ("jaxlite", a[1]) if a[0] == "err" else ("JAX", b[1])
        return [("raise/no-raise", f"only {who} raised {type(e).__name__}: {_first_line(e)}")]
    if a[0] == "err":
        ea, eb = a[1], b[1]
        if builtin_base(ea) is not builtin_base(eb):
            return [("exception type", f"{type(ea).__name__}: {_first_line(ea)} | JAX "
                     f"{type(eb).__name__}: {_first_line(eb)}")]  # fmt: skip
        if _norm(_first_line(ea)) != _norm(_first_line(eb)) and not isinstance(eb, RuntimeError):
            found.append(("message", f"{_first_line(ea)} | JAX {_first_line(eb)}"))
        return found
    oa, ob = a[1], b[1]
    if len(oa) != len(ob):
        found.append(("output", f"{len(oa)} vs {len(ob)} leaves"))
    for j, (p, q) in enumerate(zip(oa, ob)):
        if p[:2] != q[:2]:
            found.append(("output", f"leaf {j}: {p[:2]} vs JAX {q[:2]}"))
        elif not _close(p[2].astype(np.float64), q[2].astype(np.float64)):
            found.append(("output", f"leaf {j}: {p[2].ravel()[:8]} vs JAX {q[2].ravel()[:8]}"))
    la, lb = a[2], b[2]
    only_a, only_b = _unmatched(la, lb)
    if only_a or only_b:
        found.append(("calls", f"{len(la)} vs {len(lb)} calls; only jaxlite "
                      f"{[_short(c) for c in only_a][:5]} | only JAX "
                      f"{[_short(c) for c in only_b][:5]}"))  # fmt: skip
    else:
        devs = {c[2] for c in la}
        for chain in ("io", "debug"):
            for d in devs:
                sa = [c for c in la if ordered.get(c[0]) == chain and c[2] == d]
                sb = [c for c in lb if ordered.get(c[0]) == chain and c[2] == d]
                if not all(_same_call(p, q) for p, q in zip(sa, sb)):
                    found.append(("order", f"ordered {chain} on device {d}: "
                                  f"{[_short(c) for c in sa][:6]} vs JAX "
                                  f"{[_short(c) for c in sb][:6]}"))  # fmt: skip
    pa, pb = a[3], b[3]
    if not _same_prints(pa, pb):
        sa, sb = set(pa), set(pb)
        found.append(("print", f"{len(pa)} vs {len(pb)} lines; only jaxlite "
                      f"{sorted(sa - sb)[:4]} | only JAX {sorted(sb - sa)[:4]}"))  # fmt: skip
    return found


_NUM = re.compile(r"-?\d+\.?\d*(?:e[-+]?\d+)?")


def _split(line):
    nums = [float(t) for t in _NUM.findall(line)]
    text = re.sub(r"\s+", " ", _NUM.sub("#", line))
    return re.sub(r"\s*([\[\]])\s*", r"\1", text).strip(), nums  # (NumPy's padding)


def _same_prints(pa, pb):
    """Printed lines equal as multisets, numbers within the tolerance (each line paired
    with the closest unpaired line of the same text)."""
    if len(pa) != len(pb):
        return False
    rest: dict = {}
    for line in pb:
        t, nums = _split(line)
        rest.setdefault((t, len(nums)), []).append(np.array(nums))
    for line in pa:
        t, nums = _split(line)
        cands = rest.get((t, len(nums)))
        if not cands:
            return False
        m = np.array(nums)
        j = min(range(len(cands)), key=lambda k: float(np.max(np.abs(cands[k] - m), initial=0)))
        if not _close(m, cands[j]):
            return False
        cands.pop(j)
    return True


_NS = None


def differ(src, meta):
    global _NS
    if _NS is None:
        _NS = namespaces()
    lite, ref = _NS
    a = execute(src, lite)
    if ref is None:
        return []
    b = execute(src, ref)
    return compare(a, b, meta)


def check(kind, seed):
    src, meta = generate(kind, seed)
    return differ(src, meta), src


def setup_devices():
    """8 virtual CPU devices in both libraries (before either is used)."""
    import jaxlite

    jaxlite.config.update("jax_num_cpu_devices", 8)
    try:
        import jax
    except ImportError:
        return
    jax.config.update("jax_num_cpu_devices", 8)


def reduce(src, meta, cls, budget=300.0):
    """Greedy deletion of lines and blocks keeping a difference of class ``cls``."""
    import time

    t0 = time.time()

    def keeps(lines):
        try:
            return any(c == cls for c, _ in differ("\n".join(lines) + "\n", meta))
        except Exception:  # noqa: BLE001 (the deletion broke the text)
            return False

    lines = src.splitlines()
    progress = True
    while progress and time.time() - t0 < budget:
        progress = False
        for i in range(len(lines) - 1, -1, -1):
            if i >= len(lines) or time.time() - t0 > budget:
                continue
            line = lines[i]
            if line.startswith(("def main", "    return", "SM =", "PM =", "MESH", "X =")):
                continue
            ind = len(line) - len(line.lstrip())
            j = i + 1
            while j < len(lines) and (
                not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > ind
            ):
                j += 1
            cand = lines[:i] + lines[j:]
            if keeps(cand):
                lines = cand
                progress = True
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    setup_devices()
    if sys.argv[1] == "reduce":
        kind = sys.argv[2]
        for s in map(int, sys.argv[3:]):
            src, meta = generate(kind, s)
            d = differ(src, meta)
            if d:
                small = reduce(src, meta, d[0][0])
                print(f"=== {kind} seed {s}: {differ(small, meta)}\n{small}", flush=True)
        sys.exit(0)
    kind, first, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    kinds = KINDS if kind == "all" else (kind,)
    for s in range(first, first + count):
        for kd in kinds:
            d, src = check(kd, s)
            if d:
                print(f"=== {kd} seed {s}: {d}\n{src}", flush=True)
        print(f"--- checked seed {s}", file=sys.stderr, flush=True)
