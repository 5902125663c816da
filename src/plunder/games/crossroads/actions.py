"""Crossroads actions: small typed values, each with one canonical text, and the parser that reads them.

==============================================  ==================================  ==============================
value                                           text                                when
==============================================  ==================================  ==============================
``Roll(lo, hi)``                                ``roll 2-3`` (``lo <= hi``)         chance (CR-1)
``Reroll()``                                    ``reroll 6``                        chance, ``dice=d6`` (CR-9)
``Axis(col, row)``                              ``col 2 row 3``                     which die is the column (CR-1)
``Place(cell)``                                 ``place D3``                        setup city (CR-5)
``City(cell)`` / ``Road(cell)``                 ``city D3`` / ``road E4``           building (CR-4)
``Done()``                                      ``done``                            end of building (CR-14)
``Offer(a, b, relays, fees, mine, theirs)``     ``offer D3-H8 via F5=1 gold 1/1``   a trading turn (CR-7, CR-11)
``Pass()``                                      ``pass``                            no offer this trading turn
``Accept()`` / ``Reject()``                     ``accept`` / ``reject``             answering an offer (CR-11)
``Demand(fee)``                                 ``demand 2``                        a relay's higher fee (CR-12)
==============================================  ==================================  ==============================

Cells are ints 0..99 named like a chess board (see :mod:`.board`). Texts are read
case-insensitively with free spacing; an offer's relays may be typed in any order and
are kept in board order, with their fees. Reading never checks legality: a readable
action the rules forbid is refused by ``apply`` with the ruling it breaks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, TypeAlias

from ...core.errors import InvalidActionError
from .board import CELLS, cell_name, parse_cell

if TYPE_CHECKING:
    from .rules import CrossroadsState

#: longest action text read (an offer through two relays is about 40 characters)
MAX_TEXT = 200
#: numbers in an action (faces, fees, shares) are small; larger ones are refused unread
MAX_NUMBER = 999


@dataclass(frozen=True, slots=True)
class Roll:
    """Chance: the dice show ``lo`` and ``hi`` (faces 1-5, ``lo <= hi``; CR-1)."""

    lo: int
    hi: int

    def text(self) -> str:
        """``roll 2-3``."""
        return f"roll {self.lo}-{self.hi}"


@dataclass(frozen=True, slots=True)
class Reroll:
    """Chance, with ``dice=d6``: a six shows and the dice are rolled again (CR-9)."""

    def text(self) -> str:
        """``reroll 6``."""
        return "reroll 6"


@dataclass(frozen=True, slots=True)
class Axis:
    """The roller's choice of which die labels the column and which the row (CR-1)."""

    col: int
    row: int

    def text(self) -> str:
        """``col 2 row 3``."""
        return f"col {self.col} row {self.row}"


@dataclass(frozen=True, slots=True)
class Place:
    """Setup: the first city goes on ``cell`` (CR-5)."""

    cell: int

    def text(self) -> str:
        """``place D3``."""
        return f"place {cell_name(self.cell)}"


@dataclass(frozen=True, slots=True)
class City:
    """Build a city on ``cell`` for 10 gold (CR-4)."""

    cell: int

    def text(self) -> str:
        """``city D3``."""
        return f"city {cell_name(self.cell)}"


@dataclass(frozen=True, slots=True)
class Road:
    """Build a road on ``cell`` for 3 gold (CR-4)."""

    cell: int

    def text(self) -> str:
        """``road E4``."""
        return f"road {cell_name(self.cell)}"


@dataclass(frozen=True, slots=True)
class Done:
    """End of building; the next player rolls, or trading begins (CR-14)."""

    def text(self) -> str:
        """``done``."""
        return "done"


