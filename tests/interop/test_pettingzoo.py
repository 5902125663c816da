"""PettingZoo's own checkers on every game and preset (few cycles, to stay fast)."""

from __future__ import annotations

import warnings

import pytest
import numpy as np
from gymnasium import spaces
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


#: a short preset of each game with an observation, Pig included
SHORT = [("pillage", "small"), ("pirates", "block"), ("hubs", "tiny"), ("profiteer", "short"), ("crossroads", "4p"),
         ("pig", "quick")]


@pytest.mark.parametrize(("game_id", "preset"), SHORT)
def test_render_test(game_id: str, preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's stock ``render_test`` passes: every mode the metadata declares, ``human``
    included (it prints the text picture and returns ``None``)."""
    assert env(game_id).metadata["render_modes"] == ["human", "ansi", "rgb_array"]
    render_test(lambda render_mode: env(game_id, render_mode=render_mode, preset=preset))
    assert capsys.readouterr().out.strip(), "human mode printed nothing"


@pytest.mark.parametrize(("game_id", "preset"), SHORT)
def test_observations_stay_in_their_finite_box(game_id: str, preset: str) -> None:
    """The observation box is finite, and whole random games (every seat's observation at
    every step) stay inside it, masks included."""
    e = env(game_id, preset=preset)
    space = e.observation_space("player_0")
    assert isinstance(space, spaces.Dict) and isinstance(box := space["observation"], spaces.Box)
    assert np.isfinite(box.low).all() and np.isfinite(box.high).all()
    rng, checked = np.random.default_rng(0), 0
    for seed in range(3):
        e.reset(seed=seed)
        for agent in e.agent_iter(5000):
            for other in e.agents:
                assert space.contains(e.observe(other)), (game_id, seed, other)
                checked += 1
            obs, _, terminated, truncated, _ = e.last()
            e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert checked > 30


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
