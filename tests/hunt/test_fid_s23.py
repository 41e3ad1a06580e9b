"""Session 23 fidelity fixes, checked against JAX 0.10.2 (XLA:CPU).

XLA's algebraic simplifier merges the constants of a chain of additions or products
(``(x + c1) + c2`` is ``x + (c1 + c2)``, ``(x * c1) / c2`` is ``x * (c1 * (1 / c2))``) and
drops ``+ 0`` (``x + 0.0`` keeps ``-0.0``) in compiled code: ops/const_chains.py. Each case
asserts the bits of a NumPy formula of the merged (or unmerged) chain, which JAX 0.10.2
gives bit for bit (measured), so the file means something without JAX; where JAX is
importable the bits are compared with JAX's too.
"""

from __future__ import annotations

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as ljnp

try:
    import jax
    import jax.numpy as jjnp
except ImportError:
    jax = None

_RNG = np.random.default_rng(23)
_N = 512
_X = (_RNG.standard_normal(_N) * np.exp(_RNG.uniform(-3, 3, _N))).astype(np.float32)
_X[:4] = [-0.0, 0.0, np.inf, -np.inf]
_A1 = _RNG.standard_normal(_N).astype(np.float32)
_A2 = _RNG.standard_normal(_N).astype(np.float32)
_D = _RNG.uniform(1, 3, _N).astype(np.float32)
C1, C2, C3 = 0.1, 2.7, -1.3
f32, f16 = np.float32, np.float16


def _r(c, t=f32):
    """The rounded reciprocal ``1 / c`` in dtype ``t`` (XLA's ``A / C => A * (1 / C)``)."""
    return t(1) / t(c)


def _bits(a):
    """Bits of ``a`` with every NaN the same (XLA's and NumPy's NaN signs differ)."""
    a = np.array(a)
    if a.dtype.kind == "c":
        a = a.view(a.real.dtype)
    if a.dtype.kind == "f" or a.dtype.name == "bfloat16":
        a[np.isnan(a.astype(np.float32))] = np.nan
    return a.view(f"u{a.dtype.itemsize}")


def _check(build, expected, x=_X):
    """``build(jit, jnp, lax, arrays)`` in jaxlite (and JAX) gives ``expected``'s bits."""
    with np.errstate(all="ignore"):
        want = _bits(np.asarray(expected(x)))
    engines = [(jaxlite, ljnp)] + ([(jax, jjnp)] if jax is not None else [])
    for jx, jnp in engines:
        arrays = {k: jnp.asarray(v) for k, v in {"A1": _A1, "A2": _A2, "D": _D}.items()}
        got = _bits(np.asarray(build(jx.jit, jnp, jx.lax, arrays)(jnp.asarray(x))))
        bad = np.flatnonzero(got != want)
        assert not len(bad), (jx.__name__, len(bad), bad[:5])


