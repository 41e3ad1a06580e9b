"""Session 18: loop-invariant values in ``while_loop``/``fori_loop``/``scan``, as JAX 0.10.2.

JAX passes a carry that the body returns unchanged to the loop as a constant and returns it
as given, and returns ``xs`` itself for a ``ys`` output that is the ``xs`` element: such
values stay unbatched under ``vmap`` where the predicate or the other carries are batched
(``out_axes=None`` accepts them), keep their object (a Python float stays a float) and
drop out of the loop's jaxpr. jaxlite batched them ("got axis spec None but output was
batched"). Also: ``vmap`` returns an unmapped NumPy array or scalar output as the function
returned it. Each case asserts the known answer and, where JAX is importable, compares
with it (tests/hunt/oracle.py)."""

from __future__ import annotations

import numpy as np

import jaxlite
import jaxlite.numpy as jnp
from jaxlite import lax
from tests.hunt.oracle import JAX, LITE, same

_N = np.array([1, 3], np.int32)
_X = np.float32(2)


def test_while_batched_predicate_keeps_an_invariant_carry_unbatched():
    def build(m):
        def f(n, x):
            return m.lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1]), (0, x))

        return m.jx.vmap(f, in_axes=(0, None), out_axes=(0, None))(_N, _X)

    i, x = same(build)
    assert np.asarray(i).tolist() == [1, 3] and x == 2.0


def test_fori_loop_with_a_batched_bound_and_jit():
    def build(m):
        def f(n, x):
            return m.lax.fori_loop(0, n, lambda i, c: (c[0] + 1.0, c[1]), (0.0, x))

        return m.jx.jit(m.jx.vmap(f, in_axes=(0, None), out_axes=(0, None)))(_N, _X)

    s, x = same(build)
    assert np.asarray(s).tolist() == [1.0, 3.0] and float(x) == 2.0


def test_scan_invariant_carry_and_xs_passthrough_under_vmap():
    def build(m):
        def f(xs, x):
            return m.lax.scan(lambda c, v: ((c[0] + v, c[1]), (v * 2, v)), (0.0, x), xs)

        (s, x), (twice, xs) = m.jx.vmap(f, in_axes=(0, None), out_axes=((0, None), 0))(
            np.arange(6, dtype=np.float32).reshape(2, 3), _X
        )
        # (JAX's vmap returns a mapped output that is a NumPy input unchanged as that NumPy
        # array, jaxlite as an Array: compared as values here.)
        return (s, x, twice), np.asarray(xs)

    (s, x, twice), xs = same(build)
    assert np.asarray(s).tolist() == [3.0, 12.0] and float(x) == 2.0
    np.testing.assert_array_equal(np.asarray(xs), np.arange(6).reshape(2, 3))
    np.testing.assert_array_equal(np.asarray(twice), 2 * np.arange(6).reshape(2, 3))


def test_invariant_carries_come_back_as_given():
    # Eagerly the loops return the initial value object itself: a Python float stays a
    # float, a NumPy scalar a NumPy scalar, an Array the same Array.
    a = jnp.ones(2)
    r = lax.while_loop(
        lambda c: c[0] < 2, lambda c: (c[0] + 1, c[1], c[2]), (0, 2.0, np.float32(3)))
    assert type(r[1]) is float and type(r[2]) is np.float32 and int(r[0]) == 2
    assert lax.while_loop(lambda c: c[0] < 2, lambda c: (c[0] + 1, c[1]), (0, a))[1] is a
    assert lax.scan(lambda c, v: (c, None), a, None, length=2)[0] is a
    carry, ys = lax.scan(lambda c, v: (c + v, v), 0.0, a)
    assert ys is a and float(carry) == 2.0
    r = lax.fori_loop(0, 3, lambda i, c: (c[0] + 1, c[1]), (0, 7.0))
    assert int(r[0]) == 3 and type(r[1]) is float
    if JAX is not None:  # the same types in JAX
        r = JAX.lax.while_loop(
            lambda c: c[0] < 2, lambda c: (c[0] + 1, c[1], c[2]), (0, 2.0, np.float32(3)))
        assert type(r[1]) is float and type(r[2]) is np.float32
        assert type(JAX.lax.fori_loop(0, 3, lambda i, c: (c[0] + 1, c[1]), (0, 7.0))[1]) is float


