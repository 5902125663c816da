"""Refusals said in place (issue 39): a refused name comes back on the page its form was on,
the reason beside the field and the name typed kept in it; "Rated" ticked with a hotseat seat
comes back as the same form, the reason beside the box and every choice kept. On a phone the
name form of a guest who has not chosen a name is folded (its summary opens it). Each at
1280x900 and at 390x844 with touch; screenshots in docs/web/inplace-*.png."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from .conftest import DESKTOP, PHONE, LiveServer, screenshot

pytestmark = pytest.mark.browser

SIZES = [pytest.param(False, id="desktop"), pytest.param(True, id="phone")]


def profile(browser: Browser, phone: bool) -> BrowserContext:
    """A fresh browser profile at desktop size, or a phone's with touch."""
    ctx = browser.new_context(viewport=PHONE if phone else DESKTOP, has_touch=phone, is_mobile=phone)
    ctx.set_default_timeout(15_000)
    return ctx


def suffix(phone: bool) -> str:
    """The screenshot name's ending for the size."""
    return "phone" if phone else "desktop"


@pytest.mark.parametrize("phone", SIZES)
def test_a_refused_name_is_said_beside_the_field_on_the_same_page(browser: Browser, live_server: LiveServer,
                                                                  tmp_path: Path, phone: bool) -> None:
    ctx = profile(browser, phone)
    try:
        page = ctx.new_page()
        page.goto(f"{live_server.url}/lobby")
        if phone:
            page.click("#my-name")  # folded on a phone: its summary opens it
        page.fill("#name-input", "The Hard AI")
        page.click("#name-form button")
        expect(page.locator("#name-error")).to_contain_text("may not contain the word AI")
        assert page.url == f"{live_server.url}/lobby"  # the same page, not one of its own
        assert page.input_value("#name-input") == "The Hard AI"  # kept to correct
        # beside the field: under it in the header, on the screen as the page opens
        field, said = page.locator("#name-input").bounding_box(), page.locator("#name-error").bounding_box()
        assert field is not None and said is not None
        assert field["y"] <= said["y"] < field["y"] + field["height"] + 80, (field, said)
        assert said["y"] + said["height"] <= (PHONE if phone else DESKTOP)["height"]
        screenshot(page, f"inplace-name-{suffix(phone)}", tmp_path)
        # said once: the next page is without it, and a good name is kept
        page.goto(f"{live_server.url}/lobby")
        assert page.locator("#name-error").count() == 0
        if phone:
            page.click("#my-name")
        kept = "Rosa Phone" if phone else "Rosa Desk"  # one server for all tests: names differ
        page.fill("#name-input", kept)
        page.click("#name-form button")
        expect(page.locator("#my-name")).to_have_text(kept)
    finally:
        ctx.close()


@pytest.mark.parametrize("phone", SIZES)
def test_rated_with_a_hotseat_is_said_beside_the_box_with_every_choice_kept(browser: Browser, live_server: LiveServer,
                                                                           tmp_path: Path, phone: bool) -> None:
    ctx = profile(browser, phone)
    try:
        page = ctx.new_page()
        page.goto(f"{live_server.url}/new/pillage")
        page.select_option("#preset", "small")
        page.select_option('[name="seat.1"]', "hotseat")
        page.check("#rated")
        page.click("button[type=submit].primary")
        expect(page.locator("#rated-error")).to_contain_text("no hotseat")
        assert page.url == f"{live_server.url}/new/pillage" and page.locator("#new-game").count() == 1
        assert page.locator("#form-error").count() == 0  # said once, where the box is
        assert page.is_checked("#rated") and page.input_value('[name="seat.1"]') == "hotseat"
        assert page.input_value("#preset") == "small"
        box, said = page.locator("label.rated").bounding_box(), page.locator("#rated-error").bounding_box()
        assert box is not None and said is not None and 0 <= said["y"] - (box["y"] + box["height"]) < 40
        page.locator("#rated-error").scroll_into_view_if_needed()
        screenshot(page, f"inplace-rated-{suffix(phone)}", tmp_path)
    finally:
        ctx.close()


@pytest.mark.parametrize("phone", SIZES)
def test_the_guest_name_form_is_folded_on_a_phone(browser: Browser, live_server: LiveServer, tmp_path: Path,
                                                  phone: bool) -> None:
    ctx = profile(browser, phone)
    try:
        page = ctx.new_page()
        page.goto(f"{live_server.url}/")
        me = page.locator("details.me")
        if phone:
            expect(me).not_to_have_attribute("open", "")
            assert not page.locator("#name-input").is_visible()
            header = page.locator("header.top").bounding_box()
            assert header is not None and header["height"] < 0.2 * PHONE["height"]
            screenshot(page, "inplace-guest-phone", tmp_path)
            page.locator("#my-name").tap()
            expect(page.locator("#name-input")).to_be_visible()
        else:  # a desktop has the room: the form stays open for a guest
            expect(me).to_have_attribute("open", "")
            screenshot(page, "inplace-guest-desktop", tmp_path)
    finally:
        ctx.close()
