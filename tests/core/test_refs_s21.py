"""Mutable array references, session 21: where jaxlite answered and JAX raises, and
constructs jaxlite refused that JAX runs. Each test compares with JAX where it is installed
(``tests/hunt/oracle.py``) and writes JAX's values or first error line out."""

from __future__ import annotations

import numpy as np
import pytest

from tests.hunt.oracle import same


def _first_line(e: BaseException) -> str:
    return str(e).splitlines()[0]


# ------------------------------------------------------------------ scan: refs in xs
@pytest.mark.parametrize("how", ["read", "write", "untouched_slice", "in_jit", "pytree"])
def test_scan_xs_ref_also_closed_over_raises_like_jax(how):
    # jaxlite answered (the closure and the slice aliased one buffer); JAX refuses.
    def build(m):
        r = m.jx.new_ref(m.jnp.arange(3.0))

        def body(c, x):
            if how == "read":
                x[...] += 1
                return c + r[0], None
            if how == "write":
                r[0] += 1
                return c + x[...], None
            if how == "untouched_slice":
                return c + r[0], None
            if how == "in_jit":
                return c + m.jx.jit(lambda: r[1])(), None
            return c + r[0] + x["a"][...], None

        xs = {"a": r} if how == "pytree" else r
        return m.lax.scan(body, 0.0, xs)

    err = same(build)
    assert isinstance(err, ValueError), err
    name = "x['a']" if how == "pytree" else "x"
    assert _first_line(err).startswith("when tracing body at ")
    assert _first_line(err).endswith(
        "for scan, a mutable array reference of type Ref{float32[3]} was both closed over "
        f"and passed as the argument {name}"
    )


def test_scan_xs_ref_closed_over_by_lambda_names_it_like_jax():
    def build(m):
        r = m.jx.new_ref(m.jnp.arange(3.0))
        return m.lax.scan(lambda c, v: (c + r[0], None), 0.0, (m.jnp.ones(3), r))

    err = same(build)
    assert isinstance(err, ValueError), err
    assert " for scan, " in _first_line(err)
    assert _first_line(err).startswith("when tracing <lambda> at ")
    assert _first_line(err).endswith("passed as the argument v[1]")


@pytest.mark.parametrize("to", ["jit", "vmap", "checkpoint", "scan", "cond", "fori"])
def test_scan_slice_of_ref_passed_on_like_jax(to):
    # the body's ref of its slice goes to another construct: jaxlite raised
    # NotImplementedError (a view could not be passed on); JAX runs all of these.
    def build(m):
        jx, lax = m.jx, m.lax
        r = jx.new_ref(m.jnp.arange(12.0).reshape(3, 2, 2))

        def g(v):
            v[...] += 1.0
            return v[0]

        def body(c, x):
            if to == "jit":
                y = jx.jit(g)(x).sum()
            elif to == "vmap":
                y = jx.vmap(g)(x).sum()
            elif to == "checkpoint":
                y = jx.checkpoint(g)(x).sum()
            elif to == "scan":
                y = lax.scan(lambda c2, q: (c2 + g(q).sum(), None), 0.0, x)[0]
            elif to == "cond":
                y = lax.cond(c < 20, lambda: g(x).sum(), lambda: 0.0)
            else:
                y = lax.fori_loop(0, 2, lambda i, a: a + g(x).sum(), 0.0)
            return c + y, x[1]

        c, ys = lax.scan(body, 0.0, r)
        return c, ys, r[...]

    out = same(build)
    if to == "jit":  # JAX's values, written out
        np.testing.assert_array_equal(out[2], np.arange(12.0).reshape(3, 2, 2) + 1)
        assert float(out[0]) == 33.0


def test_scan_slice_of_ref_under_grad_like_jax():
    def build(m):
        r = m.jx.new_ref(m.jnp.arange(6.0).reshape(3, 2))

        def loss(c0):
            def body(c, x):
                return m.jx.checkpoint(lambda v: v[1] * c)(x), None

            return m.lax.scan(body, c0, r)[0]

        return m.jx.grad(loss)(m.jnp.float32(1.0)), r[...]

    out = same(build)
    assert float(out[0]) == 15.0


