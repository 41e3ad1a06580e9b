"""Public ``jaxlite.lax`` (mirrors ``jax.lax``): primitive-level ops and control flow."""

from jaxlite._src.ops.clamp import clamp_p as clamp_p  # noqa: F401
from jaxlite._src.ops.conversion import (  # noqa: F401
    broadcasted_iota as broadcasted_iota,
    convert_element_type as convert_element_type,
    convert_element_type_p as convert_element_type_p,
    iota as iota,
)
from jaxlite._src.ops.elementwise import (  # noqa: F401
    acos as acos,
    acosh as acosh,
    add_p as add_p,
    asin as asin,
    asinh as asinh,
    atan as atan,
    atanh as atanh,
    bitwise_not as bitwise_not,
    ceil as ceil,
    cos_p as cos_p,
    cosh as cosh,
    digamma as digamma,
    div_p as div_p,
    erf as erf,
    erf_inv as erf_inv,
    erfc as erfc,
    exp_p as exp_p,
    floor as floor,
    imag as imag,
    integer_pow_p as integer_pow_p,
    is_finite as is_finite,
    lgamma as lgamma,
    log_p as log_p,
    max_p as max_p,
    min_p as min_p,
    mul_p as mul_p,
    neg as neg,
    neg_p as neg_p,
    population_count as population_count,
    real as real,
    select_n_p as select_n_p,
    sign as sign,
    sin_p as sin_p,
    sinh as sinh,
    square as square,
    sub_p as sub_p,
    tanh_p as tanh_p,
)
from jaxlite._src.ops.fft import (  # noqa: F401
    FftType as FftType,
    fft as fft,
    fft_p as fft_p,
)
from jaxlite._src.ops.lax_api import (  # noqa: F401 (JAX's strict dtype rules)
    abs as abs,
    add as add,
    atan2 as atan2,
    bitwise_and as bitwise_and,
    bitwise_or as bitwise_or,
    bitwise_xor as bitwise_xor,
    complex as complex,
    div as div,
    eq as eq,
    ge as ge,
    gt as gt,
    le as le,
    lt as lt,
    max as max,
    min as min,
    mul as mul,
    ne as ne,
    nextafter as nextafter,
    pow as pow,
    rem as rem,
    shift_left as shift_left,
    shift_right_arithmetic as shift_right_arithmetic,
    shift_right_logical as shift_right_logical,
    sub as sub,
)
from jaxlite._src.ops.lax_strict import (  # noqa: F401 (JAX's strict dtype rules)
    betainc as betainc,
    cbrt as cbrt,
    clamp as clamp,
    conj as conj,
    cos as cos,
    cummax as cummax,
    cummin as cummin,
    cumprod as cumprod,
    cumsum as cumsum,
    exp as exp,
    exp2 as exp2,
    expm1 as expm1,
    igamma as igamma,
    igamma_grad_a as igamma_grad_a,
    igammac as igammac,
    integer_pow as integer_pow,
    log as log,
    log1p as log1p,
    logistic as logistic,
    polygamma as polygamma,
    random_gamma_grad as random_gamma_grad,
    round as round,
    rsqrt as rsqrt,
    select as select,
    select_n as select_n,
    sin as sin,
    sqrt as sqrt,
    tan as tan,
    tanh as tanh,
    zeta as zeta,
)
from jaxlite._src.ops.linalg import dot as dot, dot_general as dot_general  # noqa: F401
from jaxlite._src.ops.reductions import (  # noqa: F401
    argmax as argmax,
    argmin as argmin,
    reduce_and as reduce_and,
    reduce_max as reduce_max,
    reduce_min as reduce_min,
    reduce_or as reduce_or,
    reduce_prod as reduce_prod,
    reduce_sum as reduce_sum,
    reduce_xor as reduce_xor,
)
from jaxlite._src.ops.shape import (  # noqa: F401
    broadcast as broadcast,
    broadcast_in_dim as broadcast_in_dim,
    concatenate as concatenate,
    expand_dims as expand_dims,
    index_in_dim as index_in_dim,
    pad as pad,
    reshape as reshape,
    rev as rev,
    slice as slice,
    slice_in_dim as slice_in_dim,
    squeeze as squeeze,
    transpose as transpose,
)
from jaxlite._src.ops.structural import (
    stop_gradient_p as _stop_gradient_p,  # noqa: F401
    stop_gradient_p as stop_gradient_p,  # noqa: F401
)


