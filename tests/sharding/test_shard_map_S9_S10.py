# ruff: noqa: E501 (check scripts are data: long lines keep exact JAX messages whole)
"""S9, S10 (spec/sharding.md): jax.shard_map semantics, spec errors, check_vma, collectives
and their autodiff, eagerly and under jit/grad/vmap. Grouped per subprocess."""

from tests.sharding._subproc import run

_MESHES = """
m8 = jax.make_mesh((8,), ("i",), axis_types=(AxisType.Auto,))
m24 = jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Auto,) * 2)
x8, x16, x64 = jnp.arange(8.), jnp.arange(16.), jnp.arange(64.)
def sm(f, ins=P("i"), outs=P("i"), mesh=None, **kw):
    return jax.shard_map(f, mesh=m8 if mesh is None else mesh, in_specs=ins, out_specs=outs, **kw)
def both(f, *args):
    '''f's results eagerly and under jit (they must agree).'''
    a, b = f(*args), jax.jit(f)(*args)
    assert np.array_equal(np.asarray(a), np.asarray(b)), (a, b)
    return np.asarray(a)
"""


def test_S9_semantics_and_specs():
    run(
        _MESHES,
        """
        # S9.2 blocks and assembly
        shapes = []
        f = sm(lambda a: (shapes.append(a.shape), a * 2)[1])
        assert both(f, x16).tolist() == (2 * np.arange(16.)).tolist()
        assert shapes[0] == (2,)
        out = sm(lambda a: a, outs=P())
        assert jax.shard_map(lambda a: a, mesh=m8, in_specs=P("i"), out_specs=P(), check_vma=False)(x8).tolist() == [0.]
        assert f(x16).sharding == NamedSharding(m8, P("i"))
        assert sm(lambda a: a.reshape(1, 2), outs=P("i", None))(x16).shape == (8, 2)
        assert sm(lambda a: a.reshape(1, 2), outs=P(None, "i"))(x16).shape == (1, 16)
        # S9.1 decorator form; S9.3 static arguments and Python scalars
        @jax.shard_map(mesh=m8, in_specs=P("i"), out_specs=P("i"))
        def g(a):
            return a + 1
        assert g(x8).tolist() == list(range(1, 9))
        assert sm(lambda a, n: a * n, ins=(P("i"), None))(x8, 3).tolist() == (3 * np.arange(8.)).tolist()
        assert sm(lambda a: a, ins=None)(x8).shape == (64,)
        # a tuple mesh axis: first name major
        r = jax.shard_map(lambda a: jax.lax.axis_index(("x", "y"))[None], mesh=m24,
                          in_specs=P(("x", "y")), out_specs=P(("x", "y")))(x8)
        assert np.asarray(r).tolist() == list(range(8))
        r = jax.shard_map(lambda a: a, mesh=m24, in_specs=P(("y", "x")), out_specs=P(("y", "x")))(x8)
        assert np.asarray(r).tolist() == np.arange(8.).tolist()
        # S9.3 committed single-device arguments are not resharded
        raises(ValueError, "Received incompatible devices for jitted computation. Got argument args[0] of ",
               sm(lambda a: a), jax.device_put(x8, jax.devices()[0]))
        e = raises(ValueError, "with shape float32[8] and with device ids [0] on platform CPU and shard_map inside jit with device ids [0, 1, 2, 3, 4, 5, 6, 7] on platform CPU at",
                   sm(lambda a: a), jax.device_put(x8, jax.devices()[0]))
        assert sm(lambda a: a)(jax.device_put(x8, NamedSharding(m8, P()))).sharding == NamedSharding(m8, P("i"))
        # S9.8 the body runs once, eagerly and under jit
        calls = []
        h = sm(lambda a: (calls.append(1), a)[1])
        h(x8); jax.jit(h)(x8)
        assert len(calls) == 2
        # S9.4 mesh errors
        raises(ValueError, "The context mesh cannot be empty. Use `jax.set_mesh(mesh)` to enter into a mesh context",
               jax.shard_map(lambda a: a, in_specs=P("i"), out_specs=P("i")), x8)
        with jax.set_mesh(m8):
            assert jax.shard_map(lambda a: a * 2, in_specs=P("i"), out_specs=P("i"))(x8)[3] == 6.
        raises(TypeError, "shard_map requires a `jax.sharding.Mesh` or a `jax.sharding.AbstractMesh` instance for its second argument",
               jax.shard_map(lambda a: a, mesh="m", in_specs=P("i"), out_specs=P("i")), x8)
        raises(TypeError, "shard_map requires a callable for its first argument", jax.shard_map, 3, mesh=m8, in_specs=P("i"), out_specs=P("i"))
        # S9.5 axis_names
        raises(ValueError, "jax.shard_map requires axis_names=frozenset({'z'}) to be a subset of mesh.axis_names=",
               jax.shard_map(lambda a: a, mesh=m24, in_specs=P("x"), out_specs=P("x"), axis_names={"z"}), x8)
        raises(TypeError, "`axis_names` argument of shard_map should be of type `frozenset` or `set`. Got type: <class 'list'>",
               lambda: jax.shard_map(lambda a: a, mesh=m24, in_specs=P("x"), out_specs=P("x"), axis_names=["x"])(x8))
        r = jax.shard_map(lambda a: jax.lax.psum(a, "x"), mesh=m24, in_specs=P("x"), out_specs=P(), axis_names={"x"})(jnp.arange(4.))
        assert np.asarray(r).tolist() == [2., 4.]
        # S9.3 Infer needs Explicit axes
        raises(TypeError, "shard_map in_specs argument must be a pytree of `jax.sharding.PartitionSpec` instances, but it was `None` when axis_names=frozenset({'i'}) are of type AxisType.Auto",
               jax.shard_map(lambda a: a, mesh=m8, out_specs=P("i")), x8)
        me = jax.make_mesh((8,), ("i",))
        raises(ValueError, "in_specs passed to shard_map: P('i',) does not match the specs of the input: P(None,) for arg: float32[8]. `in_specs` is an optional argument",
               jax.shard_map(lambda a: a, mesh=me, in_specs=P("i"), out_specs=P("i")), x8)
        # the spec is printed padded to the argument's rank (flax.nnx.shard_map showed it)
        raises(ValueError, "in_specs passed to shard_map: P('i', None, None) does not match the specs of the input: P(None, None, None) for arg: float32[8,2,1].",
               jax.shard_map(lambda a: a, mesh=me, in_specs=P("i"), out_specs=P("i")), jnp.ones((8, 2, 1)))
        with jax.set_mesh(me):
            xe = jax.device_put(x8, P("i"))
            assert np.asarray(jax.shard_map(lambda a: a * 2, out_specs=P("i"))(xe)).tolist() == (2 * np.arange(8.)).tolist()
            assert np.asarray(jax.shard_map(lambda a: a * 2, in_specs=P("i"), out_specs=P("i"))(xe))[7] == 14.
            # under jit the spec comes from the traced argument's Explicit type
            assert np.asarray(jax.jit(jax.shard_map(lambda a: jax.lax.psum(a, "i"), in_specs=P("i"), out_specs=P()))(xe)).tolist() == [28.]
        raises(ValueError, "in_specs passed to shard_map: P('i',) does not match the specs of the input: P(None,) for arg: float32[8].",
               jax.jit(jax.shard_map(lambda a: a, mesh=me, in_specs=P("i"), out_specs=P("i"))), jax.device_put(x8, NamedSharding(me, P())))
        # S9.7 spec errors
        raises(ValueError, "shard_map applied to the function '<lambda>' was given an in_specs entry which is too long to be compatible with the corresponding input value from the function:\\n\\nin_specs is P('i', None) which has length 2, but the passed args[0], where args[0] is bound to <lambda>'s parameter 'a', has shape float32[8], which has rank 1 (and 1 < 2)",
               sm(lambda a: a, ins=P("i", None)), x8)
        raises(ValueError, "was given an out_specs entry which is too long to be compatible with the corresponding output value from the function:\\n\\nout_specs is P('i',) which has length 1, but <lambda>(*args) has shape float32[], which has rank 0 (and 0 < 1)",
               sm(lambda a: a.sum()), x8)
        raises(ValueError, "shard_map applied to the function '<lambda>' was given argument arrays with axis sizes that are not evenly divisible by the corresponding mesh axis sizes:\\n\\nThe mesh given has shape (8,) with corresponding axis names ('i',).\\n\\nthe passed args[0] of shape float32[6], where args[0] is bound to <lambda>'s parameter 'a', corresponds to in_specs of value P('i',), which maps array axis 0 (of size 6) to mesh axis 'i' (of size 8), but 8 does not evenly divide 6",
               sm(lambda a: a), jnp.arange(6.))
        raises(ValueError, "shard_map in_specs argument must refer to an axis marked as manual (frozenset({'i'})), but:\\n\\n  in_specs refers to 'z'",
               sm(lambda a: a, ins=P("z")), x8)
        raises(ValueError, "shard_map out_specs argument must refer to an axis marked as manual (frozenset({'i'})), but:\\n\\n  out_specs refers to 'z'",
               sm(lambda a: a, outs=P("z")), x8)
        raises(TypeError, "shard_map in_specs argument must be a pytree of `jax.sharding.PartitionSpec` instances, but:\\n\\n  in_specs[0] is i of type str",
               sm(lambda a: a, ins=("i",)), x8)
        raises(ValueError, None, sm(lambda a, b: a, ins=(P("i"),)), x8, x8)
        # S9.6 check_vma
        e = raises(ValueError, "was given out_specs which require replication which can't be statically inferred given the mesh:\\n\\nThe mesh given has shape (8,) with corresponding axis names ('i',).\\n\\nout_specs is P() which implies that the corresponding output value is replicated across mesh axis 'i', but could not infer replication over any axes\\n\\nCheck if these output values are meant to be replicated over those mesh axes. If not, consider revising the corresponding out_specs entries. If so, consider disabling the check by passing the check_vma=False argument to `jax.shard_map`.",
                   sm(lambda a: a, outs=P()), x8)
        raises(ValueError, "The mesh given has shape (2, 4) with corresponding axis names ('x', 'y').\\n\\nout_specs is P('x',) which implies that the corresponding output value is replicated across mesh axis 'y', but could not infer replication over any axes",
               jax.shard_map(lambda a: a, mesh=m24, in_specs=P(("x", "y")), out_specs=P("x")), x8)
        assert sm(lambda a: jnp.ones(1), outs=P())(x8).tolist() == [1.]      # constants are invariant
        assert sm(lambda a: jax.lax.pcast(jnp.ones(1), "i", to="varying"), outs=P("i"))(x8).shape == (8,)
        raises(ValueError, "require replication", jax.jit(sm(lambda a: jax.lax.pcast(jnp.ones(1), "i", to="varying"), outs=P())), x8)
        raises(AttributeError, "jax.lax.pvary was deprecated in JAX v0.8.2 and removed in JAX v0.10.0", getattr, jax.lax, "pvary")
        # deprecated entry point
        import importlib
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            old = importlib.import_module(jax.__name__ + ".experimental.shard_map").shard_map
            r = old(lambda a: a * 2, m8, P("i"), P("i"))(x8)
        assert "jaxlite" not in jax.__name__ or "jax" not in sys.modules
        assert any("jax.experimental.shard_map is deprecated in v0.8.0. Used jax.shard_map instead." in str(x.message) for x in w)
        assert np.asarray(r)[7] == 14.
        """,
    )


