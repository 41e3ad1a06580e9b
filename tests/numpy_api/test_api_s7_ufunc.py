"""jnp.ufunc objects (the fourteen JAX exposes), jnp.frompyfunc and jnp.einsum_path against
JAX: reduce (axis, keepdims, initial, where, dtype), accumulate, outer, at, reduceat, the
generic methods of frompyfunc ufuncs under jit / vmap / grad, and the errors."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.numpy  # noqa: E402

import jaxlite  # noqa: E402
import jaxlite.numpy  # noqa: E402

from ._oracle import assert_same, outcome  # noqa: E402

jax.config.update("jax_platforms", "cpu")
JNP, LNP = jax.numpy, jaxlite.numpy
X = np.arange(1.0, 7.0, dtype=np.float32).reshape(2, 3)
I = (np.arange(6, dtype=np.int32).reshape(2, 3) * 5 + 3) % 7
B = np.array([[1, 0, 1], [0, 1, 1]], bool)
NAMES = [n for n in dir(JNP) if isinstance(getattr(JNP, n), JNP.ufunc)]


def _arg(name):
    if "logical" in name:
        return B
    if "bitwise" in name:
        return I
    return X


def _check(lite, ref, tol=1e-5):
    assert_same(outcome(lite), outcome(ref), rtol=tol, atol=tol, check_weak=False)


def test_the_same_fourteen_ufuncs_with_the_same_attributes():
    assert len(NAMES) == 14
    for n in NAMES:
        lu, ju = getattr(LNP, n), getattr(JNP, n)
        assert isinstance(lu, LNP.ufunc), n
        assert (lu.nin, lu.nout, lu.nargs, lu.__name__) == (ju.nin, ju.nout, ju.nargs, ju.__name__)
        assert repr(lu) == repr(ju)
        li, ji = lu.identity, ju.identity
        assert (li is None and ji is None) or (li == ji and type(li) is type(ji)), (n, li, ji)


METHODS = {
    "call": lambda u, a: u(a, a[::-1]) if u.nin == 2 else u(a),
    "reduce": lambda u, a: u.reduce(a),
    "reduce_none": lambda u, a: u.reduce(a, axis=None),
    "reduce_neg_keep": lambda u, a: u.reduce(a, axis=-1, keepdims=True),
    "reduce_none_keep": lambda u, a: u.reduce(a, axis=None, keepdims=True),
    "reduce_initial": lambda u, a: u.reduce(a, axis=1, initial=a.dtype.type(1)),
    "reduce_where": lambda u, a: u.reduce(a, axis=1, where=np.array([True, False, True])),
    "reduce_where_initial": lambda u, a: u.reduce(
        a, axis=1, where=np.array([True, False, True]), initial=a.dtype.type(2)
    ),
    "reduce_empty": lambda u, a: u.reduce(a[:, :0], axis=1),
    "accumulate": lambda u, a: u.accumulate(a, axis=1),
    "accumulate0": lambda u, a: u.accumulate(a),
    "outer": lambda u, a: u.outer(a[0], a[1]),
    "outer_2d": lambda u, a: u.outer(a, a[0]),
    "at": lambda u, a: u.at(a[0], np.array([0, 0, 2]), a.dtype.type(1), inplace=False),
    "at_inplace": lambda u, a: u.at(a[0], np.array([0]), a.dtype.type(1)),
    "at_2d": lambda u, a: u.at(
        a, (np.array([0, 1, 1]), np.array([1, 1, 2])), a.dtype.type(1), inplace=False
    ),
    "reduceat": lambda u, a: u.reduceat(a, np.array([0, 2]), axis=1),
    "reduceat_desc": lambda u, a: u.reduceat(a, np.array([2, 0, 1]), axis=1),
}


@pytest.mark.parametrize("method", sorted(METHODS))
@pytest.mark.parametrize("name", NAMES)
def test_builtin_ufunc_methods_match_jax(name, method):
    a = _arg(name)
    _check(
        lambda: METHODS[method](getattr(LNP, name), a),
        lambda: METHODS[method](getattr(JNP, name), a),
    )


@pytest.mark.parametrize("name", NAMES)
def test_at_on_rows_matches_numpy(name):
    # JAX's generic at() fails on row updates (a broadcasting ValueError); NumPy is the
    # reference for every ufunc here.
    a = _arg(name)
    u = getattr(LNP, name)
    if u.nin == 1:
        got = u.at(a, np.array([0, 0]), inplace=False)
        want = a.copy()
        getattr(np, name).at(want, np.array([0, 0]))
    else:
        got = u.at(a, np.array([0, 0]), a[1], inplace=False)
        want = a.copy()
        getattr(np, name).at(want, np.array([0, 0]), a[1])
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)


@pytest.mark.parametrize(
    "name, fn",
    [
        ("add_reduce_int8", lambda np_: np_.add.reduce(np.array([1, 2, 3], np.int8))),
        ("mul_reduce_int8", lambda np_: np_.multiply.reduce(np.array([1, 2, 3], np.int8))),
        ("add_reduce_bool", lambda np_: np_.add.reduce(B, axis=1)),
        ("add_accumulate_int8", lambda np_: np_.add.accumulate(np.array([1, 2, 3], np.int8))),
        ("add_accumulate_bool", lambda np_: np_.add.accumulate(B, axis=1)),
        ("max_reduce_bool", lambda np_: np_.maximum.reduce(B)),
        ("and_reduce_int", lambda np_: np_.logical_and.reduce(I)),
        ("xor_reduce_int", lambda np_: np_.logical_xor.reduce(I, axis=1)),
        ("add_reduce_dtype", lambda np_: np_.add.reduce(I, dtype=np.float32)),
        ("add_reduce_tuple", lambda np_: np_.add.reduce(X, axis=(0, 1))),
        (
            "add_at_overflow",
            lambda np_: np_.add.at(np.array([1, 2], np.int8), 0, 100, inplace=False),
        ),
        ("add_reduceat_int8", lambda np_: np_.add.reduceat(np.arange(5, dtype=np.int8), [0, 3])),
        ("call_out", lambda np_: np_.add(X, X, out=np.zeros(3))),
        ("call_where", lambda np_: np_.add(X, X, where=True)),
        ("neg_at_b", lambda np_: np_.negative.at(X[0], 0, 1.0, inplace=False)),
        ("neg_at", lambda np_: np_.negative.at(X[0], np.array([0, 2]), inplace=False)),
    ],
)
def test_ufunc_dtypes_and_errors_match_jax(name, fn):
    _check(lambda: fn(LNP), lambda: fn(JNP))


def test_subtract_reduce_of_bool_raises_type_error_like_jax():
    for np_ in (LNP, JNP):
        with pytest.raises(TypeError, match="sub does not accept dtype bool"):
            np_.subtract.reduce(B)


def _frompy(np_, identity=None, f=None):
    f = f or (lambda a, b: a * b + 1)
    return np_.frompyfunc(f, nin=2, nout=1, identity=identity)


FROMPY = {
    "call": lambda j, u: u(X, X),
    "reduce": lambda j, u: u.reduce(X, axis=1),
    "reduce0": lambda j, u: u.reduce(X),
    "reduce_none": lambda j, u: u.reduce(X, axis=None),
    "reduce_initial": lambda j, u: u.reduce(X, axis=1, initial=2.0),
    "reduce_where": lambda j, u: u.reduce(X, axis=1, where=np.array([True, False, True])),
    "reduce_tuple": lambda j, u: u.reduce(X, axis=(0, 1)),
    "reduce_empty": lambda j, u: u.reduce(np.zeros((0,), np.float32)),
    "reduce_dtype": lambda j, u: u.reduce(np.arange(3), dtype=np.float32),
    "accumulate": lambda j, u: u.accumulate(X, axis=1),
    "outer": lambda j, u: u.outer(X[0], X[1]),
    "at": lambda j, u: u.at(X[0], np.array([0, 0, 2]), 2.0, inplace=False),
    "reduceat": lambda j, u: u.reduceat(X, np.array([0, 2]), axis=1),
    "jit_reduce": lambda j, u: j.jit(u.reduce)(X),
    "jit_accumulate": lambda j, u: j.jit(u.accumulate)(X),
    "jit_at": lambda j, u: j.jit(lambda a, i: u.at(a, i, 1.0, inplace=False))(
        X[0], np.array([0, 0])
    ),
    "vmap_reduce": lambda j, u: j.vmap(u.reduce)(X),
    "vmap_outer": lambda j, u: j.vmap(u.outer)(X, X),
    "grad_reduce": lambda j, u: j.grad(lambda v: u.reduce(v))(X[0]),
    "grad_accumulate": lambda j, u: j.grad(lambda v: u.accumulate(v).sum())(X[0]),
    "grad_at": lambda j, u: j.grad(lambda v: u.at(v, np.array([0, 0]), 2.0, inplace=False).sum())(
        X[0]
    ),
}


@pytest.mark.parametrize("identity", [None, 1.0])
@pytest.mark.parametrize("method", sorted(FROMPY))
def test_frompyfunc_generic_methods_match_jax(method, identity):
    lu, ju = _frompy(LNP, identity), _frompy(JNP, identity)
    assert (lu.nin, lu.nout, lu.nargs, lu.identity, lu.__name__) == (
        ju.nin,
        ju.nout,
        ju.nargs,
        ju.identity,
        ju.__name__,
    )
    _check(lambda: FROMPY[method](jaxlite, lu), lambda: FROMPY[method](jax, ju), tol=1e-4)


def test_frompyfunc_vectorizes_scalar_control_flow_and_checks_arity():
    def pick(lax):
        return lambda a, b: lax.cond(a > b, lambda: a, lambda: b)

    lu = LNP.frompyfunc(pick(jaxlite.lax), 2, 1)
    ju = JNP.frompyfunc(pick(jax.lax), 2, 1)
    _check(lambda: lu(X, X[::-1]), lambda: ju(X, X[::-1]))
    for np_ in (LNP, JNP):
        g = np_.frompyfunc(lambda a: a * 2, nin=1, nout=1)
        h = np_.frompyfunc(lambda a, b: (a + b, a - b), nin=2, nout=2)
        for fn, msg in [
            (lambda: g.reduce(X), "reduce only supported for binary ufuncs"),
            (lambda: g.outer(X, X), "outer only supported for binary ufuncs"),
            (lambda: g.accumulate(X), "accumulate only supported for binary ufuncs"),
            (lambda: h.reduce(X), "reduce only supported for functions returning a single"),
            (lambda: h.outer(X, X), "outer only supported for functions returning a single"),
        ]:
            with pytest.raises(ValueError, match=msg):
                fn()
    _check(
        lambda: LNP.frompyfunc(lambda a, b: (a + b, a - b), 2, 2)(X, X),
        lambda: JNP.frompyfunc(lambda a, b: (a + b, a - b), 2, 2)(X, X),
    )
    _check(
        lambda: LNP.frompyfunc(lambda a: a * 2, 1, 1).at(X[0], np.array([0]), inplace=False),
        lambda: JNP.frompyfunc(lambda a: a * 2, 1, 1).at(X[0], np.array([0]), inplace=False),
    )


def test_ufunc_constructor_and_monoid_fast_path():
    u = LNP.ufunc(lambda a, b: a + b, 2, 1, name="myadd", nargs=5, identity=0)
    assert (repr(u), u.nargs, u.identity) == ("<jnp.ufunc 'myadd'>", 5, 0)
    np.testing.assert_allclose(np.asarray(u.reduce(X, axis=1)), X.sum(1))
    # JAX stages lax.reduce with jnp.add as a generic reduce (whose HLO XLA reduces as
    # reduce_sum's); jaxlite computes its values with one reduce_sum, no fold.
    text = str(jaxlite.make_jaxpr(lambda x: jaxlite.lax.reduce(x, 0.0, LNP.add, (0,)))(X))
    assert "reduce_sum" in text and "scan" not in text and text.count("add") <= 2
    assert "reduce[" in str(jax.make_jaxpr(lambda x: jax.lax.reduce(x, 0.0, JNP.add, (0,)))(X))
    got, want = (m.lax.reduce(X, 0.0, m.numpy.add, (0,)) for m in (jaxlite, jax))
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


@pytest.mark.parametrize(
    "subscripts, shapes, kw",
    [
        ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)], {}),
        ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)], {"optimize": "greedy"}),
        ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)], {"optimize": "optimal"}),
        ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)], {"optimize": False}),
        ("ij,jk->ik", [(2, 3), (3, 4)], {}),
        ("abc,cd,de,ea->b", [(2, 3, 4), (4, 5), (5, 6), (6, 2)], {}),
        ("ij,jk->ik", [(2, 3), (4, 4)], {}),
    ],
)
def test_einsum_path_matches_jax(subscripts, shapes, kw):
    ops = [np.ones(s, np.float32) for s in shapes]
    got = outcome(lambda: LNP.einsum_path(subscripts, *ops, **kw))
    want = outcome(lambda: JNP.einsum_path(subscripts, *ops, **kw))
    if isinstance(want, Exception):
        assert_same(got, want)
        return
    assert got[0] == want[0]
    assert str(got[1]) == str(want[1])
    structs = [jaxlite.ShapeDtypeStruct(s, np.float32) for s in shapes]
    assert LNP.einsum_path(subscripts, *structs, **kw)[0] == want[0]
