"""``Array.delete``/``is_deleted`` and buffer donation to ``jit`` (``donate_argnums``,
``donate_argnames``), as JAX 0.10.2 runs them on CPU: which donated arguments a call deletes,
the "not usable" warning, the errors for a deleted array and for a buffer passed twice. Every
test passes in oracle mode (``JAXLITE_ORACLE=jax``)."""

import copy
import pickle
import re
import warnings

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import errors, lax

DELETED = "Array has been deleted with shape=float32[3]."


def _deleted():
    x = jnp.ones(3)
    x.delete()
    return x


# --------------------------------------------------------------------------- delete
def test_delete_frees_the_values_and_keeps_the_type():
    x = jnp.arange(3.0)
    assert not x.is_deleted()
    x.delete()
    x.delete()  # twice is allowed
    assert x.is_deleted()
    assert (x.shape, x.dtype, x.ndim, x.size) == ((3,), jnp.float32, 1, 3)
    assert isinstance(x, jax.Array)


@pytest.mark.parametrize(
    "use",
    [
        repr,
        str,
        np.asarray,
        jnp.sin,
        jnp.array,
        copy.copy,
        copy.deepcopy,
        pickle.dumps,
        jax.device_get,
        lambda x: x + 1,
        lambda x: 1 + x,
        lambda x: np.ones(3, np.float32) + x,
        lambda x: x == 1,
        lambda x: x[0],
        lambda x: x.sum(),
        lambda x: x.tolist(),
        lambda x: x.astype(jnp.int32),
        lambda x: x.at[0].set(1.0),
        lambda x: jax.jit(lambda v: v * 2)(x),
        lambda x: jax.jit(lambda v: v)(x),
        lambda x: jax.jit(lambda p: p[0])([x]),
        lambda x: jax.grad(lambda v: (v * 2).sum())(x),
        lambda x: jax.vmap(lambda v: v * 2)(x),
        lambda x: lax.scan(lambda c, v: (c + v, v), 0.0, x),
    ],
)
def test_any_use_of_a_deleted_array_raises(use):
    with pytest.raises(RuntimeError, match="^" + re.escape(DELETED)):
        use(_deleted())


@pytest.mark.parametrize("wait", [lambda x: x.block_until_ready(), jax.block_until_ready])
def test_waiting_on_a_deleted_array_is_a_runtime_error(wait):
    with pytest.raises(errors.JaxRuntimeError, match="called on deleted or donated buffer"):
        wait([jnp.ones(2), _deleted()] if wait is jax.block_until_ready else _deleted())


@pytest.mark.parametrize(
    "same_values",
    [
        jnp.copy,
        jnp.array,
        lambda x: x.copy(),
        jnp.ravel,
        lambda x: x.ravel(),
        lambda x: x.flatten(),
        jnp.squeeze,
        lambda x: x.squeeze(),
        jnp.real,
        jnp.conj,
        lambda x: x.conj(),
        jnp.positive,
        lambda x: +x,
        jnp.atleast_1d,
        jnp.block,
        jnp.clip,
        lax.optimization_barrier,
        jax.nn.identity,
        lambda x: jnp.flip(x, ()),
        lambda x: jnp.rot90(x[None], 0),
    ],
)
def test_results_that_change_nothing_outlive_the_argument(same_values):
    # JAX's jax.numpy functions are jitted: even one that changes nothing returns a new
    # array, so deleting (or donating) the argument leaves the result alive.
    x = jnp.arange(3.0)
    y = same_values(x)
    assert y is not x
    x.delete()
    assert not y.is_deleted()
    np.testing.assert_array_equal(np.asarray(y).ravel(), [0.0, 1.0, 2.0])


@pytest.mark.parametrize(
    "same_values",
    [jnp.floor, jnp.ceil, jnp.trunc, jnp.round, jnp.nan_to_num, jnp.abs],
    ids=["floor", "ceil", "trunc", "round", "nan_to_num", "abs"],
)
def test_integer_rounding_results_outlive_the_argument(same_values):
    x = jnp.arange(3, dtype=jnp.uint8)
    y = same_values(x)
    assert y is not x and y.dtype == jnp.uint8
    x.delete()
    np.testing.assert_array_equal(y, [0, 1, 2])


