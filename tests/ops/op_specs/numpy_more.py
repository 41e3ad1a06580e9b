"""Op-spec rows: more jax.numpy functions."""

from __future__ import annotations

import numpy as np

from ._base import LA, NN, S34, S234, SP, A, B, F, I, J, L, OpSpec, add

# ------------------------------------------------------------------------ more rows
add(
    OpSpec("nn_hard_sigmoid", NN("hard_sigmoid"), (A(S34, F, -4, 4),), None),
    OpSpec("nn_hard_silu", NN("hard_silu"), (A(S34, F, -4, 4),), None),
    OpSpec("nn_mish", NN("mish"), (A(S34),), None, grad=2),
    OpSpec(
        "nn_one_hot_axis0", NN("one_hot", num_classes=3, axis=0), (A((4,), I, 0, 3),), None, grad=0
    ),
    OpSpec(
        "nn_softmax_where",
        lambda m: lambda x, w: m.nn.softmax(x, where=w),
        (A(S34), A(S34, B)),
        None,
        grad=0,
    ),
    OpSpec("sp_ndtr", SP("ndtr"), (A(S34),), None, grad=2),
    OpSpec("sp_gamma", SP("gamma"), (A(S34, F, 0.5, 3),), None, rtol=1e-4),
    OpSpec("sp_logsumexp_sign", SP("logsumexp", return_sign=True), (A(S34),), None, grad=0),
    OpSpec(
        "meshgrid",
        lambda m: lambda a, b: m.jnp.meshgrid(a, b),
        (A((3,)), A((4,))),
        lambda a, b: np.meshgrid(a, b),
    ),
    OpSpec(
        "meshgrid_ij",
        lambda m: lambda a, b: m.jnp.meshgrid(a, b, indexing="ij"),
        (A((3,)), A((4,))),
        lambda a, b: np.meshgrid(a, b, indexing="ij"),
    ),
    OpSpec("diff", J("diff"), (A(S34),), np.diff),
    OpSpec("diff_n2_ax0", J("diff", n=2, axis=0), (A((4, 3)),), lambda x: np.diff(x, 2, 0)),
    OpSpec("ediff1d", J("ediff1d"), (A(S34),), np.ediff1d),
    OpSpec(
        "append",
        lambda m: lambda x, y: m.jnp.append(x, y, axis=0),
        (A(S34), A((1, 4))),
        lambda x, y: np.append(x, y, 0),
    ),
    OpSpec("nanmedian", J("nanmedian", axis=0), (A(S34),), lambda x: np.nanmedian(x, 0)),
    OpSpec(
        "nanquantile",
        J("nanquantile", q=0.4, axis=1),
        (A(S34),),
        lambda x: np.nanquantile(x, 0.4, axis=1),
    ),
    OpSpec(
        "nanpercentile", J("nanpercentile", q=70.0), (A(S34),), lambda x: np.nanpercentile(x, 70.0)
    ),
    OpSpec(
        "quantile_lower",
        J("quantile", q=0.3, method="lower"),
        (A((7,)),),
        lambda x: np.quantile(x, 0.3, method="lower"),
        grad=0,
    ),
    OpSpec(
        "quantile_nearest",
        J("quantile", q=0.6, axis=0, method="nearest"),
        (A(S34),),
        lambda x: np.quantile(x, 0.6, axis=0, method="nearest"),
        grad=0,
    ),
    OpSpec(
        "quantile_midpoint",
        J("quantile", q=0.5, method="midpoint"),
        (A((6,)),),
        lambda x: np.quantile(x, 0.5, method="midpoint"),
    ),
    OpSpec("flatnonzero", J("flatnonzero", size=4), (A(S34, I, 0, 2),), None, grad=0),
    OpSpec("sort_desc", J("sort", descending=True), (A(S34),), lambda x: -np.sort(-x)),
    OpSpec(
        "searchsorted_sorter",
        lambda m: lambda a, v: m.jnp.searchsorted(a, v, sorter=m.jnp.argsort(a)),
        (A((6,)), A((3,))),
        lambda a, v: np.searchsorted(a, v, sorter=np.argsort(a)),
        grad=0,
    ),
    OpSpec(
        "unique_inverse",
        J("unique", size=5, return_inverse=True, return_index=True),
        (A((7,), I, 0, 5, "small"),),
        None,
        grad=0,
    ),
    OpSpec(
        "take_clip", J("take", indices=np.array([-5, 0, 9]), axis=0, mode="clip"), (A(S34),), None
    ),
    OpSpec(
        "take_fill_oob", J("take", indices=np.array([-5, 0, 9]), axis=1), (A(S34),), None, grad=0
    ),
    OpSpec(
        "take_along_bcast",
        lambda m: lambda x, i: m.jnp.take_along_axis(x, i, axis=0),
        (A(S34), A((2, 1), I, 0, 3)),
        lambda x, i: np.take_along_axis(x, i, 0),
    ),
    OpSpec(
        "triu_indices_gather",
        lambda m: lambda x: x[m.jnp.triu_indices(3, 1, 4)],
        (A(S34),),
        lambda x: x[np.triu_indices(3, 1, 4)],
    ),
    OpSpec(
        "indices_sum",
        lambda m: lambda x: x + m.jnp.indices((3, 4)).sum(0),
        (A(S34),),
        lambda x: x + np.indices((3, 4)).sum(0),
    ),
    OpSpec("linalg_matrix_rank", LA("matrix_rank"), (A((4, 3)),), None, grad=0),
    OpSpec(
        "linalg_multi_dot",
        lambda m: lambda a, b, c: m.linalg.multi_dot([a, b, c]),
        (A(S34), A((4, 2)), A((2, 3))),
        lambda a, b, c: np.linalg.multi_dot([a, b, c]),
    ),
    OpSpec("linalg_vector_norm", LA("vector_norm", ord=3, axis=1), (A(S34),), None),
    OpSpec("linalg_matrix_norm", LA("matrix_norm"), (A((2, 3, 4)),), None),
    OpSpec("linalg_svdvals", LA("svdvals"), (A((4, 3)),), None, rtol=1e-4),
    OpSpec(
        "linalg_cholesky_upper",
        LA("cholesky", upper=True),
        (A((3, 3), F, gen="spd"),),
        None,
        rtol=1e-4,
    ),
    OpSpec("linalg_inv_batch", LA("inv"), (A((2, 3, 3), F, -1, 1, "wellcond"),), None, rtol=1e-4),
    OpSpec(
        "linalg_qr_complete_abs",
        lambda m: lambda x: m.jnp.abs(m.linalg.qr(x, mode="complete")[1]),
        (A((4, 3)),),
        None,
        rtol=1e-4,
        grad=0,
    ),
    OpSpec("linalg_norm_fro_axes", LA("norm", ord="fro", axis=(0, 2)), (A((2, 3, 4)),), None),
    OpSpec(
        "lax_reduce_add",
        lambda m: lambda x: m.lax.reduce(x, 0.0, m.lax.add, (1,)),
        (A(S34),),
        lambda x: x.sum(1),
    ),
    OpSpec(
        "lax_reduce_max",
        lambda m: lambda x: m.lax.reduce(x, -np.inf, m.lax.max, (0,)),
        (A(S34),),
        lambda x: x.max(0),
    ),
    OpSpec(
        "lax_collapse",
        L("collapse", start_dimension=1, stop_dimension=3),
        (A(S234),),
        lambda x: x.reshape(2, 12),
    ),
    OpSpec(
        "lax_dynamic_slice_in_dim",
        lambda m: lambda x, i: m.lax.dynamic_slice_in_dim(x, i, 2, axis=1),
        (A(S34), A((), I, 0, 4)),
        None,
    ),
    OpSpec(
        "lax_dynamic_update_index_in_dim",
        lambda m: lambda x, u, i: m.lax.dynamic_update_index_in_dim(x, u, i, 0),
        (A(S34), A((4,)), A((), I, 0, 3)),
        None,
    ),
    OpSpec(
        "lax_reduce_window_dilated",
        lambda m: (
            lambda x: m.lax.reduce_window(
                x,
                0.0,
                m.lax.add,
                (2, 2),
                (1, 1),
                ((1, 0), (0, 1)),
                base_dilation=(2, 1),
                window_dilation=(1, 2),
            )
        ),
        (A((3, 5)),),
        None,
    ),
    OpSpec(
        "lax_reduce_window_min",
        lambda m: lambda x: m.lax.reduce_window(x, np.inf, m.lax.min, (1, 3), (1, 2), "SAME"),
        (A((3, 7)),),
        None,
    ),
    OpSpec(
        "lax_reduce_window_init",
        lambda m: lambda x: m.lax.reduce_window(x, 1.0, m.lax.add, (2,), (1,), "VALID"),
        (A((6,)),),
        None,
        reverse=False,
    ),
    OpSpec(
        "lax_conv_groups",
        lambda m: (
            lambda x, w: m.lax.conv_general_dilated(x, w, (1, 1), "SAME", feature_group_count=2)
        ),
        (A((1, 4, 5, 5)), A((6, 2, 3, 3))),
        None,
        rtol=1e-4,
    ),
    OpSpec(
        "lax_conv_nwc_strings",
        lambda m: (
            lambda x, w: m.lax.conv_general_dilated(
                x, w, (2,), "SAME", dimension_numbers=("NWC", "WIO", "NWC")
            )
        ),
        (A((2, 7, 3)), A((3, 3, 4))),
        None,
        rtol=1e-4,
    ),
    OpSpec("lax_top_k_int", L("top_k", k=3), (A((2, 6), I, 0, 4),), None, grad=0),
    OpSpec(
        "lax_sort_two_keys",
        lambda m: lambda a, b, c: m.lax.sort((a, b, c), num_keys=2),
        (A((7,), I, 0, 3), A((7,), I, 0, 3), A((7,))),
        None,
    ),
)

