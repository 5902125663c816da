"""Crossroads: the dice-grid game of cities, roads and negotiated trades (game id ``crossroads``).

Exposes :data:`ENTRY` for the registry: the rules class, the agents, the rich picture
and the move descriptions.
"""

from ...core.registry import GameEntry
from .actions import CrossroadsAction
from .agents import AGENTS, candidates
from .render import describe, render
from .rules import CrossroadsGame, CrossroadsState, Phase
from .svg import svg
from .guide import HOW_TO_PLAY
from .narrate import breakdown, narrate

#: what the registry loads for ``crossroads``
ENTRY = GameEntry(
    game_class=CrossroadsGame,
    agents=AGENTS,
    render=render,
    describe=describe,
    svg=svg,
    candidates=candidates,
    # Root search over paired greedy rollouts (mcts:root=greedy,sims=48,depth=60,scale=20) won
    # 38 of 60 two-player games against greedy and always-fair, but 1 of 12 four-player games
    # (the default) (docs/ai.md); until it holds up with more players the best trader is hard
    levels={"hard": "always-fair"},
    pitch="Roll dice to build cities and roads on a 10x10 grid, and trade with rivals who may or may not play fair.",
    how_to_play=HOW_TO_PLAY,
    narrate=narrate,
    breakdown=breakdown,
)

__all__ = ["ENTRY", "CrossroadsAction", "CrossroadsGame", "CrossroadsState", "Phase"]
