"""Mutable array references (``jax.new_ref``, ``jax.ref``): eager, jit, loop and branch
bodies, vmap/grad, and the errors, each compared with JAX where it is installed
(``tests/hunt/oracle.py``: values, dtypes and weak types, or the exception's class) and
with the values JAX gives written out."""

from __future__ import annotations

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from tests.hunt.oracle import same


def _first_line(e: BaseException) -> str:
    return str(e).splitlines()[0]


# ----------------------------------------------------------------------------- eager
def test_eager_read_write_like_jax():
    def build(m):
        r = m.jx.new_ref(m.jnp.zeros(3))
        r[...] += 1
        r[0] = 5.0
        r[1:] = r[1:] * 2
        m.jx.ref.addupdate(r, 2, m.jnp.float32(10))
        old = m.jx.ref.swap(r, 0, m.jnp.float32(7))
        return r[...], old, r[1], r[-1], m.jx.ref.get(r), m.jx.ref.freeze(r)

    out = same(build)
    np.testing.assert_array_equal(out[0], [7.0, 2.0, 12.0])
    assert float(out[1]) == 5.0


def test_repr_typeof_and_attributes():
    r = jax.new_ref(jnp.zeros(3))
    assert repr(r) == "Ref([0., 0., 0.], dtype=float32)"
    assert repr(jax.new_ref(1.0)) == "Ref(1., dtype=float32, weak_type=True)"
    assert str(jax.typeof(r)) == "Ref{float32[3]}"
    assert isinstance(jax.typeof(r), jax.ref.AbstractRef)
    assert (r.shape, r.dtype, r.ndim, r.size, len(r)) == ((3,), np.float32, 1, 3, 3)
    assert isinstance(r, jax.Ref) and not isinstance(r, jax.Array)
    assert jax.tree.leaves([r])[0] is r


def test_weak_type_kept_on_write():
    def build(m):
        r = m.jx.new_ref(2.0)
        r[...] = m.jnp.float32(3)
        return r[...]

    out = same(build)
    assert out.aval.weak_type


def test_indexing_forms_like_jax():
    def build(m):
        r = m.jx.new_ref(m.jnp.arange(12.0).reshape(3, 4))
        return r[1], r[:, 2], r[1:3], r[0, 1], r[m.jnp.array(1)], r[..., 0], r[::2]

    same(build)


@pytest.mark.parametrize(
    "case, message",
    [
        ("int_into_f32", "Invalid dtype for `swap`. Ref dtype: float32. Value dtype: int32. "),
        (
            "wrong_shape",
            "Invalid shape for `swap`. Ref shape: (3,). Expected shape: (3,). "
            "Value shape: (4,). Transforms: (). ",
        ),
        (
            "scalar_no_broadcast",
            "Invalid shape for `swap`. Ref shape: (3,). Expected shape: "
            "(3,). Value shape: (). Transforms: (). ",
        ),
        ("out_of_bounds", "Out of bound indexer: idx=10, dim=3."),
        (
            "list",
            "Error interpreting argument to new_ref as a JAX value. The problematic "
            "value is of type <class 'list'> and was passed to new_ref at position 0.",
        ),
        ("not_a_ref", "Can only call `ref_get` on a `Ref`: [1. 1. 1.]."),
        ("empty_eager", "Evaluation rule for 'empty_ref' not implemented"),
    ],
    ids=lambda x: x if isinstance(x, str) and len(x) < 30 else "msg",
)
def test_errors_like_jax(case, message):
    def build(m):
        r = m.jx.new_ref(m.jnp.zeros(3))
        if case == "int_into_f32":
            r[...] = m.jnp.arange(3)
        elif case == "wrong_shape":
            r[...] = m.jnp.ones(4)
        elif case == "scalar_no_broadcast":
            r[...] = 2.0
        elif case == "out_of_bounds":
            return r[10]
        elif case == "list":
            m.jx.new_ref([1.0, 2.0])
        elif case == "not_a_ref":
            m.jx.ref.get(m.jnp.ones(3), ...)
        elif case == "empty_eager":
            m.jx.empty_ref(m.jx.ShapeDtypeStruct((2,), m.jnp.float32))
        return None

    err = same(build)
    assert isinstance(err, Exception)
    assert _first_line(err) == message


