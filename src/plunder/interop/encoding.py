"""The observation and fixed action space of a game, as the game offers them
(``GameEntry.learning.observation``, :mod:`plunder.core.observation`); ``docs/interop.md`` lists each game's."""

from __future__ import annotations

from ..core.errors import ParameterError
from ..core.game import Game
from ..core.observation import Encoding
from ..core.registry import entry

__all__ = ["Encoding", "encoding"]


def encoding(game: Game) -> Encoding:
    """The observation and action space of ``game`` with its parameters; a game that offers
    none raises :class:`ParameterError`."""
    build = entry(game.id).learning.observation
    if build is None:
        raise ParameterError(f"{game.id} offers no observation for learning (GameEntry.learning.observation)")
    return build(game)
