"""Op-spec rows: jax.scipy.special."""

from __future__ import annotations

from ._base import S34, SP, A, F, OpSpec, add

# ------------------------------------------------------------------- scipy.special
add(
    OpSpec("sp_logsumexp", SP("logsumexp"), (A(S34),), None, grad=2),
    OpSpec("sp_logsumexp_ax", SP("logsumexp", axis=0, keepdims=True), (A(S34),), None),
    OpSpec(
        "sp_logsumexp_b",
        lambda m: lambda x, b: m.special.logsumexp(x, axis=1, b=b),
        (A(S34), A(S34, F, 0.5, 2)),
        None,
    ),
    OpSpec("sp_erf", SP("erf"), (A(S34),), None, grad=2),
    OpSpec("sp_erfc", SP("erfc"), (A(S34),), None),
    OpSpec("sp_erfinv", SP("erfinv"), (A(S34, F, -0.8, 0.8),), None, rtol=1e-4),
    OpSpec("sp_gammaln", SP("gammaln"), (A(S34, F, 0.5, 3),), None, rtol=1e-4),
    OpSpec("sp_digamma", SP("digamma"), (A(S34, F, 0.5, 3),), None, rtol=1e-4),
    OpSpec("sp_xlogy", SP("xlogy"), (A(S34, F, 0.1, 2), A(S34, F, 0.1, 2)), None),
    OpSpec(
        "sp_xlogy_zero",
        lambda m: lambda y: m.special.xlogy(0.0, y),
        (A(S34, F, 0.0, 2),),
        None,
        grad=0,
    ),
    OpSpec("sp_xlog1py", SP("xlog1py"), (A(S34, F, 0.1, 2), A(S34, F, -0.5, 2)), None),
    OpSpec("sp_expit", SP("expit"), (A(S34),), None, grad=2),
    OpSpec("sp_logit", SP("logit"), (A(S34, F, 0.1, 0.9),), None, grad=2),
)

# The primitives of ops/special_more.py (binary polygamma/zeta, exponential integrals, erfcx).
add(
    OpSpec(
        "sp_polygamma1",
        lambda m: lambda x: m.special.polygamma(1, x),
        (A(S34, F, 0.5, 3),),
        None,
        rtol=1e-4,
    ),
    OpSpec(
        "lax_polygamma",
        lambda m: lambda x: m.lax.polygamma(m.jnp.full_like(x, 2.0), x),
        (A(S34, F, 0.5, 3),),
        None,
        rtol=1e-4,
    ),
    OpSpec(
        "sp_zeta_q",
        lambda m: lambda q: m.special.zeta(3.0, q),
        (A(S34, F, 0.5, 3),),
        None,
        rtol=1e-4,
    ),
    OpSpec(
        "lax_zeta_q",
        lambda m: lambda q: m.lax.zeta(m.jnp.full_like(q, 2.5), q),
        (A(S34, F, 0.5, 3),),
        None,
        rtol=1e-4,
    ),
    OpSpec("sp_erfcx", SP("erfcx"), (A(S34, F, -1.5, 3),), None, rtol=1e-4),
    OpSpec("sp_expi", SP("expi"), (A(S34, F, 0.5, 3),), None, rtol=1e-4),
    OpSpec("sp_exp1", SP("exp1"), (A(S34, F, 0.5, 3),), None, rtol=1e-4),
    OpSpec(
        "sp_expn2",
        lambda m: lambda x: m.special.expn(2, x),
        (A(S34, F, 0.5, 3),),
        None,
        rtol=1e-4,
    ),
)

# The primitives of ops/special_extra.py (SciPy kernels in float64) and igamma_grad_a.
add(
    OpSpec("sp_dawsn", SP("dawsn"), (A(S34, F, -3, 3),), None, rtol=1e-5),
    OpSpec("sp_fresnel_s", lambda m: lambda x: m.special.fresnel(x)[0], (A(S34, F, -2, 2),), None),
    OpSpec("sp_fresnel_c", lambda m: lambda x: m.special.fresnel(x)[1], (A(S34, F, -2, 2),), None),
    OpSpec("sp_sici_si", lambda m: lambda x: m.special.sici(x)[0], (A(S34, F, 0.5, 3),), None),
    OpSpec("sp_sici_ci", lambda m: lambda x: m.special.sici(x)[1], (A(S34, F, 0.5, 3),), None),
    OpSpec("sp_spence", SP("spence"), (A(S34, F, 0.2, 3),), None, rtol=1e-5),
    OpSpec("sp_wofz", SP("wofz"), (A(S34, F, -2, 2),), None, grad=0),  # jvp: tests/hunt
    OpSpec("sp_owens_t", SP("owens_t"), (A(S34, F, -2, 2), A(S34, F, -2, 2)), None, rtol=1e-5),
    OpSpec(
        "sp_hyp1f1", lambda m: lambda x: m.special.hyp1f1(1.5, 2.5, x), (A(S34, F, -2, 2),), None
    ),
    OpSpec(
        "sp_hyp2f1",
        lambda m: lambda x: m.special.hyp2f1(0.5, 1.5, 2.5, x),
        (A(S34, F, -0.8, 0.8),),
        None,
        rtol=1e-5,
    ),
    OpSpec(
        "sp_sph_harm_y",
        lambda m: (
            lambda th, ph: m.special.sph_harm_y(
                m.jnp.array([2, 3, 0, 4]), m.jnp.array([1, -2, 0, 4]), th, ph
            )
        ),
        (A((4,), F, 0.1, 3), A((4,), F, 0, 6)),  # JAX's sph_harm_y takes 1-D operands
        None,
        grad=0,  # not differentiable in jaxlite (NotImplementedError)
        rtol=1e-5,
    ),
    OpSpec(
        "lax_igamma_grad_a",
        lambda m: m.lax.igamma_grad_a,
        (A(S34, F, 0.5, 3), A(S34, F, 0.1, 3)),
        None,
        grad=0,
        rtol=1e-4,
    ),  # d sample / d a of gamma samples; first derivatives by its partials (random_gamma_grad_da
    # by differences of SciPy's kernel, random_gamma_grad_dx in closed form)
    OpSpec(
        "lax_random_gamma_grad",
        lambda m: m.lax.random_gamma_grad,
        (A(S34, F, 0.5, 3), A(S34, F, 0.2, 3)),
        None,
        grad=1,
        rtol=1e-4,
        grad_rtol=1e-3,
        reverse=False,  # JAX's series is a while_loop: no reverse mode (compat.md)
    ),
)
