"""Each library's README quick-start, as a function returning the numbers it computes.

Run as a script, in a fresh interpreter: ``python quickstarts.py jaxlite|jax LIB...``
prints one JSON line per library, ``{"lib": ..., "values": {...}}`` or ``{"lib": ...,
"error": ...}``. With ``jaxlite`` it first calls ``jaxlite.install_as_jax()``, so the
libraries (and the code below, written for JAX) run on jaxlite. The test compares the two
engines' values.
"""

import io
import json
import sys
import traceback

if __name__ == "__main__" and sys.argv[1] == "jaxlite":
    import jaxlite

    jaxlite.install_as_jax()

import numpy as np  # noqa: E402


def _flat(tree):
    import jax

    return [
        np.asarray(x, dtype=np.float64).ravel().tolist() for x in jax.tree_util.tree_leaves(tree)
    ]


def _regression_data():
    import jax.numpy as jnp

    x = jnp.linspace(-1.0, 1.0, 32).reshape(16, 2)
    y = x @ jnp.array([1.5, -2.0]) + 0.3
    return x, y


def quick_optax():
    import jax
    import jax.numpy as jnp
    import optax

    x, y = _regression_data()

    def loss(p):
        return jnp.mean((x @ p["w"] + p["b"] - y) ** 2)

    params = {"w": jnp.zeros(2), "b": jnp.zeros(())}
    optimizers = {
        "adam": optax.adam(0.1),
        "adamw_cosine": optax.adamw(
            optax.warmup_cosine_decay_schedule(0.0, 0.1, 5, 50), weight_decay=1e-2
        ),
        "chain_clip_sgd": optax.chain(
            optax.clip_by_global_norm(1.0), optax.sgd(optax.exponential_decay(0.1, 10, 0.5))
        ),
    }
    out = {}
    for name, opt in optimizers.items():
        for mode in ("eager", "jit"):

            def step(p, s, opt=opt):
                value, grads = jax.value_and_grad(loss)(p)
                updates, s = opt.update(grads, s, p)
                return optax.apply_updates(p, updates), s, value

            step = jax.jit(step) if mode == "jit" else step
            p, state = params, opt.init(params)
            for _ in range(20):
                p, state, value = step(p, state)
            out[f"{name}_{mode}"] = _flat(p) + [float(value)]
    return out


def quick_equinox():
    import equinox as eqx
    import jax
    import jax.numpy as jnp

    x, y = _regression_data()
    model = eqx.nn.MLP(
        in_size=2, out_size="scalar", width_size=8, depth=2, key=jax.random.PRNGKey(0)
    )

    @eqx.filter_jit
    def step(model):
        def loss(m):
            return jnp.mean((jax.vmap(m)(x) - y) ** 2)

        value, grads = eqx.filter_value_and_grad(loss)(model)
        model = eqx.apply_updates(model, jax.tree_util.tree_map(lambda g: -0.05 * g, grads))
        return model, value

    losses = []
    for _ in range(10):
        model, value = step(model)
        losses.append(float(value))
    grads = eqx.filter_grad(lambda m: jnp.sum(m(x[0])))(model)
    return {
        "losses": losses,
        "params": _flat(eqx.filter(model, eqx.is_array)),
        "grad": _flat(grads),
    }


