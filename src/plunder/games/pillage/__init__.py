"""Pillage and Profit (seed 000): Dots and Boxes with valued boxes, on any board."""

from ...core.registry import GameEntry
from .evaluator import make_evaluator
from .hard import HARD, solve_state
from .heuristics import GREEDY, describe
from .solver import SOLVER
from .render import render
from .rules import PillageGame, PillageState
from .svg import svg
from .guide import HOW_TO_PLAY
from .narrate import breakdown, narrate

ENTRY = GameEntry(
    game_class=PillageGame,
    agents={"greedy": GREEDY, "solver": SOLVER, "pillage-hard": HARD},
    render=render,
    describe=describe,
    evaluator=make_evaluator,
    svg=svg,
    levels={"hard": "pillage-hard"},
    solve=solve_state,
    pitch="Dots and Boxes where every box holds doubloons, goods or a twist of the market: close the boxes worth the most.",
    how_to_play=HOW_TO_PLAY,
    narrate=narrate,
    breakdown=breakdown,
)

__all__ = ["ENTRY", "PillageGame", "PillageState"]
