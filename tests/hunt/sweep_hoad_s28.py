"""Session 28 higher-order derivative sweep (not a test): new ground for the six
third-order / batched second-order transforms of session 27's part 3 (``T`` in
tests/hunt/sweep_hoad_s27.py: ``jacfwd(jacfwd(jacrev))``, ``jacrev`` three times, ``jvp``
of ``jvp`` of ``grad``, ``vmap(hessian)``, ``hessian`` of a vmapped sum, ``vmap`` of
``jvp(grad)``), eager and jitted, against JAX:

* ``lax.associative_scan`` (add, multiply, a pair-valued affine recurrence, reverse,
  an axis);
* ``lax.map`` with ``batch_size`` (dividing the length and not);
* ``jnp.linalg`` decompositions (``eigh``, ``cholesky``, ``qr``, ``svd``, ``lu``,
  ``inv``, ``solve``, ``slogdet``, ``det``, ``pinv``, ``lstsq``, ``eigvalsh``,
  ``matrix_power``, ``expm``) of batched matrices: the program maps its vector to a
  (2, 3, 3) stack, so every transform differentiates a batched decomposition, and
  ``vmap`` adds a second batch axis;
* ``custom_vjp`` with ``nondiff_argnums`` (a float, a callable, a tuple);
* ``checkpoint`` with each policy of ``checkpoint_policies`` (names given with
  ``checkpoint_name``).

Session 28 ran (the shared machine at load ~12): the first 8 programs (``as_*``,
``map_b2``, ``map_b3``) under all six transforms eager and jitted, the other 34 under all
six jitted, and the 15 ``cvjp_*`` / ``ckpt_*`` programs under all six eagerly (the batched
decompositions were not run eagerly: JAX's eager third derivatives of them take about a
minute each on the loaded machine): 3 differences, all
float32 noise of reverse-over-reverse-over-reverse through the SVD (against JAX's float64
value: ``b_svd`` 9e-5 relative, JAX 6e-5; ``b_svd_uv`` 7e-5, JAX 2e-4; ``b_lstsq`` 2e-6,
JAX 3e-5; jaxlite's float64 within 3e-13). It also ran session 27's part 1 on the 81
functions of ``SAMPLE`` through ``special.expi`` and ``nn.mish`` (77 swept, 8 with
differences): ``fresnel`` (JAX's ``C''`` at odd integers), ``spence`` (JAX's NaN at
``x > 1``), ``lgamma`` / ``digamma`` / ``gammaln`` at ``inf`` (rows of sessions 25 / 26);
``sinc``'s third derivative at ``1e-3`` (both cancel, float64 1e-4 / 5e-5 from the true
value) and ``i1`` / ``i1e``'s (jaxlite closer to the true value): docs/compat.md.
``hyp1f1`` / ``hyp2f1`` Hessians in all their arguments (``jit(vmap(hessian))``, 6 points
each, float32 and float64) agree with JAX's (2e-6 / 1e-14 relative), except at
``x < -1``, where JAX's float64 ``hyp2f1`` Hessian is ~1e90 garbage (docs/compat.md; in
float32 the comparison there is NaN, not examined further). Fixed: ``lstsq``'s third
derivatives through the SVD's derivative (tests/hunt/test_hoad_sweep_s28.py).

Run: ``nice -n 19 python -m tests.hunt.sweep_hoad_s28 [NAME,... [TRANSFORM,... [eager|jit]]]``
(an empty argument: all of them).
"""

from __future__ import annotations

import importlib
import sys
import warnings
from functools import partial

import numpy as np

from tests.hunt import sweep_ad_s25 as s25
from tests.hunt.oracle import JAX, LITE
from tests.hunt.sweep_hoad_s27 import T, x0


def _stack(m, x):
    """A (2, 3, 3) stack of symmetric positive definite matrices with distinct
    eigenvalues, made of ``x``."""
    jnp = m.jnp
    d = jnp.array([1.0, 2.0, 3.5], x.dtype)
    a = jnp.outer(x, x) + jnp.diag(d)
    b = jnp.outer(jnp.sin(x), x[::-1]) + jnp.outer(x[::-1], jnp.sin(x)) + jnp.diag(d * 1.5)
    return jnp.stack([a, b])


