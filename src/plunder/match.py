"""Playing whole games with agents: :func:`play` and :func:`play_out`.

This sits above :mod:`plunder.core` and :mod:`plunder.agents` (the core knows no agent):
seats are agents or agent specs, chance is drawn from the game's seed by
:mod:`plunder.core.chance` (event ``n`` always draws ``uniform(seed, n)``), and each
seat's agent gets its own :func:`agent_rng`.

A game played move by move by people (``plunder play``, ``plunder serve``) keeps its
positions and moves and uses the functions below, so both front ends meet the same chance
and the same agent replies after a resume or an undo: :func:`decision_rng`,
:func:`chance_index`, :func:`undo_point` and :func:`resumed_states`.
"""

from __future__ import annotations

import random
from typing import Callable, Sequence

from .agents import Agent, make_agent
from .core import chance
from .core.agent import Analyst
from .core.game import CHANCE, Action, Game, State
from .core.record import Move, Record, replay
from .core.capabilities import EndObserver, Itemiser, Observer
from .core.registry import entry

#: a game's statistics: scalars per game, or lists per seat
Stats = dict[str, float | list[float]]


def agent_rng(seed: int, seat: int) -> random.Random:
    """The RNG handed to the agent in ``seat`` for a game seed."""
    return random.Random(f"agent:{seed}:{seat}")


def decision_rng(seed: int, seat: int, ply: int) -> random.Random:
    """The RNG of the agent in ``seat`` deciding at move ``ply`` (the number of moves before it)
    of a game with ``seed``: a resumed game, or one played again after an undo, meets the same
    replies."""
    return random.Random(f"agent:{seed}:{seat}:{ply}")


def chance_index(moves: Sequence[Move]) -> int:
    """The index of the next chance event after ``moves``: how many of them chance made."""
    return sum(1 for m in moves if m.by is None)


def undo_point(states: Sequence[State], decides: Callable[[State], bool]) -> int | None:
    """The index in ``states`` of the latest position before the last one where ``decides``
    holds (a human's previous decision), or ``None`` if there is none; taking back to it keeps
    ``states[:i + 1]`` and the moves before it."""
    for i in range(len(states) - 2, -1, -1):
        if decides(states[i]):
            return i
    return None


def resumed_states(game: Game, record: Record) -> list[State]:
    """Every position of an unfinished ``record`` (checked by :func:`replay` first), to play on from."""
    replay(record, game)
    states = [game.new_initial_state()]
    for move in record.moves:
        states.append(states[-1].apply(game.parse_action(states[-1], move.action)))
    return states


#: moves a hint lists
HINT_MOVES = 3


def hint_rng(ply: int) -> random.Random:
    """The RNG of a hint asked at move ``ply``: asked again, the same hint."""
    return random.Random(ply)


def hint_lines(hinter: Agent, state: State, rng: random.Random, pad: int = 12) -> list[str]:
    """A hint in lines: an :class:`~plunder.core.agent.Analyst`'s best :data:`HINT_MOVES` moves,
    each with its value and how sure it is, else the agent's one move; each with what it does
    where the game describes moves. Move texts are right-aligned in ``pad`` columns (0: none,
    each then followed by a colon)."""
    describe = entry(state.game.id).presentation.describe
    text = state.game.action_to_text

    def note(action: object) -> str:
        said = describe(state, action) if describe else ""
        return f" — {said}" if said else ""

    if not isinstance(hinter, Analyst):
        action = hinter.choose(state, rng)
        return [f"Hint ({hinter.name}): {text(state, action)}{note(action)}"]
    rows = hinter.analyse(state, rng)[:HINT_MOVES]
    # a search whose playouts have no chance in them gives each move one playout's value, no interval
    sure = "; ± a 95% interval" if any("±" in detail for _, detail in rows) else ""
    lines = [f"Hint ({hinter.name}): best moves found (-1 losing .. +1 winning{sure})"]
    for action, detail in rows:
        move = f"  {text(state, action):>{pad}}  " if pad else f"{text(state, action)}: "
        lines.append(f"{move}{detail}{note(action)}")
    return lines


def new_seed() -> int:
    """A fresh seed for a game that was given none."""
    return random.SystemRandom().randrange(2**63)


def observer_of(game: Game) -> Observer:
    """A fresh observer of one game of ``game``: the game's own (``ENTRY.study.observer``), else one
    that counts nothing."""
    make = entry(game.id).study.observer
    return make(game) if make is not None else EndObserver(game)


def observed(game: Game, states: Sequence[State], actions: Sequence[Action]) -> Stats:
    """The statistics of a finished game given as its positions and the actions between them
    (``states[i]`` -> ``actions[i]`` -> ``states[i + 1]``)."""
    observer = observer_of(game)
    for before, action, after in zip(states, actions, states[1:]):
        observer.see(before, action, after)
    return observer.stats(states[-1])


def breakdown_of(game: Game, moves: Sequence[Move]) -> list[str]:
    """The final score of the game that ``moves`` (chance's among them) played from the start,
    taken apart in the game's words (``ENTRY.presentation.breakdown``), with the figures of an
    observer shown every one of those moves: the tallies a breakdown tells (trades made, fights
    won, the rounds one by one ...) are no part of a position. A game that offers no breakdown
    gets each seat's score, a line a seat, so that every result screen says how it came out."""
    show = entry(game.id).presentation.breakdown
    observer = observer_of(game)
    state = game.new_initial_state()
    for move in moves:
        action = game.parse_action(state, move.action)
        before, state = state, state.apply(action)
        observer.see(before, action, state)
    if show is None:
        return [f"{game.seat_name(seat)}: {score:g}" for seat, score in enumerate(state.scores())]
    figures = observer.breakdown_figures(state) if isinstance(observer, Itemiser) else observer.stats(state)
    return show(state, figures)


def play(game: Game, agents: Sequence[Agent | str], seed: int | None = None) -> Record:
    """Play one game with ``agents`` in seat order (specs or agents) and return its record.

    Without a seed a fresh one is drawn; the record keeps it, so the game replays exactly.
    """
    return play_out(game, agents, seed)[0]


def play_out(game: Game, agents: Sequence[Agent | str], seed: int | None = None,
             observer: Observer | None = None, most: int | None = None) -> tuple[Record, State]:
    """Like :func:`play`, also returning the final state; ``observer`` sees every move. With
    ``most``, play stops after that many moves (chance's included), the game maybe unfinished."""
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
        if state.is_terminal() or (most is not None and len(record.moves) >= most):
            break
        player = state.current_player
        if player == CHANCE:
            action = chance.pick(state.chance_outcomes(), draws())
            record.moves.append(Move(None, game.action_to_text(state, action)))
        else:
            action = seats[player].choose(state, rngs[player])
            record.moves.append(Move(player, game.action_to_text(state, action)))
        before, state = state, state.apply(action)
        if observer is not None:
            observer.see(before, action, state)
    else:
        raise RuntimeError(f"{game.id} did not end within {game.max_game_length} actions")
    if state.is_terminal():
        record.returns = list(state.returns())
        record.scores = list(state.scores())
    return record, state


def play_stats(game: Game, agents: Sequence[Agent | str], seed: int | None = None) -> tuple[Record, State, Stats]:
    """Like :func:`play_out`, also returning the game's statistics (:func:`observer_of`)."""
    observer = observer_of(game)
    record, final = play_out(game, agents, seed, observer)
    return record, final, observer.stats(final)
