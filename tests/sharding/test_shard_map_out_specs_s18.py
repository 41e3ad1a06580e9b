# ruff: noqa: E501 (check scripts are data: long lines keep exact JAX messages whole)
"""Session 18: a None in shard_map's out_specs is an empty pytree there, as in JAX 0.10.2:
an output at that place is JAX's ValueError "pytree structure error: different types at
key path" naming the path (jaxlite raised TypeError "must be a pytree of PartitionSpec").
Runs against JAX too with JAXLITE_ORACLE=jax (tests/sharding/_subproc.py)."""

from tests.sharding._subproc import run


def test_none_in_out_specs_is_a_structure_error():
    run(
        """
        m2 = jax.make_mesh((2,), ("i",), axis_types=(AxisType.Auto,))
        x = jnp.arange(4.0)
        def sm(f, outs):
            return jax.shard_map(f, mesh=m2, in_specs=P("i"), out_specs=outs)
        head = "pytree structure error: different types at key path\\n    shard_map out_specs"
        for outs, f, where in [(None, lambda a: a, ""), ((P("i"), None), lambda a: (a, a), "[1]"),
                               ({"a": None}, lambda a: {"a": a}, "['a']"), (None, lambda a: (a, a), "")]:
            e = raises(ValueError, head + where + "\\nAt that key path", sm(f, outs), x)
            assert "has a subtree of type\\n    <class 'NoneType'>" in str(e), str(e)
        # A None output under a None spec is fine.
        out = sm(lambda a: (a * 2, None), (P("i"), None))(x)
        assert out[1] is None and np.asarray(out[0]).tolist() == [0.0, 2.0, 4.0, 6.0]
        """,
        n_devices=2,
    )
