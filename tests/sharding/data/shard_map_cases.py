"""shard_map programs under jit, grad, jit(grad) and vmap (run by test_differential.py with
jaxlite and with JAX; the printed figures must agree)."""

import sys

import numpy as np

if sys.argv[1] == "jax":
    import jax

    jax.config.update("jax_num_cpu_devices", 4)
    import jax.numpy as jnp
else:
    import jaxlite as jax

    jax.config.update("jax_num_cpu_devices", 4)
    import jaxlite.numpy as jnp
P, AxisType = jax.sharding.PartitionSpec, jax.sharding.AxisType
m = jax.make_mesh((4,), ("i",), axis_types=(AxisType.Auto,))
m22 = jax.make_mesh((2, 2), ("x", "y"), axis_types=(AxisType.Auto,) * 2)
lax = jax.lax


def sm(f, ins, outs, mesh=m, **kw):
    return jax.shard_map(f, mesh=mesh, in_specs=ins, out_specs=outs, **kw)


x = jnp.asarray(np.random.RandomState(0).randn(8, 4).astype(np.float32))
w = jnp.asarray(np.random.RandomState(1).randn(4, 3).astype(np.float32))
cases = {
    "mlp_pmean": (
        sm(lambda a, w: lax.pmean(jnp.tanh(a @ w).sum(), "i")[None], (P("i"), P()), P()),
        (x, w),
    ),
    "psum_sq": (sm(lambda a, w: lax.psum((a @ w) ** 2, "i"), (P("i"), P()), P()), (x, w)),
    "ag_matmul": (
        sm(lambda a, w: lax.all_gather(a, "i", tiled=True) @ w, (P("i"), P()), P("i")),
        (x, w),
    ),
    "ppermute_mix": (
        sm(
            lambda a, w: jnp.sin(lax.ppermute(a, "i", [(0, 1), (1, 2), (2, 3), (3, 0)])) @ w,
            (P("i"), P()),
            P("i"),
        ),
        (x, w),
    ),
    "psum_scatter": (
        sm(
            lambda a, w: lax.psum_scatter(a @ w, "i", tiled=True),
            (P(None), P()),
            P("i"),
            check_vma=False,
        ),
        (x, w),
    ),
    "2d_mesh": (
        sm(
            lambda a, w: lax.psum(a, "x") @ lax.pmean(w, "y"),
            (P("x", "y"), P("y")),
            P(None, "y"),
            mesh=m22,
        ),
        (x, w),
    ),
    "a2a": (
        sm(
            lambda a, w: lax.all_to_all(a, "i", 1, 0, tiled=True) * 2.0,
            (P("i", None), P()),
            P(None, "i"),
        ),
        (x, w),
    ),
}
nocheck = {
    "nocheck_psum": (
        sm(lambda a, w: lax.psum(a @ w, "i"), (P("i"), P()), P(), check_vma=False),
        (x, w),
    ),
    "nocheck_ag": (
        sm(
            lambda a, w: lax.all_gather(a, "i", tiled=True) @ w, (P("i"), P()), P(), check_vma=False
        ),
        (x, w),
    ),
    "nocheck_psum_inv": (
        sm(lambda a, w: lax.psum(w, "i"), (P("i"), P()), P(), check_vma=False),
        (x, w),
    ),
}
# grad *inside* the body with respect to a replicated (P()) input: JAX sums it over the
# devices (the transpose of the implicit pvary, S16.5), unlike a per-device vmap-style grad.
inside = {
    "inside_grad_w": (
        sm(lambda a, w: jax.grad(lambda w: jnp.tanh(a @ w).sum())(w), (P("i"), P()), P()),
        (x, w),
    ),
    "inside_grad_pmean": (
        sm(
            lambda a, w: lax.pmean(jax.grad(lambda w: ((a @ w) ** 2).sum())(w), "i"),
            (P("i"), P()),
            P(),
        ),
        (x, w),
    ),
    "inside_grad_psum": (
        sm(
            lambda a, w: jax.grad(lambda w: lax.psum(jnp.sin(a @ w), "i").sum())(w),
            (P("i"), P()),
            P(),
        ),
        (x, w),
    ),
    "inside_grad_ag": (
        sm(
            lambda a, w: jax.grad(lambda w: jnp.cos(lax.all_gather(a @ w, "i", tiled=True)).sum())(
                w
            ),
            (P("i"), P()),
            P(),
        ),
        (x, w),
    ),
    "inside_grad_ag_inv": (
        sm(
            lambda a, w: jax.grad(
                lambda w: jnp.cos(lax.all_gather(a @ w, "i", tiled=True, to="invarying")).sum()
            )(w),
            (P("i"), P()),
            P(),
        ),
        (x, w),
    ),
    "inside_grad_ppermute": (
        sm(
            lambda a, w: jax.grad(
                lambda w: (
                    lax.ppermute(a @ w, "i", [(0, 1), (1, 2), (2, 3), (3, 0)]) * (a @ w)
                ).sum()
            )(w),
            (P("i"), P()),
            P(),
        ),
        (x, w),
    ),
    "inside_grad_pcast": (
        sm(
            lambda a, w: jax.grad(lambda w: jnp.tanh(a @ w).sum())(lax.pcast(w, "i", to="varying")),
            (P("i"), P()),
            P("i"),
        ),
        (x, w),
    ),
    "inside_grad_2d_partial": (
        sm(
            lambda a, w: jax.grad(lambda w: jnp.sin(a @ w).sum())(w),
            (P("x"), P()),
            P(),
            mesh=m22,
        ),
        (x, w),
    ),
    "inside_grad_2d_inner": (
        sm(
            lambda a, w: jax.grad(lambda w: jnp.tanh(lax.psum(a @ w, "y")).sum())(w),
            (P("x", "y"), P("y")),
            P("y"),
            mesh=m22,
        ),
        (x, w),
    ),
    "inside_grad_scan": (
        sm(
            lambda a, w: jax.grad(
                lambda w: lax.scan(
                    lambda c, r: (c + jnp.sin(r @ w), None),
                    lax.pcast(jnp.zeros(3), "i", to="varying"),
                    a,
                )[0].sum()
            )(w),
            (P("i"), P()),
            P(),
        ),
        (x, w),
    ),
    # a callback's result is typed invariant but differs between devices: as a residual
    # each device must get its own back
    "callback_residual": (
        sm(
            lambda a, w: (
                jnp.sum(
                    jax.pure_callback(
                        lambda v: np.asarray(v) ** 2,
                        jax.ShapeDtypeStruct(a.shape, a.dtype),
                        lax.stop_gradient(a),
                        vmap_method="sequential",
                    )
                    * lax.psum(a, "i")
                )
                * w
            ),
            (P("i"), P()),
            P("i"),
        ),
        (x, w),
    ),
    "outside_2d_partial": (
        sm(lambda a, w: lax.psum(jnp.sin(a @ w), "x"), (P("x"), P()), P(), mesh=m22),
        (x, w),
    ),
}
cases.update(nocheck)
cases.update(inside)
for name, (f, args) in cases.items():
    try:
        val = np.asarray(jax.jit(f)(*args))
        g = jax.grad(lambda *a: (f(*a) ** 2).sum(), argnums=(0, 1))(*args)
        gj = jax.jit(jax.grad(lambda *a: jnp.sin(f(*a)).sum(), argnums=(0, 1)))(*args)
        vm = jax.vmap(f, in_axes=(0, None))(jnp.stack([x, 2 * x]), w)
        figures = [val.sum()] + [np.asarray(t).sum() for t in (*g, *gj)] + [np.asarray(vm).sum()]
        print(name, " ".join(f"{float(v):.6e}" for v in figures))
    except Exception as e:
        print(name, "ERR", type(e).__name__, str(e)[:150])
