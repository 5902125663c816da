"""Pirates statistics for ``plunder simulate``, the lab and the score's breakdown: the game's
:class:`Observer`.

The tracks at the end are read from the last position; the fights won, lost and drawn, the
ships sighted and the booty lost are counted here, move by move, so a position keeps no
tally of them.
"""

from __future__ import annotations

from typing import Any

from ...core.game import Game
from .actions import Dice, Draw, PiratesAction
from .flow import booty_lost, fight_outcome
from .rules import Phase, PiratesState


class PiratesObserver:
    """The tallies of one voyage: fights by outcome, sightings, booty lost."""

    def __init__(self, game: Game[Any]) -> None:
        #: fights won, lost and drawn, by outcome 1, -1, 0 (PR-6)
        self.fights = {1: 0, -1: 0, 0: 0}
        #: ships drawn from the bag by a lookout (PR-5)
        self.sightings = 0
        #: booty lost in fights, with a chest left behind, or above the hold (PR-6, PR-8)
        self.booty_lost = 0

    def see(self, before: PiratesState, action: PiratesAction, after: PiratesState) -> None:
        """Count a fight's outcome, a sighting, and the booty the move lost."""
        if isinstance(action, Dice) and before.phase is not Phase.START:
            self.fights[fight_outcome(before, action.suns, action.arms)] += 1
        elif isinstance(action, Draw):
            self.sightings += 1
        self.booty_lost += booty_lost(before, action, after)

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
            "combats_won": float(self.fights[1]),
            "combats_lost": float(self.fights[-1]),
            "standoffs": float(self.fights[0]),
            "sightings": float(self.sightings),
            "booty_lost": float(self.booty_lost),
        }
