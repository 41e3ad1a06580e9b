"""jnp.fft and lax.fft against real JAX (the oracle): values, dtypes and shapes of every
function over ``n``/``s``/``axes``/``norm``, eager and jitted; derivatives (JVP and VJP,
hence the four transpose rules) and vmap; the errors JAX raises, with its messages."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.numpy  # noqa: E402,F401

import jaxlite  # noqa: E402
import jaxlite.numpy  # noqa: E402,F401

jax.config.update("jax_platforms", "cpu")

RNG = np.random.default_rng(1234)
REAL = RNG.standard_normal((3, 4, 6)).astype(np.float32)
CPLX = (RNG.standard_normal((3, 4, 6)) + 1j * RNG.standard_normal((3, 4, 6))).astype(np.complex64)
NORMS = [None, "backward", "ortho", "forward"]


def _both(name):
    return getattr(jaxlite.numpy.fft, name), getattr(jax.numpy.fft, name)


def _close(got, want, rtol=2e-5, atol=2e-5):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
N_D = ["fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2"]
REAL_IN = {"rfft", "ihfft", "rfftn", "rfft2"}


def _input(name):
    return REAL if name in REAL_IN else CPLX


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("n", [None, 4, 5, 9])
@pytest.mark.parametrize("axis", [-1, 0, 1])
@pytest.mark.parametrize("name", ONE_D)
def test_one_axis_transforms_match_jax(name, axis, n, norm):
    lite, ref = _both(name)
    x = _input(name)
    want = ref(x, n=n, axis=axis, norm=norm)
    _close(lite(x, n=n, axis=axis, norm=norm), want)
    _close(jaxlite.jit(lambda v: lite(v, n=n, axis=axis, norm=norm))(x), want)


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize(
    "s_axes",
    [(None, None), ((4, 6), None), ((5, 3), (0, 2)), (None, (1, 0)), ((2, 3, 8), None)],
)
@pytest.mark.parametrize("name", N_D)
def test_many_axis_transforms_match_jax(name, s_axes, norm):
    lite, ref = _both(name)
    x = _input(name)
    s, axes = s_axes
    if name.endswith("2") and (axes is None and s is not None and len(s) != 2):
        s = s[:2]
    kwargs = {"s": s, "norm": norm}
    if axes is not None:
        kwargs["axes"] = axes
    want = ref(x, **kwargs)
    _close(lite(x, **kwargs), want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("dtype", ["int32", "bool", "float16", "float32", "complex64"])
@pytest.mark.parametrize("name", ["fft", "ifft", "fftn"])
def test_input_dtypes_promote_as_jax(name, dtype):
    lite, ref = _both(name)
    x = (RNG.standard_normal(8) * 3).astype(dtype)
    _close(lite(x), ref(x), rtol=2e-3, atol=2e-3)


@pytest.mark.parametrize("name", ["rfft", "ihfft"])
def test_real_transforms_of_integers(name):
    lite, ref = _both(name)
    x = np.arange(7, dtype=np.int32)
    _close(lite(x), ref(x), rtol=1e-5, atol=1e-4)


def test_lax_fft_every_type_matches_jax():
    for kind, x, lengths in [
        ("fft", CPLX, (6,)),
        ("ifft", CPLX, (4, 6)),
        ("rfft", REAL, (3, 4, 6)),
        ("irfft", CPLX[..., :4], (4, 6)),
        (jaxlite.lax.FftType.RFFT, REAL, (6,)),
    ]:
        ref_kind = kind if isinstance(kind, str) else jax.lax.FftType.RFFT
        want = jax.lax.fft(x, ref_kind, lengths)
        _close(jaxlite.lax.fft(x, kind, lengths), want, rtol=1e-4, atol=1e-4)
    assert [t.name for t in jaxlite.lax.FftType] == [t.name for t in jax.lax.FftType]
    assert [int(t) for t in jaxlite.lax.FftType] == [int(t) for t in jax.lax.FftType]


def _grad_of(mod, name, kwargs):
    fn = getattr(mod.numpy.fft, name)

    def loss(x):
        y = fn(x, **kwargs)
        w = mod.numpy.cos(mod.numpy.arange(y.size, dtype=np.float32).reshape(y.shape))
        if np.issubdtype(y.dtype, np.complexfloating):
            return (mod.numpy.abs(y) ** 2 * w).sum() + (y.real * w).sum()
        return (y * y * w).sum()

    return loss


@pytest.mark.parametrize(
    "name,kwargs",
    [
        ("fft", {}),
        ("ifft", {"n": 5}),
        ("fftn", {"norm": "ortho"}),
        ("rfft", {}),
        ("rfft", {"n": 5}),
        ("rfftn", {"axes": (0, 2)}),
        ("irfft", {}),
        ("irfft", {"n": 7}),
        ("irfftn", {"s": (4, 6)}),
        ("hfft", {}),
        ("ihfft", {"norm": "forward"}),
    ],
)
def test_gradients_match_jax(name, kwargs):
    """``grad`` (VJP, so the transpose rule) of a real loss; a complex input's cotangent
    follows JAX's convention."""
    x = _input(name)
    want = jax.grad(_grad_of(jax, name, kwargs))(x)
    got = jaxlite.grad(_grad_of(jaxlite, name, kwargs))(x)
    _close(got, want, rtol=2e-4, atol=2e-3)


