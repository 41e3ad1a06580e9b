"""Public signatures as JAX 0.10.2's (session 11 sweep, .devdeps/sig_sweep.py), and the
behaviour of the parameters that sweep added. ``test_signature_matches_jax`` compares
``inspect.signature`` of each function fixed in that session with JAX's (skipped when JAX is
not installed); the other tests assert JAX's behaviour (they pass in oracle mode)."""

import collections
import importlib
import inspect
import re

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax, tree_util
from tests.sharding._subproc import run

ACCURACY_FNS = (
    "cbrt", "cos", "exp", "exp2", "expm1", "log", "log1p", "logistic", "rsqrt", "sin", "sqrt",
    "tan", "tanh",
)

FIXED = {
    "tree_util": [
        "all_leaves", "keystr", "tree_all", "tree_flatten_with_path", "tree_leaves_with_path",
        "tree_map_with_path", "tree_reduce",
    ],
    "tree": ["all", "flatten_with_path", "leaves_with_path", "map_with_path", "reduce"],
    "": [
        "checkpoint", "vmap", "vjp", "make_jaxpr", "default_matmul_precision",
        "numpy_dtype_promotion", "numpy_rank_promotion",
    ],
    "lax": [
        "dynamic_slice", "dynamic_slice_in_dim", "dynamic_index_in_dim", "dynamic_update_slice",
        "dynamic_update_slice_in_dim", "dynamic_update_index_in_dim",
    ] + list(ACCURACY_FNS) + [
        "broadcasted_iota", "conv_general_dilated", "reduce", "reduce_sum", "full", "full_like",
        "mul", "dot", "argmax", "argmin", "broadcast", "broadcast_in_dim", "concatenate",
        "expand_dims", "index_in_dim", "pad", "reduce_and", "reduce_max", "reduce_min", "reduce_or",
        "reduce_prod", "reduce_xor", "reshape", "rev", "slice", "slice_in_dim", "squeeze",
        "transpose", "add", "sub", "div", "rem", "max", "min", "atan2", "nextafter", "eq", "ne",
        "lt", "le", "gt", "ge", "bitwise_and", "bitwise_or", "bitwise_xor", "shift_left",
        "shift_right_logical", "shift_right_arithmetic", "complex", "igamma", "igammac",
        "igamma_grad_a", "betainc", "polygamma", "zeta", "clamp",
    ],
    "numpy": [
        "bincount", "broadcast_to", "percentile", "ravel", "repeat", "tensordot", "var", "std",
        "nanvar", "nanstd", "around", "round", "compress", "cumprod", "cumsum", "isneginf",
        "isposinf", "outer", "stack",
        # session 11, second pass (sigs2)
        "argsort", "ravel_multi_index", "corrcoef", "trim_zeros", "astype",
        "bitwise_left_shift", "equal", "float_power", "greater", "greater_equal", "less",
        "less_equal", "left_shift", "nextafter", "not_equal", "issubdtype", "empty_like",
        "fmax", "fmin", "gcd", "lcm", "trunc", "concat", "permute_dims", "unique_values",
        "argmax", "argmin", "nanargmax", "nanargmin", "searchsorted", "array",
    ],
    "nn": ["standardize"],
    "numpy.linalg": ["tensordot"],
    "random": ["key_dtype", "wrap_key_data"],
}

# Defaults that differ only by a sentinel object's identity (JAX's and jaxlite's
# "unspecified" markers behave the same).
SENTINEL_DEFAULTS = {
    ("tree_util", "tree_reduce", "initializer"), ("tree", "reduce", "initializer"),
    ("", "default_matmul_precision", "new_val"), ("", "numpy_dtype_promotion", "new_val"),
    ("", "numpy_rank_promotion", "new_val"),
}


def _mismatches(module, name):
    ref = importlib.import_module(f"jax.{module}" if module else "jax")
    ours = importlib.import_module(f"jaxlite.{module}" if module else "jaxlite")
    sa = inspect.signature(getattr(ref, name)).parameters
    sb = inspect.signature(getattr(ours, name)).parameters
    out = []
    for pname, p in sa.items():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        q = sb.get(pname)
        if q is None:
            out.append(f"missing {pname}")
            continue
        if p.kind != q.kind:
            out.append(f"{pname}: kind {p.kind} vs {q.kind}")
        if (module, name, pname) in SENTINEL_DEFAULTS or p.default is p.empty:
            continue  # (a parameter JAX requires may have a default here)
        if repr(p.default) != repr(q.default):
            out.append(f"{pname}: default {p.default!r} vs {q.default!r}")
    return out


@pytest.mark.parametrize(
    "module, name", [(m, n) for m, names in FIXED.items() for n in names]
)
def test_signature_matches_jax(module, name):
    pytest.importorskip("jax", reason="JAX (the reference) is not installed")
    assert _mismatches(module, name) == []


# ------------------------------------------------------------------------------ tree_util

NT = collections.namedtuple("NT", "a b")
TREE = {"b": NT(4, {"c": 5}), "a": [1, (2, 3)], "d": None}


def test_keystr_simple_and_separator():
    paths = [p for p, _ in tree_util.tree_leaves_with_path(TREE)]
    assert [tree_util.keystr(p) for p in paths][-1] == "['b'].b['c']"
    assert [tree_util.keystr(p, simple=True) for p in paths] == ["a0", "a10", "a11", "ba", "bbc"]
    assert [tree_util.keystr(p, simple=True, separator="/") for p in paths][1:4] == [
        "a/1/0", "a/1/1", "b/a"
    ]
    assert tree_util.keystr(paths[0], separator="/") == "['a']/[0]"
    assert tree_util.keystr((tree_util.FlattenedIndexKey(3),), simple=True) == "3"
    assert tree_util.keystr((), simple=True) == ""


def test_is_leaf_takes_path():
    seen = []

    def is_leaf(path, x):
        seen.append((tree_util.keystr(path), type(x).__name__))
        return type(x) is tuple

    got = tree_util.tree_leaves_with_path(TREE, is_leaf=is_leaf, is_leaf_takes_path=True)
    assert [(tree_util.keystr(p), x) for p, x in got] == [
        ("['a'][0]", 1), ("['a'][1]", (2, 3)), ("['b'].a", 4), ("['b'].b['c']", 5)
    ]
    assert seen == [
        ("", "dict"), ("['a']", "list"), ("['a'][0]", "int"), ("['a'][1]", "tuple"),
        ("['b']", "NT"), ("['b'].a", "int"), ("['b'].b", "dict"), ("['b'].b['c']", "int"),
        ("['d']", "NoneType"),
    ]
    out = tree_util.tree_map_with_path(
        lambda p, x: tree_util.keystr(p), TREE,
        is_leaf=lambda p, x: tree_util.keystr(p) == "['b']", is_leaf_takes_path=True,
    )
    assert out == {"a": ["['a'][0]", ("['a'][1][0]", "['a'][1][1]")], "b": "['b']", "d": None}
    leaves, treedef = jax.tree.flatten_with_path(
        TREE, is_leaf=lambda p, x: p == (), is_leaf_takes_path=True
    )
    assert leaves == [((), TREE)] and treedef.num_leaves == 1
    out = jax.tree.map_with_path(
        lambda p, x, y: len(p) * 10 + x + y, {"x": [1, {"y": 2}]}, {"x": [3, {"y": 4}]},
        is_leaf=lambda p, x: False, is_leaf_takes_path=True,
    )
    assert out == {"x": [24, {"y": 36}]}
    # is_leaf_takes_path without an is_leaf flattens as usual
    assert len(jax.tree.leaves_with_path(TREE, is_leaf_takes_path=True)) == 5


