"""Issue 15 items 15-23: JAX's exception types for bad shapes and padding, weak types
through autodiff, pytree dict order and key paths, result_type of Python scalar types, the
strict lax dtype rule, custom_jvp eager calls, debug.log delivery, integer division by
zero, and the small public names programs use."""

import collections
import io
import logging
import sys

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax

# ------------------------------------------------------------------ item 15: bad shapes


@pytest.mark.parametrize(
    "f, exc, match",
    [
        (
            lambda: lax.pad(jnp.ones((2, 3)), 0.0, [(1, 1, 0)]),
            ValueError,
            "length of padding_config",
        ),
        (
            lambda: lax.pad(jnp.ones(2), 0.0, [(1, 1, 0)] * 2),
            ValueError,
            "length of padding_config",
        ),
        (lambda: lax.pad(jnp.ones(2), 0.0, [(1, 1, -1)]), ValueError, "interior padding"),
        (lambda: jnp.full((2, "a"), 1.0), TypeError, "Shapes must be 1D sequences"),
        (lambda: jnp.zeros((2, 1.5)), TypeError, "Shapes must be 1D sequences"),
        (lambda: jnp.ones([2.0]), TypeError, "Shapes must be 1D sequences"),
        (lambda: jnp.zeros((2, -1)), TypeError, "must have every element be nonnegative"),
        (lambda: jnp.ones(-3), TypeError, "must have every element be nonnegative"),
        (lambda: jnp.full((-1,), 1.0), TypeError, "must have every element be nonnegative"),
        (lambda: lax.iota(jnp.int32, -1), TypeError, "iota shape must have every element"),
        (lambda: lax.full((-1,), 0.0), TypeError, "must have every element be nonnegative"),
        (lambda: jax.jit(lambda: jnp.zeros((2, -1)))(), TypeError, "nonnegative"),
    ],
    ids=[
        "pad_short",
        "pad_long",
        "pad_negative_interior",
        "full_str",
        "zeros_float",
        "ones_float_list",
        "zeros_negative",
        "ones_negative",
        "full_negative",
        "iota_negative",
        "lax_full_negative",
        "jit_zeros_negative",
    ],
)
def test_bad_shapes_and_padding_raise_jax_errors(f, exc, match):
    with pytest.raises(exc, match=match):
        f()


def test_integer_like_shapes_stay_accepted():
    assert jnp.zeros((np.int64(2), jnp.asarray(3))).shape == (2, 3)
    assert jnp.ones(np.int32(4)).shape == (4,)


# ------------------------------------------------------------------ item 16: weak types


def test_grad_at_a_python_scalar_is_weakly_typed():
    g = jax.grad(lambda x: x * 2.0)(1.0)
    assert g.weak_type and g.dtype == np.float32
    assert (g + jnp.float16(1)).dtype == np.float16
    (ct,) = jax.vjp(lambda x: x * 2.0, 1.0)[1](1.0)
    assert ct.weak_type
    assert jax.jacfwd(lambda x: x * 2.0)(1.0).weak_type
    assert jax.jacrev(lambda x: x * 2.0)(1.0).weak_type
    assert jax.grad(lambda z: z * z, holomorphic=True)(1.0 + 1j).weak_type
    assert not jax.grad(lambda x: x * 2.0)(jnp.float32(1.0)).weak_type


# ------------------------------------------------------------------ items 17, 18: pytrees


