"""The browser coach's marks against exact values, at every stage of real games.

Run: .venv/bin/python bench/coach_truth.py [--boards square:3x3,square:3x4,square:4x4] [--seeds 101-103]
                                           [--players easy,medium] [--truth-seconds 120] [--truth-lines 200]
                                           [--sims 32] [--truth-cache truths.json] [--show] [--no-exact]
     .venv/bin/python bench/coach_truth.py --game hubs [--boards tiny] [--seeds 101-106] [--no-exact]

Pillage (``--game pillage``, the default): per board (random valued contents: doubloons,
commodities and modifiers, the default mix), one game per seed is played by ``--players`` (seeds
from 101 on: disjoint from every seed the engine's budgets and thresholds were tuned on, which
are 1 to 12). Each game is analysed as the browser coach analyses it
(:data:`plunder.web.coach.COACH_SETTINGS`: ``--sims`` playouts a position, the solver where the
game's ``Analysis.exact`` says it reaches, one worker; ``--no-exact``: playouts alone, to see
what the playouts would mark), its CPU seconds counted. Then every decision with at most
``--truth-lines`` lines left is solved offline, with up to ``--truth-seconds`` (wall) a solve and
a solver of 1 GB kept for the game: the exact loss of the move played (the position's value less
the value after the move, for the mover) and the mark it earns by the game's thresholds.
Stages are thirds of the board's lines left.

Hubs (``--game hubs``): ``--boards`` names presets (``tiny``: 3 x 3, 6 dots, two rounds, which
the solver values whole, from the first dot; ``small``: 12 x 8, 8 dots, whose last round's
segment phase alone it values); the same, every decision the solver reaches solved offline by
the game's solver (``Strength.solve``, tables of 1 GB; on ``small`` the last round's segments). Stages are the rounds' phases (``r1 dots``, ``r1 segs`` ...).

Printed per board and stage: decisions, those the offline solve settled, the coach's exact
share, the decisions whose mark the coach proved by null-window tests (a bound of the loss),
exact blunders and how many the coach marked blunder or mistake, exact mistakes or blunders the
coach called good (the target: none), marks that are wrong (a mark other than the
exact one and not "unclear"), the "unclear" share, exact mistakes or blunders and how many the
coach marked mistake or blunder; and per board the coach's CPU seconds per game.

``--truth-cache FILE`` keeps the offline solves in a JSON file (by game, parameters and the
moves up to the move played): a rerun, or a run of changed coach code on the same games, solves
only what the file lacks (a decision left unsettled is tried again only with more seconds than
it had). ``--show`` prints every playout-valued decision the offline solve settled: the coach's
mark, estimate and standard error beside the exact loss and mark, ``!`` where the coach's mark
is wrong.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from plunder import play
from plunder.analysis import Settings, analyse
from plunder.core.errors import SearchLimitError
from plunder.core.game import Game, State
from plunder.core.registry import entry
from plunder.games.hubs.rules import HubsGame, HubsState
from plunder.games.hubs.solver import solve_state, within_reach
from plunder.games.pillage.rules import PillageGame, PillageState
from plunder.games.pillage.solver import Solver

#: Pillage's stages by lines left, as shares of the board's lines
STAGES = ("opening", "middle", "end")
#: a position's exact value for the player to move, solved within the seconds given
Solve = Callable[[State[Any], float], float]


def seeds(text: str) -> list[int]:
    """``101-103`` or ``101,105`` as a list of seeds."""
    if "-" in text:
        first, last = text.split("-")
        return list(range(int(first), int(last) + 1))
    return [int(s) for s in text.split(",")]


def stage(state: PillageState) -> str:
    """The stage of a position by its lines left: the first, second or last third."""
    share = len(state.open_lines) / state.game.num_edges
    return STAGES[0] if share > 2 / 3 else STAGES[1] if share > 1 / 3 else STAGES[2]


def hubs_stage(state: HubsState) -> str:
    """A Hubs position's stage: its round and phase."""
    return f"r{state.round + 1} {'dots' if state.placing else 'segs'}"


def hubs_stages(game: HubsGame) -> tuple[str, ...]:
    """Every stage of a Hubs match, in order."""
    return tuple(f"r{r} {phase}" for r in range(1, game.rounds + 1) for phase in ("dots", "segs"))


