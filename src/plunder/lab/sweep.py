"""``plunder sweep``: every combination of parameter values, ranked, with sequential stopping.

Each variant is played in batches. After each batch a variant stops when the 95% interval of its
ranking measure is at most ``precision`` wide on each side, when it is clearly worse than another
variant, or when it reached the most games allowed; so games go where the ranking is still in
doubt. Games are stored (one row each), so an interrupted sweep resumes.

Every measure stops on itself: a game-quality metric (``--rank drama``) on the normal interval of
its mean over every game the variant played (each game replayed and analysed), not on the win
rate; the skill gap on an interval that is never clipped.

"Clearly worse" is a test with a stated family-wise error (:data:`FAMILY_ERROR`): over the whole
sweep, the chance that any variant as good as the best is ever called clearly worse is at most
5% (up to the normal approximation of the intervals). The error is spent evenly over the most
looks a sweep can take (``ceil(most / batch)``, a Bonferroni alpha-spending), and at each look
Holm's step-down runs over every ordered pair of variants: the p-value of "v is no worse than u"
is the smallest error at which v's interval lies wholly beyond u's (each interval then misses its
true value on that side with at most half that chance).
"""

from __future__ import annotations

import itertools
import math
import statistics
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Callable, Sequence

from ..core.errors import ParameterError
from ..core.registry import load_game
from .measures import Share, agents_of, game_stat, pct, seat_points, ties, wins
from .metrics import BY_WINS, METRICS, MORE_IS_FIRST, ON_CURVE, SHARES, metrics_of_rows, require_analysis
from .report import length_of
from ..backends import Backend, LocalPool
from .run import collect_many
from .store import Row, Run, Store

#: ranking measures, in words; each turns rows into (badness, low, high), lower being better
MEASURES = {
    "win": "highest win rate of the agents (over every seat)",
    "near50": "win rate nearest 50%",
    "seat": "first seat's points (a tie counted as a share of a win) nearest the even share",
    "ties": "fewest ties",
    "skill": "widest gap between the strongest and the weakest agent's win rates (most skill, least luck)",
    "short": "shortest games (mean length)",
    # the game-quality metrics (lab/metrics.py): most first, but the two where less is wanted
    **{name: ("most " if name in MORE_IS_FIRST else "least ") + words for name, words in METRICS.items()},
}


def parse_grid(specs: Sequence[str]) -> list[tuple[str, list[str]]]:
    """``["hand=8,10,12", "keep=6,8"]`` as ``[("hand", ["8","10","12"]), ("keep", ["6","8"])]``.

    Values that hold commas themselves (Pillage's ``mix``) are separated by semicolons instead:
    ``mix=doubloons:100;doubloons:35,commodity:45,modifier:20``.
    """
    axes = []
    for spec in specs:
        name, eq, values = spec.partition("=")
        options = [v.strip() for v in values.split(";" if ";" in values else ",") if v.strip()]
        if not eq or not name.strip() or not options:
            raise ParameterError(f"grid {spec!r} is not NAME=VALUE,VALUE,... (or NAME=VALUE;VALUE;...)")
        axes.append((name.strip(), options))
    return axes


def skill_gap(rows: Sequence[Row]) -> tuple[float, float, float]:
    """The strongest agent's win rate less the weakest's, with a conservative 95% interval.

    Luck versus skill, as the report measures it: the wider the gap between agents on the same
    variant, the more of the result the player controls. The interval runs from the strongest's low
    end less the weakest's high end to the other way round, each end a 97.5% Wilson interval, so
    the gap's misses with at most 5% whatever the dependence between the agents' results (they
    share games). It is never clipped: a low end below 0 says the agents may not differ at all.
    """
    weak, strong = measured("skill", rows, "").shares
    return gap_interval(weak, strong)


def lengths_of(rows: Sequence[Row], game_id: str) -> list[float]:
    """Every game's length (the game's statistics' length measure)."""
    measure = length_of(game_id)
    assert measure is not None, "sweep() refuses --rank short for a game with no length measure"
    return game_stat(rows, measure.stat)


