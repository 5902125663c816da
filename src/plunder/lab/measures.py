"""Figures a report draws from stored games: win rates with Wilson intervals, shares, per-seat means."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Sequence

from ..simulate import wilson
from .store import Row


@dataclass(frozen=True)
class Share:
    """A proportion with its 95% Wilson interval."""

    hits: int
    n: int

    @property
    def p(self) -> float:
        """The observed proportion (0 when there is nothing to count)."""
        return self.hits / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval."""
        return wilson(self.hits, self.n)

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


def ties(rows: Sequence[Row]) -> Share:
    """Games where no seat's return is positive and not every seat lost: draws."""
    return Share(sum(1 for r in rows if len(r.returns) > 1 and all(x == 0 for x in r.returns)), len(rows))


def scores_of(rows: Sequence[Row], agent: str) -> list[float]:
    """Every score ``agent`` made."""
    return [r.scores[s] for r in rows for s, a in enumerate(r.seats) if a == agent]


def reaching(rows: Sequence[Row], agent: str, level: float) -> Share:
    """Seats of ``agent`` whose score reached ``level``."""
    scores = scores_of(rows, agent)
    return Share(sum(1 for x in scores if x >= level), len(scores))


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


def mean(xs: Sequence[float]) -> float:
    """The mean, 0 for nothing."""
    return statistics.fmean(xs) if xs else 0.0
