"""Session 17: chex 0.1.92's and distrax 0.1.9's own test suites run with jaxlite installed
as ``jax``; each jaxlite-only failure reduced here to plain jax/jnp. Expected values are JAX
0.10.2's (the file passes in oracle mode, ``JAXLITE_ORACLE=jax``).

* ``jax._src.xla_bridge._backends`` (chex's ``set_n_cpu_devices`` reads it to tell whether
  the CPU backend is up; every ``variants_test`` / ``fake_test`` case errored at import):
  jaxlite had no such module. It is ``{}`` before the first device query and holds
  ``"cpu"`` after, as in JAX.
* ``inspect.signature(jax.jit(f), follow_wrapped=False)`` (chex's fake pmap reads the
  jitted function's own signature): jaxlite raised ``ValueError: no signature found for
  builtin`` (its jitted object has ``__get__``, so ``inspect`` took it for a method
  descriptor); JAX's reports ``f``'s signature. ``str``/type name: JAX's jitted functions
  are ``PjitFunction``s (chex's ``is_traceable`` and ``assert_max_traces`` look for that
  name); jaxlite's printed ``<jitted function f>``.
* ``jax.pmap(f)(x=..., y=...)``: keyword arguments are mapped over their leading axis in
  JAX; jaxlite's pmap took positional arguments only (TypeError). A mapped argument of rank
  0 is a ``ValueError`` in JAX; jaxlite raised ``IndexError``.
* ``jax.lax.all_to_all`` over a ``vmap`` axis name (chex's fake pmap runs collectives so):
  jaxlite raised ``NotImplementedError``; JAX exchanges the chunks across the batch.
* Weak references to tracers (TFP's bijector cache, used by distrax's ``Independent`` and
  ``MixtureSameFamily`` under ``jit``/``grad``/``vmap``): jaxlite's tracers could not be
  weakly referenced (TypeError); JAX's can.
"""

import inspect
import os
import subprocess
import sys
import weakref

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from tests.conftest import ORACLE

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# ------------------------------------------------------------------ jax._src.xla_bridge
def test_xla_bridge_backends_before_and_after_the_first_device_query():
    prefix = "" if ORACLE else "import jaxlite; jaxlite.install_as_jax()\n"
    code = prefix + (
        "import jax\n"
        "xb = jax._src.xla_bridge\n"
        "assert xb._backends == {}, xb._backends\n"
        "assert xb.backends_are_initialized() is False\n"
        "jax.devices()\n"
        "assert list(xb._backends) == ['cpu'], xb._backends\n"
        "assert xb.backends_are_initialized() is True\n"
        "b = xb.get_backend()\n"
        "assert b.platform == 'cpu' and b.device_count() == len(jax.devices())\n"
        "assert list(xb.backends()) == ['cpu']\n"
        "try:\n"
        "    xb.get_backend('gpu')\n"
        "except RuntimeError as e:\n"
        "    assert str(e).startswith(\"Unknown backend: 'gpu' requested\"), e\n"
        "else:\n"
        "    raise AssertionError('no error')\n"
        "print('ok')\n"
    )
    env = dict(os.environ, JAX_PLATFORMS="cpu", PYTHONPATH=_ROOT)
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


# ------------------------------------------------------------------ jitted functions
def _f(x, y, flag=True):
    return x * 2 + y if flag else x + y


def test_jit_signature_without_following_wrapped():
    assert inspect.signature(jax.jit(_f), follow_wrapped=False) == inspect.signature(_f)
    assert inspect.signature(jax.jit(_f)) == inspect.signature(_f)
    assert str(inspect.signature(jax.jit(_f), follow_wrapped=False)) == "(x, y, flag=True)"


def test_jitted_function_type_name_and_str():
    g = jax.jit(_f)
    assert type(g).__name__ == "PjitFunction"
    assert str(g) == f"<PjitFunction of {_f!r}>"
    assert g.__wrapped__ is _f and g.__name__ == "_f"