def test_boolean_index_refused():
    r = jax.new_ref(jnp.arange(3.0))
    with pytest.raises(jax.errors.NonConcreteBooleanIndexError, match=r"got bool\[3\]"):
        r[jnp.array([True, False, True])]


# ----------------------------------------------------------------------------- jit
def test_jit_ref_made_inside():
    def build(m):
        @m.jx.jit
        def f(x):
            r = m.jx.new_ref(x)
            r[...] += 1
            r[0] = 9.0
            return r[...]

        return f(m.jnp.zeros(2))

    np.testing.assert_array_equal(same(build), [9.0, 1.0])


def test_jit_ref_argument_mutated_for_the_caller():
    def build(m):
        def g(r, x):
            r[...] += x
            return r[...] * 2

        jg = m.jx.jit(g)
        r = m.jx.new_ref(m.jnp.zeros(2))
        a = jg(r, 3.0)
        b = jg(r, 1.0)  # a cache hit reads the ref's current value
        return a, b, r[...]

    a, b, v = same(build)
    np.testing.assert_array_equal(v, [4.0, 4.0])
    np.testing.assert_array_equal(b, [8.0, 8.0])


def test_jit_closed_over_ref_sees_current_value_each_call():
    def build(m):
        R = m.jx.new_ref(m.jnp.zeros(2))

        @m.jx.jit
        def h(x):
            R[...] += x
            return R[...]

        first = h(1.0)
        R[...] = m.jnp.full(2, 10.0)  # changed between calls: no stale constant
        return first, h(2.0), R[...]

    _, second, v = same(build)
    np.testing.assert_array_equal(second, [12.0, 12.0])
    np.testing.assert_array_equal(v, [12.0, 12.0])


def test_nested_jit_and_kwargs():
    def build(m):
        G = m.jx.new_ref(0.0)
        m.jx.jit(lambda: m.jx.jit(lambda: G.__setitem__(..., G[...] + 10.0))())()
        r = m.jx.new_ref(0.0)
        m.jx.jit(lambda *, r: r.__setitem__(..., 5.0))(r=r)
        return G[...], r[...]

    same(build)


def test_jit_errors_like_jax():
    r = jax.new_ref(jnp.zeros(2))
    with pytest.raises(ValueError) as e:
        jax.jit(lambda x: jax.new_ref(x))(jnp.zeros(2))
    assert (
        "returned a mutable array reference of type Ref{float32[2]}, but mutable array "
        "references cannot be returned." in _first_line(e.value)
    )
    with pytest.raises(ValueError) as e:
        jax.jit(lambda a, b: a[...] + b[...])(r, r)
    assert "the mutable array reference of type Ref{float32[2]} appeared at both a and b." in (
        _first_line(e.value)
    )
    with pytest.raises(ValueError, match="Invalid dtype for `swap`"):
        jax.jit(lambda r: r.__setitem__(..., jnp.int32(1)))(jax.new_ref(0.0))


def test_leaked_ref_raises_unexpected_tracer():
    leak = []

    @jax.jit
    def f(x):
        leak.append(jax.new_ref(x))
        return x

    f(1.0)
    with pytest.raises(jax.errors.UnexpectedTracerError) as e:
        leak[0][...]
    assert _first_line(e.value).startswith("Encountered an unexpected tracer.")


# ----------------------------------------------------------------------------- loops
def test_scan_body_closing_over_ref_eager_and_jit():
    def build(m):
        S = m.jx.new_ref(m.jnp.zeros(()))

        def body(c, x):
            S[...] += x
            return c + S[...], S[...] * 2

        first = m.lax.scan(body, 0.0, m.jnp.arange(3.0))
        second = m.jx.jit(lambda: m.lax.scan(body, 0.0, m.jnp.arange(3.0)))()
        return first, second, S[...]

    out = same(build)
    assert float(out[2]) == 6.0


