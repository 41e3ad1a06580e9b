# ruff: noqa: E501 (check scripts are data: long lines keep exact JAX messages whole)
"""S2-S5 and S7 (spec/sharding.md): meshes, the mesh context, PartitionSpec, the sharding
classes, device_put and sharded arrays, and jit shardings. Grouped per subprocess."""

import pytest

from tests.sharding._subproc import run


def test_S2_meshes_and_context():
    run(
        """
        m = jax.make_mesh((2, 4), ("x", "y"))                                   # S2.1
        assert m.axis_types == (AxisType.Explicit, AxisType.Explicit)
        assert repr(m) == "Mesh(axis_sizes=(2, 4), axis_names=('x', 'y'), axis_types=(Explicit, Explicit))"
        assert str(m) == "Mesh('x': 2, 'y': 4, axis_types=(Explicit, Explicit))"
        assert list(m.shape.items()) == [("x", 2), ("y", 4)] and m.axis_sizes == (2, 4)
        assert m.shape_tuple == (("x", 2), ("y", 4)) and m.size == 8
        assert m.devices.shape == (2, 4) and m.device_ids.tolist() == [[0, 1, 2, 3], [4, 5, 6, 7]]
        assert not m.empty and not m.is_multi_process
        assert m == jax.make_mesh((2, 4), ("x", "y")) and hash(m) == hash(jax.make_mesh((2, 4), ("x", "y")))
        ma = jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Auto,) * 2)
        assert ma != m
        assert repr(ma.abstract_mesh) == ("AbstractMesh('x': 2, 'y': 4, axis_types=(Auto, Auto), "
                                          "device_kind=cpu, num_cores=None, platform=cpu)")
        sub = jax.make_mesh((2,), ("i",), devices=jax.devices()[4:6])
        assert sub.device_ids.tolist() == [4, 5]
        raises(ValueError, "Number of devices 8 must be >= the product of mesh_shape (3, 4)",
               jax.make_mesh, (3, 4), ("x", "y"))
        assert jax.make_mesh((2.0, 2), ("a", "b")).axis_sizes == (2, 2)         # S16.3
        raises(ValueError, "`axis_shapes` passed to `make_mesh` should be a sequence of ints",
               jax.make_mesh, (None, 2), ("a", "b"))
        raises(TypeError, "not iterable", jax.make_mesh, 4, ("a",))
        mi = Mesh(jax.devices(), "i")                                           # S2.2
        assert mi.axis_names == ("i",) and mi.axis_types == (AxisType.Auto,)
        raises(ValueError, "Mesh requires the ndim of its first argument (`devices`) to equal "
               "the length of its second argument (`axis_names`), but got devices.ndim == 2 and "
               "len(axis_names) == 1.", Mesh, np.array(jax.devices()).reshape(2, 4), ("i",))
        # S2.4 the mesh context
        assert repr(jax.sharding.get_abstract_mesh()) == "AbstractMesh((), axis_types=())"
        with jax.set_mesh(m):
            assert jax.sharding.get_abstract_mesh() == m.abstract_mesh
            assert jax.sharding.get_mesh() == m
        assert jax.sharding.get_abstract_mesh().empty
        jax.set_mesh(ma)
        assert jax.sharding.get_mesh() == ma
        jax.set_mesh(None)
        assert jax.sharding.get_mesh().empty
        raises(ValueError, "Expected mesh of type `jax.sharding.Mesh`. Got <class", jax.set_mesh, P())
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            with m:
                pass
        assert any("`with mesh:` context manager has been deprecated" in str(x.message) for x in w)
        assert not hasattr(jax.sharding, "use_mesh") and not hasattr(jax.sharding, "PositionalSharding")
        """
    )


