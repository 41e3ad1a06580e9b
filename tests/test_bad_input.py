"""Bad input to the public API: JAX's error type and a clear message, never a wrong answer.

Each case was found by feeding jaxlite and JAX the same mistake side by side (issues 2, 4, 6
and 7, "Bad input"). The file runs unchanged against JAX (``JAXLITE_ORACLE=jax``).
"""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax
from jaxlite.experimental import io_callback

S = jax.ShapeDtypeStruct
F32 = S((), np.float32)


def x3():
    return np.arange(3.0, dtype=np.float32)


# ------------------------------------------------------------------ jit arguments
def test_jit_static_argnums_out_of_range_is_rejected():
    with pytest.raises(ValueError, match=r"static_argnums=\(3,\).*accepts 1 positional"):
        jax.jit(lambda x: x, static_argnums=3)


def test_jit_static_argnames_unknown_is_rejected():
    with pytest.raises(ValueError, match="invalid argnames.*'zz'"):
        jax.jit(lambda x: x, static_argnames="zz")


def test_jit_static_args_that_the_signature_can_take_are_accepted():
    def f(*xs, **kw):
        return xs[0] * kw["n"]

    g = jax.jit(f, static_argnums=5, static_argnames="n")
    np.testing.assert_allclose(g(x3(), n=3), x3() * 3)

    def h(x, n, *, k):
        return x * n + k

    h_j = jax.jit(h, static_argnums=-1, static_argnames="k")
    np.testing.assert_allclose(h_j(x3(), 2, k=1), x3() * 2 + 1)


@pytest.mark.parametrize("static", [[1, 2], {"a": 1}, np.ones(2)])
def test_jit_unhashable_static_argument(static):
    f = jax.jit(lambda x, s: x, static_argnums=1)
    with pytest.raises(ValueError, match="Non-hashable static arguments"):
        f(x3(), static)


@pytest.mark.parametrize("bad", ["hello", object()])
def test_jit_non_array_argument(bad):
    with pytest.raises(TypeError, match="(not a valid JAX type|as an abstract array)"):
        jax.jit(lambda x: x)(bad)


def test_jit_non_array_output():
    with pytest.raises(TypeError, match="not a valid JAX type"):
        jax.jit(lambda x: [x, "s"])(x3())


def test_compiled_called_with_other_types():
    compiled = jax.jit(lambda x: x * 2).lower(x3()).compile()
    with pytest.raises(TypeError, match="Argument types differ"):
        compiled(np.ones(4, np.float32))


# ------------------------------------------------------------- non-callable functions
@pytest.mark.parametrize(
    "make",
    [
        lambda: jax.jit(3),
        lambda: jax.grad(3),
        lambda: jax.value_and_grad(3),
        lambda: jax.jacfwd(3),
        lambda: jax.jacrev(3),
        lambda: jax.hessian(3),
        lambda: jax.vjp(3, 1.0),
        lambda: jax.linearize(3, 1.0),
        lambda: jax.eval_shape(3, 1.0),
        lambda: jax.make_jaxpr(3)(1.0),
    ],
    ids=[
        "jit",
        "grad",
        "value_and_grad",
        "jacfwd",
        "jacrev",
        "hessian",
        "vjp",
        "linearize",
        "eval_shape",
        "make_jaxpr",
    ],
)
def test_transformations_reject_non_callables(make):
    with pytest.raises(TypeError, match="callable"):
        make()


