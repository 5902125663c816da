"""An SVG picture of a Profiteer position: both sides of the war and the profiteer's hand.

Each side shows its deck as a face-down stack with its count (the deck's cards are
undecided until turned up, PF-9: no deck card is ever named), its discard pile as a count,
its pile total (deck and discard, PF-10), and the card it has turned up, with the other
face-up cards of a war beside it. The profiteer's resources are face up; the profiteer's
discard is a count, and a bar shows the cards held against the target (PF-8).

Clicking a resource gives it to the smaller side at the count (``give 7``); while a flip
waits, the tabs under a resource switch it for side A's or B's face-up card
(``switch A K``); ``keep`` and ``end`` are buttons.
"""

from __future__ import annotations


from ...core.errors import without_rulings
from ...core.svg import INK, MUTED, RULE, SEAT, TARGET, Picture, Shown, legal_texts, text_width
from ...core.words import plural
from .actions import Give, ProfiteerAction, Side, Switch
from .cards import card_text, cards_of, rank
from .flow import Phase
from .rules import ProfiteerState

WIDTH = 760.0
MARGIN = 28.0
CARD_W, CARD_H = 46.0, 66.0
BIG_W, BIG_H = 64.0, 90.0
BACK = "#7a1f2b"
BACK_LINE = "#a8424f"
RED_SUIT = "#c0262d"
SUIT_GLYPH = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def svg(state: ProfiteerState, shown: Shown | None = None) -> str:
    """The position as a standalone SVG document (see the module text)."""
    g = state.game
    pic = Picture(WIDTH)
    legal = legal_texts(state)
    inner = WIDTH - 2 * MARGIN
    y = MARGIN
    heading = f"Pass {max(state.round, 1)} of at most {g.max_rounds}  ·  {Phase(state.phase).describe()}"
    pic.text(MARGIN, y + 6, heading, 15, INK, bold=True)
    y += 22
    half = (inner - 20) / 2
    bottom = y
    for side, x in ((Side.A, MARGIN), (Side.B, MARGIN + half + 20)):
        bottom = max(bottom, _side(pic, state, side, x, y, half))
    y = bottom + 6
    if state.war_round:
        stake = (state.stake_a | state.stake_b).bit_count()
        pic.rect(MARGIN, y, inner, 26, "#fff1c9", rx=4, stroke="#e0b13a")
        pic.text(WIDTH / 2, y + 18, f"WAR, round {state.war_round}: the {stake} face-up cards go to the winner; "
                 "the face-down ones to the profiteer", 13, "#7a5a00", anchor="middle", bold=True)
        y += 34
    y = _profiteer(pic, state, legal, MARGIN, y + 6, inner)
    if state.phase == Phase.BALANCE:
        need = abs(state.pile_a() - state.pile_b())
        small = "A" if state.pile_a() < state.pile_b() else "B"
        y = pic.paragraph(MARGIN, y, f"The count: side A {state.pile_a()}, side B {state.pile_b()}. Give {need} "
                          f"card{'s' if need != 1 else ''} to side {small} to go on, or end the game now.",
                          inner, 13, "#7a5a00", bold=True)
    if state.last:
        y = pic.paragraph(MARGIN, y, f"Last: {state.last}", inner, 13, MUTED)
    if state.phase == Phase.OVER:
        why = without_rulings(state.ending.describe())
        y = pic.paragraph(MARGIN, y, f"The war is over: {why}.", inner, 13, INK)
    rest = [a for a in legal if not isinstance(a, (Switch, Give))]
    y = pic.buttons(state, rest, MARGIN, y + 4, inner)
    drawing = Phase(state.phase).describe() if state.is_chance_node() else ""
    pic.height = pic.caption(state, shown, MARGIN, y + 4, inner, drawing) + MARGIN / 2
    return pic.document(f"Profiteer: {state.summary()}")


def card(pic: Picture, x: float, y: float, c: int, w: float = CARD_W, h: float = CARD_H, kind: str = "card",
         **attrs: object) -> None:
    """A face-up card: rank in the corner, suit large in the middle."""
    name = card_text(c)
    r, s = name[:-1], name[-1]
    colour = RED_SUIT if s in "DH" else INK
    pic.open(class_=kind, data_card=name, **attrs)
    pic.rect(x, y, w, h, "#ffffff", rx=5, stroke="#9a9182", stroke_width=1)
    pic.text(x + 5, y + w * 0.32, r, w * 0.3, colour, bold=True)
    pic.text(x + w / 2, y + h * 0.72, SUIT_GLYPH[s], w * 0.55, colour, anchor="middle")
    pic.close()


def stack(pic: Picture, x: float, y: float, count: int, words: str, face_down: bool) -> None:
    """A pile as a count: card backs (face down) or a blank card edge (face up), never a name."""
    layers = min(count, 4)
    for k in range(layers - 1, -1, -1):
        ox = oy = k * 2.5
        if face_down:
            pic.rect(x + ox, y - oy, CARD_W, CARD_H, BACK, rx=5, stroke="#ffffff", stroke_width=1.5)
            pic.rect(x + ox + 5, y - oy + 5, CARD_W - 10, CARD_H - 10, "none", rx=3, stroke=BACK_LINE,
                     stroke_width=1.5)
        else:
            pic.rect(x + ox, y - oy, CARD_W, CARD_H, "#f3efe6", rx=5, stroke="#9a9182")
    if not count:
        pic.rect(x, y, CARD_W, CARD_H, "none", rx=5, stroke=RULE, stroke_dasharray="4,3")
    pic.text(x + CARD_W / 2, y + CARD_H / 2 + 7, str(count), 20, "#ffffff" if face_down and count else INK,
             anchor="middle", bold=True)
    pic.text(x + CARD_W / 2, y + CARD_H + 15, words, 12, MUTED, anchor="middle")


