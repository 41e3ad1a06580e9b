"""Public ``jaxlite.extend.linear_util`` (mirrors ``jax.extend.linear_util``)."""

from jaxlite._src.linear_util import (
    Store as Store,
    StoreException as StoreException,
    WrappedFun as WrappedFun,
    transformation as transformation,
    transformation2 as transformation2,
    transformation_with_aux as transformation_with_aux,
    transformation_with_aux2 as transformation_with_aux2,
    wrap_init as wrap_init,
)
