"""``jax.experimental.ode.odeint``: values against JAX 0.10.2 (the oracle) and against known
solutions, gradients by the adjoint method, ``jit``/``vmap``/``grad`` compositions, and the
errors for bad input. The file passes in oracle mode (``JAXLITE_ORACLE=jax``).

The step-size controller, starting step, error estimator and dense output are the ones JAX
uses (jaxlite/_src/ode.py), so in float64 the accepted steps are the same and the results
agree with JAX's to rounding (checked at a loose tolerance, where another step sequence
would differ by about the tolerance). In float32 the two differ by float32 rounding in the
step arithmetic, which moves a result by at most a few times the tolerance.
"""

import importlib
import os
import subprocess
import sys

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from tests.hunt import oracle
from tests.hunt.oracle import same

# Through the engine module's own name: in oracle mode ``jaxlite`` is ``jax``.
odeint = importlib.import_module(jax.__name__ + ".experimental.ode").odeint


def set_x64(flag):
    """x64 on or off in both engines (the oracle's JAX has its own flag)."""
    jax.config.update("jax_enable_x64", flag)
    if oracle.jax is not None:
        oracle.jax.config.update("jax_enable_x64", flag)


@pytest.fixture(autouse=True)
def _x64_off_afterwards():
    yield
    set_x64(False)


def _ode(m):
    return importlib.import_module(m.jx.__name__ + ".experimental.ode").odeint


# ---------------------------------------------------------------------- test problems
def decay(y, t, k):
    return -k * y


def oscillator(y, t, w, jnp=jnp):
    return jnp.stack([y[1], -(w**2) * y[0]])


def lotka_volterra(y, t, a, b, c, d, jnp=jnp):
    x, z = y[0], y[1]
    return jnp.stack([a * x - b * x * z, d * x * z - c * z])


def stiffish(y, t, jnp=jnp):
    # Relaxes onto cos(t) with rate 50: the step size is bounded by stability, not accuracy.
    return -50.0 * (y - jnp.cos(t))


PROBLEMS = {
    "decay": lambda m, t: _ode(m)(decay, m.jnp.array([1.0, 2.0]), t, 0.7),
    "oscillator": lambda m, t: _ode(m)(
        lambda y, t, w: oscillator(y, t, w, m.jnp), m.jnp.array([1.0, 0.0]), t, 2.0
    ),
    "lotka_volterra": lambda m, t: _ode(m)(
        lambda y, t, *p: lotka_volterra(y, t, *p, jnp=m.jnp),
        m.jnp.array([1.0, 1.0]),
        t,
        1.5,
        1.0,
        3.0,
        1.0,
    ),
    "stiffish": lambda m, t: _ode(m)(lambda y, t: stiffish(y, t, m.jnp), m.jnp.array(0.0), t),
}


@pytest.mark.parametrize("x64", [False, True], ids=["float32", "float64"])
@pytest.mark.parametrize("name", list(PROBLEMS))
def test_values_agree_with_jax(name, x64):
    set_x64(x64)
    tol = dict(rtol=1e-11, atol=1e-12) if x64 else dict(rtol=1e-4, atol=2e-5)
    ys = same(lambda m: PROBLEMS[name](m, m.jnp.linspace(0.0, 5.0, 11)), **tol)
    assert ys.dtype == (np.float64 if x64 else np.float32)
    assert ys.shape[0] == 11


def test_loose_tolerance_takes_jaxs_steps():
    # At rtol = atol = 1e-4 the solution is off by about 1e-4; a different step sequence
    # would differ from JAX's by that much, the same one only by rounding.
    set_x64(True)

    def build(m):
        t = m.jnp.linspace(0.0, 10.0, 21)
        f = lambda y, t, *p: lotka_volterra(y, t, *p, jnp=m.jnp)  # noqa: E731
        return _ode(m)(f, m.jnp.array([1.0, 1.0]), t, 1.5, 1.0, 3.0, 1.0, rtol=1e-4, atol=1e-4)

    ys = same(build, rtol=1e-9, atol=1e-12)
    exact = odeint(
        lambda y, t, *p: lotka_volterra(y, t, *p),
        jnp.array([1.0, 1.0]),
        jnp.linspace(0.0, 10.0, 21),
        1.5,
        1.0,
        3.0,
        1.0,
    )
    err = np.max(np.abs(np.asarray(ys) - np.asarray(exact)))
    assert 1e-6 < err < 1e-1  # the loose solve really is loose


