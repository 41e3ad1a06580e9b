"""Op-spec rows: reductions."""

from __future__ import annotations

import numpy as np

from ._base import S34, S234, A, B, F, I, J, OpSpec, add

# -------------------------------------------------------------------------- reductions
_RED = [
    ("sum", np.sum, 2),
    ("prod", np.prod, 2),
    ("mean", np.mean, 2),
    ("var", np.var, 2),
    ("std", np.std, 1),
    ("max", np.max, 1),
    ("min", np.min, 1),
    ("amax", np.amax, 1),
    ("amin", np.amin, 1),
    ("ptp", np.ptp, 1),
    ("median", np.median, 1),
    ("nansum", np.nansum, 1),
    ("nanmean", np.nanmean, 1),
    ("nanmax", np.nanmax, 1),
    ("nanmin", np.nanmin, 1),
    ("nanprod", np.nanprod, 1),
    ("nanvar", np.nanvar, 1),
    ("nanstd", np.nanstd, 1),
    ("logsumexp_jnp", None, 0),
]
for _n, _ref, _g in _RED:
    if _ref is None:
        continue
    add(OpSpec(_n, J(_n), (A(S234, F, 0.5, 2),), _ref, grad=_g))
    add(
        OpSpec(
            _n + "_ax1",
            J(_n, axis=1),
            (A(S234, F, 0.5, 2),),
            lambda x, f=_ref: f(x, axis=1),
            grad=_g,
        )
    )
    add(
        OpSpec(
            _n + "_axneg_keep",
            J(_n, axis=-1, keepdims=True),
            (A(S234, F, 0.5, 2),),
            lambda x, f=_ref: f(x, axis=-1, keepdims=True),
            grad=_g,
        )
    )
    add(
        OpSpec(
            _n + "_axtuple",
            J(_n, axis=(0, 2)),
            (A(S234, F, 0.5, 2),),
            lambda x, f=_ref: f(x, axis=(0, 2)),
            grad=_g,
        )
    )

add(
    OpSpec("sum_int8", J("sum"), (A(S34, "int8", -3, 3),), np.sum, grad=0),
    OpSpec("sum_bool", J("sum", axis=0), (A(S34, B),), lambda x: np.sum(x, 0), grad=0),
    OpSpec("sum_dtype", J("sum", dtype="float32"), (A(S34, I, -3, 3),), np.sum, grad=0),
    OpSpec(
        "sum_where",
        lambda m: lambda x, w: m.jnp.sum(x, axis=1, where=w),
        (A(S34), A(S34, B)),
        lambda x, w: np.sum(x, axis=1, where=w),
    ),
    OpSpec("mean_int", J("mean"), (A(S34, I, -3, 3),), np.mean, grad=0),
    OpSpec(
        "mean_where",
        lambda m: lambda x, w: m.jnp.mean(x, where=w),
        (A(S34), A(S34, B)),
        lambda x, w: np.mean(x, where=w),
    ),
    OpSpec("var_ddof", J("var", ddof=1, axis=0), (A(S34),), lambda x: np.var(x, 0, ddof=1)),
    OpSpec("std_ddof", J("std", ddof=1), (A(S34),), lambda x: np.std(x, ddof=1)),
    OpSpec(
        "max_initial", J("max", axis=1, initial=0.5), (A(S34),), lambda x: np.max(x, 1, initial=0.5)
    ),
    OpSpec("all", J("all", axis=1), (A(S34, B),), lambda x: np.all(x, 1), grad=0),
    OpSpec("any", J("any"), (A(S34, B),), np.any, grad=0),
    OpSpec("all_float", J("all"), (A(S34),), np.all, grad=0),
    OpSpec("argmax", J("argmax", axis=1), (A(S34),), lambda x: np.argmax(x, 1), grad=0),
    OpSpec("argmin", J("argmin"), (A(S34),), np.argmin, grad=0),
    OpSpec(
        "argmax_keep",
        J("argmax", axis=0, keepdims=True),
        (A(S34),),
        lambda x: np.argmax(x, 0, keepdims=True),
        grad=0,
    ),
    OpSpec("nanargmax", J("nanargmax", axis=1), (A(S34),), lambda x: np.nanargmax(x, 1), grad=0),
    OpSpec("nanargmin", J("nanargmin"), (A(S34),), np.nanargmin, grad=0),
    OpSpec(
        "count_nonzero",
        J("count_nonzero", axis=0),
        (A(S34, I, 0, 2),),
        lambda x: np.count_nonzero(x, 0),
        grad=0,
    ),
    OpSpec("cumsum", J("cumsum", axis=1), (A(S34),), lambda x: np.cumsum(x, 1), grad=2),
    OpSpec("cumsum_flat", J("cumsum"), (A(S34),), np.cumsum),
    OpSpec("cumprod", J("cumprod", axis=0), (A(S34, F, 0.5, 1.5),), lambda x: np.cumprod(x, 0)),
    OpSpec("cumsum_bool", J("cumsum", axis=1), (A(S34, B),), lambda x: np.cumsum(x, 1), grad=0),
    OpSpec("nancumsum", J("nancumsum", axis=1), (A(S34),), lambda x: np.nancumsum(x, 1)),
    OpSpec("quantile", J("quantile", q=0.3), (A(S34),), lambda x: np.quantile(x, 0.3)),
    OpSpec(
        "quantile_ax",
        J("quantile", q=0.75, axis=1),
        (A(S34),),
        lambda x: np.quantile(x, 0.75, axis=1),
    ),
    OpSpec(
        "quantile_vec",
        lambda m: lambda x: m.jnp.quantile(x, m.jnp.array([0.1, 0.9]), axis=0),
        (A(S34),),
        lambda x: np.quantile(x, [0.1, 0.9], axis=0),
    ),
    OpSpec(
        "percentile",
        J("percentile", q=40.0, axis=0),
        (A(S34),),
        lambda x: np.percentile(x, 40.0, axis=0),
    ),
    OpSpec("median_even", J("median", axis=1), (A(S34),), lambda x: np.median(x, 1)),
    OpSpec("average", J("average"), (A(S34),), np.average),
    OpSpec(
        "average_w",
        lambda m: lambda x, w: m.jnp.average(x, axis=1, weights=w),
        (A(S34), A((4,), F, 0.5, 1)),
        lambda x, w: np.average(x, 1, w),
    ),
)
