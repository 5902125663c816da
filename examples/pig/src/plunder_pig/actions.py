"""Pig's actions as typed values, and its notation: ``roll``, ``hold``, and the die's ``die 4``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from plunder.core.game import State


@dataclass(frozen=True, slots=True)
class Roll:
    """Roll the die (PG-1)."""

    def text(self) -> str:
        """``roll``."""
        return "roll"


@dataclass(frozen=True, slots=True)
class Hold:
    """Bank the turn total and end the turn (PG-3)."""

    def text(self) -> str:
        """``hold``."""
        return "hold"


@dataclass(frozen=True, slots=True)
class Face:
    """The die shows ``pips`` (chance's outcome, PG-1, PG-2)."""

    pips: int

    def text(self) -> str:
        """``die 4``."""
        return f"die {self.pips}"


#: every action of Pig
PigAction: TypeAlias = Roll | Hold | Face

ROLL, HOLD = Roll(), Hold()
#: the die's outcomes
FACES = tuple(Face(pips) for pips in range(1, 7))
_ALL: tuple[PigAction, ...] = (ROLL, HOLD, *FACES)
_BY_TEXT: dict[str, PigAction] = {a.text(): a for a in _ALL}


class PigCodec:
    """Pig's notation: ``roll``, ``hold``, ``die 1`` to ``die 6`` (any case and spacing)."""

    def is_action(self, state: object, value: object) -> bool:
        """True for Roll, Hold and the six faces."""
        return value in _BY_TEXT.values() and type(value) in (Roll, Hold, Face)

    def text(self, state: object, action: PigAction) -> str:
        """The action's text."""
        if not self.is_action(state, action):
            raise ValueError(f"{action!r} is not a Pig action")
        return action.text()

    def parse(self, state: State[PigAction], text: str) -> PigAction:
        """The action ``text`` names."""
        found = _BY_TEXT.get(" ".join(text.lower().split()))
        if found is None:
            raise state.invalid(text, "write roll or hold (the die's outcomes are die 1 to die 6)")
        return found


#: Pig's notation
CODEC = PigCodec()