@pytest.mark.parametrize("x64", [False, True], ids=["float32", "float64"])
def test_known_solutions(x64):
    set_x64(x64)
    tol = 2e-9 if x64 else 2e-7  # about rtol = atol = 1.4e-8 (the defaults), or float32's
    t = jnp.linspace(0.0, 3.0, 7)
    ys = odeint(decay, jnp.array([1.0, 2.0]), t, 0.7)
    np.testing.assert_allclose(
        ys, np.exp(-0.7 * np.asarray(t))[:, None] * [1.0, 2.0], rtol=50 * tol, atol=tol
    )
    ys = odeint(oscillator, jnp.array([1.0, 0.0]), t, 2.0)
    np.testing.assert_allclose(ys[:, 0], np.cos(2.0 * np.asarray(t)), rtol=50 * tol, atol=50 * tol)
    # y' = y t from y(0) = 1: exp(t^2 / 2), at times that are not step ends (dense output).
    t = jnp.array([0.0, 0.1, 0.35, 0.8, 1.3])
    ys = odeint(lambda y, t: y * t, jnp.array(1.0), t)
    np.testing.assert_allclose(ys, np.exp(np.asarray(t) ** 2 / 2), rtol=50 * tol)


def test_mxstep_and_hmax_agree_with_jax():
    set_x64(True)

    def build(m):
        t = m.jnp.linspace(0.0, 1.0, 3)
        f = lambda y, t: -y  # noqa: E731
        return [_ode(m)(f, 1.0, t, mxstep=n) for n in (1, 2, 3)] + [_ode(m)(f, 1.0, t, hmax=0.01)]

    # mxstep=1 extrapolates the first step's quartic far past the step (s ~ 500), which
    # magnifies rounding.
    out = same(build, rtol=1e-7, atol=1e-12)
    # Stopped after one step towards each time: far from exp(-t); hmax=0.01: accurate.
    assert abs(float(out[0][2]) - np.exp(-1.0)) > 1e-3
    assert abs(float(out[3][2]) - np.exp(-1.0)) < 1e-12


def test_pytree_state_and_complex():
    def build(m):
        t = m.jnp.linspace(0.0, 1.0, 4)
        y0 = {"a": m.jnp.ones(2), "b": (m.jnp.zeros(()), m.jnp.ones((1, 1)))}
        f = lambda y, t: {"a": -y["a"], "b": (m.jnp.sum(y["a"]), 2.0 * y["b"][1])}  # noqa: E731
        c = _ode(m)(lambda y, t: -1j * y, m.jnp.ones(2, m.jnp.complex64), t)
        return _ode(m)(f, y0, t), c

    tree, c = same(build, rtol=1e-4, atol=1e-5)
    assert tree["b"][1].shape == (4, 1, 1) and c.dtype == np.complex64
    np.testing.assert_allclose(tree["a"][:, 0], np.exp(-np.linspace(0, 1, 4)), rtol=1e-5)
    np.testing.assert_allclose(c[:, 0], np.exp(-1j * np.linspace(0, 1, 4)), rtol=1e-5)


# -------------------------------------------------------------------------- gradients
def _lv_loss_builder(m, wrap):
    def lv(y, t, p):
        x, z = y["x"], y["z"]
        return {"x": p["a"] * x - p["b"] * x * z, "z": p["d"] * x * z - p["c"] * z}

    def loss(y0, t, p):
        ys = _ode(m)(lv, y0, t, p)
        return m.jnp.sum(ys["x"] ** 2) + m.jnp.sum(ys["z"])

    p = {k: m.jnp.asarray(v) for k, v in dict(a=1.5, b=1.0, c=3.0, d=1.0).items()}
    y0 = {"x": m.jnp.array(1.0), "z": m.jnp.array(1.0)}
    return wrap(m.jx.grad(loss, (0, 1, 2)))(y0, m.jnp.linspace(0.0, 2.0, 5), p)


@pytest.mark.parametrize("x64", [False, True], ids=["float32", "float64"])
@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
def test_grad_in_y0_t_args_agrees_with_jax(x64, jit):
    set_x64(x64)
    tol = dict(rtol=1e-11, atol=1e-12) if x64 else dict(rtol=2e-5, atol=1e-5)
    g = same(lambda m: _lv_loss_builder(m, m.jx.jit if jit else (lambda f: f)), **tol)
    assert set(g[2]) == {"a", "b", "c", "d"} and g[1].shape == (5,)


