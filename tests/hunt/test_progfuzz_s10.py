"""Session 10 program-fuzz findings: compositions of transformations (control flow, custom
rules, gather/scatter, complex and integer derivatives) checked against real JAX 0.10.2
live. Each case runs the same program under ``jax`` and ``jaxlite`` and compares the
raised exception type, or the outputs' structure, shapes, dtypes, weak types and values."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.numpy  # noqa: E402,F401

import jaxlite  # noqa: E402
import jaxlite.numpy  # noqa: E402,F401


class _Mod:
    def __init__(self, jx):
        self.jx, self.jnp, self.lax = jx, jx.numpy, jx.lax


JAX, LITE = _Mod(jax), _Mod(jaxlite)


def _run(build, m):
    try:
        return "ok", build(m)
    except Exception as e:  # noqa: BLE001 - the exception itself is compared
        return "err", e


def _same(build, rtol=2e-3, atol=1e-5):
    """Run ``build(module)`` with JAX and jaxlite and assert they agree."""
    (ka, a), (kb, b) = _run(build, JAX), _run(build, LITE)
    assert ka == kb, (a, b)
    if ka == "err":
        base = next(c for c in type(a).__mro__ if c.__module__ == "builtins")
        assert isinstance(b, base), (a, b)
        return
    la, ta = jax.tree_util.tree_flatten(a)
    lb, tb = jaxlite.tree_util.tree_flatten(b)
    assert ta.num_leaves == tb.num_leaves and len(la) == len(lb)
    for x, y in zip(la, lb):
        assert np.shape(x) == np.shape(y)
        assert str(x.dtype) == str(y.dtype)
        assert x.weak_type == y.weak_type
        if "float0" in str(x.dtype):
            continue
        x, y = np.asarray(x), np.asarray(y)
        if x.dtype.kind in "fc":
            np.testing.assert_allclose(y, x, rtol=rtol, atol=atol)
        else:
            np.testing.assert_array_equal(y, x)


_A = np.arange(20, dtype=np.float32).reshape(4, 5) / 7
_OOB = np.array([[5], [-1], [2]], np.int32)


@pytest.mark.parametrize(
    "mode", [None, "clip", "fill", "drop", "promise_in_bounds", "fill_or_drop", "FILL_OR_DROP", 1]
)
@pytest.mark.parametrize("op", ["gather", "scatter_add"])
def test_lax_gather_scatter_mode_names(op, mode):
    # jaxlite passed an unknown mode string through, and it then behaved as
    # promise_in_bounds: lax.gather(..., mode="fill_or_drop") clamped the out-of-bounds
    # rows ([[15..19], [0..4], ...]) where JAX raises ValueError('Unknown gather mode').
    def build(m):
        if op == "gather":
            dn = m.lax.GatherDimensionNumbers(
                offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,)
            )
            return m.lax.gather(_A, _OOB, dn, (1, 5), mode=mode)
        dn = m.lax.ScatterDimensionNumbers(
            update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,)
        )
        return m.lax.scatter_add(_A, _OOB, np.ones((3, 5), np.float32), dn, mode=mode)

    _same(build)


def test_lax_gather_mode_enum_is_accepted():
    def build(m):
        dn = m.lax.GatherDimensionNumbers(
            offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,)
        )
        return m.lax.gather(_A, _OOB, dn, (1, 5), mode=m.lax.GatherScatterMode.FILL_OR_DROP)

    _same(build)


_X = np.array([0.5, -1.5, 2.0], np.float32)


@pytest.mark.parametrize(
    "fun, holomorphic",
    [
        (lambda m: lambda x: (x * 2.0, x > 1), False),  # a bool output
        (lambda m: lambda x: (x * 2.0).astype(m.jnp.int32), False),
        (lambda m: lambda x: x * 1j, False),  # complex output without holomorphic
        (lambda m: lambda z: z.real, True),  # holomorphic with a real output
        (lambda m: lambda z: m.jnp.sin(z) * z, True),
    ],
)
def test_jacrev_checks_output_dtypes(fun, holomorphic):
    # jacrev of a function with an integer, bool or (non-holomorphic) complex output
    # returned a zero Jacobian (jacrev(lambda x: x * 1j)(x) was zeros(3, 3)); JAX raises
    # TypeError ('jacrev requires real-valued outputs ...'), as grad does.
    x = _X.astype(np.complex64) if holomorphic else _X

    def build(m):
        return m.jx.jacrev(fun(m), holomorphic=holomorphic)(x)

    _same(build)
    with pytest.raises(TypeError, match="real-valued outputs"):
        jaxlite.jacrev(lambda x: x * 1j)(_X)


_S = np.float32(1.0)
_STRONG = lambda v: v * 2.0  # noqa: E731 - strong for a strong operand
_WEAK = lambda v: 3.0  # noqa: E731 - a weak Python float


@pytest.mark.parametrize("order", ["strong_weak", "weak_strong"])
@pytest.mark.parametrize(
    "stack",
    [
        lambda m, f: f(_S),
        lambda m, f: m.jx.jit(f)(_S),
        lambda m, f: m.jx.jvp(f, (_S,), (_S,)),
        lambda m, f: m.jx.grad(f)(_S),
        lambda m, f: m.jx.vmap(f)(np.array([-1.0, 2.0], np.float32)),
        lambda m, f: f(_S) * np.ones(2, np.float16),  # the weak type decides the dtype
    ],
)
def test_cond_output_weak_type_is_branch_zeros(order, stack):
    # JAX's cond outputs have branch 0's (the false branch's) avals, weak type included:
    # cond(p, lambda v: v * 2.0, lambda v: 3.0, x) is weak, so times a float16 array it is
    # float16. jaxlite made a weak/strong mix strong (float32 there).
    t, f = (_STRONG, _WEAK) if order == "strong_weak" else (_WEAK, _STRONG)
    _same(lambda m: stack(m, lambda x: m.lax.cond(x > 0, t, f, x)))


@pytest.mark.parametrize("combo", ["sww", "wsw", "wws", "ssw", "wss", "sws"])
def test_switch_output_weak_type_is_branch_zeros(combo):
    fs = [_STRONG if c == "s" else _WEAK for c in combo]
    _same(lambda m: [m.lax.switch(i, fs, _S) for i in range(3)])
    _same(lambda m: m.jx.vmap(lambda i: m.lax.switch(i, fs, _S))(np.arange(3, dtype=np.int32)))


@pytest.mark.parametrize(
    "lo, hi", [("0", "n"), ("n", "5"), ("m.jnp.int32(0)", "n"), ("0", "n.astype(m.jnp.int16)")]
)
@pytest.mark.parametrize("body", ["i", "c + i * 0.5"])
def test_fori_loop_traced_bounds_index_weak_type(lo, hi, body):
    # With traced bounds JAX keeps equal-typed bounds as given, so the index starts as
    # `lower`: a Python int lower makes i a weak int32 (jaxlite: strong unless both bounds
    # were weak), and c + i with a weak carry stays weak.
    def lower_upper_of(m):
        return eval(f"lambda n: ({lo}, {hi})", {"m": m})  # noqa: S307 - test text

    for stack in (
        lambda m, fn: m.jx.jit(fn)(np.int32(3)),
        lambda m, fn: m.jx.vmap(fn)(np.array([1, 3], np.int32)),
    ):

        def run(m, stack=stack):
            bounds = lower_upper_of(m)
            fn = lambda n: m.lax.fori_loop(  # noqa: E731
                *bounds(n),
                lambda i, c: eval(body, {"i": i, "c": c}),
                0,  # noqa: S307
            )
            return stack(m, fn)

        _same(run)


def test_top_k_indices_of_a_weak_operand_are_weak():
    # JAX gives both top_k outputs the operand's weak type.
    _same(lambda m: m.lax.top_k(m.jnp.reshape(0.5, (1,)), 1))
    _same(lambda m: m.jx.vmap(lambda x: m.lax.top_k(x, 2))(m.jnp.ones((2, 3)) * 0.5))


_XS = np.arange(1.0, 4.0, dtype=np.float32)


@pytest.mark.parametrize(
    "fun",
    [
        lambda m: lambda x: m.lax.scan(lambda c, xi: (c * xi, None), x, _XS)[0],
        lambda m: lambda x: m.lax.scan(lambda c, xi: (c * _XS[0], None), x, _XS)[0],
        lambda m: lambda x: m.lax.scan(lambda c, xi: (c * xi, None), x, _XS[:0])[0],
        lambda m: lambda x: m.lax.scan(lambda c, xi: (c * xi, c), x, _XS)[1].sum(),
        lambda m: lambda x: m.lax.fori_loop(0, 3, lambda i, c: c * _XS[0], x),
        lambda m: (
            lambda x: m.lax.scan(lambda c, xi: ((c[0] * xi, c[1] + 1.0), None), (x, x), _XS)[0][0]
        ),
    ],
)
def test_reverse_mode_weak_types_of_a_python_float_input(fun):
    # grad w.r.t. the Python float 2.0 of scan(lambda c, x: (c * x, None), 2.0, xs): the
    # body makes the weak carry strong, and JAX's scan transpose types the carry's
    # accumulator as its (strong) cotangent, so the gradient is strong (jaxlite: weak, so
    # grad(...) * float16 array was float16, JAX float32). Where two cotangents meet JAX's
    # add_any takes the first one's type (ys = c and c * x: weak).
    _same(lambda m: m.jx.grad(fun(m))(2.0))
    _same(lambda m: m.jx.grad(fun(m))(2.0) * np.ones(2, np.float16))
    _same(lambda m: m.jx.jit(m.jx.grad(fun(m)))(2.0))
    _same(lambda m: m.jx.vjp(fun(m), 2.0)[1](np.float32(1.0)))
