"""Differential fuzzer for the sharding layer (session 16): random small shard_map / pmap /
placement programs, run under one library per process.

Usage: ``python tests/hunt/fuzz_sharding_s16.py {jax|jaxlite} FIRST COUNT OUT.pkl [KIND]``
(FIRST may be a comma-separated list of seeds, then COUNT is ignored).
Each seed builds one program from a ``numpy.random.RandomState(seed)`` (the generator does
not touch the library, so both processes build the same program) and records its results:
leaves' dtype, shape, bytes and sharding description, or the exception's class and first
line. ``compare`` (``python tests/hunt/fuzz_sharding_s16.py compare A.pkl B.pkl``) lists
the seeds whose records differ.
"""

from __future__ import annotations

import pickle
import sys

import numpy as np

MESHES = [
    ((8,), ("i",)),
    ((2, 4), ("x", "y")),
    ((4, 2), ("x", "y")),
    ((2, 2, 2), ("a", "b", "c")),
    ((1, 8), ("u", "v")),
]


# ------------------------------------------------------------------ program generation
def _pick_names(rng, axes, k=None):
    """A non-empty subset of ``axes`` in random order; a bare name or a tuple."""
    axes = list(axes)
    k = k or rng.randint(1, len(axes) + 1)
    names = [axes[i] for i in rng.permutation(len(axes))[:k]]
    if len(names) == 1 and rng.rand() < 0.6:
        return names[0]
    return tuple(names)


def _as_tuple(names):
    return names if isinstance(names, tuple) else (names,)


def _size(sizes, names):
    return int(np.prod([sizes[n] for n in _as_tuple(names)]))


def gen_spec(rng, rank, axes):
    """A spec for an array of ``rank``: entries None, a name, or a tuple of names; maybe
    shorter than the rank (a partial spec)."""
    free = list(axes)
    rng.shuffle(free)
    entries = []
    for _ in range(rank):
        r = rng.rand()
        if r < 0.35 or not free:
            entries.append(None)
        elif r < 0.75 or len(free) < 2:
            entries.append(free.pop())
        else:
            k = rng.randint(2, len(free) + 1)
            entries.append(tuple(free.pop() for _ in range(k)))
    while entries and entries[-1] is None and rng.rand() < 0.5:
        entries.pop()
    return entries


def _spec_axes(entries):
    out = set()
    for e in entries:
        if e is not None:
            out.update(_as_tuple(e))
    return out


def _spec_factor(e, sizes):
    return 1 if e is None else _size(sizes, e)


def gen_out_spec(rng, rank, vma, axes, sizes, shape):
    """An out_spec naming every axis of ``vma`` (others maybe), fitting ``shape``."""
    must = sorted(vma)
    rng.shuffle(must)
    extra = [a for a in axes if a not in vma and rng.rand() < 0.3]
    names = must + extra
    if rank == 0:
        return [] if not must else None
    entries = [[] for _ in range(rank)]
    for n in names:
        entries[rng.randint(rank)].append(n)
    out = []
    for e in entries:
        if not e:
            out.append(None)
        elif len(e) == 1 and rng.rand() < 0.7:
            out.append(e[0])
        else:
            out.append(tuple(e))
    while out and out[-1] is None and rng.rand() < 0.5:
        out.pop()
    return out


OPS = ["red", "ag", "ps", "pp", "a2a", "idx", "size", "shuf", "elt", "other", "pcast", "vmap"]
# Extra ops of the second generation (``EXTRA`` set by gen_shard_map for seeds >= 100000):
# casts, control flow around collectives, collectives of constants, negative axes.
EXTRA_OPS = ["cast", "cond", "fori", "const", "negax"]
EXTRA = [False]
CASTS = ["int8", "uint8", "float16", "complex64", "int32", "float32"]