def test_grad_against_closed_forms():
    set_x64(True)
    t = jnp.linspace(0.0, 2.0, 5)
    # y(t) = y0 exp(-k (t - t_0)): d/dy0 = exp(-k t), d/dk = -t y0 exp(-k t), d/dt_i = -k y(t_i)
    # for i >= 1, and d/dt_0 = k * sum_{i >= 1} y(t_i) (moving the start shifts the rest).
    k, y0 = 0.7, 1.3
    gy0, gt, gk = jax.grad(lambda y0, t, k: odeint(decay, y0, t, k).sum(), (0, 1, 2))(y0, t, k)
    tn = np.asarray(t)
    np.testing.assert_allclose(gy0, np.exp(-k * tn).sum(), rtol=1e-7)
    np.testing.assert_allclose(gk, (-tn * y0 * np.exp(-k * tn)).sum(), rtol=1e-7)
    expected_t = -k * y0 * np.exp(-k * tn)
    expected_t[0] = k * y0 * np.exp(-k * tn[1:]).sum()
    np.testing.assert_allclose(gt, expected_t, rtol=1e-7, atol=1e-12)


def test_grad_of_closed_over_value_vmap_and_higher_order():
    set_x64(True)

    def build(m):
        t = m.jnp.linspace(0.0, 2.0, 5)
        w = m.jnp.array(2.0)
        ode = _ode(m)

        def closed(w):
            f = lambda y, t: -w * y * m.jnp.sin(t)  # noqa: E731
            return ode(f, m.jnp.ones(3), t)[-1].sum()

        def end(k):
            return ode(lambda y, t, k: -k * y, 1.0, t, k)[-1]

        def rotate(y0):
            return ode(lambda y, t: m.jnp.stack([y[1], -y[0]]), y0, t)

        return (
            m.jx.grad(closed)(w),
            m.jx.vmap(m.jx.grad(end))(m.jnp.array([0.5, 1.0, 2.0])),
            m.jx.grad(m.jx.grad(end))(m.jnp.array(0.7)),
            m.jx.jacrev(rotate)(m.jnp.array([1.0, 0.0])),
            m.jx.vmap(lambda k: ode(decay, m.jnp.array([1.0]), t, k))(m.jnp.array([0.5, 1.0])),
        )

    closed, vgrad, second, jac, batched = same(build, rtol=1e-10, atol=1e-12)
    # Against closed forms, to within the solver's default tolerances (1.4e-8 per step).
    # closed form: y(T) = exp(w (cos T - 1)); d/dw = (cos T - 1) y(T), three components.
    np.testing.assert_allclose(
        closed, 3 * (np.cos(2.0) - 1) * np.exp(2.0 * (np.cos(2.0) - 1)), rtol=1e-6
    )
    np.testing.assert_allclose(vgrad, -2.0 * np.exp(-2.0 * np.array([0.5, 1.0, 2.0])), rtol=1e-6)
    np.testing.assert_allclose(second, 4.0 * np.exp(-1.4), rtol=1e-6)
    np.testing.assert_allclose(
        jac[-1], [[np.cos(2.0), np.sin(2.0)], [-np.sin(2.0), np.cos(2.0)]], rtol=1e-6
    )
    np.testing.assert_allclose(batched[1, :, 0], np.exp(-np.linspace(0, 2, 5)), rtol=1e-6)


def test_forward_mode_is_refused_as_in_jax():
    # odeint is a custom_vjp function: jvp raises TypeError in JAX too.
    def build(m):
        f = lambda k: _ode(m)(decay, 1.0, m.jnp.linspace(0.0, 1.0, 3), k)  # noqa: E731
        return m.jx.jvp(f, (m.jnp.array(0.7),), (m.jnp.array(1.0),))

    err = same(build)
    assert isinstance(err, TypeError)


