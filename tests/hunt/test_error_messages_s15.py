"""Error wording as JAX 0.10.2's (session 15). Each test passes in oracle mode
(``JAXLITE_ORACLE=jax``), where the type names are JAX's own."""

import re

import pytest

import jaxlite as jax
import jaxlite.numpy as jnp

# Python's own wording for unhashable values quotes the type's name (``'list'``); JAX's arrays
# and tracers follow it (``'jaxlib._jax.ArrayImpl'``, ``'DynamicJaxprTracer'``).
_UNHASHABLE = re.compile(r"^unhashable type: '[\w.]+'$")


def _hash_error(x):
    with pytest.raises(TypeError) as e:
        hash(x)
    return str(e.value)


@pytest.mark.parametrize("value", [jnp.ones(3), jnp.ones(()), jnp.arange(4).reshape(2, 2)])
def test_hash_of_an_array_names_the_type_quoted(value):
    msg = _hash_error(value)
    assert _UNHASHABLE.match(msg), msg
    assert "ArrayImpl" in msg


@pytest.mark.parametrize(
    "transform",
    [jax.jit, jax.grad, jax.vmap, lambda f: lambda x: jax.jvp(f, (x,), (x,))],
    ids=["jit", "grad", "vmap", "jvp"],
)
def test_hash_of_a_tracer_names_its_type_quoted(transform):
    seen = []

    def f(x):
        seen.append(_hash_error(x))
        return x.sum() if x.ndim else x

    transform(f)(jnp.ones(()) if transform is not jax.vmap else jnp.ones(2))
    assert len(seen) == 1 and _UNHASHABLE.match(seen[0]), seen
    assert "Tracer" in seen[0]
