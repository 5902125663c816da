"""Hubs' observation: the lattice's dots, the segment matrix and the round's roles and scores; its
action space is the table of lattice points and segments.

:mod:`plunder.core.observation` says what every observation holds.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from ...core.game import State
from ...core.observation import NO_RULE_BOUND, Encoding, Layout
from ...core.spaces import TableSpace
from .actions import Segment

class _HubsSpace(TableSpace):
    """Hubs' table (lattice points row by row, then every pair ``i < j`` of dots) whose mask
    is read from the position's own bookkeeping: the free points while placing (HB-1), the
    drawable candidates' bits while drawing (HB-2, HB-3), no segment listed or ordered."""

    def __init__(self, game: Any) -> None:
        n = game.dots
        super().__init__(list(game.lattice) + [Segment(i, j) for i in range(n) for j in range(i + 1, n)])
        self.game = game
        self.points = game.width * game.height

    def _mark(self, state: State, out: np.ndarray) -> None:
        hubs, game, n = cast(Any, state), self.game, self.game.dots
        if hubs.round >= game.rounds:
            return
        if hubs.placing:
            out[:self.points] = 1
            for x, y in hubs.dots:
                out[y * game.width + x] = 0
            return
        ends = hubs.paper.ends[hubs.drawable_ids]
        first, second = ends[:, 0], ends[:, 1]
        # pairs i < j in order: pair (i, j) comes after the n-1 + n-2 + ... + n-i pairs of smaller i
        out[self.points + first * (2 * n - first - 1) // 2 + second - first - 1] = 1


def observation(game: Any) -> Encoding:
    """The observation and action space of ``game`` with its parameters (``GameEntry.learning.observation``)."""
    n = game.dots
    width, height = game.width, game.height
    space = _HubsSpace(game)
    layout = Layout()
    # a dot's degree is at most the other dots; match points are a tally the rules leave open
    sheet_part, degree_part = layout.take(width * height), layout.take(width * height, 0.0, n - 1)
    joined_part = layout.take(n * n)
    tail_part = layout.take(5, 0.0, [NO_RULE_BOUND, NO_RULE_BOUND, game.rounds, 1, 1])
    # the segment matrix of the segments last seen (a round adds segments one by one, HB-3)
    seen: dict[str, Any] = {"segments": (), "joined": np.zeros((n, n), dtype=np.float32)}

    def joined(segments: tuple[Segment, ...]) -> np.ndarray:
        old, matrix = seen["segments"], seen["joined"]
        if segments is not old:
            if len(segments) < len(old) or segments[:len(old)] != old:
                matrix[:] = 0.0
                old = ()
            for s in segments[len(old):]:
                matrix[s.first, s.second] = matrix[s.second, s.first] = 1.0
            seen["segments"] = segments
        return matrix

    def fill(state: Any, seat: int, out: np.ndarray | None) -> np.ndarray:
        if out is None:
            out = np.empty(layout.size, dtype=np.float32)
        sheet, degree = out[sheet_part], out[degree_part]
        sheet[:] = 0.0
        degree[:] = 0.0
        for k, (x, y) in enumerate(state.dots):
            sheet[y * width + x] = 1.0
        for k, d in enumerate(state.degree):
            x, y = state.dots[k]
            degree[y * width + x] = d
        out[joined_part] = joined(state.segments).ravel()
        out[tail_part] = [state.totals[seat], state.totals[1 - seat], state.round,
                          state.round < game.rounds and game.offense(state.round) == seat, state.current_player == seat]
        return out

    return Encoding(game, layout.size, fill, space, observation, layout.bounds())
