"""Pirates' observation: the sea's tiles and the ship's place, the crew, chest and tracks, the
phase; its action space is a slot space (actions cannot be listed up front).

:mod:`plunder.core.observation` says what every observation holds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.observation import NO_RULE_BOUND, Encoding, Layout, copy_into, enum_rows
from ...core.spaces import SlotSpace
from . import tables as T
from .rules import Phase

#: slots: Pirates' actions cannot be listed up front (see :class:`~plunder.core.spaces.SlotSpace`)
PIRATES_SLOTS = 256


def observation(game: Any) -> Encoding:
    """The observation and action space of ``game`` with its parameters (``GameEntry.learning.observation``)."""
    sea = game.sea
    width, height = sea.width, sea.height
    cells = width * height
    tiles = len(sea.origins)
    phase_rows = enum_rows(Phase)
    layout = Layout()
    # the planes: sea, ship and chest are flags, the other ships a count (at most every coin)
    # and their coin value (a tally the rules leave open); a tile's face and wind are small
    # numbers or -1 face-down, and the tail's counters are tallies the rules leave open but
    # for the turn (the ``turns`` limit, PR-10)
    layout.take(3 * cells)
    layout.take(cells, 0.0, T.NUM_COINS)
    layout.take(cells, 0.0, NO_RULE_BOUND)
    faces_part, winds_part = layout.take(tiles, -1.0, NO_RULE_BOUND), layout.take(tiles, -1.0, NO_RULE_BOUND)
    phase_part = layout.take(len(phase_rows))
    tail_part = layout.take(19, [0.0] + [-1.0] * 18, [game.turns] + [NO_RULE_BOUND] * 18)
    # the vector last written: the sea plane stays; the marks of the ship, the chest and the
    # coins are moved when they moved (a cell is one object from move to move while it stays)
    kept = np.zeros(layout.size, dtype=np.float32)
    for x, y in sea.cells:
        kept[y * width + x] = 1.0
    # what was last written of each part: ship, chest, coins (their cells and flat places),
    # and the tiles' faces and winds and the phase, which change at a flip, a wind choice, a
    # phase's end and stay the very same objects otherwise
    seen: list[Any] = [None, None, None, None, None, None]
    coin_places: list[int] = []

    def mark(plane: int, cell: Any, before: Any) -> None:
        if before is not None:
            kept[plane * cells + before[1] * width + before[0]] = 0.0
        if cell is not None:
            kept[plane * cells + cell[1] * width + cell[0]] = 1.0

    def fill(state: Any, seat: int, out: np.ndarray | None) -> np.ndarray:
        pos, chest, coins = state.pos, state.chest, state.coins
        if pos != seen[0]:
            mark(1, pos, seen[0])
        if chest != seen[1]:
            mark(2, chest, seen[1])
        if coins is not seen[2]:
            for place in coin_places:
                kept[place] = 0.0
            coin_places.clear()
            sums: dict[int, list[int]] = {}  # cell -> [coins, their value]
            for coin, (x, y) in coins:
                tally = sums.setdefault(y * width + x, [0, 0])
                tally[0] += 1
                tally[1] += coin
            for cell, (count, value) in sums.items():
                coin_places.extend((3 * cells + cell, 4 * cells + cell))
                kept[3 * cells + cell], kept[4 * cells + cell] = count, value
        seen[:3] = pos, chest, coins
        faces, winds, phase = state.faces, state.winds, state.phase
        if faces is not seen[3]:
            kept[faces_part] = (*faces, *(-1,) * (tiles - len(faces)))
        if winds is not seen[4]:
            kept[winds_part] = (*winds, *(-1,) * (tiles - len(winds)))
        if phase is not seen[5]:
            kept[phase_part] = phase_rows[id(phase)]
        seen[3:] = faces, winds, phase
        kept[tail_part] = (
            state.turn, state.ship, state.crew, state.notoriety, state.booty, state.buried, state.orth,
            state.diag, state.flip, state.wind_tile, state.sight, state.draw, state.combat,
            len(state.fights), len(state.movers), len(state.arrived), state.did_bury, state.did_retrieve,
            state.drowned)
        return copy_into(kept, out)

    return Encoding(game, layout.size, fill, SlotSpace(PIRATES_SLOTS), observation, layout.bounds())
