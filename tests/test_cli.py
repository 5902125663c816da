"""The plunder command, driven as a user would: list, play, simulate, replay, render, solve."""

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn

import click
import pytest
from click.testing import CliRunner

import plunder
from plunder.cli import COMMANDS, main
from plunder.core.capabilities import Strength, Study
from plunder.core.figures import Length, ReportFigures
from tests.fake_games import pig_as, register  # noqa: F401  (register is a fixture)


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


def test_hotseat_and_bad_options(tmp_path: Path) -> None:
    out = run("play", "pillage", "--vs", "human", "--seed", "2", "--record", str(tmp_path / "hotseat.json"),
              input="quit\n").output
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


def test_solve_values_a_whole_hubs_game_on_the_tiny_sheet() -> None:
    """A symmetric match is level from the first dot; a large sheet's first round is out of reach."""
    out = run("solve", "hubs", "--preset", "tiny").output
    assert "Value for Player 2: +0" in out and "Best move: dot " in out
    far = CliRunner().invoke(main, ["solve", "hubs", "--preset", "small"])  # refused at once, not after a minute
    assert far.exit_code != 0 and "no result within the solver's nodes limit" in far.output
    assert "solves the last round's segment phase" in far.output
    assert "Traceback" not in far.output


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
    import plunder.cli.solve as cli
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
    from collections import Counter

    from plunder.simulate import histogram_rows

    # 0..100 in 12 bins: 9 scores a bin, the last bin holding what is left
    rows = histogram_rows(Counter(float(v) for v in range(101)))
    assert [label for label, _, _ in rows][:2] == ["0 .. 8", "9 .. 17"] and rows[-1][0] == "99 .. 100"
    assert sum(n for _, n, _ in rows) == 101
    assert histogram_rows(Counter(0.5 * v for v in range(40)))[0][0] == "0 .. 1.625"  # fractions keep even bins


# --- hostile options: each a one-line error in bounded time and memory -------------------------------------


def one_line(result, command: str) -> str:  # type: ignore[no-untyped-def]
    """The one line a refused command printed (exit 1, no traceback)."""
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"plunder {command}: "), result.output
    return str(lines[0])


