"""jax.scipy.special polygamma/zeta/beta/factorial/comb/poch/gammasgn/gamma/loggamma/erfcx/
expi/exp1/expn/bernoulli and jax.lax polygamma/zeta against real JAX: values, dtypes, shapes
and weak types, eager and under jit, derivatives and vmap, JAX's errors."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.lax as JL  # noqa: E402
import jax.scipy.special as JS  # noqa: E402

import jaxlite  # noqa: E402
import jaxlite.lax as LL  # noqa: E402
import jaxlite.scipy.special as LS  # noqa: E402

from ._oracle import check  # noqa: E402

jax.config.update("jax_platforms", "cpu")

X = np.array([-2.5, -2.0, -1.5, -0.5, 0.0, 0.5, 1.0, 3.5], np.float32)
XP = np.array([0.1, 0.5, 1.0, 2.5, 7.0], np.float32)
EDGES = np.array([-0.0, 0.0, np.nan, -np.inf, np.inf, -3.5, -4.5, -1e-30, -2, 3], np.float32)


def both(name, *args, rtol=2e-5, atol=1e-6, **kw):
    check(
        lambda: getattr(LS, name)(*args, **kw),
        lambda: getattr(JS, name)(*args, **kw),
        rtol=rtol,
        atol=atol,
    )


CASES = [
    ("polygamma", (1, X), {}),
    ("polygamma", (np.array([0, 1, 2, 3, 0, 1, 2, 3]), X), {}),
    ("polygamma", (-1, X), {}),
    ("polygamma", (1, 3), {}),
    ("polygamma", (np.int32(1), 3.0), {}),
    ("polygamma", (1.5, X), {}),  # error: n must be integer
    ("polygamma", (1, 1j), {}),  # error: complex
    ("zeta", (2.0, 1.0), {}),
    ("zeta", (np.array([2, 3, 0.5, 1.0]), 2.0), {}),
    ("zeta", (3, np.array([1, 0.5, 2.5, -1.5])), {}),
    ("zeta", (2.0,), {}),  # error: Riemann zeta
    ("zeta", (2, 3), {}),
    ("gammasgn", (EDGES,), {}),
    ("gammasgn", (X,), {}),
    ("gammasgn", (1j,), {}),
    ("gamma", (EDGES,), {}),
    ("gamma", (X,), {}),
    ("loggamma", (X,), {}),
    ("loggamma", (2,), {}),
    ("beta", (np.float32(2.5), X), {"rtol": 1e-4}),
    ("beta", (2, 3), {}),
    ("beta", (1j, 2.0), {}),
    ("factorial", (np.array([-1, 0, 3, 4.5, 17]),), {"rtol": 1e-5}),
    ("factorial", (3,), {"exact": True}),
    ("factorial", (3,), {}),
    ("comb", (np.array([5, 5, 5.5, -1, 3]), np.array([2, 0, 2, 1, 5])), {"rtol": 1e-4}),
    ("comb", (np.array([5, 5, 5.5]), np.array([2, 0, 2])), {"repetition": True, "rtol": 1e-4}),
    ("comb", (5, 2), {"rtol": 1e-4}),
    ("poch", (X, np.float32(1.5)), {"rtol": 1e-4}),
    ("poch", (2, 3), {"rtol": 1e-4}),
    ("poch", (XP, 0.0), {}),
    ("poch", (1j, 0.0), {}),
    ("erfcx", (np.array([-30.0, -5, 0, 1e-3, 5, 30, 1e10], np.float32),), {}),
    ("erfcx", (1,), {}),
    ("exp1", (XP,), {}),
    ("exp1", (X,), {}),
    ("exp1", (2,), {}),
    ("expi", (XP,), {}),
    ("expi", (np.array([-30.0, -3, -0.5, 40.0], np.float32),), {}),
    ("expi", (1j,), {}),
    ("expn", (np.array([0, 1, 2, 3, 5, 10]), np.float32(1.5)), {}),
    ("expn", (2, XP), {}),
    ("expn", (2, 2), {}),
    ("expn", (np.array([-1, 1, 2]), np.array([1.0, -1.0, 0.5])), {}),
    ("bernoulli", (6,), {}),
    ("bernoulli", (0,), {}),
    ("bernoulli", (1,), {}),
    ("bernoulli", (20,), {"rtol": 1e-5}),
    ("bernoulli", (-1,), {}),
]


@pytest.mark.parametrize("name,args,kw", CASES, ids=[c[0] for c in CASES])
def test_special_values_match_jax(name, args, kw):
    both(name, *args, **kw)


@pytest.mark.parametrize(
    "name,args",
    [("polygamma", (2, X)), ("zeta", (3.0, XP)), ("expn", (2, XP)), ("gammasgn", (X,))],
)
def test_under_jit(name, args):
    check(
        lambda: jaxlite.jit(getattr(LS, name))(*args),
        lambda: jax.jit(getattr(JS, name))(*args),
        rtol=2e-5,
    )


def test_lax_polygamma_and_zeta():
    one = np.float32(1)
    check(lambda: LL.polygamma(one, X), lambda: JL.polygamma(one, X), rtol=2e-5)
    check(lambda: LL.polygamma(1, X), lambda: JL.polygamma(1, X))  # TypeError: int order
    check(lambda: LL.zeta(2.0, 3.0), lambda: JL.zeta(2.0, 3.0), rtol=2e-5)
    check(lambda: LL.zeta(2, 3.0), lambda: JL.zeta(2, 3.0))  # TypeError
    m = np.array([0.0, 1.0, 2.0], np.float32)
    check(
        lambda: jaxlite.vmap(LL.polygamma)(m, XP[:3]),
        lambda: jax.vmap(JL.polygamma)(m, XP[:3]),
        rtol=2e-5,
    )


# Gradient checks compare values and dtypes; jaxlite's gradients of Python-scalar inputs
# through custom JVPs are not always weakly typed where JAX's are (weak types not compared).
GRADS = [
    (lambda S: lambda x: S.polygamma(1, x), (2.0,)),
    (lambda S: lambda x, q: S.zeta(x, q), (3.0, 2.0)),
    (lambda S: lambda x, q: S.zeta(x, q), (2.5, 0.7)),
    (lambda S: lambda x, q: S.zeta(x, q), (5.0, 1.5)),
    (lambda S: lambda x, q: S.zeta(x, q), (1.5, 3.0)),
    (lambda S: S.poch, (2.0, 3.0)),
    (lambda S: S.beta, (2.0, 3.0)),
    (lambda S: S.comb, (5.0, 2.0)),
    (lambda S: S.factorial, (3.0,)),
    (lambda S: S.gamma, (-0.5,)),
    (lambda S: S.loggamma, (2.5,)),
    (lambda S: S.exp1, (2.0,)),
    (lambda S: S.expi, (2.0,)),
    (lambda S: S.erfcx, (0.5,)),
    (lambda S: lambda x: S.expn(2, x), (2.0,)),
]


@pytest.mark.parametrize("i", range(len(GRADS)))
def test_derivatives_match_jax(i):
    make, args = GRADS[i]
    argnums = tuple(range(len(args)))
    check(
        lambda: jaxlite.grad(make(LS), argnums=argnums)(*args),
        lambda: jax.grad(make(JS), argnums=argnums)(*args),
        rtol=1e-4,
        check_weak=False,
    )


@pytest.mark.parametrize("name", ["exp1", "expi", "erfcx", "gammasgn", "loggamma"])
def test_vmap(name):
    check(
        lambda: jaxlite.vmap(getattr(LS, name))(XP),
        lambda: jax.vmap(getattr(JS, name))(XP),
        rtol=2e-5,
    )


def test_lax_zeta_x_derivative_is_not_silently_zero():
    # JAX has no rule for it either: both raise NotImplementedError.
    with pytest.raises(NotImplementedError):
        jaxlite.grad(lambda x: LL.zeta(x, np.float32(2.0)))(np.float32(3.0))


@pytest.mark.jaxlite_only
def test_edge_values_follow_scipy_where_jax_differs():
    # E_n(0) = 1/(n-1) for n >= 2 (JAX returns 1/n); Ei(0) = -inf (JAX: NaN); zeta at a pole
    # of the shift is +inf (JAX: NaN); non-integer orders of expn give NaN (JAX evaluates
    # them). See docs/compat.md.
    np.testing.assert_allclose(np.asarray(LS.expn(np.array([2, 3, 5]), 0.0)), [1.0, 0.5, 0.25])
    assert np.asarray(LS.expi(0.0)) == -np.inf
    assert np.asarray(LS.zeta(3.0, -1.0)) == np.inf
    assert np.isnan(np.asarray(LS.expn(1.5, 2.0)))
