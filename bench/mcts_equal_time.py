"""Pillage MCTS strength at equal CPU time per move against OpenSpiel's C++ MCTSBot.

Run: .venv/bin/python bench/mcts_equal_time.py [--agent mcts:sims=1000] [--games 200]
     [--boards 3,4] [--seed 1000000] [--start 0] [--sims N] [--quick]

Equal time, measured in this run: first both sides search the same positions from real
games (``greedy`` against ``random``; see ``pillage_positions.py``), ours with ``--agent``
and OpenSpiel's bot (``RandomRolloutEvaluator(1)``, uct_c 2) with 1000 simulations; the
bot then gets the simulations that cost what one of our moves costs (CPU time of this
process). In the games that follow every move's CPU time is measured on both sides and
printed, so a drift (the games' positions are not the calibration's) shows. Seats alternate
game by game; game *g* seeds both sides with ``--seed`` + *g* (fresh seeds: nothing was
tuned on seeds from 1,000,000); ``--start G`` plays only games G.. of the run, so a run cut short
can be finished with the same seeds and seats. Win rate with a 95% Wilson interval; the headline target
(issue 16) is its lower end above 50%.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import plunder
from plunder.agents import make_agent
from plunder.games.pillage.openspiel_bridge import from_openspiel, to_openspiel
from plunder.games.pillage.rules import PillageGame
from plunder.simulate import wilson

from pillage_positions import openspiel_state, start_positions


def calibrate(game: PillageGame, spiel, spec: str, positions: int) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """(our CPU ms per move, OpenSpiel's CPU ms per 1000 simulations) over real-game positions."""
    import pyspiel

    pairs = [p for p in start_positions(game, 3 * positions, seed=9000) if len(p[0].legal_actions()) > 1][:positions]
    agent = make_agent(spec, game)
    ours = theirs = 0.0
    for i, (s, lines) in enumerate(pairs):
        t = openspiel_state(spiel, game, lines)
        bot = pyspiel.MCTSBot(spiel, pyspiel.RandomRolloutEvaluator(1, i), 2.0, 1000, 1000, False, i, False)
        start = time.process_time()
        agent.choose(s, random.Random(i))
        ours += time.process_time() - start
        start = time.process_time()
        bot.step(t)
        theirs += time.process_time() - start
    return ours / len(pairs) * 1000, theirs / len(pairs) * 1000


def play(game: PillageGame, spiel, spec: str, sims: int, games: range, seed: int, label: str) -> None:  # type: ignore[no-untyped-def]
    """Play the run's games ``games`` (game *g*: seed ``seed`` + *g*, our seat *g* % 2) and print
    the tally, the interval and each side's CPU per move."""
    import pyspiel

    tally = [0, 0, 0]
    ours_ms: list[float] = []
    theirs_ms: list[float] = []
    for g in games:
        ours_seat = g % 2
        agent = make_agent(spec, game)
        bot = pyspiel.MCTSBot(spiel, pyspiel.RandomRolloutEvaluator(1, seed + g), 2.0, sims, 1000, False, seed + g, False)
        rng = random.Random(seed + g)
        s, t = game.new_initial_state(), spiel.new_initial_state()
        while not s.is_terminal():
            start = time.process_time()
            if s.current_player == ours_seat:
                line = agent.choose(s, rng)
                ours_ms.append((time.process_time() - start) * 1000)
            else:
                line = game.lines[from_openspiel(game, bot.step(t))]
                theirs_ms.append((time.process_time() - start) * 1000)
            s = s.apply(line)
            t.apply_action(to_openspiel(game, line.edge))
        r = s.returns()[ours_seat]
        tally[0 if r > 0 else 1 if r == 0 else 2] += 1
        w, ti, lo_ = tally
        print(f"  game {g + 1}/{games.stop} (seed {seed + g}, ours seat {ours_seat}): {w}W {ti}T {lo_}L; CPU ms per move: ours {statistics.mean(ours_ms):.1f}, "
              f"OpenSpiel {statistics.mean(theirs_ms):.1f}", flush=True)
    w, ti, lo_ = tally
    played = len(games)
    low, high = wilson(w, played)
    print(f"RESULT {spec} vs MCTSBot({sims}) on unit {label}, games {games.start + 1}-{games.stop}: "
          f"{w}W {ti}T {lo_}L of {played}; win rate {w / played:.1%} (95% CI {low:.1%}-{high:.1%}); CPU ms per move: ours median "
          f"{statistics.median(ours_ms):.1f} mean {statistics.mean(ours_ms):.1f}, OpenSpiel median "
          f"{statistics.median(theirs_ms):.1f} mean {statistics.mean(theirs_ms):.1f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="mcts:sims=1000")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--boards", default="3,4", help="unit square sides")
    parser.add_argument("--seed", type=int, default=1_000_000)
    parser.add_argument("--positions", type=int, default=20, help="calibration positions")
    parser.add_argument("--start", type=int, default=0, help="first game of the run to play (seeds and seats as in the whole run)")
    parser.add_argument("--sims", type=int, default=0,
                        help="OpenSpiel's simulations (default: calibrated; given, the calibration is still measured and printed)")
    parser.add_argument("--quick", action="store_true", help="20 games, 8 calibration positions")
    args = parser.parse_args()
    if args.quick:
        args.games, args.positions = 20, 8
    import pyspiel

    for side in (int(x) for x in args.boards.split(",")):
        game = plunder.load_game("pillage", board=f"square:{side}x{side}", contents="unit")
        assert isinstance(game, PillageGame)
        spiel = pyspiel.load_game("dots_and_boxes", {"num_rows": side, "num_cols": side})
        ours, per_1000 = calibrate(game, spiel, args.agent, args.positions)
        calibrated = max(1, round(ours / per_1000 * 1000))
        sims = args.sims or calibrated
        print(f"unit {side}x{side}: calibration over {args.positions} real-game positions: ours {ours:.1f} CPU ms "
              f"per move, OpenSpiel {per_1000:.2f} CPU ms per 1000 simulations -> {calibrated} simulations; "
              f"OpenSpiel gets {sims}", flush=True)
        play(game, spiel, args.agent, sims, range(args.start, args.games), args.seed, f"{side}x{side}")


if __name__ == "__main__":
    main()
