"""Crossroads: the dice-grid game of cities, roads and negotiated trades (game id ``crossroads``).

Exposes :data:`ENTRY` for the registry: the rules class, the agents, the rich picture
and the move descriptions.
"""

from ...core.registry import GameEntry
from .agents import AGENTS, candidates
from .render import describe_action, rich_render
from .rules import CrossroadsGame, CrossroadsState

#: what the registry loads for ``crossroads``
ENTRY = GameEntry(
    game_class=CrossroadsGame,
    agents=AGENTS,
    render=rich_render,
    describe=describe_action,
    candidates=candidates,
    # MCTS with short rollouts lost every game to greedy here; the best trader is the hard level
    levels={"hard": "always-fair"},
)

__all__ = ["ENTRY", "CrossroadsGame", "CrossroadsState"]
