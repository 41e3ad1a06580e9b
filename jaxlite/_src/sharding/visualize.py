"""``jax.debug.visualize_array_sharding`` and ``inspect_array_sharding`` (S6).

The picture is a grid with one cell per distinct block of the array, labelled with the
devices holding it, drawn by ``rich`` (an optional dependency) with the layout rule of
S6.2: cells are scaled from a base of 10 lines by the block's fraction of each dimension.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jaxlite._src.core import effects as _effects, rules, sharding_hooks
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.trace import Tracer
from jaxlite._src.sharding import array as _arr, jit_shardings
from jaxlite._src.sharding.jit_shardings import sharding_rules
from jaxlite._src.sharding.specs import Sharding
from jaxlite._src.util import LazyModule

# rich is optional and only the picture needs it: imported at the first drawing, not with jaxlite.
rich: LazyModule | None = LazyModule("rich", ("align", "box", "console", "padding", "table"))
if not rich.available:  # pragma: no cover (exercised where rich is absent)
    rich = None


def _blocks(sharding: Sharding, shape: tuple) -> dict:
    """(row range, col range) -> sorted device ids, in row-major block order."""
    out: dict = {}
    for dev, idx in sharding.devices_indices_map(tuple(shape)).items():
        key = tuple(
            (0 if s.start is None else s.start, n if s.stop is None else s.stop)
            for s, n in zip(idx, shape)
        )
        out.setdefault(key, []).append(dev.id)
    return dict(sorted(out.items()))


def visualize_sharding(
    shape: tuple,
    sharding: Sharding,
    *,
    use_color: bool = False,
    scale=1.0,
    min_width: int = 9,
    max_width: int = 80,
    color_map=None,
) -> None:
    """Print the blocks of a rank-1 or rank-2 array of ``shape`` placed by ``sharding``.

    Raises:
        ValueError: without ``rich``, or for ranks other than 1 and 2.
    """
    if rich is None:
        raise ValueError("`visualize_sharding` requires `rich` to be installed.")
    if len(shape) not in (1, 2):
        raise ValueError("`visualize_sharding` only works for shapes with 1 and 2 dimensions.")
    shape2 = (1, shape[0]) if len(shape) == 1 else tuple(shape)
    blocks = _blocks(sharding, tuple(shape))
    if len(shape) == 1:
        blocks = {((0, 1), k[0]): v for k, v in blocks.items()}
    base_height = int(10 * scale)
    aspect = shape2[1] / shape2[0] if len(shape) == 2 else 1 / shape[0]
    base_width = int(base_height * aspect)
    rows = sorted({k[0] for k in blocks})
    cols = sorted({k[1] for k in blocks})
    table = rich.table.Table(
        show_header=False,
        show_lines=True,
        padding=0,
        highlight=False,
        pad_edge=False,
        box=rich.box.SQUARE,
    )
    for _ in cols:
        table.add_column()
    for r in rows:
        cells = []
        for c in cols:
            ids = blocks[(r, c)]
            label = "CPU " + ",".join(map(str, sorted(ids)))
            wfrac = (c[1] - c[0]) / shape2[1]
            hfrac = (r[1] - r[0]) / shape2[0]
            width = min(max(int(wfrac * base_width * 2.5), min_width), max_width)
            height = 1 if len(shape) == 1 else int(hfrac * base_height)
            left = (width - len(label) - 2) // 2
            right = left + (width - len(label) - 2) % 2
            top = (height - 2) // 2
            bottom = top + (height - 2) % 2
            pad = (max(top, 0), max(right, 0), max(bottom, 0), max(left, 0))
            cells.append(
                rich.padding.Padding(rich.align.Align(label, "center", vertical="middle"), pad)
            )
        table.add_row(*cells)
    console = rich.console.Console(width=max_width)
    console.print(table)


# ------------------------------------------------------------------ under transformations
class InspectShardingEffect(_effects.Effect):
    """Keeps an ``inspect_sharding`` equation alive (it has no outputs)."""


for _sets in (
    _effects.control_flow_allowed_effects,
    _effects.custom_derivatives_allowed_effects,
    _effects.remat_allowed_effects,
    _effects.batched_cond_allowed_effects,
):
    _sets.add_type(InspectShardingEffect)

# ``inspect_sharding_p``: calls ``callback(sharding)`` with the sharding a traced value gets
# in the global-view computation, when that computation is placed (JAX: when it is
# compiled), once per compiled function and input placement; at run time it does nothing.
inspect_sharding_p = Primitive("inspect_sharding", multiple_results=True)
sharding_hooks.sharding_primitives.add(inspect_sharding_p)
rules.impl_rules[inspect_sharding_p] = lambda x, *, callback: []
rules.abstract_eval_rules[inspect_sharding_p] = lambda x, *, callback: []
rules.effects_rules[inspect_sharding_p] = lambda x, *, callback: {InspectShardingEffect()}


def _inspect_jvp(primals, tangents, *, callback):
    _inspect(primals[0], callback)
    return [], []


def _inspect_batch(axis_data, args, dims, *, callback):
    _inspect(args[0], callback)
    return [], []


def _inspect_rule(eqn, ins):
    # A placement rule: also asked while staging (explicit-mode types), when it must not
    # report; it reports when the jitted computation is placed.
    if jit_shardings.placing():
        s = getattr(ins[0], "_sharding", ins[0])
        eqn.params["callback"](_arr.sharding_of(None) if s is None else s)
    return []


rules.jvp_rules[inspect_sharding_p] = _inspect_jvp
rules.batch_rules[inspect_sharding_p] = _inspect_batch
sharding_rules[inspect_sharding_p] = _inspect_rule


def _inspect(x: Any, callback: Callable) -> None:
    if isinstance(x, Tracer):
        inspect_sharding_p.bind(x, callback=callback)
    else:
        callback(_arr.sharding_of(x))


def visualize_array_sharding(arr: Any, **kwargs) -> None:
    """Print how ``arr`` (rank 1 or 2) is split over devices
    (``jax.debug.visualize_array_sharding``).

    Eagerly it prints at once. Under ``jit`` it prints the sharding the traced value gets
    in the computation (from the arguments' shardings and ``with_sharding_constraint``),
    when the computation is compiled for those argument shardings (the first call), as
    JAX does; later calls print nothing.

    Raises:
        ValueError: without ``rich``, or for ranks other than 1 and 2.
    """
    shape = tuple(arr.shape)
    if rich is None:
        raise ValueError("`visualize_sharding` requires `rich` to be installed.")
    if len(shape) not in (1, 2):
        raise ValueError("`visualize_sharding` only works for shapes with 1 and 2 dimensions.")
    _inspect(arr, lambda s: visualize_sharding(shape, s, **kwargs))


def inspect_array_sharding(value: Any, *, callback: Callable) -> None:
    """Call ``callback(sharding)`` with the sharding of ``value``, an array
    (``jax.debug.inspect_array_sharding``): eagerly at once, under ``jit`` when the
    computation is compiled for its argument shardings (see ``visualize_array_sharding``)."""
    _inspect(value, callback)


__all__ = ["inspect_array_sharding", "visualize_array_sharding", "visualize_sharding"]
