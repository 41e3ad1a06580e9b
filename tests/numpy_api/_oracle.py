"""Shared helpers of the differential tests against real JAX: call both, compare results
(values, dtypes, shapes, weak types) or the errors raised (type and message)."""

from __future__ import annotations

import numpy as np


def outcome(fn):
    """``fn()``'s result, or the exception it raised."""
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 (the exception is the outcome compared)
        return e


def _leaves(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def assert_same(got, want, rtol=1e-6, atol=1e-6, check_weak=True):
    """``got`` (jaxlite) matches ``want`` (JAX): equal structure, dtypes, shapes, values
    within tolerance (NaNs equal), and weak types; or the same exception type and message."""
    if isinstance(want, Exception):
        assert isinstance(got, Exception), f"JAX raised {want!r}, jaxlite returned {got!r}"
        # The same class by name (JAX's own error classes), or a subclass (NumPy's AxisError
        # is a ValueError).
        assert type(got).__name__ == type(want).__name__ or isinstance(got, type(want)), (got, want)
        lines = str(want).splitlines()
        # A ConcretizationTypeError's first line names the tracer (printed differently);
        # its second line is the context the function gave.
        key = lines[1] if type(want).__name__ == "ConcretizationTypeError" else lines[0]
        assert key in str(got), (str(got), str(want))
        return
    assert not isinstance(got, Exception), f"jaxlite raised {got!r}, JAX returned {want!r}"
    if isinstance(want, (bool, int, float, str)) or want is None:
        assert got == want and type(got) is type(want), (got, want)
        return
    gl, wl = _leaves(got), _leaves(want)
    assert type(got) is type(want) or not isinstance(want, (list, tuple)), (type(got), type(want))
    assert len(gl) == len(wl), (got, want)
    for g, w in zip(gl, wl):
        if isinstance(w, (list, tuple)):
            assert_same(g, w, rtol, atol, check_weak)
            continue
        if check_weak and hasattr(w, "weak_type") and hasattr(g, "aval"):
            assert g.aval.weak_type == w.weak_type, ("weak_type", g, w)
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype, (g.dtype, w.dtype)
        assert g.shape == w.shape, (g.shape, w.shape)
        if w.dtype.kind == "V":
            continue
        if w.dtype.kind in "biu":
            np.testing.assert_array_equal(g, w)
        else:
            np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, equal_nan=True)


def check(lite_fn, jax_fn, rtol=1e-6, atol=1e-6, check_weak=True):
    """Run both and compare (see ``assert_same``)."""
    assert_same(outcome(lite_fn), outcome(jax_fn), rtol, atol, check_weak)
