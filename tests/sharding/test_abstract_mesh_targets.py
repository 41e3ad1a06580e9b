# ruff: noqa: E501 (check scripts are data: long lines keep exact JAX messages whole)
"""``reshard`` / ``with_sharding_constraint`` to a ``NamedSharding`` over an *abstract* mesh
(``NamedSharding(jax.sharding.get_abstract_mesh(), spec)``: what flax.core.spmd builds for
an nnx Variable annotated with ``nnx.with_partitioning`` under ``jax.set_mesh``), and the
mesh predicates ``are_all_axes_explicit/auto/manual`` flax asks. JAX places the result on
the context mesh's devices, else on the operand's own, and raises when their number is not
the mesh's size; jaxlite gave (eagerly and as a jit result) an array whose sharding held
the abstract mesh, and ``device_set`` of it then failed. The scripts also run against JAX
(oracle mode)."""

from tests.sharding._subproc import run


def test_mesh_axis_type_predicates():
    run(
        """
        me = jax.make_mesh((2,), ("d",))
        ma = jax.make_mesh((2, 2), ("a", "b"), axis_types=(AxisType.Auto,) * 2)
        mixed = jax.make_mesh((2, 2), ("a", "b"), axis_types=(AxisType.Auto, AxisType.Explicit))
        mm = jax.sharding.AbstractMesh((2,), ("m",), axis_types=(AxisType.Manual,))
        empty = jax.sharding.AbstractMesh((), ())
        for m in (me, me.abstract_mesh):
            assert (m.are_all_axes_explicit, m.are_all_axes_auto, m.are_all_axes_manual) == (True, False, False)
        for m in (ma, ma.abstract_mesh):
            assert (m.are_all_axes_explicit, m.are_all_axes_auto, m.are_all_axes_manual) == (False, True, False)
        assert (mixed.are_all_axes_explicit, mixed.are_all_axes_auto) == (False, False)
        assert (mm.are_all_axes_manual, mm.are_all_axes_auto) == (True, False)
        assert (empty.are_all_axes_explicit, empty.are_all_axes_auto, empty.are_all_axes_manual) == (False, False, False)
        """
    )


def test_abstract_mesh_targets_land_on_concrete_devices():
    run(
        """
        x = jnp.arange(12.0).reshape(4, 3)
        am = jax.sharding.AbstractMesh((2,), ("d",), axis_types=(AxisType.Explicit,))
        am1 = jax.sharding.AbstractMesh((1,), ("d",), axis_types=(AxisType.Explicit,))
        s = NamedSharding(am, P("d"))

        def placed(y, ids, spec):
            assert isinstance(y.sharding.mesh, Mesh), y.sharding
            assert [d.id for d in y.sharding.mesh.devices.flat] == ids, y.sharding
            assert y.sharding.spec == spec and y.sharding.mesh.axis_names == ("d",)
            assert {d.id for d in y.devices()} == set(ids)
            np.testing.assert_array_equal(np.asarray(y), np.asarray(x))

        # no mesh context: the operand's own device(s), which must be as many as the mesh's
        placed(jax.sharding.reshard(x, NamedSharding(am1, P("d"))), [0], P("d", None))
        e = raises(ValueError, "Length of device assignment 1 is not equal to the size of the mesh 2",
                   jax.sharding.reshard, x, s)
        assert "Please enter your `jit` into a mesh context via `jax.set_mesh`." in str(e)

        mesh = jax.make_mesh((2,), ("d",), devices=jax.devices()[4:6])
        with jax.set_mesh(mesh):
            placed(jax.sharding.reshard(x, s), [4, 5], P("d", None))
            placed(jax.jit(lambda a: jax.sharding.reshard(a, s))(x), [4, 5], P("d", None))
            y = jax.jit(lambda a: a * 1.0)(jax.sharding.reshard(x, s))  # usable as an input
            placed(y, [4, 5], P("d", None))
            assert str(jax.typeof(y)) == "float32[4@d,3]"
        with jax.set_mesh(jax.make_mesh((4,), ("d",))):
            raises(ValueError, "Length of device assignment 4 is not equal to the size of the mesh 2",
                   jax.sharding.reshard, x, s)

        # Auto axes: with_sharding_constraint to an abstract-mesh sharding
        amesh = jax.make_mesh((2,), ("d",), axis_types=(AxisType.Auto,), devices=jax.devices()[2:4])
        sa = NamedSharding(amesh.abstract_mesh, P(None, "d"))
        with jax.set_mesh(amesh):
            y = jax.lax.with_sharding_constraint(jnp.ones((4, 2)), sa)
            assert isinstance(y.sharding.mesh, Mesh) and y.sharding.spec == P(None, "d")
            assert [d.id for d in y.sharding.mesh.devices.flat] == [2, 3]
            z = jax.jit(lambda a: jax.lax.with_sharding_constraint(a, sa))(jnp.ones((4, 2)))
            assert isinstance(z.sharding.mesh, Mesh)
            assert [d.id for d in z.sharding.mesh.devices.flat] == [2, 3]
        """
    )