@dataclass
class Bench:
    """One game's side of the bench: its boards, their stages, and the offline truth."""

    #: the game of a board name
    load: Callable[[str], Game[Any]]
    #: the stages of a board's game, in order, and a position's stage
    stages: Callable[[Game[Any]], tuple[str, ...]]
    stage: Callable[[Any], str]
    #: a solve kept for one game (made at its first decision)
    solver: Callable[[Any, argparse.Namespace], Solve]
    #: whether the offline solve is tried on a position (else it is not settled)
    fits: Callable[[Any, argparse.Namespace], bool]


def pillage_solver(state: PillageState, args: argparse.Namespace) -> Solve:
    """A 1 GB solver kept for the game's contents (tried at most ``--truth-lines`` lines left)."""
    kept = Solver(state.game, state.contents, memory=1024)
    return lambda position, seconds: kept.solve(position, time_limit=seconds).value  # type: ignore[arg-type]


def hubs_solver(state: HubsState, args: argparse.Namespace) -> Solve:
    """The game's own solver (its tables are kept by the process)."""
    return lambda position, seconds: solve_state(position, time_limit=seconds, memory=1024).value  # type: ignore[arg-type]


def hubs_fits(state: HubsState, args: argparse.Namespace) -> bool:
    """Where the solver reaches in the coach, and any last round's segment phase (offline, with time)."""
    return within_reach(state) or (state.round == state.game.rounds - 1 and not state.placing)


BENCHES = {
    "pillage": Bench(lambda board: PillageGame.load(board=board, contents="random"), lambda game: STAGES,
                     stage, pillage_solver, lambda state, args: len(state.open_lines) <= args.truth_lines),
    "hubs": Bench(lambda board: HubsGame.load(preset=board), hubs_stages,  # type: ignore[arg-type]
                  hubs_stage, hubs_solver, hubs_fits),
}


def exact_loss(solve: Solve, state: State[Any], played: str, seconds: float) -> float | None:
    """The mover's exact loss by the move ``played`` (None where a solve runs past ``seconds``)."""
    mover = state.current_player
    try:
        best = solve(state, seconds)
        after = state.apply_text(played)
        if after.is_terminal():
            a, b = after.scores()
            value = a - b if mover == 0 else b - a
        else:
            child = solve(after, seconds)
            value = child if after.current_player == mover else -child
    except SearchLimitError:
        return None
    return best - value


class Truths:
    """Exact losses kept between runs in a JSON file (``None``: no file, nothing kept)."""

    def __init__(self, path: str | None) -> None:
        self.path = Path(path) if path else None
        self.known: dict[str, list[float | None]] = (
            json.loads(self.path.read_text()) if self.path is not None and self.path.exists() else {})

    @staticmethod
    def key(game: Game[Any], moves: list[str]) -> str:
        """The key of the decision whose move is ``moves[-1]``: the game, its parameters (a
        Pillage board and its contents) and the moves."""
        return hashlib.sha256(json.dumps([game.id, sorted(game.params.items()), moves]).encode()).hexdigest()

    def loss(self, key: str, seconds: float, solve: "Callable[[], float | None]") -> float | None:
        """The kept loss of ``key``, or ``solve()``'s (kept) where none is kept within ``seconds``."""
        kept = self.known.get(key)
        if kept is not None and (kept[0] is not None or kept[1] is not None and kept[1] >= seconds):
            return kept[0]
        found = solve()
        self.known[key] = [found, seconds]
        if self.path is not None:
            self.path.write_text(json.dumps(self.known))
        return found


