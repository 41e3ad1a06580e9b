"""preferred_element_type and precision of the contractions against JAX 0.10.2 (session 10).

Wrong answer fixed: dot_general computed in the operand type and cast the result, so an
int8 product accumulated in int32 wrapped at int8 (``dot([100, 100], [100, 100],
preferred_element_type=int32)`` gave 32, JAX 20000) and float16 accumulated in float32
overflowed (inf, JAX 240000). Also: the narrowing JAX refuses (int16 operands with an int8
result) wrapped silently; grad of a float16 dot with a float32 result raised; jnp.vdot and
jnp.inner had no precision/preferred_element_type; an invalid ``precision`` was ignored by
the jnp products and convolutions (JAX ValueError)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.lax as JL  # noqa: E402
import jax.numpy as J  # noqa: E402

import jaxlite  # noqa: E402
import jaxlite.lax as LL  # noqa: E402
import jaxlite.numpy as L  # noqa: E402

A8 = np.int8([100, 100])
DN = (((0,), (0,)), ((), ()))


def cases(jx, jnp, lax):
    return [
        lambda: jnp.dot(A8, A8, preferred_element_type=np.int32),
        lambda: lax.dot_general(A8, A8, DN, preferred_element_type=np.int32),
        lambda: lax.dot_general(
            A8[None], A8[:, None], (((1,), (0,)), ((), ())), preferred_element_type=np.int32
        ),
        lambda: jx.jit(lambda a: lax.dot_general(a, a, DN, preferred_element_type=np.int32))(A8),
        lambda: jnp.dot(
            np.float16([6e4, 6e4]), np.float16([2, 2]), preferred_element_type=np.float32
        ),
        lambda: jnp.dot(
            np.uint8([200, 200]), np.uint8([200, 200]), preferred_element_type=np.int32
        ),
        lambda: jnp.matmul(
            np.int8([[100, 100]] * 3), np.int8([[100], [100]]), preferred_element_type=np.int32
        ),
        lambda: jnp.einsum(
            "ij,jk->ik",
            np.int8([[100, 100]] * 3),
            np.int8([[100], [100]]),
            preferred_element_type=np.int32,
        ),
        lambda: jnp.dot(A8, A8, preferred_element_type=np.int16),
        lambda: jnp.dot(np.int16([300, 300]), np.int16([300, 300]), preferred_element_type=np.int8),
        lambda: jnp.dot(np.int32([1, 2]), np.int32([1, 2]), preferred_element_type=np.float16),
        lambda: jnp.dot(np.array([True]), np.array([True]), preferred_element_type=np.int32),
        lambda: jnp.dot(A8, A8, preferred_element_type=np.bool_),
        lambda: jnp.dot(A8, A8, preferred_element_type=np.float32),
        lambda: jnp.dot(
            np.float32([1.7, 1.7]), np.float32([1, 1]), preferred_element_type=np.int32
        ),
        lambda: jnp.dot(
            np.float32([0.3, 0.3]), np.float32([0.3, 0.3]), preferred_element_type="bfloat16"
        ),
        lambda: jnp.dot(
            np.complex64([1j, 2]), np.complex64([1j, 3]), preferred_element_type=np.float32
        ),
        lambda: jnp.dot(
            np.int8([-100, 100]), np.int8([100, -100]), preferred_element_type=np.uint16
        ),
        lambda: jnp.dot(np.uint8([200, 200]), np.uint8([200, 200]), preferred_element_type=np.int8),
        lambda: jnp.vdot(A8, A8, preferred_element_type=np.int32),
        lambda: jnp.inner(A8, A8, preferred_element_type=np.int32),
        lambda: jnp.inner(2, np.int8(3), preferred_element_type=np.int32),
        lambda: jx.grad(lambda x: jnp.dot(x, x, preferred_element_type=np.float32))(
            np.float16([1, 2])
        ),
        lambda: jx.vmap(lambda x: jnp.dot(x, x, preferred_element_type=np.int32))(
            np.int8([[100, 100], [50, 50]])
        ),
        lambda: lax.conv_general_dilated(
            np.int8([[[100, 100, 100]]]),
            np.int8([[[100, 100]]]),
            (1,),
            "VALID",
            preferred_element_type=np.int32,
        ),
        lambda: lax.conv_general_dilated(
            np.float16([[[6e4, 6e4, 6e4]]]),
            np.float16([[[2, 2]]]),
            (1,),
            "VALID",
            preferred_element_type=np.float32,
        ),
    ]


def outcome(f):
    try:
        with np.errstate(all="ignore"):
            r = f()
    except (TypeError, ValueError) as e:
        return type(e).__name__, str(e)
    return str(r.dtype), np.asarray(r).tolist()


@pytest.mark.parametrize("i", range(26))
def test_preferred_element_type_matches_jax(i):
    ours = outcome(cases(jaxlite, L, LL)[i])
    theirs = outcome(cases(jax, J, JL)[i])
    assert ours == theirs


A = np.ones((2, 2), np.float32)
PRECISION_USERS = [
    lambda m, lx, p: m.dot(A, A, precision=p),
    lambda m, lx, p: m.matmul(A, A, precision=p),
    lambda m, lx, p: m.einsum("ij,jk", A, A, precision=p),
    lambda m, lx, p: m.tensordot(A, A, precision=p),
    lambda m, lx, p: m.vdot(A, A, precision=p),
    lambda m, lx, p: m.inner(A, A, precision=p),
    lambda m, lx, p: m.linalg.multi_dot([A, A, A], precision=p),
    lambda m, lx, p: m.convolve(A[0], A[0], precision=p),
    lambda m, lx, p: lx.dot_general(A, A, (((1,), (0,)), ((), ())), precision=p),
    lambda m, lx, p: lx.conv(
        np.ones((1, 1, 3, 3), np.float32),
        np.ones((1, 1, 2, 2), np.float32),
        (1, 1),
        "VALID",
        precision=p,
    ),
]


@pytest.mark.parametrize("i", range(len(PRECISION_USERS)))
@pytest.mark.parametrize(
    "p", ["bogus", 3, ("highest", "bogus"), "high", ("high", "highest"), "fastest", None]
)
def test_precision_is_checked_as_jax(i, p):
    f = PRECISION_USERS[i]
    ours = outcome(lambda: f(L, LL, LL.Precision.HIGHEST if p == "enum" else p))
    theirs = outcome(lambda: f(J, JL, p))
    assert ours[0] == theirs[0]
    if ours[0] == "ValueError":
        assert ours[1] == theirs[1]