def quick_flax():
    import flax.linen as nn
    import jax
    import jax.numpy as jnp

    class MLP(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nn.Dense(2)(nn.relu(nn.Dense(4)(x)))

    x = jnp.linspace(-1.0, 1.0, 6).reshape(2, 3)
    model = MLP()
    variables = model.init(jax.random.PRNGKey(0), x)
    y = model.apply(variables, x)
    y_jit = jax.jit(model.apply)(variables, x)
    return {"params": _flat(variables), "y": _flat(y), "y_jit": _flat(y_jit)}


def quick_chex():
    import chex
    import jax
    import jax.numpy as jnp

    @chex.dataclass
    class State:
        w: chex.Array
        step: int

    s = State(w=jnp.ones(3), step=2)
    s2 = jax.tree_util.tree_map(lambda v: v * 2, s)
    chex.assert_shape(s2.w, (3,))
    chex.assert_trees_all_close(s2.w, jnp.full(3, 2.0))
    chex.assert_type(s2.w, float)
    caught = []
    for check in (
        lambda: chex.assert_shape(s2.w, (4,)),
        lambda: chex.assert_trees_all_close(s2.w, jnp.zeros(3)),
        lambda: chex.assert_rank(s2.w, 2),
    ):
        try:
            check()
        except AssertionError:
            caught.append(1.0)

    @jax.jit
    def f(v):
        chex.assert_shape(v, (3,))
        return v.sum()

    return {"w": _flat(s2.w), "step": [float(s2.step)], "caught": caught, "jit": [float(f(s2.w))]}


def quick_jax_tqdm():
    import jax
    import jax.numpy as jnp
    from jax_tqdm import loop_tqdm, scan_tqdm

    err = io.StringIO()
    saved, sys.stderr = sys.stderr, err
    try:
        n = 50

        @scan_tqdm(n)
        def body(carry, i):
            return carry + i * 0.5, carry

        total, ys = jax.lax.scan(body, 0.0, jnp.arange(n))

        @loop_tqdm(n)
        def loop_body(i, val):
            return val + jnp.sin(i * 1.0)

        looped = jax.lax.fori_loop(0, n, loop_body, 0.0)

        @scan_tqdm(20)
        def vbody(carry, i):
            return carry * 1.01, carry

        def run(c0):
            return jax.lax.scan(vbody, c0, jnp.arange(20))[0]

        batched = jax.vmap(run)(jnp.array([1.0, 2.0, 3.0]))
        jitted = jax.jit(lambda: jax.lax.scan(body, 0.0, jnp.arange(n)))()[0]
    finally:
        sys.stderr = saved
    text = err.getvalue()
    return {
        "total": [float(total)],
        "ys": _flat(ys),
        "looped": [float(looped)],
        "batched": _flat(batched),
        "jitted": [float(jitted)],
        "bars_completed": [float(text.count(f"{n}/{n}")), float(text.count("20/20") > 0)],
    }


def quick_distrax():
    import distrax
    import jax
    import jax.numpy as jnp

    d = distrax.Normal(loc=jnp.array([0.0, 1.0]), scale=jnp.array([1.0, 0.5]))
    x = jnp.array([0.3, 0.2])
    samples = d.sample(seed=jax.random.PRNGKey(0), sample_shape=(3,))
    lp_jit = jax.jit(d.log_prob)(x)
    return {
        "log_prob": _flat(d.log_prob(x)),
        "log_prob_jit": _flat(lp_jit),
        "samples": _flat(samples),
        "entropy": _flat(d.entropy()),
        "grad": _flat(jax.grad(lambda m: distrax.Normal(m, 1.0).log_prob(0.5))(0.2)),
    }


def quick_diffrax():
    import diffrax
    import jax
    import jax.numpy as jnp

    term = diffrax.ODETerm(lambda t, y, args: -y)
    saveat = diffrax.SaveAt(ts=jnp.linspace(0.0, 1.0, 5))

    def solve(y0):
        sol = diffrax.diffeqsolve(
            term, diffrax.Tsit5(), t0=0.0, t1=1.0, dt0=0.1, y0=y0, saveat=saveat
        )
        return sol.ys

    return {"ys": _flat(solve(1.0)), "ys_jit": _flat(jax.jit(solve)(jnp.array([1.0, 2.0])))}


def quick_jaxtyping():
    import jax.numpy as jnp
    from jaxtyping import Array, ArrayLike, Float, Int

    a = jnp.ones((2, 3))
    checks = [
        isinstance(a, Float[Array, "b c"]),
        isinstance(a, Float[Array, "b"]),
        isinstance(a.astype(jnp.int32), Int[Array, "b c"]),
        isinstance(a, Int[Array, "b c"]),
        isinstance(1.0, Float[ArrayLike, ""]),
        isinstance(a, Float[ArrayLike, "2 3"]),
    ]
    return {"checks": [float(c) for c in checks]}


def quick_lineax():
    import jax
    import jax.numpy as jnp
    import lineax as lx

    a = jnp.array([[3.0, 1.0], [1.0, 2.0]])
    b = jnp.array([9.0, 8.0])
    op = lx.MatrixLinearOperator(a)
    sol = lx.linear_solve(op, b)
    sol_jit = jax.jit(lambda b: lx.linear_solve(op, b, solver=lx.LU()).value)(b)
    return {"x": _flat(sol.value), "x_jit": _flat(sol_jit)}


def quick_optimistix():
    import jax.numpy as jnp
    import optimistix as optx

    def fn(y, args):
        return jnp.tanh(y + 1) - y

    sol = optx.root_find(fn, optx.Newton(rtol=1e-6, atol=1e-6), jnp.array(0.5))
    return {"root": _flat(sol.value)}


def quick_numpyro():
    import jax
    import numpyro
    import numpyro.distributions as dist
    from numpyro.infer import MCMC, NUTS, SVI, Predictive, Trace_ELBO
    from numpyro.infer.autoguide import AutoNormal

    y = np.array([28.0, 8.0, -3.0, 7.0, -1.0, 1.0, 18.0, 12.0])
    sigma = np.array([15.0, 10.0, 16.0, 11.0, 9.0, 11.0, 10.0, 18.0])

    def eight_schools(sigma, y=None):
        mu = numpyro.sample("mu", dist.Normal(0, 5))
        tau = numpyro.sample("tau", dist.HalfCauchy(5))
        with numpyro.plate("J", len(sigma)):
            theta = numpyro.sample("theta", dist.Normal(mu, tau))
            numpyro.sample("obs", dist.Normal(theta, sigma), obs=y)

    # No warmup: step-size adaptation over long trajectories amplifies float32 rounding
    # until the chains part (docs/ecosystem.md); draws at the initial step size agree.
    mcmc = MCMC(NUTS(eight_schools), num_warmup=0, num_samples=8, progress_bar=False)
    mcmc.run(jax.random.PRNGKey(0), sigma, y=y, extra_fields=("potential_energy", "num_steps"))
    guide = AutoNormal(eight_schools)
    svi = SVI(eight_schools, guide, numpyro.optim.Adam(0.01), Trace_ELBO())
    res = svi.run(jax.random.PRNGKey(1), 100, sigma, y=y, progress_bar=False)
    pred = Predictive(eight_schools, guide=guide, params=res.params, num_samples=4)
    return {
        "nuts_samples": _flat(mcmc.get_samples()),
        "nuts_extra": _flat(mcmc.get_extra_fields()),
        "svi_losses": _flat(res.losses),
        "svi_params": _flat(res.params),
        "predictive": _flat(pred(jax.random.PRNGKey(2), sigma)),
    }


def quick_blackjax():
    import blackjax
    import jax
    import jax.numpy as jnp
    import jax.scipy.stats as stats

    # The README's NUTS example, with a smaller data set and step size 0.5 (the README's
    # 1e-3 builds 500-step trajectories: minutes per 100 draws on jaxlite's Python tier).
    observed = np.random.default_rng(0).normal(10, 20, size=50)

    def logdensity_fn(x):
        return jnp.sum(stats.norm.logpdf(observed, x["loc"], x["scale"]))

    init = {"loc": 10.0, "scale": 20.0}
    nuts = blackjax.nuts(logdensity_fn, 0.5, jnp.array([0.4, 0.2]))
    state = nuts.init(init)
    step = jax.jit(nuts.step)
    steps = []
    for i in range(20):
        state, info = step(jax.random.fold_in(jax.random.key(0), i), state)
        steps.append(int(info.num_integration_steps))
    out = {"nuts_position": _flat(state.position), "nuts_steps": steps}

    def inference_loop(kernel, key, state, n):
        def one(state, key):
            state, info = kernel.step(key, state)
            return state, (state.position, info.acceptance_rate)

        return jax.lax.scan(one, state, jax.random.split(key, n))[1]

    # Acceptance rates and adapted step sizes in float64: in float32 they carry the
    # rounding of a 50-term log density (a few ulps of ~200), as on JAX itself.
    with jax.enable_x64(True):
        hmc = blackjax.hmc(logdensity_fn, 0.5, jnp.array([0.4, 0.2]), 5)
        out["hmc"] = _flat(inference_loop(hmc, jax.random.key(2), hmc.init(init), 30))
        mala = blackjax.mala(logdensity_fn, 0.1)
        out["mala"] = _flat(inference_loop(mala, jax.random.key(3), mala.init(init), 30))
        warmup = blackjax.window_adaptation(blackjax.nuts, logdensity_fn)
        (st, params), _ = warmup.run(jax.random.key(1), init, num_steps=10)
        out["window_adaptation"] = _flat((st.position, params))
    return out


def quick_jaxopt():
    import jax
    import jax.numpy as jnp
    import jaxopt

    out = {}
    # float64: the solvers stop on tolerances, where float32 rounding picks the iterate.
    with jax.enable_x64(True):
        rng = np.random.default_rng(0)
        X = jnp.asarray(rng.normal(size=(30, 5)))
        y = X @ (jnp.arange(5.0) - 2.0) + 0.1 * jnp.asarray(rng.normal(size=30))
        w0 = jnp.zeros(5)

        def ridge(w, l2reg, X, y):
            return jnp.mean((X @ w - y) ** 2) + 0.5 * l2reg * jnp.sum(w**2)

        # The README's example: L-BFGS on a ridge regression, and the solution's
        # derivative in the regularisation by implicit differentiation.
        res = jaxopt.LBFGS(fun=ridge, maxiter=50).run(w0, l2reg=0.1, X=X, y=y)
        out["lbfgs"] = _flat(res.params) + [int(res.state.iter_num)]

        def solution(l2reg):
            return jaxopt.LBFGS(fun=ridge, maxiter=100, tol=1e-8).run(w0, l2reg, X, y).params

        out["implicit_jacobian"] = _flat(jax.jacobian(solution)(0.1))

        def least_squares(w, data):
            X, y = data
            return jnp.mean((X @ w - y) ** 2)

        pg = jaxopt.ProximalGradient(
            fun=least_squares, prox=jaxopt.prox.prox_lasso, maxiter=200, jit=True
        )
        out["lasso"] = _flat(pg.run(w0, hyperparams_prox=0.5, data=(X, y)).params)
        bisection = jaxopt.Bisection(lambda x: x**3 - x - 2.0, lower=1.0, upper=2.0, tol=1e-10)
        out["bisection"] = _flat(bisection.run().params)
        Q = 2 * jnp.array([[2.0, 0.5], [0.5, 1.0]])
        c = jnp.array([1.0, 1.0])
        eq = (jnp.array([[1.0, 1.0]]), jnp.array([1.0]))
        ineq = (-jnp.eye(2), jnp.zeros(2))
        qp = jaxopt.OSQP(tol=1e-8).run(params_obj=(Q, c), params_eq=eq, params_ineq=ineq)
        out["osqp"] = _flat(qp.params.primal)
    return out


def quick_einops():
    import einops
    import jax
    import jax.numpy as jnp
    from einops import pack, rearrange, reduce, repeat, unpack

    images = jnp.arange(2 * 6 * 4 * 3, dtype=jnp.float32).reshape(2, 6, 4, 3) / 10.0
    out = {
        "rearrange": _flat(rearrange(images, "b h w c -> (b h) (w c)")),
        "space_to_depth": _flat(
            rearrange(images, "b (h h2) (w w2) c -> b h w (c h2 w2)", h2=2, w2=2)
        ),
        "reduce_max": _flat(reduce(images, "b (h 2) (w 2) c -> b h w c", "max")),
        "reduce_mean": _flat(reduce(images, "b h w c -> b c", "mean")),
        "repeat": _flat(repeat(images[0, :, :, 0], "h w -> h (w 2) k", k=3)),
        "einsum": _flat(einops.einsum(images, images, "b h w c, b h w c -> b c")),
        "einsum3": _flat(einops.einsum(images, images, images, "... , ..., ... -> ...")),
    }
    packed, ps = pack([images[:, 0, 0, :], images[:, :, :, 0]], "b *")
    out["pack"] = _flat(packed) + [[float(d) for shape in ps for d in shape]]
    out["unpack"] = _flat(unpack(packed, ps, "b *"))

    @jax.jit
    def loss(x):
        y = rearrange(x, "b (h h2) w c -> b h (h2 w c)", h2=2)
        return jnp.sum(reduce(y, "b h d -> b d", "mean") ** 2)

    out["jit"] = [float(loss(images))]
    out["grad"] = _flat(jax.grad(loss)(images))
    return out


def quick_haiku():
    import haiku as hk
    import jax
    import jax.numpy as jnp
    import optax

    def forward(x):
        return hk.nets.MLP([32, 16, 3])(x)

    model = hk.transform(forward)
    rng = hk.PRNGSequence(jax.random.PRNGKey(42))
    x = jnp.linspace(-1.0, 1.0, 40).reshape(8, 5)
    labels = jnp.arange(8) % 3
    params = model.init(next(rng), x)
    out = {"init": _flat(params), "apply": _flat(model.apply(params, next(rng), x))}

    def loss_fn(params, x, labels):
        logits = model.apply(params, None, x)
        return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()

    opt = optax.sgd(0.1)
    opt_state = opt.init(params)

    @jax.jit
    def update(params, opt_state, x, labels):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, labels)
        updates, opt_state = opt.update(grads, opt_state)
        return optax.apply_updates(params, updates), opt_state, loss

    losses = []
    for _ in range(3):
        params, opt_state, loss = update(params, opt_state, x, labels)
        losses.append(float(loss))
    out["sgd_losses"] = losses
    out["sgd_params"] = _flat(params)

    def unroll(xs):
        core = hk.LSTM(6)
        return hk.dynamic_unroll(core, xs, core.initial_state(2))

    lstm = hk.transform(unroll)
    xs = jnp.linspace(-0.5, 0.5, 30).reshape(5, 2, 3)
    lstm_params = lstm.init(jax.random.PRNGKey(1), xs)
    out["lstm"] = _flat(jax.jit(lstm.apply)(lstm_params, None, xs))

    def ensemble(x):
        linear = hk.vmap(lambda t: hk.Linear(4)(t), split_rng=False)
        return linear(x)

    vm = hk.transform(ensemble)
    out["vmap"] = _flat(vm.apply(vm.init(jax.random.PRNGKey(2), x), None, x))

    def cumulative(xs):
        w = hk.get_parameter("w", [5], init=hk.initializers.RandomNormal())
        return hk.scan(lambda c, t: (c + t * w, c), jnp.zeros(5), xs)

    sc = hk.transform(cumulative)
    out["scan"] = _flat(sc.apply(sc.init(jax.random.PRNGKey(3), x), None, x))

    def normed(x, is_training):
        return hk.BatchNorm(True, True, 0.9)(hk.Linear(4)(x), is_training)

    bn = hk.transform_with_state(normed)
    bn_params, bn_state = bn.init(jax.random.PRNGKey(4), x, True)
    y, bn_state = bn.apply(bn_params, bn_state, None, x, True)
    out["batchnorm"] = _flat((y, bn_state, bn.apply(bn_params, bn_state, None, x, False)[0]))
    return out