def test_S3_S4_specs_and_sharding_classes():
    run(
        """
        assert repr(P("x", "y")) == "P('x', 'y')" and repr(P("x")) == "P('x',)"   # S3.1
        assert repr(P()) == "P()" and repr(P(None, "y")) == "P(None, 'y')"
        assert repr(P(("x", "y"),)) == "P(('x', 'y'),)" and str(P("x")) == "P('x',)"
        assert len(P("x", None)) == 2 and tuple(P("x", None)) == ("x", None)
        assert P("x", "y")[0] == "x" and P("x", "y")[1:] == ("y",)
        assert P("x") != P("x", None) and P() != P(None) and P("x") == P("x")    # S3.2
        assert jax.P is P
        m = jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Auto,) * 2)
        assert NamedSharding(m, P("x")) != NamedSharding(m, P("x", None))
        e = raises(Exception, "A single NamedSharding spec specification can map every mesh axis "
                   "to at most one positional dimension, but P('x', 'x') has duplicate entries "
                   "for `x`", NamedSharding, m, P("x", "x"))                    # S3.3
        assert type(e).__name__ == "DuplicateSpecError"
        me = jax.make_mesh((2, 4), ("x", "y"))
        ns = NamedSharding(me, P("x", "y"))                                      # S4.1
        assert repr(ns) == ("NamedSharding(mesh=Mesh('x': 2, 'y': 4, axis_types=(Explicit, "
                            "Explicit)), spec=P('x', 'y'), memory_kind=device)")
        assert ns.mesh == me and ns.spec == P("x", "y") and ns.num_devices == 8
        assert ns.device_set == set(jax.devices()) and not ns.is_fully_replicated
        assert ns.is_fully_addressable and ns.memory_kind == "device"
        assert NamedSharding(m, P()).is_fully_replicated
        raises(ValueError, "Resource axis: z of P('z',) is not found in mesh: ('x', 'y').",
               NamedSharding, m, P("z"))
        dim = ns.devices_indices_map((8, 8))                                     # S4.2
        assert list(dim) == jax.devices()
        assert dim[jax.devices()[0]] == (slice(0, 4), slice(0, 2))
        assert dim[jax.devices()[1]] == (slice(0, 4), slice(2, 4))
        assert dim[jax.devices()[7]] == (slice(4, 8), slice(6, 8))
        assert NamedSharding(m, P("x")).devices_indices_map((8, 8))[jax.devices()[5]] == (slice(4, 8), slice(None))
        blocks = [s[0].start for s in NamedSharding(m, P(("y", "x"))).devices_indices_map((8,)).values()]
        assert blocks == [0, 2, 4, 6, 1, 3, 5, 7]
        blocks = [s[0].start for s in NamedSharding(m, P(("x", "y"))).devices_indices_map((8,)).values()]
        assert blocks == list(range(8))
        assert ns.shard_shape((8, 8)) == (4, 2)
        e = raises(ValueError, "implies that array axis 1 is partitioned 4 times, but the dimension "
                   "size is 6 (full shape: (6, 6), per-dimension tiling factors: [2, 4] should "
                   "evenly divide the shape)", ns.shard_shape, (6, 6))
        assert type(e).__name__ == "IndivisibleError"
        s3 = SingleDeviceSharding(jax.devices()[3])                             # S4.3
        assert repr(s3) == "SingleDeviceSharding(device=CpuDevice(id=3), memory_kind=device)"
        assert s3.device_set == {jax.devices()[3]} and s3.is_fully_replicated and s3.num_devices == 1
        assert isinstance(ns, jax.sharding.Sharding) and isinstance(s3, jax.sharding.Sharding)
        """
    )


