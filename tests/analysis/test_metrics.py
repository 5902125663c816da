"""The game-quality metrics on curves whose answers are known, and in the lab's commands."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from plunder import load_game, play
from plunder.analysis import Settings, analyse
from plunder.cli import main
from plunder.lab import metrics
from plunder.lab.store import Row, Run
from plunder.lab.sweep import measured


def test_drama_leads_and_decisiveness_of_a_comeback() -> None:
    # seat 1 trails by 0.6 then 0.2, takes the lead at the third position and keeps it
    values = [[0.8, 0.2], [0.6, 0.4], [0.3, 0.7], [0.1, 0.9]]
    assert metrics.drama(values, 1) == pytest.approx((0.6 + 0.2) / 2)
    assert metrics.drama(values, 0) == pytest.approx((0.4 + 0.8) / 2)  # had seat 0 won after all
    assert metrics.lead_changes(values) == pytest.approx(1 / 3)
    assert metrics.decisiveness(values, 1) == pytest.approx(2 / 4)
    assert metrics.stability(values) == pytest.approx((0.2 + 0.2 + 0.3 + 0.3 + 0.2 + 0.2) / 6)


def test_ties_on_the_curve_count_as_docs_lab_md_says() -> None:
    # docs/lab.md's worked example: a tie for the top is neither trailing nor a leader
    values = [[0.6, 0.4], [0.5, 0.5], [0.3, 0.7], [0.55, 0.45], [0.2, 0.8]]
    assert metrics.drama(values, 1) == pytest.approx((0.2 + 0.1) / 2)
    assert metrics.lead_changes(values) == pytest.approx(3 / 4)
    assert metrics.decisiveness(values, 1) == pytest.approx(4 / 5)
    assert metrics.stability(values) == pytest.approx(2 * (0.1 + 0.2 + 0.25 + 0.35) / (4 * 2))
    # the winner tied for the top at every position never trails: no drama
    assert metrics.drama([[0.5, 0.5], [0.5, 0.5]], 1) == 0.0


def test_a_wire_to_wire_win_has_no_drama_and_is_decided_at_once() -> None:
    values = [[0.6, 0.4], [0.7, 0.3], [1.0, 0.0]]
    assert metrics.drama(values, 0) == 0.0
    assert metrics.lead_changes(values) == 0.0
    assert metrics.decisiveness(values, 0) == 0.0
    assert metrics.drama(values, None) is None and metrics.decisiveness(values, None) is None


def test_uncertainty_is_one_for_an_even_game_and_zero_for_a_certain_one() -> None:
    assert metrics.uncertainty([[0.5, 0.5], [0.25, 0.25]], True) == pytest.approx(1.0)
    assert metrics.uncertainty([[1.0, 0.0]], True) == pytest.approx(0.0)
    assert metrics.uncertainty([[0.5, 0.5]], False) is None


def test_the_bootstrap_interval_holds_the_mean_and_narrows_with_games() -> None:
    few = metrics.bootstrap([0.0, 1.0, 0.5, 0.2])
    many = metrics.bootstrap([0.0, 1.0, 0.5, 0.2] * 25)
    assert few.low <= few.mean <= few.high and many.low <= many.mean <= many.high
    assert many.high - many.low < few.high - few.low
    assert metrics.summarise([{"drama": None}])["drama"] is None


def test_metrics_of_analysed_games() -> None:
    game = load_game("pillage", board="square:2x2")
    per_game = [metrics.game_metrics(analyse(play(game, ["random", "greedy"], seed=s), Settings(sims=4)))
                for s in range(3)]
    for found in per_game:
        assert found["branching"] is not None and 1 <= found["branching"] <= 12
        assert found["decisions"] is not None and 0 < found["decisions"] <= 1
        assert found["uncertainty"] is not None and 0 <= found["uncertainty"] <= 1
    summary = metrics.summarise(per_game)
    assert summary["branching"] is not None and summary["branching"].n == 3


def test_metrics_of_stored_rows_replay_their_games() -> None:
    game = load_game("pillage", board="square:2x2")
    run = Run("pillage", dict(game.params), ("random", "greedy"), 0)
    rows = []
    for i in range(3):
        record = play(game, ["random", "greedy"], seed=i)
        assert record.returns is not None and record.scores is not None
        rows.append(Row(i, i, ["random", "greedy"], record.returns, record.scores, {}))
    low, est_lo, est_hi = measured("branching", rows, "pillage", run).at(0.05)
    assert low < 0 and est_lo <= low <= est_hi  # more branching ranks first: the badness is its negation
    words = metrics.sentences(run, rows, 3)
    assert words[0].startswith("Game-quality metrics") and any(w.startswith("drama: ") for w in words)


def test_sweep_ranks_by_a_metric(tmp_path: Path) -> None:
    out = CliRunner().invoke(main, ["sweep", "pillage", "--grid", "board=square:1x2,square:2x2", "--agents",
                                    "random,greedy", "--rank", "branching", "--games", "4", "--batch", "4",
                                    "--out", str(tmp_path / "sweep")], catch_exceptions=False)
    assert out.exit_code == 0, out.output
    assert "most mean legal moves per decision" in out.output
    # the ranked metric has its column, over every game played (4 a variant), with its interval
    table = (tmp_path / "sweep" / "sweep.md").read_text(encoding="utf-8")
    assert "| branching (95%) |" in table.splitlines()[0] and table.count(", n=4) |") == 2
    first = out.output.index("square:2x2")
    assert first < out.output.index("square:1x2"), "the bigger board branches more and ranks first"


def test_report_gains_the_metrics_with_intervals(tmp_path: Path) -> None:
    out = CliRunner().invoke(main, ["report", "pillage", "-p", "board=square:2x2", "--agents", "random,greedy",
                                    "--games", "6", "--luck", "0", "--quality", "4", "--out", str(tmp_path / "r")],
                             catch_exceptions=False)
    assert out.exit_code == 0, out.output
    assert "Game-quality metrics (Browne 2008; Ludii) over 4 of the games" in out.output
    for name in metrics.METRICS:
        assert f"{name}: " in out.output
    assert "Game-quality metrics" in (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
