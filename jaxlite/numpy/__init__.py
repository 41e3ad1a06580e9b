"""Public ``jaxlite.numpy`` (mirrors ``jax.numpy``)."""

from jaxlite._src.numpy.lax_numpy import *  # noqa: F401,F403
from jaxlite._src.numpy.lax_numpy import (  # noqa: F401
    abs as abs, all as all, any as any, max as max, min as min, round as round, sum as sum,
    pow as pow)
from jaxlite._src.numpy.indexing import nonzero as nonzero  # noqa: F401
from jaxlite._src.numpy.vectorize import vectorize as vectorize  # noqa: E402,F401
from jaxlite._src.numpy.extra import (  # noqa: F401,E402
    allclose as allclose, angle as angle, append as append, array_equal as array_equal,
    array_equiv as array_equiv, array_split as array_split, atleast_3d as atleast_3d,
    column_stack as column_stack, copysign as copysign, deg2rad as deg2rad,
    degrees as degrees, diag as diag, diag_indices as diag_indices, diagflat as diagflat,
    diagonal as diagonal, diff as diff, dstack as dstack, ediff1d as ediff1d,
    flip as flip, fliplr as fliplr, flipud as flipud, float_power as float_power, fmax as fmax,
    fmin as fmin, geomspace as geomspace, heaviside as heaviside, hsplit as hsplit,
    hypot as hypot, imag as imag, indices as indices, isclose as isclose,
    logaddexp as logaddexp, logaddexp2 as logaddexp2, logspace as logspace,
    meshgrid as meshgrid, nan_to_num as nan_to_num, pad as pad, rad2deg as rad2deg,
    radians as radians, real as real, repeat as repeat, rint as rint, roll as roll,
    rot90 as rot90, signbit as signbit, sinc as sinc, split as split, tile as tile,
    trace as trace, tri as tri, tril as tril, tril_indices as tril_indices, triu as triu,
    triu_indices as triu_indices, trunc as trunc, vsplit as vsplit)
from jaxlite._src.numpy.reductions_extra import (  # noqa: F401,E402
    average as average, median as median, nanargmax as nanargmax, nanargmin as nanargmin,
    nancumprod as nancumprod, nancumsum as nancumsum, nanmax as nanmax, nanmean as nanmean,
    nanmedian as nanmedian, nanmin as nanmin, nanpercentile as nanpercentile,
    nanprod as nanprod, nanquantile as nanquantile, nanstd as nanstd, nansum as nansum,
    nanvar as nanvar, percentile as percentile, ptp as ptp, quantile as quantile)
from jaxlite._src.numpy.sorting import (  # noqa: F401,E402
    argpartition as argpartition, argsort as argsort, argwhere as argwhere,
    bincount as bincount, count_nonzero as count_nonzero, digitize as digitize,
    flatnonzero as flatnonzero, histogram as histogram, lexsort as lexsort, msort as msort,
    partition as partition, searchsorted as searchsorted, sort as sort, take as take,
    take_along_axis as take_along_axis, unique as unique, unique_values as unique_values)
from jaxlite._src.numpy.einsum import (  # noqa: F401,E402
    einsum as einsum, kron as kron, tensordot as tensordot)
from jaxlite.numpy import linalg as linalg  # noqa: F401,E402
from jaxlite._src.numpy.scalar_types import (  # noqa: F401,E402
    bfloat16 as bfloat16, bool_ as bool_, complex64 as complex64, complex128 as complex128,
    float16 as float16, float32 as float32, float64 as float64, int8 as int8, int16 as int16,
    int32 as int32, int64 as int64, uint8 as uint8, uint16 as uint16, uint32 as uint32,
    uint64 as uint64)
from jaxlite._src.numpy.extra2 import (  # noqa: F401,E402
    acos as acos, acosh as acosh, apply_along_axis as apply_along_axis,
    apply_over_axes as apply_over_axes, asin as asin, asinh as asinh, atan as atan,
    atan2 as atan2, atanh as atanh, bitwise_invert as bitwise_invert,
    bitwise_left_shift as bitwise_left_shift, bitwise_right_shift as bitwise_right_shift,
    can_cast as can_cast, choose as choose, compress as compress, concat as concat,
    convolve as convolve, copy as copy, corrcoef as corrcoef, correlate as correlate,
    cov as cov, cross as cross, cumulative_prod as cumulative_prod,
    cumulative_sum as cumulative_sum, diag_indices_from as diag_indices_from,
    divmod as divmod, extract as extract, fabs as fabs, fill_diagonal as fill_diagonal,
    fromfunction as fromfunction, gcd as gcd, gradient as gradient,
    histogram_bin_edges as histogram_bin_edges, i0 as i0, interp as interp,
    intersect1d as intersect1d, iscomplex as iscomplex, iscomplexobj as iscomplexobj,
    isin as isin, isneginf as isneginf, isposinf as isposinf, isreal as isreal,
    isrealobj as isrealobj, isscalar as isscalar, iterable as iterable, ix_ as ix_,
    lcm as lcm, ldexp as ldexp, matvec as matvec, modf as modf, nextafter as nextafter,
    put as put, put_along_axis as put_along_axis, ravel_multi_index as ravel_multi_index,
    resize as resize, rollaxis as rollaxis, select as select, setdiff1d as setdiff1d,
    setxor1d as setxor1d, sort_complex as sort_complex, trapezoid as trapezoid,
    tril_indices_from as tril_indices_from, trim_zeros as trim_zeros,
    triu_indices_from as triu_indices_from, union1d as union1d, unique_all as unique_all,
    unique_counts as unique_counts, unique_inverse as unique_inverse,
    unravel_index as unravel_index, unstack as unstack, unwrap as unwrap, vander as vander,
    vecdot as vecdot, vecmat as vecmat)
