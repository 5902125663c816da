"""An SVG picture of a Piece Packing Pirates position: the sea, the ships, the tracks.

The sea is drawn tile by tile: a face-down tile shows only its back (its identity is
undecided until flipped, PR-2), a face-up one its suit and value in the NW space and its
prevailing wind as an arrow. Land is sand, the chest a box with the buried booty. Ships
are coins: the pirate's black, the others in their flag's colour with their size, ringed
red when bigger than the pirate (they chase), green when smaller (they flee). Under the
sea run the tracks of the play mat (turn, crew, notoriety, booty aboard) and the caption.

Where the pirate may click, the space carries the action's text: the spaces it may sail
to (``sail NE``), the coast while weighing anchor (``place 3,1``), a ship's destinations
when its route is the pirate's to choose (``steer ...``), the ships it may fight first,
the wind arrows of a just-flipped tile, the land it may bury all its booty in; every
other choice is a button.
"""

from __future__ import annotations

from typing import Callable

from ...core.svg import ACCENT, INK, MUTED, RULE, TARGET, Picture, Shown, legal_texts
from . import tables as T
from .actions import Bury, Fight, Place, PiratesAction, Sail, Steer, Wind
from .render import waiting
from .rules import Phase, PiratesState
from .sea import DIRS, WINDS, Cell, cell_text

LAND = "#e3d3a4"
LAND_EDGE = "#cbb77f"
SEA_UP = "#6aa6d1"
SEA_DOWN = "#23486b"
SEA_LINE = "#4c86b2"
SEA_BADGE = "#2f6b9a"
FLAG = {"arms": "#b03a2e", "crowns": "#c9a227", "suns": "#d9731a"}
SUIT_GLYPH = {"suns": "☼", "moons": "☾", "crowns": "♛", "arms": "⚔"}
CHASER = "#d62828"
FLEER = "#2a9d4a"
MARGIN = 28.0
#: the widest the sea may be drawn; a cell is at most MAX_CELL pixels
SEA_WIDTH = 820.0
MAX_CELL = 46.0
MIN_WIDTH = 640.0

#: what the marks mean, under the tracks
KEY = ("Black coin: your ship and its size. Other ships: their flag's colour and size, ringed red when "
       "bigger (they chase), green when smaller (they flee). Badge: a tile's suit and value (the lookout "
       "sights a ship on a roll up to it); arrow: its wind. Dark tiles are unexplored.")
#: where a space's top left corner is drawn
Point = Callable[[Cell], tuple[float, float]]


def svg(state: PiratesState, shown: Shown | None = None) -> str:
    """The position as a standalone SVG document (see the module text)."""
    sea = state.sea
    cell = min(MAX_CELL, SEA_WIDTH / sea.width)
    sea_w, sea_h = cell * sea.width, cell * sea.height
    width = max(MIN_WIDTH, sea_w + 2 * MARGIN)
    left = (width - sea_w) / 2
    top = MARGIN + 4
    pic = Picture(width)
    legal = legal_texts(state)

    def at(c: Cell) -> tuple[float, float]:
        return left + c[0] * cell, top + c[1] * cell

    _axes(pic, sea.width, sea.height, left, top, cell)
    pic.rect(left, top, sea_w, sea_h, LAND, stroke=LAND_EDGE)
    for tile, origin in enumerate(sea.origins):
        _tile(pic, state, tile, at(origin), cell)
    if state.chest is not None:
        x, y = at(state.chest)
        _chest(pic, x, y, cell, state.buried)
    _targets(pic, state, legal, at, cell)
    for tile, origin in enumerate(sea.origins):
        if state.faces[tile] >= 0:  # over the clickable spaces, which meet at a tile's centre
            _face(pic, state.faces[tile], at(origin)[0] + cell, at(origin)[1] + cell, cell)
    _ships(pic, state, legal, at, cell)
    if state.wind_tile >= 0:
        _wind_choice(pic, state, legal, at(sea.origins[state.wind_tile]), cell)
    y = top + sea_h + 14
    y = _tracks(pic, state, MARGIN, y, width - 2 * MARGIN)
    y = pic.paragraph(MARGIN, y, KEY, width - 2 * MARGIN, 12, MUTED)
    spatial = (Sail, Place, Steer, Fight, Wind)
    rest = [a for a in legal if not isinstance(a, spatial)]
    rest.sort(key=lambda a: not isinstance(a, Bury))
    rest.sort(key=lambda a: len(legal[a]) > 8)  # the one-word choices (done, stop, retire) first
    y = pic.buttons(state, rest, MARGIN, y + 4, width - 2 * MARGIN)
    pic.height = pic.caption(state, shown, MARGIN, y + 4, width - 2 * MARGIN, waiting(state)) + MARGIN / 2
    return pic.document(f"Piece Packing Pirates: {state.summary()}")


