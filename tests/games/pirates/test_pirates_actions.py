"""Actions as typed values: canonical texts that read back, and clean refusals of anything else."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plunder import IllegalActionError, InvalidActionError
from plunder.core.chance import sample_chance
from plunder.games.pirates.actions import (DONE, STOP, Buy, Dice, Fight, Place, Sail, Steer, parse_text,
                                           well_formed)
from plunder.games.pirates.rules import PiratesGame, PiratesState

from tests.games.pirates.pirates_helpers import position, sea_game

PAIR = [(1, 1), (3, 1)]
UP = {(1, 1): "suns-null", (3, 1): "moons-null"}

MALFORMED: list[object] = [
    ("sail",), ("sail", "E"), ("stop",), (), None, 3, "sail E", b"stop", [Sail("E")], object(),
    Sail(5), Sail("e"), Sail(["E"]), Buy("ketch", 3), Buy(9, 3), Buy(1, -3), Place([1, 1]),  # type: ignore[arg-type]
    Place((1, 1, 1)), Fight(99), Steer(0, "1,1"), Dice(6, 0), Dice(0.5, 1),  # type: ignore[arg-type]
    10**5000, Buy(10**5000, 1), Place((10**5000, 1)), Sail("E" * 10**6),
]


def visited_states() -> list[PiratesState]:
    """Positions of every kind a random game meets: chance, wind, sail, ties, bury, end."""
    game = PiratesGame.load(layout="block")
    states = []
    rng = random.Random(5)
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            assert isinstance(state, PiratesState)
            states.append(state)
            action = sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions())
            state = state.apply(action)
        assert isinstance(state, PiratesState)
        states.append(state)
    return states[:: max(1, len(states) // 60)]


@pytest.mark.parametrize("bad", MALFORMED, ids=lambda bad: type(bad).__name__)
def test_apply_refuses_a_malformed_action_value_as_illegal(bad: object) -> None:
    assert not well_formed(bad)
    for state in visited_states()[:12] + [position(sea_game(PAIR), (2, 1), faces=UP)]:
        with pytest.raises(IllegalActionError, match=r"\(PR-\d+\)|PR-\d+"):
            state.apply(bad)  # type: ignore[arg-type]


def test_every_legal_action_text_reads_back_as_the_same_value() -> None:
    for state in visited_states():
        for action in state.legal_actions():
            text = state.game.action_to_text(state, action)
            assert parse_text(text) == action and state.game.parse_action(state, text) == action
            assert well_formed(action)


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(
    st.text(max_size=40),
    st.builds(lambda verb, rest: f"{verb} {rest}",
              st.sampled_from(["sail", "buy", "bury", "place", "steer", "dice", "fight", "retrieve", "flip"]),
              st.text(alphabet="0123456789,-=at sunsarm²٣ ", max_size=30)),
))
def test_parse_action_raises_only_invalid_action_error(text: str) -> None:
    state = position(sea_game(PAIR), (2, 1), faces=UP)
    try:
        action = state.game.parse_action(state, text)
    except InvalidActionError:
        return
    assert well_formed(action)


@pytest.mark.parametrize("text", ["place " + "9" * 5000 + ",1", "bury ² at 1,0", "buy sloop 99999",
                                  "dice suns=٣ arms=1", "steer suns-brig 1,1,1", "bury 1 on 1,0", "retrieve -1"])
def test_unreadable_numbers_are_invalid_actions(text: str) -> None:
    state = position(sea_game(PAIR), (2, 1), faces=UP)
    with pytest.raises(InvalidActionError):
        state.game.parse_action(state, text)


def test_kinds_with_equal_fields_differ_and_singletons_hash() -> None:
    from plunder.games.pirates.actions import Lookout, Retrieve, Wind
    assert Sail("NE") != Wind("NE") and Lookout(3) != Retrieve(3)
    assert len({STOP, DONE, Sail("E"), Sail("E")}) == 3


def test_action_text_past_the_length_cap_is_refused_before_it_is_read() -> None:
    from plunder.core.registry import load_game
    from plunder.games.pirates.actions import MAX_TEXT

    game = load_game("pirates")
    state = game.new_initial_state()
    # below the engine's own cap on any game's text (MAX_ACTION_CHARS), above the Pirates one
    for text in ("sail " + "e" * 100, " " * 100 + "e", "1" * 100 + ",1"):
        with pytest.raises(InvalidActionError, match=f"longer than any action \\({MAX_TEXT} at most\\)"):
            game.parse_action(state, text)
    with pytest.raises(ValueError, match=f"longer than any action \\({MAX_TEXT} at most\\)"):
        parse_text("sail " + "e" * 10**6)  # the parser's own cap, for callers that skip the engine's
    longest = "bury 9999 at -9999,-9999"  # four digits an amount and a coordinate at most
    assert len(longest) < MAX_TEXT
