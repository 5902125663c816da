"""A game's "how to play" for a browser: a few sections, each a heading, paragraphs in a
player's words (click and tap, never type) and optionally a position to picture with the
game's own SVG renderer -- alone, or before and after a move (:attr:`Presentation.how_to_web`).

The positions come from seeded games (:func:`seek`), so a page shows a real position of the
game's rules and is the same on every visit; the move's caption is the game's own narration.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from . import chance
from .game import Action, State
from .svg import Shown

#: most moves :func:`seek` plays in one game looking for the move it wants
SEEK_LIMIT = 20_000
#: most games :func:`seek` plays looking for it
SEEK_TRIES = 50


@dataclass(frozen=True)
class Position:
    """A position to picture: alone, or before and after :attr:`move`."""

    state: State[Any]
    #: the move that led to :attr:`state`, as its picture captions it (``None``: the game's start)
    shown: Shown | None = None
    #: a move from :attr:`state` to picture before and after, or ``None`` for the position alone
    move: Action | None = None


@dataclass(frozen=True)
class HowToSection:
    """One section of a how-to page."""

    #: the section's heading ("Your turn")
    heading: str
    #: its paragraphs, plain text in a browser player's words
    paragraphs: tuple[str, ...]
    #: what to picture, or ``None`` for words alone
    position: Position | None = None


def settle(state: State[Any], seed: int) -> Position:
    """``state`` with its chance events drawn from ``seed`` until someone must decide."""
    index, shown = 0, None
    while state.is_chance_node():
        action = chance.draw(state, seed, index)
        index += 1
        shown = Shown(index, state.game.action_to_text(state, action))
        state = state.apply(action)
    return Position(state, shown)


def seek(start: Position, seed: int, wanted: Callable[[Any, Any, Any], bool],
         choose: Callable[[Any, random.Random], Any] | None = None) -> Position:
    """Play on from ``start`` -- chance drawn from ``seed``, each decision by ``choose(state,
    rng)`` or uniformly at random -- until a move for which ``wanted(before, action, after)``
    holds: that move and its position (moves numbered on from ``start``'s). A game that ends without one is played again with the
    next seed, up to :data:`SEEK_TRIES` games; then ``LookupError``."""
    for game_seed in range(seed, seed + SEEK_TRIES):
        rng = random.Random(game_seed)
        state, index, shown = start.state, 0, start.shown
        first = start.shown.number if start.shown else 0
        for played in range(first, first + SEEK_LIMIT):
            if state.is_terminal():
                break
            if state.is_chance_node():
                action = chance.draw(state, game_seed, index)
                index += 1
            else:
                action = choose(state, rng) if choose else rng.choice(state.legal_actions())
            after = state.apply(action)
            if wanted(state, action, after):
                return Position(state, shown, action)
            shown = Shown(played + 1, state.game.action_to_text(state, action))
            state = after
    raise LookupError(f"no wanted move in {SEEK_TRIES} games from seed {seed}")