# ------------------------------------------------------------------------- bad input
BAD = {
    "string_arg": lambda m, t: _ode(m)(lambda y, t, a: -y, 1.0, t, "str"),
    "function_arg": lambda m, t: _ode(m)(lambda y, t, a: -y, 1.0, t, abs),
    "integer_times": lambda m, t: _ode(m)(lambda y, t: -y, 1.0, m.jnp.arange(3)),
    "list_times": lambda m, t: _ode(m)(lambda y, t: -y, 1.0, [0.0, 1.0]),
    "scalar_times": lambda m, t: _ode(m)(lambda y, t: -y, 1.0, m.jnp.float32(1.0)),
    "empty_times": lambda m, t: _ode(m)(lambda y, t: -y, 1.0, m.jnp.zeros(0)),
    "wrong_shape": lambda m, t: _ode(m)(lambda y, t: m.jnp.ones(3), m.jnp.ones(2), t),
    "wrong_structure": lambda m, t: _ode(m)(lambda y, t: (y, y), m.jnp.ones(2), t),
    "missing_key": lambda m, t: _ode(m)(
        lambda y, t: {"a": y["a"]}, {"a": m.jnp.ones(2), "b": m.jnp.ones(())}, t
    ),
    "integer_y0": lambda m, t: _ode(m)(lambda y, t: -y, m.jnp.ones(2, m.jnp.int32), t),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_raises_jaxs_exception_class(case):
    err = same(lambda m: BAD[case](m, m.jnp.linspace(0.0, 1.0, 3)))
    assert isinstance(err, (TypeError, AttributeError, IndexError)), err


def test_bad_args_message_is_jaxs():
    with pytest.raises(
        TypeError,
        match=r"^The contents of odeint \*args must be arrays or "
        r"scalars, but got str\.$",
    ):
        odeint(lambda y, t, a: -y, 1.0, jnp.linspace(0.0, 1.0, 3), "str")
    with pytest.raises(TypeError, match=r"^t must be an array of floats, but got \[0 1 2\]\.$"):
        odeint(lambda y, t: -y, 1.0, jnp.arange(3))


@pytest.mark.parametrize(
    "x64_case",
    ["f32_state_f64_derivative", "f64_state_f32_times", "f32_state_times_f64_derivative"],
)
def test_dtype_mixtures_under_x64_match_jax(x64_case):
    set_x64(True)

    def build(m):
        t64 = m.jnp.linspace(0.0, 1.0, 3)
        ode = _ode(m)
        if x64_case == "f32_state_f64_derivative":
            return ode(lambda y, t: -y.astype(m.jnp.float64), m.jnp.ones(2, m.jnp.float32), t64)
        if x64_case == "f64_state_f32_times":
            return ode(lambda y, t: -y, m.jnp.ones(2), t64.astype(m.jnp.float32))
        return ode(lambda y, t: -y * t, m.jnp.ones(2, m.jnp.float32), t64)

    assert isinstance(same(build), TypeError)


def test_accepted_dtype_mixtures_under_x64_match_jax():
    set_x64(True)

    def build(m):
        t64 = m.jnp.linspace(0.0, 1.0, 3)
        ode = _ode(m)
        return (
            ode(lambda y, t: -y.astype(m.jnp.float32), m.jnp.ones(2), t64),  # narrower f
            ode(lambda y, t: -y, m.jnp.ones(2, m.jnp.float32), t64),  # wider times
        )

    a, b = same(build, rtol=1e-6, atol=1e-7)
    assert a.dtype == np.float64 and b.dtype == np.float32


@pytest.mark.jaxlite_only
def test_integer_derivative_is_an_error():
    # JAX 0.10.2 integrates an integer-valued func into NaNs; jaxlite refuses it
    # (docs/compat.md).
    with pytest.raises(TypeError, match="floating-point or complex"):
        odeint(lambda y, t: y.astype(jnp.int32), jnp.ones(2), jnp.linspace(0.0, 1.0, 3))


@pytest.mark.jaxlite_only
def test_structure_error_names_both_structures():
    # JAX's error is a broadcasting TypeError from inside the solver (same class).
    with pytest.raises(
        TypeError,
        match=r"same pytree structure and shapes as y0 = "
        r"float32\[2\], but it returned float32\[3\]",
    ):
        odeint(lambda y, t: jnp.ones(3), jnp.ones(2), jnp.linspace(0.0, 1.0, 3))


@pytest.mark.jaxlite_only
def test_module_is_served_as_jax_experimental_ode():
    script = (
        "import jaxlite; jaxlite.install_as_jax()\n"
        "import jax, jax.numpy as jnp\n"
        "from jax.experimental.ode import odeint\n"
        "import jaxlite.experimental.ode as lite\n"
        "assert odeint is lite.odeint\n"
        "print(float(odeint(lambda y, t: -y, 1.0, jnp.linspace(0., 1., 2))[1]))\n"
    )
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert abs(float(out.stdout.split()[-1]) - np.exp(-1.0)) < 1e-6
