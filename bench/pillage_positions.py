"""Positions from real Pillage games, for the benches that compare with OpenSpiel.

One position per game of ``greedy`` against ``random`` (seats alternating), at a ply drawn
uniformly, with the lines that led there so that on a unit board the same position can be set
up in OpenSpiel's ``dots_and_boxes``.
"""

from __future__ import annotations

import random

import plunder
from plunder.games.pillage.actions import Line
from plunder.games.pillage.openspiel_bridge import to_openspiel
from plunder.games.pillage.rules import PillageGame, PillageState


def start_positions(game: PillageGame, games: int, seed: int) -> list[tuple[PillageState, list[int]]]:
    """One position per game of ``greedy`` against ``random``, at a random ply, with the lines
    that led there (to reach the same position in OpenSpiel)."""
    rng = random.Random(seed)
    out = []
    for g in range(games):
        record = plunder.play(game, ["greedy", "random"] if g % 2 else ["random", "greedy"], seed=seed + g)
        state = game.new_initial_state()
        lines: list[int] = []
        stop = rng.randrange(len(record.moves))
        for move in record.moves[:stop]:
            action = game.parse_action(state, move.action)
            if isinstance(action, Line):  # deals and modifier choices have no OpenSpiel move
                lines.append(action.edge)
            state = state.apply(action)
        out.append((state, lines))
    return out


def phases(game: PillageGame, positions: int, seed: int) -> dict[str, list[tuple[PillageState, list[int]]]]:
    """Up to ``positions`` real-game positions (with their lines, as :func:`start_positions`) per
    phase: early (more than two thirds of the lines undrawn), middle, late (at most a third);
    positions still dealt by chance, with a modifier to resolve or with one legal line left out."""
    out: dict[str, list[tuple[PillageState, list[int]]]] = {"early": [], "middle": [], "late": []}
    edges = game.num_edges
    for state, lines in start_positions(game, 12 * positions, seed):
        if state.current_player < 0 or state.pending or len(state.legal_actions()) < 2:
            continue
        left = len(state.open_lines)
        phase = "early" if 3 * left > 2 * edges else "late" if 3 * left <= edges else "middle"
        if len(out[phase]) < positions:
            out[phase].append((state, lines))
    return out


def openspiel_state(spiel_game, game: PillageGame, lines: list[int]):  # type: ignore[no-untyped-def]
    """The OpenSpiel state reached by playing ``lines`` (our edge numbers) from its opening."""
    t = spiel_game.new_initial_state()
    for e in lines:
        t.apply_action(to_openspiel(game, e))
    return t
