"""An SVG picture of a Hubs sheet, exact where the terminal plot is coarse.

Every lattice point is a faint dot with ticks and coordinates on the frame (moves are
typed as coordinates, HB-8: y grows upward). A placed dot is a disc showing how many
segments end at it; its label sits beside it on a halo, on the side where it collides
least with other dots and labels, and always inside the picture. The last segment is
orange. While dots are placed, the sheet itself is clickable: it carries
``data-action-pattern="dot {x},{y}"`` with the lattice's origin and step, so a front end
turns a click into the nearest point's action; once segments are drawn, each dot carries
``data-dot`` (its label) for two-click segments, and the best-scoring legal segments are
buttons (``seg c-k``).
"""

from __future__ import annotations

from ...core.svg import ACCENT, INK, MUTED, PAPER, RULE, SEAT, Picture, Shown, text_width
from .actions import label
from .picture import segment_counts, state_sheet
from .rules import HubsState

#: the widest the lattice is drawn; a step is at most MAX_STEP pixels
SHEET_WIDTH = 800.0
MAX_STEP = 40.0
MARGIN = 36.0
MIN_WIDTH = 600.0
#: best segments offered as buttons
SEGMENT_BUTTONS = 12
#: the smallest words on the sheet, at its drawn size (the page keeps them this large on screen)
MIN_TEXT = 10.0


def svg(state: HubsState, shown: Shown | None = None) -> str:
    """The sheet (lattice, segments, labelled dots with their segment counts) as SVG."""
    g = state.game
    dots, segments, old = state_sheet(state)
    degree = segment_counts(dots, segments)
    step = min(MAX_STEP, SHEET_WIDTH / max(g.width - 1, 1), 560.0 / max(g.height - 1, 1))
    sheet_w, sheet_h = (g.width - 1) * step, (g.height - 1) * step
    width = max(MIN_WIDTH, sheet_w + 2 * MARGIN)
    left, top = (width - sheet_w) / 2, MARGIN

    def at(p: tuple[int, int]) -> tuple[float, float]:
        # y grows upward on the sheet (HB-8) and downward in SVG.
        return left + p[0] * step, top + (g.height - 1 - p[1]) * step

    pic = Picture(width)
    # a large sheet has a million free points: while placing, the sheet is one clickable
    # pattern and no list of points is made; segments (far fewer) are listed to offer the best
    on = not state.is_terminal()
    placing = on and state.placing
    legal = state.legal_actions() if on and not placing else []
    pic.rect(left, top, sheet_w, sheet_h, "#ffffff", stroke=RULE, class_="action sheet" if placing else "sheet",
             data_action_pattern="dot {x},{y}" if placing else None, data_origin_x=left,
             data_origin_y=top + sheet_h, data_step=step, data_width=g.width, data_height=g.height)
    radius = max(min(step * 0.32, 9.0), 6.0)
    _ticks(pic, g.width, g.height, left, top, step, radius)
    if step >= 6:  # every lattice point, as one tiled pattern rather than thousands of circles
        pic.raw(f'<defs><pattern id="lattice" patternUnits="userSpaceOnUse" x="{left - step / 2:.2f}" '
                         f'y="{top - step / 2:.2f}" width="{step:.2f}" height="{step:.2f}">'
                         f'<circle cx="{step / 2:.2f}" cy="{step / 2:.2f}" r="1.2" fill="{RULE}"/></pattern></defs>')
        pic.rect(left - step / 2, top - step / 2, sheet_w + step, sheet_h + step, "url(#lattice)")
    for n, segment in enumerate(segments):
        (x1, y1), (x2, y2) = at(dots[segment.first]), at(dots[segment.second])
        last = n == len(segments) - 1 and not old
        pic.line(x1, y1, x2, y2, ACCENT if last else INK, 2.5, class_="segment")
    boxes: list[tuple[float, float, float, float]] = [(px - radius, py - radius, px + radius, py + radius)
                                                      for px, py in (at(p) for p in dots)]
    joining = not placing and bool(legal) and not old
    for k, p in enumerate(dots):
        px, py = at(p)
        # a finished round's dots (shown while the next round's first dot is placed) are marked
        # past: they take no point of the fresh sheet
        pic.open(class_="action dot" if joining else "dot past" if old else "dot", data_dot=label(k))
        pic.circle(px, py, radius, SEAT[1] if degree[k] else "#7d8ea8", stroke="#ffffff", stroke_width=1.5)
        count = max(radius * 1.15, MIN_TEXT)
        pic.text(px, py + count * 0.36, str(degree[k]), count, "#ffffff", anchor="middle", bold=True, class_="count")
        pic.close()
    for k, p in enumerate(dots):
        px, py = at(p)
        name = label(k)
        lx, ly, anchor = _label_spot(px, py, name, radius, boxes, width)
        w = text_width(name, 13)
        x0 = lx - w if anchor == "end" else lx
        boxes.append((x0, ly - 11, x0 + w, ly + 2))
        pic.text(lx, ly, name, 13, INK, anchor=anchor, bold=True, stroke=PAPER, stroke_width=3, paint_order="stroke",
                 class_="label")
    y = top + sheet_h + radius + 24
    inner = width - 2 * MARGIN
    y = pic.paragraph(MARGIN, y, round_caption(state), inner, 13)
    best = [] if placing else legal[:SEGMENT_BUTTONS]
    y = pic.buttons(state, best, MARGIN, y + 4, inner, "Best segments:")
    pic.height = pic.caption(state, shown, MARGIN, y + 4, inner) + MARGIN / 2
    return pic.document(f"Hubs: {state.summary()}")