_CHAINS = {
    # additions: A - C is A + (-C), C - A is (-A) + C
    "add_add": (lambda j, n, l, a: j(lambda x: (x + C1) + C2), lambda x: x + (f32(C1) + f32(C2))),
    "const_first": (
        lambda j, n, l, a: j(lambda x: C2 + (C1 + x)),
        lambda x: x + (f32(C1) + f32(C2)),
    ),
    "sub_sub": (lambda j, n, l, a: j(lambda x: (x - C1) - C2), lambda x: x + (-f32(C1) - f32(C2))),
    "rsub_add": (lambda j, n, l, a: j(lambda x: (C1 - x) + C2), lambda x: (f32(C1) + f32(C2)) - x),
    "three": (
        lambda j, n, l, a: j(lambda x: ((x + C1) + C2) + C3),
        lambda x: x + ((f32(C1) + f32(C2)) + f32(C3)),
    ),
    # a constant subtracted from outside the chain stops it
    "outer_rsub": (
        lambda j, n, l, a: j(lambda x: C2 - (x + C1)),
        lambda x: f32(C2) - (x + f32(C1)),
    ),
    # products; a division by a constant is a product by its rounded reciprocal
    "mul_mul": (lambda j, n, l, a: j(lambda x: (x * C1) * C2), lambda x: x * (f32(C1) * f32(C2))),
    "mul_div": (lambda j, n, l, a: j(lambda x: (x * C1) / C2), lambda x: x * (f32(C1) * _r(C2))),
    "div_div": (lambda j, n, l, a: j(lambda x: (x / C1) / C2), lambda x: x * (_r(C1) * _r(C2))),
    "rdiv_stops": (
        lambda j, n, l, a: j(lambda x: (C1 / x) * C2),
        lambda x: (f32(C1) / x) * f32(C2),
    ),
    # closed-over arrays merge with each other, not with a broadcast scalar
    "arrays": (lambda j, n, l, a: j(lambda x: (x + a["A1"]) + a["A2"]), lambda x: x + (_A1 + _A2)),
    "array_and_scalar": (
        lambda j, n, l, a: j(lambda x: (x + a["A1"]) + C2),
        lambda x: (x + _A1) + f32(C2),
    ),
    "full_and_scalar": (
        lambda j, n, l, a: j(lambda x: (x + n.full(x.shape, C1, x.dtype)) + C2),
        lambda x: x + (f32(C1) + f32(C2)),
    ),
    # A + 0 => A: the zero's sign and the operand's are kept
    "cancel": (lambda j, n, l, a: j(lambda x: (x + 1.0) - 1.0), lambda x: x),
    "plus_zero": (lambda j, n, l, a: j(lambda x: x + 0.0), lambda x: x),
    "minus_negative_zero": (lambda j, n, l, a: j(lambda x: x - (-0.0)), lambda x: x),
    "zero_minus": (lambda j, n, l, a: j(lambda x: 0.0 - x), lambda x: f32(0) - x),
    # other dtypes: float16 merges in float16, bfloat16 does not merge (computed in float32)
    "float16": (
        lambda j, n, l, a: j(lambda x: (x.astype(n.float16) + C1) * C2 / C3),
        lambda x: (x.astype(f16) + f16(C1)) * (f16(C2) * _r(C3, f16)),
    ),
    "complex64_add": (
        lambda j, n, l, a: j(lambda x: ((x * (1 + 1j)) + (0.3 - 1j)) - (0.7 + 0.1j)),
        lambda x: (x * np.complex64(1 + 1j)) + (np.complex64(0.3 - 1j) - np.complex64(0.7 + 0.1j)),
    ),
    # compiled bodies: a loop body under jit, an eager cond with literals
    "fori_body": (
        lambda j, n, l, a: j(lambda x: l.fori_loop(0, 2, lambda i, v: (v + C1) + C2, x)),
        lambda x: (x + (f32(C1) + f32(C2))) + (f32(C1) + f32(C2)),
    ),
    "eager_cond_literals": (
        lambda j, n, l, a: lambda x: l.cond(True, lambda v: (v * C1) * C2, lambda v: v, x),
        lambda x: x * (f32(C1) * f32(C2)),
    ),
    # an eager cond passes closed-over arrays to its branch as operands: not constants
    "eager_cond_arrays": (
        lambda j, n, l, a: (
            lambda x: l.cond(True, lambda v: (v + a["A1"]) + a["A2"], lambda v: v, x)
        ),
        lambda x: (x + _A1) + _A2,
    ),
    "eager_cond_division": (
        lambda j, n, l, a: lambda x: l.cond(True, lambda v: v / a["D"], lambda v: v, x),
        lambda x: x / _D,
    ),
    # eager operations compute each step
    "eager": (lambda j, n, l, a: lambda x: (x + C1) + C2, lambda x: (x + f32(C1)) + f32(C2)),
}


@pytest.mark.parametrize("name", sorted(_CHAINS))
def test_constant_chains_match_xla(name):
    build, expected = _CHAINS[name]
    _check(build, expected)


def test_bfloat16_chain_is_not_merged():
    import ml_dtypes

    bf = ml_dtypes.bfloat16
    x = _X.astype(bf)
    _check(
        lambda j, n, l, a: j(lambda x: (x + C1) + C2),
        lambda x: ((x.astype(f32) + f32(bf(C1))).astype(bf).astype(f32) + f32(bf(C2))).astype(bf),
        x,
    )


def test_simplified_jaxpr_holds_one_merged_constant():
    """The rewrite is visible where compiled code is inspected (jit(f).lower)."""
    text = jaxlite.jit(lambda x: (x - 0.5) - 0.25).lower(ljnp.ones(3)).as_text()
    simplified = text.split("# simplified jaxpr")[1].split("# generated")[0]
    assert "add a -0.75" in simplified and "sub" not in simplified


# ------------------------------------------------- scatter's unique_indices (set updates)
# JAX differentiates a scatter whose indices may repeat by scattering update ids and
# scatter-adding the masked operand and updates: a winning -0.0 comes out +0.0 in jvp's
# primal and tangent; with unique_indices=True (or basic indices) it scatters the tangents
# and gathers every update's cotangent, even where a broken promise repeats an index.

from tests.hunt.oracle import same  # noqa: E402

_SX = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)
_SU = np.array([[-0.0, 7.0], [8.0, -0.0], [9.0, 10.0]], np.float32)
_ST = np.array([[-0.0, 1.0], [2.0, -0.0], [3.0, 4.0]], np.float32)
_SDN = dict(update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))