def test_S5_arrays_and_placement():
    run(
        """
        x = jnp.arange(8.)                                                       # S5.1
        assert x.sharding == SingleDeviceSharding(jax.devices()[0]) and not x.committed
        assert x.devices() == {jax.devices()[0]} and str(x.device) == "cpu:0"
        (sh,) = x.addressable_shards
        assert sh.device == jax.devices()[0] and sh.index == (slice(None),) and sh.replica_id == 0
        m = jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Auto,) * 2)
        xs = jax.device_put(jnp.arange(64.).reshape(8, 8), NamedSharding(m, P("x", "y")))  # S5.3
        assert xs.committed and xs.sharding == NamedSharding(m, P("x", "y"))
        assert not xs.is_fully_replicated and xs.is_fully_addressable
        assert len(xs.addressable_shards) == len(xs.global_shards) == 8
        s5 = xs.addressable_shards[5]
        assert s5.device == jax.devices()[5] and s5.index == (slice(4, 8), slice(2, 4))
        assert np.asarray(s5.data).tolist() == [[34, 35], [42, 43], [50, 51], [58, 59]]
        assert s5.data.sharding == SingleDeviceSharding(jax.devices()[5])
        assert np.asarray(xs.addressable_data(5)).tolist() == np.asarray(s5.data).tolist()
        assert (np.asarray(xs) == np.arange(64.).reshape(8, 8)).all()
        xr = jax.device_put(jnp.arange(64.).reshape(8, 8), NamedSharding(m, P("x")))
        assert [s.replica_id for s in xr.addressable_shards] == [0, 1, 2, 3, 0, 1, 2, 3]
        assert jax.device_put(jnp.ones(3), jax.devices()[3]).devices() == {jax.devices()[3]}
        assert not jax.device_put(jnp.ones(3)).committed                          # S5.2
        tree = jax.device_put({"a": jnp.ones(8), "b": jnp.zeros(8)}, NamedSharding(m, P("y")))
        assert tree["a"].sharding.spec == P("y") and tree["b"].sharding.spec == P("y")
        tree = jax.device_put((jnp.ones(8), jnp.ones(8)), (NamedSharding(m, P("y")), jax.devices()[1]))
        assert tree[1].devices() == {jax.devices()[1]}
        raises(ValueError, "Please set a mesh via `jax.set_mesh` if a PartitionSpec is passed to device_put",
               jax.device_put, jnp.ones(8), P("x"))
        with jax.set_mesh(m):
            assert jax.device_put(jnp.ones(8), P("x")).sharding == NamedSharding(m, P("x"))
        # S5.4 placement errors (Auto and Explicit meshes)
        raises(ValueError, "Sharding NamedSharding(mesh=Mesh('x': 2, 'y': 4, axis_types=(Auto, "
               "Auto)), spec=P('y',), memory_kind=device) implies that array axis 0 is partitioned "
               "4 times, but the dimension size is 6 (full shape: (6,), per-dimension tiling "
               "factors: [4] should evenly divide the shape)",
               jax.device_put, jnp.arange(6.), NamedSharding(m, P("y")))
        raises(ValueError, "One of device_put args is incompatible with its sharding annotation "
               "NamedSharding(mesh=Mesh('x': 2, 'y': 4, axis_types=(Auto, Auto)), spec=P('x', "
               "'y'), memory_kind=device): Sharding NamedSharding(mesh=Mesh('x': 2, 'y': 4, "
               "axis_types=(Auto, Auto)), spec=P('x', 'y'), memory_kind=device) is only valid for "
               "values of rank at least 2, but was applied to a value of rank 1.",
               jax.device_put, jnp.zeros(8), NamedSharding(m, P("x", "y")))
        me = jax.make_mesh((2, 4), ("x", "y"))
        raises(ValueError, "Sharding spec ('y',) implies that array axis 0 is partitioned 4 times, "
               "but does not evenly divide the dimension size 6. Got shape: (6,) and sharding "
               "NamedSharding(mesh=AbstractMesh('x': 2, 'y': 4, axis_types=(Explicit, Explicit), "
               "device_kind=cpu, num_cores=None, platform=cpu), spec=P('y',))",
               jax.device_put, jnp.arange(6.), NamedSharding(me, P("y")))
        # A failed device_put of a tree places nothing and leaves the inputs as they were.
        a = jnp.ones(8)
        raises(ValueError, None, jax.device_put, (a, jnp.arange(6.)), NamedSharding(m, P("y")))
        assert not a.committed and a.sharding == SingleDeviceSharding(jax.devices()[0])
        # S5.5 committed arrays on different devices; uncommitted ones follow.
        y = jnp.arange(8.) + jax.device_put(jnp.ones(8), jax.devices()[3])
        assert y.devices() == {jax.devices()[3]}
        raises(ValueError, "Received incompatible devices for jitted computation. Got argument x "
               "of add with shape float32[3] and with device ids [0] on platform CPU and argument "
               "y of add with shape float32[3] and with device ids [1] on platform CPU",
               jnp.add, jax.device_put(jnp.ones(3), jax.devices()[0]),
               jax.device_put(jnp.ones(3), jax.devices()[1]))
        raises(ValueError, "Got argument u of <lambda> with shape float32[3] and with device ids [0]",
               jax.jit(lambda u, v: u * v), jax.device_put(jnp.ones(3), jax.devices()[0]),
               jax.device_put(jnp.ones(3), jax.devices()[1]))
        # Values are the single-device values; elementwise results keep the sharding (S7.4).
        xa = jax.device_put(jnp.arange(64.).reshape(8, 8), NamedSharding(m, P("x", "y")))
        z = jnp.sin(xa) * 2 + 1
        assert z.sharding == xa.sharding and np.allclose(np.asarray(z), np.sin(np.arange(64.).reshape(8, 8)) * 2 + 1)
        zj = jax.jit(lambda a: a + 1)(xa)
        assert zj.sharding == xa.sharding and np.asarray(zj)[7, 7] == 64.
        assert float(jnp.sum(xa)) == 2016.0 and float(jax.jit(jnp.sum)(xa)) == 2016.0
        """
    )


