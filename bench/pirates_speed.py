"""Pirates speed: moves applied per second of CPU under random play, the reference, and the
greedy captain's CPU per move as a ratio to it, over whole games (every position a real game
reaches), repeated so the spread shows.

Run: .venv/bin/python bench/pirates_speed.py [GAMES] [RUNS]   (defaults 200 games, 5 runs)
"""

from __future__ import annotations

import statistics
import sys
import time

import plunder
from plunder.match import play


def timed(agent: str, games: int) -> tuple[float, int]:
    """CPU seconds and moves for ``games`` games of ``agent`` on seeds 0..games-1."""
    game = plunder.load_game("pirates")
    moves = 0
    start = time.process_time()
    for seed in range(games):
        moves += len(play(game, [agent], seed=seed).moves)
    return time.process_time() - start, moves


def spread(values: list[float], fmt: str) -> str:
    """Median and range of ``values``."""
    return f"{statistics.median(values):{fmt}} (range {min(values):{fmt}}–{max(values):{fmt}})"


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    rates: list[float] = []
    per_game: list[float] = []
    ratios: list[float] = []
    for _ in range(runs):
        r_time, r_moves = timed("random", games)
        g_time, g_moves = timed("greedy", games)
        rates.append(r_moves / r_time)
        per_game.append(1000 * g_time / games)
        ratios.append((g_time / g_moves) / (r_time / r_moves))
    print(f"{runs} runs of {games} games each way (seeds 0..{games - 1}; {r_moves} random and {g_moves} greedy moves a run)")
    print(f"random play: {spread(rates, ',.0f')} moves/s")
    print(f"greedy: {spread(per_game, '.1f')} ms of CPU a game")
    print(f"greedy CPU per move / random CPU per move: {spread(ratios, '.2f')}x")


if __name__ == "__main__":
    main()
