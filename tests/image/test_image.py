"""jax.image: resize and scale_and_translate against JAX 0.10.2 on up-, down- and mixed
resampling, every method, antialias on and off, batched and N-d shapes; dtypes (integers give
float32, NEAREST keeps the dtype; x64); grad with respect to the image, the scale and the
translation; jit and vmap; ResizeMethod and its string names; JAX's errors.

The sweep (cases.py) is recorded from JAX into jax_reference.npz, since JAX compiles each
case separately (minutes on this machine); ``test_live_sample`` re-runs a sample of it on
the installed JAX every time, so the recording cannot drift from JAX unnoticed.
"""

from __future__ import annotations

import importlib
import pathlib

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp

from . import cases

ref = pytest.importorskip("jax")
ref.config.update("jax_platforms", "cpu")
importlib.import_module("jax.image")  # the oracle's module (without rebinding ``jax``)

RECORDED = np.load(pathlib.Path(__file__).with_name("jax_reference.npz"))
RNG = np.random.default_rng(0)


def img(*shape, dtype=np.float32):
    return RNG.normal(size=shape).astype(dtype)


def close(got, want, rtol=2e-5, atol=2e-5):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    if got.dtype.itemsize <= 2 and got.dtype.kind == "f" or got.dtype.name == "bfloat16":
        rtol = atol = 2e-2  # float16/bfloat16 outputs: weights are rounded to them
    np.testing.assert_allclose(
        got.astype(np.complex128), want.astype(np.complex128), rtol=rtol, atol=atol
    )


def recorded(name):
    out, i = [], 0
    while f"{name}|{i}" in RECORDED:
        a = RECORDED[f"{name}|{i}"]
        out.append(a.astype(jnp.dtype(str(RECORDED[f"{name}|{i}|dtype"]))))
        i += 1
    return out


def tolerance(name):
    # gradients of squared sums are large numbers: compare them relatively
    return dict(rtol=1e-4, atol=1e-4) if name.startswith("grad") else {}


def test_recording_covers_every_case():
    assert {k.split("|")[0] for k in RECORDED.files} == set(cases.CASES)


@pytest.mark.parametrize("name", list(cases.CASES))
def test_matches_recorded_jax(name):
    got, want = cases.run(name, jax), recorded(name)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        if "nearest" in name and not name.startswith("grad"):
            assert g.dtype == w.dtype
            np.testing.assert_array_equal(g, w)  # a gather: exact
        else:
            close(g, w, **tolerance(name))


LIVE = [
    "resize(2, 6, 9, 3)->(2, 13, 4, 3)-cubic-pytorch-aaFalse",
    "resize(16,)->(5,)-lanczos3-aaTrue",
    "warp((0.3, 3.1), (2.0, -4.0))-area-aaTrue",
    "grad-resize-lanczos3",
    "dtype-uint8-nearest",
]


@pytest.mark.parametrize("name", LIVE)
def test_live_sample(name):
    live, want = cases.run(name, ref), recorded(name)
    for a, w in zip(live, want):
        np.testing.assert_array_equal(a.astype(w.dtype), w)  # the recording is JAX's output


def test_known_values():
    # Hand-checkable: linear upsampling of [0, 1, 2, 3] by 2 clamps at the edges (weights
    # renormalised), area downsampling averages pixel footprints.
    up = jax.image.resize(jnp.arange(4.0), (8,), "linear", antialias=False)
    np.testing.assert_allclose(np.asarray(up), [0, 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3])
    area = jax.image.resize(jnp.arange(6.0), (3,), "area")
    np.testing.assert_allclose(np.asarray(area), [0.5, 2.5, 4.5])
    near = jax.image.resize(jnp.arange(6.0), (4,), "nearest")
    np.testing.assert_array_equal(np.asarray(near), [0, 2, 3, 5])
    same = img(8, 8)
    for m in cases.METHODS:  # the identity resize returns the input
        close(jax.image.resize(same, (8, 8), m), same, rtol=0, atol=0)


def test_antialias_changes_downsampling_only():
    x = img(16)
    on = jax.image.resize(x, (5,), "linear", antialias=True)
    off = jax.image.resize(x, (5,), "linear", antialias=False)
    assert np.max(np.abs(np.asarray(on) - np.asarray(off))) > 1e-2
    up_on = jax.image.resize(x, (40,), "cubic", antialias=True)
    up_off = jax.image.resize(x, (40,), "cubic", antialias=False)
    np.testing.assert_array_equal(np.asarray(up_on), np.asarray(up_off))


def test_integer_input_gives_float32_and_weak_type_kept():
    got = jax.image.resize(np.arange(12).reshape(3, 4), (6, 8), "linear")
    assert got.dtype == np.float32 and not got.weak_type
    assert jax.image.resize(np.arange(12).reshape(3, 4), (6, 8), "nearest").dtype == np.int32
    weak = jax.image.resize(jnp.asarray(3.0), (), "cubic")
    assert weak.dtype == np.float32 and weak.weak_type  # as JAX (jit keeps weak types)


