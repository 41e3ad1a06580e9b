"""Integer and rounding arithmetic, differential against JAX 0.10.2 (session 10 sweep).

The sweep covered floor_divide/remainder/fmod/divmod/true_divide, lax.div/rem, shifts,
bitwise ops, power/integer_pow, negative/abs/sign of INT_MIN, gcd/lcm, round/rint/fix/
trunc/floor/ceil, clip, float<->int casts, promotion with weak Python ints and integer
reductions, for every integer dtype with x64 on and off. What was wrong in jaxlite:

* ``jnp.rint`` of an integer or bool array returned float32 under x64 (JAX: the default
  float, float64, whatever the integer's width).
* Division by a constant: XLA rewrites ``A / Const`` as ``A * (1 / Const)``. jaxlite did
  so only for a divisor broadcast to a larger shape, so ``jit(lambda x: x / 7.0)`` of a
  scalar, ``x / c`` for a closed-over array ``c``, ``jnp.mean``/``average`` of a whole
  array (JAX's are jitted: the count is a constant; ``var``/``std`` through their mean)
  and ``jnp.round(x, d)`` of a scalar divided exactly and differed from JAX in the last
  bit (``mean([0, 1, 2, 3, 7, 254, 255])`` was 74.571426 for JAX's 74.571434).
* ``jnp.round(x, decimals)`` of float16 scaled in float16: ``10.0 ** 10`` overflowed to
  inf (all NaN) and large values went to inf (JAX scales in float32).
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as lnp


def _same(got, want):
    got_a, want_a = np.asarray(got), np.asarray(want)
    assert got_a.dtype == want_a.dtype and got_a.shape == want_a.shape
    assert got_a.tobytes() == want_a.tobytes(), (got_a, want_a)
    assert getattr(got, "weak_type", False) == getattr(want, "weak_type", False)


def _check(f, *args):
    """jaxlite eager against JAX eager, jaxlite's jit against JAX's (they may differ:
    inside an outer jit XLA folds ``var``'s traced ``ddof`` into a constant divisor)."""
    _same(f(lnp, *args), f(jnp, *args))
    _same(jaxlite.jit(lambda *a: f(lnp, *a))(*args), jax.jit(lambda *a: f(jnp, *a))(*args))


INT_DTYPES = ["int8", "int16", "int32", "uint8", "uint16", "uint32", "bool"]


@pytest.mark.parametrize("x64", [False, True])
def test_rint_of_integers_is_the_default_float(x64):
    with jax.enable_x64(x64), jaxlite.enable_x64(x64):
        for dt in INT_DTYPES + (["int64", "uint64"] if x64 else []):
            x = np.array([0, 1, 1, 0], dt)
            _check(lambda m, a: m.rint(a), x)
        _same(lnp.rint(3), jnp.rint(3))
        _same(lnp.rint(True), jnp.rint(True))


_VALS = np.array([0, 1, 2, 3, 7, 254, 255, 126, 127, 1000, 12345], np.int32)


_EDGES8 = np.array([-128, -127, -7, -3, -2, -1, 0, 1, 2, 3, 7, 126, 127], np.int8)
_REDUCTIONS = {
    "mean": lambda m, a: m.mean(a),
    "average": lambda m, a: m.average(a),
    "mean_axis": lambda m, a: m.mean(a.reshape(1, -1), axis=1),
    "var": lambda m, a: m.var(a),
    "std": lambda m, a: m.std(a),
    "var_ddof": lambda m, a: m.var(a, ddof=1),
    "var_axis": lambda m, a: m.var(a.reshape(1, -1), axis=1),
}


@pytest.mark.parametrize("dtype", ["uint8", "int16", "int32", "float32"])
@pytest.mark.parametrize("name", ["mean", "average", "mean_axis"])
def test_means_divide_by_the_rounded_reciprocal_of_the_count(name, dtype):
    _check(_REDUCTIONS[name], _VALS[:7].astype(dtype))


@pytest.mark.parametrize("dtype", ["int8", "int16", "float32"])
@pytest.mark.parametrize("name", list(_REDUCTIONS))
def test_variances_centre_on_that_mean(name, dtype):
    # (values whose float32 sum of squares XLA's fused reduction rounds as NumPy does)
    _check(_REDUCTIONS[name], _EDGES8.astype(dtype))


def test_mean_of_integers_differs_from_the_exact_quotient():
    # The cases above can fail: the exact quotient is another float32 here.
    x = _VALS[:7].astype("uint8")
    exact = np.float32(np.sum(x, dtype=np.float32) / np.float32(7))
    assert np.asarray(lnp.mean(x)) != exact
    _same(lnp.mean(x), jnp.mean(x))


_F32 = np.float32(522.0)
_C = np.full(3, 7.0, np.float32) + np.zeros(3, np.float32)  # a closed-over, dense array
_V = np.array([522.0, 1.0, 3.0], np.float32)


@pytest.mark.parametrize(
    "name, f, arg",
    [
        ("scalar / python float", lambda x: x / 7.0, _F32),
        ("scalar / numpy scalar", lambda x: x / np.float32(7.0), _F32),
        ("array / closed-over array", lambda x: x / _C, _V),
        ("array / python float", lambda x: x / 7.0, _V),
        ("float64 scalar / python float", lambda x: x / 7.0, np.float64(522.0)),
        ("float16 scalar / python float", lambda x: x / 7.0, np.float16(522.0)),
    ],
)
def test_jit_divides_by_a_constant_as_xla(name, f, arg):
    with jax.enable_x64(True), jaxlite.enable_x64(True):
        _same(jaxlite.jit(f)(arg), jax.jit(f)(arg))
        # eagerly, a scalar is divided exactly in both
        _same(f(lnp.asarray(arg)), f(jnp.asarray(arg)))


def test_jit_divides_by_a_traced_argument_exactly():
    f = lambda x, y: x / y  # noqa: E731
    _same(jaxlite.jit(f)(_V, _C), jax.jit(f)(_V, _C))
    _same(jaxlite.jit(f)(_F32, np.float32(7)), jax.jit(f)(_F32, np.float32(7)))


_R = np.array(
    [
        0.5,
        1.5,
        2.5,
        -2.5,
        15.0,
        25.0,
        250.0,
        1.005,
        2.675,
        0.125,
        1e20,
        3.4e38,
        np.nan,
        np.inf,
        -0.0,
        12345.678,
    ],
    np.float32,
)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "bfloat16"])
def test_round_with_decimals(dtype):
    with jax.enable_x64(True), jaxlite.enable_x64(True):
        with np.errstate(all="ignore"):
            x = jnp.asarray(_R).astype(dtype)
        xs = np.asarray(x)
        for d in (-3, -1, 1, 2, 3, 10):
            _check(lambda m, a, d=d: m.round(a, d), xs)
            for k in (7, 8, 15):  # scalars: JAX's round is jitted, the scale a constant
                _check(lambda m, a, d=d: m.round(a, d), xs[k])
