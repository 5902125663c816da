"""Levels for people: ``easy``, ``medium`` and ``hard`` for every game.

* easy -- the game's greedy agent, but half its moves are random (random if no greedy)
* medium -- the game's greedy agent (``mcts:sims=200`` if none)
* hard -- the game's ``levels["hard"]`` spec if it gives one, else ``mcts:sims=2000``

A game may override any level with an agent spec in ``GameEntry.levels``. A level takes the
options of the agent it stands for, with the level's own settings as their defaults
(``hard:sims=5000``). Every level's strength is counted in moves, simulations or nodes, never
in seconds, so a game played by a level replays from its seed on any machine.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, Generic, Mapping

from ..core.agent import Agent, AgentFactory, AgentOptions
from ..core.errors import ParameterError
from ..core.capabilities import S
from ..core.game import Action, Game
from .base import parse_spec

LEVELS = ("easy", "medium", "hard")


class NoisyAgent(Generic[S]):
    """Plays ``base``'s move, except a uniformly random one with probability ``noise``: an agent
    of the states ``base`` takes."""

    def __init__(self, base: Agent[S], noise: float, name: str) -> None:
        self.base = base
        self.noise = noise
        self.name = name

    def choose(self, state: S, rng: random.Random) -> Action:
        """A random legal action with probability ``noise``, else the base agent's."""
        if rng.random() < self.noise:
            return rng.choice(state.legal_actions())
        return self.base.choose(state, rng)


def level_spec(level: str, game_agents: Mapping[str, object], overrides: Mapping[str, str]) -> str:
    """The agent spec a level stands for in a game."""
    if level in overrides:
        return overrides[level]
    has_greedy = "greedy" in game_agents
    if level == "easy":
        return "greedy" if has_greedy else "random"
    if level == "medium":
        return "greedy" if has_greedy else "mcts:sims=200"
    if level == "hard":
        return "mcts:sims=2000"
    raise ParameterError(f"unknown level {level!r}; levels are {', '.join(LEVELS)}")


def level_factory(level: str, factories: Mapping[str, AgentFactory[Any]], overrides: Mapping[str, str]) -> AgentFactory[Any]:
    """The factory of ``level`` in a game whose other agents are ``factories``.

    It builds the agent the level's spec names, with that agent's options; the spec's own
    option values become their defaults.
    """
    spec = level_spec(level, factories, overrides)
    name, fixed = parse_spec(spec)
    if name not in factories or name in LEVELS:
        raise ParameterError(f"level {level} stands for {spec!r}, which is not an agent of the game")
    base = factories[name]
    unknown = set(fixed) - {p.name for p in base.params}
    if unknown:
        raise ParameterError(f"level {level} stands for {spec!r}: agent {name} has no option {', '.join(sorted(unknown))}")
    params = tuple(dataclasses.replace(p, default=fixed[p.name]) if p.name in fixed else p for p in base.params)
    noisy = level == "easy" and level not in overrides and name != "random"

    def build(game: Game[Any], options: AgentOptions) -> Agent[Any]:
        agent = base.build(game, options)
        return NoisyAgent(agent, 0.5, level) if noisy else agent

    what = f"{name}, half its moves random" if noisy else spec
    takes = f"; takes {name}'s options" if params else ""
    return AgentFactory(build, f"level {level}: {what}{takes}", params, base.searched)
