"""Session 11 differential-fuzzer findings (seeds 11,000,000+), checked against real JAX
0.10.2 live: each case runs the same program under ``jax`` and ``jaxlite`` and compares the
raised exception's built-in class, or the outputs' structure, shapes, dtypes, weak types and
values (and where asked, the signs of zeros)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.numpy  # noqa: E402,F401
import jax.ops  # noqa: E402,F401

import jaxlite  # noqa: E402
import jaxlite.numpy  # noqa: E402,F401
import jaxlite.ops  # noqa: E402,F401
from tests.hunt.oracle import same  # noqa: E402


def _same(build, rtol=2e-3, atol=1e-5, signs=False):
    """Run ``build(module)`` with JAX and jaxlite and assert they agree (``signs``: the
    signs of zero results too)."""
    same(build, rtol=rtol, atol=atol, signs=signs)


# ---------------------------------------------------------------- cumulative JVPs
# Seed 11000240: vjp of lax.cummax of a broadcast Python float returned a weak primal output
# (JAX: strong). JAX differentiates cumprod/cummax/cummin/cumlogsumexp as the JVP of an
# associative scan, primal output included; the scan interleaves its halves by padding each
# with a strong zero and adding them, so past one element the primal and tangent outputs
# are strongly typed and -0.0 comes out +0.0 (jvp of cummax of [-0.0] * 4 was -0.0).

_CUM = ["cummax", "cummin", "cumprod", "cumlogsumexp"]


@pytest.mark.parametrize("fn", _CUM)
@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5])
@pytest.mark.parametrize("reverse", [False, True])
def test_cumulative_jvp_weak_type(fn, n, reverse):
    def build(m):
        f = getattr(m.lax, fn)
        return m.jx.jvp(
            lambda x: f(m.jnp.broadcast_to(x, (n,)), axis=0, reverse=reverse), (1.5,), (1.0,)
        )

    _same(build)


@pytest.mark.parametrize("fn", _CUM)
def test_cumulative_vjp_weak_type(fn):
    def build(m):
        f = getattr(m.lax, fn)
        o, pb = m.jx.vjp(lambda x: f(m.jnp.broadcast_to(x, (2,)), axis=0, reverse=True), 0.5)
        return o, pb(m.jnp.full((2,), 0.75))

    _same(build)


@pytest.mark.parametrize("fn", ["cummax", "cummin", "cumprod"])
def test_cumulative_jvp_signed_zeros(fn):
    x = np.array([-0.0, -0.0, -0.0, -0.0, 2.0, -0.0], np.float32)
    t = np.array([-0.0, 1.0, -0.0, -0.0, 0.5, -0.0], np.float32)

    def build(m):
        f = getattr(m.lax, fn)
        return m.jx.jvp(f, (x,), (t,)), m.jx.jit(lambda x, t: m.jx.jvp(f, (x,), (t,)))(x, t)

    _same(build, atol=0, signs=True)


_EDGES = np.array(
    [0.0, -0.0, 1.0, -1.0, 2.0, np.inf, -np.inf, np.nan, 0.5, 3e20, 1e-30], np.float32
)


@pytest.mark.parametrize("fn", _CUM)
@pytest.mark.parametrize("seed", range(4))
def test_cumulative_derivatives_at_edges(fn, seed):
    rng = np.random.default_rng(seed)
    edges = _EDGES if fn != "cumlogsumexp" else np.where(np.abs(_EDGES) > 1e3, 80.0, _EDGES)
    x = rng.choice(edges, size=(3, 7)).astype(np.float32)
    t = rng.normal(size=(3, 7)).astype(np.float32)

    def build(m):
        f = getattr(m.lax, fn)
        return (
            m.jx.jvp(lambda x: f(x, axis=1, reverse=bool(seed % 2)), (x,), (t,)),
            m.jx.hessian(lambda v: m.jnp.sum(f(v, axis=0) ** 2))(x[0]),
            m.jx.vmap(m.jx.grad(lambda v: m.jnp.sum(f(v, axis=0))))(x),
        )

    _same(build)


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_cumlogsumexp_forward_keeps_the_weak_type(dtype):
    # JAX's cumlogsumexp is a primitive with the standard weak-type rule: weak in, weak out
    # (eagerly, under jit and vmap); jaxlite's associative scan made it strong.
    x = np.array([[0.5, -1.0, 2.0, 80.0], [0.0, -np.inf, 3.0, 1.0]], np.float32)

    def build(m):
        w = m.jnp.broadcast_to(1.0, (4,))
        xs = m.jnp.asarray(x).astype(dtype)
        return (
            m.lax.cumlogsumexp(w),
            m.jx.jit(m.lax.cumlogsumexp)(w[:3]),
            m.jx.vmap(m.lax.cumlogsumexp)(m.jnp.broadcast_to(1.0, (2, 4))),
            m.lax.cumlogsumexp(xs, axis=1, reverse=True),
            m.jx.vmap(lambda v: m.lax.cumlogsumexp(v, axis=0), in_axes=1)(xs),
        )

    _same(build, rtol=1e-2 if dtype != "float32" else 2e-3)


# ---------------------------------------------------------------- empty update selections
# Seeds 11000156, 11000630: segment_sum of data with no rows, then a while_loop, under grad:
# jaxlite raised the reverse-mode while_loop error (and under checkpoint, segment_prod's
# scatter_mul gradient error), where JAX returns zeros: its scatter returns the operand
# without scattering when the selection is empty, so nothing depends on the data. JAX
# checks this before looking at the updates, so an empty selection also takes updates of
# any shape, and bool add/mul; jaxlite raised for those, and returned the operand for an
# empty operand whose updates do not broadcast (JAX: ValueError).

_E = np.array([], np.int32)


def _loop(m, v):
    body = lambda ic: (ic[0] + 1, ic[1] * 0.5 + 1.0)  # noqa: E731
    return m.lax.while_loop(lambda ic: ic[0] < 3, body, (0, v))[1]


@pytest.mark.parametrize("kind", ["segment_sum", "segment_max", "segment_min", "segment_prod"])
@pytest.mark.parametrize("sorted_", [False, True])
def test_segment_of_no_rows_under_grad_through_while(kind, sorted_):
    def build(m):
        def f(x):
            s = getattr(m.jx.ops, kind)(x, _E, num_segments=3, indices_are_sorted=sorted_)
            return m.jnp.sum(_loop(m, s))

        return m.jx.grad(f)(np.zeros((0, 3), np.float32))

    _same(build)


def test_segment_of_no_rows_under_checkpoint():
    ids = np.array([2, 1, 3], np.int32)

    def build(m):
        def f(x):
            s = m.jx.ops.segment_sum(x, _E, num_segments=3)
            return m.jnp.sum(m.jx.ops.segment_prod(s, ids, num_segments=3))

        x = np.zeros((0, 3), np.float32)
        return m.jx.grad(lambda x: m.jx.checkpoint(f)(x))(x), m.jx.jit(m.jx.grad(f))(x)

    _same(build)


_IDS = np.array([1, 2, 0], np.int32)
_EMPTY_UPDATES = [
    lambda m: m.jx.ops.segment_sum(np.ones((2, 3), np.float32), _E, num_segments=3),
    lambda m: m.jx.ops.segment_sum(np.ones((0, 3), np.float32), _E, num_segments=3, bucket_size=2),
    lambda m: m.jx.ops.segment_sum(np.ones((2, 0), np.float32), np.array([0, 5]), num_segments=3),
    lambda m: m.jx.ops.segment_sum(np.ones((2, 3), np.float32), np.int32(1), num_segments=3),
    lambda m: m.jx.ops.segment_sum(
        np.ones((2, 3), np.float32), np.array([1, 2, 0]), num_segments=3
    ),
    lambda m: m.jx.ops.segment_max(
        np.ones((3, 2), np.float32), np.array([1, 2, 0]), num_segments=3
    ),
    lambda m: m.jnp.zeros(3, bool).at[_E].add(True),
    lambda m: m.jnp.zeros(3, bool).at[_E].mul(True),
    lambda m: m.jnp.zeros((3,), np.int32).at[_E].add(np.ones((2, 4))),
    lambda m: m.jnp.zeros((3, 2)).at[:, _E].set(np.ones(7)),
    lambda m: m.jnp.zeros((3, 2)).at[1:1].set(np.ones(7)),
    lambda m: m.jnp.zeros((3, 2)).at[1:1].add(np.ones(7), mode="clip"),
    lambda m: m.jnp.zeros((3, 2)).at[_E].divide(np.ones(7)),
    lambda m: m.jnp.zeros((3, 2)).at[_E].power(np.ones(7)),
    lambda m: m.jnp.zeros((3, 2)).at[_E].min(np.ones(7)),
    lambda m: m.jx.jit(lambda x, i: x.at[i].set(m.jnp.ones(7)))(m.jnp.zeros((3, 2)), _E),
    lambda m: m.jx.vmap(lambda x: x.at[_E].set(m.jnp.ones(7)))(m.jnp.zeros((4, 3))),
    # non-empty selections: the updates are broadcast first (ValueError), then bool
    # add/mul is refused (TypeError)
    lambda m: m.jnp.zeros((0,)).at[np.array([0, 1])].set(np.ones(5)),
    lambda m: m.jnp.zeros((0,)).at[np.array([0, 1])].set(np.ones(5), mode="clip"),
    lambda m: m.jnp.zeros((0,), bool).at[np.array([0, 1])].add(True),
    lambda m: m.jnp.zeros(3).at[np.array([0, 1])].set(np.ones(5)),
    lambda m: m.jnp.zeros(3).at[np.array([0, 1])].set(np.ones((2, 2))),
    lambda m: m.jnp.zeros((3, 2)).at[0].set(np.ones(3)),
    lambda m: m.jnp.zeros(3, bool).at[np.array([0, 1])].add(np.ones(5, bool)),
    lambda m: m.jnp.zeros(3, bool).at[np.array([0, 1])].add(np.ones(2, bool)),
    lambda m: m.jnp.zeros((2, 0)).at[1].set(np.ones(5)),
    lambda m: m.jnp.zeros((0, 2)).at[1].set(np.ones(5)),
    lambda m: m.jnp.zeros((3, 2)).at[np.array([0, 0, 1])].add(np.arange(6.0).reshape(3, 2)),
    lambda m: m.jnp.broadcast_to(np.ones(5), (2,)),
    lambda m: m.jnp.broadcast_to(np.ones((2, 2)), (2,)),
]


@pytest.mark.parametrize("k", range(len(_EMPTY_UPDATES)))
def test_update_order_of_checks(k):
    _same(_EMPTY_UPDATES[k])


# ---------------------------------------------------------------- widened generator (12,000,000+)
# Seeds 12000049, 12000222, 12000637: JAX has no derivative for nextafter (nor for
# jnp.spacing, built on it) and raises; jaxlite gave zero tangents (and spacing's -t).
_XS = np.array([[0.5, 0.0, 2.0], [0.0, 0.0, 1.0]], np.float32)

_NO_DERIVATIVE = [
    lambda m: m.jx.jvp(lambda x: m.lax.nextafter(x, m.jnp.zeros_like(x)), (_XS,), (_XS,)),
    lambda m: m.jx.grad(lambda x: m.jnp.nextafter(x, 0.0).sum())(_XS),
    lambda m: m.jx.jvp(lambda y: m.lax.nextafter(_XS, y), (_XS,), (_XS,)),
    lambda m: m.jx.jvp(m.jnp.spacing, (_XS,), (_XS,)),
    lambda m: m.jx.jvp(m.jnp.spacing, (2.0,), (0.5,)),
    # a stopped operand has no tangent: no error
    lambda m: m.jx.grad(lambda y: m.jnp.sum(m.lax.nextafter(m.lax.stop_gradient(y), _XS) * y))(_XS),
    # betainc in a or b: JAX's ValueError (jaxlite raised NotImplementedError)
    lambda m: m.jx.jvp(lambda a: m.jx.scipy.special.betainc(a, 2.0, 0.5), (1.5,), (1.0,)),
    lambda m: m.jx.grad(lambda b: m.jx.scipy.special.betainc(2.0, b, 0.5))(1.5),
    # expn's order n is non-differentiable in JAX (a zero tangent; jaxlite raised)
    lambda m: m.jx.jvp(
        lambda n: m.jx.scipy.special.expn(n, np.ones(3, np.float32)),
        (np.ones(3, np.float32),),
        (np.ones(3, np.float32),),
    ),
    lambda m: m.jx.grad(lambda n: m.jx.scipy.special.expn(n, n))(np.float32(2.0)),
]


@pytest.mark.parametrize("k", range(len(_NO_DERIVATIVE)))
def test_derivatives_jax_refuses_or_drops(k):
    _same(_NO_DERIVATIVE[k])


# Seeds 12000067, 12000118, 12000189, 12000809: jnp.nonzero/argwhere/flatnonzero. JAX returns
# zeros of length size for an empty operand or size=0 (fill_value unused; jaxlite filled);
# they work on concrete JVP tracers (jaxlite raised TracerArrayConversionError); fill_value
# may be a tuple, one per dimension (jaxlite raised), or a float (float results).
_E3 = np.zeros((0, 3), np.float32)
_NONZERO = [
    lambda m: m.jnp.argwhere(_E3, size=4, fill_value=-1),
    lambda m: m.jnp.nonzero(_E3, size=4, fill_value=-1),
    lambda m: m.jnp.flatnonzero(_E3, size=4, fill_value=-1),
    lambda m: m.jnp.nonzero(np.zeros((2, 0)), size=2, fill_value=(5, 6)),
    lambda m: m.jnp.nonzero(_XS, size=0, fill_value=-1),
    lambda m: m.jnp.nonzero(_XS, size=6, fill_value=-1),
    lambda m: m.jnp.nonzero(_XS, size=6, fill_value=(-1, -2)),
    lambda m: m.jnp.nonzero(_XS, size=6, fill_value=-1.5),
    lambda m: m.jnp.nonzero(_XS, size=6, fill_value=(1, 2, 3)),
    lambda m: m.jnp.nonzero(np.float32(1)),
    lambda m: m.jnp.argwhere(np.zeros((), np.float32), size=2, fill_value=-1),
    lambda m: m.jnp.argwhere(_XS, size=5, fill_value=(7, 8)),
    lambda m: m.jnp.nonzero(np.array([True, False, True]), size=5, fill_value=True),
    lambda m: m.jx.jit(lambda x: m.jnp.nonzero(x, size=4, fill_value=9))(_XS),
    lambda m: m.jx.vmap(lambda x: m.jnp.nonzero(x, size=2, fill_value=9))(_XS),
    lambda m: m.jx.jvp(lambda x: m.jnp.flatnonzero(x, size=3), (_XS,), (_XS,)),
    lambda m: m.jx.jvp(lambda x: m.jnp.nonzero(x, size=3), (_XS,), (_XS,)),
    lambda m: m.jx.jvp(lambda x: m.jnp.argwhere(x), (_XS,), (_XS,)),
    lambda m: m.jx.grad(lambda x: m.jnp.sum(x[m.jnp.nonzero(x, size=3)]))(_XS),
    lambda m: m.jx.grad(lambda x: m.jnp.sum(x[m.jnp.nonzero(x)]))(_XS),
]


@pytest.mark.parametrize("k", range(len(_NONZERO)))
def test_nonzero_family(k):
    _same(_NONZERO[k])


# Seeds 12000022, 12000171, 12000373, 12000884: a 0-d operand's quantile with keepdims=True
# has one axis of length 1 in JAX (the operand is reshaped to one element; jaxlite: 0-d).
# Seed 12000132: nan_to_num's replacements are strong scalars, so its result is strongly
# typed (jaxlite kept a Python float's weak type); so are quantiles (JAX casts the result to
# the operand's dtype last), for every method.
_KEEPDIMS = [
    lambda m: m.jnp.median(0.5, axis=None, keepdims=True),
    lambda m: m.jnp.median(np.float32(0.5), axis=(), keepdims=True),
    lambda m: m.jnp.nanmedian(np.float32(0.5), axis=None, keepdims=True),
    lambda m: m.jnp.quantile(np.float32(0.5), 0.5, axis=None, keepdims=True),
    lambda m: m.jnp.percentile(np.float32(0.5), np.array([10.0, 20.0]), keepdims=True),
    lambda m: m.jnp.quantile(np.float32(3), np.array([0.2, 0.5]), axis=(), keepdims=True),
    lambda m: m.jnp.quantile(np.float32(3), 0.5, keepdims=True, method="inverted_cdf"),
    lambda m: m.jnp.percentile(-1.98, 50.0, method="lower", keepdims=True),
    lambda m: m.jnp.quantile(_XS, np.array([0.1, 0.9]), axis=None, keepdims=True),
    lambda m: m.jnp.median(_XS, axis=(), keepdims=True),
    lambda m: m.jnp.median(1.5),
    lambda m: m.jx.jvp(m.jnp.nanmedian, (1.5,), (1.0,)),
    lambda m: [
        m.jnp.quantile(m.jnp.broadcast_to(1.5, (3,)), 0.5, method=k)
        for k in ("linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf")
    ],
    lambda m: m.jnp.nanpercentile(m.jnp.broadcast_to(1.5, (3,)), 30.0, method="nearest"),
    lambda m: m.jx.grad(lambda x: m.jnp.quantile(x, 0.3, method="lower"))(
        m.jnp.broadcast_to(1.5, (3,))
    ),
    lambda m: m.jnp.nan_to_num(0.5),
    lambda m: m.jnp.nan_to_num(m.jnp.broadcast_to(0.5, (2,))),
    lambda m: m.jnp.nan_to_num(0.5 + 1j),
    lambda m: m.jnp.nan_to_num(1),
    lambda m: m.jx.jvp(m.jnp.nan_to_num, (0.5,), (1.0,)),
    lambda m: m.jnp.nan_to_num(np.array([np.nan, np.inf, -np.inf], np.float16), nan=2.0),
]


# Seed 12000171 (a wrong value): JAX's median and nanmedian are the *midpoint* 0.5
# quantile: median([inf]) is inf (jaxlite's linear interpolation gave inf + (inf - inf) * 0
# = nan; also -inf, [1, inf, inf] and nanmedian([nan, inf])).
_INF = np.inf
_MEDIANS = [[_INF], [_INF, _INF], [1.0, _INF], [-_INF, _INF], [1.0, _INF, _INF], [-_INF]]
_MEDIANS += [[1.0, 2.0, _INF], [np.nan, _INF], [1.0, 2.0, 3.0, 5.0], [0.1, 0.7, 0.2]]


@pytest.mark.parametrize("fn", ["median", "nanmedian"])
@pytest.mark.parametrize("k", range(len(_MEDIANS)))
def test_median_is_the_midpoint_quantile(fn, k):
    v = np.array(_MEDIANS[k], np.float32)

    def build(m):
        f = getattr(m.jnp, fn)
        return (
            f(v),
            m.jx.grad(lambda x: m.jnp.sum(f(x, axis=0)))(v),
            f(v.astype(np.float16), axis=-1, keepdims=True),
        )

    _same(build)


@pytest.mark.parametrize("k", range(len(_KEEPDIMS)))
def test_quantile_keepdims_and_nan_to_num(k):
    _same(_KEEPDIMS[k])


# Found beside the fuzzer: the second derivative of gamma samples in their shape parameter
# was 0 (random_gamma_grad was declared non-differentiable; JAX differentiates it), e.g.
# hessian of jax.random.gamma(key(0), a) at 1.5: JAX 0.034240, jaxlite 0.0.
_A5 = np.array([0.3, 1.5, 4.0, 0.05, 20.0], np.float32)
_X5 = np.array([0.2, 2.0, 3.5, 1e-3, 18.0], np.float32)
_GAMMA = [
    lambda m: m.jx.jvp(lambda a: m.lax.random_gamma_grad(a, _X5), (_A5,), (np.ones(5, "f"),)),
    lambda m: m.jx.jvp(lambda x: m.lax.random_gamma_grad(_A5, x), (_X5,), (np.ones(5, "f"),)),
    lambda m: m.jx.jvp(
        m.lax.random_gamma_grad,
        (np.array([1.0, -1.0, 1.0, 0.0, np.nan], "f"), np.array([0.0, 1.0, -1.0, 1.0, 1.0], "f")),
        (np.ones(5, "f"), np.ones(5, "f")),
    ),
    lambda m: m.jx.hessian(lambda a: m.jx.random.gamma(m.jx.random.key(0), a))(1.5),
    lambda m: m.jx.hessian(lambda a: m.jx.random.gamma(m.jx.random.key(1), a))(0.3),
    lambda m: m.jx.jacfwd(m.jx.grad(lambda a: m.jx.random.beta(m.jx.random.key(1), a, 2.0)))(0.7),
    lambda m: m.jx.hessian(lambda a: m.jnp.sum(m.jx.random.loggamma(m.jx.random.key(2), a, (4,))))(
        np.array([0.5, 1.0, 3.0, 9.0], "f")
    ),
    lambda m: m.jx.hessian(lambda a: m.jnp.sum(m.jx.random.dirichlet(m.jx.random.key(3), a)[0]))(
        np.array([0.5, 1.0, 3.0], "f")
    ),
]


@pytest.mark.parametrize("k", range(len(_GAMMA)))
def test_gamma_sample_second_derivatives(k):
    _same(_GAMMA[k], rtol=1e-4)


# Seed 12000227: vmap(grad) through jnp.trace with an empty diagonal (offset past the
# matrix) of logaddexp with a NaN input: JAX's trace masks the matrix with an eye and sums,
# so every entry gets a zero cotangent (NaN where its own derivative is infinite or NaN);
# jaxlite's gathered diagonal gave 0. JAX's take of an empty index is a zeros constant (no
# derivative flows: jaxlite gave NaN through log), take of an empty axis is the operand,
# take_along_axis of an empty axis zeros (so reverse mode through a while_loop after them
# raises exactly where JAX's does: the compat row for it is gone). Seed 12000527: roll by a
# multiple of the length concatenates in JAX too (grad of roll(stack([x, x]), 2) of a
# Python float was weak; JAX strong).
_Y = np.array([[0.0, 2.0], [1.0, 3.0]], np.float32)
_Z = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)
_TZ = np.zeros((0, 3), np.float32)


def _wl(m, v):
    body = lambda c: (c[0] + 1, c[1] * 2.0)  # noqa: E731
    return m.jnp.sum(m.lax.while_loop(lambda c: c[0] < 2, body, (0, v))[1])


_TAKE_TRACE_ROLL = [
    lambda m: m.jx.grad(lambda x: m.jnp.trace(m.jnp.log(x), 1))(np.array([[0.0], [1.0]], "f")),
    lambda m: m.jx.grad(lambda x: m.jnp.trace(m.jnp.log(x), -3))(_Y),
    lambda m: m.jx.grad(lambda x: m.jnp.trace(m.jnp.log(x)))(np.array([[1, 0], [1, 3]], "f")),
    lambda m: [
        m.jnp.trace(_Z, o, a1, a2)
        for o in (-2, 0, 1, 5)
        for a1, a2 in ((0, 1), (1, 2), (2, 0), (-1, -2))
    ],
    lambda m: m.jnp.trace(_Z, axis1=1, axis2=1),
    lambda m: m.jnp.trace(np.arange(6).reshape(2, 3), dtype=m.jnp.float16),
    lambda m: m.jnp.trace(np.ones((2, 2), bool)),
    lambda m: m.jnp.trace(m.jnp.broadcast_to(1.5, (2, 2))),
    lambda m: m.jnp.linalg.trace(_Z, offset=1),
    lambda m: m.jx.vmap(m.jnp.trace)(_Z),
    lambda m: m.jx.grad(lambda x: m.jnp.sum(m.jnp.take(m.jnp.log(x), _E)))(_Y),
    lambda m: m.jx.grad(lambda x: m.jnp.sum(m.jnp.take(m.jnp.log(x), _E, axis=1)))(_Y),
    lambda m: m.jnp.take(_Y, np.zeros((2, 0), np.int32), axis=1),
    lambda m: m.jnp.take(_TZ, np.zeros((2, 0), np.int32), axis=0),
    lambda m: m.jnp.take(_TZ, _E, axis=1),
    lambda m: m.jnp.take(m.jnp.broadcast_to(1.0, (2,)), _E),
    lambda m: m.jnp.take(_TZ, np.array([1]), axis=0),
    lambda m: m.jnp.take_along_axis(_TZ, np.zeros((2, 3), np.int32), axis=0),
    lambda m: m.jnp.take_along_axis(m.jnp.broadcast_to(1.0, (2, 0)), np.zeros((2, 1), "i"), 1),
    lambda m: m.jnp.take_along_axis(_TZ, np.zeros((2, 4), np.int32), axis=0),
    lambda m: m.jx.grad(lambda x: _wl(m, m.jnp.take(x, _E)))(_Y),
    lambda m: m.jx.grad(lambda x: _wl(m, m.jnp.take(x[:0], _E)))(_Y),
    lambda m: m.jx.grad(
        lambda x: _wl(m, m.jnp.take_along_axis(x[:0], np.zeros((0, 2), np.int32), axis=0))
    )(_Y),
    lambda m: m.jx.grad(
        lambda x: _wl(m, m.jnp.take_along_axis(x, np.zeros((0, 2), np.int32), axis=0))
    )(_Y),
    lambda m: [
        m.jx.grad(lambda x: m.jnp.sum(m.jnp.roll(m.jnp.stack([x, x], -1), s, axis=0)))(1.5)
        for s in (0, 1, 2, -1)
    ],
    lambda m: m.jx.grad(lambda x: m.jnp.sum(m.jnp.roll(m.jnp.stack([x, x]), 0)))(1.5),
    lambda m: m.jx.grad(
        lambda x: m.jnp.sum(m.jnp.roll(m.jnp.broadcast_to(x, (2, 3)), (0, 3), axis=(0, 1)))
    )(1.5),
    lambda m: m.jx.grad(lambda x: m.jnp.sum(m.jnp.roll(m.jnp.broadcast_to(x, (2, 0)), 1)))(1.5),
]


_CKPT_POLICIES = [
    None,
    "nothing_saveable",
    "dots_with_no_batch_dims_saveable",
    "everything_saveable",
]


@pytest.mark.parametrize("policy", _CKPT_POLICIES)
def test_checkpoint_of_an_output_that_no_longer_depends_on_the_input(policy):
    # tests/fuzz seed 2 after the take shortcut: grad of checkpoint(take(copysign(x, x),
    # empty)) raised KeyError (a residual neither saved nor recomputed); JAX: zeros.
    def build(m):
        pol = None if policy is None else getattr(m.jx.checkpoint_policies, policy)
        f = lambda x: m.jnp.take(m.jnp.copysign(x, x), _E, axis=0)  # noqa: E731
        g = lambda x: (m.jnp.take(m.jnp.sin(x), _E), m.jnp.cos(x) * 2)  # noqa: E731
        x = np.array([1.72], np.float32)
        ck = lambda fn: m.jx.checkpoint(fn, policy=pol)  # noqa: E731
        return (
            m.jx.grad(lambda x: m.jnp.sum(ck(f)(x)))(x),
            m.jx.jit(m.jx.grad(lambda x: m.jnp.sum(ck(f)(x) + m.jnp.sin(x))))(x),
            m.jx.grad(lambda x: m.jnp.sum(ck(g)(x)[1]))(x),
        )

    _same(build)


@pytest.mark.parametrize("k", range(len(_TAKE_TRACE_ROLL)))
def test_take_trace_roll(k):
    _same(_TAKE_TRACE_ROLL[k])


# Seed 12001189, a wrong sign: grad(grad) of cbrt(v @ v) with v = x[[2, 0]] of a size-1 x
# (index 2 clamped) was +0.00809, JAX -0.00809 (= hessian). JAX transposes a clamping
# gather into a scatter that drops out-of-bounds positions and that scatter back into the
# clamping gather; jaxlite masked the out-of-bounds positions in the second transpose.
_X1 = np.array([3.0], np.float32)
_I2 = np.array([2, 0], np.int32)
_X23 = np.arange(6.0, dtype=np.float32).reshape(2, 3) + 1


def _rr(m, inner, x):
    return m.jx.grad(lambda x: m.jnp.sum(m.jx.grad(inner)(x) ** 2))(x)


_REVERSE_TWICE = [
    lambda m: m.jx.linear_transpose(
        lambda ct: m.jx.vjp(lambda y: y[_I2], _X1)[1](ct)[0], np.ones(2, "f")
    )(np.ones(1, "f")),
    lambda m: m.jx.grad(lambda x: m.jnp.sum(m.jx.grad(lambda y: m.jnp.cbrt(y[_I2] @ y[_I2]))(x)))(
        _X1
    ),
    lambda m: m.jx.hessian(lambda y: m.jnp.cbrt(y[_I2] @ y[_I2]))(_X1),
    lambda m: _rr(m, lambda y: m.jnp.sum(m.jnp.sin(y[np.array([5, -1, 0])]) * y[1]), _X23),
    lambda m: _rr(m, lambda y: m.jnp.sum(m.jnp.sin(y[:, np.array([5, -7, 0])])), _X23),
    lambda m: _rr(
        m, lambda y: m.jnp.sum(m.jnp.sin(m.jnp.take(y, np.array([5, -7, 0]), 1, mode="clip"))), _X23
    ),
    lambda m: _rr(m, lambda y: m.jnp.sum(m.jnp.sin(m.jnp.take(y, np.array([5, -7, 0]), 1))), _X23),
    lambda m: _rr(
        m,
        lambda y: m.jnp.sum(m.jnp.sin(y.at[np.array([5, 0])].get(mode="fill", fill_value=0.0))),
        _X23,
    ),
    lambda m: _rr(m, lambda y: m.jnp.sum(m.jnp.sin(y.at[np.array([5, 0])].add(y[0] * 2.0))), _X23),
    lambda m: _rr(
        m,
        lambda y: m.jnp.sum(m.jnp.sin(m.jnp.take_along_axis(y, np.array([[5, 0, 1]]), axis=1))),
        _X23,
    ),
    lambda m: m.jx.vmap(
        lambda x: _rr(m, lambda y: m.jnp.sum(m.jnp.sin(y[np.array([5, -1, 0])])), x)
    )(_X23),
]


@pytest.mark.parametrize("k", range(len(_REVERSE_TWICE)))
def test_reverse_over_reverse_through_clamped_gathers(k):
    _same(_REVERSE_TWICE[k])


# ---------------------------------------------------------------- documented differences
@pytest.mark.jaxlite_only
@pytest.mark.parametrize("batch_size", [1, 2, 3])
def test_lax_map_batch_size_with_empty_outputs(batch_size):
    # Seed 11000571 (compat.md, "Differential fuzzer"): JAX raises ZeroDivisionError from
    # inside lax.map (a -1 reshape of an empty output); jaxlite returns what lax.map
    # without batch_size returns.
    jnp, lax = jaxlite.numpy, jaxlite.lax
    xs = jnp.zeros((3, 0), jnp.float32)
    out = lax.map(lambda r: jnp.cumsum(r**2), xs, batch_size=batch_size)
    ref = lax.map(lambda r: jnp.cumsum(r**2), xs)
    assert out.shape == ref.shape == (3, 0) and out.dtype == ref.dtype == jnp.float32


@pytest.mark.jaxlite_only
@pytest.mark.parametrize("a", [0.3, 1.5, 4.0])
def test_gamma_sample_reverse_over_reverse(a):
    # compat.md: JAX has no reverse mode through random_gamma_grad (a while_loop); jaxlite's
    # grad(grad(.)) agrees with the forward-over-reverse hessian JAX computes.
    def sample(a):
        return jaxlite.random.gamma(jaxlite.random.key(0), a)

    rr = jaxlite.grad(jaxlite.grad(sample))(a)
    fr = jaxlite.hessian(sample)(a)
    np.testing.assert_allclose(np.asarray(rr), np.asarray(fr), rtol=1e-5)
    assert np.isfinite(np.asarray(rr)) and np.asarray(rr) != 0