def _axes(pic: Picture, w: int, h: int, left: float, top: float, cell: float) -> None:
    """x across the top and y down the left, as spaces are typed (``x,y``)."""
    size = min(11.0, cell * 0.4)
    for x in range(w):
        pic.text(left + (x + 0.5) * cell, top - 5, str(x), size, MUTED, anchor="middle")
    for y in range(h):
        pic.text(left - 5, top + (y + 0.5) * cell + size / 3, str(y), size, MUTED, anchor="end")


def _tile(pic: Picture, state: PiratesState, tile: int, origin: tuple[float, float], cell: float) -> None:
    """One part of the sea: its back while face down; suit, value and wind once face up."""
    x, y = origin
    face = state.faces[tile]
    if face < 0:
        pic.rect(x + 1, y + 1, 2 * cell - 2, 2 * cell - 2, SEA_DOWN, rx=3, class_="tile face-down")
        pic.circle(x + cell, y + cell, cell * 0.35, "none", stroke="#3d6a94", stroke_width=1.5)
        return
    pic.rect(x + 1, y + 1, 2 * cell - 2, 2 * cell - 2, SEA_UP, rx=3, class_="tile face-up")
    pic.line(x + cell, y + 4, x + cell, y + 2 * cell - 4, SEA_LINE)
    pic.line(x + 4, y + cell, x + 2 * cell - 4, y + cell, SEA_LINE)
    wind = state.winds[tile]
    if wind >= 0:  # from the badge out towards the corner the wind blows to
        dx, dy = DIRS[WINDS[wind]]
        _arrow(pic, x + cell + dx * cell * 0.36, y + cell + dy * cell * 0.36, WINDS[wind], cell * 0.62, "#ffffff", 0.7)


def _face(pic: Picture, face: int, cx: float, cy: float, cell: float) -> None:
    """A face-up tile's suit and value on a badge at its centre, where no ship ever sits."""
    size = cell * 0.28
    pic.circle(cx, cy, cell * 0.33, SEA_BADGE, stroke="#ffffff", stroke_width=1)
    pic.text(cx, cy + size * 0.36, f"{SUIT_GLYPH[T.TILE_SUITS[face // 6]]}{T.face_value(face)}", size, "#ffffff",
             anchor="middle", bold=True, data_tile=T.face_name(face))


def _arrow(pic: Picture, cx: float, cy: float, wind: str, length: float, colour: str, opacity: float) -> None:
    """An arrow through (cx, cy) pointing the way ``wind`` blows."""
    dx, dy = DIRS[wind]
    ux, uy = dx / 2**0.5, dy / 2**0.5
    half = length / 2
    tip = (cx + ux * half, cy + uy * half)
    tail = (cx - ux * half, cy - uy * half)
    pic.line(tail[0], tail[1], tip[0] - ux * 4, tip[1] - uy * 4, colour, 3, opacity=opacity)
    head = length * 0.28
    px, py = -uy, ux
    pic.polygon([tip, (tip[0] - ux * head + px * head * 0.6, tip[1] - uy * head + py * head * 0.6),
                 (tip[0] - ux * head - px * head * 0.6, tip[1] - uy * head - py * head * 0.6)],
                colour, opacity=opacity)


def _chest(pic: Picture, x: float, y: float, cell: float, buried: int) -> None:
    """The treasure chest (the moons die) with the buried booty."""
    pad = cell * 0.14
    pic.rect(x + pad, y + pad * 1.6, cell - 2 * pad, cell - 2.6 * pad, "#8b5a2b", rx=3, stroke="#5c3a1a",
             class_="chest")
    pic.text(x + cell / 2, y + cell * 0.62, str(buried), cell * 0.32, "#ffd95a", anchor="middle", bold=True)


def _targets(pic: Picture, state: PiratesState, legal: dict[PiratesAction, str], at: Point, cell: float) -> None:
    """Clickable spaces: sail targets, anchorages, a ship's routes, burial sites."""
    spots: dict[Cell, str] = {}
    sail = dict(state.sail_options) if state.phase is Phase.SAIL and state.pos is not None else {}
    for action, text in legal.items():
        match action:
            case Sail(d) if d in sail:
                spots[sail[d]] = text
            case Place(c) | Steer(_, c):
                spots[c] = text
            case Bury(amount, site) if amount == state.booty:
                spots[site] = text
    for c, text in spots.items():
        x, y = at(c)
        pic.rect(x + 3, y + 3, cell - 6, cell - 6, TARGET, fill_opacity=0.25, rx=4, stroke=TARGET,
                 stroke_width=2, data_action=text, class_="action space")


