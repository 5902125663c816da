"""Passkeys in Chromium with its DevTools virtual authenticator: a name claimed in one browser
profile is signed in to from another (a second authenticator holding a copy of the same
passkey), which then shows the same name, the same My games and the same mutes; a cancelled ceremony and a
page at 127.0.0.1 (not the site, localhost) are told in words. Desktop and 390x844 touch;
the pages are saved as docs/web/passkeys-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, CDPSession, Page, ViewportSize, expect

from .conftest import DESKTOP, PHONE, LiveServer, screenshot

pytestmark = pytest.mark.browser

#: an authenticator built into the device, with discoverable credentials and a fingerprint
#: reader that always recognises its owner, answering without a person to touch it
AUTHENTICATOR = {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
                 "isUserVerified": True, "automaticPresenceSimulation": True}


class Device:
    """A browser profile with a virtual authenticator: its context, page and DevTools session."""

    def __init__(self, browser: Browser, size: ViewportSize, touch: bool) -> None:
        self.context: BrowserContext = browser.new_context(viewport=size, has_touch=touch, is_mobile=touch)
        self.context.set_default_timeout(15_000)
        self.page: Page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on("console", lambda m: self.errors.append(m.text) if "Content Security Policy" in m.text else None)
        self.cdp: CDPSession = self.context.new_cdp_session(self.page)
        self.cdp.send("WebAuthn.enable", {"enableUI": False})
        self.authenticator = str(self.cdp.send("WebAuthn.addVirtualAuthenticator",
                                               {"options": AUTHENTICATOR})["authenticatorId"])

    def credentials(self) -> list[dict[str, Any]]:
        """The passkeys the authenticator holds (with their private keys: DevTools exports them)."""
        found: list[dict[str, Any]] = self.cdp.send("WebAuthn.getCredentials",
                                                    {"authenticatorId": self.authenticator})["credentials"]
        return found

    def hold(self, credential: dict[str, Any]) -> None:
        """Put a copy of ``credential`` in the authenticator."""
        self.cdp.send("WebAuthn.addCredential", {"authenticatorId": self.authenticator, "credential": credential})

    def close(self) -> None:
        """Close the profile; what its pages broke fails the test."""
        self.context.close()
        assert self.errors == []


@pytest.fixture
def devices(browser: Browser) -> Iterator[list[Device]]:
    """Profiles made with :func:`Device` by the test, closed at its end."""
    made: list[Device] = []
    yield made
    for device in made:
        device.close()


def tap(page: Page, selector: str, touch: bool) -> None:
    """Press a button as a finger (a tap) or a mouse would."""
    if touch:
        page.tap(selector)
    else:
        page.click(selector)


def named(browser: Browser, devices: list[Device], site: str, name: str, size: ViewportSize,
          touch: bool) -> Device:
    """A new browser (closed with the test's ``devices``) that has saved ``name`` on ``site``."""
    device = Device(browser, size, touch)
    devices.append(device)
    page = device.page
    page.goto(f"{site}/name")
    page.fill("form.name-page input[name=name]", name)
    tap(page, "form.name-page button[type=submit]", touch)
    expect(page.locator("#my-name")).to_have_text(name)
    return device


@pytest.mark.parametrize("size, touch, suffix", [(DESKTOP, False, ""), (PHONE, True, "-phone")])
def test_a_name_claimed_with_a_passkey_follows_it_to_another_browser(
        browser: Browser, live_server: LiveServer, devices: list[Device], tmp_path: Path,
        size: ViewportSize, touch: bool, suffix: str) -> None:
    site = f"http://localhost:{live_server.port}"  # a secure context; 127.0.0.1 is not the site
    name = "Pia" + suffix.replace("-", " ").title().replace(" ", "")
    first = named(browser, devices, site, name, size, touch)
    page = first.page
    page.goto(f"{site}/new/pillage")
    page.select_option("#preset", "small")
    page.select_option('[name="seat.1"]', "open")  # a friend's seat: table talk, and a seat to mute
    tap(page, "button[type=submit].primary", touch)
    page.wait_for_selector("#link.live")
    game = page.url.rsplit("/", 1)[1]
    with page.expect_response(lambda r: r.url.endswith(f"/mutes/{game}") and r.request.method == "POST"):
        tap(page, "#talk button.mute[data-seat='1']", touch)
    expect(page.locator("#talk button.mute[data-seat='1']")).to_have_attribute("aria-pressed", "true")
    page.goto(f"{site}/you")
    expect(page.locator("#identity-status")).to_contain_text("kept in this browser only")
    tap(page, "#passkey-claim", touch)
    expect(page.locator("#passkey-said")).to_contain_text(f"Claimed: {name} is yours")
    expect(page.locator("#identity-status")).to_contain_text("claimed with 1 passkey")  # the page again
    screenshot(page, f"passkeys-claimed{suffix}", tmp_path)
    held = first.credentials()
    assert len(held) == 1 and held[0]["isResidentCredential"] and held[0]["rpId"] == "localhost"

    second = Device(browser, size, touch)
    devices.append(second)
    second.hold(held[0])
    other = second.page
    other.goto(f"{site}/new/pillage")  # a guest's game of its own, before signing in
    other.select_option("#preset", "small")
    tap(other, "button[type=submit].primary", touch)
    other.wait_for_selector("#link.live")
    guest_game = other.url.rsplit("/", 1)[1]
    other.goto(f"{site}/you")
    expect(other.locator("#identity-status")).to_contain_text("Guest-")
    expect(other.locator("#identity")).to_contain_text("no longer reaches them")
    screenshot(other, f"passkeys-sign-in{suffix}", tmp_path)
    guest_cookie = {c["name"]: c["value"] for c in second.context.cookies()}
    tap(other, "#passkey-sign-in", touch)
    expect(other.locator("#passkey-said")).to_contain_text(f"Signed in: you are {name} in this browser too.")
    expect(other.locator("#identity-name")).to_have_text(name)
    expect(other.locator("#my-name")).to_have_text(name)
    screenshot(other, f"passkeys-signed-in{suffix}", tmp_path)
    signed_cookie = {c["name"]: c["value"] for c in second.context.cookies()}
    assert signed_cookie.keys() == guest_cookie.keys() and signed_cookie != guest_cookie  # a fresh session
    other.goto(f"{site}/mine")
    expect(other.locator(f'a[href="/play/{game}"]').first).to_be_visible()
    assert other.locator(f'a[href="/play/{guest_game}"]').count() == 0  # the guest's game stayed the guest's
    screenshot(other, f"passkeys-mine{suffix}", tmp_path)
    other.goto(f"{site}/play/{game}")  # the seat muted on the first browser is muted here
    expect(other.locator("#talk button.mute[data-seat='1']")).to_have_attribute("aria-pressed", "true")


def test_a_cancelled_ceremony_and_a_page_off_the_site_are_told_in_words(
        browser: Browser, live_server: LiveServer, devices: list[Device]) -> None:
    device = Device(browser, DESKTOP, False)
    devices.append(device)
    page = device.page
    page.goto(f"http://localhost:{live_server.port}/you")
    # an authenticator with no passkey of this site: the browser has nothing to offer
    device.cdp.send("WebAuthn.setUserVerified", {"authenticatorId": device.authenticator, "isUserVerified": False})
    page.click("#passkey-sign-in")
    expect(page.locator("#passkey-said")).to_have_text("Cancelled, or no passkey answered in time: nothing changed.")
    expect(page.locator("#passkey-sign-in")).to_be_enabled()
    page.goto(f"{live_server.url}/you")  # 127.0.0.1: the server names the site to open instead
    page.click("#passkey-claim")
    expect(page.locator("#passkey-said")).to_contain_text(
        f"Passkeys on this server are for the site 'localhost', and this page is at '127.0.0.1': open it at localhost")


@pytest.mark.parametrize("size, touch, suffix", [(DESKTOP, False, ""), (PHONE, True, "-phone")])
def test_a_signed_in_browser_lists_its_passkeys_keeps_the_last_and_signs_out(
        browser: Browser, live_server: LiveServer, devices: list[Device], tmp_path: Path,
        size: ViewportSize, touch: bool, suffix: str) -> None:
    site = f"http://localhost:{live_server.port}"
    name = "Oda" + suffix.replace("-", " ").title().replace(" ", "")
    first = named(browser, devices, site, name, size, touch)
    page = first.page
    page.goto(f"{site}/you")
    tap(page, "#passkey-claim", touch)
    expect(page.locator("#identity-status")).to_contain_text("claimed with 1 passkey")
    expect(page.locator(".sign-out")).to_contain_text(f"This browser claimed {name}")

    second = Device(browser, size, touch)
    devices.append(second)
    second.hold(first.credentials()[0])
    other = second.page
    other.goto(f"{site}/you")
    tap(other, "#passkey-sign-in", touch)
    expect(other.locator("#identity-name")).to_have_text(name)
    expect(other.locator("#passkey-list li")).to_have_count(1)
    expect(other.locator("#passkey-list li")).to_contain_text("Passkey 1: made just now, last signed in just now.")
    expect(other.locator(".sign-out")).to_contain_text("until you sign out, or after 30 days without a visit")
    # the only way back in is not offered for removal (the server would refuse it), and why is said
    expect(other.locator(".remove-passkey")).to_have_count(0)
    expect(other.locator("#passkey-kept")).to_have_text("Kept: it is your only way to sign in again.")
    expect(other.locator("#passkey-help")).to_contain_text("Your only passkey cannot be removed from a browser "
                                                            "signed in with it (you could not come back): add "
                                                            "another first, then remove this one.")
    kept = other.locator("#passkey-kept").bounding_box()
    assert kept is not None and kept["x"] + kept["width"] <= size["width"]  # on the screen, phone included
    screenshot(other, f"passkeys-list{suffix}", tmp_path)
    page.goto(f"{site}/you")  # the browser that claimed may remove it (which unclaims): offered there
    expect(page.locator(".remove-passkey")).to_have_count(1)
    expect(page.locator("#passkey-kept")).to_have_count(0)
    expect(page.locator("#passkey-help")).to_contain_text(f"Removing your only passkey unclaims {name}")
    tap(other, "#sign-out", touch)
    expect(other.locator("#identity-done")).to_have_text("Signed out: this browser no longer plays as you. Sign in "
                                                         "with a passkey to come back.")
    expect(other.locator("#identity-status")).to_contain_text("has not played yet")
    assert not [c for c in second.context.cookies() if c["name"] == "plunder_token"]  # forgotten
    screenshot(other, f"passkeys-signed-out{suffix}", tmp_path)
    tap(other, "#passkey-sign-in", touch)  # and back in with the passkey
    expect(other.locator("#identity-name")).to_have_text(name)
