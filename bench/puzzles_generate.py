"""Puzzle generation's speed, by board: puzzles found per CPU minute on each board a game makes
puzzles from (docs/puzzles.md, "How puzzles are made and proven").

    .venv/bin/python bench/puzzles_generate.py --games 6 --seed 2026

Plays ``--games`` games on each board of the game's puzzle group (seated by its agent mixes in
turn, from seeds drawn as ``plunder puzzles generate`` draws them), finds the puzzles in each
(every one proven by the exact search as it is found) and proves them again as the command
does (``verify``). Prints per board the games, the puzzles, the CPU seconds of playing and
finding, of proving again, and the puzzles per CPU minute of both together. A count of games, not a time, so a run does the same work on every machine.
"""

from __future__ import annotations

import argparse
import sys
import time

from plunder.core.registry import load_game
from plunder.match import play
from plunder.puzzles import game_seed, puzzles_of


def main() -> int:
    """Measure each board; 1 if a puzzle found does not hold."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="pillage", help="a game that makes puzzles")
    parser.add_argument("--games", type=int, default=6, help="games played on each board")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the games (as the command's --seed)")
    args = parser.parse_args()
    group = puzzles_of(args.game)
    print(f"{'board':<48} {'games':>5} {'puzzles':>7} {'find s':>7} {'verify s':>8} {'per CPU min':>11}")
    total_found, total_cpu, failed = 0, 0.0, 0
    for b, params in enumerate(group.boards):
        game = load_game(args.game, **params)
        finding = proving = 0.0
        found = 0
        for i in range(args.games):
            mix = group.mixes[i % len(group.mixes)]
            start = time.process_time()
            record = play(game, list(mix), game_seed(args.seed, b * args.games + i))
            puzzles = group.find(game, record)
            finding += time.process_time() - start
            for puzzle in puzzles:
                found += 1
                start = time.process_time()
                problems = group.verify(puzzle)
                proving += time.process_time() - start
                if problems:
                    failed += 1
                    print(f"  {puzzle.id} does not hold: {'; '.join(problems)}")
        cpu = finding + proving
        total_found, total_cpu = total_found + found, total_cpu + cpu
        name = ", ".join(f"{k}={v}" for k, v in params.items())
        print(f"{name:<48} {args.games:>5} {found:>7} {finding:>7.1f} {proving:>8.1f} {60 * found / cpu:>11.1f}")
    print(f"all boards: {args.games * len(group.boards)} games, {total_found} puzzles in {total_cpu:.1f} CPU s, "
          f"{60 * total_found / total_cpu:.1f} per CPU minute")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
