"""Session 20: einops 0.8.2 (its jax backend: README operations and its own test suite)
run with jaxlite installed as ``jax``; each jaxlite-only failure reduced here to plain
jax/jnp. Expected values are JAX 0.10.2's (the file passes in oracle mode,
``JAXLITE_ORACLE=jax``).

* ``jnp.einsum`` of three or more operands that no contraction joins pairwise (an
  elementwise product ``ij,ij,ij->ij``, an outer product ``i,j,k->ijk``; einops'
  ``einsum(x, y, z, "... , ..., ... -> ...")``): a wrong answer. jaxlite took its
  contraction order from NumPy's ``einsum_path``, which joins all such operands in one
  step, and contracted only the first two of them: every operand after the second was
  dropped. JAX multiplies them all. Each step of the path is now folded pairwise.
"""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp

from .oracle import same

CASES = {
    "hadamard3": ("ij,ij,ij->ij", [(3, 2)] * 3),
    "hadamard4": ("ij,ij,ij,ij->ij", [(3, 2)] * 4),
    "ellipsis3": ("...,...,...->...", [(3, 2)] * 3),
    "outer3": ("i,j,k->ijk", [(2,), (3,), (4,)]),
    "mixed": ("ab,ab,c->abc", [(2, 3), (2, 3), (4,)]),
    "outer_sum": ("ab,cd,ef->", [(2, 2)] * 3),
    "outer_then_chain": ("i,j,jk,k->ik", [(2,), (3,), (3, 4), (4,)]),
    "broadcast": ("ij,ij,ij->ij", [(3, 1), (1, 2), (3, 2)]),
}


@pytest.mark.parametrize(
    "optimize", ["greedy", "optimal", False], ids=["greedy", "optimal", "none"]
)
@pytest.mark.parametrize("name", list(CASES))
def test_einsum_many_operands_in_one_path_step(name, optimize):
    expr, shapes = CASES[name]
    rng = np.random.default_rng(0)
    ops = [rng.normal(size=s).astype(np.float32) for s in shapes]

    out = same(lambda m: m.jnp.einsum(expr, *ops, optimize=optimize))
    np.testing.assert_allclose(np.asarray(out), np.einsum(expr, *ops), rtol=1e-5, atol=1e-6)


def test_einsum_many_operands_under_jit_and_grad():
    rng = np.random.default_rng(1)
    a, b, c = (jnp.asarray(rng.normal(size=(3, 2)).astype(np.float32)) for _ in range(3))

    def f(a, b, c):
        return jnp.sum(jnp.einsum("ij,ij,ij->ij", a, b, c) ** 2)

    want = np.sum((np.asarray(a) * np.asarray(b) * np.asarray(c)) ** 2)
    np.testing.assert_allclose(float(jax.jit(f)(a, b, c)), want, rtol=1e-5)
    ga = jax.grad(f)(a, b, c)
    np.testing.assert_allclose(
        np.asarray(ga), 2 * np.asarray(a) * (np.asarray(b) * np.asarray(c)) ** 2, rtol=1e-5
    )
