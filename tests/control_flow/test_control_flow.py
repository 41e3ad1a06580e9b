"""Behaviour tests for lax control flow: cond, switch, select, while_loop, fori_loop, scan,
map and associative_scan, alone and under jit, vmap, jvp and grad.

References are plain Python loops / branches over NumPy, analytic derivatives and finite
differences. The file runs unchanged against real JAX in oracle mode (``JAXLITE_ORACLE=jax``).
"""

import numpy as np
import pytest
from helpers import close, rand

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax


def identity(f):
    return f


WRAPPERS = [identity, jax.jit]
WRAPPER_IDS = ["eager", "jit"]


# ---------------------------------------------------------------- cond / switch / select


@pytest.mark.parametrize("wrap", WRAPPERS, ids=WRAPPER_IDS)
@pytest.mark.parametrize("pred", [True, False, 0, 7, -2])
def test_cond_python_and_int_predicates(wrap, pred):
    def f(p, x, y):
        return lax.cond(p, lambda a, b: a * b, lambda a, b: a - b, x, y)

    x, y = rand(3), rand(3, seed=1)
    expected = x * y if pred else x - y
    close(wrap(f)(pred, x, y), expected)


@pytest.mark.parametrize("wrap", WRAPPERS, ids=WRAPPER_IDS)
def test_cond_pytree_operand_and_output(wrap):
    def f(p, ops):
        return lax.cond(
            p,
            lambda d: {"s": d["a"] + d["b"], "t": (d["a"],)},
            lambda d: {"s": d["a"] - d["b"], "t": (d["b"],)},
            ops,
        )

    ops = {"a": rand(2), "b": rand(2, seed=1)}
    for p in [True, False]:
        out = wrap(f)(jnp.asarray(p), ops)
        close(out["s"], ops["a"] + ops["b"] if p else ops["a"] - ops["b"])
        close(out["t"][0], ops["a"] if p else ops["b"])


def test_cond_no_operands_closure():
    x = jnp.asarray(rand(3))
    close(jax.jit(lambda p: lax.cond(p, lambda: x * 2.0, lambda: -x))(True), np.asarray(x) * 2)
    close(jax.jit(lambda p: lax.cond(p, lambda: x * 2.0, lambda: -x))(False), -np.asarray(x))


@pytest.mark.parametrize("wrap", WRAPPERS, ids=WRAPPER_IDS)
@pytest.mark.parametrize("index", [-5, 0, 1, 2, 100])
def test_switch_clamps_index(wrap, index):
    branches = [lambda x: x + 1.0, lambda x: x * 10.0, lambda x: jnp.sin(x)]
    x = rand(3)
    expected = [b(x) for b in [lambda v: v + 1.0, lambda v: v * 10.0, np.sin]]
    clamped = min(max(index, 0), len(branches) - 1)
    close(wrap(lambda i, v: lax.switch(i, branches, v))(index, x), expected[clamped])


def test_switch_multiple_operands():
    branches = [lambda a, b: a + b, lambda a, b: a * b]
    close(lax.switch(1, branches, 3.0, 4.0), 12.0)
    close(jax.jit(lambda i: lax.switch(i, branches, 3.0, 4.0))(0), 7.0)


def test_select():
    p = np.array([True, False, True])
    x, y = rand(3), rand(3, seed=1)
    close(lax.select(jnp.asarray(p), x, y), np.where(p, x, y))
    close(jax.jit(lax.select)(jnp.asarray(p), x, y), np.where(p, x, y))
    close(jax.vmap(lax.select)(jnp.asarray(p), x, y), np.where(p, x, y))


def _cond_f(p, x):
    return lax.cond(p, lambda v: jnp.sin(v) * 2.0, lambda v: jnp.cos(v) + v, x)


def _cond_ref(p, x):
    return np.where(p, np.sin(x) * 2.0, np.cos(x) + x)


