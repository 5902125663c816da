"""Round-robin of agents in one game: every pair plays, seats alternating.

Run: .venv/bin/python bench/round_robin.py GAME AGENT AGENT [AGENT ...] [--games N] [-p KEY=VALUE]
e.g. .venv/bin/python bench/round_robin.py hubs random greedy hard --games 20

Prints, for each pair, the first agent's wins/ties/losses and win rate with a 95% Wilson
interval, then each agent's overall win rate. Games with more than two seats seat the
pair alternately (A B A B ...).
"""

from __future__ import annotations

import argparse
from itertools import combinations

from plunder.agents.base import split_specs
from plunder.simulate import simulate, wilson


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("agents", nargs="+", help="agent specs (options after ':' as usual)")
    parser.add_argument("--games", type=int, default=20, help="games per pair")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("-p", "--param", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    params = dict(p.split("=", 1) for p in args.param)
    agents = [a for spec in args.agents for a in split_specs(spec)]
    overall = {a: [0, 0] for a in agents}
    print(f"{args.game} {params or ''}: {args.games} games per pair")
    for a, b in combinations(agents, 2):
        t = simulate(args.game, params, [a, b], args.games, seed=args.seed, workers=args.workers).tallies
        ta, tb = t[a], t[b]
        lo, hi = wilson(ta.wins, ta.games)
        print(f"  {a} vs {b}: {ta.wins}W {ta.ties}T {ta.losses}L; {a} wins {ta.wins / ta.games:.0%} "
              f"({lo:.0%}-{hi:.0%})", flush=True)
        for name, tally in ((a, ta), (b, tb)):
            overall[name][0] += tally.wins
            overall[name][1] += tally.games
    for name, (wins, games) in overall.items():
        lo, hi = wilson(wins, games)
        print(f"  {name}: {wins}/{games} seat-games won, {wins / games:.0%} ({lo:.0%}-{hi:.0%})")


if __name__ == "__main__":
    main()
