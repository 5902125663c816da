"""Pirates statistics for ``plunder simulate`` and the lab: the game's :class:`Observer`.

Every figure follows from the last position: the tracks, and the pirate's log of fights,
sightings and booty lost, which a position keeps because the score's breakdown tells it
at the end of the game.
"""

from __future__ import annotations

from ...core.capabilities import EndObserver
from .rules import PiratesState


class PiratesObserver(EndObserver[PiratesState]):
    """Reads the figures of a finished voyage off its last position."""

    def stats(self, final: PiratesState) -> dict[str, float | list[float]]:
        """The turns, the tracks at the end, the fights, sightings and booty lost."""
        return {
            "turns": float(final.turns_completed()),
            "drowned": 1.0 if final.drowned else 0.0,
            "ship": float(final.ship),
            "crew": float(final.crew),
            "notoriety": float(final.notoriety),
            "aboard": float(final.booty),
            "buried": float(final.buried),
            "combats_won": float(final.wins),
            "combats_lost": float(final.losses),
            "standoffs": float(final.standoffs),
            "sightings": float(final.sightings),
            "booty_lost": float(final.booty_lost),
        }
