"""Session 21: the parts of NumPyro 0.22.0's own suite that had never run on jaxlite
(``test_distributions.py``'s large parametrized functions: ``test_output_is_array``,
``test_log_prob``, ``test_expand``, ``test_distribution_constraints``, ``test_biject_to``,
``test_dist_pytree``, ...; ``infer/test_autoguide.py`` beyond its first 26 tests), run with
jaxlite installed as ``jax``; each jaxlite-only failure reduced here to plain jax/jnp.
Expected values are JAX 0.10.2's (the file passes in oracle mode, ``JAXLITE_ORACLE=jax``).

* ``lax.scatter``/``scatter_add`` (and ``gather``) whose updates have a zero-sized batch
  dimension next to a window dimension (numpyro's ``vec_to_tril_matrix(t, diagonal=-1)``
  of a 1x1 matrix: ``scatter_add`` of updates ``(3, 0)`` at no indices into ``(3, 1)``;
  ``biject_to(lower_cholesky)`` of a ``(3, 1)`` input, 4 ``test_biject_to`` cases): jaxlite
  raised ``TypeError`` from ``broadcast_in_dim``. JAX returns the operand unchanged. The
  shape helper that broadcast the index arrays took the ``max`` of two sizes, so a zero
  size met by a one became one; it now broadcasts (a size of one takes the other size).
* ``tree_flatten`` of a custom node whose auxiliary data is a NumPy array or a SciPy
  sparse matrix (numpyro's ``MultinomialProbs`` keeps its ``total_count`` array there;
  ``test_dist_pytree``): the second flatten of an equal-shaped tree raised ``ValueError:
  The truth value of an array ... is ambiguous`` (sparse matrices: their
  ``SparseEfficiencyWarning``, an error under numpyro's settings). jaxlite memoises the
  dict-key canonicalisation per treedef, and the memo compared the new treedef with the
  stored one of equal hash, so the auxiliary data with ``==``. JAX's flatten compares
  nothing. A treedef whose comparison raises is now canonicalised without the memo.
* Found next to the first: ``lax.gather`` did not check its ``slice_sizes`` (a wrong answer
  for bad input: ``(1, 5)`` of a 3x4 operand came back with shape ``(2, 5)``, a collapsed
  size of 0 or 2 was lost). JAX raises ``TypeError`` (one size per operand dimension, each
  within ``[0, bound]``, collapsed ones 1); jaxlite now raises the same errors.
"""

import warnings

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy  # noqa: F401

from .oracle import same

lax = jax.lax


# ------------------------------------------------------------------ zero-sized scatter
SCATTER_CASES = {
    # operand, updates, indices, update_window_dims, inserted, scatter_dims_to_operand
    "batch0_window3": ((3, 1), (3, 0), (0, 1), (0,), (1,), (1,)),
    "batch0_window3_trailing": ((1, 3), (0, 3), (0, 1), (1,), (0,), (0,)),
    "batch0_two_windows": ((2, 1, 4), (2, 0, 4), (0, 1), (0, 2), (1,), (1,)),
    "window0": ((0, 2), (2, 0), (2, 1), (1,), (1,), (1,)),
    "batch0_rank1": ((4,), (0,), (0, 1), (), (0,), (0,)),
}


@pytest.mark.parametrize("kind", ["scatter", "scatter_add", "scatter_mul", "scatter_max"])
@pytest.mark.parametrize("case", sorted(SCATTER_CASES))
def test_scatter_with_zero_sized_dimension(case, kind):
    op_shape, u_shape, i_shape, uwd, iwd, sdod = SCATTER_CASES[case]

    def build(m):
        x = m.jnp.arange(float(np.prod(op_shape))).reshape(op_shape) + 1.0
        u = m.jnp.full(u_shape, 7.0)
        idx = m.jnp.zeros(i_shape, m.jnp.int32)
        dn = m.lax.ScatterDimensionNumbers(
            update_window_dims=uwd, inserted_window_dims=iwd, scatter_dims_to_operand_dims=sdod
        )
        f = getattr(m.lax, kind)
        return f(x, idx, u, dn), m.jx.jit(lambda a, b: f(a, idx, b, dn))(x, u)

    out = same(build)
    # no index applies (or the windows are empty): the operand comes back unchanged
    np.testing.assert_array_equal(
        np.asarray(out[0]), np.arange(float(np.prod(op_shape))).reshape(op_shape) + 1.0
    )


