"""Session 15 differential hunt: the JAX deviations session 14 found and left open, each
fixed as a family. Each case asserts the known-correct value (so it means something
without JAX) and, where JAX is importable, compares with JAX 0.10.2 through
tests/hunt/oracle.py: raised exception class, or structure, shapes, dtypes, weak types,
values and signs of zeros."""

from __future__ import annotations

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp
from jaxlite._src.ops import xla_fma
from tests.hunt.oracle import JAX, LITE as LITE_M, same

INF, NAN = np.inf, np.nan
E11, E12, E24 = 2.0**-11, 2.0**-12, 2.0**-24


# ------------------------------------------------------------------ det and slogdet
# JAX's det of a 2x2 or 3x3 matrix is the cofactor expansion, compiled by XLA:CPU with
# fused multiply-adds (one rounding per product that feeds a sum); other sizes are
# sign * exp(logabsdet). jaxlite multiplied the LU pivots: det([[1, 2], [3, 4]]) was
# -1.9999999 (JAX: -2), a singular 4x4 gave -0.0 (JAX: +0.0), and the cases below where the
# fused rounding is exact came out 0.


def _m(rows, dtype="float32"):
    return np.array(rows, dtype)


_DET = {
    # fma(a00, a11, -(a01 * a10)): the product (1 + 2^-12)^2 kept exact
    "2x2_fused": (_m([[1 + E12, 1], [1 + E11, 1 + E12]]), E24),
    "2x2_int": (np.array([[1, 2], [3, 4]]), -2.0),
    "3x3_fused": (_m([[0, 0, 1], [1, 1 + E12, 0], [1 + E12, 1 + E11, 0]]), -E24),
    "3x3_int": (np.array([[1, 2, 3], [4, 5, 6], [7, 8, 10]]), -3.0),
    "4x4_singular_neg_zero": (np.diag(_m([-0.0, 1, 1, 1])), 0.0),
    "4x4_singular_neg_diag": (np.diag(_m([0.0, -1, 1, 1])), 0.0),
    "batched_2x2": (_m([[[1 + E12, 1], [1 + E11, 1 + E12]], [[2, 1], [1, 1]]]), [E24, 1.0]),
}


@pytest.mark.parametrize("name", list(_DET))
def test_det_known_values(name):
    a, want = _DET[name]
    out = np.asarray(same(lambda m: m.jnp.linalg.det(a), rtol=0, atol=0))
    np.testing.assert_array_equal(out, np.asarray(want, out.dtype))
    assert np.array_equal(np.signbit(out), np.signbit(np.asarray(want, out.dtype)))


def test_det_zero_signs_and_specials():
    # sign * exp(-inf) is +0.0 for a singular 4x4 with a -0.0 pivot (jaxlite: -0.0); the
    # 1x1 case is sign(a) * exp(log|a|), -0.0 for -0.0
    cases = [
        (np.diag(_m([1, -0.0, 1, 1])), 0.0),
        (_m([[-0.0]]), -0.0),
        (_m([[INF, 1], [1, 1]]), INF),
        (np.zeros((0, 0), "float32"), 1.0),
    ]
    for a, want in cases:
        out = np.asarray(same(lambda m: m.jnp.linalg.det(a), rtol=0, atol=0))
        assert out == want and np.signbit(out) == np.signbit(want), (a, out)


