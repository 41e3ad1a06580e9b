"""Session 24 differential hunt of ``jax.random`` (generators in tests/hunt/fuzz_s24r.py:
every sampler under eval / jit / vmap with edge parameters and low-precision dtypes; key
construction, derivation and key arrays through transformations; derivatives of the
reparameterised samplers) checked against JAX 0.10.2 (spec/random.md). Each case asserts a
value or property that holds without JAX and, where JAX is importable, compares the whole
result (or the raised exception's class and first line) with JAX's."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from tests.hunt import fuzz_s24r
from tests.hunt.oracle import JAX, LITE

_N = 2048  # 8-bit bfloat16 uniforms: every one of the 256 values, zero included


def _bits_equal(f):
    """``f(m)``'s values as float64 (NaNs equal) and, with JAX, equal to JAX's bit for bit
    (NaN signs aside)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        b = np.asarray(f(LITE)).astype(np.float64)
        if JAX is not None:
            a = np.asarray(f(JAX)).astype(np.float64)
            same = (a == b) | (np.isnan(a) & np.isnan(b))
            assert (same & ((np.signbit(a) == np.signbit(b)) | np.isnan(a))).all(), (
                np.flatnonzero(~same)[:5],
                a[~same][:5],
                b[~same][:5],
            )
    return b


# ------------------------------------------ rayleigh's uniform is JAX's [0, 1) (seed 66)
# jaxlite drew u in [tiny, 1): where u = 0 (one bfloat16 draw in 256) JAX's sample is inf
# (log 0), jaxlite's was finite; and in float16, tiny (6e-5) is not absorbed by the
# uniform's multiply-add, so small draws moved by an ulp (190 of 4096 elements). Spec R8.15.
@pytest.mark.parametrize("dt", ["bfloat16", "float16", "float32"])
def test_rayleigh_uniform_includes_zero(dt):
    r = _bits_equal(lambda m: m.jx.random.rayleigh(m.jx.random.key(3), 2.0, (_N,), dt))
    if dt == "bfloat16":
        assert np.isposinf(r).sum() > 0  # u = 0 occurs among 2048 8-bit draws
    u = np.asarray(LITE.jx.random.uniform(LITE.jx.random.key(3), (_N,), dt)).astype(np.float64)
    assert np.array_equal(np.isinf(r), u == 0)


# ------------------------------- wald's arithmetic is JAX's, bit for bit (sweep, s24)
# jaxlite computed mean_sq * y * y where JAX computes mean_sq * (y * y), and without the two
# multiply-adds XLA:CPU contracts: x = mean + ... - mean/2 * sqrt_term cancels, so the
# rounding difference reached 97% relative in bfloat16 (9.0 against 0.21875), took the
# other branch of the final select, and gave 0 for 2.9e7 at mean 1e8 in float32.
@pytest.mark.parametrize("dt", ["bfloat16", "float16", "float32"])
def test_wald_agrees_bit_for_bit(dt):
    r = _bits_equal(lambda m: m.jx.random.wald(m.jx.random.key(3), 1.5, (_N,), dt))
    assert (r > 0).all()
    means = np.array([0.25, 1.5, 1e4, 1e8, 0.0, -1.0, np.inf, np.nan], np.float32)
    r = _bits_equal(lambda m: m.jx.random.wald(m.jx.random.key(5), means, (64, 8)))
    assert np.isnan(r[:, -1]).all() and (r[:, :2] > 0).all()  # (float32 cancels at 1e4)


# ------------------ truncated_normal's neighbours of a zero bound are flushed (sweep, s24)
# JAX clips to nextafter(lower, +inf): a subnormal for lower = 0, which XLA's kernel flushes
# to 0 in bfloat16 / float32 / float64 (float16 runs in float32, where its subnormals are
# normal numbers: JAX keeps 2**-24 there). jaxlite returned the subnormal 9.2e-41.
@pytest.mark.parametrize("dt", ["bfloat16", "float16"])
def test_truncated_normal_zero_bound_flushes_like_xla(dt):
    r = _bits_equal(
        lambda m: m.jx.random.truncated_normal(m.jx.random.key(3), 0.0, 1.0, (2 * _N,), dt)
    )
    low = r[r < 1e-6]
    assert len(low) > 0  # u = 0 (the lower bound) occurs in 4096 draws
    if dt == "float16":
        assert (low == 2.0**-24).all()
    else:
        assert (low == 0).all() and not np.signbit(low).any()


# -------------------------------------- key_impl returns the implementation's name (s24)
def test_key_impl_is_a_string():
    for k in (
        LITE.jx.random.key(0),
        LITE.jx.random.PRNGKey(0),
        LITE.jx.random.split(LITE.jx.random.key(1)),
    ):
        s = LITE.jx.random.key_impl(k)
        assert type(s) is str and s == "threefry2x32"
    if JAX is not None:
        assert type(JAX.jx.random.key_impl(JAX.jx.random.key(0))) is str