def _coin(pic: Picture, x: float, y: float, r: float, fill: str, ring: str, label: str, **attrs: object) -> None:
    pic.open(**attrs)
    pic.circle(x, y, r, fill, stroke=ring, stroke_width=max(2.0, r * 0.18))
    pic.text(x, y + r * 0.38, label, r * 1.05, "#ffffff", anchor="middle", bold=True)
    pic.close()


def _ships(pic: Picture, state: PiratesState, legal: dict[PiratesAction, str], at: Point, cell: float) -> None:
    """Every ship in the sea, and the pirate on top."""
    fights = {a.coin: text for a, text in legal.items() if isinstance(a, Fight)}
    cells: dict[Cell, list[int]] = {}
    for coin, c in state.coins:
        cells.setdefault(c, []).append(coin)
    for c, coins in cells.items():
        x, y = at(c)
        n = len(coins)
        # ships sharing the pirate's space sit in its lower right, the pirate in its upper left
        shift = cell * 0.16 if c == state.pos else 0.0
        r = cell * (0.26 if n == 1 and not shift else 0.2)
        for k, coin in enumerate(sorted(coins)):
            ox = 0.0 if n == 1 else (k % 2 - 0.5) * cell * 0.4
            oy = 0.0 if n == 1 else (k // 2 - 0.5 * ((n - 1) // 2)) * cell * 0.4
            size = T.coin_value(coin)
            ring = CHASER if size > state.ship else FLEER if size < state.ship else "#f2f2f2"
            _coin(pic, x + cell / 2 + ox + shift, y + cell / 2 + oy + shift, r, FLAG[T.coin_suit(coin)], ring,
                  str(size), class_="ship" + (" action" if coin in fights else ""), data_action=fights.get(coin),
                  data_ship=T.coin_name(coin))
    if state.pos is not None:
        x, y = at(state.pos)
        label = "–" if state.ship < 0 else str(state.ship)
        shift = cell * 0.16 if state.pos in cells else 0.0
        r = cell * (0.24 if shift else 0.3)
        _coin(pic, x + cell / 2 - shift, y + cell / 2 - shift, r, "#111111", ACCENT, label, class_="pirate")


def _wind_choice(pic: Picture, state: PiratesState, legal: dict[PiratesAction, str], origin: tuple[float, float],
                 cell: float) -> None:
    """Four arrows on the just-flipped tile, one per wind the pirate may give it."""
    x, y = origin
    for action, text in legal.items():
        if not isinstance(action, Wind):
            continue
        dx, dy = DIRS[action.wind]
        # beyond the tile's corners, so the pirate and the tile's face stay in view
        cx, cy = x + cell + dx * cell * 1.2, y + cell + dy * cell * 1.2
        pic.open(data_action=text, class_="action wind")
        pic.circle(cx, cy, cell * 0.32, "#ffffff", stroke=TARGET, stroke_width=2)
        _arrow(pic, cx, cy, action.wind, cell * 0.42, TARGET, 1.0)
        pic.close()


def _tracks(pic: Picture, state: PiratesState, x: float, y: float, width: float) -> float:
    """The play mat's tracks as bars with a pawn, then ship, chest and bag in words."""
    game = state.game
    label_w = 112.0
    value_w = 70.0
    bar_w = width - label_w - value_w
    rows = [
        ("Turn", state.turn, 1, max(game.turns, 1), f"{state.turn} / {game.turns}"),
        ("Crew", state.crew, 0, 10, str(state.crew)),
        ("Notoriety", state.notoriety, 0, max(10, state.notoriety), str(state.notoriety)),
        ("Booty aboard", state.booty, 0, max(T.HOLD, state.booty), str(state.booty)),
    ]
    for name, value, low, high, words in rows:
        y += 24
        pic.text(x, y, name, 13, INK)
        bx = x + label_w
        pic.rect(bx, y - 9, bar_w, 8, RULE, rx=4)
        share = (value - low) / (high - low) if high > low else 1.0
        pic.rect(bx, y - 9, max(bar_w * share, 0.0), 8, "#d4a017" if name == "Booty aboard" else "#5b8fb9", rx=4)
        pic.circle(bx + bar_w * share, y - 5, 6, INK, stroke="#ffffff", stroke_width=1.5)
        over = name == "Booty aboard" and value > T.HOLD
        pic.text(x + width, y, words + (" !" if over else ""), 13, CHASER if over else INK, anchor="end", bold=True)
    ship = "no ship" if state.ship < 0 else f"{T.SHIP_NAMES[state.ship]} (size {state.ship})"
    chest = f"{state.buried} buried at {cell_text(state.chest)}" if state.chest is not None else "nothing buried"
    y += 26
    pic.text(x, y, f"Ship: {ship}  ·  Chest: {chest}  ·  Ships in the bag: {len(state.bag)}", 13, INK)
    if state.drowned:
        y += 20
        pic.text(x, y, "Drowned at sea.", 13, CHASER, bold=True)
    return y + 8
