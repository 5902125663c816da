"""Hubs actions as values, their canonical texts and the reading of typed text.

A move either places a dot on a lattice point (:class:`Dot`, HB-1) or joins two dots
with a segment (:class:`Segment`, HB-2/HB-3). Dots are labelled in the order they are
placed, spreadsheet style: ``a`` .. ``z``, then ``aa``, ``ab`` .. ``zz``, so a round has
at most :data:`LABELS` dots that can be named.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from .rules import HubsState

#: how many dots can be given a label (a..z, aa..zz)
LABELS = 26 + 26 * 26
#: digits read in a coordinate; more cannot be on any sheet (sides stop at 1000, HB-8)
MAX_COORDINATE_DIGITS = 6

_LETTERS = string.ascii_lowercase
# ASCII only: a Unicode digit or a letter such as the Kelvin sign would read as
# something the canonical text never shows.
_DOT = re.compile(r"(?:dot\s+)?(-?\d+)\s*[,\s]\s*(-?\d+)", re.ASCII | re.IGNORECASE)
_SEGMENT = re.compile(r"(?:seg\s+)?([a-z]{1,2})\s*[-\s]\s*([a-z]{1,2})", re.ASCII | re.IGNORECASE)


def label(index: int) -> str:
    """The label of the dot placed ``index``-th (0-based): a, b, ..., z, aa, ab, ..."""
    if not 0 <= index < LABELS:
        raise ValueError(f"dot index {index} has no label (0..{LABELS - 1})")
    if index < 26:
        return _LETTERS[index]
    index -= 26
    return _LETTERS[index // 26] + _LETTERS[index % 26]


def label_index(text: str) -> int:
    """The dot index of a label (one or two ASCII letters, any case)."""
    t = text.lower()
    if len(t) == 1:
        return _LETTERS.index(t)
    return 26 + 26 * _LETTERS.index(t[0]) + _LETTERS.index(t[1])


@dataclass(frozen=True, slots=True)
class Dot:
    """Place a dot on the lattice point ``(x, y)`` (HB-1)."""

    x: int
    y: int

    def text(self) -> str:
        """Canonical text: ``dot 12,30``."""
        return f"dot {self.x},{self.y}"


@dataclass(frozen=True, slots=True)
class Segment:
    """Join the dots placed ``first``-th and ``second``-th (0-based, ``first < second``; HB-2)."""

    first: int
    second: int

    @staticmethod
    def joining(i: int, j: int) -> "Segment":
        """The segment between dots ``i`` and ``j``, in either order."""
        return Segment(i, j) if i < j else Segment(j, i)

    def text(self) -> str:
        """Canonical text: ``seg c-k`` (lower label first)."""
        return f"seg {self.name()}"

    def name(self) -> str:
        """The two labels, ``c-k``, as error messages name a segment."""
        return f"{label(self.first)}-{label(self.second)}"


#: every Hubs action
HubsAction: TypeAlias = Dot | Segment


class Unreadable(Exception):
    """Text that is no Hubs action; the game turns it into an ``InvalidActionError``."""


def read_action(text: str) -> HubsAction:
    """Read ``dot X,Y`` (also ``X,Y``, ``dot X Y``) or ``seg P-Q`` (also ``P-Q``, ``P Q``, either order).

    Raises :class:`Unreadable` for anything else, including coordinates too long to be on
    a sheet and a dot joined to itself. Whether the dot or segment exists in the position
    is the game's business.
    """
    text = text.strip()
    dot = _DOT.fullmatch(text)
    if dot is not None:
        digits = [g.lstrip("-") for g in dot.groups()]
        if any(len(d) > MAX_COORDINATE_DIGITS for d in digits):
            raise Unreadable(f"a coordinate has more than {MAX_COORDINATE_DIGITS} digits")
        return Dot(int(dot.group(1)), int(dot.group(2)))
    ends = _SEGMENT.fullmatch(text)
    if ends is not None:
        i, j = label_index(ends.group(1)), label_index(ends.group(2))
        if i == j:
            raise Unreadable("a segment joins two different dots")
        return Segment.joining(i, j)
    raise Unreadable("expected 'dot X,Y' or 'seg P-Q' (dot labels like a, k, ab)")


def _whole(value: object) -> bool:
    return type(value) is int


class HubsCodec:
    """Hubs' notation on one sheet: ``dot X,Y`` (also ``X,Y``) and ``seg P-Q`` (also ``P-Q``,
    either order); a dot must be on the ``width`` x ``height`` lattice (HB-1, HB-8) and a
    segment must join two of the round's ``dots`` labels (HB-2)."""

    def __init__(self, width: int, height: int, dots: int) -> None:
        self.width, self.height, self.dots = width, height, dots

    def is_action(self, state: object, value: object) -> bool:
        """True for a dot on the sheet or a segment between two of a round's labels."""
        match value:
            case Dot(x, y):
                return _whole(x) and _whole(y) and 0 <= x < self.width and 0 <= y < self.height
            case Segment(first, second):
                return _whole(first) and _whole(second) and 0 <= first < second < self.dots
        return False

    def text(self, state: object, action: HubsAction) -> str:
        """``dot 12,30`` or ``seg c-k``."""
        if not self.is_action(state, action):
            raise ValueError(f"{action!r} is not a hubs action on this sheet")
        return action.text()

    def parse(self, state: "HubsState", text: str) -> HubsAction:
        """The dot or segment ``text`` names."""
        try:
            action = read_action(text)
        except Unreadable as exc:
            raise state.invalid(text, str(exc)) from None
        match action:
            case Dot(x, y) if not (0 <= x < self.width and 0 <= y < self.height):
                raise state.invalid(text, f"({x},{y}) is off the {self.width}x{self.height} lattice: "
                                          f"x runs 0..{self.width - 1}, y 0..{self.height - 1}")
            case Segment(_, second) if second >= self.dots:
                raise state.invalid(text, f"a round has {self.dots} dots, labelled a..{label(self.dots - 1)}")
        return action
