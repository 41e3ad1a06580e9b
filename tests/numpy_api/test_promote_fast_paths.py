"""``promote_args``'s two shortcuts for eager arithmetic (arrays of one aval; one floating
array with Python scalars) must give exactly what the full promotion gives: the same
values, bytes, dtypes and weak types, the same errors, under x64 on and off."""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite._src.numpy import util

pytestmark = pytest.mark.jaxlite_only  # tests jaxlite's internals against themselves

SCALARS = [2.0, -0.0, 0.1, 1e10, -1e-10, float("nan"), float("-inf"), 3, -7, 0, 2**31 - 1]
OPS = [jnp.add, jnp.subtract, jnp.multiply, jnp.maximum, jnp.greater, jnp.equal, jnp.minimum]


@pytest.fixture
def full_path(monkeypatch):
    """A function running ``fn`` with both shortcuts switched off."""

    def run(fn, *args):
        with monkeypatch.context() as m:
            m.setattr(util, "_same_arrays", lambda args: False)
            m.setattr(util, "_with_scalars", lambda args: None)
            return fn(*args)

    return run


def _same(a, b):
    a, b = jnp.asarray(a), jnp.asarray(b)
    assert (a.dtype, a.shape, a.weak_type) == (b.dtype, b.shape, b.weak_type)
    assert np.asarray(a).tobytes() == np.asarray(b).tobytes()


def _arrays(dtype):
    strong = jnp.asarray(np.array([1.5, -2.25, 0.0], np.float32)).astype(dtype)
    return [strong, jnp.asarray(1.5)]  # the second is weakly typed


@pytest.mark.parametrize("x64", [False, True])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
def test_a_floating_array_with_python_scalars(full_path, x64, dtype):
    with jax.enable_x64(x64):
        for x in _arrays(jnp.dtype(dtype)):
            for s in SCALARS:
                for op in OPS:
                    with np.errstate(all="ignore"):
                        _same(op(x, s), full_path(op, x, s))
                        _same(op(s, x), full_path(op, s, x))


@pytest.mark.parametrize(
    "make",
    [
        lambda: jnp.arange(4.0),
        lambda: jnp.arange(4),
        lambda: jnp.arange(4, dtype=jnp.uint8),
        lambda: jnp.ones((2, 3), jnp.bfloat16),
        lambda: jnp.ones(3, bool),
        lambda: jnp.ones(3, jnp.complex64) * 1j,
        lambda: jnp.asarray(2.5),
    ],
)
def test_arrays_of_one_aval(full_path, make):
    x, y = make(), make()
    for op in OPS[:-1]:
        try:
            want = full_path(op, x, y)
        except TypeError as e:  # e.g. ordering complex values
            with pytest.raises(type(e), match=str(e)[:30]):
                op(x, y)
            continue
        _same(op(x, y), want)
        _same(op(x, x), full_path(op, x, x))


def test_what_the_shortcuts_leave_to_the_full_path(full_path):
    # int arrays with a float scalar, 64-bit arrays kept while x64 is off, mixed avals
    cases = [(jnp.arange(3), 2.5), (jnp.arange(3, dtype=jnp.int8), 100), (jnp.ones(3), 2**30)]
    with jax.enable_x64(True):
        wide = jnp.arange(3, dtype=jnp.int64)
    cases += [(wide, wide), (jnp.ones(3), jnp.ones(3, jnp.float16)), (jnp.ones(3), True)]
    for x, y in cases:
        _same(jnp.add(x, y), full_path(jnp.add, x, y))
    assert jnp.add(wide, wide).dtype == jnp.int32  # canonicalized, as JAX
    with pytest.raises(OverflowError):  # as JAX: a Python int past int32 with x64 off
        jnp.ones(3) + 2**40


def test_keys_still_refuse_arithmetic():
    k = jax.random.key(0)
    with pytest.raises(TypeError, match="add does not accept dtypes key<fry>, key<fry>"):
        k + k