def quick_jraph():
    import jax
    import jax.numpy as jnp
    import jraph

    graph = jraph.GraphsTuple(
        nodes=jnp.array([[0.0], [1.0], [2.0]]),
        edges=jnp.array([[5.0], [6.0], [7.0]]),
        senders=jnp.array([0, 1, 2]),
        receivers=jnp.array([1, 2, 0]),
        n_node=jnp.array([3]),
        n_edge=jnp.array([3]),
        globals=jnp.array([[1.0]]),
    )
    network = jraph.GraphNetwork(
        update_edge_fn=lambda e, s, r, g: e + 2.0 * s + r,
        update_node_fn=lambda n, s, r, g: jnp.tanh(n + s - 0.5 * r),
        update_global_fn=lambda n, e, g: g + n + e,
    )
    gn = network(graph)
    out = {"gn": _flat((gn.nodes, gn.edges, gn.globals))}
    conv = jraph.GraphConvolution(lambda n: 3.0 * n + 1.0, add_self_edges=True)
    out["gcn_jit"] = _flat(jax.jit(conv)(graph).nodes)

    def loss(w, graph):
        layer = jraph.GraphConvolution(lambda n: jnp.tanh(w * n))
        return jnp.sum(layer(graph).nodes ** 2)

    batched = jraph.batch([graph, graph._replace(nodes=graph.nodes + 1.0)])
    out["grad_jit"] = [float(jax.jit(jax.grad(loss))(0.7, batched))]
    out["unbatch"] = _flat(jraph.unbatch(batched)[1].nodes)
    segments = jnp.array([0, 0, 1, 1, 2, 2])
    data = jnp.arange(6.0)
    out["segment_sum"] = _flat(jax.ops.segment_sum(data, segments, 3))
    out["segment_mean"] = _flat(jraph.segment_mean(data, segments, 3))
    out["segment_softmax"] = _flat(jraph.segment_softmax(data, segments, 3))
    padded = jraph.pad_with_graphs(graph, n_node=5, n_edge=4)
    out["padded_gcn"] = _flat(conv(padded).nodes)
    return out


