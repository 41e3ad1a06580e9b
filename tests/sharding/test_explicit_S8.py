# ruff: noqa: E501 (check scripts are data: long lines keep exact JAX messages whole)
"""S8 (spec/sharding.md): Explicit sharding mode. Every op computes its result's sharding
from its operands' or raises ShardingTypeError, eagerly and under jit; reshard,
out_sharding=, creation under set_mesh, auto_axes/explicit_axes. Each check runs eagerly
and under jit (``both``); the scripts also run against JAX (oracle mode)."""

import pytest

from tests.sharding._subproc import run

_HELPERS = """
me = jax.make_mesh((2, 4), ("x", "y"))
ma = jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Auto,) * 2)
def put(a, *spec, mesh=me):
    return jax.device_put(a, NamedSharding(mesh, P(*spec)))
xe = put(jnp.arange(64.).reshape(8, 8), "x", "y")
xx = put(jnp.arange(64.).reshape(8, 8), "x")
xy = put(jnp.arange(64.).reshape(8, 8), None, "y")

def both(fn, *args, typ=None, spec=None, value=None):
    # eagerly and under jit: the same type string, spec and value
    for mode, f in (("eager", fn), ("jit", jax.jit(fn))):
        r = f(*args)
        if typ is not None:
            assert str(jax.typeof(r)) == typ, (mode, str(jax.typeof(r)), typ)
        if spec is not None:
            assert r.sharding.spec == spec, (mode, r.sharding.spec, spec)
        if value is not None:
            np.testing.assert_allclose(np.asarray(r), value, rtol=1e-6)
    return r

def both_raise(exc, match, fn, *args, jit=True):
    e = raises(exc, match, fn, *args)
    if jit:
        raises(exc, match, jax.jit(fn), *args)
    return e
"""


def test_S8_1_typeof_eager_and_traced():
    run(
        _HELPERS,
        """
        assert str(jax.typeof(xe)) == "float32[8@x,8@y]"                                 # S8.1
        assert str(jax.typeof(xx)) == "float32[8@x,8]"
        assert str(jax.typeof(put(jnp.ones((8, 8)), ("x", "y")))) == "float32[8@(x,y),8]"
        assert str(jax.typeof(put(jnp.ones((8, 8)), "x", mesh=ma))) == "float32[8,8]"
        assert repr(jax.typeof(xe)) == "ShapedArray(float32[8@x,8@y])"
        s = jax.typeof(xe).sharding
        assert repr(s) == ("NamedSharding(mesh=AbstractMesh('x': 2, 'y': 4, axis_types=(Explicit, Explicit), "
                           "device_kind=cpu, num_cores=None, platform=cpu), spec=P('x', 'y'))")
        assert s.mesh == me.abstract_mesh and s.spec == P("x", "y")
        seen = []
        def f(a):
            seen.append((str(jax.typeof(a)), str(jax.typeof(a.T)), str(jax.typeof(a.sum(0))),
                         jax.typeof(a).sharding.spec))
            return a
        jax.jit(f)(xe)
        assert seen == [("float32[8@x,8@y]", "float32[8@y,8@x]", "float32[8@y]", P("x", "y"))], seen
        # a fresh trace per input sharding (the sharding is part of the traced type)
        jax.jit(f)(xx)
        assert seen[-1][:3] == ("float32[8@x,8]", "float32[8,8@x]", "float32[8]"), seen
        """,
    )


