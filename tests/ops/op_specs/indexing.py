"""Op-spec rows: indexing and sorting."""

from __future__ import annotations

import numpy as np

from ._base import S34, S234, A, F, I, J, OpSpec, add

# --------------------------------------------------------------- indexing and sorting
add(
    OpSpec("getitem_basic", lambda m: lambda x: x[1:, ::2], (A(S34),), lambda x: x[1:, ::2]),
    OpSpec("getitem_int_neg", lambda m: lambda x: x[-1, 1], (A(S34),), lambda x: x[-1, 1]),
    OpSpec(
        "getitem_adv", lambda m: lambda x, i: x[i], (A(S34), A((5,), I, -3, 3)), lambda x, i: x[i]
    ),
    OpSpec(
        "getitem_adv_axis1",
        lambda m: lambda x, i: x[:, i],
        (A(S34), A((2, 2), I, 0, 4)),
        lambda x, i: x[:, i],
    ),
    OpSpec(
        "getitem_newaxis",
        lambda m: lambda x: x[None, ..., 0],
        (A(S234),),
        lambda x: x[None, ..., 0],
    ),
    OpSpec(
        "at_set",
        lambda m: lambda x, v: x.at[1].set(v),
        (A(S34), A((4,))),
        lambda x, v: _np_set(x, 1, v),
    ),
    OpSpec(
        "at_add_dup",
        lambda m: lambda x, i, v: x.at[i].add(v),
        (A((5,)), A((4,), I, 0, 5, "small"), A((4,))),
        lambda x, i, v: _np_addat(x, i, v),
    ),
    OpSpec(
        "take",
        J("take", indices=np.array([0, 2, 1]), axis=1),
        (A(S34),),
        lambda x: np.take(x, [0, 2, 1], axis=1),
    ),
    OpSpec(
        "take_flat",
        lambda m: lambda x, i: m.jnp.take(x, i),
        (A(S34), A((5,), I, 0, 12)),
        lambda x, i: np.take(x, i),
    ),
    OpSpec(
        "take_along_axis",
        lambda m: lambda x, i: m.jnp.take_along_axis(x, i, axis=1),
        (A(S34), A((3, 2), I, 0, 4)),
        lambda x, i: np.take_along_axis(x, i, 1),
    ),
    OpSpec("sort", J("sort"), (A(S34),), np.sort),
    OpSpec("sort_ax0", J("sort", axis=0), (A(S34),), lambda x: np.sort(x, 0)),
    OpSpec("sort_flat", J("sort", axis=None), (A(S34),), lambda x: np.sort(x, None)),
    OpSpec("sort_int", J("sort"), (A(S34, I, -3, 3),), np.sort, grad=0),
    OpSpec("argsort", J("argsort"), (A(S34),), np.argsort, grad=0),
    OpSpec(
        "argsort_stable_ties",
        J("argsort", axis=0),
        (A((6, 3), I, 0, 3),),
        lambda x: np.argsort(x, 0, kind="stable"),
        grad=0,
    ),
    OpSpec(
        "argsort_desc", J("argsort", descending=True), (A(S34),), lambda x: np.argsort(-x), grad=0
    ),
    OpSpec(
        "lexsort",
        lambda m: lambda a, b: m.jnp.lexsort((a, b)),
        (A((6,), I, 0, 3), A((6,), I, 0, 2)),
        lambda a, b: np.lexsort((a, b)),
        grad=0,
    ),
    OpSpec(
        "searchsorted",
        J("searchsorted"),
        (A((6,), F, -2, 2, "sorted"), A((4,))),
        np.searchsorted,
        grad=0,
    ),
    OpSpec(
        "searchsorted_right",
        J("searchsorted", side="right"),
        (A((6,), I, 0, 4, "sorted"), A((5,), I, 0, 4)),
        lambda a, v: np.searchsorted(a, v, side="right"),
        grad=0,
    ),
    OpSpec("digitize", J("digitize"), (A((5,)), A((4,), F, -2, 2, "sorted")), np.digitize, grad=0),
    OpSpec(
        "unique_size",
        J("unique", size=4, fill_value=-1),
        (A((8,), I, 0, 6, "small"),),
        None,
        grad=0,
    ),
    OpSpec(
        "bincount",
        J("bincount", length=5),
        (A((8,), I, 0, 5),),
        lambda x: np.bincount(x, minlength=5),
        grad=0,
    ),
    OpSpec(
        "bincount_w",
        lambda m: lambda x, w: m.jnp.bincount(x, w, length=5),
        (A((8,), I, 0, 5), A((8,))),
        lambda x, w: np.bincount(x, w, minlength=5),
    ),
    OpSpec("nonzero_size", J("nonzero", size=5), (A(S34, I, 0, 2),), None, grad=0),
    OpSpec("argwhere_size", J("argwhere", size=4, fill_value=0), (A(S34, I, 0, 2),), None, grad=0),
    OpSpec("where_one_arg", J("where", size=3), (A((6,), I, 0, 2),), None, grad=0),
    OpSpec(
        "histogram",
        J("histogram", bins=4, range=(-2.0, 2.0)),
        (A((10,)),),
        lambda x: np.histogram(x, 4, (-2.0, 2.0)),
        grad=0,
        vmap=False,
    ),
)


def _np_set(x, i, v):
    x = x.copy()
    x[i] = v
    return x


def _np_addat(x, i, v):
    x = x.copy()
    np.add.at(x, i, v)
    return x
