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
from plunder.lab.sweep import parse_grid, sweep


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
