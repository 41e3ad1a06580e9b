"""More ``jax.numpy`` type names: ``bool`` (the name JAX gives its boolean scalar type;
``bool_`` is the same object), NumPy's abstract ``object_``/``character``/``flexible``, and
ml_dtypes' 6-bit floats and 1-bit integers.

Kept apart from ``types.py`` because a module defining ``bool`` shadows the builtin.
"""

from __future__ import annotations

import ml_dtypes

import numpy as np
from jaxlite._src.numpy.types import _make, bool_

bool = bool_  # noqa: A001 (jnp.bool is jnp.bool_)

object_, character, flexible = np.object_, np.character, np.flexible

float6_e2m3fn = _make("float6_e2m3fn", ml_dtypes.float6_e2m3fn)
float6_e3m2fn = _make("float6_e3m2fn", ml_dtypes.float6_e3m2fn)
int1, uint1 = _make("int1", ml_dtypes.int1), _make("uint1", ml_dtypes.uint1)
