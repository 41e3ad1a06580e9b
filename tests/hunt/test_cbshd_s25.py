# ruff: noqa: E501 (check scripts are data: long lines keep exact JAX messages whole)
"""Session 25 differential hunt of host callbacks under sharding (spec/callbacks.md section
K with spec/sharding.md): tests/hunt/fuzz_cbshd_s25.py runs seeded global-view, shard_map,
partially manual shard_map and pmap programs with callbacks under JAX 0.10.2 and jaxlite
(8 CPU devices each) and compares values and the host-callback trace. Each check below is
a family that differed before this session's fixes; the scripts assert JAX's observed
behaviour as known values, so they test jaxlite without JAX, and run against JAX in oracle
mode (``JAXLITE_ORACLE=jax``). A replay of fuzzer seeds compares the two engines."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.sharding._subproc import ROOT, run

try:
    import jax as _jax  # noqa: F401

    HAVE_JAX = True
except ImportError:
    HAVE_JAX = False


def _both(script: str) -> None:
    """Run ``script`` with jaxlite; in oracle mode (``JAXLITE_ORACLE=jax``, how the suite
    checks its known values against JAX) ``run`` runs it with JAX instead."""
    run(script)


_SETUP = """
lax = jax.lax
io_callback = jax.experimental.io_callback
m8 = jax.make_mesh((8,), ('i',), axis_types=(AxisType.Auto,))
m24 = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto,) * 2)
X = jax.device_put(jnp.arange(16.).reshape(8, 2), NamedSharding(m8, P('i')))
Y = jax.device_put(jnp.arange(16.).reshape(8, 2), NamedSharding(m24, P('y', 'x')))
R = jax.device_put(jnp.arange(16.).reshape(8, 2), NamedSharding(m8, P()))
U = jnp.arange(16.).reshape(8, 2)
log = []
def cb(*a):
    log.append(tuple(np.asarray(t).shape for t in a))
def dc(*a):
    jax.debug.callback(cb, *a, partitioned=True)
def calls(f, x):
    log.clear()
    jax.jit(f)(x)
    jax.effects_barrier()
    return len(log), sorted(set(log))
"""


# ------------------------------------------------ K7: partitioned debug callbacks, global view
# jaxlite ran a partitioned debug callback once per device only when its operands were the
# jit's sharded arguments themselves: on any computed value (x * 2, a sum, a transpose),
# inside a loop or branch body it ran once on the whole value, and under vmap it crashed
# with an IndexError (the whole operand's blocks applied to each element). JAX runs it
# once per device of the computation on each operand's block there (replicated: whole).
def test_K7_partitioned_callbacks_run_per_device_on_propagated_blocks():
    _both(
        _SETUP
        + """