def _side(pic: Picture, state: ProfiteerState, side: Side, x: float, y: float, width: float) -> float:
    """One side's panel: deck, discard, pile total, face-up card and war stake; returns its bottom."""
    colour = SEAT[int(side)]
    deck = state.deck_a() if side == Side.A else state.deck_b()
    discard = (state.discard_a if side == Side.A else state.discard_b).bit_count()
    pile = state.pile_a() if side == Side.A else state.pile_b()
    height = BIG_H + 64
    pic.rect(x, y, width, height, "#ffffff", rx=8, stroke=colour, stroke_width=2, fill_opacity=0.6)
    pic.text(x + 12, y + 22, f"Side {side.name}", 16, colour, bold=True)
    pic.text(x + width - 12, y + 22, plural(pile, "card"), 14, INK, anchor="end")
    top = y + 40
    stack(pic, x + 14, top + 8, deck, "deck", True)
    stack(pic, x + 26 + CARD_W, top + 8, discard, "discard", False)
    up = state.face_up(side)
    fx = x + width - BIG_W - 14
    if up >= 0:
        card(pic, fx, top, up, BIG_W, BIG_H, data_side=side.name)
    else:
        pic.rect(fx, top, BIG_W, BIG_H, "none", rx=6, stroke=RULE, stroke_dasharray="4,3")
        pic.text(fx + BIG_W / 2, top + BIG_H / 2 + 4, "no card", 11, MUTED, anchor="middle")
    stake = [c for c in cards_of(state.stake_a if side == Side.A else state.stake_b) if c != up]
    sx = fx - 10 - CARD_W * 0.55
    for c in stake[:4]:  # a war's earlier face-up cards, smaller, to the left of the one that counts
        card(pic, sx, top + BIG_H - CARD_H * 0.8, c, CARD_W * 0.55, CARD_H * 0.8)
        sx -= CARD_W * 0.55 + 4
    return y + height


def _profiteer(pic: Picture, state: ProfiteerState, legal: dict[ProfiteerAction, str], x: float, y: float,
               width: float) -> float:
    """The profiteer: count against target, discard pile, resources with their actions; returns the y below."""
    g = state.game
    total = state.total()
    pic.text(x, y + 16, "Profiteer", 16, INK, bold=True)
    words = f"{total} of the {g.target} cards needed"
    pic.text(x + width, y + 16, words, 14, "#2e8b57" if total >= g.target else INK, anchor="end", bold=True)
    bar_x = x + 100
    bar_w = width - 110 - text_width(words, 14)
    share = min(total / g.target, 1.0) if g.target else 1.0
    pic.rect(bar_x, y + 7, bar_w, 10, RULE, rx=5)
    pic.rect(bar_x, y + 7, bar_w * share, 10, "#2e8b57" if total >= g.target else "#d4a017", rx=5)
    y += 42
    stack(pic, x, y, state.profiteer_discard.bit_count(), "discard", False)
    gives: dict[int, str] = {int(a.rank): t for a, t in legal.items() if isinstance(a, Give)}
    switches: dict[int, list[tuple[str, str]]] = {}
    for a, t in legal.items():
        if isinstance(a, Switch):
            switches.setdefault(int(a.rank), []).append((Side(a.side).name, t))
    cx = x + CARD_W + 24
    pic.text(cx, y - 4, "Resources" + ("  (→A, →B: switch the card for that side's face-up card)" if switches else ""),
             12, MUTED)
    shown_cards = list(cards_of(state.resources))
    step = min(CARD_W + 6, (x + width - cx - CARD_W) / max(len(shown_cards) - 1, 1))
    tabs = False
    for c in shown_cards:
        r = rank(c)
        # one card per rank acts: the lowest suit is the one handed over (PF-1)
        acting = state.resource_of_rank(r) == c
        card(pic, cx, y, c, data_action=gives.get(r) if acting else None,
             kind="card action" if acting and r in gives else "card")
        if acting and r in gives:
            pic.rect(cx - 2, y - 2, CARD_W + 4, CARD_H + 4, "none", rx=6, stroke=TARGET, stroke_width=2)
        if acting:
            for k, (name, text) in enumerate(switches.get(r, [])):
                tabs = True
                tx = cx + k * (CARD_W / 2)
                pic.open(data_action=text, class_="action switch")
                pic.rect(tx + 1, y + CARD_H + 4, CARD_W / 2 - 2, 18, "#ffffff", rx=3, stroke=TARGET)
                pic.text(tx + CARD_W / 4, y + CARD_H + 17, f"→{name}", 11, TARGET, anchor="middle")
                pic.close()
        cx += step
    if not shown_cards:
        pic.text(cx, y + CARD_H / 2, "none", 13, MUTED)
    y += CARD_H + (28 if tabs else 24)
    if state.drawing:
        pic.text(x, y + 4, "Hand being drawn:", 12, MUTED)
        cx = x + 120
        for c in cards_of(state.drawing):
            card(pic, cx, y - 10, c, CARD_W * 0.6, CARD_H * 0.6)
            cx += CARD_W * 0.6 + 4
        y += CARD_H * 0.6
    return y + 4