def test_S8_2_S8_3_rules_eager_and_jit():
    run(
        _HELPERS,
        """
        ex = np.arange(64.).reshape(8, 8)
        # elementwise: named entries beat None, scalars broadcast (S8.3)
        both(lambda a: a + 1, xe, typ="float32[8@x,8@y]", value=ex + 1)
        both(lambda a, b: a * b, xe, xx, typ="float32[8@x,8@y]", value=ex * ex)
        both(lambda a, b: a + b, xy, xx, typ="float32[8@x,8@y]")
        both(lambda a: a + np.ones((8, 8), np.float32), xe, typ="float32[8@x,8@y]")
        both(jnp.sin, xe, typ="float32[8@x,8@y]", value=np.sin(ex))
        both(lambda a: a.astype(jnp.int32), xe, typ="int32[8@x,8@y]")
        both(lambda a: jnp.where(a > 3, a, 0.), xe, typ="float32[8@x,8@y]")
        both(lambda a: jnp.clip(a, 0, 1), xe, typ="float32[8@x,8@y]")
        both(lambda a: a ** 2, xe, typ="float32[8@x,8@y]")
        both(jax.nn.relu, xe, typ="float32[8@x,8@y]")
        both(lambda a: jax.nn.softmax(a, 1), xe, typ="float32[8@x,8@y]")
        both(lambda v: v + jnp.ones((2, 8)), put(jnp.ones(8), "y"), typ="float32[2,8@y]")
        e = both_raise(Exception, "add got incompatible shardings for broadcasting: ('x', 'y'), ('y', 'x').",
                       lambda a: a + a.T, xe)
        assert type(e).__name__ == "ShardingTypeError" and type(e).__bases__ == (Exception,)  # S8.2
        both_raise(Exception, "mul got incompatible shardings for broadcasting: ('x', 'y'), (None, 'x').",
                   lambda a, v: a * v, xe, put(jnp.ones(8), "x"))
        both_raise(Exception, "add operation with inputs: f32[8@x,8], f32[8,8@x] produces an illegally sharded result: f32[8@x,8@x]",
                   lambda a: a + a.T, xx)
        other = jax.make_mesh((8,), ("z",))
        both_raise(ValueError, "Mesh for all inputs should be equal. Got one mesh: AbstractMesh('x': 2, 'y': 4, axis_types=(Explicit, Explicit), device_kind=cpu, num_cores=None, platform=cpu) and another mesh: AbstractMesh('z': 8, axis_types=(Explicit,), device_kind=cpu, num_cores=None, platform=cpu)",
                   lambda a, b: a + b, xe, put(jnp.ones((8, 8)), "z", mesh=other))
        raises(ValueError, "Mesh for all inputs should be equal.", lambda: xe + put(jnp.ones((8, 8)), "x", mesh=ma))
        # shape operations move the entries with their dimensions
        both(lambda a: a.T, xe, typ="float32[8@y,8@x]", value=ex.T)
        both(lambda a: jnp.transpose(a, (2, 0, 1)), put(jnp.ones((2, 4, 8)), "x", None, "y"), typ="float32[8@y,2@x,4]")
        both(lambda a: jnp.swapaxes(a, 0, 1), xe, typ="float32[8@y,8@x]")
        both(lambda a: jnp.flip(a, 0), xe, typ="float32[8@x,8@y]", value=ex[::-1])
        both(lambda a: a[None], xe, typ="float32[1,8@x,8@y]")
        both(lambda a: jnp.expand_dims(a, 0), xe, typ="float32[1,8@x,8@y]")
        both(lambda a: a[..., None], xx, typ="float32[8@x,8,1]")
        both(jnp.squeeze, put(jnp.ones((1, 8)), None, "y"), typ="float32[8@y]")
        both(lambda v: jnp.broadcast_to(v, (2, 8)), put(jnp.ones(8), "y"), typ="float32[2,8@y]")
        both(lambda a: jnp.concatenate([a, a], 1), xe, typ="float32[8@x,16@y]")
        both(lambda a: jnp.concatenate([a, a], 0), xe, typ="float32[16@x,8@y]")
        both(lambda a: jnp.stack([a, a]), xe, typ="float32[2,8@x,8@y]")
        both_raise(Exception, "All operands should have the same sharding. Got shardings NamedSharding(mesh=AbstractMesh('x': 2, 'y': 4",
                   lambda a: jnp.concatenate([a, a.T], 1), xe)
        both(lambda a: jnp.pad(a, ((0, 0), (1, 1))), xx, typ="float32[8@x,10]")
        both(lambda a: jnp.pad(a, ((1, 1), (0, 0))), xx, typ="float32[10@x,8]")
        both_raise(Exception, "padding on sharded dims where out dim (10) is not divisible by mesh axes (4) with spec (y) is not implemented.",
                   lambda a: jnp.pad(a, 1), xe)
        both(lambda a: jax.lax.slice(a, (1, 0), (5, 8)), xx, typ="float32[4@x,8]", value=ex[1:5])
        both(lambda a: jax.lax.dynamic_slice(a, (0, 0), (4, 8)), xe, typ="float32[4@x,8@y]")
        both_raise(Exception, "dynamic_update_slice operand sharding must be equal to update sharding, got operand sharding float32[8@x,8]({Explicit: ('x', 'y')}) and update sharding float32[2,8]({}).",
                   lambda a: jax.lax.dynamic_update_slice(a, jnp.ones((2, 8)), (0, 0)), xx)
        # reshape: splits and merges along sharded dimensions
        both(lambda a: a.reshape(64), xe, typ="float32[64@(x,y)]", value=ex.reshape(64))
        both(jnp.ravel, xe, typ="float32[64@(x,y)]")
        both(lambda a: a.reshape(2, 4, 8), xe, typ="float32[2@x,4,8@y]")
        both(lambda a: a.reshape(8, 8, 1), xe, typ="float32[8@x,8@y,1]")
        both(lambda a: a.reshape(1, 8, 8), xe, typ="float32[1,8@x,8@y]")
        both(lambda a: a.reshape(64), xx, typ="float32[64@x]")
        both(lambda a: a.reshape(4, 2, 8), xx, typ="float32[4@x,2,8]")
        both(lambda a: a.reshape(8, 8), put(jnp.ones(64), ("x", "y")), typ="float32[8@(x,y),8]")
        both(lambda a: a.reshape(2, 32), put(jnp.ones(64), ("x", "y")), typ="float32[2@x,32@y]")
        both(lambda a: a.reshape(1, 16), put(jnp.ones(16), "x"), typ="float32[1,16@x]")
        for shape, a, t in (((4, 16), xe, "float32[8@x,8@y]"), ((8, 2, 4), xe, "float32[8@x,8@y]"),
                            ((64,), xy, "float32[8,8@y]"), ((2, 8), put(jnp.ones(16), "y"), "float32[16@y]")):
            both_raise(Exception, "This reshape is not supported. Please specify the sharding of the output via the `out_sharding` argument of jax.lax.reshape. "
                       f"Got operand type: {t}, new sizes: {shape}", lambda v, shape=shape: v.reshape(shape), a)
        # reductions drop the reduced dimensions
        both(lambda a: a.sum(0), xe, typ="float32[8@y]", value=ex.sum(0))
        both(lambda a: a.sum(1), xe, typ="float32[8@x]")
        both(lambda a: a.sum(), xe, typ="float32[]", spec=P())
        both(lambda a: a.argmax(0), xe, typ="int32[8@y]")
        both(lambda a: a.max(0), xe, typ="float32[8@y]")
        both(lambda a: a.mean(0), xe, typ="float32[8@y]")
        both(lambda a: a.var(0), xe, typ="float32[8@y]")
        both(lambda a: jnp.prod(a, 0), xe, typ="float32[8@y]")
        both(lambda a: jnp.any(a > 0, 0), xe, typ="bool[8@y]")
        both(lambda a: a.sum(0, keepdims=True), xe, typ="float32[1,8@y]")
        both(lambda a: jax.nn.logsumexp(a, 1), xe, typ="float32[8@x]")
        # along a dimension: it must be unsharded
        both(lambda a: jnp.cumsum(a, 1), xx, typ="float32[8@x,8]", value=np.cumsum(ex, 1))
        both_raise(Exception, "Input should be unsharded over the axis being reduced. Got input type=float32[8@x,8@y] and axis=0",
                   lambda a: jnp.cumsum(a, 0), xe)
        both(lambda a: jnp.sort(a, 1), xx, typ="float32[8@x,8]")
        both(lambda a: jnp.argsort(a, 1), xx, typ="int32[8@x,8]")
        both_raise(Exception, "Arguments to sort must be unsharded over the sorting dimension. Got arg sharding=NamedSharding(mesh=AbstractMesh('x': 2, 'y': 4, axis_types=(Explicit, Explicit), device_kind=cpu, num_cores=None, platform=cpu), spec=P('x', 'y')) and sorting dimension=0",
                   lambda a: jnp.sort(a, 0), xe)
        # dot_general
        a_x, b_y = put(jnp.ones((8, 8)), "x", None), put(jnp.ones((8, 8)), None, "y")
        both(lambda a, b: a @ b, a_x, b_y, typ="float32[8@x,8@y]", value=np.full((8, 8), 8.))
        both(lambda a, b: a @ b, b_y, jnp.ones((8, 8)), typ="float32[8,8]", spec=P(None, None))
        both(lambda a: a @ jnp.ones(8), xe, typ="float32[8@x]")
        both(lambda a: jnp.einsum("ij,jk->ik", a, jnp.ones((8, 8))), xe, typ="float32[8@x,8]")
        both(lambda a, b: jnp.einsum("bij,bjk->bik", a, b), put(jnp.ones((2, 8, 8)), "x", "y"),
             put(jnp.ones((2, 8, 8)), "x"), typ="float32[2@x,8@y,8]")
        both(lambda u, v: jnp.outer(u, v), put(jnp.ones(8), "x"), put(jnp.ones(8), "y"), typ="float32[8@x,8@y]")
        both_raise(Exception, "Contracting dimensions are sharded and it is ambiguous how the output should be sharded. Please specify the output sharding via the `out_sharding` parameter. Got lhs_contracting_spec=('y',) and rhs_contracting_spec=('y',)",
                   lambda a, b: a @ b, b_y, put(jnp.ones((8, 8)), "y", None))
        both_raise(Exception, "dot_general requires contracting dimensions to have consistent sharding, got ('y',) and ('x',).",
                   lambda a: a @ a, xe)
        both_raise(Exception, "dot_general operation with inputs: f32[8@x,4], f32[4,8@x] produces an illegally sharded result: f32[8@x,8@x]",
                   lambda a, b: a @ b, put(jnp.ones((8, 4)), "x"), put(jnp.ones((4, 8)), None, "x"))
        both_raise(ValueError, "0th dimension of all xs should be replicated. Got P('x', 'y')",
                   lambda a: jax.lax.scan(lambda c, r: (c + r, r.sum()), jnp.zeros(8), a), xe)
        both(lambda a: jax.lax.scan(lambda c, r: (c + r, r.sum()), jnp.zeros(8), a)[0], xy, value=np.arange(64.).reshape(8, 8).sum(0))
        # committed operands elsewhere: the devices error prints the sharded type (S5.5)
        raises(ValueError, "Received incompatible devices for jitted computation. Got argument x of add with shape float32[8@x,8@y] and with device ids [0, 1, 2, 3, 4, 5, 6, 7] on platform CPU and argument y of add with shape float32[8,8] and with device ids [1] on platform CPU",
               lambda: xe + jax.device_put(jnp.ones((8, 8)), jax.devices()[1]))
        # control flow and nested jit keep the types
        both(lambda a: jax.lax.cond(True, lambda v: v * 2, lambda v: v, a), xe, typ="float32[8@x,8@y]")
        both(lambda a: jax.lax.fori_loop(0, 3, lambda i, v: v * 2, a), xe, typ="float32[8@x,8@y]")
        both(lambda a: jax.jit(lambda b: b.T)(a) + 1, xe, typ="float32[8@y,8@x]")
        both(jax.vmap(lambda r: r.sum()), xe, typ="float32[8@x]")
        """,
    )


