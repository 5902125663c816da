"""Playing whole games with agents: :func:`play` and :func:`play_out`.

This sits above :mod:`plunder.core` and :mod:`plunder.agents` (the core knows no agent):
seats are agents or agent specs, chance is drawn from the game's seed by
:mod:`plunder.core.chance` (event ``n`` always draws ``uniform(seed, n)``), and each
seat's agent gets its own :func:`agent_rng`.
"""

from __future__ import annotations

import random
from typing import Sequence

from .agents import Agent, make_agent
from .core import chance
from .core.game import CHANCE, Game, State
from .core.record import Move, Record


def agent_rng(seed: int, seat: int) -> random.Random:
    """The RNG handed to the agent in ``seat`` for a game seed."""
    return random.Random(f"agent:{seed}:{seat}")


def new_seed() -> int:
    """A fresh seed for a game that was given none."""
    return random.SystemRandom().randrange(2**63)


def play(game: Game, agents: Sequence[Agent | str], seed: int | None = None) -> Record:
    """Play one game with ``agents`` in seat order (specs or agents) and return its record.

    Without a seed a fresh one is drawn; the record keeps it, so the game replays exactly.
    """
    return play_out(game, agents, seed)[0]


def play_out(game: Game, agents: Sequence[Agent | str], seed: int | None = None) -> tuple[Record, State]:
    """Like :func:`play`, also returning the final state."""
    seats = [make_agent(a, game) if isinstance(a, str) else a for a in agents]
    if len(seats) != game.num_players:
        raise ValueError(f"{game.id} needs {game.num_players} agents, got {len(seats)}")
    if seed is None:
        seed = new_seed()
    record = Record(game.id, dict(game.params), seed, [a.name for a in seats])
    draws = chance.stream(seed)
    rngs = [agent_rng(seed, i) for i in range(len(seats))]
    state = game.new_initial_state()
    for _ in range(game.max_game_length + 1):
        if state.is_terminal():
            break
        player = state.current_player
        if player == CHANCE:
            action = chance.pick(state.chance_outcomes(), draws())
            record.moves.append(Move(None, game.action_to_text(state, action)))
        else:
            action = seats[player].choose(state, rngs[player])
            record.moves.append(Move(player, game.action_to_text(state, action)))
        state = state.apply(action)
    else:
        raise RuntimeError(f"{game.id} did not end within {game.max_game_length} actions")
    record.returns = list(state.returns())
    record.scores = list(state.scores())
    return record, state