def quick_pix():
    import dm_pix as pix
    import jax

    image = jax.random.uniform(jax.random.PRNGKey(0), (16, 16, 3))
    blurred = pix.gaussian_blur(image, 1.0, 5)
    return {
        "flip": _flat((pix.flip_left_right(image), pix.flip_up_down(image))),
        "rotate": _flat(pix.rotate(image, 0.3)),
        "gaussian_blur": _flat(blurred),
        "brightness": _flat(pix.adjust_brightness(image, 0.2)),
        "contrast": _flat(pix.adjust_contrast(image, 1.5)),
        "random_crop": _flat(pix.random_crop(jax.random.PRNGKey(3), image, (8, 8, 3))),
        "ssim": [float(pix.ssim(image, blurred))],
        "ssim_jit": [float(jax.jit(pix.ssim)(image, 0.9 * image))],
        "hsv": _flat(pix.rgb_to_hsv(image)),
        "grad_rotate": [float(jax.grad(lambda a: pix.rotate(image, a).mean())(0.3))],
    }


def quick_rlax():
    # rlax's README has no code: its usage is a DQN loss (vmapped q_learning) trained
    # with optax, plus the sequence, policy-gradient and distribution ops agents call.
    import jax
    import jax.numpy as jnp
    import optax
    import rlax

    ks = jax.random.split(jax.random.PRNGKey(0), 8)
    obs = jax.random.normal(ks[0], (16, 3))
    next_obs = jax.random.normal(ks[1], (16, 3))
    a_tm1 = jax.random.randint(ks[2], (16,), 0, 4)
    r_t = jax.random.normal(ks[3], (16,))
    discount_t = jnp.full((16,), 0.99)

    def dqn_loss(w, target_w):
        q_tm1, q_t = obs @ w, next_obs @ target_w
        td = jax.vmap(rlax.q_learning)(q_tm1, a_tm1, r_t, discount_t, q_t)
        return jnp.mean(rlax.huber_loss(td, 1.0))

    opt = optax.adam(1e-2)

    @jax.jit
    def step(w, state, target_w):
        loss, g = jax.value_and_grad(dqn_loss)(w, target_w)
        updates, state = opt.update(g, state)
        return optax.apply_updates(w, updates), state, loss

    w = 0.1 * jax.random.normal(ks[4], (3, 4))
    target_w, state, losses = w, opt.init(w), []
    for _ in range(5):
        w, state, loss = step(w, state, target_w)
        losses.append(float(loss))
    out = {"dqn_losses": losses, "dqn_w": _flat(w)}
    q_sel = obs @ w
    out["double_q"] = _flat(
        jax.vmap(rlax.double_q_learning)(obs @ target_w, a_tm1, r_t, discount_t, q_sel, q_sel)
    )

    # a trajectory of 10 steps: returns, GAE, TD(lambda), V-trace, policy gradient
    rewards, values = r_t[:10], jnp.tanh(obs[:11, 0])
    disc = discount_t[:10].at[6].set(0.0)  # an episode ends at step 6
    out["lambda_returns"] = _flat(rlax.lambda_returns(rewards, disc, values[1:], 0.9))
    out["n_step"] = _flat(rlax.n_step_bootstrapped_returns(rewards, disc, values[1:], 3))
    out["discounted"] = _flat(rlax.discounted_returns(rewards, disc, 0.0))
    out["gae"] = _flat(rlax.truncated_generalized_advantage_estimation(rewards, disc, 0.95, values))
    out["td_lambda"] = _flat(rlax.td_lambda(values[:-1], rewards, disc, values[1:], 0.8))
    rho = jnp.exp(0.3 * jax.random.normal(ks[5], (10,)))
    vt = jax.jit(rlax.vtrace_td_error_and_advantage)(values[:-1], values[1:], rewards, disc, rho)
    out["vtrace"] = _flat((vt.errors, vt.pg_advantage, vt.q_estimate))
    logits = obs[:10] @ w
    actions = a_tm1[:10]
    pg = jax.grad(lambda lg: rlax.policy_gradient_loss(lg, actions, vt.pg_advantage, jnp.ones(10)))
    out["pg_grad"] = _flat(pg(logits))
    out["entropy_loss"] = [float(rlax.entropy_loss(logits, jnp.ones(10)))]
    ratios = jnp.exp(0.1 * rewards)
    out["ppo_clip"] = [float(rlax.clipped_surrogate_pg_loss(ratios, vt.pg_advantage, 0.2))]

    # action-selection distributions and the categorical (C51) loss
    eps = rlax.epsilon_greedy(0.1)
    out["eps_greedy_sample"] = _flat(jax.jit(eps.sample)(ks[6], logits))
    out["eps_greedy_probs"] = _flat(eps.probs(logits))
    out["softmax_logprob"] = _flat(rlax.softmax(0.5).logprob(actions, logits))
    atoms = jnp.linspace(-2.0, 2.0, 11)
    q_logits = jax.random.normal(ks[7], (16, 4, 11))
    c51 = jax.vmap(rlax.categorical_q_learning, in_axes=(None, 0, 0, 0, 0, None, 0))
    out["c51"] = _flat(c51(atoms, q_logits, a_tm1, r_t, discount_t, atoms, q_logits[::-1]))
    out["signed_hyperbolic"] = _flat(rlax.signed_hyperbolic(jnp.linspace(-50.0, 50.0, 7)))
    return out


