"""The Pirates tables of docs/ai.md and docs/rules/pirates.md: per agent, the median score,
the share of games at or above the goal (PR-14) and the share of drownings, each with its 95%
interval, over games ``SEED .. SEED + GAMES - 1`` played as ``plunder simulate`` plays them.

Run: .venv/bin/python bench/pirates_tables.py [GAMES] [SEED] [AGENT ...]
e.g. .venv/bin/python bench/pirates_tables.py 2000 1000000 greedy random hard

The median's interval is the distribution-free one from order statistics (the ranks the
binomial(n, 1/2) puts 2.5% either side of); shares use the Wilson interval.
"""

from __future__ import annotations

import math
import statistics
import sys
import time

from plunder.simulate import run_games, wilson

Z95 = 1.959963984540054


def median_interval(values: list[float]) -> tuple[float, float]:
    """A 95% interval for the median of the population ``values`` were drawn from."""
    ordered = sorted(values)
    n = len(ordered)
    half = Z95 * math.sqrt(n) / 2
    low = max(0, math.floor(n / 2 - half) - 1)
    high = min(n - 1, math.ceil(n / 2 + half))
    return ordered[low], ordered[high]


def share(count: int, n: int) -> str:
    """``count`` of ``n`` as a percentage with its Wilson interval."""
    lo, hi = wilson(count, n)
    return f"{count} = {count / n:.1%} ({lo:.1%}–{hi:.1%})"


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    agents = sys.argv[3:] or ["greedy", "random"]
    print(f"pirates (defaults), {games} games a row, seeds {seed}..{seed + games - 1}")
    print("| agent | games | median score (95% CI) | mean score | score ≥ goal 100 (95% CI) | drowned (95% CI) "
          "| mean turns | seconds |")
    print("|---|---:|---|---:|---|---|---:|---:|")
    scores: dict[str, list[float]] = {}
    for agent in agents:
        start = time.perf_counter()
        # game i's result at index i: the same seed and sea for every agent (for the paired comparison)
        played = [result for chunk in run_games("pirates", {}, [agent], range(games), seed) for _, result in chunk]
        scores[agent] = [score[0] for _, _, score, _ in played]
        wins = sum(returns[0] > 0 for _, returns, _, _ in played)
        drowned = int(sum(stats["drowned"] for _, _, _, stats in played))
        turns = statistics.fmean(stats["turns"] for _, _, _, stats in played)
        lo, hi = median_interval(scores[agent])
        print(f"| `{agent}` | {games} | {statistics.median(scores[agent]):g} ({lo:g}–{hi:g}) "
              f"| {statistics.fmean(scores[agent]):.1f} | {share(wins, games)} "
              f"| {share(drowned, games)} | {turns:.2f} "
              f"| {time.perf_counter() - start:.0f} |", flush=True)
    paired(agents, scores, 100)


def paired(agents: list[str], scores: dict[str, list[float]], goal: float) -> None:
    """Each agent after the first against the first, game by game on the same seeds: the games
    only one of them brought to the goal, and the difference of the shares at the goal with its
    95% interval (normal, over the per-game differences)."""
    first = agents[0]
    for agent in agents[1:]:
        diffs = [float(b >= goal) - float(a >= goal) for a, b in zip(scores[first], scores[agent])]
        n = len(diffs)
        mean = statistics.fmean(diffs)
        se = statistics.stdev(diffs) / math.sqrt(n) if n > 1 else math.inf
        print(f"`{agent}` against `{first}` on the same {n} seeds: at the goal only with `{agent}` in "
              f"{diffs.count(1.0)}, only with `{first}` in {diffs.count(-1.0)}; share at the goal "
              f"{mean:+.1%} ({mean - Z95 * se:+.1%} to {mean + Z95 * se:+.1%})")


if __name__ == "__main__":
    main()