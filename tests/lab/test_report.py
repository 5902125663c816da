"""``plunder report``: every game gets a page with plots and a summary whose figures match the games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from plunder.cli import main
from plunder.lab.measures import Share, reaching, wins
from plunder.core.capabilities import EndObserver, Study
from plunder.core.figures import (Bars, Flagged, GameStat, Heatmap, Histogram, Length, Margin, Mean, Pair, PairTable,
                                  ReportFigures, Scores, SeatStat, Sentence, Shares, Sum)
from plunder.lab.report import build, gathered, pair_table, write
from plunder.lab.run import collect
from plunder.lab.store import Row, Run, Store
from plunder.core.registry import load_game
from tests.fake_games import pig_as, register  # noqa: F401  (register is a fixture)

PNG = b"\x89PNG\r\n\x1a\n"

#: (game, preset, agents, games): small enough for the default test run
CASES = [
    ("profiteer", None, ("greedy", "profit"), 60),
    ("pirates", None, ("greedy", "random"), 6),
    ("pillage", "small", ("greedy", "random"), 6),
    ("hubs", "tiny", ("greedy", "random"), 4),
    ("crossroads", "4p", ("greedy", "tit-for-tat", "grudger", "always-fair"), 4),
]

#: the plots each game's own statistics add
OWN_PLOTS = {"profiteer": {"reaching", "endings"}, "pirates": {"end_turn", "buried"}, "pillage": {"margin", "boxes"},
             "hubs": {"roles"}, "crossroads": {"gold", "trades", "partners"}}


@pytest.mark.parametrize("game_id, preset, agents, games", CASES, ids=[c[0] for c in CASES])
def test_every_game_gets_a_report_with_its_own_plots(tmp_path: Path, game_id: str, preset: str | None,
                                                     agents: tuple[str, ...], games: int) -> None:
    game = load_game(game_id, preset=preset)
    run = Run(game_id, dict(game.params), agents, 0)
    rows = collect(Store(tmp_path / "games.sqlite"), run, games)
    report = build(game_id, dict(game.params), rows, 0)
    page = write(report, tmp_path / "out").read_text(encoding="utf-8")
    names = {p.name for p in report.plots}
    assert {"scores", "win_rate"} | OWN_PLOTS[game_id] <= names
    assert ("first_seat" in names) == (game.num_players > 1)
    for name in names:
        assert (tmp_path / "out" / f"{name}.png").read_bytes().startswith(PNG)
    assert page.count("data:image/png;base64,") == len(names)  # self-contained: every plot embedded
    for agent in agents:  # the summary states each agent's win rate as counted from the rows
        share = wins(rows, agent)
        assert f"With the {agent} agent, {round(100 * share.p)}% of" in " ".join(report.summary).replace(".0%", "%")


def test_the_profiteer_summary_gives_the_designers_counts(tmp_path: Path) -> None:
    """"With the profit agent, 34% of games reach 26 cards (±1%)": counted from the scores."""
    share = Share(34, 100)
    assert share.words() == "34% (±9.7%)"  # Wilson 95% interval of 34/100: 25.5% to 43.7%, the wider side
    run = Run("profiteer", dict(load_game("profiteer").params), ("profit",), 0)
    rows = collect(Store(tmp_path / "games.sqlite"), run, 50)
    report = build("profiteer", run.params, rows, 0)
    expected = sum(1 for r in rows if r.scores[0] >= 26)
    line = next(s for s in report.summary if "reach 26 cards" in s)
    assert f"{reaching(rows, 'profit', 26).words()} reach 26 cards" in line
    assert reaching(rows, "profit", 26).hits == expected


def test_plunder_report_writes_the_page_and_resumes_from_its_store(tmp_path: Path) -> None:
    args = ["report", "profiteer", "--agents", "greedy", "--games", "20", "--luck", "8", "--out", str(tmp_path / "r")]
    first = CliRunner().invoke(main, args, catch_exceptions=False)
    assert first.exit_code == 0, first.output
    assert "With the greedy agent" in first.output and (tmp_path / "r" / "report.html").is_file()
    again = CliRunner().invoke(main, args + ["--workers", "2"], catch_exceptions=False)
    assert again.output == first.output  # the same games, read back from the store
    bad = CliRunner().invoke(main, ["report", "profiteer", "--agents", "nobody", "--out", str(tmp_path / "x")])
    assert bad.exit_code == 1 and "nobody" in bad.output


def test_who_trades_with_whom_counts_each_agent_s_trades_per_partner() -> None:
    # seats a, b, a: seat 1 traded twice with seat 2 and once with seat 3; seat 2 twice with seat 1
    stats = {"trades_with_1": [0, 2, 1], "trades_with_2": [2, 0, 0], "trades_with_3": [1, 0, 0]}
    rows = [Row(0, 0, ["a", "b", "a"], [1.0, -1.0, -1.0], [0.0, 0.0, 0.0], stats)]
    # a (two seats): 2 trades with a, 2 with b, per seat of a: 1 and 1; b: 2 with a
    assert pair_table(rows, ["a", "b"], "trades_with_") == [[1.0, 1.0], [2.0, 0.0]]


def test_a_seat_series_asked_for_every_game_is_refused_in_words() -> None:
    rows = [Row(0, 0, ["a", "b"], [1.0, -1.0], [3.0, 1.0], {"income": [2.0, 5.0]})]
    assert gathered(SeatStat("income"), rows, "b") == [5.0]
    with pytest.raises(ValueError, match="gathered from an agent's seats"):
        gathered(SeatStat("income"), rows, None)


def test_a_report_states_no_figure_it_never_measured(register: Any) -> None:
    """Figures whose statistics no game gave (an observer that counts nothing) are left out with
    a note, never stated as zeros; a statistic some games gave is the mean over those."""
    figures = ReportFigures(
        length=Length("rolls", "rolls"),
        sentences=(Sentence("Rolls: {rolls:.1f}.", {"rolls": Mean(GameStat("rolls"))}),
                   Sentence("Sixes: {six:.1f}.", {"six": Mean(GameStat("six"))}),
                   Sentence("{agent} holds {held:.1f}, in all {all:.1f}.",
                            {"held": Mean(SeatStat("held")), "all": Sum((Mean(SeatStat("held")), Mean(Scores())))},
                            per_agent=True),
                   Sentence("Doubles in {double}.", {"double": Flagged(GameStat("double"))}),
                   Sentence("{top.row} beats {top.col}.", {"top": Pair(PairTable("beat_"))}),
                   Sentence("The first seat leads by {m:+.1f}.", {"m": Mean(Margin(0, 1))})),
        charts=(Bars("held", "Held per agent", "Held", "points", {"held": Mean(SeatStat("held"))}),
                Histogram("sixes", "Sixes", "Sixes", "sixes", {"all games": GameStat("never")}),
                Shares("doubles", "Doubles", "Doubles", "share", {"double": Flagged(GameStat("double"))}),
                Heatmap("beats", "Who beats whom", "Beats", PairTable("beat_"))))
    register(pig_as("quietpig", study=Study(observer=EndObserver, figures=figures)))
    rows = [Row(0, 0, ["random", "greedy"], [1.0, -1.0], [30.0, 20.0], {"rolls": 7.0}),
            Row(1, 1, ["greedy", "random"], [-1.0, 1.0], [10.0, 40.0], {})]
    report = build("quietpig", {}, rows, 0)
    said = " ".join(report.summary)
    assert "Rolls: 7.0." in said  # the one game that counted its rolls, not (7 + 0) / 2
    assert "The first seat leads by -10.0." in said
    assert "Sixes" not in said and "holds" not in said and "Doubles" not in said and "beats" not in said
    assert {p.name for p in report.plots} == {"scores", "win_rate", "first_seat", "length"}
    notes = " ".join(report.notes)
    for caption in ("Held per agent", "Sixes", "Doubles", "Who beats whom"):
        assert f"{caption}: no game gave its values; not drawn." in notes
    for sentence in ("Sixes: {six", "{agent} holds", "Doubles in", "{top.row} beats"):
        assert f'The sentence "{sentence}' in notes


def test_a_report_leaves_out_a_length_no_game_gave(register: Any) -> None:
    register(pig_as("shortpig", study=Study(observer=EndObserver, figures=ReportFigures(length=Length("rolls", "rolls")))))
    report = build("shortpig", {}, [Row(0, 0, ["random", "random"], [1.0, -1.0], [30.0, 20.0], {})], 0)
    assert "length" not in {p.name for p in report.plots} and not any("last a median" in s for s in report.summary)
    assert "Game length: no game gave the statistic rolls; not measured." in report.notes
