"""Session 18: vmap's "got axis spec None but output was batched" error names the output by
its path in the output pytree, as JAX 0.10.2 does (flax.nnx's own tests match the text;
jaxlite always said "at vmap out_axes"). The expected texts are JAX's."""

from __future__ import annotations

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp
from tests.hunt.oracle import same

CASES = [
    ("leaf", None, lambda x: x, ""),
    ("tuple", (0, None), lambda x: (x, x), "[1]"),
    ("dict", {"a": None, "b": 0}, lambda x: {"a": x, "b": x}, "['a']"),
    ("nested", ({"a": [0, None]},), lambda x: ({"a": [x, x]},), "[0]['a'][1]"),
    ("broadcast-none", None, lambda x: (x, x), "[0]"),
    ("prefix", ({"a": None},), lambda x: ({"a": (x, 1.0)},), "[0]['a'][0]"),
]


@pytest.mark.parametrize(("out_axes", "fun", "where"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_error_names_the_output_path(out_axes, fun, where):
    msg = f"at vmap out_axes{where}, got axis spec None but output was batched on axis 0"
    with pytest.raises(ValueError) as e:
        jaxlite.vmap(fun, out_axes=out_axes)(jnp.ones(2))
    assert str(e.value) == msg
    err = same(lambda m: m.jx.vmap(fun, out_axes=out_axes)(np.ones(2, np.float32)))
    assert isinstance(err, ValueError)