def test_S8_3_indexing_sharded_dimensions():
    run(
        _HELPERS,
        """
        msg = ("Use `.at[...].get(out_sharding=)` to provide output PartitionSpec for the gather indexing as out sharding "
               "could not be resolved unambiguously (or would require collectives on inputs). ")
        raises(Exception, msg + "Got operand=ShapedArray(float32[8@x,8@y]), indices=ShapedArray(int32[1])", lambda: xe[0])
        raises(Exception, msg + "Got operand=ShapedArray(float32[8@x,8@y]), indices=ShapedArray(int32[1])", lambda: xe[:2])
        raises(Exception, msg + "Got operand=ShapedArray(float32[8@x,8]), indices=ShapedArray(int32[1])", lambda: xx[0])
        raises(Exception, msg + "Got operand=ShapedArray(float32[8@x,8@y]), indices=ShapedArray(int32[2,1])", lambda: xe[jnp.array([0, 1])])
        raises(Exception, msg, lambda: repr(xe[:2]))                                  # printing a slice
        # unsharded dimensions index freely, eagerly and under jit
        both(lambda a: a[:, 0], xx, typ="float32[8@x]", value=np.arange(64.).reshape(8, 8)[:, 0])
        both(lambda a: a[:, :2], xx, typ="float32[8@x,2]")
        both(lambda a: a[0], xy, typ="float32[8@y]")
        both(lambda a: a[2:4], xy, typ="float32[2,8@y]")
        # under jit a static index is a slice: JAX's slicing rule decides
        raises(Exception, "slicing on sharded dims where out dim (1) is not divisible by mesh axes (2) with spec (x) is not implemented. Got input type=f32[8@x,8@y] and output shape=(1, 8)",
               jax.jit(lambda a: a[0]), xe)
        # .at[...].get(out_sharding=) resolves it
        with jax.set_mesh(me):
            # (eagerly: JAX's jitted static indexing is a slice, which raises the rule above)
            r = xe.at[0].get(out_sharding=P("y"))
            assert str(jax.typeof(r)) == "float32[8@y]" and np.asarray(r).tolist() == list(range(8))
            assert str(jax.typeof(xe.at[:2].get(out_sharding=P("x", "y")))) == "float32[2@x,8@y]"
        """,
    )


