"""A new level against the one it replaces: paired seeds and seats, win rate with its interval.

Run: .venv/bin/python bench/level_match.py GAME NEW OLD [--pairs 100] [--seed 6000000]
     [--start 0] [-p KEY=VALUE]
e.g. .venv/bin/python bench/level_match.py pillage hard pillage-hard:sims=3000,nodes=2000000

Pair *k* plays two games on seed ``--seed`` + *k* (the same deal and chance draws): NEW in
seat 0, then NEW in seat 1 (other seats, in games of more than two, OLD). The agents are built
and called as people meet them (:func:`ai_latency.play_timed`). After every pair it prints the
running tally of NEW (wins, ties, losses), its score (a tie counts half) with a 95% Wilson
interval on that score, and each side's CPU ms per move (mean and 95th percentile). Issue 25's
target: the interval's lower end above 45% (not worse), over at least 200 games. ``--start K``
plays pairs K.. only, so runs cut short or split over processes add up to one run.
"""

from __future__ import annotations

import argparse

import plunder
from plunder.simulate import wilson

from ai_latency import load, percentile, play_timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("new", help="the new agent spec (a level: hard)")
    parser.add_argument("old", help="the agent spec it replaces")
    parser.add_argument("--pairs", type=int, default=100, help="pairs of games (seats swapped)")
    parser.add_argument("--seed", type=int, default=6_000_000)
    parser.add_argument("--start", type=int, default=0, help="first pair to play")
    parser.add_argument("-p", "--param", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    game = plunder.load_game(args.game, **dict(p.split("=", 1) for p in args.param))
    print(f"{args.game} {args.param or ''}: {args.new} (new) against {args.old} (old), pairs "
          f"{args.start}..{args.pairs - 1} on seeds {args.seed}+; load average {load()}", flush=True)
    tally = [0, 0, 0]
    cpu: dict[str, list[float]] = {"new": [], "old": []}
    for k in range(args.start, args.pairs):
        for seat in range(2):
            specs = [args.new if s == seat else args.old for s in range(game.num_players)]
            final, times = play_timed(game, specs, args.seed + k)
            r = final.returns()[seat]
            tally[0 if r > 0 else 1 if r == 0 else 2] += 1
            for s, t in enumerate(times):
                cpu["new" if s == seat else "old"] += [x * 1000 for x in t]
        w, t, lo_ = tally
        n = w + t + lo_
        low, high = wilson(w + t / 2, n)
        print(f"  pair {k} (seed {args.seed + k}): new {w}W {t}T {lo_}L of {n}, score {(w + t / 2) / n:.1%} "
              f"({low:.1%}-{high:.1%}); CPU ms per move new {sum(cpu['new']) / len(cpu['new']):.0f} "
              f"(p95 {percentile(cpu['new'], 95):.0f}), old {sum(cpu['old']) / len(cpu['old']):.0f} "
              f"(p95 {percentile(cpu['old'], 95):.0f}); load {load()}", flush=True)


if __name__ == "__main__":
    main()
