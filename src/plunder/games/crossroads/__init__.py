"""Crossroads: the dice-grid game of cities, roads and negotiated trades (game id ``crossroads``).

Exposes :data:`ENTRY` for the registry: the rules class, the agents, the rich picture
and the move descriptions.
"""

from ...core.registry import GameEntry
from .actions import CrossroadsAction
from .agents import AGENTS, candidates
from .hard import HARD
from .render import describe, render
from .rules import CrossroadsGame, CrossroadsState, Phase
from .svg import svg
from .guide import HOW_TO_PLAY
from .narrate import breakdown, narrate

#: what the registry loads for ``crossroads``
ENTRY = GameEntry(
    game_class=CrossroadsGame,
    agents={**AGENTS, "crossroads-hard": HARD},
    render=render,
    describe=describe,
    svg=svg,
    candidates=candidates,
    # crossroads-hard wins more than its share against the personalities with 3-6 players
    # (docs/ai.md, bench/crossroads_field.py)
    levels={"hard": "crossroads-hard"},
    pitch="Roll dice to build cities and roads on a 10x10 grid, and trade with rivals who may or may not play fair.",
    how_to_play=HOW_TO_PLAY,
    narrate=narrate,
    breakdown=breakdown,
)

__all__ = ["ENTRY", "CrossroadsAction", "CrossroadsGame", "CrossroadsState", "Phase"]
