"""Regression tests from the fuzz session of 2026-12-02: compositions of transformations
checked against JAX 0.10.2. Expected values are JAX's (restated as NumPy facts); the file
also passes in oracle mode (``JAXLITE_ORACLE=jax``)."""

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp


def test_vmap_passes_unmapped_python_int_through_unchanged():
    # JAX hands an in_axes=None leaf to the function as given: a Python int stays a Python
    # int, so `n * 2**20` is Python arithmetic and reaches jnp as an out-of-range int
    # (OverflowError), as it would without vmap. jaxlite made it an int32 array first and
    # wrapped around silently (4096 * 2**20 -> 0: x + 0 = x, a wrong answer).
    f = jaxlite.vmap(lambda x, n: x + n * 2**20, in_axes=(0, None))
    with pytest.raises(OverflowError):
        f(jnp.array([1, 2]), 4096)


def test_vmap_unmapped_leaves_keep_their_python_types():
    seen = []

    def f(x, n, s, y):
        seen.append((type(n), type(s), type(y)))
        return x * len(s) + n, y

    out, y = jaxlite.vmap(f, in_axes=(0, None, None, None), out_axes=(0, None))(
        jnp.ones(2), 3, "abc", 2.5
    )
    assert seen == [(int, str, float)]
    np.testing.assert_array_equal(np.asarray(out), [6.0, 6.0])
    assert type(y) is float and y == 2.5


def test_vmap_unmapped_python_scalar_weak_types():
    # x * s with s a Python float stays float16 (weak scalar), as without vmap.
    out = jaxlite.vmap(lambda x, s: x * s, in_axes=(0, None))(jnp.ones(3, jnp.float16), 0.5)
    assert out.dtype == jnp.float16
    np.testing.assert_array_equal(np.asarray(out), np.full(3, 0.5, np.float16))


@pytest.mark.parametrize(
    "make_index",
    [
        lambda: (1, jnp.array([0, -1])),
        lambda: (1, [0, 2]),
        lambda: (1, jnp.array([True, False, True])),
        lambda: (1, Ellipsis, jnp.array([0])),
        lambda: (1, None, jnp.array([0])),
        lambda: (jnp.array([1]), 0),
    ],
)
@pytest.mark.parametrize("mode", ["add", "set", "mul", "drop"])
def test_update_of_empty_axis_with_int_next_to_index_array_is_a_no_op(make_index, mode):
    # Seed 7000300: next to an index array, an int is an advanced index, and JAX's scatter
    # drops the out-of-bounds positions (the result is the empty operand). jaxlite raised
    # IndexError as for a lone static int.
    x = jnp.zeros((0, 3))
    ref = x.at[make_index()]
    out = {
        "add": lambda: ref.add(1.0),
        "set": lambda: ref.set(1.0),
        "mul": lambda: ref.mul(2.0),
        "drop": lambda: ref.add(1.0, mode="drop"),
    }[mode]()
    assert out.shape == (0, 3) and out.dtype == jnp.float32


@pytest.mark.parametrize(
    "update",
    [
        lambda x: x.at[jnp.array(1)].set(1.0),
        lambda x: x.at[jnp.array(1), 0].set(1.0),
        lambda x: x.at[0, jnp.array(1)].add(1.0),
        lambda x: jaxlite.jit(lambda i: x.at[i, 0].set(1.0))(1),
        lambda x: x.at[1, :].set(1.0),
    ],
)
def test_update_of_empty_axis_with_scalar_index_raises(update):
    # A 0-d index array (concrete or traced) counts as a scalar index, as a static int
    # does: JAX raises IndexError (jaxlite let the 0-d array through silently).
    with pytest.raises(IndexError, match="out of bounds for axis 0 with size 0"):
        update(jnp.zeros((0, 3)))


def test_update_of_empty_second_axis_names_that_axis():
    with pytest.raises(IndexError, match="axis 1 with size 0"):
        jnp.zeros((3, 0)).at[1, 1].set(1.0)
    assert jnp.zeros((3, 0)).at[5, :].set(1.0).shape == (3, 0)


@pytest.mark.parametrize("which", ["linearize", "vjp"])
def test_linearize_and_vjp_return_python_scalar_outputs_as_returned(which):
    # A constant output that the function returns as a Python scalar comes back as that
    # scalar from JAX's linearize and vjp (as from jvp); jaxlite made it a weak int32 array
    # (the fuzzer's new linearize stack: `x1 ^ x1` of a Python int input).
    f = lambda x: (3, x * 2.0, 0.5)  # noqa: E731
    if which == "linearize":
        y, f_lin = jaxlite.linearize(f, 1.0)
        t = f_lin(1.0)
        np.testing.assert_allclose(np.asarray(t[1]), 2.0)
    else:
        y, pullback = jaxlite.vjp(f, 1.0)
        (ct,) = pullback((np.zeros((), jaxlite.dtypes.float0), 1.0, 1.0))
        np.testing.assert_allclose(np.asarray(ct), 2.0)
    assert type(y[0]) is int and y[0] == 3
    assert type(y[2]) is float and y[2] == 0.5
    np.testing.assert_allclose(np.asarray(y[1]), 2.0)


