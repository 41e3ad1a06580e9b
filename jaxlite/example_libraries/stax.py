"""``jax.example_libraries.stax``: neural-network layers as ``(init_fun, apply_fun)`` pairs.

A layer constructor (CamelCase, as in Keras) returns two functions:

* ``init_fun(rng, input_shape) -> (output_shape, params)`` draws the parameters;
* ``apply_fun(params, inputs, **kwargs) -> outputs`` runs the layer (``rng=`` is the key
  of stochastic layers such as ``Dropout``).

Combinators (``serial``, ``parallel``, ``shape_dependent``) build layers from layers. The
keys are split exactly as JAX's stax splits them, so the same key gives the same
parameters in both libraries (jaxlite.random is bit-exact with JAX). An example library,
as in JAX: for real models use a full-featured library.
"""

from __future__ import annotations

import functools
import math

import jaxlite.numpy as jnp
from jaxlite import lax, random
from jaxlite.nn import (
    elu,
    gelu,
    leaky_relu,
    log_softmax,
    relu,
    selu,
    sigmoid,
    softmax,
    softplus,
    standardize,
)
from jaxlite.nn.initializers import glorot_normal, normal, ones, zeros

__all__ = [
    "AvgPool",
    "BatchNorm",
    "Conv",
    "Conv1DTranspose",
    "ConvTranspose",
    "Dense",
    "Dropout",
    "Elu",
    "Exp",
    "FanInConcat",
    "FanInSum",
    "FanOut",
    "Flatten",
    "Gelu",
    "GeneralConv",
    "GeneralConvTranspose",
    "Identity",
    "LeakyRelu",
    "LogSoftmax",
    "MaxPool",
    "Relu",
    "Selu",
    "Sigmoid",
    "Softmax",
    "Softplus",
    "SumPool",
    "Tanh",
    "elementwise",
    "parallel",
    "serial",
    "shape_dependent",
]

# Older names, kept by JAX for backwards compatibility.
glorot = glorot_normal
randn = normal
logsoftmax = log_softmax


# Default initializers (made once, as JAX's default arguments are).
_GLOROT_NORMAL = glorot_normal()
_NORMAL = normal()
_NORMAL_BIAS = normal(1e-6)


def _no_params(rng, input_shape):
    return input_shape, ()


# ---- parameterised layers


def Dense(out_dim, W_init=_GLOROT_NORMAL, b_init=_NORMAL):
    """A fully-connected layer: ``inputs @ W + b``.

    Args:
        out_dim: the number of output features.
        W_init, b_init: initializers ``(key, shape) -> array`` of the ``(in, out)`` weights
            and the ``(out,)`` bias (glorot normal and normal(1e-2) by default).

    Returns:
        ``(init_fun, apply_fun)``; the params are ``(W, b)``.
    """

    def init_fun(rng, input_shape):
        w_key, b_key = random.split(rng)
        params = (W_init(w_key, (input_shape[-1], out_dim)), b_init(b_key, (out_dim,)))
        return input_shape[:-1] + (out_dim,), params

    def apply_fun(params, inputs, **kwargs):
        W, b = params
        return jnp.dot(inputs, W) + b

    return init_fun, apply_fun


