"""Hooks through which the sharding layer (``_src/sharding``, above) sees eager and jitted
results, so the core never imports it.

* ``eval_outputs(primitive, args, outs)``: set by ``_src/sharding/array.py``; the eval trace
  calls it when an operand is a sharded array (a subclass of ``ArrayImpl``), to give the
  results their shardings (S7.4) and check device compatibility (S5.5).
* ``jit_call(wrapped, closed, flat_args, run)``: the jit front end calls it instead of
  ``run(values)`` when an argument is sharded, the jaxpr contains a primitive in
  ``sharding_primitives``, or the function has ``in_shardings``/``out_shardings``.
"""

from __future__ import annotations

from typing import Any

eval_outputs: Any = None
jit_call: Any = None
# Primitives whose outputs carry a sharding (shard_map, with_sharding_constraint...).
sharding_primitives: set = set()
