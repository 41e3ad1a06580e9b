"""Public ``jaxlite.scipy.spatial.transform`` (mirrors ``jax.scipy.spatial.transform``)."""

from jaxlite._src.scipy.spatial_transform import Rotation as Rotation, Slerp as Slerp
