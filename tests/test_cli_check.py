"""``plunder check GAME``: Plunder's game-independent checks on an installed game, one line
each; it passes Pig and a built-in game, and names the failure of a game whose ``apply``
changes the state it was applied to (registered for the test by its entry point)."""

from __future__ import annotations

import importlib.metadata
from typing import Iterator

import pytest
from click.testing import CliRunner, Result

from plunder.cli import main
from plunder.core import registry

#: every check a game with an observation gets for each parameter set
CHECKS = ("conformance", "record", "pettingzoo", "gymnasium", "openspiel", "web")


def check(*args: str) -> Result:
    """``plunder check ARGS``, in this process."""
    return CliRunner().invoke(main, ["check", *args])


def lines(result: Result) -> list[str]:
    """The check lines printed (the summary line left out)."""
    return [line for line in result.output.splitlines() if line[:4] in ("pass", "FAIL", "skip")]


@pytest.fixture
def counter(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The test game of ``tests/core/counter.py`` registered as game ``counter`` by an entry
    point, as an installed package registers its game: its entry named by the test's parameter."""
    real = importlib.metadata.entry_points(group=registry.ENTRY_POINT_GROUP)
    point = importlib.metadata.EntryPoint("counter", f"tests.core.counter:{request.param}", registry.ENTRY_POINT_GROUP)
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group: [*real, point])
    registry._found.cache_clear()
    registry._checked.cache_clear()
    try:
        yield "counter"
    finally:
        registry._found.cache_clear()
        registry._checked.cache_clear()


def test_pig_passes_every_check_on_every_preset() -> None:
    done = check("pig", "--games", "5")
    assert done.exit_code == 0, done.output
    shown = lines(done)
    for preset in ("standard", "quick"):
        for name in CHECKS:
            assert any(line.startswith(f"pass  {name:<11}  {preset}: ") for line in shown), (name, preset, done.output)
    assert any(line.startswith("pass  web          pages: ") for line in shown)
    assert len(shown) == 2 * len(CHECKS) + 1
    assert done.output.splitlines()[-1] == f"pig: {len(shown)} passed, 0 failed, 0 skipped"


def test_a_builtin_game_passes_on_its_defaults_and_every_preset() -> None:
    done = check("profiteer", "--games", "3")
    assert done.exit_code == 0, done.output
    shown = lines(done)
    presets = ["default", "war_switch", "short", "lean"]  # its preset "default" is its defaults
    assert [line.split()[2] for line in shown if line.split()[1] == "conformance"] == [f"{p}:" for p in presets]
    assert all(line.startswith("pass") for line in shown) and len(shown) == len(presets) * len(CHECKS) + 1


@pytest.mark.parametrize("counter", ["ENTRY"], indirect=True)
def test_a_game_without_an_observation_skips_the_interop_checks_and_says_why(counter: str) -> None:
    done = check(counter, "--games", "5")
    assert done.exit_code == 0, done.output
    shown = lines(done)
    for name in ("pettingzoo", "gymnasium", "openspiel"):
        assert f"skip  {name:<11}  standard: the game offers no observation (Learning.observation)" in shown
    assert sum(line.startswith("pass") for line in shown) == 4  # conformance, record, web pages, web game
    assert done.output.splitlines()[-1] == "counter: 4 passed, 0 failed, 3 skipped"


@pytest.mark.parametrize("counter", ["MUTATING_ENTRY"], indirect=True)
def test_a_game_whose_apply_changes_its_state_fails_naming_the_failure(counter: str) -> None:
    done = check(counter, "--games", "5")
    assert done.exit_code == 1, done.output
    assert "Traceback" not in done.output
    assert ("FAIL  conformance  standard: ConformanceError: counter {}: applying '+1' changed the state it was "
            "applied to at count 0 of 7") in lines(done)
    assert done.output.splitlines()[-1].startswith("counter: ") and " 1 failed" in done.output.splitlines()[-1]


def test_an_unknown_game_is_one_line() -> None:
    done = check("chess")
    assert done.exit_code == 1 and done.output.startswith("plunder check: unknown game 'chess'; games are: ")