def stop_gradient(x):
    """``jax.lax.stop_gradient``: the identity whose derivative is zero (pytrees too)."""
    from jaxlite._src.numpy.util import asarray_any
    from jaxlite._src.tree_util import tree_map

    return tree_map(lambda v: _stop_gradient_p.bind(asarray_any(v)), x)


from jaxlite._src import util as _util  # noqa: E402
from jaxlite._src.control_flow.cond import cond as cond, cond_p as cond_p, switch as switch  # noqa: F401,E402
from jaxlite._src.control_flow.scan import (  # noqa: F401,E402
    associative_scan as associative_scan,
    map as map,
    scan as scan,
    scan_p as scan_p,
)
from jaxlite._src.control_flow.while_loop import (  # noqa: F401,E402
    fori_loop as fori_loop,
    while_loop as while_loop,
    while_p as while_p,
)
from jaxlite._src.lax_composites import (  # noqa: F401,E402
    cumlogsumexp as cumlogsumexp,
    optimization_barrier as optimization_barrier,
    split as split,
    stack as stack,
    unstack as unstack,
)
from jaxlite._src.lax_more import (  # noqa: F401,E402
    RaggedDotDimensionNumbers as RaggedDotDimensionNumbers,
    approx_max_k as approx_max_k,
    approx_min_k as approx_min_k,
    batch_matmul as batch_matmul,
    broadcast_like as broadcast_like,
    broadcast_to_rank as broadcast_to_rank,
    conv_general_dilated_local as conv_general_dilated_local,
    conv_general_dilated_patches as conv_general_dilated_patches,
    conv_general_permutations as conv_general_permutations,
    conv_general_shape_tuple as conv_general_shape_tuple,
    conv_shape_tuple as conv_shape_tuple,
    conv_transpose_shape_tuple as conv_transpose_shape_tuple,
    dtype as dtype,
    empty as empty,
    index_take as index_take,
    mulhi as mulhi,
    platform_dependent as platform_dependent,
    ragged_dot as ragged_dot,
    ragged_dot_general as ragged_dot_general,
    reduce_window_shape_tuple as reduce_window_shape_tuple,
    scatter_apply as scatter_apply,
    tile as tile,
)
from jaxlite._src.lax_reduce import reduce as reduce  # noqa: F401,E402
from jaxlite._src.lax_solves import (  # noqa: F401,E402
    custom_linear_solve as custom_linear_solve,
    custom_root as custom_root,
    linear_solve_p as linear_solve_p,
)
from jaxlite._src.numpy.shape import broadcast_shapes_lax as broadcast_shapes  # noqa: E402
from jaxlite._src.ops.bitcast import (  # noqa: F401,E402  # noqa: E402
    bitcast_convert_type as bitcast_convert_type,
    bitcast_convert_type_p as bitcast_convert_type_p,
    reduce_precision as reduce_precision,
    reduce_precision_p as reduce_precision_p,
)
from jaxlite._src.ops.bits import clz as clz, clz_p as clz_p  # noqa: F401,E402
from jaxlite._src.ops.conversion import (  # noqa: E402
    iota_p as iota_p,
)
from jaxlite._src.ops.convolution import (  # noqa: F401,E402
    conv as conv,
    conv_dimension_numbers as conv_dimension_numbers,
    conv_general_dilated as conv_general_dilated,
    conv_general_dilated_p as conv_general_dilated_p,
    conv_transpose as conv_transpose,
    conv_with_general_padding as conv_with_general_padding,
    padtype_to_pads as padtype_to_pads,
)
from jaxlite._src.ops.cumulative import (  # noqa: E402
    cummax_p as cummax_p,
    cummin_p as cummin_p,
    cumprod_p as cumprod_p,
    cumsum_p as cumsum_p,
)

