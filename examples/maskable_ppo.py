"""Train sb3-contrib's ``MaskablePPO`` on a Plunder game straight from ``gymnasium.make``: no
wrapper of our own, the masks found by sb3-contrib's own lookup (``action_masks`` through
Gymnasium's wrappers).

Run: .venv/bin/python examples/maskable_ppo.py [--game pillage] [--preset small] [--steps 60000]
     [--every 10000] [--eval 200] [--plot docs/interop_maskable_ppo.png]

Needs the ``train`` extra (``pip install 'plunder[train]'``: stable-baselines3, sb3-contrib and
torch). The game is played from seat 0 against the ``random`` agent; every ``--every`` steps
the greedy (deterministic) policy plays the same ``--eval`` games (seeds from 1,000,000;
training draws its own), next to random legal play on those games, and the wins are printed
and, with ``--plot``, drawn.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any, Callable

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_util import make_vec_env

import plunder.interop.gymnasium  # noqa: F401  (registers the plunder/<Game>-v0 ids)

#: the first evaluation seed (training seeds come from the envs' own generators)
EVAL_SEED = 1_000_000
#: picks an action index from an observation and its mask
Policy = Callable[[np.ndarray, np.ndarray], int]


def wins(env_id: str, preset: str, policy: Policy, games: int) -> float:
    """The share of ``games`` evaluation games (seeds ``EVAL_SEED`` on) that ``policy`` wins."""
    env = gymnasium.make(env_id, preset=preset)
    won = 0
    for k in range(games):
        obs, info = env.reset(seed=EVAL_SEED + k)
        done, reward = False, 0.0
        while not done:
            obs, step_reward, done, _, info = env.step(policy(obs, info["action_mask"]))
            reward = float(step_reward)
        won += reward > 0
    env.close()
    return won / games


def random_policy(seed: int) -> Policy:
    """Uniform among the legal indices."""
    rng = random.Random(seed)
    return lambda obs, mask: rng.choice(np.flatnonzero(mask).tolist())


def model_policy(model: MaskablePPO) -> Policy:
    """The model's most likely legal action."""
    def act(obs: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
        return int(action)
    return act


def train(game: str, preset: str, steps: int, every: int, games: int, envs: int, seed: int,
          report: Callable[[str], Any] = print) -> tuple[list[int], list[float], float]:
    """Train and evaluate; returns the step counts, the wins after each, and random play's wins."""
    torch.set_num_threads(1)  # small networks: threads cost more than they give on a shared machine
    env_id = f"plunder/{game.capitalize()}-v0"
    vec = make_vec_env(env_id, n_envs=envs, seed=seed, env_kwargs={"preset": preset})
    model = MaskablePPO("MlpPolicy", vec, n_steps=512, batch_size=256, learning_rate=1e-3, gamma=1.0,
                        ent_coef=0.01, seed=seed, device="cpu", verbose=0)
    baseline = wins(env_id, preset, random_policy(seed), games)
    report(f"{env_id} {preset}: random legal play wins {baseline:.1%} of {games} evaluation games")
    done, counts, curve, start = 0, [0], [wins(env_id, preset, model_policy(model), games)], time.time()
    report(f"steps 0: wins {curve[-1]:.1%}")
    while done < steps:
        model.learn(total_timesteps=every, reset_num_timesteps=False)
        done = model.num_timesteps
        counts.append(done)
        curve.append(wins(env_id, preset, model_policy(model), games))
        report(f"steps {done}: wins {curve[-1]:.1%} ({time.time() - start:.0f} s)")
    return counts, curve, baseline


def plot(path: str, counts: list[int], curve: list[float], baseline: float, title: str) -> None:
    """The learning curve with random play's level."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 3.6), dpi=100)
    ax.plot(counts, [100 * c for c in curve], marker="o", label="MaskablePPO (greedy)")
    ax.axhline(100 * baseline, color="grey", linestyle="--", label="random legal play")
    ax.set_xlabel("training steps")
    ax.set_ylabel("evaluation games won (%)")
    ax.set_ylim(0, 100)
    ax.set_title(title)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Parse the options, train, print the curve and draw it; returns the curve."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="pillage")
    parser.add_argument("--preset", default="small")
    parser.add_argument("--steps", type=int, default=60_000, help="training steps (the agent's moves)")
    parser.add_argument("--every", type=int, default=10_000, help="steps between evaluations")
    parser.add_argument("--eval", type=int, default=200, help="evaluation games")
    parser.add_argument("--envs", type=int, default=4, help="environments stepped together")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", help="write the learning curve to this PNG")
    args = parser.parse_args(argv)
    start = time.process_time()
    counts, curve, baseline = train(args.game, args.preset, args.steps, args.every, args.eval, args.envs, args.seed)
    print(f"{time.process_time() - start:.0f} s of CPU time")
    if args.plot:
        plot(args.plot, counts, curve, baseline, f"MaskablePPO on {args.game} {args.preset} against random")
    return {"steps": counts, "wins": curve, "random": baseline}


if __name__ == "__main__":
    main()
