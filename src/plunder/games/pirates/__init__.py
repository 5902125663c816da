"""Piece Packing Pirates (seed 001): the piecepack solitaire sea adventure."""

from ...core.registry import GameEntry
from .agents import AGENTS
from .render import describe, render
from .rules import PiratesGame
from .svg import svg
from .guide import HOW_TO_PLAY
from .narrate import breakdown, narrate

ENTRY = GameEntry(
    game_class=PiratesGame,
    agents=AGENTS,
    render=render,
    describe=describe,
    svg=svg,
    # The greedy captain that banks the goal (retires as soon as retiring scores it, PR-14):
    # on the same seeds it reaches the goal in every game greedy does and in more, measured in
    # docs/ai.md (bench/pirates_tables.py); root searches over greedy were not measurably
    # stronger at budgets a person would wait for.
    levels={"hard": "greedy:bank=true"},
    pitch="Sail a pirate ship alone across a sea of tiles, fight, loot and bury booty before the sea takes you.",
    how_to_play=HOW_TO_PLAY,
    narrate=narrate,
    breakdown=breakdown,
)
