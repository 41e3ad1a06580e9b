"""Helpers shared by the tests (import as ``from helpers import close, rand``; tests/ is on
``sys.path`` through tests/conftest.py).

Numerical checks of transformations (``check_grads``, ``check_vmap``, ``assert_close``) are
in ``jaxlite._src.testing``; ``jaxlite.test_util.check_grads`` is the public one.
"""

from __future__ import annotations

import numpy as np

RTOL = 1e-5
ATOL = 1e-6


def close(actual, expected, rtol=RTOL, atol=ATOL):
    """``np.testing.assert_allclose`` on anything array-like (Arrays included)."""
    np.testing.assert_allclose(np.asarray(actual), np.asarray(expected), rtol=rtol, atol=atol)


def rand(*shape, seed=0):
    """Uniform(-1, 1) float32 values of ``shape``, reproducible by ``seed``."""
    return np.random.RandomState(seed).uniform(-1.0, 1.0, size=shape).astype(np.float32)
