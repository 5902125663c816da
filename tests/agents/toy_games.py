"""A tiny chance game for any number of players, to test agents without a real game.

Race to a target: on your turn add 1 or 2 to your total, then chance adds 0 or 1
(even odds). The first to reach the target wins (+1, the others -1). With one player
the target must be hit exactly, else the game is lost.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from plunder.core.game import CHANCE, TERMINAL, Action, Game, State
from plunder.core.params import Param, parse_int


@dataclass(frozen=True)
class Step:
    """Add ``n`` to the mover's total (0 is chance's nothing)."""

    n: int


#: the steps, shared
STEP = (Step(0), Step(1), Step(2))


class RaceCodec:
    """``+1``: a step of 0 to 2 (0 is chance's nothing)."""

    def is_action(self, state: State, value: object) -> bool:
        return value in STEP and type(value) is Step

    def text(self, state: State, action: Action) -> str:
        assert isinstance(action, Step)
        return f"+{action.n}"

    def parse(self, state: State, text: str) -> Action:
        if text in ("+0", "+1", "+2"):
            return STEP[int(text[1])]
        raise state.invalid(text, "write +1 or +2")


class Race(Game):
    id = "race"
    title = "Race"
    param_specs = [Param("players", "2", parse_int(1, 6), "seats"), Param("target", "6", parse_int(2, 30), "goal")]

    @property
    def num_players(self) -> int:
        return int(self.values["players"])

    @property
    def max_game_length(self) -> int:
        return 2 * self.num_players * int(self.values["target"]) + 2

    def new_initial_state(self) -> "RaceState":
        return RaceState(self, (0,) * self.num_players, 0, False)

    @property
    def codec(self) -> "RaceCodec":
        return RaceCodec()


@dataclass(frozen=True)
class RaceState(State):
    game: Any = field(compare=False, repr=False)
    totals: tuple[int, ...]
    turn: int
    chance: bool

    def _winner(self) -> int | None:
        target = self.game.values["target"]
        for seat, total in enumerate(self.totals):
            if total >= target:
                return seat
        return None

    @property
    def current_player(self) -> int:
        if self._winner() is not None:
            return TERMINAL
        return CHANCE if self.chance else self.turn

    def legal_actions(self) -> list[Action]:
        p = self.current_player
        return [] if p == TERMINAL else ([STEP[0], STEP[1]] if p == CHANCE else [STEP[1], STEP[2]])

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return [(STEP[0], 0.5), (STEP[1], 0.5)]

    def illegal_reason(self, action: Action) -> tuple[str, str] | None:
        return None if action in self.legal_actions() else ("not allowed", "RACE-1")

    def _apply(self, action: Action) -> "RaceState":
        assert isinstance(action, Step)
        totals = list(self.totals)
        totals[self.turn] += action.n
        if self.chance:
            return replace(self, totals=tuple(totals), turn=(self.turn + 1) % len(totals), chance=False)
        return replace(self, totals=tuple(totals), chance=True)

    def returns(self) -> list[float]:
        w = self._winner()
        if w is None:
            return [0.0] * len(self.totals)
        if len(self.totals) == 1:
            return [1.0 if self.totals[0] == self.game.values["target"] else -1.0]
        return [1.0 if i == w else -1.0 for i in range(len(self.totals))]

    def scores(self) -> list[float]:
        return [float(t) for t in self.totals]

    def summary(self) -> str:
        return f"race {self.totals}"


def race(players: int, target: int = 6) -> Race:
    from plunder.core.params import resolve

    values, texts = resolve("race", Race.param_specs, {"players": players, "target": target})
    return Race(values, texts)
