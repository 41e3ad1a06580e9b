"""jax.default_device, the transfer guards, log_compiles, check_tracer_leaks /
checking_leaks, explain_cache_misses, enable_checks and live_arrays against JAX: accepted
values, validation errors, context-manager scoping, and the effects jaxlite implements."""

from __future__ import annotations

import logging

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.numpy  # noqa: E402

import jaxlite  # noqa: E402
import jaxlite.numpy  # noqa: E402

from ._oracle import assert_same, outcome  # noqa: E402

jax.config.update("jax_platforms", "cpu")
LIBS = (jaxlite, jax)
GUARDS = [
    "jax_transfer_guard",
    "jax_transfer_guard_host_to_device",
    "jax_transfer_guard_device_to_host",
    "jax_transfer_guard_device_to_device",
]


def _both(fn):
    got, want = (outcome(lambda lib=lib: fn(lib)) for lib in LIBS)
    if isinstance(want, tuple):  # tuples of flag values (strings, None)
        assert got == want
    else:
        assert_same(got, want)
    return got


def _update_and_reset(lib, flag, value, reset):
    lib.config.update(flag, value)
    try:
        return getattr(lib.config, flag)
    finally:
        lib.config.update(flag, reset)


@pytest.mark.parametrize("flag", GUARDS + ["jax_default_device"])
@pytest.mark.parametrize(
    "value", ["allow", "disallow", "log_explicit", "foo", None, True, 3, "cpu"]
)
def test_enum_flags_validate_like_jax(flag, value):
    _both(lambda L: getattr(L.config, flag))
    _both(lambda L: _update_and_reset(L, flag, value, None))


@pytest.mark.parametrize("flag", ["jax_log_compiles", "jax_check_tracer_leaks"])
@pytest.mark.parametrize("value", [True, False, 1, 0, "x"])
def test_bool_flags_like_jax(flag, value):
    _both(lambda L: getattr(L.config, flag))
    _both(lambda L: _update_and_reset(L, flag, value, False))


@pytest.mark.parametrize("value", ["allow", "log", "disallow", "disallow_explicit", None, "x"])
def test_transfer_guard_contexts_set_every_guard_in_scope(value):
    def run(L):
        with L.transfer_guard(value):
            inside = tuple(getattr(L.config, g) for g in GUARDS)
        return inside, tuple(getattr(L.config, g) for g in GUARDS)

    _both(run)
    for name in GUARDS[1:]:

        def one(L, name=name):
            with getattr(L, name[4:])(value):
                return getattr(L.config, name)

        _both(one)


def test_transfer_guard_never_fires_in_jaxlite():
    # JAX raises on implicit host-to-device transfers under "disallow"; jaxlite has no
    # device memory (docs/compat.md), so the computation runs.
    with jaxlite.transfer_guard("disallow"):
        out = jaxlite.numpy.ones(2) + 1
    np.testing.assert_array_equal(np.asarray(out), [2.0, 2.0])


@pytest.mark.parametrize("value", ["dev0", "cpu", None, 3, "gpu", "tpu", "cuda"])
def test_default_device_context(value):
    def run(L):
        v = L.devices()[0] if value == "dev0" else value
        with L.default_device(v):
            flag = L.config.jax_default_device
            devs = L.numpy.ones(2).devices()
            jitted = L.jit(lambda x: x + 1)(1.0).devices()
        return flag == v, [str(d) for d in devs], [str(d) for d in jitted]

    got = outcome(lambda: run(jaxlite))
    want = outcome(lambda: run(jax))
    if isinstance(want, Exception):
        assert type(got).__name__ == type(want).__name__, (got, want)
    else:
        assert got == want


def test_log_compiles_logs_each_trace_once(caplog):
    def f(x):
        return x * 3

    jf = jaxlite.jit(f)
    with caplog.at_level(logging.WARNING), jaxlite.log_compiles():
        jf(1.0)
        jf(2.0)  # a cache hit: no second log
        jf(np.ones(3, np.float32))
    msgs = [r.getMessage() for r in caplog.records if "Compiling jit(f)" in r.getMessage()]
    assert len(msgs) == 2, msgs
    assert "float32[3]" in msgs[1]
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        jaxlite.jit(lambda x: x - 1)(1.0)
    assert not [r for r in caplog.records if "Compiling" in r.getMessage()]


