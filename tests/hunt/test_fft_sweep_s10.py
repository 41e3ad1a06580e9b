"""jnp.fft against JAX 0.10.2: every transform with n/s, axes, norm, on float32, complex64
and int32 input: dtype, shape and values, and the exception class of each refusal
(session-10 sweep). Fixed: fft2/ifft2/rfft2/irfft2 with other than two axes computed
NumPy's n-d transform (JAX ValueError: 'only supports 2 axes')."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

import jaxlite.numpy as lnp  # noqa: E402


def res(mod, f, a, k):
    try:
        r = getattr(mod.fft, f)(
            *[mod.asarray(x) if isinstance(x, np.ndarray) else x for x in a], **k
        )
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        return e
    return str(r.dtype), np.asarray(r), r.shape


rng = np.random.default_rng(0)
x = rng.normal(size=(4, 6)).astype(np.float32)
c = (x + 1j * x[::-1]).astype(np.complex64)
xi = np.arange(8, dtype=np.int32)
cases = []
for f in ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]:
    for k in [
        {},
        {"n": 5},
        {"n": 9},
        {"axis": 0},
        {"norm": "ortho"},
        {"norm": "forward"},
        {"norm": "backward"},
        {"n": 1},
        {"n": 0},
        {"norm": "bogus"},
        {"axis": 2},
    ]:
        for arr in [x, c, xi]:
            cases.append((f, (arr,), k))
for f in ["fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn", "rfftn", "irfftn"]:
    for k in [
        {},
        {"s": (3, 4)},
        {"axes": (0,)},
        {"axes": (1, 0)},
        {"s": (5,), "axes": (0,)},
        {"norm": "ortho"},
        {"s": (3, 4, 5)},
        {"axes": (0, 0)},
        {"s": (2, 3), "axes": None},
    ]:
        for arr in [x, c]:
            cases.append((f, (arr,), k))
for f, a in [
    ("fftfreq", (8,)),
    ("fftfreq", (7, 0.5)),
    ("rfftfreq", (8,)),
    ("rfftfreq", (7, 2.0)),
    ("fftshift", (x,)),
    ("ifftshift", (x,)),
    ("fftshift", (x, 0)),
    ("ifftshift", (xi,)),
    ("fftfreq", (4, np.float32(0.1))),
]:
    cases.append((f, a, {}))
cases.append(("fftfreq", (8,), {"dtype": "float16"}))


@pytest.mark.parametrize("i", range(len(cases)))
def test_matches_jax(i):
    f, a, k = cases[i]
    ours, theirs = res(lnp, f, a, k), res(jnp, f, a, k)
    if isinstance(theirs, Exception):
        # NumPy's AxisError (ours) is both a ValueError and an IndexError.
        assert isinstance(ours, type(theirs)), (f, k, ours, theirs)
        return
    assert not isinstance(ours, Exception), (f, k, ours)
    assert ours[0] == theirs[0] and ours[2] == theirs[2]
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-4, atol=1e-4)