def test_S10_collectives():
    run(
        _MESHES,
        """
        ps = lambda a: jax.lax.psum(a, "i")
        assert both(sm(ps, outs=P()), x8).tolist() == [28.]                     # S10.1
        assert both(sm(ps), x8).tolist() == [28.] * 8
        assert both(sm(ps, outs=P()), x16).tolist() == [56., 64.]
        assert both(sm(lambda a: jax.lax.psum(jnp.ones(1), "i"), outs=P()), x8).tolist() == [8.]
        assert both(sm(lambda a: jax.lax.pmean(a, "i"), outs=P()), x8).tolist() == [3.5]
        assert both(sm(lambda a: jax.lax.pmax(a, "i"), outs=P()), x8).tolist() == [7.]
        assert both(sm(lambda a: jax.lax.pmin(a, "i"), outs=P()), x8).tolist() == [0.]
        pm = sm(lambda a: jax.lax.pmean(a, "i"), outs=P())(jnp.arange(16))       # S16.1
        assert pm.dtype == np.float32 and np.asarray(pm).tolist() == [7., 8.]
        r = sm(lambda a: jax.lax.psum({"u": a, "v": 2 * a}, "i"), outs=P())(x8)
        assert np.asarray(r["v"]).tolist() == [56.]
        r = jax.shard_map(lambda a: jax.lax.psum(a, ("x", "y")), mesh=m24, in_specs=P("x", "y"), out_specs=P())(x8.reshape(2, 4))
        assert np.asarray(r).tolist() == [[28.]]
        ai = both(sm(lambda a: jax.lax.axis_index("i")[None]), x8)
        assert ai.tolist() == list(range(8)) and ai.dtype == np.int32
        r = jax.shard_map(lambda a: jax.lax.axis_index(("x", "y"))[None], mesh=m24, in_specs=P(("x", "y")), out_specs=P(("x", "y")))(x8)
        assert np.asarray(r).tolist() == list(range(8))
        sizes = []
        sm(lambda a: (sizes.append(jax.lax.axis_size("i")), a)[1])(x8)
        assert sizes == [8] and type(sizes[0]) is int
        ag = sm(lambda a: jax.lax.all_gather(a, "i")[None], outs=P("i"))(x16)
        assert ag.shape == (8, 8, 2) and np.asarray(ag)[3].tolist() == np.arange(16.).reshape(8, 2).tolist()
        assert sm(lambda a: jax.lax.all_gather(a, "i", axis=1)[None], outs=P("i"))(x16).shape == (8, 2, 8)
        r = both(sm(lambda a: jax.lax.all_gather(a, "i", to="invarying"), outs=P()), x16)
        assert r.shape == (8, 2)
        r = both(sm(lambda a: jax.lax.all_gather(a, "i", tiled=True, to="invarying"), outs=P()), x16)
        assert r.tolist() == list(range(16))
        raises(ValueError, "require replication", sm(lambda a: jax.lax.all_gather(a, "i"), outs=P()), x16)
        raises(ValueError, "Got unexpected `to` value for `jax.lax.all_gather`. Allowed `to` values are: {",
               sm(lambda a: jax.lax.all_gather(a, "i", to="bad")), x16)
        r = both(sm(lambda a: jax.lax.psum_scatter(a, "i", tiled=True)), x64)
        assert r.tolist() == [224. + 8 * k for k in range(8)]
        r = both(sm(lambda a: jax.lax.psum_scatter(a.reshape(8, 1), "i")[None]), x64)
        assert r.shape == (8, 1) and r[:, 0].tolist() == [224. + 8 * k for k in range(8)]
        ring = [(j, (j + 1) % 8) for j in range(8)]
        assert both(sm(lambda a: jax.lax.ppermute(a, "i", ring)), x8).tolist() == [7., 0., 1., 2., 3., 4., 5., 6.]
        assert both(sm(lambda a: jax.lax.ppermute(a, "i", [(0, 1), (1, 2)])), x8 + 1).tolist() == [0., 1., 2., 0., 0., 0., 0., 0.]
        r = both(sm(lambda a: jax.lax.all_to_all(a, "i", 0, 0)), x64)
        assert r.tolist() == [float(8 * (k % 8) + k // 8) for k in range(64)]
        r = both(sm(lambda a: jax.lax.all_to_all(a, "i", 0, 0, tiled=True)), x64)
        assert r.tolist() == [float(8 * (k % 8) + k // 8) for k in range(64)]
        x88 = x64.reshape(8, 8)
        r = both(sm(lambda a: jax.lax.all_to_all(a, "i", 1, 0, tiled=True), ins=P("i", None), outs=P(None, "i")), x88)
        assert r.tolist() == np.arange(64.).reshape(8, 8).tolist()
        # S12.4: the new collectives also work under vmap with an axis name
        r = jax.vmap(lambda a: jax.lax.psum_scatter(a, "i"), axis_name="i")(jnp.arange(16.).reshape(4, 4))
        assert np.asarray(r).tolist() == [24., 28., 32., 36.]
        r = jax.vmap(lambda a: jax.lax.psum_scatter(a, "i", tiled=True), axis_name="i")(jnp.arange(32.).reshape(4, 8))
        assert np.asarray(r).tolist() == [[48., 52.], [56., 60.], [64., 68.], [72., 76.]]
        assert np.asarray(jax.vmap(lambda a: jax.lax.axis_size("i") * a, axis_name="i")(jnp.arange(4.))).tolist() == [0., 4., 8., 12.]
        # S10.2 errors
        raises(ValueError, "ppermute sources and destinations must be unique, got ((0, 1), (2, 1)).",
               sm(lambda a: jax.lax.ppermute(a, "i", [(0, 1), (2, 1)])), x8)
        raises(ValueError, "The size of all_to_all split_axis (3) has to be divisible by the size of the named axis i (8)",
               sm(lambda a: jax.lax.all_to_all(jnp.ones(3), "i", 0, 0, tiled=True)), x8)
        raises(ValueError, "all_to_all requires the size of the mapped axis axis_name to equal x.shape[split_axis], but they are 8 and 3 respectively.",
               sm(lambda a: jax.lax.all_to_all(jnp.ones(3), "i", 0, 0)), x8)
        raises(ValueError, "tiled reduce_scatter operand scatter dimension size 12 must be divisible by shard_count 8",
               sm(lambda a: jax.lax.psum_scatter(jnp.ones(12), "i", tiled=True)), x8)
        raises(NotImplementedError, None, sm(lambda a: jax.lax.psum(a, "i", axis_index_groups=[[0, 1, 2, 3], [4, 5, 6, 7]])), x8)
        raises(NameError, "Found an unbound axis name: z. To fix this, please call axis_index under `jax.shard_map`.",
               sm(lambda a: a + jax.lax.axis_index("z")), x8)
        raises(NameError, "unbound axis name: i", jax.lax.psum, x8, "i")
        raises(NameError, "Found an unbound axis name: i. To fix this, please call psum under `jax.shard_map`.",
               jax.jit(lambda a: jax.lax.psum(a, "i")), x8)
        """,
    )


