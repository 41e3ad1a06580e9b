"""The eager trace's cache of abstract evaluation (``core/trace.py``): what it may reuse and
what it must not. A wrong key would give an eager result the wrong dtype, shape or weak
type silently, so each way a key could conflate two calls is pinned here."""

from __future__ import annotations

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax
from jaxlite._src.core import trace as _trace
from jaxlite.extend.core import Primitive

pytestmark = pytest.mark.jaxlite_only  # engine internals: the cache and its keys


def _counting_primitive(name, rule):
    """A primitive whose abstract evaluation is ``rule(x, **params)``, counting its calls."""
    p = Primitive(name)
    calls = []

    def abstract_eval(x, **params):
        calls.append(params)
        return rule(x, **params)

    p.def_abstract_eval(abstract_eval)
    p.def_impl(lambda x, **params: jnp.asarray(np.asarray(x), rule(x, **params).dtype))
    return p, calls


def test_repeated_eager_calls_evaluate_once_and_agree():
    p, calls = _counting_primitive("same", lambda x, k: jax.core.ShapedArray(x.shape, x.dtype))
    x = jnp.ones(3, jnp.float32)
    outs = [p.bind(x, k=2) for _ in range(4)]
    assert len(calls) == 1
    for o in outs:
        assert o.dtype == np.float32 and o.shape == (3,)


@pytest.mark.parametrize(
    "values", [(1, 1.0, True), (0, 0.0, False), ((1, 2), (1.0, 2.0), (True, 2))]
)
def test_params_of_equal_value_and_other_type_are_different_keys(values):
    """1 == 1.0 == True in Python (and so do their hashes); a rule may read the type."""

    def rule(x, k):
        leaf = k[0] if isinstance(k, tuple) else k
        dt = {int: np.int32, float: np.float32, bool: np.bool_}[type(leaf)]
        return jax.core.ShapedArray(x.shape, dt)

    p, calls = _counting_primitive("typed", rule)
    x = jnp.ones(2, jnp.float32)
    got = [p.bind(x, k=v).dtype for v in values]
    want = [rule(x, v).dtype for v in values]
    assert got == want
    assert len(calls) == len(values)


def test_settings_are_part_of_the_key():
    """A rule that reads a flag (as x64-dependent rules do) is evaluated again after the
    flag changes, globally or in a thread-local context."""

    def rule(x, k):
        return jax.core.ShapedArray(
            x.shape, np.float64 if jax.config.jax_enable_x64 else np.float32
        )

    p, calls = _counting_primitive("flagged", rule)
    x = jnp.ones(2, jnp.float32)
    assert p.bind(x, k=0).dtype == np.float32
    with jax.enable_x64(True):
        assert p.bind(x, k=0).dtype == np.float64
    assert p.bind(x, k=0).dtype == np.float32
    assert len(calls) >= 2


@pytest.mark.parametrize(
    "param",
    [[1, 2], np.arange(2), object(), {"a": 1}, (1, [2]), lambda: 0],
    ids=["list", "ndarray", "object", "dict", "tuple_with_list", "function"],
)
def test_params_that_are_not_plain_constants_are_never_cached(param):
    p, calls = _counting_primitive("opaque", lambda x, k: jax.core.ShapedArray(x.shape, x.dtype))
    x = jnp.ones(2, jnp.float32)
    before = len(_trace._avals_cache)
    for _ in range(3):
        p.bind(x, k=param)
    assert len(calls) >= 3  # evaluated at every bind (a hit would stop at the first)
    assert len(_trace._avals_cache) <= before  # nothing keyed by the object was kept


def test_errors_are_raised_every_time_and_not_cached():
    x, y = jnp.ones(3, jnp.float32), jnp.ones(4, jnp.float32)
    for _ in range(2):
        with pytest.raises(TypeError, match="incompatible shapes"):
            lax.add(x, y)
    with pytest.raises(TypeError, match="same dtypes"):
        lax.add(x, jnp.ones(3, jnp.int32))
    np.testing.assert_array_equal(np.asarray(lax.add(x, x)), np.full(3, 2.0, np.float32))


def test_weak_types_and_dtypes_of_hits_match_misses():
    """The same operations with the cache emptied before each and with it warm."""

    def ops():
        x = jnp.arange(4, dtype=jnp.float32)
        i = jnp.arange(4)
        outs = [x + 1, 1.0 + x, x * 2, i + 1, i * 1.5, x > 0.5, jnp.sum(x), jnp.sum(i), -x]
        outs += [jnp.asarray(2.0) + 1, jnp.sin(x), lax.convert_element_type(i, jnp.float32)]
        outs += [jnp.mean(i), jnp.max(x), jnp.where(x > 1, x, 0), x.astype(jnp.int8) + 1]
        return outs

    def describe(outs):
        return [(o.shape, o.dtype, o.weak_type, np.asarray(o).tobytes()) for o in outs]

    jax.clear_caches()
    assert not _trace._avals_cache
    cold = describe(ops())
    warm = describe(ops())
    assert warm == cold
    with jax.enable_x64(True):
        wide = describe(ops())
    assert [d[1] for d in wide] != [d[1] for d in cold]  # int64/float64 where x64 widens
    assert describe(ops()) == cold


def test_the_cache_is_bounded():
    p, calls = _counting_primitive("many", lambda x, k: jax.core.ShapedArray(x.shape, x.dtype))
    x = jnp.ones(1, jnp.float32)
    for k in range(_trace._AVALS_CACHE_SIZE + 10):
        p.bind(x, k=k)
    assert len(_trace._avals_cache) <= _trace._AVALS_CACHE_SIZE