@pytest.mark.parametrize("name", ["fft", "rfft", "irfft", "fftn"])
def test_jvp_matches_jax(name):
    lite, ref = _both(name)
    x = _input(name)
    t = (x * 0.5 + 1).astype(x.dtype)
    (p1, t1), (p2, t2) = jaxlite.jvp(lite, (x,), (t,)), jax.jvp(ref, (x,), (t,))
    _close(p1, p2, rtol=1e-4, atol=1e-4)
    _close(t1, t2, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("in_axes", [0, 1, 2])
@pytest.mark.parametrize("name", ["fft", "rfft", "irfft", "fft2"])
def test_vmap_over_any_axis_matches_jax(name, in_axes):
    lite, ref = _both(name)
    x = _input(name)
    _close(jaxlite.vmap(lite, in_axes)(x), jax.vmap(ref, in_axes)(x), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    "name,args,kwargs",
    [
        ("fftfreq", (5, 0.1), {}),
        ("fftfreq", (4,), {}),
        ("fftfreq", (7, 0.3), {}),
        ("fftfreq", (6, np.float32(2.5)), {}),
        ("rfftfreq", (5,), {}),
        ("rfftfreq", (8, 0.01), {}),
        ("fftfreq", (6,), {"dtype": np.float32}),
        ("fftshift", (np.arange(5),), {}),
        ("fftshift", (np.arange(12).reshape(3, 4),), {"axes": 1}),
        ("ifftshift", (np.arange(12).reshape(3, 4),), {}),
        ("ifftshift", (np.arange(12).reshape(3, 4),), {"axes": (0,)}),
    ],
)
def test_frequencies_and_shifts_match_jax(name, args, kwargs):
    lite, ref = _both(name)
    want = ref(*args, **kwargs)
    got = lite(*args, **kwargs)
    assert np.asarray(got).dtype == np.asarray(want).dtype
    # 1 ulp: XLA divides by a broadcast scalar as a multiplication by its reciprocal.
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=2.5e-7, atol=0)


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.numpy.fft.fft(REAL, norm="bad"),
        lambda m: m.numpy.fft.fftn(REAL, axes=(0, 0)),
        lambda m: m.numpy.fft.fftn(REAL, s=(2, 3), axes=(0,)),
        lambda m: m.numpy.fft.rfft(CPLX),
        lambda m: m.numpy.fft.fft(REAL, n=0),
        lambda m: m.numpy.fft.fft(REAL, axis=3),
        lambda m: m.numpy.fft.fft([1.0, 2.0]),
        lambda m: m.numpy.fft.fft(np.float32(1.0)),
        lambda m: m.numpy.fft.rfft(np.ones(4, "float16")),
        lambda m: m.lax.fft(REAL, "foo", (6,)),
        lambda m: m.lax.fft(REAL, "rfft", (4,)),
        lambda m: m.lax.fft(REAL, "rfft", (1, 3, 4, 6)),
    ],
)
def test_errors_match_jax(call):
    with pytest.raises(Exception) as want:
        call(jax)
    with pytest.raises(type(want.value)) as got:
        call(jaxlite)
    assert str(got.value) == str(want.value)


def test_round_trips_are_identities():
    x = REAL
    np.testing.assert_allclose(
        np.asarray(jaxlite.numpy.fft.irfftn(jaxlite.numpy.fft.rfftn(x), s=x.shape)),
        x,
        atol=1e-5,
    )
    np.testing.assert_allclose(
        np.asarray(jaxlite.numpy.fft.ifft(jaxlite.numpy.fft.fft(CPLX))), CPLX, atol=1e-5
    )
