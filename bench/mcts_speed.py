"""MCTS speed: 1000 simulations on Pillage unit 3x3 and 5x5 next to OpenSpiel's C++ MCTSBot.

Run: .venv/bin/python bench/mcts_speed.py [--sims 1000] [--repeats 5]

Like for like: both search the opening position with one uniformly random rollout per leaf
(ours: ``mcts:playout=random``, the numpy kernel evaluator with leaves in batches of 32;
OpenSpiel: RandomRolloutEvaluator(1)), the same UCT constant, no tree reuse. Ratio =
OpenSpiel time / our time (higher is better); targets >= 0.3 on 3x3 and >= 0.5 on 5x5.
The last column is our default evaluator (``greedy`` playouts, the stronger and slower
ones) at the same simulation count, for reference. Times are CPU time of this process.
"""

from __future__ import annotations

import argparse
import random
import time

import plunder
from plunder.agents.mcts import MCTSAgent
from plunder.core.game import Game
from plunder.games.pillage.evaluator import make_evaluator

TARGETS = {3: 0.3, 5: 0.5}


def search_ms(game: Game, playout: str, sims: int, repeats: int) -> float:
    """Mean CPU milliseconds of one search from the opening (after one warm-up search)."""
    state = game.new_initial_state()
    agent = MCTSAgent(game, sims=sims, c=2.0, evaluator=make_evaluator(game, 1, playout), reuse=False)
    agent.choose(state, random.Random(0))
    start = time.process_time()
    for r in range(repeats):
        agent.choose(state, random.Random(r))
    return (time.process_time() - start) / repeats * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sims", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    import pyspiel

    print(f"{'board':6} {'plunder ms':>11} {'openspiel ms':>13} {'ratio':>6} {'target':>7}    {'default ms':>10}")
    for side in (3, 5):
        game = plunder.load_game("pillage", board=f"square:{side}x{side}", contents="unit")
        assert isinstance(game, plunder.Game)
        mine = search_ms(game, "random", args.sims, args.repeats)
        osg = pyspiel.load_game("dots_and_boxes", {"num_rows": side, "num_cols": side})
        bot = pyspiel.MCTSBot(osg, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, args.sims, 1000, False, 0, False)
        osroot = osg.new_initial_state()
        bot.step(osroot)
        start = time.process_time()
        for _ in range(args.repeats):
            bot.step(osroot)
        theirs = (time.process_time() - start) / args.repeats * 1000
        default = search_ms(game, "", args.sims, max(1, args.repeats // 2))
        ratio = theirs / mine
        verdict = "ok" if ratio >= TARGETS[side] else "BELOW"
        print(f"{side}x{side:<4} {mine:11.1f} {theirs:13.1f} {ratio:6.2f} {TARGETS[side]:>6} {verdict:5} {default:10.1f}")


if __name__ == "__main__":
    main()
