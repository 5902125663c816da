"""A tabular agent learns Profiteer end to end through the Gymnasium env (``plunder/Profiteer-v0``).

Run: .venv/bin/python examples/profiteer_tabular.py [--episodes 30000] [--plot docs/interop_learning.png]

Monte Carlo control: the agent keeps a value per (situation, action index) and moves each
value it used in an episode toward the episode's return (+1 win, -1 loss); it plays the
best-valued legal action (the env's mask), a random legal one 5% of the time. Actions it
has never tried keep the value 0, above a loss, so it tries them in turn. A situation is
read off the observation vector (its layout is in docs/interop.md): the phase, the ranks
of the two face-up cards, the difference between the sides' won cards (-4..4) and how much
of the decks is left (0..3). Every ``--every`` episodes the greedy agent plays the same
``--eval`` games (seeds no training episode uses), next to uniformly random legal play and
the game's hand-tuned ``profit`` agent on those games. The game is Profiteer's ``short``
preset with a target of 16 cards, where random play wins now and then.
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict
from typing import Callable, Sequence

import gymnasium
import numpy as np

import plunder.interop.gymnasium  # noqa: F401  (registers plunder/Profiteer-v0)
from plunder.agents import make_agent

PARAMS = {"preset": "short", "target": "16"}
#: the evaluation games' seeds start here; training episodes use 0, 1, 2 ...
EVAL_SEEDS = 1_000_000
EXPLORE = 0.05
STEP = 0.05

Choose = Callable[[np.ndarray, np.ndarray], int]


def situation(obs: np.ndarray) -> tuple[int, ...]:
    """What the agent tells apart, read from Profiteer's observation vector: ten 52-card
    piles (pool, known A, known B, discards A, B, resources, profiteer's discard, drawing,
    stakes A, B), the face-up cards of A and B (52 each), the phase one-hot, then counts
    (cards of the pool in A's deck, in B's ...)."""
    piles = obs[:520].reshape(10, 52)
    up_a, up_b = obs[520:572], obs[572:624]
    rank_a = int(np.argmax(up_a)) >> 2 if up_a.any() else -1  # card c has rank c // 4
    rank_b = int(np.argmax(up_b)) >> 2 if up_b.any() else -1
    phase = int(np.argmax(obs[624:633]))
    won = piles[3].sum() + piles[8].sum() - piles[4].sum() - piles[9].sum()
    left = int(min(obs[633] + piles[1].sum(), 6)) // 2
    return phase, rank_a, rank_b, int(np.clip(won, -4, 4)), left


def play(env: gymnasium.Env, seed: int, choose: Choose) -> float:
    """One game from ``seed``, ``choose(obs, mask)`` picking each action; its return."""
    obs, info = env.reset(seed=seed)
    done, reward = False, 0.0
    while not done:
        obs, reward, done, _, info = env.step(choose(obs, info["action_mask"]))
    return float(reward)


def win_rate(env: gymnasium.Env, games: int, choose: Choose) -> float:
    """The share of the evaluation games won."""
    return sum(play(env, EVAL_SEEDS + k, choose) > 0 for k in range(games)) / games


def train(episodes: int, every: int, games: int, seed: int) -> dict:
    """Learn from scratch; the greedy agent's evaluation curve and the two references."""
    env = gymnasium.make("plunder/Profiteer-v0", **PARAMS).unwrapped
    values: defaultdict[tuple[int, ...], np.ndarray] = defaultdict(lambda: np.zeros(env.action_space.n))
    rng = np.random.default_rng(seed)
    profit, profit_rng = make_agent("profit", env.game), random.Random(seed)

    def greedy(obs: np.ndarray, mask: np.ndarray) -> int:
        return int(np.argmax(np.where(mask > 0, values[situation(obs)], -np.inf)))

    def profit_agent(obs: np.ndarray, mask: np.ndarray) -> int:
        state = env.episode.state
        return env.encoding.actions.index(state, profit.choose(state, profit_rng))

    result: dict = {"random": win_rate(env, games, lambda obs, mask: int(rng.choice(np.flatnonzero(mask)))),
                    "profit": win_rate(env, games, profit_agent), "episodes": [], "agent": []}
    for episode in range(episodes + 1):
        if episode % every == 0:
            result["episodes"].append(episode)
            result["agent"].append(win_rate(env, games, greedy))
            print(f"episode {episode}: the greedy agent wins {result['agent'][-1]:.1%} of {games} games", flush=True)
        if episode == episodes:
            break
        used: list[tuple[tuple[int, ...], int]] = []

        def explore(obs: np.ndarray, mask: np.ndarray) -> int:
            action = int(rng.choice(np.flatnonzero(mask))) if rng.random() < EXPLORE else greedy(obs, mask)
            used.append((situation(obs), action))
            return action

        outcome = play(env, episode, explore)
        for key, action in used:
            values[key][action] += STEP * (outcome - values[key][action])
    result["situations"] = len(values)
    return result


def plot(result: dict, path: str, games: int) -> None:
    """The learning curve with the two references, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    ax.plot(result["episodes"], [100 * w for w in result["agent"]], marker="o", label="tabular agent (greedy)")
    ax.axhline(100 * result["random"], color="grey", linestyle="--", label="random legal play")
    ax.axhline(100 * result["profit"], color="tab:green", linestyle=":", label="profit agent (hand-tuned)")
    ax.set_xlabel("training episodes")
    ax.set_ylabel(f"wins in {games} evaluation games (%)")
    ax.set_ylim(0, 100)
    ax.set_title("Profiteer (short, target 16) through plunder/Profiteer-v0")
    ax.legend(loc="center right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> dict:
    """Learn, print the curve, and plot it when asked."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=30000)
    parser.add_argument("--every", type=int, default=2500, help="episodes between evaluations")
    parser.add_argument("--eval", type=int, default=500, help="evaluation games")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", help="write the learning curve to this PNG")
    args = parser.parse_args(argv)
    result = train(args.episodes, args.every, args.eval, args.seed)
    print(f"on the same games: random legal play {result['random']:.1%}, the profit agent {result['profit']:.1%}; "
          f"{result['situations']} situations seen")
    if args.plot:
        plot(result, args.plot, args.eval)
    return result


if __name__ == "__main__":
    main()
