"""The rules of Last Stone, a take-away game for 2 to 8 players round one pile.

The players sit in order, Player 1 first, round a pile of ``pile`` stones (LS-1). On your turn
you take from 1 to ``most`` stones, never more than are left (LS-2). Whoever takes the last
stone wins (LS-3); each player's stones taken are their score, which decides nothing (LS-4).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from plunder.core.game import TERMINAL, Game, State
from plunder.core.params import Param, parse_int

#: the seat range the game declares (``Declaration``) and its ``players`` parameter reads
MIN_PLAYERS, MAX_PLAYERS = 2, 8


@dataclass(frozen=True, slots=True)
class Take:
    """Take ``count`` stones from the pile (LS-2)."""

    count: int

    def text(self) -> str:
        """``take 3``."""
        return f"take {self.count}"


class StonesCodec:
    """Last Stone's notation: ``take N`` (any case and spacing)."""

    def is_action(self, state: object, value: object) -> bool:
        """True for a :class:`Take` of a whole number of stones."""
        return type(value) is Take and type(value.count) is int

    def text(self, state: object, action: Take) -> str:
        """The action's text."""
        if not self.is_action(state, action):
            raise ValueError(f"{action!r} is not a Last Stone action")
        return action.text()

    def parse(self, state: State[Take], text: str) -> Take:
        """The :class:`Take` that ``text`` names."""
        words = text.lower().split()
        if len(words) != 2 or words[0] != "take" or not words[1].isdigit() or len(words[1]) > 4:
            raise state.invalid(text, "write take and a number of stones, e.g. take 2")
        return Take(int(words[1]))


#: Last Stone's notation
CODEC = StonesCodec()


class StonesGame(Game[Take]):
    """Last Stone with its players, pile and most stones a turn fixed."""

    id = "stones"
    title = "Last Stone"
    param_specs = [
        Param("players", "4", parse_int(MIN_PLAYERS, MAX_PLAYERS), f"number of players, {MIN_PLAYERS}-{MAX_PLAYERS}",
              label="Players"),
        Param("pile", "21", parse_int(5, 200), "stones in the pile at the start"),
        Param("most", "3", parse_int(2, 6), "most stones a player may take in one turn", label="Most a turn"),
    ]
    presets = {"standard": {}, "party": {"players": "8", "pile": "40", "most": "4"}}

    @property
    def num_players(self) -> int:
        """The ``players`` parameter."""
        players: int = self.values["players"]
        return players

    @property
    def max_game_length(self) -> int:
        """One stone a turn at the least: the pile."""
        pile: int = self.values["pile"]
        return pile

    def new_initial_state(self) -> "StonesState":
        """The whole pile, Player 1 to take."""
        return StonesState(self, self.values["pile"], 0, (0,) * self.num_players, None)

    @property
    def codec(self) -> StonesCodec:
        """Last Stone's notation."""
        return CODEC


@dataclass(frozen=True)
class StonesState(State[Take]):
    """A position: the stones left, whose turn it is, each seat's stones taken, who took the last."""

    game: Any = field(compare=False, repr=False)
    left: int
    mover: int
    taken: tuple[int, ...]
    #: the seat that took the last stone (LS-3), None while stones are left
    winner: int | None

    @property
    def current_player(self) -> int:
        """The mover; TERMINAL once the pile is gone."""
        return TERMINAL if self.left == 0 else self.mover

    def legal_actions(self) -> list[Take]:
        """Take 1 to ``most``, at most what is left (LS-2)."""
        if self.left == 0:
            return []
        return [Take(n) for n in range(1, min(self.game.values["most"], self.left) + 1)]

    def illegal_reason(self, action: Take) -> tuple[str, str] | None:
        """Why ``action`` is not allowed here, with its ruling, or None."""
        if action in self.legal_actions():
            return None
        if self.left == 0:
            return "the game is over: the last stone is taken", "LS-3"
        most = min(self.game.values["most"], self.left)
        return f"take from 1 to {most} stones ({self.left} left)", "LS-2"

    def _apply(self, action: Take) -> "StonesState":
        taken = list(self.taken)
        taken[self.mover] += action.count
        left = self.left - action.count
        return self.evolve(left=left, taken=tuple(taken), mover=(self.mover + 1) % len(taken),
                           winner=self.mover if left == 0 else None)

    def returns(self) -> list[float]:
        """+1 to whoever took the last stone, the others sharing -1 (zero-sum); 0s before the end."""
        n = len(self.taken)
        if self.winner is None:
            return [0.0] * n
        return [1.0 if seat == self.winner else -1.0 / (n - 1) for seat in range(n)]

    def scores(self) -> list[float]:
        """The stones each seat took (LS-4)."""
        return [float(t) for t in self.taken]

    def summary(self) -> str:
        """``Last Stone, 12 left, Player 3 to take`` / ``Last Stone, Player 2 took the last stone``."""
        if self.winner is not None:
            return f"Last Stone, {self.game.seat_name(self.winner)} took the last stone"
        return f"Last Stone, {self.left} left, {self.game.seat_name(self.mover)} to take"

    def __str__(self) -> str:
        return self.summary()
