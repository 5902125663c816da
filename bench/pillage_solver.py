"""Time the exact Pillage solver from the starting position of a few boards.

Usage: .venv/bin/python bench/pillage_solver.py [--limit SECONDS] [--quick] [--pure]
       .venv/bin/python bench/pillage_solver.py --unit square:3x4 [--memory MB] [--progress SECONDS]
       .venv/bin/python bench/pillage_solver.py --unit square:3x3 --rules capture,chains
       .venv/bin/python bench/pillage_solver.py --unit square:3x4 --without one,ground

Unit boards are plain Dots and Boxes; "random" rows deal the contents with a fixed seed
(doubloons, commodities and modifiers by the game's own distribution) and solve the
dealt start. Each row is a fresh solver (no tables carried over). ``--unit`` solves only
the unit boards named, printing a progress line every ``--progress`` seconds (positions
searched, the table's entries, the root line being searched and the best value so far).
Each row prints its wall time, its CPU time and the process's peak resident memory so far;
the load average is printed before and after. Unit boards take the Dots and Boxes fast path
(solver_unit.py); ``--rules`` picks which of its rules are on (``all``, ``none`` for its
plain search, a comma-separated subset of capture,chains,endgame, or ``generic`` for the
valued search without the fast path), to measure what each one saves. Unit boards are
searched by the compiled unit search (solver_unit_compiled.py) when numba is there, by the
Python one under ``PLUNDER_PURE=1`` or ``--pure``; the "search" column says which;
``--without`` turns off the compiled search's own rules (``one`` line a chain, ``ground``
lines), to measure what each saves. Each row
also prints the load average when it ends (the machine may be shared: CPU time is the figure
to compare).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import time

import plunder
from plunder.games.pillage.contents import content_short
from plunder.games.pillage.rules import PillageState
from plunder.core.errors import SearchLimitError
from plunder.games.pillage.solver import DEFAULT_MEMORY, Solver
from plunder.games.pillage.solver_unit import RULES

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


def unit(board: str) -> PillageState:
    """The start of ``board`` with every box worth one doubloon."""
    first = plunder.load_game("pillage", board=board, contents="unit").new_initial_state()
    assert isinstance(first, PillageState)
    return first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=120.0, help="seconds per row before giving up")
    parser.add_argument("--quick", action="store_true", help="skip the 3x3 rows")
    parser.add_argument("--unit", default="", help="only these unit boards, comma-separated (e.g. square:3x4)")
    parser.add_argument("--memory", type=float, default=DEFAULT_MEMORY, help="MB for the solver's tables")
    parser.add_argument("--progress", type=float, default=0.0, help="print progress every this many seconds")
    parser.add_argument("--rules", default="all", help="unit fast path rules: all, none, generic or a subset")
    parser.add_argument("--pure", action="store_true", help="the Python unit search, not the compiled one")
    parser.add_argument("--without", default="", help="compiled search rules off: one, ground or one,ground")
    args = parser.parse_args()
    rules: frozenset[str] | None = {"all": RULES, "none": frozenset(), "generic": None}.get(
        args.rules, frozenset(args.rules.split(",")))
    without = set(filter(None, args.without.split(",")))
    if not without <= {"one", "ground"}:
        parser.error(f"--without takes one, ground or both, not {args.without!r}")
    rows: list[tuple[str, str, PillageState]] = []
    if args.unit:
        rows = [(board, "unit", unit(board)) for board in args.unit.split(",")]
    else:
        rows = [(board, "unit", unit(board)) for board in UNIT if not (args.quick and board == "square:3x3")]
        for board, seed, mix in VALUED:
            if args.quick and board == "square:3x3":
                continue
            state = dealt(board, seed, mix)
            legend = state.game.legend
            contents = " ".join(content_short(c, legend) for c in state.contents if c is not None)
            rows.append((board, f"random seed {seed}: {contents}", state))
    print(f"memory budget {args.memory:g} MB, unit rules {args.rules}, compiled rules off: {sorted(without) or 'none'}, "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'board':<14} {'value':>6} {'nodes':>12} {'seconds':>8} {'CPU s':>8} {'peak MB':>8} {'load':>5} "
          f"{'search':<8}  contents", flush=True)
    for board, label, state in rows:
        start, cpu = time.perf_counter(), time.process_time()
        try:
            solver = Solver(state.game, state.contents, args.memory, rules, compiled=not args.pure,
                            compiled_without=without)
            result = solver.solve(state, time_limit=args.limit,
                                  progress=(lambda line: print(f"  {line}", flush=True)) if args.progress else None,
                                  every=args.progress or 10.0)
            # wall time including building the symmetry tables, not just the search
            value, nodes, seconds = f"{result.value:+g}", f"{result.nodes}", f"{time.perf_counter() - start:.2f}"
        except SearchLimitError:
            value, nodes, seconds = "-", f">{solver.timer.nodes}", f">{time.perf_counter() - start:.0f}"
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        search = "compiled" if solver.fast is not None else "python"
        print(f"{board:<14} {value:>6} {nodes:>12} {seconds:>8} {time.process_time() - cpu:>8.2f} {peak:>8.0f} "
              f"{os.getloadavg()[0]:>5.1f} {search:<8}  {label}", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
