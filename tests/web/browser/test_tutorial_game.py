"""docs/new-game.md followed once more: a game of our own, written from the tutorial alone
(``tests/tutorial/race``, Race to the goal for 2-4 players), installed from a temporary folder
as an author would install it, type-checked as the project configures mypy, held to Plunder's
game-independent checks by ``plunder check``, and played to the end in the browser by hotseat.

The game is installed with ``pip install --target`` into a folder of the test's own, found by
the commands through ``PYTHONPATH``: the environment that runs the tests is left as it was.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest
from playwright.sync_api import Browser, Page

from .conftest import PHONE, LiveServer, screenshot
from .test_play import click_action, finish, play_out, start

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[3]
#: the game's package, as its author left it
SOURCE = ROOT / "tests" / "tutorial" / "race"
#: how long installing it, checking it or type-checking it may take
STEP_SECONDS = 600


@pytest.fixture(scope="module")
def race_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the installed game, built from a copy of its source (a build writes
    beside the source, and the checkout is left as it was)."""
    work = tmp_path_factory.mktemp("race")
    shutil.copytree(SOURCE, work / "race")
    site = work / "site"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                           "--no-index", "--target", str(site), str(work / "race")],
                          capture_output=True, text=True, timeout=STEP_SECONDS)
    assert done.returncode == 0, done.stderr
    assert (site / "plunder_race" / "__init__.py").exists()
    return site


def with_race(site: Path) -> dict[str, str]:
    """This process's environment with the installed game on the path."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(site), env.get("PYTHONPATH", "")]))
    return env


def plunder(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``plunder ARGS`` in a child process that sees the installed game."""
    return subprocess.run([sys.executable, "-m", "plunder.cli", *args], capture_output=True, text=True,
                          timeout=STEP_SECONDS, env=with_race(site))


def test_the_installed_game_is_listed_and_passes_plunder_check(race_site: Path) -> None:
    listed = plunder(race_site, "list")
    assert listed.returncode == 0 and "race — Race to the goal" in listed.stdout, listed.stderr
    checked = plunder(race_site, "check", "race")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "conformance" in checked.stdout and "FAIL" not in checked.stdout
    # and the environment running the tests never heard of it
    here = subprocess.run([sys.executable, "-m", "plunder.cli", "list"], capture_output=True, text=True,
                          timeout=STEP_SECONDS)
    assert "race — " not in here.stdout


def test_the_game_type_checks_as_the_project_configures_mypy(tmp_path: Path) -> None:
    source = tmp_path / "src"
    shutil.copytree(SOURCE / "src", source)
    done = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                           "--cache-dir", str(tmp_path / "cache"), str(source / "plunder_race")],
                          capture_output=True, text=True, timeout=STEP_SECONDS, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture(scope="module")
def race_server(race_site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """``plunder serve`` seeing the installed game."""
    server = LiveServer(tmp_path_factory.mktemp("race-serve") / "plunder.db", env=with_race(race_site))
    server.start()
    yield server
    server.kill()


def first_button(page: Page, moves: list[str], _turn: int) -> None:
    """The first legal move, by its button on the board (the plain picture's)."""
    click_action(page, moves[0])


def test_three_players_race_to_the_end_by_hotseat(page: Page, race_server: LiveServer, tmp_path: Path) -> None:
    page.goto(race_server.url + "/")
    card = page.locator("#game-race")
    assert "Race to the goal" in card.inner_text() and card.locator(".players").inner_text() == "2–4 players"
    start(page, race_server, "race", "three", seats=["me", "hotseat", "hotseat"])
    assert page.locator("#seats li").count() == 3
    screenshot(page, "race-desktop", tmp_path)
    # goal 30, at most 4 a turn, always the first button (add 1): 30 turns over three seats
    assert play_out(page, first_button) == 30
    finish(page, "race-end", tmp_path)
    assert "Player 3" in page.inner_text("#log")


def test_race_on_a_phone_by_touch(browser: Browser, race_server: LiveServer, tmp_path: Path) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        start(page, race_server, "race", "standard", seats=["me", "hotseat"])
        for taps in range(1, 4):  # hotseat: both seats are this phone's, turn and turn about
            page.locator('#board [data-action="add 3"]').first.tap()
            page.wait_for_function("n => document.querySelectorAll('#log li').length >= n", arg=taps)
        assert "Race to 21: 9, Player 2 to move" in page.inner_text("#board").replace("\xa0", " ")
        screenshot(page, "race-phone", tmp_path)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the page is {width} px wide on a {PHONE['width']} px phone"
    finally:
        context.close()