def test_vmap_cond_batched_predicate():
    p = np.array([True, False, True, False])
    x = rand(4, 3)
    close(jax.vmap(_cond_f)(jnp.asarray(p), x), _cond_ref(p[:, None], x))
    close(jax.jit(jax.vmap(_cond_f))(jnp.asarray(p), x), _cond_ref(p[:, None], x))


@pytest.mark.parametrize("p", [True, False])
def test_vmap_cond_unbatched_predicate(p):
    x = rand(4, 3)
    close(jax.vmap(_cond_f, in_axes=(None, 0))(p, x), _cond_ref(p, x))


def test_vmap_cond_batched_predicate_unbatched_operand():
    p = np.array([False, True, True])
    x = rand(2)
    out = jax.vmap(_cond_f, in_axes=(0, None))(jnp.asarray(p), x)
    close(out, np.stack([_cond_ref(q, x) for q in p]))


def test_vmap_switch_batched_index():
    branches = [lambda x: x + 1.0, lambda x: x * 10.0, lambda x: -x]
    idx = np.array([2, 0, 1, 5, -1])
    x = rand(5, 2)
    refs = [x + 1.0, x * 10.0, -x]
    expected = np.stack([refs[min(max(i, 0), 2)][k] for k, i in enumerate(idx)])
    close(jax.vmap(lambda i, v: lax.switch(i, branches, v))(jnp.asarray(idx), x), expected)


@pytest.mark.parametrize("p", [True, False])
def test_grad_and_jvp_of_cond(p):
    x = 0.7
    df = 2.0 * np.cos(x) if p else 1.0 - np.sin(x)
    close(jax.grad(lambda v: _cond_f(p, v))(x), df)
    close(jax.jit(jax.grad(lambda v: _cond_f(p, v)))(x), df)
    y, t = jax.jvp(lambda v: _cond_f(p, v), (x,), (3.0,))
    close(y, _cond_ref(p, np.float64(x)))
    close(t, 3.0 * df)


def test_grad_of_cond_with_traced_predicate():
    def f(x):
        return lax.cond(x > 0.0, lambda v: v * v, lambda v: -3.0 * v, x)

    close(jax.grad(f)(2.0), 4.0)
    close(jax.grad(f)(-2.0), -3.0)
    close(jax.vmap(jax.grad(f))(jnp.asarray([2.0, -1.0])), np.array([4.0, -3.0]))


@pytest.mark.parametrize("index", [0, 1, 2])
def test_grad_of_switch(index):
    branches = [jnp.sin, jnp.exp, lambda v: v * v * v]
    dfs = [np.cos, np.exp, lambda v: 3 * v * v]
    x = 0.4
    close(jax.grad(lambda v: lax.switch(index, branches, v))(x), dfs[index](np.float64(x)))
    _, t = jax.jvp(lambda v: lax.switch(index, branches, v), (x,), (2.0,))
    close(t, 2.0 * dfs[index](np.float64(x)))


def test_grad_of_cond_wrt_closed_over_value():
    def f(w, p):
        return lax.cond(p, lambda: jnp.sum(w * w), lambda: jnp.sum(jnp.sin(w)))

    w = rand(3)
    close(jax.grad(f)(w, True), 2 * w)
    close(jax.grad(f)(w, False), np.cos(w))


# ---------------------------------------------------------------- while / fori


def _while_ref(x):
    n = 0
    while x < 50.0:
        x = x * 2.0 + 1.0
        n += 1
    return n, x


@pytest.mark.parametrize("wrap", WRAPPERS, ids=WRAPPER_IDS)
@pytest.mark.parametrize("x0", [0.5, 3.0, 60.0])
def test_while_loop(wrap, x0):
    def f(x):
        return lax.while_loop(lambda c: c[1] < 50.0, lambda c: (c[0] + 1, c[1] * 2.0 + 1.0), (0, x))

    n, x = wrap(f)(x0)
    n_ref, x_ref = _while_ref(np.float32(x0))
    assert int(n) == n_ref
    close(x, x_ref)


