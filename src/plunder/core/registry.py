"""Which games exist, how to load them, and what each offers its adapters.

Each game package ``plunder.games.<id>`` exposes ``ENTRY``, a :class:`GameEntry`.
Packages are imported lazily so that ``plunder list`` stays fast.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, Sequence

from .errors import ParameterError
from .game import Action, Game, State
from .params import resolve

if TYPE_CHECKING:
    from ..agents.base import Agent
    from ..agents.mcts import Evaluator

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
    """What a game package offers: its rules class and its adapters.

    ``agents`` maps names (``greedy`` ...) to factories taking the game and an option
    mapping; ``render`` draws a state for the terminal (a rich renderable); ``describe``
    says in a few words what an action would do, for move lists and hints.
    ``fast_play(game, agent_specs, seed)`` optionally plays one whole game on an
    internal fast path (``None`` when it does not support those agents); ``plunder
    simulate`` uses it when present. ``evaluator(game, rollouts, playout)`` optionally gives a fast
    leaf evaluator for the ``mcts`` agent (see :mod:`plunder.agents.mcts`). ``levels`` maps
    ``easy``/``medium``/``hard`` to agent specs where the defaults of
    :mod:`plunder.agents.levels` do not suit the game. ``svg(state)`` draws a position as
    an SVG document (``plunder render --svg``). ``solve(state, time_limit)`` solves a
    position exactly (``plunder solve``). ``candidates(state)`` optionally narrows a
    decision's legal actions to the distinct ones, for searches (Profiteer: one card per rank).
    """

    game_class: type[Game]
    agents: Mapping[str, Callable[[Game, Mapping[str, str]], "Agent"]] = field(default_factory=dict)
    render: Callable[[State], Any] | None = None
    describe: Callable[[State, Action], str] | None = None
    fast_play: Callable[[Game, Sequence[str], int], "FastResult | None"] | None = None
    evaluator: Callable[[Game, int, str], "Evaluator"] | None = None
    levels: Mapping[str, str] = field(default_factory=dict)
    svg: Callable[[State], str] | None = None
    solve: Callable[[State, float | None], "Solution"] | None = None
    candidates: Callable[[State], Sequence[Action]] | None = None


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
    return [g for g, module in GAME_MODULES.items() if importlib.util.find_spec(module) is not None]


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
    cls = entry(game_id).game_class
    given: dict[str, Any] = {}
    if preset is not None:
        if preset not in cls.presets:
            raise ParameterError(
                f"{game_id} has no preset {preset!r}; presets are: {', '.join(cls.presets) or 'none'}"
            )
        given.update(cls.presets[preset])
    given.update(params)
    values, texts = resolve(game_id, cls.param_specs, given)
    return cls(values, texts)
