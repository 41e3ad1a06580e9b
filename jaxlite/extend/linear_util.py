"""Public ``jaxlite.extend.linear_util`` (mirrors ``jax.extend.linear_util``)."""

from jaxlite._src.linear_util import (
    Store as Store,
    StoreException as StoreException,
    WrappedFun as WrappedFun,
    wrap_init as wrap_init,
)