# Primitive objects (``jax.lax.*_p``), for libraries that inspect jaxprs or register rules.
from jaxlite._src.ops.elementwise import (  # noqa: E402
    abs_p as abs_p,
    acos_p as acos_p,
    acosh_p as acosh_p,
    and_p as and_p,
    asin_p as asin_p,
    asinh_p as asinh_p,
    atan2_p as atan2_p,
    atan_p as atan_p,
    atanh_p as atanh_p,
    cbrt_p as cbrt_p,
    ceil_p as ceil_p,
    complex_p as complex_p,
    conj_p as conj_p,
    cosh_p as cosh_p,
    digamma_p as digamma_p,
    eq_p as eq_p,
    erf_inv_p as erf_inv_p,
    erf_p as erf_p,
    erfc_p as erfc_p,
    exp2_p as exp2_p,
    expm1_p as expm1_p,
    floor_p as floor_p,
    ge_p as ge_p,
    gt_p as gt_p,
    imag_p as imag_p,
    is_finite_p as is_finite_p,
    le_p as le_p,
    lgamma_p as lgamma_p,
    log1p_p as log1p_p,
    logistic_p as logistic_p,
    lt_p as lt_p,
    ne_p as ne_p,
    nextafter_p as nextafter_p,
    not_p as not_p,
    or_p as or_p,
    population_count_p as population_count_p,
    pow_p as pow_p,
    real_p as real_p,
    rem_p as rem_p,
    round_p as round_p,
    rsqrt_p as rsqrt_p,
    shift_left_p as shift_left_p,
    shift_right_arithmetic_p as shift_right_arithmetic_p,
    shift_right_logical_p as shift_right_logical_p,
    sign_p as sign_p,
    sinh_p as sinh_p,
    sqrt_p as sqrt_p,
    square_p as square_p,
    tan_p as tan_p,
    xor_p as xor_p,
)
from jaxlite._src.ops.gather_scatter import (  # noqa: F401,E402
    GatherDimensionNumbers as GatherDimensionNumbers,
    ScatterDimensionNumbers as ScatterDimensionNumbers,
    gather as gather,
    scatter as scatter,
    scatter_add as scatter_add,
    scatter_max as scatter_max,
    scatter_min as scatter_min,
    scatter_mul as scatter_mul,
    scatter_sub as scatter_sub,
)
from jaxlite._src.ops.indexing import (  # noqa: E402
    gather_p as gather_p,
    scatter_p as scatter_p,
)
from jaxlite._src.ops.lax_extras import (  # noqa: F401,E402  # noqa: F401,E402 (negative starts count from the end)
    collapse as collapse,
    dynamic_index_in_dim as dynamic_index_in_dim,
    dynamic_slice_in_dim as dynamic_slice_in_dim,
    dynamic_update_index_in_dim as dynamic_update_index_in_dim,
    dynamic_update_slice_in_dim as dynamic_update_slice_in_dim,
)
from jaxlite._src.ops.lax_types import (  # noqa: F401,E402
    AccuracyMode as AccuracyMode,
    ConvDimensionNumbers as ConvDimensionNumbers,
    ConvGeneralDilatedDimensionNumbers as ConvGeneralDilatedDimensionNumbers,
    DotDimensionNumbers as DotDimensionNumbers,
    GatherScatterMode as GatherScatterMode,
    Precision as Precision,
    PrecisionLike as PrecisionLike,
    RandomAlgorithm as RandomAlgorithm,
    RoundingMethod as RoundingMethod,
    Tolerance as Tolerance,
    after_all as after_all,
    create_token as create_token,
    full as full,
    full_like as full_like,
    reciprocal as reciprocal,
    shape_as_value as shape_as_value,
    stage as stage,
)
from jaxlite._src.ops.linalg import (  # noqa: E402
    dot_general_p as dot_general_p,
)
from jaxlite._src.ops.parallel import (  # noqa: E402,F401  # noqa: E402
    all_gather as all_gather,
    all_gather_p as all_gather_p,
    axis_index as axis_index,
    axis_index_p as axis_index_p,
    pmax as pmax,
    pmax_p as pmax_p,
    pmean as pmean,
    pmin as pmin,
    pmin_p as pmin_p,
    ppermute as ppermute,
    ppermute_p as ppermute_p,
    pshuffle as pshuffle,
    psum as psum,
    psum_p as psum_p,
)
from jaxlite._src.ops.parallel_extra import (  # noqa: F401,E402
    all_to_all as all_to_all,
    axis_size as axis_size,
    pbroadcast as pbroadcast,
    pcast as pcast,
    psum_scatter as psum_scatter,
    pswapaxes as pswapaxes,
)
from jaxlite._src.ops.reductions import (  # noqa: E402
    argmax_p as argmax_p,
    argmin_p as argmin_p,
    reduce_and_p as reduce_and_p,
    reduce_max_p as reduce_max_p,
    reduce_min_p as reduce_min_p,
    reduce_or_p as reduce_or_p,
    reduce_prod_p as reduce_prod_p,
    reduce_sum_p as reduce_sum_p,
    reduce_xor_p as reduce_xor_p,
)
from jaxlite._src.ops.shape import (  # noqa: E402
    broadcast_in_dim_p as broadcast_in_dim_p,
    concatenate_p as concatenate_p,
    pad_p as pad_p,
    reshape_p as reshape_p,
    rev_p as rev_p,
    slice_p as slice_p,
    squeeze_p as squeeze_p,
    transpose_p as transpose_p,
)
from jaxlite._src.ops.slicing import (  # noqa: F401,E402 (negative starts count from the end)
    dynamic_slice as dynamic_slice,
    dynamic_slice_p as dynamic_slice_p,
    dynamic_update_slice as dynamic_update_slice,
    dynamic_update_slice_p as dynamic_update_slice_p,
)
from jaxlite._src.ops.sorting import (  # noqa: F401,E402
    sort as sort,
    sort_key_val as sort_key_val,
    sort_p as sort_p,
    top_k as top_k,
    top_k_p as top_k_p,
)
from jaxlite._src.ops.special import (  # noqa: E402  # noqa: E402
    bessel_i0e as bessel_i0e,
    bessel_i0e_p as bessel_i0e_p,
    bessel_i1e as bessel_i1e,
    bessel_i1e_p as bessel_i1e_p,
    igamma_grad_a_p as igamma_grad_a_p,
    igamma_p as igamma_p,
    igammac_p as igammac_p,
    regularized_incomplete_beta_p as regularized_incomplete_beta_p,
)
from jaxlite._src.ops.special_more import (  # noqa: F401,E402
    polygamma_p as polygamma_p,
    zeta_p as zeta_p,
)
from jaxlite._src.ops.windowed import reduce_window as reduce_window  # noqa: F401,E402
from jaxlite._src.sharding.jit_shardings import (  # noqa: F401,E402
    with_sharding_constraint as with_sharding_constraint,
)


def __getattr__(name):
    if name == "linalg":  # loaded at first access (import time: docs/benchmarks.md)
        return _util.import_submodule("jaxlite.lax.linalg")
    if name == "pvary":
        raise AttributeError(
            "jax.lax.pvary was deprecated in JAX v0.8.2 and removed in JAX v0.10.0; use "
            "`jax.lax.pcast(..., to='varying')"
        )
    raise _util.missing_attribute(__name__, name)


def __dir__():
    return sorted(set(globals()) | {"linalg"})