def test_det_complex_fused_parts():
    # the real part of x * y is fma(xr, yr, -(xi * yi)): (1 + 2^-12)^2 - (1 + 2^-11) = 2^-24
    x, y = complex(1 + E12, 1), complex(1 + E12, 1 + E11)
    a = np.array([[x, 1], [1, y]], "complex64")
    out = complex(same(lambda m: m.jnp.linalg.det(a), rtol=0, atol=0))
    assert out.real == np.float32(E24 - 1)
    assert out.imag == pytest.approx(2 + 2**-10, rel=1e-7)
    a3 = np.array([[x, 0, 0], [0, y, 0], [0, 0, 1]], "complex64")
    assert complex(same(lambda m: m.jnp.linalg.det(a3), rtol=0, atol=0)).real == np.float32(E24)


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("dtype", ["float32", "complex64", "float16", "bfloat16"])
def test_det_small_bits_match_jax_random(n, dtype):
    rng = np.random.default_rng(n)
    a = rng.standard_normal((300, n, n))
    if dtype == "complex64":
        a = a + 1j * rng.standard_normal((300, n, n))
    a[0, 0, 0], a[1, 1, 0], a[2] = INF, NAN, 0.0
    a[3, :, 0] = -0.0
    build = lambda m: m.jnp.linalg.det(m.jnp.asarray(a).astype(dtype))  # noqa: E731
    out = np.asarray(same(build, rtol=0, atol=0)).astype(np.complex128)
    # without JAX: within rounding of the exact determinant
    ref = np.linalg.det(np.asarray(jnp.asarray(a).astype(dtype)).astype(np.complex128))
    tol = {"float16": 2e-2, "bfloat16": 1e-1}.get(dtype, 1e-4)
    fin = np.isfinite(ref)
    np.testing.assert_allclose(out[fin][5:], ref[fin][5:], rtol=tol, atol=tol)
    jit_out = np.asarray(jaxlite.jit(jnp.linalg.det)(jnp.asarray(a).astype(dtype)))
    np.testing.assert_array_equal(jit_out.astype(np.complex128), out)


_SLOGDET = {
    # real LU path: the sign counts negative pivots, so a NaN pivot leaves it +-1
    "nan_pivot": (np.diag(_m([NAN, -1, 2])), (-1.0, NAN)),
    "neg_zero_1x1": (_m([[-0.0]]), (-0.0, -INF)),
    "2x2_fused": (_m([[1 + E12, 1], [1 + E11, 1 + E12]]), (1.0, np.log(np.float32(E24)))),
}


@pytest.mark.parametrize("name", list(_SLOGDET))
def test_slogdet_known_values(name):
    a, (sign, logdet) = _SLOGDET[name]
    s, ld = same(lambda m: m.jnp.linalg.slogdet(a), rtol=1e-6)
    np.testing.assert_array_equal(np.asarray(s), np.float32(sign))
    assert np.signbit(np.asarray(s)) == np.signbit(sign)
    np.testing.assert_allclose(np.asarray(ld), logdet, rtol=1e-6)


_SLOGDET_ERR = {
    "unknown_method": (lambda m: m.jnp.linalg.slogdet(np.eye(2), method="svd"), ValueError),
    "qr_complex": (
        lambda m: m.jnp.linalg.slogdet(np.eye(3, dtype="complex64"), method="qr"),
        NotImplementedError,
    ),
    "not_square": (lambda m: m.jnp.linalg.slogdet(np.ones((2, 3))), ValueError),
    "det_not_square": (lambda m: m.jnp.linalg.det(np.ones(3)), ValueError),
}


@pytest.mark.parametrize("name", list(_SLOGDET_ERR))
def test_slogdet_refusals(name):
    build, exc = _SLOGDET_ERR[name]
    e = same(build)
    assert isinstance(e, exc)
    if name == "unknown_method":
        assert str(e).startswith("Unknown slogdet method 'svd'.")
    if name == "not_square":
        assert str(e) == "Argument to slogdet() must have shape [..., n, n], got (2, 3)"
    if name == "det_not_square":
        assert str(e) == "Argument to _det() must have shape [..., n, n], got (3,)"


# The derivative of slogdet is trace(solve(a, da)): at a singular matrix the triangular
# solves divide by the zero pivot (JAX: inf, -inf where one division is all; NaN where
# infinities meet). jaxlite differentiated through the LU and gave NaN everywhere.
_SLOGDET_GRAD = {
    "1x1_zero": (_m([[0.0]]), [[INF]]),
    "2x2_rank1": (_m([[1, 2], [2, 4]]), [[INF, -INF], [-INF, INF]]),
    "3x3_rank2": (
        _m([[1, 2, 3], [4, 5, 6], [7, 8, 9]]),
        [[-INF, INF, -INF], [INF, -INF, INF], [NAN, NAN, NAN]],
    ),
    "4x4_rank2": (
        np.arange(16.0, dtype="float32").reshape(4, 4),
        [[NAN] * 4, [-INF, INF, -INF, NAN], [NAN] * 4, [NAN] * 4],
    ),
    "4x4_rank3": (np.diag(_m([1, 2, 3, 0])), [[NAN] * 4] * 3 + [[NAN] * 3 + [INF]]),
}


