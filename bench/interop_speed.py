"""Stepping through the adapters next to the raw API, as ratios measured in one run; with
``--vector N``, the vector environment of N copies against N single environments.

Run: .venv/bin/python bench/interop_speed.py [--runs 5] [--games 10] [--seconds 0.05]
     .venv/bin/python bench/interop_speed.py --vector 8 [--runs 5] [--steps 2000] [--case pillage:small]

``--vector N`` (:func:`vector_bench`): per game, ``plunder.interop.vector.PlunderVectorEnv`` with N
copies takes ``--steps`` steps (N moves each), and N single Gymnasium envs
(``plunder.interop.gymnasium.PlunderEnv``) take the same moves in a loop, one env after the
other, each reset when its game ends, as a hand-written loop over envs does. Both sides start
from the same seeds and pick the same indices (one ``random.Random`` drawing among each
mask's places of 1), so they play the same games. Each run times both sides in CPU time
(alternating which goes first); the figure is moves per second, the median of the runs with
the minimum and maximum, and the load average is printed before and after. Each side plays
once untimed first: a game's batch (``GameEntry.learning.batched``, Pillage's and
Profiteer's) loads its compiled code from numba's cache on first use, a one-time cost of a
process.

Each side plays the same random games (same seeds: chance event ``k`` of a game draws
``plunder.core.chance.uniform(seed, k)`` on every side, the players' picks come from one
``random.Random(seed)`` per game): the raw API (``legal_actions``, a pick, ``apply``), the
PettingZoo AEC env (``last()`` with the observation vector and mask, a pick among the mask's
indices, ``step``), the Gymnasium env for the solitaires, and pyspiel through
``plunder.interop.openspiel``. Unit-box Pillage also plays OpenSpiel's own
``dots_and_boxes`` on the same board.

Every side makes the same pick, ``rng.choice`` over the legal moves (:func:`pick`): the raw
API's ``legal_actions()``, OpenSpiel's ``legal_actions()``, and for PettingZoo and Gymnasium
the mask's places of 1 (:func:`legal_indices`, numpy's fast path for a 0/1 mask: finding
them is the price of a mask and counts with the adapter). The bench says where a side
played other games than the raw API (an adapter whose indices list the legal moves in
another order than the game picks other moves with the same draws).

The ratio is the adapter's time per move over the raw API's; each figure is the median of
``--runs`` runs with the spread. In a run each side plays its games in a row, as a training
loop does (the runs alternate which side goes first): ``--games`` games at least, and as
many as the raw API plays in ``--seconds`` of CPU time (Pillage's games take microseconds
a move). Each side is built once (the game loaded, the env made), outside the timing, as a
user builds one env and resets it for every episode; the raw API's time per move is printed
alongside. Times are the process's CPU time, so that the time the machine gives to other
work stays out of them. The target (issue 17) is a ratio under 1.3.

Under each game, what PettingZoo adds a move (:func:`parts`: the observation, the mask, the
driver's finding of the mask's places, and the rest of the AEC env's time over the raw
API's) and how often OpenSpiel's C++ calls back into the Python state a move
(:func:`callbacks`).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import time
from collections import Counter
from typing import Any, Callable, Sequence

import numpy as np
import pyspiel

from plunder.core import chance
from plunder.core.game import State
from plunder.core.registry import entry
from plunder.interop.encoding import encoding
from plunder.interop.gymnasium import PlunderEnv
from plunder.interop.openspiel import PlunderState, short_name
from plunder.interop.pettingzoo import env
from plunder.interop.vector import PlunderVectorEnv

CASES = [("pillage", "classic"), ("pillage", "small"), ("profiteer", "short"), ("hubs", "small"),
         ("pirates", "classic"), ("crossroads", "2p")]
TARGET = 1.3
#: plays the game of a seed, returns its number of player moves
Play = Callable[[int], int]


def pick(rng: random.Random, legal: Sequence[Any] | np.ndarray) -> Any:
    """The driver's choice on every side: one of ``legal`` uniformly, by ``rng``."""
    return rng.choice(legal)


def legal_indices(mask: np.ndarray) -> np.ndarray:
    """The places of 1 of an action mask, the sequence a driver picks from (an array: a
    list of a Crossroads position's hundreds of offers would cost more than the pick)."""
    return mask.view(np.bool_).nonzero()[0]