def test_fori_while_cond_switch_threading():
    def build(m):
        T = m.jx.new_ref(m.jnp.float32(0))
        n = m.lax.fori_loop(0, 4, lambda i, c: (T.__setitem__(..., T[...] + i), c + 1)[1], 0)
        U = m.jx.new_ref(m.jnp.float32(0))

        def wbody(c):
            U[...] += 2.0
            return c + 1

        k = m.lax.while_loop(lambda c: c < 3, wbody, 0)
        V = m.jx.new_ref(m.jnp.zeros(2))
        m.lax.cond(True, lambda: V.__setitem__(..., V[...] + 1.0), lambda: None)
        m.lax.cond(False, lambda: V.__setitem__(..., V[...] + 1.0), lambda: None)
        m.lax.cond(True, lambda r: r.__setitem__(0, 5.0), lambda r: None, V)
        m.lax.switch(1, [lambda: V.__setitem__(0, 7.0), lambda: V.__setitem__(1, 8.0)])
        return n, T[...], k, U[...], V[...]

    out = same(build)
    np.testing.assert_array_equal(out[4], [5.0, 8.0])


def test_loop_inside_jit_with_traced_bounds():
    def build(m):
        R = m.jx.new_ref(m.jnp.zeros(3))

        @m.jx.jit
        def f(n):
            def body(i, c):
                R[i % 3] += 1.0
                return c

            return m.lax.fori_loop(0, n, body, 0.0)

        f(5)
        return R[...]

    np.testing.assert_array_equal(same(build), [2.0, 2.0, 1.0])


@pytest.mark.parametrize("which", ["scan_carry", "scan_ys", "fori_carry", "cond_out"])
def test_returning_a_ref_from_a_body_like_jax(which):
    def build(m):
        if which == "scan_carry":
            m.lax.scan(lambda c, x: (c, None), m.jx.new_ref(0.0), m.jnp.arange(3.0))
        elif which == "scan_ys":
            m.lax.scan(lambda c, x: (c, m.jx.new_ref(x)), 0.0, m.jnp.arange(3.0))
        elif which == "fori_carry":
            m.lax.fori_loop(0, 2, lambda i, r: r, m.jx.new_ref(0.0))
        else:
            m.lax.cond(True, lambda: m.jx.new_ref(1.0), lambda: m.jx.new_ref(2.0))

    err = same(build)
    assert isinstance(err, ValueError)
    assert "but mutable array references cannot be returned." in _first_line(err)


# ----------------------------------------------------------------------------- vmap/grad
def test_vmap_and_grad_of_inner_refs():
    def build(m):
        def vf(x):
            r = m.jx.new_ref(x)
            r[...] += 1
            return r[...] * 2

        def gf(x):
            r = m.jx.new_ref(x)
            r[...] = r[...] * x
            return r[...].sum()

        return (
            m.jx.vmap(vf)(m.jnp.arange(3.0)),
            m.jx.grad(gf)(2.0),
            m.jx.jvp(gf, (2.0,), (1.0,)),
            m.jx.jit(m.jx.grad(gf))(2.0),
            m.jx.grad(m.jx.jit(gf))(2.0),
        )

    same(build)


def test_outer_ref_under_vmap_and_grad():
    def build(m):
        G = m.jx.new_ref(0.0)
        read = m.jx.vmap(lambda x: x + G[...])(m.jnp.arange(3.0))
        g = m.jx.grad(lambda x: (G.__setitem__(..., G[...] + 1.0), x * 3)[1])(2.0)
        loop = m.jx.grad(
            lambda x: m.lax.fori_loop(
                0, 3, lambda i, c: (G.__setitem__(..., G[...] + 1.0), c * x)[1], 1.0
            )
        )(2.0)
        return read, g, loop, G[...]

    out = same(build)
    assert float(out[3]) == 4.0


