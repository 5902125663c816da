"""Game-quality metrics after Browne (2008) and Ludii: drama, lead changes, decisiveness,
uncertainty, stability, branching factor, decision moves and score difference.

Each metric is computed per game and summed up over games as a mean with a 95% bootstrap
interval (:func:`summarise`, for a report; a sweep ranks on a normal interval over every game,
:func:`plunder.lab.sweep.metric_measured`). The value-based ones read the analysis engine's value curve
(:mod:`plunder.analysis`): per seat, the win probability after each decision where the
analysis knows one (else the margin in the game's units); the others read the replayed game.
``docs/lab.md`` gives each formula and the definition it follows.

A solitaire's curve is read as a race between the player's win probability ``p`` and the
game's ``1 - p``, so its drama and lead changes tell how often the outcome looked otherwise.

The lab's stored games carry their seed and agents, not their moves: :func:`metric_of_rows`
replays them (:func:`plunder.match.play`, which every fast path equals) and analyses them at a
small budget (:data:`METRIC_SIMS`), keeping each game's figures for the next call.
"""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import dataclass
from typing import Any, Sequence

from ..analysis import Engine, GameAnalysis, Settings
from ..core.errors import ParameterError
from ..core.game import Game, State
from ..core.record import Record, replay
from ..core.registry import entry, load_game
from ..match import play
from .store import Row, Run

#: the metrics, in words (``--rank`` takes their names; each is ranked "most first" but stability
#: and decisiveness, ranked least first: steadiest, decided latest is not asked for)
METRICS = {
    "drama": "how far behind the eventual winner was, on average, where it was behind",
    "lead": "share of moves after which the leader changed",
    "decisive": "share of the game played before the winner led for good (lower: decided earlier)",
    "uncertainty": "mean normalised entropy of the seats' win probabilities over the game",
    "stability": "mean change of a seat's value per move (lower: steadier)",
    "branching": "mean legal moves per decision",
    "decisions": "share of decisions offering a real choice (more than one distinct move)",
    "spread": "mean score difference between the first two seats over the game (alone: the score)",
}
#: metrics for which more is what a designer ranks first (``--rank drama``: most drama first)
MORE_IS_FIRST = ("drama", "lead", "uncertainty", "branching", "decisions")
#: metrics that are always a share (0 to 1): a sweep's precision is absolute for them
SHARES = ("lead", "decisive", "uncertainty", "decisions")
#: metrics in the curve's units: a share when the analysis knows win probabilities, else the game's margins
ON_CURVE = ("drama", "stability")
#: the key of a game's figures saying whether its curve was win probabilities (1.0) or margins (0.0)
BY_WINS = "by_wins"
#: playouts per position when the lab values its games (a small budget: many games are analysed)
METRIC_SIMS = 8
#: the most stored games a report's metrics replay and analyse (a sweep's metric rank reads every game)
METRIC_GAMES = 20
#: bootstrap resamples of an interval
RESAMPLES = 2000


@dataclass(frozen=True)
class Interval:
    """A mean over games with its 95% bootstrap interval and the games it stands on."""

    mean: float
    low: float
    high: float
    n: int


def curve(result: GameAnalysis) -> tuple[list[list[float]], bool]:
    """Per decision, the seats' values after it; and whether they are win probabilities."""
    by_wins = bool(result.moves) and all(m.wins is not None for m in result.moves)
    rows = [list(m.wins) if by_wins and m.wins is not None else list(m.margins) for m in result.moves]
    if result.game.num_players == 1:
        rows = [[v, 1 - v] for (v,) in rows] if by_wins else rows
    return rows, by_wins


def leader(values: Sequence[float]) -> int | None:
    """The seat with the highest value, or ``None`` on a tie for the top."""
    top = max(values)
    leaders = [i for i, v in enumerate(values) if v == top]
    return leaders[0] if len(leaders) == 1 else None


def winner(final: State[Any]) -> int | None:
    """The lone winner (a solitaire: 0 if won, 1 -- the game -- if lost), ``None`` on a tie."""
    returns = final.returns()
    if len(returns) == 1:
        return 0 if returns[0] > 0 else 1
    return leader(returns)


def drama(values: list[list[float]], win: int | None) -> float | None:
    """Mean of (top value - winner's value) over the positions where the winner trails: its value
    strictly below the top (tied for the top is not trailing, and such positions are not averaged);
    0 if it never trails. Browne's average over trailing positions, not Ludii's over every move."""
    if win is None or not values:
        return None
    behind = [max(v) - v[win] for v in values if v[win] < max(v)]
    return statistics.fmean(behind) if behind else 0.0


def lead_changes(values: list[list[float]]) -> float | None:
    """Changes between consecutive lone leaders (positions tied for the top have no leader and are
    left out of the sequence), over ``T - 1`` positions; Ludii compares sets of leaders instead."""
    leaders = [x for x in (leader(v) for v in values) if x is not None]
    if len(values) < 2 or single(values):
        return None
    changes = sum(a != b for a, b in zip(leaders, leaders[1:]))
    return changes / (len(values) - 1)


def single(values: list[list[float]]) -> bool:
    """Whether the curve has one seat only (a solitaire's margins): no leader to change."""
    return len(values[0]) < 2


def decisiveness(values: list[list[float]], win: int | None) -> float | None:
    """The share of the game before the winner led to the end: ``t* / T``, ``t*`` the first position
    from which the winner is the lone leader at every later position."""
    if win is None or not values or single(values):
        return None
    start = len(values)
    for t in range(len(values) - 1, -1, -1):
        if leader(values[t]) != win:
            break
        start = t
    return start / len(values)


