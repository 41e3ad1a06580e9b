"""Private implementations behind ``jaxlite.scipy.signal``, ``fft``, ``integrate`` and
``ndimage`` (one module each, as ``jax._src.scipy``). Written with ``jaxlite.numpy`` and
``jaxlite.lax``, so ``jit``, ``vmap`` and ``grad`` apply to them."""
