# ruff: noqa: E501 (check scripts are data: long lines keep exact JAX messages whole)
"""jit's cache key: a jitted function traced in one context is never reused in another
context whose trace would differ (``compile/jit.py``'s module docstring lists the key).

Each test calls the same jitted function before, inside and after a context (or in two
contexts) and checks values, dtypes, shardings and errors against what JAX does: the tests
also run against JAX (``JAXLITE_ORACLE=jax``). Multi-device checks run in a subprocess
(``tests/sharding/_subproc.py``).
"""

import re

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax
from jaxlite.experimental import checkify
from tests.sharding._subproc import run


# ------------------------------------------------------------------ named axes (vmap)
def test_vmap_axis_size_is_in_the_key():
    # The trace reads the size of the named axis: size 2's trace must not serve size 4.
    mean = jax.jit(lambda x: lax.pmean(x, "i"))
    size = jax.jit(lambda x: x * lax.axis_size("i"))
    for n in (2, 4, 2):
        x = jnp.arange(float(n))
        np.testing.assert_allclose(
            jax.vmap(mean, axis_name="i")(x), np.full(n, (n - 1) / 2), rtol=1e-6
        )
        np.testing.assert_array_equal(jax.vmap(size, axis_name="i")(jnp.ones(n)), np.full(n, n))


def test_vmap_axis_size_inside_an_outer_jit():
    inner = jax.jit(lambda x: x * lax.axis_size("i"))
    for n in (2, 3):
        out = jax.jit(jax.vmap(inner, axis_name="i"))(jnp.ones(n))
        np.testing.assert_array_equal(out, np.full(n, n))


def test_axis_name_bound_only_at_trace_time_is_not_reused():
    # Traced under vmap(axis_name="i"), then called where "i" is unbound (or another name is
    # bound): JAX traces again and raises the unbound-axis NameError.
    f = jax.jit(lambda x: lax.psum(x, "i"))
    np.testing.assert_array_equal(jax.vmap(f, axis_name="i")(jnp.ones(2)), [2.0, 2.0])
    for call in (lambda: f(jnp.ones(())), lambda: jax.vmap(f, axis_name="j")(jnp.ones(2))):
        with pytest.raises(NameError, match="Found an unbound axis name: i"):
            call()


def test_shard_map_axis_size_is_in_the_key():
    run("""
        g = jax.jit(lambda x: x * jax.lax.axis_size("x"))
        h = jax.jit(lambda x: x * jax.lax.axis_index("x"))
        for n in (2, 4, 2):
            # Blocks of 2 on every mesh: the bodies' avals are equal, only the axis size differs.
            mesh = jax.make_mesh((n,), ("x",), axis_types=(AxisType.Auto,))
            sm = jax.shard_map(g, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
            np.testing.assert_array_equal(sm(jnp.ones(2 * n)), np.full(2 * n, n))
            sm = jax.shard_map(h, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
            np.testing.assert_array_equal(sm(jnp.ones(2 * n)), np.repeat(np.arange(n), 2))
        raises(NameError, "unbound axis name: x", g, jnp.ones(2))
    """)


# ------------------------------------------------------------------ checkify
def test_check_traced_under_checkify_is_not_reused_outside():
    def g(x):
        checkify.check(x > 0, "x must be positive")
        return x * 2

    gj = jax.jit(g)
    err, _ = checkify.checkify(gj)(jnp.array(-1.0))
    assert err.get() is not None and "x must be positive" in err.get()
    # Outside checkify the check is not functionalized: JAX raises at trace time, for
    # passing and failing inputs alike.
    for v in (-1.0, 1.0):
        with pytest.raises(ValueError, match="Cannot abstractly evaluate a checkify.check"):
            gj(jnp.array(v))
    err, _ = checkify.checkify(gj)(jnp.array(-1.0))
    assert "x must be positive" in err.get()


def test_debug_check_traced_under_checkify_is_skipped_outside():
    def g(x):
        checkify.debug_check(x > 0, "x must be positive")
        return x * 2

    gj = jax.jit(g)
    err, _ = checkify.checkify(gj)(jnp.array(-1.0))
    assert "x must be positive" in err.get()
    np.testing.assert_array_equal(gj(jnp.array(-1.0)), -2.0)
    err, _ = checkify.checkify(gj)(jnp.array(-1.0))
    assert "x must be positive" in err.get()


