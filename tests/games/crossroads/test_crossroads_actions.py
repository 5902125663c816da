"""Crossroads actions as values: texts round-trip, bad text is unreadable, bad values are illegal.

Whatever text ``parse_action`` is given it returns an action or raises
``InvalidActionError``; whatever value ``apply`` is given it returns a state or raises
``IllegalActionError`` naming a ruling. Nothing else may escape.
"""

from __future__ import annotations

from typing import Any

import plunder
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from plunder.games.crossroads.actions import (
    Accept,
    Axis,
    City,
    Demand,
    Done,
    Offer,
    Pass,
    Place,
    Reject,
    Reroll,
    Road,
    Roll,
    parse,
)
from plunder.games.crossroads.board import from_rows
from plunder.games.crossroads.rules import CrossroadsGame, CrossroadsState, Phase

# The text's relay picture: P1 (A3) and P2 (F1) trade through P3's C2.
#    A B C D E F
# 1 |R|R|R|_|R|2|
# 2 |R|_|3|_|R|_|
# 3 |1|_|R|R|R|_|
RELAY_BOARD = from_rows(["|R|R|R|_|R|2|", "|R|_|3|_|R|_|", "|1|_|R|R|R|_|"])


def crossroads(players: int = 3) -> CrossroadsGame:
    return CrossroadsGame.load(players=players)


def positions() -> list[CrossroadsState]:
    """One position of each phase a player or chance acts in."""
    game = crossroads()
    trade = game.position(RELAY_BOARD, phase=Phase.TRADE, gold=(20, 20, 20))
    return [
        game.new_initial_state(),
        game.new_initial_state().apply_text("roll 2-3"),
        game.position(RELAY_BOARD, phase=Phase.ROLL, gold=(20, 20, 20)),
        game.position(RELAY_BOARD, phase=Phase.ROLL).apply_text("roll 2-3"),
        game.position(RELAY_BOARD, gold=(20, 20, 20)),
        trade,
        trade.apply_text("offer A3-F1 via C2=0 gold 2/1"),
        trade.apply_text("offer A3-F1 via C2=0 gold 2/1").apply_text("accept"),
    ]


POSITIONS = positions()
TEXTS = sorted({a.text() for s in POSITIONS for a in s.legal_actions()} | {"reroll 6", "demand 9"})


def test_the_positions_cover_every_phase_but_the_end() -> None:
    assert {s.phase for s in POSITIONS} == set(Phase) - {Phase.OVER}


@pytest.mark.parametrize(
    "text",
    [
        "city A²",
        "offer A1-B2 via C3=² gold 1/2",
        "demand " + "9" * 5000,
        "road J" + "1" * 4400,
        "offer A1-B2 gold " + "1" * 5000 + "/2",
        "roll ¹-²",
        "city Ａ1",
        "place ı1",
        "offer A1-B2 via " + ",".join(["C3=1"] * 200) + " gold 1/1",
        " " * 10_000 + "done",
    ],
)
def test_odd_texts_are_unreadable(text: str) -> None:
    state = POSITIONS[5]
    with pytest.raises(plunder.InvalidActionError) as err:
        state.game.parse_action(state, text)
    assert len(str(err.value)) < 400


def _mutate(text: str, edits: list[tuple[int, int, str]]) -> str:
    for kind, where, piece in edits:
        i = where % (len(text) + 1)
        if kind == 0:
            text = text[:i] + piece + text[i:]
        elif kind == 1:
            text = text[:i] + text[i + 1:]
        else:
            text = text[:i] + piece + text[i + 1:]
    return text


PIECES = st.sampled_from(["9" * 4400, "²", "٣", "Ａ", "ı", "İ", "=", ",", "-", "/", " ", "via", "gold", "\x00", "0", "10"])
EDITS = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 80), st.one_of(PIECES, st.text(max_size=3))), max_size=4)
TEXT = st.one_of(st.text(max_size=60), st.builds(_mutate, st.sampled_from(TEXTS), EDITS))