@dataclass(frozen=True, slots=True)
class Offer:
    """A proposal: my city ``a`` trades with city ``b`` through ``relays`` (cells in board order,
    each paid its fee in ``fees``); I get ``mine`` and the partner ``theirs`` of the 3 new gold
    (CR-7, CR-10, CR-12)."""

    a: int
    b: int
    relays: tuple[int, ...]
    fees: tuple[int, ...]
    mine: int
    theirs: int

    def text(self) -> str:
        """``offer A3-F1 gold 2/1`` or ``offer A3-F1 via C2=1 gold 1/1``."""
        via = ""
        if self.relays:
            via = " via " + ",".join(f"{cell_name(r)}={f}" for r, f in zip(self.relays, self.fees))
        return f"offer {cell_name(self.a)}-{cell_name(self.b)}{via} gold {self.mine}/{self.theirs}"


@dataclass(frozen=True, slots=True)
class Pass:
    """No proposal this trading turn (CR-11)."""

    def text(self) -> str:
        """``pass``."""
        return "pass"


@dataclass(frozen=True, slots=True)
class Accept:
    """Agree to the pending offer as it stands (CR-11)."""

    def text(self) -> str:
        """``accept``."""
        return "accept"


@dataclass(frozen=True, slots=True)
class Reject:
    """Turn the pending offer down; it lapses (CR-11)."""

    def text(self) -> str:
        """``reject``."""
        return "reject"


@dataclass(frozen=True, slots=True)
class Demand:
    """A relay lets the trade through only for ``fee`` (CR-12)."""

    fee: int

    def text(self) -> str:
        """``demand 2``."""
        return f"demand {self.fee}"


#: every Crossroads action
CrossroadsAction: TypeAlias = Roll | Reroll | Axis | Place | City | Road | Done | Offer | Pass | Accept | Reject | Demand

ACTION_TYPES = (Roll, Reroll, Axis, Place, City, Road, Done, Offer, Pass, Accept, Reject, Demand)
#: the actions without fields, by their one-word text
WORDS: dict[str, CrossroadsAction] = {a.text(): a for a in (Done(), Pass(), Accept(), Reject())}


def malformed(action: object) -> str | None:
    """Why ``action`` is not a well-formed Crossroads action value (wrong type, field types or a
    cell off the board), or ``None`` when it is one. Legality is the rules' business."""
    if not isinstance(action, ACTION_TYPES):
        return f"{type(action).__name__} is not a Crossroads action (see plunder.games.crossroads.actions)"
    for f in fields(action):
        value = getattr(action, f.name)
        if f.name in ("relays", "fees"):
            if not isinstance(value, tuple) or not all(_small(v) for v in value):
                return f"{f.name} must be a tuple of whole numbers"
        elif not _small(value):
            return f"{f.name} must be a whole number from -{MAX_NUMBER} to {MAX_NUMBER}"
    match action:
        case Place(cell) | City(cell) | Road(cell) if not 0 <= cell < CELLS:
            return f"cell {cell} is off the board (0-{CELLS - 1})"
        case Offer(a, b, relays, fees, _, _):
            if not all(0 <= c < CELLS for c in (a, b, *relays)):
                return f"an offer's cells lie on the board (0-{CELLS - 1})"
            if len(relays) != len(fees):
                return "an offer names one fee per relay"
    return None


def _small(value: object) -> bool:
    return type(value) is int and -MAX_NUMBER <= value <= MAX_NUMBER


_CELL = r"[a-j](?:10|[1-9])"
_NUM = r"[0-9]{1,3}"
_ROLL = re.compile(r"roll ([1-5]) ?- ?([1-5])")
_AXIS = re.compile(r"col ([1-5]) row ([1-5])")
_SITE = re.compile(rf"(place|city|road) ({_CELL})")
_DEMAND = re.compile(rf"demand ({_NUM})")
_RELAY = rf"{_CELL} ?= ?{_NUM}"
_OFFER = re.compile(rf"offer ({_CELL}) ?- ?({_CELL})(?: via ({_RELAY}(?: ?, ?{_RELAY})*))? gold ({_NUM}) ?/ ?({_NUM})")
_SITE_TYPES: dict[str, type[Place] | type[City] | type[Road]] = {"place": Place, "city": City, "road": Road}