# ------------------------- converting a key array: JAX's classes per route (keys 270, s24)
_CONVERT = {
    "method": lambda m, k: k.astype(m.jnp.uint32),
    "jnp_astype": lambda m, k: m.jnp.astype(k, "float32"),
    "same_dtype": lambda m, k: k.astype(k.dtype),
    "lax": lambda m, k: m.lax.convert_element_type(k, m.jnp.int32),
    "to_key": lambda m, k: m.lax.convert_element_type(
        m.jx.random.key_data(k), m.jx.random.key_dtype()
    ),
}
# (eager, under jit): a concrete key's astype method is abstract; a traced one converts
_EXPECT = {
    "method": (NotImplementedError, ValueError),
    "jnp_astype": (ValueError, ValueError),
    "same_dtype": (NotImplementedError, None),
    "lax": (ValueError, ValueError),
    "to_key": (ValueError, ValueError),
}


@pytest.mark.parametrize("case", sorted(_CONVERT))
@pytest.mark.parametrize("jitted", [False, True])
def test_key_conversion_errors(case, jitted):
    def outcome(m):
        f = lambda k: _CONVERT[case](m, k)
        f = m.jx.jit(f) if jitted else f
        try:
            r = f(m.jx.random.split(m.jx.random.key(0), 2))
        except Exception as e:  # noqa: BLE001 - the class and message are the subject
            return type(e), str(e).split("\n")[0]
        return None, str(r.dtype)

    cls, msg = outcome(LITE)
    want = _EXPECT[case][jitted]
    if want is None:
        assert msg == "key<fry>"
    else:
        assert issubclass(cls, want)
    if want is ValueError:
        assert msg.startswith("Cannot convert_element_type from ")
    if JAX is not None:
        a_cls, a_msg = outcome(JAX)
        assert (a_cls is None) == (cls is None) and a_msg == msg
        if cls is not None:
            assert issubclass(a_cls, want)


# ------------------ split's num and samplers' shape entries: JAX's scalars (s24 sweep)
# split(k, np.int64(3)) and split(k, np.array(3)) raised "num must be a sequence of
# integers" (JAX takes a non-sequence as one dimension), and a 0-d NumPy integer array as a
# shape entry was refused; an integer array of rank 1 as num split into that shape where
# JAX refuses it.
_NUMS = {
    "np_int64": (lambda np_: np_.int64(3), (3,)),
    "zero_d": (lambda np_: np_.array(3), (3,)),
    "tuple_np": (lambda np_: (np_.int32(2), 2), (2, 2)),
    "list": (lambda np_: [2], (2,)),
    "vector": (lambda np_: np_.array([2, 2]), None),
    "float": (lambda np_: 3.0, None),
}


@pytest.mark.parametrize("case", sorted(_NUMS))
def test_split_num_as_jax(case):
    num, want = _NUMS[case]

    def outcome(m):
        try:
            return m.jx.random.split(m.jx.random.key(0), num(np)).shape
        except TypeError:
            return None

    assert outcome(LITE) == want
    if JAX is not None:
        assert outcome(JAX) == want
    shape = (np.array(2), 1)
    assert LITE.jx.random.bits(LITE.jx.random.key(0), shape).shape == (2, 1)


# -------------------------- a key's ShapeDtypeStruct keeps the key dtype (s24 sweep)
# ShapeDtypeStruct ran np.dtype over the dtype, which gave a key dtype's storage record
# (eval_shape of split printed dtype=void64).
def test_eval_shape_of_keys_keeps_the_key_dtype():
    def f(m):
        k = m.jx.random.key(0)
        s = m.jx.ShapeDtypeStruct((), k.dtype)
        out = m.jx.eval_shape(lambda k: m.jx.random.split(k, 3), s)
        return out.shape, str(out.dtype), out.dtype == k.dtype, repr(out)

    got = f(LITE)
    assert got == ((3,), "key<fry>", True, "ShapeDtypeStruct(shape=(3,), dtype=key<fry>)")
    if JAX is not None:
        assert f(JAX) == got


# ------------------------------------------------------------------ a spread of seeds
_SPREAD = {
    "samplers": (5, 46, 66, 258),
    "keys": (62, 119, 270),
    "grads": (72, 215),
}


@pytest.mark.parametrize("name, seed", [(n, s) for n, seeds in _SPREAD.items() for s in seeds])
def test_hunt_seed_agrees_with_jax(name, seed):
    pytest.importorskip("jax")
    d, src = fuzz_s24r.check(name, seed)
    assert d is None, f"{d}\n{src}"
