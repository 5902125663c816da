"""How many lines from the end the exact solver proves a default Pillage game within hard's budget.

Usage: .venv/bin/python bench/pillage_endgame_reach.py [--games N] [--boards square:4x4,square:5x5]
       [--lines 24,22,20,18] [--nodes 2000000[,31250...]] [--seed S]

Plays ``--games`` games of ``hard`` against ``medium`` (seats alternating, game ``i`` on seed
``S + i``) on each board with the default contents (random, valued), takes from each game the
first position with each number of ``--lines`` left where a line is to be drawn, and solves it
with a fresh solver within ``--nodes`` positions (``hard``'s budget; several budgets, comma-separated,
each tried on the same positions: a busy web server gives ``hard`` a share of its budget and
starts its solver later, docs/web.md). Prints, per board, budget and lines left, the proofs
found, the CPU seconds per proof and per failure, and the load average.
Valued boards take the generic search (the unit fast path and its compiled form do not apply).
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

import plunder
from plunder.core.errors import SearchLimitError
from plunder.games.pillage.rules import PillageState
from plunder.games.pillage.solver import Solver
from plunder.match import play_out


class Positions:
    """An observer keeping the first position with each of ``lines`` undrawn lines where the
    player to move draws a line (no chance, no pending modifier choice)."""

    def __init__(self, lines: list[int]) -> None:
        self.wanted = set(lines)
        self.found: dict[int, PillageState] = {}

    def see(self, before: Any, action: Any, after: Any) -> None:
        """Keep ``after`` if it is the first wanted position of its count."""
        assert isinstance(after, PillageState)
        left = len(after.open_lines)
        if (left in self.wanted and left not in self.found and not after.is_terminal()
                and not after.is_chance_node() and not after.pending):
            self.found[left] = after

    def stats(self, final: Any) -> dict[str, float | list[float]]:
        """None kept: the positions are the product."""
        return {}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games per board")
    parser.add_argument("--boards", default="square:4x4,square:5x5", help="boards, comma-separated")
    parser.add_argument("--lines", default="24,22,20,18", help="lines left, comma-separated")
    parser.add_argument("--nodes", default="2000000", help="positions per proof (hard's budget), comma-separated")
    parser.add_argument("--seed", type=int, default=2_000_000, help="seed of the first game")
    args = parser.parse_args()
    lines = [int(x) for x in args.lines.split(",")]
    budgets = [int(x) for x in args.nodes.split(",")]
    print(f"{args.games} games of hard v medium a board, load average {os.getloadavg()[0]:.1f}", flush=True)
    print(f"{'board':<12} {'nodes':>9} {'lines':>5} {'proved':>7} {'CPU s/proof':>12} {'CPU s/fail':>11} {'load':>5}",
          flush=True)
    for board in args.boards.split(","):
        game = plunder.load_game("pillage", board=board)
        positions: dict[int, list[PillageState]] = {n: [] for n in lines}
        for i in range(args.games):
            seen = Positions(lines)
            seats = ["hard", "medium"] if i % 2 == 0 else ["medium", "hard"]
            play_out(game, seats, args.seed + i, seen)
            for n, state in seen.found.items():
                positions[n].append(state)
        for nodes in budgets:
            for n in lines:
                proved, proof_cpu, fail_cpu = 0, 0.0, 0.0
                for state in positions[n]:
                    cpu = time.process_time()
                    try:
                        Solver(state.game, state.contents).solve(state, node_limit=nodes)
                        proved += 1
                        proof_cpu += time.process_time() - cpu
                    except SearchLimitError:
                        fail_cpu += time.process_time() - cpu
                failed = len(positions[n]) - proved
                per_proof = f"{proof_cpu / proved:.2f}" if proved else "-"
                per_fail = f"{fail_cpu / failed:.2f}" if failed else "-"
                print(f"{board:<12} {nodes:>9,} {n:>5} {proved:>3}/{len(positions[n]):<3} {per_proof:>12} "
                      f"{per_fail:>11} {os.getloadavg()[0]:>5.1f}", flush=True)


if __name__ == "__main__":
    main()
