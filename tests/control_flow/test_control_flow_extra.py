"""More control-flow tests: nesting, closures over tracers, stacked transformations, error
messages, DCE and effects inside loop bodies, vmap with effectful bodies.

References are NumPy loops, finite differences or other already-tested transformations.
Runs unchanged against JAX in oracle mode (``JAXLITE_ORACLE=jax``) except the tests marked
``jaxlite_only`` (where jaxlite deliberately goes beyond JAX).
"""

import numpy as np
import pytest
from helpers import close, rand

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax
from jaxlite.experimental import io_callback

F32 = jax.ShapeDtypeStruct((), jnp.float32)


def fd_grad(f, x, eps=1e-3):
    """Central finite differences of a scalar function of a float64 vector."""
    x = np.asarray(x, np.float64)
    g = np.zeros_like(x)
    for i in range(x.size):
        e = np.zeros_like(x)
        e.flat[i] = eps
        g.flat[i] = (f(x + e) - f(x - e)) / (2 * eps)
    return g


# ---------------------------------------------------------------- nesting and closures


def _nested(w, xs):
    """fori_loop over a scan whose body has a cond, closing over ``w``."""

    def step(c, x):
        c = lax.cond(x > 0.0, lambda v: v * w + x, lambda v: v - w * x, c)
        return c, c * x

    def outer(i, carry):
        c, acc = carry
        c, ys = lax.scan(step, c, xs)
        return c * 0.5, acc + jnp.sum(ys)

    return lax.fori_loop(0, 2, outer, (jnp.float32(0.1), jnp.float32(0.0)))


def _nested_np(w, xs):
    c, acc = 0.1, 0.0
    for _ in range(2):
        ys = []
        for x in xs:
            c = c * w + x if x > 0 else c - w * x
            ys.append(c * x)
        c, acc = c * 0.5, acc + sum(ys)
    return c, acc


@pytest.mark.parametrize("wrap", [lambda f: f, jax.jit], ids=["eager", "jit"])
def test_nested_fori_scan_cond_with_closure(wrap):
    xs = rand(5)
    got = wrap(_nested)(0.8, xs)
    ref = _nested_np(0.8, xs.astype(np.float64))
    close(got[0], ref[0], rtol=1e-4)
    close(got[1], ref[1], rtol=1e-4)


def test_nested_under_vmap_matches_loop():
    xs = rand(5)
    ws = np.array([0.3, 0.8, -0.5], np.float32)
    got = jax.vmap(_nested, in_axes=(0, None))(ws, xs)
    for k, w in enumerate(ws):
        ref = _nested_np(float(w), xs.astype(np.float64))
        close(got[0][k], ref[0], rtol=1e-4)
        close(got[1][k], ref[1], rtol=1e-4)


def test_nested_grad_matches_finite_differences():
    xs = rand(5, seed=3)

    def f(w):
        c, acc = _nested(w, xs)
        return c + acc

    g = jax.grad(f)(0.8)
    ref = fd_grad(lambda w: sum(_nested_np(w[0], xs.astype(np.float64))), [0.8], eps=1e-4)
    close(g, ref[0], rtol=1e-3, atol=1e-4)
    close(jax.jit(jax.grad(f))(0.8), g, rtol=1e-5)


def test_scan_body_closes_over_vmap_and_jit_tracers():
    xs = rand(4, 3)
    ws = rand(2, seed=1)

    def f(w, xs):
        return lax.scan(lambda c, x: (c * w + x, c * w), jnp.zeros(3), xs)

    got_c, got_y = jax.jit(jax.vmap(f, in_axes=(0, None)))(ws, xs)
    for k, w in enumerate(ws):
        c = np.zeros(3, np.float32)
        ys = []
        for x in xs:
            ys.append(c * w)
            c = c * w + x
        close(got_c[k], c)
        close(got_y[k], np.stack(ys))


def test_cond_inside_scan_vmapped_over_predicates_and_grad():
    xs = rand(6)

    def f(w, xs):
        def step(c, x):
            return lax.cond(x > 0.0, lambda c: c * w, lambda c: c + w * x, c), None

        return lax.scan(step, jnp.float32(1.0), xs)[0]

    def ref(w):
        c = 1.0
        for x in xs.astype(np.float64):
            c = c * w if x > 0 else c + w * x
        return c

    g = jax.grad(f)(0.7, xs)
    close(g, fd_grad(lambda w: ref(w[0]), [0.7], eps=1e-5)[0], rtol=1e-3)
    batched = jax.vmap(f, in_axes=(None, 0))(0.7, jnp.stack([xs, -xs]))
    close(batched[0], f(0.7, xs))
    close(batched[1], f(0.7, -xs))


