"""Hooks through which the sharding layer (``_src/sharding``, above) sees eager and jitted
results, so the core never imports it.

* ``eval_outputs(primitive, args, outs, params)``: set by ``_src/sharding/explicit.py``
  (over ``array.py``'s generic rule); the eval trace calls it when an operand is a sharded
  array (a subclass of ``ArrayImpl``), to give the results their shardings (S7.4, S8) and
  check device compatibility (S5.5).
* ``staging_outputs(trace, primitive, args, avals_in, avals_out, params, outvars)``: the
  staging trace calls it when a value it holds has a sharding (``trace.shardings``) or the
  primitive is in ``sharding_primitives``: it records the results' shardings (S8.1 under jit).
* ``trace_shardings(flat_args)``: jit's cache key part for Explicit-sharded arguments
  (None when there are none); they are the traced arguments' shardings.
* ``check_callback``, ``callback_wrap``: see below (callbacks under sharding, K).
* ``jit_call(wrapped, closed, flat_args, run)``: the jit front end calls it instead of
  ``run(values)`` when an argument is sharded, the jaxpr contains a primitive in
  ``sharding_primitives``, or the function has ``in_shardings``/``out_shardings``.
"""

from __future__ import annotations

from typing import Any

eval_outputs: Any = None
# ``aval_sharding(aval)``: ``ShapedArray.sharding``, the replicated sharding over the context's
# abstract mesh (set by ``_src/sharding/explicit.py``).
aval_sharding: Any = None
# ``eval_check(primitive, args, vals, params)``: called before an eager primitive with a
# sharded operand runs; None, or replacement operand values when an operand spans other
# processes and the primitive needs their blocks too (``_src/sharding/multiprocess.py``);
# it also raises K10 for eager control flow over several devices (``callbacks_k.py``).
eval_check: Any = None
jit_call: Any = None
# ``eager_wrap(primitive, args, params, impl, vals)``: runs ``impl(*vals, **params)`` for an
# eager primitive of ``eager_wrapped`` (names: cond, while, scan, jit) with a placed operand, as
# JAX's jit of it would (partitioned debug callbacks per device, K7).
eager_wrap: Any = None
eager_wrapped: set = set()
staging_outputs: Any = None
# ``apply_out_sharding(fn, out_sharding, *args)``: ``fn(*args)`` placed by ``out_sharding=``
# (lax.reshape, lax.dot_general...), set by sharding/explicit.py.
apply_out_sharding: Any = None
trace_shardings: Any = lambda flat: None
# ``place_created(x, sharding)``: a freshly created ``x`` placed by ``sharding`` (a device,
# ``Sharding`` or ``P``), as ``lax.full(sharding=)`` places it; set by sharding/explicit.py.
place_created: Any = None
# ``check_callback(api, sharding, args)``: validate a host callback's ``sharding=`` (K2, K5).
check_callback: Any = None
# ``callback_wrap(fn, args, kwargs)``: set once a mesh context has been used; runs a host
# callback with the mesh context cleared (K13). ``None`` (the common case) costs nothing.
callback_wrap: Any = None
# ``run_sharded(args, **shard_map_params)``: run a shard_map on concrete (sharded) arrays,
# per-device buffers in and out (set by ``_src/sharding/shard_map.py``).
run_sharded: Any = None
# Primitives whose outputs carry a sharding (shard_map, with_sharding_constraint...).
sharding_primitives: set = set()
# Under a global-view jit: HostFn -> per-device index tuples of its operands (K7).
partitioned_plans: dict = {}
