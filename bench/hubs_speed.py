"""Hubs speed: legal-segment generation and random rounds per second, 24 and 60 dots.

Run from the repo root: ``.venv/bin/python bench/hubs_speed.py [--rounds N]``.

For each dot count, on the default 60x40 sheet with fresh random dots per round:

* candidates: the O(n^2) visible-pair generator against the O(n^3) all-pairs check;
* per move: the incremental generator (one conflict row per drawn segment, then the
  sorted legal list) against the brute-force O(n^2 * (n + m)) definition at the same
  positions (every Nth move, it is slow), and the ratio between them;
* random rounds per second through the public API (placement and segments).

Times are CPU seconds (``time.process_time``) so that other work on a shared machine
does not inflate them; the ratios are the figures to compare.
"""

from __future__ import annotations

import argparse
import random
import time

import plunder
from plunder.games.hubs.geometry import passes_through, visible_pairs
from plunder.games.hubs.paper import brute_force_legal
from plunder.games.hubs.rules import HubsState


def random_dots(rng: random.Random, n: int, width: int = 60, height: int = 40) -> list[tuple[int, int]]:
    """``n`` distinct random lattice points."""
    cells = rng.sample(range(width * height), n)
    return [(c % width, c // width) for c in cells]


def placed(n: int, dots: list[tuple[int, int]]) -> HubsState:
    """A state at the start of round 1's segment phase with ``dots``."""
    game = plunder.load_game("hubs", dots=n)
    state = game.new_initial_state()
    for x, y in dots:
        state = state.apply(game.point_action(x, y))
    assert isinstance(state, HubsState)
    return state


def bench(n: int, rounds: int, seed: int, every: int) -> None:
    rng = random.Random(seed)
    cand_fast = cand_slow = 0.0
    inc = brute = 0.0
    moves = checked = 0
    for _ in range(rounds):
        dots = random_dots(rng, n)
        t = time.process_time()
        visible_pairs(dots)
        cand_fast += time.process_time() - t
        t = time.process_time()
        [(i, j) for i in range(n) for j in range(i + 1, n)
         if not any(passes_through(dots[i], dots[j], p) for p in dots)]
        cand_slow += time.process_time() - t
        t = time.process_time()
        state = placed(n, dots)
        state.legal_actions()
        inc += time.process_time() - t
        while state.round == 0:
            if moves % every == 0:
                t = time.process_time()
                brute_force_legal(state.dots, state.segs)
                brute += time.process_time() - t
                checked += 1
            action = rng.choice(state.legal_actions())
            t = time.process_time()
            nxt = state.apply(action)
            nxt.legal_actions()
            inc += time.process_time() - t
            state = nxt  # type: ignore[assignment]
            moves += 1
    print(f"{n} dots, {rounds} rounds, {moves} segments drawn:")
    print(f"  candidate pairs: visible_pairs {cand_fast / rounds * 1e3:.2f} ms/round, "
          f"all-pairs check {cand_slow / rounds * 1e3:.2f} ms/round, ratio {cand_slow / cand_fast:.1f}x")
    print(f"  legal segments per move: incremental {inc / moves * 1e3:.3f} ms, "
          f"brute force {brute / checked * 1e3:.3f} ms (at {checked} of them), "
          f"ratio {brute / checked / (inc / moves):.1f}x")

    game = plunder.load_game("hubs", dots=n)
    played = 0
    t = time.process_time()
    while played < rounds:
        s = game.new_initial_state()
        while not s.is_terminal():
            s = s.apply(rng.choice(s.legal_actions()))
        played += game.rounds
    took = time.process_time() - t
    print(f"  random rounds (placement + segments): {played / took:.1f} rounds per CPU second")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10, help="rounds per dot count (even)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--brute-every", type=int, default=4, help="time the brute force at every Nth move")
    args = parser.parse_args()
    for n in (24, 60):
        bench(n, args.rounds, args.seed, args.brute_every)


if __name__ == "__main__":
    main()