# ------------------------------------------------------------------ pmap keyword arguments
def test_pmap_maps_keyword_arguments():
    x = jnp.arange(2.0).reshape(1, 2)
    y = jnp.ones((1, 2))
    for out in (
        jax.pmap(_f)(x=x, y=y),
        jax.pmap(_f)(x, y=y),
        jax.pmap(jax.jit(_f))(x=x, y=y),
        jax.pmap(_f, in_axes=(0,))(x, y=y),
    ):
        np.testing.assert_array_equal(out, [[1.0, 3.0]])
        assert out.shape == (1, 2) and out.dtype == jnp.float32
    # a positional argument broadcast (in_axes None) next to a mapped keyword argument
    out = jax.pmap(_f, in_axes=(None,))(jnp.arange(3.0), y=jnp.ones((1, 3)))
    np.testing.assert_array_equal(out, [[1.0, 3.0, 5.0]])
    out = jax.pmap(_f, static_broadcasted_argnums=2)(x, y, False)
    np.testing.assert_array_equal(out, [[1.0, 2.0]])


def test_pmap_rank0_mapped_argument_is_a_value_error():
    x = jnp.ones((1, 2))
    for bad in (100, 1.5, True, jnp.float32(1.0)):
        with pytest.raises(ValueError):
            jax.pmap(lambda a, m, b: a * m + b)(x, bad, x)
        with pytest.raises(ValueError):
            jax.pmap(_f)(x, x, flag=bad)
    with pytest.raises(ValueError, match="pmap requires at least one argument with a mapped axis"):
        jax.pmap(lambda a: a)(3)


# ------------------------------------------------------------------ all_to_all under vmap
def _a2a_expected(x, split, concat, tiled):
    """Member j receives chunk j (along ``split``) of every member i, in i order."""
    n = x.shape[0]
    outs = []
    for j in range(n):
        if tiled:
            k = x.shape[1 + split] // n
            parts = [np.take(x[i], np.arange(j * k, (j + 1) * k), axis=split) for i in range(n)]
            outs.append(np.concatenate(parts, axis=concat))
        else:
            outs.append(np.stack([np.take(x[i], j, axis=split) for i in range(n)], axis=concat))
    return np.stack(outs)


@pytest.mark.parametrize("tiled", [False, True], ids=["stacked", "tiled"])
@pytest.mark.parametrize("split, concat", [(0, 1), (0, 0), (1, 0), (1, 1)], ids=str)
def test_all_to_all_over_a_vmapped_axis(tiled, split, concat):
    n = 4
    shape = (n, n, 6) if split == 0 else (n, 3, n * 2 if tiled else n)
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)

    def f(v):
        return jax.lax.all_to_all(v, "i", split, concat, tiled=tiled)

    got = jax.vmap(f, axis_name="i")(jnp.asarray(x))
    want = _a2a_expected(x, split, concat, tiled)
    assert got.shape == want.shape and got.dtype == jnp.float32
    np.testing.assert_array_equal(got, want)
    # the member axis elsewhere than in front
    got1 = jax.vmap(f, axis_name="i", in_axes=1, out_axes=1)(jnp.asarray(np.moveaxis(x, 0, 1)))
    np.testing.assert_array_equal(got1, np.moveaxis(want, 0, 1))


def test_all_to_all_over_a_vmapped_axis_size_mismatch_and_gradient():
    x = jnp.arange(48.0).reshape(4, 3, 4)
    with pytest.raises(ValueError):
        jax.vmap(lambda v: jax.lax.all_to_all(v, "i", 0, 1), axis_name="i")(x)
    w = jnp.arange(32.0).reshape(4, 4, 2) / 10

    def loss(v):
        y = jax.vmap(lambda u: jax.lax.all_to_all(u, "i", 0, 1), axis_name="i")(v)
        return jnp.sum(jnp.sin(y) * jnp.arange(32.0).reshape(4, 2, 4))

    g = jax.grad(loss)(w)
    # d/dw of sum(sin(A(w)) * c) = A^T(cos(A(w)) * c), A the (orthogonal) exchange
    a = _a2a_expected(np.asarray(w), 0, 1, False)
    c = np.arange(32.0).reshape(4, 2, 4)
    inner = np.cos(a) * c  # member j, (d, i) -> back to member i, (j, d)
    want = np.stack([np.stack([inner[j, :, i] for j in range(4)]) for i in range(4)])
    np.testing.assert_allclose(g, want, rtol=1e-6, atol=1e-6)


# ------------------------------------------------------------------ weak refs to tracers
def test_tracers_are_weakly_referenceable():
    def f(x):
        r = weakref.ref(x)
        assert r() is x
        return r() * 2

    np.testing.assert_array_equal(jax.jit(f)(jnp.float32(1.5)), 3.0)
    np.testing.assert_array_equal(jax.grad(f)(1.5), 2.0)
    np.testing.assert_array_equal(jax.vmap(f)(jnp.ones(2)), [2.0, 2.0])
    np.testing.assert_array_equal(jax.jvp(f, (1.0,), (1.0,))[1], 2.0)


