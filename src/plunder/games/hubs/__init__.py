"""Hubs (seed 002): place dots, join them with segments; the offense scores busy dots."""

from pathlib import Path

from ...core.capabilities import Analysis, Client, Learning, Presentation, Strength, Study
from ...core.declaration import Declaration
from ...core.registry import GameEntry
from .actions import HubsAction
from .agents import AGENTS
from .candidates import candidates
from .figures import FIGURES
from .guide import HOW_TO_PLAY
from .howto import sections
from .narrate import breakdown, narrate
from .observation import observation
from .render import describe, move_list, render
from .solver import solve_state, within_reach
from .rules import HubsGame, HubsState
from .svg import svg
from .stats import HubsObserver
from .plausibility import plausibility

#: the game's own web files: the game page's lattice and dot clicks (``client.js``)
ASSETS = Path(__file__).parent / "web"
#: how far a loss found by the coach's greedy playouts (cut after 6 actions) strays from the
#: exact one (``Analysis.bias``, match points): up to 14.6 on the last round's playout-valued
#: segments the solver settled offline, ``small`` games of ``easy`` against ``medium``, seeds 1
#: to 16 (docs/analysis.md, "Hubs, against its exact solver"): a move said to lose 0.4 lost 15
PLAYOUT_BIAS = 15.0

#: what the registry loads for ``hubs``
ENTRY: GameEntry[HubsState, HubsAction] = GameEntry(
    game_class=HubsGame,
    # third of Plunder's five in lists of games (steps of ten leave room between)
    declaration=Declaration(min_seats=2, max_seats=2, chance=False, zero_sum=True, order=30),
    presentation=Presentation(
        pitch="Place dots, then join them with segments: offense scores for segments that meet busy dots, defense keeps the dots quiet.",
        how_to_play=HOW_TO_PLAY, how_to_web=sections, render=render, svg=svg, describe=describe, narrate=narrate, breakdown=breakdown,
        move_list=move_list,
    ),
    strength=Strength(
        agents=AGENTS,
        # the root search over the shortlist, greedy rollouts cut after 6 actions and valued by
        # the score margin (docs/ai.md: 169 of 200 games against greedy on fresh seeds, and
        # ahead of the tree search that was hard before, mcts:sims=100,eval=greedy,depth=8,scale=20)
        levels={"hard": "mcts:root=greedy,sims=96,depth=6,scale=20"},
        # the search of `hard` given more trials, up to two seconds a hint: a value needs at
        # least 8 paired trials to be more than a guess
        hint="mcts:root=greedy,sims=400,depth=6,scale=20,seconds=2",
        candidates=candidates,
        # exact on small sheets: whole games on `tiny`, the last round's segments elsewhere (solver.py)
        solve=solve_state,
    ),
    analysis=Analysis(units="match points", inaccuracy=3, mistake=8, blunder=15, playout="greedy", sims=32,
                      depth=6, candidates=6, exact=within_reach, bias=PLAYOUT_BIAS),
    study=Study(observer=HubsObserver, figures=FIGURES, plausibility=plausibility),
    learning=Learning(observation=observation),
    client=Client(assets=ASSETS, module="client.js"),
)

__all__ = ["ENTRY", "HubsGame", "HubsState"]
