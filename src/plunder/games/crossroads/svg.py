"""An SVG picture of a Crossroads position: the 10x10 grid, the dice, the players' gold.

Both axes carry the dice labels 1-5 twice (CR-1), in bold next to the grid, and outside
them the names people type: columns A-J, rows 1-10. Cities are houses in their owner's
colour, roads grey tracks joined to the roads and cities beside them; the cells the last
roll activated glow yellow. To the right: the dice as last rolled, and each player's
gold, cities and roads, with the player to act marked and the target to reach.

A cell where the player may build or place carries the action's text (``place D4``,
``city D3``, ``road E4``; a cell open to both is split, city above, road below); the
other choices (which die is the column, done, pass, the answers to an offer) are buttons.
Offers are not: a trading turn has tens of them, so a line says how many are open and the
game page's trade panel builds one from its parts (``web/client.js``).
"""

from __future__ import annotations

from ...core.svg import (ACCENT, INK, MUTED, RULE, SEAT, SEAT_FILL, TARGET, Picture, Shown, called, legal_texts,
                         wrap)
from ...core.words import plural
from .actions import City, CrossroadsAction, Offer, Place, Road
from .board import (CELLS, COLUMNS, EMPTY, ROAD, SIZE, cell_name, col_of, label, orthogonal, owner, parse_cell,
                    row_of)
from .render import offer_text
from .rules import CrossroadsState, Phase

CELL = 48.0
MARGIN = 24.0
#: room for the two rings of axis labels (names outside, dice labels inside)
AXES = 44.0
PANEL = 230.0
GROUND = "#f1ead8"
LIT = "#ffe066"
ROAD_FILL = "#8d8478"
PIP = "#2b2b2b"


def svg(state: CrossroadsState, shown: Shown | None = None) -> str:
    """The position as a standalone SVG document (see the module text)."""
    left, top = MARGIN + AXES, MARGIN + AXES
    grid = CELL * SIZE
    width = left + grid + 24 + PANEL + MARGIN
    pic = Picture(width)
    legal = legal_texts(state)
    lit = set(state.lit)
    _axes(pic, state, left, top)
    for c in range(CELLS):
        x, y = left + col_of(c) * CELL, top + row_of(c) * CELL
        pic.rect(x, y, CELL, CELL, LIT if c in lit else GROUND, stroke=RULE, stroke_width=1,
                 class_="cell lit" if c in lit else "cell", data_cell=cell_name(c))
    for c in range(CELLS):
        v = state.board[c]
        x, y = left + col_of(c) * CELL, top + row_of(c) * CELL
        if v == ROAD:
            _road(pic, state, c, x, y)
    for c in range(CELLS):
        v = state.board[c]
        if v not in (EMPTY, ROAD):
            _city(pic, left + col_of(c) * CELL, top + row_of(c) * CELL, owner(v))
    built = _built(shown)
    if built is not None:  # the move shown built here
        pic.rect(left + col_of(built) * CELL + 1.5, top + row_of(built) * CELL + 1.5, CELL - 3, CELL - 3, "none",
                 stroke=ACCENT, stroke_width=3, rx=3, class_="last")
    _build_targets(pic, legal, left, top)
    panel_x = left + grid + 24
    bottom = _panel(pic, state, panel_x, MARGIN, PANEL)
    y = max(top + grid + 12, bottom)
    inner = width - 2 * MARGIN
    if state.phase is Phase.RESPOND and state.offer is not None:
        y = pic.paragraph(MARGIN, y, "Offer: " + offer_text(state, state.offer, state.game.seat_name), inner, 13, INK, bold=True)
    # offers are too many to list as buttons (tens, each a city pair, a route and a split: a
    # list would be cut off past MAX_BUTTONS): a line says how many, and the game page's trade
    # panel builds one from their parts
    offers = sum(isinstance(a, Offer) for a in legal)
    if offers:
        y = pic.paragraph(MARGIN, y, f"{plural(offers, 'offer')} open: choose your city, the partner's city, "
                                     "the route and the split of the 3 new gold", inner, 13, MUTED)
    rest = [a for a in legal if not isinstance(a, (Place, City, Road, Offer))]
    y = pic.buttons(state, rest, MARGIN, y + 4, inner)
    pic.height = pic.caption(state, shown, MARGIN, y + 4, inner) + MARGIN / 2
    return pic.document(f"Crossroads: {state.summary()}")


