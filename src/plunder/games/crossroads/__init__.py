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
    # Root search over paired greedy rollouts won 38 of 60 two-player games against greedy
    # and always-fair (docs/ai.md), at about 0.1 s a decision
    levels={"hard": "mcts:root=greedy,sims=48,depth=60,scale=20"},
)

__all__ = ["ENTRY", "CrossroadsGame", "CrossroadsState"]
