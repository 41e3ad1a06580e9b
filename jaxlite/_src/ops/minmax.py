"""NumPy kernels of ``max_p`` / ``min_p`` (no project imports).

Real operands are NumPy's ``maximum`` / ``minimum`` (NaN propagates, as in XLA). Complex
operands follow XLA's complex max/min: lexicographic on (real, imag), and the second
operand unless the first compares strictly greater (less), so a comparison with a NaN part
picks the second operand instead of propagating the NaN.
"""

from __future__ import annotations

import numpy as np


def _complex_pick(x, y, greater):
    xr, yr = np.real(x), np.real(y)
    cmp = np.greater if greater else np.less
    with np.errstate(invalid="ignore"):
        take_x = cmp(xr, yr) | ((xr == yr) & cmp(np.imag(x), np.imag(y)))
    return np.where(take_x, x, y)


def max_impl(x, y):
    """``lax.max`` on NumPy values."""
    return _complex_pick(x, y, True) if np.iscomplexobj(x) else np.maximum(x, y)


def min_impl(x, y):
    """``lax.min`` on NumPy values."""
    return _complex_pick(x, y, False) if np.iscomplexobj(x) else np.minimum(x, y)