# ------------------------------------------------------------------------ jnp.fft
add(
    OpSpec(
        "fft_rfft_abs",
        lambda m: lambda x: m.jnp.abs(m.jnp.fft.rfft(x)),
        (A(S34),),
        lambda x: np.abs(np.fft.rfft(x)),
        rtol=1e-4,
        atol=1e-5,
    ),
    OpSpec(
        "fft_fft2_real",
        lambda m: lambda x: m.jnp.fft.fft2(x).real,
        (A(S234),),
        lambda x: np.fft.fft2(x).real,
        rtol=1e-4,
        atol=1e-5,
    ),
    OpSpec(
        "fft_ifftn_imag",
        lambda m: lambda x: m.jnp.fft.ifftn(x, axes=(0, 2)).imag,
        (A(S234),),
        lambda x: np.fft.ifftn(x, axes=(0, 2)).imag,
        rtol=1e-4,
        atol=1e-5,
    ),
    OpSpec(
        "fft_irfft_of_rfft",
        lambda m: lambda x: m.jnp.fft.irfft(m.jnp.fft.rfft(x, axis=0) * 2.0, n=3, axis=0),
        (A(S34),),
        lambda x: np.fft.irfft(np.fft.rfft(x, axis=0) * 2.0, n=3, axis=0),
        rtol=1e-4,
        atol=1e-5,
    ),
)