def test_S7_jit_shardings_and_constraints():
    run(
        """
        m = jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Auto,) * 2)
        x = jnp.arange(64.).reshape(8, 8)
        f = jax.jit(lambda a, b: a + b, in_shardings=NamedSharding(m, P("x")))   # S7.1
        assert f(x, x).sharding == NamedSharding(m, P("x")) and np.asarray(f(x, x))[1, 1] == 18.
        g = jax.jit(lambda a: a * 2, out_shardings=NamedSharding(m, P("x")))
        assert g(x).sharding == NamedSharding(m, P("x")) and g(x).committed
        h = jax.jit(lambda a: a * 2, out_shardings=SingleDeviceSharding(jax.devices()[5]))
        assert h(x).devices() == {jax.devices()[5]}
        raises(ValueError, "Sharding passed to jit does not match the sharding on the respective "
               "arg. Got jit sharding: NamedSharding(mesh=Mesh('x': 2, 'y': 4, axis_types=(Auto, "
               "Auto)), spec=P('x', 'y'), memory_kind=device),\\narg sharding: NamedSharding(mesh="
               "Mesh('x': 2, 'y': 4, axis_types=(Auto, Auto)), spec=P('y', 'x'), memory_kind=device) "
               "for arg type: float32[8,8]",
               jax.jit(lambda a: a, in_shardings=NamedSharding(m, P("x", "y"))),
               jax.device_put(x, NamedSharding(m, P("y", "x"))))
        raises(RuntimeError, "jit requires a non-empty mesh in context if you are passing "      # S7.2
               "`PartitionSpec`s to out_shardings. You can define a context mesh via "
               "`jax.set_mesh(mesh)`. Alternatively, provide `Sharding`s to out_shardings and "
               "then the mesh context manager is not required.",
               jax.jit(lambda a: a, out_shardings=P("x")), x)
        raises(ValueError, "pjit in_shardings specification must be a tree prefix of the "
               "positional arguments tuple. In particular, pjit in_shardings must either be a "
               "Sharding, a PartitionSpec, or a tuple of length equal to the number of "
               "positional arguments. But pjit in_shardings is the wrong length: got a tuple or "
               "list of length 1 for an args tuple of length 2.",
               jax.jit(lambda a, b: a + b, in_shardings=(NamedSharding(m, P("x")),)), x, x)
        raises(ValueError, "One of pjit arguments with pytree key path a is incompatible with its "
               "sharding annotation", jax.jit(lambda a: a, in_shardings=NamedSharding(m, P("x", "y"))),
               jnp.ones(8))
        with jax.set_mesh(m):
            assert jax.jit(lambda a: a, out_shardings=P("y"))(x).sharding == NamedSharding(m, P("y"))
        wsc = jax.lax.with_sharding_constraint                                    # S7.3
        assert wsc(x, NamedSharding(m, P("x"))).sharding == NamedSharding(m, P("x"))
        r = jax.jit(lambda a: wsc(a * 3, NamedSharding(m, P("x"))) + 1)(x)
        assert r.sharding == NamedSharding(m, P("x")) and np.asarray(r)[0, 1] == 4.
        raises(RuntimeError, "with_sharding_constraint requires a non-empty mesh in context if "
               "you are passing `PartitionSpec`s to shardings.", wsc, x, P("x"))
        raises(ValueError, "One of with_sharding_constraint arguments is incompatible with its "
               "sharding annotation", wsc, jnp.ones(8), NamedSharding(m, P("x", "y")))
        me = jax.make_mesh((2, 4), ("x", "y"))
        raises(ValueError, "The spec of NamedSharding passed to with_sharding_constraint can only "
               "refer to Auto axes of the mesh.", wsc, x, NamedSharding(me, P("x")))   # S16.4
        with jax.set_mesh(me):                                                   # S16.4
            xe = jax.device_put(jnp.ones(8), P("x"))
            assert wsc(xe, P("x")).sharding == NamedSharding(me, P("x"))
            raises(AssertionError, "`with_sharding_constraint` acts as an assert when all axes of mesh are of type `Explicit`. The array sharding: P('x',) did not match the sharding provided: P(None,). Please use `jax.sharding.reshard` to shard your input to the sharding you want.",
                   wsc, xe, P())
            raises(AssertionError, "The array sharding: P(None,) did not match the sharding provided: P('x',).", wsc, jnp.ones(8), P("x"))
        with jax.set_mesh(m):
            assert wsc(jnp.ones(8), P("x")).sharding == NamedSharding(m, P("x"))
        assert not hasattr(jax.sharding, "Infer")                                 # S16.2
        # grad through a constraint
        gr = jax.grad(lambda a: wsc(a * a, NamedSharding(m, P("x"))).sum())(x)
        assert np.allclose(np.asarray(gr), 2 * np.arange(64.).reshape(8, 8))
        """
    )