@pytest.mark.parametrize("which", ["vmap_set", "vmap_addupdate", "grad_set", "jvp_set"])
def test_writes_across_transformations_raise_like_jax(which):
    def build(m):
        W = m.jx.new_ref(0.0)
        xs = m.jnp.arange(3.0)
        if which == "vmap_set":
            m.jx.vmap(lambda x: W.__setitem__(..., x))(xs)
        elif which == "vmap_addupdate":
            m.jx.vmap(lambda x: (m.jx.ref.addupdate(W, ..., m.jnp.float32(1.0)), x)[1])(xs)
        elif which == "grad_set":
            m.jx.grad(lambda x: (W.__setitem__(..., x * 2), x * 3)[1])(2.0)
        else:
            m.jx.jvp(lambda x: (W.__setitem__(..., x * 2), x * 3)[1], (2.0,), (1.0,))

    err = same(build)
    line = _first_line(err)
    assert type(err) is Exception
    if which.startswith("vmap"):
        assert "vmapped value on an unbatched array reference of type Ref{float32[]}" in line
    else:
        assert "differentiated value on a non-differentiated array reference" in line


@pytest.mark.jaxlite_only  # JAX shows Ref inputs and get/swap equations (docs/compat.md)
def test_make_jaxpr_threads_refs_as_inputs_and_outputs():
    r = jax.new_ref(jnp.zeros(2))

    def g(r):
        r[...] += 1

    jaxpr = jax.make_jaxpr(g)(r)
    # jaxlite shows the discharged form: the ref's value in, its new value out.
    assert len(jaxpr.jaxpr.invars) == 1 and len(jaxpr.jaxpr.outvars) == 1
    assert [e.primitive.name for e in jaxpr.jaxpr.eqns] == ["add"]


def test_eval_shape_and_checkpoint_with_refs():
    def build(m):
        R = m.jx.new_ref(m.jnp.zeros(2))

        def f(r, x):
            r[...] += x
            return r[...] * 2

        shape = m.jx.eval_shape(f, R, 1.0)  # traced only: R keeps its value
        ckpt = m.jx.checkpoint(lambda x: (R.__setitem__(..., R[...] + x), x * 2.0)[1])(3.0)
        return m.jnp.zeros(shape.shape, shape.dtype), ckpt, R[...]

    out = same(build)
    np.testing.assert_array_equal(out[2], [3.0, 3.0])


def test_read_only_ref_in_a_loop_under_vmap():
    def build(m):
        R = m.jx.new_ref(m.jnp.float32(2))

        def f(x):
            return m.lax.scan(lambda c, _: (c + R[...], None), x, None, length=2)[0]

        return m.jx.vmap(f)(m.jnp.arange(3.0)), R[...]

    np.testing.assert_array_equal(same(build)[0], [4.0, 5.0, 6.0])


@pytest.mark.parametrize("which", ["pure_callback", "io_callback", "while_carry"])
def test_more_refusals_like_jax(which):
    def build(m):
        r = m.jx.new_ref(1.0)
        if which == "pure_callback":
            m.jx.pure_callback(lambda v: v, m.jx.ShapeDtypeStruct((), m.jnp.float32), r)
        elif which == "io_callback":
            m.jx.experimental.io_callback(lambda v: None, None, r)
        else:
            m.lax.while_loop(lambda c: c[0] < 1, lambda c: c, (0, r))

    err = same(build)
    line = _first_line(err)
    if which == "while_carry":
        assert isinstance(err, ValueError)
        assert "traced for while_body returned a mutable array reference of type " in line
        assert "at output tree path result[1]" in line
    else:
        assert isinstance(err, NotImplementedError)
        assert line == f"No state discharge rule implemented for primitive: {which}"