# ------------------------------------------------------------------ vmap of cond
_VMAP_COND = [
    "read_closed", "write_closed", "unbatched_predicate", "mapped_ref", "ref_made_inside",
    "switch", "jit_inside", "jit_traced_before", "scan_inside", "while_inside",
    "checkpoint", "grad_inside", "grad_outside", "make_jaxpr",
]


@pytest.mark.parametrize("case", _VMAP_COND)
def test_vmap_of_cond_touching_refs_raises_like_jax(case):
    # jaxlite answered (or raised a write error); JAX's cond batching rule refuses any
    # state effect of its branches, batched or not, wherever vmap meets the cond.
    def build(m):
        jx, lax, jnp = m.jx, m.lax, m.jnp
        r = jx.new_ref(jnp.arange(3.0))
        preds, xs = jnp.array([True, False]), jnp.array([1.0, 2.0])

        def read(p, x):
            return lax.cond(p, lambda: r[0] + x, lambda: x)

        def bump():
            r[1] += 1.0
            return 0.0

        if case == "read_closed":
            return jx.vmap(read)(preds, xs)
        if case == "write_closed":
            return jx.vmap(lambda p, x: x + lax.cond(p, bump, lambda: 0.0))(preds, xs)
        if case == "unbatched_predicate":
            return jx.vmap(lambda x: x + lax.cond(True, lambda: r[0], lambda: 0.0))(xs)
        if case == "mapped_ref":
            q = jx.new_ref(jnp.zeros(2))

            def f(p, q):
                lax.cond(p, lambda: q.__setitem__(..., q[...] + 1), lambda: None)
                return q[...]

            return jx.vmap(f)(preds, q)
        if case == "ref_made_inside":
            def f(p, x):
                q = jx.new_ref(x)
                lax.cond(p, lambda: q.__setitem__(..., q[...] + 1), lambda: None)
                return q[...]

            return jx.vmap(f)(preds, xs)
        if case == "switch":
            return jx.vmap(lambda i, x: lax.switch(i, [lambda: x * r[2], lambda: x]))(
                jnp.array([0, 1]), xs)
        if case == "jit_inside":
            return jx.vmap(jx.jit(read))(preds, xs)
        if case == "jit_traced_before":
            jr = jx.jit(read)
            jr(True, 1.0)
            return jx.vmap(jr)(preds, xs)
        if case == "scan_inside":
            def f(x):
                def body(c, _):
                    return lax.cond(c > 1, lambda: c + r[1], lambda: c), None

                return lax.scan(body, x, None, length=2)[0]

            return jx.vmap(f)(xs)
        if case == "while_inside":
            def f(x):
                step = lambda c: lax.cond(c > 1, lambda: c + r[1] + 1, lambda: c + 1)  # noqa: E731
                return lax.while_loop(lambda c: c < 5, step, x)

            return jx.vmap(f)(xs)
        if case == "checkpoint":
            return jx.vmap(jx.checkpoint(read))(preds, xs)
        if case == "grad_inside":
            return jx.vmap(jx.grad(lambda x: lax.cond(True, lambda: r[1] * x, lambda: x)))(xs)
        if case == "grad_outside":
            def f(x):
                return jx.vmap(lambda y: lax.cond(True, lambda: r[1] * y, lambda: y))(x).sum()

            return jx.grad(f)(xs)
        return jx.make_jaxpr(jx.vmap(read))(preds, xs)

    err = same(build)
    assert isinstance(err, NotImplementedError), err
    assert _first_line(err) == "State effect not supported in vmap-of-cond."


def test_vmap_of_cond_without_outer_refs_runs_like_jax():
    # a ref made inside a branch, a vmap inside a branch: no state effect crosses the cond
    def build(m):
        jx, lax, jnp = m.jx, m.lax, m.jnp
        r = jx.new_ref(jnp.arange(3.0))
        preds, xs = jnp.array([True, False]), jnp.array([1.0, 2.0])

        def local(x):
            q = jx.new_ref(x)
            q[...] += 1.0
            return q[...]

        a = jx.vmap(lambda p, x: lax.cond(p, lambda: local(x), lambda: x))(preds, xs)
        b = lax.cond(True, lambda: jx.vmap(lambda x: x + r[1])(xs), lambda: xs)
        return a, b, r[...]

    out = same(build)
    np.testing.assert_array_equal(out[0], [2.0, 2.0])
    np.testing.assert_array_equal(out[1], [2.0, 3.0])