def test_while_loop_vmap_batched_predicate():
    x0 = np.array([0.5, 3.0, 60.0, 10.0], np.float32)

    def f(x):
        return lax.while_loop(lambda c: c[1] < 50.0, lambda c: (c[0] + 1, c[1] * 2.0 + 1.0), (0, x))

    for g in [jax.vmap(f), jax.jit(jax.vmap(f))]:
        n, x = g(jnp.asarray(x0))
        refs = [_while_ref(v) for v in x0]
        np.testing.assert_array_equal(np.asarray(n), [r[0] for r in refs])
        close(x, [r[1] for r in refs])


def test_while_loop_vmap_unbatched_predicate():
    # The predicate depends only on the unbatched counter; the body updates a batched value.
    def f(x):
        return lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * 2.0), (0, x))

    x = rand(4)
    n, y = jax.vmap(f)(x)
    np.testing.assert_array_equal(np.asarray(n), [3, 3, 3, 3])
    close(y, x * 8.0)


def test_while_loop_jvp():
    def f(x):
        return lax.while_loop(lambda c: c < 10.0, lambda c: c * 3.0, x)

    # from x=0.5: 1.5, 4.5, 13.5 -> three multiplications by 3
    y, t = jax.jvp(f, (0.5,), (1.0,))
    close(y, 13.5)
    close(t, 27.0)


def test_while_loop_reverse_mode_is_value_error():
    def f(x):
        return lax.while_loop(lambda c: c < 10.0, lambda c: c * 3.0, x)

    with pytest.raises(ValueError, match="Reverse-mode differentiation does not work"):
        jax.grad(f)(0.5)


def test_fori_loop_with_traced_bound_reverse_mode_is_value_error():
    def f(x, n):
        return lax.fori_loop(0, n, lambda i, c: c * x, x)

    with pytest.raises(ValueError, match="Reverse-mode differentiation does not work"):
        jax.jit(jax.grad(f))(1.5, 3)


@pytest.mark.parametrize("wrap", WRAPPERS, ids=WRAPPER_IDS)
@pytest.mark.parametrize("lo,hi", [(0, 5), (2, 6), (3, 3), (4, 1)])
def test_fori_loop(wrap, lo, hi):
    def f(x):
        return lax.fori_loop(lo, hi, lambda i, c: c * 0.5 + i, x)

    ref = np.float32(1.5)
    for i in range(lo, hi):
        ref = ref * 0.5 + i
    close(wrap(f)(1.5), ref)


def test_fori_loop_traced_bounds_and_pytree_carry():
    def f(lo, hi):
        return lax.fori_loop(lo, hi, lambda i, c: (c[0] + i, c[1] * 2.0), (0, 1.0))

    s, p = jax.jit(f)(2, 6)
    assert int(s) == 2 + 3 + 4 + 5
    close(p, 16.0)


def test_fori_loop_vmap():
    xs = rand(4)
    out = jax.vmap(lambda x: lax.fori_loop(0, 3, lambda i, c: c * x + 1.0, x))(xs)
    ref = xs.copy()
    for _ in range(3):
        ref = ref * xs + 1.0
    close(out, ref)


def test_fori_loop_vmap_batched_bound():
    hs = np.array([0, 2, 5], np.int32)
    out = jax.vmap(lambda h: lax.fori_loop(0, h, lambda i, c: c + i, 0))(jnp.asarray(hs))
    np.testing.assert_array_equal(np.asarray(out), [sum(range(h)) for h in hs])


def test_grad_and_jvp_of_fixed_trip_fori_loop():
    def f(x):
        return lax.fori_loop(0, 4, lambda i, c: jnp.sin(c) * x, x)

    def ref(x):
        c = x
        for _ in range(4):
            c = np.sin(c) * x
        return c

    x = 0.9
    expected = (ref(x + 1e-5) - ref(x - 1e-5)) / 2e-5
    close(jax.grad(f)(x), expected, rtol=1e-4, atol=1e-5)
    close(jax.jit(jax.grad(f))(x), expected, rtol=1e-4, atol=1e-5)
    _, t = jax.jvp(f, (x,), (1.0,))
    close(t, expected, rtol=1e-4, atol=1e-5)


