"""The jitted step's tail: constants folded at compile time (compile/fold.py), uniform
constants passed as scalars, broadcasts left to NumPy (compile/broadcasts.py) and equations
written as inline NumPy (compile/specialize.py).

None of these may change a bit of any result. Each test compiles the same jaxpr twice,
with the four rewrites and without them (the code generator as it was), and compares the
results byte for byte on inputs full of NaNs (with payloads and both signs), infinities,
signed zeros and subnormals, in float, integer and bool dtypes, with rank-0 and size-0
shapes. A few tests also compare the signed-zero and NaN behaviour of max/min with JAX,
which defines those bits.
"""

from __future__ import annotations

import contextlib
import gc
import importlib.util
import pathlib
import warnings

import ml_dtypes
import numpy as np
import pytest

import jaxlite as jax
import jaxlite.lax as lax
import jaxlite.numpy as jnp
from jaxlite._src.compile import broadcasts, codegen, fold, specialize
from jaxlite._src.interpreters import simplify
from jaxlite._src.ops import structural

pytestmark = pytest.mark.jaxlite_only  # compares jaxlite's generated code with itself

F32 = np.float32


@contextlib.contextmanager
def _checked():
    """``jax_enable_checks`` on: every jaxpr a pass builds is type-checked."""
    jax.config.update("jax_enable_checks", True)
    try:
        yield
    finally:
        jax.config.update("jax_enable_checks", False)


@contextlib.contextmanager
def _plain_codegen():
    """The code generator without the four rewrites under test."""
    saved = (
        fold.fold_constants,
        fold.scalar_operands,
        broadcasts.implicit_broadcasts,
        specialize.lines,
    )
    fold.fold_constants = lambda closed: closed
    fold.scalar_operands = lambda eqn, uniform: []
    broadcasts.implicit_broadcasts = lambda closed: closed
    specialize.lines = lambda ctx, eqn, ins, outs: None
    try:
        yield
    finally:
        (
            fold.fold_constants,
            fold.scalar_operands,
            broadcasts.implicit_broadcasts,
            specialize.lines,
        ) = saved


def _compile_both(f, *args):
    closed = simplify.simplify(jax.make_jaxpr(f)(*args))
    new, new_src = codegen.compile_jaxpr(closed)
    with _plain_codegen():
        old, old_src = codegen.compile_jaxpr(closed)
    return new, old, new_src, old_src


