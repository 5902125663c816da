"""How early the analysis can value a default Pillage game exactly: CPU seconds per decision.

Run: .venv/bin/python bench/pillage_exact_reach.py [--lines 26] [--seeds 101,102,103,104] [--players easy,medium]

Per seed, a default game (4x4, random valued contents) is played by ``--players``; then every
decision with at most ``--lines`` lines left is valued as the analysis values it exactly (the
position solved, and the position after the move played), in order, by one solver of 128 MB kept
for the game as :func:`plunder.games.pillage.hard.solve_state` keeps it, without a time limit.
Printed per game: the CPU seconds of all of them, and per decision (lines left, CPU seconds).
"""

from __future__ import annotations

import argparse
import time

from plunder import play
from plunder.games.pillage.hard import ANALYSIS_MEMORY
from plunder.games.pillage.rules import PillageGame
from plunder.games.pillage.solver import Solver


def main() -> None:
    """Play each game and time its exact valuations from ``--lines`` lines left."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=26)
    parser.add_argument("--seeds", default="101,102,103,104")
    parser.add_argument("--players", default="easy,medium")
    args = parser.parse_args()
    game = PillageGame.load()
    for seed in (int(s) for s in args.seeds.split(",")):
        record = play(game, args.players.split(","), seed=seed)
        state = game.new_initial_state()
        solver: Solver | None = None
        spent: list[tuple[int, float]] = []
        for move in record.moves:
            if move.by is not None and len(state.open_lines) <= args.lines:
                if solver is None:
                    solver = Solver(game, state.contents, ANALYSIS_MEMORY)
                start = time.process_time()
                solver.solve(state)
                after = state.apply_text(move.action)
                if not after.is_terminal():
                    solver.solve(after)
                spent.append((len(state.open_lines), round(time.process_time() - start, 2)))
            state = state.apply_text(move.action)
        print(f"seed {seed} from {args.lines} lines: {sum(s for _, s in spent):.1f} CPU s; "
              f"the first three {spent[:3]}", flush=True)


if __name__ == "__main__":
    main()
