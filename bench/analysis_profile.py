"""Where an analysis spends its CPU: cProfile over a share of ``analysis_time.py``'s positions.

Run: .venv/bin/python bench/analysis_profile.py [--games crossroads] [--every 4] [--top 25]

The game of ``analysis_time.py`` (the same record: ``medium`` in every seat, the same seed) is
laid out as the engine lays it out (``plunder.analysis.engine.plan``, the game's default
budget) and every ``--every``-th position is valued in this process under cProfile, as a
worker values it. Printed: positions valued, the CPU seconds they took with the profiler on,
and the functions that take the most time of their own and, then, with what they call.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from plunder import load_game, play
from plunder.analysis.engine import plan
from plunder.analysis.value import value_task

from analysis_time import GAMES


def main() -> None:
    """Profile one game's share of positions and print the functions that cost most."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="crossroads", help="which of analysis_time.py's games to profile")
    parser.add_argument("--every", type=int, default=4, help="value every n-th position (1: all)")
    parser.add_argument("--top", type=int, default=25, help="functions listed")
    args = parser.parse_args()
    for label, game_id, params, seed in GAMES:
        if game_id not in args.games.split(","):
            continue
        game = load_game(game_id, **params)
        tasks = plan(play(game, ["medium"] * game.num_players, seed=seed)).tasks[:: args.every]
        profile = cProfile.Profile()
        used = time.process_time()
        profile.enable()
        for task in tasks:
            value_task(task)
        profile.disable()
        print(f"{label}: {len(tasks)} positions, CPU {time.process_time() - used:.1f} s with the profiler on")
        stats = pstats.Stats(profile)
        stats.sort_stats("tottime").print_stats(args.top)
        stats.sort_stats("cumulative").print_stats(args.top)


if __name__ == "__main__":
    main()