# ---------------------------------------------------------------- scan


def _scan_step(c, x):
    new_c = {"sum": c["sum"] + x["a"] * x["b"], "prod": c["prod"] * jnp.cos(x["a"])}
    return new_c, (new_c["sum"] * 2.0, jnp.sin(x["b"]))


def _scan_ref(c, xs, reverse=False):
    n = xs["a"].shape[0]
    order = range(n - 1, -1, -1) if reverse else range(n)
    ys0, ys1 = [None] * n, [None] * n
    s, p = np.asarray(c["sum"], np.float64), np.asarray(c["prod"], np.float64)
    for i in order:
        s = s + xs["a"][i] * xs["b"][i]
        p = p * np.cos(xs["a"][i])
        ys0[i], ys1[i] = s * 2.0, np.sin(xs["b"][i])
    return {"sum": s, "prod": p}, (np.stack(ys0), np.stack(ys1))


def _scan_inputs():
    c = {"sum": np.zeros(2, np.float32), "prod": np.ones((), np.float32)}
    xs = {"a": rand(5), "b": rand(5, 2, seed=1)}
    return c, xs


def _check_scan(got, ref):
    (c, (y0, y1)), (rc, (r0, r1)) = got, ref
    close(c["sum"], rc["sum"])
    close(c["prod"], rc["prod"])
    close(y0, r0)
    close(y1, r1)


@pytest.mark.parametrize("wrap", WRAPPERS, ids=WRAPPER_IDS)
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("unroll", [1, 3, True])
def test_scan_pytrees(wrap, reverse, unroll):
    c, xs = _scan_inputs()
    got = wrap(lambda c, xs: lax.scan(_scan_step, c, xs, reverse=reverse, unroll=unroll))(c, xs)
    _check_scan(got, _scan_ref(c, xs, reverse=reverse))


def test_scan_xs_none_with_length():
    def step(c, _):
        return (c[0] + 1, c[1] * 1.5), c[1]

    for g in [
        lambda: lax.scan(step, (0, 2.0), None, length=4),
        jax.jit(lambda: lax.scan(step, (0, 2.0), None, length=4)),
    ]:
        (n, v), ys = g()
        assert int(n) == 4
        close(v, 2.0 * 1.5**4)
        close(ys, 2.0 * 1.5 ** np.arange(4))


def test_scan_cumulative_sum_matches_numpy():
    xs = rand(6, 3)
    carry, ys = lax.scan(lambda c, x: (c + x, c + x), jnp.zeros(3), xs)
    close(ys, np.cumsum(xs, axis=0))
    close(carry, xs.sum(0))


def test_scan_vmap_batched_xs_and_carry():
    cs = {"sum": rand(3, 2, seed=4), "prod": rand(3, seed=5)}
    xss = {"a": rand(3, 5, seed=6), "b": rand(3, 5, 2, seed=7)}
    got = jax.vmap(lambda c, xs: lax.scan(_scan_step, c, xs))(cs, xss)
    for k in range(3):
        ck = {"sum": cs["sum"][k], "prod": cs["prod"][k]}
        xk = {"a": xss["a"][k], "b": xss["b"][k]}
        rc, (r0, r1) = _scan_ref(ck, xk)
        close(got[0]["sum"][k], rc["sum"])
        close(got[0]["prod"][k], rc["prod"])
        close(got[1][0][k], r0)
        close(got[1][1][k], r1)


def test_scan_vmap_unbatched_carry_batched_xs():
    xs = rand(4, 6)  # batch 4, length 6
    out_c, ys = jax.vmap(lambda x: lax.scan(lambda c, v: (c + v, c * v), 0.0, x))(xs)
    close(out_c, xs.sum(1))
    prev = np.concatenate([np.zeros((4, 1), np.float32), np.cumsum(xs, 1)[:, :-1]], axis=1)
    close(ys, prev * xs)


