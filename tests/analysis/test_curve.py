"""The value curve: its x axis numbers moves as the tables do, estimates get a band, and past
two seats one seat is strong and the others faint."""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from click.testing import CliRunner
from matplotlib.collections import PolyCollection
from matplotlib.colors import to_rgb, to_rgba_array

from plunder import load_game, play
from plunder.analysis import Settings, analyse
from plunder.analysis.curve import FAINT, curve_figure
from plunder.cli import main


def test_the_curves_x_axis_is_the_tables_move_number(tmp_path: Path) -> None:
    record = play(load_game("pillage", board="square:2x2"), ["random", "random"], seed=11)
    path = tmp_path / "game.json"
    path.write_text(record.to_json(), encoding="utf-8")
    out = CliRunner().invoke(main, ["analyse", str(path), "--all-moves"], catch_exceptions=False)
    assert out.exit_code == 0, out.output
    # the table's first column: every decision's move number
    table = [int(m.group(1)) for m in re.finditer(r"^\S\s+(\d+)\s+│", out.output, re.M)]
    result = analyse(record)
    fig = curve_figure(result)
    try:
        xs = [[int(x) for x in np.asarray(line.get_xdata(), dtype=float)] for line in fig.axes[0].get_lines()]
    finally:
        plt.close(fig)
    decisions = [i + 1 for i, m in enumerate(record.moves) if m.by is not None]
    assert table == decisions and xs == [decisions, decisions], (table, xs)
    # the solver's values are exact: no band
    assert all(m.exact for m in result.moves)
    assert not [c for c in fig.axes[0].collections if isinstance(c, PolyCollection)]


def test_estimates_get_a_band_and_extra_seats_are_faint() -> None:
    game = load_game("crossroads", players="5")
    record = play(game, ["medium"] * 5, seed=2)
    record.moves = record.moves[:24]
    record.returns = record.scores = None
    result = analyse(record, Settings(sims=8, depth=5))
    assert result.moves and not any(m.exact for m in result.moves)
    assert all(m.margin_errors is not None and len(m.margin_errors) == 5 for m in result.moves)
    fig = curve_figure(result, highlight=2)
    try:
        lines = fig.axes[0].get_lines()
        bands = [c for c in fig.axes[0].collections if isinstance(c, PolyCollection)]
    finally:
        plt.close(fig)
    assert [line.get_alpha() for line in lines] == [FAINT, FAINT, 1.0, FAINT, FAINT]
    assert len(bands) == 1  # the strong seat's band only
    assert tuple(to_rgba_array(bands[0].get_facecolor())[0][:3]) == to_rgb(lines[2].get_color())


def test_a_highlight_past_the_seats_is_a_one_line_error(tmp_path: Path) -> None:
    record = play(load_game("pillage", board="square:2x2"), ["random", "random"], seed=11)
    path = tmp_path / "game.json"
    path.write_text(record.to_json(), encoding="utf-8")
    out = CliRunner().invoke(main, ["analyse", str(path), "--highlight", "2"])
    assert out.exit_code != 0 and "Traceback" not in out.output
    assert "seat 2 is not a seat of this 2-seat game" in out.output
