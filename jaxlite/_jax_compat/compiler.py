"""``jax._src.compiler`` (chex.restrict_backends patches its compile entry points).

jaxlite compiles jaxprs to Python source (``jaxlite._src.compile``), never through an XLA
backend, so these entry points exist only to be patched; chex's restriction never fires.
"""


def _no_xla(*args, **kwargs):
    raise NotImplementedError(
        "jaxlite does not compile through an XLA backend; jit generates Python source"
    )


backend_compile = _no_xla
backend_compile_and_load = _no_xla
