"""An observer's statistics (:data:`Stats`) read back as the whole numbers a game's breakdown tells.

A game's :class:`~plunder.core.capabilities.Observer` gives its statistics as floats (a game
statistic) or lists of floats (a seat statistic); ``Presentation.breakdown`` is handed them
(``{}`` for a game without an observer) and tells counts, or item by item where an observer
gives them so (one per round). A figure missing, or of the other shape, reads as zero (no
items), so a breakdown never fails on what an observer did not count.
"""

from __future__ import annotations

from typing import Mapping

#: what an observer gives: game statistics (numbers) and seat statistics (a number per seat)
Stats = Mapping[str, float | list[float]]


def count(stats: Stats, name: str) -> int:
    """Game statistic ``name`` as a whole number; 0 where it is missing."""
    figure = stats.get(name, 0.0)
    return int(figure) if isinstance(figure, (int, float)) else 0


def seat_counts(stats: Stats, name: str, seats: int) -> list[int]:
    """Seat statistic ``name`` as a whole number per seat; 0 for each where it is missing."""
    figure = stats.get(name)
    return [int(x) for x in figure] if isinstance(figure, list) and len(figure) == seats else [0] * seats


def item_counts(stats: Stats, name: str) -> list[int]:
    """Item-by-item figure ``name`` (an :class:`~plunder.core.capabilities.Itemiser`'s: one
    number per round ...) as whole numbers; [] where it is missing or not a list."""
    figure = stats.get(name)
    return [int(x) for x in figure] if isinstance(figure, list) else []
