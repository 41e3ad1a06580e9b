"""Public ``jaxlite.scipy.spatial`` (mirrors ``jax.scipy.spatial``)."""
