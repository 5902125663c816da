"""The exact distribution of the profiteer's final count, per agent (fast path, seeds 0..N-1).

Run: .venv/bin/python bench/profiteer_counts.py [games] [agent ...]
Prints, for each agent, how often the final count reaches 20, 22, 24, 26 (a win), 30, 35
and 40 cards, and the count-by-count frequencies -- the figures the designer quotes
("24 with surprising frequency", "26 difficult but not impossible", "40 the best seen").
"""

from __future__ import annotations

import sys
from collections import Counter

import plunder
from plunder.agents import make_agent
from plunder.core.registry import entry
from plunder.match import agent_rng


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    agents = sys.argv[2:] or ["random", "greedy", "profit"]
    game = plunder.load_game("profiteer")
    fast_play = entry("profiteer").fast_play
    assert fast_play is not None
    for agent in agents:
        counts: Counter[int] = Counter()
        built = make_agent(agent, game)
        for seed in range(games):
            result = fast_play(game, [built], [agent_rng(seed, 0)], seed)
            assert result is not None
            counts[int(result.scores[0])] += 1
        at_least = "  ".join(
            f">={k}: {sum(n for c, n in counts.items() if c >= k) / games:6.1%}" for k in (20, 22, 24, 26, 30, 35, 40)
        )
        print(f"{agent} ({games} games): {at_least}  max {max(counts)}")
        print("  " + " ".join(f"{c}:{n}" for c, n in sorted(counts.items())))


if __name__ == "__main__":
    main()
