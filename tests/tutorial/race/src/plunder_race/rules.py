"""The rules of Race: players in turn add 1 to ``most`` to a running total, which starts at 0
(RC-1); the total may not pass the goal (RC-2); whoever brings it to the goal exactly wins, and
every other player loses (RC-3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from plunder.core.game import TERMINAL, Game, State
from plunder.core.params import Param, parse_int

from .actions import CODEC, LARGEST, Add, RaceCodec


class RaceGame(Game[Add]):
    """Race with its seats, goal and largest step fixed."""

    id = "race"
    title = "Race to the goal"
    param_specs = [
        Param("players", "2", parse_int(2, 4), "number of players, 2-4", label="Players"),
        Param("goal", "21", parse_int(5, 100), "the total that wins"),
        Param("most", "3", parse_int(2, LARGEST), "the most a player may add in one turn"),
    ]
    presets = {"standard": {}, "three": {"players": "3", "goal": "30", "most": "4"}}

    @property
    def num_players(self) -> int:
        """The ``players`` parameter."""
        return int(self.values["players"])

    @property
    def max_game_length(self) -> int:
        """Every move adds at least 1, so at most ``goal`` moves."""
        return int(self.values["goal"])

    def new_initial_state(self) -> "RaceState":
        """The first player to move, the total at 0."""
        return RaceState(self, 0, 0, -1)

    @property
    def codec(self) -> RaceCodec:
        """Race's notation (:mod:`.actions`)."""
        return CODEC


@dataclass(frozen=True)
class RaceState(State[Add]):
    """A position: the running total, who moves, and who moved last (-1 before any move)."""

    game: Any = field(compare=False, repr=False)
    total: int
    mover: int
    last: int

    @property
    def current_player(self) -> int:
        """The mover, or TERMINAL once the goal is reached."""
        return TERMINAL if self.total >= self.game.values["goal"] else self.mover

    def legal_actions(self) -> list[Add]:
        """Adding 1 to ``most``, never past the goal (RC-1, RC-2)."""
        if self.is_terminal():
            return []
        room = self.game.values["goal"] - self.total
        return [Add(n) for n in range(1, min(self.game.values["most"], room) + 1)]

    def illegal_reason(self, action: Add) -> tuple[str, str] | None:
        """Why ``action`` is not allowed here, with its ruling, or None."""
        if action in self.legal_actions():
            return None
        if self.is_terminal():
            return "the game is over", "RC-3"
        if action.amount > self.game.values["most"]:
            return f"a turn adds at most {self.game.values['most']}", "RC-1"
        return f"the total may not pass the goal of {self.game.values['goal']}", "RC-2"

    def _apply(self, action: Add) -> "RaceState":
        return self.evolve(total=self.total + action.amount, mover=(self.mover + 1) % self.game.num_players,
                           last=self.mover)

    def returns(self) -> list[float]:
        """+1 to whoever reached the goal, -1 to every other player; 0s before the end (RC-3)."""
        n = self.game.num_players
        if not self.is_terminal():
            return [0.0] * n
        return [1.0 if seat == self.last else -1.0 for seat in range(n)]

    def scores(self) -> list[float]:
        """1 for the winner, 0 for the others (the game keeps no other points)."""
        return [1.0 if self.is_terminal() and seat == self.last else 0.0 for seat in range(self.game.num_players)]

    def summary(self) -> str:
        """``Race to 21: 13, Player 2 to move``."""
        head = f"Race to {self.game.values['goal']}: {self.total}"
        if self.is_terminal():
            return head + f", won by {self.game.seat_name(self.last)}"
        return head + f", {self.game.seat_name(self.mover)} to move"

    def __str__(self) -> str:
        return self.summary()