def test_scan_inside_cond_branch():
    xs = rand(4)

    def f(p, c):
        return lax.cond(
            p,
            lambda c: lax.scan(lambda a, x: (a + x * c, a), c, xs),
            lambda c: (c, jnp.zeros(4)),
            c,
        )

    c, ys = jax.jit(f)(True, 2.0)
    acc, ref_ys = 2.0, []
    for x in xs:
        ref_ys.append(acc)
        acc = acc + x * 2.0
    close(c, acc)
    close(ys, ref_ys)
    c, ys = jax.jit(f)(False, 2.0)
    close(c, 2.0)
    close(ys, np.zeros(4))


# ---------------------------------------------------------------- stacked transformations


def _rnn(w, xs):
    def step(h, x):
        h = jnp.tanh(w * h + x)
        return h, h * h

    h, ys = lax.scan(step, 0.0, xs)
    return h + jnp.sum(ys)


def test_hessian_of_scan_matches_finite_differences_of_grad():
    xs = jnp.asarray(rand(5))
    h = jax.hessian(_rnn)(0.6, xs)
    eps = 1e-3
    fd = (jax.grad(_rnn)(0.6 + eps, xs) - jax.grad(_rnn)(0.6 - eps, xs)) / (2 * eps)
    close(h, fd, rtol=1e-2, atol=1e-3)


def test_jacrev_and_jacfwd_of_scan_agree():
    def f(xs):
        return lax.scan(lambda c, x: (c * x + 1.0, jnp.sin(c * x)), 0.5, xs)[1]

    xs = jnp.asarray(rand(4) + 1.5)
    close(jax.jacrev(f)(xs), jax.jacfwd(f)(xs), rtol=1e-5)


def test_grad_of_scan_wrt_closed_over_array_under_jit():
    xs = rand(5, 2)

    def loss(w):
        c, ys = lax.scan(lambda c, x: (jnp.tanh(c * w + x), jnp.sum(c)), jnp.ones(2), xs)
        return jnp.sum(c) + jnp.sum(ys)

    def loss_np(w):
        c, tot = np.ones(2), 0.0
        for x in xs.astype(np.float64):
            tot += c.sum()
            c = np.tanh(c * w + x)
        return c.sum() + tot

    w = np.array([0.4, -0.7], np.float32)
    close(jax.jit(jax.grad(loss))(w), fd_grad(loss_np, w, eps=1e-4), rtol=1e-3, atol=1e-4)


def test_grad_of_unrolled_reverse_scan_with_pytree_carry():
    xs = rand(6)

    def f(xs):
        def step(c, x):
            a, b = c
            return (a * x + b, b + x * x), a

        (a, b), ys = lax.scan(step, (1.0, 0.5), xs, reverse=True, unroll=2)
        return a + 2.0 * b + jnp.sum(ys)

    def f_np(xs):
        a, b, tot = 1.0, 0.5, 0.0
        for x in xs[::-1]:
            tot += a
            a, b = a * x + b, b + x * x
        return a + 2.0 * b + tot

    close(jax.grad(f)(xs), fd_grad(f_np, xs, eps=1e-4), rtol=1e-3, atol=1e-4)


def test_grad_of_fixed_trip_fori_loop_with_array_bounds_and_pytree_carry():
    def f(x):
        def body(i, c):
            return {"a": c["a"] * x + i, "b": c["b"] + jnp.sin(c["a"])}

        out = lax.fori_loop(jnp.int32(1), jnp.int32(4), body, {"a": x, "b": 0.0})
        return out["a"] + out["b"]

    def f_np(x):
        a, b = x[0], 0.0
        for i in range(1, 4):
            a, b = a * x[0] + i, b + np.sin(a)
        return a + b

    close(jax.grad(f)(0.3), fd_grad(f_np, [0.3], eps=1e-4)[0], rtol=1e-3)


def test_linearize_of_while_loop_matches_jvp():
    def f(x):
        return lax.while_loop(
            lambda c: c[0] < 10.0, lambda c: (c[0] * 3.0, c[1] + c[0] * c[0]), (x, x)
        )

    y, f_jvp = jax.linearize(f, 0.5)
    y2, t2 = jax.jvp(f, (0.5,), (1.0,))
    close(y[0], y2[0])
    close(y[1], y2[1])
    t = f_jvp(1.0)
    close(t[0], t2[0])
    close(t[1], t2[1])


