"""Pig as a picture for the web app and ``plunder render``: both scores as bars towards the
goal, the die's last face, the turn total, and ``roll``/``hold`` as buttons."""

from __future__ import annotations

from plunder.core.game import State
from plunder.core.svg import INK, MUTED, RULE, SEAT, SEAT_FILL, Picture, Shown, legal_texts

from .rules import PigAction, PigState

WIDTH = 640.0
MARGIN = 28.0
#: pips of each face on a 3x3 grid (row, column)
PIPS = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (0, 2), (2, 0), (2, 2)],
        5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)], 6: [(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)]}


def svg(state: State[PigAction], shown: Shown | None = None) -> str:
    """The position as a standalone SVG document."""
    assert isinstance(state, PigState)
    game = state.game
    goal = game.values["goal"]
    pic = Picture(WIDTH)
    inner = WIDTH - 2 * MARGIN
    y = MARGIN
    for seat in (0, 1):
        share = min(state.banked[seat] / goal, 1.0)
        pic.text(MARGIN, y + 14, f"{game.seat_name(seat)}: {state.banked[seat]} of {goal}", 14, SEAT[seat], bold=True)
        pic.rect(MARGIN, y + 20, inner, 14, "#ffffff", stroke=RULE)
        pic.rect(MARGIN, y + 20, inner * share, 14, SEAT_FILL[seat], stroke=SEAT[seat])
        y += 44
    _die(pic, state.last, MARGIN, y + 4)
    told = f"{game.seat_name(state.mover)}'s turn total: {state.turn_total}" if not state.is_terminal() else ""
    pic.text(MARGIN + 70, y + 28, told, 14, INK)
    pic.text(MARGIN + 70, y + 48, f"turn {min(state.turns + 1, game.values['turns'])} of at most "
             f"{game.values['turns']}", 12, MUTED)
    y += 70
    y = pic.buttons(state, list(legal_texts(state)), MARGIN, y, inner)
    y = pic.caption(state, shown, MARGIN, y, inner, waiting="the die")
    pic.height = y + MARGIN
    return pic.document(f"Pig {state.banked[0]}-{state.banked[1]}")


def _die(pic: Picture, face: int, x: float, y: float, size: float = 54.0) -> None:
    """The die showing ``face`` (blank before the first roll)."""
    pic.rect(x, y, size, size, "#ffffff", rx=8, stroke=INK, stroke_width=1.5)
    step = size / 4
    for row, column in PIPS.get(face, []):
        pic.circle(x + step * (column + 1), y + step * (row + 1), size / 11, INK)
