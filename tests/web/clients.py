"""Browsers of one server process in the tests: every client of an app shares the event loop
of the first (its lifespan's), as every connection to one server process does; a
:class:`~starlette.testclient.TestClient` entered anew would run the app on a loop of its own
and start and stop its tables a second time."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from starlette.testclient import TestClient


def browser(client: TestClient) -> TestClient:
    """Another browser (cookies of its own) of the server process ``client`` is talking to
    (``client`` entered: its app's lifespan running)."""
    assert client.portal is not None, "enter the first client (with TestClient(app) as c) before making others"
    other = TestClient(client.app)
    other.portal = client.portal
    return other


@contextmanager
def browser_of(client: TestClient) -> Iterator[TestClient]:
    """:func:`browser` as a ``with`` item, beside the first client's."""
    yield browser(client)