@pytest.mark.parametrize("name", list(_SLOGDET_GRAD))
def test_slogdet_grad_at_singular_matrices(name):
    a, want = _SLOGDET_GRAD[name]
    g = np.asarray(same(lambda m: m.jx.grad(lambda x: m.jnp.linalg.slogdet(x)[1])(a)))
    want = np.asarray(want, "float32")
    np.testing.assert_array_equal(np.isnan(g), np.isnan(want))
    np.testing.assert_allclose(g[~np.isnan(want)], want[~np.isnan(want)], rtol=1e-6)


_DET_GRAD = {
    # 2x2 and 3x3: the formula's derivative, the cofactors
    "2x2_singular": (_m([[1, 2], [2, 4]]), [[4, -2], [-2, 1]]),
    "3x3_zero": (np.zeros((3, 3), "float32"), np.zeros((3, 3))),
    # 1x1: d a / d a = 1 whatever a is (jaxlite's SVD-based adjugate gave NaN at NaN)
    "1x1_nan": (_m([[NAN]]), [[1.0]]),
    "4x4_rank3": (np.diag(_m([1, 2, 3, 0])), np.diag([0, 0, 0, 6.0])),
}


def test_det_grad_known_values():
    for name, (a, want) in _DET_GRAD.items():
        if name == "4x4_rank3" and JAX is not None:  # JAX: zeros (docs/compat.md)
            g = jaxlite.grad(jnp.linalg.det)(a)
        else:
            g = same(lambda m: m.jx.grad(m.jnp.linalg.det)(a))
        np.testing.assert_allclose(np.asarray(g), np.asarray(want, "float32"), rtol=1e-6)
    t = np.full((1, 1), 2.0, "float32")
    y, dy = same(lambda m: m.jx.jvp(m.jnp.linalg.det, (_m([[NAN]]),), (t,)))
    assert np.isnan(y) and float(dy) == 2.0


# ------------------------------------------------------------------ triangular solves
# jaxlite solved with LAPACK's pivoting solve unless a pivot was zero: an infinite
# right-hand side then spread NaN into every row (substitution gives -inf below an inf),
# and a unit diagonal was made as a * (1 - I) + I, NaN where a's diagonal is infinite.


def test_triangular_solve_infinite_rhs_is_substitution():
    lower = _m([[2, 0], [1, 4]])
    b = _m([[INF], [1]])
    x = np.asarray(
        same(lambda m: m.lax.linalg.triangular_solve(lower, b, left_side=True, lower=True))
    )
    np.testing.assert_array_equal(x, [[INF], [-INF]])


def test_triangular_solve_unit_diagonal_ignores_an_infinite_diagonal():
    a = _m([[INF, 0], [2, NAN]])
    b = _m([[1], [1]])
    x = np.asarray(
        same(
            lambda m: m.lax.linalg.triangular_solve(
                a, b, left_side=True, lower=True, unit_diagonal=True
            )
        )
    )
    np.testing.assert_array_equal(x, [[1], [-1]])


# ----------------------------------------------------------- the FMA emulation itself
def test_fma64_at_infinities_and_extreme_magnitudes():
    a = np.array([INF, 2.0, 1e308, 1e-200, 1.0, 2.0**600, 3.0])
    b = np.array([1.0, INF, 3.0, -1e-200, 1.0, 2.0**-600, 1e-320])
    c = np.array([1.0, -INF, -1.5e308, 0.0, NAN, -1.0, INF])
    out = xla_fma.fma64_any(a, b, c)
    want = np.array([INF, NAN, 1.5e308, -0.0, NAN, 0.0, INF])
    np.testing.assert_array_equal(out, want)
    assert np.signbit(out[3]) and not np.signbit(out[5])