def test_rebuilt_dicts_come_back_in_sorted_key_order():
    d = {"b": 1, "a": 2}
    assert list(jax.tree.map(lambda x: x, d)) == ["a", "b"]
    assert list(jax.tree_util.tree_unflatten(jax.tree_util.tree_structure(d), [1, 2])) == ["a", "b"]
    dd = collections.defaultdict(int, d)
    assert list(jax.tree.map(lambda x: x, dd)) == ["a", "b"]
    od = collections.OrderedDict(d)
    assert list(jax.tree.map(lambda x: x, od)) == ["b", "a"]  # OrderedDict keeps its order
    assert list(jax.jit(lambda d: d)({"b": 1.0, "a": 2.0})) == ["a", "b"]
    assert list(jax.grad(lambda d: d["a"] * d["b"])({"b": 1.0, "a": 2.0})) == ["a", "b"]
    t = jax.tree.transpose(
        jax.tree.structure([0, 0]), jax.tree.structure({"b": 0, "a": 0}), [d, {"b": 3, "a": 4}]
    )
    assert t == {"a": [2, 4], "b": [1, 3]} and list(t) == ["a", "b"]


def test_unsortable_dict_keys_raise():
    with pytest.raises(ValueError, match="sorting pytree dictionary keys"):
        jax.tree_util.tree_leaves({1: 7, "y": 42})
    with pytest.raises(ValueError, match="sorting pytree dictionary keys"):
        jax.tree.map(lambda x: x, {1: 7, "y": 42})


def test_namedtuple_key_paths_are_attribute_keys():
    P = collections.namedtuple("P", "x y")
    paths = [p for p, _ in jax.tree_util.tree_flatten_with_path(P(1, 2))[0]]
    assert [jax.tree_util.keystr(p) for p in paths] == [".x", ".y"]
    assert all(type(p[0]).__name__ == "GetAttrKey" for p in paths)


@pytest.mark.parametrize(
    "a, b, want",
    [
        (jnp.int8, int, np.int8),
        (jnp.uint16, int, np.uint16),
        (jnp.float16, float, np.float16),
        (jnp.int8, float, np.float32),
        (jnp.float16, complex, np.complex64),
        (int, float, np.float32),
    ],
)
def test_result_type_treats_python_scalar_types_as_weak(a, b, want):
    assert jnp.result_type(a, b) == want


# ---------------------------------------------------------- item 19: lax is strict on dtypes


@pytest.mark.parametrize(
    "f",
    [
        lambda: lax.add(1, 1.0),
        lambda: lax.add(jnp.int32(1), jnp.float32(1.0)),
        lambda: lax.mul(jnp.ones(2), 2),
        lambda: lax.max(jnp.ones(2, jnp.int32), 2.0),
        lambda: lax.sub(jnp.ones(1, jnp.float16), 2.0),
        lambda: lax.lt(jnp.ones(1, jnp.int32), 1.0),
    ],
)
def test_lax_binary_ops_require_one_dtype(f):
    with pytest.raises(TypeError, match="requires arguments to have the same dtypes"):
        f()


def test_lax_binary_ops_accept_matching_python_scalars():
    assert lax.add(jnp.ones(2), 2.0).dtype == np.float32
    assert lax.max(jnp.ones(2, jnp.int32), 2).dtype == np.int32
    out = lax.add(1, 2)
    assert out.dtype == np.int32 and int(out) == 3
    # The monoid fast paths still recognise the public operators.
    np.testing.assert_array_equal(
        np.asarray(lax.reduce_window(jnp.arange(4.0), 0.0, lax.add, (2,), (1,), "VALID")),
        [1.0, 3.0, 5.0],
    )


# ------------------------------------------------------- item 20: eager custom_jvp/vjp calls


def test_eager_custom_derivative_calls_return_what_the_function_returns():
    @jax.custom_jvp
    def f(x):
        return x**2

    f.defjvp(lambda p, t: (f(p[0]), 2 * p[0] * t[0]))

    @jax.custom_vjp
    def g(x):
        return x**2

    g.defvjp(lambda x: (g(x), x), lambda r, ct: (2 * r * ct,))
    assert type(f(3.0)) is float and f(3.0) == 9.0
    assert type(g(3.0)) is float and g(3.0) == 9.0
    assert float(jax.grad(f)(3.0)) == 6.0 and float(jax.grad(g)(3.0)) == 6.0
    assert float(jax.jit(f)(3.0)) == 9.0


# --------------------------------------------------------------- item 21: debug.log


