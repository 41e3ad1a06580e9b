"""``jnp.equal`` / ``not_equal`` / ``isclose`` (and ``==``/``!=``) on extended dtypes.

Arrays of an extended dtype (typed PRNG keys) compare through the dtype's own ``compare``:
keys are equal where all their words are, as in JAX, so ``jnp.equal(k1, k2)`` and
``jnp.isclose(k1, k2)`` (exact for a non-inexact dtype) answer as ``k1 == k2`` does. A key
compared with a non-key raises JAX's ``TypeError`` (``eq does not accept dtypes ...``).
"""

from __future__ import annotations

import functools
import inspect

from jaxlite._src import dtypes
from jaxlite._src.numpy import ufuncs


def extended_aware(f, op: str, name: str):
    """``f`` (the comparison ``name``) routed to the extended dtype's ``compare`` (``op``)."""

    sig = inspect.signature(f)

    @functools.wraps(f)  # f's signature: isclose's operands can be given as a=, b=, as JAX's
    def compare(*args, **kwargs):
        if len(args) >= 2:
            x, y = args[:2]
        else:
            x, y = list(sig.bind(*args, **kwargs).arguments.values())[:2]
        dx, dy = (getattr(v, "dtype", None) for v in (x, y))
        if dtypes.is_extended(dx) or dtypes.is_extended(dy):
            if dx != dy:
                shown = ", ".join(str(dtypes.dtype_and_weak_type(v)[0]) for v in (x, y))
                raise TypeError(f"{name} does not accept dtypes {shown}.")
            return dx.compare(op, x, y)
        return f(*args, **kwargs)

    return compare


equal = extended_aware(ufuncs.equal, "eq", "equal")
not_equal = extended_aware(ufuncs.not_equal, "ne", "not_equal")
isclose = extended_aware(ufuncs.isclose, "eq", "isclose")

__all__ = ["equal", "extended_aware", "isclose", "not_equal"]
