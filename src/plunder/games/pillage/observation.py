"""Pillage's observation: lines drawn, then each box (owner, dealt, pending, content), then the
legend values and each seat's tallies; its action space is the table of lines and modifier choices.

:mod:`plunder.core.observation` says what every observation holds.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ...core.game import State
from ...core.observation import Encoding, copy_into
from ...core.spaces import TableSpace
from .contents import MAX_SCORE, MAX_VALUE, Commodity, Content, Doubloons, Modifier

class _PillageView:
    """One seat's Pillage vector, kept from the state last observed and brought up to date
    by what changed: a move draws one line, and now and then captures a box or leaves a
    modifier pending (PP-5); chance deals one box at a time (PP-10)."""

    def __init__(self, game: Any, seat: int, width: int, size: int, row: Callable[[Content | None], list[float]]) -> None:
        self.seat, self.width, self.row = seat, width, row
        self.edges, self.boxes, self.kinds = game.board.num_edges, game.board.num_boxes, len(game.legend.kinds)
        # the vector of no line drawn, no box dealt or owned, nothing pending
        self.vec = np.zeros(size, dtype=np.float32)
        self.drawn = 0
        self.contents: tuple[Content | None, ...] = (None,) * self.boxes
        self.owner: tuple[int, ...] = (-1,) * self.boxes
        self.pending: tuple[int, ...] = ()
        # the tallies last written (legend values, doubloons, commodities held) and their place
        self.values: tuple[int, ...] | None = None
        self.doubloons: tuple[int, int] | None = None
        self.held: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        self.tallies = self.edges + self.boxes * width
        for box in range(self.boxes):
            self._box(box, None)

    def _box(self, box: int, content: Content | None) -> None:
        base = self.edges + box * self.width
        self.vec[base + 2:base + self.width] = self.row(content)[2:]

    def update(self, state: Any) -> np.ndarray:
        """The vector of ``state`` (kept, not to be changed by the caller)."""
        vec, seat, edges, width = self.vec, self.seat, self.edges, self.width
        changed = state.drawn ^ self.drawn
        while changed:
            low = changed & -changed
            edge = low.bit_length() - 1
            vec[edge] = state.drawn >> edge & 1
            changed ^= low
        self.drawn = state.drawn
        if state.contents is not self.contents:
            for box, (dealt, before) in enumerate(zip(state.contents, self.contents)):
                if dealt is not before:
                    self._box(box, dealt)
            self.contents = state.contents
        if state.owner is not self.owner:
            for box, (new, old) in enumerate(zip(state.owner, self.owner)):
                if new != old:
                    vec[edges + box * width] = new == seat
                    vec[edges + box * width + 1] = new == 1 - seat
            self.owner = state.owner
        if state.pending is not self.pending:
            for box in self.pending:
                vec[edges + box * width + 3] = 0.0
            for box in state.pending:
                vec[edges + box * width + 3] = 1.0
            self.pending = state.pending
        # the tallies change only when a box is captured or a modifier applied: most lines
        # pass the turn and leave the very same tuples
        if state.values is not self.values or state.doubloons is not self.doubloons or state.held is not self.held:
            other = 1 - seat
            vec[self.tallies:-1] = [*state.values, state.doubloons[seat], state.doubloons[other],
                                    *state.held[seat], *state.held[other]]
            self.values, self.doubloons, self.held = state.values, state.doubloons, state.held
        vec[-1] = state.mover == seat
        return vec


class _PillageSpace(TableSpace):
    """Pillage's table (lines in edge order, then modifier choices) whose mask of lines is
    the undrawn bits, kept up to date line by line like the vector."""

    def __init__(self, game: Any) -> None:
        super().__init__(list(game.actions.lines) + [c for options in game.actions.choices.values() for c in options])
        self.edges = game.board.num_edges
        self.drawn = 0
        self.lines = np.ones(self.size, dtype=np.int8)
        self.lines[self.edges:] = 0

    def indices(self, state: State) -> list[int]:
        """The undrawn lines (their edges, ascending) while the mover draws (PP-4)."""
        if state.current_player < 0 or getattr(state, "pending"):
            return super().indices(state)
        return [line.edge for line in getattr(state, "open_lines")]

    def mask(self, state: State, out: np.ndarray | None = None) -> np.ndarray:
        """The undrawn lines while the mover draws (PP-4); the table's places of the legal
        actions otherwise (a modifier choice, PP-5; the deals; the end)."""
        drawn = getattr(state, "drawn")
        if state.current_player < 0 or getattr(state, "pending"):
            return super().mask(state, out)
        changed = drawn ^ self.drawn
        while changed:
            low = changed & -changed
            edge = low.bit_length() - 1
            self.lines[edge] = 1 - (drawn >> edge & 1)
            changed ^= low
        self.drawn = drawn
        if out is None:
            return self.lines.copy()
        out[:] = self.lines
        return out


def observation(game: Any) -> Encoding:
    """The observation and action space of ``game`` with its parameters (``GameEntry.learning.observation``)."""
    kinds = len(game.legend.kinds)
    boxes, edges = game.board.num_boxes, game.board.num_edges
    # per box: owned by me, by the other, undealt, pending, doubloons, modifier amount, kind (K), modifier kinds (K)
    width = 6 + 2 * kinds
    size = edges + boxes * width + 3 * kinds + 3

    def content_row(content: Content | None) -> list[float]:
        row = [0.0] * width
        if content is None:
            row[2] = 1.0
        elif isinstance(content, Doubloons):
            row[4] = content.n
        elif isinstance(content, Commodity):
            row[6 + content.kind] = 1.0
        elif isinstance(content, Modifier):
            row[5] = content.amount
            for k in content.kinds:
                row[6 + kinds + k] = 1.0
        return row

    views = [_PillageView(game, seat, width, size, content_row) for seat in range(2)]
    # every place is a flag but a box's doubloons and modifier amount (MAX_VALUE in magnitude
    # at most, as a content's text allows), the legend values and doubloon totals (scores: MAX_SCORE at
    # most, PP-7) and the commodities held (one per box at most)
    low, high = np.zeros(size, dtype=np.float32), np.ones(size, dtype=np.float32)
    for box in range(boxes):
        base = edges + box * width
        low[base + 4:base + 6], high[base + 4:base + 6] = -MAX_VALUE, MAX_VALUE
    tallies = edges + boxes * width
    low[tallies:tallies + kinds + 2], high[tallies:tallies + kinds + 2] = -MAX_SCORE, MAX_SCORE
    high[tallies + kinds + 2:-1] = boxes

    def fill(state: Any, seat: int, out: np.ndarray | None) -> np.ndarray:
        return copy_into(views[seat].update(state), out)

    return Encoding(game, size, fill, _PillageSpace(game), observation, (low, high))