def gen_ops(rng, shape, vma, axes, sizes, dtype, n_ops, allow_vmap=True, check_vma=True):
    """A list of op descriptors and the final (shape, vma). ``shape`` is the block shape."""
    ops = []
    shape = list(shape)
    vma = set(vma)
    for _ in range(n_ops):
        for _attempt in range(20):
            pool = OPS + EXTRA_OPS if EXTRA[0] else OPS
            kind = pool[rng.randint(len(pool))]
            names = _pick_names(rng, axes)
            n = _size(sizes, names)
            rank = len(shape)
            if kind == "red":
                fn = ["psum", "pmean", "pmax", "pmin"][rng.randint(4)]
                ops.append(("red", fn, names))
                vma -= set(_as_tuple(names))
                if fn == "pmean" and dtype == "int32":
                    dtype = "float32"
                break
            if kind == "ag":
                tiled = bool(rng.randint(2))
                if tiled and rank == 0:
                    continue
                axis = rng.randint(rank + (0 if tiled else 1))
                to = "invarying" if (check_vma and rng.rand() < 0.2) else None
                ops.append(("ag", names, axis, tiled, to))
                if tiled:
                    shape[axis] *= n
                else:
                    shape.insert(axis, n)
                if to == "invarying":
                    vma -= set(_as_tuple(names))
                else:
                    vma |= set(_as_tuple(names))
                break
            if kind == "ps":
                dims = [d for d in range(rank) if shape[d] % n == 0]
                if not dims:
                    continue
                d = dims[rng.randint(len(dims))]
                tiled = shape[d] != n or bool(rng.randint(2))
                ops.append(("ps", names, d, tiled))
                if tiled:
                    shape[d] //= n
                else:
                    del shape[d]
                vma |= set(_as_tuple(names))
                break
            if kind in ("pp", "shuf"):
                if kind == "shuf" and isinstance(names, tuple) and rng.rand() < 0.7:
                    names = names[0]
                    n = sizes[names]
                perm = [int(p) for p in rng.permutation(n)]
                if kind == "pp":
                    if rng.rand() < 0.5:
                        keep = rng.rand(n) < 0.6
                        dst = [int(p) for p in rng.permutation(n)]
                        pairs = [(i, dst[i]) for i in range(n) if keep[i]]
                    else:
                        pairs = [(i, perm[i]) for i in range(n)]
                    ops.append(("pp", names, tuple(pairs)))
                else:
                    ops.append(("shuf", names, tuple(perm)))
                vma |= set(_as_tuple(names))
                break
            if kind == "a2a":
                if rank == 0:
                    continue
                tiled = bool(rng.randint(2))
                if tiled:
                    splits = [d for d in range(rank) if shape[d] % n == 0]
                else:
                    splits = [d for d in range(rank) if shape[d] == n]
                if not splits:
                    continue
                s = splits[rng.randint(len(splits))]
                c = rng.randint(rank)
                ops.append(("a2a", names, s, c, tiled))
                if tiled:
                    shape[s] //= n
                    shape[c] *= n
                elif s != c:
                    del shape[s]
                    shape.insert(c, n)
                vma |= set(_as_tuple(names))
                break
            if kind == "idx":
                ops.append(("idx", names))
                vma |= set(_as_tuple(names))
                break
            if kind == "size":
                ops.append(("size", names))
                break
            if kind == "elt":
                ops.append(("elt",))
                break
            if kind == "other":
                ops.append(("other",))
                vma |= OTHER_VMA[0]
                break
            if kind == "pcast":
                if not check_vma:
                    continue
                ops.append(("pcast", names))
                vma |= set(_as_tuple(names))
                break
            if kind == "cast":
                dtype = CASTS[rng.randint(len(CASTS))]
                ops.append(("cast", dtype))
                break
            if kind == "cond":
                # branch on axis_index (a varying predicate), a psum in both branches
                ops.append(("cond", names))
                vma |= set(_as_tuple(names))  # the predicate varies along them
                break
            if kind == "fori":
                n_it = rng.randint(1, 4)
                ax = _as_tuple(names)[0]
                ops.append(("fori", ax, n_it))
                vma |= {ax}
                break
            if kind == "const":
                ops.append(("const", names, bool(rng.randint(2))))
                break
            if kind == "negax":
                if rank == 0:
                    continue
                tiled = bool(rng.randint(2))
                axis = -1 - rng.randint(rank)
                ops.append(("ag", names, axis, True, None))
                shape[axis] *= n
                vma |= set(_as_tuple(names))
                break
            if kind == "vmap" and allow_vmap:
                # vmap over a new leading axis of 2 (v and v + 1), collectives inside
                sub, sub_shape, sub_vma, dtype2 = gen_ops(
                    rng, shape, vma, axes, sizes, dtype, rng.randint(1, 3), False, check_vma
                )
                ops.append(("vmap", sub))
                shape, vma, dtype = list(sub_shape), set(sub_vma), dtype2
                break
    return ops, shape, vma, dtype