def test_S10_4_autodiff_vmap_and_control_flow():
    run(
        _MESHES,
        """
        ps = sm(lambda a: jax.lax.psum(a, "i"), outs=P())
        assert jax.grad(lambda x: ps(x).sum())(x8).tolist() == [1.] * 8          # S15.11
        assert jax.jit(jax.grad(lambda x: ps(x).sum()))(x8).tolist() == [1.] * 8
        ag = sm(lambda a: jax.lax.all_gather(a, "i", tiled=True))
        assert jax.grad(lambda x: ag(x).sum())(x8).tolist() == [8.] * 8
        ring = sm(lambda a: jax.lax.ppermute(a, "i", [(j, (j + 1) % 8) for j in range(8)]))
        g = jax.grad(lambda x: (ring(x) * jnp.arange(8.)).sum())(x8)
        assert g.tolist() == [1., 2., 3., 4., 5., 6., 7., 0.]
        w_grad = jax.grad(lambda w: sm(lambda a, w: jax.lax.psum((a * w).sum(), "i"), ins=(P("i"), P()), outs=P())(x8, w))(1.0)
        assert float(w_grad) == 28.0
        inv = sm(lambda w: jax.lax.psum(w, "i"), ins=P(), outs=P())
        assert float(inv(2.0)) == 16.0 and float(jax.grad(inv)(2.0)) == 8.0
        rep = sm(lambda a: jax.lax.psum(a, "i"))
        assert jax.grad(lambda x: rep(x).sum())(x8).tolist() == [8.] * 8
        vm = jax.vmap(lambda x: jax.lax.psum(x, "i"), axis_name="i")
        assert jax.grad(lambda x: vm(x).sum())(x8).tolist() == [8.] * 8
        ps_sc = sm(lambda a: jax.lax.psum_scatter(a, "i", tiled=True))
        assert jax.grad(lambda x: (ps_sc(x) * jnp.arange(8.)).sum())(x64).tolist() == [float(k % 8) for k in range(64)]
        a2a = sm(lambda a: jax.lax.all_to_all(a, "i", 0, 0, tiled=True))
        gr = jax.grad(lambda x: (a2a(x) * jnp.arange(64.)).sum())(x64)
        assert gr.tolist() == [float(8 * (k % 8) + k // 8) for k in range(64)]
        # jvp
        p, t = jax.jvp(ps, (x8,), (jnp.ones(8),))
        assert p.tolist() == [28.] and t.tolist() == [8.]
        # nonlinear body: grad of sum(sin(a) * psum(a))
        nl = sm(lambda a: jnp.sin(a) * jax.lax.psum(a, "i"))
        g = jax.grad(lambda x: nl(x).sum())(x8)
        ref = np.cos(np.arange(8.)) * 28 + np.sin(np.arange(8.)).sum()
        assert np.allclose(np.asarray(g), ref, rtol=1e-5)
        # vmap of shard_map adds an unsharded leading dimension
        v = jax.vmap(ps)(jnp.arange(16.).reshape(2, 8))
        assert np.asarray(v).tolist() == [[28.], [92.]]
        v = jax.vmap(sm(lambda a: a * 2), in_axes=1)(jnp.arange(16.).reshape(8, 2))
        assert v.shape == (2, 8) and np.asarray(v)[1].tolist() == (2 * np.arange(16.).reshape(8, 2)[:, 1]).tolist()
        # control flow inside the body
        def body(a):
            def step(c, _):
                return c + jax.lax.psum(a, "i"), None
            c, _ = jax.lax.scan(step, jnp.zeros_like(a), None, length=3)
            return jax.lax.cond(a.sum() > 3, lambda: c, lambda: -c)
        r = both(sm(body), x8)
        assert r.tolist() == [-84., -84., -84., -84., 84., 84., 84., 84.]
        # determinism: the same bits on every run
        data = jnp.asarray(np.random.RandomState(0).randn(8000).astype(np.float32))
        red = jax.jit(sm(lambda a: jax.lax.psum(a, "i")))
        first = np.asarray(red(data))
        for _ in range(5):
            assert np.array_equal(np.asarray(red(data)), first)
        """,
    )