# ------------------------------------------------- out-of-range axes: JAX's exact type
# JAX's canonicalize_axis raises a plain ValueError; jaxlite raised NumPy's AxisError (a
# ValueError and an IndexError too, so `except IndexError` caught jaxlite's error and not
# JAX's). rollaxis checks its start as JAX does, and counts a negative start from the end
# of ndim (it took it modulo ndim + 1: rollaxis(x, 1, -1) of a (2, 3, 4) array was
# (2, 4, 3), NumPy's and JAX's (2, 3, 4)); permute_dims passes its axes to lax.transpose
# unchanged (TypeError for a negative or missing axis); expand_dims reports a repeated axis
# as given.

_X23 = np.arange(6.0, dtype="float32").reshape(2, 3)
_OOR = "axis {} is out of bounds for array of dimension {}"

_AXIS_ERR = {
    "concatenate": (lambda m: m.jnp.concatenate([_X23, _X23], axis=2), _OOR.format(2, 2)),
    "concatenate_neg": (lambda m: m.jnp.concatenate([_X23, _X23], axis=-3), _OOR.format(-3, 2)),
    "concat": (lambda m: m.jnp.concat([_X23, _X23], axis=2), _OOR.format(2, 2)),
    "stack": (lambda m: m.jnp.stack([_X23, _X23], axis=3), _OOR.format(3, 3)),
    "append": (lambda m: m.jnp.append(_X23, _X23, axis=2), _OOR.format(2, 2)),
    "moveaxis_src": (lambda m: m.jnp.moveaxis(_X23, 2, 0), _OOR.format(2, 2)),
    "moveaxis_dst": (lambda m: m.jnp.moveaxis(_X23, 0, -3), _OOR.format(-3, 2)),
    "expand_dims": (lambda m: m.jnp.expand_dims(_X23, 3), _OOR.format(3, 3)),
    "expand_dims_tuple": (lambda m: m.jnp.expand_dims(_X23, (0, 5)), _OOR.format(5, 4)),
    "squeeze": (lambda m: m.jnp.squeeze(_X23[:, :1], 2), _OOR.format(2, 2)),
    "rollaxis": (lambda m: m.jnp.rollaxis(_X23, 2), _OOR.format(2, 2)),
    "swapaxes_ok_transpose": (lambda m: m.jnp.transpose(_X23, (0, 2)), _OOR.format(2, 2)),
    "flip": (lambda m: m.jnp.flip(_X23, (0, 2)), _OOR.format(2, 2)),
    "roll": (lambda m: m.jnp.roll(_X23, 1, axis=2), _OOR.format(2, 2)),
    "sum": (lambda m: m.jnp.sum(_X23, axis=2), _OOR.format(2, 2)),
    "take": (lambda m: m.jnp.take(_X23, 0, axis=2), _OOR.format(2, 2)),
    "diff": (lambda m: m.jnp.diff(_X23, axis=2), _OOR.format(2, 2)),
    "cumsum": (lambda m: m.jnp.cumsum(_X23, axis=2), _OOR.format(2, 2)),
    "sort": (lambda m: m.jnp.sort(_X23, axis=2), _OOR.format(2, 2)),
    "repeat": (lambda m: m.jnp.repeat(_X23, 2, axis=2), _OOR.format(2, 2)),
    "delete": (lambda m: m.jnp.delete(_X23, 0, axis=2), _OOR.format(2, 2)),
    "insert": (lambda m: m.jnp.insert(_X23, 0, 1.0, axis=2), _OOR.format(2, 2)),
    "unstack": (lambda m: m.jnp.unstack(_X23, axis=2), _OOR.format(2, 2)),
    "median": (lambda m: m.jnp.median(_X23, axis=2), _OOR.format(2, 2)),
    "fft": (lambda m: m.jnp.fft.fft(_X23, axis=2), _OOR.format(2, 2)),
    "norm": (lambda m: m.jnp.linalg.norm(_X23, axis=2), _OOR.format(2, 2)),
    "jit_concatenate": (
        lambda m: m.jx.jit(lambda u: m.jnp.concatenate([u, u], axis=2))(_X23),
        _OOR.format(2, 2),
    ),
    "rollaxis_start": (lambda m: m.jnp.rollaxis(_X23, 0, 3), "start=3 must satisfy -2<=start<=2"),
    "expand_dims_repeated": (
        lambda m: m.jnp.expand_dims(_X23, [1, 1]),
        "repeated axis in lax.expand_dims: (1, 1)",
    ),
    "lax_expand_dims_repeated": (
        lambda m: m.lax.expand_dims(_X23, (5, 5)),
        "repeated axis in lax.expand_dims: (5, 5)",
    ),
}