def mean_length(rows: Sequence[Row], game_id: str) -> tuple[float, float, float]:
    """The mean game length with its 95% normal interval (infinite with no game: nothing is known)."""
    return measured("short", rows, game_id).at(FAMILY_ERROR)


#: the chance, over a whole sweep, that any variant as good as the best is called clearly worse
FAMILY_ERROR = 0.05
#: the z of the 95% intervals a sweep shows and its precision is measured on
Z95 = NormalDist().inv_cdf(0.975)


def z_of(error: float) -> float:
    """The z of a two-sided interval that misses with chance ``error`` (half on each side)."""
    return NormalDist().inv_cdf(1 - error / 2)


@dataclass(frozen=True)
class Measured:
    """A variant's ranking measure, summed up once from its rows, with its interval at any error.

    ``kind``: ``share`` (a proportion, ``flip`` when higher is better), ``distance`` (a proportion's
    distance from ``centre``), ``gap`` (the strongest less the weakest of ``shares``) or ``mean``
    (a mean over ``n`` games, ``flip`` when more is better). ``scale``: what ``--precision`` is a
    fraction of (1 for a share; a mean in the game's own units, its own size).
    """

    kind: str
    shares: tuple[Share, ...] = ()
    centre: float = 0.0
    flip: bool = False
    mean: float = 0.0
    sd: float = 0.0
    n: int = 0
    scale: float = 1.0

    def at(self, error: float) -> tuple[float, float, float]:
        """(estimate, low, high) of the badness, lower being better, missing with chance ``error``."""
        if self.kind == "mean":
            if self.n < 2:
                v = math.inf if not self.n else self.mean
                return v, v, v
            half = z_of(error) * self.sd / math.sqrt(self.n)
            if self.flip:
                return -self.mean, -self.mean - half, -self.mean + half
            return self.mean, self.mean - half, self.mean + half
        if self.kind == "gap":
            weak, strong = self.shares
            gap, lo, hi = gap_interval(weak, strong, error)
            return -gap, -hi, -lo
        share = self.shares[0]
        lo, hi = share.at(z_of(error))
        if self.kind == "distance":
            c = self.centre
            near = 0.0 if lo <= c <= hi else min(abs(lo - c), abs(hi - c))
            return abs(share.p - c), near, max(abs(lo - c), abs(hi - c))
        if self.flip:
            return 1 - share.p, 1 - hi, 1 - lo
        return share.p, lo, hi

    def half(self) -> float:
        """The half-width of the 95% interval of what is estimated (the proportion, the gap, the mean
        length or metric): the larger of its two sides."""
        if self.kind in ("mean", "gap"):
            est, lo, hi = self.at(FAMILY_ERROR)
            return max(est - lo, hi - est)
        return self.shares[0].half


def gap_interval(weak: Share, strong: Share, error: float = FAMILY_ERROR) -> tuple[float, float, float]:
    """The gap ``strong - weak`` with an interval missing with chance at most ``error``: each end's
    Wilson interval misses with half of it (a union bound, so it holds however the two agents'
    results depend on each other), unclipped."""
    z = z_of(error / 2)
    (weak_lo, weak_hi), (strong_lo, strong_hi) = weak.at(z), strong.at(z)
    return strong.p - weak.p, strong_lo - weak_hi, strong_hi - weak_lo


#: how a metric rank gets each game's metrics (run, rows) -> one mapping a game: every game replayed
#: and analysed; the stopping rule's simulations draw them instead
PerGame = Callable[[Run, Sequence[Row]], list[dict[str, float | None]]]


def every_game(run: Run, rows: Sequence[Row]) -> list[dict[str, float | None]]:
    """The metrics of every one of ``rows`` (a sweep ranks on all its games, not a sample)."""
    return metrics_of_rows(run, rows, None)


