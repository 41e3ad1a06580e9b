"""jax.lax.clz / population_count against JAX: every integer width (x64 on), extreme
values, eager / jit / vmap, weak-typed Python ints, the dtype errors, and no gradient."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.lax  # noqa: E402

import jaxlite  # noqa: E402
import jaxlite.lax  # noqa: E402

from ._oracle import check  # noqa: E402

jax.config.update("jax_platforms", "cpu")
INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


@pytest.fixture
def x64():
    jax.config.update("jax_enable_x64", True)
    jaxlite.config.update("jax_enable_x64", True)
    yield
    jax.config.update("jax_enable_x64", False)
    jaxlite.config.update("jax_enable_x64", False)


def _values(dt):
    info = np.iinfo(dt)
    rng = np.random.default_rng(3)
    v = [0, 1, 2, 3, 5, 127, info.max, info.min, info.max // 2, info.max // 2 + 1]
    if info.min < 0:
        v += [-1, -2, info.min + 1]
    rand = rng.integers(info.min, info.max, size=20, dtype=dt, endpoint=True)
    bits = [np.array(1, dt) << np.array(k, dt) for k in range(info.bits)]
    return np.concatenate([np.array(v, dt), rand, np.array(bits, dt)])


@pytest.mark.parametrize("op", ["clz", "population_count"])
@pytest.mark.parametrize("dt", INTS, ids=lambda d: d.__name__)
def test_bit_counts_match_jax(x64, op, dt):
    x = _values(dt)
    lf, jf = getattr(jaxlite.lax, op), getattr(jax.lax, op)
    check(lambda: lf(x), lambda: jf(x))
    check(lambda: jaxlite.jit(lf)(x), lambda: jax.jit(jf)(x))
    m = x[: 2 * (len(x) // 2)].reshape(2, -1)
    check(lambda: jaxlite.vmap(lf, in_axes=1)(m), lambda: jax.vmap(jf, in_axes=1)(m))


@pytest.mark.parametrize("enable", [False, True])
def test_clz_of_python_int_and_bad_dtypes_match_jax(enable):
    jax.config.update("jax_enable_x64", enable)
    jaxlite.config.update("jax_enable_x64", enable)
    try:
        check(lambda: jaxlite.lax.clz(3), lambda: jax.lax.clz(3))
        for bad in [np.array([1.0], np.float32), np.array([True]), np.array([1j], np.complex64)]:
            with pytest.raises(TypeError, match="clz does not accept dtype"):
                jaxlite.lax.clz(bad)
            with pytest.raises(TypeError, match="clz does not accept dtype"):
                jax.lax.clz(bad)
    finally:
        jax.config.update("jax_enable_x64", False)
        jaxlite.config.update("jax_enable_x64", False)


def test_clz_is_not_differentiable_like_jax():
    # grad refuses integer inputs; jvp gives a float0 zero tangent.
    for lib in (jax, jaxlite):
        with pytest.raises(TypeError, match="grad requires real- or complex-valued inputs"):
            lib.grad(lambda x: lib.lax.clz(x).astype(np.float32))(np.int32(3))
    p, t = jaxlite.jvp(jaxlite.lax.clz, (np.int32(3),), (np.zeros((), jax.dtypes.float0),))
    assert int(p) == 29 + 1 and np.asarray(t).dtype == jax.dtypes.float0
    text = str(jaxlite.make_jaxpr(jaxlite.lax.clz)(np.int32(3)))
    assert "clz" in text
