"""Session 20 fidelity fixes, each checked against JAX 0.10.2. Each case asserts JAX's
answer as a known value (so it means something without JAX, and the file passes in oracle
mode, ``JAXLITE_ORACLE=jax``) and, where JAX is importable, compares the whole result with
it through tests/hunt/oracle.py: raised exception class, or structure, shapes, dtypes, weak
types, values and signs of zeros."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from tests.hunt.oracle import same


def _weak(x):
    return x.aval.weak_type if hasattr(x, "aval") else x.weak_type


# ------------------------------------------- weak types of second derivatives through jit
# grad(grad(jit(f))) of a Python float was weakly typed where JAX's is strong, when f's
# derivative is strong (odeint's adjoint starts from strong zeros; a custom_vjp whose bwd
# returns a strong cotangent). jit's partial evaluation returned every residual as an
# output of the known call, also a residual that is just one of its inputs; JAX forwards
# such residuals (and known outputs that are inputs, and residuals that are also primal
# outputs) instead. The forwarded input's tangent then no longer runs through the
# linearized call, so in the second derivative its two cotangent contributions are added
# outside the transposed call (eagerly: strong + weak is strong) instead of inside it
# (add_any there takes its first operand's weak type). And jit's transpose was traced
# with the outputs' avals, not the cotangents' (JAX uses the cotangents' types): vjp of
# jit(sin) with a strong float32 cotangent was weak.


def _strong_bwd_square(m):
    @m.jx.custom_vjp
    def g(x):
        return x * x

    g.defvjp(lambda x: (x * x, x), lambda r, c: (m.jnp.asarray(2 * r * c, m.jnp.float32),))
    return g


_SECOND_ORDER = {
    # f, the transformation, expected (value, weak type)
    "custom_vjp_gg_jit": (
        lambda m: lambda a: _strong_bwd_square(m)(a * a),
        lambda m, f: m.jx.grad(m.jx.grad(m.jx.jit(f)))(0.7),
        (12 * 0.49, False),
    ),
    "custom_vjp_vjp_grad_jit": (
        lambda m: lambda a: _strong_bwd_square(m)(a * a),
        lambda m, f: m.jx.vjp(m.jx.grad(m.jx.jit(f)), 0.7)[1](1.0)[0],
        (12 * 0.49, False),
    ),
    "custom_vjp_jit_gg": (
        lambda m: lambda a: _strong_bwd_square(m)(a * a),
        lambda m, f: m.jx.jit(m.jx.grad(m.jx.grad(f)))(0.7),
        (12 * 0.49, False),
    ),
    "vjp_jit_sin_strong_ct": (
        lambda m: m.jnp.sin,
        lambda m, f: m.jx.vjp(m.jx.jit(f), 0.7)[1](m.jnp.float32(1))[0],
        (np.cos(0.7), False),
    ),
    "vjp_jit_sin_weak_ct": (
        lambda m: m.jnp.sin,
        lambda m, f: m.jx.vjp(m.jx.jit(f), 0.7)[1](1.0)[0],
        (np.cos(0.7), True),
    ),
    "vjp_jit_square_strong_ct": (
        lambda m: lambda a: a * a,
        lambda m, f: m.jx.vjp(m.jx.jit(f), 0.7)[1](m.jnp.float32(1))[0],
        (1.4, False),
    ),
    "vjp_grad_jit_strong_ct": (
        lambda m: lambda a: a * a * m.jnp.float32(1),
        lambda m, f: m.jx.vjp(m.jx.grad(m.jx.jit(f)), 0.7)[1](m.jnp.float32(1))[0],
        (2.0, False),
    ),
    "vjp_jit_grad_strong_ct": (
        lambda m: lambda a: a * a * m.jnp.float32(1),
        lambda m, f: m.jx.vjp(m.jx.jit(m.jx.grad(f)), 0.7)[1](m.jnp.float32(1))[0],
        (2.0, False),
    ),
}


@pytest.mark.parametrize("name", sorted(_SECOND_ORDER))
def test_jit_derivative_weak_types_like_jax(name):
    fun, transform, (value, weak) = _SECOND_ORDER[name]
    out = same(lambda m: transform(m, fun(m)))
    assert _weak(out) is weak
    np.testing.assert_allclose(np.asarray(out), value, rtol=1e-5)


def _odeint_case(transform):
    def build(m):
        odeint = importlib.import_module(m.jx.__name__ + ".experimental.ode").odeint
        ts = m.jnp.linspace(0.0, 1.0, 3)
        f = m.jx.jit(lambda a: odeint(lambda y, t, a: -a * y, 1.0, ts, a)[-1].sum())
        return transform(m.jx, f)

    return build


@pytest.mark.parametrize(
    "name,transform,weak",
    [
        ("grad_grad_jit", lambda jx, f: jx.grad(jx.grad(f))(1.0), False),
        ("jit_grad_grad_jit", lambda jx, f: jx.jit(jx.grad(jx.grad(f)))(1.0), True),
        ("value_and_grad_of_grad", lambda jx, f: jx.value_and_grad(jx.grad(f))(1.0)[1], False),
    ],
    ids=["grad_grad_jit", "jit_grad_grad_jit", "value_and_grad_of_grad"],
)
def test_odeint_second_derivative_weak_type_like_jax(name, transform, weak):
    # d2/da2 exp(-a) at a = 1 (JAX itself is weak under an outer jit: add_any traced there
    # takes its first operand's type, eagerly it is lax.add)
    out = same(_odeint_case(transform), rtol=1e-5)
    assert _weak(out) is weak
    np.testing.assert_allclose(np.asarray(out), np.exp(-1.0), rtol=1e-5)


# ------------------------------------- jnp.power of a jnp scalar made inside jit (staged)
# JAX's jnp.power uses integer_pow (the base keeps its dtype) only for a concrete integer
# exponent. Under jit, an array made from host data there (``jnp.int64(2)``,
# ``jnp.array(2)``) is a tracer in JAX, so ``int8 ** jnp.int64(2)`` promotes (int32, int64
# under x64); a NumPy scalar or an array made outside jit stays concrete (int8). jaxlite
# keeps constants made under jit concrete and used integer_pow: int8.


def _i8(m):
    return m.jnp.array([1, 2, 3], m.jnp.int8)


_POWER = {
    # build(m), expected dtype without x64, with x64
    "jit_jnp_int64": (lambda m: m.jx.jit(lambda x: x ** m.jnp.int64(2))(_i8(m)), "int32", "int64"),
    "jit_jnp_int32": (lambda m: m.jx.jit(lambda x: x ** m.jnp.int32(2))(_i8(m)), "int32", "int32"),
    "jit_jnp_int16": (lambda m: m.jx.jit(lambda x: x ** m.jnp.int16(2))(_i8(m)), "int16", "int16"),
    "jit_jnp_array": (lambda m: m.jx.jit(lambda x: x ** m.jnp.array(2))(_i8(m)), "int8", "int8"),
    "jit_power_asarray": (
        lambda m: m.jx.jit(lambda x: m.jnp.power(x, m.jnp.asarray(2, "int32")))(_i8(m)),
        "int32",
        "int32",
    ),
    "jit_float_base": (
        lambda m: m.jx.jit(lambda x: x ** m.jnp.int32(2))(m.jnp.array([1, 2, 3], "float16")),
        "float16",
        "float16",
    ),
    "make_jaxpr_scan_body": (
        lambda m: m.jx.lax.scan(lambda c, _: (c, c ** m.jnp.int32(2)), _i8(m), None, length=1)[1],
        "int32",
        "int32",
    ),
    "eager": (lambda m: _i8(m) ** m.jnp.int64(2), "int8", "int8"),
    "jit_numpy_scalar": (lambda m: m.jx.jit(lambda x: x ** np.int64(2))(_i8(m)), "int8", "int8"),
    "jit_closed_over": (
        lambda m: (lambda y: m.jx.jit(lambda x: x**y)(_i8(m)))(m.jnp.int32(2)),
        "int8",
        "int8",
    ),
    "vmap": (lambda m: m.jx.vmap(lambda x: x ** m.jnp.int32(2))(_i8(m)), "int8", "int8"),
}


@pytest.mark.parametrize("x64", [False, True], ids=["x32", "x64"])
@pytest.mark.parametrize("name", sorted(_POWER))
def test_power_of_scalar_made_under_jit_like_jax(name, x64):
    build, want32, want64 = _POWER[name]

    def run(m):
        with m.jx.enable_x64(x64):
            return build(m)

    out = same(run)
    assert str(out.dtype) == (want64 if x64 else want32)
    np.testing.assert_array_equal(np.asarray(out).ravel()[:3], [1, 4, 9][: np.size(out)])


# ------------------------------------------------------------- complex lax.cumlogsumexp
# JAX's cumlogsumexp accepts every number dtype: complex operands are reduced with its
# complex logaddexp (imaginary parts wrapped into [-pi, pi]), each output folding from
# -inf over its window (so an infinite first element gives NaN); integers fail when the
# -inf initial value is made (OverflowError); bool is refused ("subtypes of number").
# jaxlite refused everything but floats. The axis checks of all five cumulative
# reductions: a negative axis is "XLA operations do not allow negative axes" (jaxlite's
# cumsum family said "out of bounds"), a too-large one "... for array of shape (3,)".

_Z = [1 + 1j, 2 - 0.5j, -1 + 3j]
_CUMLSE = {
    "forward": (
        lambda m: m.lax.cumlogsumexp(m.jnp.array(_Z, "complex64")),
        [1 + 1j, 2.0859 - 0.15649j, 2.03908 - 0.15719j],
    ),
    "reverse": (
        lambda m: m.lax.cumlogsumexp(m.jnp.array(_Z, "complex64"), reverse=True),
        [2.03908 - 0.15719j, 1.95238 - 0.51829j, -1 + 3j],
    ),
    "jit_axis1": (
        lambda m: m.jx.jit(lambda x: m.lax.cumlogsumexp(x, axis=1))(
            m.jnp.array([_Z, _Z[::-1]], "complex64")
        )[1],
        [-1 + 3j, 1.95238 - 0.51829j, 2.03908 - 0.15719j],
    ),
    "vmap": (
        lambda m: m.jx.vmap(m.lax.cumlogsumexp)(m.jnp.array([_Z], "complex64"))[0],
        [1 + 1j, 2.0859 - 0.15649j, 2.03908 - 0.15719j],
    ),
    "jvp": (
        lambda m: m.jx.jvp(
            m.lax.cumlogsumexp,
            (m.jnp.array([1 + 1j, 2 - 1j, 0.5 + 3j], "complex64"),),
            (m.jnp.array([1, 1j, 2], "complex64"),),
        )[1],
        [1, 0.38200 + 1.42490j, -0.28270 + 1.48860j],
    ),
    "wraps_past_pi": (
        lambda m: m.lax.cumlogsumexp(m.jnp.array([1 + 3j, 1 + 3j, 1 + 3j, -1 - 3j], "complex64")),
        [1 + 3j, 1.69315 + 3j, 2.09861 + 3j, 2.14110 + 3.01210j],
    ),
    "infinite_first": (
        lambda m: m.lax.cumlogsumexp(m.jnp.array([-np.inf, 1 + 3j], "complex64")),
        [complex(np.nan, np.nan)] * 2,
    ),
}


@pytest.mark.parametrize("name", sorted(_CUMLSE))
def test_complex_cumlogsumexp_like_jax(name):
    build, want = _CUMLSE[name]
    out = same(build, rtol=1e-4, atol=1e-5)
    assert str(out.dtype) == "complex64"
    np.testing.assert_allclose(np.asarray(out), want, rtol=1e-4, atol=1e-4)


def _raises(build, kind, first_line):
    out = same(build)
    assert isinstance(out, kind), out
    assert str(out).splitlines()[0] == first_line


@pytest.mark.parametrize(
    "name,build,kind,first_line",
    [
        (
            "cumlogsumexp_int",
            lambda m: m.lax.cumlogsumexp(m.jnp.arange(3)),
            OverflowError,
            "cannot convert float infinity to integer",
        ),
        (
            "cumlogsumexp_bool",
            lambda m: m.lax.cumlogsumexp(m.jnp.array([True])),
            TypeError,
            "cumlogsumexp does not accept dtype bool. Accepted dtypes are subtypes of number.",
        ),
        (
            "cumlogsumexp_0d",
            lambda m: m.lax.cumlogsumexp(m.jnp.float32(2)),
            ValueError,
            "axis 0 is out of bounds for array of shape ()",
        ),
        (
            "cumlogsumexp_axis",
            lambda m: m.lax.cumlogsumexp(m.jnp.ones(3), axis=1),
            ValueError,
            "axis 1 is out of bounds for array of shape (3,)",
        ),
        (
            "cumsum_negative_axis",
            lambda m: m.lax.cumsum(m.jnp.ones(3), axis=-1),
            ValueError,
            "XLA operations do not allow negative axes",
        ),
        (
            "cummax_negative_axis",
            lambda m: m.lax.cummax(m.jnp.ones(3), axis=-1),
            ValueError,
            "XLA operations do not allow negative axes",
        ),
        (
            "cumprod_bool_negative_axis",
            lambda m: m.lax.cumprod(m.jnp.array([True]), axis=-1),
            ValueError,
            "XLA operations do not allow negative axes",
        ),
    ],
    ids=lambda v: v if isinstance(v, str) and " " not in v else "",
)
def test_cumulative_errors_like_jax(name, build, kind, first_line):
    _raises(build, kind, first_line)


# --------------------------------------------------------------- jnp.bincount weights
# JAX requires weights of x's shape (a scalar is not broadcast: ValueError naming both
# types), refuses a list (TypeError) and bool weights (scatter-add's TypeError); jaxlite
# broadcast a scalar or a size-1 array, and accepted lists and bools.

_X = [0, 1, 1, 3]


@pytest.mark.parametrize(
    "name,weights,kind,first_line",
    [
        ("float", lambda m: 2.0, ValueError, "typeof(x)=i32[4]({}) and typeof(weights)=f32[]({})"),
        ("int", lambda m: 2, ValueError, "typeof(x)=i32[4]({}) and typeof(weights)=i32[]({})"),
        (
            "jnp_scalar",
            lambda m: m.jnp.float32(2),
            ValueError,
            "typeof(x)=i32[4]({}) and typeof(weights)=f32[]({})",
        ),
        (
            "size_1",
            lambda m: m.jnp.ones(1),
            ValueError,
            "typeof(x)=i32[4]({}) and typeof(weights)=f32[1]({})",
        ),
        (
            "shape_4x1",
            lambda m: m.jnp.ones((4, 1)),
            ValueError,
            "typeof(x)=i32[4]({}) and typeof(weights)=f32[4,1]({})",
        ),
        (
            "list",
            lambda m: [1.0, 2.0, 3.0, 4.0],
            TypeError,
            "Argument '[1.0, 2.0, 3.0, 4.0]' of type '<class 'list'>' is not a valid JAX type",
        ),
        (
            "bool",
            lambda m: m.jnp.ones(4, bool),
            TypeError,
            "add does not accept dtype bool at position 0. Accepted dtypes at position 0 are "
            "subtypes of integer, floating, complexfloating.",
        ),
    ],
    ids=["float", "int", "jnp_scalar", "size_1", "shape_4x1", "list", "bool"],
)
def test_bincount_weights_like_jax(name, weights, kind, first_line):
    if kind is ValueError:
        first_line = "type of weights must match type of x. Got " + first_line
    _raises(lambda m: m.jnp.bincount(m.jnp.array(_X), weights=weights(m)), kind, first_line)


def test_bincount_weights_under_jit_and_matching_shape_like_jax():
    out = same(
        lambda m: m.jx.jit(lambda x: m.jnp.bincount(x, weights=x * 0.5, length=5))(m.jnp.array(_X))
    )
    np.testing.assert_array_equal(np.asarray(out), [0.0, 1.0, 0.0, 1.5, 0.0])
    _raises(
        lambda m: m.jx.jit(lambda x: m.jnp.bincount(x, weights=1.0, length=5))(m.jnp.array(_X)),
        ValueError,
        "type of weights must match type of x. Got typeof(x)=i32[4]({}) and "
        "typeof(weights)=f32[]({})",
    )


# ----------------------------------------------- random samplers given Python lists
# JAX's samplers refuse a list (or tuple) as a distribution parameter, each with the error
# of the helper that meets it first; jaxlite's f, wald, lognormal, triangular,
# truncated_normal, loggamma (and 13 more) sampled as if it were an array.

_DT = "Cannot determine dtype of [0.5, 0.7]"
_TR = "The numpy.ndarray conversion method __array__() was called on traced array with shape "
_SAMPLERS = {
    "bernoulli_p": (lambda r, k, v: r.bernoulli(k, v), _DT),
    "beta_a": (lambda r, k, v: r.beta(k, v, 1.0), _DT),
    "beta_b": (lambda r, k, v: r.beta(k, 1.0, v), _DT),
    "chisquare_df": (lambda r, k, v: r.chisquare(k, v), _DT),
    "f_dfnum": (lambda r, k, v: r.f(k, v, 1.0), _DT),
    "f_dfden": (lambda r, k, v: r.f(k, 1.0, v), _DT),
    "lognormal_sigma": (lambda r, k, v: r.lognormal(k, v), _DT),
    "pareto_b": (lambda r, k, v: r.pareto(k, v), _DT),
    "rayleigh_scale": (lambda r, k, v: r.rayleigh(k, v), _DT),
    "t_df": (lambda r, k, v: r.t(k, v), _DT),
    "triangular_left": (lambda r, k, v: r.triangular(k, v, 1.0, 2.0), _DT),
    "triangular_right": (lambda r, k, v: r.triangular(k, 0.0, 0.1, v), _DT),
    "wald_mean": (lambda r, k, v: r.wald(k, v), _DT),
    "gamma_a": (lambda r, k, v: r.gamma(k, v), _TR + "float32[]"),
    "loggamma_a": (lambda r, k, v: r.loggamma(k, v), _TR + "float32[]"),
    "dirichlet_alpha": (lambda r, k, v: r.dirichlet(k, v), _TR + "float32[]"),
    "double_sided_maxwell_loc": (
        lambda r, k, v: r.double_sided_maxwell(k, v, 1.0),
        _TR + "float32[]",
    ),
    "randint_minval": (lambda r, k, v: r.randint(k, (2,), v, 3), _TR + "float32[]"),
    "truncated_normal_lower": (lambda r, k, v: r.truncated_normal(k, v, 1.0), _TR + "float32[]"),
    "truncated_normal_upper": (lambda r, k, v: r.truncated_normal(k, 0.0, v), _TR + "float32[]"),
    "poisson_lam": (
        lambda r, k, v: r.poisson(k, v),
        "broadcast_to requires ndarray or scalar arguments, got <class 'list'> at position 0.",
    ),
    "generalized_normal_p": (
        lambda r, k, v: r.generalized_normal(k, v),
        "unsupported operand type(s) for /: 'int' and 'list'",
    ),
    "ball_p": (
        lambda r, k, v: r.ball(k, 2, v),
        "unsupported operand type(s) for /: 'int' and 'list'",
    ),
}


@pytest.mark.parametrize("name", sorted(_SAMPLERS))
def test_random_sampler_refuses_a_list_like_jax(name):
    sample, first_line = _SAMPLERS[name]

    def build(m):
        random = importlib.import_module(m.jx.__name__ + ".random")
        return sample(random, random.key(0), [0.5, 0.7])

    _raises(build, TypeError, first_line)


def test_random_sampler_tuple_and_int_list_like_jax():
    def build(params):
        def run(m):
            random = importlib.import_module(m.jx.__name__ + ".random")
            return random.gamma(random.key(0), params)

        return run

    _raises(build((1, 2)), TypeError, _TR + "int32[]")
    out = same(
        lambda m: importlib.import_module(m.jx.__name__ + ".random").wald(
            importlib.import_module(m.jx.__name__ + ".random").key(0), (0.5, 0.7)
        )
    )
    assert str(out) == "Cannot determine dtype of (0.5, 0.7)"


# ------------------------------------------------------- half-precision linear algebra
# JAX's LAPACK-backed primitives (lu, cholesky, qr, eigh, eig, svd, schur, hessenberg,
# geqrf, geqp3) have no float16/bfloat16 kernels: running one raises NotImplementedError
# with the failed lookup and 'Unsupported dtype float16.' (make_jaxpr still traces).
# jaxlite computed jnp.linalg.inv, solve, eig, tensorinv, scipy.linalg.lu, schur,
# hessenberg, lax.linalg.lu ... in float16 (others failed in NumPy with a TypeError).

_HALF_LINALG = {
    "inv": lambda m, a: m.jnp.linalg.inv(a),
    "solve": lambda m, a: m.jnp.linalg.solve(a, a[0]),
    "cholesky": lambda m, a: m.jnp.linalg.cholesky(a),
    "qr": lambda m, a: m.jnp.linalg.qr(a),
    "svd": lambda m, a: m.jnp.linalg.svd(a),
    "eigh": lambda m, a: m.jnp.linalg.eigh(a),
    "eig": lambda m, a: m.jnp.linalg.eig(a),
    "pinv": lambda m, a: m.jnp.linalg.pinv(a),
    "matrix_power_inverse": lambda m, a: m.jnp.linalg.matrix_power(a, -1),
    "tensorsolve": lambda m, a: m.jnp.linalg.tensorsolve(a, a[0]),
    "norm_2": lambda m, a: m.jnp.linalg.norm(a, 2),
    "jit_inv": lambda m, a: m.jx.jit(m.jnp.linalg.inv)(a),
    "lax_lu": lambda m, a: m.lax.linalg.lu(a),
    "lax_schur": lambda m, a: m.lax.linalg.schur(a),
    "lax_hessenberg": lambda m, a: m.lax.linalg.hessenberg(a),
    "lax_tridiagonal": lambda m, a: m.lax.linalg.tridiagonal(a),
}


def _scipy_linalg(m):
    return importlib.import_module(m.jx.__name__ + ".scipy.linalg")


_HALF_LINALG.update(
    {
        "scipy_lu": lambda m, a: _scipy_linalg(m).lu(a),
        "scipy_lu_factor": lambda m, a: _scipy_linalg(m).lu_factor(a),
        "scipy_solve": lambda m, a: _scipy_linalg(m).solve(a, a[0]),
        "scipy_schur": lambda m, a: _scipy_linalg(m).schur(a),
        "scipy_hessenberg": lambda m, a: _scipy_linalg(m).hessenberg(a),
        "scipy_funm": lambda m, a: _scipy_linalg(m).funm(a, m.jnp.exp),
    }
)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("name", sorted(_HALF_LINALG))
def test_half_precision_linalg_not_implemented_like_jax(name, dtype):
    fun = _HALF_LINALG[name]
    mod = "numpy" if dtype == "float16" else "ml_dtypes"
    _raises(
        lambda m: fun(m, m.jnp.array([[4.0, 1.0], [1.0, 3.0]], dtype)),
        NotImplementedError,
        f"(KeyError(<class '{mod}.{dtype}'>), 'Unsupported dtype {dtype}.')",
    )


def test_half_precision_linalg_type_errors_and_tracing_like_jax():
    a16 = lambda m: m.jnp.array([[4.0, 1.0], [1.0, 3.0]], "float16")  # noqa: E731
    _raises(lambda m: _scipy_linalg(m).expm(a16(m)), TypeError, "A.dtype=float16 is not supported.")
    _raises(
        lambda m: _scipy_linalg(m).eigh_tridiagonal(a16(m)[0], a16(m)[1, :1]),
        TypeError,
        "Only float32 and float64 inputs are supported as inputs to "
        "jax.scipy.linalg.eigh_tridiagonal, got float16 and float16",
    )
    # staging still works: JAX fails only when the kernel is lowered
    out = same(lambda m: m.jnp.asarray(len(m.jx.make_jaxpr(m.jnp.linalg.inv)(a16(m)).eqns)) > 0)
    assert bool(out)