def metric_measured(name: str, per_game: Sequence[dict[str, float | None]]) -> Measured:
    """The metric ``name`` over the games where it applies: its mean with a normal interval; the
    precision is absolute for a share, else a fraction of the mean (a metric in the game's units)."""
    values = [float(v) for g in per_game if (v := g.get(name)) is not None]
    share = name in SHARES or (name in ON_CURVE and bool(per_game) and all(g.get(BY_WINS) for g in per_game))
    mean = statistics.fmean(values) if values else 0.0
    return Measured("mean", mean=mean, sd=statistics.stdev(values) if len(values) > 1 else 0.0, n=len(values),
                    flip=name in MORE_IS_FIRST, scale=1.0 if share else abs(mean))


def measured(measure: str, rows: Sequence[Row], game_id: str, run: Run | None = None,
             per_game: PerGame = every_game) -> Measured:
    """The ranking measure ``measure`` of ``rows`` (games of ``game_id``), summed up; a game-quality
    metric reads ``per_game`` of the variant's ``run``."""
    if measure in METRICS:
        assert run is not None, "a game-quality metric replays the variant's games: give its run"
        return metric_measured(measure, per_game(run, rows))
    players = len(rows[0].seats) if rows else 1
    if measure == "ties":
        return Measured("share", (ties(rows),))
    if measure == "seat":
        return Measured("distance", (seat_points(rows, 0),), 1 / players)
    if measure == "skill":
        shares = sorted((wins(rows, agent) for agent in agents_of(rows)), key=lambda s: s.p)
        return Measured("gap", (shares[0], shares[-1]))
    if measure == "short":
        lengths = lengths_of(rows, game_id)
        mean = statistics.fmean(lengths) if lengths else 0.0
        return Measured("mean", mean=mean, sd=statistics.stdev(lengths) if len(lengths) > 1 else 0.0, n=len(lengths),
                        scale=abs(mean))
    if measure == "near50":
        return Measured("distance", (wins(rows),), 0.5)
    return Measured("share", (wins(rows),), flip=True)


def separation(worse: Measured, better: Measured, largest: float = 1.0) -> float:
    """The p-value of "``worse`` is no worse than ``better``": the smallest error at which the
    interval of ``worse`` lies wholly above that of ``better``; 1 when it does not at ``largest``
    (a caller that rejects nothing above ``largest`` needs no closer value)."""

    def apart(error: float) -> bool:
        return worse.at(error)[1] > better.at(error)[2]

    if not apart(largest):
        return 1.0
    lo_t, hi_t = math.log(1e-12), math.log(largest)  # apart at error e^hi_t; searched down to e^lo_t
    if apart(1e-12):
        return 1e-12
    for _ in range(30):
        mid = (lo_t + hi_t) / 2
        if apart(math.exp(mid)):
            hi_t = mid
        else:
            lo_t = mid
    return math.exp(hi_t)


#: how many of the best-looking variants each variant is tested against (the other pairs count
#: in Holm's family with p-value 1, which only makes the test more cautious)
RIVALS = 3


def clearly_worse(summaries: Sequence[Measured], error: float) -> set[int]:
    """Indices of the variants Holm's step-down calls worse than some other variant at family-wise
    ``error``, over the family of every ordered pair."""
    family = len(summaries) * (len(summaries) - 1)
    if family == 0:
        return set()
    rivals = sorted(range(len(summaries)), key=lambda k: summaries[k].at(FAMILY_ERROR)[2])[:RIVALS]
    largest = error / (family - len(summaries) + 1)  # Holm rejects no p-value above this
    tests = sorted((min(separation(summaries[v], summaries[u], largest) for u in rivals if u != v), v)
                   for v in range(len(summaries)))
    out = set()
    for i, (p, v) in enumerate(tests):
        if p > error / (family - i):
            break
        out.add(v)
    return out


def badness(measure: str, rows: Sequence[Row], game_id: str) -> tuple[float, float, float]:
    """The ranking measure of ``rows`` (games of ``game_id``) as (estimate, low, high), lower being better."""
    return measured(measure, rows, game_id).at(FAMILY_ERROR)


