"""The conformance check itself must catch broken games."""

import pytest

import plunder
from plunder.core.conformance import ConformanceError, check_game
from plunder.games.pillage.rules import PillageGame


class NoRoundTrip(PillageGame):
    def action_to_text(self, state, action):  # type: ignore[no-untyped-def]
        return "a1-b1"


class NeverEnds(PillageGame):
    @property
    def max_game_length(self) -> int:
        return 3


def build(cls):  # type: ignore[no-untyped-def]
    base = plunder.load_game("pillage", board="square:2x2", contents="unit")
    return cls(base.values, base.params)


def test_text_that_does_not_round_trip_is_caught() -> None:
    with pytest.raises(ConformanceError, match="parse back|share the text"):
        check_game(build(NoRoundTrip), playthroughs=2)


def test_game_longer_than_its_bound_is_caught() -> None:
    with pytest.raises(ConformanceError, match="did not end"):
        check_game(build(NeverEnds), playthroughs=2)


def test_a_sound_game_passes() -> None:
    report = check_game(build(PillageGame), playthroughs=5)
    assert report.games == 5 and report.actions_applied > 0