def progs(m):
    jx, jnp, lax = m.jx, m.jnp, m.lax
    P = {}
    # associative_scan
    P["as_add"] = lambda x: jnp.sum(lax.associative_scan(jnp.add, jnp.sin(x) * x) ** 2)
    P["as_mul"] = lambda x: jnp.sum(lax.associative_scan(jnp.multiply, x + 1.5) * x)
    P["as_rev"] = lambda x: jnp.sum(
        lax.associative_scan(jnp.multiply, jnp.cos(x) + 1.2, reverse=True) ** 2
    )

    def affine(p, q):
        # (a1, b1) then (a2, b2): y -> a2 (a1 y + b1) + b2
        return p[0] * q[0], q[0] * p[1] + q[1]

    P["as_pair"] = lambda x: jnp.sum(lax.associative_scan(affine, (jnp.tanh(x), x * x))[1])
    P["as_axis"] = lambda x: jnp.sum(
        lax.associative_scan(jnp.maximum, jnp.outer(x, jnp.sin(x)), axis=1) ** 2
    )
    P["as_long"] = lambda x: jnp.sum(
        lax.associative_scan(jnp.multiply, jnp.concatenate([x, x[::-1], x * 0.5]) + 1.1) * 0.5
    )
    # lax.map with batch_size
    P["map_b2"] = lambda x: jnp.sum(lax.map(lambda a: jnp.sin(a) ** 2 * a, x, batch_size=2))
    P["map_b3"] = lambda x: jnp.sum(
        lax.map(lambda a: jnp.exp(a[0]) * a[1], (x, x[::-1]), batch_size=3)
    )
    P["map_b2_mat"] = lambda x: jnp.sum(
        lax.map(lambda r: jnp.tanh(r) @ r, jnp.outer(x, x) + jnp.eye(3), batch_size=2)
    )
    # batched decompositions
    P["b_eigh"] = lambda x: jnp.sum(jnp.linalg.eigh(_stack(m, x))[0] ** 2)
    P["b_eigh_vec"] = lambda x: jnp.sum(jnp.abs(jnp.linalg.eigh(_stack(m, x))[1][..., 0]) ** 3)
    P["b_eigvalsh"] = lambda x: jnp.sum(jnp.sin(jnp.linalg.eigvalsh(_stack(m, x))))
    P["b_chol"] = lambda x: jnp.sum(jnp.linalg.cholesky(_stack(m, x)) ** 2)
    P["b_qr"] = lambda x: jnp.sum(jnp.abs(jnp.linalg.qr(_stack(m, x))[1]) ** 2)
    P["b_svd"] = lambda x: jnp.sum(jnp.linalg.svd(_stack(m, x), compute_uv=False) ** 2)
    P["b_svd_uv"] = lambda x: jnp.sum(
        (lambda usv: jnp.abs(usv[0][..., 0]) * usv[1][..., :1])(jnp.linalg.svd(_stack(m, x)))
    )
    P["b_lu"] = lambda x: jnp.sum(jx.scipy.linalg.lu(_stack(m, x))[2] ** 2)
    P["b_inv"] = lambda x: jnp.sum(jnp.linalg.inv(_stack(m, x)))
    P["b_solve"] = lambda x: jnp.sum(jnp.linalg.solve(_stack(m, x), jnp.stack([x, x * x])))
    P["b_slogdet"] = lambda x: jnp.sum(jnp.linalg.slogdet(_stack(m, x))[1])
    P["b_det"] = lambda x: jnp.sum(jnp.linalg.det(_stack(m, x)))
    P["b_pinv"] = lambda x: jnp.sum(jnp.linalg.pinv(_stack(m, x)))
    P["b_lstsq"] = lambda x: jnp.sum(jx.vmap(lambda a, b: jnp.linalg.lstsq(a, b)[0])(
        _stack(m, x), jnp.stack([x, x * x])))  # fmt: skip
    P["b_mpow"] = lambda x: jnp.sum(jnp.linalg.matrix_power(_stack(m, x) * 0.3, 3))
    P["b_expm"] = lambda x: jnp.sum(jx.scipy.linalg.expm(_stack(m, x) * 0.2))
    P["b_cho_solve"] = lambda x: jnp.sum(
        jx.scipy.linalg.cho_solve((jnp.linalg.cholesky(_stack(m, x)), True), jnp.stack([x, x]))
    )
    P["b_eig"] = lambda x: jnp.sum(jnp.real(jnp.linalg.eigvals(_stack(m, x))) ** 2)

    # custom_vjp with nondiff_argnums
    @partial(jx.custom_vjp, nondiff_argnums=(0,))
    def cvk(k, u):
        return jnp.sin(u) * k

    cvk.defvjp(lambda k, u: (cvk(k, u), u), lambda k, u, g: (jnp.cos(u) * k * g * 1.25,))

    @partial(jx.custom_vjp, nondiff_argnums=(1,))
    def cvf(u, f):
        return f(u) * u

    cvf.defvjp(
        lambda u, f: (cvf(u, f), u),
        lambda f, u, g: (jx.vjp(lambda v: f(v) * v, u)[1](g)[0] * 0.75,),
    )

    @partial(jx.custom_vjp, nondiff_argnums=(0, 2))
    def cvt(sh, u, k):
        return jnp.tanh(u * sh[0]) * k

    cvt.defvjp(
        lambda sh, u, k: (cvt(sh, u, k), u),
        lambda sh, k, u, g: (g * k * sh[0] * (1 - jnp.tanh(u * sh[0]) ** 2) * 0.5,),
    )
    P["cvjp_nd_k"] = lambda x: jnp.sum(cvk(2.0, x) * x)
    P["cvjp_nd_f"] = lambda x: jnp.sum(cvf(x, jnp.exp) ** 2)
    P["cvjp_nd_t"] = lambda x: jnp.sum(cvt((1.5, 2), x * x, 3.0) * jnp.sin(x))
    # checkpoint policies
    cp = jx.checkpoint_policies
    name = importlib.import_module(jx.__name__ + ".ad_checkpoint").checkpoint_name

    def body(y):
        a = name(jnp.sin(y) * y, "a")
        b = name(jnp.outer(a, y) @ y, "b")
        return jnp.exp(b * 0.3) * a

    pols = {
        "everything": cp.everything_saveable,
        "nothing": cp.nothing_saveable,
        "dots": cp.dots_saveable,
        "dots_nobatch": cp.dots_with_no_batch_dims_saveable,
        "only_a": cp.save_only_these_names("a"),
        "except_a": cp.save_anything_except_these_names("a"),
        "any_but_b": cp.save_any_names_but_these("b"),
        "both": cp.save_from_both_policies(cp.dots_saveable, cp.save_only_these_names("a")),
        "checkpoint_dots": cp.checkpoint_dots,
    }
    for k, pol in pols.items():
        P[f"ckpt_{k}"] = lambda x, pol=pol: jnp.sum(jx.checkpoint(body, policy=pol)(x) * x)
    P["ckpt_prevent_cse"] = lambda x: jnp.sum(
        jx.checkpoint(body, prevent_cse=False, policy=cp.dots_saveable)(x) ** 2
    )
    P["ckpt_static"] = lambda x: jnp.sum(
        jx.checkpoint(lambda y, n: body(y) ** n, static_argnums=(1,))(x, 2)
    )
    P["ckpt_nested"] = lambda x: jnp.sum(
        jx.checkpoint(lambda y: jx.checkpoint(body, policy=cp.dots_saveable)(y) * jnp.cos(y))(x)
    )
    return P


def main(argv):
    names = argv[0].split(",") if argv and argv[0] else list(progs(LITE))
    trs = argv[1].split(",") if len(argv) > 1 and argv[1] else list(T)
    jits = {"eager": (False,), "jit": (True,)}.get(argv[2] if len(argv) > 2 else "", (False, True))
    nbad = 0
    for n in names:
        for t in trs:
            for jit in jits:

                def b(m, n=n, t=t, jit=jit):
                    h = T[t](m, progs(m)[n])
                    return (m.jx.jit(h) if jit else h)(x0)

                d = s25.outcome(b)
                if d:
                    nbad += 1
                    print(f"{n} {t}{' jit' if jit else ''}: {d[:500]}", flush=True)
        print(f"## {n}", flush=True)
    print(f"=== probe: {len(names)} programs, {nbad} differences", flush=True)


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    np.seterr(all="ignore")
    assert JAX is not None and LITE is not None
    main(sys.argv[1:])