def _conv_layer(transpose: bool):
    def constructor(
        dimension_numbers,
        out_chan,
        filter_shape,
        strides=None,
        padding="VALID",
        W_init=None,
        b_init=_NORMAL_BIAS,
    ):
        lhs_spec, rhs_spec, out_spec = dimension_numbers
        ones_ = (1,) * len(filter_shape)
        strides = strides or ones_
        W_init = W_init or glorot_normal(rhs_spec.index("I"), rhs_spec.index("O"))

        def init_fun(rng, input_shape):
            spatial = iter(filter_shape)
            kernel_shape = []
            for c in rhs_spec:
                if c == "O":
                    kernel_shape.append(out_chan)
                elif c == "I":
                    kernel_shape.append(input_shape[lhs_spec.index("C")])
                else:
                    kernel_shape.append(next(spatial))
            shape_fn = lax.conv_transpose_shape_tuple if transpose else lax.conv_general_shape_tuple
            out_shape = shape_fn(input_shape, kernel_shape, strides, padding, dimension_numbers)
            bias_shape = [out_chan if c == "C" else 1 for c in out_spec]
            w_key, b_key = random.split(rng)
            return out_shape, (W_init(w_key, kernel_shape), b_init(b_key, bias_shape))

        def apply_fun(params, inputs, **kwargs):
            W, b = params
            if transpose:
                out = lax.conv_transpose(
                    inputs, W, strides, padding, dimension_numbers=dimension_numbers
                )
            else:
                out = lax.conv_general_dilated(
                    inputs, W, strides, padding, ones_, ones_, dimension_numbers=dimension_numbers
                )
            return out + b

        return init_fun, apply_fun

    return constructor


GeneralConv = _conv_layer(transpose=False)
GeneralConv.__doc__ = """A convolution layer (``lax.conv_general_dilated`` plus a bias).

Args:
    dimension_numbers: ``(lhs_spec, rhs_spec, out_spec)`` strings, e.g.
        ``('NHWC', 'HWIO', 'NHWC')``.
    out_chan: the number of output channels.
    filter_shape: the spatial shape of the kernel.
    strides: the window strides (default all 1).
    padding: ``'VALID'``, ``'SAME'`` or explicit ``(low, high)`` pairs.
    W_init, b_init: initializers of the kernel and the bias (glorot normal over the
        kernel's I/O axes; normal(1e-6)).

Returns:
    ``(init_fun, apply_fun)``; the params are ``(W, b)``.
"""
GeneralConvTranspose = _conv_layer(transpose=True)
GeneralConvTranspose.__doc__ = """A transposed-convolution layer (``lax.conv_transpose`` plus a
bias); arguments as ``GeneralConv``."""
Conv = functools.partial(GeneralConv, ("NHWC", "HWIO", "NHWC"))
Conv1DTranspose = functools.partial(GeneralConvTranspose, ("NHC", "HIO", "NHC"))
ConvTranspose = functools.partial(GeneralConvTranspose, ("NHWC", "HWIO", "NHWC"))


def BatchNorm(
    axis=(0, 1, 2), epsilon=1e-5, center=True, scale=True, beta_init=zeros, gamma_init=ones
):
    """Batch normalisation: standardise over ``axis``, then scale by ``gamma`` and shift by
    ``beta`` (parameters over the remaining axes).

    Args:
        axis: the axis or axes normalised over (the batch and spatial axes of NHWC).
        epsilon: added to the variance.
        center, scale: whether to learn ``beta`` / ``gamma`` (``()`` in their place if not).
        beta_init, gamma_init: their initializers.

    Returns:
        ``(init_fun, apply_fun)``; the params are ``(beta, gamma)``.
    """
    axis = (axis,) if jnp.isscalar(axis) else axis

    def init_fun(rng, input_shape):
        shape = tuple(d for i, d in enumerate(input_shape) if i not in axis)
        beta_key, gamma_key = random.split(rng)
        beta = beta_init(beta_key, shape) if center else ()
        gamma = gamma_init(gamma_key, shape) if scale else ()
        return input_shape, (beta, gamma)

    def apply_fun(params, x, **kwargs):
        beta, gamma = params
        # put the parameters' axes back where they sit in x
        expand = tuple(None if i in axis else slice(None) for i in range(jnp.ndim(x)))
        z = standardize(x, axis, epsilon=epsilon)
        if scale:
            z = gamma[expand] * z
        if center:
            z = z + beta[expand]
        return z

    return init_fun, apply_fun


# ---- elementwise layers


