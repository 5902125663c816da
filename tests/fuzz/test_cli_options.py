"""Every option and argument of every ``plunder`` command, fed hostile values one at a time, ends
with a clean error or a normal run: exit 0; 1 with one line ``plunder COMMAND: ...``; or 2 with
click's one ``Error:`` line; never a traceback, within a time bound and an address-space bound.

Commands and options are read from the click group itself, so a command added tomorrow is fed
the same values the day it lands (from a bare invocation until it gets a quick one in
:data:`QUICK`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import click
import pytest
from click.testing import CliRunner

import matplotlib.pyplot as plt

import plunder.cli.serve as serving
from plunder.cli import main
from plunder.lab import plots
from tests.fuzz.strategies import TooSlow, time_bound

#: wall-time bound of one invocation (generous for a busy machine; a hang is what it catches)
CASE_SECONDS = 20.0
#: the bound of each quick invocation, the first run of each command in a fresh checkout: it may
#: compile numba kernels first (``puzzles generate`` compiled the exact solvers in 11.3 s on an
#: idle 2-core machine; 20 s was passed on a busy one)
FIRST_SECONDS = 60.0
#: the bound for the options documented to run as long as asked (``simulate --games``: until interrupted)
LONG_SECONDS = 2.0
#: (command, option) pairs whose huge values are work the user asked for, run in bounded memory
RUN_AS_LONG_AS_ASKED = {("simulate", "--games")}

#: a quick, valid invocation of each command (``{dir}``: a fresh folder; ``{record}``: a saved game),
#: into which one hostile value at a time is put
QUICK: dict[str, list[str]] = {
    "list": [],
    "rules": ["profiteer"],
    "play": ["profiteer", "--vs", "random", "--seed", "1", "--record", "{dir}/game.json"],
    "serve": ["--port", "8765", "--db", "sqlite:///{dir}/web.db"],
    "simulate": ["profiteer", "--agents", "random", "--games", "2"],
    "report": ["profiteer", "--agents", "random", "--games", "1", "--luck", "0", "--out", "{dir}/report"],
    "sweep": ["profiteer", "--grid", "hand=8,10", "--agents", "random", "--games", "2", "--out", "{dir}/sweep"],
    "tournament": ["profiteer", "--agents", "random", "--games", "1", "--generations", "2", "--out", "{dir}/t"],
    "replay": ["{record}"],
    "render": ["{record}"],
    "solve": ["pillage", "-p", "board=square:1x1", "-p", "contents=unit", "--time-limit", "5"],
    "export": ["{results}", "--out", "{dir}/games.parquet"],
    "analyse": ["{record}", "--sims", "2"],
    "check": ["pig", "--games", "1"],
    "puzzles": ["generate", "pillage", "--count", "1", "--seed", "1", "--out", "{dir}/puzzles.json"],
}

#: values that have broken commands before: huge, not finite, empty, only a separator, negative,
#: garbage, a device, a FIFO (``{fifo}``), and a long text (``inf`` goes where ``nan`` goes)
HOSTILE = [str(10**12), "nan", "", ",", "-1", "0", "garbage text ☠", "/dev/null", "{fifo}", "x" * 5000]


def commands() -> dict[str, click.Command]:
    """Every command of the group by name, each loaded (the group loads a command when asked for it)."""
    ctx = click.Context(main)
    found = {name: main.get_command(ctx, name) for name in main.list_commands(ctx)}
    return {name: command for name, command in found.items() if command is not None}


def cases() -> Iterator[tuple[str, str]]:
    """(command, option or argument name) for every parameter of every command but the flags."""
    for name, command in sorted(commands().items()):
        for param in command.params:
            if isinstance(param, click.Option) and (param.is_flag or "--help" in param.opts):
                continue
            yield name, param.name or ""


def invocation(command: click.Command, name: str, target: str, value: str) -> list[str]:
    """The quick invocation of ``name`` with ``value`` given to its parameter ``target``."""
    args = list(QUICK.get(name, []))
    param = next(p for p in command.params if p.name == target)
    if isinstance(param, click.Argument):
        position = [p for p in command.params if isinstance(p, click.Argument)].index(param)
        positionals = [i for i, a in enumerate(args) if not a.startswith("-") and (i == 0 or not args[i - 1].startswith("-"))]
        if position < len(positionals):
            args[positionals[position]] = value
        else:
            args.insert(position, value)
        return args
    for opt in param.opts:  # the quick value of this option gives way to the hostile one
        while opt in args:
            at = args.index(opt)
            del args[at:at + 2]
    return [*args, param.opts[-1], value]


@pytest.fixture
def place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A folder to work in, a FIFO, a saved game, a results file; ``serve`` checks its options but serves nothing, and
    plots are drawn but not rendered to PNG (no option reaches that step, and it is most of a
    report's time)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(serving, "serve", lambda *args: None)
    def unrendered(fig: plt.Figure) -> bytes:
        plt.close(fig)
        return b""

    monkeypatch.setattr(plots, "_png", unrendered)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    record = tmp_path / "saved.json"
    saved = CliRunner().invoke(main, ["play", "profiteer", "--vs", "random", "--seed", "3", "--record", str(record)],
                               input="quit\n")
    assert saved.exit_code == 0, saved.output
    results = tmp_path / "results.sqlite"
    stored = CliRunner().invoke(main, ["report", "profiteer", "--agents", "random", "--games", "2", "--luck", "0",
                                       "--out", str(tmp_path / "stored"), "--store", str(results)])
    assert stored.exit_code == 0, stored.output
    return {"dir": str(tmp_path), "fifo": str(fifo), "record": str(record), "results": str(results)}


def test_every_command_has_a_quick_invocation_that_runs(place: dict[str, str]) -> None:
    assert set(QUICK) == set(commands()), "give a new command a quick invocation in QUICK"
    for name, args in QUICK.items():
        with time_bound(FIRST_SECONDS):
            result = CliRunner().invoke(main, [name, *(a.format(**place) for a in args)], input="quit\n")
        assert result.exit_code == 0, (name, result.output)


@pytest.mark.parametrize("name,target", sorted(set(cases())))
def test_hostile_values_end_in_one_clean_line(name: str, target: str, place: dict[str, str],
                                              bounded_memory: None) -> None:
    command = commands()[name]
    for value in HOSTILE:
        args = [a.format(**place) for a in invocation(command, name, target, value.format(**place))]
        param = next(p for p in command.params if p.name == target)
        long = isinstance(param, click.Option) and (name, param.opts[-1]) in RUN_AS_LONG_AS_ASKED
        try:
            with time_bound(LONG_SECONDS if long else CASE_SECONDS):
                result = CliRunner().invoke(main, [name, *args], input="quit\n")
        except TooSlow:
            assert long, f"plunder {name} {target}={value[:40]!r} still running"
            continue
        shown = f"plunder {name} with {target}={value[:40]!r}"
        if isinstance(result.exception, TooSlow) and long:
            continue  # CliRunner caught the time bound: the run was going on, in bounded memory
        assert result.exception is None or isinstance(result.exception, SystemExit), (shown, result.exception)
        assert "Traceback" not in result.output, (shown, result.output)
        lines = result.output.strip().splitlines()
        if result.exit_code == 1:
            assert lines and lines[-1].startswith(f"plunder {name}: "), (shown, lines)
        elif result.exit_code == 2:
            assert sum(line.startswith("Error: ") for line in lines) == 1, (shown, lines)
        else:
            assert result.exit_code == 0, (shown, result.exit_code, result.output)
