"""Search the greedy profiteer's weights on the fast path, then check the best on fresh seeds.

Run: .venv/bin/python bench/profiteer_tune.py [games]
Every grid point plays seeds 0..games-1; the five best by win rate are played again on
seeds 20000..20000+4*games-1, next to the default ``greedy`` weights, and printed.
"""

from __future__ import annotations

import itertools
import statistics
import sys
from typing import Iterable

import plunder
import plunder.games.profiteer.fast as fast
from plunder.match import agent_rng
from plunder.games.profiteer.agents import GreedyAgent, Weights


def measure(game: plunder.Game, weights: Weights, seeds: Iterable[int]) -> tuple[float, float]:
    """Win rate and mean final count of a greedy profiteer with ``weights``."""
    agent = GreedyAgent(weights)
    scores = []
    for seed in seeds:
        result = fast.fast_play(game, [agent], [agent_rng(seed, 0)], seed)
        assert result is not None
        scores.append(result.scores[0])
    return sum(s >= 26 for s in scores) / len(scores), statistics.mean(scores)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    game = plunder.load_game("profiteer")
    rows = []
    grid = itertools.product((1.5, 2.0, 2.5, 3.0), (0.2, 0.3, 0.5), (0.3, 1.0, 1.5), (0.0, 2.0, 4.0))
    for war, level, spend, late in grid:
        w = Weights(war, level, spend, late)
        win, mean = measure(game, w, range(games))
        rows.append((win, mean, w))
        print(f"{w}: win {win:.3f} mean {mean:.2f}", flush=True)
    rows.sort(key=lambda r: (r[0], r[1]), reverse=True)
    fresh = range(20000, 20000 + 4 * games)
    print(f"best five and the greedy default again on {len(fresh)} fresh seeds:")
    for w in [r[2] for r in rows[:5]] + [Weights()]:
        win, mean = measure(game, w, fresh)
        print(f"{w}: win {win:.4f} mean {mean:.2f}", flush=True)


if __name__ == "__main__":
    main()