OTHER_VMA = [set()]


def gen_shard_map(rng, extra=False):
    EXTRA[0] = extra
    mi = rng.randint(len(MESHES))
    mesh_shape, axes = MESHES[mi]
    sizes = dict(zip(axes, mesh_shape))
    dtype = "float32" if rng.rand() < 0.6 else "int32"
    rank = rng.randint(1, 4)
    manual = list(axes)
    partial = len(axes) > 1 and rng.rand() < 0.12
    if partial:
        manual = [a for a in axes if rng.rand() < 0.6] or [axes[0]]
    spec_a = gen_spec(rng, rank, manual)
    block = [int(rng.choice([1, 2, 4])) for _ in range(rank)]
    ext = spec_a + [None] * (rank - len(spec_a))
    shape_a = [b * _spec_factor(e, sizes) for b, e in zip(block, ext)]
    spec_b = gen_spec(rng, 1, manual)
    shape_b = [2 * _spec_factor(spec_b[0] if spec_b else None, sizes)]
    check_vma = rng.rand() < 0.7
    OTHER_VMA[0] = _spec_axes(spec_b)
    ops, out_shape, vma, out_dtype = gen_ops(
        rng, block, _spec_axes(spec_a), manual, sizes, dtype, rng.randint(1, 4), True, check_vma
    )
    if len(out_shape) == 0:
        ops.append(("expand",))
        out_shape = [1]
    out_spec = gen_out_spec(rng, len(out_shape), vma, manual, sizes, out_shape)
    if check_vma and rng.rand() < 0.08 and vma:
        # an out_spec missing a varying axis: the check_vma error
        out_spec = [None] * len(out_shape)
    wrap = ["eager", "jit", "vmap", "grad", "jit_grad", "scan"][rng.randint(6)]
    if wrap in ("grad", "jit_grad") and dtype != "float32":
        wrap = "jit"
    seed = int(rng.randint(1 << 30))
    pre = None
    if extra and rng.rand() < 0.5:
        # place the operand first by another spec (over all mesh axes): shard_map then
        # reshards it from its devices' buffers
        cand = gen_spec(rng, rank, list(axes))
        fits = all(
            d % _spec_factor(e, sizes) == 0
            for d, e in zip(shape_a, cand + [None] * (rank - len(cand)))
        )
        pre = cand if fits else None
    return dict(
        kind="shard_map",
        mesh=mi,
        manual=manual if partial else None,
        dtype=dtype,
        shape_a=shape_a,
        spec_a=spec_a,
        shape_b=shape_b,
        spec_b=spec_b,
        ops=ops,
        out_spec=out_spec,
        check_vma=check_vma,
        wrap=wrap,
        seed=seed,
        bare_in=rng.rand() < 0.1,
        pre=pre,
    )


