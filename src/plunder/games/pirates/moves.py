"""Movement: the pirate's sail steps (PR-4) and the other ships' flee/chase routes (PR-7).

Pure functions over a :class:`~.sea.Sea` and the tiles' winds (``winds[t]`` is an
index into :data:`~.sea.WINDS`, or -1 while tile ``t`` is face-down).
"""

from __future__ import annotations

from typing import Sequence

from .sea import OPPOSITE, ORTH, WINDS, Cell, Sea


def distance(a: Cell, b: Cell) -> int:
    """Manhattan distance in spaces, across land as well (PR-7)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def wind_at(sea: Sea, winds: Sequence[int], cell: Cell) -> str | None:
    """The wind of ``cell``'s tile, or ``None`` while that tile is face-down."""
    w = winds[sea.tile_at[cell]]
    return None if w < 0 else WINDS[w]


def sail_steps(sea: Sea, winds: Sequence[int], pos: Cell, orth: int, last: str, diag: bool) -> list[tuple[str, Cell]]:
    """The pirate's legal next steps (PR-4) as ``(direction, target)``.

    ``orth`` orthogonal steps taken so far this turn, ``last`` the direction of the
    latest one ('' if none), ``diag`` whether the wind step is used.
    """
    out: list[tuple[str, Cell]] = []
    if orth < 2:
        for d in ORTH:
            if orth == 1 and d == OPPOSITE[last]:
                continue  # never reversing
            target = sea.step(pos, d)
            if target is not None:
                out.append((d, target))
    if not diag:
        w = wind_at(sea, winds, pos)
        if w is not None:
            target = sea.step(pos, w)
            if target is not None:
                out.append((w, target))
    return out


def reachable(sea: Sea, winds: Sequence[int], pos: Cell, orth: int = 0, last: str = "", diag: bool = False) -> set[Cell]:
    """Every space the pirate may end this sail on, by breadth-first search over its
    sail progress. A face-down tile entered on the way may be given any wind (the
    player chooses it on the flip), so all four are tried there."""
    start = (pos, orth, last, diag, tuple(winds))
    seen = {start}
    frontier = [start]
    ends = {pos}
    while frontier:
        nxt = []
        for cell, o, l, dg, ws in frontier:
            for d, target in sail_steps(sea, ws, cell, o, l, dg):
                t = sea.tile_at[target]
                options = [ws] if ws[t] >= 0 else [ws[:t] + (w,) + ws[t + 1:] for w in range(4)]
                for wv in options:
                    key = (target, o + 1, d, dg, wv) if d in ORTH else (target, o, l, True, wv)
                    ends.add(target)
                    if key not in seen:
                        seen.add(key)
                        nxt.append(key)
        frontier = nxt
    return ends


def ship_routes(sea: Sea, winds: Sequence[int], cell: Cell, pirate: Cell) -> tuple[list[Cell], list[Cell]]:
    """Where another ship may go in one sail (PR-7): (orthogonal-only ends, ends using the
    wind). The wind step is taken before or after the orthogonal step, each time in
    the wind of the tile the ship is on then, and never from a face-down tile. A route
    that sails onto the pirate's space at any step ends there: the ship stops and fights
    (PR-15), so a wind step onto the pirate is a whole route and nothing sails on from it."""
    plain: list[Cell] = []
    windy: list[Cell] = []
    w0 = wind_at(sea, winds, cell)
    first = sea.step(cell, w0) if w0 else None
    if first == pirate:
        windy.append(first)
        first = None
    for d in ORTH:
        one = sea.step(cell, d)
        if one is not None:
            plain.append(one)
            w1 = wind_at(sea, winds, one) if one != pirate else None
            two = sea.step(one, w1) if w1 else None
            if two is not None:
                windy.append(two)
        if first is not None:
            two = sea.step(first, d)
            if two is not None:
                windy.append(two)
    return plain, windy


def ship_destinations(sea: Sea, winds: Sequence[int], cell: Cell, pirate: Cell, flee: bool) -> list[Cell]:
    """The best ends for a fleeing (``flee``) or chasing ship at ``cell`` (PR-7), sorted.

    The ship uses the wind only when that reaches a strictly better distance than
    sailing orthogonally alone (PR-11); it stays (``[cell]``) when no route improves
    on its present distance. A route onto the pirate's space ends there at distance 0
    (PR-15): a chaser that can reach the pirate always does, a fleeing ship never will.
    Several ends mean a tie for the player to break.
    """
    sign = 1 if flee else -1
    here = sign * distance(cell, pirate)
    plain, windy = ship_routes(sea, winds, cell, pirate)
    best_plain = max((sign * distance(c, pirate) for c in plain), default=None)
    best_windy = max((sign * distance(c, pirate) for c in windy), default=None)
    if best_windy is not None and (best_plain is None or best_windy > best_plain):
        best, pool = best_windy, windy
    elif best_plain is not None:
        best, pool = best_plain, plain
    else:
        return [cell]
    if best <= here:
        return [cell]
    return sorted({c for c in pool if sign * distance(c, pirate) == best}, key=lambda c: (c[1], c[0]))
