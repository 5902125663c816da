"""The compiled playout policies return the numpy path's keys, bit for bit, and ``hard`` plays
the same games on both paths."""

import random

import numpy as np
import pytest

import plunder
from plunder.agents import make_agent
from plunder.core.chance import sample_chance
from plunder.core.compiled import built_once
from plunder.games.pillage import compiled
from plunder.games.pillage.fast import PlayoutKernel
from plunder.games.pillage.rules import PillageGame, PillageState
from plunder.match import decision_rng

pytest.importorskip("numba")

PRESETS = ["classic", "small", "floor", "triangle", "hex", "octagon", "example"]


def positions(preset: str, seed: int, count: int) -> tuple[PillageGame, list[PillageState]]:
    """``count`` dealt positions of one random game, every ply equally likely (all of one deal)."""
    game = PillageGame.load(preset=preset)
    rng = random.Random(seed)
    s = game.new_initial_state()
    seen: list[PillageState] = []
    while not s.is_terminal():
        if s.is_chance_node():
            s = s.apply(sample_chance(s, rng))
            continue
        if not s.pending and s.contents[-1] is not None:
            seen.append(s)
        s = s.apply(rng.choice(s.legal_actions()))
    return game, [seen[rng.randrange(len(seen))] for _ in range(count)]


def both_paths(kernel: PlayoutKernel, states: list[PillageState], seed: int, capture_first: bool,
               monkeypatch: pytest.MonkeyPatch) -> tuple[np.ndarray, np.ndarray]:
    """The keys of the compiled path and of the numpy path from the same generator seed."""
    assert compiled.compiled_policy() is not None, "numba is installed: the compiled path must be taken"
    fast = kernel.policy_keys(kernel.batch(states), np.random.default_rng(seed), capture_first)
    monkeypatch.setenv(compiled.PURE_ENV, "1")
    assert compiled.compiled_policy() is None
    pure = kernel.policy_keys(kernel.batch(states), np.random.default_rng(seed), capture_first)
    monkeypatch.delenv(compiled.PURE_ENV)
    return fast, pure


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("capture_first", [True, False])
def test_compiled_keys_equal_the_numpy_path(preset: str, capture_first: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Mixed batches (rows from every stage of a game, repeated as MCTS repeats a leaf) on every
    board shape: equal keys, so equal playouts, whichever path plays them."""
    # the chain-size branch (no capture and no safe line) must have been taken: the numpy
    # path labels chains for it, counted here
    calls = [0]
    for seed in range(4):
        game, states = positions(preset, seed, 48)
        kernel = PlayoutKernel(game)
        label = kernel.gifts

        def counted(missing: np.ndarray, undrawn: np.ndarray) -> np.ndarray:
            calls[0] += 1
            return label(missing, undrawn)

        monkeypatch.setattr(kernel, "gifts", counted)
        fast, pure = both_paths(kernel, states * 2, seed, capture_first, monkeypatch)
        assert np.array_equal(fast, pure), (preset, seed)
    assert calls[0] > 0 if capture_first else calls[0] == 0


def test_the_numpy_path_is_taken_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """``PLUNDER_PURE=1`` plays with numpy alone: the stepper is not called."""
    game, states = positions("classic", 1, 8)
    kernel = PlayoutKernel(game)
    monkeypatch.setenv(compiled.PURE_ENV, "1")
    assert compiled.compiled_policy() is None
    keys = kernel.policy_keys(kernel.batch(states), np.random.default_rng(0))
    assert (keys >= 0).any()
    monkeypatch.delenv(compiled.PURE_ENV)

    calls = []

    def no_numba() -> None:
        calls.append(1)
        raise ImportError("No module named 'numba'")

    # a machine without numba: the build fails once, and nothing is built again
    without = built_once(no_numba)
    assert without() is None and without() is None and calls == [1]


@pytest.mark.parametrize("board,spec", [("square:4x4", "hard:sims=400"), ("square:5x5", "hard:sims=200,endgame=16")])
def test_hard_plays_the_same_game_on_both_paths(board: str, spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A whole game of the shipped ``hard`` against ``greedy`` (the web server's per-move RNG):
    every move equal with and without the compiled stepper."""
    game = plunder.load_game("pillage", board=board)

    def moves() -> list[str]:
        agents = [make_agent(spec, game), make_agent("greedy", game)]
        rng = random.Random(11)
        s = game.new_initial_state()
        out = []
        ply = 0
        while not s.is_terminal():
            if s.is_chance_node():
                action = sample_chance(s, rng)
            else:
                action = agents[s.current_player].choose(s, decision_rng(11, s.current_player, ply))
                out.append(str(action))
            s = s.apply(action)
            ply += 1
        return out

    fast = moves()
    monkeypatch.setenv(compiled.PURE_ENV, "1")
    pure = moves()
    assert fast == pure and len(fast) > 10
