"""Profiteer agents on the same deals: win rates with 95% intervals, paired differences, counts.

Run: .venv/bin/python bench/profiteer_agents.py --seed 1000000 --games 300 profit mcts:root=profit,sims=200

Each agent plays seeds SEED..SEED+GAMES-1 on the fast path (the games of ``plunder simulate
profiteer --agents AGENT --games GAMES --seed SEED --workers 1``), one line per game as it
ends so slow agents show progress. The summary gives each agent's win rate with its Wilson
interval, mean and median count, the share of games reaching 24, 26 (a win) and 40 cards
and the best count (the designer's "24 with surprising frequency, 26 difficult, best 40"),
then, for each later agent against the first, the games won by one and lost by the other
on the same deal and the paired difference of win rates with its 95% interval.
Seeds 0..99 999 were used while tuning; report on 1 000 000 and up.

``--clairvoyant LEVEL`` adds a row for the clairvoyant of ``plunder.lab.clairvoyant`` at that
level on the same deals: it sees every card to come, so it is not a legal player (in no
agents list); its win rate is an upper reference for how much of the game play controls.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

import plunder
from plunder.agents import make_agent
from plunder.core.registry import entry
from plunder.lab.clairvoyant import label, play
from plunder.match import agent_rng
from plunder.simulate import wilson


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agents", nargs="+")
    parser.add_argument("--seed", type=int, default=1_000_000)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--quiet", action="store_true", help="no line per game")
    parser.add_argument("--clairvoyant", type=int, action="append", default=[], metavar="LEVEL",
                        help="add the clairvoyant of this level (not a legal player: it sees the cards to come)")
    args = parser.parse_args()
    game = plunder.load_game("profiteer")
    fast_play = entry("profiteer").speed.fast_play
    assert fast_play is not None
    seeds = range(args.seed, args.seed + args.games)
    counts: dict[str, list[int]] = {}
    for agent in args.agents:
        start = time.perf_counter()
        scores: list[int] = []
        built = make_agent(agent, game)
        for seed in seeds:
            result = fast_play(game, [built], [agent_rng(seed, 0)], seed)
            assert result is not None
            scores.append(int(result.scores[0]))
            if not args.quiet:
                print(f"{agent} seed {seed}: {scores[-1]} ({time.perf_counter() - start:.0f} s)", flush=True)
        counts[agent] = scores
        print(f"# {agent}: {args.games} games in {time.perf_counter() - start:.1f} s", flush=True)
    for level in args.clairvoyant:
        start = time.perf_counter()
        name = label(level) + " (sees the cards to come)"
        counts[name] = [int(play(game, seed, level).scores()[0]) for seed in seeds]
        print(f"# {name}: {args.games} games in {time.perf_counter() - start:.1f} s", flush=True)
    n = args.games
    target = int(game.params["target"])
    print(f"seeds {seeds.start}..{seeds.stop - 1}")
    print(f"{'agent':52} {'win rate (95% CI)':>22} {'mean':>6} {'median':>6} {'>=24':>6} {'>=26':>6} {'>=40':>6} {'max':>4}")
    for agent, scores in counts.items():
        wins = sum(s >= target for s in scores)
        lo, hi = wilson(wins, n)
        share = {k: sum(s >= k for s in scores) / n for k in (24, 26, 40)}
        print(f"{agent:52} {wins / n:6.1%} ({lo:5.1%}-{hi:5.1%}) {statistics.mean(scores):6.2f} "
              f"{statistics.median(scores):6g} {share[24]:6.1%} {share[26]:6.1%} {share[40]:6.1%} {max(scores):4d}")
    first, *rest = counts
    for agent in rest:
        base = [s >= target for s in counts[first]]
        other = [s >= target for s in counts[agent]]
        only_other = sum(o and not b for b, o in zip(base, other))
        only_base = sum(b and not o for b, o in zip(base, other))
        diffs = [float(o) - float(b) for b, o in zip(base, other)]
        mean = statistics.mean(diffs)
        half = 1.96 * statistics.stdev(diffs) / math.sqrt(n) if n > 1 else float("inf")
        print(f"{agent} against {first} on the same deals: wins {only_other} deals {first} loses, "
              f"loses {only_base} it wins; difference {mean:+.1%} ({mean - half:+.1%} to {mean + half:+.1%})")


if __name__ == "__main__":
    main()
