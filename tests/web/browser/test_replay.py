"""A replay in a real browser: a record uploaded through the page and stepped through with the
buttons, the keyboard, the slider and the move list; the picture and the narration follow."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page

import plunder
from plunder.core.record import Record

from .conftest import PHONE, LiveServer, screenshot

pytestmark = pytest.mark.browser


def shown(page: Page, n: int) -> None:
    """Wait until the page shows position ``n``."""
    # a function, not an expression: the page's policy forbids evaluating a string
    page.wait_for_function("(n) => document.getElementById('replay').dataset.shown === String(n)", arg=n)


def test_an_uploaded_replay_is_stepped_through(page: Page, live_server: LiveServer, tmp_path: Path) -> None:
    record = plunder.play(plunder.load_game("pillage", preset="small"), ["greedy", "random"], seed=2)
    path = tmp_path / "game.json"
    path.write_text(record.to_json())
    last = len(record.moves)
    page.goto(live_server.url + "/replay")
    page.set_input_files("input[name=file]", str(path))
    page.get_by_role("button", name="Show the replay").click()
    page.wait_for_selector("#replay")
    assert page.locator("#at").inner_text() == "0"
    assert page.get_by_role("button", name="previous move").is_disabled()

    page.get_by_role("button", name="next move").click()
    shown(page, 1)
    assert page.locator("#told").inner_text() == f"move 1: {record.moves[0].action} — Box 1 of 9 holds 3 doubloons"
    for _ in range(17):
        page.keyboard.press("ArrowRight")
    shown(page, 18)
    # the picture is the server's: the 18th move's line is the one marked as last drawn
    assert f"move 18: {record.moves[17].action}" in page.locator("#board svg").inner_html()
    assert page.locator("#moves li.current").get_attribute("data-n") == "18"
    screenshot(page, "replay", tmp_path)

    page.keyboard.press("ArrowLeft")
    shown(page, 17)
    page.keyboard.press("End")
    shown(page, last)
    assert page.get_by_role("button", name="next move").is_disabled()
    # the record downloads again from the page (an upload is not stored on the server)
    with page.expect_download() as download:
        page.click("#download")
    assert Record.from_json(Path(download.value.path()).read_text()).moves == record.moves
    assert "Game over" in page.locator("#board svg").inner_html()
    page.keyboard.press("Home")
    shown(page, 0)
    page.get_by_role("button", name="last position").click()
    shown(page, last)
    page.get_by_role("button", name="first position").click()
    shown(page, 0)
    page.locator("#step").fill("10")
    shown(page, 10)
    page.locator('#moves li[data-n="25"] a').click()
    shown(page, 25)
    assert page.locator("#at").inner_text() == "25"
    assert page.errors == []  # type: ignore[attr-defined]

    # on a phone the board, the controls and the moves stack in one column
    page.set_viewport_size(PHONE)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px screen"


def test_a_bad_record_is_refused_on_the_page(page: Page, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/replay")
    page.locator("textarea[name=text]").fill('{"format": "plunder-record", "version": 9}')
    page.get_by_role("button", name="Show the replay").click()
    assert "version 9 is not supported" in page.locator("#upload-error").inner_text()
