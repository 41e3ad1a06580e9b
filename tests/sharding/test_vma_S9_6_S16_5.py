# ruff: noqa: E501 (check scripts are data: long lines keep exact JAX messages whole)
"""S9.6, S10.3, S16.5 (spec/sharding.md): varying-manual-axes types inside shard_map bodies
(check_vma=True): jax.typeof(x).mat.varying, the implicit pvary and its transpose (grad with
respect to a replicated input sums over devices), pcast, and JAX's errors for mismatched
loop carries, cond branches and custom_vjp cotangents. Also run in oracle mode."""

from tests.sharding._subproc import run

_PRELUDE = """
m4 = jax.make_mesh((4,), ("i",), axis_types=(AxisType.Auto,))
m22 = jax.make_mesh((2, 2), ("x", "y"), axis_types=(AxisType.Auto,) * 2)
x8 = jnp.arange(8.)
lax = jax.lax
def sm(f, ins=P("i"), outs=P("i"), mesh=None, **kw):
    return jax.shard_map(f, mesh=m4 if mesh is None else mesh, in_specs=ins, out_specs=outs, **kw)
def eager_and_jit(f, *args):
    a, b = np.asarray(f(*args)), np.asarray(jax.jit(f)(*args))
    np.testing.assert_allclose(a, b, rtol=1e-6)
    return a
"""


