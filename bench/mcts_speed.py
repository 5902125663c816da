"""MCTS speed: Pillage searches next to OpenSpiel's C++ MCTSBot, over positions from real games.

Run: .venv/bin/python bench/mcts_speed.py [--sims 1000] [--positions 10] [--runs 5] [--quick]

Like for like: from each position (sampled from real games of ``greedy`` against
``random``, every ply equally likely, positions with one legal line left out) both sides
search once with one uniformly random rollout per leaf (ours: ``mcts:playout=random``,
the numpy kernel evaluator with leaves in batches of 32; OpenSpiel:
``RandomRolloutEvaluator(1)``), c = 2, no tree reuse, the same number of simulations.
Each run times both sides position by position in this process, alternating which goes
first, in CPU time of the process. Ratio = OpenSpiel's time / ours (above 1: ours is
faster), printed per phase as the median of the runs with their spread (min-max). The last
column is our default ``mcts`` (greedy playouts, margin blend, c = 1) at the same simulation
count, timed in the first run. The load average is printed before and after.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import plunder
from plunder.agents import make_agent
from plunder.agents.mcts import MCTSAgent
from plunder.games.pillage.evaluator import make_evaluator
from plunder.games.pillage.rules import PillageGame

from ai_latency import load
from pillage_positions import openspiel_state, phases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sims", type=int, default=1000)
    parser.add_argument("--positions", type=int, default=10, help="positions from real games per phase")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--boards", default="3,5", help="unit square sides")
    parser.add_argument("--quick", action="store_true", help="4 positions a phase, 3 runs")
    args = parser.parse_args()
    if args.quick:
        args.positions, args.runs = 4, 3
    import pyspiel

    print(f"load average before: {load()}; {args.sims} simulations a search, {args.positions} positions a phase, "
          f"{args.runs} runs; CPU ms per search")
    print(f"{'board':6} {'phase':7} {'plunder ms':>11} {'openspiel ms':>13} {'ratio':>6}  {'ratio min-max':>13}   {'default ms':>10}")
    for side in (int(x) for x in args.boards.split(",")):
        game = plunder.load_game("pillage", board=f"square:{side}x{side}", contents="unit")
        assert isinstance(game, PillageGame)
        spiel = pyspiel.load_game("dots_and_boxes", {"num_rows": side, "num_cols": side})
        like = MCTSAgent(game, sims=args.sims, c=2.0, evaluator=make_evaluator(game, 1, "random"), reuse=False)
        default = make_agent(f"mcts:sims={args.sims},reuse=false", game)
        for phase, pairs in phases(game, args.positions, seed=7000 * side).items():
            mine = [s for s, _ in pairs]
            other = [openspiel_state(spiel, game, lines) for _, lines in pairs]
            ours_ms, theirs_ms, default_ms, ratios = [], [], [], []
            for run in range(args.runs):
                a = b = d = 0.0
                for i, (s, t) in enumerate(zip(mine, other)):
                    bot = pyspiel.MCTSBot(spiel, pyspiel.RandomRolloutEvaluator(1, run * 1000 + i), 2.0,
                                          args.sims, 1000, False, run * 1000 + i, False)
                    for which in ((0, 1) if (run + i) % 2 else (1, 0)):
                        start = time.process_time()
                        if which == 0:
                            like.choose(s, random.Random(run * 1000 + i))
                            a += time.process_time() - start
                        else:
                            bot.step(t)
                            b += time.process_time() - start
                    if run == 0:
                        start = time.process_time()
                        default.choose(s, random.Random(i))
                        d += time.process_time() - start
                n = len(mine)
                ours_ms.append(a / n * 1000)
                theirs_ms.append(b / n * 1000)
                if run == 0:
                    default_ms.append(d / n * 1000)
                ratios.append(b / a)
            print(f"{side}x{side:<4} {phase:7} {statistics.median(ours_ms):11.1f} {statistics.median(theirs_ms):13.1f} "
                  f"{statistics.median(ratios):6.2f}  {min(ratios):6.2f}-{max(ratios):<6.2f}   {default_ms[0]:10.1f}",
                  flush=True)
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
