"""Pig, a dice game for two, as a Plunder game installed from outside Plunder (docs/new-game.md).

Roll to add to your turn total or hold to bank it; a 1 loses the turn total; the first to the
goal wins. The package uses only Plunder's public API: ``plunder.core.game``, ``plunder.core.params``,
``plunder.core.agent``, ``plunder.core.registry.GameEntry``, ``plunder.core.capabilities``,
``plunder.core.observation`` and ``plunder.core.svg``.
"""

from __future__ import annotations

import random
from typing import Mapping, Sequence

from plunder.core.agent import Agent, AgentFactory, AgentOptions
from plunder.core.capabilities import Learning, Presentation, Strength
from plunder.core.declaration import Declaration
from plunder.core.game import CHANCE, Game
from plunder.core.observation import TableObservation
from plunder.core.params import Param, parse_int
from plunder.core.registry import GameEntry

from .actions import HOLD, ROLL, Face, PigAction
from .picture import svg
from .rules import PigGame, PigState

HOW_TO_PLAY = """\
Pig: two players, one die, first to the goal (100 points unless set otherwise).

On your turn, roll the die as often as you like: each roll adds its points to
your turn total. Roll a 1 and the turn total is lost and your turn ends.
Hold instead to bank your turn total into your score and end your turn; you
must roll at least once before you may hold.

The first player whose score and turn total together reach the goal wins at
once. After the turn limit (200 turns in all unless set otherwise) the
higher score wins.

Moves: roll, hold.
"""


class HoldAt:
    """Rolls until the turn total reaches ``at`` or would win, then holds."""

    def __init__(self, at: int) -> None:
        self.at = at
        self.name = f"greedy:at={at}"

    def choose(self, state: PigState, rng: random.Random) -> PigAction:
        """Hold at the threshold or at the goal, else roll."""
        goal = state.game.values["goal"]
        total = state.turn_total
        if total > 0 and (total >= self.at or state.banked[state.mover] + total >= goal):
            return HOLD
        return ROLL


def _hold_at(game: Game, options: AgentOptions) -> Agent[PigState]:
    return HoldAt(options["at"])


AGENTS: dict[str, AgentFactory[PigState]] = {
    "greedy": AgentFactory(_hold_at, "rolls until its turn total reaches at=, then holds",
                           [Param("at", "20", parse_int(1, 1000), "turn total to hold at")]),
}


def narrate(before: PigState, action: PigAction, after: PigState) -> str:
    """``Player 1 rolls``, ``the die shows 4: Player 1 has 9 this turn``, ``Player 2 holds and banks 12``."""
    who = before.game.seat_name(before.mover)
    if action == ROLL:
        return f"{who} rolls"
    if action == HOLD:
        return f"{who} holds and banks {before.turn_total} (score {after.banked[before.mover]})"
    assert isinstance(action, Face)
    if action.pips == 1:
        lost = f"loses {before.turn_total} and " if before.turn_total else ""
        return f"the die shows 1: {who} {lost}passes the turn"
    if after.is_terminal():
        return f"the die shows {action.pips}: {who} reaches {after.banked[before.mover]} and wins"
    return f"the die shows {action.pips}: {who} has {after.turn_total} this turn"


def breakdown(state: PigState, stats: Mapping[str, float | list[float]]) -> list[str]:
    """Each player's banked points against the goal, and what ended the game (PG-4, PG-5)."""
    goal = state.game.values["goal"]
    lines = [f"{state.game.seat_name(seat)}: {points} banked of the {goal} to reach"
             for seat, points in enumerate(state.banked)]
    reached = [state.game.seat_name(seat) for seat, points in enumerate(state.banked) if points >= goal]
    ended = f"when {reached[0]} reached the goal" if reached else f"at the limit of {state.turns} turns"
    return lines + [f"The game ended {ended}."]


def observe(state: PigState, seat: int) -> Sequence[float]:
    """Both scores (``seat``'s first) and the turn total as shares of the goal, whether ``seat``
    is the mover, whether the die is rolling, and the share of the turn limit used."""
    goal, turns = state.game.values["goal"], state.game.values["turns"]
    return [state.banked[seat] / goal, state.banked[1 - seat] / goal, state.turn_total / goal,
            float(state.mover == seat), float(state.current_player == CHANCE), state.turns / turns]


def action_table(game: Game) -> Sequence[PigAction]:
    """Roll and hold."""
    return [ROLL, HOLD]


#: what Plunder finds through the ``plunder.games`` entry point (pyproject.toml)
ENTRY: GameEntry[PigState, PigAction] = GameEntry(
    game_class=PigGame,
    declaration=Declaration(min_seats=2, max_seats=2, chance=True, zero_sum=True),
    presentation=Presentation(
        pitch="Pig: roll a die to add to your turn total or hold to bank it; a 1 loses the turn.",
        how_to_play=HOW_TO_PLAY, svg=svg, narrate=narrate, breakdown=breakdown,
    ),
    strength=Strength(
        agents=AGENTS,
        # the root search over hold-at-20 games: a whole search over random play takes too long
        levels={"hard": "mcts:root=greedy,sims=200"},
    ),
    # a share of the goal is at most 6: a turn ends once banked and turn total reach the goal,
    # so the last roll (at most 6) lands at most 5 points past it, and the goal is 1 or more
    learning=Learning(observation=TableObservation(observe, action_table, low=0.0, high=6.0)),
)

__all__ = ["ENTRY", "PigGame", "PigState"]
