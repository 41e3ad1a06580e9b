"""Structured control flow: ``cond``/``switch`` (``cond.py``, cond_p), ``while_loop``/
``fori_loop`` (``while_loop.py``, while_p) and ``scan``/``map``/``associative_scan``
(``scan.py``, scan_p). Each primitive keeps all its rules in its own module; the public
names are re-exported by ``jaxlite.lax``."""

from jaxlite._src.control_flow import (
    cond as _cond,  # noqa: F401 (registers the rules)
    scan as _scan,  # noqa: F401
    while_loop as _while_loop,  # noqa: F401
)
