"""Callback overhead, jaxlite vs JAX.

``python benchmarks/callbacks_bench.py [jax|jaxlite|compare]`` (``compare``, the default, runs
both engines in subprocesses and prints the ratio JAX / jaxlite).

Cases (µs per call / per step, best of 5 repeats):
* io_jit_calls: a jitted function with one io_callback, called 2000 times from Python;
* pure_jit_calls: the same with pure_callback;
* debug_jit_calls: the same with debug.callback;
* scan_io / scan_pure / scan_debug: a jitted lax.scan of 10000 steps whose body calls the
  callback on a float32[4] carry (needs lax.scan);
* vmap_seq / vmap_bcast / vmap_expand: jitted vmap of a pure_callback over 256 elements.
"""

import sys
import time

import numpy as np

ENGINE = sys.argv[1] if len(sys.argv) > 1 else "compare"
if ENGINE == "compare":
    pass
elif ENGINE == "jax":
    import jax
    import jax.numpy as jnp
    from jax.experimental import io_callback

    jax.config.update("jax_platforms", "cpu")
else:
    import jaxlite as jax
    import jaxlite.numpy as jnp
    from jaxlite.experimental import io_callback



def best(fn, n, repeat=5):
    fn()  # warm up (trace + compile)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times) / n * 1e6


def host(x):
    return x


def main():
    spec = jax.ShapeDtypeStruct((4,), np.float32)
    res = {}
    x = jnp.ones(4, np.float32)

    f_io = jax.jit(lambda v: io_callback(host, spec, v))
    f_pc = jax.jit(lambda v: jax.pure_callback(host, spec, v))
    f_dc = jax.jit(lambda v: (jax.debug.callback(lambda a: None, v), v)[1])

    def loop(f):
        def run():
            for _ in range(2000):
                f(x)
            jax.effects_barrier()

        return run

    res["io_jit_calls"] = best(loop(f_io), 2000)
    res["pure_jit_calls"] = best(loop(f_pc), 2000)
    res["debug_jit_calls"] = best(loop(f_dc), 2000)

    if hasattr(jax.lax, "scan"):
        def scan_of(kind):
            def body(c, _):
                if kind == "io":
                    c = io_callback(host, spec, c)
                elif kind == "pure":
                    c = jax.pure_callback(host, spec, c)
                else:
                    jax.debug.callback(lambda a: None, c)
                return c + 1, None

            f = jax.jit(lambda c: jax.lax.scan(body, c, None, length=10000)[0])

            def run():
                jax.block_until_ready(f(x))
                jax.effects_barrier()

            return run

        for kind in ("io", "pure", "debug"):
            res[f"scan_{kind}"] = best(scan_of(kind), 10000)

    xs = jnp.ones((256, 4), np.float32)
    for method, key in (("sequential", "vmap_seq"), ("broadcast_all", "vmap_bcast"),
                        ("expand_dims", "vmap_expand")):
        f = jax.jit(jax.vmap(lambda v, y, method=method: jax.pure_callback(
            lambda a, b: np.asarray(a) + np.asarray(b), jax.ShapeDtypeStruct(
                (4,), np.float32), v, y, vmap_method=method), in_axes=(0, None)))

        def run(f=f):
            jax.block_until_ready(f(xs, x))

        res[key] = best(run, 1)

    for k, v in res.items():
        print(f"{ENGINE:8s} {k:16s} {v:10.2f} us")


def compare():
    import os
    import subprocess

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    results = {}
    for engine in ("jax", "jaxlite"):
        out = subprocess.run([sys.executable, __file__, engine], env=env, check=True,
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            eng, key, val, _ = line.split()
            results.setdefault(key, {})[eng] = float(val)
    print(f"{'case':16s} {'JAX us':>10s} {'jaxlite us':>11s} {'ratio':>7s}")
    for key, r in results.items():
        print(f"{key:16s} {r['jax']:10.2f} {r['jaxlite']:11.2f} {r['jax'] / r['jaxlite']:6.1f}x")


if __name__ == "__main__":
    if ENGINE == "compare":
        compare()
    else:
        main()
