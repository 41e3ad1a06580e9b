"""Running one program under JAX and jaxlite and comparing the answers (the hunts'
differential oracle). ``build(m)`` receives a namespace ``m`` with ``jx`` (the library),
``jnp``, ``lax`` and ``sp`` (``scipy.special``); ``same`` runs it under both and compares
the raised exception's built-in class, or the results' structure, shapes, dtypes, weak
types, values and signs of zeros. Without JAX only jaxlite runs (the callers' own
known-value assertions still hold)."""

from __future__ import annotations

import numpy as np

import jaxlite
import jaxlite.numpy  # noqa: F401
import jaxlite.scipy.special  # noqa: F401

try:
    import jax
    import jax.numpy  # noqa: F401
    import jax.scipy.special  # noqa: F401
except ImportError:
    jax = None


class Mod:
    def __init__(self, jx):
        self.jx, self.jnp, self.lax, self.sp = jx, jx.numpy, jx.lax, jx.scipy.special


LITE = Mod(jaxlite)
JAX = Mod(jax) if jax is not None else None


def run(build, m):
    """``("ok", build(m))``, or ``("err", exception)`` where it raised."""
    try:
        return "ok", build(m)
    except Exception as e:  # noqa: BLE001 - the exception itself is compared
        return "err", e


def builtin_base(e):
    """The first built-in class in the exception's MRO (JAX's own classes derive from
    them)."""
    return next(c for c in type(e).__mro__ if c.__module__ == "builtins")


def same(build, rtol=1e-5, atol=1e-6, signs=True):
    """jaxlite's ``build(module)`` against JAX's (when JAX is importable); returns
    jaxlite's result (or exception). ``signs``: the signs of real zeros must agree too."""
    kb, b = run(build, LITE)
    if JAX is None:
        return b
    ka, a = run(build, JAX)
    assert ka == kb, (a, b)
    if ka == "err":
        assert builtin_base(a) is builtin_base(b), (a, b)
        return b
    la, lb = jax.tree_util.tree_leaves(a), jaxlite.tree_util.tree_leaves(b)
    assert len(la) == len(lb)
    for x, y in zip(la, lb):
        # a NumPy array where JAX returns one (jnp.reshape of a NumPy input, a float0
        # tangent; JAX's may be its ndarray subclass TypedNdArray)
        assert isinstance(x, np.ndarray) == isinstance(y, np.ndarray), (type(x), type(y))
        assert np.shape(x) == np.shape(y)
        assert str(x.dtype) == str(y.dtype)
        if not isinstance(x, np.ndarray):  # NumPy arrays have no weak type
            assert getattr(x, "weak_type", None) == getattr(y, "weak_type", None), (x, y)
        if "float0" in str(x.dtype):
            continue
        x, y = np.asarray(x), np.asarray(y)
        if x.dtype.kind in "fcV":
            np.testing.assert_allclose(y, x, rtol=rtol, atol=atol)
            if signs and x.dtype.kind == "f":
                z = x == 0
                np.testing.assert_array_equal(np.signbit(y[z]), np.signbit(x[z]))
        else:
            np.testing.assert_array_equal(y, x)
    return b
