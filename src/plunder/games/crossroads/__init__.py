"""Crossroads: the dice-grid game of cities, roads and negotiated trades (game id ``crossroads``)."""

from pathlib import Path

from ...core.capabilities import Analysis, Client, Learning, Presentation, Strength, Study
from ...core.declaration import Declaration
from ...core.registry import GameEntry
from .actions import CrossroadsAction
from .agents import AGENTS, candidates
from .fields import legal_fields
from .figures import FIGURES
from .guide import HOW_TO_PLAY
from .howto import sections
from .hard import HARD
from .narrate import breakdown, narrate, talk
from .observation import observation
from .render import describe, render
from .rules import CrossroadsGame, CrossroadsState, Phase
from .svg import svg
from .stats import CrossroadsObserver
from .plausibility import plausibility

#: the game's own web files: the game page's trade panel (``client.js``)
ASSETS = Path(__file__).parent / "web"

#: what the registry loads for ``crossroads``
ENTRY: GameEntry[CrossroadsState, CrossroadsAction] = GameEntry(
    game_class=CrossroadsGame,
    # fifth of Plunder's five in lists of games (steps of ten leave room between)
    declaration=Declaration(min_seats=2, max_seats=6, chance=True, order=50),
    presentation=Presentation(
        pitch="Roll dice to build cities and roads on a 10x10 grid, and trade with rivals who may or may not play fair.",
        how_to_play=HOW_TO_PLAY, how_to_web=sections, render=render, svg=svg, describe=describe, narrate=narrate, breakdown=breakdown,
        legal_fields=legal_fields,
    ),
    strength=Strength(
        agents={**AGENTS, "crossroads-hard": HARD},
        # crossroads-hard wins more than its share against the personalities with 3-6 players
        # (docs/ai.md, bench/crossroads_field.py)
        levels={"hard": "crossroads-hard"},
        candidates=candidates,
    ),
    analysis=Analysis(units="gold", inaccuracy=3, mistake=8, blunder=15, sims=16, candidates=6),
    study=Study(observer=CrossroadsObserver, figures=FIGURES, plausibility=plausibility),
    learning=Learning(observation=observation),
    client=Client(assets=ASSETS, module="client.js", talk=talk),
)

__all__ = ["ENTRY", "CrossroadsAction", "CrossroadsGame", "CrossroadsState", "Phase"]
