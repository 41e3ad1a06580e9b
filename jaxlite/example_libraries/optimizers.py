"""``jax.example_libraries.optimizers``: first-order optimizers over pytrees of arrays.

An optimizer is an ``Optimizer(init_fn, update_fn, params_fn)`` triple:

* ``init_fn(params) -> opt_state``;
* ``update_fn(step, grads, opt_state) -> opt_state`` (``grads`` has the tree structure of
  the parameters);
* ``params_fn(opt_state) -> params``, with ``params_fn(init_fn(params)) == params``.

Each optimizer below is written for a single array and lifted to pytrees by the
``optimizer`` decorator; its state is an ``OptimizerState`` pytree (the flattened
per-leaf states plus the tree definitions), so it passes through ``jit`` and ``scan``.
Step sizes are numbers or schedules ``step -> step size``. An example library, as in JAX:
for real training use a full-featured library.
"""

from __future__ import annotations

import functools
import warnings
from collections import namedtuple
from collections.abc import Callable
from typing import Any, NamedTuple

import jaxlite.numpy as jnp
from jaxlite import tree_util
from jaxlite.tree_util import tree_flatten, tree_map, tree_unflatten

OptimizerState = namedtuple("OptimizerState", ["packed_state", "tree_def", "subtree_defs"])
# One child (the list of flattened states); the tree definitions are static. optree warns
# when a namedtuple gets its own flattening; that is the point here.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    tree_util.register_pytree_node(
        OptimizerState,
        lambda s: ((s.packed_state,), (s.tree_def, s.subtree_defs)),
        lambda aux, children: OptimizerState(children[0], aux[0], aux[1]),
    )

Array = Any
Params = Any  # a pytree of arrays
State = Any  # an optimizer's per-array state
Updates = Params  # gradients: the same structure as the parameters
InitFn = Callable[[Params], OptimizerState]
Step = int
UpdateFn = Callable[[Step, Updates, OptimizerState], OptimizerState]
ParamsFn = Callable[[OptimizerState], Params]
Schedule = Callable[[Step], float]


class Optimizer(NamedTuple):
    """The ``(init_fn, update_fn, params_fn)`` triple of an optimizer."""

    init_fn: InitFn
    update_fn: UpdateFn
    params_fn: ParamsFn


def _flatten_all(trees):
    pairs = [tree_flatten(t) for t in trees]
    return [p[0] for p in pairs], [p[1] for p in pairs]


def optimizer(opt_maker: Callable[..., tuple[Callable, Callable, Callable]]):
    """Lift an optimizer written for single arrays to pytrees of arrays.

    ``opt_maker(*args)`` returns ``(init, update, get_params)`` acting on one array (its
    state may be any pytree). The decorated maker returns an ``Optimizer`` whose functions
    act leaf by leaf on pytrees of parameters.

    Raises (from the lifted ``update_fn``):
        TypeError: the gradient tree's structure differs from the parameters', or the
            per-array update changed the structure of its state.
    """

    @functools.wraps(opt_maker)
    def make(*args, **kwargs):
        init, update, get_params = opt_maker(*args, **kwargs)

        @functools.wraps(init)
        def tree_init(x0_tree):
            x0_flat, tree = tree_flatten(x0_tree)
            states_flat, subtrees = _flatten_all([init(x0) for x0 in x0_flat])
            return OptimizerState(states_flat, tree, subtrees)

        @functools.wraps(update)
        def tree_update(i, grad_tree, opt_state):
            states_flat, tree, subtrees = opt_state
            grad_flat, grad_def = tree_flatten(grad_tree)
            if grad_def != tree:
                raise TypeError(
                    "optimizer update function was passed a gradient tree that did not "
                    "match the parameter tree structure with which it was initialized: "
                    f"parameter tree {tree} and grad tree {grad_def}."
                )
            if len(grad_flat) != len(states_flat):
                raise ValueError("optimizer state and gradients differ in length")
            states = [tree_unflatten(d, s) for d, s in zip(subtrees, states_flat)]
            new_flat, new_subtrees = _flatten_all(
                [update(i, g, s) for g, s in zip(grad_flat, states)]
            )
            for old, new in zip(subtrees, new_subtrees):
                if new != old:
                    raise TypeError(
                        "optimizer update function produced an output structure that did "
                        f"not match its input structure: input {old} and output {new}."
                    )
            return OptimizerState(new_flat, tree, subtrees)

        @functools.wraps(get_params)
        def tree_get_params(opt_state):
            states_flat, tree, subtrees = opt_state
            states = [tree_unflatten(d, s) for d, s in zip(subtrees, states_flat)]
            return tree_unflatten(tree, [get_params(s) for s in states])

        return Optimizer(tree_init, tree_update, tree_get_params)

    return make


