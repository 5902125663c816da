"""The compiled MCTS tree's fixed cost a search beside its whole cost, per phase of Pillage games.

Run: .venv/bin/python bench/tree_fixed_cost.py [--sims 1000] [--positions 6] [--runs 10] [--boards 3,5] [--seed 7000]

From the positions ``bench/mcts_speed.py`` times (``pillage_positions.phases``, the same seeds),
the compiled tree of ``bench/mcts_speed.py`` (one uniformly random rollout a leaf, c = 2, no
tree reuse) searches each position with one simulation -- what a search costs whatever its
simulations: the Python around the compiled call -- and with ``--sims``. Prints per board and
phase the CPU ms a search (of this process) for both, each the least over ``--runs`` runs of
all the phase's positions, and the fixed cost's share; the load average before and after.
"""

from __future__ import annotations

import argparse
import random
import time

import plunder
from plunder.agents.mcts import MCTSAgent
from plunder.games.pillage.evaluator import make_evaluator
from plunder.games.pillage.rules import PillageGame
from plunder.games.pillage.tree_rules import compiled_rules

from ai_latency import load
from pillage_positions import phases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sims", type=int, default=1000)
    parser.add_argument("--positions", type=int, default=6, help="positions from real games per phase")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--boards", default="3,5", help="unit square sides")
    parser.add_argument("--seed", type=int, default=7000,
                        help="the games the positions come from: seed times the board's side (7000 by default)")
    args = parser.parse_args()
    print(f"load average before: {load()}; CPU ms a search, least of {args.runs} runs")
    print(f"{'board':6} {'phase':7} {'1 simulation':>13} {args.sims:>7} sims {'share':>6}")
    for side in (int(x) for x in args.boards.split(",")):
        game = plunder.load_game("pillage", board=f"square:{side}x{side}", contents="unit")
        assert isinstance(game, PillageGame)
        rules = compiled_rules(game, 1, "random")
        assert rules is not None, "the compiled tree needs numba"
        agents = {sims: MCTSAgent(game, sims=sims, c=2.0, evaluator=make_evaluator(game, 1, "random"), reuse=False,
                                  compiled=rules) for sims in (1, args.sims)}
        for agent in agents.values():  # load the compiled code before anything is timed
            agent.choose(game.new_initial_state(), random.Random(0))
        for phase, pairs in phases(game, args.positions, seed=args.seed * side).items():
            least = {}
            for sims, agent in agents.items():
                best = float("inf")
                for _ in range(args.runs):
                    rngs = [random.Random(i) for i in range(len(pairs))]  # made before the clock starts
                    start = time.process_time()
                    for (state, _), rng in zip(pairs, rngs):
                        agent.choose(state, rng)
                    best = min(best, (time.process_time() - start) / len(pairs) * 1000)
                least[sims] = best
            print(f"{side}x{side:<4} {phase:7} {least[1]:13.3f} {least[args.sims]:12.3f} "
                  f"{least[1] / least[args.sims]:6.2f}", flush=True)
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