def _at_set(m, kw, idx=(0, 2, 0)):
    i = m.jnp.array(idx)
    return lambda x, u: x.at[i].set(u, **kw)


def _lax_set(m, unique):
    dn = m.lax.ScatterDimensionNumbers(**_SDN)
    i = m.jnp.array([[0], [2], [0]])
    return lambda x, u: m.lax.scatter(x, i, u, dn, unique_indices=unique)


_SCATTERS = {
    "at_set": lambda m: _at_set(m, {}),
    "at_set_clip": lambda m: _at_set(m, {"mode": "clip"}),
    "at_set_sorted": lambda m: _at_set(m, {"indices_are_sorted": True}),
    "at_set_unique": lambda m: _at_set(m, {"unique_indices": True}),
    "at_set_unique_clip": lambda m: _at_set(m, {"unique_indices": True, "mode": "clip"}),
    "at_set_out_of_bounds_clip": lambda m: _at_set(m, {"mode": "clip"}, (5, 1, 0)),
    "lax_scatter": lambda m: _lax_set(m, False),
    "lax_scatter_unique": lambda m: _lax_set(m, True),
}


@pytest.mark.parametrize("name", sorted(_SCATTERS))
@pytest.mark.parametrize("how", ["jvp", "jit_jvp", "grad"])
def test_scatter_set_derivatives_follow_unique_indices(name, how):
    def build(m):
        f = _SCATTERS[name](m)
        x, u, t = m.jnp.asarray(_SX), m.jnp.asarray(_SU), m.jnp.asarray(_ST)
        if how == "grad":
            w = m.jnp.arange(6.0).reshape(3, 2)
            return m.jx.grad(lambda x, u: m.jnp.sum(f(x, u) * w), argnums=(0, 1))(x, u)
        run = lambda: m.jx.jvp(f, (x, u), (m.jnp.ones_like(x), t))  # noqa: E731
        return m.jx.jit(run)() if how == "jit_jvp" else run()

    got = same(build)
    unique = "unique" in name
    if how != "grad" and name != "at_set_out_of_bounds_clip":
        primal, tangent = (np.asarray(a) for a in got)
        # row 2 takes the second update, [8, -0.0] (tangent [2, -0.0]): the sign of its
        # zero says which rule ran
        assert np.signbit(primal[2, 1]) == unique and np.signbit(tangent[2, 1]) == unique
    if how == "grad" and name.startswith("at_set") and "out_of" not in name:
        du = np.asarray(got[1])
        # a repeated index: only the last update's cotangent, unless unique was promised
        assert du[0].tolist() == ([0.0, 1.0] if unique else [0.0, 0.0])


def test_basic_indices_keep_negative_zero_under_jvp():
    def build(m):
        x = m.jnp.asarray(_SX)
        return m.jx.jvp(
            lambda x, u: x.at[1].set(u), (x, m.jnp.float32(-0.0)), (x, m.jnp.float32(-0.0))
        )

    primal, tangent = same(build)
    assert np.signbit(np.asarray(primal)[1]).all() and np.signbit(np.asarray(tangent)[1]).all()


def test_batched_dynamic_update_slice_is_a_unique_scatter():
    def build(m):
        def f(x):
            upd = m.jnp.array([-0.0])
            return m.jx.vmap(lambda r, i: m.lax.dynamic_update_slice(r, upd, (i,)))(
                x, m.jnp.array([0, 1, 1])
            )

        return m.jx.jvp(f, (m.jnp.asarray(_SX),), (m.jnp.asarray(_SX),))

    primal, tangent = same(build)
    assert np.signbit(np.asarray(primal)[0, 0]) and np.asarray(tangent)[0, 0] == 0


# ------------------------------------------------- eigh(symmetrize_input=False) derivatives
# JAX's eigh JVP decomposes the symmetrized input, (a + a^H) / 2, whatever
# symmetrize_input says: under jvp/grad/vjp a non-symmetric input's primal values are
# those of the symmetrized matrix (eagerly, its lower or upper triangle's), and the
# tangents those of the full tangent.

_EA = np.array([[2.0, 1.0, 0.5], [-0.3, 3.0, 0.2], [0.7, 0.4, 1.0]], np.float32)
_ET = np.array([[0.1, 0.2, -0.3], [0.4, 0.5, 0.6], [-0.7, 0.8, 0.9]], np.float32)


