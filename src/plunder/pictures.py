"""Pictures of a saved game for any front end: each position's SVG, captioned with the
move that led to it, and PNG rasters of them.

The games draw (their ``svg`` hook, :mod:`plunder.core.svg`); this module walks a record
and rasterises with resvg (the ``resvg-py`` wheel carries its own renderer, so nothing
beyond Python is needed; text is set in the machine's fonts, DejaVu Sans first).
"""

from __future__ import annotations

from typing import Iterator

import resvg_py

from .core.game import State
from .core.record import Record, replay
from .core.registry import entry
from .core.svg import Shown, plain_picture


def positions(record: Record) -> Iterator[tuple[State, Shown | None]]:
    """Every position of ``record`` from the start, each with the move that led to it
    (``None`` for the start), narrated where the game narrates. The record is checked whole
    first (:func:`replay`)."""
    replay(record)
    narrate = entry(record.game).presentation.narrate
    state = record_game_start(record)
    yield state, None
    for i, move in enumerate(record.moves):
        action = state.game.parse_action(state, move.action)
        after = state.apply(action)
        yield after, Shown(i + 1, move.action, narrate(state, action, after) if narrate else "")
        state = after


def record_game_start(record: Record) -> State:
    """The initial position of ``record``'s game with its parameters."""
    return entry(record.game).game_class.load(None, **record.params).new_initial_state()


def svg_of(state: State, shown: Shown | None = None) -> str:
    """The SVG picture of ``state``: the game's own, or :func:`plain_picture` for a game that
    draws none."""
    return (entry(state.game.id).presentation.svg or plain_picture)(state, shown)


def png_of(svg_text: str) -> bytes:
    """``svg_text`` rasterised to PNG bytes at its own size."""
    return resvg_py.svg_to_bytes(svg_string=svg_text)
