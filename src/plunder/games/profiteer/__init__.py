"""Profiteer (game 003): a one-player War variant about profiting from both sides."""

from pathlib import Path

from ...core.capabilities import Analysis, Client, Learning, Presentation, Speed, Strength, Study
from ...core.declaration import Declaration
from ...core.registry import GameEntry
from .actions import ProfiteerAction
from .agents import AGENTS
from .batch import fast_batch
from .batched import batched
from .fast import evaluator, fast_play
from .figures import FIGURES
from .guide import HOW_TO_PLAY
from .howto import sections
from .narrate import breakdown, narrate
from .observation import observation
from .render import describe, render
from .rules import ProfiteerGame, ProfiteerState
from .svg import svg
from .stats import ProfiteerObserver
from .plausibility import plausibility

#: the game page's own module and style (web/client.js: switches as finger-sized buttons)
ASSETS = Path(__file__).parent / "web"

#: what the registry loads for ``profiteer``
ENTRY: GameEntry[ProfiteerState, ProfiteerAction] = GameEntry(
    game_class=ProfiteerGame,
    # fourth of Plunder's five in lists of games (steps of ten leave room between)
    declaration=Declaration(min_seats=1, max_seats=1, chance=True, order=40),
    presentation=Presentation(
        pitch="One-player War: flip cards against the deck and profit from both sides to end with 26 cards.",
        how_to_play=HOW_TO_PLAY, how_to_web=sections, render=render, svg=svg, describe=describe, narrate=narrate, breakdown=breakdown,
    ),
    strength=Strength(
        agents=AGENTS,
        # the best agent cheap enough for the lab's rollouts (docs/ai.md)
        policy="profit",
        # Root search over paired profit rollouts: see docs/ai.md for its measured strength.
        levels={"hard": "mcts:root=profit,sims=200"},
        evaluator=evaluator,
    ),
    speed=Speed(fast_play=fast_play, fast_batch=fast_batch),
    analysis=Analysis(units="cards", inaccuracy=1, mistake=2, blunder=4, playout="profit", sims=64),
    study=Study(observer=ProfiteerObserver, figures=FIGURES, plausibility=plausibility),
    learning=Learning(observation=observation, batched=batched),
    client=Client(assets=ASSETS, module="client.js"),
)

__all__ = ["ENTRY", "ProfiteerGame", "ProfiteerState"]
