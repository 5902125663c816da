"""Hubs by touch on a phone, and clicks just off the sheet (issues 23 and 39): a tap aims at
the nearest lattice point (or, once segments are drawn, the nearest dot) and a panel at the
bottom of the screen, where the thumb is, shows the sheet around it magnified with the button
that acts ("Place", "Join"). A whole game is played this way at 390x844 with touch events,
every tap off-centre by up to half the distance between neighbouring points (and dots),
each landing where it was meant. Words on the sheet are never under 10 CSS px. A mouse click
just outside the frame takes the nearest point on its edge, and one further off says why
nothing was placed."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from .conftest import DESKTOP, PHONE, LiveServer, point_on_screen, screenshot
from .test_play import MAX_CLICKS, legal, start, wait_turn

pytestmark = pytest.mark.browser

#: how far off-centre a tap may land, as a share of the distance to the nearest neighbour
#: (just under a half: at exactly a half the tap is as near the neighbour)
JITTER = 0.48

#: where on the screen (a share of its height) a tapped spot is scrolled to, as a person
#: scrolls what they mean to tap above the aiming panel at the bottom
TAP_HEIGHT = 0.3


def spot_on_screen(page: Page, x: float, y: float) -> tuple[float, float]:
    """Where the point ``x, y`` of the picture (its own units) is on the screen, scrolled
    into the upper part of the screen and inside the board's frame first."""
    spot: list[float] = page.evaluate("""([x, y, height]) => {
        const svg = document.querySelector('#board svg'), frame = document.getElementById('board');
        const at = () => {
            const p = svg.createSVGPoint();
            p.x = x; p.y = y;
            return p.matrixTransform(svg.getScreenCTM());
        };
        let s = at();
        const box = frame.getBoundingClientRect();
        if (s.x < box.left + 20 || s.x > box.right - 20) { frame.scrollLeft += s.x - (box.left + box.width / 2); s = at(); }
        window.scrollBy(0, s.y - window.innerHeight * height);
        s = at();
        return [s.x, s.y];
    }""", [x, y, TAP_HEIGHT])
    return spot[0], spot[1]


def sheet(page: Page) -> dict[str, float]:
    """The sheet's origin and step (the picture's units)."""
    found: dict[str, float] = page.evaluate("""() => {
        const d = document.querySelector('#board rect.sheet').dataset;
        return {x: Number(d.originX), y: Number(d.originY), step: Number(d.step)};
    }""")
    return found