def test_grad_through_while_loop_with_stop_gradient_free_count_only_is_value_error():
    def f(x):
        n = lax.while_loop(lambda c: c[1] < 5, lambda c: (c[0] * x, c[1] + 1), (1.0, 0))[0]
        return n

    with pytest.raises(ValueError, match="Reverse-mode differentiation does not work"):
        jax.grad(f)(1.1)


def test_vmap_of_grad_of_switch_with_batched_index():
    branches = [lambda v: v * v, jnp.sin, lambda v: -3.0 * v]
    idx = np.array([0, 2, 1, 0, 5], np.int32)
    xs = rand(5)
    got = jax.jit(jax.vmap(jax.grad(lambda i, v: lax.switch(i, branches, v), argnums=1)))(
        jnp.asarray(idx), xs
    )
    ref = [
        2 * x if i == 0 else (np.cos(x) if i == 1 else -3.0) for i, x in zip(np.clip(idx, 0, 2), xs)
    ]
    close(got, ref)


def test_vmap_while_with_batched_body_const_only():
    # The predicate depends on an unbatched counter; a batched closed-over value feeds the body.
    ws = rand(3)

    def f(w):
        return lax.while_loop(lambda c: c[0] < 4, lambda c: (c[0] + 1, c[1] * w + 1.0), (0, 0.0))[1]

    ref = []
    for w in ws:
        c = 0.0
        for _ in range(4):
            c = c * w + 1.0
        ref.append(c)
    close(jax.vmap(f)(ws), ref)


def test_vmap_while_batched_predicate_with_pytree_and_int_carry():
    limits = np.array([3.0, 20.0, 0.5, 7.0], np.float32)

    def f(lim, x):
        def body(c):
            return {"n": c["n"] + 1, "v": c["v"] * 1.5 + 1.0}

        return lax.while_loop(lambda c: c["v"] < lim, body, {"n": 0, "v": x})

    out = jax.jit(jax.vmap(f, in_axes=(0, None)))(limits, 1.0)
    for k, lim in enumerate(limits):
        n, v = 0, np.float32(1.0)
        while v < lim:
            n, v = n + 1, v * np.float32(1.5) + np.float32(1.0)
        assert int(out["n"][k]) == n
        close(out["v"][k], v)


def test_vmap_cond_outputs_of_mixed_batching():
    p = jnp.asarray([True, False, True])

    def f(p, x):
        return lax.cond(p, lambda x: (x, 1.0), lambda x: (2.0 * x, 2.0), x)

    a, b = jax.vmap(f, in_axes=(0, None))(p, 3.0)
    close(a, [3.0, 6.0, 3.0])
    close(b, [1.0, 2.0, 1.0])


# ---------------------------------------------------------------- front-end behaviour


def test_map_with_batch_size_under_jit_and_grad():
    xs = rand(7, 2)

    def f(xs):
        return jnp.sum(lax.map(lambda x: jnp.sin(x) * x[0], xs, batch_size=3))

    def f_np(flat):
        x = flat.reshape(7, 2)
        return float(np.sum(np.sin(x) * x[:, :1]))

    close(jax.jit(f)(xs), f_np(xs.astype(np.float64)), rtol=1e-5)
    close(jax.grad(f)(xs), fd_grad(f_np, xs.ravel(), eps=1e-4).reshape(7, 2), rtol=1e-3, atol=1e-4)


@pytest.mark.parametrize("n", [1, 2, 5, 8, 13])
def test_associative_scan_lengths_under_jit_and_vmap(n):
    x = rand(3, n) + 1.0
    f = jax.jit(jax.vmap(lambda v: lax.associative_scan(jnp.multiply, v)))
    close(f(x), np.cumprod(x, axis=1), rtol=1e-5)
    close(
        lax.associative_scan(jnp.add, x, axis=1, reverse=True),
        np.cumsum(x[:, ::-1], axis=1)[:, ::-1],
        rtol=1e-5,
    )


def test_scan_zero_length():
    c, ys = lax.scan(lambda c, x: (c + x, c * x), jnp.float32(1.0), jnp.zeros((0,)))
    close(c, 1.0)
    assert ys.shape == (0,)
    c, ys = jax.jit(lambda xs: lax.scan(lambda c, x: (c + x, 2 * x), jnp.ones(3), xs))(
        jnp.zeros((0, 3))
    )
    close(c, np.ones(3))
    assert ys.shape == (0, 3)