@settings(max_examples=300, deadline=None)
@given(text=TEXT, at=st.sampled_from(POSITIONS))
def test_any_text_is_read_or_refused_as_unreadable(text: str, at: CrossroadsState) -> None:
    try:
        action = at.game.parse_action(at, text)
    except plunder.InvalidActionError:
        return
    # What was read has one canonical text, which reads back as the same action ...
    assert parse(action.text()) == action
    # ... and applying it either works or is refused with a ruling.
    try:
        at.apply(action)
    except plunder.IllegalActionError as err:
        assert err.rule.startswith("CR-")


@pytest.mark.parametrize(
    "value",
    [
        ("city",),
        ("road", "A1"),
        ("offer", 20, 5, (), (), 2, 1),
        ("pass",),
        None,
        7,
        "done",
        [1, 2],
        {"city": 3},
        City("A1"),  # type: ignore[arg-type]
        City(100),
        City(-1),
        City(True),
        Road(3.0),  # type: ignore[arg-type]
        Place(None),  # type: ignore[arg-type]
        Roll(1.0, 2),  # type: ignore[arg-type]
        Axis(2, "3"),  # type: ignore[arg-type]
        Demand(10**50),
        Demand("1"),  # type: ignore[arg-type]
        Offer(20, 5, [12], [0], 2, 1),  # type: ignore[arg-type]
        Offer(20, 5, (12,), (), 2, 1),
        Offer(20, 5, (12, 12, 12), (0, 0, 0), 3, 0),
        Offer(20, 500, (), (), 2, 1),
        Offer(20, 5, ("C2",), (0,), 2, 1),  # type: ignore[arg-type]
    ],
    ids=repr,
)
def test_malformed_values_are_illegal_everywhere(value: Any) -> None:
    for state in POSITIONS:
        with pytest.raises(plunder.IllegalActionError) as err:
            state.apply(value)
        assert err.value.rule.startswith("CR-")


FIELD = st.one_of(st.integers(-200, 200), st.none(), st.text(max_size=3), st.booleans(), st.floats(allow_nan=False),
                  st.tuples(st.integers(-5, 120)), st.lists(st.integers(0, 99), max_size=3))
VALUES = st.one_of(
    st.tuples(st.sampled_from(["roll", "city", "road", "offer", "demand", "pass"]), FIELD),
    st.builds(Roll, FIELD, FIELD),
    st.builds(Axis, FIELD, FIELD),
    st.builds(Place, FIELD),
    st.builds(City, FIELD),
    st.builds(Road, FIELD),
    st.builds(Demand, FIELD),
    st.builds(Offer, FIELD, FIELD, FIELD, FIELD, FIELD, FIELD),
    st.sampled_from([Reroll(), Done(), Pass(), Accept(), Reject()]),
    FIELD,
)


@settings(max_examples=300, deadline=None)
@given(value=VALUES, at=st.sampled_from(POSITIONS))
def test_any_value_applies_or_is_illegal(value: Any, at: CrossroadsState) -> None:
    try:
        after = at.apply(value)
    except plunder.IllegalActionError as err:
        assert err.rule.startswith("CR-")
    else:
        assert value in at.legal_actions() and isinstance(after, CrossroadsState)


def test_a_malformed_value_has_no_text() -> None:
    game = crossroads()
    state = game.new_initial_state()
    for value in (("city",), City(100), Offer(1, 2, (3,), (), 3, 0)):
        with pytest.raises(ValueError):
            game.action_to_text(state, value)  # type: ignore[arg-type]


def test_actions_of_different_kinds_never_compare_equal() -> None:
    # City and Road on one cell share their fields but are different moves.
    assert City(5) != Road(5) and Place(5) != City(5) and Accept() != Reject() and Done() != Pass()
    assert len({City(5), Road(5), Place(5), Accept(), Reject(), Done(), Pass(), Reroll()}) == 8
