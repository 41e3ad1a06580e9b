"""ONE table of op specs (DESIGN.md section 7), split by family: each module adds its rows
to ``SPECS`` (``_base.py`` holds the row type and input drawing). It drives
tests/ops/test_ops_generic.py, tests/interpreters/test_vmap_op_specs.py and the native-tier
tests; tests/ops/test_spec_coverage.py checks every ops primitive is reached by a row.
"""

from __future__ import annotations

from . import (  # noqa: F401 (each module adds its rows, in this order)
    elementwise,
    indexing,
    lax,
    linalg,
    nn,
    numpy_api,
    numpy_more,
    reductions,
    scipy_special,
    shapes,
)
from ._base import SPECS, A, OpSpec, P, draw_args, draw_one

SPECS_BY_NAME = {}
for _s in SPECS:
    if _s.name in SPECS_BY_NAME:
        raise AssertionError(f"duplicate op spec name {_s.name}")
    SPECS_BY_NAME[_s.name] = _s

__all__ = ["SPECS", "SPECS_BY_NAME", "A", "OpSpec", "P", "draw_args", "draw_one"]
