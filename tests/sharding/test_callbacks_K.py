# ruff: noqa: E501 (check scripts are data: long lines keep exact JAX messages whole)
"""callbacks.md section K: host callbacks under sharding (global view, shard_map, pmap)."""

import pytest

from tests.sharding._subproc import ORACLE, run

_SETUP = """
from jax.experimental import io_callback
m8 = jax.make_mesh((8,), ("i",), axis_types=(AxisType.Auto,))
m24 = jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Auto,) * 2)
x = jax.device_put(jnp.arange(8.), NamedSharding(m8, P("i")))
seen = []
def cb(v):
    seen.append(np.asarray(v).shape)
    return v + np.arange(v.shape[0], dtype=v.dtype)
def pc(a, **kw):
    return jax.pure_callback(cb, jax.ShapeDtypeStruct(a.shape, a.dtype), a, **kw)
def sm(f, ins=P("i"), outs=P("i"), mesh=None, **kw):
    return jax.shard_map(f, mesh=m8 if mesh is None else mesh, in_specs=ins, out_specs=outs, **kw)
""".replace(
    "from jax.experimental import io_callback", "io_callback = jax.experimental.io_callback"
)


def test_K1_K3_K4_K6_K9_K11_where_callbacks_run():
    run(
        _SETUP,
        """
        # K1: global view: once, on the gathered value; the result resharded
        r = jax.jit(pc)(x).block_until_ready()
        assert seen == [(8,)] and np.asarray(r).tolist() == (2 * np.arange(8.)).tolist()
        # K3: fully manual shard_map: once per device on its shard
        seen.clear()
        r = sm(pc)(jnp.arange(16.)).block_until_ready()
        assert seen == [(2,)] * 8
        assert np.asarray(r).tolist() == (np.arange(16.) + np.tile(np.arange(2.), 8)).tolist()
        seen.clear()
        jax.jit(sm(pc))(jnp.arange(16.)).block_until_ready()
        assert seen == [(2,)] * 8
        # K4: ordered io_callback per device in program order
        calls = []
        def log(v):
            calls.append(np.asarray(v).tolist())
        h = sm(lambda a: (io_callback(log, None, a, ordered=True), io_callback(log, None, a + 1, ordered=True), a)[2])
        h(jnp.arange(8.)).block_until_ready()
        jax.effects_barrier()
        assert sorted(calls) == sorted([[float(d)] for d in range(8)] + [[float(d + 1)] for d in range(8)])
        for d in range(8):
            assert calls.index([float(d)]) < max(i for i, c in enumerate(calls) if c == [float(d + 1)])
        # K6: debug.print in global view: once with the full value
        printed = []
        jax.jit(lambda a: jax.debug.callback(lambda v: printed.append(np.asarray(v).tolist()), a))(x)
        jax.effects_barrier()
        assert printed == [list(np.arange(8.))]
        # K9: eager shard_map: once per device, in mesh-device order
        printed.clear()
        sm(lambda a: (jax.debug.callback(lambda v: printed.append(np.asarray(v).tolist()), a), a)[1])(jnp.arange(8.))
        jax.effects_barrier()
        assert printed == [[float(d)] for d in range(8)]
        # K11: pmap: each device its slice
        seen.clear()
        r = jax.pmap(lambda a: jax.pure_callback(cb, jax.ShapeDtypeStruct(a.shape, a.dtype), a))(jnp.arange(8.).reshape(4, 2))
        r.block_until_ready()
        assert seen == [(2,)] * 4 and np.asarray(r).tolist() == [[0., 2.], [2., 4.], [4., 6.], [6., 8.]]
        printed.clear()
        jax.pmap(lambda a: jax.debug.callback(lambda v: printed.append(float(v)), a))(jnp.arange(4.))
        jax.effects_barrier()
        assert sorted(printed) == [0., 1., 2., 3.]
        # K12: ordered io_callback in a multi-device jit with a replicated output
        out = []
        r = jax.jit(lambda a: io_callback(lambda v: (out.append(1), v + 1.0)[1], jax.ShapeDtypeStruct(a.shape, a.dtype), a, ordered=True))(x)
        r.block_until_ready()
        jax.effects_barrier()
        assert out == [1] and np.asarray(r).tolist() == (np.arange(8.) + 1).tolist()
        """,
    )