# ------------------------------------------------------------------ mesh contexts
def test_creation_under_set_mesh_is_in_the_key():
    run("""
        me = jax.make_mesh((2,), ("x",), axis_types=(AxisType.Explicit,))
        ma = jax.make_mesh((2,), ("x",), axis_types=(AxisType.Auto,))
        x = jnp.ones(4)
        for first in ("plain", "mesh"):
            f = jax.jit(lambda x: jnp.zeros(4) + x)
            if first == "plain":
                assert isinstance(f(x).sharding, SingleDeviceSharding)
            with jax.set_mesh(me):
                r = f(x)
                assert r.sharding == NamedSharding(me, P(None)), r.sharding
            with jax.set_mesh(ma):
                r = f(x)
                assert r.sharding == NamedSharding(ma, P()), r.sharding
            r = f(x)
            assert isinstance(r.sharding, SingleDeviceSharding), (first, r.sharding)
            np.testing.assert_array_equal(r, np.ones(4))
    """)


def test_partition_spec_resolved_against_the_current_mesh():
    run("""
        m2 = jax.make_mesh((2,), ("x",), axis_types=(AxisType.Explicit,))
        m4 = jax.make_mesh((4,), ("x",), axis_types=(AxisType.Explicit,))
        a2 = jax.make_mesh((2,), ("x",), axis_types=(AxisType.Auto,))
        a4 = jax.make_mesh((4,), ("x",), axis_types=(AxisType.Auto,))
        x = jnp.ones(8)
        f = jax.jit(lambda x: jnp.zeros(8, out_sharding=P("x")) + x)
        for m in (m2, m4, m2):
            with jax.set_mesh(m):
                assert f(x).sharding == NamedSharding(m, P("x")), f(x).sharding
        raises(ValueError, "Using PartitionSpec when you are not under a mesh context is not allowed", f, x)
        g = jax.jit(lambda x: jax.lax.with_sharding_constraint(x, P("x")))
        for m in (a2, a4):
            with jax.set_mesh(m):
                assert g(x).sharding == NamedSharding(m, P("x")), g(x).sharding
        raises(RuntimeError, "with_sharding_constraint requires a non-empty mesh in context", g, x)
    """)


def test_random_under_set_mesh_is_in_the_key():
    run("""
        m2 = jax.make_mesh((2,), ("x",), axis_types=(AxisType.Explicit,))
        k = jax.random.key(0)
        plain = jax.random.normal(k, (4,))
        assert isinstance(plain.sharding, SingleDeviceSharding)
        with jax.set_mesh(m2):
            r = jax.random.normal(k, (4,))
            assert r.sharding == NamedSharding(m2, P(None)), r.sharding
        r = jax.random.normal(k, (4,))
        assert isinstance(r.sharding, SingleDeviceSharding), r.sharding
        np.testing.assert_array_equal(r, plain)
    """)


def test_auto_axes_mode_is_in_the_key():
    # auto_axes over "x" only: the arguments' shardings (in the key) are the same inside and
    # outside, only the mode tells the traces apart. Outside, contracting over the Explicit
    # axis "x" is ambiguous; inside, "x" is Auto and the product is fine.
    run("""
        mesh = jax.make_mesh((2, 2), ("x", "y"), axis_types=(AxisType.Explicit,) * 2)
        for first in ("explicit", "auto"):
            with jax.set_mesh(mesh):
                a = jax.device_put(jnp.ones((4, 4)), P("y", "x"))
                b = jax.device_put(jnp.ones((4, 4)), P("x", None))
                f = jax.jit(lambda x, y: x @ y)
                g = jax.sharding.auto_axes(f, axes="x", out_sharding=P("y"))
                if first == "explicit":
                    raises(Exception, "Contracting dimensions are sharded", f, a, b)
                r = g(a, b)
                assert r.sharding.spec == P("y", None), r.sharding
                np.testing.assert_array_equal(r, np.full((4, 4), 4.0))
                raises(Exception, "Contracting dimensions are sharded", f, a, b)
    """)


def test_jit_inside_a_callback_sees_no_mesh():
    # Callbacks run with the mesh context cleared (K13): a jitted function traced there
    # must not reuse (nor leave behind) the trace made under the mesh.
    out = run("""
        me = jax.make_mesh((2,), ("x",), axis_types=(AxisType.Explicit,))
        f = jax.jit(lambda x: jnp.zeros(4) + x)
        seen = []
        def cb(v):
            seen.append(type(f(jnp.asarray(v)).sharding).__name__)
            return v
        call = jax.jit(lambda x: jax.pure_callback(cb, jax.ShapeDtypeStruct((4,), np.float32), x))
        with jax.set_mesh(me):
            assert isinstance(f(jnp.ones(4)).sharding, NamedSharding)
            jax.block_until_ready(call(jnp.ones(4)))
            assert isinstance(f(jnp.ones(4)).sharding, NamedSharding)
        assert isinstance(f(jnp.ones(4)).sharding, SingleDeviceSharding)
        print(seen)
    """)
    assert "['SingleDeviceSharding']" in out, out


