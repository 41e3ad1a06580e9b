"""Record JAX's side of test_linalg_weak_s9.py into linalg_weak_s9_reference.npz.

Run from the repository root: ``python tests/hunt/make_linalg_weak_s9_reference.py`` (needs
JAX 0.10.2). Signatures (dtype, weak_type, shape per output) are stored as their ``repr``.
"""

from __future__ import annotations

import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[1])]  # the test module, and jaxlite

import test_linalg_weak_s9  # noqa: E402


def main() -> None:
    import jax

    jax.config.update("jax_platforms", "cpu")
    assert jax.__version__ == "0.10.2", jax.__version__
    arrays = test_linalg_weak_s9.record()
    np.savez_compressed(HERE / "linalg_weak_s9_reference.npz", **arrays)
    print(f"{len(arrays)} entries recorded")


if __name__ == "__main__":
    main()
