"""Balance gymnasium's CartPole with a linear policy, stepping the simulator from inside jit.

Each generation of a simple evolution strategy (antithetic Gaussian perturbations of one
linear policy, rank-based weights) is evaluated in ONE jitted call: ``lax.scan`` runs the
episode, the policies of the whole population act together through ``vmap``, and a single
ordered ``io_callback`` per time step hands all the actions to a gymnasium vector
environment (one sub-environment per population member, plus a few that evaluate the
current mean policy) and brings back observations, rewards and termination flags.
Training stops when the mean policy's average episode return reaches the target (195).

    python examples/cartpole.py
    python examples/cartpole.py --quick        # a two-generation smoke run
"""

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import require

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite.experimental import io_callback

OBS_DIM = 4


def policy(params, obs):
    """Push right (action 1) when the linear score is positive."""
    return (jnp.dot(obs, params["w"]) + params["b"] > 0).astype(jnp.int32)


class VectorCartPole:
    """Host side of the rollout: owns the gymnasium vector environment."""

    def __init__(self, gym, num_envs, mode):
        self.num_envs = num_envs
        self.env = gym.make_vec("CartPole-v1", num_envs=num_envs, vectorization_mode=mode)
        self.steps = 0

    def reset(self, seed):
        obs, _ = self.env.reset(seed=seed)
        return obs.astype(np.float32)

    def step(self, actions):
        """The io_callback target: one step of every sub-environment."""
        self.steps += 1
        obs, reward, terminated, truncated, _ = self.env.step(np.asarray(actions, np.int64))
        return (
            obs.astype(np.float32),
            reward.astype(np.float32),
            np.logical_or(terminated, truncated),
        )

    def close(self):
        self.env.close()


def make_rollout(env, horizon):
    n = env.num_envs
    result_shapes = (
        jax.ShapeDtypeStruct((n, OBS_DIM), jnp.float32),
        jax.ShapeDtypeStruct((n,), jnp.float32),
        jax.ShapeDtypeStruct((n,), jnp.bool_),
    )

    @jax.jit
    def rollout(population, obs0):
        """Total reward of each sub-environment's first episode (at most `horizon` steps)."""

        def body(carry, _):
            obs, alive, total = carry
            actions = jax.vmap(policy)(population, obs)
            obs, reward, done = io_callback(env.step, result_shapes, actions, ordered=True)
            total = total + jnp.where(alive, reward, 0.0)
            alive = jnp.logical_and(alive, jnp.logical_not(done))
            return (obs, alive, total), None

        init = (obs0, jnp.ones((n,), jnp.bool_), jnp.zeros((n,), jnp.float32))
        (_, _, total), _ = jax.lax.scan(body, init, None, length=horizon)
        return total

    return rollout


def centred_ranks(x):
    ranks = np.empty(len(x))
    ranks[np.argsort(x, kind="stable")] = np.arange(len(x))
    return ranks / (len(x) - 1) - 0.5


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--generations", type=int, default=40, help="upper limit")
    p.add_argument("--pairs", type=int, default=12, help="antithetic pairs per generation")
    p.add_argument(
        "--eval-episodes", type=int, default=8, help="episodes of the mean policy per generation"
    )
    p.add_argument("--horizon", type=int, default=500, help="max steps per episode")
    p.add_argument("--sigma", type=float, default=0.5)
    p.add_argument("--lr", type=float, default=1.0)
    p.add_argument("--target", type=float, default=195.0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--vectorization",
        default="sync",
        choices=["sync", "vector_entry_point", "async"],
        help="gymnasium vectorization mode (sync = SyncVectorEnv)",
    )
    p.add_argument(
        "--quick",
        action="store_true",
        help="smoke run: 2 generations, 4 pairs, 2 eval episodes, 60-step horizon",
    )
    args = p.parse_args(argv)
    if args.quick:
        args.generations, args.pairs, args.eval_episodes, args.horizon = 2, 4, 2, 60
    return args


def main(argv=None):
    args = parse_args(argv)
    (gym,) = require("gymnasium", example="examples/cartpole.py")
    key = jax.random.key(args.seed)
    n_pop = 2 * args.pairs
    env = VectorCartPole(gym, n_pop + args.eval_episodes, args.vectorization)
    rollout = make_rollout(env, args.horizon)

    theta = np.zeros(OBS_DIM + 1)  # [w, b] of the mean policy
    history = []
    solved_at = None
    t_start = time.perf_counter()
    print(
        f"CartPole-v1: {n_pop} perturbed policies + {args.eval_episodes} evaluation "
        f"episodes per generation, {env.num_envs} environments, horizon {args.horizon}"
    )
    try:
        for gen in range(args.generations):
            noise = jax.random.normal(jax.random.fold_in(key, gen), (args.pairs, OBS_DIM + 1))
            eps = np.asarray(noise, dtype=np.float64)
            eps = np.concatenate([eps, -eps])
            members = np.concatenate(
                [theta + args.sigma * eps, np.tile(theta, (args.eval_episodes, 1))]
            )
            population = {
                "w": jnp.asarray(members[:, :OBS_DIM].astype(np.float32)),
                "b": jnp.asarray(members[:, OBS_DIM].astype(np.float32)),
            }
            obs0 = env.reset(seed=args.seed * 100_003 + gen * env.num_envs)
            returns = np.asarray(rollout(population, jnp.asarray(obs0)), dtype=np.float64)
            pop_returns, mean_policy_return = returns[:n_pop], returns[n_pop:].mean()
            history.append(
                {
                    "generation": gen,
                    "population_mean": pop_returns.mean(),
                    "population_max": pop_returns.max(),
                    "policy_return": mean_policy_return,
                }
            )
            print(
                f"generation {gen:3d}  mean-policy return {mean_policy_return:6.1f}  "
                f"population mean {pop_returns.mean():6.1f}  max {pop_returns.max():6.1f}"
            )
            if mean_policy_return >= args.target:
                solved_at = gen
                break
            weights = centred_ranks(pop_returns)
            theta = theta + args.lr / (n_pop * args.sigma) * weights @ eps
    finally:
        env.close()
    wall = time.perf_counter() - t_start
    if solved_at is not None:
        print(
            f"solved: mean episode return {history[-1]['policy_return']:.1f} >= "
            f"{args.target} after {solved_at + 1} generation(s)"
        )
    else:
        print(
            f"not solved within {args.generations} generation(s) "
            f"(best mean-policy return {max(h['policy_return'] for h in history):.1f})"
        )
    print(f"policy w = {np.array2string(theta[:OBS_DIM], precision=3)}, b = {theta[-1]:.3f}")
    print(f"wall time {wall:.2f} s ({env.steps} vector-env steps through io_callback)")
    # a full run that misses the target is a failure; a --quick smoke run is not
    failed = solved_at is None and not args.quick
    return {
        "history": history,
        "solved_at": solved_at,
        "theta": theta,
        "wall_time": wall,
        "env_steps": env.steps,
        "num_envs": env.num_envs,
        "horizon": args.horizon,
        "exit_code": 1 if failed else 0,
    }


if __name__ == "__main__":
    sys.exit(main()["exit_code"])