def test_S8_typeof_explicit():
    run(
        """
        me = jax.make_mesh((2, 4), ("x", "y"))
        xe = jax.device_put(jnp.arange(64.).reshape(8, 8), NamedSharding(me, P("x", "y")))
        assert str(jax.typeof(xe)) == "float32[8@x,8@y]"                           # S8.1
        assert jax.typeof(xe).sharding.spec == P("x", "y")
        assert str(jax.typeof(jax.device_put(jnp.ones((8, 8)), NamedSharding(me, P("x"))))) == "float32[8@x,8]"
        assert str(jax.typeof(jax.device_put(jnp.ones((8, 8)), NamedSharding(me, P(("x", "y")))))) == "float32[8@(x,y),8]"
        ma = jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Auto,) * 2)
        assert str(jax.typeof(jax.device_put(jnp.ones((8, 8)), NamedSharding(ma, P("x"))))) == "float32[8,8]"
        """
    )


def test_S4_4_S8_4_S13_3_reshard_constructors_and_removed_names():
    run(
        """
        m = jax.make_mesh((8,), ("i",), axis_types=(AxisType.Auto,))
        me = jax.make_mesh((8,), ("i",))
        raises(ValueError, "Using PartitionSpec when you are not under a mesh context is not allowed. Please pass a NamedSharding instance or enter into a mesh context via `jax.set_mesh`. Got P('i',)",
               jax.reshard, jnp.ones(8), P("i"))
        raises(ValueError, "PartitionSpec passed to reshard cannot contain axis names that are of type Auto or Manual. Got PartitionSpec: P('i',) with axis name: i of type: AxisType.Auto.",
               jax.reshard, jnp.ones(8), NamedSharding(m, P("i")))
        assert jax.reshard(jnp.ones(8), NamedSharding(me, P("i"))).sharding == NamedSharding(me, P("i"))
        with jax.set_mesh(me):
            assert jax.sharding.reshard(jnp.ones(8), P("i")).sharding == NamedSharding(me, P("i"))
        s = NamedSharding(m, P("i"))
        a = jax.make_array_from_callback((16,), s, lambda idx: np.arange(16.)[idx])
        assert a.sharding == s and np.asarray(a).tolist() == list(np.arange(16.))
        parts = [jax.device_put(np.arange(2.) + 2 * i, d) for i, d in enumerate(m.devices.flat)]
        b = jax.make_array_from_single_device_arrays((16,), s, parts)
        assert np.asarray(b).tolist() == list(np.arange(16.)) and b.sharding == s
        c = jax.make_array_from_process_local_data(s, np.arange(16.))
        assert c.sharding == s and np.asarray(c)[5] == 5.
        raises(AttributeError, "jax.device_put_sharded is deprecated; use jax.device_put instead. See https://docs.jax.dev/en/latest/migrate_pmap.html#drop-in-replacements for a drop-in replacement.",
               getattr, jax, "device_put_sharded")
        raises(AttributeError, "jax.device_put_replicated is deprecated; use jax.device_put instead.",
               getattr, jax, "device_put_replicated")
        """
    )