def test_disable_jit_reverse_scan_stacks_in_index_order():
    xs = jnp.arange(4.0)
    with jax.disable_jit():
        c, ys = lax.scan(lambda c, x: (c + x, c), 0.0, xs, reverse=True)
    close(c, 6.0)
    close(ys, [6.0, 5.0, 3.0, 0.0])
    c2, ys2 = lax.scan(lambda c, x: (c + x, c), 0.0, xs, reverse=True)
    close(c2, c)
    close(ys2, ys)


def test_weakly_typed_init_takes_the_body_type():
    # A Python-scalar carry becomes the body's (strong) dtype instead of raising.
    x = jnp.ones(3, jnp.float32)
    out = lax.fori_loop(0, 3, lambda i, c: c + jnp.sum(x), 0.0)
    assert out.dtype == jnp.float32
    close(out, 9.0)
    c, _ = lax.scan(lambda c, x: (c + x, None), 0, jnp.arange(4, dtype=jnp.int32))
    assert c.dtype == jnp.int32
    assert int(c) == 6


def test_cond_float_predicate_and_operand_keyword():
    assert float(lax.cond(0.0, lambda: 1.0, lambda: 2.0)) == 2.0
    assert float(lax.cond(-0.5, lambda: 1.0, lambda: 2.0)) == 1.0
    close(lax.cond(True, lambda x: x + 1, lambda x: x - 1, operand=jnp.ones(2)), [2.0, 2.0])


# ---------------------------------------------------------------- errors


def test_cond_error_messages():
    with pytest.raises(TypeError, match="Pred must be a scalar"):
        lax.cond(jnp.ones(2) > 0, lambda: 1.0, lambda: 2.0)
    with pytest.raises(TypeError, match="must have equal output types"):
        lax.cond(True, lambda: jnp.float32(1.0), lambda: jnp.int32(1))
    with pytest.raises(TypeError, match="must have the same pytree structure"):
        lax.cond(True, lambda: (1.0, 2.0), lambda: 1.0)


def test_switch_error_messages():
    with pytest.raises(TypeError, match="Branch index must be scalar"):
        lax.switch(jnp.zeros(2, jnp.int32), [lambda: 1.0, lambda: 2.0])
    with pytest.raises(TypeError, match="Index type must be an integer"):
        lax.switch(1.0, [lambda: 1.0, lambda: 2.0])
    with pytest.raises(ValueError, match="Empty branch sequence"):
        lax.switch(0, [])


def test_scan_carry_error_names_the_leaf_and_types():
    def body(c, x):
        return {"a": c["a"], "b": c["b"].astype(jnp.int32)}, x

    with pytest.raises(
        TypeError,
        match=r"c\['b'\] has type float32\[\] but the corresponding "
        r"output carry component has type int32\[\]",
    ):
        lax.scan(body, {"a": jnp.float32(0), "b": jnp.float32(1)}, jnp.ones(3))


def test_scan_length_errors():
    with pytest.raises(ValueError, match="different leading axis sizes"):
        lax.scan(lambda c, x: (c, x), 0.0, (jnp.ones(3), jnp.ones(4)))
    with pytest.raises(ValueError, match="disagrees with leading axis sizes"):
        lax.scan(lambda c, x: (c, x), 0.0, jnp.ones(3), length=4)
    with pytest.raises(ValueError):
        lax.scan(lambda c, x: (c, x), 0.0, None)


def test_while_loop_errors():
    with pytest.raises(TypeError, match="cond_fun must return a boolean scalar"):
        lax.while_loop(lambda c: c, lambda c: c + 1.0, 1.0)
    with pytest.raises(TypeError, match="must have the same pytree structure"):
        lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1], c[1]), (0, 1.0))
    with pytest.raises(TypeError, match="must have equal types"):
        lax.while_loop(lambda c: c < 3.0, lambda c: jnp.ones(2), jnp.float32(0.0))


# ---------------------------------------------------------------- effects in bodies


@pytest.mark.parametrize("wrap", [lambda f: f, jax.jit], ids=["eager", "jit"])
def test_io_callback_in_scan_runs_once_per_iteration_even_if_unused(wrap):
    calls = []

    def record(x):
        calls.append(float(x))
        return np.float32(x)

    def f(xs):
        def body(c, x):
            io_callback(record, F32, x)
            return c + x, c * x

        c, _ = lax.scan(body, 0.0, xs)  # ys unused: the loop must still run the callback
        return c

    out = wrap(f)(jnp.arange(4.0))
    jax.effects_barrier()
    close(out, 6.0)
    assert calls == [0.0, 1.0, 2.0, 3.0]


