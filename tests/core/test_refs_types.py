"""The types of mutable array references (``jax.Ref``, ``AbstractRef``) and
``jax.experimental.hijax``'s classes (tests/core/test_refs.py has the refs themselves).

flax.nnx tests values against the types on its default path. jaxlite does not build hijax
lowering: binding a hijax primitive raises ``NotImplementedError`` naming what is missing.
The type facts asserted first hold in JAX too (oracle mode).
"""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from tests.conftest import ORACLE

if ORACLE:
    from jax._src.core import ShapedArray
    from jax._src.state.types import AbstractRef
else:
    from jaxlite._jax_compat.core import ShapedArray
    from jaxlite._jax_compat.state.types import AbstractRef


def test_arrays_are_not_refs():
    import jaxlite.ref

    assert jaxlite.ref.Ref is jax.Ref and jaxlite.ref.AbstractRef is AbstractRef
    x = jnp.ones(3)
    assert isinstance(jax.Ref, type)
    assert not isinstance(x, jax.Ref)
    assert not isinstance(jax.typeof(x), AbstractRef)
    seen = []
    jax.jit(lambda y: seen.append(isinstance(jax.typeof(y), AbstractRef)) or y)(x)
    assert seen == [False]


def test_abstract_ref_describes_its_array():
    a = AbstractRef(ShapedArray((2, 3), np.float32))
    assert (a.shape, a.dtype, a.ndim) == ((2, 3), np.dtype(np.float32), 2)
    assert str(a) == "Ref{float32[2,3]}"
    assert a == AbstractRef(ShapedArray((2, 3), np.float32))
    assert a != AbstractRef(ShapedArray((2, 3), np.int32))
    assert hash(a) == hash(AbstractRef(ShapedArray((2, 3), np.float32)))
    assert isinstance(a, jax.core.AbstractValue)


@pytest.mark.jaxlite_only
def test_hijax_primitives_refuse_to_bind():
    from jaxlite.experimental import hijax
    from jaxlite.extend.core import Primitive

    class Double(hijax.HiPrimitive):
        def abstract_eval(self, x):
            return x

    p = Double("double")  # defining and naming one works (libraries do it at import)
    assert p.name == "double" and isinstance(p, Primitive)
    with pytest.raises(NotImplementedError, match="hijax primitive 'double'"):
        p.bind(jnp.ones(2))
    with pytest.raises(NotImplementedError, match="hijax primitive 'double'"):
        jax.jit(lambda x: p.bind(x))(jnp.ones(2))

    class Box:
        pass

    hijax.register_hitype(Box, lambda b: None)  # recorded, never dispatched to
    with pytest.raises(TypeError):
        jnp.asarray(Box())
    prop = hijax.aval_property(fget=len)
    assert prop.fget is len and hijax.aval_method(fun=len).fun is len