def gen_pmap(rng):
    n = int(rng.choice([8, 8, 4, 2]))
    dtype = "float32" if rng.rand() < 0.6 else "int32"
    rank = rng.randint(0, 3)
    block = [int(rng.choice([1, 2, 4])) for _ in range(rank)]
    nested = rng.rand() < 0.3
    axes = ["i", "j"] if nested else ["i"]
    sizes = {"i": n, "j": 2}
    OTHER_VMA[0] = set()
    ops, out_shape, vma, _ = gen_ops(
        rng, block, {"i"}, axes, sizes, dtype, rng.randint(1, 4), False, False
    )
    in_axis = rng.randint(rank + 1)
    out_axis = rng.randint(len(out_shape) + 1)
    wrap = ["eager", "jit", "grad", "vmap"][rng.randint(4)]
    if wrap == "grad" and dtype != "float32":
        wrap = "eager"
    return dict(
        kind="pmap",
        n=n,
        dtype=dtype,
        block=block,
        nested=nested,
        ops=ops,
        in_axis=in_axis,
        out_axis=out_axis,
        wrap=wrap,
        seed=int(rng.randint(1 << 30)),
    )


def gen_place(rng):
    mi = rng.randint(len(MESHES))
    mesh_shape, axes = MESHES[mi]
    sizes = dict(zip(axes, mesh_shape))
    rank = rng.randint(0, 4)
    spec = gen_spec(rng, rank, axes)
    ext = spec + [None] * (rank - len(spec))
    shape = [int(rng.choice([1, 2, 3])) * _spec_factor(e, sizes) for e in ext]
    if rng.rand() < 0.08 and rank:
        shape[rng.randint(rank)] += 1  # maybe indivisible
    how = ["device_put", "reshard_put", "wsc_jit", "jit_out", "jit_in", "wsc_eager"][rng.randint(6)]
    spec2 = gen_spec(rng, rank, axes)
    explicit = rng.rand() < 0.3
    return dict(
        kind="place",
        mesh=mi,
        spec=spec,
        spec2=spec2,
        shape=shape,
        how=how,
        explicit=explicit,
        dtype="float32" if rng.rand() < 0.7 else "int32",
        seed=int(rng.randint(1 << 30)),
    )


def gen(seed, kind=None):
    rng = np.random.RandomState(seed)
    if seed >= 100000 and kind is None:  # second generation: shard_map with the extra ops
        return gen_shard_map(rng, True)
    EXTRA[0] = False
    r = rng.rand()
    if kind is None:
        kind = "shard_map" if r < 0.6 else ("pmap" if r < 0.8 else "place")
    return {"shard_map": gen_shard_map, "pmap": gen_pmap, "place": gen_place}[kind](rng)


# ------------------------------------------------------------------ program execution
def _data(seed, shape, dtype):
    r = np.random.RandomState(seed)
    v = r.randint(-5, 6, size=shape)
    if dtype == "float32":
        return (v + r.randint(0, 4, size=shape) * 0.25).astype(np.float32)
    return v.astype(np.int32)


def _P(P, entries):
    return P(*entries)


