"""Record JAX's results of the minimize_cases.py cases into jax_reference.npz, and JAX's
outputs of interp_vq_cases.py into interp_vq_reference.npz, and test_sparse_linalg.py's
``record()`` into sparse_linalg_reference.npz.

Run from the repository root: ``python tests/scipy_optimize/make_jax_reference.py`` (needs
JAX 0.10.2). Per case: ``<name>|_fields`` (the result's field names, in order), and per
field ``<name>|<field>`` (the value, in JAX's dtype) or ``<name>|<field>|none``; per
interpolation/vq output ``<name>|<i>`` (its i-th array).
"""

from __future__ import annotations

import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[1])]  # the cases, and jaxlite

import interp_vq_cases  # noqa: E402
import minimize_cases  # noqa: E402


def main() -> None:
    import jax

    jax.config.update("jax_platforms", "cpu")
    assert jax.__version__ == "0.10.2", jax.__version__
    arrays = {}
    for name in minimize_cases.SPECS:
        res = minimize_cases.run(name, jax)
        arrays[f"{name}|_fields"] = np.array(res._fields)
        for field in res._fields:
            v = getattr(res, field)
            if v is None:
                arrays[f"{name}|{field}|none"] = np.array(True)
            else:
                arrays[f"{name}|{field}"] = np.asarray(v)
    np.savez_compressed(HERE / "jax_reference.npz", **arrays)
    print(f"{len(minimize_cases.SPECS)} minimize/line_search cases recorded")
    arrays = {}
    for name, fn in interp_vq_cases.REFS.items():
        for i, a in enumerate(interp_vq_cases.outputs(fn(jax))):
            arrays[f"{name}|{i}"] = a
    np.savez_compressed(HERE / "interp_vq_reference.npz", **arrays)
    print(f"{len(interp_vq_cases.REFS)} interpolate/vq outputs recorded")
    import test_sparse_linalg

    arrays = test_sparse_linalg.record()
    np.savez_compressed(HERE / "sparse_linalg_reference.npz", **arrays)
    print(f"{len(arrays)} sparse.linalg arrays recorded")


if __name__ == "__main__":
    main()