def test_S8_4_reshard_and_out_sharding():
    run(
        _HELPERS,
        """
        r = jax.sharding.reshard(xe, NamedSharding(me, P("y")))                          # S8.4
        assert r.sharding.spec == P("y", None) and str(jax.typeof(r)) == "float32[8@y,8]"
        np.testing.assert_array_equal(np.asarray(r), np.arange(64.).reshape(8, 8))
        assert jax.reshard is jax.sharding.reshard
        nope = "Using PartitionSpec when you are not under a mesh context is not allowed. Please pass a NamedSharding instance or enter into a mesh context via `jax.set_mesh`. Got P('x', 'y')"
        raises(ValueError, nope, jax.sharding.reshard, xe, P("x", "y"))
        raises(ValueError, nope, jnp.zeros, (8, 8), out_sharding=P("x", "y"))
        raises(ValueError, "PartitionSpec passed to reshard cannot contain axis names that are of type Auto or Manual. Got PartitionSpec: P('x',) with axis name: x of type: AxisType.Auto.",
               jax.sharding.reshard, jnp.ones(8), NamedSharding(ma, P("x")))
        raises(ValueError, "Sharding spec ('y',) implies that array axis 0 is partitioned 4 times, but does not evenly divide the dimension size 6.",
               jax.sharding.reshard, jnp.ones(6), NamedSharding(me, P("y")))
        with jax.set_mesh(me):
            both(lambda a: jax.sharding.reshard(a, P("y")), xe, typ="float32[8@y,8]", spec=P("y", None))
            both(lambda a: jax.sharding.reshard(a, P()), xe, typ="float32[8,8]", spec=P(None, None))
            # out_sharding= of the products resolves ambiguous contractions
            a_y, b_y = put(jnp.ones((8, 8)), None, "y"), put(jnp.ones((8, 8)), "y", None)
            both(lambda a, b: jnp.dot(a, b, out_sharding=P("x")), a_y, b_y, typ="float32[8@x,8]", value=np.full((8, 8), 8.))
            both(lambda a, b: jnp.matmul(a, b, out_sharding=P("x", "y")), a_y, b_y, typ="float32[8@x,8@y]")
            both(lambda a, b: jnp.einsum("ij,jk->ik", a, b, out_sharding=P("x")), a_y, b_y, typ="float32[8@x,8]")
            both(lambda a, b: jax.lax.dot_general(a, b, (((1,), (0,)), ((), ())), out_sharding=P(None, "y")), a_y, b_y,
                 typ="float32[8,8@y]")
            both(lambda a: jax.lax.reshape(a, (4, 16), out_sharding=P("x")), xe, typ="float32[4@x,16]",
                 value=np.arange(64.).reshape(4, 16))
            both(lambda a: jnp.reshape(a, (4, 16), out_sharding=P("x")), xe, typ="float32[4@x,16]")
            # creation functions and samplers
            both(lambda: jnp.zeros((8, 8), out_sharding=P("x")), typ="float32[8@x,8]", spec=P("x", None))
            both(lambda: jnp.ones((8, 8), out_sharding=P("x", "y")), typ="float32[8@x,8@y]")
            both(lambda: jnp.full((8, 8), 3., dtype=jnp.float32, out_sharding=P("x", "y")), typ="float32[8@x,8@y]", value=np.full((8, 8), 3.))
            both(lambda: jnp.full((8, 8), 3., out_sharding=P("x", "y")), typ="~float32[8@x,8@y]")
            both(lambda v: jax.lax.broadcast_in_dim(v, (8, 8), (1,), out_sharding=P("x", None)), jnp.ones(8), typ="float32[8@x,8]")
            both(lambda: jnp.arange(8., out_sharding=P("x")), typ="float32[8@x]", value=np.arange(8.))
            both(lambda: jnp.empty((8,), out_sharding=P("x")), typ="float32[8@x]")
            both(lambda a: jnp.zeros_like(a, out_sharding=P("y")), xe, typ="float32[8@y,8]", spec=P("y", None))
            k = jax.random.key(0)
            both(lambda k: jax.random.normal(k, (8, 8), out_sharding=P("x")), k, typ="float32[8@x,8]")
            both(lambda k: jax.random.uniform(k, (8,), out_sharding=P("x")), k, typ="float32[8@x]")
            both(lambda k: jax.random.bits(k, (8,), out_sharding=P("x")), k, typ="uint32[8@x]")
            both(lambda k: jax.random.randint(k, (8,), 0, 4, out_sharding=P("x")), k, typ="int32[8@x]")
            both(lambda k: jax.nn.initializers.normal()(k, (8, 4), out_sharding=P("x")), k, typ="float32[8@x,4]")
            v = jax.random.normal(k, (8, 8), out_sharding=P("x"))
            np.testing.assert_array_equal(np.asarray(v), np.asarray(jax.random.normal(k, (8, 8))))
            raises(ValueError, "Resource axis: z of P('z',) is not found in mesh: ('x', 'y').", jnp.zeros, (8,), out_sharding=P("z"))
            raises(ValueError, "Sharding spec ('y',) implies that array axis 0 is partitioned 4 times, but does not evenly divide the dimension size 6.",
                   jnp.zeros, (6,), out_sharding=P("y"))
        # a NamedSharding needs no context
        assert jax.jit(lambda a, b: jnp.dot(a, b, out_sharding=NamedSharding(me, P("x"))))(
            put(jnp.ones((8, 8)), None, "y"), put(jnp.ones((8, 8)), "y", None)).sharding.spec == P("x", None)
        """,
    )


