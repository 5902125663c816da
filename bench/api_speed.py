"""Public API stepping: Pillage random playouts next to OpenSpiel's dots_and_boxes (``child``).

Run: .venv/bin/python bench/api_speed.py [--runs 7] [--games 20] [--playouts 20] [--repeat 3]
     [--stages opening,middle,any]

What an RL user feels: each move is ``state.legal_actions()``, a random pick and
``state.apply(action)`` (a new immutable state), against pyspiel's ``legal_actions()``,
the same pick and ``state.child(action)`` (a copy, as immutable as ours). Both sides play
from the same start positions and draw their lines with the same random numbers. Each board is
measured per stage: ``opening`` plays every playout from the empty board (``--games`` times
``--playouts`` playouts), ``middle`` from positions of real games (``greedy`` against
``random`` on unit boxes) with between a third and two thirds of the lines drawn, ``any`` from
positions of real games at any ply, every ply equally likely.
Each run times both sides position by position, alternating which goes first, each timing
the least of ``--repeat`` tries (as timeit does: the least is the one a busy machine
disturbed least), in CPU time of this process (``time.process_time``: other work on a shared
machine does not count, though it still slows the caches); the ratio is our time per move over theirs, printed as the median of the
runs with the spread. The target (issue 38) is a
ratio of 1.6 or less on unit 3x3 and 5x5, from the opening and mid-game.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any, Callable

import plunder
from plunder.games.pillage.rules import PillageGame, PillageState

from ai_latency import load
from pillage_positions import openspiel_state, phases, start_positions

TARGET = 1.6
STAGES = ("opening", "middle", "any")


def playouts(starts: list, step: Callable[[Any, Any], Any], playouts: int, seed: int) -> tuple[float, int]:
    """(seconds, moves) of ``playouts`` random playouts from each start, moving with ``step(state, action)``."""
    rng = random.Random(seed)
    moves = 0
    begin = time.process_time()
    for start in starts:
        for _ in range(playouts):
            s = start
            while not s.is_terminal():
                s = step(s, rng.choice(s.legal_actions()))
                moves += 1
    return time.process_time() - begin, moves


def ours(starts: list[PillageState], count: int, seed: int) -> tuple[float, int]:
    """Random playouts through the public API (``apply``)."""
    return playouts(starts, lambda s, a: s.apply(a), count, seed)


def theirs(starts: list, count: int, seed: int) -> tuple[float, int]:
    """The same with pyspiel states and ``child``."""
    return playouts(starts, lambda s, a: s.child(a), count, seed)


def stage_starts(game: PillageGame, stage: str, games: int, seed: int) -> list[tuple[PillageState, list[int]]]:
    """``games`` start positions of ``stage`` with the lines that reach them (see the module's text)."""
    if stage == "opening":
        return [(game.new_initial_state(), [])] * games
    if stage == "middle":
        return phases(game, games, seed)["middle"]
    return start_positions(game, games, seed)


def measure(mine: list[PillageState], other: list, args: argparse.Namespace) -> tuple[list[float], list[float], list[float]]:
    """Per run: our µs per move, pyspiel's, and their ratio, both sides timed position by
    position in alternating order."""
    ratios, us_mine, us_theirs = [], [], []
    for run in range(args.runs):
        a_sec = b_sec = 0.0
        a_moves = b_moves = 0
        for i, (start, other_start) in enumerate(zip(mine, other)):
            seed = run * 1000 + i
            for side_first in ((0, 1) if (run + i) % 2 else (1, 0)):
                if side_first == 0:
                    sec, moves = min(ours([start], args.playouts, seed) for _ in range(args.repeat))
                    a_sec, a_moves = a_sec + sec, a_moves + moves
                else:
                    sec, moves = min(theirs([other_start], args.playouts, seed) for _ in range(args.repeat))
                    b_sec, b_moves = b_sec + sec, b_moves + moves
        us_mine.append(a_sec / a_moves * 1e6)
        us_theirs.append(b_sec / b_moves * 1e6)
        ratios.append(us_mine[-1] / us_theirs[-1])
    return us_mine, us_theirs, ratios


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--games", type=int, default=20, help="start positions (one per real game)")
    parser.add_argument("--playouts", type=int, default=20, help="random playouts from each start position")
    parser.add_argument("--repeat", type=int, default=3, help="tries per timing, the least kept")
    parser.add_argument("--stages", default="opening,middle", help=f"comma-separated, of {', '.join(STAGES)}")
    args = parser.parse_args()
    stages = [s for s in args.stages.split(",") if s]
    for stage in stages:
        if stage not in STAGES:
            parser.error(f"unknown stage {stage!r}; stages are {', '.join(STAGES)}")
    import pyspiel

    print(f"load average before: {load()}; CPU time")
    print(f"{'board':6} {'stage':8} {'starts':>6} {'plunder us/move':>16} {'pyspiel us/move':>16} {'ratio':>6}"
          "  (runs: median, min-max)")
    for side in (3, 5):
        game = plunder.load_game("pillage", board=f"square:{side}x{side}", contents="unit")
        assert isinstance(game, PillageGame)
        spiel = pyspiel.load_game("dots_and_boxes", {"num_rows": side, "num_cols": side})
        for stage in stages:
            pairs = stage_starts(game, stage, args.games, seed=1000 * side)
            mine = [s for s, _ in pairs]
            other = [openspiel_state(spiel, game, lines) for _, lines in pairs]
            us_mine, us_theirs, ratios = measure(mine, other, args)
            print(f"{side}x{side:<4} {stage:8} {len(pairs):6} {statistics.median(us_mine):16.2f} "
                  f"{statistics.median(us_theirs):16.2f} {statistics.median(ratios):6.2f}  ratios "
                  f"{min(ratios):.2f}-{max(ratios):.2f} over {args.runs} runs; target <= {TARGET:g}", flush=True)
    print(f"load average after: {load()}")

if __name__ == "__main__":
    main()