def _stand_in_for_seaborn():
    """gymnax imports seaborn (for Pong's rendering only) when ``gymnax`` is imported, and
    seaborn needs pandas: where seaborn is not installed, an empty module stands in for it
    (the same on both engines; nothing here renders)."""
    import importlib.util
    import types

    if "seaborn" not in sys.modules and importlib.util.find_spec("seaborn") is None:
        sys.modules["seaborn"] = types.ModuleType("seaborn")


def quick_gymnax():
    _stand_in_for_seaborn()
    import gymnax
    import jax
    import jax.numpy as jnp

    # the README's basic API
    key = jax.random.key(0)
    key, key_reset, key_act, key_step = jax.random.split(key, 4)
    env, env_params = gymnax.make("Pendulum-v1")
    obs, state = env.reset(key_reset, env_params)
    action = env.action_space(env_params).sample(key_act)
    n_obs, n_state, reward, terminated, truncated, info = env.step(
        key_step, state, action, env_params
    )
    bootstrap_mask = 1.0 - info["terminated"].astype(jnp.float32)
    out = {
        "pendulum_step": _flat((obs, action, n_obs, reward, terminated, truncated)),
        "bootstrap": _flat((info["final_observation"], bootstrap_mask)),
    }
    # the README's differentiable transition
    diff_env = env.with_transition_gradients()
    obs_d, state_d = diff_env.reset(key_reset, env_params)

    def next_angular_velocity(a):
        return diff_env.step(key_step, state_d, a, env_params)[1].theta_dot

    out["transition_grad"] = _flat(jax.grad(next_angular_velocity)(jnp.array([0.5])))

    # jit + vmap over 8 CartPoles and a 40-step random-policy rollout with lax.scan
    cp, cp_params = gymnax.make("CartPole-v1")
    keys = jax.random.split(jax.random.key(1), 8)
    obs_b, state_b = jax.vmap(cp.reset, in_axes=(0, None))(keys, cp_params)

    def rollout(key, obs, state):
        def body(carry, k):
            obs, state, ret = carry
            k_act, k_step = jax.random.split(k)
            a = cp.action_space(cp_params).sample(k_act)
            obs, state, r, term, trunc, _ = cp.step(k_step, state, a, cp_params)
            return (obs, state, ret + r), (a, term | trunc)

        (obs, state, ret), (acts, dones) = jax.lax.scan(
            body, (obs, state, 0.0), jax.random.split(key, 40)
        )
        return obs, ret, acts, dones

    run = jax.jit(jax.vmap(rollout))
    obs_end, returns, acts, dones = run(jax.random.split(jax.random.key(2), 8), obs_b, state_b)
    out["cartpole_reset_vmap"] = _flat(obs_b)
    out["cartpole_rollout"] = _flat((obs_end, returns, acts, dones))

    # a bsuite and a MinAtar environment stepped under jit
    for name, n in (("Catch-bsuite", 12), ("Breakout-MinAtar", 12)):
        e, p = gymnax.make(name)
        o, st = e.reset(jax.random.key(3), p)
        step = jax.jit(e.step)
        total = 0.0
        for i in range(n):
            k = jax.random.fold_in(jax.random.key(4), i)
            a = e.action_space(p).sample(k)
            o, st, r, term, trunc, _ = step(k, st, a, p)
            total += float(r)
        out[name] = _flat((o, total))
    return out


