"""An SVG picture of a Hubs sheet, exact where the terminal plot is coarse.

:func:`svg` is pure (returns text); ``plunder render RECORD --svg OUT [--at N]``
draws a saved game's position with it.
"""

from __future__ import annotations


from ...core.game import State
from .actions import HubsAction, label
from .picture import segment_counts, state_sheet
from .rules import HubsState


SCALE = 16
MARGIN = 24


def svg(state: State[HubsAction]) -> str:
    """The sheet (lattice frame, segments, labelled dots with their segment counts) as SVG."""
    assert isinstance(state, HubsState)
    g = state.game
    dots, segments, old = state_sheet(state)
    degree = segment_counts(dots, segments)
    w = (g.width - 1) * SCALE + 2 * MARGIN
    h = (g.height - 1) * SCALE + 2 * MARGIN + 20

    def at(p: tuple[int, int]) -> tuple[int, int]:
        # y grows upward on the sheet (HB-8) and downward in SVG.
        return MARGIN + p[0] * SCALE, MARGIN + (g.height - 1 - p[1]) * SCALE

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<rect x="{MARGIN}" y="{MARGIN}" width="{(g.width - 1) * SCALE}" '
           f'height="{(g.height - 1) * SCALE}" fill="none" stroke="#ccc"/>']
    for n, segment in enumerate(segments):
        (x1, y1), (x2, y2) = at(dots[segment.first]), at(dots[segment.second])
        colour = "#d08000" if n == len(segments) - 1 else "#333"
        out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" stroke-width="2"/>')
    for k, p in enumerate(dots):
        x, y = at(p)
        out.append(f'<circle cx="{x}" cy="{y}" r="4" fill="#c00"/>')
        out.append(f'<text x="{x + 5}" y="{y - 5}" font-family="monospace" font-size="12">'
                   f'{label(k)}:{degree[k]}</text>')
    caption = state.summary() + (" (the finished round's sheet)" if old else "")
    out.append(f'<text x="{MARGIN}" y="{h - 8}" font-family="sans-serif" font-size="12">{_escape(caption)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
