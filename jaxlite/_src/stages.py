"""Small types of ``jax.stages``."""

from __future__ import annotations

import dataclasses
from typing import Any


@dataclasses.dataclass(frozen=True)
class ArgInfo:
    """The abstract value of an argument and whether it is donated (``jax.stages.ArgInfo``)."""

    _aval: Any
    donated: bool

    @property
    def shape(self):
        return self._aval.shape

    @property
    def dtype(self):
        return self._aval.dtype
