"""A tiny game for testing the checks themselves: two players take turns adding 1 or 2 to a
count until it reaches :data:`GOAL`; whoever reaches it wins.

The state keeps the count's history in a list (a value a careless game could change in place).
:class:`CounterGame` keeps it immutable; :class:`MutatingCounterGame` appends to the state it
was applied to, and :class:`CountingRefusalsGame` notes every refused action in the state asked
— each breaks the rule that states are immutable, which the conformance check must catch.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from plunder.core.capabilities import Presentation
from plunder.core.declaration import Declaration
from plunder.core.game import TERMINAL, Game, State
from plunder.core.registry import GameEntry

#: the count that ends the game
GOAL = 7


@dataclass(frozen=True)
class Add:
    """Add ``amount`` to the count (CT-1)."""

    amount: int


#: every action of the game
ADDS = (Add(1), Add(2))


class CounterCodec:
    """``+1`` and ``+2``."""

    def is_action(self, state: object, value: object) -> bool:
        """True for the two additions."""
        return type(value) is Add and value in ADDS

    def text(self, state: object, action: Add) -> str:
        """``+1`` or ``+2``."""
        if not self.is_action(state, action):
            raise ValueError(f"{action!r} is not a counter action")
        return f"+{action.amount}"

    def parse(self, state: State[Add], text: str) -> Add:
        """The addition ``text`` names."""
        for action in ADDS:
            if text.strip() == self.text(state, action):
                return action
        raise state.invalid(text, "write +1 or +2")


class CounterGame(Game[Add]):
    """The sound counter game."""

    id = "counter"
    title = "Counter"
    param_specs = []
    presets = {"standard": {}}

    @property
    def num_players(self) -> int:
        """Two."""
        return 2

    @property
    def max_game_length(self) -> int:
        """Every action adds at least 1."""
        return GOAL

    def new_initial_state(self) -> "CounterState":
        """Nothing counted yet."""
        return CounterState(self, [])

    @property
    def codec(self) -> CounterCodec:
        """``+1`` and ``+2``."""
        return CounterCodec()


@dataclass(frozen=True)
class CounterState(State[Add]):
    """The additions so far, in a list."""

    game: Any = field(compare=False, repr=False)
    added: list[int]

    @property
    def count(self) -> int:
        """The count reached."""
        return sum(self.added)

    @property
    def current_player(self) -> int:
        """Players alternate until the goal is reached."""
        return TERMINAL if self.count >= GOAL else len(self.added) % 2

    def legal_actions(self) -> list[Add]:
        """The additions that do not pass the goal (CT-1)."""
        if self.current_player == TERMINAL:
            return []
        return [a for a in ADDS if self.count + a.amount <= GOAL]

    def illegal_reason(self, action: Add) -> tuple[str, str] | None:
        """Past the goal, or after the end."""
        if action in self.legal_actions():
            return None
        return ("the game is over", "CT-2") if self.is_terminal() else (f"the count may not pass {GOAL}", "CT-1")

    def _apply(self, action: Add) -> "CounterState":
        return CounterState(self.game, self.added + [action.amount])

    def returns(self) -> list[float]:
        """+1 to whoever reached the goal."""
        if not self.is_terminal():
            return [0.0, 0.0]
        winner = (len(self.added) - 1) % 2
        return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]

    def scores(self) -> list[float]:
        """The returns."""
        return self.returns()

    def summary(self) -> str:
        """``count 4 of 7``."""
        return f"count {self.count} of {GOAL}"


class MutatingState(CounterState):
    """Appends to the list of the state it is applied to, and returns that state's equal."""

    def _apply(self, action: Add) -> "CounterState":
        self.added.append(action.amount)
        return MutatingState(self.game, list(self.added))


class MutatingCounterGame(CounterGame):
    """The counter game whose ``apply`` changes the state it was applied to."""

    def new_initial_state(self) -> "CounterState":
        """Nothing counted yet."""
        return MutatingState(self, [])


class RefusalNotingState(CounterState):
    """Notes each action it refuses in its own list (as a negative number)."""

    def illegal_reason(self, action: Add) -> tuple[str, str] | None:
        """Why ``action`` is refused, noted in the state asked."""
        why = super().illegal_reason(action)
        if why is not None:
            self.added.append(-action.amount)
            self.added.append(action.amount)
        return why

    def _apply(self, action: Add) -> "CounterState":
        return RefusalNotingState(self.game, self.added + [action.amount])


class CountingRefusalsGame(CounterGame):
    """The counter game whose refused actions change the state asked."""

    def new_initial_state(self) -> "CounterState":
        """Nothing counted yet."""
        return RefusalNotingState(self, [])


def _entry(cls: type[CounterGame]) -> GameEntry[CounterState, Add]:
    return GameEntry(game_class=cls, declaration=Declaration(min_seats=2, max_seats=2, chance=False, zero_sum=True),
                     presentation=Presentation(pitch="Add 1 or 2 in turn; who reaches 7 wins.",
                                               how_to_play="Counter: add 1 or 2 in turn; who reaches 7 wins.\n"))


#: the sound game's entry (a test registers it under the id ``counter``)
ENTRY = _entry(CounterGame)
#: the mutating game's entry
MUTATING_ENTRY = _entry(MutatingCounterGame)
