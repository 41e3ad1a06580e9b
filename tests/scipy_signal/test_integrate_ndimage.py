"""``jax.scipy.integrate.trapezoid`` and ``jax.scipy.ndimage.map_coordinates``: values
against SciPy (float64), dtypes, weak types and shapes against JAX's ``eval_shape``, JAX's
values at exact halves (rounding) and integer inputs, errors against JAX, and
``jit``/``vmap``/``grad``."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.scipy.integrate  # noqa: E402,F401
import jax.scipy.ndimage  # noqa: E402,F401
import scipy.integrate  # noqa: E402
import scipy.ndimage  # noqa: E402

import jaxlite  # noqa: E402
import jaxlite.numpy as jnp  # noqa: E402
import jaxlite.scipy.integrate as lint  # noqa: E402
import jaxlite.scipy.ndimage as lnd  # noqa: E402

jax.config.update("jax_platforms", "cpu")
RNG = np.random.default_rng(0)
jtrap = jax.scipy.integrate.trapezoid
jmap = jax.scipy.ndimage.map_coordinates


def _close(got, want, tol=1e-5, what=""):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, f"{what}: {got.shape} != {want.shape}"
    scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * scale, err_msg=what)


def _aval_like_jax(got, jax_fn, *args):
    ref = jax.eval_shape(jax_fn, *args)
    assert got.dtype == ref.dtype, f"dtype {got.dtype} != JAX {ref.dtype}"
    assert tuple(got.shape) == tuple(ref.shape), f"shape {got.shape} != JAX {ref.shape}"
    assert bool(getattr(got, "weak_type", False)) == bool(ref.weak_type), "weak type"


def _raises_like(lite_fn, jax_fn, exact=True):
    with pytest.raises(Exception) as ref:
        jax_fn()
    with pytest.raises(type(ref.value)) as got:
        lite_fn()
    if exact:
        assert str(got.value) == str(ref.value)


TRAP_CASES = [
    (np.arange(6.0) ** 2, {}),
    (np.arange(6) ** 2, {}),
    (np.arange(6.0) ** 2, {"dx": 0.5}),
    (np.arange(6.0) ** 2, {"dx": 2}),
    (np.arange(6.0) ** 2, {"x": np.arange(6) ** 1.5}),
    (np.arange(6) ** 2, {"x": np.arange(6)}),
    (RNG.standard_normal((3, 5)).astype(np.float32), {"axis": 0}),
    (RNG.standard_normal((3, 5)).astype(np.float32), {"x": np.cumsum(RNG.random((3, 5)), 1)}),
    (RNG.standard_normal((3, 5, 4)), {"x": np.cumsum(RNG.random((3, 5, 4)), 1), "axis": 1}),
    (RNG.standard_normal((3, 5)), {"dx": RNG.random(4), "axis": -1}),
    (RNG.standard_normal((4, 3)), {"dx": RNG.random((3, 3)), "axis": 0}),
    (np.arange(6, dtype=np.float16), {}),
    (np.arange(6) * (1 + 1j), {}),
    (np.ones(1), {}),
    (3.0 * np.ones(4), {"dx": np.float16(0.5)}),
]


def _scipy_trapezoid(y, kw):
    kw = dict(kw)
    dx = kw.pop("dx", 1.0)
    if np.ndim(dx):  # JAX's spacing array (SciPy has no such argument): broadcast, axis last
        y = np.moveaxis(np.asarray(y, complex), kw.get("axis", -1), -1)
        d = np.moveaxis(np.asarray(dx)[(None,) * (np.ndim(y) - np.ndim(dx))], kw["axis"], -1)
        return 0.5 * (d * (y[..., 1:] + y[..., :-1])).sum(-1)
    return scipy.integrate.trapezoid(np.asarray(y, complex), dx=dx, **kw)


def test_trapezoid():
    for y, kw in TRAP_CASES:
        got = lint.trapezoid(y, **kw)
        _aval_like_jax(got, lambda v, kw=kw: jtrap(v, **kw), y)
        want = _scipy_trapezoid(y, kw)
        tol = 2e-3 if got.dtype == np.float16 else 1e-5
        _close(got, want if np.iscomplexobj(got) else want.real, tol=tol, what=f"{kw}")
        _close(jnp.trapezoid(y, **kw), got, tol=1e-6)
    _aval_like_jax(
        lint.trapezoid(jnp.ones(3) * 2.0, dx=0.5), jtrap, jax.numpy.ones(3) * 2.0, None, 0.5
    )
    y = RNG.standard_normal((4, 6)).astype(np.float32)
    _close(jaxlite.vmap(lint.trapezoid)(y), scipy.integrate.trapezoid(y), tol=1e-5)
    g = jaxlite.grad(lambda v: lint.trapezoid(v, dx=0.5))(y[0])
    _close(g, [0.25, 0.5, 0.5, 0.5, 0.5, 0.25], tol=1e-6)
    xs = np.cumsum(RNG.random(6)).astype(np.float32)
    g = jaxlite.grad(lint.trapezoid, argnums=1)(y[0], xs)
    _close(g, jax.grad(jtrap, argnums=1)(y[0], xs), tol=1e-5)


@pytest.mark.parametrize(
    "args,kw",
    [
        (([1.0, 2.0],), {}),
        ((np.ones(3), [0.0, 1.0, 2.0]), {}),
        ((3.0,), {}),
        ((np.ones((2, 3)),), {"axis": 2}),
    ],
)
def test_trapezoid_errors(args, kw):
    _raises_like(lambda: lint.trapezoid(*args, **kw), lambda: jtrap(*args, **kw))


# jax mode -> the SciPy mode that samples the same way
SCIPY_MODE = {
    "constant": "grid-constant",
    "nearest": "nearest",
    "wrap": "grid-wrap",
    "mirror": "mirror",
    "reflect": "reflect",
}


@pytest.mark.parametrize("shape", [(7,), (5, 6), (3, 4, 5), (1, 4)])
def test_map_coordinates_matches_scipy(shape):
    img = RNG.standard_normal(shape)
    coords = [RNG.uniform(-2.5, s + 2.5, (3, 4)) for s in shape]
    for (mode, smode), order in itertools.product(SCIPY_MODE.items(), (0, 1)):
        got = lnd.map_coordinates(img.astype(np.float32), coords, order, mode=mode, cval=0.75)
        assert got.dtype == np.float32 and got.shape == (3, 4)
        want = scipy.ndimage.map_coordinates(img, coords, order=order, mode=smode, cval=0.75)
        _close(got, want, what=f"{mode} order={order}")


def test_map_coordinates_halves_and_integers_like_jax():
    img = np.arange(30).reshape(5, 6)
    halves = [
        np.array([-1.5, -0.5, 0.5, 1.5, 2.5, 4.5, 5.5]),
        np.array([0.5, -0.5, 2.5, 3.5, 6.5, -1.5, 5.5]),
    ]
    fn = jax.jit(jmap, static_argnums=(2, 3, 4))
    combos = list(itertools.product(SCIPY_MODE, (0, 1)))
    every = jax.jit(lambda x: [jmap(x, halves, o, m, 3.0) for m, o in combos])  # one compile
    for dtype in (np.float32, np.int32, np.uint8):
        x = img.astype(dtype)
        for (mode, order), want in zip(combos, every(x)):
            got = lnd.map_coordinates(x, halves, order, mode, 3.0)
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(np.asarray(got), np.asarray(want), err_msg=f"{mode}")
    ints = [np.array([-1, 0, 4, 5]), np.array([6, 0, 2, -3])]
    for order in (0, 1):
        _close(
            lnd.map_coordinates(img * 1.0, ints, order, "wrap"),
            fn(img * 1.0, ints, order, "wrap", 0.0),
        )


def test_map_coordinates_dtypes_like_jax():
    img = RNG.standard_normal((4, 5)).astype(np.float32)
    c = [RNG.uniform(-1, 5, 6), RNG.uniform(-1, 6, 6)]
    cases = [
        (img, c, 1, "constant", 0.0),
        (img.astype(np.float16), c, 1, "nearest", 0.0),
        (img, [c[0].astype(np.float16), c[1]], 1, "constant", 0.0),
        (img + 1j * img, c, 1, "constant", 1j),
        (img > 0, c, 1, "constant", 0.0),
        (img.astype(np.int8), [c[0].astype(np.int32), c[1].astype(np.int32)], 1, "wrap", 0.0),
        (np.arange(5.0), [2.5], 1, "constant", 0.0),
    ]
    for args in cases:
        got = lnd.map_coordinates(*args)
        _aval_like_jax(
            got, lambda a, b, o=args[2], m=args[3], v=args[4]: jmap(a, b, o, m, v), *args[:2]
        )


@pytest.mark.parametrize(
    "args,exact",
    [
        ((np.ones((2, 3)), [np.zeros(2)], 1), True),
        ((np.ones((2, 3)), [np.zeros(2)] * 2, 2), True),
        ((np.ones((2, 3)), [np.zeros(2)] * 2, 1, "grid-wrap"), False),  # a set in the text
    ],
)
def test_map_coordinates_errors(args, exact):
    _raises_like(lambda: lnd.map_coordinates(*args), lambda: jmap(*args), exact=exact)
    if not exact:
        with pytest.raises(NotImplementedError, match="does not yet support mode grid-wrap"):
            lnd.map_coordinates(*args)


def test_map_coordinates_jit_vmap_grad():
    img = RNG.standard_normal((5, 6)).astype(np.float32)
    c = np.stack([RNG.uniform(-1, 5, 8), RNG.uniform(-1, 6, 8)]).astype(np.float32)
    for mode in SCIPY_MODE:
        f = jaxlite.jit(lambda x, cc, m=mode: lnd.map_coordinates(x, list(cc), 1, m))
        _close(f(img, c), lnd.map_coordinates(img, list(c), 1, mode), tol=1e-6)
        batched = jaxlite.vmap(
            lambda cc, m=mode: lnd.map_coordinates(img, [cc[0], cc[1]], 1, m), 1
        )(c)
        _close(batched, lnd.map_coordinates(img, list(c), 1, mode), tol=1e-6)

    def ref_loss(x, cc, m):
        return jax.numpy.sum(jmap(x, [cc[0], cc[1]], 1, m) ** 2)

    ref_grads = jax.jit(lambda x, cc: [jax.grad(ref_loss, (0, 1))(x, cc, m) for m in SCIPY_MODE])
    for mode, want in zip(SCIPY_MODE, ref_grads(img, c)):

        def lite_loss(x, cc, m=mode):
            return jnp.sum(lnd.map_coordinates(x, [cc[0], cc[1]], 1, m) ** 2)

        got = jaxlite.grad(lite_loss, argnums=(0, 1))(img, c)
        for a, b in zip(got, want):
            _close(a, b, tol=1e-5, what=f"grad {mode}")


def test_attribute_access_like_jax():
    assert jaxlite.scipy.ndimage.map_coordinates is lnd.map_coordinates
    assert jaxlite.scipy.integrate.trapezoid is lint.trapezoid
    assert {"fft", "integrate", "ndimage", "signal"} <= set(dir(jaxlite.scipy))
