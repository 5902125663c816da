"""The coach in a real browser: a small Pillage game played against the AI, its replay page's
"Analyse" pressed; the value curve appears, the move list gets its marks, and stepping to a
marked move shows the better one in words; a summary per player closes the analysis. Reopened,
on a desktop and on a phone by touch, the page shows the marks the server kept."""

from __future__ import annotations

import json
import math
import re
import urllib.request
from pathlib import Path
from typing import Mapping, Sequence

import pytest
from playwright.sync_api import Browser, Page

import plunder

from .conftest import PHONE, LiveServer, phone_tab, screenshot
from .test_play import first_drawn, play_out, start
from .test_replay import shown

pytestmark = pytest.mark.browser

#: milliseconds the test waits for the whole analysis (a few seconds of CPU on a loaded machine)
ANALYSIS_MS = 120_000


def _answered(moves: Sequence[Mapping[str, object]], units: str, thresholds: dict[str, int],
              seats: list[str]) -> dict[str, object]:
    """An analysis in the server's shape, for a test that answers the page's request itself."""
    return {"status": "done", "done": len(moves), "total": len(moves), "units": units, "thresholds": thresholds,
            "seats": seats, "since": 0, "moves": moves,
            "summary": [{"seat": s, "decisions": 1, "average_loss": 0, "worst": [],
                         "marks": {"good": 0, "inaccuracy": 0, "mistake": 0, "blunder": 0, "unclear": 0}}
                        for s in range(len(seats))]}


def _analysed_upload(tab: Page, live_server: LiveServer, path: Path, body: dict[str, object]) -> None:
    """Upload the record at ``path`` on the replay page and press Analyse, the analysis answered
    with ``body``; returns once the page shows it."""
    tab.route("**/analyse", lambda route: route.fulfill(status=200, content_type="application/json",
                                                        body=json.dumps(body)))
    tab.goto(live_server.url + "/replay")
    tab.set_input_files("input[name=file]", str(path))
    tab.get_by_role("button", name="Show the replay").click()
    tab.wait_for_selector("#replay")
    tab.get_by_role("button", name="Analyse").click()
    tab.wait_for_function("() => document.getElementById('replay').dataset.analysed === 'yes'")


