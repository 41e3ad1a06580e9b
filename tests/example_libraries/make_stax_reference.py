"""Record JAX's (eager) stax parameters for the networks of stax_nets.py.

Run from the repository root: ``python tests/example_libraries/make_stax_reference.py``
(needs JAX 0.10.2; eager JAX compiles every operation of the initializers, so this takes
minutes; test_stax.py only reads stax_reference.npz and checks one small init live).
"""

from __future__ import annotations

import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import stax_nets  # noqa: E402


def main() -> None:
    import jax
    from jax.example_libraries import stax

    jax.config.update("jax_platforms", "cpu")
    assert jax.__version__ == "0.10.2", jax.__version__
    arrays = {}
    for name, (make, in_shape) in stax_nets.NETS.items():
        shape, params = make(stax)[0](jax.random.key(stax_nets.seed(name)), in_shape)
        arrays[f"{name}|shape"] = np.array([int(d) for d in shape])
        for i, leaf in enumerate(jax.tree_util.tree_leaves(params)):
            arrays[f"{name}|{i}"] = np.asarray(leaf)
    np.savez_compressed(HERE / "stax_reference.npz", **arrays)
    print(f"{len(stax_nets.NETS)} networks recorded")


if __name__ == "__main__":
    main()
