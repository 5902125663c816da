"""Piece Packing Pirates actions: one small typed value per kind of move, its canonical
text and the parser that reads it back.

The pirate's choices (``Buy``, ``Place``, ``Wind``, ``Sail``, ``Stop``, ``Fight``,
``Steer``, ``Bury``, ``Retrieve``, ``Done``, ``Keep``, ``Continue``, ``Retire``) and the
outcomes of chance (``Dice``, ``Lookout``, ``Flip``, ``Draw``) are frozen dataclasses, so
two kinds never compare equal even with equal fields. Every action's :meth:`text` is what
a player types and what records store; :func:`parse_text` reads it back. Whether an
action is legal is for the rules (:mod:`.rules`) to say.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, TypeAlias

from . import tables as T
from .sea import DIRS, WINDS, Cell, cell_text, parse_cell

if TYPE_CHECKING:
    from .rules import PiratesState

#: the numbers a player may type: a few ASCII digits (a bury or retrieve amount)
MAX_AMOUNT_DIGITS = 4
#: longest action text read (the longest canonical text, ``bury 9999 at -9999,-9999``, has 24)
MAX_TEXT = 80


@dataclass(frozen=True, slots=True)
class Dice:
    """Chance: both dice rolled, for the starting booty (PR-3) or a combat (PR-6)."""

    suns: int
    arms: int

    def text(self) -> str:
        """``dice suns=S arms=A``."""
        return f"dice suns={self.suns} arms={self.arms}"


@dataclass(frozen=True, slots=True)
class Lookout:
    """Chance: the suns die rolled for a sighting (PR-5)."""

    roll: int

    def text(self) -> str:
        """``lookout N``."""
        return f"lookout {self.roll}"


@dataclass(frozen=True, slots=True)
class Flip:
    """Chance: the identity of the face-down tile just entered (PR-2)."""

    face: int

    def text(self) -> str:
        """``flip arms-4``."""
        return f"flip {T.face_name(self.face)}"


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: the coin drawn from the bag for a sighting (PR-5)."""

    coin: int

    def text(self) -> str:
        """``draw suns-brig``."""
        return f"draw {T.coin_name(self.coin)}"


@dataclass(frozen=True, slots=True)
class Buy:
    """Buy ``ship`` (its value) with ``crew`` in all, at setup (PR-3) or as a refit (PR-9)."""

    ship: int
    crew: int

    def text(self) -> str:
        """``buy brig 5``."""
        return f"buy {T.SHIP_NAMES[self.ship]} {self.crew}"


@dataclass(frozen=True, slots=True)
class Place:
    """Weigh anchor on the space ``cell`` (PR-3)."""

    cell: Cell

    def text(self) -> str:
        """``place x,y``."""
        return f"place {cell_text(self.cell)}"


@dataclass(frozen=True, slots=True)
class Wind:
    """The wind of the tile just flipped: NE, SE, SW or NW (PR-2)."""

    wind: str

    def text(self) -> str:
        """``wind NE``."""
        return f"wind {self.wind}"


@dataclass(frozen=True, slots=True)
class Sail:
    """One sail step: N, E, S, W, or the wind's diagonal (PR-4)."""

    direction: str

    def text(self) -> str:
        """``sail E``."""
        return f"sail {self.direction}"


@dataclass(frozen=True, slots=True)
class Fight:
    """Fight ``coin`` next, of the ships on the pirate's space (PR-6)."""

    coin: int

    def text(self) -> str:
        """``fight suns-brig``."""
        return f"fight {T.coin_name(self.coin)}"


@dataclass(frozen=True, slots=True)
class Steer:
    """Break a tie between a ship's best routes: ``coin`` sails to ``cell`` (PR-7)."""

    coin: int
    cell: Cell

    def text(self) -> str:
        """``steer suns-brig x,y``."""
        return f"steer {T.coin_name(self.coin)} {cell_text(self.cell)}"


