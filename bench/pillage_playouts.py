"""Random playouts: Pillage's numpy kernel next to OpenSpiel's C++ dots_and_boxes, in three shapes.

Run: .venv/bin/python bench/pillage_playouts.py [--runs 5] [--boards 3,5] [--reps 3]

Unit boxes; three shapes per board, the playouts all uniformly random:
* ``opening x4096`` -- 4,096 playouts from the empty board in one kernel call;
* ``middle x4096`` -- 4,096 from one position of a real game with half its lines drawn;
* ``32 leaves`` -- one playout from each of 32 positions of real games (every ply equally
  likely, ``pillage_positions.py``): what one call of MCTS's leaf evaluator does.
OpenSpiel plays the same playouts from the same positions with ``MCTSBot`` steps of one
simulation whose ``RandomRolloutEvaluator`` plays n rollouts (4,096 from the one position; one
for each of the 32 leaves, a step per leaf, so its per-step cost counts as our per-call cost
does). Each run times both sides shape by shape, alternating which goes first, ``--reps``
repetitions each, in CPU time of this process (``time.process_time``). Prints per shape the
median playouts a CPU second on each side and the ratio ours / OpenSpiel's (median, min-max of
the runs), and the load average before and after.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Callable

import numpy as np

import plunder
from plunder.games.pillage.fast import PlayoutKernel
from plunder.games.pillage.rules import PillageGame

from ai_latency import load
from pillage_positions import openspiel_state, start_positions


def cpu_rate(run: Callable[[], int], reps: int) -> float:
    """Playouts a CPU second of ``run()`` (which returns how many it played), over ``reps`` calls."""
    done, start = 0, time.process_time()
    for _ in range(reps):
        done += run()
    return done / max(time.process_time() - start, 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--reps", type=int, default=3, help="calls per timing")
    parser.add_argument("--boards", default="3,5", help="unit square sides")
    args = parser.parse_args()
    import pyspiel

    print(f"load average before: {load()}; CPU time, {args.runs} runs of {args.reps} calls a shape")
    print(f"{'board':6} {'shape':14} {'plunder/s':>10} {'openspiel/s':>12} {'ratio':>6}  min-max")
    for side in (int(x) for x in args.boards.split(",")):
        game = plunder.load_game("pillage", board=f"square:{side}x{side}", contents="unit")
        assert isinstance(game, PillageGame)
        spiel = pyspiel.load_game("dots_and_boxes", {"num_rows": side, "num_cols": side})
        kernel = PlayoutKernel(game)
        gen = np.random.default_rng(0)
        real = [p for p in start_positions(game, 200, seed=4000 * side) if p[0].open_lines]
        middle = min(real, key=lambda p: abs(2 * len(p[0].open_lines) - game.num_edges))
        leaves = real[:32]
        opening = (game.new_initial_state(), [])
        shapes: dict[str, tuple[Callable[[], int], Callable[[], int]]] = {}
        for name, (state, lines) in (("opening x4096", opening), ("middle x4096", middle)):
            big = pyspiel.MCTSBot(spiel, pyspiel.RandomRolloutEvaluator(4096, 1), 2.0, 1, 1000, False, 1, False)
            t = openspiel_state(spiel, game, lines)

            def ours(state=state) -> int:  # type: ignore[no-untyped-def]
                kernel.random_scores(state, 4096, gen)
                return 4096

            def theirs(bot=big, t=t) -> int:  # type: ignore[no-untyped-def]
                bot.step(t)
                return 4096

            shapes[name] = (ours, theirs)
        states = [s for s, _ in leaves]
        others = [openspiel_state(spiel, game, lines) for _, lines in leaves]
        one = pyspiel.MCTSBot(spiel, pyspiel.RandomRolloutEvaluator(1, 1), 2.0, 1, 1000, False, 1, False)

        def ours_leaves() -> int:
            kernel.playouts(states, gen, "random")
            return len(states)

        def theirs_leaves() -> int:
            for t in others:
                one.step(t)
            return len(others)

        shapes["32 leaves"] = (ours_leaves, theirs_leaves)
        for name, (ours_run, theirs_run) in shapes.items():
            ours_run(), theirs_run()  # warm up
            mine, other = [], []
            for run in range(args.runs):
                for which in ((0, 1) if run % 2 else (1, 0)):
                    if which == 0:
                        mine.append(cpu_rate(ours_run, args.reps))
                    else:
                        other.append(cpu_rate(theirs_run, args.reps))
            ratios = [a / b for a, b in zip(mine, other)]
            print(f"{side}x{side:<4} {name:14} {statistics.median(mine):10.0f} {statistics.median(other):12.0f} "
                  f"{statistics.median(ratios):6.2f}  {min(ratios):.2f}-{max(ratios):.2f}", flush=True)
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
