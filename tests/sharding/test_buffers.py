# ruff: noqa: E501 (check scripts are data: long lines keep exact JAX messages whole)
"""One buffer per device (issue 13, S5.3, S9.2, S6, K9): what each device holds, gathers,
resharding, shard_map feeding and building per-device results, visualize/inspect under jit,
and host callbacks in shard_map bodies in program order. Grouped per subprocess; the
scripts run against JAX too (oracle mode) except where marked."""

import pytest

from tests.sharding._subproc import run


def test_per_device_buffers_gathers_and_resharding():
    run(
        """
        ma = jax.make_mesh((2, 2), ("x", "y"), axis_types=(AxisType.Auto,) * 2)
        m4 = jax.make_mesh((4,), ("i",), axis_types=(AxisType.Auto,))
        x = jax.device_put(jnp.arange(8.0), NamedSharding(m4, P("i")))
        # check_vma=False with out_specs=P(): every device keeps its own block (they differ);
        # the gathered value is device 0's (S9.2), eagerly and under jit.
        ident = jax.shard_map(lambda a: a, mesh=m4, in_specs=P("i"), out_specs=P(), check_vma=False)
        for y in (ident(x), jax.jit(ident)(x)):
            assert [np.asarray(s.data).tolist() for s in y.addressable_shards] == [[0, 1], [2, 3], [4, 5], [6, 7]]
            assert [s.replica_id for s in y.addressable_shards] == [0, 1, 2, 3]
            assert np.asarray(y).tolist() == [0.0, 1.0] and y.sharding == NamedSharding(m4, P())
            assert str(y) == "[0. 1.]" and y.tolist() == [0.0, 1.0]
            assert all(s.data.sharding == SingleDeviceSharding(s.device) for s in y.addressable_shards)
            assert all(s.data.committed for s in y.addressable_shards)
            # operations on it compute on the gathered value
            assert np.asarray(y * 2 + 1).tolist() == [1.0, 3.0]
            assert float(jax.jit(jnp.sum)(y)) == 1.0
        # per-device arrays assembled: shards are those arrays; replicas may differ
        s = NamedSharding(ma, P("x"))
        arrs = [jax.device_put(np.full((1, 3), float(d.id), np.float32), d) for d in ma.devices.flat]
        a = jax.make_array_from_single_device_arrays((2, 3), s, arrs)
        assert [np.asarray(sh.data)[0, 0] for sh in a.addressable_shards] == [0, 1, 2, 3]
        assert [sh.replica_id for sh in a.addressable_shards] == [0, 1, 0, 1]
        assert np.asarray(a).tolist() == [[0, 0, 0], [2, 2, 2]]
        assert repr(a) == repr(jnp.array([[0.0, 0, 0], [2, 2, 2]]))
        assert np.asarray(a + 0).tolist() == [[0, 0, 0], [2, 2, 2]]
        assert np.asarray(a).flags.writeable is False
        # resharding: values are the global value's blocks (replica choice aside)
        b = jax.device_put(a, NamedSharding(ma, P(None, None)))
        assert all(np.asarray(sh.data).tolist() == [[0, 0, 0], [2, 2, 2]] for sh in b.addressable_shards)
        xs = jax.device_put(jnp.arange(64.0).reshape(8, 8), NamedSharding(ma, P("x", "y")))
        sm = jax.shard_map(lambda v: v * 10, mesh=ma, in_specs=P("x", "y"), out_specs=P("x", "y"))
        z = sm(xs)
        ref = np.arange(64.0).reshape(8, 8) * 10
        for spec in [P("y", "x"), P("x"), P(None, "y"), P(), P(("x", "y"))]:
            r = jax.device_put(z, NamedSharding(ma, spec))
            assert r.sharding.spec == spec
            for sh in r.addressable_shards:
                assert np.array_equal(np.asarray(sh.data), ref[sh.index]), (spec, sh)
            assert np.array_equal(np.asarray(r), ref)
        one = jax.device_put(z, jax.devices()[3])
        assert one.sharding == SingleDeviceSharding(jax.devices()[3]) and np.array_equal(np.asarray(one), ref)
        # a shard_map fed by another's per-device results, in other specs
        sm2 = jax.shard_map(lambda v: v + 1, mesh=ma, in_specs=P("y"), out_specs=P("y"))
        assert np.array_equal(np.asarray(sm2(z)), ref + 1)
        assert np.array_equal(np.asarray(jax.jit(sm2)(z)), ref + 1)
        # exact values through global-view ops on shard_map results
        w = sm(xs)
        assert np.array_equal(np.asarray(w @ w.T), ref @ ref.T)
        assert np.array_equal(np.asarray(w[2:5, 1]), ref[2:5, 1])
        assert np.array_equal(np.asarray(jnp.cumsum(w, axis=0)), np.cumsum(ref, axis=0))
        assert w.sharding == NamedSharding(ma, P("x", "y"))
        assert (w + 1).sharding == NamedSharding(ma, P("x", "y"))
        # jit with out_shardings places the result's blocks per device
        f = jax.jit(lambda v: v * 2, out_shardings=NamedSharding(ma, P("y", "x")))
        r = f(jnp.arange(16.0).reshape(4, 4))
        for sh in r.addressable_shards:
            assert np.array_equal(np.asarray(sh.data), (np.arange(16.0).reshape(4, 4) * 2)[sh.index])
        # partially manual: the devices along the automatic axis hold the manual position's block
        pm = jax.shard_map(lambda v: v * 3, mesh=ma, in_specs=P("x"), out_specs=P("x"), axis_names={"x"})
        xa = jax.device_put(jnp.arange(4.0), NamedSharding(ma, P("x")))
        r = jax.jit(pm)(xa)
        assert [np.asarray(sh.data).tolist() for sh in r.addressable_shards] == [[0, 3], [0, 3], [6, 9], [6, 9]]
        """,
        n_devices=4,
    )