def _same_bits(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert (got.dtype, got.shape) == (want.dtype, want.shape)
    assert got.tobytes() == want.tobytes(), (got, want)


def _check(f, *args):
    """``f``'s generated code with and without the rewrites: the same bytes, the same
    floating-point warnings. Returns the new code's source."""
    new, old, new_src, _ = _compile_both(f, *args)
    vals = [np.asarray(a) for a in args]
    with warnings.catch_warnings(record=True) as w_new:
        warnings.simplefilter("always")
        got = new(*vals)
    with warnings.catch_warnings(record=True) as w_old:
        warnings.simplefilter("always")
        want = old(*vals)
    assert [str(w.message) for w in w_new] == [str(w.message) for w in w_old]
    assert len(got) == len(want)
    for g, o in zip(got, want):
        _same_bits(g, o)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got2 = new(*vals)  # a second call: nothing it keeps was written into
    for g, o in zip(got2, want):
        _same_bits(g, o)
    return new_src


def _nan(bits, dtype):
    return np.array([bits], {np.float32: np.uint32, np.float16: np.uint16}[dtype]).view(dtype)[0]


def _specials(dtype):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return np.array([True, False])
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return np.array([0, 1, info.max, info.min, 7, info.max - 1], dtype)
    vals = [0.0, -0.0, 1.0, -2.5, np.inf, -np.inf, np.nan, -np.nan, 3e-45, 1e30, -7.0]
    out = np.array(vals).astype(dtype)
    if dtype in (np.float32, np.float16):
        payloads = (0x7FC00001, 0xFFC00123) if dtype == np.float32 else (0x7E01, 0xFE07)
        out = np.concatenate([out, [_nan(b, dtype.type) for b in payloads]]).astype(dtype)
    if dtype.kind == "c":
        out = out + 1j * np.array(vals[::-1]).astype(out.real.dtype)
    return out


def _sample(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    pool = _specials(dtype)
    return pool[rng.integers(0, len(pool), size=shape)].astype(dtype)


FLOATS = [np.float16, np.float32, ml_dtypes.bfloat16]
ALL = FLOATS + [np.int32, np.uint8, np.bool_, np.complex64]
SHAPES_AXES = [
    ((), ()),
    ((0,), (0,)),
    ((3, 0), (1,)),
    ((0, 3), (0,)),
    ((0, 3), (1,)),
    ((4, 5), (1,)),
    ((4, 5), (0,)),
    ((4, 5), (0, 1)),
    ((4, 1), (1,)),
    ((1, 5), (0,)),
    ((2, 3, 4), (0, 2)),
    ((2, 1, 4), (1,)),
    ((6,), (0,)),
]


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("op", ["sum", "max", "min", "prod"])
def test_reductions_same_bits(op, dtype):
    kinds = {"sum": "fciu", "prod": "fciu", "max": "fciub", "min": "fciub"}[op]
    if np.dtype(dtype).kind not in kinds and np.dtype(dtype).kind != "V":
        pytest.skip("not a dtype of this reduction")
    red = getattr(lax, f"reduce_{op}")
    for seed, (shape, axes) in enumerate(SHAPES_AXES):
        x = _sample(shape, dtype, seed)
        _check(lambda x: red(x, axes), x)


def test_max_min_signed_zero_rows():
    rows = np.array(
        [
            [-0.0, -0.0, -0.0],
            [0.0, -0.0, -0.0],
            [-0.0, 0.0, -0.0],
            [-0.0, -0.0, 0.0],
            [-1.0, -0.0, -3.0],
            [np.nan, 0.0, -0.0],
            [-0.0, np.nan, 5.0],
            [-np.inf, -np.inf, -np.inf],
            [1.0, 2.0, 3.0],
        ],
        F32,
    )
    for op in ("max", "min"):
        red = getattr(lax, f"reduce_{op}")
        for x in (rows, -rows, rows.T.copy()):
            _check(lambda x: red(x, (1,)), x)
            _check(lambda x: red(x, (0,)), x)
            _check(lambda x: red(x, (0, 1)), x)


def test_max_min_zeros_match_jax():
    jax_ = pytest.importorskip("jax")
    x = np.array([[-0.0, -0.0], [0.0, -0.0], [-0.0, 0.0], [np.nan, -0.0], [-1.0, -0.0]], F32)
    for name in ("max", "min"):
        for sign in (1, -1):
            v = x * F32(sign)
            got = np.asarray(jax.jit(lambda v: getattr(jnp, name)(v, axis=1))(v))
            want = np.asarray(jax_.jit(lambda v: getattr(jax_.numpy, name)(v, axis=1))(v))
            np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
            np.testing.assert_array_equal(got, want)  # NaNs in the same places


@pytest.mark.parametrize("src", ALL)
def test_convert_same_bits(src):
    for dst in ALL:
        for seed, shape in enumerate([(3, 4), (0, 2), (), (5,)]):
            x = _sample(shape, src, seed)
            _check(lambda x: lax.convert_element_type(x, dst), x)


def test_reshape_same_bits():
    x = _sample((2, 3, 4), F32, 1)
    for shape in [(6, 4), (24,), (4, 1, 6), (1, 24, 1)]:
        _check(lambda x: lax.reshape(x, shape), x)
    _check(lambda x: lax.reshape(x, (1, 1)), np.float32(-0.0))
    _check(lambda x: lax.reshape(x, (3, 0)), np.zeros((0, 3), F32))


@pytest.mark.parametrize("dtype", ALL)
def test_select_n_same_bits(dtype):
    x, y = _sample((4, 5), dtype, 2), _sample((4, 5), dtype, 3)
    which = _sample((4, 5), np.bool_, 4)
    _check(lambda w, x, y: lax.select_n(w, x, y), which, x, y)
    _check(lambda w, x, y: lax.select_n(w, x, y), np.bool_(True), x, y)
    iw = np.random.default_rng(0).integers(0, 3, (4, 5)).astype(np.int32)
    _check(lambda w, x, y: lax.select_n(w, x, y, x), iw, x, y)
    _check(lambda w, x: lax.select_n(w, x), iw, x)
    c = jnp.asarray(np.broadcast_to(_specials(dtype)[1], (4, 5)))  # a uniform constant
    _check(lambda w, x: lax.select_n(w, c, x), which, x)
    _check(lambda w, x: lax.select_n(w, x, c), which, x)
    _check(lambda w, x: lax.select_n(w, x, c, x), iw, x)
    _check(lambda w: lax.select_n(w, c, c), which)


def _uniform_consts(dtype):
    """Constants with one value (some zero-stride views, some arrays), and near misses."""
    out = []
    for v in _specials(dtype):
        out.append(jnp.asarray(np.broadcast_to(np.asarray(v, dtype), (4, 5))))
        out.append(jnp.asarray(np.full((4, 5), v, dtype)))
    if np.dtype(dtype).kind == "f":
        miss = np.zeros((4, 5), dtype)
        miss[-1, -1] = -0.0  # one zero of the other sign: not uniform
        out.append(jnp.asarray(miss))
    if np.dtype(dtype) == np.float32:
        miss = np.full((4, 5), _nan(0x7FC00001, F32), F32)
        miss[2, 3] = _nan(0x7FC00002, F32)  # another payload: not uniform
        out.append(jnp.asarray(miss))
    return out


@pytest.mark.parametrize("dtype", [np.float32, np.float16, ml_dtypes.bfloat16, np.int32, np.bool_])
def test_uniform_constants_same_bits(dtype):
    x = _sample((4, 5), dtype, 7)
    num = np.dtype(dtype) != np.bool_
    for c in _uniform_consts(dtype):
        fns = [
            lambda x: x == c,
            lambda x: c != x,
            lambda x: c < x,
            lambda x: x >= c,
            lambda x: lax.eq(c, c),  # no operand of the result's shape besides c
            lambda x: (lax.reshape(c, (20,)), lax.mul(c, x) if num else lax.bitwise_and(c, x)),
        ]
        if num:
            fns += [lambda x: x - c, lambda x: c - x, lambda x: c * x, lambda x: x + c]
        if np.dtype(dtype).kind in "ib":
            fns += [lambda x: lax.bitwise_and(x, c), lambda x: lax.bitwise_xor(c, x)]
        if np.dtype(dtype).kind == "f":
            fns += [lambda x: lax.pow(x, c), lambda x: lax.atan2(c, x), lambda x: lax.max(x, c)]
        for f in fns:
            _check(f, x)


def test_uniform_scalar_reads_bits():
    z = np.zeros((3, 4), F32)
    assert fold.uniform_scalar(z).tobytes() == F32(0).tobytes()
    z[1, 2] = -0.0
    assert fold.uniform_scalar(z) is None
    assert fold.uniform_scalar(np.broadcast_to(F32(-0.0), (5, 6))).tobytes() == b"\0\0\0\x80"
    assert fold.uniform_scalar(np.zeros((0, 3), F32)) is None
    assert fold.uniform_scalar(np.zeros((), F32)) is None
    keys = np.zeros(3, [("key", "<u4", (2,))])  # PRNG key data: records, left alone
    assert fold.uniform_scalar(keys) is None
    s = fold.uniform_scalar(np.full((2, 2), 1.5, ml_dtypes.bfloat16))
    assert s.dtype == ml_dtypes.bfloat16 and s.shape == () and not s.flags.writeable


def test_uniform_constant_is_passed_as_a_scalar():
    c = jnp.asarray(np.broadcast_to(F32(1.0), (4, 5)))
    src = _check(lambda x: (c - x, lax.reshape(c, (20,))), _sample((4, 5), F32, 0))
    line = [ln for ln in src.splitlines() if "v1 = " in ln][0]
    assert "_c" in line and "_k" not in line  # the subtraction reads a rank-0 array


def test_folding_same_bits():
    x = _sample((4, 5), F32, 3)
    i = _sample((4, 5), np.int32, 4)
    fns = [
        lambda x: x + lax.convert_element_type(lax.broadcasted_iota(np.int32, (4, 5), 1), F32),
        lambda x: x * lax.broadcast_in_dim(F32(0.5), (4, 5), ()),
        lambda x: x * jnp.exp(jnp.full((4, 5), 100.0, F32)),  # overflows: folded silently
        lambda x: x + jnp.log(jnp.zeros((4, 5), F32)),  # -inf, folded silently
        lambda x: (x, lax.iota(np.int32, 5)),  # a returned iota: not folded
        lambda x: jnp.full((4, 5), 3e38, F32) * F32(10) + x,  # mul warns: left to run time
        lambda x: x + jnp.sum(jnp.arange(12.0, dtype=F32).reshape(3, 4)),  # rank 0: a literal
    ]
    for f in fns:
        _check(f, x)
    _check(lambda i: i == lax.broadcasted_iota(np.int32, (4, 5), 0), i)
    _check(lambda i: lax.select_n(i > 0, jnp.zeros((4, 5), np.int32), i), i)


def test_folded_constants_are_read_only_and_never_buffers():
    def f(x):
        k = lax.convert_element_type(lax.broadcasted_iota(np.int32, (4, 5), 1), F32)
        y = x * k  # a fresh buffer: later ufuncs may write into it, never into k
        return y + k + F32(1.0), k * F32(2.0)

    x = _sample((4, 5), F32, 5)
    new, old, src, _ = _compile_both(f, x)
    assert "iota" not in src and "_k" in src
    fn_globals = new.__globals__
    ks = [v for k, v in fn_globals.items() if k.startswith("_k")]
    assert ks and all(not k.flags.writeable for k in ks)
    before = [k.copy() for k in ks]
    for _ in range(3):
        for g, o in zip(new(x), old(x)):
            _same_bits(g, o)
    for k, b in zip(ks, before):
        _same_bits(k, b)


def test_fold_keeps_warnings_and_quiet_code():
    # The only quiet equation (log) is folded: the code around it stays silent as before.
    f = lambda x: (x + x, jnp.log(jnp.zeros(3, F32)))  # noqa: E731
    x = np.array([3e38, -3e38, 1.0], F32)
    _check(f, x)
    # Nothing quiet: an overflowing add still warns, and an overflowing constant product is
    # not folded (it warns when the function runs).
    _check(lambda x: x + x, x)
    _check(lambda x: x + jnp.full(3, 3e38, F32) * F32(10), x)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32, np.bool_])