def test_a_finished_game_is_analysed_on_its_replay_page(page: Page, live_server: LiveServer, tmp_path: Path) -> None:
    start(page, live_server, "pillage", "small", seats=["me", "easy"])
    play_out(page, first_drawn)
    game_id = page.url.rstrip("/").rsplit("/", 1)[1]
    page.goto(f"{live_server.url}/replay/game/{game_id}")
    assert page.locator("#coach-curve").is_hidden()

    page.get_by_role("button", name="Analyse").click()
    assert page.get_by_role("button", name="Analyse").is_disabled()
    # the curve is drawn as soon as the first values come, one line per seat (on a 3x3 board every
    # position is valued by the exact search, whose first use in a process may compile it first;
    # a seat lost from the start is a flat line, which has no height, so it is waited for attached)
    page.wait_for_selector("#coach-curve svg polyline.seat-line", state="attached", timeout=ANALYSIS_MS)
    page.wait_for_function("() => document.getElementById('replay').dataset.analysed === 'yes'",
                           timeout=ANALYSIS_MS)
    assert page.locator("#coach-curve polyline.seat-line").count() == 2
    assert page.locator("#coach-status").inner_text().startswith("Analysed:")

    # the page marks what the server judged: the same moves, no more, no fewer
    with urllib.request.urlopen(f"{live_server.url}/replay/game/{game_id}/analysis") as answer:
        judged = json.load(answer)["moves"]
    bad = [m for m in judged if m["mark"] != "good"]
    assert bad, "a game against easy with the first line drawn every turn had no marked move"
    marked = page.locator("#moves li[data-mark]")
    assert marked.count() == len(bad)
    assert [int(n) for n in marked.evaluate_all("els => els.map(e => e.dataset.n)")] == [m["n"] for m in bad]
    assert page.locator("#coach-curve circle.dot").count() == len(bad)
    assert page.locator("#coach-summary tbody tr").count() == 2

    # stepping to a marked move shows the better one, in words; the curve marks the position
    worst = max(bad, key=lambda m: m["loss"])
    page.locator(f'#moves li[data-n="{worst["n"]}"] a').click()
    shown(page, worst["n"])
    better = page.locator("#coach-better")
    assert better.is_visible()
    text = better.inner_text()
    assert f"Move {worst['n']} by " in text, text
    if worst["mark"] == "unclear":
        assert f"unclear. The coach's playouts cannot tell" in text and worst["loss_words"] in text, text
    else:
        assert f", a {worst['mark']}: it loses {worst['loss_words']} doubloons" in text, text
        assert f"Played: {worst['played_words']}. Better: {worst['best_words']}." in text, text
    # the better move drawn on the board, and the move played again
    page.get_by_role("button", name="Show the better move on the board").click()
    page.wait_for_function("() => document.getElementById('replay').dataset.drawn === 'better'")
    assert f"move {worst['n']}: {worst['best']}" in page.locator("#board svg").inner_html()
    assert page.locator("#told").inner_text().startswith(f"Instead: move {worst['n']}: {worst['best']}")
    screenshot(page, "coach-desktop", tmp_path)
    page.get_by_role("button", name="Show the move played").click()
    page.wait_for_function("() => document.getElementById('replay').dataset.drawn === 'played'")
    assert f"move {worst['n']}: {worst['played']}" in page.locator("#board svg").inner_html()
    x = float(page.locator("#coach-at").get_attribute("x1") or "nan")
    page.keyboard.press("ArrowRight")
    shown(page, worst["n"] + 1)
    assert float(page.locator("#coach-at").get_attribute("x1") or "nan") > x
    page.keyboard.press("ArrowLeft")
    shown(page, worst["n"])

    # reopened, the page shows what the server kept, without a press
    page.reload()
    page.wait_for_function("() => document.getElementById('replay').dataset.analysed === 'yes'")
    assert page.locator("#moves li[data-mark]").count() == len(bad)
    assert page.locator("#coach-curve polyline.seat-line").count() == 2
    assert page.get_by_role("button", name="Analyse").is_disabled()

    page.set_viewport_size(PHONE)
    screenshot(page, "coach-phone", tmp_path)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px screen"
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_reopened_analysed_game_shows_its_marks_on_a_phone(browser: Browser, page: Page, live_server: LiveServer,
                                                             tmp_path: Path) -> None:
    """Analysed once, a game's replay opened on a phone by touch shows its marks, its curve with
    the band of its estimates, and the word of a marked move, with nothing pressed."""
    start(page, live_server, "pillage", "small", seats=["me", "easy"])
    play_out(page, first_drawn)
    game_id = page.url.rstrip("/").rsplit("/", 1)[1]
    request = urllib.request.Request(f"{live_server.url}/replay/game/{game_id}/analyse", method="POST",
                                     headers={"Origin": live_server.url})
    with urllib.request.urlopen(request) as answer:
        assert answer.status in (200, 202)
    page.goto(f"{live_server.url}/replay/game/{game_id}")
    page.wait_for_function("() => document.getElementById('replay').dataset.analysed === 'yes'",
                           timeout=ANALYSIS_MS)
    with urllib.request.urlopen(f"{live_server.url}/replay/game/{game_id}/analysis") as answer:
        judged = json.load(answer)["moves"]
    bad = [m for m in judged if m["mark"] != "good"]
    assert bad, "a game against easy with the first line drawn every turn had no marked move"
    bands = sum(not m["exact"] for m in judged)

    with phone_tab(browser) as (tab, errors):
        tab.goto(f"{live_server.url}/replay/game/{game_id}")
        tab.wait_for_function("() => document.getElementById('replay').dataset.analysed === 'yes'")
        marked = tab.locator("#moves li[data-mark]")
        assert [int(n) for n in marked.evaluate_all("els => els.map(e => e.dataset.n)")] == [m["n"] for m in bad]
        assert tab.locator("#coach-curve polygon.band").count() == (2 if bands else 0)
        assert tab.locator("#coach-summary tbody tr").count() == 2
        worst = max(bad, key=lambda m: m["loss"])
        tab.locator(f'#moves li[data-n="{worst["n"]}"] a').tap()
        shown(tab, worst["n"])
        assert f"Move {worst['n']} by " in tab.locator("#coach-better").inner_text()
        screenshot(tab, "coach-reopened-phone", tmp_path)
        width = tab.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px screen"
        assert errors == []
    screenshot(page, "coach-reopened-desktop", tmp_path)
    assert page.errors == []  # type: ignore[attr-defined]


