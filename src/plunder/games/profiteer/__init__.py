"""Profiteer (game 003): a one-player War variant about profiting from both sides."""

from ...core.registry import GameEntry
from .agents import AGENTS
from .batch import fast_batch
from .fast import evaluator, fast_play
from .render import describe, render
from .rules import ProfiteerGame, ProfiteerState
from .svg import svg
from .guide import HOW_TO_PLAY
from .narrate import breakdown, narrate

ENTRY = GameEntry(
    game_class=ProfiteerGame,
    agents=AGENTS,
    render=render,
    describe=describe,
    svg=svg,
    fast_play=fast_play,
    fast_batch=fast_batch,
    evaluator=evaluator,
    # Root search over paired profit rollouts: see docs/ai.md for its measured strength.
    levels={"hard": "mcts:root=profit,sims=200"},
    pitch="One-player War: flip cards against the deck and profit from both sides to end with 26 cards.",
    how_to_play=HOW_TO_PLAY,
    narrate=narrate,
    breakdown=breakdown,
)

__all__ = ["ENTRY", "ProfiteerGame", "ProfiteerState"]
