"""A scaled character plot of a Hubs sheet: dot labels, segments, a frame. Pure text.

The lattice is squeezed onto a character grid (a character is about twice as tall as
it is wide, so rows are halved). The plot is only a sketch -- two dots may share a
character -- which is why :mod:`.svg` draws the exact picture.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from .actions import Segment, label
from .geometry import Point

if TYPE_CHECKING:
    from .rules import HubsState

#: a character cell: (character, style name); styles: dot, seg, last, frame, ""
Cell = tuple[str, str]

MAX_COLS = 72
MAX_ROWS = 24


def _scale(v: int, top: int, span: int) -> int:
    """``v`` in ``0..top`` to ``0..span``, rounded half up, in integers."""
    if top == 0:
        return 0
    return (2 * v * span + top) // (2 * top)


def _stroke(dc: int, dr: int) -> str:
    if abs(dr) * 2 < abs(dc):
        return "-"
    if abs(dc) * 2 < abs(dr):
        return "|"
    return "\\" if (dc > 0) == (dr > 0) else "/"


def sheet_grid(width: int, height: int, dots: Sequence[Point], segments: Sequence[Segment],
               cols: int | None = None, rows: int | None = None) -> list[list[Cell]]:
    """The framed plot of a sheet; y grows upward (HB-8); the last segment is styled ``last``."""
    # Small sheets get two columns per lattice step and a row per lattice row, so no two
    # dots share a character; large ones are squeezed to fit a terminal.
    cols = cols or (2 * width - 1 if 2 * width - 1 <= MAX_COLS else min(width, MAX_COLS))
    rows = rows or (height if height <= MAX_ROWS // 2 else min((height + 1) // 2, MAX_ROWS))
    grid: list[list[Cell]] = [[(" ", "")] * cols for _ in range(rows)]

    def cell(p: Point) -> tuple[int, int]:
        return _scale(p[0], width - 1, cols - 1), rows - 1 - _scale(p[1], height - 1, rows - 1)

    for n, segment in enumerate(segments):
        (c0, r0), (c1, r1) = cell(dots[segment.first]), cell(dots[segment.second])
        dc, dr = c1 - c0, r1 - r0
        steps = max(abs(dc), abs(dr), 1) * 2
        ch = _stroke(dc, dr)
        style = "last" if n == len(segments) - 1 else "seg"
        for t in range(steps + 1):
            c = c0 + (2 * dc * t + steps) // (2 * steps) if dc >= 0 else c0 - (2 * -dc * t + steps) // (2 * steps)
            r = r0 + (2 * dr * t + steps) // (2 * steps) if dr >= 0 else r0 - (2 * -dr * t + steps) // (2 * steps)
            grid[r][c] = (ch, style)
    for k, p in enumerate(dots):
        c, r = cell(p)
        name = label(k)
        for off, letter in enumerate(name):
            if c + off < cols:
                grid[r][c + off] = (letter, "dot")
    framed = [[("+", "frame")] + [("-", "frame")] * cols + [("+", "frame")]]
    framed += [[("|", "frame")] + row + [("|", "frame")] for row in grid]
    framed.append([("+", "frame")] + [("-", "frame")] * cols + [("+", "frame")])
    return framed


def segment_counts(dots: Sequence[Point], segments: Sequence[Segment]) -> list[int]:
    """How many segments end at each dot of a sheet."""
    counts = [0] * len(dots)
    for segment in segments:
        counts[segment.first] += 1
        counts[segment.second] += 1
    return counts


def state_sheet(state: "HubsState") -> tuple[tuple[Point, ...], tuple[Segment, ...], bool]:
    """The sheet worth showing: this round's, or the finished round's while a new one is empty."""
    if not state.dots and state.previous is not None:
        return state.previous[0], state.previous[1], True
    return state.dots, state.segments, False


def text_picture(state: "HubsState") -> str:
    """The plot plus a line on the round, the score and who moves."""
    g = state.game
    dots, segments, old = state_sheet(state)
    lines = ["".join(ch for ch, _ in row) for row in sheet_grid(g.width, g.height, dots, segments)]
    if old:
        lines.append(f"(round {state.round} as it ended)")
    lines.append(state.summary())
    return "\n".join(lines)