@dataclass(frozen=True, slots=True)
class Bury:
    """Bury ``amount`` booty in the land cell ``site`` (PR-8)."""

    amount: int
    site: Cell

    def text(self) -> str:
        """``bury N at x,y``."""
        return f"bury {self.amount} at {cell_text(self.site)}"


@dataclass(frozen=True, slots=True)
class Retrieve:
    """Dig up ``amount`` of the buried booty (PR-8)."""

    amount: int

    def text(self) -> str:
        """``retrieve N``."""
        return f"retrieve {self.amount}"


@dataclass(frozen=True, slots=True)
class Stop:
    """End the sail here (PR-4)."""

    def text(self) -> str:
        """``stop``."""
        return "stop"


@dataclass(frozen=True, slots=True)
class Done:
    """End the bury step (PR-8)."""

    def text(self) -> str:
        """``done``."""
        return "done"


@dataclass(frozen=True, slots=True)
class Keep:
    """No refit in the upgrade step (PR-9)."""

    def text(self) -> str:
        """``keep``."""
        return "keep"


@dataclass(frozen=True, slots=True)
class Continue:
    """Sail on into the next turn (PR-10)."""

    def text(self) -> str:
        """``continue``."""
        return "continue"


@dataclass(frozen=True, slots=True)
class Retire:
    """Retire now; this turn counts as completed (PR-10)."""

    def text(self) -> str:
        """``retire``."""
        return "retire"


#: every Piece Packing Pirates action
PiratesAction: TypeAlias = (Dice | Lookout | Flip | Draw | Buy | Place | Wind | Sail | Fight | Steer | Bury | Retrieve
                 | Stop | Done | Keep | Continue | Retire)
#: the outcomes of chance
CHANCE_KINDS: tuple[type, ...] = (Dice, Lookout, Flip, Draw)

STOP, DONE, KEEP, CONTINUE, RETIRE = Stop(), Done(), Keep(), Continue(), Retire()


def action_text(action: object) -> str:
    """The canonical text of ``action``; ``ValueError`` for a value that is not a
    well-formed pirates action (what a caller passing arbitrary values gets)."""
    if not isinstance(action, PiratesAction):
        raise ValueError(f"a {type(action).__name__} is not a pirates action")
    try:
        return action.text()
    except (TypeError, IndexError, KeyError, AttributeError, ValueError):
        # fields of the wrong kind, or an integer too long to print
        raise ValueError(f"this {type(action).__name__} is not a well-formed pirates action") from None


def well_formed(action: object) -> bool:
    """True when ``action`` is a pirates action whose fields hold values of the right kind
    (its text reads back as the same action); any other value is refused by ``apply``."""
    try:
        return bool(parse_text(action_text(action)) == action)
    except ValueError:
        return False


# --- reading texts ----------------------------------------------------------------------

