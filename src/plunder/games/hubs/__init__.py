"""Hubs (seed 002): place dots, join them with segments; the offense scores busy dots."""

from ...core.registry import GameEntry
from .agents import AGENTS
from .candidates import candidates
from .render import describe, move_list, render
from .rules import HubsGame, HubsState
from .svg import svg
from .guide import HOW_TO_PLAY
from .narrate import breakdown, narrate

ENTRY = GameEntry(
    game_class=HubsGame, agents=AGENTS, render=render, describe=describe, svg=svg,
    # greedy rollouts cut after 8 actions and valued by the score margin: full rollouts are too slow
    levels={"hard": "mcts:sims=100,eval=greedy,depth=8,scale=20"},
    candidates=candidates,
    pitch="Place dots, then join them with segments: offense scores for segments that meet busy dots, defense keeps the dots quiet.",
    # the root search over the shortlist (docs/ai.md: 81% against greedy at sims=96), given up
    # to two seconds a hint: the tree search of `hard` spreads 100 simulations over hundreds of
    # moves, one visit each, which says nothing
    hint="mcts:root=greedy,sims=400,depth=6,scale=20,seconds=2",
    move_list=move_list,
    how_to_play=HOW_TO_PLAY,
    narrate=narrate,
    breakdown=breakdown,
)

__all__ = ["ENTRY", "HubsGame", "HubsState"]