@pytest.mark.parametrize("uplo", ["L", "U"])
@pytest.mark.parametrize("how", ["eager", "jvp", "vjp", "jit_grad"])
def test_eigh_without_symmetrizing_differentiates_the_symmetrized_input(uplo, how):
    def build(m):
        a = m.jnp.asarray(_EA)

        def w(a):
            return m.jnp.linalg.eigh(a, UPLO=uplo, symmetrize_input=False)[0]

        if how == "eager":
            return w(a)
        if how == "jvp":
            return m.jx.jvp(w, (a,), (m.jnp.asarray(_ET),))
        if how == "vjp":
            out, pull = m.jx.vjp(w, a)
            return out, pull(m.jnp.array([1.0, 2.0, 3.0]))[0]
        return m.jx.jit(m.jx.grad(lambda a: w(a) @ m.jnp.array([1.0, 2.0, 3.0])))(a)

    got = same(build, rtol=1e-4, atol=1e-5, signs=False)
    sym = (_EA + _EA.T) / 2
    tri = np.tril(_EA) + np.tril(_EA, -1).T if uplo == "L" else np.triu(_EA) + np.triu(_EA, 1).T
    if how == "eager":
        np.testing.assert_allclose(np.asarray(got), np.linalg.eigvalsh(tri), rtol=1e-5)
    elif how in ("jvp", "vjp"):
        np.testing.assert_allclose(np.asarray(got[0]), np.linalg.eigvalsh(sym), rtol=1e-5)
    if how == "jvp":
        v = np.linalg.eigh(sym)[1]
        np.testing.assert_allclose(np.asarray(got[1]), np.diag(v.T @ _ET @ v), rtol=1e-4)


# ------------------------------------------------------ integer vector_norm, other orders
# JAX converts the order to the input's integer dtype (positive orders give 1, negative ones
# raise or wrap: docs/compat.md); jaxlite computes these norms in floating point.


@pytest.mark.parametrize("dtype", ["int8", "int32", "uint16", "bool"])
@pytest.mark.parametrize("order", [3, 2.5, 0.5, -1, -2.0])
def test_integer_vector_norm_of_other_orders_is_the_float_norm(dtype, order):
    x = np.array([-3, 1, 2, 0] if dtype[0] == "i" else [3, 1, 2, 0]).astype(dtype)
    with np.errstate(divide="ignore"):  # (a zero element under a negative order)
        want = np.linalg.norm(x.astype(np.float64), ord=order)
    for f in (ljnp.linalg.vector_norm, jaxlite.jit(ljnp.linalg.vector_norm, static_argnames="ord")):
        got = f(ljnp.asarray(x), ord=order)
        assert got.dtype == np.float32
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)


# ------------------------------------------- population_count / clz of floats under jvp
# JAX has no JVP rule for them: a float operand's tangent raises NotImplementedError
# before the dtype is checked (fuzz_s19 x64 seed 23151); integer operands differentiate
# to zero tangents.


@pytest.mark.parametrize("op", ["population_count", "clz"])
def test_bit_counts_refuse_float_tangents_as_jax(op):
    def build(m):
        f = getattr(m.lax, op)
        x = m.jnp.array([1.5, 2.0])
        return m.jx.jvp(f, (x,), (x,))

    got = same(build)
    assert isinstance(got, NotImplementedError)
    assert str(got) == f"Differentiation rule for '{op}' not implemented"
    f = getattr(jaxlite.lax, op)
    g = jaxlite.grad(lambda v: ljnp.sum(f(v.astype(ljnp.int32)) * v))(ljnp.array([1.0, 3.0]))
    assert np.asarray(g).tolist() == np.asarray(f(ljnp.array([1, 3]))).astype(float).tolist()


# ------------------------------------------- incompatible shapes: the class follows ranks
# JAX's jnp binary functions promote operands of different ranks first, whose broadcast
# raises ValueError listing the shapes; equal ranks reach the lax operation, which raises
# TypeError (fuzz_s21 mixed seeds 23140, 23222: jaxlite raised TypeError for both).


@pytest.mark.parametrize(
    ("a", "b", "cls"),
    [((6,), (2, 3), ValueError), ((5, 2, 3), (2, 4), ValueError), ((2, 3), (3, 2), TypeError)],
)
@pytest.mark.parametrize("op", ["add", "floor_divide", "bitwise_or", "vmap_add"])
def test_incompatible_shapes_raise_by_rank(op, a, b, cls):
    def build(m):
        x, y = m.jnp.ones(a, "int32"), m.jnp.ones(b, "int32")
        if op == "vmap_add":
            return m.jx.vmap(m.jnp.add)(x[None], y[None])
        return getattr(m.jnp, op)(x, y)

    got = same(build)
    assert type(got) is cls
    if cls is ValueError:
        assert str(got) == f"Incompatible shapes for broadcasting: shapes={[a, b]}"
