"""Every rank stops on what it ranks, simulated on drawn outcomes (no games played): a game-quality
metric rank stops "narrow" only when the metric's own interval is within the precision, separates
identical variants in at most the stated share of sweeps and still separates a truly different one;
``--rank skill``'s "narrow" means the interval the table shows is within the precision on each side."""

from __future__ import annotations

import random
from typing import Sequence

import pytest

from plunder.lab.measures import wins
from plunder.lab.metrics import BY_WINS, METRICS, MORE_IS_FIRST, SHARES
from plunder.lab.store import Row, Run
from plunder.lab.sweep import Variant, metric_measured, play_rounds, skill_gap
from tests.lab.test_sweep_stopping import STATED, binomial_upper

#: every drawn game is won: a win-rate rule would call it narrow after one batch of 200
WON = (1.0,)


class DrawnMetric:
    """A stand-in for the games and their analysis: each game's metric drawn around its variant's
    mean (a tenth of the games give none, as a tie gives no drama)."""

    def __init__(self, name: str, means: dict[str, float], rng: random.Random) -> None:
        self.name, self.means, self.rng = name, means, rng
        self.rows: dict[str, list[Row]] = {key: [] for key in means}
        self.unit = name not in SHARES and name not in ("drama", "stability")  # branching, spread: game units

    def variants(self) -> list[Variant]:
        """One variant per mean, none played yet."""
        return [Variant({"v": key}, Run("pillage", {"v": key}, ("a",), 0)) for key in self.means]

    def draw(self, mean: float) -> float | None:
        """One game's figure: a share spread over 0..1, or a positive figure in the game's units."""
        if self.rng.random() < 0.1:
            return None
        if self.unit:
            return max(0.0, self.rng.gauss(mean, mean / 2))
        a = 2.0  # a wide Beta: a game's figure varies far more than a win rate's 0.02 half-width allows
        return self.rng.betavariate(a * mean / (1 - mean), a)

    def __call__(self, wanted: Sequence[tuple[Variant, int]]) -> list[list[Row]]:
        out = []
        for variant, games in wanted:
            key = variant.values["v"]
            rows = self.rows[key]
            rows.extend(Row(len(rows), 0, ["a"], list(WON), [0.0], {self.name: self.draw(self.means[key]), BY_WINS: 1.0})
                        for _ in range(games - len(rows)))
            out.append(rows[:games])
        return out


def figures(run: Run, rows: Sequence[Row]) -> list[dict[str, float | None]]:
    """The drawn figures a row carries, as :func:`plunder.lab.sweep.every_game` would give them."""
    return [r.stats for r in rows]


def means_for(name: str, low: float, high: float) -> tuple[float, float]:
    """Two means on the metric's scale (game units: ten times larger)."""
    unit = name not in SHARES and name not in ("drama", "stability")
    return (10 * low, 10 * high) if unit else (low, high)


@pytest.mark.parametrize("name", list(METRICS))
def test_a_metric_rank_stops_narrow_only_on_the_metric_s_own_interval(name: str) -> None:
    rng = random.Random(sum(map(ord, name)))
    precision, narrow = 0.03, 0
    low, high = means_for(name, 0.3, 0.5)
    for _ in range(3):
        drawn = DrawnMetric(name, {"low": low, "high": high}, rng)
        variants = drawn.variants()
        play_rounds(variants, name, "pillage", 200, 6000, precision, drawn, figures)
        for v in variants:
            summary = metric_measured(name, figures(v.run, v.rows))
            if v.status == "narrow":
                narrow += 1
                # a share's precision is absolute, a figure in the game's units is a fraction of its mean
                allowed = precision * (1.0 if not drawn.unit else summary.mean)
                assert summary.half() <= allowed, (name, v.values, len(v.rows), summary)
                assert len(v.rows) > 200  # the win rate (every game won) was narrow after the first batch
        # the ranking follows the metric's direction: most first where more is wanted
        best = min(variants, key=lambda v: v.measure(name, figures)[0])
        assert best.values["v"] == ("high" if name in MORE_IS_FIRST else "low")
    assert narrow >= 1  # the rule was exercised, not skipped


