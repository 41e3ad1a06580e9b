"""jaxlite: JAX's public API — jit, vmap, grad, lax control flow, host callbacks — on NumPy.

``import jaxlite as jax``; see README.md.
"""

from jaxlite._src.config import config as config
from jaxlite._src.core.array import Array as Array
from jaxlite._src.core.shape_dtype import ShapeDtypeStruct as ShapeDtypeStruct
from jaxlite._src.numpy import array_methods as _array_methods  # noqa: F401 (installs ops)
from jaxlite._src.compile.jit import jit as jit, disable_jit as disable_jit
from jaxlite._src.interpreters.staging import make_jaxpr as make_jaxpr
from jaxlite._src.api import jvp as jvp, vmap as vmap
from jaxlite._src.public_misc import (
    block_until_ready as block_until_ready,
    device_get as device_get,
    device_put as device_put,
    eval_shape as eval_shape,
    typeof as typeof,
    jit_stats as jit_stats,
)
from jaxlite._src.devices import (
    devices as devices,
    local_devices as local_devices,
    device_count as device_count,
    local_device_count as local_device_count,
)
from jaxlite._src.tree_util import tree_map as _tree_map  # noqa: F401
from jaxlite import numpy as numpy, lax as lax, tree_util as tree_util  # noqa: E402
from jaxlite import dtypes as dtypes, errors as errors  # noqa: E402
from jaxlite import tree as tree  # noqa: E402

__version__ = "0.1.0"
from jaxlite._src.callbacks import (  # noqa: E402
    pure_callback as pure_callback,
    effects_barrier as effects_barrier,
)
from jaxlite._src import debugging as _debugging  # noqa: E402,F401 (registers debug effects)
from jaxlite import debug as debug, experimental as experimental  # noqa: E402
from jaxlite._src.ad import grad as grad
from jaxlite._src.ad import value_and_grad as value_and_grad
from jaxlite._src.ad import vjp as vjp
from jaxlite._src.ad import linearize as linearize
from jaxlite._src.ad import jacfwd as jacfwd
from jaxlite._src.ad import jacrev as jacrev
from jaxlite._src.ad import hessian as hessian
from jaxlite._src.ad import linear_transpose as linear_transpose
from jaxlite._src.ad import closure_convert as closure_convert
from jaxlite._src.custom_derivatives import custom_jvp as custom_jvp
from jaxlite._src.custom_derivatives import custom_vjp as custom_vjp
from jaxlite._src.ad_checkpoint import checkpoint as checkpoint
from jaxlite._src.ad_checkpoint import remat as remat
from jaxlite._src.ad_checkpoint import checkpoint_policies as checkpoint_policies
from jaxlite import ad_checkpoint as ad_checkpoint  # noqa: E402
from jaxlite import nn as nn, scipy as scipy  # noqa: E402
