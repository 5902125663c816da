"""Hypothesis properties over whole games: conservation, limits, geometry, reachability."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plunder.core.chance import sample_chance
from plunder.games.pirates import tables as T
from plunder.games.pirates.moves import reachable
from plunder.games.pirates.actions import RETIRE
from plunder.games.pirates.rules import Phase, PiratesGame, PiratesState
from plunder.games.pirates.sea import WINDS

STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
DIAG = {"NE": (1, -1), "SE": (1, 1), "SW": (-1, 1), "NW": (-1, -1)}


def brute_reachable(state: PiratesState) -> set[tuple[int, int]]:
    """Every end of every step sequence the text allows, enumerated directly: up to the
    remaining orthogonal steps (no reversal), the wind step anywhere among them if
    unused; a tile flipped on the way may get any wind."""
    sea = state.sea
    cells = set(sea.tile_at)

    def wind_options(cell: tuple[int, int], revealed: frozenset[int]) -> list[str]:
        tile = sea.tile_at[cell]
        if state.winds[tile] >= 0:
            return [WINDS[state.winds[tile]]]
        return list(WINDS) if tile in revealed else []

    assert state.pos is not None
    ends = {state.pos}

    def walk(cell: tuple[int, int], left: int, last: str, diag: bool, revealed: frozenset[int]) -> None:
        for d, (dx, dy) in STEP.items():
            if left == 0 or (last and STEP[last] == (-dx, -dy)):
                continue
            nxt = (cell[0] + dx, cell[1] + dy)
            if nxt in cells:
                ends.add(nxt)
                walk(nxt, left - 1, d, diag, revealed | {sea.tile_at[nxt]})
        if not diag:
            for w in wind_options(cell, revealed):
                dx, dy = DIAG[w]
                nxt = (cell[0] + dx, cell[1] + dy)
                if nxt in cells and ((cell[0] + dx, cell[1]) in cells or (cell[0], cell[1] + dy) in cells):
                    ends.add(nxt)
                    walk(nxt, left, last, True, revealed | {sea.tile_at[nxt]})

    walk(state.pos, 2 - state.orth, state.last, state.diag, frozenset())
    return ends


def check_invariants(state: PiratesState) -> None:
    sea = state.sea
    ids = [c for c, _ in state.coins]
    assert len(ids) == len(set(ids))
    # coins are conserved: bag + sea = 18 (beaten ships go back into the bag, PR-6)
    assert len(state.bag) + len(state.coins) == T.NUM_COINS
    assert all(sea.is_sea(at) for _, at in state.coins)  # ships never on land
    assert state.pos is None or sea.is_sea(state.pos)
    for track in (state.turn, state.crew, state.notoriety, state.booty, state.buried):
        assert track >= 0
    if state.ship >= 0:
        assert T.MIN_CREW[state.ship] <= state.crew <= T.MAX_CREW[state.ship]
    else:
        assert state.crew == 0
    if state.phase in (Phase.UPGRADE, Phase.END, Phase.OVER) and state.turn >= 1 and state.pos is not None:
        assert state.booty <= T.HOLD  # after the bury step (PR-8)
    assert state.chest is None or not sea.is_sea(state.chest)
    assert state.buried == 0 or state.chest is not None
    if state.current_player == 0 and state.phase is Phase.SAIL and state.wind_tile < 0 and not state.fights:
        assert state.pos is not None
        assert reachable(sea, state.winds, state.pos, state.orth, state.last, state.diag) == brute_reachable(state)


def play_checked(preset: str, seed: int, retire_rate: float) -> PiratesState:
    game = PiratesGame.load(preset=preset)
    rng = random.Random(seed)
    state = game.new_initial_state()
    assert isinstance(state, PiratesState)
    while not state.is_terminal():
        check_invariants(state)
        if state.is_chance_node():
            action = sample_chance(state, rng)
        else:
            legal = state.legal_actions()
            keep_going = [a for a in legal if a != RETIRE]
            action = rng.choice(legal if rng.random() < retire_rate else keep_going)
        again = state.apply(action)
        assert again == state.apply(action) and hash(again) == hash(state.apply(action))
        assert isinstance(again, PiratesState)
        state = again
    check_invariants(state)
    return state


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), preset=st.sampled_from(["classic", "block", "ring", "brick", "channel"]))
def test_invariants_hold_through_long_random_games(seed: int, preset: str) -> None:
    final = play_checked(preset, seed, retire_rate=0.02)
    assert final.turns_completed() >= 1


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_random_layouts_are_legal_seas(seed: int) -> None:
    sea = PiratesGame.load(seed=seed).sea
    assert sea.num_tiles == 24 and len(sea.cells) == 96
    assert sea.coast and all(sea.land_next_to(c) for c in sea.coast)
