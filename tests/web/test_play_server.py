"""The server side of play: creating games, acting over the WebSocket, AI replies, seats and
their tokens, invites and spectators, undo/hint/resign, the limits on what a browser sends,
and the store as the truth (a new app over the same database carries every game on)."""

from __future__ import annotations

import json
import random
from typing import Any, Iterator

import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from plunder.core.record import Record, replay
from plunder.web.app import create_app
from plunder.web.security import COOKIE, TOKEN_HEADER
from plunder.web.limits import MAX_BODY_BYTES, MAX_MESSAGE_BYTES, MESSAGE_BURST
from plunder.web.store import Store
from .clients import browser_of


@pytest.fixture
def db(any_db: str) -> str:
    """Every test here on both databases (:func:`tests.web.conftest.any_db`)."""
    return any_db


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    """The app over ``db``, its AI in a thread (no worker process to start)."""
    with TestClient(create_app(db, ai_workers=0)) as c:
        yield c


def new_game(client: TestClient, game: str, **fields: str) -> str:
    """POST the new-game form; the new game's id."""
    answer = client.post(f"/new/{game}", data=fields, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    return str(answer.headers["location"]).rsplit("/", 1)[1]


def state_of(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next ``state`` message (skipping none: anything else fails the test)."""
    message = ws.receive_json()
    assert message["type"] == "state", message
    return message


def until_my_turn(ws: WebSocketTestSession, message: dict[str, Any]) -> dict[str, Any]:
    """Read states until this seat is to move or the game is over."""
    while not message["your_turn"] and not message["over"]:
        message = state_of(ws)
    return message


def test_a_game_against_the_ai_is_played_to_the_end_and_its_record_replays(client: TestClient, db: str) -> None:
    game_id = new_game(client, "pillage", preset="small", **{"seat.0": "me", "seat.1": "easy"})
    page = client.get(f"/play/{game_id}")
    assert page.status_code == 200 and "<svg" in page.text
    rng = random.Random(1)
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        message = until_my_turn(ws, state_of(ws))
        assert message["you"] == [0] and message["seats"][1]["kind"] == "ai"
        while not message["over"]:
            ply = message["ply"]
            ws.send_json({"type": "act", "action": rng.choice(message["legal"]), "ply": ply})
            message = state_of(ws)
            assert message["ply"] > ply  # acknowledged: the move is in
            message = until_my_turn(ws, message)
    assert message["result"]["verdict"].startswith("Game over")
    assert message["result"]["breakdown"]
    text = client.get(f"/record/{game_id}").text
    record = Record.from_json(text)
    assert record.seed is not None and record.chance == "seed"  # the seed is told once the game is over
    final = replay(record)
    assert final.is_terminal() and record.returns == list(final.returns())
    # every move was stored
    stored = Store(db).load(game_id)
    assert stored is not None and [m.action for m in stored.moves] == [m.action for m in record.moves]


def test_the_seed_stays_secret_while_the_game_is_on(client: TestClient) -> None:
    game_id = new_game(client, "pirates", **{"seat.0": "me"})
    record = Record.from_json(client.get(f"/record/{game_id}").text)
    assert record.seed is None and record.chance == "free"
    assert replay(record) is not None


def test_an_illegal_move_is_refused_plainly_with_the_ruling_in_the_detail(client: TestClient) -> None:
    game_id = new_game(client, "pillage", preset="small", **{"seat.0": "me", "seat.1": "hotseat"})
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        message = state_of(ws)
        ws.send_json({"type": "act", "action": message["legal"][0], "ply": message["ply"]})
        message = state_of(ws)
        drawn = message["log"][-1]["text"].split()[-1]
        ws.send_json({"type": "act", "action": drawn, "ply": message["ply"]})
        error = ws.receive_json()
        assert error["type"] == "error"
        assert "PP-" in error["detail"] and "PP-" not in error["message"]
        ws.send_json({"type": "act", "action": "zz99-qq", "ply": message["ply"]})
        unreadable = ws.receive_json()
        # the browser's words, not the terminal's: nothing to type, no 'moves' command
        assert unreadable["type"] == "error" and "for example a move like" in unreadable["message"]
        assert "moves" not in unreadable["message"] and "Type" not in unreadable["message"]


def test_a_stale_ply_is_refused(client: TestClient) -> None:
    game_id = new_game(client, "pillage", preset="small", **{"seat.0": "me", "seat.1": "hotseat"})
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        message = state_of(ws)
        ws.send_json({"type": "act", "action": message["legal"][0], "ply": message["ply"] - 1})
        error = ws.receive_json()
        assert error["type"] == "error" and "older position" in error["message"]


def test_seats_are_isolated_spectators_and_strangers_cannot_act(db: str) -> None:
    with TestClient(create_app(db, ai_workers=0)) as alice, browser_of(alice) as bob:
        game_id = new_game(alice, "pillage", preset="small", **{"seat.0": "me", "seat.1": "open"})
        with bob.websocket_connect(f"/ws/{game_id}") as ws:
            message = state_of(ws)
            assert message["you"] == [] and message["legal"] == [] and "invites" not in message
            ws.send_json({"type": "act", "action": "a1-a2", "ply": message["ply"]})
            assert ws.receive_json()["message"] == "Spectators cannot move."
        # a token of another game's seat acts for nothing here
        bob.post("/new/pillage", data={"preset": "small"}, follow_redirects=False)
        assert bob.cookies.get(COOKIE)
        with bob.websocket_connect(f"/ws/{game_id}") as ws:
            message = state_of(ws)
            assert message["you"] == []
            ws.send_json({"type": "undo"})
            assert ws.receive_json()["type"] == "error"
            ws.send_json({"type": "resign"})
            assert ws.receive_json()["message"] == "Spectators cannot resign."
        # the watch link is a spectator's even for the seat holder
        with alice.websocket_connect(f"/ws/{game_id}?watch=1") as ws:
            assert state_of(ws)["you"] == []
        with alice.websocket_connect(f"/ws/{game_id}") as ws:
            message = state_of(ws)
            assert message["you"] == [0] and message["invites"]


def test_an_invite_claims_its_seat_once_and_two_people_play(db: str) -> None:
    app = create_app(db, ai_workers=0)
    with TestClient(app) as alice, browser_of(alice) as bob, browser_of(alice) as carol:
        game_id = new_game(alice, "pillage", preset="small", **{"seat.0": "me", "seat.1": "open"})
        with alice.websocket_connect(f"/ws/{game_id}") as a:
            first = state_of(a)
            invite = first["invites"][0]["path"]
            assert first["seats"][1]["kind"] == "open"
            joined = bob.get(invite, follow_redirects=False)
            assert joined.status_code == 303 and joined.headers["location"] == f"/play/{game_id}"
            assert carol.get(invite, follow_redirects=False).status_code == 410
            seated = state_of(a)  # alice is told bob sat down
            assert seated["seats"][1]["kind"] == "human" and seated["invites"] == []
            with bob.websocket_connect(f"/ws/{game_id}") as b, carol.websocket_connect(f"/ws/{game_id}") as c:
                views = {0: seated, 1: state_of(b)}
                watched = state_of(c)
                assert views[1]["you"] == [1] and watched["you"] == []
                sockets = {0: a, 1: b}
                for _ in range(4):
                    seat = next(s["seat"] for s in views[0]["seats"] if s["to_move"])
                    other = 1 - seat
                    assert views[seat]["your_turn"] and views[seat]["legal"]
                    assert not views[other]["your_turn"] and views[other]["legal"] == []
                    # the one not to move cannot act, even with a legal move and the right ply
                    sockets[other].send_json({"type": "act", "action": views[seat]["legal"][0], "ply": views[seat]["ply"]})
                    assert sockets[other].receive_json()["message"] == "It is not your turn."
                    sockets[seat].send_json({"type": "act", "action": views[seat]["legal"][0], "ply": views[seat]["ply"]})
                    views = {0: state_of(a), 1: state_of(b)}
                    assert views[0]["ply"] == views[1]["ply"] == state_of(c)["ply"]
                a.send_json({"type": "undo"})
                assert a.receive_json()["message"] == "Undo is only for games against the AI."
                seat = next(s["seat"] for s in views[0]["seats"] if s["to_move"])
                sockets[seat].send_json({"type": "hint"})
                assert sockets[seat].receive_json()["message"] == "Hints are only for games against the AI."


def test_a_game_waiting_for_an_open_seat_says_so(client: TestClient) -> None:
    game_id = new_game(client, "pillage", preset="small", **{"seat.0": "open", "seat.1": "me"})
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        message = state_of(ws)
        assert message["status"] == "Waiting for Player 1 to join by the invite link"
        assert not message["your_turn"] and message["seats"][0]["to_move"]


def test_undo_goes_back_to_my_previous_decision_and_meets_the_same_draws(client: TestClient) -> None:
    game_id = new_game(client, "pirates", **{"seat.0": "me", "seat.1": "medium"})
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        start = until_my_turn(ws, state_of(ws))
        ws.send_json({"type": "act", "action": start["legal"][0], "ply": start["ply"]})
        after = until_my_turn(ws, state_of(ws))
        ws.send_json({"type": "undo"})
        back = state_of(ws)
        assert back["ply"] == start["ply"] and back["your_turn"] and back["log_from"] == start["ply"]
        ws.send_json({"type": "act", "action": start["legal"][0], "ply": back["ply"]})
        again = until_my_turn(ws, state_of(ws))
        # the same draws and the same replies (both keyed on their move): the same position
        assert again["ply"] == after["ply"] and again["svg"] == after["svg"]
        ws.send_json({"type": "undo"})
        ws.send_json({"type": "undo"})
        assert state_of(ws)["ply"] == start["ply"]
        assert ws.receive_json()["message"] == "Nothing to undo yet."


def test_hint_and_resign(client: TestClient) -> None:
    game_id = new_game(client, "pillage", preset="small", **{"seat.0": "me", "seat.1": "easy"})
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        message = until_my_turn(ws, state_of(ws))
        ws.send_json({"type": "hint"})
        hint = ws.receive_json()
        assert hint["type"] == "hint" and len(hint["lines"]) >= 2
        best = hint["lines"][0]
        assert best.startswith("Play ") and best[5:].split(" (")[0].rstrip(".") in message["legal"], best
        assert hint["lines"][1].startswith("Why: ")
        ws.send_json({"type": "resign"})
        over = state_of(ws)
        assert over["over"] and over["result"]["verdict"] == "You resigned: the easy AI wins"
        ws.send_json({"type": "act", "action": message["legal"][0], "ply": over["ply"]})
        assert ws.receive_json()["message"] == "The game is over."
    record = Record.from_json(client.get(f"/record/{game_id}").text)
    assert record.seed is not None and record.returns is None


@pytest.mark.parametrize("sent, said", [
    ("not json", "That message is not JSON."),
    ("[1, 2]", "A message is a JSON object with a type."),
    ('{"type": "fly"}', "Unknown message type."),
    ('{"type": "act", "action": 5, "ply": 0}', "An act message has an action text and the ply you saw."),
    ('{"type": "act", "action": "a1-a2", "ply": true}', "An act message has an action text and the ply you saw."),
    ('{"type": "act", "action": "a1-a2", "ply": 0, "thought": -1}',
     "An act message's thought is the seconds you took over the move (a number, 0 or more)."),
    ('{"type": "act", "action": "a1-a2", "ply": 0, "thought": "5"}',
     "An act message's thought is the seconds you took over the move (a number, 0 or more)."),
    ('{"type": "act", "action": "a1-a2", "ply": 0, "thought": 1e999}',
     "An act message's thought is the seconds you took over the move (a number, 0 or more)."),
    ('{"type": "act", "action": "' + "9" * 5000 + '", "ply": 0}', "That message is too long."),
    ('{"type": "act", "action": "' + "9" * 1000 + '", "ply": 9}', None),
    pytest.param("[" * 2000 + "]" * 2000, "That message nests too deeply.", id="nested-arrays"),
    pytest.param('{"type": "act", "action": ' + "[" * 1990 + "]" * 1990 + ', "ply": 0}',
                 "That message nests too deeply.", id="nested-in-an-object"),
])
def test_malformed_messages_get_an_error_and_the_connection_lives(client: TestClient, sent: str, said: str | None) -> None:
    game_id = new_game(client, "pillage", preset="small", **{"seat.0": "me", "seat.1": "hotseat"})
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        message = state_of(ws)
        ws.send_text(sent)
        error = ws.receive_json()
        assert error["type"] == "error" and (said is None or error["message"] == said)
        ws.send_bytes(b"\x00\xff")
        assert ws.receive_json()["message"] == "Send JSON text messages."
        ws.send_json({"type": "act", "action": message["legal"][0], "ply": message["ply"]})
        assert state_of(ws)["ply"] > message["ply"]
    assert len(sent) < MAX_MESSAGE_BYTES or said == "That message is too long."


def test_a_flood_of_messages_is_refused_past_the_rate(client: TestClient) -> None:
    game_id = new_game(client, "pillage", preset="small", **{"seat.0": "me", "seat.1": "hotseat"})
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        state_of(ws)
        for _ in range(MESSAGE_BURST + 5):
            ws.send_json({"type": "fly"})
        said = [ws.receive_json()["message"] for _ in range(MESSAGE_BURST + 5)]
        assert "Too many messages: slow down." in said


def test_bad_forms_are_refused_plainly(client: TestClient) -> None:
    assert client.post("/new/chess", data={}).status_code == 404
    refused = client.post("/new/pillage", data={"p.board": "file:/etc/passwd"})
    assert refused.status_code == 400 and "reads no files" in refused.text
    refused = client.post("/new/pillage", data={"p.board": "square:99x99"})
    assert refused.status_code == 400 and "board" in refused.text
    refused = client.post("/new/pillage", data={"seat.1": "grandmaster", "p.board": "square:2x2"})
    assert refused.status_code == 400 and "grandmaster" in refused.text
    assert 'id="form-error"' in refused.text and "square:2x2" in refused.text  # the form again, as given
    huge = client.post("/new/pillage", content=b"x" * (MAX_BODY_BYTES + 1),
                       headers={"content-type": "application/x-www-form-urlencoded"})
    assert huge.status_code == 413
    assert client.get("/play/nosuchgame").status_code == 404
    with client.websocket_connect("/ws/nosuchgame") as ws:
        assert ws.receive_json()["type"] == "error"


def test_a_new_server_over_the_same_store_carries_every_game_on(db: str) -> None:
    with TestClient(create_app(db, ai_workers=0)) as first:
        game_id = new_game(first, "pillage", preset="small", **{"seat.0": "me", "seat.1": "easy"})
        with first.websocket_connect(f"/ws/{game_id}") as ws:
            message = until_my_turn(ws, state_of(ws))
            ws.send_json({"type": "act", "action": message["legal"][0], "ply": message["ply"]})
            before = until_my_turn(ws, state_of(ws))
        token = first.cookies[COOKIE]
    with TestClient(create_app(db, ai_workers=0)) as second:
        with second.websocket_connect(f"/ws/{game_id}", headers={TOKEN_HEADER: token}) as ws:
            after = state_of(ws)
            assert after["ply"] == before["ply"] and after["svg"] == before["svg"] and after["your_turn"]
            ws.send_json({"type": "act", "action": after["legal"][0], "ply": after["ply"]})
            assert state_of(ws)["ply"] > after["ply"]


def test_two_server_processes_share_a_store(postgres_url: str) -> None:
    """Two apps over one PostgreSQL database, as two server processes: a viewer of one is told
    of a move made through the other (by its transport), and a move planned on a position the
    other changed is refused. (SQLite is one process's store: its transport is in memory.)"""
    db = postgres_url
    with TestClient(create_app(db, ai_workers=0)) as one, TestClient(create_app(db, ai_workers=0)) as two:
        game_id = new_game(one, "pillage", preset="small", **{"seat.0": "me", "seat.1": "hotseat"})
        two.cookies.set(COOKIE, one.cookies[COOKIE])
        with one.websocket_connect(f"/ws/{game_id}") as a, two.websocket_connect(f"/ws/{game_id}") as b:
            seen_a, seen_b = state_of(a), state_of(b)
            assert seen_a["ply"] == seen_b["ply"]
            b.send_json({"type": "act", "action": seen_b["legal"][0], "ply": seen_b["ply"]})
            moved = state_of(b)
            told = state_of(a)  # through the transport
            assert told["ply"] == moved["ply"] and told["svg"] == moved["svg"]
            # the first process now acts on the position it shows; the second's copy is stale
            a.send_json({"type": "act", "action": told["legal"][0], "ply": told["ply"]})
            after = state_of(a)
            # the second acts at once on its copy: refused, whether its write finds the store
            # ahead (a stale version) or it has been told already (an older position)
            b.send_json({"type": "act", "action": told["legal"][1], "ply": told["ply"]})
            got = [b.receive_json(), b.receive_json()]
            assert sorted(m["type"] for m in got) == ["error", "state"]
            assert next(m for m in got if m["type"] == "state")["ply"] == after["ply"]
            assert next(m for m in got if m["type"] == "error")["message"] in (
                "The game changed in the meantime; here it is as it stands.",
                "That was played on an older position; here is the game as it stands.")


def junk(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value, sometimes shaped like a message."""
    pick = rng.randrange(9 if depth < 3 else 5)
    if pick == 0:
        return None
    if pick == 1:
        return rng.choice([True, False, 0, -1, 2**70, 1e308, -0.5])
    if pick == 2:
        return "".join(rng.choice("a1-b2 \u00b2\u0661\x00\u202e{}\"'\\") for _ in range(rng.randrange(30)))
    if pick == 3:
        return rng.choice(["act", "hint", "undo", "resign", "state", ""])
    if pick == 4:
        return {"type": rng.choice(["act", "hint", "undo", "resign"]), "action": junk(rng, depth + 1),
                "ply": junk(rng, depth + 1)}
    if pick in (5, 6):
        return {str(junk(rng, depth + 1))[:20]: junk(rng, depth + 1) for _ in range(rng.randrange(4))}
    return [junk(rng, depth + 1) for _ in range(rng.randrange(4))]


def test_random_messages_get_answers_never_a_crash(client: TestClient) -> None:
    rng = random.Random(14)
    game_id = new_game(client, "crossroads", preset="2p", **{"seat.0": "me", "seat.1": "easy"})
    for _ in range(4):
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            state_of(ws)
            for _ in range(20):
                ws.send_text(json.dumps(junk(rng)))
            ws.send_text("{}")
            seen = ws.receive_json()
            # every answer is a message of the protocol, up to the one for "{}"
            while seen.get("detail") != "type 'None'; types are act, hint, undo, resign, abort, claim, log, chat":
                assert seen["type"] in ("error", "state", "hint") and isinstance(seen.get("message", ""), str), seen
                seen = ws.receive_json()
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        assert state_of(ws)["game"] == "crossroads"
