"""An SVG picture of a Pillage position: boxes shaded by captor, lines, dots, labels."""

from __future__ import annotations

from html import escape

from ...core.game import State
from .contents import content_text
from .picture import FIT_STEP, board_layout
from .rules import PillageState

UNIT = 60.0
MARGIN = 40.0
PLAYER_FILL = ("#f4b6b6", "#b6c8f4")
PLAYER_TEXT = ("#b02020", "#2040b0")


def svg(state: State) -> str:
    """The position as a standalone SVG document."""
    assert isinstance(state, PillageState)
    g = state.game
    board = g.board
    layout = board_layout(board)
    sx, sy = board.scale if board.scale is not None else FIT_STEP
    # the text picture's layout (bounded whatever the coordinates), its smallest step ~UNIT,
    # a row counted as half a column as characters are about twice as tall as wide
    fx, fy = UNIT / max(sx, sy * 2), UNIT * 2 / max(sx, sy * 2)
    spots = [layout.at(p) for p in board.dots]

    def at(d: int) -> tuple[float, float]:
        return MARGIN + spots[d][0] * fx, MARGIN + spots[d][1] * fy

    width = MARGIN * 2 + max(x for x, _ in spots) * fx
    height = MARGIN * 2 + max(y for _, y in spots) * fy + 60
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif">',
           '<rect width="100%" height="100%" fill="white"/>']
    for b, cycle in enumerate(board.boxes):
        owner = state.owner[b]
        points = " ".join(f"{x:.1f},{y:.1f}" for x, y in (at(d) for d in cycle))
        fill = PLAYER_FILL[owner] if owner >= 0 else "#fbf6e9"
        out.append(f'<polygon points="{points}" fill="{fill}" stroke="none"/>')
        cx = sum(at(d)[0] for d in cycle) / len(cycle)
        cy = sum(at(d)[1] for d in cycle) / len(cycle)
        content = state.contents[b]
        text = "?" if content is None else content_text(content, g.legend)
        size = 13 if len(text) < 8 else 9
        colour = PLAYER_TEXT[owner] if owner >= 0 else "#333"
        out.append(f'<text x="{cx:.1f}" y="{cy + 4:.1f}" font-size="{size}" text-anchor="middle" '
                   f'fill="{colour}">{escape(text)}</text>')
    for e, (a, b) in enumerate(board.edges):
        (x1, y1), (x2, y2) = at(a), at(b)
        if state.drawn >> e & 1:
            colour = "#d08000" if e == state.last_edge else "#222"
            out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" '
                       'stroke-width="3" stroke-linecap="round"/>')
        else:
            out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#bbb" '
                       'stroke-width="1" stroke-dasharray="3,4"/>')
    for d in range(len(board.dots)):
        x, y = at(d)
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="#111"/>')
        out.append(f'<text x="{x + 5:.1f}" y="{y - 5:.1f}" font-size="9" fill="#777">{board.labels[d]}</text>')
    scores = state.scores()
    legend = ", ".join(f"{k} {v}" for k, v in zip(g.legend.kinds, state.values))
    base = height - 36
    out.append(f'<text x="{MARGIN}" y="{base:.0f}" font-size="12">Legend: {escape(legend)}</text>')
    out.append(f'<text x="{MARGIN}" y="{base + 18:.0f}" font-size="12">'
               f'<tspan fill="{PLAYER_TEXT[0]}">{g.seat_name(0)}: {scores[0]:g}</tspan>   '
               f'<tspan fill="{PLAYER_TEXT[1]}">{g.seat_name(1)}: {scores[1]:g}</tspan></text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
