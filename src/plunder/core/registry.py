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
import importlib.metadata
import importlib.util
import random
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol, Sequence

from .agent import Agent, AgentFactory, Evaluator
from .errors import ParameterError
from .game import Action, Game, State
from .svg import Shown

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
class GameEntry:
    """What a game package offers: its rules class and its hooks for the adapters.

    Every hook but ``game_class`` is optional; each game module names its function after the
    hook it fills (``render``, ``describe``, ``svg`` ...).
    """

    #: the rules (:class:`plunder.core.game.Game` subclass)
    game_class: type[Game]
    #: the game's own agents by name (``greedy`` ...), each declaring its options; ``random``,
    #: ``mcts`` and the levels come with every game (:mod:`plunder.agents`)
    agents: Mapping[str, AgentFactory] = field(default_factory=dict)
    #: ``render(state)``: the position drawn for the terminal, as a rich renderable
    render: Callable[[State], Any] | None = None
    #: ``describe(state, action)``: what an action would do, in a few words (move lists, hints)
    describe: Callable[[State, Action], str] | None = None
    #: ``fast_play(game, agents, rngs, seed)``: one whole game on an internal fast path, with the
    #: built ``agents`` in seat order, each deciding with its rng of ``rngs``, chance drawn from
    #: ``seed`` as :mod:`plunder.core.chance` does; ``None`` when it cannot play those agents.
    #: ``plunder simulate`` uses it; the result must equal :func:`plunder.play`'s.
    fast_play: Callable[[Game, Sequence[Agent], Sequence[random.Random], int], "FastResult | None"] | None = None
    #: ``fast_batch(game, agents, seeds)``: many whole games at once, one per seed, with the built
    #: ``agents`` in seat order in every game; ``None`` when it cannot play those agents. Each
    #: result must equal :func:`plunder.play`'s for its seed, as ``fast_play``'s does.
    fast_batch: Callable[[Game, Sequence[Agent], Sequence[int]], "list[FastResult] | None"] | None = None
    #: ``evaluator(game, rollouts, playout)``: a fast leaf evaluator for ``mcts`` (``eval=fast``);
    #: ``playout`` names the playouts it plays ("" for its default) and a bad name is a ParameterError
    evaluator: Callable[[Game, int, str], Evaluator] | None = None
    #: ``easy``/``medium``/``hard`` -> agent spec, where :mod:`plunder.agents.levels`' defaults do not suit
    levels: Mapping[str, str] = field(default_factory=dict)
    #: ``svg(state, shown)``: the position as an SVG document (``plunder render --svg/--png/--all``),
    #: captioned with ``shown``, the move that led to it (:mod:`plunder.core.svg` says what a
    #: picture holds: legal targets carry ``data-action``, nothing hidden is drawn)
    svg: Callable[[State, Shown | None], str] | None = None
    #: ``solve(state, time_limit, memory)``: the position solved exactly (``plunder solve``; :class:`SolveHook`)
    solve: "SolveHook | None" = None
    #: ``candidates(state)``: a decision's legal actions narrowed to the distinct ones, for
    #: searches (Profiteer: one card per rank)
    candidates: Callable[[State], Sequence[Action]] | None = None
    #: ``narrate(before, action, after)``: what ``action`` did, in a player's words, naming
    #: seats with ``game.seat_name`` ("Player 2 took 3 boxes (+7 doubloons)"); chance's
    #: actions are narrated too. The terminal prints it after every move; a game log shows it.
    narrate: Callable[[State, Action, State], str] | None = None
    #: ``pitch``: the game in one plain sentence, for a list of games (the web app's home page)
    pitch: str = ""
    #: ``how_to_play``: how to play and how to win, in plain words without ruling ids, fitting
    #: one 80x24 screen (``plunder rules``, ``help`` in ``plunder play``); the full rules
    #: with their rulings stay in ``docs/rules/``
    how_to_play: str = ""
    #: ``hint``: the agent spec behind ``hint`` in ``plunder play``; an agent that can explain its
    #: choice (:class:`~plunder.core.agent.Analyst`) gives its best moves with their values and
    #: how sure it is of them. It may cap its time (``seconds=``): a hint is advice, not a record.
    hint: str = "hard"
    #: ``move_list(state)``: the legal actions in the order the move list shows them, best first
    #: by the game's own reckoning for the mover (Hubs: what a segment scores, by role); the
    #: order of ``legal_actions()`` when absent
    move_list: Callable[[State], Sequence[Action]] | None = None
    #: ``breakdown(state)``: the final score taken apart, one line per part with its numbers
    #: (Pirates: ship x crew + buried x aboard x notoriety + turns = total)
    breakdown: Callable[[State], list[str]] | None = None
    #: ``observe(state, seat)``: the position as ``seat`` sees it, as numbers, the same count for
    #: every position of a parameter set; with ``action_table`` it gives a game without an
    #: encoding of its own in :mod:`plunder.interop.encoding` its observation for the
    #: reinforcement-learning adapters (the built-in games have their own)
    observe: Callable[[State, int], Sequence[float]] | None = None
    #: ``action_table(game)``: every action a player can ever be offered in ``game`` with its
    #: parameters, each once, in a fixed order: the adapters' action space (an action's index
    #: is its place in the table)
    action_table: Callable[[Game], Sequence[Action]] | None = None


class SolveHook(Protocol):
    """``ENTRY.solve``: solve ``state`` exactly within ``time_limit`` seconds (``None``: no
    limit) and ``memory`` MB of tables (``None``: the solver's default); raises
    :class:`~plunder.core.errors.SearchLimitError` at a limit."""

    def __call__(self, state: State, time_limit: float | None = None, memory: float | None = None) -> "Solution":
        """The value and a best action of ``state``."""
        ...


class Solution(Protocol):
    """What an exact solver reports: the value for the player to move and a best action."""

    @property
    def value(self) -> float:
        """The exact value for the player to move."""

    @property
    def best_action(self) -> Action | None:
        """An action achieving it (None at the end of the game)."""

    @property
    def nodes(self) -> int:
        """Positions searched."""

    @property
    def seconds(self) -> float:
        """Time taken."""


@dataclass(frozen=True)
class FastResult:
    """The outcome of one game played by a game's internal fast path.

    It must equal what :func:`plunder.play` gives for the same agents and seed
    (``returns``, ``scores`` and ``stats()`` of the final state); tests check this.
    """

    returns: list[float]
    scores: list[float]
    stats: dict[str, float | list[float]]


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
    plugins: Mapping[str, GameEntry]
    broken: tuple[tuple[str, str], ...]


@functools.cache
def _catalog() -> _Catalog:
    """The games, looked up once: :func:`entry` is asked at every picture the web server
    draws, and looking for modules and entry points reads the disk."""
    builtins = [g for g, module in GAME_MODULES.items() if importlib.util.find_spec(module) is not None]
    plugins: dict[str, GameEntry] = {}
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


def entry(game_id: str) -> GameEntry:
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
    found: GameEntry = module.ENTRY
    return found


def load_game(game_id: str, preset: str | None = None, **params: Any) -> Game:
    """Load ``game_id`` with ``params`` given as keywords (text or Python values).

    ``preset`` names a parameter set from the game's ``presets``; explicit keywords
    override it. Unknown games, presets, parameters or bad values raise
    :class:`ParameterError` naming the offender and the allowed choices.
    """
    return entry(game_id).game_class.load(preset, **params)