_HINTS = {
    "roll": "a roll reads like 'roll 2-3' (two faces 1-5, lower first)",
    "reroll": "a six reads 'reroll 6'",
    "col": "an axis choice reads like 'col 2 row 3' (labels 1-5)",
    "place": "a setup city reads like 'place D3' (columns A-J, rows 1-10)",
    "city": "a city reads like 'city D3' (columns A-J, rows 1-10)",
    "road": "a road reads like 'road E4' (columns A-J, rows 1-10)",
    "demand": "a demand reads like 'demand 2' (the fee in whole gold)",
    "offer": "an offer reads like 'offer A3-F1 gold 2/1' or 'offer A3-F1 via C2=1,D5=0 gold 1/1'",
}
_EXPECTED = "expected roll, col/row, place, city, road, done, offer, pass, accept, reject or demand"


def parse(text: str) -> CrossroadsAction:
    """The action ``text`` names; :class:`InvalidActionError` saying what is wrong if it names none."""
    if len(text) > MAX_TEXT:
        raise InvalidActionError(text[:40] + "...", f"longer than any action ({MAX_TEXT} characters)")
    t = " ".join(text.lower().split())
    if t in WORDS:
        return WORDS[t]
    if t == "reroll 6":
        return Reroll()
    if (m := _ROLL.fullmatch(t)) and m[1] <= m[2]:
        return Roll(int(m[1]), int(m[2]))
    if m := _AXIS.fullmatch(t):
        return Axis(int(m[1]), int(m[2]))
    if m := _SITE.fullmatch(t):
        return _SITE_TYPES[m[1]](_cell(m[2]))
    if m := _DEMAND.fullmatch(t):
        return Demand(int(m[1]))
    if m := _OFFER.fullmatch(t):
        via = sorted((_cell(name), int(fee)) for name, fee in re.findall(rf"({_CELL}) ?= ?({_NUM})", m[3] or ""))
        return Offer(_cell(m[1]), _cell(m[2]), tuple(r for r, _ in via), tuple(f for _, f in via), int(m[4]), int(m[5]))
    raise InvalidActionError(text, _HINTS.get(t.partition(" ")[0], _EXPECTED))


def _cell(name: str) -> int:
    """The cell of a name the patterns above already matched."""
    where = parse_cell(name)
    assert where is not None
    return where


class CrossroadsCodec:
    """Crossroads' notation (:mod:`.actions`); while a first city is being placed, a bare cell
    (``D4``) reads as ``place D4``: the prompt lists cells, and nothing else a cell could mean then."""

    def is_action(self, state: object, value: object) -> bool:
        """True for a well-formed Crossroads action."""
        return malformed(value) is None

    def text(self, state: object, action: CrossroadsAction) -> str:
        """The action's canonical text."""
        why = malformed(action)
        if why is not None:
            raise ValueError(why)
        return action.text()

    def parse(self, state: "CrossroadsState", text: str) -> CrossroadsAction:
        """The action ``text`` names."""
        if len(text) <= 8 and state.places_first_city() and parse_cell(text.strip()) is not None:
            text = "place " + text.strip()
        try:
            return parse(text)
        except InvalidActionError as exc:
            raise state.invalid(exc.text, exc.reason) from None


#: Crossroads' notation (the same for every parameter set)
CODEC = CrossroadsCodec()


__all__ = [
    "CODEC",
    "CrossroadsCodec",
    "Accept",
    "Axis",
    "City",
    "CrossroadsAction",
    "Demand",
    "Done",
    "Offer",
    "Pass",
    "Place",
    "Reject",
    "Reroll",
    "Road",
    "Roll",
    "malformed",
    "parse",
]
