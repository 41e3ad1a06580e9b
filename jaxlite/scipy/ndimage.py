"""Public ``jaxlite.scipy.ndimage`` (mirrors ``jax.scipy.ndimage``)."""

from jaxlite._src.scipy.ndimage import map_coordinates as map_coordinates