def test_all_leaves_and_tree_all_is_leaf():
    is_list = lambda x: isinstance(x, list)  # noqa: E731
    assert not tree_util.all_leaves([1, [2]])
    assert not tree_util.all_leaves([1, [2]], is_leaf=is_list)  # the outer list is a leaf
    assert tree_util.all_leaves([1, (2,)], is_leaf=lambda x: isinstance(x, tuple))
    assert not tree_util.tree_all([1, [0]])
    assert tree_util.tree_all([1, [0]], is_leaf=is_list)
    assert jax.tree.all([True, [False]], is_leaf=is_list)


def test_tree_reduce_function_keyword():
    assert tree_util.tree_reduce(function=lambda a, b: a + b, tree=[1, 2, 3]) == 6
    assert jax.tree.reduce(function=lambda a, b: a * b, tree=[2, 3], initializer=4) == 24


# ------------------------------------------------------------------------ transformations


def _scaled(x, n):
    if n > 2:  # needs a concrete n
        return x * n
    return x


def test_checkpoint_static_argnames_follows_remat3():
    # JAX 0.10.2 honours static_argnames only under jax_remat3 (read by checkpoint itself);
    # by default keyword arguments are traced, so Python control flow on them fails.
    with pytest.raises(jax.errors.TracerBoolConversionError):
        jax.checkpoint(_scaled, static_argnames="n")(1.0, n=3)
    try:
        jax.config.update("jax_remat3", True)
        f = jax.checkpoint(_scaled, static_argnames=("n",))
    finally:
        jax.config.update("jax_remat3", False)
    assert float(f(1.0, n=3)) == 3.0
    assert float(jax.grad(f)(2.0, n=3)) == 3.0
    assert float(jax.jit(jax.grad(f), static_argnames="n")(2.0, n=4)) == 4.0
    with pytest.raises(jax.errors.TracerBoolConversionError):
        f(1.0, 3)  # only keyword arguments are static


def test_checkpoint_concrete_removed():
    for value in (True, False):
        with pytest.raises(NotImplementedError, match="removed in JAX v0.10.0"):
            jax.checkpoint(_scaled, concrete=value)


def _pair(x):
    return x * 2, x.sum(), 3.0


X32 = np.arange(6.0, dtype=np.float32).reshape(3, 2)


def test_vmap_sum_match():
    a, b, c = jax.vmap(_pair, out_axes=None, sum_match=True)(X32)
    np.testing.assert_array_equal(np.asarray(a), np.array([12.0, 18.0], np.float32))
    assert float(b) == 15.0 and c == 3.0 and type(c) is float
    a, b, c = jax.vmap(_pair, out_axes=(None, 0, None), sum_match=True)(X32)
    np.testing.assert_array_equal(np.asarray(b), np.array([1.0, 5.0, 9.0], np.float32))
    a, _, _ = jax.vmap(_pair, in_axes=1, out_axes=None, sum_match=True)(X32)
    np.testing.assert_array_equal(np.asarray(a), np.array([2.0, 10.0, 18.0], np.float32))
    a, b, c = jax.jit(jax.vmap(_pair, out_axes=None, sum_match=True))(X32)
    assert a.dtype == np.float32 and float(b) == 15.0 and c.dtype == np.float32
    with pytest.raises(ValueError, match="got axis spec None but output was batched"):
        jax.vmap(_pair, out_axes=None)(X32)
    inner = jax.vmap(lambda v: v * 2, out_axes=None, sum_match=True)
    assert float(jax.vmap(inner, out_axes=None, sum_match=True)(X32)) == 30.0


def test_vmap_sum_match_dtypes_and_grad():
    # summed as jnp.sum: small integers and booleans in the default (unsigned) int
    i8 = np.full((3, 2), 100, np.int8)
    out = jax.vmap(lambda v: (v + 1).astype(jnp.int8), out_axes=None, sum_match=True)(i8)
    assert out.dtype == np.int32 and out.tolist() == [303, 303]
    out = jax.vmap(lambda v: (v + 1).astype(jnp.uint8), out_axes=None, sum_match=True)(i8)
    assert out.dtype == np.uint32 and out.tolist() == [303, 303]
    out = jax.vmap(lambda v: (v + 1).astype(jnp.float16), out_axes=None, sum_match=True)(i8)
    assert out.dtype == np.float16
    out = jax.vmap(lambda v: v > 1, out_axes=None, sum_match=True)(X32)
    assert out.dtype == np.int32 and out.tolist() == [2, 2]

    def loss(x):
        return jax.vmap(jnp.sin, out_axes=None, sum_match=True)(x).sum()

    np.testing.assert_allclose(np.asarray(jax.grad(loss)(X32)), np.cos(X32), rtol=1e-6)


def test_vjp_reduce_axes():
    out, _ = jax.vjp(jnp.sin, 1.0, reduce_axes=())
    assert abs(float(out) - np.sin(1.0)) < 1e-6
    with pytest.raises(NotImplementedError, match="reduce_axes argument to vjp is deprecated"):
        jax.vjp(jnp.sin, 1.0, reduce_axes=("i",))


def test_make_jaxpr_axis_env():
    closed = jax.make_jaxpr(lambda x: lax.psum(x, "i"), axis_env=[("i", 4)])(1.0)
    assert "psum" in str(closed) and closed.out_avals[0].shape == ()
    x = np.ones(3, np.float32)
    closed = jax.make_jaxpr(lambda x: lax.all_gather(x, "i"), axis_env=[("i", 4), ("j", 2)])(x)
    assert closed.out_avals[0].shape == (4, 3)
    closed = jax.make_jaxpr(lambda x: lax.axis_index("i") + lax.axis_size("j"),
                            axis_env=[("i", 4), ("j", 2)])(x)
    assert "axis_index" in str(closed)
    with pytest.raises(NameError, match="unbound axis name: k"):
        jax.make_jaxpr(lambda x: lax.psum(x, "k"), axis_env=[("i", 4)])(1.0)
    with pytest.raises(NameError, match="unbound axis name: i"):
        jax.make_jaxpr(lambda x: lax.psum(x, "i"))(1.0)


# ------------------------------------------------------------- allow_negative_indices

X10 = np.arange(10.0, dtype=np.float32)
Y34 = np.arange(12.0, dtype=np.float32).reshape(3, 4)
UPD = np.array([-1.0, -2.0], np.float32)


