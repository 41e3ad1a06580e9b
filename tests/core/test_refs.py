"""Mutable array references: ``jax.Ref``/``jax.new_ref`` and ``AbstractRef``, and
``jax.experimental.hijax``'s classes.

jaxlite provides the types (flax.nnx tests values against them on its default path) but
does not build refs or hijax lowering: every operation that would make a ref or bind a
hijax primitive raises ``NotImplementedError`` naming what is missing, never running with
different semantics. The type facts asserted first hold in JAX too (oracle mode).
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


@pytest.mark.jaxlite_only  # JAX builds refs; jaxlite refuses to make one
@pytest.mark.parametrize(
    "make, name",
    [
        (lambda: jax.new_ref(jnp.arange(3.0)), "jax.new_ref"),
        (lambda: jax.jit(lambda x: jax.new_ref(x))(jnp.arange(3.0)), "jax.new_ref"),
        (lambda: jax.empty_ref(jax.ShapeDtypeStruct((2,), np.float32)), "jax.empty_ref"),
        (lambda: jax.freeze(jnp.arange(3.0)), "jax.freeze"),
        (lambda: jax.Ref(), "jax.Ref"),
        (lambda: jax.ref.get(jnp.ones(2)), "jax.ref.get"),
        (lambda: jax.ref.set(jnp.ones(2), None, 1.0), "jax.ref.set"),
        (lambda: jax.ref.swap(jnp.ones(2), None, 1.0), "jax.ref.swap"),
        (lambda: jax.ref.addupdate(jnp.ones(2), None, 1.0), "jax.ref.addupdate"),
    ],
)
def test_making_a_ref_is_not_implemented(make, name):
    with pytest.raises(NotImplementedError, match=rf"mutable array references \({name}\)"):
        make()


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
