"""Python lists in array positions: JAX's ``jnp`` functions reject them with
``TypeError: <name> requires ndarray or scalar arguments, got <class 'list'> at position N.``
(only ``jnp.array``/``asarray`` and the sequence-taking functions accept them). These are the
functions a session-9 sweep over ``jax.numpy``/``jax.numpy.linalg`` found accepting lists
silently (or failing with another error) in jaxlite; each case compares the message with
JAX's, computed live."""

from __future__ import annotations

import numpy as np
import pytest

import jaxlite.numpy as lnp

jax = pytest.importorskip("jax")
jnp = jax.numpy

V = [1.0, 2.0]
M = [[2.0, 1.0], [1.0, 3.0]]
Va = np.array(V, np.float32)
Ma = np.array(M, np.float32)

# (path in jnp, args); every case has a list in at least one array position.
CASES = [
    ("dot", (Ma, V)),
    ("dot", (M, Va)),
    ("matmul", (Ma, V)),
    ("matmul", (M, Ma)),
    ("vdot", (V, Va)),
    ("vdot", (Va, V)),
    ("inner", (V, Va)),
    ("inner", (Va, V)),
    ("outer", (V, Va)),
    ("outer", (Va, V)),
    ("kron", (Ma, M)),
    ("tensordot", (M, Ma)),
    ("tensordot", (Ma, M)),
    ("einsum", ("ij,j->i", Ma, V)),
    ("einsum", ("ii", M)),
    ("vecdot", (V, Va)),
    ("vecdot", (Va, V)),
    ("cumsum", (V,)),
    ("cumprod", (M,)),
    ("nancumsum", (V,)),
    ("nancumprod", (V,)),
    ("cumulative_sum", (V,)),
    ("cumulative_prod", (V,)),
    ("linalg.solve", (Ma, V)),
    ("linalg.solve", (M, Va)),
    ("linalg.inv", (M,)),
    ("linalg.det", (M,)),
    ("linalg.slogdet", (M,)),
    ("linalg.cholesky", (M,)),
    ("linalg.eigh", (M,)),
    ("linalg.eigvalsh", (M,)),
    ("linalg.eig", (M,)),
    ("linalg.eigvals", (M,)),
    ("linalg.svd", (M,)),
    ("linalg.svdvals", (M,)),
    ("linalg.qr", (M,)),
    ("linalg.pinv", (M,)),
    ("linalg.matrix_rank", (M,)),
    ("linalg.lstsq", (Ma, V)),
    ("linalg.lstsq", (M, Va)),
    ("linalg.norm", (V,)),
    ("linalg.vector_norm", (V,)),
    ("linalg.matrix_norm", (M,)),
    ("linalg.matrix_transpose", (M,)),
    ("linalg.trace", (M,)),
    ("linalg.diagonal", (M,)),
    ("linalg.cond", (M,)),
    ("linalg.outer", (Va, V)),
    ("linalg.matmul", (M, Ma)),
    ("linalg.tensordot", (Ma, M)),
    ("linalg.vecdot", (V, Va)),
    ("linalg.multi_dot", ([M, Ma],)),
    ("linalg.tensorsolve", (Ma, V)),
    ("linalg.tensorinv", (M,)),
]


def _get(mod, path):
    for part in path.split("."):
        mod = getattr(mod, part)
    return mod


def _message(fn, args):
    with pytest.raises(TypeError) as info:
        fn(*args)
    return str(info.value)


@pytest.mark.parametrize("path,args", CASES, ids=[f"{p}-{i}" for i, (p, _) in enumerate(CASES)])
def test_list_argument_rejected_as_jax_does(path, args):
    expected = _message(_get(jnp, path), args)
    assert "requires ndarray or scalar arguments" in expected  # the oracle's own check
    assert _message(_get(lnp, path), args) == expected


@pytest.mark.parametrize("path,args", [("dot", (Ma, Va)), ("linalg.solve", (Ma, Va))])
def test_arrays_still_accepted(path, args):
    np.testing.assert_allclose(
        np.asarray(_get(lnp, path)(*args)), np.asarray(_get(jnp, path)(*args)), rtol=1e-5
    )