@pytest.mark.parametrize("allow", [True, False, [True], (False,)])
@pytest.mark.parametrize("start, wrapped", [(-3, [7, 8]), (-12, [0, 1]), (8, [8, 9])])
def test_dynamic_slice_allow_negative_indices(allow, start, wrapped):
    negative_refused = start < 0 and not (allow if isinstance(allow, bool) else allow[0])
    if negative_refused:
        with pytest.raises(ValueError, match=f"Index {start} is out of bounds for dimension "
                                             "10 if allow_negative_indices=False"):
            lax.dynamic_slice(X10, (start,), (2,), allow_negative_indices=allow)
        with pytest.raises(ValueError, match="allow_negative_indices=False"):
            lax.dynamic_update_slice(X10, UPD, (start,), allow_negative_indices=allow)
    else:
        out = lax.dynamic_slice(X10, (start,), (2,), allow_negative_indices=allow)
        assert out.tolist() == wrapped
        out = lax.dynamic_update_slice(X10, UPD, (start,), allow_negative_indices=allow)
        assert out.tolist()[wrapped[0]:wrapped[0] + 2] == [-1.0, -2.0]
    # traced starts are never refused: without wrapping, a negative start clamps to 0
    expect = [0, 1] if negative_refused else wrapped
    out = jax.jit(lambda x, i: lax.dynamic_slice(x, (i,), (2,), allow_negative_indices=allow))(
        X10, start
    )
    assert out.tolist() == expect
    out = jax.jit(
        lambda x, i: lax.dynamic_update_slice(x, UPD, (i,), allow_negative_indices=allow)
    )(X10, start)
    assert out.tolist()[expect[0]:expect[0] + 2] == [-1.0, -2.0]


def test_dynamic_slice_allow_negative_indices_per_axis():
    with pytest.raises(ValueError, match="Index -1 is out of bounds for dimension 4"):
        lax.dynamic_slice(Y34, (-1, -1), (1, 2), allow_negative_indices=(True, False))
    out = lax.dynamic_slice(Y34, (-1, 1), (1, 2), allow_negative_indices=(True, False))
    assert out.tolist() == [[9.0, 10.0]]
    f = jax.jit(
        lambda y, i, j: lax.dynamic_slice(y, (i, j), (1, 2), allow_negative_indices=(True, False))
    )
    assert f(Y34, -1, -1).tolist() == [[8.0, 9.0]]
    g = jax.grad(lambda x, i: lax.dynamic_slice(x, (i,), (2,), allow_negative_indices=False).sum())
    assert g(X10, jnp.array(-1)).tolist() == [1.0, 1.0] + [0.0] * 8
    v = jax.vmap(lambda i: lax.dynamic_slice(X10, (i,), (2,), allow_negative_indices=False))
    assert v(jnp.array([-1, 3])).tolist() == [[0.0, 1.0], [3.0, 4.0]]


def test_in_dim_variants_allow_negative_indices():
    for allow in (True, False):
        idx = 2 if allow else 0  # what index -1 selects
        if allow:
            out = lax.dynamic_slice_in_dim(Y34, -1, 2, axis=1, allow_negative_indices=allow)
            assert out.tolist() == Y34[:, 2:].tolist()
            out = lax.dynamic_update_slice_in_dim(
                Y34, np.zeros((3, 1), np.float32), -1, axis=1, allow_negative_indices=allow
            )
            assert out[:, 3].tolist() == [0.0, 0.0, 0.0]
        else:
            with pytest.raises(ValueError, match="Index -1 is out of bounds for dimension 4"):
                lax.dynamic_slice_in_dim(Y34, -1, 2, axis=1, allow_negative_indices=allow)
            with pytest.raises(ValueError, match="Index -1 is out of bounds for dimension 4"):
                lax.dynamic_update_slice_in_dim(
                    Y34, np.zeros((3, 1), np.float32), -1, axis=1, allow_negative_indices=allow
                )
        # JAX jits the *_index_in_dim functions: a Python index is traced, never refused
        out = lax.dynamic_index_in_dim(Y34, -1, axis=0, keepdims=False,
                                       allow_negative_indices=allow)
        assert out.tolist() == Y34[idx].tolist()
        out = lax.dynamic_update_index_in_dim(
            Y34, np.zeros(4, np.float32), -1, axis=0, allow_negative_indices=allow
        )
        assert out[idx].tolist() == [0.0] * 4 and float(out.sum()) == Y34.sum() - Y34[idx].sum()
        out = lax.dynamic_slice_in_dim(Y34, jnp.array(-1), 1, axis=0,
                                       allow_negative_indices=allow)
        assert out.tolist() == [Y34[idx].tolist()]


# ------------------------------------------------------------------------------ accuracy

XPOS = np.linspace(0.1, 3.0, 50, dtype=np.float32)


@pytest.mark.parametrize("name", ACCURACY_FNS)
def test_accuracy_keyword(name):
    # On CPU, JAX's results do not depend on the accuracy asked for; a value that is neither
    # an AccuracyMode nor a Tolerance is refused (except by logistic, an expansion in XLA).
    fn = getattr(lax, name)
    ref = np.asarray(fn(XPOS))
    accuracies = [None, lax.AccuracyMode.HIGHEST, lax.AccuracyMode.DEFAULT,
                  lax.Tolerance(atol=1e-3, rtol=1e-3), lax.Tolerance(ulps=1)]
    for acc in accuracies:
        np.testing.assert_array_equal(np.asarray(fn(XPOS, accuracy=acc)), ref)
        out = jax.jit(lambda x: fn(x, accuracy=acc))(XPOS)  # noqa: B023
        np.testing.assert_allclose(np.asarray(out), ref, rtol=1e-6)
    g = jax.grad(lambda x: fn(x, accuracy=lax.AccuracyMode.HIGHEST))(1.5)
    np.testing.assert_allclose(float(g), float(jax.grad(fn)(1.5)), rtol=1e-6)
    for bad in [(1e-5, 1e-5, 1), "HIGHEST", 5]:
        if name == "logistic":
            np.testing.assert_array_equal(np.asarray(fn(XPOS, accuracy=bad)), ref)
        else:
            message = re.escape(f"Accuracy {bad} not supported")
            with pytest.raises(NotImplementedError, match=message):
                fn(XPOS, accuracy=bad)
            with pytest.raises(NotImplementedError, match="not supported"):
                jax.jit(lambda x: fn(x, accuracy=bad))(XPOS)  # noqa: B023


def test_tolerance_validation():
    with pytest.raises(ValueError, match="Tolerances must be non-negative."):
        lax.Tolerance(atol=-1.0)
    with pytest.raises(ValueError, match="At least one of atol, rtol, or ulps must be set."):
        lax.Tolerance()


# ----------------------------------------------------------------- out_sharding, sharding