assert calls(dc, X) == (8, [((1, 2),)])
assert calls(lambda x: dc(x * 2), X) == (8, [((1, 2),)])
assert calls(lambda x: dc(x * 2), Y) == (8, [((2, 1),)])
assert calls(lambda x: dc(x * 2), R) == (8, [((8, 2),)])
assert calls(lambda x: dc(jnp.sum(x)), X) == (8, [((),)])
assert calls(lambda x: dc(x, jnp.sum(x)), Y) == (8, [((2, 1), ())])
assert calls(lambda x: dc(x.T), X) == (8, [((2, 1),)])
assert calls(lambda x: dc(x[0]), X) == (8, [((2,),)])
# loop and branch bodies: the carry keeps its blocks
assert calls(lambda x: lax.scan(lambda c, t: (dc(c), (c * 2, None))[1], x, None, length=2), X) == (16, [((1, 2),)])
assert calls(lambda x: lax.cond(True, lambda v: dc(v * 2), lambda v: None, x), Y) == (8, [((2, 1),)])
# vmapped: each element's call is partitioned (the element of a row-sharded array is whole)
assert calls(jax.vmap(lambda v: dc(v)), X) == (64, [((2,),)])
assert calls(jax.vmap(lambda v: dc(v)), Y) == (64, [((1,),)])
assert calls(jax.vmap(lambda v: dc(v)), U) == (8, [((2,),)])
# a constraint places an unplaced input on the mesh; constants alone run once
assert calls(lambda x: dc(lax.with_sharding_constraint(x * 1, NamedSharding(m8, P()))), U) == (8, [((8, 2),)])
assert calls(lambda x: dc(jnp.ones(3)), X) == (1, [((3,),)])
assert calls(dc, U) == (1, [((8, 2),)])
# the blocks' values are the devices' own, in device order
seen = []
jax.jit(lambda x: jax.debug.callback(lambda b: seen.append(np.asarray(b).tolist()), x + 1, partitioned=True))(X)
jax.effects_barrier()
assert sorted(seen) == [[[2. * d + 1, 2. * d + 2]] for d in range(8)]
# eagerly, once on the whole value; but JAX runs an eager cond / while_loop / scan as a jit
# over its operands' devices (jaxlite ran their partitioned callbacks once per iteration)
log.clear()
dc(X * 2)
assert log == [((8, 2),)]
def eager(f, x):
    log.clear()
    f(x)
    jax.effects_barrier()
    return len(log), sorted(set(log))
assert eager(lambda x: lax.while_loop(lambda c: c[0] < 3, lambda c: (dc(c[1]), (c[0] + 1, c[1]))[1], (0, x)), Y) == (24, [((2, 1),)])
assert eager(lambda x: lax.cond(True, lambda t: dc(t * 2), lambda t: None, x), X) == (8, [((1, 2),)])
assert eager(lambda x: lax.scan(lambda c, t: (dc(c, t), (c, None))[1], x, jnp.arange(2.)), R) == (16, [((8, 2), ())])
assert eager(lambda x: lax.cond(True, lambda t: dc(t * 2), lambda t: None, x), U) == (1, [((8, 2),)])
"""
    )


# ---------------------------------------------------- K10: ordered debug effects, eager rules
# JAX runs an eager cond / while_loop / scan as a jit over its operands' devices, so an
# ordered debug effect in one over sharded (or replicated) operands raises K10's error;
# jaxlite ran them. In an eager shard_map, JAX runs a top-level debug callback by its eager
# rule and every other primitive as a jit over the mesh: an ordered debug effect nested in a
# jit / loop / branch raises (jaxlite: ran it), one at the top level, or inlined by an eager
# vmap's batched cond, does not (jaxlite: raised at trace time under vmap).
def test_K10_ordered_debug_effects_follow_jax_eager_rules():
    _both(
        _SETUP
        + """
K10 = "The following ordered effects are not supported for more than 1 device: "
def dp(v):
    jax.debug.print("x {}", jnp.sum(v), ordered=True)
    return v
for x in (X, R):
    raises(ValueError, K10, lambda: lax.cond(True, dp, lambda v: v, x))
    raises(ValueError, K10, lambda: lax.cond(jnp.sum(x) > 0, dp, lambda v: v, 1.0))
    raises(ValueError, K10, lambda: lax.fori_loop(0, 1, lambda i, v: dp(v), x))
    raises(ValueError, K10, lambda: lax.scan(lambda c, t: (dp(c), None), x, None, length=1))
    raises(ValueError, K10, lambda: jax.vmap(lambda v: lax.cond(True, dp, lambda v: v, v))(x))
    raises(ValueError, K10, jax.jit(dp), x)
    # a jit that grad binds eagerly is compiled for the operands' devices too
    raises(ValueError, K10, jax.grad(lambda t: jnp.sum(jax.jit(dp)(t))), x)
    dp(x)  # top level: no compilation, no error
    jax.checkpoint(dp)(x)
    lax.cond(True, lambda v: io_callback(lambda a: a, jax.ShapeDtypeStruct(v.shape, v.dtype), v, ordered=True), lambda v: v, x)