def test_S9_6_types_inside_the_body():
    run(
        _PRELUDE,
        """
        seen = {}
        def body(a, w):
            t = lambda v: jax.typeof(v).str_short()
            seen.update(
                a=t(a), w=t(w), mixed=t(a * w), zl=t(jnp.zeros_like(a)), ol=t(jnp.ones_like(a)),
                fl=t(lax.full_like(a, 3)), idx=t(lax.axis_index("i")), ps=t(lax.psum(a, "i")),
                ones=t(jnp.ones(2)), red=t(a.sum()), pc=t(lax.pcast(w, "i", to="varying")),
                ag=t(lax.all_gather(a, "i")), agi=t(lax.all_gather(a, "i", to="invarying")),
                pp=t(lax.ppermute(w, "i", [(0, 1)])), pmax=t(lax.pmax(w, "i")),
                cb=t(jax.pure_callback(lambda v: np.asarray(v), jax.ShapeDtypeStruct((2,), jnp.float32), a)),
            )
            seen["varying"] = jax.typeof(a).mat.varying
            seen["inv"] = jax.typeof(w).mat.varying
            return a
        sm(body, ins=(P("i"), P()))(x8, jnp.ones(2))
        assert seen["a"] == "float32[2]{V:i}" and seen["w"] == "float32[2]", seen
        assert seen["mixed"] == seen["zl"] == seen["ol"] == seen["fl"] == "float32[2]{V:i}", seen
        assert seen["idx"] == "int32[]{V:i}" and seen["ps"] == "float32[2]", seen
        assert seen["ones"] == "float32[2]" and seen["red"] == "float32[]{V:i}", seen
        assert seen["pc"] == "float32[2]{V:i}" and seen["ag"] == "float32[4,2]{V:i}", seen
        assert seen["agi"] == "float32[4,2]" and seen["pp"] == "float32[2]{V:i}", seen
        assert seen["pmax"] == "float32[2]", seen
        assert seen["cb"] == "float32[2]", seen  # callback results are typed invariant
        assert seen["varying"] == frozenset({"i"}) and seen["inv"] == frozenset(), seen
        # two axes: partial replication, and the (x,y) form
        s2 = {}
        def body2(a):
            s2["a"] = jax.typeof(a).str_short()
            s2["both"] = jax.typeof(lax.axis_index(("x", "y"))).str_short()
            s2["psy"] = jax.typeof(lax.psum(a, "y")).str_short()
            return a
        sm(body2, P("x"), P("x"), mesh=m22)(x8)
        assert s2 == {"a": "float32[4]{V:x}", "both": "int32[]{V:(x,y)}", "psy": "float32[4]{V:x}"}, s2
        # check_vma=False: no types
        s3 = {}
        def body3(a):
            s3["a"] = jax.typeof(a).str_short()
            s3["pc"] = jax.typeof(lax.pcast(a, "i", to="varying")).str_short()
            s3["idx"] = jax.typeof(lax.axis_index("i")).str_short()
            return a
        sm(body3, check_vma=False)(x8)
        assert s3 == {"a": "float32[2]", "pc": "float32[2]", "idx": "int32[]"}, s3
        # pcast errors (0.10.2: only to='varying', from invariant)
        def bad(a, w):
            raises(ValueError, "Unsupported pcast from=varying, to='varying'", lax.pcast, a, "i", to="varying")
            raises(ValueError, "Got unexpected `to` value. Allowed `to` values are: ", lax.pcast, w, "i", to="invariant")
            raises(TypeError, "must be a tuple or a str", lax.pcast, w, {"i"}, to="varying")
            return a
        sm(bad, ins=(P("i"), P()))(x8, jnp.ones(2))
        raises(ValueError, "pvary should be called under jax.shard_map.", lax.pcast, x8, "i", to="varying")
        assert hasattr(lax, "pcast") and not hasattr(lax, "pvary")
        # pbroadcast exists but JAX's CPU backend cannot run it
        raises(NotImplementedError, "MLIR translation rule for primitive 'pbroadcast' not found for platform cpu",
               sm(lambda a: lax.pbroadcast(a, "i", 1)), x8)
        # out_specs inconsistent with the replication (S9.6), and the m22 text
        raises(ValueError, "was given out_specs which require replication", sm(lambda a: a, outs=P()), x8)
        raises(ValueError, "out_specs is P() which implies that the corresponding output value is replicated across mesh axis 'i', but could not infer replication over any axes",
               sm(lambda a: lax.all_gather(a, "i"), outs=P()), x8)
        e = raises(ValueError, "The mesh given has shape (2, 2) with corresponding axis names ('x', 'y').",
                   sm(lambda a: a, P("x", "y"), P("x"), mesh=m22), jnp.arange(16.).reshape(4, 4))
        assert "out_specs is P('x',) which implies that the corresponding output value is replicated across mesh axis 'y'" in str(e)
        assert sm(lambda a: lax.psum(a, "y"), P("x", "y"), P("x"), mesh=m22)(jnp.arange(16.).reshape(4, 4)).shape == (4, 2)
        assert np.asarray(sm(lambda a: lax.all_gather(a, "i", to="invarying", tiled=True), outs=P())(x8)).tolist() == np.arange(8.).tolist()
        """,
        n_devices=4,
    )