# ------------------------------------------------------------------ grad of loops over cond
_PE_COND = [
    "scan", "scan_cond_independent", "scan_not_differentiated", "scan_jit_inside",
    "jit_outside", "fori", "fori_dynamic", "while", "checkpoint", "checkpoint_saveable",
    "linearize", "vjp_write",
]


@pytest.mark.parametrize("case", _PE_COND)
def test_grad_of_loop_or_checkpoint_over_cond_touching_refs_raises_like_jax(case):
    # jaxlite answered (or raised its while_loop reverse-mode error); JAX's partial
    # evaluation of a cond refuses state effects, and reverse-mode differentiation
    # partially evaluates the conds inside scan, while_loop and checkpoint bodies.
    def build(m):
        jx, lax, jnp = m.jx, m.lax, m.jnp
        r = jx.new_ref(jnp.arange(3.0))

        def cr(x):
            return lax.cond(x > 0, lambda: r[1] * x, lambda: x)

        def cw(x):
            def t():
                r[0] += 1.0
                return x * 3

            return lax.cond(x > 0, t, lambda: x)

        def scan(body, x):
            return lax.scan(lambda c, _: (body(c), None), x, None, length=2)[0]

        if case == "scan":
            return jx.grad(lambda x: scan(cr, x))(2.0)
        if case == "scan_cond_independent":
            one = lambda: lax.cond(True, lambda: r[1], lambda: 1.0)  # noqa: E731
            return jx.grad(lambda x: scan(lambda c: c * one(), x))(2.0)
        if case == "scan_not_differentiated":
            return jx.grad(lambda x: x * scan(cr, 2.0))(2.0)
        if case == "scan_jit_inside":
            return jx.grad(lambda x: scan(jx.jit(cr), x))(2.0)
        if case == "jit_outside":
            return jx.grad(jx.jit(lambda x: scan(cr, x)))(2.0)
        if case == "fori":
            return jx.grad(lambda x: lax.fori_loop(0, 2, lambda i, c: cr(c), x))(2.0)
        if case == "fori_dynamic":
            return jx.grad(lambda x: lax.fori_loop(0, jnp.int32(2), lambda i, c: cr(c), x))(2.0)
        if case == "while":
            return jx.grad(lambda x: lax.while_loop(lambda c: c < 5, lambda c: cr(c) + 1, x))(2.0)
        if case == "checkpoint":
            return jx.grad(jx.checkpoint(cr))(2.0)
        if case == "checkpoint_saveable":
            policy = jx.checkpoint_policies.everything_saveable
            return jx.grad(jx.checkpoint(cr, policy=policy))(2.0)
        if case == "linearize":
            return jx.linearize(lambda x: scan(cr, x), 2.0)[1](1.0)
        return jx.vjp(lambda x: scan(cw, x), 2.0)[1](1.0)

    err = same(build)
    assert isinstance(err, NotImplementedError), err
    assert _first_line(err) == "State effect not supported in cond partial-eval."


def test_cond_touching_refs_under_grad_without_loops_like_jax():
    # grad of the cond itself, of jit or of a cond around it, jvp of a scan over it: JAX
    # runs these (no partial evaluation of the cond), and so does jaxlite.
    def build(m):
        jx, lax, jnp = m.jx, m.lax, m.jnp
        r = jx.new_ref(jnp.arange(3.0))

        def cr(x):
            return lax.cond(x > 0, lambda: r[1] * x, lambda: x)

        def cw(x):
            def t():
                r[0] += 1.0
                return x * 3

            return lax.cond(x > 0, t, lambda: x)

        scan = lambda x: lax.scan(lambda c, _: (cr(c), None), x, None, length=2)[0]  # noqa: E731
        return (
            jx.grad(cr)(2.0),
            jx.grad(jx.jit(cw))(2.0),
            jx.grad(lambda x: lax.cond(x > 0, lambda: cr(x) * 2, lambda: x))(2.0),
            jx.jvp(scan, (2.0,), (1.0,)),
            jx.grad(lambda x: x * 2)(jx.jit(scan)(2.0)),
            r[...],
        )

    out = same(build)
    assert [float(x) for x in out[:3]] == [1.0, 3.0, 2.0]
    np.testing.assert_array_equal(out[-1], [1.0, 1.0, 2.0])