_OUT_SHARDING_SCRIPT = """
mesh = jax.make_mesh((2,), ("x",), axis_types=(AxisType.Explicit,))
lax = jax.lax
cases = {
    "broadcast_to": (lambda s: jnp.broadcast_to(jnp.arange(3.0), (4, 3), out_sharding=s),
                     P("x", None), [[0.0, 1.0, 2.0]] * 4),
    "percentile": (lambda s: jnp.percentile(jnp.arange(8.0).reshape(4, 2), jnp.array([0.0, 100.0]),
                                            axis=0, out_sharding=s),
                   P("x", None), [[0.0, 1.0], [6.0, 7.0]]),
    "ravel": (lambda s: jnp.ravel(jnp.arange(8.0).reshape(4, 2), out_sharding=s),
              P("x"), list(range(8))),
    "repeat": (lambda s: jnp.repeat(jnp.arange(4.0), 2, out_sharding=s),
               P("x"), [0, 0, 1, 1, 2, 2, 3, 3]),
    "tensordot": (lambda s: jnp.tensordot(jnp.ones((4, 3)), jnp.ones((3, 2)), 1, out_sharding=s),
                  P("x", None), [[3.0, 3.0]] * 4),
    "linalg.tensordot": (lambda s: jnp.linalg.tensordot(jnp.ones((4, 3)), jnp.ones((3, 2)), axes=1,
                                                        out_sharding=s),
                         P("x", None), [[3.0, 3.0]] * 4),
    "broadcasted_iota": (lambda s: lax.broadcasted_iota(jnp.int32, (4, 2), 0, out_sharding=s),
                         P("x", None), [[0, 0], [1, 1], [2, 2], [3, 3]]),
    "reduce_sum": (lambda s: lax.reduce_sum(jnp.ones((4, 2)), (1,), out_sharding=s),
                   P("x"), [2.0] * 4),
    "reduce": (lambda s: lax.reduce(jnp.ones((4, 2)), 0.0, lax.add, (1,), out_sharding=s),
               P("x"), [2.0] * 4),
    "conv": (lambda s: lax.conv_general_dilated(jnp.ones((4, 1, 5)), jnp.ones((1, 1, 2)), (1,),
                                                "VALID", out_sharding=s),
             P("x", None, None), [[[2.0] * 4]] * 4),
}
with jax.set_mesh(mesh):
    for name, (f, spec, value) in cases.items():
        for mode, g in (("eager", f), ("jit", jax.jit(f, static_argnums=0))):
            r = g(P("x"))
            assert r.sharding.spec == spec, (name, mode, r.sharding.spec)
            np.testing.assert_allclose(np.asarray(r), value)
    for s in (P(), NamedSharding(mesh, P())):
        r = jnp.bincount(jnp.array([0, 1, 1, 3]), length=4, out_sharding=s)
        assert np.asarray(r).tolist() == [1, 2, 0, 1] and r.sharding.spec in (P(), P(None))
    for s in (P("x"), NamedSharding(mesh, P("x")), P(None)):  # (P(None) too, as JAX)
        raises(jax.sharding.ShardingTypeError if hasattr(jax.sharding, "ShardingTypeError")
               else Exception, "out_sharding passed to `jnp.bincount` can only be fully replicated",
               lambda: jnp.bincount(jnp.array([0, 1]), length=4, out_sharding=s))
ns = NamedSharding(mesh, P("x"))
r = lax.full((4, 2), 3.0, sharding=ns)
assert r.sharding.spec == P("x") and np.asarray(r).tolist() == [[3.0, 3.0]] * 4
r = lax.full_like(jnp.ones((4, 2)), 2, sharding=ns)
assert r.sharding.spec == P("x") and r.dtype == np.float32
r = lax.full((2,), 1.0, sharding=SingleDeviceSharding(jax.devices()[1]))
assert r.sharding == SingleDeviceSharding(jax.devices()[1])
"""


def test_out_sharding_parameters():
    run(_OUT_SHARDING_SCRIPT, n_devices=2)


# --------------------------------------------------------------------------------- out=

_O = np.zeros(3)
_X23 = np.arange(1.0, 7.0, dtype=np.float32).reshape(2, 3)
OUT_CALLS = {  # JAX's message after "The 'out' argument to "
    "jnp.round is not supported.": [
        lambda: jnp.around(_X23, 0, _O), lambda: jnp.round(_X23, out=_O),
    ],
    "jnp.compress is not supported.": [
        lambda: jnp.compress(np.array([True, False]), _X23, axis=0, out=_O),
    ],
    "jnp.cumprod is not supported": [lambda: jnp.cumprod(_X23, out=_O)],
    "jnp.cumsum is not supported": [lambda: jnp.cumsum(_X23, 0, None, _O)],
    "isneginf/isposinf is not supported.": [
        lambda: jnp.isneginf(_X23, out=_O), lambda: jnp.isposinf(_X23, _O),
    ],
    "jnp.outer is not supported.": [lambda: jnp.outer(_X23[0], _X23[1], _O)],
    "jnp.stack is not supported.": [lambda: jnp.stack([_X23, _X23], 0, _O)],
    "jnp.var is not supported.": [lambda: jnp.var(_X23, out=_O)],
    "jnp.std is not supported.": [lambda: jnp.std(_X23, out=_O)],
    "jnp.nanvar is not supported.": [lambda: jnp.nanvar(_X23, out=_O)],
    "jnp.nanstd is not supported.": [lambda: jnp.nanstd(_X23, out=_O)],
    "jnp.sum is not supported.": [
        lambda: jnp.sum(_X23, out=_O), lambda: jnp.nansum(_X23, out=_O),
    ],
    "jnp.prod is not supported.": [
        lambda: jnp.prod(_X23, out=_O), lambda: jnp.nanprod(_X23, out=_O),
    ],
    "jnp.max is not supported.": [
        lambda: jnp.max(_X23, out=_O), lambda: jnp.amax(_X23, out=_O),
        lambda: jnp.nanmax(_X23, out=_O),
    ],
    "jnp.min is not supported.": [
        lambda: jnp.min(_X23, out=_O), lambda: jnp.amin(_X23, out=_O),
        lambda: jnp.nanmin(_X23, out=_O),
    ],
    "jnp.all is not supported.": [lambda: jnp.all(_X23, out=_O)],
    "jnp.any is not supported.": [lambda: jnp.any(_X23, out=_O)],
    "jnp.mean is not supported.": [lambda: jnp.mean(_X23, out=_O)],
    "jnp.nanmean is not supported.": [lambda: jnp.nanmean(_X23, out=_O)],
    "jnp.argmax is not supported.": [lambda: jnp.argmax(_X23, out=_O)],
    "jnp.argmin is not supported.": [lambda: jnp.argmin(_X23, out=_O)],
    "jnp.nanargmax is not supported.": [lambda: jnp.nanargmax(_X23, out=_O)],
    "jnp.nanargmin is not supported.": [lambda: jnp.nanargmin(_X23, out=_O)],
    "jnp.nancumsum is not supported": [lambda: jnp.nancumsum(_X23, out=_O)],
    "jnp.nancumprod is not supported": [lambda: jnp.nancumprod(_X23, out=_O)],
    "jnp.ptp is not supported.": [lambda: jnp.ptp(_X23, out=_O)],
    "jnp.einsum is not supported.": [lambda: jnp.einsum("ij->i", _X23, out=_O)],
    "jnp.take is not supported.": [lambda: jnp.take(_X23, np.array([0]), out=_O)],
    "jnp.trace is not supported.": [lambda: jnp.trace(_X23, out=_O)],
    "jnp.modf is not supported.": [lambda: jnp.modf(_X23, out=_O)],
    "jnp.choose is not supported.": [
        lambda: jnp.choose(np.array([0, 1]), [_X23[0, :2], _X23[1, :2]], out=_O),
    ],
}


@pytest.mark.parametrize("message", list(OUT_CALLS))
def test_out_argument_refused(message):
    # jaxlite ignored out= in the reductions (NumPy code writing into it got nothing) or
    # had no such parameter; JAX refuses any value but None
    for call in OUT_CALLS[message]:
        expected = re.escape(f"The 'out' argument to {message}")
        with pytest.raises(NotImplementedError, match=expected):
            call()


def test_out_none_accepted_positionally():
    assert jnp.around(_X23, 0, None).shape == (2, 3)
    assert jnp.compress(np.array([True, False]), _X23, axis=0, out=None).shape == (1, 3)
    assert jnp.cumsum(_X23, 0, None, None).shape == (2, 3)
    assert jnp.isneginf(_X23, None).shape == (2, 3)
    assert jnp.outer(_X23[0], _X23[1], None).shape == (3, 3)
    assert jnp.stack([_X23, _X23], 0, None).shape == (2, 2, 3)
    assert jnp.stack([_X23, _X23], 0, None, jnp.int32).dtype == np.int32  # dtype is 4th