def test_S16_5_grad_of_invariant_inputs_sums_over_devices():
    run(
        _PRELUDE,
        """
        g = lambda w, a: jax.grad(lambda w: (w * a).sum())(w)[None]
        # inside the body: the sum over devices (28 = sum of arange(8)), eagerly and under jit
        assert eager_and_jit(sm(g, ins=(P(), P("i"))), 2.0, x8).tolist() == [28.0] * 4
        # pcast first, or check_vma=False: per-device gradients
        g2 = lambda w, a: jax.grad(lambda w: (w * a).sum())(lax.pcast(w, "i", to="varying"))[None]
        assert eager_and_jit(sm(g2, ins=(P(), P("i"))), 2.0, x8).tolist() == [1.0, 5.0, 9.0, 13.0]
        assert eager_and_jit(sm(g, ins=(P(), P("i")), check_vma=False), 2.0, x8).tolist() == [1.0, 5.0, 9.0, 13.0]
        # "grad inside, then pmean" is N times the data-parallel gradient on N devices
        gp = lambda w, a: lax.pmean(jax.grad(lambda w: (w * a).sum())(w), "i")
        assert float(sm(gp, ins=(P(), P("i")), outs=P())(2.0, x8)) == 28.0
        # collectives inside: psum, pmean, all_gather (varying, invarying), ppermute
        def inside(loss):
            return sm(lambda w, a: jax.grad(loss)(w, a)[None], ins=(P(), P("i")))(2.0, x8).tolist()
        assert inside(lambda w, a: lax.psum((w * a).sum(), "i")) == [28.0] * 4
        assert inside(lambda w, a: lax.psum(w * w, "i")) == [16.0] * 4
        assert inside(lambda w, a: lax.pmean(w * a, "i").sum()) == [7.0] * 4
        assert inside(lambda w, a: lax.all_gather(w * a, "i").sum()) == [112.0] * 4
        assert inside(lambda w, a: lax.all_gather(w * a, "i", to="invarying").sum()) == [28.0] * 4
        assert inside(lambda w, a: (lax.ppermute(w * a, "i", [(j, (j + 1) % 4) for j in range(4)]) * a).sum()) == [92.0] * 4
        assert inside(lambda w, a: jnp.dot(a, jnp.stack([w, w])).sum()) == [28.0] * 4
        # from outside: grad of the shard_map w.r.t. its P() input (no double counting)
        f = sm(lambda w, a: lax.psum((w * a).sum(), "i"), ins=(P(), P("i")), outs=P())
        assert float(jax.grad(f)(2.0, x8)) == 28.0
        assert float(jax.jit(jax.grad(f))(2.0, x8)) == 28.0
        assert np.asarray(jax.grad(f, 1)(2.0, x8)).tolist() == [2.0] * 8
        f2 = sm(lambda w, a: w * a, ins=(P(), P("i")))
        assert float(jax.grad(lambda w: f2(w, x8).sum())(2.0)) == 28.0
        f3 = sm(lambda w: lax.psum(w, "i"), ins=P(), outs=P())
        assert float(f3(2.0)) == 8.0 and float(jax.grad(f3)(2.0)) == 4.0
        # vmap of grad of shard_map, and vmap inside the body
        assert np.asarray(jax.vmap(jax.grad(f), in_axes=(0, None))(jnp.array([1.0, 2.0]), x8)).tolist() == [28.0, 28.0]
        vin = sm(lambda w, a: jax.vmap(jax.grad(lambda w: (w * a).sum()))(w)[None], ins=(P(), P("i")))
        assert np.asarray(vin(jnp.array([1.0, 2.0]), x8)).tolist() == [[28.0, 28.0]] * 4
        # jit, custom_jvp, scan inside the body
        inner = jax.jit(lambda w, a: w * a)
        b = lambda w, a: (jax.grad(lambda w: inner(w, a).sum())(w) + jax.grad(lambda w: inner(w, w).sum())(w))[None]
        assert sm(b, ins=(P(), P("i")))(2.0, x8).tolist() == [32.0] * 4
        @jax.custom_jvp
        def cj(w, a):
            return jnp.sin(w) * a
        cj.defjvp(lambda p, t: (cj(*p), jnp.cos(p[0]) * t[0] * p[1] + jnp.sin(p[0]) * t[1]))
        r = sm(lambda w, a: jax.grad(lambda w: cj(w, a).sum())(w)[None], ins=(P(), P("i")))(2.0, x8)
        np.testing.assert_allclose(np.asarray(r), [28 * np.cos(2.0)] * 4, rtol=1e-5)
        def sb(w, a):
            loss = lambda w: lax.scan(lambda c, v: (c + w * v, None), jnp.zeros_like(a[0]), a)[0]
            return jax.grad(loss)(w)[None]
        assert sm(sb, ins=(P(), P("i")))(2.0, x8).tolist() == [28.0] * 4
        # a callback's result is invariant-typed: no sum (as JAX)
        def pcb(w, a):
            c = lambda: jax.pure_callback(lambda v: np.asarray(v), jax.ShapeDtypeStruct(a.shape, a.dtype), a)
            return jax.grad(lambda w: (w * c()).sum())(w)[None]
        assert sm(pcb, ins=(P(), P("i")))(2.0, x8).tolist() == [1.0, 5.0, 9.0, 13.0]
        # 2-axis mesh, partial replication: a varies along x only, w along nothing / y
        y = jnp.arange(16.).reshape(4, 4)
        h = lambda w, a: jax.grad(lambda w: (w * a).sum())(w)[None, None]
        assert np.asarray(sm(h, (P(), P("x")), P("x", "y"), mesh=m22)(2.0, y)).tolist() == [[120.0] * 2] * 2
        fo = lambda w, a: sm(lambda w, a: lax.psum(w * a, "x"), (P("y"), P("x", "y")), P(None, "y"), mesh=m22)(w, a).sum()
        gw, ga = jax.grad(fo, (0, 1))(jnp.ones(4), y)
        assert np.asarray(gw).tolist() == [24.0, 28.0, 32.0, 36.0] and np.asarray(ga).tolist() == [[1.0] * 4] * 4
        """,
        n_devices=4,
    )


