"""Profiteer speed: games per second for each agent, public API (plunder.play) vs the fast path.

Run: .venv/bin/python bench/profiteer_speed.py [games]
Prints games/s for ``random`` and ``greedy`` (and ``profit``) both ways and the ratio; it
also checks that the fast path gave every game the same result as the public API.
"""

from __future__ import annotations

import sys
import time

import plunder
from plunder.agents import make_agent
from plunder.core.registry import entry
from plunder.match import agent_rng


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    game = plunder.load_game("profiteer")
    fast_play = entry("profiteer").fast_play
    assert fast_play is not None
    print(f"profiteer, {games} games per agent and path (seeds 0..{games - 1})")
    print(f"{'agent':8} {'public games/s':>15} {'fast games/s':>13} {'ratio':>7}  same results")
    for agent in ("random", "greedy", "profit"):
        start = time.perf_counter()
        public = [plunder.play(game, [agent], seed=seed) for seed in range(games)]
        t_public = time.perf_counter() - start
        start = time.perf_counter()
        built = make_agent(agent, game)
        fast = [fast_play(game, [built], [agent_rng(seed, 0)], seed) for seed in range(games)]
        t_fast = time.perf_counter() - start
        same = all(f is not None and f.returns == r.returns and f.scores == r.scores for f, r in zip(fast, public))
        print(f"{agent:8} {games / t_public:15.0f} {games / t_fast:13.0f} {t_public / t_fast:6.1f}x  {same}")


if __name__ == "__main__":
    main()