def apply_ops(jax, ops, v, b):
    lax, jnp = jax.lax, jax.numpy
    for op in ops:
        k = op[0]
        if k == "red":
            v = getattr(lax, op[1])(v, op[2])
        elif k == "ag":
            kw = {} if op[4] is None else {"to": op[4]}
            v = lax.all_gather(v, op[1], axis=op[2], tiled=op[3], **kw)
        elif k == "ps":
            v = lax.psum_scatter(v, op[1], scatter_dimension=op[2], tiled=op[3])
        elif k == "pp":
            v = lax.ppermute(v, op[1], list(op[2]))
        elif k == "shuf":
            v = lax.pshuffle(v, op[1], list(op[2]))
        elif k == "a2a":
            v = lax.all_to_all(v, op[1], op[2], op[3], tiled=op[4])
        elif k == "idx":
            v = v + lax.axis_index(op[1]).astype(v.dtype)
        elif k == "size":
            v = v * lax.axis_size(op[1])
        elif k == "elt":
            v = jnp.sin(v) if v.dtype == jnp.float32 else v * 3 + 1
        elif k == "other":
            v = v + jnp.sum(b).astype(v.dtype)
        elif k == "pcast":
            v = lax.pcast(v, op[1], to="varying")
        elif k == "expand":
            v = v[None]
        elif k == "cast":
            v = v.astype(op[1])
        elif k == "cond":
            names = op[1]
            pred = lax.axis_index(names) % 2 == 0
            # (both branches run the same collectives: with a device-varying predicate,
            # different collectives per branch are undefined behaviour, in JAX too)
            v = lax.cond(
                pred, lambda t: lax.psum(t, names) * 2, lambda t: lax.psum(t, names) + 1, v
            )
        elif k == "fori":
            ax, n_it = op[1], op[2]
            n = lax.axis_size(ax)
            perm = [(i, (i + 1) % n) for i in range(n)]
            v = lax.fori_loop(0, n_it, lambda i, t: lax.ppermute(t, ax, perm) * 2, v)
        elif k == "const":
            names, tiled = op[1], op[2]
            c = jnp.ones((2,), v.dtype)
            s = lax.psum(c, names)[0] + lax.all_gather(c, names, tiled=tiled).sum()
            v = v + s.astype(v.dtype)
        elif k == "vmap":
            sub = op[1]
            vs = jnp.stack([v, v + 1])
            out = jax.vmap(lambda t: apply_ops(jax, sub, t, b))(vs)
            v = out[0] * 2 + out[1]
    return v


def _sharding_desc(x):
    s = getattr(x, "sharding", None)
    if s is None:
        return None
    name = type(s).__name__
    if name == "NamedSharding":
        return (name, tuple(s.mesh.axis_names), tuple(s.mesh.devices.shape), tuple(s.spec))
    if name == "SingleDeviceSharding":
        return (name, sorted(d.id for d in s.device_set))
    return (name,)


def _leaves(jax, out):
    leaves = jax.tree_util.tree_leaves(out)
    rec = []
    for x in leaves:
        a = np.asarray(x)
        rec.append((str(a.dtype), a.shape, a.tobytes(), _sharding_desc(x)))
    return rec


def run_shard_map(jax, p):
    jnp, P = jax.numpy, jax.sharding.PartitionSpec
    AT = jax.sharding.AxisType
    mesh_shape, axes = MESHES[p["mesh"]]
    mesh = jax.make_mesh(mesh_shape, axes, axis_types=(AT.Auto,) * len(axes))
    a = jnp.asarray(_data(p["seed"], p["shape_a"], p["dtype"]))
    b = jnp.asarray(_data(p["seed"] + 1, p["shape_b"], p["dtype"]))
    if p.get("pre") is not None:
        a = jax.device_put(a, jax.sharding.NamedSharding(mesh, _P(P, p["pre"])))
    ops = p["ops"]

    def body(a, b):
        return apply_ops(jax, ops, a, b)

    in_specs = (_P(P, p["spec_a"]), _P(P, p["spec_b"]))
    if p.get("bare_in"):
        in_specs = _P(P, p["spec_a"])
    kw = {}
    if p["manual"] is not None:
        kw["axis_names"] = frozenset(p["manual"])
    f = jax.shard_map(
        body,
        mesh=mesh,
        in_specs=in_specs,
        out_specs=_P(P, p["out_spec"]),
        check_vma=p["check_vma"],
        **kw,
    )
    w = p["wrap"]
    if w == "eager":
        out = f(a, b)
    elif w == "jit":
        out = jax.jit(f)(a, b)
    elif w == "vmap":
        out = jax.vmap(f, in_axes=(0, None))(jnp.stack([a, a * 2]), b)
    elif w == "grad":
        out = jax.grad(lambda a, b: jnp.sum(jnp.sin(f(a, b))), argnums=(0, 1))(a, b)
    elif w == "jit_grad":
        out = jax.jit(jax.grad(lambda a, b: jnp.sum(f(a, b) ** 2), argnums=(0, 1)))(a, b)
    elif w == "scan":

        def step(c, t):
            y = f(t, b)
            return c + jnp.sum(y), y

        out = jax.lax.scan(step, jnp.zeros((), f_dtype(p)), jnp.stack([a, a + 1]))
    return out


