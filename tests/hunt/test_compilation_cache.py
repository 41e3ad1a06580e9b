"""jax.experimental.compilation_cache and the persistent-cache flags: accepted with JAX
0.10.2's defaults, the directory recorded (jaxlite has no executables to persist)."""

from __future__ import annotations

import pytest

pytest.importorskip("jax")
import jax  # noqa: E402

import jaxlite  # noqa: E402
from jaxlite.experimental.compilation_cache import compilation_cache as cc  # noqa: E402

FLAGS = [
    "jax_compilation_cache_dir",
    "jax_enable_compilation_cache",
    "jax_persistent_cache_min_compile_time_secs",
    "jax_persistent_cache_min_entry_size_bytes",
    "jax_persistent_cache_enable_xla_caches",
    "jax_compilation_cache_max_size",
    "jax_raise_persistent_cache_errors",
]


def test_defaults_match_jax():
    for name in FLAGS:
        assert getattr(jaxlite.config, name) == getattr(jax.config, name), name


def test_set_and_reset_cache_dir(tmp_path):
    try:
        cc.set_cache_dir(tmp_path)
        assert jaxlite.config.jax_compilation_cache_dir == str(tmp_path)
        jaxlite.config.update("jax_persistent_cache_min_compile_time_secs", 0)
        assert float(jaxlite.jit(lambda x: x + 1)(1.0)) == 2.0
        assert list(tmp_path.iterdir()) == []  # nothing is written
    finally:
        cc.reset_cache()
        jaxlite.config.update("jax_persistent_cache_min_compile_time_secs", 1.0)
    assert jaxlite.config.jax_compilation_cache_dir is None
