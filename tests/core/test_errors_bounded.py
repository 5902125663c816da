"""Error messages stay short and never fail, whatever the offending input."""

from __future__ import annotations

import pytest

import plunder


def test_a_huge_action_value_is_refused_as_illegal_not_crashed() -> None:
    state = plunder.load_game("crossroads").new_initial_state()
    with pytest.raises(plunder.IllegalActionError) as info:
        state.apply(("demand", 10**5000))
    assert len(str(info.value)) < 400


def test_a_huge_action_text_is_quoted_in_part() -> None:
    state = plunder.load_game("pillage").new_initial_state()
    with pytest.raises(plunder.InvalidActionError) as info:
        state.apply_text("x" * 100_000)
    assert "100000 characters" in str(info.value) and len(str(info.value)) < 400
