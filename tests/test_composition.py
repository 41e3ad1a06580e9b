"""Stacks of transformations with callbacks inside, checked against simpler equivalents.

Every stacked result is compared with the same computation done one piece at a time
(eager loops, finite differences, NumPy), so the file runs unchanged against JAX
(``JAXLITE_ORACLE=jax``).
"""

import warnings

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax
from jaxlite.experimental import io_callback

S = jax.ShapeDtypeStruct
F32 = S((), np.float32)
XS = np.array([0.5, 1.0, 2.0], np.float32)


def fd(f, x, eps=1e-3):
    """Central finite difference of a scalar function at a float."""
    return (float(f(np.float32(x + eps))) - float(f(np.float32(x - eps)))) / (2 * eps)


def test_jit_vmap_grad_scan_with_debug_callback():
    log = []

    def body(c, x):
        c = c * x + jnp.sin(c)
        jax.debug.callback(lambda v: log.append(float(v)), c)
        return c, c

    def loss(w):
        _, ys = lax.scan(body, w, jnp.arange(1.0, 4.0))
        return ys.sum()

    out = jax.jit(jax.vmap(jax.grad(loss)))(XS)
    per_elem = [float(jax.grad(loss)(x)) for x in XS]
    np.testing.assert_allclose(out, per_elem, rtol=1e-5)
    for x, g in zip(XS, per_elem):
        assert abs(fd(loss, float(x)) - g) < 1e-2 * max(1.0, abs(g))
    assert log  # the callback ran (how often is not part of the contract)


def test_custom_jvp_around_pure_callback_under_jit_vmap_grad():
    @jax.custom_jvp
    def f(x):
        return jax.pure_callback(
            lambda v: np.sin(v), S(x.shape, x.dtype), x, vmap_method="sequential"
        )

    @f.defjvp
    def f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return f(x), jnp.cos(x) * t

    out = jax.jit(jax.vmap(jax.grad(lambda x: f(x) * x)))(XS)
    np.testing.assert_allclose(out, np.sin(XS) + XS * np.cos(XS), rtol=1e-5)


def test_custom_vjp_around_pure_callback_under_jit_vmap_grad():
    @jax.custom_vjp
    def f(x):
        return jax.pure_callback(
            lambda v: np.sin(v), S(x.shape, x.dtype), x, vmap_method="expand_dims"
        )

    f.defvjp(lambda x: (f(x), x), lambda x, g: (jnp.cos(x) * g,))
    out = jax.jit(jax.vmap(jax.grad(lambda x: f(x) * x)))(XS)
    np.testing.assert_allclose(out, np.sin(XS) + XS * np.cos(XS), rtol=1e-5)


def test_grad_of_checkpoint_with_debug_print(capsys):
    @jax.checkpoint
    def g(x):
        jax.debug.print("x={x}", x=x)
        return jnp.sin(x) * x

    for tr in (lambda h: h, jax.jit):
        out = tr(jax.grad(lambda x: g(x) * 2))(1.0)
        np.testing.assert_allclose(out, 2 * (np.sin(1.0) + np.cos(1.0)), rtol=1e-5)
    printed = capsys.readouterr().out.splitlines()
    assert printed and set(printed) == {"x=1.0"}


def test_vmap_of_cond_with_unbatched_predicate_and_pure_callback():
    def f(x):
        return lax.cond(
            True,
            lambda v: jax.pure_callback(
                lambda a: a * 3, S(v.shape, v.dtype), v, vmap_method="sequential"
            ),
            lambda v: -v,
            x,
        )

    np.testing.assert_allclose(jax.vmap(f)(XS), XS * 3)


@pytest.mark.jaxlite_only
@pytest.mark.parametrize("jit", [False, True])
def test_vmap_of_cond_with_io_callback_runs_taken_branch_per_element(jit):
    # JAX raises NotImplementedError here; jaxlite allows it (docs/compat.md, F11).
    log = []

    def f(x):
        return lax.cond(
            x > 1,
            lambda v: io_callback(lambda a: (log.append(float(a)), a)[1], F32, v),
            lambda v: -v,
            x,
        )

    g = jax.vmap(f)
    out = (jax.jit(g) if jit else g)(XS)
    np.testing.assert_allclose(out, np.where(XS > 1, XS, -XS))
    assert log == [2.0]


def test_vmap_of_cond_with_ordered_io_callback_is_rejected():
    def f(x):
        return lax.cond(
            x > 1, lambda v: io_callback(lambda a: a, F32, v, ordered=True), lambda v: -v, x
        )

    with pytest.raises((ValueError, NotImplementedError)):
        jax.vmap(f)(XS)


def test_nested_jit_closing_over_outer_tracers():
    @jax.jit
    def outer(x):
        y = x * 2

        @jax.jit
        def inner(z):
            return z + y

        return inner(x) + inner(1.0)

    for arr in (XS, XS + 1):
        np.testing.assert_allclose(outer(arr), (arr + 2 * arr) + (1.0 + 2 * arr), rtol=1e-6)


