"""What every game's SVG picture shares: one palette, an element builder, text measure,
the caption (whose move, the score, the move shown) and clickable buttons.

A picture is the web app's board: an element a player may click carries the canonical
text of its action in ``data-action`` (``game.action_to_text``), and nothing drawn names
what the position does not show (PF-9: unseen cards and face-down tiles are undecided).
Everything here is pure text; the games draw their boards with it.

A front end that knows the players' names draws within :func:`seats_called`: every text the
picture sets (captions, the move shown, the game-over line, labels) then calls the seats as it
says, before lines are wrapped and the text escaped; without it a seat is the rules' label
(``Player 2``), as the terminal and the files show it.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from html import escape
from typing import Any, Callable, Iterable, Iterator, Mapping, NamedTuple, Sequence

from .game import CHANCE, A, Action, State

#: the page and its ink
PAPER = "#fbf7ee"
INK = "#2b2b2b"
MUTED = "#6f6a60"
RULE = "#d8cfbd"
#: the last move, wherever a game marks it
ACCENT = "#e07b00"
#: where the player may click (outline of a legal target)
TARGET = "#2a9d8f"
#: seat colours (strong, for lines and text) and their light fills, up to eight seats (the
#: most a web layout holds: docs/web.md); the last two, ochre and slate, stand apart from the
#: red, orange and teal before them
SEAT = ("#c0392b", "#2e5fa8", "#2e8b57", "#8e44ad", "#d35400", "#16838a", "#9a7400", "#505c68")
SEAT_FILL = ("#f4c7c0", "#c5d5f0", "#c4e6cf", "#e0cdea", "#f7d3b5", "#bfe3e5", "#efe0a8", "#d6dbe0")
#: one family for every picture; the rasteriser falls back along the list
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
#: a generous average advance of a sans-serif character, in ems, so that measured text
#: never overruns its box (DejaVu Sans averages about 0.55)
EM_ADVANCE = 0.62
#: most buttons a picture draws; a longer list is left to the front end's move list
MAX_BUTTONS = 24


#: how the pictures drawn now call the seats (plain text in, plain text out); ``None``: by the
#: rules' labels. A context variable, so that a picture drawn in a thread sees its own.
_seat_words: ContextVar[Callable[[str], str] | None] = ContextVar("seat_words", default=None)


@contextmanager
def seats_called(words: Callable[[str], str]) -> Iterator[None]:
    """Within this block, every text a :class:`Picture` sets is passed through ``words``
    first (plain text: the builder escapes what it returns), e.g. to put each seat's label
    as its player's name."""
    token = _seat_words.set(words)
    try:
        yield
    finally:
        _seat_words.reset(token)


def called(text: str) -> str:
    """``text`` with the seats called as :func:`seats_called` says (as it is outside one)."""
    words = _seat_words.get()
    return text if words is None else words(text)


class Shown(NamedTuple):
    """The move that led to the pictured position: its number (1 = the first), its text and,
    where the game narrates, what it did in a player's words."""

    number: int
    text: str
    told: str = ""

    def words(self) -> str:
        """``move 14: a1-b1``, then `` — Player 2 took 3 boxes`` when told."""
        return f"move {self.number}: {self.text}" + (f" — {self.told}" if self.told else "")


def text_width(text: str, size: float) -> float:
    """An upper estimate of the drawn width of ``text`` at font ``size``."""
    return len(text) * size * EM_ADVANCE


def wrap(text: str, size: float, width: float) -> list[str]:
    """``text`` broken at spaces into lines that fit ``width`` at ``size`` (a word longer
    than a line is cut, so nothing overruns)."""
    per_line = max(int(width / (size * EM_ADVANCE)), 1)
    lines: list[str] = []
    current = ""
    for word in text.split():
        while len(word) > per_line:
            if current:
                lines.append(current)
                current = ""
            lines.append(word[:per_line])
            word = word[per_line:]
        if not current:
            current = word
        elif len(current) + 1 + len(word) <= per_line:
            current += " " + word
        else:
            lines.append(current)
            current = word
    if current or not lines:
        lines.append(current)
    return lines


#: a character an attribute value must escape
_SPECIAL = re.compile(r"[&<>\"']")
#: attribute names as written, by keyword (``data_action`` -> ``data-action``)
_NAMES: dict[str, str] = {}


def _attributes(attrs: dict[str, Any]) -> str:
    """``key="value"`` pairs; ``data_action`` is written ``data-action``, ``class_`` ``class``;
    ``None`` values are left out. (The web server draws a picture after every move: numbers,
    most of what is written, need no escaping.)"""
    out = []
    for key, value in attrs.items():
        if value is None:
            continue
        name = _NAMES.get(key)
        if name is None:
            name = _NAMES[key] = key.rstrip("_").replace("_", "-")
        if isinstance(value, float):
            text = f"{value:.1f}".removesuffix(".0")
        elif type(value) is int:
            text = str(value)
        else:
            text = str(value)
            if _SPECIAL.search(text):
                text = escape(text, quote=True)
        out.append(f'{name}="{text}"')
    return " ".join(out)


