"""Whether a stored game's result could have come from the rules (``GameEntry.study.plausibility``).

The lab's results store (:mod:`plunder.lab.store`) reuses a stored game only when it is
plausible: besides what holds for every game (seats, seeds, finite numbers), a game may offer
a check of its own, which knows what its rules bound -- a Profiteer count above the 52 cards
of the deck, a Pillage score beyond what its board holds, a Pirates score that its tracks do
not add up to. The check is given the game with its parameters, the stored returns and scores
(as many as seats, finite numbers: the store checks that first) and the statistics of the
game's observer (``GameEntry.study.observer``), and gives the reasons the row could not have been
played, each a short clause (``"99 cards counted, the deck has 52"``); none when it could. Only
bounds the rules truly imply belong there: a legal game is never refused.

The statistics come from a file, so a check reads them through a :class:`StatReader`, which
passes over a statistic that is absent (an older observer's) and notes one that is no number
(or no list of one number per seat) as a reason of its own.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Mapping, Sequence

#: ``plausibility(game, returns, scores, stats)``: why a stored game of ``game`` (with its
#: parameters) could not have ended with these returns, scores and observer statistics; empty
#: when it could
Plausibility = Callable[[Any, Sequence[float], Sequence[float], Mapping[str, Any]], list[str]]


def is_number(value: object) -> bool:
    """Whether ``value`` is a finite number (a bool is not one)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def whole(value: float) -> bool:
    """Whether ``value`` is a whole number."""
    return float(value).is_integer()


#: the largest whole number a reason writes out in full (a larger one in exponent form, so a
#: reason stays short whatever a file holds)
WHOLE_DIGITS = 10 ** 15


def figure(value: float) -> str:
    """``value`` as a reason quotes it: whole numbers without a decimal point, in at most a few
    characters."""
    return str(int(value)) if whole(value) and abs(value) < WHOLE_DIGITS else f"{value:g}"


class StatReader:
    """A stored game's statistics, read one by one for a check: each reader gives the figure,
    or None when it is absent or malformed; a malformed one is noted in :attr:`wrong`."""

    def __init__(self, stats: Mapping[str, Any], seats: int) -> None:
        self.stats = stats
        self.seats = seats
        #: reasons for the statistics that are there but are no figures of the kind asked for
        self.wrong: list[str] = []

    def game(self, key: str, low: float = 0.0, high: float = math.inf, whole_number: bool = True) -> float | None:
        """Game statistic ``key``: one number in ``[low, high]`` (a whole one unless
        ``whole_number`` is false)."""
        if key not in self.stats:
            return None
        value = self.stats[key]
        if not is_number(value):
            self.wrong.append(f"statistic {key} is not a number")
            return None
        return value if self._fits(key, value, low, high, whole_number) else None

    def seat(self, key: str, low: float = 0.0, high: float = math.inf, whole_number: bool = True
             ) -> list[float] | None:
        """Seat statistic ``key``: one number a seat, each in ``[low, high]`` (whole ones unless
        ``whole_number`` is false)."""
        if key not in self.stats:
            return None
        values = self.stats[key]
        if not (isinstance(values, list) and len(values) == self.seats and all(is_number(v) for v in values)):
            self.wrong.append(f"statistic {key} is not one number a seat")
            return None
        return values if all(self._fits(key, v, low, high, whole_number) for v in values) else None

    def _fits(self, key: str, value: float, low: float, high: float, whole_number: bool) -> bool:
        """Whether ``value`` of ``key`` is in range (and whole if asked); noted in :attr:`wrong` if not."""
        if whole_number and not whole(value):
            self.wrong.append(f"{key} is {figure(value)}, not a whole number")
        elif value < low:
            self.wrong.append(f"{key} is {figure(value)}, below {figure(low)}")
        elif value > high:
            self.wrong.append(f"{key} is {figure(value)}, above {figure(high)}")
        else:
            return True
        return False


def higher_wins(scores: Sequence[float]) -> list[float]:
    """The returns of a game the higher score wins: +1 the higher, -1 the lower, 0 each on a tie
    (two seats)."""
    a, b = scores
    return [0.0, 0.0] if a == b else ([1.0, -1.0] if a > b else [-1.0, 1.0])


def returns_reason(returns: Sequence[float], expected: Sequence[float], scores: Sequence[float]) -> list[str]:
    """A reason when the stored ``returns`` are not the ``expected`` returns of ``scores``."""
    if list(returns) == list(expected):
        return []
    return [f"returns {', '.join(figure(r) for r in returns)} for scores {', '.join(figure(s) for s in scores)}, "
            f"the rules give {', '.join(figure(r) for r in expected)}"]
