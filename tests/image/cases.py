"""The jax.image cases recorded from JAX 0.10.2 into ``jax_reference.npz``.

Each case is a function of the library (``jaxlite`` or ``jax``) returning an array or a
tuple of arrays; its inputs come from a generator seeded by the case's name, so both
libraries see the same inputs. ``python tests/image/make_jax_reference.py`` re-records
them (JAX compiles each case separately, which takes a minute; the tests only read the
file, and test_image.py re-runs a sample of the cases on JAX live to keep it honest).
"""

from __future__ import annotations

import zlib

import numpy as np

METHODS = ["nearest", "linear", "cubic", "cubic-pytorch", "lanczos3", "lanczos5", "area"]
SMOOTH = METHODS[1:]

RESIZE_SHAPES = [
    ((5, 7), (11, 3)),  # up in one dimension, down in the other
    ((16,), (5,)),  # strong downsampling (the antialias filter matters)
    ((3,), (17,)),  # strong upsampling
    ((1, 4), (5, 1)),  # size-1 dimensions both ways
    ((2, 6, 9, 3), (2, 13, 4, 3)),  # NHWC batch: batch and channel kept
    ((4, 5, 6), (7, 3, 6)),  # 3-D ("trilinear")
]

WARPS = [
    ((1.7, 0.45), (-0.8, 1.3)),
    ((2.0, 2.0), (0.0, 0.0)),
    ((0.3, 3.1), (2.0, -4.0)),  # much of the output falls off the input (zeros)
]

DTYPES = [
    ("int32", "linear"),
    ("uint8", "cubic"),
    ("int8", "area"),
    ("bool", "linear"),
    ("float16", "lanczos3"),
    ("bfloat16", "cubic"),
    ("complex64", "linear"),
    ("float64", "linear"),  # canonicalised to float32 without x64
    ("uint8", "nearest"),
    ("bool", "nearest"),
    ("int16", "nearest"),
]


def rng(name: str) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(name.encode()))


def _resize(src, dst, method, antialias):
    def case(lib, r):
        x = r.normal(size=src).astype(np.float32)
        return lib.image.resize(x, dst, method, antialias=antialias)

    return case


def _warp(warp, method, antialias):
    def case(lib, r):
        x = r.normal(size=(6, 9)).astype(np.float32)
        s, t = (np.asarray(v, np.float32) for v in warp)

        def f(x, s, t):  # jitted, scale and translation traced (JAX's eager path is slow)
            return lib.image.scale_and_translate(x, (9, 5), (0, 1), s, t, method, antialias)

        return lib.jit(f)(x, s, t)

    return case


def _grad_warp(method, antialias):
    def case(lib, r):
        x = r.normal(size=(6, 9)).astype(np.float32)
        w = r.normal(size=(9, 5)).astype(np.float32)
        s, t = np.array([1.7, 0.45], np.float32), np.array([0.3, 0.1], np.float32)

        def loss(x, s, t):
            out = lib.image.scale_and_translate(x, (9, 5), (0, 1), s, t, method, antialias)
            return (out * w).sum() ** 2

        return lib.jit(lib.grad(loss, argnums=(0, 1, 2)))(x, s, t)

    return case


def _grad_resize(method):
    def case(lib, r):
        x = r.normal(size=(4, 7)).astype(np.float32)
        w = r.normal(size=(9, 3)).astype(np.float32)
        return lib.jit(lib.grad(lambda x: (lib.image.resize(x, (9, 3), method) * w).sum()))(x)

    return case


def _dtype(dtype, method):
    def case(lib, r):
        x = (r.normal(size=(3, 4)) * 3).astype(lib.numpy.dtype(dtype))
        return lib.image.resize(x, (6, 3), method)

    return case


def _subset_dims(dims):
    def case(lib, r):
        x = r.normal(size=(2, 6, 9, 3)).astype(np.float32)
        s, t = np.array([0.6, 1.4], np.float32), np.array([0.5, -0.25], np.float32)
        return lib.image.scale_and_translate(x, (2, 4, 12, 3), dims, s, t, "lanczos3")

    return case


def _vmap_scales(lib, r):
    x = r.normal(size=(5, 6)).astype(np.float32)
    scales = np.array([[1.3, 0.7], [2.0, 0.5], [0.9, 1.1]], np.float32)

    def f(s):
        return lib.image.scale_and_translate(x, (7, 4), (0, 1), s, s * 0.1, "cubic")

    return lib.vmap(f)(scales), lib.jit(f)(scales[0])


def _nearest_index(n_in, n_out):
    def case(lib, r):
        return lib.image.resize(np.arange(n_in, dtype=np.int32), (n_out,), "nearest")

    return case


def _x64(dtype, method):
    def case(lib, r):
        x = (r.normal(size=(3, 4)) * 3).astype(dtype)
        s, t = np.array([1.3, 0.7], np.float32), np.array([0.1, 0.2], np.float32)
        lib.config.update("jax_enable_x64", True)
        try:
            a = lib.image.resize(x, (5, 3), method)
            b = lib.image.scale_and_translate(x, (5, 3), (0, 1), s, t, method)
            return np.asarray(a), np.asarray(b)
        finally:
            lib.config.update("jax_enable_x64", False)

    return case


def _cases() -> dict:
    out = {}
    for src, dst in RESIZE_SHAPES:
        for m in METHODS:
            for aa in (True, False):
                out[f"resize{src}->{dst}-{m}-aa{aa}"] = _resize(src, dst, m, aa)
    for warp in WARPS:
        for m in SMOOTH:
            for aa in (True, False):
                out[f"warp{warp}-{m}-aa{aa}"] = _warp(warp, m, aa)
    for m in ["linear", "cubic", "cubic-pytorch", "lanczos5", "area"]:
        for aa in (True, False):
            out[f"grad-warp-{m}-aa{aa}"] = _grad_warp(m, aa)
    for m in ["linear", "lanczos3", "nearest"]:
        out[f"grad-resize-{m}"] = _grad_resize(m)
    for dtype, m in DTYPES:
        out[f"dtype-{dtype}-{m}"] = _dtype(dtype, m)
    for dims in [(1, 2), (-3, -2), (2, 1)]:
        out[f"subset-dims{dims}"] = _subset_dims(dims)
    out["vmap-jit-scales"] = _vmap_scales
    for n_in, n_out in [(7, 3), (3, 7), (1000, 999), (999, 1000), (5, 0)]:
        out[f"nearest-index-{n_in}-{n_out}"] = _nearest_index(n_in, n_out)
    for dtype, m in [("float64", "cubic"), ("int64", "linear"), ("float32", "lanczos3")]:
        out[f"x64-{dtype}-{m}"] = _x64(dtype, m)
    return out


CASES = _cases()


def run(name: str, lib) -> list[np.ndarray]:
    """The case's outputs as a list of NumPy arrays (dtype kept)."""
    res = CASES[name](lib, rng(name))
    res = res if isinstance(res, tuple) else (res,)
    return [np.asarray(a) for a in res]