def test_callbacks_on_per_device_arrays_K1_K3_K4():
    run(
        """
        from functools import partial
        m4 = jax.make_mesh((4,), ("i",), axis_types=(AxisType.Auto,))
        seen = []
        def host(v):
            seen.append(np.asarray(v).copy())
            return np.asarray(v) + np.arange(v.shape[0], dtype=v.dtype)
        sm = jax.shard_map(lambda a: a * 1, mesh=m4, in_specs=P("i"), out_specs=P("i"))
        x = sm(jax.device_put(jnp.arange(8.0), NamedSharding(m4, P("i"))))    # per-device buffers
        sds = jax.ShapeDtypeStruct((8,), jnp.float32)
        # K1: global view: one call with the gathered value
        y = jax.jit(lambda v: jax.pure_callback(host, sds, v))(x)
        assert len(seen) == 1 and seen[0].tolist() == list(range(8))
        assert np.asarray(y).tolist() == [2.0 * k for k in range(8)]
        # K3: in shard_map: one call per device with its shard, results per shard
        seen.clear()
        body = lambda a: jax.pure_callback(host, jax.ShapeDtypeStruct((2,), jnp.float32), a)
        for g in (jax.shard_map(body, mesh=m4, in_specs=P("i"), out_specs=P("i")),):
            seen.clear()
            out = g(x)
            assert sorted(v.tolist() for v in seen) == [[0, 1], [2, 3], [4, 5], [6, 7]]
            assert np.asarray(out).tolist() == [0, 2, 2, 4, 4, 6, 6, 8]
            seen.clear()
            out = jax.jit(g)(x)
            assert sorted(v.tolist() for v in seen) == [[0, 1], [2, 3], [4, 5], [6, 7]]
            assert [np.asarray(s.data).tolist() for s in out.addressable_shards] == [[0, 2], [2, 4], [4, 6], [6, 8]]
        # K4: ordered io_callback per device in program order
        calls = {}
        def rec(v):
            calls.setdefault(float(v[0]) // 2, []).append(float(v[0]))
        def body2(a):
            jax.experimental.io_callback(rec, None, a, ordered=True)
            jax.experimental.io_callback(rec, None, a + 1, ordered=True)
            return a
        jax.jit(jax.shard_map(body2, mesh=m4, in_specs=P("i"), out_specs=P("i")))(x).block_until_ready()
        assert len(calls) == 4 and all(c[1] == c[0] + 1 for c in calls.values())
        """,
        n_devices=4,
    )