@pytest.mark.parametrize("name", list(_AXIS_ERR))
def test_out_of_range_axis_is_a_plain_value_error(name):
    build, msg = _AXIS_ERR[name]
    e = same(build)
    assert type(e) is ValueError, type(e)
    assert str(e).split("\n")[0] == msg


@pytest.mark.parametrize("axes", [(0, 2), (0, -1)])
def test_permute_dims_takes_the_axes_as_given(axes):
    e = same(lambda m: m.jnp.permute_dims(_X23, axes))
    assert type(e) is TypeError
    assert str(e).startswith(
        f"transpose permutation isn't a permutation of operand dimensions, got permutation "
        f"{axes} for operand shape (2, 3)"
    )


def test_rollaxis_negative_start_counts_from_ndim():
    x = np.arange(24.0, dtype="float32").reshape(2, 3, 4)
    for axis in range(-3, 3):
        for start in range(-3, 4):
            out = same(lambda m: m.jnp.rollaxis(x, axis, start), rtol=0, atol=0)
            np.testing.assert_array_equal(np.asarray(out), np.rollaxis(x, axis, start))


# --------------------------------------------- reduce_window: JAX's reverse-mode limits
# JAX has transposable window primitives only for lax.add / lax.max / lax.min with a
# concrete identity init; any other reduce_window (lax.mul, a jnp ufunc, a lambda, another
# or a traced init) is forward-mode only: grad / vjp / linearize raise ValueError. Max and
# min windows with window dilation have no VJP (NotImplementedError from the backward
# pass). jaxlite differentiated all of them in reverse mode; forward mode still works.

_X34 = np.arange(1.0, 13.0, dtype="float32").reshape(3, 4)
_LIN = (
    "Linearization failed to produce known values for all output primals. This is "
    "typically caused by attempting to differentiate a function uses an operation that "
    "does not support reverse-mode autodiff."
)


def _window(m, op, init, **kw):
    return lambda a: m.lax.reduce_window(a, init, op, (2, 2), (1, 1), "VALID", **kw)


_RW_REFUSED = {
    "mul": (lambda m: _window(m, m.lax.mul, 1.0), ValueError, _LIN),
    "add_init_one": (lambda m: _window(m, m.lax.add, 1.0), ValueError, _LIN),
    "max_init_zero": (lambda m: _window(m, m.lax.max, 0.0), ValueError, _LIN),
    "jnp_add": (lambda m: _window(m, m.jnp.add, 0.0), ValueError, _LIN),
    "lambda_add": (lambda m: _window(m, lambda u, v: u + v, 0.0), ValueError, _LIN),
    "max_window_dilation": (
        lambda m: _window(m, m.lax.max, -np.inf, window_dilation=(2, 1)),
        NotImplementedError,
        "VJP not implemented for select_and_gather (MaxPool) with window dilation, "
        "got window_dilation=(2, 1).",
    ),
    "min_window_dilation": (
        lambda m: _window(m, m.lax.min, np.inf, window_dilation=[1, 2]),
        NotImplementedError,
        "VJP not implemented for select_and_gather (MaxPool) with window dilation, "
        "got window_dilation=(1, 2).",
    ),
}


@pytest.mark.parametrize("mode", ["grad", "jit_grad", "vjp"])
@pytest.mark.parametrize("name", list(_RW_REFUSED))
def test_reduce_window_reverse_mode_refused_as_jax(name, mode):
    make, exc, msg = _RW_REFUSED[name]

    def build(m):
        f = make(m)
        if mode == "vjp":
            y, back = m.jx.vjp(f, _X34)  # the linearization fails here, or the transpose:
            return back(np.ones_like(np.asarray(y)))
        g = m.jx.grad(lambda a: f(a).sum())
        return (m.jx.jit(g) if mode == "jit_grad" else g)(_X34)

    e = same(build)
    assert type(e) is exc, e
    assert str(e).split("\n")[0] == msg
    if mode == "grad":
        _check_forward_mode(make)