def test_implicit_broadcasts_same_bits(dtype):
    x = _sample((4, 5), dtype, 8)
    b5, b4 = _sample((5,), dtype, 9), _sample((4,), dtype, 10)
    b41, s = _sample((4, 1), dtype, 11), _sample((), dtype, 12)
    num = np.dtype(dtype) != np.bool_
    bid = lax.broadcast_in_dim
    ops = [lax.eq, lax.ne, lax.lt, lax.ge]
    ops += [lax.add, lax.sub, lax.mul] if num else [lax.bitwise_and, lax.bitwise_or]
    for op in ops:
        _check(lambda x, b: op(x, bid(b, (4, 5), (1,))), x, b5)
        _check(lambda x, b: op(bid(b, (4, 5), (1,)), x), x, b5)
        _check(lambda x, b: op(x, bid(b, (4, 5), (0,))), x, b4)
        _check(lambda x, b: op(bid(b, (4, 5), (0, 1)), x), x, b41)
        _check(lambda x, b: op(x, bid(b, (4, 5), ())), x, s)
        _check(lambda x, b: op(x, bid(b, (0, 5), (1,))), np.zeros((0, 5), dtype), b5)
        # Two broadcasts, no operand of the result's shape: left as they are (two (4, 1)
        # operands would give a (4, 1) result).
        _check(lambda b, c: op(bid(b, (4, 5), (0,)), bid(c, (4, 5), (1,))), b4, b5)
        _check(lambda b, c: op(bid(b, (4, 5), (0,)), bid(c, (4, 5), (0,))), b4, b4[::-1])
    # A broadcast also read by something else, and one read by non-exact ufuncs.
    _check(lambda x, b: (x + bid(b, (4, 5), (1,)) if num else x, bid(b, (4, 5), (1,))), x, b5)
    if np.dtype(dtype).kind == "f":
        _check(lambda x, b: lax.pow(x, bid(b, (4, 5), (1,))), x, b5)
        _check(lambda x, b: lax.div(x, bid(b, (4, 5), (0,))), x, b4)


