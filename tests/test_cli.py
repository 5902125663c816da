"""The plunder command, driven as a user would: list, play, simulate, replay, render, solve."""

import json
from dataclasses import replace
from pathlib import Path
from typing import NoReturn

import pytest
from click.testing import CliRunner

import plunder
from plunder.cli import main


def run(*args: str, input: str | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def test_list_shows_games_parameters_presets_and_agents() -> None:
    out = run("list").output
    assert "pillage — Pillage and Profit" in out
    assert "board" in out and "square:4x4" in out and "classic" in out and "greedy" in out


def test_play_a_whole_game_against_random_and_save_it(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    # 1x1 board: the human types every line; lines the agent took first are refused with PP-4.
    moves = "moves\nhint\nbogus\n" + "a1-b1\na1-a2\nb1-b2\na2-b2\n" * 2
    result = run("play", "pillage", "-p", "board=square:1x1", "-p", "contents=unit", "--vs", "random",
                 "--seed", "5", "--record", str(path), input=moves)
    out = result.output
    assert result.exit_code == 0
    assert "safe: hands over no box" in out          # the move list describes each line
    assert "Hint (hard)" in out and "proven" in out
    assert "Type a move like a1-a2, or 'moves' to list them." in out  # plain words, no position or ruling
    assert "wins 1-0" in out or "wins 0-1" in out
    record = plunder.Record.from_json(path.read_text())
    assert plunder.replay(record).is_terminal() and record.players == ["human", "random"]


def test_undo_goes_back_to_the_humans_previous_decision(tmp_path: Path) -> None:
    path = tmp_path / "undo.json"
    run("play", "pillage", "-p", "board=square:2x2", "-p", "contents=unit", "--seed", "1",
        "--record", str(path), input="a1-b1\nundo\nundo\nquit\n")
    record = plunder.Record.from_json(path.read_text())
    assert record.moves == []  # the line and the agent's reply are both taken back


def test_hotseat_and_bad_options() -> None:
    out = run("play", "pillage", "--vs", "human", "--seed", "2", "--record", "/dev/null", input="quit\n").output
    assert "Player 1, Player 2." in out
    bad = CliRunner().invoke(main, ["play", "pillage", "--vs", "wizard"])
    assert bad.exit_code != 0 and "unknown agent 'wizard'" in bad.output
    bad = CliRunner().invoke(main, ["play", "pillage", "-p", "board=circle:2x2"])
    assert bad.exit_code != 0 and "unknown board kind" in bad.output


def test_simulate_json_counts_add_up() -> None:
    result = run("simulate", "pillage", "--preset", "small", "--agents", "greedy,random", "--games", "20",
                 "--seed", "3", "--json")
    data = json.loads(result.output)
    assert data["games"] == 20 and data["agents"] == ["greedy", "random"]
    for name in ("greedy", "random"):
        assert data["wins"][name] + data["ties"][name] + data["losses"][name] == 20
    assert data["wins"]["greedy"] == data["losses"]["random"]
    assert data["mean_scores"]["greedy"] > data["mean_scores"]["random"]
    # the histogram is [score, count] pairs of numbers, whole scores as whole numbers
    for name in ("greedy", "random"):
        pairs = data["score_histogram"][name]
        assert all(type(score) is int and type(count) is int for score, count in pairs)
        assert sum(count for _, count in pairs) == 20


def test_simulate_results_do_not_depend_on_workers() -> None:
    args = ["simulate", "pillage", "--preset", "classic", "--agents", "random,greedy", "--games", "12", "--json"]
    one = json.loads(run(*args).output)
    two = json.loads(run(*args, "--workers", "2").output)
    assert one["wins"] == two["wins"] and one["mean_scores"] == two["mean_scores"]


def test_simulate_tables_and_histogram() -> None:
    out = run("simulate", "pillage", "--preset", "classic", "--agents", "greedy,random", "--games", "10").output
    assert "win rate" in out and "scores of greedy" in out and "mean boxes" in out


def test_replay_verifies_and_refuses_tampering(tmp_path: Path) -> None:
    game = plunder.load_game("pillage", preset="classic")
    record = plunder.play(game, ["greedy", "random"], seed=4)
    good = tmp_path / "good.json"
    good.write_text(record.to_json())
    out = run("replay", str(good)).output
    assert "classic" not in out and "wins" in out and "pillage, " in out
    data = json.loads(record.to_json())
    data["moves"][3]["action"] = data["moves"][2]["action"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = CliRunner().invoke(main, ["replay", str(bad)])
    assert result.exit_code == 1 and "move 3" in result.output and "PP-4" in result.output


def test_render_draws_a_record_as_text_or_svg(tmp_path: Path) -> None:
    source = Path(__file__).parent / "games" / "pillage" / "records" / "octagon-greedy.json"
    out = run("render", str(source), "--at", "30").output
    assert "doubloons" in out and "score" in out
    picture = tmp_path / "pos.svg"
    run("render", str(source), "--svg", str(picture))
    text = picture.read_text()
    assert text.startswith("<svg") and text.count("<polygon") == 8 and "Player 1:" in text
    bad = CliRunner().invoke(main, ["render", str(source), "--at", "999"])
    assert bad.exit_code != 0 and "--at must be 0.." in bad.output


def test_solve_prints_the_value_and_a_best_move() -> None:
    out = run("solve", "pillage", "--preset", "example", "--moves", "b3-c3, c2-c3").output
    assert "Value for Player 1: +10" in out and "Best move: " in out
    bad = CliRunner().invoke(main, ["solve", "pillage", "--preset", "example", "--moves", "a1-z9"])
    assert bad.exit_code != 0 and "no dot z9" in bad.output
    none = CliRunner().invoke(main, ["solve", "crossroads"])
    assert none.exit_code != 0 and "no exact solver" in none.output


def test_solve_on_a_board_of_doubloons_shows_no_commodity_columns() -> None:
    unit = run("solve", "pillage", "-p", "board=square:2x2", "-p", "contents=unit").output
    assert "doubloons  score" in unit and "food" not in unit and "armor" not in unit
    example = run("solve", "pillage", "--preset", "example").output  # PP-8: food, weapons, armor boxes
    assert "food (=5)" in example and "armor (=5)" in example


def test_render_of_profiteer_shows_the_resources(tmp_path: Path) -> None:
    path = tmp_path / "pf.json"
    path.write_text(plunder.play(plunder.load_game("profiteer"), ["greedy"], seed=3).to_json())
    out = run("render", str(path), "--at", "30").output
    assert "Resources: " in out and "resources 4)" in out


# --- bad input: one line on stderr, exit status 1, never a traceback (issue 11 items 5, 8) -----------

def refused(*args: str):  # type: ignore[no-untyped-def]
    """Run a command that must refuse its input; return its one-line message."""
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 1, result.output
    assert result.stdout == "" and "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def _record_file(tmp_path: Path, name: str, text: str | bytes) -> str:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return str(path)


def test_replay_and_render_refuse_bad_records_in_one_line(tmp_path: Path) -> None:
    record = plunder.play(plunder.load_game("pillage", preset="classic"), ["greedy", "random"], seed=4)
    text = record.to_json()
    latin = _record_file(tmp_path, "latin.json", text.replace('"random"', '"caf\u00e9"').encode("latin-1"))
    deep = _record_file(tmp_path, "deep.json", "[" * 5000 + "]" * 5000)
    data = json.loads(text)
    data["result"]["returns"] = 5
    returns = _record_file(tmp_path, "returns.json", json.dumps(data))
    for command in ("replay", "render"):
        assert "not UTF-8 text (byte" in refused(command, latin)
        assert "nests 5000 levels deep; the limit is 32" in refused(command, deep)
        assert "result.returns must be a list of finite numbers" in refused(command, returns)
        assert "is not a regular file" in refused(command, "/dev/zero")


def test_bad_parameters_and_agents_are_one_line(tmp_path: Path) -> None:
    assert "unknown board kind" in refused("play", "pillage", "-p", "board=circle:2x2")
    assert "unknown agent 'wizard'" in refused("simulate", "pillage", "--agents", "wizard")
    assert "unknown game 'chess'" in refused("solve", "chess")
    board = _record_file(tmp_path, "board.json", '{"dots": ' + "[" * 100 + "]" * 100 + "}")
    assert "board" in refused("solve", "pillage", "-p", f"board=file:{board}")
    assert "no dot z9" in refused("solve", "pillage", "--preset", "example", "--moves", "a1-z9")


def test_an_unwritable_record_path_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    message = refused("play", "profiteer", "--seed", "1", "--record", str(blocker / "game.json"))
    assert str(blocker) in message


def test_solve_time_limit_must_be_finite_and_positive() -> None:
    for bad in ("nan", "inf", "-1", "0", "soon"):
        result = CliRunner().invoke(main, ["solve", "pillage", "--time-limit", bad])
        assert result.exit_code == 2 and "number of seconds" in result.output, bad


def test_solve_has_a_default_time_limit_and_reports_the_limit_it_hit(monkeypatch: pytest.MonkeyPatch) -> None:
    import plunder.cli as cli
    from plunder.core.errors import SearchLimitError

    asked: list[float] = []

    def give_up(state: plunder.State, time_limit: float | None = None, memory: float | None = None) -> NoReturn:
        assert time_limit is not None
        asked.append(time_limit)
        raise SearchLimitError("stopped after 60 s", "time")

    real = cli.entry("pillage")
    monkeypatch.setattr(cli, "entry", lambda game_id: replace(real, strength=replace(real.strength, solve=give_up)))
    message = refused("solve", "pillage")
    assert asked == [60.0] and "no result within the solver's time limit: stopped after 60 s" in message


def test_solve_passes_its_memory_budget_and_refuses_a_bad_one() -> None:
    runner = CliRunner()
    args = ["solve", "pillage", "-p", "board=square:2x2", "-p", "contents=unit"]
    done = runner.invoke(main, [*args, "--memory", "64"])
    assert done.exit_code == 0 and "Best move" in done.output
    assert runner.invoke(main, [*args, "--memory", "0"]).exit_code == 2


def test_histogram_bins_of_whole_scores_are_whole() -> None:
    from plunder.simulate import histogram_rows

    # 0..100 in 12 bins: 9 scores a bin, the last bin holding what is left
    rows = histogram_rows([float(v) for v in range(101)])
    assert [label for label, _, _ in rows][:2] == ["0 .. 8", "9 .. 17"] and rows[-1][0] == "99 .. 100"
    assert sum(n for _, n, _ in rows) == 101
    assert histogram_rows([0.5 * v for v in range(40)])[0][0] == "0 .. 1.625"  # fractions keep even bins