def usage_error(result) -> str:  # type: ignore[no-untyped-def]
    """The error line of a refused option (click's usage error: exit 2, no traceback)."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1, result.output
    return str(errors[0])


def invoke(*args: str, input: str | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, list(args), input=input)


def test_a_huge_simulation_runs_in_batches_in_bounded_memory() -> None:
    """--games 10**12 used to build every chunk of games up front (MemoryError); it now plays batch after
    batch until interrupted, its memory bounded (here: 768 MB of address space, not reached), and
    prints the games it played."""
    import os
    import resource
    import signal
    import subprocess
    import sys
    import time

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (768 * 2**20, resource.RLIM_INFINITY))

    env = {**os.environ, "PYTHONPATH": str(Path(plunder.__file__).parents[1])}
    proc = subprocess.Popen([sys.executable, "-m", "plunder", "simulate", "profiteer", "--agents", "random",
                             "--games", str(10**12)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, preexec_fn=limit)
    # 15 s of CPU (start-up, then several batches), however busy the machine is
    for _ in range(240):
        with open(f"/proc/{proc.pid}/stat") as stat:
            user, system = stat.read().rsplit(")", 1)[1].split()[11:13]
        if proc.poll() is not None or (int(user) + int(system)) / os.sysconf("SC_CLK_TCK") >= 15:
            break
        time.sleep(0.5)
    running = proc.poll() is None
    if running:
        with open(f"/proc/{proc.pid}/status") as status:
            peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
        assert peak < 400 * 1024, f"{peak} kB resident at most"
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert running, err
    assert "Traceback" not in err and "MemoryError" not in err
    # Ctrl-C lets the games being played end, then prints the games played from game 0
    (line,) = err.strip().splitlines()
    played = int(line.removeprefix("plunder simulate: stopped by Ctrl-C after ").split()[0])
    assert line.endswith(f"of {10**12} games") and played > 0 and proc.returncode == 0
    assert f"profiteer (defaults): {played} games, seed 0" in out


def test_simulate_tallies_keep_counts_not_every_score() -> None:
    import statistics
    from collections import Counter

    from plunder.simulate import counted_median

    result = plunder.simulate.simulate("profiteer", {}, ["random", "greedy"], 30, seed=4)
    for tally in result.tallies.values():
        assert isinstance(tally.scores, Counter) and sum(tally.scores.values()) == tally.games
    for values in ([3.0], [1.0, 2.0], [5.0, 1.0, 1.0, 2.0, 9.0, 9.0], [float(v % 7) for v in range(101)]):
        assert counted_median(Counter(values)) == statistics.median(values)


def test_worker_counts_are_bounded() -> None:
    from plunder.core.errors import ParameterError
    from plunder.core.options import MAX_WORKERS
    from plunder.backends import LocalPool

    for workers in (str(10**12), str(MAX_WORKERS + 1), "0"):
        line = usage_error(invoke("simulate", "profiteer", "--agents", "random", "--games", "2",
                                  "--workers", workers))
        assert "--workers" in line and f"1<=x<={MAX_WORKERS}" in line
    with pytest.raises(ParameterError, match="MAX_WORKERS"):
        LocalPool(10**12)


def test_an_empty_agent_list_is_one_line(tmp_path: Path) -> None:
    for agents in ("", ",", " , ,"):
        for command in (["simulate", "profiteer"], ["report", "profiteer", "--out", str(tmp_path / "r")],
                        ["sweep", "profiteer", "--grid", "hand=8,10", "--out", str(tmp_path / "s")],
                        ["tournament", "profiteer", "--out", str(tmp_path / "t")]):
            line = one_line(invoke(*command, "--agents", agents, "--games", "2"), command[0])
            assert "--agents names no agent" in line
    from plunder.core.options import MAX_AGENTS

    line = one_line(invoke("simulate", "profiteer", "--agents", ",".join(["random"] * (MAX_AGENTS + 1))),
                    "simulate")
    assert f"the limit is {MAX_AGENTS}" in line


def test_tournament_player_counts_are_checked_in_one_line(tmp_path: Path) -> None:
    out = str(tmp_path / "t")
    for players in ("0", "-1", "x", str(10**12), "3,0", ",", "2,,3"):
        line = one_line(invoke("tournament", "crossroads", "--agents", "random", "--players", players, "--games", "2",
                               "--out", out), "tournament")
        assert "--players" in line and "not a player count" in line
    line = one_line(invoke("tournament", "crossroads", "--agents", "random", "--players", "7", "--out", out),
                    "tournament")
    assert "crossroads is played by 2–6 players, not 7" in line  # the game's declared seat range
    line = one_line(invoke("tournament", "pillage", "--agents", "random", "--players", "3", "--out", out),
                    "tournament")
    assert "pillage is played by 2 players, not 3" in line


def test_lab_game_counts_are_bounded_before_any_game(tmp_path: Path) -> None:
    from plunder.core.options import MAX_LAB_GAMES, MAX_MIXES

    huge = str(10**12)
    cases = [
        (["report", "profiteer", "--agents", "random", "--games", huge], "--games"),
        (["report", "profiteer", "--agents", "random,greedy", "--games", "2", "--luck", huge], "--luck"),
        (["tournament", "profiteer", "--agents", "random", "--games", huge], "--games"),
        (["sweep", "profiteer", "--grid", "hand=8,10", "--agents", "random", "--games", huge], "--games"),
    ]
    for args, option in cases:
        line = one_line(invoke(*args, "--out", str(tmp_path / "lab")), args[0])
        assert line.startswith(f"plunder {args[0]}: {option}") and f"the limit {MAX_LAB_GAMES:,}" in line
    many = ",".join(f"mcts:sims={n}" for n in range(1, 40))
    line = one_line(invoke("tournament", "crossroads", "--agents", many, "--players", "6", "--out",
                           str(tmp_path / "lab")), "tournament")
    assert f"the limit is {MAX_MIXES:,}" in line
    grid = [f"--grid=seed={','.join(str(n) for n in range(201))}", f"--grid=goal={','.join(str(n) for n in range(1, 61))}"]
    line = one_line(invoke("sweep", "pirates", *grid, "--agents", "random", "--out", str(tmp_path / "lab")),
                    "sweep")
    assert "MAX_VARIANTS" in line


def test_tournament_generations_are_bounded(tmp_path: Path) -> None:
    """--generations 10**12 ran the replicator dynamics until memory ran out (found by the CLI fuzz test)."""
    from plunder.core.options import MAX_GENERATIONS

    line = usage_error(invoke("tournament", "profiteer", "--agents", "random", "--games", "1", "--generations",
                              str(10**12), "--out", str(tmp_path)))
    assert "--generations" in line and f"0<=x<={MAX_GENERATIONS}" in line


def test_report_store_must_be_a_regular_sqlite_file(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    text = tmp_path / "notes.sqlite"
    text.write_text("not a database, only some words " * 10)
    for store, says in ((fifo, "not a regular file"), (Path("/dev/null"), "not a regular file"),
                        (text, "not a SQLite results file")):
        line = one_line(invoke("report", "profiteer", "--agents", "random", "--games", "2", "--luck", "0",
                               "--store", str(store), "--out", str(tmp_path / "r")), "report")
        assert "results file" in line and says in line


def test_sweep_precision_must_be_finite_in_the_open_half(tmp_path: Path) -> None:
    for precision in ("nan", "inf", "-inf", "0", "-0.1", "0.51", "x"):
        line = usage_error(invoke("sweep", "profiteer", "--grid", "hand=8,10", "--agents", "random", "--games", "2",
                                  "--precision", precision, "--out", str(tmp_path)))
        assert "--precision" in line
    assert invoke("sweep", "profiteer", "--grid", "hand=8,10", "--agents", "random", "--games", "2",
                  "--precision", "0.5", "--out", str(tmp_path)).exit_code == 0


def test_play_refuses_a_record_path_that_is_not_a_regular_file(tmp_path: Path) -> None:
    import os

    from tests.fuzz.strategies import time_bound

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with time_bound(20):  # opening a FIFO to write blocks until a reader comes: it must not be opened
        result = invoke("play", "profiteer", "--vs", "random", "--record", str(fifo), input="quit\n")
    assert "not a regular file" in one_line(result, "play")
    record = tmp_path / "game.json"
    assert invoke("play", "profiteer", "--vs", "random", "--record", str(record), input="quit\n").exit_code == 0
    for option in ("--svg", "--png"):  # found by tests/fuzz/test_cli_options.py
        with time_bound(20):
            result = invoke("render", str(record), option, str(fifo))
        assert f"{option} " in one_line(result, "render") and "not a regular file" in result.output


def test_serve_refuses_a_database_it_cannot_use_before_serving(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    import plunder.cli.serve as cli

    def serve(*args: object) -> None:
        raise AssertionError("the server started")

    monkeypatch.setattr(cli, "serve", serve)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    text = tmp_path / "notes.db"
    text.write_text("not a database, only some words " * 10)
    (tmp_path / "file").write_text("")
    for url, says in (("garbage://x", "'garbage' is not a database"), ("::::", "is not a database URL"),
                      (f"sqlite:///{fifo}", "not a regular file"), ("sqlite:////dev/null", "not a regular file"),
                      (f"sqlite:///{text}", "file is not a database"),
                      (f"sqlite:///{tmp_path}/file/x.db", "Not a directory"),
                      ("postgresql+psycopg://user:secret@127.0.0.1:1/x", "cannot be used")):
        line = one_line(invoke("serve", "--db", url), "serve")
        assert says in line and "secret" not in line


#: what ``plunder --help`` must not load: the web framework and server, the SQL toolkit, the
#: plotting library, and the parts of plunder built on them
HEAVY = ("starlette", "uvicorn", "sqlalchemy", "matplotlib", "plunder.web", "plunder.lab")


def test_help_loads_no_web_framework_plotting_library_or_sql_toolkit() -> None:
    script = ("import sys\n"
              "from plunder.cli import main\n"
              "try:\n"
              "    main(['--help'], standalone_mode=False)\n"
              "except SystemExit:\n"
              "    pass\n"
              f"print(sorted(m for m in sys.modules if m.startswith({HEAVY!r})))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True)
    assert "Commands:" in done.stdout and "tournament" in done.stdout  # the help was printed
    assert done.stdout.splitlines()[-1] == "[]"


def test_the_command_table_gives_each_command_its_own_help() -> None:
    ctx = click.Context(main)
    assert main.list_commands(ctx) == sorted(COMMANDS)
    for name, (_, line) in COMMANDS.items():
        command = main.get_command(ctx, name)
        assert command is not None and command.name == name
        assert (command.help or "").split("\n\n")[0].split() == line.split(), name
    assert main.get_command(ctx, "nope") is None


def test_every_command_shows_its_help() -> None:
    listed = run("--help").output
    for name in COMMANDS:
        assert f"  {name} " in listed
        shown = run(name, "--help")
        assert shown.exit_code == 0 and f"Usage: main {name} [OPTIONS]" in shown.output, name


def test_play_seats_greedy_by_default_and_the_medium_level_for_a_game_without_it(tmp_path: Path,
                                                                                 register: Any) -> None:
    """A game without a ``greedy`` agent is played against its ``medium`` level, not refused."""
    register(pig_as("plainpig", strength=Strength()))
    for game_id, rival in (("pig", "greedy"), ("plainpig", "medium")):
        path = tmp_path / f"{game_id}.json"
        result = invoke("play", game_id, "--seed", "3", "--record", str(path), input="quit\n")
        assert result.exit_code == 0, result.output
        assert plunder.Record.from_json(path.read_text()).players == ["human", rival]


def test_report_quality_and_sweep_metrics_refuse_a_game_without_analysis_before_playing(tmp_path: Path) -> None:
    """Pig offers no ``Analysis``: the metrics are refused before a game is played or a file written."""
    out = tmp_path / "report"
    line = one_line(invoke("report", "pig", "--agents", "random", "--games", "3", "--quality", "2", "--out", str(out)),
                    "report")
    assert "--quality analyses the games, and pig offers no analysis" in line and not out.exists()
    line = one_line(invoke("sweep", "pig", "--grid", "goal=20,30", "--agents", "random", "--rank", "drama",
                           "--games", "2", "--out", str(out)), "sweep")
    assert "--rank drama analyses the games, and pig offers no analysis" in line and not out.exists()


def test_report_refuses_figures_no_observer_gives_before_playing(tmp_path: Path, register: Any) -> None:
    """Figures that read statistics, for a game without an observer, leave the game out at load: the
    report says why in its first second, before a game is played or a file written."""
    figures = ReportFigures(length=Length("rolls", "rolls"))
    register(pig_as("countpig", study=Study(figures=figures)))
    out = tmp_path / "report"
    result = invoke("report", "countpig", "--agents", "random", "--games", "3", "--out", str(out))
    assert result.exit_code == 1 and "Traceback" not in result.output and not out.exists()
    assert result.output.strip().splitlines()[-1] == (
        "plunder report: game 'countpig' (fake_game_countpig:ENTRY) left out: its report figures read the "
        "statistics rolls, and it has no observer to give them")