def dot_centres(page: Page) -> dict[str, tuple[float, float]]:
    """Each drawn dot's centre (the picture's units), by label."""
    found: dict[str, list[float]] = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#board [data-dot]')]
        .map((g) => { const c = g.querySelector('circle');
                      return [g.dataset.dot, [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))]]; }))""")
    return {k: (v[0], v[1]) for k, v in found.items()}


def scale(page: Page) -> float:
    """Screen pixels to one unit of the picture."""
    a: float = page.evaluate("() => document.querySelector('#board svg').getScreenCTM().a")
    return a


def jittered_tap(page: Page, x: float, y: float, neighbour: float, rng: random.Random) -> None:
    """A tap at the picture's point ``x, y``, off-centre in a random direction by up to
    :data:`JITTER` of ``neighbour`` (the picture's units) to the nearest neighbour."""
    sx, sy = spot_on_screen(page, x, y)
    reach = JITTER * neighbour * scale(page) * math.sqrt(rng.random())
    angle = rng.uniform(0, 2 * math.pi)
    page.touchscreen.tap(sx + reach * math.cos(angle), sy + reach * math.sin(angle))


def aim_says(page: Page, start: str) -> None:
    """Wait for the aiming panel to show, saying something that starts with ``start`` (a tap's
    click arrives after the touch), and fail saying what it said instead."""
    try:
        page.wait_for_function("(start) => { const p = document.querySelector('#hub-aim:not([hidden]) p');"
                               " return p && p.textContent.startsWith(start); }", arg=start, timeout=5_000)
    except Exception:  # noqa: BLE001 - the failure names what the panel said
        said = page.evaluate("() => { const p = document.querySelector('#hub-aim:not([hidden]) p'); return p && p.textContent; }")
        pytest.fail(f"the aiming panel said {said!r}, not {start!r}...")


def thumb_tap(page: Page, selector: str) -> None:
    """Tap ``selector``, which must be on the screen as it is (no scrolling to reach it)."""
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not on the page"
    assert 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"], f"{selector} is off the screen"
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def tap_move(page: Page, move: str, rng: random.Random) -> None:
    """Play ``move`` by touch with jittered taps, checking each lands where it was meant."""
    if move.startswith("dot "):
        x, y = (int(v) for v in move[4:].split(","))
        s = sheet(page)
        jittered_tap(page, s["x"] + x * s["step"], s["y"] - y * s["step"], s["step"], rng)
        aim_says(page, f"Aiming at {x},{y}.")
        assert page.locator("#hub-aim svg.loupe circle.ghost").count() == 1  # the magnified view shows the aim
        thumb_tap(page, "#hub-aim button.place")
        page.wait_for_selector("#hub-aim", state="hidden")  # the next position has come
        return
    first, second = move[4:].split("-")
    centres = dot_centres(page)
    for n, label in enumerate((first, second)):
        cx, cy = centres[label]
        # neighbouring lattice points, or a nearer dot (never nearer in fact: dots sit on points)
        nearest = min([sheet(page)["step"]] + [math.dist((cx, cy), c) for k, c in centres.items() if k != label])
        jittered_tap(page, cx, cy, nearest, rng)
        aim_says(page, f"Dot {first} picked" if n == 0 else f"Join {first} to {second}?")
    # the picked dot and its legal partners look different, on the board and magnified
    looks = page.evaluate("""() => {
        const look = (sel) => { const c = document.querySelector(sel); if (!c) return null;
            const s = getComputedStyle(c); return [s.fill, s.strokeDasharray].join(' '); };
        return [look('#board g.dot.picked circle'), look('#board g.dot.partner circle'),
                look('#hub-aim svg.loupe g.dot.picked circle')];
    }""")
    assert looks[0] is not None and looks[1] is not None and looks[0] != looks[1], looks
    assert looks[2] == looks[0]
    thumb_tap(page, "#hub-aim button.join")
    page.wait_for_selector("#hub-aim", state="hidden")  # the next position has come


def test_a_whole_hubs_game_by_jittered_taps_on_a_phone(browser: Browser, live_server: LiveServer, tmp_path: Path) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    context.set_default_timeout(15_000)
    rng = random.Random(39)
    shots = {"dot": False, "seg": False}
    try:
        page = context.new_page()
        start(page, live_server, "hubs", "small", seats=["me", "easy"])
        for _ in range(MAX_CLICKS):
            if not wait_turn(page):
                break
            move = rng.choice(legal(page))
            kind = move[:3]
            if kind == "seg" and not shots["seg"]:
                # the picked dot's screen: tapped by hand here to take its picture
                centres = dot_centres(page)
                first = move[4:].split("-")[0]
                nearest = min(math.dist(centres[first], c) for k, c in centres.items() if k != first)
                jittered_tap(page, *centres[first], nearest, rng)
                aim_says(page, f"Dot {first} picked")
                screenshot(page, "touch-hubs-pick-phone", tmp_path)
                thumb_tap(page, "#hub-aim button.cancel")
                page.wait_for_selector("#hub-aim", state="hidden")
            tap_move(page, move, rng)
            if not shots.get(kind, True):
                shots[kind] = True
            page.wait_for_function("() => !document.getElementById('game').classList.contains('waiting')")
        else:
            pytest.fail("the game did not end")
        assert shots == {"dot": True, "seg": True}
        assert page.locator("#result").is_visible() and page.inner_text("#verdict").startswith("Game over")
        assert page.locator("#log li").count() >= 2 * (8 + 3)  # two rounds of 8 dots and at least 3 segments
    finally:
        context.close()


def small_words(page: Page, where: str) -> list[str]:
    """The words shown in ``where`` (an SVG) smaller than 10 CSS px."""
    found: list[str] = page.evaluate("""(where) => {
        const svg = document.querySelector(where), a = svg.getScreenCTM().a;
        return [...svg.querySelectorAll('text.label, text.tick, text.count')]
            .filter((t) => getComputedStyle(t).display !== 'none' && Number(t.getAttribute('font-size')) * a < 9.99)
            .map((t) => `${t.textContent} at ${(Number(t.getAttribute('font-size')) * a).toFixed(1)} px`);
    }""", where)
    return found


def test_aiming_by_touch_on_the_default_sheet(browser: Browser, live_server: LiveServer, tmp_path: Path) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        start(page, live_server, "hubs", seats=["me", "easy"])
        page.wait_for_selector("#game.my-turn")
        (x0, _), (x1, _) = point_on_screen(page, 0, 0), point_on_screen(page, 1, 0)
        # points far closer together than a fingertip is wide (about 40 px)
        assert x1 - x0 < 20, "the default sheet's points are closer than a fingertip on a phone"
        assert small_words(page, "#board svg") == []
        page.touchscreen.tap(*point_on_screen(page, 30, 20))
        page.wait_for_selector("#hub-aim:not([hidden])")
        before = page.evaluate("() => window.scrollY")
        for n in range(3):
            thumb_tap(page, "#hub-aim button.nudge:text('↑')")
            aim_says(page, f"Aiming at 30,{21 + n}.")
        # a tap on the magnified view aims there: one step right of the aim
        s = sheet(page)
        there: list[float] = page.evaluate("""([x, y]) => {
            const loupe = document.querySelector('#hub-aim svg.loupe'), p = loupe.createSVGPoint();
            p.x = x; p.y = y;
            const q = p.matrixTransform(loupe.getScreenCTM());
            return [q.x, q.y];
        }""", [s["x"] + 31.4 * s["step"], s["y"] - 22.7 * s["step"]])
        page.touchscreen.tap(there[0], there[1])
        aim_says(page, "Aiming at 31,23.")
        assert page.evaluate("() => window.scrollY") == before  # nothing scrolled to reach the buttons
        screenshot(page, "roughweb-hubs-aim-phone", tmp_path)
        thumb_tap(page, "#hub-aim button.place")
        page.wait_for_function("() => document.getElementById('log').textContent.includes('at 31,23')")
        # the easy AI has placed its dot: aimed at, it is taken and "Place" is off (the list of
        # legal points is capped on this sheet, so the page reads the taken points off the sheet)
        page.wait_for_selector("#game.my-turn:not(.waiting)")
        centres = dot_centres(page)
        s = sheet(page)
        theirs = next(c for c in centres.values()
                      if (round((c[0] - s["x"]) / s["step"]), round((s["y"] - c[1]) / s["step"])) != (31, 23))
        page.touchscreen.tap(*spot_on_screen(page, *theirs))
        aim_says(page, "Point ")
        assert page.inner_text("#hub-aim p").endswith("is taken: move the aim.")
        assert page.locator("#hub-aim button.place").is_disabled()
    finally:
        context.close()


@pytest.mark.parametrize("size", ["phone", "phone-full", "desktop"])
def test_words_on_the_sheet_are_at_least_10_px(browser: Browser, live_server: LiveServer, tmp_path: Path, size: str) -> None:
    phone = size.startswith("phone")
    context = browser.new_context(viewport=PHONE if phone else DESKTOP, has_touch=phone, is_mobile=phone)
    try:
        page = context.new_page()
        start(page, live_server, "hubs", "long", seats=["me", "easy"])
        page.wait_for_selector("#game.my-turn")
        if size == "phone-full":
            page.click("#board-size")
        for _ in range(2):  # two dots each: labels and counts on the sheet
            s = sheet(page)
            free = next(m for m in legal(page) if m.startswith("dot "))
            x, y = (int(v) for v in free[4:].split(","))
            if phone:
                page.touchscreen.tap(*spot_on_screen(page, s["x"] + x * s["step"], s["y"] - y * s["step"]))
                aim_says(page, f"Aiming at {x},{y}.")
                thumb_tap(page, "#hub-aim button.place")
            else:
                page.mouse.click(*point_on_screen(page, x, y))
            page.wait_for_function("() => document.querySelectorAll('#board [data-dot]').length >= 2 && "
                                   "document.getElementById('game').classList.contains('my-turn') && "
                                   "!document.getElementById('game').classList.contains('waiting')")
        assert small_words(page, "#board svg") == []
        shown = page.evaluate("() => [...document.querySelectorAll('#board svg text.label')].filter((t) => getComputedStyle(t).display !== 'none').length")
        if phone:
            page.touchscreen.tap(*spot_on_screen(page, *next(iter(dot_centres(page).values()))))
            aim_says(page, "Point ")
            assert small_words(page, "#hub-aim svg.loupe") == []
            # hidden on the whole board or not, the dots' labels are read in the magnified view
            assert page.evaluate("() => [...document.querySelectorAll('#hub-aim svg.loupe text.label')]"
                                 ".some((t) => getComputedStyle(t).display !== 'none')")
        else:
            assert shown >= 2  # on a desktop the labels are on the board itself
        screenshot(page, f"touch-hubs-words-{size}", tmp_path)
    finally:
        context.close()


def test_a_click_just_off_the_sheets_edge_takes_the_edge_point(page: Page, live_server: LiveServer) -> None:
    start(page, live_server, "hubs", "small", seats=["me", "easy"])
    page.wait_for_selector("#game.my-turn")
    free = [m for m in legal(page) if m.startswith("dot 0,")]
    y = int(free[0].split(",")[1])
    x, sy = point_on_screen(page, 0, y)
    page.mouse.click(x - 2, sy)  # 2 px left of the frame
    page.wait_for_function("(y) => document.getElementById('log').textContent.includes(`at 0,${y}`)", arg=y)
    page.wait_for_selector("#game.my-turn:not(.waiting)")
    # further off, but still by the sheet: the page says why nothing was placed
    step = point_on_screen(page, 1, 0)[0] - point_on_screen(page, 0, 0)[0]
    page.mouse.click(x - 2 * step, sy)
    page.wait_for_selector("#message:not([hidden])")
    assert "outside the sheet" in page.inner_text("#message")