def _built(shown: Shown | None) -> int | None:
    """The cell the move shown placed a city or road on, if it did."""
    if shown is None:
        return None
    kind, _, where = shown.text.partition(" ")
    return parse_cell(where) if kind in ("place", "city", "road") else None


def _axes(pic: Picture, state: CrossroadsState, left: float, top: float) -> None:
    """Names outside (A-J, 1-10), dice labels inside (1-5 twice); the rolled labels ringed."""
    col_die = row_die = 0
    if state.lit:
        c = state.lit[0]
        col_die, row_die = label(col_of(c)), label(row_of(c))
    for k in range(SIZE):
        cx = left + (k + 0.5) * CELL
        pic.text(cx, top - AXES + 14, COLUMNS[k], 12, MUTED, anchor="middle")
        if label(k) == col_die:
            pic.circle(cx, top - 16, 10, LIT, stroke="#c9a227")
        pic.text(cx, top - 11, str(label(k)), 14, INK, anchor="middle", bold=True)
        cy = top + (k + 0.5) * CELL
        pic.text(left - 30, cy + 4, str(k + 1), 12, MUTED, anchor="end")
        if label(k) == row_die:
            pic.circle(left - 16, cy, 10, LIT, stroke="#c9a227")
        pic.text(left - 16, cy + 5, str(label(k)), 14, INK, anchor="middle", bold=True)


def _road(pic: Picture, state: CrossroadsState, c: int, x: float, y: float) -> None:
    """A road: a hub joined by tracks to the roads and cities orthogonally beside it."""
    cx, cy = x + CELL / 2, y + CELL / 2
    for n in orthogonal(c):
        if state.board[n] != EMPTY:
            nx, ny = col_of(n) - col_of(c), row_of(n) - row_of(c)
            pic.line(cx, cy, cx + nx * CELL / 2, cy + ny * CELL / 2, ROAD_FILL, CELL * 0.3, stroke_linecap="butt")
    pic.rect(cx - CELL * 0.15, cy - CELL * 0.15, CELL * 0.3, CELL * 0.3, ROAD_FILL, class_="road",
             data_cell=cell_name(c))


def _city(pic: Picture, x: float, y: float, seat: int) -> None:
    """A house in the owner's colour with the player's number."""
    m = CELL * 0.14
    roof = y + CELL * 0.42
    pic.polygon([(x + m, roof), (x + CELL / 2, y + m), (x + CELL - m, roof), (x + CELL - m, y + CELL - m),
                 (x + m, y + CELL - m)], SEAT[seat], stroke="#ffffff", stroke_width=1.5, class_="city",
                data_owner=f"P{seat + 1}")
    pic.text(x + CELL / 2, y + CELL * 0.78, str(seat + 1), CELL * 0.32, "#ffffff", anchor="middle", bold=True)


def _build_targets(pic: Picture, legal: dict[CrossroadsAction, str], left: float, top: float) -> None:
    """Outlined cells carrying place/city/road actions; a cell open to both builds is split."""
    by_cell: dict[int, list[tuple[str, str]]] = {}
    for action, text in legal.items():
        match action:
            case Place(c) | City(c):
                by_cell.setdefault(c, []).insert(0, ("city", text))
            case Road(c):
                by_cell.setdefault(c, []).append(("road", text))
    for c, options in by_cell.items():
        x, y = left + col_of(c) * CELL, top + row_of(c) * CELL
        h = CELL / len(options)
        for k, (kind, text) in enumerate(options):
            pic.open(data_action=text, class_=f"action {kind}")
            pic.rect(x + 3, y + 3 + k * h, CELL - 6, h - 6, TARGET, fill_opacity=0.18, rx=4, stroke=TARGET,
                     stroke_width=1.5)
            pic.text(x + CELL / 2, y + k * h + h / 2 + 4, kind, 10, TARGET, anchor="middle")
            pic.close()