def uncertainty(values: list[list[float]], by_wins: bool) -> float | None:
    """Mean over positions of the entropy of the seats' win probabilities made to sum to 1,
    divided by ``log(seats)`` (1: anyone may win; 0: one seat surely does)."""
    if not by_wins or not values or single(values):
        return None
    total = 0.0
    for v in values:
        mass = sum(v)
        shares = [x / mass for x in v] if mass > 0 else [1 / len(v)] * len(v)
        total += -sum(p * math.log(p) for p in shares if p > 0) / math.log(len(v))
    return total / len(values)


def stability(values: list[list[float]]) -> float | None:
    """Mean absolute change of a seat's value from one position to the next."""
    if len(values) < 2:
        return None
    steps = [abs(b - a) for v, w in zip(values, values[1:]) for a, b in zip(v, w)]
    return statistics.fmean(steps)


def choices(game: Game[Any], record: Record) -> tuple[float, float, float]:
    """From the replayed game: mean legal moves per decision, the share of decisions with more than
    one distinct move (the game's candidates, else the legal moves), and the mean score spread."""
    narrow = entry(game.id).strength.candidates
    state = game.new_initial_state()
    legal, real, spread = [], [], []
    for move in record.moves:
        if move.by is not None:
            legal.append(len(state.legal_actions()))
            real.append(len(narrow(state) if narrow is not None else state.legal_actions()) > 1)
        state = state.apply_text(move.action)
        scores = sorted(state.scores(), reverse=True)
        spread.append(scores[0] - scores[1] if len(scores) > 1 else scores[0])
    mean = statistics.fmean
    return (mean(legal) if legal else 0.0, mean(real) if real else 0.0, mean(spread) if spread else 0.0)


def game_metrics(result: GameAnalysis) -> dict[str, float | None]:
    """Every metric of one analysed game (``None`` where it does not apply: a tie has no winner),
    and under :data:`BY_WINS` whether its curve was win probabilities."""
    game, record = result.game, result.record
    values, by_wins = curve(result)
    win = winner(replay(record, game)) if record.moves else None
    branching, decisions, spread = choices(game, record)
    return {"drama": drama(values, win), "lead": lead_changes(values), "decisive": decisiveness(values, win),
            "uncertainty": uncertainty(values, by_wins), "stability": stability(values), "branching": branching,
            "decisions": decisions, "spread": spread, BY_WINS: float(by_wins)}


def summarise(per_game: Sequence[dict[str, float | None]], seed: int = 0) -> dict[str, Interval | None]:
    """Each metric's mean over the games where it applies, with a 95% percentile bootstrap interval
    (:data:`RESAMPLES` resamples of the games, seeded); ``None`` where no game gives it."""
    out: dict[str, Interval | None] = {}
    for name in METRICS:
        xs = [g[name] for g in per_game if g.get(name) is not None]
        values = [float(x) for x in xs if x is not None]
        out[name] = bootstrap(values, seed) if values else None
    return out


def bootstrap(values: Sequence[float], seed: int = 0) -> Interval:
    """The mean of ``values`` with its 95% percentile bootstrap interval."""
    rng = random.Random(seed)
    n = len(values)
    means = sorted(statistics.fmean(rng.choices(values, k=n)) for _ in range(RESAMPLES)) if n > 1 else [values[0]]
    return Interval(statistics.fmean(values), means[int(0.025 * (len(means) - 1))],
                    means[int(0.975 * (len(means) - 1))], n)


#: each stored game's metrics, by run and seed, so that a sweep's later looks analyse only new games
_seen: dict[tuple[Any, ...], dict[str, float | None]] = {}
#: the positions valued so far (the engine's memory cache)
_engine = Engine()


def require_analysis(game_id: str, asked: str) -> None:
    """Refuse ``asked`` (the option that wants the metrics) before any game is played when
    ``game_id`` offers no :class:`~plunder.core.capabilities.Analysis`, which every metric needs."""
    if entry(game_id).analysis is None:
        raise ParameterError(f"{asked} analyses the games, and {game_id} offers no analysis (no Analysis group "
                             "in its GameEntry): leave it out")


def metrics_of_rows(run: Run, rows: Sequence[Row], games: int | None = METRIC_GAMES) -> list[dict[str, float | None]]:
    """The metrics of the first ``games`` of ``rows`` (every row when None; games of ``run``),
    each replayed from its seed and agents and analysed at :data:`METRIC_SIMS` playouts a position."""
    game = load_game(run.game, **run.params)
    out = []
    for row in rows[:games] if games is not None else rows:
        key = (run.key(), row.seed, tuple(row.seats))
        if key not in _seen:
            record = play(game, row.seats, row.seed)
            _seen[key] = game_metrics(_engine.analyse(record, Settings(sims=METRIC_SIMS)))
        out.append(_seen[key])
    return out


def sentences(run: Run, rows: Sequence[Row], games: int = METRIC_GAMES) -> list[str]:
    """The metrics of ``rows`` in plain words, one sentence each, for the report."""
    if not rows or games < 1:
        return []
    found = summarise(metrics_of_rows(run, rows, games))
    n = min(games, len(rows))
    out = [f"Game-quality metrics (Browne 2008; Ludii) over {n} of the games, each analysed at {METRIC_SIMS} "
           "playouts a position; 95% bootstrap intervals (docs/lab.md):"]
    for name, words in METRICS.items():
        i = found[name]
        out.append(f"{name}: " + ("does not apply" if i is None else f"{i.mean:.3g} ({i.low:.3g} to {i.high:.3g}, "
                                                                     f"n={i.n})") + f" — {words}.")
    return out
