"""Public ``jaxlite.sharding`` (mirrors ``jax.sharding``): meshes, specs and shardings."""

from jaxlite._src.sharding.array import Shard as Shard
from jaxlite._src.sharding.constructors import reshard as reshard
from jaxlite._src.sharding.explicit import auto_axes as auto_axes, explicit_axes as explicit_axes
from jaxlite._src.sharding.mesh import (
    AbstractMesh as AbstractMesh,
    AxisType as AxisType,
    Mesh as Mesh,
    get_abstract_mesh as get_abstract_mesh,
    get_mesh as get_mesh,
    set_mesh as set_mesh,
)
from jaxlite._src.sharding.specs import (
    NamedSharding as NamedSharding,
    PartitionSpec as PartitionSpec,
    Sharding as Sharding,
    SingleDeviceSharding as SingleDeviceSharding,
    make_single_device_sharding as make_single_device_sharding,
)

__all__ = [
    "AbstractMesh",
    "AxisType",
    "Mesh",
    "NamedSharding",
    "PartitionSpec",
    "Shard",
    "Sharding",
    "SingleDeviceSharding",
    "auto_axes",
    "explicit_axes",
    "get_abstract_mesh",
    "get_mesh",
    "make_single_device_sharding",
    "reshard",
    "set_mesh",
]
