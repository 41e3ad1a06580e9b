"""``jax.scipy.optimize.minimize`` (BFGS and the experimental L-BFGS) against real JAX:
every ``OptimizeResults`` field (the iteration and evaluation counts exactly, the status
codes including line-search failures, values to float32 tolerance), options, ``args``,
the errors, ``jit`` and ``vmap``; and the private strong-Wolfe ``line_search`` against
JAX's private one.

JAX's results of the cases (minimize_cases.py) are recorded in jax_reference.npz
(make_jax_reference.py), since JAX compiles every case anew (minutes on this machine);
``test_live_sample`` re-runs a sample on the installed JAX every time, checking both that the
recording is JAX's output and jaxlite against it."""

from __future__ import annotations

import pathlib
import types

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.scipy.optimize as jo  # noqa: E402

import jaxlite  # noqa: E402
import jaxlite.scipy.optimize as lo  # noqa: E402

from . import minimize_cases as mc  # noqa: E402
from .minimize_cases import BFGS, F32, LBFGS, himmelblau, quadratic, rosenbrock  # noqa: E402

jax.config.update("jax_platforms", "cpu")

COUNTS = ("success", "status", "nfev", "njev", "nit")
RECORDED = np.load(pathlib.Path(__file__).with_name("jax_reference.npz"))


def recorded(name):
    """JAX's result of case ``name``, as recorded: an object with ``_fields`` and the
    fields as attributes (``None`` where JAX's was)."""
    fields = tuple(str(f) for f in RECORDED[f"{name}|_fields"])
    vals = {f: None if f"{name}|{f}|none" in RECORDED else RECORDED[f"{name}|{f}"] for f in fields}
    return types.SimpleNamespace(_fields=fields, **vals)


def _check(lite, ref, what, rtol=1e-3, atol=1e-4):
    """Counts exactly; arrays to ``rtol`` and ``atol`` times their largest magnitude (the
    float32 products are summed in another order than XLA's; near a line-search failure
    the gradient of Rosenbrock-like functions cancels to 1e-3 relative)."""
    assert type(lite).__name__ == "OptimizeResults"
    assert lite._fields == ref._fields
    for field in ref._fields:
        a, b = getattr(lite, field), getattr(ref, field)
        if b is None:
            assert a is None, f"{what}: {field}"
            continue
        a, b = np.asarray(a), np.asarray(b)
        assert a.dtype == b.dtype and a.shape == b.shape, f"{what}: {field} {a.dtype} {b.dtype}"
        if field in COUNTS:
            np.testing.assert_array_equal(a, b, err_msg=f"{what}: {field}")
        else:
            scale = atol * max(1.0, float(np.max(np.abs(b), initial=0.0)))
            np.testing.assert_allclose(a, b, rtol=rtol, atol=scale, err_msg=f"{what}: {field}")


@pytest.mark.parametrize("name", mc.MINIMIZE)
def test_minimize_matches_jax(name):
    lite = mc.run(name, jaxlite)
    _check(lite, recorded(name), name)


def test_args_and_method_case():
    lite = mc.run("args", jaxlite, tol=1e-3)
    _check(lite, recorded("args"), "args")


@pytest.mark.parametrize(
    "kwargs,exc,msg",
    [
        ({"method": "nope"}, ValueError, "Method nope not recognized"),
        (
            {"method": BFGS, "args": [1.0]},
            TypeError,
            "args argument to jax.scipy.optimize.minimize must be a tuple, got [1.0]",
        ),
        ({"method": BFGS, "options": {"bogus": 1}}, TypeError, "bogus"),
    ],
)
def test_errors(kwargs, exc, msg):
    x0 = np.zeros(2, F32)
    with pytest.raises(exc) as ref:
        jo.minimize(quadratic(jax), np.zeros(3, F32), **kwargs)
    with pytest.raises(exc) as lite:
        lo.minimize(quadratic(jaxlite), np.zeros(3, F32), **kwargs)
    del x0
    assert msg in str(ref.value) and msg in str(lite.value)


@pytest.mark.parametrize("method", [BFGS, LBFGS])
def test_jit_and_vmap(method):
    x0 = np.array([-1.2, 1.0], F32)
    eager = lo.minimize(rosenbrock(jaxlite), x0, method=method)
    jitted = jaxlite.jit(lambda x: lo.minimize(rosenbrock(jaxlite), x, method=method))(x0)
    _check(jitted, eager, "jit", rtol=1e-6, atol=1e-7)
    starts = np.array([[-1.2, 1.0], [0.5, 0.5], [2.0, -1.0]], F32)
    batched = jaxlite.vmap(lambda x: lo.minimize(himmelblau(jaxlite), x, method=method))(starts)
    for i, x in enumerate(starts):
        one = lo.minimize(himmelblau(jaxlite), x, method=method)
        got = type(one)(*(None if v is None else np.asarray(v)[i] for v in batched))
        _check(got, one, f"vmap row {i}", rtol=1e-5, atol=1e-6)


def _check_line_search(lite, ref):
    assert lite._fields == ref._fields
    for field in ref._fields:
        a, b = np.asarray(getattr(lite, field)), np.asarray(getattr(ref, field))
        assert a.dtype == b.dtype, field
        np.testing.assert_allclose(a, b, rtol=2e-5, atol=1e-6, err_msg=field)


@pytest.mark.parametrize("name", mc.LINE_SEARCH)
def test_line_search_matches_jax_private(name):
    _check_line_search(mc.run(name, jaxlite), recorded(name))


LIVE = ["BFGS-quadratic-4", "line_search-himmelblau-3"]


@pytest.mark.parametrize("name", LIVE)
def test_live_sample(name):
    live, want = mc.run(name, jax), recorded(name)
    assert tuple(live._fields) == want._fields
    for field in want._fields:
        a, w = getattr(live, field), getattr(want, field)
        if w is None:
            assert a is None, field
        else:
            a = np.asarray(a)
            assert a.dtype == w.dtype, field
            np.testing.assert_array_equal(a, w, err_msg=field)  # the recording is JAX's
    lite = mc.run(name, jaxlite)
    if name.startswith("line_search"):
        _check_line_search(lite, live)
    else:
        _check(lite, live, name)