@pytest.mark.parametrize("fn, name", [
    (lambda **k: jnp.median(_X23, **k), "quantile"),
    (lambda **k: jnp.quantile(_X23, 0.5, **k), "quantile"),
    (lambda **k: jnp.percentile(_X23, 50.0, **k), "quantile"),
    (lambda **k: jnp.nanmedian(_X23, **k), "nanquantile"),
    (lambda **k: jnp.nanquantile(_X23, 0.5, **k), "nanquantile"),
    (lambda **k: jnp.nanpercentile(_X23, 50.0, **k), "nanquantile"),
])
def test_quantile_out_and_overwrite_input_refused(fn, name):
    message = f"jax.numpy.{name} does not support overwrite_input=True or out != None"
    for kwargs in ({"out": _O}, {"overwrite_input": True}):
        with pytest.raises(ValueError, match=re.escape(message)):
            fn(**kwargs)
    assert abs(float(fn(overwrite_input=False)) - 3.5) < 1e-6


# ---------------------------------------------------------------------- var/std mean=

X34 = np.arange(12.0, dtype=np.float32).reshape(3, 4)


def test_var_std_mean():
    m = jnp.mean(X34, axis=1, keepdims=True)
    assert jnp.var(X34, axis=1, mean=m).tolist() == [1.25, 1.25, 1.25]
    # the given mean is used as it is, even when it is not the mean
    assert jnp.var(X34, axis=1, mean=np.zeros((3, 1), np.float32)).tolist() == [3.5, 31.5, 91.5]
    assert abs(float(jnp.var(X34, mean=0.0)) - 42.166668) < 1e-5
    np.testing.assert_allclose(
        jnp.std(X34, axis=0, mean=np.ones((1, 4), np.float32), ddof=1),
        [5.4313903, 6.3245554, 7.314369, 8.3666], rtol=1e-6,
    )
    out = jnp.var(X34, axis=1, mean=np.ones((3, 1), np.float32), where=X34 > 2)
    assert out.tolist() == [4.0, 21.5, 73.5]
    assert float(jnp.var(np.array([1 + 1j, 2 - 1j]), mean=np.array([1j]))) == 4.5
    out = jnp.var(X34, axis=1, mean=np.ones((3, 1), np.float16), dtype=jnp.float16)
    assert out.dtype == np.float16 and out.tolist() == [1.5, 21.5, 73.5]
    g = jax.grad(lambda m: jnp.var(X34, axis=1, mean=m).sum())(np.ones((3, 1), np.float32))
    assert g.tolist() == [[-1.0], [-9.0], [-17.0]]
    out = jax.jit(lambda x, m: jnp.std(x, axis=1, mean=m))(X34, np.ones((3, 1), np.float32))
    np.testing.assert_allclose(out, [1.2247449, 4.6368093, 8.5732145], rtol=1e-6)


def test_nanvar_nanstd_mean():
    y = np.array([[1.0, np.nan, 3.0], [2.0, 2.0, np.nan]], np.float32)
    m = np.array([[2.0], [0.0]], np.float32)
    assert jnp.nanvar(y, axis=1, mean=m).tolist() == [1.0, 4.0]
    np.testing.assert_allclose(jnp.nanstd(y, axis=1, mean=m, ddof=1), [1.4142135, 2.828427])


def test_var_mean_errors():
    # JAX subtracts the mean with lax.sub: same rank (or 0-d), broadcastable size-1 axes
    with pytest.raises(TypeError, match=re.escape("same number of dimensions, got {1, 2}")):
        jnp.var(X34, axis=1, mean=jnp.mean(X34, axis=1))
    with pytest.raises(TypeError, match=re.escape("same number of dimensions, got {1, 2}")):
        jnp.nanvar(X34, axis=1, mean=np.zeros(3, np.float32))
    with pytest.raises(TypeError, match="incompatible shapes for broadcasting: "
                                        + re.escape("(3, 4), (2, 1).")):
        jnp.var(X34, axis=1, mean=np.ones((2, 1), np.float32))
    with pytest.raises(TypeError, match="var requires ndarray or scalar arguments"):
        jnp.var(X34, axis=1, mean=[[1.0], [2.0], [3.0]])
    for fn in (jnp.var, jnp.std):
        with pytest.raises(ValueError, match="ddof and correction can't be provided"):
            fn(X34, ddof=1, correction=1)
    assert float(jnp.var(X34, ddof=0, correction=1)) == 13.0


def test_random_key_parameter_names():
    key = jax.random.key(0)
    data = jax.random.key_data(key)
    wrapped = jax.random.wrap_key_data(key_bits_array=data, impl="threefry2x32")
    assert jax.random.key_data(wrapped).tolist() == data.tolist()
    assert jax.random.key_dtype(impl_spec="threefry2x32") == key.dtype


# ------------------------------------------- second pass: dtype=, axis=, device=, algorithm=

def test_argsort_dtype():
    x = np.array([3, 1, 2, 1, 3], np.float32)
    for dt in ("int8", "uint8", np.float32, "int16"):
        out = jnp.argsort(x, dtype=dt)
        assert out.dtype == np.dtype(dt) and out.tolist() == [1, 3, 2, 0, 4]
        out = jnp.argsort(x, dtype=dt, descending=True)
        assert out.dtype == np.dtype(dt) and out.tolist() == [0, 4, 2, 1, 3]  # stable
    # the indices are an iota of the dtype: they wrap when it is too narrow
    big = np.arange(300.0, dtype=np.float32)[::-1]
    assert jnp.argsort(big, dtype="int8").tolist()[-5:] == [4, 3, 2, 1, 0]
    assert jnp.argsort(big, dtype="int8", descending=True).tolist()[-5:] == [39, 40, 41, 42, 43]
    with pytest.warns(UserWarning, match="Explicitly requested dtype int64 requested in argsort"):
        assert jnp.argsort(x, dtype="int64").dtype == np.int32
    with pytest.raises(TypeError, match="iota does not accept dtype bool"):
        jnp.argsort(x, dtype=bool)
    assert jnp.argsort(np.float32(3), axis=None, dtype="int8").tolist() == [0]


def test_iota_refuses_bool():
    for call in (lambda: lax.iota(bool, 1), lambda: lax.broadcasted_iota(bool, (3,), 0)):
        with pytest.raises(TypeError, match="iota does not accept dtype bool. Accepted dtypes "
                                            "are subtypes of integer, floating, complexfloating"):
            call()


def _rmi(*idx, **kw):
    return jnp.ravel_multi_index(tuple(np.asarray(i) for i in idx), kw.pop("dims", (3, 4)), **kw)


def test_ravel_multi_index_dtype_and_modes():
    out = _rmi([1, 2], [0, 3], dtype="int8")
    assert out.dtype == np.int8 and out.tolist() == [4, 11]
    out = _rmi([1, 2], [0, 3], dtype="uint8", order="F")
    assert out.dtype == np.uint8 and out.tolist() == [1, 11]
    # the default dtype is the indices' integer type
    out = _rmi(np.array([1, 2], np.int8), np.array([0, 3], np.int8))
    assert out.dtype == np.int8 and out.tolist() == [4, 11]
    assert _rmi(np.array([1, 2], np.uint8), np.array([0, 3], np.int16)).dtype == np.int16
    assert _rmi([1, 5], [0, -3], mode="clip").tolist() == [4, 8]
    assert _rmi([1, 5], [0, -3], mode="wrap").tolist() == [4, 9]
    assert _rmi([1, 5], [0, -3], mode="ignore").tolist() == [4, 17]  # no bounds handling
    out = _rmi(np.array([100, 2], np.int8), np.array([100, 3], np.int8), dims=(10, 10),
               mode="ignore")
    assert out.dtype == np.int8 and out.tolist() == [76, 23]  # wraps in int8
    with pytest.warns(UserWarning, match="Explicitly requested dtype int64"):
        assert _rmi([1, 2], [0, 3], dtype="int64").dtype == np.int32


