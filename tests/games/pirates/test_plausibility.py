"""Pirates' plausibility check (``plausibility.py``): real voyages pass, impossible ones are named."""

from __future__ import annotations

from typing import Any

import pytest

from plunder.core.registry import entry, load_game
from plunder.games.pirates.plausibility import plausibility
from plunder.simulate import play_chunk

#: the text's example end (PR-10): 16 turns, frigate with 7 crew, 5 aboard, 15 buried, notoriety 8 -> 637
EXAMPLE = {"turns": 16.0, "drowned": 0.0, "ship": 3.0, "crew": 7.0, "notoriety": 8.0, "aboard": 5.0, "buried": 15.0,
           "combats_won": 9.0, "combats_lost": 1.0, "standoffs": 0.0, "sightings": 12.0, "booty_lost": 2.0}


def test_the_entry_offers_the_check() -> None:
    assert entry("pirates").study.plausibility is plausibility


@pytest.mark.parametrize("preset, agent", [("classic", "greedy"), ("classic", "random"), ("channel", "greedy")])
def test_real_voyages_pass(preset: str, agent: str) -> None:
    game = load_game("pirates", preset)
    played = play_chunk(("pirates", dict(game.params), [agent], list(range(15)), 0))
    assert len(played) == 15 and all(plausibility(game, r, s, st) == [] for _, (_, r, s, st) in played)


def test_the_texts_example_passes_and_a_shipless_pirate_counts_no_ship() -> None:
    game = load_game("pirates")
    assert plausibility(game, [1.0], [637.0], EXAMPLE) == []
    shipless = {**EXAMPLE, "ship": -1.0, "crew": 0.0, "drowned": 1.0}
    assert plausibility(game, [1.0], [616.0], shipless) == []


@pytest.mark.parametrize("change, why", [
    ({"scores": [640.0]}, "a score of 640, the tracks at the end make 637"),
    ({"returns": [-1.0]}, "returns -1 for scores 637, the rules give 1"),
    ({"turns": 21.0}, "turns is 21, above 20"),
    ({"crew": 8.0}, "8 crew on a frigate, which carries 7"),
    ({"aboard": 60.0}, "aboard is 60, above 50"),
    ({"notoriety": 10.0}, "notoriety 10 after 9 fights won, one a win"),
    ({"buried": -1.0}, "buried is -1, below 0"),
])
def test_an_impossible_voyage_is_named(change: dict[str, Any], why: str) -> None:
    stats = {**EXAMPLE, **{k: v for k, v in change.items() if k not in ("returns", "scores")}}
    reasons = plausibility(load_game("pirates"), change.get("returns", [1.0]), change.get("scores", [637.0]), stats)
    assert any(why in reason for reason in reasons), reasons
