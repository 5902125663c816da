"""What the coach's proofs cost on Pillage's stretch: the move played solved, then null-window tests.

Run: .venv/bin/python bench/stretch_proofs.py [--board square:4x4] [--seeds 1-4] [--lines 27-30]
                                              [--seconds 30] [--truth-cache truths.json] [--full]
                                              [--kept] [--reverse]

The games of ``bench/coach_truth.py`` (one per seed, ``easy`` against ``medium``, random valued
contents); every decision with ``--lines`` lines left (the stretch's, ``plunder.games.pillage.hard``)
is proven as the coach proves it (``plunder.analysis.value.proven``): the move played solved
exactly (its value v for the mover), then the position tested at v + 10, v + 5 and v + 2 (the
blunder's, the mistake's and the inaccuracy's thresholds, the worst first) until one holds. Each
decision on fresh tables of 128 MB, or with ``--kept`` on one solver of the analysis' size kept
through a game's decisions as the coach keeps it (``--reverse``: the game's decisions taken from
the last to the first), each solve or test up to ``--seconds`` of wall time, every one timed in
CPU seconds of this process. ``--full`` also solves the position itself on fresh tables, what the
stretch did before the proofs. ``--truth-cache`` (the file ``bench/coach_truth.py`` writes)
shows each decision's exact loss where it holds it, and flags a proof it contradicts.

Prints a line per decision, then how many decisions' marks were proven within a time ``L``
a solve or test and ``2 L`` all together (the coach's rule: ``Analysis.stretch_seconds`` and
``STRETCH_SOLVES`` times it), for ``L`` = 1, 2 and 4 s, and the load average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Callable, TypeVar

from plunder import play
from plunder.analysis import Settings
from plunder.analysis.engine import plan
from plunder.core.errors import SearchLimitError
from plunder.core.registry import entry
from plunder.games.pillage.hard import ANALYSIS_MEMORY
from plunder.games.pillage.rules import PillageGame, PillageState
from plunder.games.pillage.solver import Solver

from coach_truth import Truths, seeds

T = TypeVar("T")
LIMITS = (1.0, 2.0, 4.0)


def timed(run: Callable[[], T]) -> tuple[T | None, float]:
    """``run()`` and its CPU seconds; ``None`` where it ran past its time."""
    start = time.process_time()
    try:
        return run(), time.process_time() - start
    except SearchLimitError:
        return None, time.process_time() - start


def main() -> None:
    """Prove each stretch decision's mark, timed, and count what each time limit settles."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="square:4x4")
    parser.add_argument("--seeds", default="1-4")
    parser.add_argument("--lines", default="27-30", help="lines left, LOW-HIGH")
    parser.add_argument("--seconds", type=float, default=30.0, help="wall seconds a solve or test")
    parser.add_argument("--truth-cache", default="", help="bench/coach_truth.py's offline solves (read only)")
    parser.add_argument("--full", action="store_true", help="also solve the position on fresh tables")
    parser.add_argument("--kept", action="store_true", help="one solver kept through a game, as the coach keeps it")
    parser.add_argument("--reverse", action="store_true", help="a game's decisions from the last to the first")
    args = parser.parse_args()
    low, high = (int(x) for x in args.lines.split("-"))
    known = json.loads(Path(args.truth_cache).read_text()) if args.truth_cache else {}
    pillage = entry("pillage")
    warm, analysis = pillage.strength.warm, pillage.analysis
    assert warm is not None and analysis is not None
    # the thresholds tested, the worst first, as the coach tests them
    thresholds = sorted({analysis.blunder, analysis.mistake, analysis.inaccuracy}, reverse=True)
    warm()
    game = PillageGame.load(board=args.board, contents="random")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {args.board}, seeds {args.seeds}, "
          f"{low}-{high} lines left; CPU s on fresh tables")
    steps_of: list[list[float]] = []  # per decision proven: each step's CPU seconds
    decisions = 0
    for seed in seeds(args.seeds):
        record = play(game, ["easy", "medium"], seed=seed)
        made = plan(record, Settings(sims=32))
        kept: Solver | None = None
        chosen = [(ply, task) for ply, task in zip(made.plies, made.tasks)
                  if isinstance(task.state, PillageState) and low <= len(task.state.open_lines) <= high]
        for ply, task in reversed(chosen) if args.reverse else chosen:
            state = task.state
            assert isinstance(state, PillageState)
            left = len(state.open_lines)
            decisions += 1
            cached = known.get(Truths.key(game, [m.action for m in record.moves[: ply + 1]]))
            truth = None if cached is None else cached[0]
            mover = state.current_player
            after = state.apply(game.parse_action(state, task.played))
            assert isinstance(after, PillageState)
            if not args.kept:
                solver = Solver(game, state.contents, 128)
            else:
                kept = solver = kept or Solver(game, state.contents, ANALYSIS_MEMORY)
            line = f"seed {seed} ply {ply} ({left} lines left), exact loss {truth}:"
            solved, spent = timed(lambda: solver.solve(after, time_limit=args.seconds).value)
            line += f" the move solved {spent:.2f} s"
            if solved is None:
                print(line + ", past the limit", flush=True)
                continue
            value = solved if after.current_player == mover else -solved
            steps = [spent]
            proven = False
            for threshold in thresholds:
                outcome, spent = timed(lambda: solver.test(state, value + threshold, args.seconds))
                if outcome is None:
                    line += f"; at least {threshold} more? past the limit ({spent:.2f} s)"
                    break
                steps.append(spent)
                line += f"; at least {threshold} more? {'yes' if outcome.holds else 'no'} ({spent:.2f} s)"
                if outcome.holds:
                    proven = True
                    if truth is not None and truth < threshold:
                        line += " CONTRADICTS THE EXACT LOSS"
                    break
            else:
                proven = True  # every test failed: the loss is under the least threshold
                if truth is not None and truth >= thresholds[-1]:
                    line += " CONTRADICTS THE EXACT LOSS"
            if proven:
                steps_of.append(steps)
            if args.full:
                fresh = Solver(game, state.contents, 128)
                whole, spent = timed(lambda: fresh.solve(state, time_limit=args.seconds).value)
                line += f"; the position solved {'past the limit' if whole is None else ''} {spent:.2f} s"
            print(line, flush=True)
    for limit in LIMITS:
        settled = sum(1 for steps in steps_of if max(steps) <= limit and sum(steps) <= 2 * limit)
        print(f"proven within {limit:g} s a solve or test and {2 * limit:g} s in all: {settled} of {decisions}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
