"""The jax.lax functions added in session 8 (``_src/lax_more.py``) against real JAX 0.10.2:
ragged_dot(_general) in its three modes, mulhi at every integer width, approx_max/min_k,
batch_matmul, tile, index_take, scatter_apply, the convolution patch extractors and the
shape-tuple helpers, top_k's ``axis``, with jit, vmap and grad, and JAX's errors."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.lax  # noqa: E402,F401

import jaxlite  # noqa: E402
import jaxlite.lax  # noqa: E402,F401

jax.config.update("jax_platforms", "cpu")
lax, jlax = jaxlite.lax, jax.lax
rng = np.random.default_rng(0)


def same(a, b, rtol=1e-5, atol=1e-5):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, a.dtype, b.shape, b.dtype)
    np.testing.assert_allclose(a.astype(np.float64), b.astype(np.float64), rtol=rtol, atol=atol)


def raises_like(fn_jl, fn_jax):
    with pytest.raises(Exception) as ej:
        fn_jax()
    with pytest.raises(type(ej.value)) as el:
        fn_jl()
    return str(el.value), str(ej.value)


LHS = rng.normal(size=(7, 3)).astype(np.float32)
RHS = rng.normal(size=(3, 3, 2)).astype(np.float32)


@pytest.mark.parametrize("sizes", [[2, 3, 1], [0, 7, 0], [5, 5, 5], [0, 0, 0], [1, 1, 1]])
def test_ragged_dot(sizes):
    gs = np.array(sizes, np.int32)
    same(lax.ragged_dot(LHS, RHS, gs), jlax.ragged_dot(LHS, RHS, gs))
    same(jaxlite.jit(lax.ragged_dot)(LHS, RHS, gs), jlax.ragged_dot(LHS, RHS, gs))
    g1 = jaxlite.grad(lambda a, b: (lax.ragged_dot(a, b, gs) ** 2).sum(), (0, 1))(LHS, RHS)
    g2 = jax.grad(lambda a, b: (jlax.ragged_dot(a, b, gs) ** 2).sum(), (0, 1))(LHS, RHS)
    for a, b in zip(g1, g2):
        same(a, b, 1e-4, 1e-4)


def test_ragged_dot_dtypes_and_errors():
    gs = np.array([2, 3, 2], np.int32)
    for kw in ({}, dict(preferred_element_type=np.float16)):
        assert lax.ragged_dot(LHS, RHS, gs, **kw).dtype == jlax.ragged_dot(LHS, RHS, gs, **kw).dtype
    i8 = np.ones((3, 2), np.int8), np.ones((1, 2, 2), np.int8), np.array([3], np.int32)
    same(lax.ragged_dot(*i8), jlax.ragged_dot(*i8))
    raises_like(lambda: lax.ragged_dot(LHS, RHS, gs[:2]), lambda: jlax.ragged_dot(LHS, RHS, gs[:2]))
    m1, m2 = raises_like(
        lambda: lax.ragged_dot(LHS, RHS, gs.astype(np.float32)),
        lambda: jlax.ragged_dot(LHS, RHS, gs.astype(np.float32)),
    )
    assert m1 == m2


@pytest.mark.jaxlite_only  # JAX 0.10.2 cannot vmap ragged_dot ("NYI")
def test_ragged_dot_vmap():
    gs = np.array([[2, 3, 2], [7, 0, 0]], np.int32)
    lhs = np.stack([LHS, 2 * LHS + 1])
    out = jaxlite.vmap(lambda a, g: lax.ragged_dot(a, RHS, g))(lhs, gs)
    for i in range(2):
        same(out[i], jlax.ragged_dot(lhs[i], RHS, gs[i]))


def test_ragged_dot_general_contracting_and_batch():
    a, b = rng.normal(size=(4, 6)).astype(np.float32), rng.normal(size=(6, 5)).astype(np.float32)
    gs = np.array([2, 3, 0], np.int32)
    dn = lambda m: m.RaggedDotDimensionNumbers((([1], [0]), ([], [])), [1], [])  # noqa: E731
    same(lax.ragged_dot_general(a, b, gs, dn(lax)), jlax.ragged_dot_general(a, b, gs, dn(jlax)))
    a3 = rng.normal(size=(5, 4, 3)).astype(np.float32)
    b3 = rng.normal(size=(5, 3, 2)).astype(np.float32)
    dnb = lambda m: m.RaggedDotDimensionNumbers((([2], [1]), ([0], [0])), [0], [])  # noqa: E731
    gs2 = np.array([2, 2], np.int32)
    same(
        lax.ragged_dot_general(a3, b3, gs2, dnb(lax)),
        jlax.ragged_dot_general(a3, b3, gs2, dnb(jlax)),
    )


@pytest.mark.parametrize(
    "dt", ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]
)
def test_mulhi_every_width(dt):
    info = np.iinfo(dt)
    vals = np.array(
        [info.min, info.min + 1, -7 if info.min < 0 else 7, 0, 1, 3, info.max - 1, info.max], dt
    )
    x, y = np.meshgrid(vals, vals)
    with jax.enable_x64(True) if hasattr(jax, "enable_x64") else jax.experimental.enable_x64():
        want = np.asarray(jlax.mulhi(x, y))
    if np.dtype(dt).itemsize == 8:
        jaxlite.config.update("jax_enable_x64", True)
        try:
            got = np.asarray(lax.mulhi(x, y))
        finally:
            jaxlite.config.update("jax_enable_x64", False)
    else:
        got = np.asarray(lax.mulhi(x, y))
    np.testing.assert_array_equal(got, want)
    assert got.dtype == want.dtype


def test_mulhi_errors_and_vmap():
    m1, m2 = raises_like(lambda: lax.mulhi(1.0, 2.0), lambda: jlax.mulhi(1.0, 2.0))
    assert m1 == m2
    raises_like(
        lambda: lax.mulhi(np.int32(3), np.int16(3)), lambda: jlax.mulhi(np.int32(3), np.int16(3))
    )
    x = np.array([2**31 - 1, -7, 12345678], np.int32)
    same(
        jaxlite.vmap(lambda v: lax.mulhi(v, np.int32(3)))(x),
        jax.vmap(lambda v: jlax.mulhi(v, np.int32(3)))(x),
    )


# No NaN: JAX's CPU result with NaN follows XLA's comparator (NaN compares false) and is not
# a top-k at all (docs/compat.md); 0.0 and -0.0 tie, unlike in top_k.
X = np.array([[3.0, -0.0, 1, -np.inf, 1, 0.0], [2, 2, -1, 0, np.inf, -0.0]], np.float32)


@pytest.mark.parametrize("k", [1, 3, 6])
@pytest.mark.parametrize("name", ["approx_max_k", "approx_min_k"])
def test_approx_k(name, k):
    for dim in (-1, 1):
        a = getattr(lax, name)(X, k, reduction_dimension=dim)
        b = getattr(jlax, name)(X, k, reduction_dimension=dim)
        for u, v in zip(a, b):
            np.testing.assert_array_equal(np.asarray(u), np.asarray(v))
            assert np.asarray(u).dtype == np.asarray(v).dtype
    if k <= 2:
        # (Along a leading dimension JAX breaks the 0.0/-0.0 tie differently: no tie here.)
        a = getattr(lax, name)(X[:, :5], k, reduction_dimension=0)
        b = getattr(jlax, name)(X[:, :5], k, reduction_dimension=0)
        for u, v in zip(a, b):
            np.testing.assert_array_equal(np.asarray(u), np.asarray(v))


def test_approx_k_grad_and_errors():
    x = np.array([3.0, 1, 2, 0.5], np.float32)
    for name in ("approx_max_k", "approx_min_k"):
        g1 = jaxlite.grad(lambda v: (getattr(lax, name)(v, 2)[0] ** 2).sum())(x)
        g2 = jax.grad(lambda v: (getattr(jlax, name)(v, 2)[0] ** 2).sum())(x)
        same(g1, g2)
    for bad in (np.array([3, 1], np.int32), 0, 5):
        arg, k = (bad, 1) if isinstance(bad, np.ndarray) else (x, bad)
        m1, m2 = raises_like(lambda: lax.approx_min_k(arg, k), lambda: jlax.approx_min_k(arg, k))
        assert m1 == m2


def test_top_k_axis():
    x = rng.normal(size=(3, 4, 5)).astype(np.float32)
    for axis in (0, 1, -1, -2):
        for u, v in zip(lax.top_k(x, 2, axis=axis), jlax.top_k(x, 2, axis=axis)):
            np.testing.assert_array_equal(np.asarray(u), np.asarray(v))
    raises_like(lambda: lax.top_k(x, 2, axis=3), lambda: jlax.top_k(x, 2, axis=3))


def test_batch_matmul_broadcast_tile():
    a, b = (
        rng.normal(size=(2, 3, 4)).astype(np.float32),
        rng.normal(size=(2, 4, 5)).astype(np.float32),
    )
    same(lax.batch_matmul(a, b), jlax.batch_matmul(a, b))
    same(lax.batch_matmul(a[0], b[0]), jlax.batch_matmul(a[0], b[0]))
    m1, m2 = raises_like(
        lambda: lax.batch_matmul(a[0, 0], b[0]), lambda: jlax.batch_matmul(a[0, 0], b[0])
    )
    assert m1 == m2
    raises_like(
        lambda: lax.batch_matmul(a, b[:1].repeat(3, 0)),
        lambda: jlax.batch_matmul(a, b[:1].repeat(3, 0)),
    )
    for r in (1, 3, 4):
        assert lax.broadcast_to_rank(a, r).shape == jlax.broadcast_to_rank(a, r).shape
    same(lax.broadcast_like(a[0, 0], a), jlax.broadcast_like(a[0, 0], a))
    for reps in [(2, 1, 3), (1, 1, 1), (0, 2, 1)]:
        same(lax.tile(a, reps), jlax.tile(a, reps))
    m1, m2 = raises_like(lambda: lax.tile(a, (2,)), lambda: jlax.tile(a, (2,)))
    assert m1 == m2
    same(
        jaxlite.grad(lambda v: lax.tile(v, (2, 1, 3)).sum())(a),
        jax.grad(lambda v: jlax.tile(v, (2, 1, 3)).sum())(a),
    )


def test_index_take_and_scatter_apply():
    src = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)
    idx = (np.array([1, 0, 5]), np.array([2, 2, -1]))
    for axes in [(0, 1), (1, 2), (0, 2)]:
        same(lax.index_take(src, idx, axes), jlax.index_take(src, idx, axes))
    m1, m2 = raises_like(
        lambda: lax.index_take(src, idx, (2, 0)), lambda: jlax.index_take(src, idx, (2, 0))
    )
    assert m1 == m2
    ind = np.array([[1], [1], [3], [9]])
    for mode in (None, "drop", "clip", "promise_in_bounds"):
        ws = [m.ScatterDimensionNumbers((), (0,), (0,)) for m in (lax, jlax)]
        x = np.arange(5, dtype=np.float32) + 1
        same(
            lax.scatter_apply(x, ind, lambda v: v * 3, ws[0], update_shape=(4,), mode=mode),
            jlax.scatter_apply(x, ind, lambda v: v * 3, ws[1], update_shape=(4,), mode=mode),
        )
    dn = lax.ScatterDimensionNumbers((), (0,), (0,))
    f = jaxlite.jit(lambda x: lax.scatter_apply(x, ind, jaxlite.numpy.sin, dn, update_shape=(4,)))
    same(
        f(np.ones(5, np.float32)),
        jlax.scatter_apply(
            np.ones(5, np.float32),
            ind,
            jax.numpy.sin,
            jlax.ScatterDimensionNumbers((), (0,), (0,)),
            update_shape=(4,),
        ),
    )
    with pytest.raises(NotImplementedError, match="scatter_apply JVP not implemented"):
        jaxlite.grad(
            lambda x: lax.scatter_apply(x, ind, jaxlite.numpy.sin, dn, update_shape=(4,)).sum()
        )(np.ones(5, np.float32))


@pytest.mark.parametrize("dn", [None, ("NHWC", "HWIO", "NHWC"), ("NCHW", "IOHW", "NHWC")])
@pytest.mark.parametrize("padding", ["VALID", "SAME", [(1, 0), (2, 1)]])
def test_conv_patches_and_local(dn, padding):
    shape = {None: (2, 3, 6, 5), ("NHWC", "HWIO", "NHWC"): (2, 6, 5, 3)}.get(dn, (2, 3, 6, 5))
    lhs = rng.normal(size=shape).astype(np.float32)
    kw = dict(dimension_numbers=dn)
    p1 = lax.conv_general_dilated_patches(lhs, (2, 3), (1, 2), padding, rhs_dilation=(2, 1), **kw)
    p2 = jlax.conv_general_dilated_patches(lhs, (2, 3), (1, 2), padding, rhs_dilation=(2, 1), **kw)
    same(p1, p2)
    # Locally connected: one kernel per output position.
    out_spec = dn[2] if dn else "NCHW"
    rhs_spec = dn[1] if dn else "OIHW"
    osp = [p2.shape[out_spec.index(c)] for c in "HW"]
    c_in = lhs.shape[(dn[0] if dn else "NCHW").index("C")]
    sizes = {"O": 4, "I": c_in * 6, "H": osp[0], "W": osp[1]}
    rhs = rng.normal(size=tuple(sizes[c] for c in rhs_spec)).astype(np.float32)
    l1 = lax.conv_general_dilated_local(
        lhs, rhs, (1, 2), padding, (2, 3), rhs_dilation=(2, 1), **kw
    )
    l2 = jlax.conv_general_dilated_local(
        lhs, rhs, (1, 2), padding, (2, 3), rhs_dilation=(2, 1), **kw
    )
    same(l1, l2, 1e-4, 1e-4)


def test_shape_tuples():
    dn = ("NHWC", "HWIO", "NHWC")
    for strides, pads in [((1, 1), "SAME"), ((2, 2), "VALID"), ((2, 1), [(1, 2), (0, 0)])]:
        assert lax.conv_shape_tuple((1, 3, 10, 9), (4, 3, 3, 2), strides, pads) == tuple(
            int(d) for d in jlax.conv_shape_tuple((1, 3, 10, 9), (4, 3, 3, 2), strides, pads)
        )
        assert lax.conv_general_shape_tuple(
            (1, 10, 9, 3), (3, 2, 3, 4), strides, pads, dn
        ) == tuple(
            int(d)
            for d in jlax.conv_general_shape_tuple((1, 10, 9, 3), (3, 2, 3, 4), strides, pads, dn)
        )
        assert lax.conv_transpose_shape_tuple(
            (1, 10, 9, 3), (3, 2, 3, 4), strides, pads, dn
        ) == tuple(
            int(d)
            for d in jlax.conv_transpose_shape_tuple((1, 10, 9, 3), (3, 2, 3, 4), strides, pads, dn)
        )
    assert lax.conv_general_permutations(dn) == jlax.conv_general_permutations(dn)
    args = ((10, 9), (3, 2), (2, 2), [(0, 0), (1, 1)])
    assert lax.reduce_window_shape_tuple(*args) == tuple(jlax.reduce_window_shape_tuple(*args))
    assert lax.reduce_window_shape_tuple(*args, (2, 1), (1, 2)) == tuple(
        jlax.reduce_window_shape_tuple(*args, (2, 1), (1, 2))
    )


def test_empty_dtype_platform_dependent():
    e = lax.empty((2, 3), np.int16)
    assert e.shape == (2, 3) and e.dtype == np.int16
    for v in (1.0, 1, True, 1j, np.int8(3), np.ones(2, np.float16), "float32", float, np.float64):
        assert lax.dtype(v) == jlax.dtype(v), v
    for bad in ([1, 2], (1, 2), None, object()):
        raises_like(lambda: lax.dtype(bad), lambda: jlax.dtype(bad))
    assert float(lax.platform_dependent(3.0, cpu=lambda x: x * 2, default=lambda x: x)) == 6.0
    assert float(lax.platform_dependent(3.0, default=lambda x: x + 1)) == 4.0
    with pytest.raises(NotImplementedError):
        lax.platform_dependent(3.0, tpu=lambda x: x)
