"""A plain-text picture of a pirates position: the grid used by ``str(state)`` and tests.

Two characters per space: ``##`` land, ``$$`` the chest, ``P2`` the pirate (ship
value; ``P-`` shipless), ``s3`` another ship (flag initial a/c/s and size; ``*2``
for two ships), ``..`` a face-down space; on a face-up tile the NW space shows the
suit initial and value (``A4``), the NE space the wind (``NE``), the others are blank.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import tables as T
from .sea import WINDS, Cell

if TYPE_CHECKING:
    from .rules import PiratesState


def cell_label(state: "PiratesState", cell: Cell) -> str:
    """The two-character label of one grid cell."""
    sea = state.sea
    if cell == state.pos:
        return "P" + ("-" if state.ship < 0 else str(state.ship))
    ships = state.ships_on(cell)
    if len(ships) == 1:
        return T.coin_suit(ships[0])[0] + str(T.coin_value(ships[0]))
    if ships:
        return f"*{len(ships)}"
    if not sea.is_sea(cell):
        return "$$" if cell == state.chest else "##"
    tile = sea.tile_at[cell]
    if state.faces[tile] < 0:
        return ".."
    ox, oy = sea.origins[tile]
    if cell == (ox, oy):
        face = state.faces[tile]
        return T.TILE_SUITS[face // 6][0].upper() + str(T.face_value(face))
    if cell == (ox + 1, oy) and state.winds[tile] >= 0:
        return WINDS[state.winds[tile]]
    return "  "


def picture(state: "PiratesState") -> str:
    """The whole sea as text, with x across the top and y down the side, then the tracks."""
    sea = state.sea
    head = "   " + "".join(f"{x:>2}" for x in range(sea.width))
    rows = [head]
    for y in range(sea.height):
        rows.append(f"{y:>2} " + "".join(cell_label(state, (x, y)) for x in range(sea.width)))
    rows.append(state.summary())
    return "\n".join(rows)
