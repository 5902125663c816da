"""What a browser sends the web app -- new-game forms, WebSocket messages, record uploads --
fuzzed through Starlette's TestClient: every answer is a page or one of the documented refusals
(docs/web.md), never a server error, and every WebSocket message gets a ``state``, ``hint`` or
``error`` message back on a connection that stays open.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from plunder.core.registry import game_ids
from plunder.web.app import create_app
from plunder.web.limits import Buckets
from tests.fuzz.strategies import time_bound

#: wall-time bound of one case
CASE_SECONDS = 20.0
#: the statuses docs/web.md names for a request: a page, a redirect to the new game, and the refusals
#: (400 bad input, 403 a token or origin refused, 404 no such page, 405 wrong method, 413 too large,
#: 429 too many)
DOCUMENTED = {200, 303, 400, 403, 404, 405, 413, 429}
#: the messages the server sends on a game's WebSocket
MESSAGES = {"state", "hint", "error"}

FEW = settings(max_examples=25, derandomize=True, deadline=None, database=None,
               suppress_health_check=list(HealthCheck))

#: texts that have broken readers before, and ordinary ones
TEXTS = st.one_of(st.text(max_size=60), st.sampled_from([
    "", " ", ",", "-1", "0", str(10**12), "1e999", "nan", "inf", "file:/etc/passwd", "file:/dev/zero",
    "square:99x99", "square:2x2", "\x00", "²", "١", "human", "easy", "hard", "hotseat", "me", "friend",
    "x" * 5000]))
FIELD_NAMES = st.one_of(st.sampled_from(["preset", "seed", "seat.0", "seat.1", "seat.2", "seat.9", "seat.-1",
                                         "p.board", "p.contents", "p.players", "p.hand", "p.target", "p.turns",
                                         "p.nosuch", "p.", "p.layout", "p.mix"]), st.text(max_size=20))
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | TEXTS,
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12)
WS_MESSAGES = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(["act", "hint", "undo", "resign", "fly", ""]) | TEXTS},
                          optional={"action": JSON, "ply": JSON, "level": JSON}).map(json.dumps),
    JSON.map(json.dumps),
    TEXTS,
)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The app over a fresh SQLite file, its AI in a thread; new games are not rate-limited here,
    so every case reaches the form's own checks."""
    app = create_app(f"sqlite:///{tmp_path_factory.mktemp('web') / 'fuzz.db'}", ai_workers=0)
    app.state.creations = Buckets(1e9, 10**9)
    with TestClient(app) as c:
        yield c


def answered(status: int, what: str) -> None:
    """Fail on a status docs/web.md does not name (a 500 above all)."""
    assert status in DOCUMENTED, f"{what} answered {status}"


@pytest.mark.filterwarnings("ignore:Do not use the `random` module")
def test_new_game_forms_are_refused_plainly(client: TestClient, bounded_memory: None) -> None:
    @FEW
    @given(st.sampled_from([*game_ids(), "chess", ""]), st.dictionaries(FIELD_NAMES, TEXTS, max_size=6))
    def fuzz(game: str, fields: dict[str, str]) -> None:
        with time_bound(CASE_SECONDS):
            answer = client.post(f"/new/{game}", data=fields, follow_redirects=False)
            answered(answer.status_code, f"POST /new/{game} {fields!r:.200}")
            form = client.get(f"/new/{game}", params=fields)
            answered(form.status_code, f"GET /new/{game}")

    fuzz()


@pytest.mark.filterwarnings("ignore:Do not use the `random` module")
def test_websocket_messages_get_an_answer_and_the_connection_lives(client: TestClient, bounded_memory: None) -> None:
    answer = client.post("/new/pillage", data={"preset": "small", "seat.0": "me", "seat.1": "hotseat"},
                         follow_redirects=False)
    assert answer.status_code == 303, answer.text
    game_id = str(answer.headers["location"]).rsplit("/", 1)[1]

    @FEW
    @given(st.lists(WS_MESSAGES, min_size=1, max_size=3))
    def fuzz(messages: list[str]) -> None:
        with time_bound(CASE_SECONDS), client.websocket_connect(f"/ws/{game_id}") as ws:
            assert ws.receive_json()["type"] == "state"
            for text in messages:
                ws.send_text(text)
                reply: dict[str, Any] = ws.receive_json()
                assert reply.get("type") in MESSAGES, (text[:200], reply)
            ws.send_text(json.dumps({"type": "fly"}))  # still open: it answers the next message
            assert ws.receive_json()["type"] in MESSAGES

    fuzz()


@pytest.mark.filterwarnings("ignore:Do not use the `random` module")
def test_uploads_are_refused_plainly(client: TestClient, bounded_memory: None) -> None:
    @FEW
    @given(st.one_of(st.binary(max_size=300), TEXTS.map(lambda t: t.encode("utf-8", "surrogatepass")),
                     JSON.map(lambda j: json.dumps(j).encode())),
           st.sampled_from(["file", "text", "other"]))
    def fuzz(data: bytes, field: str) -> None:
        with time_bound(CASE_SECONDS):
            if field == "file":
                answer = client.post("/replay", files={"file": ("game.json", data, "application/json")})
            else:
                answer = client.post("/replay", data={field: data.decode("utf-8", "replace")})
            answered(answer.status_code, f"POST /replay {field}={data[:100]!r}")

    fuzz()


def test_the_lab_store_refuses_what_is_not_a_sqlite_file(tmp_path: Path) -> None:
    """The lab's results file (``report --store``) meets what a user may point it at."""
    import os

    from plunder.core.errors import ParameterError
    from plunder.lab.store import Store

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    text = tmp_path / "text.sqlite"
    text.write_bytes(b"SQLite format 3\x00" + b"\xff" * 200)  # a header and nothing sound after it
    for path in (fifo, Path("/dev/null"), Path("/dev/zero"), tmp_path, text):
        with time_bound(CASE_SECONDS), pytest.raises(ParameterError, match="results file"):
            Store(path)
