"""``plunder sweep``: every combination, ranked, with games spent only where the ranking is in doubt."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from plunder.cli import main
from plunder.core.errors import ParameterError
from plunder.core.registry import load_game
from plunder.lab.measures import wins
from plunder.lab.store import Store
from plunder.lab.sweep import mean_length, parse_grid, skill_gap, sweep, table


def test_grid_text_is_parsed_and_bad_grids_refused() -> None:
    assert parse_grid(["hand=8, 10", "keep=6"]) == [("hand", ["8", "10"]), ("keep", ["6"])]
    # values with commas in them (Pillage's mix) are separated by semicolons
    assert parse_grid(["mix=doubloons:100; doubloons:35,commodity:65"]) == [
        ("mix", ["doubloons:100", "doubloons:35,commodity:65"])]
    for bad in ("hand", "=8", "hand="):
        with pytest.raises(ParameterError):
            parse_grid([bad])


def test_a_clearly_worse_variant_stops_early_and_the_ranking_follows_the_measure(tmp_path: Path) -> None:
    # target=10 is won almost always, target=40 almost never: after one batch they are separated
    store = Store(tmp_path / "games.sqlite")
    base = dict(load_game("profiteer").params)
    ranked = sweep(store, "profiteer", base, parse_grid(["target=10,40"]), ["greedy"], "win", batch=40, most=400,
                   precision=0.0)
    assert [v.values["target"] for v in ranked] == ["10", "40"]
    best, worst = ranked
    assert worst.status == "separated" and len(worst.rows) == 40
    assert wins(best.rows).p > wins(worst.rows).p
    # run again: every game comes from the store, the same ranking
    again = sweep(store, "profiteer", base, parse_grid(["target=10,40"]), ["greedy"], "win", batch=40, most=400,
                  precision=0.0)
    assert [(v.values, v.rows) for v in again] == [(v.values, v.rows) for v in ranked]


def test_plunder_sweep_writes_a_table_and_a_heatmap_for_two_axes(tmp_path: Path) -> None:
    out = tmp_path / "s"
    result = CliRunner().invoke(main, ["sweep", "profiteer", "--grid", "hand=8,10", "--grid", "keep=6,8",
                                       "--agents", "greedy", "--games", "30", "--batch", "30", "--rank", "near50",
                                       "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    table = (out / "sweep.md").read_text(encoding="utf-8").splitlines()
    assert len(table) == 2 + 4 and table[0].startswith("| hand | keep | games")
    assert (out / "heatmap.png").read_bytes().startswith(b"\x89PNG")
    bad = CliRunner().invoke(main, ["sweep", "profiteer", "--grid", "hand=zero", "--agents", "greedy",
                                    "--out", str(tmp_path / "b")])
    assert bad.exit_code == 1


def test_a_pillage_board_and_mix_sweep_maps_the_first_seat_s_win_rate(tmp_path: Path) -> None:
    out = tmp_path / "p"
    result = CliRunner().invoke(main, ["sweep", "pillage", "--grid", "board=square:2x2,square:2x3",
                                       "--grid", "mix=doubloons:100;commodity:100", "--agents", "greedy",
                                       "--rank", "seat", "--games", "4", "--batch", "4", "--out", str(out)],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    table = (out / "sweep.md").read_text(encoding="utf-8")
    assert table.count("| doubloons:100 |") == table.count("| commodity:100 |") == 2
    assert (out / "heatmap.png").read_bytes().startswith(b"\x89PNG")


def test_rank_skill_puts_the_variant_where_agents_differ_most_first(tmp_path: Path) -> None:
    # an easy target lets greedy win most deals and random few; at 26 both mostly lose, so the
    # agents' gap (how much the player controls) is wider at 12
    store = Store(tmp_path / "games.sqlite")
    base = dict(load_game("profiteer").params)
    ranked = sweep(store, "profiteer", base, parse_grid(["target=26,12"]), ["random", "greedy"], "skill",
                   batch=60, most=240, precision=0.0)
    assert [v.values["target"] for v in ranked] == ["12", "26"]
    gaps = [skill_gap(v.rows) for v in ranked]
    assert gaps[0][0] > gaps[1][0] and all(lo <= gap <= hi for gap, lo, hi in gaps)
    assert "strongest - weakest" in table(ranked, "profiteer")[0]
    with pytest.raises(ParameterError, match="two agents"):
        sweep(store, "profiteer", base, parse_grid(["target=12"]), ["greedy"], "skill", batch=10, most=10,
              precision=0.0)


def test_rank_short_puts_the_variant_with_the_shortest_games_first(tmp_path: Path) -> None:
    # a 2x2 board has 12 lines, a 3x3 board 24: its games take more turns
    store = Store(tmp_path / "games.sqlite")
    base = dict(load_game("pillage").params)
    ranked = sweep(store, "pillage", base, parse_grid(["board=square:3x3,square:2x2"]), ["greedy", "random"],
                   "short", batch=4, most=8, precision=0.0)
    assert [v.values["board"] for v in ranked] == ["square:2x2", "square:3x3"]
    short, long = (mean_length(v.rows, "pillage") for v in ranked)
    assert short[0] < long[0] and short[1] <= short[0] <= short[2]
