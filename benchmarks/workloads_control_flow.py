"""Control-flow workload: a long jitted lax.scan with a tiny body (issue 6)."""

from __future__ import annotations

from registry import workload

SCAN_STEPS = 10_000


@workload(
    "scan_affine_10k",
    "jit(lax.scan) of 10000 steps of c = c*0.99 + 0.01 on float32[4]",
    target="<= 1.5 us/step (JAX's native loop: ~0.01 us/step)",
    per=SCAN_STEPS,
    unit="step",
)
def _scan_affine(lib):
    jnp, lax = lib.jnp, lib.lax

    def body(c, _):
        return c * 0.99 + 0.01, None

    f = lib.jax.jit(lambda c: lax.scan(body, c, None, length=SCAN_STEPS)[0])
    c0 = jnp.zeros(4, jnp.float32)
    out = f(c0)
    # c_n = 1 - 0.99**n for c_0 = 0, which is 1 to float32 precision at n = 10000.
    if abs(float(out[0]) - 1.0) > 1e-3:
        raise AssertionError(f"{lib.name}: wrong scan result {out}")
    return lambda: f(c0)


NESTED_SCANS = 30


@workload(
    "nested_scans_30_compile",
    f"first call (trace + DCE + compile) of {NESTED_SCANS} "
    "nested lax.scan (length 1 each) under jit",
    target="<= 1 s per first call",
    fresh=True,
)
def _nested_scans_compile(lib):
    lax = lib.lax
    counter = [0]

    def nested(depth, k):
        def body(c):
            if depth == 0:
                return c * 1.01 + k
            return lax.scan(lambda c, _: (nested(depth - 1, k)(c), None), c, None, length=1)[0]

        return body

    def run():
        counter[0] += 1
        # A new function (and constant) per call: the trace and compile are timed each time.
        f = lib.jax.jit(nested(NESTED_SCANS, 1.0 + counter[0] * 1e-3))
        out = f(1.0)
        want = 1.01 + (1.0 + counter[0] * 1e-3)
        if abs(float(out) - want) > 1e-4:
            raise AssertionError(f"{lib.name}: wrong nested scan result {out}, expected {want}")
        return out

    return run