def test_vmap_over_ref_arguments_like_jax():
    def build(m):
        new, jnp_ = m.jx.new_ref, m.jnp
        a = new(jnp_.zeros(3))
        m.jx.vmap(lambda r: r.__setitem__(..., r[...] + 1))(a)
        got = m.jx.vmap(lambda r: r[...] * 2)(new(jnp_.arange(3.0)))
        b = new(jnp_.zeros((2, 3)))
        m.jx.vmap(lambda r, x: r.__setitem__(0, r[0] + x), in_axes=(1, 0))(b, jnp_.arange(3.0))
        c = new(jnp_.zeros(3))
        m.jx.vmap(lambda r, x: r.__setitem__(..., x))(c, jnp_.arange(3.0))
        d = new(jnp_.ones(3))
        m.jx.jit(m.jx.vmap(lambda r: r.__setitem__(..., r[...] * 2 + 1)))(d)
        e = new(jnp_.zeros(2))

        def body(r):
            return m.lax.fori_loop(0, 3, lambda i, q: (r.__setitem__(..., r[...] + 1.0), q)[1], 0.0)

        m.jx.vmap(body)(e)
        f = new(jnp_.zeros((2, 3)))
        m.jx.vmap(lambda r: r.__setitem__(..., r[...] + 1), in_axes=-1)(f)
        g = new(jnp_.zeros(3))
        same_ref = m.jx.vmap(lambda r: r)(g) is g
        return a[...], got, b[...], c[...], d[...], e[...], f[...], m.jnp.array(same_ref)

    out = same(build)
    np.testing.assert_array_equal(out[2], [[0.0, 1.0, 2.0], [0.0, 0.0, 0.0]])
    assert bool(out[7])


def test_refs_through_nested_constructs_like_jax():
    def build(m):
        jx, jnp_, lax_ = m.jx, m.jnp, m.lax

        def nested_scan():
            R = jx.new_ref(jnp_.zeros(3))

            def inner(c, x):
                R[x] += c
                return c + 1.0, None

            def outer(c, xs):
                c2, _ = lax_.scan(inner, c, xs)
                return c2, R[...].sum()

            return lax_.scan(outer, 0.0, jnp_.array([[0, 1], [2, 0]])), R[...]

        W = jx.new_ref(0.0)

        def br(x):
            return lax_.while_loop(
                lambda i: i < x, lambda i: (W.__setitem__(..., W[...] + 2.0), i + 1)[1], 0
            )

        k = jx.jit(lambda p: lax_.cond(p, br, lambda x: 0, 3))(True)

        def f(x):
            r = jx.new_ref(x)

            def body(c, _):
                r[...] = r[...] * x
                return c + r[...], None

            c, _ = lax_.scan(body, 0.0, None, length=3)
            return c + r[...]

        grads = (
            jx.grad(f)(1.5),
            jx.jit(jx.grad(f))(1.5),
            jx.vmap(jx.grad(f))(jnp_.array([1.0, 2.0])),
        )

        def g(x):
            r = jx.new_ref(jnp_.zeros(2))
            r[0] = x
            r[1] = lax_.fori_loop(0, 2, lambda i, c: c * r[0], 1.0)
            return r[...]

        @jx.jit
        def h(r, i):
            lax_.switch(i, [lambda: r.__setitem__(0, 1.0), lambda: r.__setitem__(1, 2.0)])

        q = jx.new_ref(jnp_.zeros(2))
        h(q, 0)
        h(q, 1)
        t = jx.new_ref(jnp_.zeros(4))

        @jx.jit
        def traced_index(i, v):
            t[i] = v
            t[i + 1] += v
            return t[i]

        idx = traced_index(1, 3.0), traced_index(2, 1.0)
        n = jx.new_ref(jnp_.zeros(3, jnp_.int32))
        lax_.fori_loop(0, 5, lambda i, c: (n.__setitem__(i % 3, n[i % 3] + i), c)[1], 0)
        return (
            nested_scan(),
            jx.jit(nested_scan)(),
            k,
            W[...],
            grads,
            jx.jvp(g, (2.0,), (1.0,)),
            jx.jacrev(g)(2.0),
            q[...],
            idx,
            t[...],
            n[...],
        )

    out = same(build)
    np.testing.assert_array_equal(out[-1], [3, 5, 2])


