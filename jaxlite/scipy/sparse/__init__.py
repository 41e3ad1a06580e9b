"""Public ``jaxlite.scipy.sparse`` (mirrors ``jax.scipy.sparse``)."""

from jaxlite.scipy.sparse import linalg as linalg  # noqa: F401