def round_caption(state: HubsState) -> str:
    """What the sheet shown is: the round being played and who is on offense, or the round
    just finished (its own offense and points) and what follows it, if anything (HB-6, HB-7)."""
    g = state.game
    if not state_sheet(state)[2]:
        return (f"Round {state.round + 1} of {g.rounds}: {g.seat_name(state.offense)} on offense, "
                "scoring each segment's dots' earlier segments.")
    done = state.last_round
    assert done is not None  # a finished round's sheet is shown with its result
    ended = f"Round {state.round} of {g.rounds} as it ended: {g.seat_name(done.offense)} on offense scored {done.points}."
    if state.is_terminal():
        return f"{ended} That was the last round."
    return (f"{ended} Round {state.round + 1} starts on a fresh sheet, "
            f"{g.seat_name(state.offense)} on offense.")


def _ticks(pic: Picture, w: int, h: int, left: float, top: float, step: float, radius: float) -> None:
    """Coordinates on the frame every few points, so a dot's x,y can be read off; set clear
    of the dots' discs on the edge."""
    every = max(1, round(24 / step))
    every = next(n for n in (1, 2, 5, 10, 20, 50, 100) if n >= every)
    bottom = top + (h - 1) * step
    for x in range(0, w, every):
        px = left + x * step
        pic.line(px, bottom, px, bottom + radius + 2, MUTED)
        pic.text(px, bottom + radius + 13, str(x), MIN_TEXT, MUTED, anchor="middle", class_="tick")
    for y in range(0, h, every):
        py = top + (h - 1 - y) * step
        pic.line(left - radius - 2, py, left, py, MUTED)
        pic.text(left - radius - 4, py + 3.5, str(y), MIN_TEXT, MUTED, anchor="end", class_="tick")


def _label_spot(px: float, py: float, name: str, radius: float, boxes: list[tuple[float, float, float, float]],
                width: float) -> tuple[float, float, str]:
    """Where a dot's label goes: of the four diagonal spots, the one overlapping fewest dots
    and labels already placed, kept inside the picture."""
    w = text_width(name, 13)
    gap = radius + 2
    best: tuple[float, float, float, str] | None = None
    for dx, dy in ((1, -1), (-1, -1), (1, 1), (-1, 1)):
        x = px + dx * gap
        y = py - gap if dy < 0 else py + gap + 10
        anchor = "start" if dx > 0 else "end"
        x0 = x if dx > 0 else x - w
        box = (x0, y - 11, x0 + w, y + 2)
        hits = sum(1 for b in boxes if box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3])
        outside = box[0] < 2 or box[2] > width - 2
        score = hits + (10 if outside else 0)
        if best is None or score < best[0]:
            best = (score, x, y, anchor)
    assert best is not None
    return best[1], best[2], best[3]