def test_ravel_multi_index_errors():
    cases = [
        (ValueError, "invalid entry in coordinates array", {}),  # mode='raise' checks bounds
        (ValueError, "invalid mode='foo'. Expected 'raise', 'wrap', 'clip', or 'ignore'.",
         {"mode": "foo"}),
        (ValueError, "invalid order='K'. Expected 'C' or 'F'", {"order": "K", "mode": "clip"}),
        (ValueError, "dtype=dtype('float32') is not an integer type.", {"dtype": "float32"}),
        (ValueError, "jnp.ravel_multi_index: dtype=dtype('int8') not large enough to hold "
                     "flattened index for dims=(300, 4).", {"dtype": "int8", "dims": (300, 4)}),
    ]
    for exc, msg, kw in cases:
        with pytest.raises(exc, match=re.escape(msg)):
            _rmi([1, 5], [0, 3], **kw)
    with pytest.raises(ValueError, match="is not an integer type"):
        _rmi([1.0, 2.0], [0, 3])  # the default dtype would be float
    with pytest.raises(TypeError, match="only int indices permitted"):
        _rmi([1.0, 2.0], [0, 3], dtype="int32")
    f = jax.jit(lambda i, j: jnp.ravel_multi_index((i, j), (3, 4)))
    with pytest.raises(jax.errors.ConcretizationTypeError, match="mode='raise'"):
        f(jnp.array([1]), jnp.array([2]))
    g = jax.jit(lambda i, j: jnp.ravel_multi_index((i, j), (3, 4), mode="clip", dtype="int16"))
    out = g(jnp.array([1]), jnp.array([5]))
    assert out.dtype == np.int16 and out.tolist() == [7]


_C = np.array([[1, 2, 4, 3], [2, 0, 1, 5], [1, 1, 1, 2]], np.float32)


def test_corrcoef_dtype():
    ref = jnp.corrcoef(_C)
    for dt in ("float16", "float32", "complex64", "bfloat16"):
        out = jnp.corrcoef(_C, dtype=dt)
        assert out.dtype == np.dtype(dt) if dt != "bfloat16" else out.dtype == jnp.bfloat16
        np.testing.assert_allclose(np.asarray(out, np.complex64), ref, atol=4e-3)
    out = jnp.corrcoef(_C.astype(np.int32), dtype="float16")
    assert out.dtype == np.float16
    with pytest.raises(ValueError, match="corrcoef: dtype must be a subclass of float or "
                                         "complex; got dtype='int32'"):
        jnp.corrcoef(_C, dtype="int32")
    out = jnp.corrcoef(_C[0], _C[1], rowvar=False, dtype="float16")
    assert out.shape == (2, 2) and out.dtype == np.float16


def test_corrcoef_complex():
    # real and imaginary parts are clipped separately (jaxlite raised clip's complex error)
    x = (_C + 1j * _C[::-1]).astype(np.complex64)
    out = jnp.corrcoef(x)
    assert out.dtype == np.complex64
    np.testing.assert_allclose(out[0], [1, 0.31524417 + 0.15762208j, 0.17391305 - 0.73913044j],
                               rtol=1e-5)


def test_trim_zeros_axis():
    a = np.array([[0, 0], [0, 1], [0, 0]])
    assert jnp.trim_zeros(a, axis=0).tolist() == [[0, 1]]
    assert jnp.trim_zeros(a, axis=1).tolist() == [[0], [1], [0]]
    assert jnp.trim_zeros(a, axis=-1).tolist() == [[0], [1], [0]]
    assert jnp.trim_zeros(a).tolist() == [[1]]  # default: every axis
    assert jnp.trim_zeros(a, axis=(0, 1)).tolist() == [[1]]
    assert jnp.trim_zeros(a, axis=()).tolist() == a.tolist()
    b = np.zeros((4, 4), np.float32)
    b[1, 1:3], b[2, 2] = [1, 2], 3
    assert jnp.trim_zeros(b, trim="f").tolist() == [[1, 2, 0], [0, 3, 0], [0, 0, 0]]
    assert jnp.trim_zeros(b, "B", axis=0).shape == (3, 4)
    assert jnp.trim_zeros(b, axis=[1]).shape == (4, 2)
    assert jnp.trim_zeros(np.zeros((2, 3))).shape == (0, 0)
    assert jnp.trim_zeros(np.zeros((2, 3)), axis=0).shape == (0, 3)
    assert jnp.trim_zeros(np.float32(0)).shape == ()  # 0-d: returned as is
    v = np.array([0, 0, 1, 2, 0, 3, 0, 0])
    assert jnp.trim_zeros(v, "x").tolist() == v.tolist()
    assert jnp.trim_zeros(v, axis=None).tolist() == [1, 2, 0, 3]
    with pytest.raises(ValueError, match=re.escape("repeated axis: (0, 0)")):
        jnp.trim_zeros(b, axis=(0, -2))
    with pytest.raises(ValueError, match="axis 2 is out of bounds for array of dimension 2"):
        jnp.trim_zeros(b, axis=2)
    with pytest.raises(jax.errors.ConcretizationTypeError, match="`filt` argument"):
        jax.jit(jnp.trim_zeros)(v)


def test_astype_device_and_defaults():
    dev = jax.devices()[0]
    out = jnp.astype(np.array([1, 2]), "float32", device=dev)
    assert out.dtype == np.float32 and out.devices() == {dev}
    out = jnp.zeros(2).astype("int8", device=jax.sharding.SingleDeviceSharding(dev))
    assert out.dtype == np.int8 and out.sharding == jax.sharding.SingleDeviceSharding(dev)
    out = jax.jit(lambda a: jnp.astype(a, "float32", device=dev))(np.array([1, 2]))
    assert out.tolist() == [1.0, 2.0]
    with pytest.raises(TypeError):
        jnp.astype(np.array([1, 2]), "float32", False)  # copy is keyword-only
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert jnp.astype(np.arange(3), None).dtype == np.float32  # no truncation warning
    z = np.array([0, 1j, 2 + 0j, 0.5], np.complex64)
    for dt in ("float32", "int32", "bfloat16"):
        with pytest.warns(DeprecationWarning, match="Casting from complex to real dtypes"):
            assert jnp.astype(z, dt).tolist() == [0, 0, 2, 0 if dt == "int32" else 0.5]
        with pytest.warns(DeprecationWarning, match="Casting from complex to real dtypes"):
            jnp.asarray(z).astype(dt)
    assert jnp.astype(z, bool).tolist() == [False, True, True, True]


def test_float_to_sub_byte_int():
    x = np.array([0.5, 9.0, -9.0, np.nan, np.inf, -np.inf, -1.5, 2.9], np.float32)
    assert jnp.asarray(x).astype("int4").tolist() == [0, 7, -8, 0, 7, -8, -1, 2]
    assert jnp.asarray(x).astype("uint2").tolist() == [0, 3, 0, 0, 3, 0, 0, 2]