def f_dtype(p):
    d = p["dtype"]
    for op in _all_ops(p["ops"]):
        if op[0] == "cast":
            d = op[1]
        elif op[0] == "red" and op[1] == "pmean" and d in ("int8", "uint8", "int32"):
            d = "float32"
    return d


def _all_ops(ops):
    for op in ops:
        yield op
        if op[0] == "vmap":
            yield from _all_ops(op[1])


def run_pmap(jax, p):
    jnp = jax.numpy
    n = p["n"]
    shape = list(p["block"])
    shape.insert(p["in_axis"], n)
    if p["nested"]:
        shape.insert(0, 2)  # the 'j' axis is vmapped inside, per device
    x = jnp.asarray(_data(p["seed"], shape, p["dtype"]))
    b = jnp.asarray(np.arange(2, dtype=np.float32))
    ops = p["ops"]
    if p["nested"]:

        def body(v):
            return jax.vmap(lambda t: apply_ops(jax, ops, t, b), axis_name="j")(v)

        in_axes = p["in_axis"] + 1
        out_axes = p["out_axis"] + 1
    else:

        def body(v):
            return apply_ops(jax, ops, v, b)

        in_axes, out_axes = p["in_axis"], p["out_axis"]
    f = jax.pmap(body, axis_name="i", in_axes=in_axes, out_axes=out_axes)
    w = p["wrap"]
    if w == "eager":
        return f(x)
    if w == "jit":
        return jax.jit(f)(x)
    if w == "grad":
        return jax.grad(lambda x: jnp.sum(jnp.sin(f(x))))(x)
    if w == "vmap":
        return jax.vmap(f)(jnp.stack([x, x * 2]))


def run_place(jax, p):
    jnp, P = jax.numpy, jax.sharding.PartitionSpec
    AT = jax.sharding.AxisType
    NS = jax.sharding.NamedSharding
    mesh_shape, axes = MESHES[p["mesh"]]
    at = AT.Explicit if p["explicit"] else AT.Auto
    mesh = jax.make_mesh(mesh_shape, axes, axis_types=(at,) * len(axes))
    x = _data(p["seed"], p["shape"], p["dtype"])
    s1 = NS(mesh, _P(P, p["spec"]))
    s2 = NS(mesh, _P(P, p["spec2"]))
    how = p["how"]
    if how == "device_put":
        y = jax.device_put(x, s1)
    elif how == "reshard_put":
        y = jax.device_put(jax.device_put(x, s2), s1)
    elif how == "wsc_jit":
        y = jax.jit(lambda t: jax.lax.with_sharding_constraint(t * 2, s1))(jnp.asarray(x))
    elif how == "wsc_eager":
        y = jax.lax.with_sharding_constraint(jax.device_put(x, s2), s1)
    elif how == "jit_out":
        y = jax.jit(lambda t: t + 1, out_shardings=s1)(jnp.asarray(x))
    elif how == "jit_in":
        y = jax.jit(lambda t: t, in_shardings=s1, out_shardings=s1)(x)
    shards = [
        (sh.device.id, _norm_index(sh.index, x.shape), sh.replica_id, np.asarray(sh.data).tobytes())
        for sh in y.addressable_shards
    ]
    return {
        "val": _leaves(jax, y),
        "shards": shards,
        "repl": y.is_fully_replicated,
        "sharding": _sharding_desc(y),
        "dev": sorted(d.id for d in y.devices()),
    }


def _norm_index(index, shape):
    out = []
    for s, n in zip(index, shape):
        out.append(s.indices(n))
    return tuple(out)