def quick_evosax():
    import jax
    import jax.numpy as jnp
    import optax
    from evosax.algorithms import CMA_ES, SNES, DifferentialEvolution, Open_ES, SimpleGA

    def rosenbrock(x):
        return jnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)

    fitness_fn = jax.vmap(rosenbrock)
    dummy_solution = jnp.zeros(4)
    out = {}

    # the README's ask-eval-tell loop, each call jitted
    es = CMA_ES(population_size=16, solution=dummy_solution)
    params = es.default_params
    key = jax.random.key(0)
    state = es.init(key, dummy_solution, params)
    ask, tell = jax.jit(es.ask), jax.jit(es.tell)
    for _ in range(8):
        key, key_ask, key_eval = jax.random.split(key, 3)
        population, state = ask(key_ask, state, params)
        fitness = fitness_fn(population)
        state, metrics = tell(key, population, fitness, state, params)
    out["cma_es"] = _flat((state.best_solution, state.best_fitness, state.mean, state.std))
    out["cma_es_C"] = _flat(state.C)

    # whole runs as one jitted lax.scan over generations
    def run(strategy, generations, key):
        params = strategy.default_params
        key, key_init = jax.random.split(key)
        state = strategy.init(key_init, dummy_solution + 0.5, params)

        def generation(state, key):
            key_ask, key_tell = jax.random.split(key)
            population, state = strategy.ask(key_ask, state, params)
            fitness = fitness_fn(population)
            state, metrics = strategy.tell(key_tell, population, fitness, state, params)
            return state, metrics["best_fitness"]

        state, best = jax.lax.scan(generation, state, jax.random.split(key, generations))
        return state, best

    open_es = Open_ES(16, dummy_solution, optimizer=optax.adam(0.05))
    state, best = jax.jit(lambda k: run(open_es, 20, k))(jax.random.key(1))
    out["open_es"] = _flat((state.mean, best))
    snes = SNES(16, dummy_solution)
    state, best = jax.jit(lambda k: run(snes, 20, k))(jax.random.key(2))
    out["snes"] = _flat((state.mean, state.std, best))

    # population-based: initialised from an evaluated population (the README's SimpleGA)
    for name, cls in (("simple_ga", SimpleGA), ("diff_evolution", DifferentialEvolution)):
        ga = cls(population_size=16, solution=dummy_solution)
        params = ga.default_params
        key = jax.random.key(3)
        population_init = jax.random.uniform(key, (16, 4), minval=-1.0, maxval=1.0)
        state = ga.init(key, population_init, fitness_fn(population_init), params)
        ask, tell = jax.jit(ga.ask), jax.jit(ga.tell)
        for i in range(6):
            k_ask, k_tell = jax.random.split(jax.random.fold_in(key, i))
            population, state = ask(k_ask, state, params)
            state, _ = tell(k_tell, population, fitness_fn(population), state, params)
        out[name] = _flat((state.best_solution, state.best_fitness, state.population))
    return out


