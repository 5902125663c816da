"""How many simulations the compiled tree runs in the CPU the Python tree spends on ``--sims``.

Run: .venv/bin/python bench/hard_sims.py [--board square:4x4] [--sims 3000] [--reps 2]

``hard``'s search (4 greedy playouts a leaf, no tree reuse) in the Python tree
(``tree=python``) and in the compiled tree, both at ``--sims``, timed in CPU time of the
process, interleaved position by position (which goes first alternating), over the positions
``hard`` searches: 10 from real games of ``greedy`` against ``random`` (seeds 99,000 up) with
more than 22 lines left, and the openings after 0 to 3 random lines. Prints both means and the
count at which the compiled tree would spend the Python tree's CPU.
"""

from __future__ import annotations

import argparse
import random
import time

import plunder
from plunder.agents import make_agent
from plunder.core.chance import sample_chance
from plunder.games.pillage.rules import PillageGame, PillageState

from ai_latency import load
from pillage_positions import start_positions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="square:4x4")
    parser.add_argument("--sims", type=int, default=3000)
    parser.add_argument("--reps", type=int, default=2)
    args = parser.parse_args()
    game = plunder.load_game("pillage", board=args.board)
    assert isinstance(game, PillageGame)
    positions = [s for s, _ in start_positions(game, 60, 99000)
                 if s.current_player >= 0 and not s.pending and len(s.open_lines) > 22][:10]
    for k in range(4):
        rng = random.Random(k)
        state: PillageState = game.new_initial_state()
        while state.is_chance_node():
            state = state.apply(sample_chance(state, rng))
        for _ in range(k):
            state = state.apply(rng.choice(state.legal_actions()))
        if not state.pending:
            positions.append(state)
    spec = f"mcts:sims={args.sims},eval=fast,playout=greedy,rollouts=4,reuse=false"
    python, compiled = make_agent(spec + ",tree=python", game), make_agent(spec, game)
    compiled.choose(positions[0], random.Random(0))  # numba's cache loaded before any timing
    print(f"load average before: {load()}; {len(positions)} positions, lines left "
          f"{sorted(len(s.open_lines) for s in positions)}")
    spent = [0.0, 0.0]
    for rep in range(args.reps):
        for i, state in enumerate(positions):
            for which in ((0, 1) if (i + rep) % 2 else (1, 0)):
                start = time.process_time()
                (python if which == 0 else compiled).choose(state, random.Random(i))
                spent[which] += time.process_time() - start
    n = args.reps * len(positions)
    ratio = spent[0] / spent[1]
    print(f"CPU ms per search at {args.sims} simulations: Python tree {spent[0] / n * 1000:.1f}, compiled "
          f"{spent[1] / n * 1000:.1f}; ratio {ratio:.2f}, so {args.sims * ratio:.0f} compiled simulations")
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
