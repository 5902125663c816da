"""MCTS speed: Pillage searches next to OpenSpiel's C++ MCTSBot, over positions from real games.

Run: .venv/bin/python bench/mcts_speed.py [--sims 1000] [--positions 10] [--runs 5] [--seed 7000] [--quick]

Like for like: from each position (sampled from real games of ``greedy`` against
``random``, every ply equally likely, positions with one legal line left out) each side
searches once with one uniformly random rollout per leaf, c = 2, no tree reuse, the same
number of simulations. Ours twice: the compiled tree (``mcts:playout=random``'s default where
numba is there: leaves one at a time, the whole search compiled) and the pure search (the
tree in Python, the numpy kernel evaluating leaves in batches of 32, ``tree=python``);
OpenSpiel: ``MCTSBot`` with ``RandomRolloutEvaluator(1)``. Each run times the three position by
position in this process, rotating which goes first, in CPU time of the process. Ratio =
OpenSpiel's time / ours (above 1: ours is faster), printed per phase as the median of the runs
with their spread (min-max), for the compiled tree and for the pure search. ``late/early`` is
the compiled tree's least time per search late over its least early (per board), printed
beside the mean lines left late over early: a search whose cost follows the lines its playouts
draw costs about that much late. The ``random.Random`` a search takes is made before its
clock starts, as OpenSpiel's bot (with its seeded generator) is made before its own. The last
column is our default ``mcts`` (greedy playouts, margin blend, c = 1) at the same simulation
count, timed in the first run. The compiled code is loaded (or compiled) by a search of the
opening before anything is timed. The load average is printed before and after.
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
from plunder.games.pillage.tree_rules import compiled_rules

from ai_latency import load
from pillage_positions import openspiel_state, phases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sims", type=int, default=1000)
    parser.add_argument("--positions", type=int, default=10, help="positions from real games per phase")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--boards", default="3,5", help="unit square sides")
    parser.add_argument("--seed", type=int, default=7000,
                        help="the games the positions come from: seed times the board's side (7000 by default)")
    parser.add_argument("--quick", action="store_true", help="4 positions a phase, 3 runs")
    args = parser.parse_args()
    if args.quick:
        args.positions, args.runs = 4, 3
    import pyspiel

    print(f"load average before: {load()}; {args.sims} simulations a search, {args.positions} positions a phase, "
          f"{args.runs} runs; CPU ms per search (median of the runs)")
    print(f"{'board':6} {'phase':7} {'compiled':>9} {'pure':>7} {'openspiel':>10} {'OS/compiled':>12} "
          f"{'min-max':>11} {'OS/pure':>8} {'min-max':>11} {'default':>8}")
    for side in (int(x) for x in args.boards.split(",")):
        game = plunder.load_game("pillage", board=f"square:{side}x{side}", contents="unit")
        assert isinstance(game, PillageGame)
        spiel = pyspiel.load_game("dots_and_boxes", {"num_rows": side, "num_cols": side})
        rules = compiled_rules(game, 1, "random")
        assert rules is not None, "the compiled tree needs numba"
        compiled = MCTSAgent(game, sims=args.sims, c=2.0, evaluator=make_evaluator(game, 1, "random"), reuse=False,
                             compiled=rules)
        pure = MCTSAgent(game, sims=args.sims, c=2.0, evaluator=make_evaluator(game, 1, "random"), reuse=False)
        default = make_agent(f"mcts:sims={args.sims},reuse=false", game)
        least: dict[str, float] = {}
        left: dict[str, float] = {}
        # load the compiled code (numba's cache) before anything is timed
        opening = game.new_initial_state()
        compiled.choose(opening, random.Random(0))
        default.choose(opening, random.Random(0))
        for phase, pairs in phases(game, args.positions, seed=args.seed * side).items():
            mine = [s for s, _ in pairs]
            left[phase] = statistics.mean(len(s.open_lines) for s in mine)
            other = [openspiel_state(spiel, game, lines) for _, lines in pairs]
            ms: dict[str, list[float]] = {"compiled": [], "pure": [], "openspiel": []}
            default_ms = 0.0
            for run in range(args.runs):
                spent = dict.fromkeys(ms, 0.0)
                for i, (s, t) in enumerate(zip(mine, other)):
                    seed = run * 1000 + i
                    bot = pyspiel.MCTSBot(spiel, pyspiel.RandomRolloutEvaluator(1, seed), 2.0, args.sims, 1000, False,
                                          seed, False)
                    sides = list(ms)
                    turn = (run + i) % 3
                    for which in sides[turn:] + sides[:turn]:
                        # made before the clock starts, as OpenSpiel's bot with its seeded generator is
                        rng = random.Random(seed)
                        start = time.process_time()
                        if which == "openspiel":
                            bot.step(t)
                        else:
                            (compiled if which == "compiled" else pure).choose(s, rng)
                        spent[which] += time.process_time() - start
                    if run == 0:
                        rng = random.Random(i)
                        start = time.process_time()
                        default.choose(s, rng)
                        default_ms += time.process_time() - start
                for which, total in spent.items():
                    ms[which].append(total / len(mine) * 1000)
            theirs = ms["openspiel"]
            to_compiled = [b / a for a, b in zip(ms["compiled"], theirs)]
            to_pure = [b / a for a, b in zip(ms["pure"], theirs)]
            least[phase] = min(ms["compiled"])
            print(f"{side}x{side:<4} {phase:7} {statistics.median(ms['compiled']):9.2f} {statistics.median(ms['pure']):7.1f} "
                  f"{statistics.median(theirs):10.2f} {statistics.median(to_compiled):12.2f} "
                  f"{min(to_compiled):5.2f}-{max(to_compiled):<5.2f} {statistics.median(to_pure):8.2f} "
                  f"{min(to_pure):5.2f}-{max(to_pure):<5.2f} {default_ms / len(mine) * 1000:8.1f}", flush=True)
        if "early" in least and "late" in least:
            print(f"{side}x{side} compiled late/early (least ms per search): {least['late'] / least['early']:.2f}; "
                  f"lines left late/early (means of the positions): {left['late']:.1f}/{left['early']:.1f} = "
                  f"{left['late'] / left['early']:.2f}")
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
