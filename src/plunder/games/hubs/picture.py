"""A character plot of a Hubs sheet: one text row per lattice row, axes, labelled dots. Pure text.

Every lattice point the plot shows has a character of its own (two across once labels take
two letters), so two dots never share one; the map from lattice to characters is linear,
so segments cross on the plot exactly where they cross on the sheet. A sheet too large for
the screen is shown through a window: the part holding the most dots, then the last move.
Dots beyond the window sit on its frame, at their row or column, labelled, so a segment
can still be chosen by them; the frame is ``~`` where the sheet goes on beyond it.

The axes carry the coordinates a dot is placed by (``dot X,Y``, y upward, HB-8): every
row's y at its left, x under the frame. A segment is drawn with line characters
(``- | / \\``) that never overwrite a dot's label, and the last one in its own style.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from .actions import Segment, label
from .geometry import Point

if TYPE_CHECKING:
    from .rules import HubsState

#: a character cell: (character, style name); styles: dot, done, seg, last, away, frame, axis, grid, ""
Cell = tuple[str, str]

#: lattice rows the terminal shows at once: with the title, frame, x axis and notes the board
#: takes 21 of an 80x24 screen's rows, leaving room for the move told and the prompt
VIEW_ROWS = 14
#: characters across the terminal shows for the sheet (80 less the y axis and the frame)
VIEW_COLS = 74
#: a faint point marks every GUIDE-th lattice point in both directions, to read coordinates by
GUIDE = 5


def _stroke(dc: int, dr: int) -> str:
    if abs(dr) * 2 < abs(dc):
        return "-"
    if abs(dc) * 2 < abs(dr):
        return "|"
    return "\\" if (dc > 0) == (dr > 0) else "/"


def _round_div(a: int, b: int) -> int:
    """``a / b`` rounded half up, in integers (``b > 0``)."""
    return (2 * a + b) // (2 * b)


@dataclass(frozen=True)
class View:
    """The part of a sheet a plot shows: lattice columns ``x0..x1``, rows ``y0..y1``, and
    ``step`` characters per column (2 when labels take two letters or the sheet is small)."""

    x0: int
    x1: int
    y0: int
    y1: int
    step: int

    def holds(self, p: Point) -> bool:
        """True when the lattice point ``p`` is inside the window."""
        return self.x0 <= p[0] <= self.x1 and self.y0 <= p[1] <= self.y1

    def whole(self, width: int, height: int) -> bool:
        """True when the window is the whole sheet."""
        return (self.x0, self.y0, self.x1, self.y1) == (0, 0, width - 1, height - 1)


def _window(size: int, span: int, coords: Sequence[int], focus: Sequence[int]) -> tuple[int, int]:
    """The ``span`` consecutive values of ``0..size-1`` to show along one axis: holding the most
    ``coords`` (the dots), then the most ``focus`` values (the last move), then centred on the dots."""
    if size <= span:
        return 0, size - 1
    middle2 = (min(coords) + max(coords)) if coords else size - 1  # twice the middle
    best: tuple[int, int, int] | None = None
    start = 0
    for s in range(size - span + 1):
        key = (sum(s <= v < s + span for v in coords), sum(s <= v < s + span for v in focus),
               -abs(2 * s + span - 1 - middle2))
        if best is None or key > best:
            best, start = key, s
    return start, start + span - 1


def choose_view(width: int, height: int, dots: Sequence[Point], focus: Sequence[Point],
                cols: int = VIEW_COLS, rows: int = VIEW_ROWS) -> View:
    """The window of a ``width`` x ``height`` sheet shown in ``cols`` characters by ``rows`` rows."""
    step = 2 if len(dots) > 26 or 2 * width <= cols else 1
    xs, ys = _window(width, max(1, cols // step), [p[0] for p in dots], [p[0] for p in focus])
    ys0, ys1 = _window(height, rows, [p[1] for p in dots], [p[1] for p in focus])
    return View(xs, ys, ys0, ys1, step)


def sheet_plot(width: int, height: int, dots: Sequence[Point], segments: Sequence[Segment],
               degree: Sequence[int], view: View) -> list[list[Cell]]:
    """The framed plot of ``view``, with the y axis at the left and the x axis under it."""
    step = view.step
    ncols = (view.x1 - view.x0 + 1) * step
    nrows = view.y1 - view.y0 + 1
    grid: list[list[Cell]] = [[(" ", "")] * ncols for _ in range(nrows)]

    def char_at(p: Point) -> tuple[int, int]:
        """The (column, row) of a lattice point in plot characters; may fall outside the grid."""
        return (p[0] - view.x0) * step, view.y1 - p[1]

    for y in range(view.y0, view.y1 + 1):
        if y % GUIDE == 0:
            for x in range(-(-view.x0 // GUIDE) * GUIDE, view.x1 + 1, GUIDE):
                c, r = char_at((x, y))
                grid[r][c] = (".", "grid")
    labels = [label(k) for k in range(len(dots))]
    taken = {(char_at(p)[0] + i, char_at(p)[1]) for p, name in zip(dots, labels) for i in range(len(name))}
    for n, segment in enumerate(segments):
        (c0, r0), (c1, r1) = char_at(dots[segment.first]), char_at(dots[segment.second])
        dc, dr = c1 - c0, r1 - r0
        steps = max(abs(dc), abs(dr))
        ch = _stroke(dc, dr)
        style = "last" if n == len(segments) - 1 else "seg"
        for t in range(1, steps):
            c = c0 + (_round_div(dc * t, steps) if dc >= 0 else -_round_div(-dc * t, steps))
            r = r0 + (_round_div(dr * t, steps) if dr >= 0 else -_round_div(-dr * t, steps))
            if 0 <= c < ncols and 0 <= r < nrows and (c, r) not in taken:
                grid[r][c] = (ch, style)
    edge = {side: ("-" if at_edge else "~") for side, at_edge in
            (("top", view.y1 == height - 1), ("bottom", view.y0 == 0))}
    left_edge = "|" if view.x0 == 0 else "~"
    right_edge = "|" if view.x1 == width - 1 else "~"
    top: list[Cell] = [(edge["top"], "frame")] * ncols
    bottom: list[Cell] = [(edge["bottom"], "frame")] * ncols
    left: list[Cell] = [(left_edge, "frame")] * nrows
    right: list[Cell] = [(right_edge, "frame")] * nrows
    tick = GUIDE if step == 2 else 2 * GUIDE
    for x in range(view.x0, view.x1 + 1):
        if x % tick == 0 and x > view.x0:
            bottom[(x - view.x0) * step] = ("+", "frame")
    for k, p in enumerate(dots):
        name = labels[k]
        style = "done" if degree[k] >= 2 else "dot"
        c, r = char_at(p)
        if view.holds(p):
            for i, letter in enumerate(name):
                grid[r][c + i] = (letter, style)
            continue
        # beyond the window: on the frame, at its column (top, bottom) or its row (sides)
        c = min(max(c, 0), ncols - 1)
        r = min(max(r, 0), nrows - 1)
        if p[1] > view.y1 or p[1] < view.y0:
            border = top if p[1] > view.y1 else bottom
            for i, letter in enumerate(name[: ncols - c]):
                border[c + i] = (letter, "away")
        else:
            side = left if p[0] < view.x0 else right
            side[r] = (name if len(name) == 1 else ("<" if side is left else ">"), "away")
    ywidth = len(str(height - 1))
    pad: list[Cell] = [(" ", "")] * ywidth
    plot: list[list[Cell]] = [pad + [("+", "frame")] + top + [("+", "frame")]]
    for r, row in enumerate(grid):
        plot.append([(ch, "axis") for ch in str(view.y1 - r).rjust(ywidth)] + [left[r]] + row + [right[r]])
    plot.append(pad + [("+", "frame")] + bottom + [("+", "frame")])
    axis: list[Cell] = [(" ", "")] * (ywidth + 1 + ncols + 1)
    free = 0
    for x in [view.x0] + [x for x in range(view.x0, view.x1 + 1) if x % tick == 0]:
        at = ywidth + 1 + (x - view.x0) * step
        text = str(x)
        if at >= free and at + len(text) <= len(axis) + 2:
            axis[at:at + len(text)] = [(ch, "axis") for ch in text]
            free = at + len(text) + 1
    plot.append(axis)
    return plot


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


def last_move(dots: Sequence[Point], segments: Sequence[Segment]) -> list[Point]:
    """The points of the sheet's last move: a segment's two ends, or the last dot placed."""
    if segments:
        return [dots[segments[-1].first], dots[segments[-1].second]]
    return list(dots[-1:])


def state_plot(state: "HubsState", cols: int = VIEW_COLS, rows: int = VIEW_ROWS) -> tuple[View, list[list[Cell]]]:
    """The window of the sheet worth showing and its plot."""
    g = state.game
    dots, segments, _ = state_sheet(state)
    view = choose_view(g.width, g.height, dots, last_move(dots, segments), cols, rows)
    return view, sheet_plot(g.width, g.height, dots, segments, segment_counts(dots, segments), view)


#: the largest plot :func:`text_picture` draws (it is not bound to a terminal's size)
TEXT_COLS, TEXT_ROWS = 200, 100


def text_picture(state: "HubsState") -> str:
    """The plot (the whole sheet up to :data:`TEXT_COLS` x :data:`TEXT_ROWS`) and a line on the round."""
    _, plot = state_plot(state, TEXT_COLS, TEXT_ROWS)
    lines = ["".join(ch for ch, _ in row).rstrip() for row in plot]
    if state_sheet(state)[2]:
        lines.append(f"(round {state.round} as it ended)")
    lines.append(state.summary())
    return "\n".join(lines)
