"""A short tour: jit, vmap and jvp on NumPy, with jaxlite standing in for JAX."""

import time

import jaxlite as jax
import jaxlite.numpy as jnp


def predict(w, x):
    return jnp.tanh(x @ w)


def main():
    w = jnp.ones((3, 2)) * 0.1
    xs = jnp.arange(12.0).reshape(4, 3)
    f = jax.jit(predict)
    t0 = time.perf_counter()
    y = f(w, xs)
    print("jit(predict)(w, xs) =\n", y, f"(first call {1e3 * (time.perf_counter() - t0):.2f} ms)")
    t0 = time.perf_counter()
    for _ in range(1000):
        f(w, xs)
    print(f"cached call: {1e6 * (time.perf_counter() - t0) / 1000:.1f} us")
    print("vmap over rows:", jax.vmap(predict, in_axes=(None, 0))(w, xs).shape)
    print("jvp of sum(predict):", jax.jvp(lambda w: predict(w, xs).sum(), (w,), (w,))[1])
    print(jax.make_jaxpr(predict)(w, xs))


if __name__ == "__main__":
    main()
