"""NumPy kernels of elementwise primitives that need more than one NumPy call (no project
imports; ``elementwise.py`` binds them)."""

from __future__ import annotations

import numpy as np


def atan2(x, y):
    """``lax.atan2(x, y)``: ``arctan(x / y)`` in the quadrant of ``(y, x)``; for complex
    operands (as XLA) ``-i log((y + i x) / sqrt(x**2 + y**2))``, computed in complex128
    and rounded back (NaN where ``x**2 + y**2`` is 0)."""
    if not np.iscomplexobj(x):
        return np.arctan2(x, y)
    xd, yd = np.asarray(x, np.complex128), np.asarray(y, np.complex128)
    with np.errstate(all="ignore"):
        out = -1j * np.log((yd + 1j * xd) / np.sqrt(xd * xd + yd * yd))
    return out.astype(np.result_type(x, y))
