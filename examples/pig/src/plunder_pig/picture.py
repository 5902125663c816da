"""Pig as a picture for the web app and ``plunder render``: both scores as bars towards the
goal, the die's last face, the turn total, and ``roll``/``hold`` as buttons. Everything is
drawn large: on a phone the picture is shrunk to the screen's width."""

from __future__ import annotations

from plunder.core.svg import INK, MUTED, RULE, SEAT, SEAT_FILL, Picture, Shown, legal_texts

from .rules import PigState

WIDTH = 640.0
MARGIN = 28.0
DIE = 96.0
#: pips of each face on a 3x3 grid (row, column)
PIPS = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (0, 2), (2, 0), (2, 2)],
        5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)], 6: [(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)]}


def svg(state: PigState, shown: Shown | None = None) -> str:
    """The position as a standalone SVG document."""
    game = state.game
    goal = game.values["goal"]
    pic = Picture(WIDTH)
    inner = WIDTH - 2 * MARGIN
    y = MARGIN
    for seat in (0, 1):
        share = min(state.banked[seat] / goal, 1.0)
        pic.text(MARGIN, y + 24, f"{game.seat_name(seat)}: {state.banked[seat]} of {goal}", 24, SEAT[seat], bold=True)
        pic.rect(MARGIN, y + 34, inner, 22, "#ffffff", stroke=RULE, rx=4)
        pic.rect(MARGIN, y + 34, inner * share, 22, SEAT_FILL[seat], stroke=SEAT[seat], rx=4)
        y += 70
    _die(pic, state.last, MARGIN, y + 6)
    x = MARGIN + DIE + 24
    if not state.is_terminal():
        pic.text(x, y + 40, f"{game.seat_name(state.mover)}'s turn total: {state.turn_total}", 24, INK, bold=True)
    pic.text(x, y + 74, f"turn {min(state.turns + 1, game.values['turns'])} of at most {game.values['turns']}",
             20, MUTED)
    y += DIE + 24
    for text in legal_texts(state).values():
        x = MARGIN if text == "roll" else MARGIN + inner / 2 + 8
        pic.button(x, y, text.capitalize(), text, size=28)
    y += 62 if legal_texts(state) else 0
    y = pic.caption(state, shown, MARGIN, y, inner, waiting="the die rolls" if state.rolling else "")
    pic.height = y + MARGIN
    return pic.document(f"Pig {state.banked[0]}-{state.banked[1]}")


def _die(pic: Picture, face: int, x: float, y: float) -> None:
    """The die showing ``face`` (blank before the first roll)."""
    pic.rect(x, y, DIE, DIE, "#ffffff", rx=14, stroke=INK, stroke_width=2)
    step = DIE / 4
    for row, column in PIPS.get(face, []):
        pic.circle(x + step * (column + 1), y + step * (row + 1), DIE / 11, INK)
