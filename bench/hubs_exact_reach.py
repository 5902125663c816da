"""How early the analysis can value a Hubs game exactly: CPU seconds of its exact valuations.

Run: .venv/bin/python bench/hubs_exact_reach.py [--preset small] [--drawable 16,20,24,28]
                                                [--seeds 101,102,103,104] [--players easy,medium]

Per seed, a game of ``--preset`` is played by ``--players``; then, for each bound N of
``--drawable``, every decision of the last round's segment phase from the first with at most N
drawable segments on is valued as the analysis values it exactly (the position solved, and the
position after the move played), in order, by :func:`plunder.games.hubs.solver.solve_state` with
its tables emptied first and kept from there, without a time limit. With ``--preset tiny`` the
whole game is valued so, from its first dot (N is then ignored). Printed per game and N: the CPU
seconds of all of them, the first decision's, and the positions the first one searched.
"""

from __future__ import annotations

import argparse
import time

from plunder import play
from plunder.core.errors import SearchLimitError
from plunder.games.hubs import solver
from plunder.games.hubs.rules import HubsGame, HubsState


def main() -> None:
    """Play each game and time its exact valuations from each bound on."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="small")
    parser.add_argument("--drawable", default="16,20,24,28")
    parser.add_argument("--seeds", default="101,102,103,104")
    parser.add_argument("--players", default="easy,medium")
    args = parser.parse_args()
    game = HubsGame.load(preset=args.preset)
    whole = args.preset == "tiny"
    bounds = [0] if whole else [int(n) for n in args.drawable.split(",")]
    for seed in (int(s) for s in args.seeds.split(",")):
        record = play(game, args.players.split(","), seed=seed)
        for bound in bounds:
            solver._kept.clear()
            state = game.new_initial_state()
            spent: list[float] = []
            first_nodes = 0
            start_drawable = 0
            for move in record.moves:
                assert isinstance(state, HubsState)
                late = state.round == game.rounds - 1 and not state.placing
                if move.by is not None and (whole or (late and state.drawable.bit_count() <= bound)):
                    if not spent:
                        start_drawable = state.drawable.bit_count()
                    start = time.process_time()
                    try:
                        found = solver.solve_state(state)
                        after = state.apply_text(move.action)
                        if not after.is_terminal():
                            solver.solve_state(after)
                    except SearchLimitError as stop:
                        print(f"seed {seed} from at most {bound} drawable (first {start_drawable}): stopped "
                              f"after {time.process_time() - start:.2f} CPU s: {stop}", flush=True)
                        break
                    spent.append(time.process_time() - start)
                    first_nodes = first_nodes or found.nodes
                state = state.apply_text(move.action)
            else:
                report(seed, whole, bound, start_drawable, spent, first_nodes)


def report(seed: int, whole: bool, bound: int, start_drawable: int, spent: list[float], first_nodes: int) -> None:
    """One game's line: its exact valuations' CPU seconds from the bound on."""
    where = "the whole game" if whole else f"at most {bound} drawable (first {start_drawable})"
    print(f"seed {seed} from {where}: {len(spent)} decisions, {sum(spent):.2f} CPU s; "
          f"the first {spent[0] if spent else 0:.2f} s, {first_nodes} positions", flush=True)


if __name__ == "__main__":
    main()
