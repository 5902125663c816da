"""The Hubs solver against plain minimax on a whole round of the ``tiny`` sheet (too slow for a test).

Run: .venv/bin/python bench/hubs_solver_check.py [--seed 6]

A random first round is played on ``tiny`` (3 x 3, 6 dots); from the start of round 2 (the last:
every placement and every segment phase of it) the position is valued by plain minimax over
``legal_actions``/``apply`` alone, remembering a position by its round, its set of dots, its
segments as pairs of points and the totals, and by :func:`plunder.games.hubs.solver.solve_state`.
Printed: both values (Player 1's final margin), the fresh round's value R they imply, the
positions each kept and their CPU seconds.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from plunder.games.hubs.rules import HubsGame, HubsState
from plunder.games.hubs.solver import solve_state


def minimax(state: HubsState, table: dict[Any, int]) -> int:
    """Player 1's final margin under best play, by the rules' public API alone."""
    if state.is_terminal():
        return state.totals[0] - state.totals[1]
    key = (state.round, frozenset(state.dots),
           frozenset((state.dots[s.first], state.dots[s.second]) for s in state.segments), state.totals)
    if key not in table:
        values = [minimax(state.apply(a), table) for a in state.legal_actions()]
        table[key] = max(values) if state.current_player == 0 else min(values)
    return table[key]


def main() -> None:
    """Play round 1 at random, then value round 2's start both ways."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=6)
    args = parser.parse_args()
    sys.setrecursionlimit(10_000)
    game = HubsGame.load(preset="tiny")
    rng = random.Random(args.seed)
    state: HubsState = game.new_initial_state()
    while state.round == 0:
        state = state.apply(rng.choice(state.legal_actions()))
    lead = state.totals[0] - state.totals[1]
    start = time.process_time()
    found = solve_state(state)
    solver_cpu = time.process_time() - start
    solved = found.value if state.current_player == 0 else -found.value
    start = time.process_time()
    table: dict[Any, int] = {}
    plain = minimax(state, table)
    plain_cpu = time.process_time() - start
    print(f"round 2 of tiny after a random round 1 (seed {args.seed}), totals {state.totals}")
    print(f"solver: Player 1's margin {solved:+g}, R = {lead - solved:g}; {found.nodes} positions, {solver_cpu:.2f} CPU s")
    print(f"plain minimax: Player 1's margin {plain:+d}, R = {lead - plain}; {len(table)} positions, {plain_cpu:.1f} CPU s")
    print("agree" if plain == solved else "DISAGREE")


if __name__ == "__main__":
    main()