lax.cond(True, dp, lambda v: v, U)  # one device
def sm(f):
    return jax.shard_map(f, mesh=m8, in_specs=P('i'), out_specs=P('i'))
sm(dp)(jnp.arange(8.))
raises(ValueError, K10, sm(jax.jit(dp)), jnp.arange(8.))
raises(ValueError, K10, sm(lambda v: lax.fori_loop(0, 1, lambda i, t: dp(t), v)), jnp.arange(8.))
raises(ValueError, K10, jax.jit(sm(dp)), jnp.arange(8.))
# eager vmap of a shard_map: a cond on a batched predicate is inlined, its ordered print runs
jax.vmap(sm(lambda v: lax.cond(jnp.sum(v) > 0, dp, lambda t: t, v)))(jnp.arange(16.).reshape(2, 8))
raises(ValueError, K10, jax.jit(jax.vmap(sm(lambda v: lax.cond(jnp.sum(v) > 0, dp, lambda t: t, v)))), jnp.arange(16.).reshape(2, 8))
jax.effects_barrier()
"""
    )


# ------------------------------------------------------------------------- K2: sharding=
# jaxlite accepted a NamedSharding on any one-device mesh (JAX: only on a scalar mesh, one
# without axes), ran a callback on a device outside the computation's devices (JAX's
# ValueError), and raised its refusals of sharding= at the call, before JAX's other errors.
def test_K2_sharding_argument_rules():
    _both(
        _SETUP
        + """
H = lambda a: np.asarray(a) + 1
def pc(s):
    return lambda v: jax.pure_callback(H, jax.ShapeDtypeStruct(v.shape, v.dtype), v, sharding=s)
m1 = jax.make_mesh((1,), ('s',))
m0 = Mesh(np.array(jax.devices()[0]), ())
raises(NotImplementedError, "pure_callback only supports SingleDeviceSharding, but got <class", jax.jit(pc(NamedSharding(m1, P()))), X)
raises(NotImplementedError, "pure_callback only supports SingleDeviceSharding, but got <class", pc(NamedSharding(m1, P())), U)
for s in (NamedSharding(m0, P()), SingleDeviceSharding(jax.devices()[0])):
    assert np.asarray(jax.jit(pc(s))(X)).tolist() == (np.arange(16.).reshape(8, 2) + 1).tolist()
    assert np.asarray(pc(s)(U)).tolist() == (np.arange(16.).reshape(8, 2) + 1).tolist()
# JAX refuses a sharding= when it lowers the computation: errors of tracing and K10's come
# first, and nothing runs (jaxlite refused it at the call, before those errors)
bad = NamedSharding(m8, P())
raises(ValueError, "Pure callbacks do not support JVP", jax.jit(jax.grad(lambda t: jnp.sum(pc(bad)(t)))), X)
raises(ValueError, "The following ordered effects are not supported for more than 1 device: ",
       jax.jit(lambda t: (jax.debug.print("{}", jnp.sum(t), ordered=True), pc(bad)(t))[1]), X)
ran = []
def tell(v):
    ran.append(1)
    return v
raises(NotImplementedError, "pure_callback only supports SingleDeviceSharding", jax.jit(lambda t: pc(bad)(io_callback(tell, jax.ShapeDtypeStruct(t.shape, t.dtype), t))), U)
assert ran == []
# an eager cond is compiled whole: a branch that does not run raises too
raises(NotImplementedError, "pure_callback only supports SingleDeviceSharding", lax.cond, False, pc(bad), lambda t: t, X)
# a loop body that never runs (fori_loop(0, 0)) is not lowered by JAX: no error
jax.jit(lambda t: lax.fori_loop(0, 0, lambda i, v: pc(bad)(v), t))(X)
raises(ValueError, "Cannot `vmap` ordered IO callback",
       jax.vmap(jax.shard_map(lambda v: io_callback(H, jax.ShapeDtypeStruct(v.shape, v.dtype), v, sharding=SingleDeviceSharding(jax.devices()[0]), ordered=True),
                              mesh=m8, in_specs=P('i'), out_specs=P('i'))), jnp.ones((2, 8)))
