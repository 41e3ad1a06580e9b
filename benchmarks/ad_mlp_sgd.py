import sys, time, numpy as np
mode = sys.argv[1]
if mode == "jax":
    import jax, jax.numpy as jnp
else:
    import jaxlite as jax, jaxlite.numpy as jnp
rng = np.random.RandomState(0)
sizes = [784, 512, 512, 10]
params = []
for a, b in zip(sizes[:-1], sizes[1:]):
    params.append((jnp.asarray((rng.randn(a, b) / np.sqrt(a)).astype(np.float32)), jnp.zeros(b, jnp.float32)))
x = jnp.asarray(rng.randn(128, 784).astype(np.float32))
y = jnp.asarray(rng.randint(0, 10, 128).astype(np.int32))
def loss(params, x, y):
    h = x
    for w, b in params[:-1]:
        h = jnp.tanh(h @ w + b)
    w, b = params[-1]
    logits = h @ w + b
    logits = logits - jnp.max(logits, axis=1, keepdims=True)
    lse = jnp.log(jnp.sum(jnp.exp(logits), axis=1))
    onehot = (y[:, None] == jnp.arange(10)[None, :]).astype(jnp.float32)
    return jnp.mean(lse - jnp.sum(onehot * logits, axis=1))
@jax.jit
def step(params, x, y):
    l, g = jax.value_and_grad(loss)(params, x, y)
    return jax.tree_util.tree_map(lambda p, g: p - 0.01 * g, params, g), l
p = params
for _ in range(3):
    p, l = step(p, x, y)
jax.block_until_ready(l) if hasattr(jax, "block_until_ready") else None
n = 50
t = time.perf_counter()
for _ in range(n):
    p, l = step(p, x, y)
np.asarray(l)
print(mode, (time.perf_counter() - t) / n * 1e3, "ms/step", float(l))
if mode == "print":
    print(step.lower(params, x, y).as_text().split("# simplified jaxpr")[1].split("# generated")[0])
