"""Observations keep their shape and action indices round-trip, over random games of every preset."""

from __future__ import annotations

import random

import numpy as np
import pytest

from plunder.core.game import State
from plunder.core.errors import IllegalActionError
from plunder.core.observation import NO_RULE_BOUND, Layout, TableObservation
from plunder.core.registry import OWN_PACKAGE, entry, game_ids, load_game
from plunder.games.pillage.rules import PillageGame
from plunder.interop.encoding import encoding
from plunder.core.spaces import TableSpace

#: Plunder's own games (the packages of ``plunder.games``), in their order
OWN = [g for g in game_ids() if entry(g).game_class.__module__.startswith(OWN_PACKAGE + ".")]
CASES = [(g, p) for g in OWN for p in entry(g).game_class.presets]


@pytest.mark.parametrize(("game_id", "preset"), CASES)
def test_observation_shape_and_action_indices(game_id: str, preset: str) -> None:
    """Along 60 random moves: every observation has the encoding's length, the mask marks
    exactly the legal actions, and index -> action -> index is the identity."""
    game = entry(game_id).game_class.load(preset)
    enc = encoding(game)
    rng = random.Random(7)
    state: State = game.new_initial_state()
    for _ in range(60):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state = state.apply(rng.choice(state.legal_actions()))
            continue
        for seat in range(game.num_players):
            obs = enc.observe(state, seat)
            assert obs.shape == (enc.size,) and obs.dtype == np.float32
        mask = enc.actions.mask(state)
        legal = state.legal_actions()
        assert mask.shape == (enc.actions.size,)
        assert int(mask.sum()) == min(len(legal), enc.actions.size)
        assert enc.actions.indices(state) == [int(i) for i in np.flatnonzero(mask)]
        if isinstance(enc.actions, TableSpace):
            assert set(np.flatnonzero(mask)) == {enc.actions.index(state, a) for a in legal}
        index = rng.choice(list(np.flatnonzero(mask)))
        action = enc.actions.action(state, int(index))
        assert action in legal
        assert enc.actions.index(state, action) == index
        state = state.apply(action)


@pytest.mark.parametrize("game_id", OWN)
def test_observations_do_not_depend_on_the_order_states_come_in(game_id: str) -> None:
    """The observers keep parts from the state last seen (box contents, segments, the
    board) and the masks the lines drawn: states seen in play order and in a shuffled order
    (as a search visits them) give the same vectors and masks."""
    game = entry(game_id).game_class.load({"pillage": "small", "hubs": "tiny", "pirates": "classic",
                                           "profiteer": "short", "crossroads": "4p"}[game_id])
    rng = random.Random(3)
    states: list[State] = []
    state: State = game.new_initial_state()
    while not state.is_terminal() and len(states) < 150:
        if not state.is_chance_node():  # (the adapters make chance moves themselves)
            states.append(state)
        state = state.apply(rng.choice(state.legal_actions()))
    in_order, shuffled = encoding(game), encoding(game)
    seen = {(i, seat): (in_order.observe(s, seat), in_order.actions.mask(s))
            for i, s in enumerate(states) for seat in range(game.num_players)}
    keys = list(seen)
    rng.shuffle(keys)
    for i, seat in keys:
        vector, mask = seen[i, seat]
        assert np.array_equal(shuffled.observe(states[i], seat), vector)
        assert np.array_equal(shuffled.actions.mask(states[i]), mask)


def test_observations_are_taken_from_the_seat() -> None:
    """Pillage seen by seat 0 with 3 doubloons to move equals the mirror position seen by seat 1."""
    game = PillageGame.load("example")
    enc = encoding(game)
    start = game.new_initial_state()
    mine = start.evolve(doubloons=(3, 0), mover=0)
    mirror = start.evolve(doubloons=(0, 3), mover=1)
    assert np.array_equal(enc.observe(mine, 0), enc.observe(mirror, 1))
    assert not np.array_equal(enc.observe(mine, 0), enc.observe(mine, 1))


def test_an_index_outside_the_space_is_an_illegal_action() -> None:
    """The adapter's errors are the game's: IllegalActionError for an index naming nothing."""
    game = entry("profiteer").game_class.load()
    enc = encoding(game)
    with pytest.raises(IllegalActionError):
        enc.actions.action(game.new_initial_state(), enc.actions.size)


def test_a_layout_keeps_each_parts_bounds_in_order() -> None:
    """``Layout.take`` hands out slices and records their bounds, one number or one per place;
    ``bounds()`` lines them up in the vector's order."""
    layout = Layout()
    first, second, third = layout.take(2), layout.take(3, -1.0, [4, 5, 6]), layout.take(1, 0.0, NO_RULE_BOUND)
    assert (first, second, third) == (slice(0, 2), slice(2, 5), slice(5, 6))
    low, high = layout.bounds()
    assert low.tolist() == [0, 0, -1, -1, -1, 0] and high.tolist() == [1, 1, 4, 5, 6, NO_RULE_BOUND]
    assert low.dtype == high.dtype == np.float32 and np.isfinite(high).all()


@pytest.mark.parametrize("game_id", OWN)
def test_every_own_game_bounds_every_place(game_id: str) -> None:
    """Each game gives bounds of the vector's length, finite, low under high, and its starting
    position's vector inside them for every seat."""
    game = entry(game_id).game_class.load()
    enc = encoding(game)
    assert enc.bounds is not None
    low, high = enc.bounds
    assert low.shape == high.shape == (enc.size,) and np.isfinite(low).all() and np.isfinite(high).all()
    assert (low < high).all()
    state = game.new_initial_state()
    for seat in range(game.num_players):
        vector = enc.observe(state, seat)
        assert ((low <= vector) & (vector <= high)).all()


def test_an_encoding_without_bounds_spans_the_float32_range() -> None:
    """A game's own ``TableObservation`` without ``low``/``high`` gets the widest finite box."""
    game = load_game("pig")
    observation = TableObservation(lambda state, seat: [0.0, 1.0], lambda g: ["roll"])
    low, high = observation(game).box()
    assert low.tolist() == [-NO_RULE_BOUND] * 2 and high.tolist() == [NO_RULE_BOUND] * 2
