"""Crossroads' plausibility check (``plausibility.py``): real games pass, impossible ones are named."""

from __future__ import annotations

from typing import Any

import pytest

from plunder.core.registry import entry, load_game
from plunder.games.crossroads.plausibility import MOST_CITIES, outcome, plausibility
from plunder.simulate import play_chunk

#: a two-player game that could have been played (greedy against itself, seed 0)
SOUND = {"rounds": 18.0, "trades": [27.0, 27.0], "offers": [15.0, 12.0], "refused": [0.0, 0.0],
         "trade_gold": [42.0, 39.0], "fees": [0.0, 0.0], "income": [296.0, 115.0], "cities": [17.0, 6.0],
         "roads": [17.0, 8.0], "trades_with_1": [0.0, 27.0], "trades_with_2": [27.0, 0.0]}


def test_the_entry_offers_the_check() -> None:
    assert entry("crossroads").study.plausibility is plausibility


def test_the_richest_win_and_tie_at_the_top() -> None:
    assert MOST_CITIES == 25
    assert outcome([5.0, 9.0, 2.0]) == [-1.0, 1.0, -1.0]
    assert outcome([9.0, 9.0, 2.0]) == [0.0, 0.0, -1.0]


@pytest.mark.parametrize("preset, agents", [("2p", ["greedy", "tit-for-tat"]), ("4p", ["random", "always-fair"])])
def test_real_games_pass(preset: str, agents: list[str]) -> None:
    game = load_game("crossroads", preset)
    played = play_chunk(("crossroads", dict(game.params), agents, list(range(6)), 0))
    assert len(played) == 6 and all(plausibility(game, r, s, st) == [] for _, (_, r, s, st) in played)


@pytest.mark.parametrize("change, why", [
    ({"scores": [130.0, 80.0]}, "seat 1 has 130 gold, its ledger makes 127"),
    ({"scores": [127.0, -2.0]}, "-2 gold: gold is whole and never negative"),
    ({"returns": [0.0, 0.0]}, "returns 0, 0 for scores 127, 80, the rules give 1, -1"),
    ({"rounds": 201.0}, "rounds is 201, above 200"),
    ({"scores": [90.0, 80.0], "income": [259.0, 115.0]}, "it ended after round 18 of 200 with no lone richest at 100"),
    ({"cities": [22.0, 6.0], "income": [346.0, 115.0]}, "22, 6 cities: each player has one or more, the board holds 25"),
    ({"fees": [1.0, 0.0], "income": [295.0, 115.0]}, "82 gold from 27 trades, each makes 3"),
])
def test_an_impossible_game_is_named(change: dict[str, Any], why: str) -> None:
    game = load_game("crossroads", "2p")
    assert plausibility(game, [1.0, -1.0], [127.0, 80.0], SOUND) == []
    stats = {**SOUND, **{k: v for k, v in change.items() if k not in ("returns", "scores")}}
    reasons = plausibility(game, change.get("returns", [1.0, -1.0]), change.get("scores", [127.0, 80.0]), stats)
    assert any(why in reason for reason in reasons), reasons
