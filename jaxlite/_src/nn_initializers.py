"""``jax.nn.initializers``: functions ``init(key, shape, dtype) -> Array`` for parameters.

Each factory returns an initializer drawing from ``jaxlite.random`` exactly as JAX's does
(same distributions, same scalings, same calls to the generator), so with jaxlite's
bit-exact generator the initial parameters match JAX's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

import jaxlite.numpy as jnp  # the public jnp namespace (stable across module splits)
from jaxlite import random
from jaxlite._src import dtypes
from jaxlite._src.core.array import Array
from jaxlite._src.sharding import explicit as _explicit


class Initializer(Protocol):
    """``init(key, shape, dtype=None) -> Array`` (``jax.nn.initializers.Initializer``)."""

    def __call__(self, key: Array, shape: Sequence[int], dtype: Any = None) -> Array: ...


def _dtype(dtype):
    return dtypes.default_float_dtype() if dtype is None else dtype


@_explicit.placed_result
def zeros(key: Array, shape: Sequence[int], dtype: Any = None, out_sharding=None) -> Array:
    """An array of zeros (``jax.nn.initializers.zeros``); ``key`` is unused."""
    return jnp.zeros(shape, _dtype(dtype))


@_explicit.placed_result
def ones(key: Array, shape: Sequence[int], dtype: Any = None, out_sharding=None) -> Array:
    """An array of ones (``jax.nn.initializers.ones``); ``key`` is unused."""
    return jnp.ones(shape, _dtype(dtype))


def constant(value: Any, dtype: Any = None) -> Initializer:
    """Initializer filling with ``value``."""

    @_explicit.placed_result
    def init(key, shape, dtype=dtype, out_sharding=None):
        return jnp.full(shape, value, dtype=_dtype(dtype))

    return init


def uniform(scale: float = 1e-2, dtype: Any = None) -> Initializer:
    """Initializer drawing uniformly from ``[0, scale)``."""

    @_explicit.placed_result
    def init(key, shape, dtype=dtype, out_sharding=None):
        dtype = _dtype(dtype)
        return random.uniform(key, shape, dtype) * jnp.array(scale, dtype)

    return init


def normal(stddev: float = 1e-2, dtype: Any = None) -> Initializer:
    """Initializer drawing from a normal distribution with mean 0 and ``stddev``."""

    @_explicit.placed_result
    def init(key, shape, dtype=dtype, out_sharding=None):
        dtype = _dtype(dtype)
        return random.normal(key, shape, dtype) * jnp.array(stddev, dtype)

    return init


def truncated_normal(
    stddev: float = 1e-2, dtype: Any = None, lower: float = -2.0, upper: float = 2.0
) -> Initializer:
    """Initializer drawing from a normal truncated to ``[lower, upper]``, times ``stddev``."""

    @_explicit.placed_result
    def init(key, shape, dtype=dtype, out_sharding=None):
        dtype = _dtype(dtype)
        return random.truncated_normal(key, lower, upper, shape, dtype) * jnp.array(stddev, dtype)

    return init


def _size(shape, axis) -> int:
    if isinstance(axis, int):
        return shape[axis]
    return math.prod(shape[i] for i in axis)


def compute_fans(shape, in_axis=-2, out_axis=-1, batch_axis=()) -> tuple[float, float]:
    """Effective fan-in and fan-out of a weight of ``shape`` (other axes: receptive field)."""
    if isinstance(in_axis, int) and in_axis == -2 and len(shape) <= 1:
        raise ValueError(
            f"Can't compute input and output sizes of a {len(shape)}-dimensional weights "
            "tensor with default in_axis. Must be at least 2D or specify in_axis explicitly."
        )
    in_size, out_size = _size(shape, in_axis), _size(shape, out_axis)
    batch_size = _size(shape, batch_axis)
    receptive_field = math.prod(shape) / in_size / out_size / batch_size
    return in_size * receptive_field, out_size * receptive_field


def variance_scaling(
    scale: float,
    mode: str,
    distribution: str,
    in_axis: int | Sequence[int] = -2,
    out_axis: int | Sequence[int] = -1,
    batch_axis: int | Sequence[int] = (),
    dtype: Any = None,
) -> Initializer:
    """Initializer with variance ``scale / n`` (``n`` from ``mode``: fan_in, fan_out,
    fan_avg, fan_geo_avg) drawn from ``distribution``: "truncated_normal", "normal",
    "uniform".

    Raises:
      ValueError: for an unknown ``mode`` or ``distribution``.

    For a complex ``dtype`` the draws are circularly symmetric: "normal" is the complex
    normal, "uniform" is uniform on a disk, "truncated_normal" is a complex normal whose
    modulus is cut at 2 (each scaled to variance ``scale / n``).
    """

    @_explicit.placed_result
    def init(key, shape, dtype=dtype, out_sharding=None):
        shape = tuple(int(d) for d in shape)
        dtype = _dtype(dtype)
        fan_in, fan_out = compute_fans(shape, in_axis, out_axis, batch_axis)
        if mode == "fan_in":
            denominator = fan_in
        elif mode == "fan_out":
            denominator = fan_out
        elif mode == "fan_avg":
            denominator = (fan_in + fan_out) / 2
        elif mode == "fan_geo_avg":
            denominator = (fan_in * fan_out) ** 0.5
        else:
            raise ValueError(f"invalid mode for variance scaling initializer: {mode}")
        variance = jnp.array(scale / denominator, dtype=dtype)
        if dtypes.is_complex(np.dtype(dtype)) and distribution == "uniform":
            return _complex_polar(key, shape, dtype, distribution) * jnp.sqrt(variance)
        if dtypes.is_complex(np.dtype(dtype)) and distribution == "truncated_normal":
            # 0.9531... is the standard deviation of a standard complex normal cut at |z| = 2
            stddev = jnp.sqrt(variance) / jnp.array(0.95311164380491208, dtype)
            return _complex_polar(key, shape, dtype, distribution) * stddev
        if distribution == "truncated_normal":
            # 0.8796... is the standard deviation of a standard normal truncated to (-2, 2)
            stddev = jnp.sqrt(variance) / jnp.array(0.87962566103423978, dtype)
            return random.truncated_normal(key, -2, 2, shape, dtype) * stddev
        if distribution == "normal":
            return random.normal(key, shape, dtype) * jnp.sqrt(variance)
        if distribution == "uniform":
            return random.uniform(key, shape, dtype, -1) * jnp.sqrt(3 * variance)
        raise ValueError(f"invalid distribution for variance scaling initializer: {distribution}")

    return init


def _complex_polar(key, shape, dtype, distribution):
    """Complex draws ``r * exp(i theta)`` with a uniform angle: ``r`` uniform on the
    unit-variance disk ("uniform"), or the modulus of a standard complex normal cut at 2,
    drawn by inverting its distribution function ("truncated_normal"; variance 0.9531...**2)."""
    key_r, key_theta = random.split(key)
    real = np.dtype(dtype).type(0).real.dtype
    u = random.uniform(key_r, shape, real)
    if distribution == "uniform":
        r = jnp.sqrt(2 * u).astype(dtype)
    else:  # P(|z| <= 2) = 1 - exp(-4)
        t = (1 - jnp.exp(jnp.array(-4, dtype))) * u.astype(dtype)
        r = jnp.sqrt(-jnp.log(1 - t))
    theta = 2 * np.pi * random.uniform(key_theta, shape, real).astype(dtype)
    return r * jnp.exp(1j * theta)


def _scaled(scale, mode, distribution):
    def factory(in_axis=-2, out_axis=-1, batch_axis=(), dtype=None) -> Initializer:
        return variance_scaling(scale, mode, distribution, in_axis, out_axis, batch_axis, dtype)

    return factory


glorot_uniform = xavier_uniform = _scaled(1.0, "fan_avg", "uniform")
glorot_normal = xavier_normal = _scaled(1.0, "fan_avg", "truncated_normal")
lecun_uniform = _scaled(1.0, "fan_in", "uniform")
lecun_normal = _scaled(1.0, "fan_in", "truncated_normal")
he_uniform = kaiming_uniform = _scaled(2.0, "fan_in", "uniform")
he_normal = kaiming_normal = _scaled(2.0, "fan_in", "truncated_normal")
for _f, _n in [
    (glorot_uniform, "glorot_uniform"),
    (glorot_normal, "glorot_normal"),
    (lecun_uniform, "lecun_uniform"),
    (lecun_normal, "lecun_normal"),
    (he_uniform, "he_uniform"),
    (he_normal, "he_normal"),
]:
    _f.__name__ = _f.__qualname__ = _n
    _f.__doc__ = f"``jax.nn.initializers.{_n}``: a variance-scaling initializer."


def orthogonal(scale: float = 1.0, column_axis: int = -1, dtype: Any = None) -> Initializer:
    """Initializer giving a (scaled) matrix with orthonormal rows or columns.

    Raises:
      ValueError: for shapes of fewer than two dimensions.
    """

    @_explicit.placed_result
    def init(key, shape, dtype=dtype, out_sharding=None):
        dtype = _dtype(dtype)
        shape = tuple(int(d) for d in shape)
        if len(shape) < 2:
            raise ValueError("orthogonal initializer requires at least a 2D shape")
        if any(d == 0 for d in shape):
            return jnp.zeros(shape, dtype=dtype)
        n_rows, n_cols = math.prod(shape) // shape[column_axis], shape[column_axis]
        q = random.orthogonal(key, n_rows, (), dtype, n_cols)
        q = jnp.reshape(q, tuple(np.delete(shape, column_axis)) + (shape[column_axis],))
        q = jnp.moveaxis(q, -1, column_axis)
        return jnp.array(scale, dtype) * q

    return init


def delta_orthogonal(scale: float = 1.0, column_axis: int = -1, dtype: Any = None) -> Initializer:
    """Initializer for convolution kernels (3-5 dims): zeros except an orthogonal matrix
    at the spatial centre (``jax.nn.initializers.delta_orthogonal``).

    Raises:
      ValueError: for other ranks, or fewer output than input channels.
    """

    @_explicit.placed_result
    def init(key, shape, dtype=dtype, out_sharding=None):
        dtype = _dtype(dtype)
        shape = tuple(int(d) for d in shape)
        if len(shape) not in (3, 4, 5):
            raise ValueError("Delta orthogonal initializer requires a 3D, 4D or 5D shape.")
        if shape[-1] < shape[-2]:
            raise ValueError("`fan_in` must be less or equal than `fan_out`. ")
        matrix = orthogonal(scale=scale, column_axis=column_axis, dtype=dtype)(key, shape[-2:])
        centre = tuple((k - 1) // 2 for k in shape[:-2])
        return jnp.zeros(shape, dtype=dtype).at[centre].set(matrix)

    return init