def test_vec_to_tril_matrix_below_diagonal_of_1x1():
    # numpyro.distributions.util.vec_to_tril_matrix(t, diagonal=-1) with t of shape (3, 0)
    def build(m):
        t = m.jnp.ones((3, 0))
        idx = m.jnp.reshape(m.jnp.arange(1), (1, 1))[m.jnp.tril_indices(1, -1)]
        dn = m.lax.ScatterDimensionNumbers(
            update_window_dims=(0,), inserted_window_dims=(1,), scatter_dims_to_operand_dims=(1,)
        )
        return m.lax.scatter_add(m.jnp.zeros((3, 1)), m.jnp.expand_dims(idx, -1), t, dn)

    np.testing.assert_array_equal(np.asarray(same(build)), np.zeros((3, 1)))


@pytest.mark.parametrize("mode", ["clip", "fill", "promise_in_bounds"])
def test_gather_with_zero_sized_batch(mode):
    def build(m):
        x = m.jnp.arange(12.0).reshape(3, 4)
        idx = m.jnp.zeros((0, 1), m.jnp.int32)
        dn = m.lax.GatherDimensionNumbers(
            offset_dims=(0,), collapsed_slice_dims=(1,), start_index_map=(1,)
        )
        return (m.lax.gather(x, idx, dn, (3, 1), mode=mode),
                m.jnp.take(x, m.jnp.zeros((0,), m.jnp.int32), axis=1,
                           mode=None if mode == "promise_in_bounds" else mode),
                x.at[:, m.jnp.zeros((0,), m.jnp.int32)].add(1.0, mode=mode))

    out = same(build)
    assert np.shape(out[0]) == (3, 0)


# ------------------------------------------------------------------ treedef memo
def _register(m, name):
    cls = type(name, (), {"__init__": lambda s, a, x: (setattr(s, "a", a), setattr(s, "x", x))[0]})
    m.jx.tree_util.register_pytree_node(cls, lambda c: ((c.x,), c.a), lambda a, ch: cls(a, *ch))
    return cls


@pytest.mark.parametrize("aux", ["array", "sparse"])
def test_flatten_with_array_aux_data_compares_nothing(aux):
    import scipy.sparse as sps

    def make():
        return np.array([5, 8]) if aux == "array" else sps.csr_matrix(np.eye(3))

    def build(m):
        cls = _register(m, f"NodeS21_{aux}_{m.jx.__name__}")
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            tu = m.jx.tree_util
            for v in (1.0, 2.0, 3.0):  # equal treedefs, distinct auxiliary objects
                leaves, td = tu.tree_flatten(cls(make(), v))
                assert leaves == [v] and tu.tree_unflatten(td, [v * 2]).x == v * 2
            mapped = tu.tree_map(lambda t: t + 1, {"b": cls(make(), 1.0), "a": 1})
            assert list(mapped) == ["a", "b"] and mapped["b"].x == 2.0
            return m.lax.map(lambda i: cls(make(), i).x * 2, m.jnp.ones(3))

    np.testing.assert_array_equal(np.asarray(same(build)), [2.0, 2.0, 2.0])


@pytest.mark.parametrize(
    "sizes", [(2, 1), (0, 1), (1, 5), (1,), (-1, 1), (1, 1, 1), (1, 4), (1, 0)],
    ids=["collapsed2", "collapsed0", "past_end", "too_few", "negative", "too_many", "ok",
         "ok_empty"],
)
def test_gather_slice_sizes_checked(sizes):
    # found next to the zero-sized gathers above: jaxlite sliced slice sizes that do not fit
    # (a window past the end came back clipped, (1, 5) of a 3x4 operand gave shape (2, 5))
    def build(m):
        dn = m.lax.GatherDimensionNumbers(
            offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,)
        )
        x = m.jnp.arange(12.0).reshape(3, 4)
        return m.lax.gather(x, m.jnp.array([[2], [0]]), dn, sizes)

    out = same(build)
    if sizes in ((1, 4), (1, 0)):
        want = np.arange(12.0).reshape(3, 4)[[2, 0], : sizes[1]]
        np.testing.assert_array_equal(np.asarray(out), want)
    else:
        assert isinstance(out, TypeError)