def raw(game_id: str, preset: str) -> Play:
    """Random games on the raw API; each returns its number of player moves."""
    game = entry(game_id).game_class.load(preset)

    def play(seed: int) -> int:
        state, rng, events, moves = game.new_initial_state(), random.Random(seed), 0, 0
        while not state.is_terminal():
            if state.is_chance_node():
                state = state.apply(chance.draw(state, seed, events))
                events += 1
            else:
                state = state.apply(pick(rng, state.legal_actions()))
                moves += 1
        return moves

    return play


def aec(game_id: str, preset: str) -> Play:
    """Random games through one PettingZoo env, reset for each."""
    e = env(game_id, preset=preset)

    def play(seed: int) -> int:
        rng, moves = random.Random(seed), 0
        e.reset(seed=seed)
        for _ in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            e.step(pick(rng, legal_indices(obs["action_mask"])))
            moves += 1
        return moves

    return play


def gym(game_id: str, preset: str) -> Play:
    """Random games through one Gymnasium env (the solitaires), reset for each."""
    e = PlunderEnv(game_id, preset=preset)

    def play(seed: int) -> int:
        rng, moves, done = random.Random(seed), 0, False
        _, info = e.reset(seed=seed)
        while not done:
            _, _, done, _, info = e.step(pick(rng, legal_indices(info["action_mask"])))
            moves += 1
        return moves

    return play


def spiel(name: str, params: dict) -> Play:
    """Random games through pyspiel, chance event ``k`` drawing ``uniform(seed, k)`` over the
    state's ``chance_outcomes()`` (in the game's order, so the raw API's draw)."""
    game = pyspiel.load_game(name, params)

    def play(seed: int) -> int:
        state, rng, events, moves = game.new_initial_state(), random.Random(seed), 0, 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(chance.pick(state.chance_outcomes(), chance.uniform(seed, events)))
                events += 1
            else:
                state.apply_action(pick(rng, state.legal_actions()))
                moves += 1
        return moves

    return play


def per_move(sides: dict[str, Play], games: int, flip: bool) -> tuple[dict[str, float], dict[str, int]]:
    """Seconds per player move of each side over ``games`` games played in a row (as a
    training loop plays them), and its moves; the sides take turns, in the order given or
    reversed (``flip``)."""
    spent, moves = dict.fromkeys(sides, 0.0), dict.fromkeys(sides, 0)
    for name in (list(reversed(sides)) if flip else list(sides)):
        play = sides[name]
        gc.collect()
        gc.disable()  # a collection would fall on whichever side happened to be running
        start = time.process_time()
        moves[name] = sum(play(seed) for seed in range(games))
        spent[name] = time.process_time() - start
        gc.enable()
    return {name: spent[name] / max(moves[name], 1) for name in sides}, moves


def enough_games(raw_play: Play, least: int, seconds: float) -> int:
    """How many games (seeds 0, 1, ...) the raw API plays in ``seconds`` of CPU time, at
    least ``least``: every side then plays that many in each run, so that a run of a game
    of short games (Pillage's take microseconds) is long enough to time."""
    games, start = 0, time.process_time()
    while games < least or time.process_time() - start < seconds:
        raw_play(games)
        games += 1
    return games


def positions(game_id: str, preset: str, games: int) -> list[State]:
    """The positions where a player moves in the raw API's games of seeds ``0 .. games-1``, in play order."""
    game = entry(game_id).game_class.load(preset)
    seen: list[State] = []
    for seed in range(games):
        state, rng, events = game.new_initial_state(), random.Random(seed), 0
        while not state.is_terminal():
            if state.is_chance_node():
                state = state.apply(chance.draw(state, seed, events))
                events += 1
            else:
                seen.append(state)
                state = state.apply(pick(rng, state.legal_actions()))
    return seen