def _first(state):
    return state[0]


# ---- optimizers (each: init, update, get_params over one array)


@optimizer
def sgd(step_size):
    """Stochastic gradient descent: ``x -= step_size(i) * g``.

    Args:
        step_size: a positive number or a schedule ``step -> step size``.
    """
    step_size = make_schedule(step_size)

    def update(i, g, x):
        return x - step_size(i) * g

    return Optimizer(lambda x0: x0, update, lambda x: x)


def _heavy_ball(step_size, mass, nesterov: bool):
    step_size = make_schedule(step_size)

    def init(x0):
        return x0, jnp.zeros_like(x0)

    def update(i, g, state):
        x, velocity = state
        velocity = mass * velocity + g
        direction = mass * velocity + g if nesterov else velocity
        return x - step_size(i) * direction, velocity

    return init, update, _first


@optimizer
def momentum(step_size: Schedule, mass: float):
    """Gradient descent with momentum: ``v = mass * v + g; x -= step_size(i) * v``."""
    return _heavy_ball(step_size, mass, nesterov=False)


@optimizer
def nesterov(step_size: Schedule, mass: float):
    """Nesterov's accelerated gradient: as ``momentum`` but steps along
    ``mass * v + g``."""
    return _heavy_ball(step_size, mass, nesterov=True)


@optimizer
def adagrad(step_size, momentum=0.9):
    """Adagrad (Duchi et al. 2011) with momentum on the scaled gradient.

    The squared gradients accumulate; the step is ``g / sqrt(sum g^2)`` (0 where the sum
    is 0), averaged with weight ``momentum``.
    """
    step_size = make_schedule(step_size)

    def init(x0):
        return x0, jnp.zeros_like(x0), jnp.zeros_like(x0)

    def update(i, g, state):
        x, g_sq, m = state
        g_sq = g_sq + jnp.square(g)
        inv_root = jnp.where(g_sq > 0, 1.0 / jnp.sqrt(g_sq), 0.0)
        m = (1.0 - momentum) * (g * inv_root) + momentum * m
        return x - step_size(i) * m, g_sq, m

    return init, update, _first


@optimizer
def rmsprop(step_size, gamma=0.9, eps=1e-8):
    """RMSProp: divide the step by the root of a decaying average of squared gradients.

    Args:
        step_size: a number or a schedule.
        gamma: the decay of the average.
        eps: added under the root.
    """
    step_size = make_schedule(step_size)

    def init(x0):
        return x0, jnp.zeros_like(x0)

    def update(i, g, state):
        x, avg_sq = state
        avg_sq = avg_sq * gamma + jnp.square(g) * (1.0 - gamma)
        return x - step_size(i) * g / jnp.sqrt(avg_sq + eps), avg_sq

    return init, update, _first


