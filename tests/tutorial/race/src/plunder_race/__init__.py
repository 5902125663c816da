"""Race to the goal, a game from outside Plunder written by following docs/new-game.md
(``tests/test_tutorial_walk.py`` installs it in a temporary folder, checks it and plays it)."""

from __future__ import annotations

from plunder.core.capabilities import Presentation
from plunder.core.declaration import Declaration
from plunder.core.registry import GameEntry

from .actions import Add
from .rules import RaceGame, RaceState

HOW_TO_PLAY = """\
Race to the goal: 2 to 4 players take turns adding to a running total, which starts at 0.
On your turn add 1, 2 or 3 (the `most` parameter may allow more): type add 2, or click.
The total may never pass the goal (21 unless set otherwise).
Whoever brings the total to the goal exactly wins; everyone else loses.
"""

#: what Plunder finds through the ``plunder.games`` entry point
ENTRY: GameEntry[RaceState, Add] = GameEntry(
    game_class=RaceGame,
    declaration=Declaration(min_seats=2, max_seats=4, chance=False),
    presentation=Presentation(pitch="Race to the goal: add 1 to 3 to the total in turn; who reaches it exactly wins.",
                              how_to_play=HOW_TO_PLAY),
)

__all__ = ["ENTRY", "RaceGame", "RaceState"]