def test_S8_5_creation_under_set_mesh():
    run(
        _HELPERS,
        """
        assert jnp.zeros((8, 8)).sharding == SingleDeviceSharding(jax.devices()[0])     # S8.5
        with jax.set_mesh(me):
            z = jnp.zeros((8, 8))
            assert repr(z.sharding) == "NamedSharding(mesh=Mesh('x': 2, 'y': 4, axis_types=(Explicit, Explicit)), spec=P(None, None), memory_kind=device)"
            assert str(jax.typeof(z)) == "float32[8,8]"
            assert jax.typeof(z).sharding.spec == P(None, None)
            for make, spec in ((lambda: jnp.ones(8), P(None,)), (lambda: jnp.arange(8.), P(None,)),
                               (lambda: jnp.full((2, 3), 1.), P(None, None)), (lambda: jnp.eye(4), P(None, None)),
                               (lambda: jnp.linspace(0, 1, 8), P(None,)), (lambda: jnp.array([1., 2.]), P()),
                               (lambda: jnp.zeros(8) + 1, P(None,)), (lambda: jnp.full_like(np.ones(4), 2.), P(None,)),
                               (lambda: jax.random.normal(jax.random.key(0), (8, 8)), P(None, None))):
                r = make()
                assert r.sharding == NamedSharding(me, spec), (r.sharding, spec)
            assert jnp.zeros_like(xe).sharding.spec == P("x", "y")
            assert jax.device_put(jnp.ones((8, 8)), P("x")).sharding.spec == P("x")
            r = jax.jit(lambda: jnp.zeros((8, 8)))()
            assert r.sharding == NamedSharding(me, P(None, None)), r.sharding
        with jax.set_mesh(ma):
            assert jnp.zeros(8).sharding == NamedSharding(ma, P())
        assert jnp.zeros((8, 8)).sharding == SingleDeviceSharding(jax.devices()[0])
        assert jnp.zeros_like(xe).sharding.spec == P("x", "y")                          # like its operand
        """,
    )