def shown(measure: str, rows: Sequence[Row], game_id: str, run: Run | None = None) -> tuple[float, str, str]:
    """What a heat-map cell shows for ``measure``: the value, its format and the map's title (a
    game-quality metric needs the variant's ``run``, to replay its games)."""
    if measure in METRICS and run is not None:
        metric = measured(measure, rows, game_id, run)
        return (metric.mean if metric.n else math.nan), "{:.3g}", METRICS[measure]
    if measure == "seat":
        return seat_points(rows, 0).p, "{:.0%}", "first seat's points (a tie counts a share)"
    if measure == "ties":
        return ties(rows).p, "{:.0%}", "ties"
    if measure == "skill":
        return skill_gap(rows)[0], "{:.0%}", "strongest less weakest agent's win rate"
    if measure == "short":
        unit = length_of(game_id)
        assert unit is not None, "sweep() refuses --rank short for a game with no length measure"
        return mean_length(rows, game_id)[0], "{:.1f}", f"mean length ({unit.unit})"
    return wins(rows).p, "{:.0%}", "win rate"


def reference(measure: str, cells: Sequence[float], players: int) -> tuple[float, str]:
    """What a heat-map's colours are measured from: the even share (``seat``), 50% (``near50``),
    else the median of the grid's cells."""
    if measure == "seat":
        return 1 / players, f"the even share {1 / players:.0%}"
    if measure == "near50":
        return 0.5, "50%"
    return statistics.median(cells), "the grid's median"


def narrow(summary: Measured, precision: float) -> bool:
    """Whether the 95% interval of what is estimated is within ``precision`` on each side.

    The half-width is the estimate's own (a distance from 50% or the even share is measured on the
    proportion's interval); a length (``short``) or a metric in the game's units is compared with
    ``precision`` times its mean (:attr:`Measured.scale`). A mean of fewer than two games is never narrow.
    """
    return (summary.kind != "mean" or summary.n > 1) and summary.half() <= precision * summary.scale


@dataclass
class Variant:
    """One combination of the grid and what its games show so far."""

    values: dict[str, str]
    run: Run
    rows: list[Row] = field(default_factory=list)
    status: str = "playing"

    def measure(self, name: str, per_game: PerGame = every_game) -> tuple[float, float, float]:
        """The ranking measure so far, as (badness, low, high), lower being better."""
        return measured(name, self.rows, self.run.game, self.run, per_game).at(FAMILY_ERROR)


def check_rank(game_id: str, agents: Sequence[str], measure: str) -> None:
    """Refuse, before any game is played, a ranking ``measure`` that games of ``game_id`` by
    ``agents`` cannot give: skill among fewer than two agents, the length of a game with no
    length measure, a game-quality metric of a game that offers no analysis."""
    if measure == "skill" and len(set(agents)) < 2:
        raise ParameterError("--rank skill compares agents: give two agents or more (--agents weak,strong)")
    if measure == "short" and length_of(game_id) is None:
        raise ParameterError(f"--rank short: {game_id}'s statistics have no length measure")
    if measure in METRICS:
        require_analysis(game_id, f"--rank {measure}")


def sweep(store: Store, game_id: str, base: dict[str, str], axes: Sequence[tuple[str, list[str]]],
          agents: Sequence[str], measure: str, batch: int, most: int, precision: float, seed: int = 0,
          workers: int = 1, progress: Callable[[int], None] | None = None,
          backend: Backend | None = None) -> list[Variant]:
    """Play every combination of ``axes`` over ``base`` parameters until each stops; best first.

    Games are played on ``backend``, else on ``workers`` local processes kept for the whole sweep.
    """
    if backend is None:
        with LocalPool(workers) as pool:
            return sweep(store, game_id, base, axes, agents, measure, batch, most, precision, seed,
                         progress=progress, backend=pool)
    check_rank(game_id, agents, measure)
    variants = []
    for combo in itertools.product(*(values for _, values in axes)):
        values = {name: v for (name, _), v in zip(axes, combo)}
        game = load_game(game_id, **{**base, **values})  # refuses a bad value before any game is played
        variants.append(Variant(values, Run(game_id, dict(game.params), tuple(agents), seed)))
    def fetch(wanted: Sequence[tuple[Variant, int]]) -> list[list[Row]]:
        return collect_many(store, [(v.run, games) for v, games in wanted], progress=progress, backend=backend)

    play_rounds(variants, measure, game_id, batch, most, precision, fetch)
    return sorted(variants, key=lambda v: v.measure(measure)[0])


