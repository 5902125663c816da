"""PettingZoo's own checkers on every game and preset (few cycles, to stay fast)."""

from __future__ import annotations

import warnings

import pytest
import numpy as np
from pettingzoo.test import api_test, render_test, seed_test

from plunder.core.registry import OWN_PACKAGE, entry, game_ids
from plunder.interop.pettingzoo import env
from plunder.interop.render import Frames, raster

#: Plunder's own games (the packages of ``plunder.games``), in their order
OWN = [g for g in game_ids() if entry(g).game_class.__module__.startswith(OWN_PACKAGE + ".")]
CASES = [(g, p) for g in OWN for p in entry(g).game_class.presets]


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


@pytest.mark.parametrize(("game_id", "preset"), [("pillage", "small"), ("pirates", "block"), ("hubs", "tiny"),
                                                 ("profiteer", "short"), ("crossroads", "4p")])
def test_render_test(game_id: str, preset: str) -> None:
    """PettingZoo's ``render_test`` passes for both modes (it makes an env with
    ``render_mode="human"`` only to read the modes offered; that one has no mode)."""
    render_test(lambda render_mode: env(game_id, render_mode=None if render_mode == "human" else render_mode,
                                        preset=preset))


def test_rgb_frames_are_the_svg_picture_at_one_size() -> None:
    """``rgb_array`` frames along a game keep one shape, are not blank, change when the
    position does, and show the SVG picture itself: the starting frame is the picture
    rasterised, padded with white below."""
    e = env("pillage", render_mode="rgb_array", preset="small")
    e.reset(seed=4)
    first = e.render()
    assert isinstance(first, np.ndarray) and first.dtype == np.uint8 and first.ndim == 3 and first.shape[2] == 3
    picture = raster(e.state_now)
    assert np.array_equal(first[:picture.shape[0], :picture.shape[1]], picture)
    assert (first[picture.shape[0]:] == 255).all() and (first < 128).any()
    frames = [first]
    for agent in e.agent_iter(8):
        obs, _, terminated, truncated, _ = e.last()
        e.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
        frame = e.render()
        assert isinstance(frame, np.ndarray)
        frames.append(frame)
    assert {f.shape for f in frames} == {first.shape}
    assert not np.array_equal(frames[0], frames[-1])


def test_a_picture_too_big_for_the_frame_is_scaled_down_whole() -> None:
    """A picture taller than the frame is drawn smaller, not cropped: in a frame of half
    the height, the picture takes about half the width and the rest stays white."""
    game = entry("profiteer").game_class.load("short")
    frames = Frames(game)
    frames.height //= 2
    frame = frames.rgb(game.new_initial_state())
    assert frame.shape == (frames.height, frames.width, 3)
    assert (frame[:, int(frames.width * 0.6):] == 255).all() and (frame < 128).any()


def test_same_seed_same_chance() -> None:
    """Chance inside ``step`` comes from the reset seed: two envs with one seed see the same deals."""
    a, b = env("pillage", preset="small"), env("pillage", preset="small")
    a.reset(seed=11)
    b.reset(seed=11)
    assert a.state_now == b.state_now
    b.reset(seed=12)
    assert a.state_now != b.state_now