# ------------------------------------------------------------------------- donation
def _call(fun, *args, keep_unused=False, **kwargs):
    options = {k: kwargs.pop(k) for k in ("donate_argnums", "donate_argnames") if k in kwargs}
    f = jax.jit(fun, keep_unused=keep_unused, **options)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        out = f(*args, **kwargs)
    texts = [str(w.message) for w in seen if "donated" in str(w.message)]
    return out, texts


def _unusable(*avals):
    return [
        f"Some donated buffers were not usable: {', '.join(avals)}.\n"
        "See an explanation at https://docs.jax.dev/en/latest/faq.html#buffer-donation."
    ]


def test_a_donated_argument_an_output_takes_over_is_deleted():
    x = jnp.ones(3)
    out, warned = _call(lambda a: a * 2, x, donate_argnums=0)
    assert x.is_deleted() and not out.is_deleted() and warned == []
    np.testing.assert_array_equal(out, [2.0, 2.0, 2.0])
    with pytest.raises(RuntimeError, match="deleted"):
        x + 1


@pytest.mark.parametrize(
    ("options", "positional", "keyword"),
    [
        ({"donate_argnums": 0}, True, True),  # the name is inferred from the signature
        ({"donate_argnames": "a"}, True, True),  # and the number from the name
        ({"donate_argnums": (), "donate_argnames": "a"}, False, True),  # both given: as is
        ({"donate_argnums": 0, "donate_argnames": ()}, True, False),
    ],
)
def test_argnums_and_argnames_are_inferred_from_each_other_as_jax_does(
    options, positional, keyword
):
    x = jnp.ones(3)
    _call(lambda a: a * 2, x, **options)
    assert x.is_deleted() == positional
    x = jnp.ones(3)
    _call(lambda a: a * 2, a=x, **options)
    assert x.is_deleted() == keyword


def test_no_output_of_the_shape_means_a_warning_and_no_deletion():
    x = jnp.ones(3)
    _, warned = _call(lambda a: a.sum(), x, donate_argnums=0)
    assert not x.is_deleted()
    assert warned == _unusable("float32[3]")


def test_the_warning_comes_once_per_compiled_signature():
    f = jax.jit(lambda a: a.sum(), donate_argnums=0)
    counts = []
    for _ in range(3):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            f(jnp.ones(3))
        counts.append(len([w for w in seen if "donated" in str(w.message)]))
    assert counts == [1, 0, 0]


def test_a_weak_scalar_donated_is_named_with_its_weak_type():
    x = jnp.ones(3)
    _, warned = _call(lambda a, b: a * b, 2.0, x, donate_argnums=0)
    assert warned == _unusable("~float32[]") and not x.is_deleted()


def test_each_output_takes_the_first_donated_input_of_its_shape_and_dtype():
    x, y = jnp.ones(3), jnp.ones(3)
    _call(lambda a, b: a + b, x, y, donate_argnums=(0, 1))  # one output: x only
    assert x.is_deleted() and not y.is_deleted()
    x, y = jnp.ones(3), jnp.ones(3)
    _call(lambda a, b: (b.sum(), a * 2, b * 2), x, y, donate_argnums=(0, 1))
    assert x.is_deleted() and y.is_deleted()
    x, y = jnp.ones(3), jnp.ones(3, jnp.int32)
    _call(lambda a, b: (b * 2, a.astype(jnp.int32)), x, y, donate_argnums=(0, 1))
    assert x.is_deleted() and y.is_deleted()


def test_a_numpy_array_donated_takes_its_output_but_is_never_deleted():
    n, y = np.ones(3, np.float32), jnp.ones(3)
    _, warned = _call(lambda a, b: a + b, n, y, donate_argnums=(0, 1))
    assert not y.is_deleted() and warned == _unusable("float32[3]")
    np.testing.assert_array_equal(n, [1.0, 1.0, 1.0])


@pytest.mark.parametrize(
    ("fun", "x", "deleted"),
    [
        (lambda a: a.reshape(2, 3) * 2, jnp.ones(6), True),  # same size, same dtype
        (lambda a: a.astype(jnp.int32), jnp.ones(3), True),  # same size and bytes
        (lambda a: a.astype(jnp.int32).reshape(3, 2), jnp.ones(6), True),
        (lambda a: a.astype(jnp.int16), jnp.ones(6, jnp.float16), True),
        (lambda a: a.astype(jnp.float32), jnp.ones(6, jnp.int8), False),  # bytes differ
        (lambda a: a.astype(jnp.float16), jnp.ones(6), False),
        (lambda a: a > 0, jnp.ones(3), False),
    ],
)
def test_an_output_of_as_many_elements_takes_a_donation_when_the_bytes_agree(fun, x, deleted):
    _, warned = _call(fun, x, donate_argnums=0)
    assert x.is_deleted() == deleted
    assert warned == []  # handed to the compiler: no warning either way


