# ruff: noqa: E501 (check scripts are data: long lines keep exact JAX messages whole)
"""S11 (spec/sharding.md): jax.pmap on top of shard_map."""

from tests.sharding._subproc import run


def test_S11_pmap():
    run(
        """
        r = jax.pmap(lambda a: jax.lax.psum(a, "i"), axis_name="i")(jnp.arange(8.))
        assert np.asarray(r).tolist() == [28.] * 8
        assert r.sharding == NamedSharding(Mesh(jax.devices(), ("i",)), P("i"))
        r = jax.pmap(lambda a: a * 2)(jnp.arange(16.).reshape(8, 2))
        assert r.shape == (8, 2) and repr(r.sharding) == "NamedSharding(mesh=Mesh('_internal_pmap_axis_name': 8, axis_types=(Auto,)), spec=P('_internal_pmap_axis_name',), memory_kind=device)"
        assert np.asarray(jax.pmap(lambda a, b: a * b, in_axes=(0, None))(jnp.arange(4.), 3.)).tolist() == [0., 3., 6., 9.]
        assert np.asarray(jax.pmap(lambda a: a.sum(), in_axes=1)(jnp.arange(8.).reshape(2, 4))).tolist() == [4., 6., 8., 10.]
        assert jax.pmap(lambda a: a[None] * 2, out_axes=1)(jnp.arange(4.)).shape == (1, 4)
        assert np.asarray(jax.pmap(lambda a, n: a * n, static_broadcasted_argnums=1)(jnp.arange(4.), 5)).tolist() == [0., 5., 10., 15.]
        raises(ValueError, "implies that array axis 0 is partitioned 8 times, but the dimension size is 9",
               jax.pmap(lambda a: a), jnp.arange(9.))
        r = jax.pmap(lambda a: a + 1, devices=jax.devices()[:2])(jnp.arange(2.))
        assert np.asarray(r).tolist() == [1., 2.] and r.devices() == set(jax.devices()[:2])
        assert np.asarray(jax.grad(lambda x: jax.pmap(lambda a: a ** 2)(x).sum())(jnp.arange(4.))).tolist() == [0., 2., 4., 6.]
        assert np.asarray(jax.pmap(lambda a: jax.lax.axis_index("i"), axis_name="i")(jnp.arange(4.))).tolist() == [0, 1, 2, 3]
        assert np.asarray(jax.pmap(lambda a: jax.lax.all_gather(a, "i"), axis_name="i")(jnp.arange(4.))).tolist() == [[0., 1., 2., 3.]] * 4
        assert np.asarray(jax.pmap(lambda d: d["a"] + d["b"])({"a": jnp.ones(4), "b": jnp.ones(4)})).tolist() == [2.] * 4
        u, v = jax.pmap(lambda a: (a, a * 2))(jnp.ones(3))
        assert np.asarray(v).tolist() == [2.] * 3
        # pmap of a ring ppermute, and jit of pmap
        ring = jax.pmap(lambda a: jax.lax.ppermute(a, "i", [(j, (j + 1) % 4) for j in range(4)]), axis_name="i")
        assert np.asarray(jax.jit(ring)(jnp.arange(4.))).tolist() == [3., 0., 1., 2.]
        """
    )
