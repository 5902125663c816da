"""Plunder: five tabletop games of profit behind one API.

>>> import plunder
>>> game = plunder.load_game("pillage", board="square:3x3", contents="unit")
>>> state = game.new_initial_state()
"""

from .core.errors import (
    IllegalActionError,
    InvalidActionError,
    ParameterError,
    PlunderError,
    RecordError,
)
from .core.game import CHANCE, TERMINAL, Action, Game, State
from .core.record import Move, Record, replay
from .match import play
from .core.registry import game_ids, load_game

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "Game",
    "IllegalActionError",
    "InvalidActionError",
    "Move",
    "ParameterError",
    "PlunderError",
    "Record",
    "State",
    "game_ids",
    "load_game",
    "play",
    "replay",
]