# ------------------------------------------------------------------ custom_jvp / custom_vjp
def _custom(m, kind, body):
    if kind == "jvp":
        f = m.jx.custom_jvp(body)
        f.defjvp(lambda p, t: (f(*p), t[0] * 2))
        return f
    f = m.jx.custom_vjp(body)
    f.defvjp(lambda x: (f(x), x), lambda res, g: (g * 2,))
    return f


_TRANSFORMS = {
    "eager": lambda m, f: f,
    "jit": lambda m, f: m.jx.jit(f),
    "grad": lambda m, f: m.jx.grad(f),
    "jvp": lambda m, f: (lambda x: m.jx.jvp(f, (x,), (m.jnp.float32(1.0),))),
    "vmap": lambda m, f: (lambda x: m.jx.vmap(f)(m.jnp.ones(2) * x)),
    "scan": lambda m, f: (lambda x: m.lax.scan(lambda c, _: (f(c), None), x, None, length=2)[0]),
    "cond": lambda m, f: (lambda x: m.lax.cond(True, f, lambda x: x, x)),
    "checkpoint": lambda m, f: m.jx.checkpoint(f),
    "vmap_grad": lambda m, f: (lambda x: m.jx.vmap(m.jx.grad(f))(m.jnp.ones(2) * x)),
}


@pytest.mark.parametrize("transform", sorted(_TRANSFORMS))
@pytest.mark.parametrize("kind", ["jvp", "vjp"])
@pytest.mark.parametrize("op", ["read", "write"])
def test_custom_derivative_body_touching_outer_ref_like_jax(kind, transform, op):
    # jaxlite raised NotImplementedError wherever the body was staged (jit, vmap, loop and
    # branch bodies). JAX: custom_vjp bodies read refs everywhere; custom_jvp bodies raise
    # wherever JAX must discharge them (jit, scan, cond), read under vmap; a write under
    # vmap raises JAX's unbatched-ref error.
    if op == "write" and (
        transform in ("jit", "scan", "cond", "checkpoint") and kind == "vjp"
        or transform == "checkpoint"
    ):
        pytest.skip("jaxlite refuses these writes (docs/compat.md); see the test below")

    def build(m):
        r = m.jx.new_ref(m.jnp.float32(3.0))

        def body(x):
            if op == "read":
                return x * r[...]
            r[...] += 1.0
            return x * 2

        f = _custom(m, kind, body)
        return _TRANSFORMS[transform](m, f)(m.jnp.float32(2.0)), r[...]

    out = same(build)
    staged = transform in ("jit", "scan", "cond")
    if kind == "jvp" and staged:
        assert isinstance(out, NotImplementedError), out
        assert _first_line(out) == (
            "No state discharge rule implemented for primitive: custom_jvp_call"
        )
    elif op == "write" and transform.startswith("vmap"):
        assert type(out) is Exception, out
        assert _first_line(out) == (
            "performing a set/swap operation with vmapped value on an unbatched array "
            "reference of type Ref{float32[]}. Move the array reference to be an argument "
            "to the vmapped function?"
        )
    elif kind == "vjp" and transform == "jvp":
        assert isinstance(out, TypeError), out  # forward mode of a custom_vjp function
    else:
        assert not isinstance(out, Exception), out


@pytest.mark.jaxlite_only  # JAX runs these (docs/compat.md)
@pytest.mark.parametrize("transform", ["jit", "scan", "cond", "checkpoint"])
def test_custom_vjp_body_writing_outer_ref_when_staged_is_refused(transform):
    import jaxlite
    from tests.hunt.oracle import LITE

    r = jaxlite.new_ref(jaxlite.numpy.float32(3.0))

    def body(x):
        r[...] += 1.0
        return x * 2

    f = _custom(LITE, "vjp", body)
    with pytest.raises(NotImplementedError, match="cannot write a mutable array reference"):
        _TRANSFORMS[transform](LITE, f)(2.0)
    assert float(r[...]) == 3.0


