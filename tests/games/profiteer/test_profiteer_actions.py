"""Actions as typed values: texts that round-trip, and clean refusals of bad text and bad values."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plunder import IllegalActionError, InvalidActionError
from plunder.games.profiteer.actions import (
    DRAWS, END, GIVES, KEEP, SWITCHES, Draw, End, Give, Keep, ProfiteerAction, Side, Switch, parse, well_formed,
)
from plunder.games.profiteer.cards import Rank, parse_card, parse_cards
from plunder.games.profiteer.flow import FIELDS
from plunder.games.profiteer.rules import ProfiteerState
from tests.games.profiteer.profiteer_helpers import deal, game, stacked

EVERY_ACTION: list[ProfiteerAction] = [*DRAWS, KEEP, END, *GIVES, *SWITCHES[Side.A], *SWITCHES[Side.B]]


def _at_a_flip() -> ProfiteerState:
    # side A deck: 8S 2C   side B deck: QH 3C   resources: QC QD KS 10D
    return deal(stacked(game(), a="8S 2C", b="QH 3C", res="QC QD KS 10D"), "8S QH")


def test_every_action_text_reads_back_as_the_same_value() -> None:
    texts = {a.text() for a in EVERY_ACTION}
    assert len(texts) == len(EVERY_ACTION) == 52 + 2 + 13 + 26
    for action in EVERY_ACTION:
        assert parse(action.text()) == action and well_formed(action)


def test_actions_of_different_kinds_never_compare_equal() -> None:
    assert Draw(7) != Give(Rank(7)) and hash(Keep()) == hash(KEEP) and Keep() != End()
    assert Switch(Side.A, Rank.KING) != Switch(Side.B, Rank.KING)
    assert Switch(0, 11) == Switch(Side.A, Rank.KING)  # type: ignore[arg-type]  # IntEnums are their ints


def test_a_switch_gives_the_lowest_suit_of_its_rank() -> None:
    # resources QC QD KS 10D: "switch A Q" puts QC on the table (C < D, PF-1/PF-11)
    s = _at_a_flip()
    t = s.apply(Switch(Side.A, Rank.QUEEN))
    assert t.resources == parse_cards("QD KS 10D") and t.stake_a == parse_cards("QC")
    assert s.apply_text("switch A QD") == t     # a card typed in full is read as its rank


@pytest.mark.parametrize("text", [
    "", "   ", "switch", "switch A", "switch C K", "switch A 1O", "switch A K extra", "give", "give 7 8",
    "keep now", "end it", "ZZ", "11H", "QX", "Q", "10", "9" * 5000, "switch A " + "9" * 4400, "ı1", "Q♠♠",
    "\x00", "ﬀ", "end\n\nend",
])
def test_unreadable_text_raises_invalid_action_error(text: str) -> None:
    s = _at_a_flip()
    with pytest.raises(InvalidActionError) as err:
        s.game.parse_action(s, text)
    assert len(str(err.value)) < 800


@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=60) | st.from_regex(r"(switch|give|keep|end|pass)? ?[AB]? ?[0-9TJQKA]{0,3}[CDHS♠]?",
                                                   fullmatch=True))
def test_any_text_parses_or_raises_invalid_action_error(text: str) -> None:
    s = _at_a_flip()
    try:
        action = s.game.parse_action(s, text)
    except InvalidActionError:
        return
    assert well_formed(action) and parse(action.text()) == action


def test_non_text_is_invalid_too() -> None:
    s = _at_a_flip()
    for value in (None, 5, b"keep"):
        with pytest.raises(InvalidActionError):
            s.game.parse_action(s, value)  # type: ignore[arg-type]


MALFORMED: list[Any] = [
    None, 5, 52, "keep", ("switch",), [1], object(), 1.5, True,
    Draw(-1), Draw(52), Draw("QS"), Draw(True), Draw(1.0),           # type: ignore[arg-type]
    Switch(2, Rank.KING), Switch(Side.A, 13), Switch("A", Rank.KING), Switch(Side.A, None),  # type: ignore[arg-type]
    Give(-1), Give(13), Give(1.5), Give(False),                      # type: ignore[arg-type]
]


@pytest.mark.parametrize("value", MALFORMED, ids=repr)
def test_apply_refuses_a_malformed_value_as_an_illegal_action(value: Any) -> None:
    for s in (_at_a_flip(), game().new_initial_state()):
        with pytest.raises(IllegalActionError, match="PF-1") as err:
            s.apply(value)
        assert err.value.rule == "PF-1"
        assert not well_formed(value)


def test_well_formed_but_illegal_values_name_their_ruling() -> None:
    s = _at_a_flip()
    cases: dict[ProfiteerAction, str] = {Draw(parse_card("2D")): "PF-9", Give(Rank.KING): "PF-6", END: "PF-6",
             Switch(Side.A, Rank.EIGHT): "PF-3", Switch(Side.B, Rank.QUEEN): "PF-3", Switch(Side.A, Rank.ACE): "PF-3"}
    for action, rule in cases.items():
        with pytest.raises(IllegalActionError) as err:
            s.apply(action)
        assert err.value.rule == rule, action


def test_the_working_copy_carries_every_field_of_a_position() -> None:
    names = tuple(f.name for f in dataclasses.fields(ProfiteerState) if f.name != "game")
    assert names == FIELDS
    s = _at_a_flip()
    assert s.evolve(**s.working().fields()) == s
