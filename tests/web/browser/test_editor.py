"""The Pillage board editor in a real browser: a board drawn on an empty lattice (a drag and
clicks), contents painted, a line drawn before play, the legend changed, the board file saved,
read back by the game and opened again in the editor, and "Play it" starting a game on that
board."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page

from plunder.games.pillage.board_file import parse_board_json

from .conftest import PHONE, LiveServer, screenshot

pytestmark = pytest.mark.browser


def checked(page: Page, verdict: str) -> None:
    """Wait until the server has checked the sketch as it now stands, with ``verdict`` (ok or error)."""
    # a function, not an expression: the page's policy forbids evaluating a string
    page.wait_for_function("(v) => document.getElementById('status').className === 'status ' + v", arg=verdict)


def sketch_two_apart(page: Page) -> None:
    """Sketch a 1 x 3 lattice with its two end cells filled: a board of two boxes that share
    no line (refused, PP-1)."""
    page.select_option("#lattice-kind", "square")
    page.fill("#lattice-rows", "1")
    page.fill("#lattice-cols", "3")
    page.get_by_role("button", name="Empty lattice").click()
    cells = page.locator("svg.sketch .cell")
    cells.nth(0).click()
    cells.nth(2).click()


def centre(locator: Locator) -> tuple[float, float]:
    box = locator.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_a_board_is_drawn_saved_and_played(page: Page, live_server: LiveServer, tmp_path: Path) -> None:
    page.goto(live_server.url + "/editor")
    checked(page, "ok")
    # a 2x3 square lattice, empty; drag along the top row to make three boxes, then click one below
    #   a1--b1--c1--d1
    #   | 0  | 1  | 2  |
    #   a2--b2--c2--d2
    #   | 3  | 4  | 5  |
    #   a3--b3--c3--d3
    page.select_option("#lattice-kind", "square")
    page.fill("#lattice-rows", "2")
    page.fill("#lattice-cols", "3")
    page.get_by_role("button", name="Empty lattice").click()
    checked(page, "error")
    assert "no boxes yet" in page.locator("#status").inner_text()
    cells = page.locator("svg.sketch .cell")
    assert cells.count() == 6
    page.mouse.move(*centre(cells.nth(0)))
    page.mouse.down()
    page.mouse.move(*centre(cells.nth(1)), steps=4)
    page.mouse.move(*centre(cells.nth(2)), steps=4)
    page.mouse.up()
    cells.nth(4).click()
    checked(page, "ok")
    assert page.locator("svg.sketch .cell.on").count() == 4

    # contents: 2 doubloons everywhere, then food in box 1 and a modifier in box 4
    page.get_by_label("doubloons in the pile").fill("2")
    page.get_by_role("button", name="Fill the empty boxes").click()
    page.get_by_label("Commodity", exact=True).check()
    page.select_option("#commodity", "food")
    cells.nth(1).click()
    page.get_by_label("Modifier", exact=True).check()
    page.get_by_label("modifier amount").fill("3")
    page.locator("#modifier-kinds input[value=armor]").uncheck()
    page.locator("#modifier-kinds input[value=weapons]").uncheck()
    cells.nth(4).click()
    # a line drawn before play: the top of box 0 (dots 0 and 1 of the lattice)
    page.locator(".tools label", has_text="Lines before play").click()
    page.mouse.click(*centre(page.locator('[data-edge="0-1"] line.hit')))  # a flat line: Playwright calls it hidden
    # food starts at 7
    page.get_by_label("starting value of commodity 1").fill("7")
    page.get_by_label("starting value of commodity 1").press("Tab")
    checked(page, "ok")
    status = page.locator("#status").inner_text()
    assert "4 boxes, 13 lines (1 drawn before play), contents as drawn" in status and "food 7" in status
    screenshot(page, "editor", tmp_path)

    with page.expect_download() as download:
        page.get_by_role("link", name="Save the board file").click()
    saved = Path(download.value.path()).read_text()
    board = parse_board_json(saved)
    assert board.contents == ("2", "food", "2", "-3 food")
    assert board.legend is not None and dict(zip(board.legend.kinds, board.legend.values))["food"] == 7
    assert [board.board.edge_label(e) for e in board.board.predrawn] == ["a1-b1"]

    # the saved file opens in the editor as the same board
    page.get_by_role("button", name="Empty lattice").click()
    checked(page, "error")
    page.set_input_files("#open-file", download.value.path())
    checked(page, "ok")
    assert page.locator("#status").inner_text() == status
    assert page.locator("svg.sketch .cell.on").count() == 4

    page.select_option("#opponent", "easy")
    page.get_by_role("button", name="Play it").click()
    page.wait_for_url("**/play/*")
    game_id = page.url.rsplit("/", 1)[1]
    record = json.loads(page.request.get(f"{live_server.url}/record/{game_id}").text())
    assert record["params"]["board"] == "json:" + board.to_json()
    assert page.locator("svg").first.is_visible()
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_refused_board_says_why_and_cannot_be_played(page: Page, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/editor")
    checked(page, "ok")
    sketch_two_apart(page)
    checked(page, "error")
    assert "PP-1" in page.locator("#status").inner_text()
    assert page.get_by_role("button", name="Play it").is_disabled()


def test_the_editor_fits_a_phone(page: Page, live_server: LiveServer) -> None:
    page.set_viewport_size(PHONE)
    page.goto(live_server.url + "/editor")
    checked(page, "ok")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px screen"
