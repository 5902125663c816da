"""Pillage and Profit (seed 000): Dots and Boxes with valued boxes, on any board."""

from ...core.capabilities import Analysis, Client, Learning, Presentation, Puzzles, Strength, Study
from ...core.declaration import Declaration
from ...core.registry import GameEntry
from . import compiled
from .batched import batched
from .actions import PillageAction
from .editor import ASSETS, EDITOR
from .evaluator import make_evaluator
from .figures import FIGURES
from .guide import HOW_TO_PLAY
from .howto import sections
from .hard import (HARD, PLAYOUT_BIAS, SCREEN_ROLLOUTS, STRETCH_SECONDS, endgame, solve_state, stretch,
                   window_state)
from .heuristics import GREEDY, describe
from .narrate import breakdown, narrate
from .observation import observation
from .render import render
from .rules import PillageGame, PillageState
from .solver import SOLVER
from .svg import svg
from .tree_rules import compiled_rules
from .stats import PillageObserver
from .plausibility import plausibility
from . import puzzles

#: what the registry loads for ``pillage``
ENTRY: GameEntry[PillageState, PillageAction] = GameEntry(
    game_class=PillageGame,
    # first of Plunder's five in lists of games (steps of ten leave room between)
    declaration=Declaration(min_seats=2, max_seats=2, chance=True, zero_sum=True, order=10),
    presentation=Presentation(
        pitch="Dots and Boxes where every box holds doubloons, goods or a twist of the market: close the boxes worth the most.",
        how_to_play=HOW_TO_PLAY, how_to_web=sections, render=render, svg=svg, describe=describe, narrate=narrate, breakdown=breakdown,
    ),
    strength=Strength(
        agents={"greedy": GREEDY, "solver": SOLVER, "pillage-hard": HARD},
        levels={"hard": "pillage-hard"},
        evaluator=make_evaluator,
        compiled=compiled_rules,
        solve=solve_state,
        window=window_state,
        warm=compiled.warm,
    ),
    client=Client(assets=ASSETS, editor=EDITOR),
    analysis=Analysis(units="doubloons", inaccuracy=2, mistake=5, blunder=10, playout="greedy", sims=160,
                      candidates=8, screen=SCREEN_ROLLOUTS, exact=endgame, stretch=stretch,
                      stretch_seconds=STRETCH_SECONDS, bias=PLAYOUT_BIAS),
    study=Study(observer=PillageObserver, figures=FIGURES, plausibility=plausibility),
    learning=Learning(observation=observation, batched=batched),
    puzzles=Puzzles(find=puzzles.find, verify=puzzles.verify, boards=puzzles.BOARDS, mixes=puzzles.MIXES,
                    shipped=puzzles.SHIPPED),
)

__all__ = ["ENTRY", "PillageGame", "PillageState"]
