"""Pirates speed: states applied per second by random play, and the greedy captain's
cost per game relative to a random game. Run: .venv/bin/python bench/pirates_speed.py [GAMES]"""

from __future__ import annotations

import sys
import time

import plunder
from plunder.match import play


def timed(agent: str, games: int) -> tuple[float, int]:
    game = plunder.load_game("pirates")
    moves = 0
    start = time.process_time()
    for seed in range(games):
        moves += len(play(game, [agent], seed=seed).moves)
    return time.process_time() - start, moves


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    r_time, r_moves = timed("random", games)
    g_time, g_moves = timed("greedy", games)
    print(f"random: {games} games, {r_moves} moves, {r_time:.2f}s CPU, {r_moves / r_time:,.0f} moves/s")
    print(f"greedy: {games} games, {g_moves} moves, {g_time:.2f}s CPU, {g_moves / g_time:,.0f} moves/s, "
          f"{1000 * g_time / games:.1f} ms/game")
    print(f"ratio greedy/random CPU per move: {(g_time / g_moves) / (r_time / r_moves):.1f}x")


if __name__ == "__main__":
    main()
