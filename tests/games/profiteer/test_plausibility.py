"""Profiteer's plausibility check (``plausibility.py``): real games pass, impossible ones are named."""

from __future__ import annotations

from typing import Any

import pytest

from plunder.core.registry import entry, load_game
from plunder.games.profiteer.plausibility import plausibility
from plunder.simulate import play_chunk


def games(preset: str | None, agent: str, n: int) -> list[tuple[list[float], list[float], dict[str, Any]]]:
    """``n`` games of ``preset`` played by ``agent`` through the lab's runner: (returns, scores, stats)."""
    game = load_game("profiteer", preset)
    return [(r, s, st) for _, (_, r, s, st) in play_chunk(("profiteer", dict(game.params), [agent], list(range(n)), 0))]


def test_the_entry_offers_the_check() -> None:
    assert entry("profiteer").study.plausibility is plausibility


@pytest.mark.parametrize("preset, agent", [(None, "profit"), ("war_switch", "greedy"), ("short", "random"),
                                           ("lean", "greedy")])
def test_real_games_pass(preset: str | None, agent: str) -> None:
    game = load_game("profiteer", preset)
    played = games(preset, agent, 30)
    assert len(played) == 30 and all(plausibility(game, *row) == [] for row in played)


@pytest.mark.parametrize("change, why", [
    ({"scores": [99.0], "returns": [1.0]}, "99 cards counted, the deck has 52"),
    ({"scores": [20.0], "returns": [1.0]}, "returns 1 for scores 20, the rules give -1"),
    ({"passes": 101.0}, "passes is 101, above 100"),
    ({"end_declined": 1.0, "end_unequal": 1.0, "end_empty_side": 0.0, "end_max_rounds": 0.0},
     "the game ended for 2 reasons, not one"),
    ({"end_max_rounds": 1.0, "end_unequal": 0.0, "end_declined": 0.0, "end_empty_side": 0.0, "passes": 3.0},
     "it ended at the pass cap after 3 passes, the cap is 100"),
    ({"wars": 5.0, "flips": 4.0, "war_rounds": 6.0}, "5 wars but 4 flips: every war starts from a flip"),
    ({"war_cards": 9.0, "war_rounds": 4.0, "wars": 4.0}, "9 face-down cards in 4 war rounds, at most 2 a round"),
    ({"switches": 30.0, "flips": 20.0}, "30 switches in 20 flips, at most one a flip"),
    ({"gifts": "many"}, "statistic gifts is not a number"),
])
def test_an_impossible_game_is_named(change: dict[str, Any], why: str) -> None:
    returns, scores, stats = [1.0], [26.0], {**games(None, "profit", 1)[0][2], "passes": 2.0, "flips": 20.0,
                                               "wars": 2.0, "war_rounds": 2.0, "war_cards": 4.0, "switches": 3.0,
                                               "reshuffles": 0.0, "end_unequal": 1.0, "end_declined": 0.0,
                                               "end_empty_side": 0.0, "end_max_rounds": 0.0}
    game = load_game("profiteer")
    assert plausibility(game, returns, scores, stats) == []
    stats_change = {k: v for k, v in change.items() if k not in ("returns", "scores")}
    returns, scores = change.get("returns", returns), change.get("scores", scores)
    assert why in plausibility(game, returns, scores, {**stats, **stats_change})