def test_standardize_algorithm():
    # [10002, 10003] in float32: mean(x**2) - mean**2 is -8 ('fast' clips it to 0, so the
    # result is (x - mean) * rsqrt(eps)); the two-pass 'stable' variance is 0.25
    for x in (np.array([1e4, 1e4 + 1], np.float32), np.array([10002, 10003], np.float32)):
        for alg in ({}, {"algorithm": "fast"}):
            np.testing.assert_allclose(jax.nn.standardize(x, **alg), [-158.11389, 158.11389],
                                       rtol=1e-6)
        np.testing.assert_allclose(jax.nn.standardize(x, algorithm="stable"),
                                   [-0.99998, 0.99998], rtol=1e-6)
    with pytest.raises(ValueError, match="Unknown algorithm 'bogus'. Expected 'fast' or "
                                         "'stable'."):
        jax.nn.standardize(x, algorithm="bogus")
    # not checked when the variance is given
    np.testing.assert_allclose(jax.nn.standardize(x, variance=1.0, algorithm="bogus"),
                               [-0.5, 0.5], rtol=1e-5)
    m = np.array([True, True, False])
    out = jax.nn.standardize(np.array([1.0, 3.0, 100.0], np.float32), where=m,
                             algorithm="stable")
    np.testing.assert_allclose(out[:2], [-0.999995, 0.999995], rtol=1e-6)


def test_lax_mul_out_dtype():
    a = np.array([100, -100, 7, 0], np.int8)
    out = lax.mul(a, a, out_dtype=np.int32)  # operands converted first: no int8 wrap
    assert out.dtype == np.int32 and out.tolist() == [10000, 10000, 49, 0]
    assert lax.mul(a, a, out_dtype=np.uint8).tolist() == [16, 16, 49, 0]
    assert lax.mul(a, a, out_dtype=bool).tolist() == [True, True, True, False]
    assert lax.mul(a, 3.5, out_dtype=np.int32).tolist() == [300, -300, 21, 0]
    out = lax.mul(a, np.array([1.5, 2, 3, 4], np.float32), out_dtype=np.float32)
    assert out.tolist() == [150.0, -200.0, 21.0, 0.0]
    f = np.array([1.1, 3.3], np.float32)
    assert lax.mul(f, f, out_dtype=np.int32).tolist() == [1, 9]  # truncated, then multiplied
    h = np.array([1000.0, 65000.0], np.float16)
    assert lax.mul(h, h, out_dtype=np.float32).tolist() == [1e6, 64992.0**2]
    c = np.array([1 + 2j], np.complex64)
    assert lax.mul(c, c, out_dtype=np.float32).tolist() == [1.0]
    w = lax.mul(2.5, 3, out_dtype=np.int32)
    assert w.dtype == np.int32 and int(w) == 6 and w.weak_type
    assert not lax.mul(np.float32(2.5), 3, out_dtype=np.int32).weak_type
    assert jax.jit(lambda x: lax.mul(x, x, out_dtype=np.int32))(a).tolist()[0] == 10000
    assert jax.vmap(lambda x: lax.mul(x, x, out_dtype=np.int32))(a).tolist()[0] == 10000
    g = jax.grad(lambda x: lax.mul(x, x, out_dtype=np.float32).sum())(h)
    assert g.dtype == np.float16 and g.tolist() == [2000.0, float("inf")]
    with pytest.raises(TypeError, match="mul does not accept dtype bool at position 0"):
        lax.mul(np.array([True]), np.array([True]))
    with pytest.raises(TypeError, match="mul does not accept dtype bool at position 1"):
        lax.mul(a, np.ones(4, bool), out_dtype=np.int32)
    with pytest.raises(TypeError, match="lax.mul requires arguments to have the same dtypes"):
        lax.mul(a, np.ones(4, np.int16))


def test_lax_dot_dimension_numbers():
    x = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    y = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    b = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)
    out = lax.dot(b, b, dimension_numbers=(((2,), (2,)), ((0,), (0,))))
    np.testing.assert_array_equal(out, np.einsum("bij,bkj->bik", b, b))
    out = lax.dot(b, y, dimension_numbers=((1, 0), ((), ())))  # ints as in JAX
    np.testing.assert_array_equal(out, np.einsum("bjk,jl->bkl", b, y))
    out = jax.jit(lambda p, q: lax.dot(p, q, dimension_numbers=(((2,), (2,)), ((0,), (0,)))))(b, b)
    np.testing.assert_array_equal(out, np.einsum("bij,bkj->bik", b, b))
    g = jax.grad(lambda p: lax.dot(p, b, dimension_numbers=(((2,), (2,)), ((0,), (0,)))).sum())(b)
    np.testing.assert_array_equal(g, np.broadcast_to(b.sum(1, keepdims=True), b.shape))
    np.testing.assert_array_equal(lax.dot(x, y), x @ y)
    assert lax.dot(y[:, 0], y[:, 0]).shape == ()
    msg = "jax.lax.dot: dimension_numbers must be specified when not performing simple"
    for p, q in ((b, y), (x, b), (x, x), (np.float32(2), y[:, 0])):
        with pytest.raises(ValueError, match=msg):
            lax.dot(p, q)
    with pytest.raises(TypeError):
        lax.dot(x, y, None)  # precision is keyword-only


# ------------------------------------------------------- second pass: parameter names

_X = np.arange(12).reshape(3, 4)


def test_lax_keyword_names():
    assert lax.concatenate(operands=[_X, _X], dimension=0).shape == (6, 4)
    assert lax.squeeze(array=_X[None], dimensions=(0,)).shape == (3, 4)
    assert lax.expand_dims(array=_X, dimensions=(0,)).shape == (1, 3, 4)
    assert lax.convert_element_type(operand=_X, new_dtype=np.float32).dtype == np.float32
    assert lax.reduce_max(operand=_X, axes=(0,)).tolist() == [8, 9, 10, 11]
    assert lax.argmax(operand=_X, axis=0, index_dtype=np.int32).tolist() == [2, 2, 2, 2]
    assert lax.transpose(operand=_X, permutation=(1, 0)).shape == (4, 3)
    assert lax.rev(operand=_X, dimensions=(0,))[0].tolist() == [8, 9, 10, 11]
    assert lax.pad(operand=_X, padding_value=0, padding_config=[(1, 0, 0)] * 2).shape == (4, 5)
    assert lax.slice(operand=_X, start_indices=(1, 1), limit_indices=(2, 3)).tolist() == [[5, 6]]
    assert lax.broadcast(operand=_X, sizes=(2,)).shape == (2, 3, 4)
    out = lax.slice_in_dim(operand=_X, start_index=1, limit_index=None, axis=1)
    assert out.tolist() == [[1, 2, 3], [5, 6, 7], [9, 10, 11]]
    assert lax.index_in_dim(operand=_X, index=1, keepdims=False).tolist() == [4, 5, 6, 7]