@dataclass
class Picture:
    """An SVG document being drawn: elements in painting order, then :meth:`document`."""

    width: float
    height: float = 0.0
    parts: list[str] = field(default_factory=list)

    def element(self, tag: str, content: str | None = None, **attrs: Any) -> None:
        """Append ``<tag attrs/>``, or ``<tag attrs>content</tag>`` (``content`` is escaped)."""
        head = f"<{tag} {_attributes(attrs)}".rstrip()
        self.parts.append(f"{head}/>" if content is None else f"{head}>{escape(content, quote=False)}</{tag}>")

    def raw(self, markup: str) -> None:
        """Append ``markup`` as it is: for what the builder has no method for (a pattern);
        the caller builds it from numbers and constants only, never from outside text."""
        self.parts.append(markup)

    def rect(self, x: float, y: float, w: float, h: float, fill: str, **attrs: Any) -> None:
        """A rectangle."""
        self.element("rect", x=x, y=y, width=w, height=h, fill=fill, **attrs)

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str, width: float = 1.0, **attrs: Any) -> None:
        """A straight line, with round ends unless ``stroke_linecap`` says otherwise."""
        attrs.setdefault("stroke_linecap", "round")
        self.element("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, stroke_width=width, **attrs)

    def circle(self, x: float, y: float, r: float, fill: str, **attrs: Any) -> None:
        """A circle."""
        self.element("circle", cx=x, cy=y, r=r, fill=fill, **attrs)

    def polygon(self, points: Iterable[tuple[float, float]], fill: str, **attrs: Any) -> None:
        """A closed polygon."""
        self.element("polygon", points=" ".join(f"{x:.1f},{y:.1f}" for x, y in points), fill=fill, **attrs)

    def text(self, x: float, y: float, text: str, size: float = 13, fill: str = INK, anchor: str = "start",
             bold: bool = False, verbatim: bool = False, **attrs: Any) -> None:
        """One line of text with its baseline at ``y``, its seats called as :func:`seats_called`
        says unless ``verbatim`` (a button's action text, a line already so called)."""
        self.element("text", text if verbatim else called(text), x=x, y=y, font_size=size, fill=fill,
                     text_anchor=None if anchor == "start" else anchor,
                     font_weight="bold" if bold else None, **attrs)

    def open(self, **attrs: Any) -> None:
        """Open a group (close it with :meth:`close`)."""
        self.parts.append(f"<g {_attributes(attrs)}>" if attrs else "<g>")

    def close(self) -> None:
        """Close the last group opened."""
        self.parts.append("</g>")

    def button(self, x: float, y: float, label: str, action: str, size: float = 13) -> float:
        """A clickable button saying ``label`` that sends ``action``; returns its width."""
        w = text_width(label, size) + 16
        self.open(data_action=action, class_="action button")
        self.rect(x, y, w, size + 12, "#ffffff", rx=5, stroke=TARGET, stroke_width=1.5)
        self.text(x + w / 2, y + size + 3, label, size, TARGET, anchor="middle", verbatim=True)
        self.close()
        return w

    def buttons(self, state: State, actions: Sequence[Action], x: float, y: float, width: float,
                label: str = "Moves:") -> float:
        """The ``actions`` as buttons in rows after ``label`` within ``width``; returns the y
        below them. Past :data:`MAX_BUTTONS` a line says how many more there are."""
        if not actions:
            return y
        size = 13
        self.text(x, y + size + 3, label, size, MUTED)
        left = x + text_width(label, size) + 8
        cx = left
        for action in actions[:MAX_BUTTONS]:
            text = state.game.action_to_text(state, action)
            w = text_width(text, size) + 16
            if cx + w > x + width and cx > left:
                cx, y = left, y + size + 18
            cx += self.button(cx, y, text, text, size) + 6
        y += size + 18
        if len(actions) > MAX_BUTTONS:
            self.text(left, y + size, f"... and {len(actions) - MAX_BUTTONS} more moves", size, MUTED)
            y += size + 8
        return y

    def paragraph(self, x: float, y: float, text: str, width: float, size: float = 13, fill: str = INK,
                  bold: bool = False) -> float:
        """``text`` wrapped to ``width`` from top ``y``; returns the y below it. The seats are
        called as :func:`seats_called` says before the lines are broken, so a long name wraps."""
        for line in wrap(called(text), size, width):
            y += size * 1.35
            self.text(x, y, line, size, fill, bold=bold, verbatim=True)
        return y + size * 0.35

    def caption(self, state: State, shown: Shown | None, x: float, y: float, width: float,
                waiting: str = "") -> float:
        """The standard caption from top ``y``: who moves (``waiting`` says what chance
        decides next) or who won, the score, and the move shown; returns the y below it."""
        self.line(x, y + 4, x + width, y + 4, RULE)
        y = self.paragraph(x, y + 6, status_text(state, waiting), width, 15, bold=True)
        y = self.paragraph(x, y, score_text(state), width, 13)
        shown_text = shown.words() if shown is not None else "the start of the game (no move yet)"
        return self.paragraph(x, y, shown_text, width, 13, MUTED)

    def document(self, title: str) -> str:
        """The standalone SVG document, sized to fit everything drawn."""
        w, h = round(self.width), round(self.height)
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
                f'font-family="{FONT}">')
        return "\n".join([head, f"<title>{escape(called(title))}</title>",
                          f'<rect width="{w}" height="{h}" fill="{PAPER}"/>', *self.parts, "</svg>"]) + "\n"


