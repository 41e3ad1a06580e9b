"""``jax.experimental.layout``: memory layouts of arrays.

jaxlite arrays are NumPy buffers in their default (row-major) layout, so a ``Layout``
is only a description: ``Layout(major_to_minor)``; ``Format(layout, sharding)`` pairs it
with a sharding, as JAX's APIs take them.
"""

from __future__ import annotations

import dataclasses
from typing import Any


@dataclasses.dataclass(frozen=True)
class Layout:
    """The order of an array's dimensions in memory, most major first (None: default)."""

    major_to_minor: tuple[int, ...] | None = None


@dataclasses.dataclass(frozen=True)
class Format:
    """A layout together with a sharding (``jax.experimental.layout.Format``)."""

    layout: Layout | None = None
    sharding: Any = None