def test_add_any_keeps_its_first_operand_shape():
    # add_any's result has its first operand's shape: a broadcast there stays (the jaxpr
    # would not type-check).
    x, b = _sample((4, 5), F32, 0), _sample((5,), F32, 1)
    bid = lax.broadcast_in_dim
    with _checked():
        _check(lambda x, b: structural.add_any_p.bind(bid(b, (4, 5), (1,)), x), x, b)
        src = _check(lambda x, b: structural.add_any_p.bind(x, bid(b, (4, 5), (1,))), x, b)
    assert "_bid" not in src


@pytest.mark.parametrize("dtype", ALL)
def test_broadcast_in_dim_same_bits(dtype):
    bid = lax.broadcast_in_dim
    x = _sample((3, 4), dtype, 13)
    cases = [
        (x, (2, 3, 4), (1, 2)),
        (x, (3, 5, 4), (0, 2)),
        (x[:, :1], (3, 4), (0, 1)),
        (_sample((), dtype, 14), (2, 3), ()),
        (_sample((1,), dtype, 15), (5,), (0,)),
        (np.zeros((0, 4), dtype), (2, 0, 4), (1, 2)),
        (x, (3, 4), (0, 1)),
    ]
    for a, shape, dims in cases:
        _check(lambda a: bid(a, shape, dims), a)
        _check(lambda a: bid(a * 1 if a.dtype != np.bool_ else a, shape, dims), a)
    # A transposed operand (not C-contiguous at run time): the np.broadcast_to branch.
    _check(lambda a: bid(lax.transpose(a, (1, 0)), (2, 4, 3), (1, 2)), x)