# ------------------------------------------------------------------ ndtr dtypes (x64)
def test_ndtr_keeps_float32_under_x64():
    jax.config.update("jax_enable_x64", True)
    try:
        x = jnp.linspace(-9.0, 9.0, 7, dtype=jnp.float32)
        norm = jax.scipy.stats.norm
        for out in (jax.scipy.special.ndtr(x), norm.cdf(x), norm.sf(x), norm.cdf(x, 0.5, 2.0)):
            assert out.dtype == jnp.float32
        tn = jax.scipy.stats.truncnorm
        for out in (tn.pdf(x, -1.0, 2.0), tn.logcdf(x, -1.0, 2.0), tn.sf(x, -1.0, 2.0)):
            assert out.dtype == jnp.float32
        y = jax.scipy.special.ndtr(x.astype(jnp.float64))
        assert y.dtype == jnp.float64
        # float64 accuracy in the lower tail (SciPy: ndtr(-9) = 1.1285884059538e-19)
        np.testing.assert_allclose(float(y[0]), 1.1285884059538e-19, rtol=1e-13)
    finally:
        jax.config.update("jax_enable_x64", False)


def test_ndtr_and_log_ndtr_argument_checks():
    r = jax.scipy.special.ndtr(1.0)
    assert r.dtype == jnp.float32 and r.weak_type is False
    np.testing.assert_allclose(r, 0.8413447, rtol=1e-6)
    assert jax.grad(jax.scipy.special.ndtr)(1.0).weak_type is True
    for f, msg in ((jax.scipy.special.ndtr, ", see docstring"), (jax.scipy.special.log_ndtr, "")):
        for dt in ("float16", "bfloat16", "int32"):
            with pytest.raises(TypeError, match=rf"^x.dtype={dt} is not supported{msg}"):
                f(jnp.ones(2, dt))
    log_ndtr = jax.scipy.special.log_ndtr
    with pytest.raises(TypeError, match="series_order must be a Python integer."):
        log_ndtr(-2.0, series_order=3.0)
    with pytest.raises(ValueError, match="series_order must be non-negative."):
        log_ndtr(-2.0, series_order=-1)
    with pytest.raises(ValueError, match="series_order must be <= 30."):
        log_ndtr(-2.0, series_order=31)
    np.testing.assert_allclose(log_ndtr(-2.0, series_order=True), -3.7831843, rtol=1e-6)


# ------------------------------------------------------------------ aval tangent spaces
def test_shaped_array_at_least_vspace():
    cases = [
        (jnp.float32, True, "float32", True),
        (jnp.int32, False, "float0", False),
        (jnp.bool_, False, "float0", False),
        (jnp.complex64, False, "complex64", False),
        (jnp.bfloat16, True, "bfloat16", True),
    ]
    for dt, weak, want, want_weak in cases:
        a = jax.core.ShapedArray((2, 3), dt, weak_type=weak)
        for t in (a.at_least_vspace(), a.to_ct_aval()):
            name = "float0" if t.dtype == jax.dtypes.float0 else str(t.dtype)
            assert name == want and t.shape == (2, 3) and t.weak_type is want_weak
    assert jax.typeof(jnp.ones(2)).at_least_vspace() == jax.typeof(jnp.ones(2))


# ------------------------------------------------------------------ NumPy integer axes
@pytest.mark.parametrize("itype", [np.int16, np.int32, np.int64, np.uint8], ids=str)
def test_numpy_integer_axes(itype):
    x = jnp.arange(24.0).reshape(2, 3, 4)
    assert jnp.expand_dims(x, itype(1)).shape == (2, 1, 3, 4)
    assert jnp.expand_dims(x, (itype(0), itype(2))).shape == (1, 2, 1, 3, 4)
    want = np.moveaxis(np.asarray(x), 0, 2)
    np.testing.assert_array_equal(jnp.moveaxis(x, itype(0), itype(2)), want)
    np.testing.assert_allclose(
        jnp.linalg.norm(x, axis=itype(1)), np.linalg.norm(np.asarray(x), axis=1), rtol=1e-6
    )