def test_host_callbacks_in_shard_map_run_in_program_order_K9():
    run(
        """
        m2 = jax.make_mesh((2,), ("i",), axis_types=(AxisType.Auto,))
        ev = []
        def rec(tag):
            return lambda v: ev.append((tag, float(np.asarray(v)[0])))
        def body(a):
            jax.debug.callback(rec("dbg1"), a)
            jax.experimental.io_callback(rec("A"), None, a, ordered=True)
            jax.debug.callback(rec("dbg2"), a + 1)
            jax.experimental.io_callback(rec("B"), None, a + 1, ordered=True)
            jax.debug.callback(rec("dcb"), a * 10)
            return a
        x = jax.device_put(jnp.arange(2.0), NamedSharding(m2, P("i")))
        f = jax.shard_map(body, mesh=m2, in_specs=P("i"), out_specs=P("i"))
        f(x)
        # Eagerly each top-level effect runs on every device, in device order, before the next.
        assert ev == [("dbg1", 0), ("dbg1", 1), ("A", 0), ("A", 1), ("dbg2", 1), ("dbg2", 2),
                      ("B", 1), ("B", 2), ("dcb", 0), ("dcb", 10)], ev
        # Under jit each device runs its ordered io_callbacks in program order (the order
        # across devices, and of unordered debug callbacks, is unspecified in JAX).
        ev.clear()
        jax.jit(f)(x).block_until_ready()
        assert len(ev) == 10
        for d in (0, 1):
            assert ev.index(("A", d)) < ev.index(("B", d + 1)), ev
        if "jaxlite" in jax.__name__:  # jaxlite: each device's in program order, in lockstep
            assert ev == [("dbg1", 0), ("dbg1", 1), ("A", 0), ("A", 1), ("dbg2", 1), ("dbg2", 2),
                          ("B", 1), ("B", 2), ("dcb", 0), ("dcb", 10)], ev
        """,
        n_devices=2,
    )


def test_pure_callback_in_shard_map_takes_its_turn_K9():
    """A pure_callback has no effect but runs user code: at the top level of a body it runs
    on every device before the next host callback starts, as in JAX's eager shard_map
    (which runs a body one primitive at a time over all devices). jaxlite used to let
    each device's thread run on from its own turn of the debug callback before it, so the
    calls interleaved per device (d0 p0 d1 p1 ...)."""
    run(
        """
        m4 = jax.make_mesh((4,), ("i",), axis_types=(AxisType.Auto,))
        x = jax.device_put(jnp.arange(8.0), NamedSharding(m4, P("i")))
        ev = []
        def rec(tag):
            def h(a):
                ev.append((tag, int(np.asarray(a)[0])))
                return np.asarray(a)
            return h
        def body(a):
            jax.debug.callback(rec("d"), a)
            y = jax.pure_callback(rec("p"), jax.ShapeDtypeStruct(a.shape, a.dtype), a)
            jax.debug.callback(rec("e"), a)
            return y
        f = jax.shard_map(body, mesh=m4, in_specs=P("i"), out_specs=P("i"))
        for g in (f, jax.jit(f)):
            for _ in range(5):
                ev.clear()
                assert np.asarray(g(x)).tolist() == list(range(8))
                tags = [t for t, _ in ev]
                if g is f:  # eagerly: each callback on all devices before the next one
                    assert tags == ["d"] * 4 + ["p"] * 4 + ["e"] * 4, ev
                    assert [v for t, v in ev if t == "d"] == [0, 2, 4, 6], ev
                assert sorted(v for t, v in ev if t == "p") == [0, 2, 4, 6], ev
                if "jaxlite" in jax.__name__:  # in device order, eagerly and under jit
                    assert ev == [(t, v) for t in "dpe" for v in (0, 2, 4, 6)], ev
        """,
        n_devices=4,
    )


@pytest.mark.jaxlite_only
def test_jit_host_callbacks_in_shard_map_are_in_lockstep():
    """jaxlite runs top-level callbacks of a body in lockstep under jit too (one of the
    orders JAX allows, and a deterministic one); a loop starts when every device got there,
    and in it each device runs its own."""
    out = run(
        """
        m2 = jax.make_mesh((2,), ("i",), axis_types=(AxisType.Auto,))
        def body(a):
            jax.debug.print("a {}", a)
            jax.debug.print("b {}", a)
            def step(c, _):
                jax.debug.print("loop {}", c)
                return c + 1, None
            # different trip counts per device would deadlock a lockstep: loops run free
            jax.lax.fori_loop(0, 2, lambda i, c: step(c, None)[0], a)
            jax.debug.print("c {}", a)
            return a
        x = jax.device_put(jnp.arange(2.0), NamedSharding(m2, P("i")))
        print("== jit", flush=True)
        jax.jit(jax.shard_map(body, mesh=m2, in_specs=P("i"), out_specs=P("i")))(x)
        """,
        n_devices=2,
    )
    lines = out.split("== jit\n")[1].splitlines()
    assert lines[:4] == ["a [0.]", "a [1.]", "b [0.]", "b [1.]"]
    assert sorted(lines[4:8]) == ["loop [0.]", "loop [1.]", "loop [1.]", "loop [2.]"]
    assert lines[8:] == ["c [0.]", "c [1.]"]