@optimizer
def rmsprop_momentum(step_size, gamma=0.9, eps=1e-8, momentum=0.9):
    """RMSProp with momentum on the scaled step (state: params, average, momentum)."""
    step_size = make_schedule(step_size)

    def init(x0):
        return x0, jnp.zeros_like(x0), jnp.zeros_like(x0)

    def update(i, g, state):
        x, avg_sq, mom = state
        avg_sq = avg_sq * gamma + jnp.square(g) * (1.0 - gamma)
        mom = momentum * mom + step_size(i) * g / jnp.sqrt(avg_sq + eps)
        return x - mom, avg_sq, mom

    return init, update, _first


def _bias_correction(beta, like, i):
    # 1 - beta ** (i + 1), with beta in the moments' dtype
    return 1 - jnp.asarray(beta, like.dtype) ** (i + 1)


@optimizer
def adam(step_size, b1=0.9, b2=0.999, eps=1e-8):
    """Adam (Kingma & Ba 2015): bias-corrected first and second moment estimates.

    Args:
        step_size: a number or a schedule.
        b1, b2: decay rates of the first and second moments.
        eps: added to the root of the second moment.
    """
    step_size = make_schedule(step_size)

    def init(x0):
        return x0, jnp.zeros_like(x0), jnp.zeros_like(x0)

    def update(i, g, state):
        x, m, v = state
        m = (1 - b1) * g + b1 * m
        v = (1 - b2) * jnp.square(g) + b2 * v
        m_hat = m / _bias_correction(b1, m, i)
        v_hat = v / _bias_correction(b2, m, i)
        return x - step_size(i) * m_hat / (jnp.sqrt(v_hat) + eps), m, v

    return init, update, _first


@optimizer
def adamax(step_size, b1=0.9, b2=0.999, eps=1e-8):
    """AdaMax: Adam with the infinity norm in place of the second moment."""
    step_size = make_schedule(step_size)

    def init(x0):
        return x0, jnp.zeros_like(x0), jnp.zeros_like(x0)

    def update(i, g, state):
        x, m, u = state
        m = (1 - b1) * g + b1 * m
        u = jnp.maximum(b2 * u, jnp.abs(g))
        x = x - (step_size(i) / _bias_correction(b1, m, i)) * m / (u + eps)
        return x, m, u

    return init, update, _first


@optimizer
def sm3(step_size, momentum=0.9):
    """SM3 (Anil et al. 2019): Adagrad with one accumulator per axis (memory-efficient).

    The state keeps, per axis, the max over the other axes of the accumulated squares; the
    accumulator of an element is the min of its axes' entries plus its squared gradient.
    """
    step_size = make_schedule(step_size)

    def along(v, axis, ndim):
        # v (1-D) as an ndim array varying along ``axis``
        # (a 0-d gradient of a scalar parameter keeps its accumulator 1-d, as in JAX)
        index = [None] * ndim
        index[axis : axis + 1] = [slice(None)]
        return v[tuple(index)]

    def init(x0):
        shape = x0.shape
        x0 = jnp.atleast_1d(x0)
        accs = [jnp.zeros(n, dtype=x0.dtype) for n in x0.shape]
        return x0, jnp.zeros_like(x0), accs, shape

    def update(i, g, state):
        x, m, accs, shape = state
        per_axis = [along(v, ax, g.ndim) for ax, v in enumerate(accs)]
        acc = functools.reduce(jnp.minimum, per_axis) + jnp.square(g)
        inv_root = jnp.where(acc > 0, 1.0 / jnp.sqrt(acc), 0)
        m = (1.0 - momentum) * (g * inv_root) + momentum * m
        x = x - step_size(i) * m
        others = [tuple(a for a in range(x.ndim) if a != ax) for ax in range(x.ndim)]
        return x, m, [acc.max(axes) for axes in others], shape

    def get_params(state):
        x, _, _, shape = state
        return x.reshape(shape)

    return init, update, get_params


# ---- step-size schedules


def constant(step_size) -> Schedule:
    """The schedule that is always ``step_size``."""

    def schedule(i):
        return step_size

    return schedule


