"""``plunder analyse``: marks, the summary per player, the curve, and one-line refusals."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from plunder import load_game, play
from plunder.cli import main


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def small_game(tmp_path: Path) -> Path:
    game = load_game("pillage", board="square:2x2")
    path = tmp_path / "game.json"
    path.write_text(play(game, ["random", "random"], seed=11).to_json(), encoding="utf-8")
    return path


def test_analyse_prints_marks_losses_better_moves_and_a_summary(tmp_path: Path) -> None:
    path = small_game(tmp_path)
    png = tmp_path / "curve.png"
    out = run("analyse", str(path), "--all-moves", "--png", str(png))
    assert out.exit_code == 0, out.output
    assert "decisions valued (loss in doubloons)" in out.output
    assert "solver" in out.output and "Per player" in out.output
    assert "average loss" in out.output and "random" in out.output
    assert any(mark in out.output for mark in ("inaccuracy", "mistake", "blunder"))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_analyse_a_game_of_four_draws_a_curve_per_seat(tmp_path: Path) -> None:
    game = load_game("crossroads")
    record = play(game, ["medium"] * 4, seed=2)
    record.moves = record.moves[:30]
    record.returns = record.scores = None
    path = tmp_path / "cr.json"
    path.write_text(record.to_json(), encoding="utf-8")
    png = tmp_path / "cr.png"
    out = run("analyse", str(path), "--sims", "4", "--depth", "5", "--png", str(png))
    assert out.exit_code == 0, out.output
    assert "(loss in gold)" in out.output and png.stat().st_size > 1000


def one_line_error(*args: str) -> str:
    out = run(*args)
    assert out.exit_code != 0
    lines = [line for line in out.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in out.output, out.output
    return lines[0]


def test_bad_records_get_one_line_errors(tmp_path: Path) -> None:
    assert "cannot open record" in one_line_error("analyse", str(tmp_path / "missing.json"))
    garbled = tmp_path / "garbled.json"
    garbled.write_text("{not json", encoding="utf-8")
    assert "record" in one_line_error("analyse", str(garbled))
    good = json.loads(small_game(tmp_path).read_text(encoding="utf-8"))
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({**good, "game": "chess"}), encoding="utf-8")
    assert "chess" in one_line_error("analyse", str(wrong))
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps({**good, "moves": good["moves"][:3] + good["moves"][2:]}), encoding="utf-8")
    assert "move" in one_line_error("analyse", str(tampered))
    option = run("analyse", str(small_game(tmp_path)), "--sims", "0")  # click's usage error, as every command's
    assert option.exit_code == 2 and "Error: Invalid value for '--sims'" in option.output
