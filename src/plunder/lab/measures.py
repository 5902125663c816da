"""Figures a report draws from stored games: win rates with Wilson intervals, shares, per-seat means."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Sequence

from ..simulate import wilson
from .store import Row


@dataclass(frozen=True)
class Share:
    """A proportion with its 95% Wilson interval; ``hits`` may be fractional (a tie counted as a share of a win)."""

    hits: float
    n: int

    @property
    def p(self) -> float:
        """The observed proportion (0 when there is nothing to count)."""
        return self.hits / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval."""
        return wilson(self.hits, self.n)

    def at(self, z: float) -> tuple[float, float]:
        """The Wilson interval of ``z`` standard errors (``z`` 1.96: 95%)."""
        return wilson(self.hits, self.n, z)

    @property
    def half(self) -> float:
        """The larger distance from the proportion to an end of its interval (the '±')."""
        lo, hi = self.interval
        return max(self.p - lo, hi - self.p)

    def words(self) -> str:
        """'34% (±1%)' style text."""
        return f"{pct(self.p)} (±{pct(self.half)})"


def pct(x: float) -> str:
    """A proportion as a percentage, one decimal below 10% and above 90% (so 99.5% never reads 100%)."""
    v = 100 * x
    return f"{v:.1f}%" if 0 < v < 10 or 90 < v < 100 else f"{v:.0f}%"


def agents_of(rows: Sequence[Row]) -> list[str]:
    """The distinct agents seated, in first-seen order."""
    return list(dict.fromkeys(a for r in rows for a in r.seats))


def wins(rows: Sequence[Row], agent: str | None = None, seat: int | None = None) -> Share:
    """Wins (return > 0) of ``agent`` (any if None) in ``seat`` (any if None)."""
    hits = n = 0
    for r in rows:
        for s, a in enumerate(r.seats):
            if (agent is None or a == agent) and (seat is None or s == seat):
                n += 1
                hits += r.returns[s] > 0
    return Share(hits, n)


def win_shares(row: Row) -> list[float]:
    """Each seat's share of the win: 1 for a lone winner, split among those tied at the top."""
    top = max(row.returns)
    tied = sum(1 for r in row.returns if r == top)
    return [1.0 / tied if r == top else 0.0 for r in row.returns]


def seat_points(rows: Sequence[Row], seat: int) -> Share:
    """``seat``'s points: a win counts 1, a tie at the top the seat's share of it (a half between
    two); over every seat they sum to one a game, so the even share is 1/players even when games tie."""
    return Share(sum(win_shares(r)[seat] for r in rows), len(rows))


def seat_record(rows: Sequence[Row], seat: int) -> tuple[int, int, int]:
    """``seat``'s wins (alone at the top), draws (tied at the top) and losses."""
    shares = [win_shares(r)[seat] for r in rows]
    won = sum(1 for x in shares if x == 1.0)
    drawn = sum(1 for x in shares if 0.0 < x < 1.0)
    return won, drawn, len(shares) - won - drawn


def ties(rows: Sequence[Row]) -> Share:
    """Games where no seat's return is positive and not every seat lost: draws."""
    return Share(sum(1 for r in rows if len(r.returns) > 1 and all(x == 0 for x in r.returns)), len(rows))


def scores_of(rows: Sequence[Row], agent: str) -> list[float]:
    """Every score ``agent`` made."""
    return [r.scores[s] for r in rows for s, a in enumerate(r.seats) if a == agent]


def reaching(rows: Sequence[Row], agent: str, level: float) -> Share:
    """Seats of ``agent`` whose score reached ``level``."""
    return at_least(scores_of(rows, agent), level)


def at_least(values: Sequence[float], level: float) -> Share:
    """The share of ``values`` at ``level`` or above."""
    return Share(sum(1 for x in values if x >= level), len(values))


def seat_stat(rows: Sequence[Row], key: str, agent: str) -> list[float]:
    """Values of the per-seat statistic ``key`` (a list in the game's statistics) for ``agent``'s seats."""
    out: list[float] = []
    for r in rows:
        v = r.stats.get(key)
        if isinstance(v, list):
            out.extend(float(v[s]) for s, a in enumerate(r.seats) if a == agent)
    return out


def game_stat(rows: Sequence[Row], key: str) -> list[float]:
    """Values of the per-game statistic ``key`` (a number in the game's statistics)."""
    return [float(r.stats[key]) for r in rows if isinstance(r.stats.get(key), (int, float))]


def quantile(ordered: Sequence[float], q: float) -> float:
    """The ``q`` quantile of sorted values, interpolated between neighbours (numpy's default)."""
    at = q * (len(ordered) - 1)
    low = int(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


def quantiles(values: Sequence[float]) -> str:
    """The median, quartiles and 10% and 90% quantiles of ``values`` (at least one) in words."""
    xs = sorted(values)
    q = [f"{quantile(xs, p):.4g}" for p in (0.5, 0.25, 0.75, 0.1, 0.9)]
    return f"median {q[0]} (quartiles {q[1]} to {q[2]}; 10% to 90% of games: {q[3]} to {q[4]}; n={len(xs)})"


def mean(xs: Sequence[float]) -> float | None:
    """The mean; ``None`` for nothing (the mean of nothing is no number, and a report that
    printed 0 would state a figure it never measured)."""
    return statistics.fmean(xs) if xs else None