def test_unused_donated_arguments_are_pruned_unless_kept():
    x, y = jnp.ones(3), jnp.ones(3)
    _, warned = _call(lambda a, b: b * 2, x, y, donate_argnums=0)
    assert not x.is_deleted() and not y.is_deleted() and warned == []
    _call(lambda a, b: b * 2, x, y, donate_argnums=0, keep_unused=True)
    assert x.is_deleted()
    p = {"a": jnp.ones(3), "b": jnp.ones(2)}
    _call(lambda p: p["b"] * 2, p, donate_argnums=0)
    assert not p["a"].is_deleted() and p["b"].is_deleted()


def test_an_output_that_is_the_input_takes_it_over():
    x = jnp.ones(3)
    out, _ = _call(lambda a: (a, a), x, donate_argnums=0)
    assert x.is_deleted()
    np.testing.assert_array_equal(out[0], [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(out[1], [1.0, 1.0, 1.0])


def test_static_arguments_shift_nothing_and_keys_are_donated_too():
    x = jnp.ones(3)
    jax.jit(lambda s, a: a * s, static_argnums=0, donate_argnums=1)(2.0, x)
    assert x.is_deleted()  # argument numbers count the static ones
    k = jax.random.key(0)
    jax.jit(lambda k: jax.random.split(k)[0], donate_argnums=0)(k)
    assert k.is_deleted()


@pytest.mark.parametrize(
    ("fun", "donate", "n", "message"),
    [
        (
            lambda a, b: (a + b, a - b),
            (0, 1),
            2,
            "Attempt to donate the same buffer twice in Execute() (flattened argument 1, "
            "replica 0, partition 0, first use: 0). Toy example for this bug: "
            "`f(donate(a), donate(a))`.",
        ),
        (
            lambda a, b: a + b,
            0,
            2,
            "Attempt to use a buffer that was previously donated in the same call to "
            "Execute() (flattened argument 1, replica 0, partition 0, first use: 0). Toy "
            "example for this bug: `f(donate(a), a)`.",
        ),
        (
            lambda a, b: a + b,
            1,
            2,
            "Attempt to donate a buffer which is also used by the same call to Execute() "
            "(flattened argument 1, replica 0, partition 0, first use: 0). Toy example for "
            "this bug: `f(a, donate(a))`.",
        ),
    ],
)
def test_a_donated_buffer_passed_twice_raises_before_running(fun, donate, n, message):
    x = jnp.ones(3)
    with pytest.raises(errors.JaxRuntimeError) as e:
        jax.jit(fun, donate_argnums=donate)(*[x] * n)
    assert str(e.value) == "INVALID_ARGUMENT: " + message
    assert not x.is_deleted()


def test_a_duplicate_donation_no_output_takes_is_no_error():
    x = jnp.ones(3)
    _call(lambda a, b: (a + b).sum(), x, x, donate_argnums=0)
    _call(lambda a, b: (a + b).astype(jnp.float16), x, x, donate_argnums=0)
    assert not x.is_deleted()


def test_no_donation_inside_a_transformation_or_without_jit():
    x = jnp.ones(3)
    jax.jit(lambda a: jax.jit(lambda b: b * 2, donate_argnums=0)(a))(x)
    assert not x.is_deleted()
    with jax.disable_jit():
        jax.jit(lambda a: a * 2, donate_argnums=0)(x)
    assert not x.is_deleted()


def test_a_copy_taken_before_donating_stays_alive():
    params = {"w": jnp.ones((2, 2)), "b": jnp.zeros(2)}
    saved = jax.tree_util.tree_map(jnp.copy, params)
    step = jax.jit(lambda p: jax.tree_util.tree_map(lambda v: v - 0.5, p), donate_argnums=0)
    new = step(params)
    assert all(v.is_deleted() for v in jax.tree_util.tree_leaves(params))
    np.testing.assert_array_equal(saved["w"], np.ones((2, 2)))
    np.testing.assert_array_equal(new["w"], np.full((2, 2), 0.5))