def test_multihost_utils_host_local_and_global_arrays_in_one_process():
    """host_local_array_to_global_array / global_array_to_host_local_array / assert_equal and
    Mesh.local_mesh in one process: the local data is the global value, placed by the
    pspec; a fully addressable array comes back as it is; under jit/grad/vmap the value
    passes through. (jaxlite had none of the three functions.)"""
    run(
        """
        import importlib
        mh = importlib.import_module(jax.__name__ + ".experimental.multihost_utils")
        mesh = jax.make_mesh((2, 2), ("x", "y"), axis_types=(AxisType.Auto,) * 2)
        assert mesh.local_mesh == mesh
        a = mh.host_local_array_to_global_array(np.arange(8.0).reshape(4, 2), mesh, P("x"))
        assert a.shape == (4, 2) and a.dtype == jnp.float32 and a.committed
        assert a.sharding == NamedSharding(mesh, P("x")) and not a.weak_type
        assert [np.asarray(s.data).tolist() for s in a.addressable_shards][::2] == [[[0, 1], [2, 3]], [[4, 5], [6, 7]]]
        t = mh.host_local_array_to_global_array({"u": np.arange(4), "w": jnp.ones(3)}, mesh, P())
        assert t["u"].dtype == jnp.int32 and t["u"].sharding == NamedSharding(mesh, P())
        assert t["w"].sharding == NamedSharding(mesh, P()) and t["w"].tolist() == [1.0, 1.0, 1.0]
        t = mh.host_local_array_to_global_array((np.zeros(4), np.ones(2)), mesh, (P("y"), P()))
        assert [v.sharding.spec for v in t] == [P("y"), P()]
        assert mh.global_array_to_host_local_array(a, mesh, P("x")) is a
        assert mh.global_array_to_host_local_array(a, mesh, P("y")) is a  # fully addressable
        b = mh.global_array_to_host_local_array(np.arange(4.0), mesh, P("y"))
        assert b.sharding == NamedSharding(mesh, P("y")) and b.tolist() == [0, 1, 2, 3]
        raises(ValueError, "`None` is not a valid input to the pspecs argument. Please use jax.sharding.PartitionSpec() if you wanted to replicate your input.", mh.host_local_array_to_global_array, np.arange(4.0), mesh, None)
        raises(ValueError, "`None` is not a valid input to the pspecs argument", mh.global_array_to_host_local_array, np.arange(4.0), mesh, None)
        raises(ValueError, "input pspecs specification must be a tree prefix", mh.host_local_array_to_global_array, np.arange(4.0), mesh, [P("x")])
        raises(ValueError, "implies that array axis 0 is partitioned 2 times, but the dimension size is 3", mh.host_local_array_to_global_array, np.arange(3.0), mesh, P("x"))
        f = jax.jit(lambda v: mh.host_local_array_to_global_array(v, mesh, P("x")) * 2)
        assert f(np.arange(4.0)).tolist() == [0, 2, 4, 6]
        g = jax.grad(lambda v: mh.host_local_array_to_global_array(v, mesh, P("x")).sum())
        assert g(np.arange(4.0)).tolist() == [1, 1, 1, 1]
        assert jax.vmap(lambda v: mh.host_local_array_to_global_array(v, mesh, P("x")))(np.ones((3, 4))).shape == (3, 4)
        k = mh.host_local_array_to_global_array(jax.random.key(0), mesh, P())
        assert str(k.dtype) == "key<fry>" and k.sharding == NamedSharding(mesh, P())
        assert mh.assert_equal({"a": np.arange(3), "b": 2.0}, "same everywhere") is None
        """,
        n_devices=4,
    )


