"""Agents: ``random``, ``mcts`` and the levels for every game, plus each game's own (``greedy`` ...).

A spec names an agent and may give options, ``name:key=value,...``; each agent declares its
options as :class:`plunder.core.params.Param` specs (:class:`plunder.core.agent.AgentFactory`)
and :func:`make_agent` checks them with the same :func:`plunder.core.params.resolve` as game
parameters.
"""

from __future__ import annotations

import math
from typing import Any, Mapping

from ..core.agent import Agent, AgentFactory, AgentOptions
from ..core.errors import ParameterError
from ..core.game import Game
from ..core.params import resolve
from ..core.registry import entry, is_game
from .base import parse_spec
from .levels import LEVELS, level_factory
from .mcts import MCTS
from .random_agent import RANDOM, RandomAgent

#: agents every game has besides the levels
GENERIC: dict[str, AgentFactory[Any]] = {"random": RANDOM, "mcts": MCTS}


def agent_factories(game: Game) -> dict[str, AgentFactory[Any]]:
    """Every agent of ``game`` by name: the generic ones, the game's own, then the levels."""
    registered = is_game(game.id)
    own: Mapping[str, AgentFactory[Any]] = entry(game.id).strength.agents if registered else {}
    overrides: Mapping[str, str] = entry(game.id).strength.levels if registered else {}
    factories = {**GENERIC, **{n: f for n, f in own.items() if n not in GENERIC}}
    for level in LEVELS:
        factories[level] = level_factory(level, factories, overrides)
    return factories


def agent_names(game: Game) -> list[str]:
    """Every agent name available for ``game``."""
    return list(agent_factories(game))


def _resolved(spec: str, game: Game) -> tuple[AgentFactory[Any], dict[str, Any], dict[str, str]]:
    """The factory ``spec`` names for ``game``, its options' values and their canonical texts."""
    name, given = parse_spec(spec)
    factories = agent_factories(game)
    if name not in factories:
        raise ParameterError(f"unknown agent {name!r} for {game.id}; agents are: {', '.join(factories)}")
    values, texts = resolve(f"agent {name}", factories[name].params, given, noun="option")
    return factories[name], values, texts


def agent_options(spec: str, game: Game) -> dict[str, str]:
    """The agent ``spec`` names for ``game`` and every one of its options, defaults filled in
    (``{"agent": "greedy", "bank": "false"}``): what a stored result says was played."""
    _, _, texts = _resolved(spec, game)
    return {"agent": parse_spec(spec)[0], **texts}


#: the options that count an agent's work (simulations of a search, positions of a solver):
#: :func:`scaled_spec` shrinks these when a server is busy
BUDGET_OPTIONS = ("sims", "nodes")
#: the options that say how many moves before the end an exact search takes over (Pillage's
#: ``hard`` solves from ``endgame`` lines left): with a fraction of its positions such a search
#: proves nothing that far out and spends its share failing (on 3x3 with random contents,
#: 31,250 positions proved 0 of 12 positions at 19 lines left and 12 of 12 at 16, docs/web.md), so
#: :func:`scaled_spec` starts it one move later for each halving of the budget
LATER_OPTIONS = ("endgame",)


def scaled_spec(spec: str, game: Game, share: float) -> tuple[str, str]:
    """``spec`` with each of its :data:`BUDGET_OPTIONS` cut to ``share`` of its value (at least 1)
    and each of its :data:`LATER_OPTIONS` one less per halving (at least 0), and words saying
    what was cut (``"800 of its 3,000 simulations"``: the counts the agent searches on ``game``,
    :attr:`AgentFactory.searched`); ``(spec, "")`` when ``share`` is 1 or more, or the agent
    counts its work in no such option (a greedy agent)."""
    if share >= 1:
        return spec, ""
    name, given = parse_spec(spec)
    factory, _, options = _resolved(spec, game)
    searched = factory.searched or (lambda _game, _option, count: count)
    cut: dict[str, str] = {}
    words = []
    for option, noun in zip(BUDGET_OPTIONS, ("simulations", "positions")):
        if option in options and options[option].isdigit():
            full = int(options[option])
            less = max(1, int(full * share))
            if less < full:
                cut[option] = str(less)
                words.append(f"{searched(game, option, less):,} of its {searched(game, option, full):,} {noun}")
    if not cut:
        return spec, ""
    halvings = round(-math.log2(share))
    later = []
    for option in LATER_OPTIONS:
        if option in options and options[option].isdigit() and int(options[option]) > 0 < halvings:
            full = int(options[option])
            cut[option] = str(max(0, full - halvings))
            later.append(f"its exact search from {cut[option]} moves before the end instead of {full}")
    merged = {**given, **cut}
    said = " and ".join(words) + "".join(f", with {w}" for w in later)
    return f"{name}:{','.join(f'{k}={v}' for k, v in merged.items())}", said


def make_agent(spec: str, game: Game) -> Agent[Any]:
    """Build the agent named by ``spec`` (``name`` or ``name:key=value,...``) for ``game``: an
    ``Agent[Any]``, since which state it takes is known only at run time."""
    factory, values, _ = _resolved(spec, game)
    agent = factory.build(game, AgentOptions(values, lambda other: make_agent(other, game)))
    agent.name = spec
    return agent


__all__ = ["BUDGET_OPTIONS", "LATER_OPTIONS", "Agent", "RandomAgent", "agent_factories", "agent_names", "agent_options", "make_agent",
           "scaled_spec"]
