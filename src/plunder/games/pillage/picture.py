"""The text picture of a Pillage position: a character grid with a style per cell.

Dots are drawn at their scaled coordinates with column letters above and row numbers
to the left, so ``a1-b1`` can be read off the picture. Drawn lines are solid, undrawn
ones dotted; each box shows its contents, and once captured, its captor's number.
The same grid feeds the plain text (``str(state)``) and the coloured terminal view.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .board import column_name
from .contents import Modifier, content_short, content_text

if TYPE_CHECKING:
    from .rules import PillageState

Cell = tuple[str, str]  # character, style name


def _line_char(dx: float, dy: float, drawn: bool) -> str:
    if abs(dy) < 1e-9:
        return "─" if drawn else "·"
    if abs(dx) < 1e-9:
        return "│" if drawn else "·"
    if drawn:
        return "\\" if dx * dy > 0 else "/"
    return "·"


def board_grid(state: "PillageState") -> list[list[Cell]]:
    """Rows of (char, style) cells picturing the board of ``state``."""
    g = state.game
    board = g.board
    sx, sy = board.scale
    xs = sorted({float(p[0]) for p in board.dots})
    ys = sorted({float(p[1]) for p in board.dots})
    left = max(len(str(len(ys))), 1) + 2
    top = 2

    def col(x: float) -> int:
        return left + round((x - xs[0]) * sx)

    def row(y: float) -> int:
        return top + round((y - ys[0]) * sy)

    width = col(xs[-1]) + 3
    height = row(ys[-1]) + 1
    grid: list[list[Cell]] = [[(" ", "") for _ in range(width)] for _ in range(height)]

    def put(r: int, c: int, ch: str, style: str, over: bool = True) -> None:
        if 0 <= r < height and 0 <= c < width and (over or grid[r][c][0] == " "):
            grid[r][c] = (ch, style)

    for i, x in enumerate(xs):
        for j, ch in enumerate(column_name(i)):
            put(0, col(x) + j, ch, "axis", over=False)
    for i, y in enumerate(ys):
        for j, ch in enumerate(str(i + 1).rjust(left - 2)):
            put(row(y), j, ch, "axis")
    for e, (a, b) in enumerate(board.edges):
        drawn = bool(state.drawn >> e & 1)
        style = "last" if e == state.last_edge else ("line" if drawn else "free")
        (x0, y0), (x1, y1) = board.dots[a], board.dots[b]
        c0, r0, c1, r1 = col(float(x0)), row(float(y0)), col(float(x1)), row(float(y1))
        steps = max(abs(c1 - c0), abs(r1 - r0))
        ch = _line_char(float(x1 - x0), float(y1 - y0), drawn)
        for s in range(1, steps):
            if not drawn and abs(r1 - r0) == 0 and s % 2 == 0:
                continue  # sparse dots read as "not yet drawn"
            put(round(r0 + (r1 - r0) * s / steps), round(c0 + (c1 - c0) * s / steps), ch, style)
    for p in board.dots:
        put(row(float(p[1])), col(float(p[0])), "•", "dot")
    for b in range(board.num_boxes):
        cx, cy = board.centroid(b)
        content = state.contents[b]
        text = "?" if content is None else content_short(content, g.legend)
        owner = state.owner[b]
        style = f"p{owner}" if owner >= 0 else "content"
        r, c = top + math.floor((cy - ys[0]) * sy), col(cx) - len(text) // 2
        if owner >= 0 and board.scale[1] >= 2.5:
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
