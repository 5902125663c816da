"""Which games exist, how to load them, and what each offers its adapters.

Each game package ``plunder.games.<id>`` exposes ``ENTRY``, a :class:`GameEntry`.
Packages are imported lazily so that ``plunder list`` stays fast.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol, Sequence

from .agent import Agent, AgentFactory, Evaluator
from .errors import ParameterError
from .game import Action, Game, State
from .svg import Shown

#: game id -> module holding its ``ENTRY``
GAME_MODULES: dict[str, str] = {
    "pillage": "plunder.games.pillage",
    "pirates": "plunder.games.pirates",
    "hubs": "plunder.games.hubs",
    "profiteer": "plunder.games.profiteer",
    "crossroads": "plunder.games.crossroads",
}


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
    """The ids of every installed game, in table order."""
    return list(_installed())


@functools.cache
def _installed() -> tuple[str, ...]:
    """The installed games, looked up once: :func:`entry` is asked at every picture the web
    server draws, and looking for a module reads the disk."""
    return tuple(g for g, module in GAME_MODULES.items() if importlib.util.find_spec(module) is not None)


def entry(game_id: str) -> GameEntry:
    """The :class:`GameEntry` of ``game_id``; an unknown id raises :class:`ParameterError`."""
    if game_id not in game_ids():
        raise ParameterError(f"unknown game {game_id!r}; games are: {', '.join(game_ids())}")
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