def _mctx_model():
    """A small learned-looking model for mctx: 3-d embeddings, 5 actions, a batch of 4."""
    import jax
    import jax.numpy as jnp
    import mctx

    k1, k2, k3 = jax.random.split(jax.random.key(0), 3)
    params = {
        "transition": jax.random.normal(k1, (5, 3, 3)),
        "reward": jax.random.normal(k2, (3, 5)),
        "policy": jax.random.normal(k3, (3, 5)),
    }

    def prediction(params, embedding):
        return embedding @ params["policy"], jnp.tanh(embedding.sum(-1))

    def recurrent_fn(params, rng_key, action, embedding):
        step = params["transition"][action]
        new_embedding = jnp.tanh(jnp.einsum("bi,bij->bj", embedding, step))
        reward = jnp.take_along_axis(embedding @ params["reward"], action[:, None], axis=1)[:, 0]
        prior_logits, value = prediction(params, new_embedding)
        output = mctx.RecurrentFnOutput(
            reward=reward,
            discount=jnp.full_like(reward, 0.9),
            prior_logits=prior_logits,
            value=value,
        )
        return output, new_embedding

    def root_fn(params, embedding):
        prior_logits, value = prediction(params, embedding)
        return mctx.RootFnOutput(prior_logits=prior_logits, value=value, embedding=embedding)

    return params, root_fn, recurrent_fn


def quick_mctx():
    import functools

    import jax
    import jax.numpy as jnp
    import mctx

    params, root_fn, recurrent_fn = _mctx_model()
    embedding = jax.random.normal(jax.random.key(5), (4, 3))
    invalid_actions = jnp.zeros((4, 5)).at[1, 3:].set(1.0)
    out = {}

    # the README's call: a root from the model, then a search (here jitted)
    @jax.jit
    def gumbel(params, key, embedding):
        return mctx.gumbel_muzero_policy(
            params,
            key,
            root_fn(params, embedding),
            recurrent_fn,
            num_simulations=16,
            max_num_considered_actions=4,
            invalid_actions=invalid_actions,
        )

    po = gumbel(params, jax.random.key(2), embedding)
    tree = po.search_tree
    out["gumbel_muzero"] = _flat((po.action, po.action_weights, tree.node_visits))
    out["gumbel_summary"] = _flat(tree.summary().qvalues)

    def muzero(params, key, embedding):
        return mctx.muzero_policy(
            params,
            key,
            root_fn(params, embedding),
            recurrent_fn,
            num_simulations=16,
            dirichlet_fraction=0.25,
            qtransform=functools.partial(mctx.qtransform_by_min_max, min_value=-2, max_value=2),
        )

    po = jax.jit(muzero)(params, jax.random.key(1), embedding)
    out["muzero"] = _flat((po.action, po.action_weights, po.search_tree.node_values))

    # three models searched at once: jit of vmap over stacked parameters and keys
    stacked = jax.tree_util.tree_map(lambda x: jnp.stack([x, 0.5 * x, -x]), params)
    keys = jax.random.split(jax.random.key(3), 3)
    po = jax.jit(jax.vmap(muzero, in_axes=(0, 0, None)))(stacked, keys, embedding)
    out["muzero_vmap"] = _flat((po.action, po.action_weights, po.search_tree.node_values))
    return out


