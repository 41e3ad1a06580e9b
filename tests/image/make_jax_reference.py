"""Record the jax.image cases of cases.py from the installed JAX into jax_reference.npz.

Run from the repository root: ``python tests/image/make_jax_reference.py`` (needs JAX 0.10.2).
Every output is stored with its dtype's name; bfloat16 (which .npz cannot hold) is stored
as float32 values.
"""

from __future__ import annotations

import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import cases  # noqa: E402


def main() -> None:
    import jax
    import jax.image  # noqa: F401

    jax.config.update("jax_platforms", "cpu")
    assert jax.__version__ == "0.10.2", jax.__version__
    arrays = {}
    for name in cases.CASES:
        for i, a in enumerate(cases.run(name, jax)):
            arrays[f"{name}|{i}|dtype"] = np.array(str(a.dtype))
            arrays[f"{name}|{i}"] = a.astype(np.float32) if a.dtype.name == "bfloat16" else a
    np.savez_compressed(HERE / "jax_reference.npz", **arrays)
    print(f"{len(cases.CASES)} cases recorded")


if __name__ == "__main__":
    main()