def test_one_jitted_inner_function_reused_across_outer_traces():
    cell = {}

    def inner(z):
        return z + cell["y"]

    inner_j = jax.jit(inner)

    def outer(x):
        cell["y"] = x
        return inner_j(1.0)

    assert float(jax.jit(outer)(np.float32(1.0))) == 2.0
    assert float(jax.jit(outer)(np.float32(5.0))) == 6.0


def test_grad_and_vmap_of_function_with_inner_jit_closure():
    def outer(x):
        y = jnp.sin(x)
        return jax.jit(lambda z: z * y)(x).sum()

    np.testing.assert_allclose(
        jax.jit(jax.grad(outer))(XS), np.sin(XS) + XS * np.cos(XS), rtol=1e-5
    )

    def outer2(x):
        return jax.vmap(jax.jit(lambda z: z * x))(jnp.ones(2))

    np.testing.assert_allclose(jax.vmap(outer2)(XS), np.stack([XS, XS], 1))


@pytest.mark.parametrize(
    "make",
    [
        lambda: jax.jit(lambda x: x * 2),
        lambda: jax.jit(lambda x: x + jnp.arange(3.0)),
        lambda: jax.jit(lambda x: jnp.zeros(3) + x),
        lambda: jax.jit(jax.grad(lambda x: (x**2).sum())),
        lambda: jax.jit(jax.vmap(lambda x: x * 2.5)),
        lambda: jax.jit(lambda x: jax.pure_callback(lambda v: v * 2, S(x.shape, x.dtype), x)),
        lambda: jax.jit(lambda x: lax.scan(lambda c, y: (c + y, c * 1.0), 0.0, x)[1]),
    ],
    ids=["mul", "const", "zeros", "grad", "vmap", "callback", "scan"],
)
def test_x64_switch_between_calls_never_serves_stale_dtypes(make):
    f = make()
    arr = jnp.asarray(np.arange(3.0, dtype=np.float32))
    assert f(np.arange(3.0)).dtype == np.float32
    f(arr)
    f(arr)  # warm any fast path
    jax.config.update("jax_enable_x64", True)
    try:
        assert f(np.arange(3.0)).dtype == np.float64
        assert f(1.5 * np.ones(3)).dtype == np.float64
    finally:
        jax.config.update("jax_enable_x64", False)
    assert f(np.arange(3.0)).dtype == np.float32


