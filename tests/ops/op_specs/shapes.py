"""Op-spec rows: shape manipulation."""

from __future__ import annotations

import numpy as np

from ._base import S34, S234, A, F, I, J, OpSpec, add

# ------------------------------------------------------------------------------ shapes
add(
    OpSpec("reshape", J("reshape", shape=(4, 3)), (A(S34),), lambda x: x.reshape(4, 3)),
    OpSpec("reshape_neg", J("reshape", shape=(-1, 2)), (A(S234),), lambda x: x.reshape(-1, 2)),
    OpSpec("ravel", J("ravel"), (A(S234),), np.ravel),
    OpSpec("transpose", J("transpose"), (A(S234),), np.transpose),
    OpSpec(
        "transpose_axes",
        J("transpose", axes=(1, 0, 2)),
        (A(S234),),
        lambda x: np.transpose(x, (1, 0, 2)),
    ),
    OpSpec(
        "moveaxis",
        J("moveaxis", source=0, destination=-1),
        (A(S234),),
        lambda x: np.moveaxis(x, 0, -1),
    ),
    OpSpec("swapaxes", J("swapaxes", axis1=0, axis2=2), (A(S234),), lambda x: np.swapaxes(x, 0, 2)),
    OpSpec("squeeze", J("squeeze"), (A((3, 1, 4)),), np.squeeze),
    OpSpec(
        "expand_dims", J("expand_dims", axis=(0, 2)), (A(S34),), lambda x: np.expand_dims(x, (0, 2))
    ),
    OpSpec(
        "broadcast_to",
        J("broadcast_to", shape=(2, 3, 4)),
        (A((3, 1)),),
        lambda x: np.broadcast_to(x, (2, 3, 4)),
    ),
    OpSpec(
        "concatenate",
        lambda m: lambda x, y: m.jnp.concatenate([x, y], axis=1),
        (A(S34), A((3, 2))),
        lambda x, y: np.concatenate([x, y], 1),
    ),
    OpSpec(
        "concatenate_mixed",
        lambda m: lambda x, y: m.jnp.concatenate([x, y]),
        (A(S34), A((2, 4), I, 0, 3)),
        lambda x, y: np.concatenate([x, y]),
    ),
    OpSpec(
        "stack",
        lambda m: lambda x, y: m.jnp.stack([x, y], axis=1),
        (A(S34), A(S34)),
        lambda x, y: np.stack([x, y], 1),
    ),
    OpSpec(
        "hstack",
        lambda m: lambda x, y: m.jnp.hstack([x, y]),
        (A(S34), A(S34)),
        lambda x, y: np.hstack([x, y]),
    ),
    OpSpec(
        "vstack",
        lambda m: lambda x, y: m.jnp.vstack([x, y]),
        (A((4,)), A(S34)),
        lambda x, y: np.vstack([x, y]),
    ),
    OpSpec(
        "dstack",
        lambda m: lambda x, y: m.jnp.dstack([x, y]),
        (A(S34), A(S34)),
        lambda x, y: np.dstack([x, y]),
    ),
    OpSpec(
        "column_stack",
        lambda m: lambda x, y: m.jnp.column_stack([x, y]),
        (A((3,)), A((3, 2))),
        lambda x, y: np.column_stack([x, y]),
    ),
    OpSpec(
        "split",
        lambda m: lambda x: m.jnp.split(x, 2, axis=1),
        (A(S34),),
        lambda x: np.split(x, 2, axis=1),
    ),
    OpSpec(
        "split_idx",
        lambda m: lambda x: m.jnp.split(x, [1, 3], axis=1),
        (A(S34),),
        lambda x: np.split(x, [1, 3], axis=1),
    ),
    OpSpec(
        "array_split",
        lambda m: lambda x: m.jnp.array_split(x, 3, axis=1),
        (A(S34),),
        lambda x: np.array_split(x, 3, axis=1),
    ),
    OpSpec("tile", J("tile", reps=(2, 1)), (A(S34),), lambda x: np.tile(x, (2, 1))),
    OpSpec("tile_int", J("tile", reps=3), (A((2,)),), lambda x: np.tile(x, 3)),
    OpSpec("repeat", J("repeat", repeats=2, axis=0), (A(S34),), lambda x: np.repeat(x, 2, 0)),
    OpSpec("repeat_flat", J("repeat", repeats=3), (A((2, 2)),), lambda x: np.repeat(x, 3)),
    OpSpec(
        "repeat_list",
        J("repeat", repeats=np.array([1, 0, 2]), axis=0),
        (A(S34),),
        lambda x: np.repeat(x, [1, 0, 2], 0),
    ),
    OpSpec("flip", J("flip", axis=1), (A(S34),), lambda x: np.flip(x, 1)),
    OpSpec("flip_all", J("flip"), (A(S34),), np.flip),
    OpSpec("fliplr", J("fliplr"), (A(S34),), np.fliplr),
    OpSpec("flipud", J("flipud"), (A(S34),), np.flipud),
    OpSpec("roll", J("roll", shift=1, axis=1), (A(S34),), lambda x: np.roll(x, 1, 1)),
    OpSpec("roll_flat", J("roll", shift=-5), (A(S34),), lambda x: np.roll(x, -5)),
    OpSpec(
        "roll_multi",
        J("roll", shift=(1, 2), axis=(0, 1)),
        (A(S34),),
        lambda x: np.roll(x, (1, 2), (0, 1)),
    ),
    OpSpec("rot90", J("rot90"), (A(S34),), np.rot90),
    OpSpec("rot90_k3", J("rot90", k=3, axes=(1, 2)), (A(S234),), lambda x: np.rot90(x, 3, (1, 2))),
    OpSpec(
        "pad_constant",
        J("pad", pad_width=((1, 2), (0, 1))),
        (A(S34),),
        lambda x: np.pad(x, ((1, 2), (0, 1))),
    ),
    OpSpec(
        "pad_value",
        J("pad", pad_width=1, constant_values=3.0),
        (A(S34),),
        lambda x: np.pad(x, 1, constant_values=3.0),
    ),
    OpSpec(
        "pad_edge",
        J("pad", pad_width=((1, 2), (2, 1)), mode="edge"),
        (A(S34),),
        lambda x: np.pad(x, ((1, 2), (2, 1)), mode="edge"),
    ),
    OpSpec(
        "pad_reflect",
        J("pad", pad_width=((1, 2), (2, 1)), mode="reflect"),
        (A(S34),),
        lambda x: np.pad(x, ((1, 2), (2, 1)), mode="reflect"),
    ),
    OpSpec(
        "pad_symmetric",
        J("pad", pad_width=2, mode="symmetric"),
        (A(S34),),
        lambda x: np.pad(x, 2, mode="symmetric"),
    ),
    OpSpec(
        "pad_wrap",
        J("pad", pad_width=((1, 2), (3, 1)), mode="wrap"),
        (A(S34),),
        lambda x: np.pad(x, ((1, 2), (3, 1)), mode="wrap"),
    ),
    OpSpec("atleast_1d", J("atleast_1d"), (A(()),), np.atleast_1d),
    OpSpec("atleast_2d", J("atleast_2d"), (A((3,)),), np.atleast_2d),
    OpSpec("atleast_3d", J("atleast_3d"), (A(S34),), np.atleast_3d),
    OpSpec("tril", J("tril"), (A((4, 4)),), np.tril),
    OpSpec("triu_k", J("triu", k=1), (A(S34),), lambda x: np.triu(x, 1)),
    OpSpec("diag", J("diag"), (A((4,)),), np.diag),
    OpSpec("diag_of_matrix", J("diag", k=-1), (A((4, 4)),), lambda x: np.diag(x, -1)),
    OpSpec("diagonal", J("diagonal", offset=1), (A(S34),), lambda x: np.diagonal(x, 1)),
    OpSpec(
        "diagonal_3d",
        J("diagonal", axis1=1, axis2=2),
        (A((2, 3, 3)),),
        lambda x: np.diagonal(x, axis1=1, axis2=2),
    ),
    OpSpec("trace", J("trace"), (A(S34),), np.trace),
    OpSpec(
        "astype",
        lambda m: lambda x: x.astype("int32"),
        (A(S34, F, -5, 5),),
        lambda x: x.astype("int32"),
        grad=0,
    ),
)