def elementwise(fun, **fun_kwargs):
    """A parameterless layer applying ``fun(inputs, **fun_kwargs)``."""

    def apply_fun(params, inputs, **kwargs):
        return fun(inputs, **fun_kwargs)

    return _no_params, apply_fun


Tanh = elementwise(jnp.tanh)
Relu = elementwise(relu)
Exp = elementwise(jnp.exp)
LogSoftmax = elementwise(log_softmax, axis=-1)
Softmax = elementwise(softmax, axis=-1)
Softplus = elementwise(softplus)
Sigmoid = elementwise(sigmoid)
Elu = elementwise(elu)
LeakyRelu = elementwise(leaky_relu)
Selu = elementwise(selu)
Gelu = elementwise(gelu)


# ---- pooling


def _with_unit_axes(seq, axes):
    seq = tuple(seq)
    for i in sorted(axes):
        seq = seq[:i] + (1,) + seq[i:]
    return seq


def _pool(init_val, reducer, average: bool):
    def constructor(window_shape, strides=None, padding="VALID", spec=None):
        strides = strides or (1,) * len(window_shape)
        spatial_window, spatial_strides = tuple(window_shape), tuple(strides)
        # The batch and channel axes (N first and C last unless ``spec`` says otherwise)
        # get unit windows.
        non_spatial = (
            (0, len(window_shape) + 1) if spec is None else (spec.index("N"), spec.index("C"))
        )
        window = _with_unit_axes(window_shape, non_spatial)
        strides = _with_unit_axes(strides, non_spatial)

        def init_fun(rng, input_shape):
            pads = lax.padtype_to_pads(input_shape, window, strides, padding)
            unit = (1,) * len(window)
            out_shape = lax.reduce_window_shape_tuple(
                input_shape, window, strides, pads, unit, unit
            )
            return out_shape, ()

        def apply_fun(params, inputs, **kwargs):
            out = lax.reduce_window(inputs, init_val, reducer, window, strides, padding)
            if not average:
                return out
            # Divide by the number of input elements each window covered (fewer at a padded
            # border), counted by pooling ones over the spatial shape.
            axes = (0, inputs.ndim - 1) if spec is None else (spec.index("N"), spec.index("C"))
            spatial_shape = tuple(n for i, n in enumerate(inputs.shape) if i not in axes)
            counts = lax.reduce_window(
                jnp.ones(spatial_shape, inputs.dtype),
                0.0,
                lax.add,
                spatial_window,
                spatial_strides,
                padding,
            )
            for i in sorted(axes):
                counts = jnp.expand_dims(counts, i)
            return out / counts

        return init_fun, apply_fun

    return constructor


MaxPool = _pool(-jnp.inf, lax.max, average=False)
MaxPool.__doc__ = """Max pooling over ``window_shape`` (spatial dims; ``spec`` such as
``'NHWC'`` says where the batch and channel axes are)."""
SumPool = _pool(0.0, lax.add, average=False)
SumPool.__doc__ = """Sum pooling; arguments as ``MaxPool``."""
AvgPool = _pool(0.0, lax.add, average=True)
AvgPool.__doc__ = """Average pooling (padding excluded from the count); arguments as
``MaxPool``."""


# ---- shape layers


def _flatten():
    def init_fun(rng, input_shape):
        return (input_shape[0], math.prod(input_shape[1:])), ()

    def apply_fun(params, inputs, **kwargs):
        return jnp.reshape(inputs, (inputs.shape[0], -1))

    return init_fun, apply_fun


Flatten = _flatten()  # flattens all but the leading (batch) dimension
Identity = (_no_params, lambda params, inputs, **kwargs: inputs)


def FanOut(num):
    """A layer that passes its input on ``num`` times (a list), e.g. into ``parallel``."""
    return (
        lambda rng, input_shape: ([input_shape] * num, ()),
        lambda params, inputs, **kwargs: [inputs] * num,
    )


