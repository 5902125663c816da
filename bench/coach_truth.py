"""The browser coach's marks against exact values, at every stage of real games.

Run: .venv/bin/python bench/coach_truth.py [--boards square:3x3,square:3x4,square:4x4] [--seeds 101-103]
                                           [--players easy,medium] [--truth-seconds 120] [--truth-lines 200]
                                           [--sims 32] [--truth-cache truths.json] [--show]

Per board (Pillage, random valued contents: doubloons, commodities and modifiers, the default
mix), one game per seed is played by ``--players`` (seeds from 101 on: disjoint from every seed
the engine's budgets and thresholds were tuned on, which are 1 to 12). Each game is analysed as
the browser coach analyses it (:data:`plunder.web.coach.COACH_SETTINGS`: ``--sims`` playouts a
position, the solver where the game's ``Analysis.exact`` says it reaches, one worker), its CPU
seconds counted. Then every decision with at most ``--truth-lines`` lines left is solved
offline, with up to ``--truth-seconds`` (wall) a solve and a solver of 1 GB kept for the game: the exact loss of the move played (the position's value
less the value after the move, for the mover) and the mark it earns by the game's thresholds.

Printed per board and stage (lines left, in thirds of the board's lines): decisions, those the
offline solve settled, the coach's exact share, exact blunders and how many the coach marked
blunder or mistake, exact mistakes or blunders the coach called good (the target: none), marks
that are wrong (a mark other than the exact one and not "unclear"), the "unclear" share; and per
board the coach's CPU seconds per game.

``--truth-cache FILE`` keeps the offline solves in a JSON file (by board, contents and the moves
up to the move played): a rerun, or a run of changed coach code on the same games, solves only
what the file lacks (a decision left unsettled is tried again only with more seconds than it
had). ``--show`` prints every playout-valued decision the offline solve settled: the coach's
mark, estimate and standard error beside the exact loss and mark, ``!`` where the coach's mark
is wrong.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from collections import defaultdict
from typing import Callable
from pathlib import Path

from plunder import play
from plunder.analysis import Settings, analyse
from plunder.core.errors import SearchLimitError
from plunder.core.registry import entry
from plunder.games.pillage.rules import PillageGame, PillageState
from plunder.games.pillage.solver import Solver

#: stages by lines left, as shares of the board's lines
STAGES = ("opening", "middle", "end")


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


def exact_loss(solver: Solver, state: PillageState, played: str, seconds: float) -> float | None:
    """The mover's exact loss by the move ``played`` (None where a solve runs past ``seconds``)."""
    mover = state.current_player
    try:
        best = solver.solve(state, time_limit=seconds).value
        after = state.apply_text(played)
        if after.is_terminal():
            a, b = after.scores()
            value = a - b if mover == 0 else b - a
        else:
            child = solver.solve(after, time_limit=seconds).value
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
    def key(game: PillageGame, moves: list[str]) -> str:
        """The key of the decision whose move is ``moves[-1]``: the board, its contents and the moves."""
        return hashlib.sha256(json.dumps([sorted(game.params.items()), moves]).encode()).hexdigest()

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
    parser.add_argument("--boards", default="square:3x3,square:3x4,square:4x4")
    parser.add_argument("--seeds", default="101-103")
    parser.add_argument("--players", default="easy,medium")
    parser.add_argument("--truth-seconds", type=float, default=120.0)
    parser.add_argument("--truth-lines", type=int, default=200,
                        help="the most lines left at which the offline solve is tried (more: not settled)")
    parser.add_argument("--sims", type=int, default=32, help="the coach's playouts a position (web COACH_SIMS)")
    parser.add_argument("--truth-cache", default="", help="a JSON file keeping the offline solves between runs")
    parser.add_argument("--show", action="store_true", help="print each settled playout-valued decision")
    args = parser.parse_args()
    truths = Truths(args.truth_cache)
    warm = entry("pillage").strength.warm
    if warm is not None:
        warm()  # as the web's workers do at start: numba's compile or cache load is not a game's time
    analysis = entry("pillage").analysis
    assert analysis is not None
    print(f"{'board':<11} {'stage':<8} {'dec':>4} {'known':>5} {'exact':>5} {'blund':>5} {'caught':>6} "
          f"{'bad good':>8} {'wrong':>5} {'unclear':>7}")
    for board in args.boards.split(","):
        game = PillageGame.load(board=board, contents="random")
        rows: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        cpu: list[float] = []
        for seed in seeds(args.seeds):
            record = play(game, args.players.split(","), seed=seed)
            start = time.process_time()
            result = analyse(record, Settings(sims=args.sims))
            cpu.append(time.process_time() - start)
            state = game.new_initial_state()
            solver: Solver | None = None
            judged = {m.ply: m for m in result.moves}
            for i, move in enumerate(record.moves):
                if move.by is not None and i in judged:
                    assert isinstance(state, PillageState)
                    if solver is None:
                        solver = Solver(game, state.contents, memory=1024)
                    kept = solver
                    row = rows[stage(state)]
                    coach = judged[i]
                    row["decisions"] += 1
                    row["exact"] += coach.exact
                    row["unclear"] += coach.mark == "unclear"
                    key = Truths.key(game, [m.action for m in record.moves[: i + 1]])
                    loss = (truths.loss(key, args.truth_seconds,
                                        lambda: exact_loss(kept, state, move.action, args.truth_seconds))
                            if len(state.open_lines) <= args.truth_lines else None)
                    if loss is not None:
                        truth = analysis.mark(loss)
                        if args.show and not coach.exact:
                            flag = "!" if coach.mark not in (truth, "unclear") else " "
                            print(f"{flag} seed {seed} ply {i:>2} lines {len(state.open_lines):>2} {move.action:<10} "
                                  f"coach {coach.mark:<10} {coach.loss:6.2f} ± {coach.error:5.2f} "
                                  f"({coach.candidates} cand.)  exact {loss:6.2f} {truth}", flush=True)
                        row["known"] += 1
                        row["blunders"] += truth == "blunder"
                        row["caught"] += truth == "blunder" and coach.mark in ("blunder", "mistake")
                        row["bad good"] += truth in ("mistake", "blunder") and coach.mark == "good"
                        row["wrong"] += coach.mark not in (truth, "unclear")
                state = state.apply_text(move.action)
            print(f"# {board} seed {seed}: coach {cpu[-1]:.1f} CPU s, {len(result.moves)} decisions", flush=True)
        for name in STAGES:
            r = rows[name]
            d = max(r["decisions"], 1)
            print(f"{board:<11} {name:<8} {r['decisions']:>4} {r['known']:>5} {r['exact']:>5} {r['blunders']:>5} "
                  f"{r['caught']:>6} {r['bad good']:>8} {r['wrong']:>5} {r['unclear'] / d:>7.0%}")
        print(f"{board:<11} coach CPU s per game: {', '.join(f'{c:.1f}' for c in cpu)} "
              f"(mean {sum(cpu) / len(cpu):.1f})", flush=True)


if __name__ == "__main__":
    main()