# ------------------------------------------------------- concrete values while tracing
def test_python_if_on_traced_value_explains_the_fix():
    def f(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(jax.errors.TracerBoolConversionError):
        jax.jit(f)(1.0)
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jax.jit(f)(1.0)


@pytest.mark.jaxlite_only
def test_concretization_message_names_static_argnums_and_lax_cond():
    def f(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(jax.errors.ConcretizationTypeError) as info:
        jax.jit(f)(1.0)
    msg = str(info.value)
    assert "static_argnums" in msg and "lax.cond" in msg


@pytest.mark.parametrize(
    "fn, err",
    [
        (lambda x: float(x.sum()), "ConcretizationTypeError"),
        (lambda x: int(x.sum()), "ConcretizationTypeError"),
        (lambda x: x.sum().item(), "ConcretizationTypeError"),
        (lambda x: np.asarray(x), "TracerArrayConversionError"),
        (lambda x: list(range(x.astype(jnp.int32)[0])), "TracerIntegerConversionError"),
    ],
    ids=["float", "int", "item", "np_asarray", "range"],
)
def test_concrete_conversions_of_tracers(fn, err):
    with pytest.raises(getattr(jax.errors, err)):
        jax.jit(fn)(x3())


@pytest.mark.parametrize("transform", ["jit", "grad", "vmap"])
def test_leaked_tracer_used_later(transform):
    store = []

    def f(x):
        store.append(x)
        return (x * 2.0).sum() if transform == "grad" else x * 2.0

    getattr(jax, transform)(f)(x3())
    with pytest.raises(jax.errors.UnexpectedTracerError):
        jnp.sin(store[0])
    with pytest.raises(jax.errors.UnexpectedTracerError):
        jax.jit(lambda y: y + store[0])(x3())


# ------------------------------------------------------------------------- autodiff
@pytest.mark.parametrize(
    "out", [lambda x: (x, x), lambda x: [x], lambda x: None], ids=["tuple", "list", "none"]
)
def test_grad_of_container_output_is_not_scalar(out):
    with pytest.raises(TypeError, match="Gradient only defined for scalar-output functions"):
        jax.grad(out)(1.0)
    with pytest.raises(TypeError, match="Gradient only defined for scalar-output functions"):
        jax.value_and_grad(out)(1.0)


def test_grad_of_non_scalar_and_int_inputs():
    with pytest.raises(TypeError, match=r"Output had shape: \(3,\)"):
        jax.grad(lambda x: x * 2)(x3())
    for bad in (3, True, np.arange(3)):
        with pytest.raises(TypeError, match="grad requires real- or complex-valued inputs"):
            jax.grad(lambda x: (x * 2.0).sum())(bad)


def test_vjp_cotangent_with_wrong_dtype_is_rejected():
    _, pullback = jax.vjp(lambda x: x * 2, jnp.ones(3))
    with pytest.raises(ValueError, match="unexpected JAX type"):
        pullback(jnp.ones(3, jnp.int32))
    with pytest.raises(ValueError, match="unexpected JAX type"):
        pullback(jnp.ones(4))
    # A float64 NumPy cotangent canonicalises to float32 with x64 off: accepted.
    (ct,) = pullback(np.ones(3))
    np.testing.assert_allclose(ct, np.full(3, 2.0))


def test_jvp_tangent_mismatches():
    with pytest.raises(TypeError, match="same tree structure"):
        jax.jvp(lambda x: x, (x3(),), (x3(), x3()))
    with pytest.raises(TypeError, match="tangent dtype int32"):
        jax.jvp(lambda x: x, (x3(),), (np.arange(3),))
    with pytest.raises(ValueError, match="different primal and tangent shapes"):
        jax.jvp(lambda x: x, (x3(),), (np.ones(4, np.float32),))


def test_custom_vjp_bwd_with_wrong_count():
    @jax.custom_vjp
    def f(x, y):
        return x * y

    f.defvjp(lambda x, y: (x * y, (x, y)), lambda res, g: (g * res[1],))
    with pytest.raises(TypeError, match="Custom VJP bwd rule"):
        jax.grad(f)(1.0, 2.0)


# ---------------------------------------------------------------------- control flow
def test_fori_loop_bounds_of_two_different_integer_types():
    with pytest.raises(TypeError, match="must have equal types"):
        lax.fori_loop(np.int16(0), np.int32(3), lambda i, c: c + i, 0)
    with pytest.raises(TypeError, match="must have equal types"):
        jax.jit(lambda a, b: lax.fori_loop(a, b, lambda i, c: c + i, 0))(np.uint8(0), np.int8(3))
    # A Python int bound takes the other bound's type.
    assert int(lax.fori_loop(0, np.int16(4), lambda i, c: c + i, 0)) == 6
    assert int(lax.fori_loop(np.int16(1), 4, lambda i, c: c + i, 0)) == 6


def test_cond_and_scan_type_mismatches():
    with pytest.raises(TypeError, match="cond branches must have equal output types"):
        lax.cond(True, lambda x: x, lambda x: x.astype(jnp.int32), 1.0)
    with pytest.raises(TypeError, match="same pytree structure"):
        lax.cond(True, lambda x: (x, x), lambda x: x, 1.0)
    with pytest.raises(TypeError, match="carry input and carry output must have equal types"):
        lax.scan(lambda c, x: (c.astype(jnp.int32), x), 0.0, x3())
    with pytest.raises(ValueError, match="different leading axis sizes"):
        lax.scan(lambda c, x: (c, x), 0.0, (x3(), np.ones(4, np.float32)))
    with pytest.raises(TypeError, match="cond_fun must return a boolean scalar"):
        lax.while_loop(lambda c: c, lambda c: c - 1, 3)


# ------------------------------------------------------------------------- callbacks
def test_callback_result_validation():
    def run(cb, spec):
        return jax.jit(lambda x: jax.pure_callback(cb, spec, x))(x3())

    with pytest.raises(RuntimeError, match="Mismatched number of outputs"):
        run(lambda x: (x, x), S((3,), np.float32))
    with pytest.raises(RuntimeError, match=r"Incorrect output shape.*Expected: \(1,\)"):
        run(lambda x: np.float32(1.0), S((1,), np.float32))
    with pytest.raises(RuntimeError, match="Incorrect output dtype.*Actual: int32"):
        run(lambda x: np.int32(1), F32)
    with pytest.raises(ValueError, match="64-bit types"):
        run(lambda x: x, S((), np.float64))


def test_callback_bad_arguments():
    with pytest.raises(TypeError, match="position 1"):
        jax.jit(lambda x: jax.pure_callback(lambda a, s: a, S((3,), np.float32), x, "s"))(x3())
    with pytest.raises(ValueError, match="vmap_method"):
        jax.pure_callback(lambda x: x, F32, 1.0, vmap_method="bogus")
    with pytest.raises(TypeError, match="callable"):
        jax.debug.callback(3, 1.0)


@pytest.mark.jaxlite_only
def test_non_callable_callbacks_fail_at_the_call():
    # JAX only fails when the callback runs (a JaxRuntimeError); jaxlite says so at once.
    with pytest.raises(TypeError, match="must be callable"):
        jax.pure_callback(3, F32, 1.0)
    with pytest.raises(TypeError, match="must be callable"):
        io_callback(3, F32, 1.0)


@pytest.mark.parametrize(
    "fmt, args, kwargs, err",
    [
        ("hello: {x}", (1.0,), {}, KeyError),
        ("hello: {}", (), {"x": 1.0}, IndexError),
        ("hello", (1.0,), {}, ValueError),
        ("hello", (), {"y": 1.0}, ValueError),
        ("{0} {}", (1.0, 1.0), {}, ValueError),
        ("{", (1.0,), {}, ValueError),
    ],
    ids=["missing_kw", "missing_pos", "unused_pos", "unused_kw", "mixed_numbering", "brace"],
)
def test_debug_print_malformed_format(fmt, args, kwargs, err):
    def f(x):
        jax.debug.print(fmt, *[x for _ in args], **{k: x for k in kwargs})
        return x

    with pytest.raises(err):
        jax.jit(f)(1.0)


# ------------------------------------------------------ the caller's NumPy buffers
@pytest.mark.parametrize(
    "fn",
    [
        jax.jit(lambda x: x),
        jax.jit(lambda x: x * 2),
        jax.lax.sin,
        lambda x: jax.lax.reshape(x, (3,)),
    ],
    ids=["jit_identity", "jit_compute", "lax_sin", "lax_reshape"],
)
def test_caller_numpy_array_stays_writeable_and_unaliased(fn):
    a = np.ones(3, np.float32)
    out = fn(a)
    before = np.asarray(out).copy()
    a[0] = 5.0  # must not raise: the caller's array is not frozen
    np.testing.assert_array_equal(np.asarray(out), before)


# ------------------------------------------------------------------ dtype requests
@pytest.mark.parametrize(
    "dtype, want", [(float, np.float32), (int, np.int32), (complex, np.complex64)]
)
def test_python_builtin_dtypes_do_not_warn_with_x64_off(dtype, want):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert jnp.zeros(2).astype(dtype).dtype == want
        assert jnp.asarray([1, 2], dtype=dtype).dtype == want
        assert jnp.zeros(2, dtype=dtype).dtype == want
    # An explicit 64-bit request still warns about the truncation.
    with pytest.warns(UserWarning, match="not available"):
        jnp.zeros(2).astype(
            np.dtype(want).name.replace("32", "64").replace("complex64", "complex128")
        )


# -------------------------------------------------------------- truth values, mutation
@pytest.mark.parametrize("shape, match", [((2,), "more than one element"), ((0,), "empty array")])
def test_bool_of_non_scalar_traced_array_is_ambiguous(shape, match):
    with pytest.raises(ValueError, match=match):
        jax.jit(lambda x: bool(x))(jnp.ones(shape, bool))
    with pytest.raises(ValueError, match=match):
        bool(jnp.ones(shape, bool))


def test_item_assignment_points_to_at_set():
    def f(x):
        x[0] = 1.0
        return x

    with pytest.raises(TypeError, match=r"\.at\[idx\]\.set"):
        jax.jit(f)(jnp.ones(3))
    with pytest.raises(TypeError, match=r"\.at\[idx\]\.set"):
        f(jnp.ones(3))


@pytest.mark.parametrize("transform", ["jit", "grad", "vmap"])
def test_leaked_tracer_has_no_numpy_value(transform):
    # Even where the transformation knew the value (grad), a leaked tracer is not an array.
    store = []

    def f(x):
        store.append(x)
        return (x * 2.0).sum() if transform == "grad" else x * 2.0

    getattr(jax, transform)(f)(x3())
    with pytest.raises(jax.errors.TracerArrayConversionError):
        np.asarray(store[0])


@pytest.mark.jaxlite_only
def test_jax_array_protocol_objects_work_in_jit_and_eager():
    # jaxlite accepts `__jax_array__` objects everywhere an array goes (JAX now rejects them
    # during abstractification); before, jit crashed converting one to NumPy.
    class Wrapped:
        def __jax_array__(self):
            return jnp.arange(3.0)

    np.testing.assert_allclose(jax.jit(lambda x: x * 2)(Wrapped()), [0.0, 2.0, 4.0])
    np.testing.assert_allclose(jnp.sin(Wrapped()), np.sin(np.arange(3.0, dtype=np.float32)))
    np.testing.assert_allclose(jax.lax.add(Wrapped(), 1.0), [1.0, 2.0, 3.0])


def test_numpy_argument_stays_writeable_and_unaliased():
    """Passing a NumPy array to jnp functions and transformations neither freezes it nor
    lets later writes change results already computed (JAX copies on transfer)."""
    import numpy as np

    import jaxlite as jax
    import jaxlite.numpy as jnp

    a = np.arange(3.0, dtype=np.float32)
    s = jnp.sin(a)
    v = jax.vmap(lambda x: x * 2)(a)
    g = jax.grad(lambda x: (x**2).sum())(a)
    a[0] = 100.0  # must not raise, must not change the results above
    np.testing.assert_allclose(np.asarray(s), np.sin(np.arange(3.0, dtype=np.float32)))
    np.testing.assert_allclose(np.asarray(v), [0.0, 2.0, 4.0])
    np.testing.assert_allclose(np.asarray(g), [0.0, 2.0, 4.0])


@pytest.mark.parametrize("transform", ["vmap", "jvp"])
def test_non_callable_to_vmap_and_jvp(transform):
    """vmap/jvp of a non-callable raise JAX's TypeError."""
    import jaxlite as jax

    with pytest.raises(TypeError, match="Expected a callable value"):
        if transform == "vmap":
            jax.vmap(3)
        else:
            jax.jvp(3, (1.0,), (1.0,))


def test_small_jax_differences_fixed():
    """Corner cases where jaxlite used to differ from JAX (found by the newcomer review)."""
    import numpy as np

    import jaxlite as jax
    import jaxlite.numpy as jnp

    with pytest.raises(TypeError, match="Integers cannot be raised to negative powers"):
        jnp.arange(3) ** -1
    with pytest.raises(TypeError, match="non-tuple sequence"):
        jnp.arange(3)[[0, 2]]
    assert jnp.ones((3, 3))[:, [0, 1]].shape == (3, 2)  # lists inside a tuple are fine
    assert jnp.cumsum(jnp.arange(3, dtype=jnp.int8)).dtype == np.int8
    assert jnp.cumprod(jnp.arange(3, dtype=jnp.uint8)).dtype == np.uint8
    assert jnp.cumsum(jnp.array([True, False])).dtype == np.int32
    np.testing.assert_array_equal(
        np.asarray(jnp.max(jnp.zeros((0, 3)), axis=0, initial=-1.0)), [-1.0, -1.0, -1.0]
    )
    assert float(jax.lax.reduce_max(jnp.zeros((0,)), (0,))) == -np.inf
    assert isinstance(jax.lax.top_k(jnp.arange(5.0), 2), list)


@pytest.mark.parametrize(
    "shape, index, text",
    [
        ((), 0, "array is 0-dimensional, but 1 were indexed"),
        ((3,), (0, 1), "array is 1-dimensional, but 2 were indexed"),
    ],
)
def test_too_many_indices_message(shape, index, text):
    with pytest.raises(IndexError, match=f"Too many indices: {text}"):
        jnp.ones(shape)[index]
    with pytest.raises(IndexError, match=f"Too many indices: {text}"):
        jax.jit(lambda x: x[index])(jnp.ones(shape))
