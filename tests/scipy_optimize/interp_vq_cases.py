"""The data of test_interpolate_vq.py and JAX's side of every comparison there, by name:
``REFS[name](jax)`` computes JAX's output. make_jax_reference.py records them into
interp_vq_reference.npz; the tests compare jaxlite against the recording and re-run a sample
on the installed JAX."""

from __future__ import annotations

import numpy as np

_rng = np.random.default_rng(0)
GX = np.array([0.0, 0.5, 1.5, 3.0], np.float32)
GY = np.array([-1.0, 0.0, 2.0], np.float32)
V2 = _rng.normal(size=(4, 3)).astype(np.float32)
V3 = _rng.normal(size=(4, 3, 2)).astype(np.float32)  # a trailing value dimension
Q = np.array(
    [
        [0.2, -0.5],
        [1.5, 0.0],
        [3.0, 2.0],
        [0.0, -1.0],
        [2.9, 1.9],
        [-0.1, 0.0],
        [1.0, 2.5],
        [0.5, 1.0],
        [0.75, 0.0],
    ],
    np.float32,
)
METHODS = ["linear", "nearest"]
VALUES = [
    (V2, {}),
    (V3, {}),
    (V2, {"fill_value": None}),  # extrapolation from the edge cells
    (V2, {"fill_value": -7.0}),
    (np.arange(12).reshape(4, 3), {}),  # integer values are promoted
]
XS, YS = np.meshgrid(np.linspace(-0.2, 3.1, 5), np.linspace(-1, 2, 4), indexing="ij")
ONE_D_Q = np.array([0.1, 2.0, 9.0], np.float32)
QS = Q[:8].reshape(4, 2, 2)
INNER = Q[[0, 1, 4, 7, 8]]  # inside the grid, off the knots

VQ_CASES = [
    (_rng.normal(size=(7, 3)).astype(np.float32), _rng.normal(size=(4, 3)).astype(np.float32)),
    (np.array([0.1, 2.4, -1.0, 5.0], np.float32), np.array([0.0, 2.0, 4.0], np.float32)),
    (np.array([[1, 2], [3, 4], [0, 0]]), np.array([[1, 1], [3, 3]])),  # ints promote
    (np.array([[0.0, 0.0]], np.float32), np.array([[1.0, 0.0], [0.0, 1.0]], np.float32)),  # tie
]
VQ_BATCH = np.stack([VQ_CASES[0][0], VQ_CASES[0][0] * 2, VQ_CASES[0][0] - 1])


def rgi(m, *args, **kw):
    return m.scipy.interpolate.RegularGridInterpolator(*args, **kw)


def interp_loss(m):
    cls = m.scipy.interpolate.RegularGridInterpolator
    return lambda v, q: m.numpy.sum(cls((GX, GY), v)(q) ** 2)


def _import(m):
    __import__(m.__name__ + ".scipy.interpolate")
    __import__(m.__name__ + ".scipy.cluster.vq")
    return m


REFS = {}
for _mi, _method in enumerate(METHODS):
    for _vi, (_v, _kw) in enumerate(VALUES):
        REFS[f"rgi-{_method}-{_vi}"] = lambda m, v=_v, kw=_kw, method=_method: rgi(
            _import(m), (GX, GY), v, method=method, **kw
        )(Q)
REFS.update(
    {
        "query-tuple": lambda m: rgi(_import(m), (GX, GY), V2)((XS, YS)),
        "query-batched": lambda m: rgi(_import(m), (GX, GY), V2)(Q.reshape(3, 3, 2)),
        "query-ravel": lambda m: rgi(_import(m), (GX, GY), V2)(Q.ravel()),
        "query-method": lambda m: rgi(_import(m), (GX, GY), V2)(Q, method="nearest"),
        "query-1d": lambda m: rgi(_import(m), (GX,), V2[:, 0])(ONE_D_Q),
        "rgi-vmap": lambda m: m.vmap(rgi(_import(m), (GX, GY), V2))(QS),
        "rgi-grad": lambda m: m.grad(interp_loss(_import(m)), (0, 1))(V2, INNER),
        "vq-vmap": lambda m: m.vmap(_import(m).scipy.cluster.vq.vq, (0, None))(
            VQ_BATCH, VQ_CASES[0][1]
        ),
        "vq-grad": lambda m: m.grad(
            lambda o: _import(m).scipy.cluster.vq.vq(o, VQ_CASES[0][1])[1].sum()
        )(VQ_CASES[0][0]),
    }
)
for _i, (_obs, _book) in enumerate(VQ_CASES):
    REFS[f"vq-{_i}"] = lambda m, obs=_obs, book=_book: _import(m).scipy.cluster.vq.vq(obs, book)


def outputs(value) -> list:
    """The arrays of an output (one array or a tuple of them), as NumPy arrays."""
    if isinstance(value, (tuple, list)):
        return [np.asarray(v) for v in value]
    return [np.asarray(value)]
