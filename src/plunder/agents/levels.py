"""Levels for people: ``easy``, ``medium`` and ``hard`` for every game.

* easy -- the game's greedy agent, but half its moves are random (random if no greedy)
* medium -- the game's greedy agent
* hard -- search: the game's ``levels["hard"]`` spec if it gives one, else ``mcts:ms=1500``

A game may override any level with an agent spec in ``GameEntry.levels``.
"""

from __future__ import annotations

import random
from typing import Mapping

from ..core.errors import ParameterError
from ..core.game import Action, Game, State
from .base import Agent

LEVELS = ("easy", "medium", "hard")


class NoisyAgent:
    """Plays ``base``'s move, except a uniformly random one with probability ``noise``."""

    def __init__(self, base: Agent, noise: float, name: str) -> None:
        self.base = base
        self.noise = noise
        self.name = name

    def choose(self, state: State, rng: random.Random) -> Action:
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
        return "mcts:ms=1500"
    raise ParameterError(f"unknown level {level!r}; levels are {', '.join(LEVELS)}")


def make_level(level: str, game: Game, options: Mapping[str, str]) -> Agent:
    """Build the agent for ``level`` in ``game`` (no options)."""
    from . import _game_agents, make_agent
    from ..core.registry import entry, game_ids

    if options:
        raise ParameterError(f"level {level} takes no options, got {', '.join(options)}")
    overrides = entry(game.id).levels if game.id in game_ids() else {}
    spec = level_spec(level, _game_agents(game), overrides)
    agent = make_agent(spec, game)
    if level == "easy" and level not in overrides and spec != "random":
        agent = NoisyAgent(agent, 0.5, "easy")
    return agent