def test_visualize_and_inspect_under_jit_use_the_traced_sharding_S6():
    out = run(
        """
        m4 = jax.make_mesh((4,), ("i",), axis_types=(AxisType.Auto,))
        got = []
        def g(a):
            jax.debug.visualize_array_sharding(a)
            b = a * 2
            jax.debug.inspect_array_sharding(b, callback=got.append)
            return b
        def g2(a):
            c = jax.lax.with_sharding_constraint(a, NamedSharding(m4, P(None, "i")))
            jax.debug.inspect_array_sharding(c, callback=got.append)
            return c
        xx = jax.device_put(jnp.arange(16.0).reshape(4, 4), NamedSharding(m4, P("i")))
        jg = jax.jit(g)
        print("== first", flush=True)
        jg(xx)
        print("== second", flush=True)
        jg(xx)
        print("== end", flush=True)
        jax.jit(g2)(jnp.ones((4, 4)))
        assert got == [NamedSharding(m4, P("i")), NamedSharding(m4, P(None, "i"))], got
        eager = []
        jax.debug.inspect_array_sharding(xx, callback=eager.append)
        assert eager == [NamedSharding(m4, P("i"))]
        """,
        n_devices=4,
    )
    first, rest = out.split("== first\n")[1].split("== second\n")
    assert first == (
        "┌───────────────────────┐\n│         CPU 0         │\n├───────────────────────┤\n"
        "│         CPU 1         │\n├───────────────────────┤\n│         CPU 2         │\n"
        "├───────────────────────┤\n│         CPU 3         │\n└───────────────────────┘\n"
    )
    assert rest == "== end\n" or rest.startswith("== end\n")


@pytest.mark.jaxlite_only
def test_arrays_with_only_some_buffers_raise_on_gather():
    """The multi-process seam: an array holding only some devices' buffers (the others'
    live in another process) lists its own shards and raises JAX's error on a gather; a
    fully replicated one gathers from any replica it holds."""
    run(
        """
        from jaxlite._src.sharding.array import ShardedArray
        from jaxlite._src.core.avals import ShapedArray
        m4 = jax.make_mesh((4,), ("i",), axis_types=(AxisType.Auto,))
        devs = list(m4.devices.flat)
        s = NamedSharding(m4, P("i"))
        a = ShardedArray.from_buffers({devs[0]: np.array([0.0, 1.0], np.float32), devs[1]: np.array([2.0, 3.0], np.float32)},
                                      ShapedArray((8,), np.dtype("float32")), s)
        raises(RuntimeError, "Fetching value for `jax.Array` that spans non-addressable (non process local) devices is not possible.", np.asarray, a)
        assert [np.asarray(sh.data).tolist() for sh in a.addressable_shards] == [[0, 1], [2, 3]]
        assert [sh.data for sh in a.global_shards][2:] == [None, None]
        r = ShardedArray.from_buffers({devs[2]: np.array([5.0], np.float32)}, ShapedArray((1,), np.dtype("float32")),
                                      NamedSharding(m4, P()))
        assert np.asarray(r).tolist() == [5.0]
        # resharding within the blocks held works without a gather
        b = jax.device_put(a, NamedSharding(m4, P("i")))
        assert [np.asarray(sh.data).tolist() for sh in b.addressable_shards] == [[0, 1], [2, 3]]
        # buffers are read-only, and shard_map results are never copied into a global value
        sm = jax.shard_map(lambda v: v + 1, mesh=m4, in_specs=P("i"), out_specs=P("i"))
        y = sm(jax.device_put(jnp.arange(8.0), s))
        assert not y.has_global()
        assert all(not np.asarray(sh.data).flags.writeable for sh in y.addressable_shards)
        y2 = jax.jit(sm)(y)
        assert not y2.has_global() and not y.has_global()
        assert np.asarray(y2).tolist() == [k + 2.0 for k in range(8)] and y2.has_global()
        """,
        n_devices=4,
    )


@pytest.mark.jaxlite_only
def test_lockstep_wrapper_rules_are_those_of_the_wrapped_equation():
    import numpy as np

    import jaxlite as jax
    import jaxlite.numpy as jnp
    from jaxlite._src.sharding.shard_map import lockstep_p

    closed = jax.make_jaxpr(jnp.sin)(1.0)

    def f(x):
        return lockstep_p.bind(x, jaxpr=closed, turns=True)[0]

    y, t = jax.jvp(f, (0.5,), (2.0,))
    assert np.allclose(y, np.sin(0.5)) and np.allclose(t, 2.0 * np.cos(0.5))
    xs = jnp.arange(3.0)
    closed_v = jax.make_jaxpr(jnp.sin)(xs[0])
    g = jax.vmap(lambda x: lockstep_p.bind(x, jaxpr=closed_v, turns=False)[0])
    assert np.allclose(g(xs), np.sin(np.arange(3.0)))