def test_identical_variants_are_wrongly_separated_on_a_metric_in_at_most_the_stated_share() -> None:
    rng = random.Random(5)
    sweeps, wrong = 0, 0
    for name in METRICS:
        mean = means_for(name, 0.4, 0.4)[0]
        for _ in range(12):
            drawn = DrawnMetric(name, {str(k): mean for k in range(6)}, rng)
            variants = drawn.variants()
            play_rounds(variants, name, "pillage", 50, 400, 0.0001, drawn, figures)
            sweeps += 1
            wrong += any(v.status == "separated" for v in variants)
    assert wrong <= binomial_upper(sweeps, STATED, 0.001), (wrong, sweeps)


@pytest.mark.parametrize("name", ["drama", "decisive", "branching"])
def test_a_variant_truly_worse_on_the_metric_is_separated(name: str) -> None:
    rng = random.Random(3)
    worse_mean, good = means_for(name, 0.3, 0.5) if name in MORE_IS_FIRST else means_for(name, 0.5, 0.3)
    separated = 0
    for _ in range(10):
        drawn = DrawnMetric(name, {"good": good, "worse": worse_mean, "also good": good}, rng)
        variants = drawn.variants()
        play_rounds(variants, name, "pillage", 100, 1500, 0.0001, drawn, figures)
        statuses = {v.values["v"]: v.status for v in variants}
        separated += statuses["worse"] == "separated"
        assert statuses["good"] != "separated" or statuses["also good"] != "separated"
    assert separated >= 9


class DrawnSkill:
    """Two agents rotated over two seats, the first winning each game with chance ``edge``: their gap
    is ``2 * edge - 1``."""

    def __init__(self, edges: dict[str, float], rng: random.Random) -> None:
        self.edges, self.rng = edges, rng
        self.rows: dict[str, list[Row]] = {key: [] for key in edges}

    def variants(self) -> list[Variant]:
        """One variant per edge, none played yet."""
        return [Variant({"v": key}, Run("profiteer", {"v": key}, ("weak", "strong"), 0)) for key in self.edges]

    def __call__(self, wanted: Sequence[tuple[Variant, int]]) -> list[list[Row]]:
        out = []
        for variant, games in wanted:
            key = variant.values["v"]
            rows = self.rows[key]
            for i in range(len(rows), games):
                seats = ["weak", "strong"] if i % 2 == 0 else ["strong", "weak"]
                strong_won = self.rng.random() < self.edges[key]
                returns = [1.0, -1.0] if (seats[0] == "strong") == strong_won else [-1.0, 1.0]
                rows.append(Row(i, i, seats, returns, [0.0, 0.0], {}))
            out.append(rows[:games])
        return out


def test_a_skill_narrow_stop_is_within_the_precision_on_both_sides_of_the_shown_interval() -> None:
    # the case: agents nearly equal (a gap near 0), where an interval clipped at 0 looked
    # twice as narrow as it was
    rng = random.Random(37)
    precision, narrow, covered = 0.06, 0, 0
    for _ in range(20):
        drawn = DrawnSkill({"equal": 0.5, "close": 0.51}, rng)
        variants = drawn.variants()
        play_rounds(variants, "skill", "profiteer", 200, 4000, precision, drawn)
        for v in variants:
            if v.status == "narrow":
                narrow += 1
                gap, lo, hi = skill_gap(v.rows)
                assert max(gap - lo, hi - gap) <= precision, (v.values, len(v.rows), gap, lo, hi)
                # the gap is the measured stronger less the measured weaker: the truth in that order
                edge = 2 * drawn.edges[v.values["v"]] - 1
                true = edge if wins(v.rows, "strong").p >= wins(v.rows, "weak").p else -edge
                covered += lo <= true <= hi
    assert narrow >= 20
    assert covered >= 0.9 * narrow  # the unclipped interval holds the true gap
