"""Time the exact Pillage solver from the starting position of a few boards.

Usage: .venv/bin/python bench/pillage_solver.py [--limit SECONDS] [--quick]

Unit boards are plain Dots and Boxes; "random" rows deal the contents with a fixed seed
(doubloons, commodities and modifiers by the game's own distribution) and solve the
dealt start. Each row is a fresh solver (no tables carried over).
"""

from __future__ import annotations

import argparse
import random
import time

import plunder
from plunder.games.pillage.contents import content_short
from plunder.games.pillage.rules import PillageState
from plunder.core.errors import SearchLimitError
from plunder.games.pillage.solver import solve

UNIT = ["square:2x2", "square:2x3", "square:2x4", "square:3x3"]
NO_MODIFIERS = "doubloons:50,commodity:50,modifier:0"
#: (board, seed, mix): the game's default mix unless given
VALUED = [("square:2x2", 1, None), ("square:2x3", 2, None), ("square:2x3", 3, None), ("triangle:2x2", 4, None),
          ("square:3x3", 6, NO_MODIFIERS), ("square:3x3", 5, None)]


def dealt(board: str, seed: int, mix: str | None = None) -> PillageState:
    """The start of ``board`` with random contents dealt by ``random.Random(seed)``."""
    params = {"board": board, "contents": "random"} | ({"mix": mix} if mix else {})
    game = plunder.load_game("pillage", **params)
    state = game.new_initial_state()
    assert isinstance(state, PillageState)
    rng = random.Random(seed)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state = state.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=120.0, help="seconds per row before giving up")
    parser.add_argument("--quick", action="store_true", help="skip the 3x3 rows")
    args = parser.parse_args()
    rows: list[tuple[str, str, PillageState]] = []
    for board in UNIT:
        first = plunder.load_game("pillage", board=board, contents="unit").new_initial_state()
        assert isinstance(first, PillageState)
        rows.append((board, "unit", first))
    for board, seed, mix in VALUED:
        state = dealt(board, seed, mix)
        legend = state.game.legend
        contents = " ".join(content_short(c, legend) for c in state.contents if c is not None)
        rows.append((board, f"random seed {seed}: {contents}", state))
    print(f"{'board':<14} {'value':>6} {'nodes':>10} {'seconds':>8}  contents")
    for board, label, state in rows:
        if args.quick and board == "square:3x3":
            continue
        start = time.perf_counter()
        try:
            result = solve(state, time_limit=args.limit)
            # wall time including building the symmetry tables, not just the search
            value, nodes, seconds = f"{result.value:+g}", f"{result.nodes}", f"{time.perf_counter() - start:.2f}"
        except SearchLimitError:
            value, nodes, seconds = "-", "-", f">{time.perf_counter() - start:.0f}"
        print(f"{board:<14} {value:>6} {nodes:>10} {seconds:>8}  {label}", flush=True)


if __name__ == "__main__":
    main()