def test_K2_K5_K7_K8_K10_K13_rules_and_errors():
    run(
        _SETUP,
        """
        # K2: sharding= selects the device in a global view: SingleDeviceSharding accepted
        jax.jit(lambda a: pc(a, sharding=SingleDeviceSharding(jax.devices()[0])))(x)
        raises(NotImplementedError, "pure_callback only supports SingleDeviceSharding, but got <class",
               jax.jit(lambda a: pc(a, sharding=NamedSharding(m8, P()))), x)
        # K5
        raises(NotImplementedError, "callbacks do not support specifying sharding inside spmd computations",
               sm(lambda a: pc(a, sharding=SingleDeviceSharding(jax.devices()[0]))), jnp.arange(8.))
        raises(NotImplementedError, "callbacks are only supported in spmd computations when all mesh axes are partitioned manually (no partial automatic sharding).",
               jax.shard_map(pc, mesh=m24, in_specs=P("x"), out_specs=P("x"), axis_names={"x"}), jnp.arange(8.))
        # K7: partitioned=True under jit: once per device with its shard
        shapes = []
        x3 = jax.device_put(jnp.arange(24.).reshape(2, 3, 4), NamedSharding(m24, P(None, None, "x")))
        jax.jit(lambda v: jax.debug.callback(lambda b: shapes.append(np.asarray(b).shape), v, partitioned=True))(x3)
        jax.effects_barrier()
        assert shapes == [(2, 3, 2)] * 8
        # K8: partially manual shard_map: a debug callback runs once per manual coordinate
        printed = []
        jax.shard_map(lambda a: (jax.debug.callback(lambda v: printed.append(np.asarray(v).tolist()), a), a)[1],
                      mesh=m24, in_specs=P("x"), out_specs=P("x"), axis_names={"x"})(jnp.arange(4.))
        jax.effects_barrier()
        assert sorted(printed) == [[0., 1.], [2., 3.]]
        # K10: ordered debug effects over several devices (staged)
        raises(ValueError, "The following ordered effects are not supported for more than 1 device: ",
               jax.jit(sm(lambda a: (jax.debug.print("{}", a, ordered=True), a)[1])), jnp.arange(8.))
        # An exception on one device's thread reaches the caller (the others do not hang)
        def bad(v):
            if float(np.asarray(v)[0]) == 3.0:
                raise ZeroDivisionError("device 3")
            return v
        raises(RuntimeError, "device 3",
               lambda: jax.block_until_ready(sm(lambda a: jax.pure_callback(bad, jax.ShapeDtypeStruct(a.shape, a.dtype), a))(jnp.arange(8.))))
        assert np.asarray(sm(lambda a: jax.lax.psum(a, "i"), outs=P())(jnp.arange(8.))).tolist() == [28.]
        # K13: inside a callback the mesh context is empty
        inside = []
        with jax.set_mesh(m8):
            def cbm(v):
                inside.append(jax.sharding.get_abstract_mesh().empty)
                return v
            jax.jit(lambda a: jax.pure_callback(cbm, jax.ShapeDtypeStruct(a.shape, a.dtype), a))(x).block_until_ready()
            assert not jax.sharding.get_abstract_mesh().empty
        assert inside == [True]
        """,
    )


@pytest.mark.jaxlite_only
def test_K2_values_with_a_chosen_device():
    # JAX 0.10.2 returns zeros here (sharding=SingleDeviceSharding(devices[-1]) on an 8-way
    # sharded operand); jaxlite computes the callback's result (compat.md).
    assert not ORACLE
    run(
        _SETUP,
        """
        r = jax.jit(lambda a: pc(a, sharding=SingleDeviceSharding(jax.devices()[-1])))(x)
        assert np.asarray(r).tolist() == (2 * np.arange(8.)).tolist()
        """,
    )
