"""Line numbering shared with OpenSpiel's ``dots_and_boxes`` (for cross-checks and matches).

OpenSpiel numbers the horizontal lines of an R x C board row by row first, then the
vertical ones; Pillage numbers edges as its board generator met them.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from .rules import PillageGame


def to_openspiel(game: PillageGame, edge: int) -> int:
    """OpenSpiel's action id for Pillage line ``edge`` on a ``square:RxC`` board."""
    kind, _, size = game.board.name.partition(":")
    if kind != "square":
        raise ValueError(f"only square boards match OpenSpiel's dots_and_boxes, not {game.board.name}")
    rows, cols = (int(x) for x in size.split("x"))
    a, b = game.board.edges[edge]
    (xa, ya), (xb, yb) = game.board.dots[a], game.board.dots[b]
    if ya == yb:
        return int(ya) * cols + int(min(xa, xb))
    return (rows + 1) * cols + int(min(ya, yb)) * (cols + 1) + int(xa)


def from_openspiel(game: PillageGame, action: int) -> int:
    """Pillage line for OpenSpiel's action id ``action``."""
    table = _TABLES.get(game)
    if table is None:
        table = _TABLES[game] = {to_openspiel(game, e): e for e in range(game.num_edges)}
    return table[action]


#: per game, OpenSpiel's action id -> Pillage line; made once per game (the game object keys it,
#: so the table goes when the game does)
_TABLES: "WeakKeyDictionary[PillageGame, dict[int, int]]" = WeakKeyDictionary()