def parts(game_id: str, preset: str, games: int) -> dict[str, float]:
    """Seconds per move of what an adapter adds, over the positions of the raw API's games:
    the mover's observation, the mask (its listing of the legal actions left out: the raw
    API lists them too), and finding the mask's indices; each part timed in a row over the
    positions in play order (as the adapter's kept parts see them)."""
    game = entry(game_id).game_class.load(preset)
    seen = positions(game_id, preset, games)
    masks = [encoding(game).actions.mask(state) for state in seen]

    def observe() -> None:
        enc = encoding(game)
        for state in seen:
            enc.observe(state, state.current_player)

    def mask() -> None:
        actions = encoding(game).actions
        for state in seen:
            actions.mask(state)

    def listing() -> None:
        for state in seen:
            state.legal_actions()

    def indices() -> None:
        for m in masks:
            legal_indices(m)

    spent = {}
    for name, work in (("observation", observe), ("mask", mask), ("listing", listing), ("indices", indices)):
        gc.collect()
        gc.disable()
        start = time.process_time()
        work()
        spent[name] = (time.process_time() - start) / len(seen)
        gc.enable()
    spent["mask"] -= spent.pop("listing")
    return spent


def callbacks(game_id: str, preset: str, games: int) -> dict[str, float]:
    """How often, a player move, OpenSpiel's C++ calls back into the Python game's state
    in the OpenSpiel side's games (untimed: the methods are wrapped with a counter)."""
    counts: Counter[str] = Counter()
    names = ("current_player", "is_terminal", "_legal_actions", "_apply_action", "chance_outcomes")
    originals = {name: getattr(PlunderState, name) for name in names}

    def counted(name: str) -> Callable:
        def call(self: PlunderState, *args: Any) -> Any:
            counts[name] += 1
            return originals[name](self, *args)
        return call

    for name in names:
        setattr(PlunderState, name, counted(name))
    try:
        play = spiel(short_name(game_id), {"preset": preset})
        moves = sum(play(seed) for seed in range(games))
    finally:
        for name, method in originals.items():
            setattr(PlunderState, name, method)
    return {name: counts[name] / moves for name in names if counts[name]}


#: the games and presets of ``--vector`` (a short preset of each game, and the default of the batched ones)
VECTOR_CASES = [("pillage", "small"), ("pillage", "default"), ("pirates", "block"), ("hubs", "small"), ("profiteer", "short"),
                ("profiteer", "default"), ("crossroads", "2p")]


def vector_side(game_id: str, preset: str, copies: int, steps: int) -> Callable[[int], int]:
    """``steps`` steps of the vector env of ``copies`` copies from seed ``seed``; returns the moves."""
    envs = PlunderVectorEnv(game_id, num_envs=copies, preset=preset)

    def play(seed: int) -> int:
        rng = random.Random(seed)
        _, info = envs.reset(seed=seed)
        actions = np.zeros(copies, dtype=np.int64)
        for _ in range(steps):
            for i, mask in enumerate(info["action_mask"]):
                places = legal_indices(mask)
                actions[i] = pick(rng, places) if len(places) else 0
            _, _, _, _, info = envs.step(actions)
        return steps * copies

    return play


def singles_side(game_id: str, preset: str, copies: int, steps: int) -> Callable[[int], int]:
    """The same moves by ``copies`` single envs stepped in a loop, each reset (without a
    seed, as the vector env's autoreset does) the step after its game ended."""
    envs = [PlunderEnv(game_id, preset=preset) for _ in range(copies)]

    def play(seed: int) -> int:
        rng = random.Random(seed)
        masks = [e.reset(seed=seed + i)[1]["action_mask"] for i, e in enumerate(envs)]
        ended = [False] * copies
        for _ in range(steps):
            picks = []
            for mask in masks:
                places = legal_indices(mask)
                picks.append(pick(rng, places) if len(places) else 0)
            for i, e in enumerate(envs):
                if ended[i]:
                    _, info = e.reset()
                    ended[i] = False
                else:
                    _, _, terminated, truncated, info = e.step(picks[i])
                    ended[i] = terminated or truncated
                masks[i] = info["action_mask"]
        return steps * copies

    return play