# ------------------------------------------------------------------ config flags
_RANK_MSG = "Operands could not be broadcast together for add on shapes (7,) (3, 7) and with the config option jax_numpy_rank_promotion='raise'"


def test_numpy_rank_promotion_context_and_update_are_in_the_key():
    f = jax.jit(lambda x, y: x + y)
    a, b = jnp.ones(7), jnp.ones((3, 7))
    np.testing.assert_array_equal(f(a, b), np.full((3, 7), 2.0))
    with jax.numpy_rank_promotion("raise"):
        with pytest.raises(ValueError, match=re.escape(_RANK_MSG)):
            f(a, b)
        # Rank-0 operands and equal ranks never count.
        np.testing.assert_array_equal(f(jnp.ones(()), b), np.full((3, 7), 2.0))
        np.testing.assert_array_equal(f(jnp.ones((1, 7)), b), np.full((3, 7), 2.0))
    np.testing.assert_array_equal(f(a, b), np.full((3, 7), 2.0))
    jax.config.update("jax_numpy_rank_promotion", "raise")
    try:
        with pytest.raises(ValueError, match="jax_numpy_rank_promotion='raise'"):
            f(a, b)
    finally:
        jax.config.update("jax_numpy_rank_promotion", "allow")
    np.testing.assert_array_equal(f(a, b), np.full((3, 7), 2.0))


def test_numpy_rank_promotion_warn_and_validation():
    g = jax.jit(lambda x, y: x * y)  # shapes no other test uses: the trace is fresh
    with jax.numpy_rank_promotion("warn"):
        with pytest.warns(
            UserWarning, match="Following NumPy automatic rank promotion for multiply"
        ):
            g(jnp.ones(11), jnp.ones((2, 11)))
    with pytest.raises(
        ValueError, match=r"new enum value must be in \['allow', 'warn', 'raise'\], got bogus"
    ):
        jax.config.update("jax_numpy_rank_promotion", "bogus")
    with pytest.raises(ValueError, match="new enum value must be in"):
        with jax.numpy_rank_promotion("bogus"):
            pass
    assert jax.config.jax_numpy_rank_promotion == "allow"
    # Functions that broadcast only internally do not count (as in JAX).
    with jax.numpy_rank_promotion("raise"):
        assert jnp.outer(jnp.ones(3), jnp.ones(4)).shape == (3, 4)
        assert jnp.heaviside(jnp.ones(3), jnp.ones((2, 3))).shape == (2, 3)
        assert jnp.where(jnp.ones(3) > 0, jnp.ones((2, 3)), 0.0).shape == (2, 3)


def test_default_matmul_precision_context():
    f = jax.jit(lambda x, y: x @ y)
    a = jnp.arange(4.0).reshape(2, 2)
    want = np.asarray(a) @ np.asarray(a)
    with jax.default_matmul_precision("float32"):
        assert jax.config.jax_default_matmul_precision == "float32"
        np.testing.assert_allclose(f(a, a), want)
    assert jax.config.jax_default_matmul_precision is None
    np.testing.assert_allclose(f(a, a), want)
    with pytest.raises(ValueError, match="new enum value must be None or in"):
        jax.config.update("jax_default_matmul_precision", "bogus")


# ------------------------------------------------------------------ ensure_compile_time_eval
def test_jit_called_inside_ensure_compile_time_eval_folds_constants():
    # Inside the block the jitted function's trace evaluates operations on concrete values
    # (JAX's eager_constant_folding), so int() of one works; outside it cannot. The block
    # is part of the key: neither trace serves the other.
    traces = []

    def g(x):
        traces.append(1)
        return x + int(jnp.arange(3).sum())

    gj = jax.jit(g)
    with jax.ensure_compile_time_eval():
        assert float(gj(jnp.ones(()))) == 4.0
        assert float(gj(jnp.ones(()))) == 4.0
    assert len(traces) == 1
    with pytest.raises(jax.errors.ConcretizationTypeError):
        gj(jnp.ones(()))
    with jax.ensure_compile_time_eval():
        assert float(gj(jnp.ones(()))) == 4.0
        carry, ys = jax.lax.scan(
            lambda c, x: (c + int(jnp.arange(2).sum()) + x, c), 0.0, jnp.ones(3)
        )
        assert float(carry) == 6.0 and np.asarray(ys).tolist() == [0.0, 2.0, 4.0]
    assert len(traces) == 2
