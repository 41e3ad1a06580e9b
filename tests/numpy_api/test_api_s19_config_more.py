"""JAX 0.10.2's other config options (jaxlite/_src/config_more.py) against JAX: every one
is accepted with JAX's default and JAX's validation, and the few with an effect in jaxlite
(logging levels, explicit 64-bit dtypes refused, the mesh context manager disallowed)
behave as in JAX. jaxlite raised "Unrecognized config option" for all of them, so a JAX
script setting ``jax_use_shardy_partitioner`` or ``jax_logging_level`` stopped there."""

from __future__ import annotations

import enum
import logging
import warnings

import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.numpy  # noqa: E402

import jaxlite  # noqa: E402
import jaxlite.numpy  # noqa: E402
from jaxlite._src import config_more  # noqa: E402

from ._oracle import outcome  # noqa: E402

jax.config.update("jax_platforms", "cpu")
jax.devices()  # both engines made their devices before any flag below is probed
jaxlite.devices()
LIBS = (jaxlite, jax)
NAMES = sorted(config_more.OPTIONS)
PROBES = [True, False, 0, 7, 2.5, "", "O1", "mpi", "on", "error", "DEBUG", "bogus", None]


def _plain(v):
    """A flag value comparable across the engines (their enum classes differ)."""
    return (type(v).__name__, v.value if isinstance(v, enum.Enum) else v)


def _default(name):
    """Option ``name``'s default as both engines take it (an enum by its lowercase name)."""
    v = config_more.OPTIONS[name][0]
    return v.name.lower() if isinstance(v, enum.Enum) else v


def _same(got, want):
    if isinstance(want, Exception):
        assert type(got) is type(want), (got, want)
        assert str(got) == str(want), (str(got), str(want))
    else:
        assert not isinstance(got, Exception), (got, want)
        assert _plain(got) == _plain(want), (got, want)


@pytest.fixture(autouse=True)
def _restore():
    level = logging.getLogger("jax").level
    yield
    for name in NAMES:
        if name in config_more.REFUSED or name == "jax_logging_level":
            continue
        for lib in LIBS:
            try:
                lib.config.update(name, _default(name))
            except RuntimeError:  # fixed once the devices exist (a probe left it None)
                pass
    for lib in LIBS:
        lib.config.update("jax_explicit_x64_dtypes", "warn")
        for name in ("jax_error_checking_behavior_nan", "jax_error_checking_behavior_oob"):
            lib.config.update(name, "ignore")
        lib.config.update("jax_check_static_indices", False)
    logging.getLogger("jax").setLevel(level)


@pytest.mark.parametrize("name", NAMES)
def test_every_option_has_jaxs_default_and_validation(name):
    _same(getattr(jaxlite.config, name), getattr(jax.config, name))
    for value in PROBES:
        if name == "jax_logging_level" and value is not None:
            continue  # sets the real "jax" logger's level: test_logging_level below
        if name == "jax_debug_log_modules" and value:
            continue  # adds handlers: test_debug_log_modules below
        got, want = (outcome(lambda L=L: L.config.update(name, value)) for L in LIBS)
        refused = config_more.REFUSED.get(name)
        if refused is not None and not isinstance(want, Exception):
            if _plain(getattr(jax.config, name))[1] == _plain(refused[0])[1]:
                # a value jaxlite cannot honour: refused, never ignored
                assert isinstance(got, NotImplementedError), (name, value, got)
                assert "is not implemented in jaxlite" in str(got)
                jax.config.update(name, _default(name))
                continue
        _same(got, want)
        if not isinstance(want, Exception):
            _same(getattr(jaxlite.config, name), getattr(jax.config, name))


@pytest.mark.parametrize("name", sorted(config_more.FLAGS))
def test_command_line_flags_take_any_update_and_are_not_attributes(name):
    default = jax.config._value_holders[name].value  # JAX's own, restored after
    # Falsy values only: a non-empty jax_dump_ir_to makes JAX dump IR into that directory.
    for value in (False, "", 0, None):
        _same(*(outcome(lambda L=L: L.config.update(name, value)) for L in LIBS))
    jax.config.update(name, default)
    _same(*(outcome(lambda L=L: getattr(L.config, name)) for L in LIBS))
    assert isinstance(outcome(lambda: getattr(jax.config, name)), AttributeError)


def test_logging_level():
    log = logging.getLogger("jax")
    for L in LIBS:
        log.setLevel(logging.NOTSET)
        L.config.update("jax_logging_level", "INFO")
        assert log.level == logging.INFO
        L.config.update("jax_logging_level", None)  # None leaves the level as it is
        assert log.level == logging.INFO
        L.config.update("jax_logging_level", "NOTSET")
        assert log.level == logging.NOTSET


def test_debug_log_modules():
    name = "jax._src.s19_probe"
    jaxlite.config.update("jax_debug_log_modules", f" {name} ,")
    logger = logging.getLogger(name)
    try:
        assert logger.level == logging.DEBUG
        assert logger.handlers and logger.handlers[0].level == logging.DEBUG
        jaxlite.config.update("jax_debug_log_modules", name)  # no second handler
        assert len(logger.handlers) == 1
    finally:
        logger.handlers.clear()
        logger.setLevel(logging.NOTSET)


def test_explicit_x64_dtypes_error_and_warn():
    for L in LIBS:
        jnp = L.numpy
        L.config.update("jax_explicit_x64_dtypes", "error")
        for make in (lambda: jnp.array(1.0, dtype=jnp.float64), lambda: jnp.zeros(2, "int64")):
            err = outcome(make)
            assert isinstance(err, ValueError), err
            assert "is not available. To enable more dtypes, set the jax_enable_x64" in str(err)
        assert jnp.zeros(2, dtype=int).dtype == jnp.int32  # Python's int: never refused
        L.config.update("jax_explicit_x64_dtypes", "warn")
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            assert jnp.zeros(2, "int64").dtype == jnp.int32
        assert any("Explicitly requested dtype int64" in str(x.message) for x in w)


def test_disallowed_mesh_context_manager():
    for L in LIBS:
        mesh = L.make_mesh((1,), ("x",))
        L.config.update("jax_disallow_mesh_context_manager", True)
        with pytest.raises(RuntimeError, match="Mesh context manager is disabled."):
            with mesh:
                pass
        L.config.update("jax_disallow_mesh_context_manager", False)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            with mesh:
                pass