def main() -> None:
    """Play, analyse as the coach does, solve offline, and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="pillage", choices=sorted(BENCHES))
    parser.add_argument("--boards", default="", help="Pillage boards (square:3x3,...) or Hubs presets (tiny)")
    parser.add_argument("--seeds", default="101-103")
    parser.add_argument("--players", default="easy,medium")
    parser.add_argument("--truth-seconds", type=float, default=120.0)
    parser.add_argument("--truth-lines", type=int, default=200,
                        help="Pillage: the most lines left at which the offline solve is tried (more: not settled)")
    parser.add_argument("--sims", type=int, default=32, help="the coach's playouts a position (web COACH_SIMS)")
    parser.add_argument("--truth-cache", default="", help="a JSON file keeping the offline solves between runs")
    parser.add_argument("--show", action="store_true", help="print each settled playout-valued decision")
    parser.add_argument("--no-exact", action="store_true", help="the coach values by playouts alone")
    args = parser.parse_args()
    truths = Truths(args.truth_cache)
    bench = BENCHES[args.game]
    boards = args.boards or ("square:3x3,square:3x4,square:4x4" if args.game == "pillage" else "tiny")
    warm = entry(args.game).strength.warm
    if warm is not None:
        warm()  # as the web's workers do at start: numba's compile or cache load is not a game's time
    analysis = entry(args.game).analysis
    assert analysis is not None
    print(f"{'board':<11} {'stage':<8} {'dec':>4} {'known':>5} {'exact':>5} {'proven':>6} {'blund':>5} {'caught':>6} "
          f"{'bad good':>8} {'wrong':>5} {'unclear':>7} {'mist+':>5} {'flagged':>7}")
    for board in boards.split(","):
        game = bench.load(board)
        rows: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        cpu: list[float] = []
        for seed in seeds(args.seeds):
            record = play(game, args.players.split(","), seed=seed)
            start = time.process_time()
            result = analyse(record, Settings(sims=args.sims, exact=not args.no_exact))
            cpu.append(time.process_time() - start)
            state = game.new_initial_state()
            solve: Solve | None = None
            made = False
            judged = {m.ply: m for m in result.moves}
            for i, move in enumerate(record.moves):
                if move.by is not None and i in judged:
                    if not made:
                        solve, made = bench.solver(state, args), True
                    kept = solve
                    row = rows[bench.stage(state)]
                    coach = judged[i]
                    row["decisions"] += 1
                    row["exact"] += coach.exact
                    row["proven"] += coach.bounded
                    row["unclear"] += coach.mark == "unclear"
                    key = Truths.key(game, [m.action for m in record.moves[: i + 1]])
                    loss = (truths.loss(key, args.truth_seconds,
                                        lambda: exact_loss(kept, state, move.action, args.truth_seconds))
                            if kept is not None and bench.fits(state, args) else None)
                    if loss is not None:
                        truth = analysis.mark(loss)
                        if args.show and not coach.exact:
                            flag = "!" if coach.mark not in (truth, "unclear") else " "
                            print(f"{flag} seed {seed} ply {i:>2} {bench.stage(state):<8} {move.action:<10} "
                                  f"coach {coach.mark:<10} {coach.loss:6.2f} ± {coach.error:5.2f} "
                                  f"({'proven' if coach.bounded else f'{coach.candidates} cand.'})  "
                                  f"exact {loss:6.2f} {truth}", flush=True)
                        row["known"] += 1
                        row["blunders"] += truth == "blunder"
                        row["errors"] += truth in ("mistake", "blunder")
                        row["flagged"] += truth in ("mistake", "blunder") and coach.mark in ("blunder", "mistake")
                        row["caught"] += truth == "blunder" and coach.mark in ("blunder", "mistake")
                        row["bad good"] += truth in ("mistake", "blunder") and coach.mark == "good"
                        row["wrong"] += coach.mark not in (truth, "unclear")
                state = state.apply_text(move.action)
            print(f"# {board} seed {seed}: coach {cpu[-1]:.1f} CPU s, {len(result.moves)} decisions", flush=True)
        for name in bench.stages(game):
            r = rows[name]
            d = max(r["decisions"], 1)
            print(f"{board:<11} {name:<8} {r['decisions']:>4} {r['known']:>5} {r['exact']:>5} {r['proven']:>6} "
                  f"{r['blunders']:>5} "
                  f"{r['caught']:>6} {r['bad good']:>8} {r['wrong']:>5} {r['unclear'] / d:>7.0%} "
                  f"{r['errors']:>5} {r['flagged']:>7}")
        print(f"{board:<11} coach CPU s per game: {', '.join(f'{c:.1f}' for c in cpu)} "
              f"(mean {sum(cpu) / len(cpu):.1f})", flush=True)


if __name__ == "__main__":
    main()
