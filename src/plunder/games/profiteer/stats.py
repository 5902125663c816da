"""Profiteer statistics for ``plunder simulate``, the lab and the fast paths: the game's
:class:`Observer`.

Every figure follows from the last position: the passes, why the game ended, and the
counts of flips, wars, switches, gifts and reshuffles that a position keeps because the
score's breakdown tells them at the end of the game. The fast paths (:mod:`.fast`,
:mod:`.batch`) give their results' figures by the same :func:`final_stats`.
"""

from __future__ import annotations

from ...core.capabilities import EndObserver
from .flow import Ending
from .rules import ProfiteerState


def final_stats(final: ProfiteerState) -> dict[str, float | list[float]]:
    """Passes, flips, wars, switches, gifts and why the game ended."""
    return {
        "passes": float(final.round), "flips": float(final.flips), "wars": float(final.wars),
        "war_rounds": float(final.war_rounds), "war_cards": float(final.war_cards),
        "switches": float(final.switches), "gifts": float(final.gifts), "reshuffles": float(final.reshuffles),
        "end_unequal": float(final.ending == Ending.UNEQUAL), "end_declined": float(final.ending == Ending.DECLINED),
        "end_empty_side": float(final.ending == Ending.EMPTY), "end_max_rounds": float(final.ending == Ending.ROUNDS),
    }


class ProfiteerObserver(EndObserver[ProfiteerState]):
    """Reads the figures of a finished game off its last position (:func:`final_stats`)."""

    def stats(self, final: ProfiteerState) -> dict[str, float | list[float]]:
        """Passes, flips, wars, switches, gifts and why the game ended."""
        return final_stats(final)
