"""Which games exist, how to load them, and what each offers its adapters.

A game is found through the ``plunder.games`` entry-point group: an installed package
registers ``<id> = "<module>:ENTRY"``, ``ENTRY`` being a :class:`GameEntry`
(``docs/new-game.md``). The five built-in games register there too (``pyproject.toml``), and
are also known by :data:`GAME_MODULES`, which fixes their order and finds them in a source tree
whose metadata predates the entry points. Built-in packages are imported lazily so that
``plunder list`` stays fast; another package's game is imported when the games are first
listed, so that one that fails to load is left out with a one-line reason
(:func:`broken_games`) and the others still load.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Generic, Mapping

from .capabilities import A, Analysis, Client, Observer, Presentation, S, Speed, Strength
from .errors import ParameterError
from .figures import Figures
from .game import Game

if TYPE_CHECKING:  # numpy, under the observation encodings, is not loaded to list the commands
    from .observation import Encoding

#: the built-in games in table order: game id -> module holding its ``ENTRY``
GAME_MODULES: dict[str, str] = {
    "pillage": "plunder.games.pillage",
    "pirates": "plunder.games.pirates",
    "hubs": "plunder.games.hubs",
    "profiteer": "plunder.games.profiteer",
    "crossroads": "plunder.games.crossroads",
}
#: the entry-point group a package registers its games in (``<id> = "<module>:ENTRY"``)
ENTRY_POINT_GROUP = "plunder.games"
#: what a game id may be: it names the game in commands, file names and web addresses
GAME_ID = re.compile(r"[a-z][a-z0-9_]{0,31}")
#: how much of a plugin's error a one-line report quotes
MAX_REASON_CHARS = 200


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
    #: what its lab report adds: its length measure, sentences and charts
    figures: Figures = field(default_factory=Figures)
    #: ``observation(game)``: the numeric observation and fixed action space of ``game`` with
    #: its parameters, for the reinforcement-learning adapters (:mod:`plunder.core.observation`)
    observation: Callable[[Game[Any]], Encoding] | None = None
    #: ``observer(game)``: a fresh :class:`~plunder.core.capabilities.Observer` of one game of
    #: ``game``, shown every move (before, action, after) and asked for the game's statistics at
    #: its end (``plunder simulate``, the lab). The tallies only statistics read live there, not
    #: in the states, so a state holds its position; no observer, no statistics
    observer: Callable[[Game[Any]], Observer[S]] | None = None
    #: how its positions are valued and its moves judged (``plunder analyse``); no group, no analysis
    analysis: Analysis[S] | None = None


def game_ids() -> list[str]:
    """The ids of every installed game that loads: the built-ins in table order, then the
    other packages' games by id."""
    return list(_catalog().ids)


def broken_games() -> list[str]:
    """One line per registered game that was left out, saying which and why (an import that
    failed, an ``ENTRY`` that is no :class:`GameEntry`, an id taken or not allowed)."""
    return [line for _, line in _catalog().broken]


@dataclass(frozen=True)
class _Catalog:
    """The games found: their ids in table order, the loaded entries of the other packages'
    games, and the one-line reports of those left out, each with the id it was registered by."""

    ids: tuple[str, ...]
    plugins: Mapping[str, GameEntry[Any, Any]]
    broken: tuple[tuple[str, str], ...]


@functools.cache
def _catalog() -> _Catalog:
    """The games, looked up once: :func:`entry` is asked at every picture the web server
    draws, and looking for modules and entry points reads the disk."""
    # imported here, not with the module: it costs a third of ``plunder --help``, which lists no game
    import importlib.metadata

    builtins = [g for g, module in GAME_MODULES.items() if importlib.util.find_spec(module) is not None]
    plugins: dict[str, GameEntry[Any, Any]] = {}
    broken: list[tuple[str, str]] = []
    for point in sorted(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        name = point.name
        if name in GAME_MODULES:
            if point.module != GAME_MODULES[name]:
                broken.append((name, f"game {name!r} ({point.value}) left out: {name!r} is a built-in game's id"))
            continue
        if name in plugins:
            broken.append((name, f"game {name!r} ({point.value}) left out: another package registers {name!r} too"))
            continue
        if not GAME_ID.fullmatch(name):
            broken.append((name, f"game {name[:40]!r} ({point.value}) left out: an id is a lowercase letter, "
                          f"then up to 31 lowercase letters, digits or _"))
            continue
        try:
            loaded = point.load()
        except Exception as exc:  # a plugin may fail in any way; the other games still load
            broken.append((name, f"game {name!r} ({point.value}) left out: it failed to load: {_reason(exc)}"))
            continue
        problem = _entry_problem(name, loaded)
        if problem:
            broken.append((name, f"game {name!r} ({point.value}) left out: {problem}"))
        else:
            plugins[name] = loaded
    return _Catalog(tuple(builtins) + tuple(plugins), plugins, tuple(broken))


def _entry_problem(name: str, loaded: object) -> str:
    """Why ``loaded`` cannot be game ``name``'s entry ("" when it can)."""
    if not isinstance(loaded, GameEntry):
        return f"it names a {type(loaded).__name__}, not a GameEntry"
    cls = loaded.game_class
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        return "its game_class is not a subclass of plunder.core.game.Game"
    if getattr(cls, "id", None) != name:
        return f"its game_class.id is {getattr(cls, 'id', None)!r}, not {name!r}"
    return ""


def _reason(exc: Exception) -> str:
    """``exc`` in one line of at most :data:`MAX_REASON_CHARS` characters."""
    text = f"{type(exc).__name__}: " + " ".join(str(exc).split())
    return text if len(text) <= MAX_REASON_CHARS else text[: MAX_REASON_CHARS - 3] + "..."


def entry(game_id: str) -> GameEntry[Any, Any]:
    """The :class:`GameEntry` of ``game_id``; an unknown id raises :class:`ParameterError`."""
    catalog = _catalog()
    if game_id not in catalog.ids:
        for name, line in catalog.broken:
            if name == game_id:
                raise ParameterError(line)
        raise ParameterError(f"unknown game {game_id!r}; games are: {', '.join(catalog.ids)}")
    if game_id in catalog.plugins:
        return catalog.plugins[game_id]
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
