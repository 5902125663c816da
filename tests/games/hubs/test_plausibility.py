"""Hubs' plausibility check (``plausibility.py``): real matches pass, impossible ones are named."""

from __future__ import annotations

from typing import Any

import pytest

from plunder.core.registry import entry, load_game
from plunder.games.hubs.plausibility import most_segments, plausibility
from plunder.simulate import play_chunk

#: a match of the ``tiny`` preset that could have been played
SOUND = {"offense_points_per_round": [10.0, 7.0], "conceded_per_defense_round": [7.0, 10.0],
         "segments_per_round": 7.0, "stalled_rounds": 0.0, "busiest_dot": 3.0, "segments": 14.0}


def test_the_entry_offers_the_check() -> None:
    assert entry("hubs").study.plausibility is plausibility


def test_a_round_has_at_most_3n_minus_6_segments() -> None:
    assert [most_segments(n) for n in (2, 3, 4, 24)] == [1, 3, 6, 66]


@pytest.mark.parametrize("preset, agents", [("tiny", ["greedy", "random"]), ("small", ["random"])])
def test_real_matches_pass(preset: str, agents: list[str]) -> None:
    game = load_game("hubs", preset)
    played = play_chunk(("hubs", dict(game.params), agents, list(range(10)), 0))
    assert len(played) == 10 and all(plausibility(game, r, s, st) == [] for _, (_, r, s, st) in played)


@pytest.mark.parametrize("change, why", [
    ({"scores": [500.0, 7.0]}, "a score of 500, 2 rounds of 6 dots give at most 96"),
    ({"returns": [-1.0, 1.0]}, "returns -1, 1 for scores 10, 7, the rules give 1, -1"),
    ({"segments": 4.0, "segments_per_round": 2.0}, "scores of 17 from 4 segments of 6 dots, at most 4 a segment"),
    ({"segments_per_round": 6.0}, "6 segments a round in 2 rounds, but 14 in all"),
    ({"segments_per_round": 13.0, "segments": 26.0}, "segments_per_round is 13, above 12"),
    ({"offense_points_per_round": [12.0, 7.0]}, "seat 1 scored 10, but 12 a round on offense in 1 of the 2 rounds"),
    ({"stalled_rounds": 3.0}, "stalled_rounds is 3, above 2"),
    ({"busiest_dot": 6.0}, "busiest_dot is 6, above 5"),
])
def test_an_impossible_match_is_named(change: dict[str, Any], why: str) -> None:
    game = load_game("hubs", "tiny")
    assert plausibility(game, [1.0, -1.0], [10.0, 7.0], SOUND) == []
    stats = {**SOUND, **{k: v for k, v in change.items() if k not in ("returns", "scores")}}
    reasons = plausibility(game, change.get("returns", [1.0, -1.0]), change.get("scores", [10.0, 7.0]), stats)
    assert any(why in reason for reason in reasons), reasons
