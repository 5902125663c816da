"""Chance draws are keyed on (seed, event index), not on a running stream."""

from __future__ import annotations

import plunder
from plunder.core import chance


def test_a_draw_depends_only_on_seed_and_index() -> None:
    assert chance.uniform(7, 3) == chance.uniform(7, 3)
    assert chance.uniform(7, 3) != chance.uniform(7, 4)
    assert chance.uniform(7, 3) != chance.uniform(8, 3)
    draws = chance.stream(7, start=2)
    assert [draws(), draws()] == [chance.uniform(7, 2), chance.uniform(7, 3)]


def test_draws_are_spread_over_the_unit_interval() -> None:
    values = [chance.uniform(11, i) for i in range(20_000)]
    assert all(0.0 <= v < 1.0 for v in values)
    # each tenth of [0, 1) gets its share within a generous margin
    counts = [0] * 10
    for v in values:
        counts[int(v * 10)] += 1
    assert all(1_800 < c < 2_200 for c in counts)


def test_pick_follows_the_probabilities_in_order() -> None:
    outcomes = [("a", 0.25), ("b", 0.5), ("c", 0.25)]
    assert chance.pick(outcomes, 0.0) == "a"
    assert chance.pick(outcomes, 0.3) == "b"
    assert chance.pick(outcomes, 0.9999) == "c"


def test_a_played_game_draws_each_chance_event_from_its_index() -> None:
    game = plunder.load_game("profiteer")
    record = plunder.play(game, ["greedy"], seed=5)
    state = game.new_initial_state()
    index = 0
    for move in record.moves:
        if move.by is None:
            assert game.action_to_text(state, chance.draw(state, 5, index)) == move.action
            index += 1
        state = state.apply_text(move.action)
    assert index > 0