# ------------------------------------------------------------------ checkpoint writes
def _counting(m, policy=None):
    r = m.jx.new_ref(m.jnp.float32(0.0))

    def f(x):
        r[...] += 1.0
        return m.jnp.sin(x) * r[...]

    kw = {} if policy is None else {"policy": policy(m.jx.checkpoint_policies)}
    return r, m.jx.checkpoint(f, **kw)


@pytest.mark.parametrize(
    "case", ["jvp", "everything_saveable", "anything_except_names", "independent",
             "differentiated_write", "eager", "read_only", "jvp_scan_body"],
)
def test_checkpoint_writing_ref_like_jax_where_written_once(case):
    # JAX recomputes a checkpointed function in the backward pass, writes included, unless
    # the policy saves them or reverse mode does not split it; these cases write once.
    def build(m):
        one = m.jnp.float32(1.0)
        if case == "everything_saveable":
            r, f = _counting(m, lambda p: p.everything_saveable)
            return m.jx.grad(f)(one), r[...]
        if case == "anything_except_names":
            r, f = _counting(m, lambda p: p.save_anything_except_these_names("a"))
            return m.jx.grad(f)(one), r[...]
        r, f = _counting(m)
        if case == "jvp":
            return m.jx.jvp(f, (one,), (one,)), r[...]
        if case == "jvp_scan_body":
            scan = lambda x: m.lax.scan(lambda c, _: (f(c), None), x, None, length=3)[0]  # noqa: E731
            return m.jx.jvp(scan, (one,), (one,)), r[...]
        if case == "independent":
            return m.jx.grad(lambda x: f(m.jnp.float32(2.0)) * x)(one), r[...]
        if case == "eager":
            return f(one), m.jx.jit(f)(one), r[...]
        if case == "read_only":
            q = m.jx.new_ref(m.jnp.float32(3.0))
            return m.jx.grad(m.jx.checkpoint(lambda x: m.jnp.sin(x) * q[...]))(one), q[...]

        def g(x):
            r[...] += x
            return x

        return m.jx.grad(m.jx.checkpoint(g))(one)

    out = same(build)
    if case == "differentiated_write":
        assert type(out) is Exception, out
        assert "with a differentiated value on a non-differentiated array reference" in str(out)
    else:
        assert not isinstance(out, Exception), out


@pytest.mark.jaxlite_only  # JAX writes twice (docs/compat.md): jaxlite refuses
@pytest.mark.parametrize(
    "how", ["grad", "vjp", "jit_inside", "jit_outside", "dots_saveable", "scan_body"]
)
def test_checkpoint_writing_ref_under_reverse_mode_is_refused(how):
    import jaxlite
    from tests.hunt.oracle import LITE

    policy = (lambda p: p.dots_saveable) if how == "dots_saveable" else None
    r, f = _counting(LITE, policy)
    one = jaxlite.numpy.float32(1.0)
    with pytest.raises(NotImplementedError, match="JAX applies the writes again"):
        if how == "vjp":
            jaxlite.vjp(f, one)
        elif how == "jit_inside":
            jaxlite.grad(jaxlite.jit(f))(one)
        elif how == "jit_outside":
            jaxlite.jit(jaxlite.grad(f))(one)
        elif how == "scan_body":  # JAX: the ref ends at 6.0 (3 steps, each written twice)
            scan = lambda x: jaxlite.lax.scan(lambda c, _: (f(c), None), x, None, length=3)[0]  # noqa: E731
            jaxlite.grad(scan)(one)
        else:
            jaxlite.grad(f)(one)
    assert float(r[...]) == 0.0  # nothing written