def _die(pic: Picture, x: float, y: float, value: int, size: float = 40.0) -> None:
    """A die face with ``value`` pips."""
    pic.rect(x, y, size, size, "#ffffff", rx=7, stroke=INK, stroke_width=1.5, class_="die", data_value=value)
    spots = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (2, 0), (0, 2), (2, 2)],
             5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)], 6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]}
    for i, j in spots.get(value, []):
        pic.circle(x + size * (0.25 + 0.25 * i), y + size * (0.25 + 0.25 * j), size * 0.08, PIP)


def _panel(pic: Picture, state: CrossroadsState, x: float, y: float, width: float) -> float:
    """Round and phase, the dice, the gold table; returns the y below."""
    g = state.game
    y += 16
    pic.text(x, y, f"Round {state.round}  ·  {state.phase.value}", 15, INK, bold=True)
    y += 14
    if state.dice:
        for k, value in enumerate(state.dice):
            _die(pic, x + k * 50, y, value)
        words = "last roll" if state.lit else "rolled"
        pic.text(x + 106, y + 25, words, 12, MUTED)
        y += 52
    y += 8
    pic.text(x, y + 12, f"First to {g.values['target']} gold at a round's end", 12, MUTED)
    y += 24
    cities = [0] * state.n
    for c in range(CELLS):
        v = state.board[c]
        if v not in (EMPTY, ROAD):
            cities[owner(v)] += 1
    acting = state.current_player
    pic.text(x + 40, y + 10, "gold", 11, MUTED, anchor="end")
    pic.text(x + 108, y + 10, "cities", 11, MUTED, anchor="end")
    pic.text(x + 152, y + 10, "roads", 11, MUTED, anchor="end")
    y += 14
    target = max(float(g.values["target"]), 1.0)
    for i in range(state.n):
        row_h = 34
        won = state.phase is Phase.OVER and i in state.winners
        fill = SEAT_FILL[i] if i == acting or won else "#ffffff"
        pic.rect(x - 4, y, width, row_h - 4, fill, rx=5, stroke=SEAT[i] if i == acting or won else RULE,
                 stroke_width=2 if i == acting or won else 1, class_="player", data_player=f"P{i + 1}")
        pic.text(x + 40, y + 18, str(state.gold[i]), 16, INK, anchor="end", bold=True)
        pic.circle(x + 56, y + 13, 8, SEAT[i])
        pic.text(x + 56, y + 17, str(i + 1), 10, "#ffffff", anchor="middle", bold=True)
        pic.text(x + 108, y + 18, str(cities[i]), 13, INK, anchor="end")
        pic.text(x + 152, y + 18, str(state.roads[i]), 13, INK, anchor="end")
        mark = "wins" if won else "to act" if i == acting else ""
        if mark:
            pic.text(x + width - 12, y + 18, mark, 11, SEAT[i], anchor="end", bold=True)
        share = min(state.gold[i] / target, 1.0)
        pic.rect(x, y + row_h - 9, (width - 8) * share, 3, SEAT[i])
        y += row_h
    y += 14
    for k, (words, draw) in enumerate((("city (its owner's colour)", "city"), ("road", "road"),
                                       ("activated by the roll", "lit"))):
        ky = y + k * 20
        if draw == "city":
            pic.polygon([(x, ky + 14), (x + 7, ky + 4), (x + 14, ky + 14)], INK)
        elif draw == "road":
            pic.rect(x, ky + 7, 14, 5, ROAD_FILL)
        else:
            pic.rect(x, ky + 2, 14, 14, LIT, stroke=RULE)
        pic.text(x + 22, ky + 14, words, 12, MUTED)
    y += 60
    if state.phase is Phase.TRADE:
        left = g.values["offers"] - state.offers[state.seat]
        # the seat as the caption calls it (a name on the web), before the lines are broken
        for line in wrap(called(f"Trading: {g.seat_name(state.seat)} may offer ({left} offers left) or pass. "
                                "A trade makes 3 new gold to split."), 12, width):
            y += 16
            pic.text(x, y, line, 12, MUTED, verbatim=True)
    return y + 8