@pytest.mark.parametrize("ctx", ["checking_leaks", "check_tracer_leaks"])
@pytest.mark.parametrize("L", LIBS, ids=["jaxlite", "jax"])
def test_tracer_leak_check_raises_like_jax(ctx, L):
    leak = []

    def f(x):
        leak.append(x)
        return x

    with getattr(L, ctx)():
        assert L.config.jax_check_tracer_leaks is True
        with pytest.raises(Exception, match="Leaked trace"):
            L.jit(f)(1.0)
    assert L.config.jax_check_tracer_leaks is False
    L.jit(f)(2.0)  # outside the check the same leak goes unnoticed


def test_no_leak_no_error():
    with jaxlite.checking_leaks():
        out = jaxlite.jit(lambda x: jaxlite.numpy.sin(x) + x)(1.0)
        out2 = jaxlite.jit(lambda x: jaxlite.lax.scan(lambda c, a: (c + a, c + a), 0.0, x)[1])(
            np.ones(3, np.float32)
        )
    np.testing.assert_allclose(np.asarray(out), np.sin(1) + 1, rtol=1e-6)
    np.testing.assert_allclose(np.asarray(out2), [1, 2, 3])


def test_other_flag_contexts_and_live_arrays():
    for L in LIBS:
        with L.explain_cache_misses():
            assert L.config.jax_explain_cache_misses is True
        with L.enable_checks(True):
            assert L.config.jax_enable_checks is True
        assert L.config.jax_enable_checks is False
        x = L.numpy.arange(3.0)
        live = L.live_arrays()
        assert isinstance(live, list) and any(a is x for a in live)
        assert any(a is x for a in L.live_arrays("cpu"))
    _both(lambda L: L.live_arrays("gpu"))


@pytest.mark.parametrize(
    "flag, value",
    [
        ("jax_default_prng_impl", "threefry2x32"),
        ("jax_default_prng_impl", "rbg"),
        ("jax_default_prng_impl", "zz"),
        ("jax_legacy_prng_key", "error"),
        ("jax_legacy_prng_key", "zz"),
    ],
)
def test_prng_flags_validate_like_jax(flag, value):
    reset = {"jax_default_prng_impl": "threefry2x32", "jax_legacy_prng_key": "allow"}[flag]

    def run(L):
        v = _update_and_reset(L, flag, value, reset)
        return getattr(v, "value", v)  # JAX holds the legacy-key policy as an enum

    _both(run)


def test_old_threefry_scheme_is_honoured_not_ignored():
    # JAX's old scheme gives other bits (spec/random.md R5.6): split(PRNGKey(0)) ->
    # [[4146024105, 967050713], [2718843009, 1272950319]]; jaxlite once ignored the flag,
    # then refused it; it now implements it (tests/random/test_random_threefry_original.py).
    old = [[4146024105, 967050713], [2718843009, 1272950319]]
    with jaxlite.threefry_partitionable(False):
        assert jaxlite.config.jax_threefry_partitionable is False
        assert np.asarray(jaxlite.random.split(jaxlite.random.PRNGKey(0))).tolist() == old
    assert jaxlite.config.jax_threefry_partitionable is True
    assert np.asarray(jaxlite.random.split(jaxlite.random.PRNGKey(0))).tolist() != old


def test_prng_contexts_and_host_aliases_match_jax():
    def run(L):
        out = []
        with L.legacy_prng_key("error"):
            v = L.config.jax_legacy_prng_key
            out.append(getattr(v, "value", v))
        with L.enable_custom_prng():
            out.append(L.config.jax_enable_custom_prng)
        with L.default_prng_impl("threefry2x32"):
            out.append(L.config.jax_default_prng_impl)
        out.append((L.process_indices(), L.float0 == jax.dtypes.float0))
        for name in ("host_count", "host_id", "host_ids"):
            with pytest.warns(UserWarning, match="has been renamed to") as rec:
                out.append(getattr(L, name)())
            out.append(str(rec[0].message))
        return tuple(out)

    _both(run)
