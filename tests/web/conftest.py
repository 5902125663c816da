"""Fixtures of the web tests: the databases the store is tested on."""

from __future__ import annotations

from typing import Iterator

import pytest

from .postgres import cluster


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL database for the session (see :mod:`tests.web.postgres`)."""
    yield from cluster()