def quick_flashbax():
    import flashbax as fbx
    import jax
    import jax.numpy as jnp

    out = {}
    # the README's flat buffer, eager
    buffer = fbx.make_flat_buffer(max_length=32, min_length=2, sample_batch_size=1)
    fake_timestep = {"obs": jnp.array([0, 0]), "reward": jnp.array(0.0)}
    state = buffer.init(fake_timestep)
    can_sample = []
    for obs, reward in (([1, 2], 3.0), ([4, 5], 6.0), ([7, 8], 9.0)):
        state = buffer.add(state, {"obs": jnp.array(obs), "reward": jnp.array(reward)})
        can_sample.append(float(buffer.can_sample(state)))
    batch = buffer.sample(state, jax.random.PRNGKey(0))
    out["flat_readme"] = _flat((can_sample, batch.experience.first, batch.experience.second))

    # add (a jitted lax.scan of batched adds) and sample under jit
    buffer = fbx.make_flat_buffer(
        max_length=64, min_length=8, sample_batch_size=5, add_batch_size=4
    )
    state = buffer.init(fake_timestep)

    def add_step(state, i):
        timestep = {
            "obs": jnp.stack([jnp.array([i, -i]) + j for j in range(4)]),
            "reward": jnp.arange(4.0) + i,
        }
        return buffer.add(state, timestep), None

    state, _ = jax.jit(lambda s: jax.lax.scan(add_step, s, jnp.arange(20)))(state)
    batch = jax.jit(buffer.sample)(state, jax.random.PRNGKey(1))
    out["flat_jit"] = _flat((state.current_index, state.is_full, batch.experience))

    # a trajectory buffer: sequences of 3 steps with period 2
    traj_buffer = fbx.make_trajectory_buffer(
        add_batch_size=2,
        sample_batch_size=4,
        sample_sequence_length=3,
        period=2,
        min_length_time_axis=3,
        max_length_time_axis=20,
    )
    traj_state = traj_buffer.init({"obs": jnp.zeros(3), "done": jnp.array(False)})
    trajectories = {
        "obs": jnp.arange(60, dtype=jnp.float32).reshape(2, 10, 3),
        "done": (jnp.arange(20) % 7 == 0).reshape(2, 10),
    }
    traj_state = jax.jit(traj_buffer.add)(traj_state, trajectories)
    batch = jax.jit(traj_buffer.sample)(traj_state, jax.random.PRNGKey(2))
    out["trajectory"] = _flat((traj_state.current_index, batch.experience))

    # prioritised: sample, set new priorities, sample again
    per = fbx.make_prioritised_flat_buffer(
        max_length=32, min_length=4, sample_batch_size=6, add_batch_size=2
    )
    per_state = per.init({"x": jnp.zeros(2)})
    add = jax.jit(per.add)
    for i in range(6):
        per_state = add(per_state, {"x": jnp.full((2, 2), float(i)) + jnp.arange(2.0)[:, None]})
    sample = jax.jit(per.sample)
    first = sample(per_state, jax.random.PRNGKey(3))
    per_state = jax.jit(per.set_priorities)(per_state, first.indices, jnp.arange(1.0, 7.0))
    second = sample(per_state, jax.random.PRNGKey(4))
    out["prioritised"] = _flat((first.indices, first.probabilities, first.experience))
    out["prioritised_after_update"] = _flat(
        (second.indices, second.probabilities, per_state.sum_tree_state.nodes)
    )

    # three independent item buffers under vmap
    items = fbx.make_item_buffer(max_length=16, min_length=2, sample_batch_size=3, add_batches=True)
    item_state = jax.vmap(lambda _: items.init(jnp.zeros(2)))(jnp.arange(3))
    data = jnp.arange(30, dtype=jnp.float32).reshape(3, 5, 2)
    item_state = jax.jit(jax.vmap(items.add))(item_state, data)
    keys = jax.random.split(jax.random.PRNGKey(5), 3)
    out["item_vmap"] = _flat(jax.jit(jax.vmap(items.sample))(item_state, keys).experience)
    return out


def quick_pgx():
    import jax
    import jax.numpy as jnp
    import pgx

    def random_actions(key, legal_action_mask):  # a uniformly random legal action per game
        logits = jnp.where(legal_action_mask, 0.0, -jnp.inf)
        return jax.random.categorical(key, logits, axis=-1)

    out = {}
    # the README's batched loop: jit(vmap(init/step)) on Go, a few moves
    env = pgx.make("go_9x9")
    init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
    state = init(jax.random.split(jax.random.PRNGKey(42), 4))
    key = jax.random.PRNGKey(0)
    for _ in range(3):
        key, subkey = jax.random.split(key)
        state = step(state, random_actions(subkey, state.legal_action_mask))
    out["go_9x9"] = _flat(
        (state.current_player, state.observation, state.rewards, state.legal_action_mask)
    )

    # rollouts as one jitted lax.scan (2048 is stochastic: step takes keys)
    for name, num_steps in (("tic_tac_toe", 12), ("connect_four", 16), ("2048", 16)):
        env = pgx.make(name)

        def rollout(key, env=env):
            key, init_key = jax.random.split(key)
            state = jax.vmap(env.init)(jax.random.split(init_key, 4))

            def body(state, key):
                act_key, step_key = jax.random.split(key)
                action = random_actions(act_key, state.legal_action_mask)
                state = jax.vmap(env.step)(state, action, jax.random.split(step_key, 4))
                return state, (action, state.rewards, state.terminated)

            return jax.lax.scan(body, state, jax.random.split(key, num_steps))

        state, trace = jax.jit(rollout)(jax.random.PRNGKey(1))
        out[name] = _flat((trace, state.observation))
    return out


LIBRARIES = {
    "optax": quick_optax,
    "equinox": quick_equinox,
    "flax": quick_flax,
    "chex": quick_chex,
    "jax_tqdm": quick_jax_tqdm,
    "distrax": quick_distrax,
    "diffrax": quick_diffrax,
    "jaxtyping": quick_jaxtyping,
    "lineax": quick_lineax,
    "optimistix": quick_optimistix,
    "numpyro": quick_numpyro,
    "blackjax": quick_blackjax,
    "jaxopt": quick_jaxopt,
    "einops": quick_einops,
    "haiku": quick_haiku,
    "jraph": quick_jraph,
    "pix": quick_pix,
    "rlax": quick_rlax,
    "gymnax": quick_gymnax,
    "evosax": quick_evosax,
    "mctx": quick_mctx,
    "flashbax": quick_flashbax,
    "pgx": quick_pgx,
}


def main(libs):
    for lib in libs:
        try:
            record = {"lib": lib, "values": LIBRARIES[lib]()}
        except Exception:  # reported to the test, which fails with the traceback
            record = {"lib": lib, "error": traceback.format_exc()[-6000:]}
        print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main(sys.argv[2:])
