"""Property tests over whole games: gold, trades, city spacing, road legality, ending.

Each example plays one game with a random mix of agents, checking every state against
rules re-derived here independently of the engine's own helpers.
"""

from __future__ import annotations

import random

import plunder
from hypothesis import given, settings
from hypothesis import strategies as st
from plunder.agents import make_agent
from plunder.core import chance
from plunder.core.chance import sample_chance
from plunder.match import agent_rng
from plunder.games.crossroads.actions import Accept, City, Offer, Road
from plunder.games.crossroads.rules import CrossroadsState

AGENTS = ["random", "greedy", "always-fair", "greedy-splitter", "tit-for-tat", "grudger"]
CITY0 = 2


def neighbours8(c: int) -> list[int]:
    r, k = divmod(c, 10)
    return [(r + dr) * 10 + k + dk for dr in (-1, 0, 1) for dk in (-1, 0, 1)
            if (dr or dk) and 0 <= r + dr < 10 and 0 <= k + dk < 10]


def neighbours4(c: int) -> list[int]:
    r, k = divmod(c, 10)
    return [(r + dr) * 10 + k + dk for dr, dk in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < 10 and 0 <= k + dk < 10]


def reaches_own_city(board: tuple[int, ...], start: int, seat: int) -> bool:
    """Flood from ``start`` over roads: does it meet one of ``seat``'s cities orthogonally?"""
    seen, stack = {start}, [start]
    while stack:
        here = stack.pop()
        for n in neighbours4(here):
            if board[n] == CITY0 + seat:
                return True
            if board[n] == 1 and n not in seen:
                seen.add(n)
                stack.append(n)
    return False


def check_build(state: CrossroadsState, action: City | Road) -> None:
    where = action.cell
    seat, board = state.seat, state.board
    assert board[where] == 0
    if isinstance(action, Road):
        assert not any(board[n] >= CITY0 and board[n] != CITY0 + seat for n in neighbours8(where))
    else:
        assert not any(board[n] >= CITY0 for n in neighbours8(where))
        assert any(board[n] == 1 for n in neighbours4(where))
    assert reaches_own_city(board, where, seat)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6), data=st.data())
def test_invariants_over_whole_games(seed: int, players: int, data: st.DataObject) -> None:
    names = [data.draw(st.sampled_from(AGENTS)) for _ in range(players)]
    game = plunder.load_game("crossroads", players=players, target=60)
    agents = [make_agent(n, game) for n in names]
    draws, rngs = chance.stream(seed), [agent_rng(seed, i) for i in range(players)]
    state = game.new_initial_state()
    traded: set[tuple[int, int]] = set()
    for _ in range(game.max_game_length + 1):
        assert isinstance(state, CrossroadsState)
        assert min(state.gold) >= 0
        cities = [c for c in range(100) if state.board[c] >= CITY0]
        assert all(state.board[n] < CITY0 for c in cities for n in neighbours8(c))
        if state.is_terminal():
            break
        player = state.current_player
        action = chance.pick(state.chance_outcomes(), draws()) if player == plunder.CHANCE else agents[player].choose(state, rngs[player])
        assert action in state.legal_actions()
        if isinstance(action, (City, Road)):
            check_build(state, action)
        after = state.apply(action)
        assert isinstance(after, CrossroadsState)
        if isinstance(action, Accept) and len(state.waiting) == 1:  # the last answer binds the trade (CR-7)
            assert sum(after.gold) - sum(state.gold) == 3
            assert state.offer is not None
            for c in (state.offer.a, state.offer.b):
                assert (state.round, c) not in traded
                traded.add((state.round, c))
        state = after
    else:
        raise AssertionError("the game did not end within max_game_length")
    assert state.is_terminal()


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_random_offers_always_share_exactly_three(seed: int) -> None:
    rng = random.Random(seed)
    game = plunder.load_game("crossroads", players=3, target=40)
    state = game.new_initial_state()
    while not state.is_terminal():
        legal = state.legal_actions()
        action = sample_chance(state, rng) if state.is_chance_node() else rng.choice(legal)
        if isinstance(action, Offer):
            assert action.mine + action.theirs + sum(action.fees) == 3 and min((*action.fees, action.mine, action.theirs)) >= 0
        state = state.apply(action)