def test_S9_6_carry_and_branch_types():
    run(
        _PRELUDE,
        """
        sc = lambda a: lax.scan(lambda c, v: (c + v, None), 0., a)[0][None]
        e = raises(TypeError, "scan body function carry input and carry output must have equal types, but they differ:", sm(sc), x8)
        assert str(e) == (
            "scan body function carry input and carry output must have equal types, but they differ:\\n\\n"
            "The input carry c has type float32[] but the corresponding output carry component has type float32[]{V:i}, so the manual axis types do not match.\\n\\n"
            "This might be fixed by applying `jax.lax.pcast(..., ('i',), to='varying')`, to the initial carry value corresponding to the input carry c.\\n"
            "See https://docs.jax.dev/en/latest/notebooks/shard_map.html#scan-vma for more information.\\n\\n"
            "Revise the function so that all output types match the corresponding input types."
        ), str(e)
        raises(TypeError, "scan body function carry input", jax.jit(sm(sc)), x8)
        ok = lambda a: lax.scan(lambda c, v: (c + v, None), jnp.zeros_like(a[0]), a)[0][None]
        assert sm(ok)(x8).tolist() == [1.0, 5.0, 9.0, 13.0]
        fixed = lambda a: lax.scan(lambda c, v: (c + v, None), lax.pcast(0., "i", to="varying"), a)[0][None]
        assert sm(fixed)(x8).tolist() == [1.0, 5.0, 9.0, 13.0]
        wl = lambda a: lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] + a), (0, jnp.zeros(2)))[1]
        raises(TypeError, "The input carry component c[1] has type float32[2] but the corresponding output carry component has type float32[2]{V:i}, so the manual axis types do not match.", sm(wl), x8)
        cd = lambda a, w: lax.cond(w[0] > 2, lambda: a, lambda: w)
        raises(TypeError, "The output of true_fun has type float32[2]{V:i} but the corresponding output of false_fun has type float32[2], so the manual axis types do not match.",
               sm(cd, ins=(P("i"), P())), x8, jnp.ones(2))
        @jax.custom_vjp
        def cv(w, a):
            return w * a
        cv.defvjp(lambda w, a: (w * a, (w, a)), lambda r, g: ((g * r[1]).sum(), g * r[0]))
        raises(ValueError, "the bwd rule produced an output of type float32[]{V:i} corresponding to an input of type float32[], so the manual axis types do not match",
               sm(lambda w, a: jax.grad(lambda w: cv(w, a).sum())(w)[None], ins=(P(), P("i"))), 2.0, x8)
        # the rule summing its cotangent itself is fine
        cv.defvjp(lambda w, a: (w * a, (w, a)), lambda r, g: (lax.psum((g * r[1]).sum(), "i"), g * r[0]))
        assert sm(lambda w, a: jax.grad(lambda w: cv(w, a).sum())(w)[None], ins=(P(), P("i")))(2.0, x8).tolist() == [28.0] * 4
        """,
        n_devices=4,
    )
