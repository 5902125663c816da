"""Random playouts per second: Pillage (unit boxes) next to OpenSpiel's C++ dots_and_boxes.

Run: .venv/bin/python bench/pillage_playouts.py [--seconds S]

Three figures per board, all measured in this run on this machine:
* ``plunder api``   -- playouts through the public API (state.apply, random agent)
* ``plunder fast``  -- the numpy kernel (batches of 4096 permutations)
* ``openspiel c++`` -- pyspiel.MCTSBot with one simulation whose RandomRolloutEvaluator
  runs n rollouts from the root, i.e. n C++ random rollouts
The ratio is fast / openspiel; the targets are >= 1.0 on 3x3 and >= 1.5 on 5x5.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

import plunder
from plunder.games.pillage.fast import PlayoutKernel

TARGETS = {3: 1.0, 5: 1.5}


def rate(run, seconds: float) -> float:  # type: ignore[no-untyped-def]
    """Playouts per second of ``run()`` (which returns how many it did), over ``seconds``."""
    run()  # warm up
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        done += run()
    return done / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    try:
        import pyspiel
    except ImportError:
        pyspiel = None
        print("pyspiel not installed (pip install '.[dev]'); OpenSpiel figures skipped")
    print(f"{'board':8} {'plunder api/s':>14} {'plunder fast/s':>15} {'openspiel c++/s':>16} {'ratio':>7} {'target':>7}")
    for side in (3, 5):
        game = plunder.load_game("pillage", board=f"square:{side}x{side}", contents="unit")
        root = game.new_initial_state()
        py_rng = random.Random(0)

        def api_once() -> int:
            s = root
            while not s.is_terminal():
                s = s.apply(py_rng.choice(s.legal_actions()))
            return 1

        kernel = PlayoutKernel(game)
        np_rng = np.random.default_rng(0)

        def fast_batch() -> int:
            kernel.random_scores(root, 4096, np_rng)
            return 4096

        api = rate(api_once, args.seconds / 2)
        fast = rate(fast_batch, args.seconds)
        theirs = float("nan")
        if pyspiel is not None:
            osg = pyspiel.load_game("dots_and_boxes", {"num_rows": side, "num_cols": side})
            rollouts = 2000
            evaluator = pyspiel.RandomRolloutEvaluator(rollouts, 1)
            bot = pyspiel.MCTSBot(osg, evaluator, 2.0, 1, 1000, False, 1, False)
            osroot = osg.new_initial_state()

            def os_batch() -> int:
                bot.step(osroot)
                return rollouts

            theirs = rate(os_batch, args.seconds)
        ratio = fast / theirs
        verdict = "ok" if ratio >= TARGETS[side] else "BELOW"
        print(f"{side}x{side:<6} {api:14.0f} {fast:15.0f} {theirs:16.0f} {ratio:7.2f} {TARGETS[side]:>6} {verdict}")


if __name__ == "__main__":
    main()
