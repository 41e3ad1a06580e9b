"""The core: abstract values, the jaxpr IR, effects, primitives, traces and the rule tables."""
