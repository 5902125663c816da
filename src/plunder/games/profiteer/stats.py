"""Profiteer statistics for ``plunder simulate``, the lab, the fast paths and the score's
breakdown: the game's :class:`Observer`.

The passes and why the game ended are read from the last position; the flips, wars,
switches, gifts and reshuffles are counted here, move by move, by the tallies a working copy
keeps while it applies the move (:data:`.flow.TALLIES`), so a position keeps no count of them.
The fast paths (:mod:`.fast`, :mod:`.batch`) count the same tallies on their own working
copies and give their results' figures by the same :func:`final_stats`.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...core.game import Game
from .actions import ProfiteerAction
from .flow import NO_TALLIES, Ending
from .rules import ProfiteerState


def final_stats(final: ProfiteerState, tallies: Sequence[int]) -> dict[str, float | list[float]]:
    """Passes, flips, wars, switches, gifts and why the game ended; ``tallies`` are the counts
    of the whole game, in the order of :data:`.flow.TALLIES`."""
    flips, wars, war_rounds, switches, war_cards, gifts, reshuffles = tallies
    return {
        "passes": float(final.round), "flips": float(flips), "wars": float(wars),
        "war_rounds": float(war_rounds), "war_cards": float(war_cards),
        "switches": float(switches), "gifts": float(gifts), "reshuffles": float(reshuffles),
        "end_unequal": float(final.ending == Ending.UNEQUAL), "end_declined": float(final.ending == Ending.DECLINED),
        "end_empty_side": float(final.ending == Ending.EMPTY), "end_max_rounds": float(final.ending == Ending.ROUNDS),
    }


class ProfiteerObserver:
    """Counts a game's flips, wars, switches, gifts and reshuffles, move by move."""

    def __init__(self, game: Game[Any]) -> None:
        #: the counts so far, in the order of :data:`.flow.TALLIES`
        self.tallies = NO_TALLIES

    def see(self, before: ProfiteerState, action: ProfiteerAction, after: ProfiteerState) -> None:
        """Count what the move went through: ``action`` applied again to a working copy of
        ``before`` (the rules' own work), whose tallies start from those so far."""
        work = before.working(self.tallies)
        work.apply(action)
        self.tallies = work.tallies()

    def stats(self, final: ProfiteerState) -> dict[str, float | list[float]]:
        """Passes, flips, wars, switches, gifts and why the game ended."""
        return final_stats(final, self.tallies)
