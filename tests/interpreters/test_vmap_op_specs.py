"""Every op spec (tests/ops/op_specs.py) under vmap with random in_axes/out_axes, against a
Python loop (issue 5 "Show"), eagerly and under jit.

For each spec, three argument sets are drawn; each array argument is either mapped (the
three values stacked along a random axis, negative axes included) or left unmapped (the first
set's value, ``in_axes=None``), with at least one argument mapped. The loop reference calls
the op on each batch element and stacks the results on ``out_axes``. The random choices are
seeded by the spec name, so a failure reproduces.
"""

import os
import sys
import zlib

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ops"))
from op_specs import SPECS, draw_args


class _Namespace:
    """What spec rows resolve names against (``jnp``, ``lax``, ``nn``, ``special``...)."""

    @property
    def jnp(self):
        return jnp

    @property
    def lax(self):
        return jax.lax

    @property
    def nn(self):
        import jaxlite.nn

        return jaxlite.nn

    @property
    def special(self):
        import jaxlite.scipy.special

        return jaxlite.scipy.special

    @property
    def linalg(self):
        return jnp.linalg


NS = _Namespace()
# Specs JAX itself cannot run under vmap/jit (data-dependent checks: choose's mode='raise',
# compress and ravel_multi_index inspect values); jaxlite runs them, so they are checked
# only against jaxlite's own loop (skipped in oracle mode).
_NOT_TRACEABLE_IN_JAX = {"choose", "compress", "ravel_multi_index"}
VSPECS = [
    pytest.param(
        s, id=s.name, marks=[pytest.mark.jaxlite_only] if s.name in _NOT_TRACEABLE_IN_JAX else []
    )
    for s in SPECS
    if s.vmap
]


def _leaves(x):
    if isinstance(x, (tuple, list)):
        return [leaf for y in x for leaf in _leaves(y)]
    return [x]


def _plan(spec, sets, rng):
    """Per-argument in_axes (None or an int, maybe negative) for the array arguments."""
    pos = [i for i, a in enumerate(sets[0]) if isinstance(a, np.ndarray)]
    axes = []
    for i in pos:
        nd = sets[0][i].ndim
        if rng.random() < 0.3:
            axes.append(None)
        else:
            ax = int(rng.integers(0, nd + 1))
            axes.append(ax - (nd + 1) if rng.random() < 0.3 else ax)
    if all(a is None for a in axes):
        axes[int(rng.integers(0, len(axes)))] = 0
    return pos, axes


@pytest.mark.parametrize("spec", VSPECS)
def test_vmap_random_axes_vs_loop(spec):
    rng = np.random.default_rng(zlib.crc32(spec.name.encode()) + 7)
    sets = [draw_args(spec, k) for k in (11, 12, 13)]
    pos, axes = _plan(spec, sets, rng)
    if not pos:
        pytest.skip("no array arguments")
    f = spec.fn(NS)
    fixed = list(sets[0])

    def call(arrays):
        full = list(fixed)
        for i, a in zip(pos, arrays):
            full[i] = a
        return f(*full)

    per = []
    for k in range(3):
        arrays = [
            jnp.asarray(sets[k][i] if ax is not None else fixed[i]) for i, ax in zip(pos, axes)
        ]
        per.append(_leaves(call(arrays)))
    batched = [
        jnp.asarray(
            fixed[i]
            if ax is None
            else np.stack([s[i] for s in sets], axis=ax % (fixed[i].ndim + 1))
        )
        for i, ax in zip(pos, axes)
    ]
    min_nd = min(np.ndim(o) for o in per[0])
    out_axis = int(rng.integers(0, min_nd + 1))
    if rng.random() < 0.5:
        out_axis -= min_nd + 1
    expected = [
        np.stack([np.asarray(p[j]) for p in per], axis=out_axis) for j in range(len(per[0]))
    ]

    vf = jax.vmap(lambda *arrays: call(arrays), in_axes=tuple(axes), out_axes=out_axis)
    rtol, atol = max(spec.rtol, 1e-5), max(spec.atol, 1e-6)
    what = f"{spec.name} in_axes={axes} out_axes={out_axis}"
    # a spec marked jit=False is not jittable (jnp.compress with a NumPy condition and no
    # size=: JAX raises under jit, and since session 22 jaxlite does too)
    for got in (vf(*batched), jax.jit(vf)(*batched)) if spec.jit else (vf(*batched),):
        got = _leaves(got)
        assert len(got) == len(expected), what
        for g, e in zip(got, expected):
            g = np.asarray(g)
            assert g.shape == e.shape and g.dtype == e.dtype, (what, g.shape, e.shape, g.dtype)
            if e.dtype.kind in "biu":
                np.testing.assert_array_equal(g, e, err_msg=what)
            else:
                np.testing.assert_allclose(g, e, rtol=rtol, atol=atol, equal_nan=True, err_msg=what)
