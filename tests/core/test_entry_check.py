"""A game's entry is checked when it is loaded (``plunder.core.entry_check``): its declared seat
range against its rules, its analysis, its report figures against its observer, its groups and
hooks; an entry with problems is left out of the registry with the reason, and the
conformance check names the same problems."""

from __future__ import annotations

import dataclasses
from typing import Any

import plunder_pig
import pytest
from click.testing import CliRunner

from plunder.cli import main
from plunder.core.capabilities import Analysis, EndObserver, Learning, Study
from plunder.core.conformance import ConformanceError, check_entry, check_game
from plunder.core.entry_check import entry_problems
from plunder.core.errors import ParameterError
from plunder.core.figures import (Bars, Flagged, GameStat, Heatmap, Histogram, Length, Margin, Mean, PairTable,
                                  ReportFigures, Scores, SeatStat, Sentence, Shares)
from plunder.core.registry import broken_games, entry, game_ids, is_game, problems_of
from plunder.games.crossroads import ENTRY as CROSSROADS, CrossroadsGame
from plunder.games.profiteer import ENTRY as PROFITEER
from tests.fake_games import pig_as, register  # noqa: F401  (register is a fixture)

PIG = plunder_pig.ENTRY


def redeclared(made: Any, **changes: Any) -> Any:
    """``made`` with ``changes`` to its declaration."""
    return dataclasses.replace(made, declaration=dataclasses.replace(made.declaration, **changes))


def with_study(made: Any, **changes: Any) -> Any:
    """``made`` with ``changes`` to its study group."""
    return dataclasses.replace(made, study=dataclasses.replace(made.study, **changes))


def test_every_installed_game_holds_together() -> None:
    for game_id in game_ids():
        assert entry_problems(entry(game_id)) == [] and problems_of(game_id) == [], game_id


def test_the_default_game_has_a_seat_count_the_game_declares() -> None:
    assert entry_problems(redeclared(PIG, min_seats=1, max_seats=1, zero_sum=False)) == [
        "its default game has 2 seats, outside the 1 player it declares",
        "its presets 'standard' has 2 seats, 'quick' has 2 seats, outside the 1 player it declares"]


def test_a_seat_range_is_chosen_by_the_players_parameter() -> None:
    assert entry_problems(redeclared(PIG, max_seats=4)) == [
        "it declares 2–4 players but has no 'players' parameter to choose them"]


def test_every_seat_count_of_the_range_loads_and_gives_that_many_seats() -> None:
    wider = entry_problems(redeclared(CROSSROADS, max_seats=7))
    assert len(wider) == 1 and wider[0].startswith("it declares 2–7 players but players=7 does not load (ParameterError:")

    class AlwaysFour(CrossroadsGame):
        @property
        def num_players(self) -> int:
            return 4

    ignoring = entry_problems(dataclasses.replace(CROSSROADS, game_class=AlwaysFour))
    assert ignoring == ["players=2 gives 4 seats", "players=3 gives 4 seats", "players=5 gives 4 seats",
                        "players=6 gives 4 seats"]


def test_every_preset_has_a_seat_count_the_game_declares() -> None:
    assert entry_problems(redeclared(CROSSROADS, min_seats=3)) == [
        "its preset '2p' has 2 seats, outside the 3–6 players it declares"]


def test_a_solitaire_is_not_zero_sum() -> None:
    assert entry_problems(redeclared(PROFITEER, zero_sum=True)) == [
        "it declares a solitaire zero-sum: one seat's return sums to zero only if it is always 0"]


def test_the_analysis_marks_grow_and_an_exact_solver_needs_two_seats_zero_sum() -> None:
    disordered = dataclasses.replace(PIG, analysis=Analysis("points", inaccuracy=5, mistake=2, blunder=9, sims=0,
                                                            screen=-1, stretch_seconds=0, bias=-1.0))
    assert entry_problems(disordered) == [
        "its analysis marks must grow from above 0 (inaccuracy 5, mistake 2, blunder 9)",
        "its analysis needs at least 1 playout and 1 candidate, a depth of 0 or more and time for an exact solve",
        "its analysis screen must be 0 or more rollouts, not -1",
        "its analysis stretch needs time for a solve, not 0 s",
        "its analysis' playout bias must be 0 or more, not -1.0"]
    assert CROSSROADS.analysis is not None
    exact = dataclasses.replace(CROSSROADS, analysis=dataclasses.replace(CROSSROADS.analysis, exact=lambda s: True))
    assert entry_problems(exact) == [
        "its analysis has an exact solver, which needs a two-seat zero-sum game, and it declares 2–6 players, "
        "not zero-sum"]
    stretched = dataclasses.replace(CROSSROADS,
                                    analysis=dataclasses.replace(CROSSROADS.analysis, stretch=lambda s: True))
    assert entry_problems(stretched) == entry_problems(exact)