def test_ref_both_closed_over_and_passed_raises_like_jax():
    def build(m):
        r = m.jx.new_ref(m.jnp.zeros(2))

        @m.jx.jit
        def f(q):
            q[...] += 1
            r[...] += 10

        f(r)

    err = same(build)
    assert isinstance(err, ValueError)
    assert _first_line(err).endswith(
        "a mutable array reference of type Ref{float32[2]} was both closed over and passed as "
        "the argument q"
    )


def test_scan_over_refs_in_xs_like_jax():
    def build(m):
        r = m.jx.new_ref(m.jnp.arange(6.0).reshape(3, 2))

        def body(c, x):
            v = x[...]
            x[...] = v * 10 + c
            x[0] = -1.0
            return c + 1, (v, x[1])

        first = m.lax.scan(body, 0.0, r)
        second = m.jx.jit(lambda: m.lax.scan(body, 0.0, r))()
        q = m.jx.new_ref(m.jnp.arange(3.0))
        rev = m.lax.scan(lambda c, x: (c + x[...], x[...]), 0.0, q, reverse=True)
        mixed = m.lax.scan(lambda c, xs: (c + xs[0][...] * xs[1], None), 0.0, (q, m.jnp.ones(3)))
        return first, second, r[...], rev, mixed

    out = same(build)
    np.testing.assert_array_equal(out[2], [[-1.0, 100.0], [-1.0, 311.0], [-1.0, 522.0]])


def test_scan_over_ref_length_mismatch_like_jax():
    def build(m):
        m.lax.scan(lambda c, x: (c, None), 0.0, m.jx.new_ref(m.jnp.arange(3.0)), length=4)

    err = same(build)
    assert isinstance(err, ValueError)
    assert _first_line(err) == (
        "scan got `length` argument of 4 which disagrees with leading axis sizes [3]."
    )


def test_jit_stages_with_ref_arguments_like_jax():
    def build(m):
        r = m.jx.new_ref(m.jnp.zeros(2))

        def g(r, x):
            r[...] += x
            return r[...] * 2

        jg = m.jx.jit(g)
        out = jg.lower(r, 1.0).compile()(r, 1.0)  # the compiled call mutates too
        shape = jg.eval_shape(r, 1.0)  # the function's own outputs only
        return out, m.jnp.zeros(shape.shape, shape.dtype), r[...]

    np.testing.assert_array_equal(same(build)[2], [1.0, 1.0])


def test_device_put_of_a_ref_raises_like_jax():
    err = same(lambda m: m.jx.device_put(m.jx.new_ref(1.0)))
    assert isinstance(err, TypeError)
    assert _first_line(err).startswith("No pxla_result_handler for type: ")


def test_copy_deepcopy_pickle_like_jax():
    import copy
    import pickle

    def build(m):
        r = m.jx.new_ref(m.jnp.zeros(2))
        d = copy.deepcopy(r)
        d[...] += 1  # a new ref: r is unchanged
        c = copy.copy(r)
        c[...] += 2  # the same buffer: r sees it
        p = pickle.loads(pickle.dumps(r))
        p[...] += 5
        return r[...], d[...], c[...], p[...]

    out = same(build)
    np.testing.assert_array_equal(out[0], [2.0, 2.0])
    np.testing.assert_array_equal(out[3], [7.0, 7.0])


def test_outer_ref_in_custom_jvp_under_jit_is_not_implemented_in_both():
    def build(m):
        R = m.jx.new_ref(2.0)

        @m.jx.custom_jvp
        def f(x):
            return x * R[...]

        f.defjvp(lambda p, t: (f(p[0]), t[0] * R[...]))
        return m.jx.jit(f)(3.0)

    assert isinstance(same(build), NotImplementedError)
