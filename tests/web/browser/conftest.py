"""Fixtures for the browser tests: a live ``plunder serve`` and a real Chromium.

The server runs as its own process (as a player meets it: uvicorn, a fresh SQLite file) on a
free port; :func:`restart` stops and starts it on the same database, for restart-safety tests.
Chromium is Debian's (``/usr/bin/chromium``, or ``$PLUNDER_CHROMIUM``) driven by Playwright
through ``executable_path``: Playwright's own browser download is not used. A machine without
Chromium fails these tests saying how to install it; they are never skipped.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, ViewportSize, sync_playwright

#: flags for a headless Chromium on a machine without a network or a sandbox
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]
#: how long a server may take to answer its first request (generous: a loaded CI machine is slow)
START_SECONDS = 120.0
#: the size of a desktop browser window, and of a phone's
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}
#: where the docs keep the screenshots; the tests write there only when asked to
#: (``PLUNDER_SCREENSHOTS=docs/web``), so that a test run leaves the repository as it was
DOCS_SCREENSHOTS = Path(__file__).resolve().parents[3] / "docs" / "web"


def chromium_path() -> str:
    """The Chromium to drive; a missing one fails the test with the command that installs it."""
    path = os.environ.get("PLUNDER_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).exists():
        pytest.fail("the browser tests need Chromium: apt-get install -y chromium (or set PLUNDER_CHROMIUM)")
    return path


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LiveServer:
    """``plunder serve`` in a child process on ``port`` over the SQLite file ``db`` (or the
    database at the URL ``db``: several servers may share a PostgreSQL database), with ``env``
    added to this process's environment and ``args`` to its command line."""

    def __init__(self, db: Path | str, env: dict[str, str] | None = None, args: list[str] | None = None) -> None:
        self.db = db
        #: what the server's environment adds to this process's, e.g. a ``PYTHONPATH`` with a game installed apart
        self.env = env or {}
        #: options of ``plunder serve`` beyond its port and database (``--trusted-proxy``, ``--site-host``)
        self.args = args or []
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        #: what the server printed on start (``plunder serve``'s lines)
        self.said = ""

    @property
    def url(self) -> str:
        """The server's base URL, without a trailing slash."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start the server and wait until it answers."""
        db_url = self.db if isinstance(self.db, str) else f"sqlite:///{self.db}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "plunder.cli", "serve", "--port", str(self.port), "--db", db_url,
             *self.args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1", **self.env})
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                err = self.process.stderr.read().decode() if self.process.stderr else ""
                raise RuntimeError(f"plunder serve exited with {self.process.returncode}: {err}")
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2):
                    pass
            except urllib.error.HTTPError:
                pass  # it answers (a server told other site names refuses this address's)
            except OSError:
                time.sleep(0.2)
                continue
            # its lines are printed before it serves (a few: they fit the pipe, never filling it)
            assert self.process.stdout is not None
            self.said = "".join(self.process.stdout.readline().decode() for _ in range(2))
            return
        self.kill()
        raise RuntimeError(f"plunder serve did not answer within {START_SECONDS} s")

    def kill(self) -> None:
        """Kill the server at once (SIGKILL: no chance to tidy up), as a crash would."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def restart(self) -> None:
        """Kill the server and start a new one on the same port and database."""
        self.kill()
        self.start()


@contextlib.contextmanager
def servers_on(db: Path | str, count: int, env: dict[str, str] | None = None,
               args: list[str] | None = None) -> Iterator[list[LiveServer]]:
    """``count`` ``plunder serve`` processes on one database (several on a PostgreSQL URL), with
    ``env`` added to their environment and ``args`` to their command line, each started and
    answering; all killed when the block ends, even if one failed to start."""
    started: list[LiveServer] = []
    try:
        for _ in range(count):
            server = LiveServer(db, env, args)
            server.start()
            started.append(server)
        yield started
    finally:
        for server in started:
            server.kill()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for the browser tests that need no restart."""
    server = LiveServer(tmp_path_factory.mktemp("serve") / "plunder.db")
    server.start()
    yield server
    server.kill()


@pytest.fixture()
def fresh_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A server of the test's own, on its own database (for tests that kill and restart it)."""
    server = LiveServer(tmp_path / "plunder.db")
    server.start()
    yield server
    server.kill()


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    """The Playwright driver, for one module of tests: its event loop runs in this thread while it
    lives, and the suite's other tests call ``asyncio.run`` (which refuses to start in a thread
    whose loop runs), so it is stopped after each browser module rather than at the session's end."""
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """Debian's Chromium, headless."""
    b = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
    yield b
    b.close()


@pytest.fixture()
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A fresh browser profile (its own cookies) at desktop size."""
    ctx = browser.new_context(viewport=DESKTOP)
    ctx.set_default_timeout(15_000)
    yield ctx
    ctx.close()


@pytest.fixture()
def page(context: BrowserContext) -> Iterator[Page]:
    """A page in :func:`context`; browser errors on the page fail the test, and so does
    anything the server's Content-Security-Policy blocked (Chromium says so on the console)."""
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda exc: errors.append(str(exc)))
    p.errors = errors  # type: ignore[attr-defined]
    blocked: list[str] = []
    p.on("console", lambda message: blocked.append(message.text) if "Content Security Policy" in message.text else None)
    yield p
    assert blocked == [], f"the page broke its Content-Security-Policy: {blocked[:3]}"


@contextlib.contextmanager
def phone_tab(browser: Browser) -> Iterator[tuple[Page, list[str]]]:
    """A page in a new phone-sized context with touch (390x844), and the errors it logs; the
    context is closed afterwards."""
    phone = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    phone.set_default_timeout(15_000)
    try:
        tab = phone.new_page()
        errors: list[str] = []
        tab.on("pageerror", lambda exc: errors.append(str(exc)))
        yield tab, errors
    finally:
        phone.close()


def screenshot(page: Page, name: str, folder: Path) -> Path:
    """Save a full-page PNG of ``page`` as ``<name>.png`` in ``$PLUNDER_SCREENSHOTS`` if set
    (``PLUNDER_SCREENSHOTS=docs/web`` refreshes the docs' pictures), else in ``folder``."""
    target = Path(os.environ.get("PLUNDER_SCREENSHOTS") or folder)
    target.mkdir(parents=True, exist_ok=True)
    path = target / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def point_on_screen(page: Page, x: int, y: int) -> tuple[float, float]:
    """Where lattice point ``x,y`` of the sheet is on the screen, scrolled into view first as a
    person would (on a phone the board scrolls sideways in its frame)."""
    spot: list[float] = page.evaluate("""([x, y]) => {
        const sheet = document.querySelector('#board [data-action-pattern]');
        const svg = sheet.ownerSVGElement, d = sheet.dataset, frame = document.getElementById('board');
        const at = () => {
            const p = svg.createSVGPoint();
            p.x = Number(d.originX) + x * Number(d.step);
            p.y = Number(d.originY) - y * Number(d.step);
            return p.matrixTransform(svg.getScreenCTM());
        };
        let s = at();
        const box = frame.getBoundingClientRect();
        if (s.x < box.left + 20 || s.x > box.right - 20) {
            frame.scrollLeft += s.x - (box.left + box.width / 2);
            s = at();
        }
        if (s.y < 20 || s.y > window.innerHeight - 20) {
            window.scrollBy(0, s.y - window.innerHeight / 2);
            s = at();
        }
        return [s.x, s.y];
    }""", [x, y])
    return spot[0], spot[1]
