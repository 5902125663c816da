"""How far from the end Pillage's exact solver proves a position within a budget of positions.

Run: .venv/bin/python bench/solver_reach.py [--preset small] [--board square:4x4] [--nodes 31250,2000000]
     [--lines 16,18,19,20,22] [--positions 12] [--seed 0]

Positions come from games of ``medium`` against itself (the game's default contents, dealt by
the game's seed ``--seed + i``), taken at the first position with at most L lines left, for
each L of ``--lines``. Each is given to a fresh solver (no tables carried over) with a limit of
N positions, for each N of ``--nodes``. It prints, per budget and lines left, how many were
proved and the CPU (process) seconds an attempt took: mean and max, the failed attempts
included. ``hard`` tries the solver from 22 lines left within 2,000,000 positions; a busy web
server gives it a share of that (docs/web.md), and an attempt that fails costs its whole share
for nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from plunder.agents import make_agent
from plunder.core.errors import SearchLimitError
from plunder.core.registry import load_game
from plunder.games.pillage.rules import PillageState
from plunder.games.pillage.solver import Solver
from plunder.match import decision_rng


def position(preset: str | None, board: str | None, lines: int, seed: int) -> PillageState | None:
    """The first position with at most ``lines`` lines left in a game of ``medium`` against itself."""
    params = {"board": board} if board else {}
    game = load_game("pillage", preset, **params)
    agent = make_agent("medium", game)
    state = game.new_initial_state()
    chance = random.Random(seed)
    ply = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state = state.apply(chance.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        assert isinstance(state, PillageState)
        if len(state.open_lines) <= lines:
            return state
        state = state.apply(agent.choose(state, decision_rng(seed, state.current_player, ply)))  # type: ignore[arg-type]
        ply += 1
    return None


def main() -> None:
    """Parse the options, attempt every position with every budget, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default=None, help="a Pillage preset (default: the game's default variant)")
    parser.add_argument("--board", default=None, help="a board spec instead of the preset's")
    parser.add_argument("--nodes", default="31250,2000000", help="solver budgets to try, comma-separated")
    parser.add_argument("--lines", default="16,18,19,20,22", help="lines left, comma-separated")
    parser.add_argument("--positions", type=int, default=12, help="positions per number of lines left")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    args = parser.parse_args()
    print(f"pillage preset {args.preset or 'default'} board {args.board or 'of the preset'}; "
          f"load average {os.getloadavg()[0]:.2f} at the start")
    print(f"{'nodes':>9} {'lines':>5} {'proved':>8} {'mean CPU s':>10} {'max CPU s':>9}")
    for nodes in (int(n) for n in args.nodes.split(",")):
        for lines in (int(n) for n in args.lines.split(",")):
            proved, seconds = 0, []
            for i in range(args.positions):
                state = position(args.preset, args.board, lines, args.seed + i)
                if state is None:
                    continue
                began = time.process_time()
                try:
                    result = Solver(state.game, state.contents).solve(state, node_limit=nodes)
                    proved += result.best_action is not None
                except SearchLimitError:
                    pass
                seconds.append(time.process_time() - began)
            print(f"{nodes:>9,} {lines:>5} {proved:>3} of {len(seconds):<2} {statistics.mean(seconds):>10.3f} "
                  f"{max(seconds):>9.3f}", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
