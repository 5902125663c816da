"""Pillage and Profit (seed 000): Dots and Boxes with valued boxes, on any board."""

from ...core.registry import GameEntry
from .evaluator import make_evaluator
from .heuristics import describe, make_greedy
from .render import render
from .rules import PillageGame, PillageState
from .svg import svg

ENTRY = GameEntry(
    game_class=PillageGame,
    agents={"greedy": make_greedy},
    render=render,
    describe=describe,
    evaluator=make_evaluator,
    svg=svg,
)

__all__ = ["ENTRY", "PillageGame", "PillageState"]