def test_align_corners_recipe():
    # The docstring's torch align_corners=True recipe: corners map to corners.
    x = img(5)
    m, n = 5, 9
    scale = (n - 1) / (m - 1)
    got = jax.image.scale_and_translate(
        x, (n,), (0,), jnp.array([scale]), jnp.array([0.5 * (1 - scale)]), "linear"
    )
    np.testing.assert_allclose(
        np.asarray(got), np.interp(np.linspace(0, 4, 9), range(5), x), rtol=1e-6, atol=1e-6
    )


def test_vmap_of_resize_is_the_batched_resize():
    batch = img(3, 5, 6)
    for m in ["lanczos5", "nearest", "area"]:
        close(
            jax.vmap(lambda im: jax.image.resize(im, (2, 9), m))(batch),
            jax.image.resize(batch, (3, 2, 9), m),
            rtol=1e-6,
            atol=1e-6,
        )


# ---- ResizeMethod


def test_resize_method_members_and_names():
    assert [(m.name, m.value) for m in jax.image.ResizeMethod] == [
        (m.name, m.value) for m in ref.image.ResizeMethod
    ]
    names = [
        "nearest",
        "linear",
        "bilinear",
        "trilinear",
        "triangle",
        "lanczos3",
        "lanczos5",
        "cubic",
        "bicubic",
        "tricubic",
        "cubic-pytorch",
        "bicubic-pytorch",
        "area",
    ]
    for s in names:
        assert jax.image.ResizeMethod.from_string(s).name == (
            ref.image.ResizeMethod.from_string(s).name
        )
    x = img(4, 4)
    for m in jax.image.ResizeMethod:
        name = m.name.lower().replace("_", "-")
        close(jax.image.resize(x, (6, 3), m), jax.image.resize(x, (6, 3), name), rtol=0, atol=0)


# ---- errors (JAX's types and messages)


def _err(f):
    with pytest.raises(Exception) as info:
        f()
    return type(info.value), str(info.value)


@pytest.mark.parametrize(
    "call",
    [
        lambda lib, x: lib.image.resize(x, (6,), "linear"),
        lambda lib, x: lib.image.resize(x, (6, 8), "LINEAR"),
        lambda lib, x: lib.image.resize(x, (6, 8), "foo"),
        lambda lib, x: lib.image.resize(x, (6, 8), 3),
        lambda lib, x: lib.image.resize(x, (6, 8.0), "linear"),
        lambda lib, x: lib.image.resize(x, (6, 8), "linear", precision="foo"),
        lambda lib, x: lib.image.resize(x, (6, 8), "linear", precision=("highest",)),
        lambda lib, x: lib.image.resize(x[:0], (6, 8), "linear"),
        lambda lib, x: lib.image.resize(x[:, :0], (3, 8), "nearest"),
        lambda lib, x: lib.image.ResizeMethod.from_string("Cubic"),
        lambda lib, x: lib.image.scale_and_translate(
            x, (6, 8), (0, 1), np.ones(2, np.float32), np.zeros(2, np.float32), "nearest"
        ),
        lambda lib, x: lib.image.scale_and_translate(x, (6, 8), (0, 1), [2.0, 2], [0, 0], "linear"),
        lambda lib, x: lib.image.scale_and_translate(
            x, (6, 8), (0, 1), (2.0, 2.0), (0, 0), "cubic"
        ),
        lambda lib, x: lib.image.scale_and_translate(x, (6, 8), (), [], [], "linear"),
        lambda lib, x: lib.image.scale_and_translate(
            x, (6,), (0, 1), np.ones(2, np.float32), np.zeros(2, np.float32), "linear"
        ),
        lambda lib, x: lib.image.scale_and_translate(
            x, (6, 8), (0, 1), np.ones(2, np.float32), np.zeros(1, np.float32), "linear"
        ),
        lambda lib, x: lib.image.resize(x, (6, 8), "cubic", precision=7),
    ],
)
def test_errors_match_jax(call):
    x = np.ones((3, 4), np.float32)
    got = _err(lambda: call(jax, x))
    want = _err(lambda: call(ref, x))
    assert got == want


def test_accepted_precisions_and_empty_spatial_dims():
    x = img(3, 4)
    want = ref.image.resize(x, (6, 8), "linear")
    for p in [
        None,
        "default",
        "DEFAULT",
        "F32_F32_F32",
        ("highest", "high"),
        jax.lax.Precision.HIGH,
    ]:
        close(jax.image.resize(x, (6, 8), "linear", precision=p), want)
    ints = np.arange(12, dtype=np.int32).reshape(3, 4)
    e = np.zeros(0, np.float32)
    got = jax.image.scale_and_translate(ints, (3, 4), (), e, e, "linear")
    close(got, ref.image.scale_and_translate(ints, (3, 4), (), e, e, "linear"))
