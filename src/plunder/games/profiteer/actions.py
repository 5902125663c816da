"""Profiteer's actions: small typed values, their canonical text, and reading that text back.

| action | text | when |
|---|---|---|
| ``Draw(card)`` | ``QS`` | chance: the card drawn from the pile being drawn (PF-9) |
| ``Keep()`` | ``keep`` | a flip: let it stand (PF-3); ``pass`` is read too |
| ``Switch(side, rank)`` | ``switch A K`` | a flip: a resource of that rank in place of the side's face-up card (PF-3) |
| ``Give(rank)`` | ``give 7`` | the count: a resource of that rank to the smaller side (PF-6) |
| ``End()`` | ``end`` | the count: decline to balance, which ends the game (PF-6, PF-14) |

Suits never matter (PF-1), so the profiteer's choices name a rank and the card that moves
is the lowest suit of that rank among the resources (C < D < H < S, the order of PF-11).
A card may still be typed where a rank is asked (``switch A KD``, ``give 7C``): it is read
as its rank. Chance draws name the card: every physical card is followed from pile to pile.

The classes are frozen dataclasses, not tuples, so a ``Give(7)`` never equals a ``Draw(7)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from .cards import RANKS, Rank, card_text, parse_card, parse_rank

if TYPE_CHECKING:
    from ...core.game import State

#: texts longer than this are refused before they are read
MAX_TEXT = 40
#: what a move looks like, in words that suit the terminal and the page alike
_HELP = "a move is keep, switch A K, give 7, end, or a card such as QS"


class Side(IntEnum):
    """One of the two warring sides."""

    A = 0
    B = 1

    def text(self) -> str:
        """``A`` or ``B``."""
        return self.name


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance draws ``card`` (0..51, see :mod:`.cards`) from the pile being drawn (PF-9)."""

    card: int

    def text(self) -> str:
        """The card's name, e.g. ``QS``."""
        return card_text(self.card)


@dataclass(frozen=True, slots=True)
class Keep:
    """The profiteer lets the flip stand (PF-3)."""

    def text(self) -> str:
        """``keep``."""
        return "keep"


@dataclass(frozen=True, slots=True)
class Switch:
    """The profiteer gives a resource of ``rank`` in place of ``side``'s face-up card (PF-3)."""

    side: Side
    rank: Rank

    def text(self) -> str:
        """E.g. ``switch A K``."""
        return f"switch {Side(self.side).name} {RANKS[self.rank]}"


@dataclass(frozen=True, slots=True)
class Give:
    """At the count, the profiteer gives a resource of ``rank`` to the smaller side (PF-6)."""

    rank: Rank

    def text(self) -> str:
        """E.g. ``give 7``."""
        return f"give {RANKS[self.rank]}"


@dataclass(frozen=True, slots=True)
class End:
    """At the count, the profiteer declines to balance: the game ends (PF-6, PF-14)."""

    def text(self) -> str:
        """``end``."""
        return "end"


ProfiteerAction = Draw | Keep | Switch | Give | End

#: one shared value per action, so that states list them without building new ones
DRAWS = tuple(Draw(card) for card in range(52))
KEEP = Keep()
END = End()
SWITCHES = {side: tuple(Switch(side, r) for r in Rank) for side in Side}
GIVES = tuple(Give(r) for r in Rank)


def _index(value: object, size: int) -> bool:
    """``value`` is an int (not a bool) in ``0 .. size-1``."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < size


def well_formed(action: object) -> bool:
    """``action`` is a Profiteer action with fields of the right types and ranges."""
    match action:
        case Draw(card=card):
            return _index(card, 52)
        case Keep() | End():
            return True
        case Switch(side=side, rank=rank):
            return _index(side, 2) and _index(rank, 13)
        case Give(rank=rank):
            return _index(rank, 13)
    return False


def _rank_or_card(word: str) -> Rank:
    """A rank, or the rank of a card named in full (suits never matter, PF-1)."""
    try:
        return parse_rank(word)
    except ValueError:
        pass
    try:
        return Rank(parse_card(word) >> 2)
    except ValueError:
        raise ValueError(f"{word!r} is not a rank (2-10, J, Q, K, A) or a card such as KD") from None


def parse(text: str) -> ProfiteerAction:
    """Read an action's text; raise ``ValueError`` saying what is wrong (legality is not checked)."""
    if not isinstance(text, str):
        raise ValueError(f"an action is text, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise ValueError(f"{len(text)} characters is longer than any action ({MAX_TEXT} at most)")
    words = text.split()
    if not words:
        raise ValueError(f"empty: {_HELP}")
    head, rest = words[0].lower(), words[1:]
    if head in ("keep", "pass") and not rest:
        return KEEP
    if head == "end" and not rest:
        return END
    if head == "switch":
        if len(rest) != 2 or rest[0].upper() not in ("A", "B"):
            raise ValueError("write switch, the side A or B, then the rank you give: switch A K")
        return SWITCHES[Side[rest[0].upper()]][_rank_or_card(rest[1])]
    if head == "give":
        if len(rest) != 1:
            raise ValueError("write give and the rank you give: give 7")
        return GIVES[_rank_or_card(rest[0])]
    if not rest:
        return DRAWS[parse_card(words[0])]
    raise ValueError(_HELP)


class ProfiteerCodec:
    """Profiteer's notation: ``QS`` (the card drawn), ``keep``, ``switch A K``, ``give 7``, ``end``."""

    def is_action(self, state: object, value: object) -> bool:
        """True for a Profiteer action with fields of the right types and ranges."""
        return well_formed(value)

    def text(self, state: object, action: ProfiteerAction) -> str:
        """The action's canonical text."""
        if not well_formed(action):
            raise ValueError(f"{action!r} is not a profiteer action")
        return action.text()

    def parse(self, state: "State[Any]", text: str) -> ProfiteerAction:
        """The action ``text`` names."""
        try:
            return parse(text)
        except ValueError as exc:
            shown = text if len(text) <= MAX_TEXT else f"{text[:MAX_TEXT]}..."
            raise state.invalid(shown, str(exc)) from None


#: Profiteer's notation (the same for every parameter set)
CODEC = ProfiteerCodec()
