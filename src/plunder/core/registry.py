"""Which games exist, how to load them, and what each offers its adapters.

A game is found through the ``plunder.games`` entry-point group: an installed package
registers ``<id> = "<module>:ENTRY"``, ``ENTRY`` being a :class:`GameEntry`
(``docs/new-game.md``). Plunder's own games, the packages of :data:`OWN_PACKAGE`, register
there too (``pyproject.toml``), and are found by their package where a source tree's metadata
does not name them. Nothing here names a game: a game says where it stands in a list
(:attr:`Declaration.order`). Looking the games up imports none; :func:`entry` imports the one
asked for, listing them (:func:`game_ids`) imports all, and :func:`broken_games` the other
packages' games, so that one that fails to load is left out with a one-line reason and the
others still load. An entry that loads is checked against its declaration and its groups
(:mod:`plunder.core.entry_check`) before any game of it is played; one with problems is left
out the same way.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import pkgutil
import re
from dataclasses import dataclass, field
from typing import Any, Generic, Mapping

from .capabilities import A, Analysis, Client, Learning, Presentation, Puzzles, S, Speed, Strength, Study
from .errors import ParameterError, one_line
from .declaration import Declaration
from .entry_check import entry_problems
from .game import Game

#: the package whose subpackages are Plunder's own games, each ``<OWN_PACKAGE>.<id>`` with its ``ENTRY``
OWN_PACKAGE = "plunder.games"
#: the entry-point group a package registers its games in (``<id> = "<module>:ENTRY"``)
ENTRY_POINT_GROUP = "plunder.games"
#: what a game id may be: it names the game in commands, file names and web addresses
GAME_ID = re.compile(r"[a-z][a-z0-9_]{0,31}")
#: how much of a plugin's error a one-line report quotes
MAX_REASON_CHARS = 200


@dataclass(frozen=True)
class GameEntry(Generic[S, A]):
    """What a game package offers: its rules class, what the game is, and the capability groups
    it fills (:mod:`plunder.core.capabilities`). Only ``game_class`` and ``declaration`` are
    required; a group left out is offered empty, and every adapter then falls back on the rules
    alone."""

    #: the rules (:class:`plunder.core.game.Game` subclass)
    game_class: type[Game[Any]]
    #: what the game is: its seat range, chance, hidden information, zero-sum, its place in lists
    declaration: Declaration
    #: how the game shows itself: pictures, words, narration
    presentation: Presentation[S, A] = field(default_factory=Presentation)
    #: how the game plays well: its agents, levels, hint, search knowledge, solver
    strength: Strength[S, A] = field(default_factory=Strength)
    #: its fast paths for batch simulation
    speed: Speed = field(default_factory=Speed)
    #: its own web files and board editor
    client: Client = field(default_factory=Client)
    #: what simulate and the lab learn of it: its observer's statistics, its report's figures,
    #: the bounds of a stored result
    study: Study[S] = field(default_factory=Study)
    #: what the reinforcement-learning adapters need: its numeric observation
    learning: Learning = field(default_factory=Learning)
    #: how its positions are valued and its moves judged (``plunder analyse``); no group, no analysis
    analysis: Analysis[S] | None = None
    #: how it makes and proves puzzles (``plunder puzzles``); no group, no puzzles
    puzzles: Puzzles | None = None


def game_ids() -> list[str]:
    """The ids of every installed game that loads, in the order the games ask for
    (:attr:`Declaration.order`, then by id). Every game is loaded to know it."""
    found = _found()
    loaded = [(e.declaration.order, g) for g in found.sources if isinstance(e := _load(g), GameEntry)]
    return [g for _, g in sorted(loaded)]


def broken_games(own: bool = False) -> list[str]:
    """One line per registered game that was left out, saying which and why (an import that
    failed, an ``ENTRY`` that is no :class:`GameEntry`, an id taken or not allowed, an entry
    whose declaration and groups do not hold together), by id.
    The other packages' games are loaded to know it; Plunder's own are only when ``own`` is
    set (every command asks this, and one that plays a single game should import that one
    alone): otherwise one of them that fails says why when it is asked for (:func:`entry`)."""
    found = _found()
    failed = [(g, why) for g, source in found.sources.items()
              if (own or not source.startswith(OWN_PACKAGE + ".")) and isinstance(why := _load(g), str)]
    return [line for _, line in sorted([*found.refused, *failed], key=lambda pair: pair[0])]


def is_game(game_id: str) -> bool:
    """Whether ``game_id`` names an installed game that loads; that game alone is loaded."""
    return game_id in _found().sources and isinstance(_load(game_id), GameEntry)


@dataclass(frozen=True)
class _Found:
    """The games registered, looked up without importing one: where each id's ``ENTRY`` is
    (``module:attribute``), and the one-line reports of the registrations refused before
    loading, each with the id it was registered by."""

    sources: Mapping[str, str]
    refused: tuple[tuple[str, str], ...]


@functools.cache
def _found() -> _Found:
    """The games registered, looked up once: :func:`entry` is asked at every picture the web
    server draws, and looking for modules and entry points reads the disk.

    Plunder's own games are the packages of :mod:`plunder.games`; each registers in
    :data:`ENTRY_POINT_GROUP` like any package's game, and an id one of them registers is
    refused to every other package. One of them that the entry points do not name (a source
    tree whose installed metadata predates it) is found by its package all the same, and an
    entry point naming a package of theirs that is gone (metadata newer than the source tree)
    is passed over."""
    # imported here, not with the module: it costs a third of ``plunder --help``, which lists no game
    import importlib.metadata

    spec = importlib.util.find_spec(OWN_PACKAGE)
    folders = list(spec.submodule_search_locations or []) if spec is not None else []
    own = {name: f"{OWN_PACKAGE}.{name}" for _, name, is_package in pkgutil.iter_modules(folders) if is_package}
    sources: dict[str, str] = {}
    refused: list[tuple[str, str]] = []
    for point in sorted(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        name = point.name
        if point.module.startswith(OWN_PACKAGE + ".") and point.module not in own.values():
            continue  # installed metadata naming a game package this source tree no longer has
        if name in own:
            if point.module == own[name]:
                sources[name] = point.value
            else:
                refused.append((name, f"game {name!r} ({point.value}) left out: {name!r} is a built-in game's id"))
        elif name in sources:
            refused.append((name, f"game {name!r} ({point.value}) left out: another package registers {name!r} too"))
        elif not GAME_ID.fullmatch(name):
            refused.append((name, f"game {name[:40]!r} ({point.value}) left out: an id is a lowercase letter, "
                            f"then up to 31 lowercase letters, digits or _"))
        else:
            sources[name] = point.value
    for name, module in own.items():
        sources.setdefault(name, f"{module}:ENTRY")
    return _Found(sources, tuple(refused))


@functools.cache
def _checked(game_id: str) -> GameEntry[Any, Any] | list[str]:
    """The entry of registered game ``game_id``, loaded and checked once, or the problems that
    leave it out, each a clause."""
    module, _, attribute = _found().sources[game_id].partition(":")
    try:
        loaded = getattr(importlib.import_module(module), attribute)
    except Exception as exc:  # a game may fail in any way; the other games still load
        return [f"it failed to load: {one_line(exc, MAX_REASON_CHARS)}"]
    problems = _entry_problems(game_id, loaded)
    if problems:
        return problems
    found: GameEntry[Any, Any] = loaded
    return found


def _load(game_id: str) -> GameEntry[Any, Any] | str:
    """The entry of registered game ``game_id``, or the one line saying why it was left out."""
    checked = _checked(game_id)
    if isinstance(checked, GameEntry):
        return checked
    return f"game {game_id!r} ({_found().sources[game_id]}) left out: {_clauses(checked)}"


def _entry_problems(name: str, loaded: object) -> list[str]:
    """Why ``loaded`` cannot be game ``name``'s entry (none when it can): not an entry of that
    id, or an entry whose declaration and groups do not hold together
    (:func:`~plunder.core.entry_check.entry_problems`)."""
    if not isinstance(loaded, GameEntry):
        return [f"it names a {type(loaded).__name__}, not a GameEntry"]
    cls = loaded.game_class
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        return ["its game_class is not a subclass of plunder.core.game.Game"]
    if getattr(cls, "id", None) != name:
        return [f"its game_class.id is {getattr(cls, 'id', None)!r}, not {name!r}"]
    try:
        return entry_problems(loaded)
    except Exception as exc:  # a check reads the game's own code (its rules load), which may fail in any way
        return [f"checking it failed: {one_line(exc, MAX_REASON_CHARS)}"]


def problems_of(game_id: str) -> list[str]:
    """Every problem that leaves game ``game_id`` out, each a clause: none for a game that
    loads or an id no package registers, the one line of a registration refused before loading
    (an id taken or not allowed). What the conformance check reports of a game before playing it."""
    found = _found()
    if game_id not in found.sources:
        return [line for name, line in found.refused if name == game_id]
    checked = _checked(game_id)
    return [] if isinstance(checked, GameEntry) else checked


def _clauses(problems: list[str]) -> str:
    """``problems`` in one line: those that fit in :data:`MAX_REASON_CHARS` characters (the
    first at least, cut there), then how many more there are."""
    shown = problems[0][:MAX_REASON_CHARS]
    for count, problem in enumerate(problems[1:], 1):
        if len(shown) + len(problem) + 2 > MAX_REASON_CHARS:
            return f"{shown} (and {len(problems) - count} more)"
        shown += "; " + problem
    return shown



def entry(game_id: str) -> GameEntry[Any, Any]:
    """The :class:`GameEntry` of ``game_id``, loading that game alone; an unknown id, or a game
    left out, raises :class:`ParameterError`."""
    found = _found()
    if game_id in found.sources:
        loaded = _load(game_id)
        if isinstance(loaded, str):
            raise ParameterError(loaded)
        return loaded
    for name, line in found.refused:
        if name == game_id:
            raise ParameterError(line)
    raise ParameterError(f"unknown game {game_id!r}; games are: {', '.join(game_ids())}")


def load_game(game_id: str, preset: str | None = None, **params: Any) -> Game:
    """Load ``game_id`` with ``params`` given as keywords (text or Python values).

    ``preset`` names a parameter set from the game's ``presets``; explicit keywords
    override it. Unknown games, presets, parameters or bad values raise
    :class:`ParameterError` naming the offender and the allowed choices.
    """
    return entry(game_id).game_class.load(preset, **params)
