"""``plunder sweep``: every combination of parameter values, ranked, with sequential stopping.

Each variant is played in batches. After each batch a variant stops when the 95% interval of the
ranking measure is narrow enough, when it is clearly separated from the best variant (their
intervals no longer overlap), or when it reached the most games allowed; so games go where the
ranking is still in doubt. Games are stored (one row each), so an interrupted sweep resumes.
"""

from __future__ import annotations

import itertools
import math
import statistics
from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..core.errors import ParameterError
from ..core.registry import load_game
from .measures import Share, agents_of, game_stat, pct, ties, wins
from .metrics import METRICS, MORE_IS_FIRST, metric_badness, metrics_of_rows, summarise
from .report import length_of
from ..backends import Backend, LocalPool
from .run import collect_many
from .store import Row, Run, Store

#: ranking measures, in words; each turns rows into (badness, low, high), lower being better
MEASURES = {
    "win": "highest win rate of the agents (over every seat)",
    "near50": "win rate nearest 50%",
    "seat": "first seat's win rate nearest the even share",
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


def distance(share: Share, centre: float) -> tuple[float, float, float]:
    """How far a proportion is from ``centre``, with the interval of that distance."""
    lo, hi = share.interval
    near = 0.0 if lo <= centre <= hi else min(abs(lo - centre), abs(hi - centre))
    return abs(share.p - centre), near, max(abs(lo - centre), abs(hi - centre))


def skill_gap(rows: Sequence[Row]) -> tuple[float, float, float]:
    """The strongest agent's win rate less the weakest's, with a conservative 95% interval.

    Luck versus skill, as the report measures it: the wider the gap between agents on the same
    variant, the more of the result the player controls. The interval runs from the strongest's low
    end less the weakest's high end to the other way round (wider than a paired interval).
    """
    shares = sorted((wins(rows, agent) for agent in agents_of(rows)), key=lambda s: s.p)
    weak, strong = shares[0], shares[-1]
    (weak_lo, weak_hi), (strong_lo, strong_hi) = weak.interval, strong.interval
    return strong.p - weak.p, max(0.0, strong_lo - weak_hi), strong_hi - weak_lo


def mean_length(rows: Sequence[Row], game_id: str) -> tuple[float, float, float]:
    """The mean game length with its 95% normal interval (the game's statistics' length measure)."""
    measured = length_of(game_id)
    assert measured is not None, "sweep() refuses --rank short for a game with no length measure"
    values = game_stat(rows, measured.stat)
    if len(values) < 2:
        return (math.inf, math.inf, math.inf) if not values else (values[0], values[0], values[0])
    m, half = statistics.fmean(values), 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return m, m - half, m + half


def badness(measure: str, rows: Sequence[Row], game_id: str) -> tuple[float, float, float]:
    """The ranking measure of ``rows`` (games of ``game_id``) as (estimate, low, high), lower being better."""
    players = len(rows[0].seats) if rows else 1
    if measure == "ties":
        t = ties(rows)
        return (t.p, *t.interval)
    if measure == "seat":
        return distance(wins(rows, seat=0), 1 / players)
    if measure == "skill":
        gap, lo, hi = skill_gap(rows)
        return -gap, -hi, -lo
    if measure == "short":
        return mean_length(rows, game_id)
    w = wins(rows)
    if measure == "near50":
        return distance(w, 0.5)
    lo, hi = w.interval
    return 1 - w.p, 1 - hi, 1 - lo


def shown(measure: str, rows: Sequence[Row], game_id: str, run: Run | None = None) -> tuple[float, str, str]:
    """What a heat-map cell shows for ``measure``: the value, its format and the map's title (a
    game-quality metric needs the variant's ``run``, to replay its games)."""
    if measure in METRICS and run is not None:
        found = summarise(metrics_of_rows(run, rows))[measure]
        return (math.nan if found is None else found.mean), "{:.3g}", METRICS[measure]
    if measure == "seat":
        return wins(rows, seat=0).p, "{:.0%}", "first seat's win rate"
    if measure == "ties":
        return ties(rows).p, "{:.0%}", "ties"
    if measure == "skill":
        return skill_gap(rows)[0], "{:.0%}", "strongest less weakest agent's win rate"
    if measure == "short":
        measured = length_of(game_id)
        assert measured is not None, "sweep() refuses --rank short for a game with no length measure"
        return mean_length(rows, game_id)[0], "{:.1f}", f"mean length ({measured.unit})"
    return wins(rows).p, "{:.0%}", "win rate"


def narrow(measure: str, low: float, high: float, estimate: float, precision: float) -> bool:
    """Whether an interval is narrow enough to stop: within ``precision`` on each side.

    Proportions compare the half-width with ``precision`` itself; a length (``short``) with
    ``precision`` times the estimate, since its unit is the game's own.
    """
    scale = abs(estimate) if measure == "short" else 1.0
    return (high - low) / 2 <= precision * scale


@dataclass
class Variant:
    """One combination of the grid and what its games show so far."""

    values: dict[str, str]
    run: Run
    rows: list[Row] = field(default_factory=list)
    status: str = "playing"

    def measure(self, name: str) -> tuple[float, float, float]:
        """The ranking measure so far."""
        if name in METRICS:
            return metric_badness(name, self.run, self.rows)
        return badness(name, self.rows, self.run.game)


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
    if measure == "skill" and len(set(agents)) < 2:
        raise ParameterError("--rank skill compares agents: give two agents or more (--agents weak,strong)")
    if measure == "short" and length_of(game_id) is None:
        raise ParameterError(f"--rank short: {game_id}'s statistics have no length measure")
    variants = []
    for combo in itertools.product(*(values for _, values in axes)):
        values = {name: v for (name, _), v in zip(axes, combo)}
        game = load_game(game_id, **{**base, **values})  # refuses a bad value before any game is played
        variants.append(Variant(values, Run(game_id, dict(game.params), tuple(agents), seed)))
    while any(v.status == "playing" for v in variants):
        # every variant still playing gets its next batch in one go, so the backend's workers
        # share all of them
        playing = [v for v in variants if v.status == "playing"]
        wanted = [(v.run, min(most, len(v.rows) + batch)) for v in playing]
        for v, rows in zip(playing, collect_many(store, wanted, progress=progress, backend=backend)):
            v.rows = rows
        best = min(variants, key=lambda v: v.measure(measure)[0])
        for v in variants:
            if v.status != "playing":
                continue
            est, lo, hi = v.measure(measure)
            if lo > best.measure(measure)[2]:
                v.status = "separated"
            elif narrow(measure, lo, hi, est, precision):
                v.status = "narrow"
            elif len(v.rows) >= most:
                v.status = "most games"
    return sorted(variants, key=lambda v: v.measure(measure)[0])


def length(rows: Sequence[Row], game_id: str) -> float | None:
    """The median game length, where the game's statistics measure one."""
    measured = length_of(game_id)
    if measured is None:
        return None
    key = measured.stat
    values = [float(r.stats[key]) for r in rows if key in r.stats]
    return statistics.median(values) if values else None


def table(variants: Sequence[Variant], game_id: str) -> list[dict[str, str]]:
    """One row of words per variant, best first: values, games, win rate, first seat, ties, length, the
    gap between the strongest and weakest agents (when there are two or more), why it stopped."""
    out = []
    for v in variants:
        w, first = wins(v.rows), wins(v.rows, seat=0)
        lo, hi = w.interval
        players = len(v.rows[0].seats) if v.rows else 1
        med = length(v.rows, game_id)
        skill = len(agents_of(v.rows)) > 1
        gap, lo_gap, hi_gap = skill_gap(v.rows) if skill else (0.0, 0.0, 0.0)
        out.append({**v.values, "games": str(len(v.rows)), "win rate (95%)": f"{pct(w.p)} ({pct(lo)}-{pct(hi)})",
                    "first seat": first.words() if players > 1 else "-",
                    "ties": ties(v.rows).words() if players > 1 else "-",
                    "median length": "-" if med is None else f"{med:g}",
                    **({"strongest - weakest": f"{pct(gap)} ({pct(lo_gap)}-{pct(hi_gap)})"} if skill else {}),
                    "stopped": v.status})
    return out
