"""Primitives: inert names. What they mean lives in the rule tables (``core.rules``)."""

from __future__ import annotations

from jaxlite._src.core import trace as _trace


class Primitive:
    """A named operation. ``bind`` hands it to the current trace.

    Bind convention: array operands positional; metadata as hashable keyword params.
    """

    multiple_results = False

    def __init__(self, name: str, multiple_results: bool = False):
        self.name = name
        self.multiple_results = multiple_results

    def bind(self, *args, **params):
        return _trace.trace_ctx.trace.process_primitive(self, args, params)

    def bind_with_trace(self, trace, args, params):
        return trace.process_primitive(self, args, params)

    def __repr__(self):
        return self.name
