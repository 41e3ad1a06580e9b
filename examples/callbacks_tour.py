"""A tour of host callbacks: every example of the io_callback tutorial, run on jaxlite.

Run: ``python examples/callbacks_tour.py``. Each section prints what the tutorial shows.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _common  # noqa: E402,F401 (makes an uninstalled checkout importable)

import jaxlite as jax  # noqa: E402
import jaxlite.numpy as jnp  # noqa: E402
from jaxlite.experimental import io_callback  # noqa: E402


def section(title):
    print(f"\n=== {title} ===")


# 1. A plain print inside jit runs at trace time and shows an abstract value.
section("1. print inside jit shows the trace-time (abstract) value")


@jax.jit
def f_print(x):
    y = x + 1
    print("intermediate value: {}".format(y))  # noqa: UP032 (as in the tutorial)
    return y * 2


result = f_print(2)
print("result:", result)
f_print(3)  # cache hit: no trace, so nothing is printed


# 2. jax.debug.print shows the runtime value.
section("2. jax.debug.print shows the runtime value")


@jax.jit
def f_debug(x):
    y = x + 1
    jax.debug.print("intermediate value: {}", y)
    return y * 2


result = f_debug(2)
print("result:", result)


# 3. io_callback with a global host-side NumPy generator (two side effects: a print and the
#    generator's state update).
section("3. io_callback with a global host RNG")
global_rng = np.random.default_rng(0)


def host_side_random_like(x):
    """Generate a random array like x using the global_rng state."""
    # We have two side-effects here:
    # - printing the shape and dtype
    # - calling global_rng, thus updating its state
    print(f"generating {x.dtype}{list(x.shape)}")
    return global_rng.uniform(size=x.shape).astype(x.dtype)


@jax.jit
def numpy_random_like(x):
    return io_callback(host_side_random_like, x, x)


x = jnp.zeros(5)
print(numpy_random_like(x))
print(numpy_random_like(x))  # the generator state moved on: different numbers


# 4. io_callback with ordered=False can be vmapped (one call per element).
section("4. vmap of an unordered io_callback")
print(jax.vmap(numpy_random_like)(x))


# 5. Ordered io_callback under vmap is an error.
section("5. vmap of an ordered io_callback raises")


@jax.jit
def numpy_random_like_ordered(x):
    return io_callback(host_side_random_like, x, x, ordered=True)


try:
    jax.vmap(numpy_random_like_ordered)(x)
except ValueError as e:
    print("ValueError:", e)


# 6. io_callback (ordered or not) inside scan.
section("6. ordered io_callback inside scan")


def body_fun(_, x):
    return _, numpy_random_like_ordered(x)


print(jax.lax.scan(body_fun, None, jnp.arange(5.0))[1])


# 7. grad: a callback on the differentiated value cannot be differentiated...
section("7. grad through io_callback")
try:
    jax.grad(numpy_random_like)(x)
except ValueError as e:
    print("ValueError:", e)
except TypeError as e:  # grad of a non-scalar output, as in JAX
    print("TypeError:", str(e).splitlines()[0])
try:
    jax.grad(lambda v: numpy_random_like(v).sum())(x)
except ValueError as e:
    print("ValueError:", e)


# ...but a callback independent of the differentiated value runs normally (once).
@jax.jit
def f_hello(x):
    io_callback(lambda: print("hello"), None)
    return x


print("grad:", jax.grad(f_hello)(1.0))


# 8. The tutorial's compatibility table, checked live.
section("8. compatibility table (checked live)")


def check(fn):
    try:
        fn()
        return "yes"
    except Exception as e:  # noqa: BLE001 (the table reports any failure)
        return f"no ({type(e).__name__})"


xs = jnp.arange(3.0)
spec = jax.ShapeDtypeStruct((), np.float32)


def pc(v):
    return jax.pure_callback(np.sin, spec, v, vmap_method="sequential")


def io(v):
    return io_callback(np.sin, spec, v)


def dc(v):
    jax.debug.callback(lambda a: None, v)
    return v * 1.0


def in_loop(g):
    return lambda: jax.jit(
        lambda v: jax.lax.while_loop(lambda c: c[0] < 2, lambda c: (c[0] + 1, g(c[1])), (0, v))
    )(1.0)


rows = [
    ("jax.pure_callback", pc),
    ("jax.experimental.io_callback", io),
    ("jax.debug.callback", dc),
]
print(f"{'callback':30s} {'jit':6s} {'vmap':6s} {'grad':22s} {'scan/while':10s}")
for name, g in rows:
    print(
        f"{name:30s} {check(lambda g=g: jax.jit(g)(1.0)):6s} "
        f"{check(lambda g=g: jax.vmap(g)(xs)):6s} {check(lambda g=g: jax.grad(g)(1.0)):22s} "
        f"{check(in_loop(g)):10s}"
    )


# 9. pure_callback + custom_jvp: a differentiable host function.
section("9. pure_callback with custom_jvp")


@jax.custom_jvp
def host_sin(x):
    return jax.pure_callback(
        np.sin, jax.ShapeDtypeStruct(x.shape, x.dtype), x, vmap_method="expand_dims"
    )


@host_sin.defjvp
def host_sin_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    cos = jax.pure_callback(
        np.cos, jax.ShapeDtypeStruct(x.shape, x.dtype), x, vmap_method="expand_dims"
    )
    return host_sin(x), cos * t


print("d/dx sin at 2.0:", jax.jit(jax.grad(host_sin))(2.0), "expected", np.cos(2.0))
print("vmap of grad:", jax.vmap(jax.grad(host_sin))(jnp.arange(3.0)))


# 10. Errors inside callbacks reach the caller as CallbackError with the original chained.
section("10. exceptions inside callbacks")


def failing(v):
    raise KeyError("no such record")


try:
    jax.jit(lambda v: io_callback(failing, spec, v))(1.0)
except jax.errors.CallbackError as e:
    print("CallbackError:", e, "| cause:", repr(e.__cause__))
jax.effects_barrier()