def _amount(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > MAX_AMOUNT_DIGITS:
        raise ValueError(f"{text!r} is not a whole number of at most {MAX_AMOUNT_DIGITS} digits")
    return int(text)


def _die(text: str, name: str) -> int:
    key, eq, value = text.partition("=")
    if key != name or not eq or value not in ("0", "1", "2", "3", "4", "5"):
        raise ValueError(f"{text!r} is not {name}=N with N from 0 (null) to 5")
    return int(value)


def _direction(text: str) -> str:
    if text.upper() not in DIRS:
        raise ValueError(f"{text!r} is not a direction (N E S W NE SE SW NW)")
    return text.upper()


def _wind(text: str) -> str:
    if text.upper() not in WINDS:
        raise ValueError(f"{text!r} is not a wind (NE SE SW NW)")
    return text.upper()


def _ship(text: str) -> int:
    if text not in T.SHIP_NAMES:
        raise ValueError(f"{text!r} is not a ship ({', '.join(T.SHIP_NAMES)})")
    return T.SHIP_NAMES.index(text)


def _bury(amount: str, at: str, site: str) -> Bury:
    if at != "at":
        raise ValueError("write bury N at x,y")
    return Bury(_amount(amount), parse_cell(site))


#: verb -> reader of the words after it; the number of words is the reader's arity
_READERS: dict[str, Callable[..., PiratesAction]] = {
    "dice": lambda s, a: Dice(_die(s, "suns"), _die(a, "arms")),
    "lookout": lambda n: Lookout(_die("suns=" + n, "suns")),
    "flip": lambda f: Flip(T.face_from_name(f)),
    "draw": lambda c: Draw(T.coin_from_name(c)),
    "buy": lambda ship, crew: Buy(_ship(ship), _amount(crew)),
    "place": lambda cell: Place(parse_cell(cell)),
    "wind": lambda w: Wind(_wind(w)),
    "sail": lambda d: Sail(_direction(d)),
    "fight": lambda c: Fight(T.coin_from_name(c)),
    "steer": lambda c, cell: Steer(T.coin_from_name(c), parse_cell(cell)),
    "bury": _bury,
    "retrieve": lambda n: Retrieve(_amount(n)),
    "stop": lambda: STOP,
    "done": lambda: DONE,
    "keep": lambda: KEEP,
    "continue": lambda: CONTINUE,
    "retire": lambda: RETIRE,
}
_ARITY: dict[str, int] = {"dice": 2, "lookout": 1, "flip": 1, "draw": 1, "buy": 2, "place": 1, "wind": 1,
                          "sail": 1, "fight": 1, "steer": 2, "bury": 3, "retrieve": 1, "stop": 0, "done": 0,
                          "keep": 0, "continue": 0, "retire": 0}


def parse_text(text: str) -> PiratesAction:
    """Read an action's canonical text (any case, any spacing); ``ValueError`` says what is wrong.

    Text longer than :data:`MAX_TEXT` is refused before it is split into words."""
    if len(text) > MAX_TEXT:
        raise ValueError(f"{len(text)} characters is longer than any action ({MAX_TEXT} at most)")
    words = text.strip().lower().split()
    if not words:
        raise ValueError("empty action")
    verb, args = words[0], words[1:]
    if verb not in _READERS:
        raise ValueError(f"unknown verb {verb!r}; verbs are {', '.join(_READERS)}")
    if len(args) != _ARITY[verb]:
        raise ValueError(f"{verb} takes {_ARITY[verb]} word(s) after it, got {len(args)}")
    return _READERS[verb](*args)


def short_key(text: str, *, wind_pending: bool, placing: bool, steering: int | None) -> PiratesAction | None:
    """The action a one-word key stands for, or ``None``: a bare direction sails that way
    (or sets the wind of a just-flipped tile); a bare space ``x,y`` places the ship at
    setup or steers the ship ``steering`` whose tie is pending."""
    if len(text) > MAX_TEXT:
        return None
    word = text.strip()
    if not word or " " in word:
        return None
    if word.upper() in DIRS:
        return Wind(word.upper()) if wind_pending else Sail(word.upper())
    try:
        cell = parse_cell(word)
    except ValueError:
        return None
    if placing:
        return Place(cell)
    if steering is not None:
        return Steer(steering, cell)
    return None



class PiratesCodec:
    """Pirates' notation (:mod:`.actions`): the canonical texts, and the one-word keys a player
    may type — a bare direction sails that way (or sets the wind of a just-flipped tile), a bare
    space ``x,y`` places the ship at setup or steers the ship whose tie is pending."""

    def is_action(self, state: object, value: object) -> bool:
        """True for a well-formed pirates action (its text reads back as itself)."""
        return well_formed(value)

    def text(self, state: object, action: PiratesAction) -> str:
        """The action's canonical text."""
        return action_text(action)

    def parse(self, state: "PiratesState", text: str) -> PiratesAction:
        """The action ``text`` names, or the one its short key stands for at ``state``."""
        try:
            return parse_text(text)
        except ValueError as exc:
            wind_pending, placing, steering = state.short_keys()
            key = short_key(text, wind_pending=wind_pending, placing=placing, steering=steering)
            if key is None:
                raise state.invalid(text[:80], str(exc)) from None
            return key


#: Pirates' notation (the same for every parameter set)
CODEC = PiratesCodec()
