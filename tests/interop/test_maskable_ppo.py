"""sb3-contrib's ``MaskablePPO`` takes the envs as ``gymnasium.make`` and ``make_vec_env`` give
them, masks included (skipped where the ``train`` extra is not installed)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import gymnasium
import numpy as np
import pytest

sb3_contrib = pytest.importorskip("sb3_contrib")

from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402
from stable_baselines3.common.env_util import make_vec_env  # noqa: E402

import plunder.interop.gymnasium  # noqa: E402,F401  (registers the ids)

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "maskable_ppo.py"


@pytest.mark.parametrize(("env_id", "preset"), [("plunder/Profiteer-v0", "short"), ("plunder/Pillage-v0", "small"),
                                                ("plunder/Crossroads-v0", "2p")])
def test_sb3_contribs_helpers_read_the_masks(env_id: str, preset: str) -> None:
    """``is_masking_supported`` and ``get_action_masks`` find the masks of a made env and of
    Stable-Baselines3's vector env of made envs, equal to the envs' ``info["action_mask"]``."""
    env = gymnasium.make(env_id, preset=preset)
    _, info = env.reset(seed=2)
    assert is_masking_supported(env)
    assert np.array_equal(get_action_masks(env), info["action_mask"]) and info["action_mask"].any()
    vec = make_vec_env(env_id, n_envs=2, seed=5, env_kwargs={"preset": preset})
    vec.reset()
    masks = get_action_masks(vec)
    assert isinstance(env.action_space, gymnasium.spaces.Discrete)
    assert is_masking_supported(vec) and masks.shape == (2, env.action_space.n) and masks.any(axis=1).all()


def test_the_example_trains_evaluates_and_plots(tmp_path: Path) -> None:
    """The example end to end on a tiny board: two rounds of 512 steps, ten evaluation
    games each, the curve and the PNG (no learning asserted: far too few steps)."""
    spec = importlib.util.spec_from_file_location("maskable_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    picture = tmp_path / "curve.png"
    result = example.main(["--preset", "example", "--steps", "1024", "--every", "512", "--eval", "10",
                           "--envs", "1", "--plot", str(picture)])
    assert result["steps"][0] == 0 and result["steps"][-1] >= 1024 and len(result["wins"]) == 3
    assert all(0.0 <= w <= 1.0 for w in [*result["wins"], result["random"]])
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
