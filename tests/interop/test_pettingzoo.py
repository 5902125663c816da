"""PettingZoo's own checkers on every game and preset (few cycles, to stay fast)."""

from __future__ import annotations

import warnings

import pytest
from pettingzoo.test import api_test, seed_test

from plunder.core.registry import GAME_MODULES, entry
from plunder.interop.pettingzoo import env

CASES = [(g, p) for g in GAME_MODULES for p in entry(g).game_class.presets]


@pytest.mark.parametrize(("game_id", "preset"), CASES)
def test_api_and_seed(game_id: str, preset: str) -> None:
    """``api_test`` and ``seed_test`` pass (their advice on dict observations is only advice)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(game_id, preset=preset), num_cycles=20)
        seed_test(lambda: env(game_id, preset=preset), num_cycles=20)


def test_ansi_render_is_the_text_picture() -> None:
    """``render_mode="ansi"`` returns the terminal's picture of the position."""
    e = env("pillage", render_mode="ansi", preset="example")
    e.reset(seed=3)
    picture = e.render()
    assert isinstance(picture, str) and "doubloons" in picture and "Player 2" in picture


def test_same_seed_same_chance() -> None:
    """Chance inside ``step`` comes from the reset seed: two envs with one seed see the same deals."""
    a, b = env("pillage", preset="small"), env("pillage", preset="small")
    a.reset(seed=11)
    b.reset(seed=11)
    assert a.state_now == b.state_now
    b.reset(seed=12)
    assert a.state_now != b.state_now