def _check_forward_mode(make):
    # forward mode still works: each window's tangent is the derivative along t
    t = np.ones_like(_X34)
    y, dy = same(lambda m: m.jx.jvp(make(m), (_X34,), (t,)))
    f, eps = make(LITE_M), 1e-3
    fd = (np.asarray(f(_X34 + eps * t)) - np.asarray(f(_X34 - eps * t))) / (2 * eps)
    np.testing.assert_allclose(np.asarray(dy), fd, rtol=2e-2)
    # the linearized (forward) map can be evaluated; only its transpose is refused
    try:
        _, lin = jaxlite.linearize(f, _X34)
    except ValueError as e:  # the generic windows refuse linearize itself, as JAX
        assert str(e) == _LIN
        return
    np.testing.assert_allclose(np.asarray(lin(t)), np.asarray(dy))


def test_reduce_window_traced_init_is_forward_only():
    # a traced init is not a known identity: JAX's generic reduce_window
    def build(m):
        def f(a, init):
            return m.lax.reduce_window(a, init, m.lax.add, (2, 2), (1, 1), "VALID").sum()

        return m.jx.jit(m.jx.grad(f))(_X34, np.float32(0))

    e = same(build)
    assert type(e) is ValueError and str(e) == _LIN


# --------------------------------------------- complex convolutions: Gauss's product
# JAX lowers a complex convolution on CPU to three real ones, k1 = (xr + xi) * kr,
# k2 = xr * (ki - kr), k3 = xi * (kr + ki), and returns k1 - k3 + (k1 + k2) j. Where each
# output is one product that XLA keeps (session 14's rule for real convolutions), the
# products are fused with the sums into FMAs: re = fma(-xi, kr + ki, k1). jaxlite
# multiplied complex numbers directly, so e.g. (-0+0j) * (-0+0j) gave +0+0j (JAX: -0-0j)
# and (-0-0j) * (-1+0j) gave -0+0j (JAX: +0+0j).

_ZS = [complex(-0.0, -0.0), complex(0.0, -0.0), complex(-0.0, 0.0), complex(-1, 0), 1j, -1 - 1j]