raises(NotImplementedError, "callbacks do not support specifying sharding inside spmd computations",
       jax.jit(jax.shard_map(pc(SingleDeviceSharding(jax.devices()[0])), mesh=m8, in_specs=P('i'), out_specs=P('i'))), jnp.arange(8.))
X4 = jax.device_put(jnp.arange(8.), NamedSharding(jax.make_mesh((4,), ('i',)), P('i')))
for g in (lambda f: f, jax.jit):
    raises(ValueError, None, g(pc(SingleDeviceSharding(jax.devices()[7]))), X4)
    raises(ValueError, None, g(pc(SingleDeviceSharding(jax.devices()[3]))), U)
"""
    )


# ----------------------------------------- S9.6: a custom_jvp rule's tangent in a shard_map
# jaxlite compared a custom_jvp rule's tangent with its primal by shape and dtype only; in a
# check_vma body JAX also compares the varying axes: a tangent scaled by a callback result
# (invariant) is less varying than a pcast primal (fuzz_cbshd_s25 sm 426).
def test_S9_6_custom_jvp_tangent_must_vary_like_its_primal():
    _both(
        _SETUP
        + """
def g(v):
    return lax.pcast(v, ('y',), to='varying')
c = jax.custom_jvp(g)
def rule(primals, tangents):
    (v,), (t,) = primals, tangents
    sc = jax.pure_callback(lambda a: np.asarray(a) * 0 + 2, jax.ShapeDtypeStruct(v.shape, v.dtype), v, vmap_method='broadcast_all')
    return c(v), t * sc
c.defjvp(rule)
sm = jax.shard_map(c, mesh=m24, in_specs=P(None, 'x'), out_specs=P(None, ('x', 'y')))
raises(TypeError, "Custom JVP rule must produce primal and tangent outputs with corresponding shapes and dtypes. Expected float32[2,1]{V:(x,y)} (tangent type of float32[2,1]{V:(x,y)}) but got float32[2,1]{V:x}.",
       jax.grad(lambda t: jnp.sum(sm(t))), jnp.ones((2, 2)))
c2 = jax.custom_jvp(g)
c2.defjvp(lambda p, t: (c2(p[0]), lax.pcast(t[0] * 2.0, ('y',), to='varying')))
sm2 = jax.shard_map(c2, mesh=m24, in_specs=P(None, 'x'), out_specs=P(None, ('x', 'y')))
assert np.asarray(jax.grad(lambda t: jnp.sum(sm2(t)))(jnp.ones((2, 2)))).tolist() == [[8.0, 8.0], [8.0, 8.0]]
"""
    )


# --------------------------------------------------------------------- fuzzer seed replay
# Seeds whose JAX and jaxlite traces differed before this session's fixes (gv 4: K10 in an
# eager cond, gv 5: K7 on a computed value, gv 243: K7 in an eager while_loop, sm 9: K10
# nested in an eager shard_map body).
REPLAY = {"gv": [4, 5, 243], "sm": [9]}


@pytest.mark.jaxlite_only
@pytest.mark.skipif(not HAVE_JAX, reason="the replay compares against JAX")
def test_fuzzer_seeds_agree_with_jax():
    code = (
        "import sys\n"
        "from tests.hunt import fuzz_cbshd_s25 as F\n"
        "F.setup_devices()\n"
        f"bad = [(k, s, F.check(k, s)[0]) for k, seeds in {REPLAY!r}.items() for s in seeds]\n"
        "bad = [b for b in bad if b[2]]\n"
        "print(bad)\n"
        "sys.exit(1 if bad else 0)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("XLA_FLAGS", None)
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=str(ROOT), env=env,
        timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-3000:]
