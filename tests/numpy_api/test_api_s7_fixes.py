"""Where jaxlite answered and JAX refuses (argmax/argmin/clip of complex, round of bool,
integer round with decimals < 0), and where jaxlite refused and JAX answers (complex
lax.atan2, lax.dot of mixed dtypes): each against JAX, eager, jit, vmap and grad."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.lax  # noqa: E402
import jax.numpy  # noqa: E402

import jaxlite  # noqa: E402
import jaxlite.lax  # noqa: E402
import jaxlite.numpy  # noqa: E402

from ._oracle import assert_same, outcome  # noqa: E402

jax.config.update("jax_platforms", "cpu")
LIBS = (jaxlite, jax)
RNG = np.random.default_rng(5)
C = (RNG.standard_normal((2, 3)) + 1j * RNG.standard_normal((2, 3))).astype(np.complex64)


def _both(fn, tol=1e-5):
    got, want = (outcome(lambda lib=lib: fn(lib)) for lib in LIBS)
    assert_same(got, want, rtol=tol, atol=tol)
    return got


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
@pytest.mark.parametrize(
    "fn",
    [
        lambda L, c: L.numpy.argmax(c),
        lambda L, c: L.numpy.argmin(c, axis=1),
        lambda L, c: L.numpy.nanargmax(c),
        lambda L, c: L.numpy.nanargmin(c, axis=0, keepdims=True),
        lambda L, c: L.lax.argmax(c, 0, np.int32),
        lambda L, c: L.lax.argmin(c, 1, np.int32),
        lambda L, c: L.jit(L.numpy.argmax)(c),
        lambda L, c: L.vmap(L.numpy.argmin)(c),
        lambda L, c: L.numpy.clip(c, 0, 1),
        lambda L, c: L.numpy.clip(c),
        lambda L, c: L.numpy.clip(c, max=1),
        lambda L, c: L.numpy.clip(c.real, 1j, 2),
        lambda L, c: L.numpy.clip(c.real, max=np.complex64(2)),
        lambda L, c: L.jit(L.numpy.clip)(c, 0.0, 1.0),
    ],
)
def test_complex_orderings_raise_like_jax(dt, fn):
    got = _both(lambda L: fn(L, C.astype(dt)))
    assert isinstance(got, (TypeError, ValueError))


def test_real_argmax_and_clip_unchanged():
    r = C.real
    _both(lambda L: L.numpy.argmax(r, axis=1))
    _both(lambda L: L.numpy.clip(r, -0.5, 0.5))
    _both(lambda L: L.jit(L.numpy.clip)(r, -0.5, 0.5))


@pytest.mark.parametrize(
    "fn",
    [
        lambda L: L.numpy.round(np.array([True, False])),
        lambda L: L.numpy.round(np.array([True]), 2),
        lambda L: L.numpy.around(np.array([True])),
        lambda L: L.jit(L.numpy.round)(np.array([True, False])),
        lambda L: L.numpy.round(np.array([15, 25, -35], np.int32), -1),
        lambda L: L.numpy.round(np.array([15, 25], np.int8), -2),
        lambda L: L.numpy.round(np.array([15, 25], np.int32)),
        lambda L: L.numpy.round(np.array([15, 25], np.uint8), 2),
        lambda L: L.numpy.round(np.array([1.25, -2.5], np.float32), 1),
    ],
)
def test_round_of_bool_and_negative_decimals_of_ints_match_jax(fn):
    _both(fn)


Y = (RNG.standard_normal(6) + 1j * RNG.standard_normal(6)).astype(np.complex64)
X = (RNG.standard_normal(6) + 1j * RNG.standard_normal(6)).astype(np.complex64)


@pytest.mark.parametrize(
    "fn",
    [
        lambda L: L.lax.atan2(Y, X),
        lambda L: L.lax.atan2(Y.astype(np.complex128), X.astype(np.complex128)),
        lambda L: L.numpy.arctan2(Y, X),
        lambda L: L.jit(L.lax.atan2)(Y, X),
        lambda L: L.vmap(L.lax.atan2)(Y, X),
        lambda L: L.jvp(L.lax.atan2, (Y, X), (X, Y)),
        lambda L: L.lax.atan2(np.complex64(0), np.complex64(0)),
        lambda L: L.lax.atan2(np.complex64(1j), np.complex64(1)),
        lambda L: L.lax.atan2(Y, X.real),
        lambda L: L.lax.atan2(Y.real, X.real),
    ],
)
def test_complex_atan2_matches_jax(fn):
    _both(fn, tol=2e-5)


A8 = np.arange(6, dtype=np.int8).reshape(2, 3)
F = RNG.standard_normal((3, 2)).astype(np.float32)


@pytest.mark.parametrize(
    "fn",
    [
        lambda L: L.lax.dot(A8, F),
        lambda L: L.lax.dot(F.T, A8.T),
        lambda L: L.lax.dot(A8, F, preferred_element_type=np.float32),
        lambda L: L.lax.dot_general(A8, F, (((1,), (0,)), ((), ()))),
        lambda L: L.lax.dot(np.ones(2, np.int32), np.ones(2, np.float16)),
        lambda L: L.lax.dot(np.ones(2, bool), np.ones(2, np.float32)),
        lambda L: L.lax.dot(np.ones(2, np.float32), np.ones(2, np.complex64)),
        lambda L: L.lax.dot(np.ones(2, np.float16), np.ones(2, np.float32)),
        lambda L: L.lax.dot(np.ones(2, np.int8), np.ones(2, np.int32)),
        lambda L: L.lax.dot(np.ones(2, np.uint8), np.ones(2, np.int8)),
        lambda L: L.jit(L.lax.dot)(A8, F),
        lambda L: L.vmap(lambda f: L.lax.dot(A8, f), in_axes=1)(F),
        lambda L: L.grad(lambda f: L.lax.dot(A8, f).sum())(F),
        lambda L: L.lax.dot(A8, np.ones((3, 2), np.int8)),
    ],
)
def test_dot_of_mixed_dtypes_matches_jax(fn):
    _both(fn)


DOT_DTYPES = [
    np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.float16,
    jax.numpy.bfloat16, np.float32, np.complex64,
]  # fmt: skip


@pytest.mark.parametrize("a", DOT_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("b", DOT_DTYPES, ids=lambda d: np.dtype(d).name)
def test_dot_dtype_of_every_pair_matches_jax(a, b):
    x = (np.arange(4) * 60 % 7 + 1).astype(a)
    y = (np.arange(4) * 200 % 251).astype(b)
    _both(lambda L: L.lax.dot(x, y), tol=1e-2)