def test_jaxprs_drop_the_forwarded_values():
    closed = jaxlite.make_jaxpr(
        lambda x: lax.while_loop(lambda c: c[0] < 2, lambda c: (c[0] + 1, c[1]), (0, x))
    )(1.0)
    (eqn,) = closed.jaxpr.eqns
    assert eqn.primitive.name == "while" and len(eqn.outvars) == 1
    assert eqn.params["body_nconsts"] == 1 and closed.jaxpr.outvars[1] is closed.jaxpr.invars[0]
    closed = jaxlite.make_jaxpr(lambda xs: lax.scan(lambda c, v: (c + v, v), 0.0, xs))(
        np.ones(3, np.float32)
    )
    scans = [e for e in closed.jaxpr.eqns if e.primitive.name == "scan"]
    assert len(scans) == 1 and len(scans[0].outvars) == 1
    assert closed.jaxpr.outvars[1] is closed.jaxpr.invars[0]


def test_derivatives_through_invariant_carries():
    def build(m):
        def f(x, w):
            (s, w2), _ = m.lax.scan(lambda c, v: ((c[0] + v * c[1], c[1]), None), (x, w),
                                    m.jnp.arange(3.0))
            return s * w2

        g = m.jx.grad(f, argnums=(0, 1))(np.float32(1.5), np.float32(2.0))
        return [np.asarray(v) for v in g]  # (JAX returns one of them as a NumPy scalar)

    gx, gw = same(build)
    # s = x + 3w, f = s*w: df/dx = w = 2, df/dw = 3w + s = 6 + 7.5
    assert float(gx) == 2.0 and float(gw) == 13.5
    # (JAX's jvp returns an input it forwards as the NumPy scalar it was given; compared as
    # values here.)
    jv = same(lambda m: [np.asarray(v) for v in m.jx.tree_util.tree_leaves(m.jx.jvp(
        lambda x: m.lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * c[2], c[2]),
                                   (0, x, x))[1:],
        (np.float32(2.0),), (np.float32(1.0),)))])
    assert [float(v) for v in jv] == [16.0, 2.0, 32.0, 1.0]


def test_vmap_returns_unmapped_host_outputs_as_returned():
    for m in (LITE, JAX) if JAX is not None else (LITE,):
        r = m.jx.vmap(
            lambda x: (x * 2, np.ones(2), np.float32(2), 3.0, True),
            out_axes=(0, None, None, None, None),
        )(np.ones(2, np.float32))
        assert [type(v) for v in r[1:]] == [np.ndarray, np.float32, float, bool]
        assert isinstance(r[0], m.jx.Array)


def test_eager_stop_gradient_returns_its_operand():
    # JAX's stop_gradient impl is the identity: eagerly an Array comes back as itself
    # (floats and integers alike); traced, it is still an equation of the jaxpr.
    for x in (jnp.ones(2), jnp.arange(3), jnp.float32(2)):
        assert lax.stop_gradient(x) is x
    v = jnp.ones(3)
    assert jaxlite.vmap(lax.stop_gradient)(v) is v
    jaxpr = jaxlite.make_jaxpr(lambda a: lax.stop_gradient(a) * a)(1.0)
    assert [e.primitive.name for e in jaxpr.jaxpr.eqns][0] == "stop_gradient"
    g = same(lambda m: m.jx.grad(lambda a: m.lax.stop_gradient(a) * a)(np.float32(3)))
    assert float(g) == 3.0
    if JAX is not None:
        y = JAX.jnp.ones(2)
        assert JAX.lax.stop_gradient(y) is y