# ------------------------------------------------------------------ while_loop cond_fun
@pytest.mark.parametrize("how", ["eager", "jit", "ref_made_in_jit", "vmap_mapped", "history"])
def test_while_cond_fun_writing_refs_like_jax(how):
    # jaxlite raised NotImplementedError; JAX keeps the writes of each cond_fun evaluation
    # that returned true (here 5 of the 6), when body_fun touches no refs.
    def build(m):
        jx, lax, jnp = m.jx, m.lax, m.jnp

        def loop(q):
            def c(x):
                q[...] += 1.0
                return x < 5

            return lax.while_loop(c, lambda x: x + 1, 0)

        if how == "eager":
            r = jx.new_ref(jnp.float32(0.0))
            return loop(r), r[...]
        if how == "jit":
            r = jx.new_ref(jnp.float32(0.0))
            return jx.jit(lambda: loop(r))(), r[...]
        if how == "ref_made_in_jit":
            def f():
                q = jx.new_ref(jnp.float32(0.0))
                return loop(q), q[...]

            return jx.jit(f)()
        if how == "vmap_mapped":
            r = jx.new_ref(jnp.zeros(2))
            return jx.vmap(loop)(r), r[...]
        r = jx.new_ref(jnp.float32(0.0))
        h = jx.new_ref(jnp.zeros(8))

        def c(x):
            r[...] += 1.0
            h[x] = r[...]
            return x < 4

        return lax.while_loop(c, lambda x: x + 1, 0), r[...], h[...]

    out = same(build)
    if how == "history":
        assert float(out[1]) == 4.0
        np.testing.assert_array_equal(out[2], [1, 2, 3, 4, 0, 0, 0, 0])
    elif how != "vmap_mapped":
        assert float(out[-1]) == 5.0


@pytest.mark.parametrize("case", ["both_read", "cond_reads_body_writes", "two_refs", "vmap"])
def test_eager_while_with_a_ref_in_both_functions_raises_like_jax(case):
    # jaxlite answered; JAX runs an eager while_loop as a jit of the loop taking each
    # function's refs as arguments, one ref then twice: its ValueError.
    def build(m):
        jx, lax, jnp = m.jx, m.lax, m.jnp
        r = jx.new_ref(jnp.float32(1.0))
        s = jx.new_ref(jnp.float32(2.0))
        if case == "both_read":
            return lax.while_loop(lambda x: x < r[...] * 5, lambda x: x + r[...], 0.0)
        if case == "cond_reads_body_writes":
            def b(x):
                r[...] += 1.0
                return x + 1

            return lax.while_loop(lambda x: x < r[...], b, 0.0)
        if case == "two_refs":
            return lax.while_loop(
                lambda x: x < r[...] * 5 + s[...], lambda x: x + s[...] + r[...], 0.0
            )
        f = lambda y: lax.while_loop(lambda x: x < r[...] * 5, lambda x: x + r[...], y)  # noqa: E731
        return jx.vmap(f)(jnp.zeros(2))

    err = same(build)
    assert isinstance(err, ValueError), err
    line = _first_line(err)
    assert line.startswith("only one reference to a mutable array may be passed as an argument")
    where = "args[1] and args[2]" if case == "two_refs" else "args[0] and args[1]"
    assert line.endswith(
        f"the mutable array reference of type Ref{{float32[]}} appeared at both {where}."
    )


def test_while_same_ref_written_in_cond_and_body_raises_like_jax():
    def build(m):
        jx, lax, jnp = m.jx, m.lax, m.jnp
        r = jx.new_ref(jnp.float32(0.0))

        def c(x):
            r[...] += 1.0
            return x < 4

        def b(x):
            r[...] += 10.0
            return x + 1

        return jx.jit(lambda: lax.while_loop(c, b, 0))()

    err = same(build)
    assert isinstance(err, NotImplementedError), err
    assert _first_line(err) == "Cannot write to the same ref in both cond and body of while loop."


def test_while_cond_fun_reads_body_written_ref_as_before_the_loop_like_jax():
    # jaxlite's cond_fun saw the body's writes (5 iterations here); JAX's, under jit, sees
    # the ref as it was before the loop (1 iteration).
    def build(m):
        jx, lax, jnp = m.jx, m.lax, m.jnp
        r = jx.new_ref(jnp.float32(1.0))
        s = jx.new_ref(jnp.float32(1.0))

        def b(x):
            r[...] = 5.0
            return x + 1

        def b2(x):
            s[...] = s[...] + 1
            return x + 1

        first = jx.jit(lambda: lax.while_loop(lambda x: x < r[...], b, 0.0))()
        second = jx.jit(lambda: lax.while_loop(lambda x: x < 3 * s[...] - 5, b2, 0.0))()
        return first, r[...], second, s[...]

    out = same(build)
    assert [float(x) for x in out] == [1.0, 5.0, 0.0, 1.0]
