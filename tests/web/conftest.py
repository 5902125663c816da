"""Fixtures of the web tests: the databases the store is tested on, and a live server."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from .browser.conftest import LiveServer
from .postgres import cluster


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL database for the session (see :mod:`tests.web.postgres`)."""
    yield from cluster()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    """A live server on its own database."""
    live = LiveServer(tmp_path / "plunder.db")
    live.start()
    yield live
    live.kill()


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh SQLite database URL, or the session's PostgreSQL database (games never share an
    id, so the tests do not meet each other's games there)."""
    if request.param == "postgresql":
        url: str = request.getfixturevalue("postgres_url")
        return url
    return f"sqlite:///{tmp_path / 'plunder.db'}"