@pytest.mark.jaxlite_only
def test_multihost_utils_across_processes_with_a_model_of_two():
    """The multi-process paths, run as process 1 of a two-process model (two devices each;
    no MPI needed: nothing here communicates): Mesh.local_mesh is this process's block of
    the device grid, and a process's local data becomes its part of the global array (rows
    4-7 for P("host")), which global_array_to_host_local_array gives back."""
    run(
        """
        from jaxlite._src import devices as D
        import importlib
        mh = importlib.import_module("jaxlite.experimental.multihost_utils")
        class Model:
            process_index, process_count = 1, 2
            def make_devices(self, n):
                return tuple(D.Device(D.global_device_id(p, i), p, i) for p in range(2) for i in range(n))
        D.set_process_model(Model())
        jax.config.update("jax_num_cpu_devices", 2)
        devs = jax.devices()
        assert [d.id for d in devs] == [0, 1, 2048, 2049] and jax.process_index() == 1
        mesh = Mesh(np.array(devs).reshape(2, 2), ("host", "dev"))
        assert mesh.local_mesh.devices.tolist() == [devs[2:]] and mesh.local_mesh.axis_names == ("host", "dev")
        assert Mesh(np.array(devs).reshape(2, 2).T, ("dev", "host")).local_mesh.devices.tolist() == [[devs[2]], [devs[3]]]
        local = np.arange(4.0) + 10
        for spec in (P("host"), P(("host", "dev"))):
            g = mh.host_local_array_to_global_array(local, mesh, spec)
            assert g.shape == (8,) and not g.is_fully_addressable and g.sharding == NamedSharding(mesh, spec)
            assert sorted(np.asarray(s.data).tolist() for s in g.addressable_shards) in ([[10, 11, 12, 13]] * 2, [[10, 11], [12, 13]])
            back = mh.global_array_to_host_local_array(g, mesh, spec)
            assert back.shape == (4,) and np.asarray(back).tolist() == local.tolist()
            assert back.sharding == NamedSharding(mesh.local_mesh, spec) and back.is_fully_addressable
            assert mh.host_local_array_to_global_array(g, mesh, spec) is g
        raises(NotImplementedError, "resharding across processes", mh.global_array_to_host_local_array, g, mesh, P("dev"))
        raises(NotImplementedError, "across processes", jax.jit(lambda v: mh.host_local_array_to_global_array(v, mesh, P("host"))), local)
        """,
        n_devices=None,
    )


def test_S13_mesh_utils_and_multihost_utils_in_one_process():
    run(
        """
        import importlib
        mesh_utils = importlib.import_module(jax.__name__ + ".experimental.mesh_utils")
        mh = importlib.import_module(jax.__name__ + ".experimental.multihost_utils")
        d = mesh_utils.create_device_mesh((2, 4))
        assert d.shape == (2, 4) and list(d.flat) == jax.devices()
        assert list(mesh_utils.create_device_mesh((4,), devices=jax.devices()[4:])) == jax.devices()[4:]
        raises(ValueError, "Number of devices 8 must equal the product of mesh_shape (3, 4)", mesh_utils.create_device_mesh, (3, 4))
        x = jnp.arange(4.)
        a = mh.process_allgather(x)
        assert type(a) is np.ndarray and a.tolist() == [[0., 1., 2., 3.]]
        assert mh.process_allgather(x, tiled=True).tolist() == [0., 1., 2., 3.]
        assert mh.process_allgather({"a": 1.0})["a"].tolist() == [1.]
        assert np.asarray(mh.broadcast_one_to_all(x)).tolist() == [0., 1., 2., 3.]
        assert mh.sync_global_devices("step") is None
        assert "jaxlite" not in jax.__name__ or "jax" not in sys.modules
        """
    )
