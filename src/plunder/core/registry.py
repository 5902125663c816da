"""Which games exist, how to load them, and what each offers its adapters.

Each game package ``plunder.games.<id>`` exposes ``ENTRY``, a :class:`GameEntry`.
Packages are imported lazily so that ``plunder list`` stays fast.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from dataclasses import dataclass, field
from typing import Any, Callable, Generic

from .capabilities import A, Client, Presentation, S, Speed, Strength
from .errors import ParameterError
from .game import Game
from .observation import Encoding

#: game id -> module holding its ``ENTRY``
GAME_MODULES: dict[str, str] = {
    "pillage": "plunder.games.pillage",
    "pirates": "plunder.games.pirates",
    "hubs": "plunder.games.hubs",
    "profiteer": "plunder.games.profiteer",
    "crossroads": "plunder.games.crossroads",
}


@dataclass(frozen=True)
class GameEntry(Generic[S, A]):
    """What a game package offers: its rules class and the capability groups it fills
    (:mod:`plunder.core.capabilities`). Only ``game_class`` is required; a group left out is
    offered empty, and every adapter then falls back on the rules alone."""

    #: the rules (:class:`plunder.core.game.Game` subclass)
    game_class: type[Game[Any]]
    #: how the game shows itself: pictures, words, narration
    presentation: Presentation[S, A] = field(default_factory=Presentation)
    #: how the game plays well: its agents, levels, hint, search knowledge, solver
    strength: Strength[S, A] = field(default_factory=Strength)
    #: its fast paths for batch simulation
    speed: Speed = field(default_factory=Speed)
    #: its own web files and board editor
    client: Client = field(default_factory=Client)
    #: ``observation(game)``: the numeric observation and fixed action space of ``game`` with
    #: its parameters, for the reinforcement-learning adapters (:mod:`plunder.core.observation`)
    observation: Callable[[Game[Any]], Encoding] | None = None


def game_ids() -> list[str]:
    """The ids of every installed game, in table order."""
    return list(_installed())


@functools.cache
def _installed() -> tuple[str, ...]:
    """The installed games, looked up once: :func:`entry` is asked at every picture the web
    server draws, and looking for a module reads the disk."""
    return tuple(g for g, module in GAME_MODULES.items() if importlib.util.find_spec(module) is not None)


def entry(game_id: str) -> GameEntry[Any, Any]:
    """The :class:`GameEntry` of ``game_id``; an unknown id raises :class:`ParameterError`."""
    if game_id not in game_ids():
        raise ParameterError(f"unknown game {game_id!r}; games are: {', '.join(game_ids())}")
    module = importlib.import_module(GAME_MODULES[game_id])
    found: GameEntry[Any, Any] = module.ENTRY
    return found


def load_game(game_id: str, preset: str | None = None, **params: Any) -> Game:
    """Load ``game_id`` with ``params`` given as keywords (text or Python values).

    ``preset`` names a parameter set from the game's ``presets``; explicit keywords
    override it. Unknown games, presets, parameters or bad values raise
    :class:`ParameterError` naming the offender and the allowed choices.
    """
    return entry(game_id).game_class.load(preset, **params)
