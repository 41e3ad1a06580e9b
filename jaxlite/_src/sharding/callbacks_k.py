"""Host callbacks under sharding (spec/callbacks.md section K).

Most of K holds by construction of the engine: a global-view computation computes on global
values, so a callback there runs once with the gathered value (K1, K6); a shard_map body
runs per device, so a callback there runs once per device with its shard (K3, K4, K11).
This module adds the checks and the cases that need shardings:

* ``sharding=`` (K2, K5): a ``SingleDeviceSharding`` (or a NamedSharding over a one-device
  mesh) in a global-view computation; anything else raises JAX's ``NotImplementedError``;
  inside shard_map it is refused, and partially manual shard_maps refuse pure/io callbacks;
* ``partitioned=True`` debug callbacks on sharded values run once per device on its shard
  under jit (K7; eagerly, as in JAX, they run once on the whole value);
* ordered debug effects in a staged computation over more than one device raise (K10);
  eagerly a shard_map runs them per device, in device order, as JAX does.
"""

from __future__ import annotations

from jaxlite._src.core import effects as _effects, sharding_hooks
from jaxlite._src.ops import spmd
from jaxlite._src.sharding.specs import NamedSharding, SingleDeviceSharding


def check_callback(api: str, sharding) -> None:
    """Validate ``sharding=`` of a pure/io callback at its call site (K2, K5)."""
    if spmd.tracing_axes() or spmd.current() is not None:
        if spmd.tracing_partial():
            raise NotImplementedError(
                "callbacks are only supported in spmd computations when all mesh axes are "
                "partitioned manually (no partial automatic sharding)."
            )
        if sharding is not None:
            raise NotImplementedError(
                "callbacks do not support specifying sharding inside spmd computations"
            )
        return
    if sharding is None or isinstance(sharding, SingleDeviceSharding):
        return
    if isinstance(sharding, NamedSharding) and sharding.mesh.size == 1:
        return
    raise NotImplementedError(
        f"pure_callback only supports SingleDeviceSharding, but got {type(sharding)}"
    )


def jit_plans(jaxpr, placements) -> dict:
    """HostFn -> per-device operand indices, for the partitioned debug callbacks of a
    global-view jit whose operands are sharded (K7)."""
    plans = {}
    env = {id(v): p for v, p in zip(jaxpr.invars, placements)}
    for eqn in jaxpr.eqns:
        if eqn.primitive.name != "debug_callback" or not eqn.params.get("partitioned"):
            continue
        ps = [env.get(id(v)) for v in eqn.invars]
        ref = next(
            (p for p in ps if p is not None and isinstance(p._sharding, NamedSharding)), None
        )
        if ref is None:
            continue
        maps = [
            p._sharding.devices_indices_map(p.aval.shape)
            if p is not None and isinstance(p._sharding, NamedSharding)
            else None
            for p in ps
        ]
        devs = list(ref._sharding.devices_indices_map(ref.aval.shape))
        plans[eqn.params["callback"]] = [
            tuple(
                m[d] if m is not None else (slice(None),) * v.aval.ndim
                for m, v in zip(maps, eqn.invars)
            )
            for d in devs
        ]
    return plans


def check_ordered_effects(effects, n_devices: int) -> None:
    """K10: ordered debug effects cannot span more than one device."""
    if n_devices <= 1:
        return
    bad = [
        e for e in effects if _effects.ordered_effects.contains(e) and "Debug" in type(e).__name__
    ]
    if bad:
        raise ValueError(
            f"The following ordered effects are not supported for more than 1 device: {bad}"
        )


sharding_hooks.check_callback = check_callback

__all__ = ["check_callback", "check_ordered_effects", "jit_plans"]
