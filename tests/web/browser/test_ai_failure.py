"""An AI that fails or searches less, seen in the browser: the player is told plainly, the log
says why the seat plays a simpler level or with less search, and the game goes on. The failure
and the busy server are simulated (every ``hard`` agent raises; every search gets a quarter of
its budget), so the server runs in this process (uvicorn in a thread, the AI in a thread)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
import uvicorn
from playwright.sync_api import Page

from plunder.core.game import State
from plunder.web import thinking
from plunder.web.app import create_app

from .conftest import PHONE, free_port, screenshot
from .test_play import click_action, drawn, legal, wait_turn

pytestmark = pytest.mark.browser


@pytest.fixture
def failing_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A server whose ``hard`` agents all raise; its base URL."""
    real = thinking.agent_for

    def agent_for(state: State, spec: str, keep: bool = True) -> Any:
        if spec == "hard":
            raise RuntimeError("the search ran out of room")
        return real(state, spec, keep)

    monkeypatch.setattr(thinking, "agent_for", agent_for)
    yield from serve_here(tmp_path)


@pytest.fixture
def busy_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A server where every search starts with a quarter of its budget, as when three games'
    requests wait for each worker; its base URL."""
    monkeypatch.setattr(thinking, "budget_share", lambda slots, waiting: 0.25)
    yield from serve_here(tmp_path)


def serve_here(tmp_path: Path) -> Iterator[str]:
    """Serve the app in this process (uvicorn in a thread, the AI in a thread): its base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(f"sqlite:///{tmp_path / 'plunder.db'}", ai_workers=0),
                                           host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.1)
    assert server.started, "the server did not start"
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(30)


def first_move_against_hard(page: Page, url: str) -> None:
    """Start a small Pillage game against ``hard`` at ``url`` and draw a line."""
    page.goto(f"{url}/new/pillage")
    page.select_option("#preset", "small")
    page.select_option('[name="seat.1"]', "hard")
    page.click("button[type=submit]")
    page.wait_for_selector("#link.live")
    assert wait_turn(page)
    on_board = [t for t in drawn(page) if t in legal(page)]
    click_action(page, on_board[0])


def test_a_failing_ai_is_told_and_the_game_goes_on(page: Page, failing_server: str, tmp_path: Path) -> None:
    first_move_against_hard(page, failing_server)
    # the player is told, and it is their turn again: the AI moved at the simpler level
    page.wait_for_function("() => document.getElementById('message').textContent.includes('failed')")
    message = page.inner_text("#message")
    assert message == "The medium AI: the hard AI failed on this position and level medium plays from now on."
    assert wait_turn(page)
    assert any("the medium ai: the hard ai failed on this position and level medium plays" in t.lower() for t in page.eval_on_selector_all(
        "#log li", "els => els.map(e => e.textContent)"))
    assert "The medium AI" in page.inner_text("#seats")  # the seat by its name, at its new level
    screenshot(page, "ai-fallback", tmp_path)
    page.set_viewport_size(PHONE)
    screenshot(page, "ai-fallback-phone", tmp_path)
    # and the game goes on: another move, another reply
    ply = page.evaluate("() => document.querySelectorAll('#log li').length")
    on_board = [t for t in drawn(page) if t in legal(page)]
    click_action(page, on_board[0])
    page.wait_for_function("n => document.querySelectorAll('#log li').length > n", arg=ply + 1)
    assert wait_turn(page) or page.locator("#result").is_visible()
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_busy_server_says_its_ai_searched_less(page: Page, busy_server: str, tmp_path: Path) -> None:
    first_move_against_hard(page, busy_server)
    page.wait_for_function("() => document.getElementById('message').textContent.includes('busy')")
    assert page.inner_text("#message") == ("The server was busy, so the hard AI searched 1,750 of its 7,000 "
                                           "simulations and 25,000 of its 100,000 positions, with its exact "
                                           "search from 20 moves before the end instead of 22.")
    assert wait_turn(page) or page.locator("#result").is_visible()
    assert any("the server was busy, so the hard ai searched 1,750 of its 7,000 simulations" in t.lower()
               for t in page.eval_on_selector_all("#log li", "els => els.map(e => e.textContent)"))
    screenshot(page, "ai-busy", tmp_path)
    page.set_viewport_size(PHONE)
    screenshot(page, "ai-busy-phone", tmp_path)
    assert page.errors == []  # type: ignore[attr-defined]
