"""Piece Packing Pirates (seed 001): the piecepack solitaire sea adventure."""

from ...core.registry import GameEntry
from .agents import greedy_factory
from .render import describe, rich_render
from .rules import PiratesGame

ENTRY = GameEntry(game_class=PiratesGame, agents={"greedy": greedy_factory}, render=rich_render, describe=describe)