FanInSum = (
    lambda rng, input_shape: (input_shape[0], ()),
    lambda params, inputs, **kwargs: sum(inputs),
)


def FanInConcat(axis=-1):
    """A layer that concatenates its list of inputs along ``axis``."""

    def init_fun(rng, input_shape):
        ax = axis % len(input_shape[0])
        first = tuple(input_shape[0])
        size = sum(shape[ax] for shape in input_shape)
        return first[:ax] + (size,) + first[ax + 1 :], ()

    def apply_fun(params, inputs, **kwargs):
        return jnp.concatenate(inputs, axis)

    return init_fun, apply_fun


_DROPOUT_NEEDS_KEY = (
    "Dropout layer requires apply_fun to be called with a PRNG key argument. That is, "
    "instead of `apply_fun(params, inputs)`, call it like `apply_fun(params, inputs, rng)` "
    "where `rng` is a PRNG key (e.g. from `jax.random.key`)."
)


def Dropout(rate, mode="train"):
    """Dropout. As in JAX, ``rate`` is the probability of *keeping* an element; kept
    elements are divided by it. ``mode`` other than ``'train'`` is the identity.

    Raises:
        ValueError: ``apply_fun`` called without ``rng=``.
    """

    def apply_fun(params, inputs, **kwargs):
        rng = kwargs.get("rng")
        if rng is None:
            raise ValueError(_DROPOUT_NEEDS_KEY)
        if mode != "train":
            return inputs
        keep = random.bernoulli(rng, rate, inputs.shape)
        return jnp.where(keep, inputs / rate, 0)

    return _no_params, apply_fun


# ---- combinators


def _apply_keys(rng, n):
    return random.split(rng, n) if rng is not None else (None,) * n


def serial(*layers):
    """Compose layers one after another (each one's output is the next one's input).

    Init splits its key once per layer (a fresh key for each); apply splits ``rng`` (if
    given) into one key per layer.

    Returns:
        ``(init_fun, apply_fun)``; the params are a list, one entry per layer.
    """
    init_funs, apply_funs = zip(*layers)

    def init_fun(rng, input_shape):
        params = []
        for init in init_funs:
            rng, layer_rng = random.split(rng)
            input_shape, p = init(layer_rng, input_shape)
            params.append(p)
        return input_shape, params

    def apply_fun(params, inputs, **kwargs):
        keys = _apply_keys(kwargs.pop("rng", None), len(apply_funs))
        for fun, p, key in zip(apply_funs, params, keys):
            inputs = fun(p, inputs, rng=key, **kwargs)
        return inputs

    return init_fun, apply_fun


def parallel(*layers):
    """Run layers side by side: layer ``i`` takes input ``i`` (use with ``FanOut`` and
    ``FanInSum``/``FanInConcat``).

    Returns:
        ``(init_fun, apply_fun)``; init returns a ``zip`` of the layers' ``(output_shape,
        params)`` pairs (unpack it as ``shapes, params = init_fun(...)``, as in JAX), apply
        a list of outputs.
    """
    init_funs, apply_funs = zip(*layers)

    def init_fun(rng, input_shape):
        keys = random.split(rng, len(init_funs))
        results = [init(k, s) for init, k, s in zip(init_funs, keys, input_shape)]
        return zip(*results)

    def apply_fun(params, inputs, **kwargs):
        keys = _apply_keys(kwargs.pop("rng", None), len(apply_funs))
        return [f(p, x, rng=k, **kwargs) for f, p, x, k in zip(apply_funs, params, inputs, keys)]

    return init_fun, apply_fun


def shape_dependent(make_layer):
    """A layer built by ``make_layer(input_shape)`` once the input shape is known."""

    def init_fun(rng, input_shape):
        return make_layer(input_shape)[0](rng, input_shape)

    def apply_fun(params, inputs, **kwargs):
        return make_layer(inputs.shape)[1](params, inputs, **kwargs)

    return init_fun, apply_fun
