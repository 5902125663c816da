"""Figures that claim no more than the data: seats with draws, self-play tables, shared bins, heat-map
colours beyond the interval, and the sweep's help text."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from click.testing import CliRunner

from plunder.cli import main
from plunder.lab import plots
from plunder.lab.measures import seat_points, seat_record
from plunder.lab.report import build
from plunder.lab.store import Row, Run
from plunder.lab.sweep import Variant, badness, table


def seat_game(i: int, outcome: str, players: int) -> Row:
    """A game in which seat 0 wins (``W``), ties at the top with seat 1 (``D``) or loses (``L``)."""
    returns = {"W": [1.0] + [-1.0] * (players - 1), "D": [0.0, 0.0] + [-1.0] * (players - 2),
               "L": [-1.0, 1.0] + [-1.0] * (players - 2)}[outcome]
    return Row(i, i, ["greedy"] * players, returns, [0.0] * players, {})


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_tie_counts_as_a_share_of_the_win_for_two_to_six_seats(players: int) -> None:
    # seat 0: 3 wins, 4 draws with seat 1, 3 losses in 10 games
    rows = [seat_game(i, o, players) for i, o in enumerate("WWWDDDDLLL")]
    assert seat_record(rows, 0) == (3, 4, 3)
    assert seat_points(rows, 0).p == pytest.approx(0.5)  # 3 + 4 halves
    assert seat_points(rows, 1).p == pytest.approx(0.5)
    assert sum(seat_points(rows, s).p for s in range(players)) == pytest.approx(1.0)


def test_the_sweep_s_seat_balance_counts_ties_as_half() -> None:
    # two seats, seat 0 wins 30% and ties 40%: with ties as half it is exactly even
    rows = [seat_game(i, o, 2) for i, o in enumerate("WWWDDDDLLL" * 20)]
    assert badness("seat", rows, "pillage")[0] == pytest.approx(0.0)


def test_the_report_gives_wins_draws_and_losses_by_seat_and_a_balance() -> None:
    rows = [seat_game(i, o, 3) for i, o in enumerate("WWWDDDDLLL")]
    report = build("crossroads", {}, rows, 0)
    words = " ".join(report.summary)
    assert "The first seat scores 50% of the points (a win 1, a tie its share of the win" in words
    assert "Seat balance (1 less the largest gap between two seats' points): 0.50" in words
    seats = next(t for t in report.tables if t.title == "Wins, draws and losses by seat")
    assert seats.head[:4] == ["seat", "wins", "draws", "losses"]
    assert seats.rows[0][:4] == ["seat 1", "3", "4", "3"] and seats.rows[2][:4] == ["seat 3", "0", "0", "10"]


def test_a_self_play_sweep_has_no_win_rate_column() -> None:
    rows = [seat_game(i, o, 2) for i, o in enumerate("WLWL")]
    self_play = Variant({"board": "x"}, Run("pillage", {}, ("greedy",), 0), rows, "most games")
    assert "win rate (95%)" not in table([self_play], "pillage")[0]
    mixed = [Row(i, i, ["greedy", "random"], [1.0, -1.0], [0.0, 0.0], {}) for i in range(4)]
    two = Variant({"board": "x"}, Run("pillage", {}, ("greedy", "random"), 0), mixed, "most games")
    assert "win rate (95%)" in table([two], "pillage")[0]


def test_a_long_tailed_histogram_gets_shared_log_bins() -> None:
    scores = [0.0, 3.0, 12.0, 40.0, 90.0, 150.0, 400.0, 2500.0, 18000.0]
    bins, log = plots.bins_for(scores)
    assert log and bins[0] == 0.0 and bins[1] == 1.0 and bins[-1] == pytest.approx(18000.0)
    assert all(b > a for a, b in itertools.pairwise(bins))
    assert plots.bins_for([1.0, 2.0, 5.0, 9.0]) == ([0.5 + k for k in range(10)], False)
    assert plots.histogram({"a": scores[:5], "b": scores[4:]}, "scores", "score").startswith(b"\x89PNG")


def test_a_heat_map_colours_only_what_lies_beyond_the_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[list[list[float]]] = []
    real = plots.plt.Axes.imshow

    def spy(self: plots.plt.Axes, data: list[list[float]], *args: Any, **kwargs: Any) -> Any:
        shown.append(data)
        return real(self, data, *args, **kwargs)

    monkeypatch.setattr(plots.plt.Axes, "imshow", spy)
    # 48% and 55% with ±6: within noise of 50%; 70% ±5 lies 15 points beyond its interval
    png = plots.heatmap(["a"], ["x", "y", "z"], [[0.48, 0.55, 0.70]], "t", "r", "c", "{:.0%}",
                        [[0.06, 0.06, 0.05]], (0.5, "50%"))
    assert png.startswith(b"\x89PNG")
    assert shown[0][0][:2] == [0.0, 0.0] and shown[0][0][2] == pytest.approx(0.15)


def test_sweep_help_reads_95_percent() -> None:
    result = CliRunner().invoke(main, ["sweep", "--help"], terminal_width=200)
    assert result.exit_code == 0 and "95% interval" in result.output and "%%" not in result.output