def _rnn(w, xs):
    def step(h, x):
        h = jnp.tanh(w * h + x)
        return h, h * h

    h, ys = lax.scan(step, 0.0, xs)
    return h + jnp.sum(ys)


def _rnn_np(w, xs):
    h, tot = 0.0, 0.0
    for x in xs:
        h = np.tanh(w * h + x)
        tot += h * h
    return h + tot


@pytest.mark.parametrize("wrap", WRAPPERS, ids=WRAPPER_IDS)
def test_grad_of_scan_finite_differences(wrap):
    xs = rand(6).astype(np.float64)
    w = 0.7
    gw, gxs = wrap(jax.grad(_rnn, argnums=(0, 1)))(w, jnp.asarray(xs, jnp.float32))
    eps = 1e-4
    close(gw, (_rnn_np(w + eps, xs) - _rnn_np(w - eps, xs)) / (2 * eps), rtol=1e-3, atol=1e-4)
    fd = np.array(
        [(_rnn_np(w, xs + eps * e) - _rnn_np(w, xs - eps * e)) / (2 * eps) for e in np.eye(6)]
    )
    close(gxs, fd, rtol=1e-3, atol=1e-4)


def test_jvp_of_scan_matches_grad():
    xs = jnp.asarray(rand(6))
    _, t = jax.jvp(lambda w: _rnn(w, xs), (0.7,), (1.0,))
    close(t, jax.grad(_rnn)(0.7, xs), rtol=1e-4)


def test_grad_of_reverse_scan():
    xs = rand(5)

    def f(xs):
        _, ys = lax.scan(lambda c, x: (c * x, c * x), 1.0, xs, reverse=True)
        return jnp.sum(ys)

    def ref(xs):
        # reverse cumulative products, summed
        return sum(np.prod(xs[i:]) for i in range(len(xs)))

    x64 = xs.astype(np.float64)
    fd = np.array([(ref(x64 + 1e-5 * e) - ref(x64 - 1e-5 * e)) / 2e-5 for e in np.eye(5)])
    close(jax.grad(f)(xs), fd, rtol=1e-3, atol=1e-5)


def test_grad_of_vmap_of_scan_and_vmap_of_grad():
    xs = jnp.asarray(rand(3, 6))
    batched = jax.vmap(_rnn, in_axes=(None, 0))
    g = jax.grad(lambda w: jnp.sum(batched(w, xs)))(0.7)
    per = jax.vmap(jax.grad(_rnn), in_axes=(None, 0))(0.7, xs)
    assert per.shape == (3,)
    close(g, np.sum(np.asarray(per)), rtol=1e-5)


# ---------------------------------------------------------------- map / associative_scan


@pytest.mark.parametrize("batch_size", [None, 1, 2, 3, 7])
def test_lax_map(batch_size):
    xs = rand(7, 3)
    kwargs = {} if batch_size is None else {"batch_size": batch_size}
    out = lax.map(lambda x: jnp.sum(jnp.sin(x)) * x, xs, **kwargs)
    close(out, np.sin(xs).sum(1, keepdims=True) * xs)


@pytest.mark.parametrize("n,batch_size", [(2, 1), (4, 2), (2, 5), (3, 2), (5, 2)])
def test_lax_map_batch_size_keeps_a_weak_cotangent_when_nothing_is_sliced(n, batch_size):
    # fuzz seed 23100641: lax.map(batch_size=...) sliced xs to whole batches even when the
    # batches cover all of xs; the slice's transpose (a pad) made grad of a Python float
    # strongly typed. Only a real remainder slices (as JAX), and then both are strong.
    def f(x):
        xs = jnp.stack([x] * n, axis=-1)
        return jnp.sum(lax.map(lambda r: jnp.sin(r) * r, xs, batch_size=batch_size))

    g = jax.grad(f)(-0.77)
    x = np.float32(-0.77)
    close(g, n * (np.sin(x) + x * np.cos(x)))
    sliced = n % batch_size != 0 and n >= batch_size
    assert g.dtype == np.float32 and g.aval.weak_type is (not sliced)


