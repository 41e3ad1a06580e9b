"""Re-run the minimized repro scripts of a fuzz run on the current code: which failures
are fixed, documented (``KNOWN``) or still there. ``python -m tests.fuzz --recheck DIR``.

A repro is plain Python over ``jaxlite``; JAX's side runs the same text with the imports
swapped (eagerly: the reference). Test-harness code only.
"""

from __future__ import annotations

import contextlib
import re
import warnings

from tests.fuzz.driver import JIT_EAGER_TOPIC
from tests.fuzz.runner import Outcome, _leaf, compare, known

_SWAP = [
    ("import jaxlite as jax\n", "import jax\n"),
    ("import jaxlite.numpy as jnp\n", "import jax.numpy as jnp\n"),
    ("from jaxlite import lax\n", "from jax import lax\n"),
    ("import jaxlite.scipy.special\n", "import jax.scipy.special\n"),
]


def _exec(src, flatten, context=contextlib.nullcontext):
    src = src.replace("\nprint(out)\n", "\n")
    g: dict = {}
    try:
        with warnings.catch_warnings(), context():
            warnings.simplefilter("ignore")
            exec(src, g)  # noqa: S102 (test side: the fuzzer's own generated text)
            leaves = [_leaf(x) for x in flatten(g["out"])]
    except Exception as e:
        return Outcome(False, exc=e)
    return Outcome(True, leaves=leaves)


def recheck(failures):
    """``[(signature, status, detail)]`` for each ``{"signature", "repro"}`` in
    ``failures``; status is ``fixed``, ``documented: <topic>`` or ``remains``. The
    driver's rules apply: float16/bfloat16 programs at those dtypes' tolerance, and JAX
    disagreeing with itself (its result without jit is jaxlite's) is documented."""
    import jax
    import jax.tree_util

    import jaxlite.tree_util

    jax.config.update("jax_platforms", "cpu")
    out = []
    for f in failures:
        lite_src = f["repro"]
        jax_src = lite_src
        for a, b in _SWAP:
            jax_src = jax_src.replace(a, b)
        low = "float16" in lite_src  # also bfloat16
        mine = _exec(lite_src, jaxlite.tree_util.tree_leaves)
        got = compare(mine, _exec(jax_src, jax.tree_util.tree_leaves), low)
        if got is None:
            out.append((f["signature"], "fixed", ""))
            continue
        topic = known(*got, lite_src)
        if topic is None and "jax.jit(" in lite_src:
            eager = _exec(jax_src, jax.tree_util.tree_leaves, jax.disable_jit)
            topic = JIT_EAGER_TOPIC if compare(mine, eager, low) is None else None
        status = f"documented: {topic}" if topic else "remains"
        detail = re.sub(r"\s+", " ", got[1])[:200]
        out.append((f["signature"], status, f"{got[0]}: {detail}"))
    return out
