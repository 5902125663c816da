"""The agent interfaces a game implements and the adapters call, like :class:`.game.Game` for rules.

The core knows no agent: it defines what an agent is (:class:`Agent`), what a leaf evaluator
for search is (:class:`Evaluator`) and how a game declares the agents it offers
(:class:`AgentFactory`, whose options are :class:`.params.Param` specs checked by the same
:func:`.params.resolve` as game parameters). Building an agent from a spec such as
``mcts:sims=500`` is :func:`plunder.agents.make_agent`'s job.

Each is generic over the state it takes, like the capability groups
(:mod:`.capabilities`): a game's agent is an ``Agent[PillageState]`` and its ``choose`` is
written for a ``PillageState``, with no ``isinstance`` check of what it is given; an agent
for every game (``random``) is an ``Agent[State[Any]]``, which is an agent of each game's
state too (the state is a parameter, so the protocols are contravariant in it). mypy
then refuses one game's agent where another game's state is given, in a game's ``ENTRY``
(``Strength.agents``) as anywhere else. An agent built from a spec at run time
(:func:`plunder.agents.make_agent`) is an ``Agent[Any]``: what it plays is known only then.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Generic, Iterator, Mapping, Protocol, Sequence, TypeVar, runtime_checkable

from .game import Action, Game, State
from .params import Param

#: the state an agent (or evaluator, or factory) takes: a game's own (``PillageState``), or
#: ``State[Any]`` for one that plays every game
S_contra = TypeVar("S_contra", bound=State[Any], contravariant=True)


@runtime_checkable
class Agent(Protocol[S_contra]):
    """Anything that picks an action for the player to move, in the states it takes."""

    #: the spec it was built from (``greedy``, ``mcts:sims=500``), as records store it
    name: str

    def choose(self, state: S_contra, rng: random.Random) -> Action:
        """Return a legal action of ``state`` (a decision node of this agent's seat)."""
        ...


@runtime_checkable
class Analyst(Protocol[S_contra]):
    """An agent that can explain its choice: what the terminal's ``hint`` shows."""

    def analyse(self, state: S_contra, rng: random.Random) -> list[tuple[Action, str]]:
        """Actions worth playing, best first, each with its estimated value in words."""
        ...


@dataclass(frozen=True)
class Appraisal:
    """One move as a search judged it, for words a player reads (:class:`Appraiser`)."""

    action: Action
    #: the mover's expected result after it, -1 (a loss) .. +1 (a win)
    value: float
    #: how many playouts (or visits) the value rests on
    tries: int
    #: the final score margin for the mover with best play on both sides, where it is proven
    margin: float | None = None


@runtime_checkable
class Appraiser(Protocol[S_contra]):
    """An agent that can give its judgement of the moves as numbers (hints in words)."""

    def appraise(self, state: S_contra, rng: random.Random) -> list[Appraisal]:
        """The moves it looked at, best first for the mover."""
        ...


class Evaluator(Protocol[S_contra]):
    """Estimates per-seat returns of leaf positions for a search (``GameEntry.evaluator``)."""

    #: how many leaves it likes to get per call
    batch: int

    def evaluate(self, states: Sequence[S_contra], rng: random.Random) -> list[Sequence[float]]:
        """Per-seat return estimates (in [-1, 1]) of each non-terminal state."""
        ...


class AgentOptions(Mapping[str, Any]):
    """An agent's options once checked: every declared option by name, given or default, parsed.

    An agent that stands on others (a level, a search over a base policy) builds them with
    :meth:`agent`, so a game's agent module needs nothing from :mod:`plunder.agents`.
    """

    def __init__(self, values: Mapping[str, Any], build: Callable[[str], Agent[Any]]) -> None:
        self._values = dict(values)
        self._build = build

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def agent(self, spec: str) -> Agent[Any]:
        """Build another agent of the same game from its spec (``mcts:sims=300``): an
        ``Agent[Any]``, since which agent a spec names is known only at run time."""
        return self._build(spec)


@dataclass(frozen=True)
class AgentFactory(Generic[S_contra]):
    """One named agent a game offers: how to build it, what it is, and its options.

    ``build(game, options)`` makes the agent from checked options (:class:`AgentOptions`);
    ``help`` says in a line how it plays (``plunder list`` shows it); ``params`` declares its
    options, so ``greedy:caution=2`` is checked and its errors read like a game parameter's.
    An ``AgentFactory[PillageState]`` builds agents of Pillage's states; one of
    ``State[Any]`` (``random``) builds agents of every game's, so it serves any game too.
    ``searched(game, option, count)``, when given, is the work an agent whose budget option
    ``option`` is ``count`` does on ``game``, where that is not ``count`` itself (Pillage's
    ``hard`` searches fewer simulations on boards of many lines): what is said of a budget
    cut names that.
    """

    build: Callable[[Game[Any], AgentOptions], Agent[S_contra]]
    help: str
    params: Sequence[Param] = ()
    searched: Callable[[Game[Any], str, int], int] | None = None
