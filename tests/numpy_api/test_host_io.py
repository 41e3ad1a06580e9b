"""jnp.roots, mask_indices, place, load/save/savez, fromfile and ComplexWarning against
real JAX (values, dtypes, shapes; JAX's errors)."""

from __future__ import annotations

import io

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.numpy as J  # noqa: E402

import jaxlite  # noqa: E402
import jaxlite.numpy as L  # noqa: E402

from ._oracle import check  # noqa: E402

jax.config.update("jax_platforms", "cpu")

ROOT_CASES = [
    np.array([1.0, -3, 2], np.float32),
    np.array([0, 0, 1.0, -3, 2]),
    np.array([1, 2]),
    np.array([5.0]),
    np.array([0.0, 0]),
    np.array([1.0, 0, 1]),
    np.array([2.0, -1, 3, 5, -7]),
    np.ones((2, 2)),  # error: rank 2
    [1, 2],  # error: a list
]


def _sorted(r):
    # The order of eigenvalues is LAPACK's, not specified: compare as sorted sets.
    if isinstance(r, Exception):
        return r
    r = np.asarray(r)
    return r[np.lexsort((r.imag.round(4), r.real.round(4)))]


@pytest.mark.parametrize("i", range(len(ROOT_CASES)))
@pytest.mark.parametrize("strip_zeros", [True, False])
def test_roots(i, strip_zeros):
    p = ROOT_CASES[i]

    def run(mod):
        try:
            return _sorted(mod.roots(p, strip_zeros=strip_zeros))
        except Exception as e:  # noqa: BLE001 (compared below)
            return e

    check(lambda: run(L), lambda: run(J), rtol=1e-5, atol=1e-5)


def test_mask_indices():
    check(lambda: L.mask_indices(3, L.triu), lambda: J.mask_indices(3, J.triu))
    check(lambda: L.mask_indices(3, L.tril, k=-1), lambda: J.mask_indices(3, J.tril, k=-1))
    check(lambda: L.mask_indices(3, L.triu, size=8), lambda: J.mask_indices(3, J.triu, size=8))


A5, M5, V2 = np.arange(5), np.arange(5) > 2, np.array([9, 8])


@pytest.mark.parametrize(
    "args,kw",
    [
        ((A5, M5, V2), {"inplace": False}),
        ((A5, M5, V2), {}),  # error: inplace
        ((np.arange(5.0), np.arange(5) > 0, V2), {"inplace": False}),
        ((np.arange(5.0), np.arange(5) > 5, V2), {"inplace": False}),
        ((A5, M5[:3], V2), {"inplace": False}),
        ((A5, M5, np.array([])), {"inplace": False}),
    ],
)
def test_place(args, kw):
    check(lambda: L.place(*args, **kw), lambda: J.place(*args, **kw))


def test_place_under_jit():
    check(
        lambda: jaxlite.jit(lambda a, m, v: L.place(a, m, v, inplace=False))(A5, M5, V2),
        lambda: jax.jit(lambda a, m, v: J.place(a, m, v, inplace=False))(A5, M5, V2),
    )


@pytest.mark.parametrize(
    "arr", [np.arange(3.0), np.arange(4, dtype=np.float32).astype(J.bfloat16), np.arange(6)]
)
def test_save_load_roundtrip(arr):
    buf = io.BytesIO()
    L.save(buf, arr)
    data = buf.getvalue()
    check(lambda: L.load(io.BytesIO(data)), lambda: J.load(io.BytesIO(data)))


def test_numpy_reexports_and_fromfile():
    assert L.save is J.save and L.savez is J.savez
    assert L.ComplexWarning is J.ComplexWarning
    check(lambda: L.fromfile("x"), lambda: J.fromfile("x"))