_WEAK_COMPLEX_FORMULAS = {
    "z ** 2": lambda z: z**2,
    "z ** -2": lambda z: z**-2,
    "sqrt": lambda z: jnp.sqrt(z),
    "square": lambda z: jnp.square(z),
    "tan": lambda z: jnp.tan(z),
    "reciprocal": lambda z: jnp.reciprocal(z),
    "arctan": lambda z: jnp.arctan(z),
    "arccos": lambda z: jnp.arccos(z),
    "rsqrt": lambda z: jaxlite.lax.rsqrt(z),
    "power": lambda z: jnp.power(z, 2),
}


@pytest.mark.parametrize("name", sorted(_WEAK_COMPLEX_FORMULAS))
def test_derivative_formulas_of_a_weak_complex_scalar_are_weak(name):
    # JAX's formula constants are Python scalars for a weak scalar of the default complex
    # dtype, as for float32: the tangent of a Python complex stays weak (jaxlite: strong).
    f = _WEAK_COMPLEX_FORMULAS[name]
    z = 0.5 + 0.25j
    _, t = jaxlite.jvp(f, (z,), (1.0 + 0j,))
    assert t.dtype == jnp.complex64 and t.aval.weak_type
    (ct,) = jaxlite.vjp(f, z)[1](1.0 + 0j)
    assert ct.dtype == jnp.complex64 and ct.aval.weak_type


@pytest.mark.parametrize("part", ["real", "imag", "abs", "angle"])
def test_cotangent_of_a_weak_complex_through_real_parts_is_strong(part):
    # The transposes of real/imag build the complex cotangent with a NumPy zero (strong):
    # JAX's vjp of `z.real` at a Python complex is a strong complex64 (jaxlite: weak).
    f = {"real": jnp.real, "imag": jnp.imag, "abs": jnp.abs, "angle": jnp.angle}[part]
    (ct,) = jaxlite.vjp(f, 0.5 + 0.25j)[1](1.0)
    assert ct.dtype == jnp.complex64 and not ct.aval.weak_type
    expected = {"real": 1.0, "imag": -1j}
    if part in expected:
        np.testing.assert_allclose(np.asarray(ct), expected[part], rtol=1e-6)


@pytest.mark.parametrize("batch_size", [1, 2, 5])
def test_lax_map_with_batch_size_over_no_slices(batch_size):
    # Fuzz seed 9000133 (the new lax_map op): an empty xs with batch_size raised TypeError
    # (tree_map of no pieces); JAX maps f over the empty xs (one vmapped call).
    ys = jaxlite.lax.map(lambda r: (r * 2, r.sum()), jnp.zeros((0, 3)), batch_size=batch_size)
    assert ys[0].shape == (0, 3) and ys[1].shape == (0,)
    assert ys[1].dtype == jnp.float32
    g = jaxlite.grad(lambda x: jaxlite.lax.map(jnp.sum, x, batch_size=batch_size).sum())
    assert g(jnp.zeros((0, 3))).shape == (0, 3)
    np.testing.assert_allclose(
        np.asarray(jaxlite.lax.map(jnp.sin, jnp.arange(5.0), batch_size=batch_size)),
        np.sin(np.arange(5.0)),
        rtol=1e-6,
    )


@pytest.mark.parametrize("name", ["min", "max"])
def test_derivative_of_extremum_with_where_and_initial_equal_to_an_element(name):
    # Fuzz seed 7001556, a wrong derivative: masked elements take the reduction's identity
    # (+-inf), and `initial` joins after the reduction. jaxlite filled masked elements with
    # `initial`, so an unmasked element equal to `initial` tied with every masked one too:
    # jvp 0.0833 (0.5 / 3 / 2) where JAX gives 0.25 (0.5 split with `initial` only).
    fn = getattr(jnp, name)
    x = jnp.array([1.0, -1.66, -0.47])
    f = lambda x: fn(x, where=x > 0, initial=1.0)  # noqa: E731
    y, t = jaxlite.jvp(f, (x,), (jnp.full(3, 0.5),))
    assert float(y) == 1.0 and float(t) == 0.25
    np.testing.assert_array_equal(np.asarray(jaxlite.grad(f)(x)), [0.5, 0.0, 0.0])
    rows = jnp.array([[1.0, 2.0], [1.0, -1.0]])
    g = lambda x: fn(x, axis=1, where=x > 0, initial=1.0)  # noqa: E731
    _, t = jaxlite.jvp(g, (rows,), (jnp.array([[0.5, 0.25], [1.0, 2.0]]),))
    np.testing.assert_array_equal(np.asarray(t), [0.25, 0.5])


@pytest.mark.parametrize("dtype", ["int32", "uint8", "bool", "float16"])
def test_extremum_with_where_of_every_dtype(dtype):
    x = jnp.array([[1, 0, 3], [2, 2, 0]]).astype(dtype)
    mask = jnp.array([[True, False, True], [False, False, False]])
    init = True if dtype == "bool" else 1
    lo = jnp.min(x, axis=1, where=mask, initial=init)
    hi = jnp.max(x, axis=1, where=mask, initial=init)
    xn = np.array([[1, 0, 3], [2, 2, 0]]).astype(dtype)
    m = np.array([[True, False, True], [False, False, False]])
    np.testing.assert_array_equal(np.asarray(lo), np.min(xn, axis=1, where=m, initial=init))
    np.testing.assert_array_equal(np.asarray(hi), np.max(xn, axis=1, where=m, initial=init))
    assert lo.dtype == x.dtype and hi.dtype == x.dtype
