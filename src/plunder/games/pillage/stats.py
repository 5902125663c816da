"""Pillage statistics for ``plunder simulate`` and the lab: the game's :class:`Observer`.

The boxes each seat captured, by kind of content, are read from the last position; the
turns the game lasted are counted here, move by move, so a position keeps no count of them.
"""

from __future__ import annotations

from typing import Any

from ...core.game import Action, Game
from .contents import Commodity, Doubloons, Modifier
from .rules import PillageState


class PillageObserver:
    """The turns of one game: a turn passes after every line that captures nothing (PP-4)."""

    def __init__(self, game: Game[Any]) -> None:
        #: lines that passed the turn so far
        self.passes = 0

    def see(self, before: PillageState, action: Action, after: PillageState) -> None:
        """Count a passed turn: the mover changed."""
        self.passes += before.mover != after.mover

    def stats(self, final: PillageState) -> dict[str, float | list[float]]:
        """Boxes captured per seat, and by kind of content; the turns the game lasted."""
        kinds = {"doubloons": Doubloons, "commodity": Commodity, "modifier": Modifier}
        boxes = list(zip(final.owner, final.contents))
        return {
            "boxes": [float(final.owner.count(0)), float(final.owner.count(1))],
            **{f"boxes_{name}": [float(sum(1 for o, c in boxes if o == p and type(c) is kind)) for p in (0, 1)]
               for name, kind in kinds.items()},
            # the turns begun: the first, and one more after each pass
            "turns": float(self.passes + 1),
        }
