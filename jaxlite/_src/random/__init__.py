"""``jax.random`` for jaxlite: threefry2x32 keys and samplers, bit-exact with JAX 0.10.2.

Modules, bottom up: ``threefry`` (the block-function primitive), ``prng`` (the ``key<fry>``
extended dtype, wrap/unwrap primitives, split/fold_in/bits as compositions),
``_xla_math`` (XLA:CPU's log/log1p/erf_inv/FMA for the bit-exact samplers), ``keys`` (the
public key functions) and ``distributions`` (the samplers). See spec/random.md.
"""