def test_debug_log_is_delivered_whatever_the_logger_level():
    records = []

    class Collect(logging.Handler):
        def emit(self, record):
            records.append(record.getMessage())

    logger = logging.getLogger("jax._src.debugging")
    handler, old_level = Collect(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.WARNING)
    try:
        jax.debug.log("x={x}", x=jnp.ones(2))
        jax.jit(lambda x: jax.debug.log("y={}", x))(jnp.ones(1))
        jax.effects_barrier()
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)
    assert records == ["x=[1. 1.]", "y=[1.]"]


# ------------------------------------------------------------- item 23: integer // and %

I32 = np.array([5, -5, 0], np.int32)


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
def test_integer_division_by_zero_gives_jax_values(jit):
    def run(f, *args):
        return np.asarray((jax.jit(f) if jit else f)(*args))

    z = np.zeros(3, np.int32)
    np.testing.assert_array_equal(run(lambda a: a // 0, jnp.asarray(I32)), [-2, -2, -1])
    np.testing.assert_array_equal(run(lambda a: a % 0, jnp.asarray(I32)), [0, 0, 0])
    np.testing.assert_array_equal(run(lambda a: jnp.fmod(a, 0), jnp.asarray(I32)), [0, 0, 0])
    np.testing.assert_array_equal(run(lax.div, jnp.asarray(I32), z), [-1, -1, -1])
    np.testing.assert_array_equal(run(lax.rem, jnp.asarray(I32), z), [5, -5, 0])
    u = jnp.array([5, 0], jnp.uint8)
    np.testing.assert_array_equal(run(lambda a: a // 0, u), [255, 255])
    np.testing.assert_array_equal(run(lambda a: a % 0, u), [0, 0])


def test_int64_division_is_exact():
    with jax.enable_x64(True):
        a = jnp.array([2**62 + 1, -(2**62 + 1), 7, -7], jnp.int64)
        b = jnp.array([1, 3, -2, 2], jnp.int64)
        np.testing.assert_array_equal(
            np.asarray(lax.div(a, b)), [2**62 + 1, -1537228672809129301, -3, -3]
        )
        np.testing.assert_array_equal(
            np.asarray(a // b), np.array([2**62 + 1, -(2**62 + 1), 7, -7]) // [1, 3, -2, 2]
        )


# --------------------------------------------------------------- item 23: public names


def test_small_public_names_exist_and_work():
    assert jax.jacobian(lambda x: x * 3.0)(1.0) == 3.0
    assert jax.config.jax_explain_cache_misses is False
    assert jax.config.jax_remat3 is False
    jax.config.update("jax_explain_cache_misses", True)
    jax.config.update("jax_explain_cache_misses", False)

    def h(x):
        with jax.ensure_compile_time_eval():
            y = jnp.sin(2.0)
            assert float(y) == pytest.approx(np.sin(2.0))  # concrete even under jit
        return x + y

    np.testing.assert_allclose(float(jax.jit(h)(1.0)), 1.0 + np.sin(2.0), rtol=1e-6)


@pytest.mark.jaxlite_only
def test_print_saved_residuals_names_arguments_and_primitives(capsys):
    from jaxlite.ad_checkpoint import print_saved_residuals

    print_saved_residuals(lambda x, y: jnp.sin(x) * y, jnp.ones(3), jnp.ones(3))
    lines = capsys.readouterr().out.splitlines()
    assert "f32[3] from the argument y" in lines
    assert "f32[3] output of sin" in lines and "f32[3] output of cos" in lines


@pytest.mark.jaxlite_only
def test_debug_breakpoint_sees_runtime_values(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("p y * 2\nc\n"))

    def g(x):
        y = x + 1
        jax.debug.breakpoint()
        return y

    np.testing.assert_array_equal(np.asarray(jax.jit(g)(jnp.arange(3.0))), [1.0, 2.0, 3.0])
    assert "Array([2., 4., 6.], dtype=float32)" in capsys.readouterr().out
