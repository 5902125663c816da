"""Do the analysis engine's blunders lose what it says? Checked against ``hard`` playing on.

Run: .venv/bin/python bench/analysis_check.py [--games pillage,profiteer] [--seeds 8] [--blunders 3]
                                              [--records 1] [--first 1] [--moves 80] [--played medium] [--level hard]
                                              [--workers 2] [--no-solver]

For each game (at its default parameters; Pillage on a 4x4 board) ``--records`` games are
played by ``--played`` in every seat (seeds ``--first``, and on; ``easy`` makes more blunders to check than
``medium``), and the first ``--moves`` moves of each (0: all) are analysed at the game's default
budget. For up to ``--blunders`` moves of each record marked "blunder" (0: all of them), both
continuations -- after the move played and after the better move the engine names -- are played
to the end by ``--level`` in every seat, over ``--seeds`` seeds (the same seeds for both, so the
comparison is paired). Printed per blunder: the engine's loss, the loss measured by those games
(the mover's mean final margin after the better move minus after the move played, with its
standard error) and whether it reaches the game's blunder threshold. Then the share of blunders
that do, with its Wilson 95% interval.

Also checked: on a whole 2x3 Pillage board (every position within the solver's reach) every
decision's value is the solver's, for three seeds.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import time

from plunder import load_game, play
from plunder.agents import make_agent
from plunder.analysis import Settings, analyse, margins
from plunder.core.chance import sample_chance
from plunder.core.game import State
from plunder.core.record import truncated
from plunder.core.registry import entry
from plunder.games.pillage.hard import solve_state
from plunder.match import decision_rng

#: parameters per game (the default otherwise)
PARAMS = {"pillage": {"board": "square:4x4"}}


def finish(state: State, level: str, seed: int) -> list[float]:
    """Per seat, the final margins when ``level`` plays ``state`` to the end (chance from ``seed``)."""
    game = state.game
    agents = [make_agent(level, game) for _ in range(game.num_players)]
    chance = random.Random(seed)
    ply = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state = state.apply_unchecked(sample_chance(state, chance))
        else:
            seat = state.current_player
            state = state.apply_unchecked(agents[seat].choose(state, decision_rng(seed, seat, ply)))
        ply += 1
    return margins(state.scores())


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a share ``hits / n`` (95% at the default ``z``)."""
    if n == 0:
        return 0.0, 1.0
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def check_blunders(game_id: str, args: argparse.Namespace) -> tuple[int, int]:
    """Check the blunders of one game: (blunders checked, blunders confirmed)."""
    game = load_game(game_id, **PARAMS.get(game_id, {}))
    rules = entry(game_id).analysis
    assert rules is not None
    checked = confirmed = 0
    for record_seed in range(args.first, args.first + args.records):
        record = play(game, [args.played] * game.num_players, seed=record_seed)
        if args.moves:
            record = truncated(record, args.moves)
        began = time.perf_counter()
        result = analyse(record, workers=args.workers)
        marked = sorted((m for m in result.moves if m.mark == "blunder"), key=lambda m: -m.loss)
        print(f"{game_id}, record {record_seed}: {len(result.moves)} decisions analysed in "
              f"{time.perf_counter() - began:.0f} s, {len(marked)} blunders (threshold {rules.blunder:g} {rules.units})")
        for m in marked[: args.blunders or None]:
            state = game.new_initial_state()
            for move in record.moves[: m.ply]:
                state = state.apply_text(move.action)
            after_played, after_best = state.apply_text(m.played), state.apply_text(m.best)
            diffs = [finish(after_best, args.level, s)[m.seat] - finish(after_played, args.level, s)[m.seat]
                     for s in range(args.seeds)]
            mean = statistics.fmean(diffs)
            se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
            ok = mean >= rules.blunder
            checked, confirmed = checked + 1, confirmed + ok
            print(f"  move {m.ply + 1} {m.played} (better {m.best}): the engine's loss {m.loss:.1f}, measured by "
                  f"{args.level} over {args.seeds} seeds {mean:.1f} ± {se:.1f} {rules.units}: "
                  f"{'at least' if ok else 'below'} the threshold")
    low, high = wilson(confirmed, checked)
    print(f"{game_id}: {confirmed} of {checked} blunders confirmed (Wilson 95% interval {low:.0%} to {high:.0%})")
    return checked, confirmed


def check_solver() -> None:
    """Every decision of whole 2x3 Pillage games valued exactly (the engine's values are the solver's)."""
    game = load_game("pillage", board="square:2x3")
    for seed in range(3):
        record = play(game, ["random", "greedy"], seed=seed)
        result = analyse(record, Settings(sims=4))
        state, exact = game.new_initial_state(), 0
        by_ply = {m.ply: m for m in result.moves}
        for i, move in enumerate(record.moves):
            if move.by is not None:
                m = by_ply[i]
                after = state.apply_text(move.action)
                value = (margins(after.scores())[move.by] if after.is_terminal() else
                         solve_state(after).value * (1 if after.current_player == move.by else -1))
                assert m.exact and math.isclose(m.loss, solve_state(state).value - value), (seed, i)
                exact += 1
            state = state.apply_text(move.action)
        print(f"pillage 2x3, seed {seed}: {exact} of {len(result.moves)} decisions valued exactly, each the solver's")


def main() -> None:
    """Run the checks and print what they found, with the load."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="pillage,pirates,hubs,profiteer,crossroads")
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--blunders", type=int, default=3, help="blunders checked per record (0: all)")
    parser.add_argument("--records", type=int, default=1, help="games played and analysed per game")
    parser.add_argument("--first", type=int, default=1, help="the seed of the first record")
    parser.add_argument("--moves", type=int, default=80, help="moves of each record analysed (0: all)")
    parser.add_argument("--played", default="medium", help="the level playing the records analysed")
    parser.add_argument("--level", default="hard", help="the level playing both continuations on")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--no-solver", action="store_true", help="leave out the 2x3 Pillage check")
    args = parser.parse_args()
    print(f"load {os.getloadavg()[0]:.2f}")
    if not args.no_solver:
        check_solver()
    checked = confirmed = 0
    for game_id in args.games.split(","):
        c, k = check_blunders(game_id, args)
        checked, confirmed = checked + c, confirmed + k
    low, high = wilson(confirmed, checked)
    print(f"{confirmed} of {checked} blunders lose at least the threshold when {args.level} plays on "
          f"(Wilson 95% interval {low:.0%} to {high:.0%}); load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