def test_lax_elementwise_keyword_names():
    # jaxlite's strict-dtype lax wrappers took *args: keyword calls raised TypeError
    f = np.float32
    assert float(lax.add(x=f(1), y=f(2))) == 3.0
    assert float(jax.jit(lambda a: lax.sub(y=a, x=f(1)))(f(3))) == -2.0
    assert lax.clamp(min=f(0), x=np.array([-1.0, 5.0], f), max=f(2)).tolist() == [0.0, 2.0]
    np.testing.assert_allclose(lax.igamma(a=f(2), x=f(1)), 0.26424113, rtol=1e-6)
    np.testing.assert_allclose(lax.betainc(a=f(2), b=f(3), x=f(0.5)), 0.6875, rtol=1e-6)
    np.testing.assert_allclose(lax.polygamma(m=f(1), x=f(2)), 0.64493406, rtol=1e-6)
    np.testing.assert_allclose(lax.zeta(x=f(2), q=f(1)), 1.644934, rtol=1e-6)
    assert float(lax.nextafter(x1=f(1), x2=f(2))) == float(np.nextafter(f(1), f(2)))
    assert float(jax.grad(lambda a: lax.mul(x=a, y=a))(f(3))) == 6.0
    for call in (lambda: lax.add(f(1)), lambda: lax.add(f(1), f(2), f(3)),
                 lambda: lax.add(f(1), x=f(2))):
        with pytest.raises(TypeError):
            call()


def test_slice_in_dim_none_and_negative():
    # None means the axis' end, negative indices count from it (jaxlite raised TypeError)
    assert lax.slice_in_dim(_X, None, 2).shape == (2, 4)
    assert lax.slice_in_dim(_X, -2, None)[0].tolist() == [4, 5, 6, 7]
    assert lax.slice_in_dim(_X, -2, -1, axis=1).tolist() == [[2], [6], [10]]
    assert lax.index_in_dim(_X, -1).tolist() == [[8, 9, 10, 11]]
    assert jax.jit(lambda a: lax.index_in_dim(a, -1, keepdims=False))(_X).tolist()[0] == 8
    for i in (3, -4):
        with pytest.raises(IndexError, match=f"index {i} is out of bounds for axis 0 with size 3"):
            lax.index_in_dim(_X, i)


def test_slice_errors_under_jit():
    cases = [
        ((0,), (1,), "slice start_indices must have length equal to the number of dimensions of "
                     "the operand, got indices (0,) for operand shape (3, 4)."),
        ((0, 0), (1,), "slice limit_indices must have the same length as start_indices, got "
                       "start_indices (0, 0) and limit_indices (1,)."),
        ((-1, 0), (1, 1), "slice start_indices must have every element be nonnegative, got "
                          "(-1, 0)."),
        ((0, 0), (4, 1), "slice limit_indices must be less than or equal to operand shape, got "
                         "limit_indices (4, 1) for operand shape (3, 4)."),
        ((2, 0), (1, 4), "slice limit_indices must be greater than or equal to start_indices, "
                         "got start_indices (2, 0) and limit_indices (1, 4)."),
    ]
    for start, limit, msg in cases:
        with pytest.raises(TypeError, match=re.escape(msg)):
            jax.jit(lambda a, s=start, lim=limit: lax.slice(a, s, lim))(_X)


def test_numpy_keyword_names():
    assert jnp.issubdtype(arg1=np.float32, arg2=np.floating)
    assert jnp.empty_like(prototype=_X).shape == (3, 4)
    assert float(jnp.fmax(x1=1.0, x2=np.nan)) == 1.0
    assert float(jnp.fmin(x1=1.0, x2=np.nan)) == 1.0
    assert int(jnp.gcd(x1=12, x2=8)) == 4 and int(jnp.lcm(x1=12, x2=8)) == 24
    assert float(jnp.trunc(x=-1.5)) == -1.0
    assert jnp.concat([_X, _X], axis=1).shape == (3, 8)
    assert jnp.concat([_X, _X], axis=None).shape == (24,)
    assert jnp.permute_dims(_X, axes=(1, 0)).shape == (4, 3)
    # JAX's positional-only parameters and keyword-only ones
    for call in (
        lambda: jnp.concat([_X, _X], 1),
        lambda: jnp.concat([_X, _X], dtype=np.float32),
        lambda: jnp.concat(arrays=[_X, _X]),
        lambda: jnp.permute_dims(a=_X, axes=(1, 0)),
        lambda: jnp.unique_values(x=_X),
        lambda: jnp.einsum(subscripts="ij->j", operands=_X),
        lambda: jnp.equal(x=1, y=1),
    ):
        with pytest.raises(TypeError):
            call()


def test_config_context_managers_new_val():
    with jax.numpy_rank_promotion(new_val="raise"):
        with pytest.raises(ValueError, match="jax_numpy_rank_promotion='raise'"):
            jnp.add(np.ones(3), np.ones((2, 3)))
    with jax.default_matmul_precision(new_val="highest"):
        pass
    with jax.numpy_dtype_promotion(new_val="strict"):
        with pytest.raises(ValueError, match="have no available implicit dtype promotion"):
            jnp.add(np.float32(1), np.int32(1))
    for cm in (jax.numpy_rank_promotion, jax.default_matmul_precision, jax.numpy_dtype_promotion):
        with pytest.raises(TypeError, match="config option requires an argument representing "
                                            "the new value for the config option"):
            with cm():
                pass


# ------------------------------------------------------------ second pass: defaults


def test_argmax_keepdims_none():
    x = np.array([[1.0, 5, 2], [7, np.nan, 0]], np.float32)
    assert jnp.argmax(x, keepdims=None).tolist() == 4
    assert jnp.argmin(x, axis=1, keepdims=None).tolist() == [0, 1]
    assert jnp.nanargmax(x, axis=1, keepdims=None).tolist() == [1, 0]
    assert jnp.nanargmin(x, keepdims=1).tolist() == [[5]]


def test_searchsorted_method():
    a = np.array([1.0, 2, 2, 3, np.nan], np.float32)
    v = np.array([2.0, 0, np.nan, 5, 2.5], np.float32)
    for method in ("scan", "scan_unrolled", "sort", "compare_all"):
        assert jnp.searchsorted(a, v, method=method).tolist() == [1, 0, 4, 4, 3]
        assert jnp.searchsorted(a, v, "right", method=method).tolist() == [3, 0, 5, 4, 3]
    for method in (None, "bogus"):
        msg = (f"invalid argument method={method!r}, expected one of "
               "['compare_all', 'scan', 'scan_unrolled', 'sort']")
        with pytest.raises(ValueError, match=re.escape(msg)):
            jnp.searchsorted(a, v, method=method)


def test_array_order():
    f = np.asfortranarray(np.arange(6).reshape(2, 3))
    for order in ("K", None):
        assert jnp.array(f, order=order).tolist() == [[0, 1, 2], [3, 4, 5]]
        assert jnp.asarray(f, order=order).shape == (2, 3)
    for order in ("C", "F", "A"):
        for fn in (jnp.array, jnp.asarray):
            with pytest.raises(NotImplementedError, match="Only implemented for order='K'"):
                fn(f, order=order)
    # copy, order, ndmin are keyword parameters; positionally, JAX's deprecated form
    with pytest.warns(DeprecationWarning, match="Passing the copy, order, and ndmin"):
        out = jnp.array([1, 2], "float32", True, "K", 2)
    assert out.shape == (1, 2) and out.dtype == np.float32
    with pytest.raises(TypeError, match="array\\(\\) got multiple values for argument 'copy'"):
        jnp.array([1, 2], None, True, copy=False)
    with pytest.raises(TypeError, match="takes at most 5 positional arguments but 6 were given"):
        jnp.array([1, 2], None, True, "K", 0, 1)
