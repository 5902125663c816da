"""Profiteer speed: whole games per second for each agent, public API (plunder.play) vs the fast path.

Run: .venv/bin/python bench/profiteer_speed.py [--games N] [--repeats R] [--seed S]

Each repeat plays the same N real games (seeds S..S+N-1) both ways, one after the other,
and takes the ratio of their CPU times (the public path is the reference measured in the
same run); the summary gives the median ratio and the spread over the repeats. It also
checks that the fast path gave every game the same returns, scores and statistics.
"""

from __future__ import annotations

import argparse
import statistics
import time

import plunder
from plunder.agents import make_agent
from plunder.core.registry import entry
from plunder.match import agent_rng, play_stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1_000_000)
    args = parser.parse_args()
    game = plunder.load_game("profiteer")
    fast_play = entry("profiteer").speed.fast_play
    assert fast_play is not None
    seeds = range(args.seed, args.seed + args.games)
    print(f"profiteer, {args.games} games per agent and path (seeds {seeds.start}..{seeds.stop - 1}), "
          f"{args.repeats} repeats; CPU time of the process")
    print(f"{'agent':8} {'public games/s':>15} {'fast games/s':>13} {'ratio (median)':>15}  {'spread':>13}  same results")
    for agent in ("random", "greedy", "profit"):
        ratios: list[float] = []
        rates: list[tuple[float, float]] = []
        same = True
        for _ in range(args.repeats):
            start = time.process_time()
            public = [play_stats(game, [agent], seed=seed) for seed in seeds]
            t_public = time.process_time() - start
            start = time.process_time()
            built = make_agent(agent, game)
            fast = [fast_play(game, [built], [agent_rng(seed, 0)], seed) for seed in seeds]
            t_fast = time.process_time() - start
            same = same and all(f is not None and (f.returns, f.scores, f.stats) == (r.returns, r.scores, s)
                                for f, (r, _, s) in zip(fast, public))
            ratios.append(t_public / t_fast)
            rates.append((args.games / t_public, args.games / t_fast))
        public_rate = statistics.median(r[0] for r in rates)
        fast_rate = statistics.median(r[1] for r in rates)
        spread = f"{min(ratios):.2f}-{max(ratios):.2f}"
        print(f"{agent:8} {public_rate:15.0f} {fast_rate:13.0f} {statistics.median(ratios):14.2f}x  {spread:>13}  {same}")


if __name__ == "__main__":
    main()
