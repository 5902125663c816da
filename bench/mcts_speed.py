"""MCTS speed: 1000 simulations on Pillage unit 3x3 and 5x5 next to OpenSpiel's C++ MCTSBot.

Run: .venv/bin/python bench/mcts_speed.py [--sims 1000] [--repeats 5]

Both search the opening position with one random rollout per leaf (ours: the numpy kernel
evaluator, leaves in batches of 32; OpenSpiel: RandomRolloutEvaluator(1)), the same UCT
constant, no tree reuse. Ratio = OpenSpiel time / our time (higher is better); targets
>= 0.3 on 3x3 and >= 0.5 on 5x5.
"""

from __future__ import annotations

import argparse
import random
import time

import plunder
from plunder.agents.mcts import MCTSAgent
from plunder.games.pillage.evaluator import make_evaluator

TARGETS = {3: 0.3, 5: 0.5}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sims", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    import pyspiel

    print(f"{'board':6} {'plunder ms':>11} {'openspiel ms':>13} {'ratio':>6} {'target':>7}")
    for side in (3, 5):
        game = plunder.load_game("pillage", board=f"square:{side}x{side}", contents="unit")
        assert isinstance(game, plunder.Game)
        state = game.new_initial_state()
        ours = MCTSAgent(game, sims=args.sims, c=2.0, evaluator=make_evaluator(game, 1, "random"), reuse=False)
        ours.choose(state, random.Random(0))
        start = time.process_time()
        for r in range(args.repeats):
            ours.choose(state, random.Random(r))
        mine = (time.process_time() - start) / args.repeats
        osg = pyspiel.load_game("dots_and_boxes", {"num_rows": side, "num_cols": side})
        bot = pyspiel.MCTSBot(osg, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, args.sims, 1000, False, 0, False)
        osroot = osg.new_initial_state()
        bot.step(osroot)
        start = time.process_time()
        for _ in range(args.repeats):
            bot.step(osroot)
        theirs = (time.process_time() - start) / args.repeats
        ratio = theirs / mine
        verdict = "ok" if ratio >= TARGETS[side] else "BELOW"
        print(f"{side}x{side:<4} {mine * 1000:11.1f} {theirs * 1000:13.1f} {ratio:6.2f} {TARGETS[side]:>6} {verdict}")


if __name__ == "__main__":
    main()