def test_a_null_window_test_comes_with_the_solver_it_bounds() -> None:
    pillage = entry("pillage")
    assert pillage.strength.window is not None and entry_problems(pillage) == []
    alone = dataclasses.replace(pillage, strength=dataclasses.replace(pillage.strength, solve=None))
    assert entry_problems(alone) == [
        "its strength has a null-window test (window) but no exact solver (solve) whose values it bounds"]
    not_a_test = dataclasses.replace(pillage.strength, window=3)  # type: ignore[arg-type]
    uncallable = dataclasses.replace(pillage, strength=not_a_test)
    assert entry_problems(uncallable) == ["its strength.window is a int, not a function"]


def test_figures_that_read_statistics_need_an_observer() -> None:
    figures = ReportFigures(length=Length("turns", "turns"), sentences=(
        Sentence("{agent} holds at {held:.1f}.", {"held": Mean(SeatStat("held"))}, per_agent=True),
        Sentence("{rolled} of games roll a six.", {"rolled": Flagged(GameStat("six", when="long"))})),
        charts=(Heatmap("who", "c", "t", PairTable("beat_")),))
    assert entry_problems(with_study(PIG, figures=figures)) == [
        "its report figures read the statistics beat_N, held, long, six, turns, and it has no observer to give them"]
    assert entry_problems(with_study(PIG, figures=figures, observer=EndObserver)) == []
    # the scores need no observer
    scored = ReportFigures(sentences=(Sentence("{m:+.1f}", {"m": Mean(Margin(0, 1))}),))
    assert entry_problems(with_study(PIG, figures=scored)) == []


def test_figures_read_an_agents_seats_only_for_an_agent() -> None:
    figures = ReportFigures(
        sentences=(Sentence("{held:.1f}", {"held": Mean(SeatStat("held"))}),),
        charts=(Histogram("h", "c", "t", "x", {"all": Scores()}),
                Bars("b", "c", "t", "y", {"held": Mean(SeatStat("held"))}, by="value"),
                Bars("fine", "c", "t", "y", {"held": Mean(SeatStat("held"))}),
                Shares("fine2", "c", "t", "y", {"won": Flagged(Scores())})))
    assert entry_problems(with_study(PIG, figures=figures, observer=EndObserver)) == [
        "sentence 1's {held} reads an agent's seats (SeatStat) where no agent is given",
        "chart 'h' reads an agent's seats (Scores) where no agent is given",
        "chart 'b' reads an agent's seats (SeatStat) where no agent is given"]


def test_figures_read_only_seats_every_game_has() -> None:
    figures = ReportFigures(charts=(Histogram("m", "c", "t", "x", {"3 - 1": Margin(2, 0)}),))
    assert entry_problems(with_study(PIG, figures=figures)) == ["chart 'm' reads seat 3, and a game may have only 2"]


def test_a_sentence_names_only_the_values_it_gives_in_their_kinds() -> None:
    figures = ReportFigures(sentences=(
        Sentence("{agent} rolls {rolls:.1f} times.", {"rolls": Mean(Scores())}),
        Sentence("{share:.1f} of games", {"share": Flagged(GameStat("six"))}),
        Sentence("{best.who} leads", {}),
        Sentence("{agent} scores {points:.0f}.", {"points": Mean(Scores())}, per_agent=True)))
    found = entry_problems(with_study(PIG, figures=figures, observer=EndObserver))
    assert [p.split(" (")[0] for p in found] == [
        "sentence 1's {rolls} reads an agent's seats",
        "sentence '{agent} rolls {rolls:.1f} times.'... does not format with the values it gives",
        "sentence '{share:.1f} of games'... does not format with the values it gives",
        "sentence '{best.who} leads'... does not format with the values it gives"]
    assert "KeyError: 'agent'" in found[1] and "ValueError" in found[2] and "KeyError: 'best'" in found[3]


def test_each_chart_has_a_file_name_of_its_own() -> None:
    bars = {"score": Mean(Scores())}
    figures = ReportFigures(charts=(Bars("twice", "c", "t", "y", bars), Bars("twice", "c", "t", "y", bars),
                                    Bars("scores", "c", "t", "y", bars), Bars("../up", "c", "t", "y", bars)))
    assert entry_problems(with_study(PIG, figures=figures)) == [
        "chart name 'twice' is given to 2 charts", "chart name 'scores' is taken by a plot every report draws",
        "chart name '../up' is not a file name (letters, digits, _ and -)"]


