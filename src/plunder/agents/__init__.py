"""Agents: ``random`` for every game, plus each game's own (``greedy`` ...)."""

from __future__ import annotations

from typing import Callable, Mapping

from ..core.errors import ParameterError
from ..core.game import Game
from ..core.registry import entry, game_ids
from .base import Agent, parse_spec
from .random_agent import RandomAgent


def _random(game: Game, options: Mapping[str, str]) -> Agent:
    if options:
        raise ParameterError(f"agent random takes no options, got {', '.join(options)}")
    return RandomAgent()


def _mcts(game: Game, options: Mapping[str, str]) -> Agent:
    from .mcts import make_mcts

    return make_mcts(game, options)


def _level(level: str) -> Callable[[Game, Mapping[str, str]], Agent]:
    def factory(game: Game, options: Mapping[str, str]) -> Agent:
        from .levels import make_level

        return make_level(level, game, options)

    return factory


#: agents every game has
GENERIC: dict[str, Callable[[Game, Mapping[str, str]], Agent]] = {
    "random": _random,
    "mcts": _mcts,
    "easy": _level("easy"),
    "medium": _level("medium"),
    "hard": _level("hard"),
}


def _game_agents(game: Game) -> Mapping[str, Callable[[Game, Mapping[str, str]], Agent]]:
    """The game's own agents; none for a game outside the registry (tests' toy games)."""
    return entry(game.id).agents if game.id in game_ids() else {}


def agent_names(game: Game) -> list[str]:
    """Every agent name available for ``game``."""
    return list(GENERIC) + [n for n in _game_agents(game) if n not in GENERIC]


def make_agent(spec: str, game: Game) -> Agent:
    """Build the agent named by ``spec`` (``name`` or ``name:key=value,...``) for ``game``."""
    name, options = parse_spec(spec)
    factories = {**GENERIC, **_game_agents(game)}
    if name not in factories:
        raise ParameterError(f"unknown agent {name!r} for {game.id}; agents are: {', '.join(agent_names(game))}")
    agent = factories[name](game, options)
    agent.name = spec
    return agent


__all__ = ["Agent", "RandomAgent", "agent_names", "make_agent"]
