"""Session 12 differential-fuzzer leftovers, checked against real JAX 0.10.2 live: each case
runs the same program under ``jax`` and ``jaxlite`` and compares the raised exception's
built-in class, or the outputs' structure, shapes, dtypes, weak types and values (the
harness of ``test_fuzz_s11``)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402,F401

from tests.hunt.test_fuzz_s11 import _same  # noqa: E402

# ---------------------------------------------------------------- custom_vjp, unused output
# A custom_vjp call whose output does not reach the function's output: JAX's tangent map is
# dead-code eliminated (its tangent trace has auto DCE), so the forward-mode ``custom_lin``
# never runs; jaxlite evaluated the whole tangent map and raised "can't apply forward-mode
# autodiff (jvp) to a custom_vjp function" (linearize, vmap / linearize of a linearize, and
# a custom_vjp output returned as has_aux's aux).


def _cv(m):
    @m.jx.custom_vjp
    def f(x):
        return m.jnp.sin(x)

    f.defvjp(lambda x: (m.jnp.sin(x), m.jnp.cos(x)), lambda r, g: (g * r,))
    return f


_UNUSED = {
    "plain": lambda m, f: lambda x: (f(x), x * 2.0)[1],
    "jit": lambda m, f: lambda x: (m.jx.jit(f)(x), x * 2.0)[1],
    "checkpoint": lambda m, f: m.jx.checkpoint(lambda x: (f(x), x * 2.0)[1]),
    "cond": lambda m, f: lambda x: m.lax.cond(x > 0, lambda x: (f(x), x * 2.0)[1], lambda x: x, x),
    "scan_ys": lambda m, f: (
        lambda x: m.lax.scan(lambda c, _: (c * 2.0, f(c)), x, None, length=2)[0]
    ),
    "fori": lambda m, f: lambda x: m.lax.fori_loop(0, 2, lambda i, c: (f(c), c * 2.0)[1], x),
    "stop_gradient": lambda m, f: lambda x: x * 2.0 + m.lax.stop_gradient(f(x)),
    "vmap": lambda m, f: (
        lambda x: m.jx.vmap(lambda x: (f(x), x * 2.0)[1])(m.jnp.stack([x, x])).sum()
    ),
    # the output is used: JAX raises too
    "used": lambda m, f: lambda x: (f(x), x * 2.0),
}

_HOW = {
    "linearize": lambda m, g: m.jx.linearize(g, 1.5)[1](1.0),
    "jvp": lambda m, g: m.jx.jvp(g, (1.5,), (1.0,)),
    "vjp": lambda m, g: m.jx.vjp(g, 1.5)[0],
    "jit_linearize": lambda m, g: m.jx.jit(lambda x: m.jx.linearize(g, x)[1](1.0))(1.5),
    "vmap_linearize": lambda m, g: m.jx.vmap(lambda x: m.jx.linearize(g, x)[1](1.0))(m.jnp.ones(3)),
    "linearize_linearize": lambda m, g: m.jx.linearize(lambda x: m.jx.linearize(g, x)[1](1.0), 1.5)[
        1
    ](1.0),
    "jacfwd": lambda m, g: m.jx.jacfwd(g)(1.5),
}


@pytest.mark.parametrize("body", list(_UNUSED))
@pytest.mark.parametrize("how", list(_HOW))
def test_custom_vjp_output_not_reaching_the_output(body, how):
    _same(lambda m: _HOW[how](m, _UNUSED[body](m, _cv(m))))


@pytest.mark.parametrize("how", ["linearize", "jvp", "grad", "hessian"])
def test_custom_vjp_output_as_aux(how):
    def build(m):
        f = _cv(m)
        g = lambda x: (x * 2.0, f(x))  # noqa: E731
        if how == "linearize":
            out, lin, aux = m.jx.linearize(g, 1.5, has_aux=True)
            return out, lin(1.0), aux
        if how == "jvp":
            return m.jx.jvp(g, (1.5,), (1.0,), has_aux=True)
        return getattr(m.jx, how)(g, has_aux=True)(1.5)

    _same(build)


# ---------------------------------------------------------------- unique(size=0) under AD
# A function of x calling unique(x, size=0): JAX's result is an empty constant; jaxlite
# scattered into an empty array, whose transpose gathered from the empty cotangent and
# raised "Slice size at index 0 in gather op is out of range".
_X4 = np.array([1.0, 2.0, 2.0, 3.0], np.float32)
_UNIQUE0 = {
    "unique": lambda m, v: m.jnp.unique(v, size=0),
    "fill": lambda m, v: m.jnp.unique(v, size=0, fill_value=2.0),
    "values": lambda m, v: m.jnp.unique_values(v, size=0),
    "counts": lambda m, v: m.jnp.unique_counts(v, size=0).values,
    "all": lambda m, v: m.jnp.unique_all(v, size=0).values,
    "index": lambda m, v: m.jnp.unique(v, size=0, return_index=True)[0],
    "union1d": lambda m, v: m.jnp.union1d(v, v, size=0),
    "size1": lambda m, v: m.jnp.unique(v, size=1),
}
_UNIQUE0_HOW = {
    "grad": lambda m, f: m.jx.grad(lambda v: m.jnp.sum(f(m, v)) + m.jnp.sum(v))(_X4),
    "jit_grad": lambda m, f: m.jx.jit(m.jx.grad(lambda v: m.jnp.sum(f(m, v)) + v[0]))(_X4),
    "vmap_grad": lambda m, f: m.jx.vmap(m.jx.grad(lambda v: m.jnp.sum(f(m, v)) + v[0]))(_X4[None]),
    "jacrev": lambda m, f: m.jx.jacrev(lambda v: f(m, v))(_X4),
    "jvp": lambda m, f: m.jx.jvp(lambda v: f(m, v), (_X4,), (_X4,)),
}


@pytest.mark.parametrize("fn", list(_UNIQUE0))
@pytest.mark.parametrize("how", list(_UNIQUE0_HOW))
def test_unique_size_zero_under_autodiff(fn, how):
    _same(lambda m: _UNIQUE0_HOW[how](m, _UNIQUE0[fn]))


# ---------------------------------------------------------------- keywords JAX 0.10.2 removed
# quantile/percentile/nanquantile/nanpercentile(interpolation=) and reshape(newshape=) are
# gone in JAX 0.10.2 (TypeError); jaxlite still accepted them.
_REMOVED = [
    lambda m: m.jnp.quantile(_X4, 0.5, interpolation="linear"),
    lambda m: m.jnp.quantile(_X4, 0.5, method="lower", interpolation="lower"),
    lambda m: m.jnp.quantile(_X4, 0.5, interpolation=None),
    lambda m: m.jnp.percentile(_X4, 50.0, interpolation="nearest"),
    lambda m: m.jnp.nanquantile(_X4, 0.5, interpolation="linear"),
    lambda m: m.jnp.nanpercentile(_X4, 50.0, interpolation="linear"),
    lambda m: m.jnp.reshape(_X4, newshape=(2, 2)),
    lambda m: m.jnp.reshape(_X4, (2, 2), newshape=(2, 2)),
    lambda m: m.jnp.reshape(_X4, (2, 2), newshape=None),
    lambda m: m.jnp.reshape(_X4),
    lambda m: m.jnp.asarray(_X4).reshape(newshape=(2, 2)),
    # still accepted
    lambda m: m.jnp.reshape(m.jnp.asarray(_X4), shape=(2, 2), order="F"),
    lambda m: m.jnp.percentile(_X4, 50.0, method="nearest", keepdims=True),
]


@pytest.mark.parametrize("k", range(len(_REMOVED)))
def test_removed_keywords(k):
    _same(_REMOVED[k])


def test_removed_keywords_messages():
    import jaxlite.numpy as ljnp

    with pytest.raises(TypeError, match="unexpected keyword argument 'interpolation'"):
        ljnp.quantile(_X4, 0.5, interpolation=None)
    with pytest.raises(TypeError, match="unexpected keyword argument 'newshape'"):
        ljnp.reshape(_X4, newshape=(2, 2))
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'shape'"):
        ljnp.reshape(_X4)


# ---------------------------------------------------------------- complex xlogy, sort kind, bf16
# JAX's xlogy/xlog1py take complex operands (jaxlite refused: TypeError); entr, rel_entr and
# kl_div refuse them with JAX's ValueError.
_C = np.array([0, 1 + 1j, -2 + 0.5j], np.complex64)
_COMPLEX = [
    lambda m: m.jx.scipy.special.xlogy(1.0 + 1j, 2.0 + 0.5j),
    lambda m: m.jx.scipy.special.xlogy(0j, 0j),
    lambda m: m.jx.scipy.special.xlogy(_C, _C[::-1]),
    lambda m: m.jx.scipy.special.xlog1py(_C, _C[::-1]),
    lambda m: m.jx.scipy.special.xlog1py(0j, -1 + 0j),
    lambda m: m.jx.grad(lambda x: m.jx.scipy.special.xlogy(x, 2.0 + 1j), holomorphic=True)(
        1.0 + 1j
    ),
    lambda m: m.jx.jvp(lambda y: m.jx.scipy.special.xlog1py(_C, y), (_C,), (_C,)),
    lambda m: m.jx.scipy.special.entr(1.0 + 1j),
    lambda m: m.jx.scipy.special.rel_entr(1.0 + 1j, 1 + 0j),
    lambda m: m.jx.scipy.special.kl_div(_C, _C),
]


@pytest.mark.parametrize("k", range(len(_COMPLEX)))
def test_complex_xlogy_family(k):
    _same(_COMPLEX[k])


# jnp.sort/argsort refuse kind= and order= (JAX 0.10.2's TypeError; jaxlite ignored them).
@pytest.mark.parametrize("fn", ["sort", "argsort"])
@pytest.mark.parametrize("kw", [{"kind": "stable"}, {"kind": np.str_("quicksort")}, {"order": "a"}])
def test_sort_kind_and_order(fn, kw):
    _same(lambda m: getattr(m.jnp, fn)(_X4, **kw))


# The fuzzer's ``jnp.convolve(..., mode=np.str_('same'))`` failure was a bfloat16 operand:
# the convolution kernel's einsum has no bfloat16 loop (TypeError); any mode, lax.conv too.
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_bfloat16_convolve(mode):
    a = np.array([0.5, -1.0, 2.0, 3.0, 0.25, 1.5, -0.75], np.float32)
    b = np.array([1.0, -0.5, 2.0], np.float32)

    def build(m):
        x, y = m.jnp.asarray(a, "bfloat16"), m.jnp.asarray(b, "bfloat16")
        return (
            m.jnp.convolve(x, y, mode=np.str_(mode)),
            m.jnp.correlate(y, x, mode=mode),
            m.jx.grad(lambda v: m.jnp.convolve(v, y, mode=mode).astype("float32").sum())(x),
            m.lax.conv(
                m.jnp.reshape(x[:6], (1, 1, 2, 3)),
                m.jnp.reshape(y[:2], (1, 1, 1, 2)),
                (1, 1),
                "SAME",
            ),
        )

    _same(build, rtol=2e-2, atol=2e-2)


# ---------------------------------------------------------------- jax.scipy.special weak types
# A sweep of jax.scipy.special with Python-scalar, weak and strong float32 arguments under
# eval, grad, jvp, vjp and second derivatives. ndtri and spence are strongly typed in JAX
# (jaxlite kept a Python float's weak type, so ndtri(0.3) next to bfloat16 promoted to
# bfloat16). exp1/expi/expn/fresnel/sici/log_ndtr are custom_jvp functions in JAX: the primal
# is strong, the tangent the rule's formula (weak for weak arguments), so the gradient of a
# weak argument is strong; jaxlite cast on the tangent path, which made them the other way.
_SPECIAL = {
    "ndtri": (0.3,),
    "spence": (0.7,),
    "exp1": (0.7,),
    "expi": (0.7,),
    "expn": (2.0, 0.7),
    "log_ndtr": (0.7,),
    "fresnel": (0.7,),
    "sici": (0.7,),
    # zeta differentiates a series with strongly typed constants (tangents strong, the
    # primal under JVP strong); jaxlite's series used Python constants
    "zeta": (2.5, 1.5),
}
# JAX raises inside itself ("No constant handler") for second derivatives of expn / exp1.
_NO_SECOND = {"exp1", "expn"}


def _arg(m, kind, v):
    return {"py": v, "weak": m.jnp.asarray(v), "strong": np.float32(v)}[kind]


def _scalar_out(out):
    return out[0] + out[1] if isinstance(out, tuple) else out


_SPECIAL_CASES = [
    (fn, kinds, how)
    for fn, vals in _SPECIAL.items()
    for kinds in ["py", "weak", "strong"] + (["mixed"] if len(vals) > 1 else [])
    for how in ["eval", "grad", "jvp", "vjp", "grad2", "jvp_grad"]
    if not (how in ("grad2", "jvp_grad") and fn in _NO_SECOND)
]


@pytest.mark.parametrize("fn,kinds,how", _SPECIAL_CASES)
def test_special_weak_types(fn, kinds, how):
    vals = _SPECIAL[fn]
    ks = ["strong", "py"] if kinds == "mixed" else [kinds] * len(vals)
    i = len(vals) - 1  # the differentiated argument (expn: x)

    def build(m):
        f = getattr(m.jx.scipy.special, fn)
        args = [_arg(m, k, v) for k, v in zip(ks, vals)]

        def fi(xi):
            return f(*args[:i], xi)

        if how == "eval":
            return f(*args)
        if how == "grad":
            return m.jx.grad(lambda x: _scalar_out(fi(x)))(args[i])
        if how == "jvp":
            return m.jx.jvp(fi, (args[i],), (args[i],))
        if how == "vjp":
            out, pb = m.jx.vjp(fi, args[i])
            return out, pb(out)
        if how == "grad2":
            return m.jx.grad(m.jx.grad(lambda x: _scalar_out(fi(x))))(args[i])
        return m.jx.jvp(m.jx.grad(lambda x: _scalar_out(fi(x))), (args[i],), (args[i],))

    _same(build)


def test_ndtri_next_to_bfloat16_stays_float32():
    _same(lambda m: m.jx.scipy.special.ndtri(0.3) + m.jnp.ones(2, "bfloat16"))


def test_expn_order_zero_at_signed_zeros():
    # JAX's E_0(x) is e^-x / x for x >= 0: -inf at -0.0 (SciPy's kernel: +inf), so exp1's
    # derivative there is +inf.
    x = np.array([-1.0, 0.0, -0.0, 1e-3, 2.0, np.nan], np.float32)
    _same(
        lambda m: (
            m.jx.scipy.special.expn(0.0, x),
            m.jx.vmap(m.jx.grad(m.jx.scipy.special.exp1))(x),
        )
    )


# Seed 13000574: rel_entr of an int array and a Python float is strongly typed in JAX (its zero
# is the lax constant of p: weak only for a weak scalar p); jaxlite's result was weak.
_I3 = np.array([0, 1, 2], np.int32)
_REL_ENTR = [
    lambda m: m.jx.scipy.special.rel_entr(_I3, 1.5),
    lambda m: m.jx.scipy.special.rel_entr(1.5, _I3),
    lambda m: m.jx.scipy.special.rel_entr(0.5, 1.5),
    lambda m: m.jx.scipy.special.rel_entr(m.jnp.asarray(0.5), 1.5),
    lambda m: m.jx.scipy.special.rel_entr(np.float32(0.5), 1.5),
    lambda m: m.jx.scipy.special.kl_div(_I3, 1.5),
    lambda m: m.jx.grad(lambda x: m.jx.scipy.special.rel_entr(x, 1.5))(0.5),
]


@pytest.mark.parametrize("k", range(len(_REL_ENTR)))
def test_rel_entr_weak_type(k):
    _same(_REL_ENTR[k])


@pytest.mark.parametrize("kind", ["py", "weak", "strong"])
def test_zeta_derivative_in_x_weak_types(kind):
    def build(m):
        q = _arg(m, kind, 1.5)
        f = lambda x: m.jx.scipy.special.zeta(x, q)  # noqa: E731
        x = _arg(m, kind, 2.5)
        out, pb = m.jx.vjp(f, x)
        return m.jx.jvp(f, (x,), (x,)), out, pb(out), m.jx.grad(f)(x)

    _same(build)
