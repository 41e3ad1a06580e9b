"""jaxlite: JAX's public API — jit, vmap, grad, lax control flow, host callbacks — on NumPy.

``import jaxlite as jax``; see README.md.
"""

import importlib as _importlib

from jaxlite import (  # noqa: E402  # noqa: E402
    dtypes as dtypes,
    errors as errors,
    lax as lax,
    numpy as numpy,
    ref as ref,
    sharding as sharding,  # noqa: E402
    tree as tree,  # noqa: E402
    tree_util as tree_util,
)
from jaxlite._src.api import jvp as jvp, vmap as vmap
from jaxlite._src.compile.jit import disable_jit as disable_jit, jit as jit
from jaxlite._src.config import (
    check_tracer_leaks as check_tracer_leaks,
    checking_leaks as checking_leaks,
    config as config,
    debug_infs as debug_infs,
    debug_nans as debug_nans,
    default_device as default_device,
    default_prng_impl as default_prng_impl,
    enable_checks as enable_checks,
    enable_custom_prng as enable_custom_prng,
    enable_x64 as enable_x64,
    explain_cache_misses as explain_cache_misses,
    legacy_prng_key as legacy_prng_key,
    log_compiles as log_compiles,
    threefry_partitionable as threefry_partitionable,
    transfer_guard as transfer_guard,
    transfer_guard_device_to_device as transfer_guard_device_to_device,
    transfer_guard_device_to_host as transfer_guard_device_to_host,
    transfer_guard_host_to_device as transfer_guard_host_to_device,
)
from jaxlite._src.core.array import Array as Array
from jaxlite._src.core.shape_dtype import ShapeDtypeStruct as ShapeDtypeStruct
from jaxlite._src.devices import (
    Device as Device,
    default_backend as default_backend,
    device_count as device_count,
    devices as devices,
    host_count as host_count,
    host_id as host_id,
    host_ids as host_ids,
    local_device_count as local_device_count,
    local_devices as local_devices,
    process_count as process_count,
    process_index as process_index,
    process_indices as process_indices,
)
from jaxlite._src.dtypes import float0 as float0
from jaxlite._src.interpreters.staging import make_jaxpr as make_jaxpr
from jaxlite._src.numpy import array_methods as _array_methods  # noqa: F401 (installs ops)
from jaxlite._src.public_misc import (
    block_until_ready as block_until_ready,
    clear_caches as clear_caches,
    copy_to_host_async as copy_to_host_async,
    device_get as device_get,
    eval_shape as eval_shape,
    jit_stats as jit_stats,
    live_arrays as live_arrays,
    print_environment_info as print_environment_info,
)
from jaxlite._src.sharding import jit_shardings as _jit_shardings  # noqa: F401 (hooks)
from jaxlite._src.sharding.array import Shard as Shard, device_put as device_put
from jaxlite._src.sharding.constructors import (
    _DEPRECATED as _DEPRECATED_NAMES,
    make_array_from_callback as make_array_from_callback,
    make_array_from_process_local_data as make_array_from_process_local_data,
    make_array_from_single_device_arrays as make_array_from_single_device_arrays,
    reshard as reshard,
)
from jaxlite._src.sharding.explicit import typeof as typeof
from jaxlite._src.sharding.mesh import make_mesh as make_mesh, set_mesh as set_mesh
from jaxlite._src.sharding.specs import NamedSharding as NamedSharding, PartitionSpec as P
from jaxlite._src.state import (
    Ref as Ref,
    empty_ref as empty_ref,
    free_ref as free_ref,
    freeze as freeze,
    new_ref as new_ref,
)
from jaxlite._src.tree_util import tree_map as _tree_map  # noqa: F401

__version__ = "0.1.0"
from jaxlite import (  # noqa: E402  # noqa: E402  # noqa: E402
    ad_checkpoint as ad_checkpoint,  # noqa: E402
    api_util as api_util,
    core as core,
    custom_batching as custom_batching,
    custom_derivatives as custom_derivatives,
    debug as debug,
    dlpack as dlpack,
    interpreters as interpreters,
    monitoring as monitoring,
    ops as ops,
    stages as stages,
    typing as typing,
)
from jaxlite._src import (
    debugging as _debugging,  # noqa: E402,F401 (registers debug effects)
    util as _util,  # noqa: E402
)
from jaxlite._src.ad import (
    closure_convert as closure_convert,
    fwd_and_bwd as fwd_and_bwd,
    grad as grad,
    hessian as hessian,
    jacfwd as jacfwd,
    jacobian as jacobian,
    jacrev as jacrev,
    linear_transpose as linear_transpose,
    linearize as linearize,
    value_and_grad as value_and_grad,
    vjp as vjp,
)
from jaxlite._src.ad_checkpoint import (
    checkpoint as checkpoint,
    checkpoint_policies as checkpoint_policies,
    remat as remat,
)
from jaxlite._src.callbacks import (  # noqa: E402
    effects_barrier as effects_barrier,
    pure_callback as pure_callback,
)
from jaxlite._src.config import (  # noqa: E402
    allow_f16_reductions as allow_f16_reductions,
    array_garbage_collection_guard as array_garbage_collection_guard,
    auto_pcast as auto_pcast,
    debug_key_reuse as debug_key_reuse,
    default_matmul_precision as default_matmul_precision,
    jax2tf_associative_scan_reductions as jax2tf_associative_scan_reductions,
    no_execution as no_execution,
    no_tracing as no_tracing,
    numpy_dtype_promotion as numpy_dtype_promotion,
    numpy_rank_promotion as numpy_rank_promotion,
    remove_size_one_mesh_axis_from_type as remove_size_one_mesh_axis_from_type,
    softmax_custom_jvp as softmax_custom_jvp,
    thread_guard as thread_guard,
)
from jaxlite._src.custom_derivatives import custom_jvp as custom_jvp, custom_vjp as custom_vjp
from jaxlite._src.custom_gradient import custom_gradient as custom_gradient  # noqa: E402
from jaxlite._src.jax_extension import (  # noqa: E402
    ensure_compile_time_eval as ensure_compile_time_eval,
)
from jaxlite._src.name_stack import named_call as named_call, named_scope as named_scope  # noqa: E402

# Loaded at first access, so ``import jaxlite`` does not pay for them (docs/benchmarks.md,
# "Import time"): submodules (``import jaxlite.random`` works as usual) and names whose
# modules pull in a subsystem of their own.
_LAZY_SUBMODULES = frozenset(
    {"distributed", "experimental", "image", "nn", "profiler", "random", "scipy"}
)
_LAZY_NAMES = {
    "install_as_jax": "jaxlite._src.jax_alias",
    "pmap": "jaxlite._src.sharding.pmap",
    "shard_map": "jaxlite._src.sharding.shard_map_api",
}


def __getattr__(name):
    if name in _LAZY_SUBMODULES:
        return _util.import_submodule(f"jaxlite.{name}")
    if name in _LAZY_NAMES:
        value = getattr(_importlib.import_module(_LAZY_NAMES[name]), name)
        globals()[name] = value
        return value
    # Names JAX 0.10.2 removed with a message (S4.4).
    msg = _DEPRECATED_NAMES.get(name)
    if msg is not None:
        raise AttributeError(msg)
    raise AttributeError(f"module 'jaxlite' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | _LAZY_SUBMODULES | set(_LAZY_NAMES))