def run_one(jax, p):
    try:
        if p["kind"] == "shard_map":
            out = run_shard_map(jax, p)
        elif p["kind"] == "pmap":
            out = run_pmap(jax, p)
        else:
            return ("ok", run_place(jax, p))
        return ("ok", _leaves(jax, out))
    except Exception as e:  # noqa: BLE001 - recorded and compared
        msg = str(e).strip().splitlines()
        return ("err", type(e).__name__, msg[0][:300] if msg else "")


def main():
    lib = sys.argv[1]
    if lib == "jax":
        import jax
    else:
        import jaxlite as jax
    jax.config.update("jax_num_cpu_devices", 8)
    import importlib

    importlib.import_module(jax.__name__ + ".numpy")
    out = sys.argv[4]
    if "," in sys.argv[2]:  # a list of seeds (COUNT is ignored)
        seeds = [int(v) for v in sys.argv[2].split(",") if v]
    else:
        first, count = int(sys.argv[2]), int(sys.argv[3])
        seeds = range(first, first + count)
    kind = sys.argv[5] if len(sys.argv) > 5 else None
    res = {}
    for s in seeds:
        p = gen(s, kind)
        res[s] = (p, run_one(jax, p))
    with open(out, "wb") as f:
        pickle.dump(res, f)


def classify(r1, r2, rtol=2e-5, atol=2e-5):
    """None when the records agree, else 'ERR' (error class or error/answer), 'VAL'
    (values, dtypes or shapes), 'SHD' (only the shardings)."""
    if r1[0] != r2[0]:
        return "ERR"
    if r1[0] == "err":
        return None if r1[1] == r2[1] else "ERR"
    v1, v2 = r1[1], r2[1]
    if isinstance(v1, dict):
        if not _same_leaves(v1["val"], v2["val"], rtol, atol, False):
            return "VAL"
        if v1["shards"] != v2["shards"]:
            return "VAL"
        same = all(v1[k] == v2[k] for k in v1 if k != "val") and _same_leaves(
            v1["val"], v2["val"], rtol, atol, True
        )
        return None if same else "SHD"
    if not _same_leaves(v1, v2, rtol, atol, False):
        return "VAL"
    return None if _same_leaves(v1, v2, rtol, atol, True) else "SHD"


def same_record(r1, r2):
    return classify(r1, r2) is None


def _same_leaves(l1, l2, rtol, atol, shardings):
    if len(l1) != len(l2):
        return False
    for (d1, s1, b1, sh1), (d2, s2, b2, sh2) in zip(l1, l2):
        if d1 != d2 or s1 != s2 or (shardings and sh1 != sh2):
            return False
        a1 = np.frombuffer(b1, d1).reshape(s1)
        a2 = np.frombuffer(b2, d2).reshape(s2)
        if a1.dtype.kind == "f":
            if not np.allclose(a1, a2, rtol=rtol, atol=atol, equal_nan=True):
                return False
        elif not np.array_equal(a1, a2):
            return False
    return True


def compare():
    with open(sys.argv[2], "rb") as f:
        a = pickle.load(f)
    with open(sys.argv[3], "rb") as f:
        b = pickle.load(f)
    bad = 0
    for s in sorted(a):
        p, r1 = a[s]
        _, r2 = b[s]
        c = classify(r1, r2)
        if c:
            bad += 1
            print("SEED", s, c, p)
            for tag, r in (("A", r1), ("B", r2)):
                if r[0] == "err":
                    print("  ", tag, r)
                elif isinstance(r[1], dict):
                    print(
                        "  ", tag, {k: v for k, v in r[1].items() if k != "val"}, _show(r[1]["val"])
                    )
                else:
                    print("  ", tag, _show(r[1]))
    print("mismatches", bad, "of", len(a))


def _show(leaves):
    out = []
    for d, s, b, sh in leaves:
        a = np.frombuffer(b, d).reshape(s)
        out.append((d, s, sh, a.ravel()[:12].tolist()))
    return out


if __name__ == "__main__":
    if sys.argv[1] == "compare":
        compare()
    else:
        main()