def test_auto_axes_explicit_axes_and_gradients():
    run(
        _HELPERS,
        """
        with jax.set_mesh(me):
            f = jax.sharding.auto_axes(lambda a: a + a.T, out_sharding=P("x", "y"))
            ex = np.arange(64.).reshape(8, 8)
            both(f, xe, typ="float32[8@x,8@y]", value=ex + ex.T)
            seen = []
            def inner(a):
                seen.append(str(jax.typeof(a)))
                return a
            jax.sharding.auto_axes(inner, out_sharding=P("x"))(xe)
            assert seen == ["float32[8,8]"], seen
            raises(TypeError, "Missing required keyword argument: 'out_sharding'", jax.sharding.auto_axes(lambda a: a), xe)
            raises(Exception, "add operation with inputs: f32[8,8@y], f32[8@y,8] produces an illegally sharded result: f32[8@y,8@y]",
                   jax.sharding.auto_axes(lambda a: a + a.T, axes="x", out_sharding=P("x", "y")), xe)
        with jax.set_mesh(ma):
            xa = jax.device_put(jnp.arange(64.).reshape(8, 8), P("x", "y"))
            seen = []
            def inner2(a):
                seen.append(str(jax.typeof(a)))
                return a * 2
            r = jax.sharding.explicit_axes(inner2, in_sharding=P("x"))(xa)
            assert seen == ["float32[8@x,8]"] and str(jax.typeof(r)) == "float32[8,8]", (seen, jax.typeof(r))
            assert r.sharding.mesh == ma and r.sharding.spec[0] == "x"
            np.testing.assert_array_equal(np.asarray(r), 2 * np.arange(64.).reshape(8, 8))
            raises(TypeError, "Missing required keyword argument: 'in_sharding'", jax.sharding.explicit_axes(inner2), xa)
        # gradients: the cotangent has the primal's sharding, and no false ShardingTypeError
        # from the transposed products (whose contracting dimensions are sharded alike)
        a, b = put(jnp.ones((8, 8)), "x", None), put(jnp.ones((8, 8)), None, "y")
        ga, gb = jax.jit(jax.grad(lambda a, b: (a @ b).sum(), argnums=(0, 1)))(a, b)
        assert ga.sharding.spec == P("x", None) and gb.sharding.spec == P(None, "y"), (ga.sharding, gb.sharding)
        np.testing.assert_allclose(np.asarray(ga), np.full((8, 8), 8.))
        """,
    )


@pytest.mark.jaxlite_only
def test_S8_jaxlite_specifics():
    """Where jaxlite is deliberate: ShardingTypeError is public in jaxlite.errors (S8.2), eager
    grad over Explicit arrays works (JAX asks for a mesh context), and a rank mismatch on an
    Explicit mesh is the Auto-mesh ValueError (JAX: AssertionError, S5.4)."""
    run(
        _HELPERS,
        """
        import jaxlite.errors
        e = raises(jaxlite.errors.ShardingTypeError, "add got incompatible", lambda: xe + xe.T)
        assert type(e).__module__.startswith("jaxlite")
        a, b = put(jnp.ones((8, 8)), "x", None), put(jnp.ones((8, 8)), None, "y")
        ga = jax.grad(lambda a, b: (a @ b).sum())(a, b)
        assert ga.sharding.spec == P("x", None)
        raises(ValueError, "is only valid for values of rank at least 2, but was applied to a value of rank 1.",
               jax.sharding.reshard, jnp.ones(8), NamedSharding(me, P("x", "y")))
        with jax.set_mesh(me):
            raises(ValueError, "is only valid for values of rank at least 2", jnp.zeros, (8,), out_sharding=P("x", "y"))
        """,
    )