def load() -> str:
    """The load averages over 1, 5 and 15 minutes."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def vector_bench(cases: list[tuple[str, str]], copies: int, steps: int, runs: int) -> None:
    """Print, per game, moves per second of the vector env and of the single envs in a loop."""
    print(f"load average before: {load()}", flush=True)
    for game_id, preset in cases:
        sides = {"vector": vector_side(game_id, preset, copies, steps),
                 "singles": singles_side(game_id, preset, copies, steps)}
        rates: dict[str, list[float]] = {name: [] for name in sides}
        for side in sides.values():  # untimed: a batch's compiled code is loaded once per process
            side(runs)
        for run in range(runs):
            for name in (reversed(list(sides)) if run % 2 else list(sides)):
                gc.collect()
                gc.disable()
                start = time.process_time()
                moves = sides[name](run)
                rates[name].append(moves / (time.process_time() - start))
                gc.enable()
        line = ", ".join(f"{name} {statistics.median(r):,.0f} ({min(r):,.0f}-{max(r):,.0f})" for name, r in rates.items())
        ratio = statistics.median(rates["vector"]) / statistics.median(rates["singles"])
        print(f"{game_id} {preset} ({copies} copies, {steps} steps, {runs} runs): moves per second of CPU time: "
              f"{line}; vector over singles {ratio:.2f}", flush=True)
    print(f"load average after: {load()}")


def main() -> None:
    """Print, per game, each adapter's time per move over the raw API's (or, with
    ``--vector``, the vector env's moves per second against single envs')."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=10, help="games per side and run, at least")
    parser.add_argument("--seconds", type=float, default=0.05,
                        help="more games if the raw API plays these many in less CPU time")
    parser.add_argument("--case", action="append", metavar="GAME:PRESET",
                        help="only these cases (e.g. pirates:classic); all by default")
    parser.add_argument("--vector", type=int, metavar="N",
                        help="time the vector env of N copies against N single envs instead")
    parser.add_argument("--steps", type=int, default=2000, help="with --vector: steps per run")
    args = parser.parse_args()
    if args.vector:
        chosen = [(g, p) for g, p in (case.split(":", 1) for case in args.case)] if args.case else VECTOR_CASES
        vector_bench(chosen, args.vector, args.steps, args.runs)
        return
    cases = [tuple(case.split(":", 1)) for case in args.case] if args.case else CASES
    for game_id, preset in cases:
        sides: dict[str, Play] = {"raw": raw(game_id, preset), "pettingzoo": aec(game_id, preset),
                                  "openspiel": spiel(short_name(game_id), {"preset": preset})}
        if entry(game_id).game_class.load(preset).num_players == 1:
            sides["gymnasium"] = gym(game_id, preset)
        if (game_id, preset) == ("pillage", "classic"):
            sides["dots_and_boxes"] = spiel("dots_and_boxes", {"num_rows": 3, "num_cols": 3})
        games = enough_games(sides["raw"], args.games, args.seconds)
        ratios: dict[str, list[float]] = {name: [] for name in sides if name != "raw"}
        raw_times: list[float] = []
        costs: dict[str, list[float]] = {"observation": [], "mask": [], "indices": []}
        for run in range(args.runs):
            times, moves = per_move(sides, games, flip=run % 2 == 1)
            other_games = [name for name in ratios if name != "dots_and_boxes" and moves[name] != moves["raw"]]
            raw_times.append(times["raw"])
            for name in ratios:
                ratios[name].append(times[name] / times["raw"])
            for name, spent in parts(game_id, preset, games).items():
                costs[name].append(spent)
        line = ", ".join(f"{name} {statistics.median(r):.2f} ({min(r):.2f}-{max(r):.2f})" for name, r in ratios.items())
        print(f"{game_id} {preset} ({games} games, raw {1e6 * statistics.median(raw_times):.1f} us a move): "
              f"time per move over the raw API's: {line}", flush=True)
        rest = statistics.median(raw_times) * (statistics.median(ratios["pettingzoo"]) - 1) \
            - sum(statistics.median(c) for c in costs.values())
        print("  what pettingzoo adds a move: " + ", ".join(
            f"{name} {1e6 * statistics.median(c):.1f} us" for name, c in costs.items())
            + f", the rest (the AEC cycle, the index's action) {1e6 * rest:.1f} us", flush=True)
        print("  openspiel's calls from C++ into the Python state a move: " + ", ".join(
            f"{name} {n:.1f}" for name, n in callbacks(game_id, preset, min(games, 20)).items()), flush=True)
        if other_games:  # an adapter that lists legal moves in another order picks other moves
            print(f"  (other games than the raw API's, {moves['raw']} moves there: "
                  + ", ".join(f"{name} {moves[name]}" for name in other_games) + ")")
    print(f"target: adapters under {TARGET}")


if __name__ == "__main__":
    main()