# ------------------------------------------------------------------ typed keys compared
def test_key_arrays_in_array_equal_allclose_and_lax_eq():
    k1 = jax.random.split(jax.random.key(1))
    k2 = jax.random.split(jax.random.key(2))
    assert bool(jnp.array_equal(k1, k1)) is True
    assert bool(jnp.array_equal(k1, k2)) is False
    assert bool(jnp.array_equal(k1, k1[:1])) is False
    assert bool(jnp.array_equal(k1, k1, equal_nan=True)) is True
    assert bool(jax.jit(jnp.array_equal)(k1, k1)) is True
    assert bool(jnp.array_equiv(k1, k1)) is True and bool(jnp.array_equiv(k1, k1[:1])) is False
    assert bool(jnp.allclose(k1, k1)) is True and bool(jnp.allclose(k1, k1, equal_nan=True))
    np.testing.assert_array_equal(jax.lax.eq(k1, k2), [False, False])
    np.testing.assert_array_equal(jax.lax.ne(k1, k2), [True, True])
    np.testing.assert_array_equal(jax.lax.eq(k1, k1), [True, True])
    with pytest.raises(TypeError):
        jnp.array_equal(k1, jnp.ones(2))
    with pytest.raises(TypeError):
        jnp.allclose(k1, jnp.ones(2))
    with pytest.raises(TypeError):
        jax.lax.lt(k1, k2)


# ------------------------------------------------------------------ test_util.check_grads
def _scaled_jvp_fn(scale):
    @jax.custom_jvp
    def f(x):
        return jnp.sin(x)

    @f.defjvp
    def _(primals, tangents):
        (x,), (t,) = primals, tangents
        return jnp.sin(x), scale * jnp.cos(x) * t

    return f


def test_check_grads_tolerances_scale_with_size_as_in_jax():
    import jaxlite.test_util as tu

    x = jnp.linspace(0.1, 1.0, 10, dtype=jnp.float32)
    # a tangent 0.5% off: beyond float32's rtol (2e-3) per element, within rtol * size
    tu.check_grads(_scaled_jvp_fn(1.005), (x,), order=1, modes=("fwd",))
    with pytest.raises(AssertionError):
        tu.check_grads(_scaled_jvp_fn(1.2), (x,), order=1, modes=("fwd",))
    with pytest.raises(AssertionError):
        tu.check_grads(_scaled_jvp_fn(1.2), (x,), order=1, modes=("rev",))
    tu.check_grads(lambda v: jnp.sin(v) * v, (x,), order=2, modes=("fwd", "rev"))
    tu.check_grads(lambda v: jnp.sin(v) * v, (x,), order=2, modes=("lin",))
    tu.check_grads(lambda a, b: a * b, (0.5, 1.5), order=2)


@pytest.mark.jaxlite_only
def test_check_grads_unknown_mode():
    # JAX skips a mode it does not know (checking nothing); jaxlite says so
    import jaxlite.test_util as tu

    with pytest.raises(ValueError, match="Unrecognized mode: bogus"):
        tu.check_grads(jnp.sin, (jnp.ones(2),), order=1, modes=("bogus",))


def test_check_grads_rev_uses_jax_random_directions():
    # chex's NumericalGradsAssertTest case (stop_gradient mocked by ones_like): the finite
    # difference of a float32 sum is off by rounding; JAX's directions keep it in tolerance
    import jaxlite.test_util as tu

    f = lambda v: jnp.sum(jnp.ones_like(v**2) - 2 * v + 10)  # noqa: E731
    x = jnp.asarray(
        [0.17954302, 0.58546543, 0.91409326, 0.7342746, 0.29374015], dtype=jnp.float32
    )
    tu.check_grads(f, (x,), order=1, atol=0.05)


# ------------------------------------------------------------------ custom_jvp/vjp as attributes
def test_custom_derivative_functions_do_not_bind_as_methods():
    # JAX's custom_jvp / custom_vjp objects have no __get__: stored on a class and called
    # through an instance, they do not receive the instance (jaxlite bound it)
    def count(*args):
        return jnp.float32(len(args))

    f = jax.custom_jvp(count)
    f.defjvp(lambda p, t: (count(*p), jnp.float32(0.0)))
    g = jax.custom_vjp(count)
    g.defvjp(lambda *a: (count(*a), None), lambda r, c: (None,))

    class Holder:
        ff = f
        gg = g

    assert float(Holder().ff(1.0)) == 1.0
    assert float(Holder().gg(1.0)) == 1.0
    assert not inspect.ismethoddescriptor(f) and not inspect.ismethoddescriptor(g)
    assert str(inspect.signature(f)) == "(*args)"
    assert list(inspect.signature(f, follow_wrapped=False).parameters) == ["args", "kwargs"]