def test_an_uploaded_finished_record_is_analysed(page: Page, live_server: LiveServer, tmp_path: Path) -> None:
    record = plunder.play(plunder.load_game("pillage", preset="small"), ["random", "easy"], seed=2)
    path = tmp_path / "game.json"
    path.write_text(record.to_json())
    page.goto(live_server.url + "/replay")
    page.set_input_files("input[name=file]", str(path))
    page.get_by_role("button", name="Show the replay").click()
    page.wait_for_selector("#replay")
    page.get_by_role("button", name="Analyse").click()  # the page sends the record it carries
    page.wait_for_function("() => document.getElementById('replay').dataset.analysed === 'yes'",
                           timeout=ANALYSIS_MS)
    assert page.locator("#coach-curve polyline.seat-line").count() == 2
    assert page.locator("#moves li[data-mark]").count() >= 1
    first = int(page.locator("#moves li[data-mark]").first.get_attribute("data-n") or "-1")
    page.locator(f'#moves li[data-n="{first}"] a').click()
    shown(page, first)
    text = page.locator("#coach-better").inner_text()
    assert "Better: " in text or ("unclear" in text and "Perhaps better: " in text), text
    assert page.errors == []  # type: ignore[attr-defined]


def test_five_seats_stay_readable_one_strong_the_others_faint(page: Page, live_server: LiveServer,
                                                              tmp_path: Path) -> None:
    """A 5-player Crossroads curve: the seat of the move the player is at is drawn strong with its
    band, the others faint; stepping to another seat's move makes that seat the strong one. The
    analysis is the server's shape, answered by the test (the drawing is what is checked)."""
    record = plunder.play(plunder.load_game("crossroads", players="5"), ["random"] * 5, seed=3)
    path = tmp_path / "game.json"
    path.write_text(record.to_json())
    decisions = [(i + 1, m.by) for i, m in enumerate(record.moves) if m.by is not None]
    moves = [{"n": n, "seat": by, "played": "x", "best": "x", "played_words": "x", "best_words": "x", "loss": 0.0,
              "loss_words": "about 0", "error": 1.0, "win_loss": None, "mark": "unclear" if k % 7 == 3 else "good",
              "margins": [round(4 * math.sin(k / 40 + 1.3 * s), 2) for s in range(5)], "wins": None,
              "margin_errors": [0.8] * 5, "win_errors": None, "exact": False}
             for k, (n, by) in enumerate(decisions)]
    body = _answered(moves, "gold", {"inaccuracy": 3, "mistake": 8, "blunder": 15}, [f"Seat {s}" for s in range(5)])
    _analysed_upload(page, live_server, path, body)
    assert page.locator("#coach-curve polyline.seat-line").count() == 5
    assert page.locator("#coach-curve polyline.seat-line.faint").count() == 4
    assert page.locator("#coach-curve polyline.seat-line:not(.faint)").get_attribute("data-seat") == "0"
    assert page.locator("#coach-curve polygon.band:not(.faint)").count() == 1
    other = next((n, by) for n, by in decisions if by == 3)
    page.locator(f'#moves li[data-n="{other[0]}"] a').click()
    shown(page, other[0])
    assert page.locator("#coach-curve polyline.seat-line:not(.faint)").get_attribute("data-seat") == "3"
    assert page.locator("#coach-curve polygon.band:not(.faint)").get_attribute("data-seat") == "3"
    assert page.locator(".coach-legend li.focus").inner_text().startswith("Seat 3")
    page.locator("#coach-curve").scroll_into_view_if_needed()
    screenshot(page, "coach-five-seats-desktop", tmp_path)
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_tiny_hubs_game_is_marked_by_the_exact_solver(page: Page, live_server: LiveServer, tmp_path: Path) -> None:
    """Hubs on the 3x3 sheet is solved whole: every move of an uploaded game is valued exactly,
    its losses worded exactly in match points, on a desktop and on a phone."""
    record = plunder.play(plunder.load_game("hubs", preset="tiny"), ["random", "easy"], seed=103)
    path = tmp_path / "hubs.json"
    path.write_text(record.to_json())
    page.goto(live_server.url + "/replay")
    page.set_input_files("input[name=file]", str(path))
    # the replay worker's first record may wait for the process to start on a loaded machine
    page.get_by_role("button", name="Show the replay").click(no_wait_after=True)
    page.wait_for_selector("#replay", timeout=ANALYSIS_MS)
    page.get_by_role("button", name="Analyse").click()
    page.wait_for_function("() => document.getElementById('replay').dataset.analysed === 'yes'",
                           timeout=ANALYSIS_MS)
    marked = page.locator("#moves li[data-mark]")
    assert marked.count() >= 1
    # every mark is the solver's: a loss in whole match points, never an estimate nor "unclear"
    titles = page.locator("#moves li[data-mark] .coach-mark").evaluate_all("els => els.map(e => e.title)")
    assert len(titles) == marked.count() and all(re.fullmatch(r"loses \d+ match points", t) for t in titles), titles
    worst = int(marked.last.get_attribute("data-n") or "-1")
    page.locator(f'#moves li[data-n="{worst}"] a').click()
    shown(page, worst)
    text = page.locator("#coach-better").inner_text()
    assert re.search(r": it loses \d+ match points", text) and "Better: Player " in text, text
    screenshot(page, "coach-hubs-desktop", tmp_path)
    page.set_viewport_size(PHONE)
    screenshot(page, "coach-hubs-phone", tmp_path)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px screen"
    # the note on the marks wraps on the screen, whether or not the table beside it scrolls
    note = page.locator(".coach-summary .coach-note").bounding_box()
    assert note is not None and note["x"] >= 0 and note["x"] + note["width"] <= PHONE["width"], note
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_proven_bound_is_worded_as_a_bound(browser: Browser, page: Page, live_server: LiveServer,
                                             tmp_path: Path) -> None:
    """A 4x4 opening move whose mark the solver proved (a null-window test: "loses at least 10")
    is shown as a bound, in its badge and in the words beside the board, on a desktop and on a
    phone by touch. The analysis is the server's shape, answered by the test (a proof needs a
    solve of seconds, which a loaded machine may not give it)."""
    record = plunder.play(plunder.load_game("pillage"), ["random", "random"], seed=5)
    path = tmp_path / "game.json"
    path.write_text(record.to_json())
    decisions = [(i + 1, m.by, m.action) for i, m in enumerate(record.moves) if m.by is not None]
    proven = {3: ("blunder", 10.0, None, "at least 10"), 5: ("mistake", 5.0, 8.0, "5 to 8")}
    moves = []
    for k, (n, by, action) in enumerate(decisions):
        mark, loss, upper, words = proven.get(k, ("good", 0.0, None, "0"))
        moves.append({"n": n, "seat": by, "played": action, "best": "x" if k in proven else action,
                      "played_words": f"the line {action}", "best_words": "another line" if k in proven else "",
                      "loss": loss, "loss_words": words, "error": 0.0, "win_loss": None, "mark": mark,
                      "margins": [float(k % 5), -float(k % 5)], "wins": None, "margin_errors": None,
                      "win_errors": None, "exact": False, "bounded": k in proven})
    body = _answered(moves, "doubloons", {"inaccuracy": 2, "mistake": 5, "blunder": 10}, ["Anne", "Bob"])
    blunder = decisions[3][0]
    _analysed_upload(page, live_server, path, body)
    titles = page.locator("#moves li[data-mark] .coach-mark").evaluate_all("els => els.map(e => e.title)")
    assert titles == ["loses at least 10 doubloons", "loses 5 to 8 doubloons"], titles
    page.locator(f'#moves li[data-n="{blunder}"] a').click()
    shown(page, blunder)
    text = page.locator("#coach-better").inner_text()
    assert ", a blunder: it loses at least 10 doubloons" in text and "about" not in text, text
    screenshot(page, "coach-bound-desktop", tmp_path)

    with phone_tab(browser) as (tab, errors):
        _analysed_upload(tab, live_server, path, body)
        tab.locator(f'#moves li[data-n="{blunder}"] a').tap()
        shown(tab, blunder)
        assert "it loses at least 10 doubloons" in tab.locator("#coach-better").inner_text()
        screenshot(tab, "coach-bound-phone", tmp_path)
        width = tab.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px screen"
        assert errors == []
    assert page.errors == []  # type: ignore[attr-defined]