#: the width of :func:`plain_picture`, and the most lines of a text picture it shows
PLAIN_WIDTH = 640.0
PLAIN_LINES = 40


def plain_picture(state: State, shown: Shown | None = None) -> str:
    """The picture of a game that draws none (``GameEntry.svg`` unset): its text picture
    (``str(state)``) line by line, its legal actions as buttons, and the caption; so that a
    new game can be played in the browser before it has a picture of its own."""
    pic = Picture(PLAIN_WIDTH)
    margin, size = 28.0, 14.0
    inner = PLAIN_WIDTH - 2 * margin
    fits = max(int(inner / (size * EM_ADVANCE)), 1)
    y = margin
    lines = str(state).splitlines()
    for line in lines[:PLAIN_LINES]:
        y += size * 1.35
        # no-break spaces: an SVG text collapses runs of plain ones, and a text picture's columns need them
        pic.text(margin, y, line[:fits].replace(" ", "\u00a0"), size, INK, font_family="DejaVu Sans Mono, monospace")
    if len(lines) > PLAIN_LINES:
        y += size * 1.35
        pic.text(margin, y, f"... {len(lines) - PLAIN_LINES} more lines", size, MUTED)
    y = pic.buttons(state, list(legal_texts(state)), margin, y + 12, inner)
    y = pic.caption(state, shown, margin, y, inner)
    pic.height = y + margin
    return pic.document(f"{state.game.title}: {state.summary()}")


def status_text(state: State, waiting: str = "") -> str:
    """``Player 1 to move`` / ``Chance: the lookout's roll`` / ``Player 2 wins 12-7``."""
    game = state.game
    if state.is_terminal():
        return outcome_text(state)
    if state.current_player == CHANCE:
        return f"Chance: {waiting}" if waiting else "Chance to move"
    who = game.seat_name(state.current_player)
    return f"{who[:1].upper()}{who[1:]} to move" + (f": {waiting}" if waiting else "")


def verdict(state: State) -> str:
    """A finished game's result in a few words: ``won``/``lost``/``drawn`` for one seat,
    ``Player 1 wins`` / ``Player 1 and Player 3 win`` / ``a tie`` for several."""
    game = state.game
    returns = state.returns()
    if game.num_players == 1:
        return "won" if returns[0] > 0 else "lost" if returns[0] < 0 else "drawn"
    best = max(returns)
    winners = [game.seat_name(i) for i, r in enumerate(returns) if r == best and r > 0]
    if not winners:
        return "a tie"
    return f"{' and '.join(winners)} win{'s' if len(winners) == 1 else ''}"


def outcome_text(state: State) -> str:
    """Who won a finished game (the caption's score line gives every seat's score)."""
    if state.game.num_players == 1:
        return f"Game over: {verdict(state)} with score {state.scores()[0]:g}"
    return f"Game over: {verdict(state)}"


def score_text(state: State) -> str:
    """``Score: Player 1 12, Player 2 7`` (one seat: ``Score: 637``)."""
    scores = state.scores()
    if len(scores) == 1:
        return f"Score: {scores[0]:g}"
    return "Score: " + ", ".join(f"{state.game.seat_name(i)} {s:g}" for i, s in enumerate(scores))


def legal_texts(state: State[A]) -> dict[A, str]:
    """The player's legal actions and their canonical texts (none while chance moves)."""
    if state.is_terminal() or state.current_player == CHANCE:
        return {}
    return {a: state.game.action_to_text(state, a) for a in state.legal_actions()}


def legal_page(state: State[A], most: int, fields: Callable[[Any, Any], Mapping[str, Any] | None] | None = None,
               ) -> tuple[list[str], int, list[Mapping[str, Any] | None]]:
    """The texts of the first ``most`` legal actions (in the game's order), how many there are,
    and, when the game gives ``fields`` (``Presentation.legal_fields``), each listed action's
    fields (else none): a Hubs sheet of 1000 x 1000 has a million free points, whose texts
    alone take seconds to write, so only those sent are written."""
    if state.is_terminal() or state.current_player == CHANCE:
        return [], 0, []
    page, total = state.legal_head(most)
    texts = [state.game.action_to_text(state, a) for a in page]
    return texts, total, [fields(state, a) for a in page] if fields is not None else []