def _cconv(m, n, c, o, w, vx, vk, groups=1, batch_groups=1):
    x = m.jnp.full((n, c, w), vx, "complex64")
    k = m.jnp.full((o, c // groups, 1), vk, "complex64")
    return m.lax.conv_general_dilated(
        x, k, (1,), "VALID", feature_group_count=groups, batch_group_count=batch_groups
    )


def _gauss_one_product(vx, vk, fused):
    xr, xi, kr, ki = (np.float32(v) for v in (vx.real, vx.imag, vk.real, vk.imag))
    k1 = (xr + xi) * kr
    if fused:  # the products of float32 values are exact in float64
        return complex(
            np.float32(-np.float64(xi) * np.float64(kr + ki) + k1),
            np.float32(np.float64(xr) * np.float64(ki - kr) + k1),
        )
    k1 = k1 + np.float32(0)
    return complex(k1 - (xi * (kr + ki) + np.float32(0)), k1 + (xr * (ki - kr) + np.float32(0)))


_CCONV = {
    # (n, c, o, w, groups, batch_groups): whether XLA keeps (fuses) the products
    "one_out": ((1, 1, 1, 1, 1, 1), True),
    "one_out_many_positions": ((2, 1, 1, 3, 1, 1), True),
    "seven_outs_one_position": ((1, 1, 7, 1, 1, 1), True),
    "eight_outs_one_position": ((1, 1, 8, 1, 1, 1), False),
    "two_outs_two_positions": ((1, 1, 2, 2, 1, 1), False),
    "grouped_one_out_each": ((2, 3, 3, 2, 3, 1), True),
    "grouped_two_outs_one_position": ((1, 2, 4, 1, 2, 1), False),
    "batch_grouped": ((2, 1, 2, 1, 1, 2), False),
}


@pytest.mark.parametrize("name", list(_CCONV))
def test_one_product_complex_convolution_signs(name):
    args, fused = _CCONV[name]
    for vx in _ZS:
        for vk in _ZS:
            out = np.asarray(same(lambda m: _cconv(m, *args[:4], vx, vk, *args[4:]), rtol=0))
            want = _gauss_one_product(vx, vk, fused)
            for got in out.ravel():
                assert got == want, (vx, vk, got, want)
                assert np.signbit(got.real) == np.signbit(want.real), (vx, vk, got, want)
                assert np.signbit(got.imag) == np.signbit(want.imag), (vx, vk, got, want)


def test_complex_convolution_is_three_real_ones():
    # a general complex convolution has Gauss's roundings: equal to the three real
    # convolutions combined (bit for bit), within rounding of the exact product
    rng = np.random.default_rng(0)
    x = (rng.standard_normal((2, 3, 6)) + 1j * rng.standard_normal((2, 3, 6))).astype("complex64")
    k = (rng.standard_normal((4, 3, 3)) + 1j * rng.standard_normal((4, 3, 3))).astype("complex64")

    def conv(m, a, b):
        return m.lax.conv_general_dilated(a, b, (1,), "SAME")

    out = np.asarray(same(lambda m: conv(m, x, k), rtol=1e-5, atol=1e-5))
    xr, xi, kr, ki = x.real, x.imag, k.real, k.imag
    k1 = np.asarray(conv(LITE_M, xr + xi, kr))
    k2 = np.asarray(conv(LITE_M, xr, ki - kr))
    k3 = np.asarray(conv(LITE_M, xi, kr + ki))
    np.testing.assert_array_equal(out.real, k1 - k3)
    np.testing.assert_array_equal(out.imag, k1 + k2)
    xp = np.pad(x.astype(np.complex128), ((0, 0), (0, 0), (1, 1)))
    exact = np.array(
        [
            [sum(np.convolve(xp[n, c], k[o, c, ::-1], "valid") for c in range(3)) for o in range(4)]
            for n in range(2)
        ]
    )
    np.testing.assert_allclose(out, exact, rtol=1e-5, atol=1e-5)
    g = jaxlite.grad(lambda a: jnp.sum(jnp.abs(conv(LITE_M, a, k)) ** 2))(x)
    assert np.asarray(g).dtype == np.complex64 and np.isfinite(np.asarray(g)).all()


# ------------------------------------------------------- solve's and vectorize's errors
# JAX checks solve's shapes with its own words and then through jnp.vectorize; jaxlite
# raised its own messages (and IndexError for a scalar b). jnp.vectorize named `excluded`
# as a set (JAX: the object as given) and its loop shapes in its own words.
_VEC = "on vectorized function with excluded=frozenset() and signature="
_SOLVE_ERR = {
    "batched_1d": (
        (2, 3, 3),
        (2, 3),
        "Invalid shapes for solve: (2, 3, 3), (2, 3). Prior to JAX v0.5.0, this would have "
        "been treated as a batched 1-dimensional solve. To recover this behavior, use "
        "solve(a, b[..., None]).squeeze(-1).",
    ),
    "vector_size": (
        (3, 3),
        (4,),
        f"inconsistent size for core dimension 'm': 4 vs 3 {_VEC}'(m,m),(m)->(m)'",
    ),
    "not_square": (
        (2, 3),
        (2,),
        f"inconsistent size for core dimension 'm': 3 vs 2 {_VEC}'(m,m),(m)->(m)'",
    ),
    "one_d": ((3,), (3,), "left hand array must be at least two dimensional; got a.shape=(3,)"),
    "matrix_rows": (
        (3, 3),
        (4, 3),
        f"inconsistent size for core dimension 'm': 4 vs 3 {_VEC}'(m,m),(m,n)->(m,n)'",
    ),
    "batch": ((2, 3, 3), (5, 3, 3), "Incompatible shapes for broadcasting: shapes=[(2,), (5,)]"),
    "scalar_b": (
        (3, 3),
        (),
        "input with shape () does not have enough dimensions for all core dimensions "
        f"('m', 'n') {_VEC}'(m,m),(m,n)->(m,n)'",
    ),
}


@pytest.mark.parametrize("name", list(_SOLVE_ERR))
def test_solve_shape_errors_are_jax_words(name):
    sa, sb, msg = _SOLVE_ERR[name]
    e = same(lambda m: m.jnp.linalg.solve(np.ones(sa, "float32"), np.ones(sb, "float32")))
    assert type(e) is ValueError and str(e).split("\n")[0] == msg, e


def test_vectorize_errors_name_excluded_as_given():
    for excluded, shown in ((frozenset(), "frozenset()"), ({5}, "{5}"), ([5], "[5]")):
        e = same(
            lambda m: m.jnp.vectorize(lambda a, b: a, signature="(n),(n)->(n)", excluded=excluded)(
                np.ones(3), np.ones(4)
            )
        )
        assert str(e) == (
            "inconsistent size for core dimension 'n': 4 vs 3 on vectorized function with "
            f"excluded={shown} and signature='(n),(n)->(n)'"
        )
    e = same(
        lambda m: m.jnp.vectorize(lambda a, b: a, signature="(n),(n)->(n)")(
            np.ones((2, 3)), np.ones((4, 3))
        )
    )
    assert str(e) == "Incompatible shapes for broadcasting: shapes=[(2,), (4,)]"


# A complex triangular solve multiplies by the pivot's reciprocal (LAPACK's trsm), NaN + NaN j
# for a zero pivot, so a singular complex matrix's inverse / solution rows are NaN where
# jaxlite divided by zero with NumPy (inf - inf j, -inf + inf j, inf + nan j).
_CSING = {
    "inv_rank1": (lambda m: m.jnp.linalg.inv(np.array([[1 + 1j, 2 + 2j], [1, 2]], "complex64"))),
    "solve_zero_column": (
        lambda m: m.jnp.linalg.solve(
            np.array([[0, 1], [0, 1j]], "complex64"), np.ones(2, "complex64")
        )
    ),
}


@pytest.mark.parametrize("name", list(_CSING))
def test_complex_singular_solve_is_nan(name):
    out = np.asarray(same(_CSING[name]))
    assert np.isnan(out.real[..., 0]).all() and np.isnan(out.imag[..., 0]).all()
    assert not np.isinf(out.real).any() and not np.isinf(out.imag).any()


# reduce_window's argument checks in JAX's order and words (jaxlite: one message for every
# length mismatch, a concatenate error for a zero window, ZeroDivisionError for stride 0)
_RW_ARGS = {
    "rank": (
        dict(dims=(2,), strides=(1,)),
        "reduce_window got the wrong number of window_dimensions for operand: got operand "
        "shape (3, 4) with window_dimensions (2,).",
    ),
    "zero_window": (
        dict(dims=(0, 2)),
        "reduce_window window_dimensions must have every element be strictly positive, got (0, 2).",
    ),
    "zero_stride": (
        dict(strides=(0, 1)),
        "reduce_window window_strides must have every element be strictly positive, got (0, 1).",
    ),
    "strides_length": (
        dict(strides=(1,), pad=((0, 0), (0, 0))),
        "reduce_window got inconsistent window_strides and window_dimensions: got "
        "window_strides (1,) and window_dimensions (2, 2).",
    ),
    "base_dilation_length": (
        dict(base_dilation=(1,)),
        "reduce_window got inconsistent base_dilation and window_dimensions: got "
        "base_dilation (1,) and window_dimensions (2, 2).",
    ),
    "zero_dilation": (dict(window_dilation=(0, 1)), "All dilations must be positive, got (0, 1)."),
    "negative_base_dilation": (
        dict(base_dilation=(-1, 1)),
        "reduce_window base_dilation must have every element be nonnegative, got (-1, 1).",
    ),
}


@pytest.mark.parametrize("name", list(_RW_ARGS))
def test_reduce_window_argument_errors(name):
    kw, msg = _RW_ARGS[name]
    kw = dict(kw)
    dims, strides, pad = kw.pop("dims", (2, 2)), kw.pop("strides", (1, 1)), kw.pop("pad", "VALID")
    e = same(lambda m: m.lax.reduce_window(_X34, 0.0, m.lax.add, dims, strides, pad, **kw))
    assert type(e) is TypeError and str(e) == msg, e
