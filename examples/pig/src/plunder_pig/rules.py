"""The rules of Pig: two players race to the goal with one die.

On your turn you roll as often as you like, each roll adding to your turn total (PG-1); a 1
loses the turn total and ends your turn (PG-2); holding banks the turn total and ends your
turn, and you must roll before you hold (PG-3). Whoever reaches the goal, banked points and
turn total together, wins at once (PG-4). After ``turns`` turns in all the game ends, the
higher score winning (PG-5): without it a game could go on for ever.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from plunder.core.game import CHANCE, TERMINAL, Game, State
from plunder.core.params import Param, parse_int

from .actions import CODEC, FACES, HOLD, ROLL, Face, PigAction, PigCodec


class PigGame(Game[PigAction]):
    """Pig with its goal and turn limit fixed."""

    id = "pig"
    title = "Pig"
    param_specs = [
        Param("goal", "100", parse_int(10, 1000), "points to reach to win"),
        Param("turns", "200", parse_int(2, 10000), "turns in all (both players') after which the higher score wins"),
    ]
    presets = {"standard": {}, "quick": {"goal": "30", "turns": "40"}}

    @property
    def num_players(self) -> int:
        """Two."""
        return 2

    @property
    def max_game_length(self) -> int:
        """Each turn: at most ``goal // 2 + 1`` rolls (every roll but a 1 adds at least 2, and the
        goal ends the game), each a decision and a die, then a hold."""
        goal, turns = self.values["goal"], self.values["turns"]
        return int(turns) * (2 * (int(goal) // 2 + 1) + 1)

    def new_initial_state(self) -> "PigState":
        """Player 1 to roll, no points yet."""
        return PigState(self, (0, 0), 0, 0, False, 0, 0)

    @property
    def codec(self) -> PigCodec:
        """Pig's notation (:mod:`.actions`)."""
        return CODEC


@dataclass(frozen=True)
class PigState(State[PigAction]):
    """A position: banked scores, the mover's turn total, and whether the die is in the air."""

    game: Any = field(compare=False, repr=False)
    banked: tuple[int, int]
    turn_total: int
    mover: int
    rolling: bool
    #: turns ended so far (PG-5)
    turns: int
    #: the face the die last showed (0 before the first roll), for the picture
    last: int

    @property
    def current_player(self) -> int:
        """The mover, chance while the die rolls, TERMINAL at the goal or the turn limit."""
        if max(self.banked) >= self.game.values["goal"] or self.turns >= self.game.values["turns"]:
            return TERMINAL
        return CHANCE if self.rolling else self.mover

    def legal_actions(self) -> list[PigAction]:
        """Roll, and hold once something was rolled (PG-3); the faces while the die rolls."""
        player = self.current_player
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return list(FACES)
        return [ROLL, HOLD] if self.turn_total > 0 else [ROLL]

    def chance_outcomes(self) -> list[tuple[PigAction, float]]:
        """Each face one time in six."""
        if not self.rolling:
            return super().chance_outcomes()
        return [(face, 1 / 6) for face in FACES]

    def illegal_reason(self, action: PigAction) -> tuple[str, str] | None:
        """Why ``action`` is not allowed here, with its ruling, or None."""
        if action in self.legal_actions():
            return None
        if self.is_terminal():
            return "the game is over", "PG-4"
        if self.rolling:
            return "the die is rolling: only its faces die 1 to die 6 come next", "PG-1"
        if action == HOLD:
            return "you must roll before you hold", "PG-3"
        return "on your turn you roll or hold", "PG-1"

    def _apply(self, action: PigAction) -> "PigState":
        if action == ROLL:
            return self.evolve(rolling=True)
        if action == HOLD:
            return self._end_turn(self.turn_total)
        assert isinstance(action, Face)
        pips = action.pips
        if pips == 1:
            return self._end_turn(0).evolve(last=1)
        total = self.turn_total + pips
        if self.banked[self.mover] + total >= self.game.values["goal"]:
            return self._end_turn(total).evolve(last=pips)  # PG-4: the goal wins at once
        return self.evolve(turn_total=total, rolling=False, last=pips)

    def _end_turn(self, banks: int) -> "PigState":
        banked = list(self.banked)
        banked[self.mover] += banks
        return self.evolve(banked=(banked[0], banked[1]), turn_total=0, mover=1 - self.mover, rolling=False,
                           turns=self.turns + 1)

    def returns(self) -> list[float]:
        """+1 to the higher score, -1 to the other, 0 each for a tie; 0s before the end."""
        if not self.is_terminal() or self.banked[0] == self.banked[1]:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.banked[0] > self.banked[1] else [-1.0, 1.0]

    def scores(self) -> list[float]:
        """The banked points."""
        return [float(b) for b in self.banked]

    def summary(self) -> str:
        """``Pig 12-30, Player 2 to move with 7 this turn``."""
        head = f"Pig {self.banked[0]}-{self.banked[1]}, turn {self.turns + 1}"
        if self.is_terminal():
            return head + ", over"
        who = self.game.seat_name(self.mover)
        return head + f", {who} {'rolling' if self.rolling else 'to move'} with {self.turn_total} this turn"

    def __str__(self) -> str:
        return self.summary()
