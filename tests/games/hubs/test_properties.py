"""Hypothesis properties of Hubs: planarity, scoring, termination, and the incremental
legal-segment generator against the brute-force definition."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import plunder
from plunder.games.hubs.actions import Dot
from plunder.games.hubs.geometry import conflicts, passes_through
from plunder.games.hubs.paper import brute_force_legal
from plunder.games.hubs.rules import HubsState


def random_match(width: int, height: int, dots: int, seed: int) -> list[HubsState]:
    """Every state of one random match."""
    game = plunder.load_game("hubs", width=width, height=height, dots=dots)
    rng = random.Random(seed)
    state = game.new_initial_state()
    seen = [state]
    while not state.is_terminal():
        state = state.apply(rng.choice(state.legal_actions()))
        seen.append(state)
    return seen  # type: ignore[return-value]


match_params = st.tuples(st.integers(2, 12), st.integers(2, 9), st.integers(1, 8), st.integers(0, 10**6))


@settings(max_examples=40, deadline=None)
@given(match_params)
def test_no_crossing_overlap_or_dot_in_the_way(params) -> None:  # type: ignore[no-untyped-def]
    width, height, half, seed = params
    dots = min(2 * half, (width * height) // 2 * 2)
    for state in random_match(width, height, dots, seed):
        pts, segments = state.dots, state.segments
        for n, new in enumerate(segments):
            a, b = pts[new.first], pts[new.second]
            assert not any(passes_through(a, b, p) for p in pts)
            for old in segments[:n]:
                assert not conflicts(pts[old.first], pts[old.second], a, b)


@settings(max_examples=40, deadline=None)
@given(match_params)
def test_offense_points_are_the_endpoint_counts_before_each_segment(params) -> None:  # type: ignore[no-untyped-def]
    width, height, half, seed = params
    dots = min(2 * half, (width * height) // 2 * 2)
    states = random_match(width, height, dots, seed)
    final = states[-1]
    per_round = []
    for before, after in zip(states, states[1:]):
        if after.round == before.round:
            continue
        # A round just ended: its sheet is kept in `previous`; recompute its points.
        assert after.previous is not None
        dots_, segments = after.previous
        degree = [0] * len(dots_)
        points = 0
        for segment in segments:
            points += degree[segment.first] + degree[segment.second]
            degree[segment.first] += 1
            degree[segment.second] += 1
        assert after.last_round is not None and points == after.last_round.points
        per_round.append(points)
    assert len(per_round) == final.game.rounds
    assert final.totals == (sum(per_round[0::2]), sum(per_round[1::2]))


@settings(max_examples=40, deadline=None)
@given(match_params)
def test_a_round_always_ends_within_3n_minus_6(params) -> None:  # type: ignore[no-untyped-def]
    width, height, half, seed = params
    dots = min(2 * half, (width * height) // 2 * 2)
    states = random_match(width, height, dots, seed)
    final = states[-1]
    assert final.is_terminal()
    ended = [after.last_round for before, after in zip(states, states[1:]) if after.round > before.round]
    assert len(ended) == final.game.rounds
    for result in ended:
        assert result is not None
        assert result.segments <= max(1, 3 * dots - 6)
        if not result.stalled:
            assert result.busiest >= 2
    assert len(states) - 1 <= final.game.max_game_length


point_sets = st.lists(st.tuples(st.integers(0, 9), st.integers(0, 6)), min_size=2, max_size=18, unique=True)


@settings(max_examples=60, deadline=None)
@given(point_sets, st.integers(0, 10**6))
def test_incremental_generator_equals_brute_force(points, seed) -> None:  # type: ignore[no-untyped-def]
    points = points[: len(points) // 2 * 2]
    game = plunder.load_game("hubs", width=10, height=7, dots=len(points))
    state = game.new_initial_state()
    for x, y in points:
        state = state.apply(Dot(x, y))
    assert isinstance(state, HubsState)
    rng = random.Random(seed)
    while state.round == 0:
        assert set(state.legal_actions()) == brute_force_legal(state.dots, state.segments)
        state = state.apply(rng.choice(state.legal_actions()))
