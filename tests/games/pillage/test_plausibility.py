"""Pillage's plausibility check (``plausibility.py``): real games pass, impossible ones are named."""

from __future__ import annotations

from typing import Any

import pytest

from plunder.core.registry import entry, load_game
from plunder.games.pillage.plausibility import plausibility
from plunder.simulate import play_chunk


def games(preset: str | None, agents: list[str], n: int) -> list[tuple[list[float], list[float], dict[str, Any]]]:
    """``n`` games of ``preset`` played by ``agents`` through the lab's runner: (returns, scores, stats)."""
    game = load_game("pillage", preset)
    return [(r, s, st) for _, (_, r, s, st) in play_chunk(("pillage", dict(game.params), agents, list(range(n)), 0))]


def test_the_entry_offers_the_check() -> None:
    assert entry("pillage").study.plausibility is plausibility


@pytest.mark.parametrize("preset, agents", [("small", ["greedy", "random"]), ("floor", ["greedy"]),
                                            ("example", ["random"]), ("triangle", ["random"])])
def test_real_games_pass(preset: str, agents: list[str]) -> None:
    game = load_game("pillage", preset)
    played = games(preset, agents, 20)
    assert len(played) == 20 and all(plausibility(game, *row) == [] for row in played)


def test_unit_boxes_score_one_doubloon_each() -> None:
    game = load_game("pillage", board="square:2x2", contents="unit")
    stats = {"boxes": [3.0, 1.0], "boxes_doubloons": [3.0, 1.0], "boxes_commodity": [0.0, 0.0],
             "boxes_modifier": [0.0, 0.0], "turns": 3.0}
    assert plausibility(game, [1.0, -1.0], [3.0, 1.0], stats) == []
    assert plausibility(game, [1.0, -1.0], [5.0, 1.0], stats) == [
        "a score of 5, beyond the 4 either way the board's contents could give"]
    assert plausibility(game, [1.0, -1.0], [3.0, 1.0], {**stats, "boxes_commodity": [1.0, 0.0]}) == [
        "1 commodity boxes captured, the board has 0",
        "seat 1's boxes by kind do not add up to its 3 boxes"]


@pytest.mark.parametrize("change, why", [
    ({"scores": [2000.0, 3.0], "returns": [1.0, -1.0]}, "a score of 2000, beyond the 540 either way"),
    ({"scores": [10.0, 3.0], "returns": [-1.0, 1.0]}, "returns -1, 1 for scores 10, 3, the rules give 1, -1"),
    ({"boxes": [8.0, 8.0], "boxes_doubloons": [3.0, 3.0]}, "16 boxes captured, the board has 9"),
    ({"boxes_modifier": [2.0, 1.0]}, "seat 1's boxes by kind do not add up to its 5 boxes"),
    ({"turns": 30.0}, "turns is 30, above 24"),
    ({"boxes": [5.0]}, "statistic boxes is not one number a seat"),
])
def test_an_impossible_game_is_named(change: dict[str, Any], why: str) -> None:
    game = load_game("pillage", "small")
    returns, scores = [1.0, -1.0], [10.0, 3.0]
    stats = {"boxes": [5.0, 4.0], "boxes_doubloons": [2.0, 1.0], "boxes_commodity": [2.0, 3.0],
             "boxes_modifier": [1.0, 0.0], "turns": 12.0}
    assert plausibility(game, returns, scores, stats) == []
    stats_change = {k: v for k, v in change.items() if k not in ("returns", "scores")}
    reasons = plausibility(game, change.get("returns", returns), change.get("scores", scores), {**stats, **stats_change})
    assert any(why in reason for reason in reasons), reasons
