"""Play a solitaire agent over seeds SEED..SEED+N-1, one line per game as it ends, then a summary.

Run: .venv/bin/python bench/solitaire_games.py GAME AGENT [GAMES] [SEED]
e.g. .venv/bin/python bench/solitaire_games.py pirates mcts:root=greedy,sims=32 40 1000000

The games are those of ``plunder simulate GAME --agents AGENT --games N --seed SEED`` (game i
uses seed SEED + i; SEED is 0 unless given), but each is printed when it ends, for agents slow enough that a run should show progress.
"""

from __future__ import annotations

import statistics
import sys
import time

import plunder
from plunder.match import play_stats
from plunder.simulate import wilson


def main() -> None:
    game_id, spec = sys.argv[1], sys.argv[2]
    games = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    first = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    game = plunder.load_game(game_id)
    start = time.perf_counter()
    scores: list[float] = []
    wins = 0
    for seed in range(first, first + games):
        record, _, stats = play_stats(game, [spec], seed=seed)
        wins += record.returns[0] > 0
        scores.append(record.scores[0])
        print(f"seed {seed}: result {record.returns[0]:+.0f} score {record.scores[0]:g} "
              f"stats {stats} ({time.perf_counter() - start:.0f} s)", flush=True)
    lo, hi = wilson(wins, games)
    q = statistics.quantiles(scores, n=4)
    print(f"{spec}: {wins}/{games} won, {wins / games:.1%} ({lo:.1%}-{hi:.1%}); score mean "
          f"{statistics.mean(scores):.1f}, quartiles {q[0]:g} {q[1]:g} {q[2]:g}, max {max(scores):g}")


if __name__ == "__main__":
    main()