def test_groups_and_hooks_are_of_their_kinds() -> None:
    numbered = dataclasses.replace(PIG, presentation=3)  # type: ignore[arg-type]
    assert entry_problems(numbered) == ["its presentation is a int, not a Presentation"]
    assert entry_problems(dataclasses.replace(PIG, study=Study(observer="stats.py"))) == [  # type: ignore[arg-type]
        "its study.observer is a str, not a function"]
    assert entry_problems(dataclasses.replace(PIG, learning=Learning(batched="batched.py"))) == [  # type: ignore[arg-type]
        "its learning.batched is a str, not a function"]


def test_a_broken_entry_is_left_out_with_its_reason(register: Any) -> None:
    register(pig_as("solo", declaration={"min_seats": 1, "max_seats": 1, "zero_sum": False}))
    register(pig_as("fine"))
    line = ("game 'solo' (fake_game_solo:ENTRY) left out: its default game has 2 seats, outside the 1 player it "
            "declares; its presets 'standard' has 2 seats, 'quick' has 2 seats, outside the 1 player it declares")
    assert "fine" in game_ids() and "solo" not in game_ids() and not is_game("solo")
    assert line in broken_games() and line in broken_games(own=True)
    assert problems_of("solo")[0] == "its default game has 2 seats, outside the 1 player it declares"
    with pytest.raises(ParameterError, match="left out: its default game has 2 seats"):
        entry("solo")
    listed = CliRunner().invoke(main, ["list"])
    assert listed.exit_code == 0 and "games left out" in listed.stdout and line in listed.stdout
    assert "fine — Pig (2 players)" in listed.stdout


def test_a_long_list_of_problems_is_one_line(register: Any) -> None:
    charts = tuple(Bars(f"../{k}", "c", "t", "y", {"s": Mean(Scores())}) for k in range(6))
    register(pig_as("many", declaration={"max_seats": 3}, study=Study(figures=ReportFigures(
        length=Length("turns", "turns"), charts=charts))))
    line = next(line for line in broken_games() if line.startswith("game 'many'"))
    assert len(problems_of("many")) == 8
    assert "\n" not in line and line.endswith(" more)") and "(and " in line and len(line) < 300


def test_the_conformance_check_names_the_problems_before_playing(register: Any) -> None:
    register(pig_as("solo", declaration={"min_seats": 1, "max_seats": 1, "zero_sum": False}))
    game = pig_as("solo").game_class.load()
    with pytest.raises(ConformanceError, match="solo: its entry is left out: its default game has 2 seats"):
        check_game(game, playthroughs=1)
    four = CrossroadsGame.load(players="4")
    check_entry(four)  # a game whose entry holds together, with seats in its range


def test_the_conformance_check_refuses_a_game_with_seats_outside_its_range(register: Any) -> None:
    wide = pig_as("wide")
    register(wide)

    class Three(wide.game_class):  # type: ignore[name-defined]
        @property
        def num_players(self) -> int:
            return 3

    with pytest.raises(ConformanceError, match=r"wide with \{.*\} has 3 seats; its entry declares 2 players"):
        check_entry(Three.load())


def test_the_conformance_check_holds_the_games_played_to_the_declaration(register: Any,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A game declared without chance whose die is chance, and one declared zero-sum whose
    returns are not, are caught by the games the check plays; Pig keeps to its own."""
    check_game(entry("pig").game_class.load(preset="quick"), playthroughs=2)
    register(pig_as("steadypig", declaration={"chance": False}))
    with pytest.raises(ConformanceError, match="steadypig: chance moved in the game of seed 0, and its entry "
                                               "declares no chance"):
        check_game(entry("steadypig").game_class.load(preset="quick"), playthroughs=2)
    register(pig_as("winpig"))
    game = entry("winpig").game_class.load(preset="quick")

    def winning(state: Any) -> list[float]:
        return [1.0, 0.0] if state.is_terminal() else [0.0, 0.0]

    monkeypatch.setattr(type(game.new_initial_state()), "returns", winning)
    with pytest.raises(ConformanceError, match=r"winpig: the game of seed 0 returned \[1.0, 0.0\], which do not "
                                               "sum to zero, and its entry declares it zero-sum"):
        check_game(game, playthroughs=2)
