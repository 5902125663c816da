"""The text picture of a Pillage position: a character grid with a style per cell.

Dots are drawn at their scaled coordinates with column letters above and row numbers
to the left, so ``a1-b1`` can be read off the picture. Drawn lines are solid, undrawn
ones dotted; each box shows its contents, and once captured, its captor's number.
The same grid feeds the plain text (``str(state)``) and the coloured terminal view.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Iterable

from .board import Board, column_name
from .contents import Modifier, content_short, content_text

if TYPE_CHECKING:
    from .rules import PillageState

Cell = tuple[str, str]  # character, style name

#: a file board's smallest gap between distinct coordinates, in columns and rows
FIT_STEP = (6, 3)
#: no gap is drawn wider than this many smallest gaps, so far-apart pieces stay in view
MAX_GAP_STEPS = 4
#: the board part of a picture never exceeds this many columns and rows, whatever the coordinates
MAX_COLUMNS = 1000
MAX_ROWS = 500


@dataclass(frozen=True)
class Layout:
    """Where a board's dots go on a character grid, in columns right of / rows below the first dot.

    Each gap between neighbouring distinct coordinates keeps its share of the axis (so
    regular boards keep their shape) but is drawn at most :data:`MAX_GAP_STEPS` smallest
    gaps wide, and the whole is squeezed into :data:`MAX_COLUMNS` x :data:`MAX_ROWS`: the
    picture's size depends on the number of distinct coordinates, never on their values.
    ``column[v]``/``row[v]`` map each distinct x / y; ``row_step`` is the rows per unit of a
    generated board or per smallest gap of a fitted one (room for a captor's number under a
    box's contents when 2.5 or more).
    """

    column: dict[Fraction, float]
    row: dict[Fraction, float]
    row_step: float

    def at(self, point: tuple[Fraction, Fraction]) -> tuple[float, float]:
        """(column, row) of a point of the board."""
        return self.column[point[0]], self.row[point[1]]


def _axis(values: Iterable[Fraction], per_unit: float | None, fit_step: int, limit: int) -> tuple[dict[Fraction, float], float]:
    """Positions of distinct ``values``, and the factor they were squeezed by (see :class:`Layout`)."""
    ordered = sorted(set(values))
    gaps = [b - a for a, b in zip(ordered, ordered[1:])]
    smallest = min(gaps, default=Fraction(1))
    step = float(smallest) * per_unit if per_unit is not None else float(fit_step)
    place = [0.0]
    for gap in gaps:
        place.append(place[-1] + step * float(min(gap / smallest, Fraction(MAX_GAP_STEPS))))
    squeeze = min(1.0, limit / place[-1]) if place[-1] > 0 else 1.0
    return {v: p * squeeze for v, p in zip(ordered, place)}, squeeze


def board_layout(board: Board) -> Layout:
    """The board's :class:`Layout`: generated boards at their own scale, file boards fitted."""
    sx, sy = board.scale if board.scale is not None else (None, None)
    column, _ = _axis((p[0] for p in board.dots), sx, FIT_STEP[0], MAX_COLUMNS)
    row, squeeze = _axis((p[1] for p in board.dots), sy, FIT_STEP[1], MAX_ROWS)
    return Layout(column, row, (sy if sy is not None else FIT_STEP[1]) * squeeze)


def _line_char(dx: float, dy: float, drawn: bool) -> str:
    if abs(dy) < 1e-9:
        return "─" if drawn else "·"
    if abs(dx) < 1e-9:
        return "│" if drawn else "·"
    if drawn:
        return "\\" if dx * dy > 0 else "/"
    return "·"


def board_grid(state: "PillageState") -> list[list[Cell]]:
    """Rows of (char, style) cells picturing the board of ``state`` (size bounded by :class:`Layout`)."""
    g = state.game
    board = g.board
    layout = board_layout(board)
    xs = sorted(layout.column)
    ys = sorted(layout.row)
    left = max(len(str(len(ys))), 1) + 2
    top = 2

    def col(x: float) -> int:
        return left + round(x)

    def row(y: float) -> int:
        return top + round(y)

    width = col(layout.column[xs[-1]]) + 3
    height = row(layout.row[ys[-1]]) + 1
    grid: list[list[Cell]] = [[(" ", "") for _ in range(width)] for _ in range(height)]

    def put(r: int, c: int, ch: str, style: str, over: bool = True) -> None:
        if 0 <= r < height and 0 <= c < width and (over or grid[r][c][0] == " "):
            grid[r][c] = (ch, style)

    for i, xv in enumerate(xs):
        for j, ch in enumerate(column_name(i)):
            put(0, col(layout.column[xv]) + j, ch, "axis", over=False)
    for i, yv in enumerate(ys):
        for j, ch in enumerate(str(i + 1).rjust(left - 2)):
            put(row(layout.row[yv]), j, ch, "axis")
    for e, (a, b) in enumerate(board.edges):
        drawn = bool(state.drawn >> e & 1)
        style = "last" if e == state.last_edge else ("line" if drawn else "free")
        (x0, y0), (x1, y1) = layout.at(board.dots[a]), layout.at(board.dots[b])
        c0, r0, c1, r1 = col(x0), row(y0), col(x1), row(y1)
        steps = max(abs(c1 - c0), abs(r1 - r0))
        ch = _line_char(x1 - x0, y1 - y0, drawn)
        for s in range(1, steps):
            if not drawn and abs(r1 - r0) == 0 and s % 2 == 0:
                continue  # sparse dots read as "not yet drawn"
            put(round(r0 + (r1 - r0) * s / steps), round(c0 + (c1 - c0) * s / steps), ch, style)
    for dot in board.dots:
        x, y = layout.at(dot)
        put(row(y), col(x), "•", "dot")
    for b, cycle in enumerate(board.boxes):
        cx = sum(layout.at(board.dots[d])[0] for d in cycle) / len(cycle)
        cy = sum(layout.at(board.dots[d])[1] for d in cycle) / len(cycle)
        content = state.contents[b]
        text = "?" if content is None else content_short(content, g.legend)
        owner = state.owner[b]
        style = f"p{owner}" if owner >= 0 else "content"
        r, c = top + math.floor(cy), col(cx) - len(text) // 2
        if owner >= 0 and layout.row_step >= 2.5:
            put(r + 1, col(cx), str(owner + 1), style, over=False)
        elif owner >= 0:
            text = f"{text}{owner + 1}"
            c = col(cx) - len(text) // 2
        for k, ch in enumerate(text):
            put(r, c + k, ch, style, over=False)
    return grid


def grid_text(grid: list[list[Cell]]) -> str:
    """Plain text of a grid, trailing spaces trimmed."""
    return "\n".join("".join(ch for ch, _ in line).rstrip() for line in grid)


def status_lines(state: "PillageState") -> list[str]:
    """Legend values, tallies, scores and who acts, as plain lines."""
    g = state.game
    legend = ", ".join(f"{k} = {v}" for k, v in zip(g.legend.kinds, state.values))
    lines = [f"Legend: {legend}" + (f" (floor {g.floor})" if g.floor is not None else "")]
    scores = state.scores()
    for p in (0, 1):
        goods = ", ".join(f"{n} {k}" for k, n in zip(g.legend.kinds, state.held[p]) if n)
        lines.append(f"{g.seat_name(p)}: {state.doubloons[p]} doubloon{'' if state.doubloons[p] == 1 else 's'}" + (f", {goods}" if goods else "")
                     + f"  -> score {scores[p]:g}")
    modifiers = modifier_key(state)
    if modifiers:
        lines.append(modifiers)
    lines.append(state.summary().split(", ", 1)[1].split(" [")[0])
    return lines


def modifier_key(state: "PillageState") -> str:
    """``Modifiers: -5FWA = -5 food/weapons/armor; ...`` for the uncaptured modifiers, or ``""``."""
    g = state.game
    codes = {content_short(c, g.legend): content_text(c, g.legend)
             for b, c in enumerate(state.contents) if isinstance(c, Modifier) and state.owner[b] < 0}
    return "Modifiers: " + "; ".join(f"{s} = {t}" for s, t in sorted(codes.items())) if codes else ""


def state_text(state: "PillageState") -> str:
    """The whole text picture: board, legend, tallies."""
    return grid_text(board_grid(state)) + "\n\n" + "\n".join(status_lines(state))
