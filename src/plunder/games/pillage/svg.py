"""An SVG picture of a Pillage position: boxes shaded by captor, lines, dots, labels.

Each box shows its contents in short (``$3``, ``F``, ``-5FWA``); the modifiers' codes are
spelled out under the board, so no text is cut to fit a box. Dot labels sit on a halo so
that no line or dot hides them. The lines a player may draw carry their action text
(``a1-b1``) and a pending modifier's choices are buttons; the last line drawn is orange.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from ...core.svg import ACCENT, INK, MUTED, PAPER, SEAT, SEAT_FILL, TARGET, Picture, Shown, legal_texts
from .actions import Choose
from .board import Board
from .contents import content_short
from .picture import FIT_STEP, board_layout, modifier_key
from .rules import PillageState

UNIT = 60.0
MARGIN = 40.0
MIN_WIDTH = 600.0
#: the width a small board is zoomed to, and the most a board takes (width, height)
FILL_WIDTH = 440.0
MAX_BOARD = (780.0, 560.0)
BOX = "#f6eed9"


#: the spots of the boards drawn lately, by the board's identity (a board never changes, and a
#: game draws its own every move: hashing it, or laying it out again, cost more than the drawing)
_SPOTS: OrderedDict[int, tuple[Board, list[tuple[float, float]]]] = OrderedDict()
_SPOTS_KEPT = 256
_SPOTS_LOCK = threading.Lock()


def board_spots(board: Board) -> list[tuple[float, float]]:
    """Where each dot of ``board`` is drawn, in pixels right of and below the board's corner:
    the text picture's layout (bounded whatever the coordinates) zoomed to fill 440-780
    pixels (the picture and the web app's board editor place dots alike)."""
    with _SPOTS_LOCK:  # pictures are drawn in threads too
        kept = _SPOTS.get(id(board))
        if kept is not None and kept[0] is board:
            _SPOTS.move_to_end(id(board))
            return list(kept[1])
    spots = _spots(board)
    with _SPOTS_LOCK:
        _SPOTS[id(board)] = (board, spots)  # the board held: its id is not reused while kept
        while len(_SPOTS) > _SPOTS_KEPT:
            _SPOTS.popitem(last=False)
    return list(spots)


def _spots(board: Board) -> list[tuple[float, float]]:
    layout = board_layout(board)
    sx, sy = board.scale if board.scale is not None else FIT_STEP
    # its smallest step ~UNIT, a row counted as half a column as characters are about twice as tall as wide
    fx, fy = UNIT / max(sx, sy * 2), UNIT * 2 / max(sx, sy * 2)
    spots = [layout.at(p) for p in board.dots]
    board_w = max(x for x, _ in spots) * fx
    board_h = max(y for _, y in spots) * fy
    # a small board is drawn larger, a large one smaller
    zoom = min(max(1.0, FILL_WIDTH / max(board_w, 1.0)), MAX_BOARD[0] / max(board_w, 1.0),
               MAX_BOARD[1] / max(board_h, 1.0))
    return [(x * fx * zoom, y * fy * zoom) for x, y in spots]


def svg(state: PillageState, shown: Shown | None = None) -> str:
    """The position as a standalone SVG document (see the module text)."""
    g = state.game
    board = g.board
    spots = board_spots(board)
    board_w = max(x for x, _ in spots)
    board_h = max(y for _, y in spots)
    width = max(MIN_WIDTH, board_w + 2 * MARGIN)
    left = (width - board_w) / 2

    def at(d: int) -> tuple[float, float]:
        return left + spots[d][0], MARGIN + spots[d][1]

    pic = Picture(width)
    legal = legal_texts(state)
    for b, cycle in enumerate(board.boxes):
        owner = state.owner[b]
        pic.polygon([at(d) for d in cycle], SEAT_FILL[owner] if owner >= 0 else BOX, class_="box")
    for b, cycle in enumerate(board.boxes):
        owner = state.owner[b]
        cx = sum(at(d)[0] for d in cycle) / len(cycle)
        cy = sum(at(d)[1] for d in cycle) / len(cycle)
        content = state.contents[b]
        text = "?" if content is None else content_short(content, g.legend)
        pic.text(cx, cy + 5, text, 14 if len(text) <= 4 else 11, SEAT[owner] if owner >= 0 else INK,
                 anchor="middle", bold=owner >= 0)
    for e, (a, b) in enumerate(board.edges):
        (x1, y1), (x2, y2) = at(a), at(b)
        if state.drawn >> e & 1:
            pic.line(x1, y1, x2, y2, ACCENT if e == state.last_edge else INK, 3.5, class_="line drawn")
            continue
        action = legal.get(g.lines[e])
        pic.open(data_action=action, class_="action line" if action else "line")
        if action:  # a wide clear stroke makes the line easy to hit
            pic.line(x1, y1, x2, y2, TARGET, 12, stroke_opacity=0.0)
        pic.line(x1, y1, x2, y2, "#a9a294", 1.5, stroke_dasharray="3,5")
        pic.close()
    for d in range(len(board.dots)):
        x, y = at(d)
        pic.circle(x, y, 4.5, INK)
    for d in range(len(board.dots)):
        x, y = at(d)
        # up and to the left of its dot, between the lines, on a halo
        pic.text(x - 5, y - 6, board.labels[d], 11, MUTED, anchor="end", stroke=PAPER, stroke_width=3,
                 paint_order="stroke", class_="label")
    y = MARGIN + board_h + 18
    inner = width - 2 * MARGIN
    legend = ", ".join(f"{k} ({g.legend.short(i)}) = {v}" for i, (k, v) in enumerate(zip(g.legend.kinds, state.values)))
    y = pic.paragraph(MARGIN, y, f"Legend: {legend}" + (f" (floor {g.floor})" if g.floor is not None else ""),
                      inner, 13)
    key = modifier_key(state)
    if key:
        y = pic.paragraph(MARGIN, y, key, inner, 13, MUTED)
    for p in (0, 1):
        goods = ", ".join(f"{n} {k}" for k, n in zip(g.legend.kinds, state.held[p]) if n)
        y = pic.paragraph(MARGIN, y, f"{g.seat_name(p)}: {state.doubloons[p]} doubloon{'' if state.doubloons[p] == 1 else 's'}"
                          + (f", {goods}" if goods else "") + f": score {state.scores()[p]:g}", inner, 13, SEAT[p])
    choices = [a for a in legal if isinstance(a, Choose)]
    y = pic.buttons(state, choices, MARGIN, y + 4, inner, "Modifier:")
    pic.height = pic.caption(state, shown, MARGIN, y + 4, inner) + MARGIN / 2
    return pic.document(f"Pillage: {state.summary()}")