def exponential_decay(step_size, decay_steps, decay_rate):
    """``step_size * decay_rate ** (i / decay_steps)``."""

    def schedule(i):
        return step_size * decay_rate ** (i / decay_steps)

    return schedule


def inverse_time_decay(step_size, decay_steps, decay_rate, staircase=False):
    """``step_size / (1 + decay_rate * i / decay_steps)`` (with ``floor(i / decay_steps)``
    if ``staircase``)."""

    def schedule(i):
        if staircase:
            return step_size / (1 + decay_rate * jnp.floor(i / decay_steps))
        return step_size / (1 + decay_rate * i / decay_steps)

    return schedule


def polynomial_decay(step_size, decay_steps, final_step_size, power=1.0):
    """From ``step_size`` to ``final_step_size`` over ``decay_steps`` steps along
    ``(1 - i / decay_steps) ** power``, then constant."""

    def schedule(step_num):
        step_num = jnp.minimum(step_num, decay_steps)
        frac = (1 - step_num / decay_steps) ** power
        return frac * (step_size - final_step_size) + final_step_size

    return schedule


def piecewise_constant(boundaries: Any, values: Any):
    """``values[k]`` where ``k`` is the number of boundaries strictly below the step.

    Raises:
        ValueError: ``boundaries``/``values`` are not 1-D, or ``values`` is not one longer.
    """
    boundaries = jnp.array(boundaries)
    values = jnp.array(values)
    if not boundaries.ndim == values.ndim == 1:
        raise ValueError("boundaries and values must be sequences")
    if not boundaries.shape[0] == values.shape[0] - 1:
        raise ValueError("boundaries length must be one shorter than values length")

    def schedule(i):
        return values[jnp.sum(i > boundaries)]

    return schedule


def make_schedule(scalar_or_schedule: float | Schedule) -> Schedule:
    """A schedule as is, or a scalar as a constant schedule.

    Raises:
        TypeError: for anything else (the message is the argument's type, as in JAX).
    """
    if callable(scalar_or_schedule):
        return scalar_or_schedule
    if jnp.ndim(scalar_or_schedule) == 0:
        return constant(scalar_or_schedule)
    raise TypeError(type(scalar_or_schedule))


# ---- utilities


def l2_norm(tree):
    """The Euclidean norm of all the leaves of ``tree`` together."""
    leaves, _ = tree_flatten(tree)
    return jnp.sqrt(sum(jnp.vdot(x, x) for x in leaves))


def clip_grads(grad_tree, max_norm):
    """Scale ``grad_tree`` down to norm ``max_norm`` if its ``l2_norm`` is larger."""
    norm = l2_norm(grad_tree)
    return tree_map(lambda g: jnp.where(norm < max_norm, g, g * (max_norm / norm)), grad_tree)


# ---- serialization


class JoinPoint:
    """A leaf of the outer tree of an unpacked optimizer state, holding one array's state.

    Iterable (it yields its subtree) so that code treating states as containers works.
    """

    def __init__(self, subtree):
        self.subtree = subtree

    def __iter__(self):
        yield self.subtree


def unpack_optimizer_state(opt_state):
    """An ``OptimizerState`` as the parameter tree with a ``JoinPoint`` (holding that
    array's state pytree) at each leaf: a plain structure to serialize."""
    states_flat, tree_def, subtree_defs = opt_state
    joins = [JoinPoint(tree_unflatten(d, s)) for d, s in zip(subtree_defs, states_flat)]
    return tree_unflatten(tree_def, joins)


def pack_optimizer_state(marked_pytree):
    """The inverse of ``unpack_optimizer_state``.

    Raises:
        AssertionError: a leaf of ``marked_pytree`` is not a ``JoinPoint``.
    """
    joins, tree_def = tree_flatten(marked_pytree)
    assert all(isinstance(j, JoinPoint) for j in joins)
    states_flat, subtree_defs = _flatten_all([j.subtree for j in joins])
    return OptimizerState(states_flat, tree_def, subtree_defs)
