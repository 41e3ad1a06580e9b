"""Session 23: mctx 0.0.71, flashbax 0.1.3 and pgx 2.6.0 on jaxlite. Their quick starts
(tests/ecosystem) and own test suites found no jaxlite-only failure (docs/ecosystem.md). The
cases here pin, on both engines (``same``: values, dtypes, weak types, or the exception
class), the behaviour their tests exercise where they fail on JAX 0.10.2 too, and the
indexing modes flashbax's sum tree relies on.
"""

import pytest

from tests.hunt.oracle import JAX, LITE, same

ENGINES = [pytest.param(LITE, id="jaxlite")]
if JAX is not None:
    ENGINES.append(pytest.param(JAX, id="jax"))


@pytest.mark.parametrize("m", ENGINES)
@pytest.mark.parametrize("mode", ["eager", "jit", "vmap"])
def test_categorical_axis_past_the_logits_raises_index_error(m, mode):
    # pgx.experimental.act_randomly samples with axis=1 from one game's 1-D logits: 19 pgx
    # test_api cases fail with this error on both engines.
    def sample(key, logits):
        return m.jx.random.categorical(key, logits, axis=1)

    key = m.jx.random.PRNGKey(0)
    logits = m.jnp.zeros(9)
    f = {"eager": sample, "jit": m.jx.jit(sample)}.get(mode)
    with pytest.raises(IndexError, match="index 1 is out of bounds for axis 0 with size 1"):
        if f is None:
            m.jx.vmap(sample, in_axes=(None, 0))(key, m.jnp.zeros((2, 9)))
        else:
            f(key, logits)


def test_categorical_last_axis_of_batched_logits_matches_jax():
    def build(m):
        logits = m.jnp.log(m.jnp.array([[1, 0, 1, 1], [0, 0, 1, 0], [1, 1, 1, 1]], "float32"))
        key = m.jx.random.PRNGKey(3)
        return m.jx.random.categorical(key, logits, axis=1), m.jx.jit(
            lambda k, x: m.jx.random.categorical(k, x, axis=-1)
        )(key, logits)

    same(build)


def test_permutations_of_a_range_match_jax():
    # flashbax's sum_tree test asserts that these two permutations differ everywhere; they
    # share one position, on both engines (3 cases fail on JAX 0.10.2 too).
    def build(m):
        a = m.jx.random.permutation(m.jx.random.PRNGKey(0), m.jnp.arange(100))
        b = m.jx.random.permutation(m.jx.random.PRNGKey(42), m.jnp.arange(100))
        return a, b, m.jnp.nonzero(a == b, size=2, fill_value=-1)[0]

    out = same(build)
    shared = out[2]
    assert int(shared[0]) >= 0 and int(shared[1]) == -1  # exactly one shared position
    assert int(out[0][shared[0]]) == int(out[1][shared[0]])


@pytest.mark.parametrize("jit", [False, True])
def test_sum_tree_drop_modes_and_bincount_match_jax(jit):
    # flashbax's set_batch_bincount: .at[].set / .get with mode="drop" (duplicates, an index
    # past the end, a negative one), bincount with a fixed length, a divided delta.
    def build(m):
        def f(nodes, idx, values):
            new = nodes.at[idx].set(values, mode="drop")
            got = new.at[idx].get(mode="drop", fill_value=0)
            old = nodes.at[idx].get(mode="drop", fill_value=0)
            counts = m.jnp.bincount(m.jnp.clip(idx, 0), length=8)
            divisor = counts.at[idx].get(mode="drop", fill_value=1)
            return new, (got - old) / divisor, new.at[idx // 2].add(got - old, mode="drop")

        g = m.jx.jit(f) if jit else f
        nodes = m.jnp.arange(8, dtype="float32")
        idx = m.jnp.array([1, 1, 5, 9, -2, 3])
        values = m.jnp.array([10.0, 20.0, 30.0, 40.0, 50.0, 60.0])
        return g(nodes, idx, values)

    same(build)
