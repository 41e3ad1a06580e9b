"""Private implementations behind ``jaxlite.scipy`` (as ``jax._src.scipy``): one flat module
per public submodule (``special``, ``stats``, ``linalg``, ``sparse_linalg``, ``optimize``,
``interpolate``, ``cluster``, ``signal``, ``fft``, ``integrate``, ``ndimage``), with
topic-suffixed siblings (``special_more``, ``stats_discrete``, ``linalg_decomp``,
``optimize_bfgs``, ...) where one module would be too long; docs/architecture.md has the
map. Written with ``jaxlite.numpy`` and ``jaxlite.lax``, so ``jit``, ``vmap`` and ``grad``
apply to them. This ``__init__`` imports nothing, so importing one module loads only what
that module needs."""