def test_implicit_broadcast_source():
    src = _check(lambda x, b: x + b[None, :], _sample((4, 5), F32, 0), _sample((5,), F32, 1))
    assert "_bid" not in src and ".reshape((1, 5))" in src


def test_rewrites_type_check():
    """The rewritten jaxprs are well typed (``jax_enable_checks`` type-checks each)."""
    c = jnp.asarray(np.broadcast_to(F32(1.0), (4, 5)))

    def f(x, b):
        k = lax.convert_element_type(lax.broadcasted_iota(np.int32, (4, 5), 1), F32)
        y = (x + b[None, :]) * k - c
        return jnp.max(y, axis=1), jnp.sum(y, axis=0), lax.select_n(y > 0, y, jnp.zeros_like(y))

    with _checked():
        _check(f, _sample((4, 5), F32, 0), _sample((5,), F32, 1))
        np.testing.assert_array_equal(
            jax.jit(f)(np.ones((4, 5), F32), np.ones(5, F32))[1], 4 * (2 * np.arange(5.0) - 1)
        )


def _benchmark_model():
    """benchmarks/mlp_model.py (the benchmarks directory is not a package)."""
    path = pathlib.Path(__file__).resolve().parents[2] / "benchmarks" / "mlp_model.py"
    spec = importlib.util.spec_from_file_location("_benchmark_mlp_model", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _mlp_step(sizes, batch, seed=0):
    rng = np.random.RandomState(seed)
    params = [
        ((rng.randn(m, n) / np.sqrt(m)).astype(F32), (rng.randn(n) * 0.1).astype(F32))
        for m, n in zip(sizes[:-1], sizes[1:])
    ]
    x = rng.randn(batch, sizes[0]).astype(F32)
    y = rng.randint(0, sizes[-1], batch).astype(np.int32)

    loss = _benchmark_model().mlp_loss(jnp, sizes[-1])

    def step(params, x, y):
        value, grads = jax.value_and_grad(loss)(params, x, y)
        new = [(w - 0.01 * gw, b - 0.01 * gb) for (w, b), (gw, gb) in zip(params, grads)]
        return new, value

    return step, params, x, y


@pytest.mark.parametrize("sizes,batch", [((20, 16, 16, 10), 8), ((784, 512, 512, 10), 128)])
def test_mlp_step_same_bits(sizes, batch):
    step, params, x, y = _mlp_step(sizes, batch)
    flat = [a for wb in params for a in wb] + [x, y]

    def g(*flat):
        ps = [(flat[2 * i], flat[2 * i + 1]) for i in range(len(params))]
        new, value = step(ps, flat[-2], flat[-1])
        return [a for wb in new for a in wb] + [value]

    src = _check(g, *flat)
    for name in ("iota", "one_impl", "_bid_impl", "_convert_impl"):
        assert name not in src
    # The jitted step itself (jit's own path) agrees with the plain code too.
    new = jax.jit(g)(*flat)
    _, old, _, _ = _compile_both(g, *flat)
    for a, b in zip(new, old(*flat)):
        _same_bits(a, b)
    gc.collect()
