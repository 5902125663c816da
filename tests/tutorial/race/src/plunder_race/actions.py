"""Race's one kind of action, ``add 2``, and its notation."""

from __future__ import annotations

from dataclasses import dataclass

from plunder.core.game import State


@dataclass(frozen=True, slots=True)
class Add:
    """Add ``amount`` to the running total (RC-1)."""

    amount: int

    def text(self) -> str:
        """``add 2``."""
        return f"add {self.amount}"


#: the largest step the notation reads; a game allows at most its ``most`` parameter (RC-1)
LARGEST = 9


class RaceCodec:
    """Race's notation: ``add 1`` to ``add 9`` (any case and spacing), or the bare number."""

    def is_action(self, state: object, value: object) -> bool:
        """True for an ``Add`` of 1 to :data:`LARGEST`."""
        return type(value) is Add and 1 <= value.amount <= LARGEST

    def text(self, state: object, action: Add) -> str:
        """The action's text."""
        if not self.is_action(state, action):
            raise ValueError(f"{action!r} is not a Race action")
        return action.text()

    def parse(self, state: State[Add], text: str) -> Add:
        """The action ``text`` names."""
        words = text.lower().split()
        if words[:1] == ["add"]:
            words = words[1:]
        if len(words) != 1 or not words[0].isdigit() or not 1 <= int(words[0]) <= LARGEST:
            raise state.invalid(text, f"write add and a number from 1 to {LARGEST}, such as add 2 (RC-1)")
        return Add(int(words[0]))


#: Race's notation
CODEC = RaceCodec()
