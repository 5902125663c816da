"""Where a Pillage search spends its CPU: cProfile over positions from real games, by phase.

Run: .venv/bin/python bench/mcts_profile.py [--board square:3x3] [--contents unit]
     [--agent mcts:sims=1000,playout=random,c=2,reuse=false] [--positions 10] [--top 12]

Positions come from real games (``greedy`` against ``random``, ``pillage_positions.py``),
sorted into early (more than two thirds of the lines undrawn), middle and late (at most a
third), positions with one legal line left out. For each phase the agent (built anew per
position, so no tree is reused) chooses once from each position under cProfile; the bench
prints the CPU ms per search without the profiler (timed first, separately) and the functions
that take the most time of their own with the profiler on.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import time

import plunder
from plunder.agents import make_agent
from plunder.games.pillage.rules import PillageGame

from ai_latency import load
from pillage_positions import phases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="square:3x3")
    parser.add_argument("--contents", default="unit")
    parser.add_argument("--agent", default="mcts:sims=1000,playout=random,c=2,reuse=false")
    parser.add_argument("--positions", type=int, default=10, help="positions per phase")
    parser.add_argument("--top", type=int, default=12, help="functions listed per phase")
    parser.add_argument("--seed", type=int, default=8000)
    args = parser.parse_args()
    game = plunder.load_game("pillage", board=args.board, contents=args.contents)
    assert isinstance(game, PillageGame)
    print(f"{args.agent} on {args.board} {args.contents}; load average {load()}")
    for phase, pairs in phases(game, args.positions, args.seed).items():
        states = [s for s, _ in pairs]
        if not states:
            continue
        start = time.process_time()
        for i, s in enumerate(states):
            make_agent(args.agent, game).choose(s, random.Random(i))
        ms = (time.process_time() - start) / len(states) * 1000
        profile = cProfile.Profile()
        profile.enable()
        for i, s in enumerate(states):
            make_agent(args.agent, game).choose(s, random.Random(i))
        profile.disable()
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(args.top)
        lines = [x for x in out.getvalue().splitlines() if x.strip()]
        table = lines[next(i for i, x in enumerate(lines) if x.lstrip().startswith("ncalls")):]
        print(f"\n{phase}: {len(states)} positions, {sum(len(s.open_lines) for s in states) / len(states):.1f} "
              f"lines undrawn on average; {ms:.1f} CPU ms per search (without the profiler)")
        print("\n".join(table))
    print(f"\nload average {load()}")


if __name__ == "__main__":
    main()
