"""Record JAX's float32 ``exp``, ``log`` and ``tanh`` of a fixed set of operands into
xla_f32_transcendentals_s16.npz, the table test_xla_f32_transcendentals_s16.py checks
jaxlite against when JAX is not installed.

Run from the repository root: ``python tests/hunt/make_xla_f32_transcendentals_s16.py``
(needs JAX 0.10.2, on an x86-64 host with FMA). The operands (``operands()`` in the test
module) are special values, values at the functions' thresholds and a seeded sample of
bit patterns; the results are JAX's jitted ones, stored as bit patterns.
"""

from __future__ import annotations

import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[1])]

import test_xla_f32_transcendentals_s16 as t  # noqa: E402


def main() -> None:
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_platforms", "cpu")
    assert jax.__version__ == "0.10.2", jax.__version__
    x = t.operands()
    out = {"x": x.view(np.uint32)}
    for name in t.NAMES:
        out[name] = np.asarray(jax.jit(getattr(jnp, name))(x)).view(np.uint32)
    np.savez_compressed(HERE / "xla_f32_transcendentals_s16.npz", **out)
    print(f"{x.size} operands recorded")


if __name__ == "__main__":
    main()
