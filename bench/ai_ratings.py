"""The AI levels' fixed ratings: the levels (and ``random``) play each other over seeded games,
their results go through the server's rating model, and the ratings are written for the server.

Run: .venv/bin/python bench/ai_ratings.py [--games 10] [--hard-games 4] [--only pillage]
     [--seed 7000000] [--out src/plunder/web/ai_ratings.json]

Per game of two or more seats (its default variant): in a two-seat game every pair of
``random``, ``easy``, ``medium`` and ``hard`` plays ``--games`` games (``--hard-games`` for the
pairs with ``hard``, whose moves take seconds), seats alternating, game *k* of every pair on
seed ``--seed`` + *k*; in a game of more seats every game seats all four agents (seats rotated
game by game; a seat beyond the four is ``medium``, a seat short of them leaves the last out in
turn). The games are played round by round (round *k*: game *k* of every pair) and each result
updates the agents' ratings once, in that order, by :func:`plunder.web.skill.rate` from a
newcomer's rating, exactly as the server rates players. The agents decide as people meet them
(built once per game, :func:`plunder.match.decision_rng`; chance from the seed as the server
draws it). Prints per game the tally of every pair and each agent's mu, sigma and shown rating
(mu - 3 sigma), and writes the levels' mu and sigma (``random`` is an anchor only, not a level
the server seats) into ``--out`` with the command and the games behind them, keeping the other
games' entries already there (so runs for different games, in parallel, add up).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

import plunder
from plunder.core.game import Game
from plunder.core.registry import game_ids
from plunder.web.skill import MU, SIGMA, rate, ranks, shown

from ai_latency import load, play_timed

#: the agents measured: the anchor, then the levels the server seats
AGENTS = ("random", "easy", "medium", "hard")
#: the file the server reads (relative to the repository)
OUT = Path(__file__).resolve().parent.parent / "src" / "plunder" / "web" / "ai_ratings.json"


def tables(game: Game, games: int, hard_games: int) -> list[list[list[str]]]:
    """The seatings of every round: a list per round of the games (seat order of agent names)."""
    n = game.num_players
    rounds: list[list[list[str]]] = []
    for k in range(max(games, hard_games)):
        played: list[list[str]] = []
        if n == 2:
            for a, b in itertools.combinations(AGENTS, 2):
                if k < (hard_games if "hard" in (a, b) else games):
                    played.append([a, b] if k % 2 == 0 else [b, a])
        elif k < hard_games:
            turn = [AGENTS[(k + i) % len(AGENTS)] for i in range(len(AGENTS))]
            played.append((turn + ["medium"] * n)[:n])
        rounds.append(played)
    return rounds


def measure(game_id: str, games: int, hard_games: int, seed: int) -> dict[str, object]:
    """Play one game's rounds, print the tallies and ratings; the levels' entry for the file."""
    game = plunder.load_game(game_id)
    ratings = {a: (MU, SIGMA) for a in AGENTS}
    played = {a: 0 for a in AGENTS}
    tally: dict[tuple[str, str], list[int]] = {}
    began = time.process_time()
    for k, round_ in enumerate(tables(game, games, hard_games)):
        for specs in round_:
            final, _ = play_timed(game, specs, seed + k)
            places = ranks(final.returns(), final.scores())
            seated = list(dict.fromkeys(specs))  # an agent seated twice is rated by its best seat
            best = {a: min(p for s, p in zip(specs, places) if s == a) for a in seated}
            after = rate([ratings[a] for a in seated], [best[a] for a in seated])
            for a, r in zip(seated, after):
                ratings[a] = r
                played[a] += 1
            for a, b in itertools.combinations(seated, 2):
                key = (a, b) if AGENTS.index(a) < AGENTS.index(b) else (b, a)
                counts = tally.setdefault(key, [0, 0, 0])
                counts[0 if best[key[0]] < best[key[1]] else 1 if best[key[0]] == best[key[1]] else 2] += 1
        print(f"  {game_id} round {k + 1} done ({time.process_time() - began:.0f} s CPU; load {load()})", flush=True)
    print(f"{game_id} ({game.num_players} seats), {time.process_time() - began:.0f} s CPU:")
    for (a, b), (w, t, lo) in tally.items():
        print(f"  {a} vs {b}: {w}W {t}T {lo}L")
    for a in AGENTS:
        mu, sigma = (round(v, 1) for v in ratings[a])  # as the file keeps them, so "shown" is the server's
        print(f"  {a:7} mu {mu:7.1f}  sigma {sigma:5.1f}  shown {shown(mu):5d}  games {played[a]}")
    return {"seats": game.num_players, "games_per_pair": games, "hard_games_per_pair": hard_games, "seed": seed,
            "levels": {a: {"mu": round(ratings[a][0], 1), "sigma": round(ratings[a][1], 1), "games": played[a]}
                       for a in AGENTS if a != "random"},
            "random": {"mu": round(ratings["random"][0], 1), "sigma": round(ratings["random"][1], 1)}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per pair of agents")
    parser.add_argument("--hard-games", type=int, default=None, help="games per pair with hard (default --games)")
    parser.add_argument("--only", action="append", default=[], help="this game only (repeatable)")
    parser.add_argument("--seed", type=int, default=7_000_000)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    hard_games = args.games if args.hard_games is None else args.hard_games
    chosen = args.only or [g for g in game_ids() if plunder.load_game(g).num_players >= 2]
    print(f"games {chosen}, {args.games} per pair ({hard_games} with hard), seeds {args.seed}+; load {load()}",
          flush=True)
    for game_id in chosen:
        entry = measure(game_id, args.games, hard_games, args.seed)
        entry["command"] = "bench/ai_ratings.py " + " ".join(sys.argv[1:])
        # read just before writing: runs for different games (one per game, in parallel) add up
        found = json.loads(args.out.read_text()) if args.out.exists() else {}
        found[game_id] = entry
        args.out.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
    print(f"written {args.out}; load {load()}")


if __name__ == "__main__":
    main()