def test_lax_map_pytree_and_jit():
    xs = {"a": rand(4, 2), "b": rand(4, seed=1)}
    f = jax.jit(lambda xs: lax.map(lambda d: (d["a"] * d["b"], d["b"] + 1.0), xs))
    a, b = f(xs)
    close(a, xs["a"] * xs["b"][:, None])
    close(b, xs["b"] + 1.0)


@pytest.mark.parametrize(
    "fn,ref",
    [
        (lax.add, np.cumsum),
        (lax.mul, np.cumprod),
        (lax.max, np.maximum.accumulate),
        (lax.min, np.minimum.accumulate),
    ],
    ids=["add", "mul", "max", "min"],
)
@pytest.mark.parametrize("wrap", WRAPPERS, ids=WRAPPER_IDS)
def test_associative_scan(fn, ref, wrap):
    x = rand(9) + 1.2
    close(wrap(lambda v: lax.associative_scan(fn, v))(x), ref(x), rtol=1e-5)


def test_associative_scan_reverse_and_axis():
    x = rand(3, 5)
    close(lax.associative_scan(lax.add, x, reverse=True), np.cumsum(x[::-1], 0)[::-1])
    close(lax.associative_scan(lax.add, x, axis=1), np.cumsum(x, 1))


def test_associative_scan_pytree_linear_recurrence():
    # h_t = a_t * h_{t-1} + b_t, composed associatively as pairs (a, b).
    def combine(l, r):
        return (l[0] * r[0], r[0] * l[1] + r[1])

    a, b = rand(8) * 0.9, rand(8, seed=1)
    _, h = lax.associative_scan(combine, (a, b))
    ref, acc = [], 0.0
    for at, bt in zip(a, b):
        acc = at * acc + bt
        ref.append(acc)
    close(h, np.array(ref), rtol=1e-5)


def test_grad_of_associative_scan():
    x = rand(5)
    g = jax.grad(lambda v: jnp.sum(lax.associative_scan(lax.add, v) * jnp.arange(5.0)))(x)
    # d/dx_i sum_j w_j cumsum_j = sum_{j >= i} w_j
    close(g, np.cumsum(np.arange(5.0)[::-1])[::-1])


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "false_fn",
    [
        lambda x: x.astype(jnp.int32),
        lambda x: jnp.ones(2),
        lambda x: (x, x),
    ],
    ids=["dtype", "shape", "structure"],
)
def test_cond_branch_output_mismatch_is_type_error(false_fn):
    with pytest.raises(TypeError):
        lax.cond(True, lambda x: x, false_fn, 1.0)
    with pytest.raises(TypeError):
        jax.jit(lambda p: lax.cond(p, lambda x: x, false_fn, 1.0))(True)


def test_switch_branch_output_mismatch_is_type_error():
    with pytest.raises(TypeError):
        lax.switch(0, [lambda x: x, lambda x: x.astype(jnp.int32)], 1.0)


@pytest.mark.parametrize(
    "body",
    [
        lambda c, x: (c.astype(jnp.int32), x),
        lambda c, x: (jnp.ones(2), x),
        lambda c, x: ((c, c), x),
    ],
    ids=["dtype", "shape", "structure"],
)
def test_scan_carry_type_change_is_type_error(body):
    with pytest.raises(TypeError):
        lax.scan(body, 1.0, jnp.ones(3))


def test_cond_non_scalar_predicate_is_type_error():
    with pytest.raises(TypeError):
        lax.cond(jnp.asarray([True, False]), lambda x: x, lambda x: -x, 1.0)


def test_switch_non_scalar_index_is_type_error():
    with pytest.raises(TypeError):
        lax.switch(jnp.asarray([0, 1]), [lambda x: x, lambda x: -x], 1.0)


def test_while_loop_non_scalar_predicate_is_type_error():
    with pytest.raises(TypeError):
        lax.while_loop(lambda c: c < 3.0, lambda c: c + 1.0, jnp.zeros(2))