#: how a sweep gets games: for each (variant, games) the variant's first ``games`` rows
Fetch = Callable[[Sequence[tuple[Variant, int]]], list[list[Row]]]


def play_rounds(variants: Sequence[Variant], measure: str, game_id: str, batch: int, most: int, precision: float,
                fetch: Fetch, per_game: PerGame = every_game) -> None:
    """Give every variant still playing its next ``batch`` games from ``fetch`` until each stops.

    The games come from ``fetch`` (and a metric's figures from ``per_game``) so the stopping rule
    can be checked on outcomes drawn without playing (tests simulate thousands of sweeps).
    """
    looks = max(1, math.ceil(most / batch))
    while any(v.status == "playing" for v in variants):
        # every variant still playing gets its next batch in one go, so the backend's workers
        # share all of them
        playing = [v for v in variants if v.status == "playing"]
        for v, rows in zip(playing, fetch([(v, min(most, len(v.rows) + batch)) for v in playing])):
            v.rows = rows
        summaries = [measured(measure, v.rows, game_id, v.run, per_game) for v in variants]
        worse = clearly_worse(summaries, FAMILY_ERROR / looks)
        for k, v in enumerate(variants):
            if v.status != "playing":
                continue
            if k in worse:
                v.status = "separated"
            elif narrow(summaries[k], precision):
                v.status = "narrow"
            elif len(v.rows) >= most:
                v.status = "most games"


def length(rows: Sequence[Row], game_id: str) -> float | None:
    """The median game length, where the game's statistics measure one."""
    measured = length_of(game_id)
    if measured is None:
        return None
    key = measured.stat
    values = [float(r.stats[key]) for r in rows if key in r.stats]
    return statistics.median(values) if values else None


def ranked_column(measure: str, v: Variant, game_id: str) -> dict[str, str]:
    """The column of what a metric or length rank ranks on (the other measures have theirs in
    every table): its mean with the 95% interval the stopping rule reads, and the games it stands on."""
    if measure not in METRICS and measure != "short":
        return {}
    found = measured(measure, v.rows, game_id, v.run)
    name = f"{measure} (95%)" if measure in METRICS else "mean length (95%)"
    if found.n < 2:
        return {name: "-" if not found.n else f"{found.mean:.3g} (n=1)"}
    est, lo, hi = found.at(FAMILY_ERROR)
    if found.flip:
        est, lo, hi = -est, -hi, -lo
    return {name: f"{est:.3g} ({lo:.3g} to {hi:.3g}, n={found.n})"}


def table(variants: Sequence[Variant], game_id: str, measure: str = "win") -> list[dict[str, str]]:
    """One row of words per variant, best first: values, games, the ranked metric or mean length
    (``measure``) with its interval, win rate (not in self-play), the first seat's points (a tie
    shares the win), ties, length, the gap between the strongest and weakest agents (when there are
    two or more), why it stopped."""
    out = []
    for v in variants:
        w, first = wins(v.rows), seat_points(v.rows, 0)
        lo, hi = w.interval
        players = len(v.rows[0].seats) if v.rows else 1
        med = length(v.rows, game_id)
        skill = len(agents_of(v.rows)) > 1
        gap, lo_gap, hi_gap = skill_gap(v.rows) if skill else (0.0, 0.0, 0.0)
        # one agent in every seat wins 1/players of the seats by construction: no column for that
        self_play = players > 1 and not skill
        rate = {} if self_play else {"win rate (95%)": f"{pct(w.p)} ({pct(lo)}-{pct(hi)})"}
        out.append({**v.values, "games": str(len(v.rows)), **ranked_column(measure, v, game_id), **rate,
                    "first seat": first.words() if players > 1 else "-",
                    "ties": ties(v.rows).words() if players > 1 else "-",
                    "median length": "-" if med is None else f"{med:g}",
                    **({"strongest - weakest": f"{pct(gap)} ({pct(lo_gap)}-{pct(hi_gap)})"} if skill else {}),
                    "stopped": v.status})
    return out
