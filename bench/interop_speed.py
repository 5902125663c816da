"""Stepping through the adapters next to the raw API, as ratios measured in one run.

Run: .venv/bin/python bench/interop_speed.py [--runs 5] [--games 4]

Each side plays the same random games (same seeds: chance from ``plunder.core.chance``, the
players' picks from one ``random.Random`` per game): the raw API (``legal_actions``, a pick,
``apply``, chance drawn from the seed), the PettingZoo AEC env (``last()`` with the
observation vector and mask, a pick among the mask's indices, ``step``), the Gymnasium env
for the solitaires, and pyspiel through ``plunder.interop.openspiel``. Unit-box Pillage also
plays OpenSpiel's own ``dots_and_boxes`` on the same board. The ratio is the adapter's time
per move over the raw API's; each figure is the median of ``--runs`` runs with the spread
(the runs alternate which side goes first). The target (issue 17) is a ratio under 1.3.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Callable

import numpy as np
import pyspiel

from plunder.core import chance
from plunder.core.registry import entry
from plunder.interop.gymnasium import PlunderEnv
from plunder.interop.openspiel import short_name
from plunder.interop.pettingzoo import env

CASES = [("pillage", "classic"), ("pillage", "small"), ("profiteer", "short"), ("hubs", "small"),
         ("pirates", "classic"), ("crossroads", "2p")]
TARGET = 1.3


def raw(game_id: str, preset: str, seed: int) -> int:
    """One random game on the raw API; the number of player moves."""
    game = entry(game_id).game_class.load(preset)
    state, rng, events, moves = game.new_initial_state(), random.Random(seed), 0, 0
    while not state.is_terminal():
        if state.is_chance_node():
            state = state.apply(chance.draw(state, seed, events))
            events += 1
        else:
            state = state.apply(rng.choice(state.legal_actions()))
            moves += 1
    return moves


def aec(game_id: str, preset: str, seed: int) -> int:
    """One random game through the PettingZoo env."""
    e, rng, moves = env(game_id, preset=preset), random.Random(seed), 0
    e.reset(seed=seed)
    for _ in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        moves += 1
    return moves


def gym(game_id: str, preset: str, seed: int) -> int:
    """One random game through the Gymnasium env (the solitaires)."""
    e, rng, moves, done = PlunderEnv(game_id, preset=preset), random.Random(seed), 0, False
    _, info = e.reset(seed=seed)
    while not done:
        _, _, done, _, info = e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        moves += 1
    return moves


def spiel(name: str, params: dict, seed: int) -> int:
    """One random game through pyspiel (chance sampled by its probabilities)."""
    state, rng, moves = pyspiel.load_game(name, params).new_initial_state(), random.Random(seed), 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(chance.pick(outcomes, rng.random()))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    return moves


def per_move(play: Callable[[int], int], games: int) -> float:
    """Seconds per player move over ``games`` games."""
    start, moves = time.perf_counter(), 0
    for seed in range(games):
        moves += play(seed)
    return (time.perf_counter() - start) / max(moves, 1)


def main() -> None:
    """Print, per game, each adapter's time per move over the raw API's."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=4)
    args = parser.parse_args()
    for game_id, preset in CASES:
        sides: dict[str, Callable[[int], int]] = {
            "raw": lambda s, g=game_id, p=preset: raw(g, p, s),
            "pettingzoo": lambda s, g=game_id, p=preset: aec(g, p, s),
            "openspiel": lambda s, g=game_id, p=preset: spiel(short_name(g), {"preset": p}, s),
        }
        if entry(game_id).game_class.load(preset).num_players == 1:
            sides["gymnasium"] = lambda s, g=game_id, p=preset: gym(g, p, s)
        if (game_id, preset) == ("pillage", "classic"):
            sides["dots_and_boxes"] = lambda s: spiel("dots_and_boxes", {"num_rows": 3, "num_cols": 3}, s)
        ratios: dict[str, list[float]] = {name: [] for name in sides if name != "raw"}
        for run in range(args.runs):
            order = list(sides) if run % 2 == 0 else list(reversed(sides))
            times = {name: per_move(sides[name], args.games) for name in order}
            for name in ratios:
                ratios[name].append(times[name] / times["raw"])
        line = ", ".join(f"{name} {statistics.median(r):.2f} ({min(r):.2f}-{max(r):.2f})" for name, r in ratios.items())
        print(f"{game_id} {preset}: time per move over the raw API's: {line}", flush=True)
    print(f"target: adapters under {TARGET}")


if __name__ == "__main__":
    main()