def test_io_callback_in_loop_with_all_outputs_unused_is_kept():
    calls = []

    def f(x):
        lax.fori_loop(
            0,
            3,
            lambda i, c: (
                io_callback(
                    lambda v: (calls.append(int(v)), v)[1], jax.ShapeDtypeStruct((), jnp.int32), i
                )
                + c
            ),
            0,
        )
        return x + 1.0

    close(jax.jit(f)(1.0), 2.0)
    jax.effects_barrier()
    assert calls == [0, 1, 2]


def test_grad_of_scan_with_io_callback_on_primal_runs_forward_once():
    calls = []

    def f(w, xs):
        def body(c, x):
            y = io_callback(lambda v: (calls.append(float(v)), v)[1], F32, x)
            return c * w + y, None

        return lax.scan(body, 0.0, xs)[0]

    xs = jnp.asarray([1.0, 2.0, 3.0])
    g = jax.grad(f)(0.5, xs)
    jax.effects_barrier()
    # c = ((1 * w) + 2) * w + 3  -> dc/dw = 2 w + 2
    close(g, 2 * 0.5 + 2.0)
    assert calls == [1.0, 2.0, 3.0]


@pytest.mark.jaxlite_only
def test_vmap_cond_batched_predicate_with_io_callback_runs_taken_branch_per_element():
    """JAX rejects IO callbacks under a batched cond; jaxlite runs the cond per element."""
    calls = []

    def branch(tag, k):
        def fn(x):
            return io_callback(lambda v: (calls.append((tag, float(v))), v * k)[1], F32, x)

        return fn

    def f(p, x):
        return lax.cond(p, branch("t", 2.0), branch("f", -1.0), x)

    p = jnp.asarray([True, False, True])
    x = jnp.asarray([1.0, 2.0, 3.0])
    for g in [jax.vmap(f), jax.jit(jax.vmap(f))]:
        calls.clear()
        out = g(p, x)
        jax.effects_barrier()
        close(out, [2.0, -2.0, 6.0])
        assert calls == [("t", 1.0), ("f", 2.0), ("t", 3.0)]


@pytest.mark.jaxlite_only
def test_vmap_while_batched_predicate_with_io_callback_runs_per_element():
    calls = []

    def body(x):
        return io_callback(lambda v: (calls.append(float(v)), v + np.float32(1))[1], F32, x)

    f = jax.vmap(lambda x: lax.while_loop(lambda x: x < 3.0, body, x))
    out = f(jnp.asarray([1.0, 2.5, 4.0]))
    jax.effects_barrier()
    close(out, [3.0, 3.5, 4.0])
    assert calls == [1.0, 2.0, 2.5]


@pytest.mark.jaxlite_only
def test_jitted_loops_are_python_loops_over_inline_bodies():
    def f(x):
        c, _ = lax.scan(lambda c, _: (c * 0.99 + 0.01, None), x, None, length=10)
        return lax.while_loop(lambda c: c[0] < 5.0, lambda c: c + 1.0, c)

    text = jax.jit(f).lower(jnp.ones(4)).as_text()
    source = text.split("# generated Python source")[1]
    assert "for " in source and "while True:" in source
    assert "_sub" not in source  # bodies are inlined, not called


def test_vmap_cond_with_literal_branches_keeps_weak_type():
    out = jax.vmap(lambda p: lax.cond(p, lambda: 1.0, lambda: 2.0))(jnp.asarray([True, False]))
    close(out, [1.0, 2.0])
    assert out.dtype == jnp.float32 and out.weak_type


@pytest.mark.jaxlite_only
def test_grad_of_scan_does_not_stack_loop_invariant_residuals():
    w = jnp.asarray(rand(8, 8) * 0.1)
    xs = jnp.ones((20, 8))

    def loss(w, xs):
        h, _ = lax.scan(lambda h, x: (jnp.tanh(w @ h + x), None), jnp.zeros(8), xs)
        return jnp.sum(h)

    text = str(jax.make_jaxpr(jax.grad(loss))(w, xs))
    assert "f32[20,8,8]" not in text  # w is passed to the backward scan once, not per step
    g = jax.grad(loss)(w, xs)

    def loss_np(flat):
        wn, h = flat.reshape(8, 8), np.zeros(8)
        for x in np.asarray(xs, np.float64):
            h = np.tanh(wn @ h + x)
        return h.sum()

    close(g, fd_grad(loss_np, np.asarray(w).ravel(), eps=1e-4).reshape(8, 8), rtol=1e-3, atol=1e-4)