def test_x64_switch_with_static_dtype_argument():
    f = jax.jit(lambda x, d: x.astype(d), static_argnums=1)
    x = np.arange(3.0, dtype=np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # whether `float` warns with x64 off is not tested here
        assert f(x, float).dtype == np.float32
    jax.config.update("jax_enable_x64", True)
    try:
        assert f(x, float).dtype == np.float64
    finally:
        jax.config.update("jax_enable_x64", False)


def test_ordered_io_callback_in_jitted_scan_keeps_order():
    log = []

    def body(c, x):
        io_callback(lambda v: log.append(float(v)), None, x, ordered=True)
        return c + x, c

    jax.jit(lambda xs: lax.scan(body, 0.0, xs))(XS)
    jax.effects_barrier()
    assert log == [float(v) for v in XS]


def test_vmap_of_while_loop_with_pure_callback_body():
    def f(x):
        return lax.while_loop(
            lambda c: c < 10,
            lambda c: jax.pure_callback(lambda v: v * 2, F32, c, vmap_method="sequential"),
            x,
        )

    expected = []
    for x in XS + 1:
        v = float(x)
        while v < 10:
            v *= 2
        expected.append(v)
    np.testing.assert_allclose(jax.vmap(f)(XS + 1), expected)
    np.testing.assert_allclose(jax.jit(jax.vmap(f))(XS + 1), expected)


def test_grad_of_jit_of_vmap_of_cond_with_debug_print(capsys):
    def f(x):
        jax.debug.print("x {}", x)
        return lax.cond(x > 1, lambda v: v * v, lambda v: -v, x)

    out = jax.grad(lambda xs: jax.jit(jax.vmap(f))(xs).sum())(XS)
    np.testing.assert_allclose(out, np.where(XS > 1, 2 * XS, -1.0))
    assert capsys.readouterr().out.count("x ") == len(XS)


def test_remat_scan_grad_matches_plain_scan_grad():
    def body(c, y):
        return jnp.sin(c) * y, c

    def plain(x):
        return lax.scan(body, x, jnp.arange(1.0, 4.0))[0]

    def remat(x):
        return lax.scan(jax.checkpoint(body), x, jnp.arange(1.0, 4.0))[0]

    np.testing.assert_allclose(jax.grad(remat)(1.0), jax.grad(plain)(1.0), rtol=1e-6)
    np.testing.assert_allclose(jax.grad(plain)(1.0), fd(plain, 1.0), rtol=1e-2)


def test_equal_static_arguments_of_different_types_trace_separately():
    # 1 == 1.0 and hash(1) == hash(1.0), but they give different programs.
    f = jax.jit(lambda x, n: jnp.asarray(n) + x, static_argnums=1)
    i = jnp.arange(3)
    assert f(i, 1).dtype == np.int32
    assert f(i, 1.0).dtype == np.float32
    assert f(i, 1).dtype == np.int32
    g = jax.jit(lambda x, *, n: jnp.asarray(n) + x, static_argnames="n")
    assert g(i, n=1.0).dtype == np.float32
    assert g(i, n=1).dtype == np.int32


@pytest.mark.parametrize(
    "where", ["jit", "vmap", "grad", "cond", "scan", "while", "stack", "checkpoint", "make_jaxpr"]
)
def test_user_exception_while_tracing_leaves_no_trace_behind(where):
    def boom(x):
        raise KeyError("user bug")

    run = {
        "jit": lambda: jax.jit(boom)(1.0),
        "vmap": lambda: jax.vmap(boom)(jnp.ones(2)),
        "grad": lambda: jax.grad(boom)(1.0),
        "cond": lambda: jax.jit(lambda x: lax.cond(x > 0, boom, lambda v: v, x))(1.0),
        "scan": lambda: lax.scan(lambda c, x: boom(c), 0.0, jnp.ones(2)),
        "while": lambda: lax.while_loop(lambda c: c < 1, boom, 0.0),
        "stack": lambda: jax.jit(
            jax.vmap(jax.grad(lambda x: lax.scan(lambda c, y: boom(c), x, jnp.ones(2))[0]))
        )(jnp.ones(2)),
        "checkpoint": lambda: jax.grad(jax.checkpoint(boom))(1.0),
        "make_jaxpr": lambda: jax.make_jaxpr(boom)(1.0),
    }[where]
    with pytest.raises(KeyError, match="user bug"):
        run()
    # Afterwards, eager and jitted code are concrete again (no stale tracing context).
    assert float(jnp.sin(1.0)) == pytest.approx(np.sin(1.0), rel=1e-6)
    assert float(jax.jit(lambda x: x * 2)(3.0)) == 6.0
    assert bool(jnp.asarray(2.0) > 1)


@pytest.mark.parametrize(
    "dtype, want",
    [
        ("int8", "float32"),
        ("int32", "float32"),
        ("uint32", "float32"),
        ("bool", "float32"),
        ("int64", "float64"),
        ("uint64", "float64"),
    ],
)
def test_x64_integer_to_float_promotion_keeps_32_bit_ints_in_float32(dtype, want):
    jax.config.update("jax_enable_x64", True)
    try:
        a = jnp.arange(1, 4).astype(dtype)
        assert jnp.sin(a).dtype == want
        assert jnp.sqrt(a).dtype == want
        assert (a / a).dtype == want
        assert jax.jit(jnp.sin)(a).dtype == want
        assert jax.vmap(jnp.sin)(a).dtype == want
    finally:
        jax.config.update("jax_enable_x64", False)
    assert jnp.sin(jnp.arange(3).astype(dtype if dtype[-2:] != "64" else "int32")).dtype == (
        np.float32
    )


@pytest.mark.parametrize("start", [-7, -5, -3, -1, 0, 2, 4, 9])
def test_dynamic_slice_negative_starts_count_from_the_end(start):
    x = np.arange(5.0, dtype=np.float32)
    n = 5

    def expected_start(size):
        s = start + n if start < 0 else start  # negative: from the end, once
        return min(max(s, 0), n - size)  # then clamped so the slice fits

    s3 = expected_start(3)
    s2 = expected_start(2)
    for tr in (lambda f: f, jax.jit):
        np.testing.assert_array_equal(
            tr(lambda v, i: lax.dynamic_slice(v, (i,), (3,)))(x, start), x[s3 : s3 + 3]
        )
        want = x.copy()
        want[s2 : s2 + 2] = 1.0
        np.testing.assert_array_equal(
            tr(lambda v, i: lax.dynamic_update_slice(v, jnp.ones(2), (i,)))(x, start), want
        )
        s1 = expected_start(1)
        assert (
            float(tr(lambda v, i: lax.dynamic_index_in_dim(v, i, keepdims=False))(x, start))
            == x[s1]
        )
    batched = jax.vmap(lambda i: lax.dynamic_slice(x, (i,), (3,)))(np.array([start, 0]))
    np.testing.assert_array_equal(batched, np.stack([x[s3 : s3 + 3], x[0:3]]))
    g = jax.grad(lambda v, i: lax.dynamic_slice(v, (i,), (3,)).sum())(x, start)
    np.testing.assert_array_equal(g, np.isin(np.arange(5), np.arange(s3, s3 + 3)))


def test_dynamic_slice_start_count_mismatch():
    with pytest.raises(ValueError, match="Length of slice indices"):
        lax.dynamic_slice(np.arange(5.0), (0, 0), (2,))
