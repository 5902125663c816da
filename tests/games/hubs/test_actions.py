"""Hubs actions as values: canonical texts, reading typed text, and refusing anything else.

Every text either reads as an action whose canonical text reads back to it, or is
refused with ``InvalidActionError``; every value handed to ``apply`` is either legal or
refused with ``IllegalActionError`` naming a ruling.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import plunder
from plunder.core.errors import IllegalActionError, InvalidActionError
from plunder.games.hubs.actions import LABELS, Dot, Segment, label, label_index
from plunder.games.hubs.rules import MAX_DOTS, HubsState

# d . . . c
# . . . . .
# a . . . b      a 5x3 sheet with four dots, in the segment phase
SHEET = ["dot 0,0", "dot 4,0", "dot 4,2", "dot 0,2"]


def segment_phase() -> HubsState:
    state = plunder.load_game("hubs", width=5, height=3, dots=4).new_initial_state()
    for text in SHEET:
        state = state.apply_text(text)
    assert isinstance(state, HubsState)
    return state


def placing() -> HubsState:
    state = plunder.load_game("hubs", width=5, height=3, dots=4).new_initial_state()
    assert isinstance(state, HubsState)
    return state


def test_canonical_texts() -> None:
    assert Dot(12, 30).text() == "dot 12,30"
    assert Segment(2, 10).text() == "seg c-k"
    assert Segment.joining(10, 2) == Segment(2, 10)
    assert Segment(25, 26).name() == "z-aa"


def test_labels_round_trip() -> None:
    assert [label_index(label(k)) for k in range(LABELS)] == list(range(LABELS))
    assert MAX_DOTS <= LABELS


def test_a_dot_and_a_segment_on_the_same_numbers_differ() -> None:
    assert Dot(1, 2) != Segment(1, 2)
    assert len({Dot(1, 2), Segment(1, 2), (1, 2)}) == 3


@pytest.mark.parametrize("text", [
    "dot " + "9" * 5000 + ",1",
    "dot 1," + "9" * 5000,
    "dot -" + "9" * 4400 + ",0",
    "dot ٣,٤",          # Arabic-Indic digits are digits to Python, not to the notation
    "seg a-\u212a",     # the Kelvin sign lower-cases to k
    "seg ı-b",          # dotless i
    "seg a-a", "seg a-z", "seg abc-d", "", " ", "\x00", "dot", "seg", "dot 1", "dot 1,2,3",
])
def test_unreadable_texts_raise_only_invalid_action(text: str) -> None:
    state = segment_phase()
    with pytest.raises(InvalidActionError):
        state.game.parse_action(state, text)


def test_a_dot_off_the_sheet_cannot_be_read() -> None:
    state = placing()
    with pytest.raises(InvalidActionError, match="x runs 0..4, y 0..2"):
        state.game.parse_action(state, "dot 999999,0")


def _reads_back_or_is_refused(state: HubsState, text: str) -> None:
    game = state.game
    try:
        action = game.parse_action(state, text)
    except InvalidActionError:
        return
    assert game.parse_action(state, game.action_to_text(state, action)) == action
    try:
        state.apply(action)
    except IllegalActionError as exc:
        assert exc.rule.startswith("HB-")


VALID = ["dot 3,1", "seg a-c", "b-d", "2,2", "seg c a", "DOT 0,0"]


def mutated(text: str) -> st.SearchStrategy[str]:
    """``text`` with a slice replaced by random characters (digits and letters likely)."""
    pieces = st.text(alphabet=st.sampled_from("0123456789abz-, \t.+²ıK\u212a"), max_size=8) | st.text(max_size=4)
    return st.tuples(st.integers(0, len(text)), st.integers(0, len(text)), pieces).map(
        lambda t: text[:min(t[0], t[1])] + t[2] + text[max(t[0], t[1]):])


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.text(max_size=30), st.sampled_from(VALID).flatmap(mutated)), st.booleans())
def test_any_text_reads_back_or_is_refused(text: str, in_segment_phase: bool) -> None:
    _reads_back_or_is_refused(segment_phase() if in_segment_phase else placing(), text)


@pytest.mark.parametrize("value", [
    ("seg",), ("dot", 1, 1), (0, 1), 5, None, "seg a-b", 1.5, True,
    Segment("a", "b"), Segment(1.0, 2.0), Segment(True, 2), Segment(2, 1), Segment(0, 0),  # type: ignore[arg-type]
    Segment(-1, 2), Segment(0, 99), Dot(0, 0),
])
def test_malformed_values_are_illegal_in_the_segment_phase(value: object) -> None:
    state = segment_phase()
    with pytest.raises(IllegalActionError) as info:
        state.apply(value)  # type: ignore[arg-type]
    assert info.value.rule.startswith("HB-")
    assert state == segment_phase()


@pytest.mark.parametrize("value", [
    Dot(-1, 0), Dot(5, 0), Dot(0, 3), Dot("1", 0), Dot(0.0, 1), Dot(False, 1), Segment(0, 1), ("dot", 0, 0),  # type: ignore[arg-type]
])
def test_malformed_values_are_illegal_while_placing(value: object) -> None:
    with pytest.raises(IllegalActionError) as info:
        placing().apply(value)  # type: ignore[arg-type]
    assert info.value.rule in {"HB-1", "HB-3"}


def test_a_value_that_passes_is_the_action_its_text_names() -> None:
    state = placing().apply(Dot(4, 2))
    assert state.dots == ((4, 2),)
    assert state.game.action_to_text(state, Dot(4, 2)) == "dot 4,2"
