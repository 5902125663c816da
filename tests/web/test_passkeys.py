"""Passkeys over HTTP (web/passkeys.py, web/signin.py, web/identities.py): an identity claimed
with a (software) passkey is signed in to from another browser, which then has the same name
and games under a fresh cookie; every bad answer is refused in words, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import functools
import http.client
import json
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
import websockets
from sqlalchemy import delete, insert, select, update
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from webauthn.helpers import bytes_to_base64url

from plunder.web import identities, passkeys
from plunder.web.app import create_app
from plunder.web.identities import (ENDED, SESSION_IDLE_SECONDS, SESSION_TOUCH_SECONDS, SIGNED_OUT_WORDS, Sessions,
                                    open_session, session_of, sessions, sign_out)
from plunder.web.names import NameRefused, hold_name, names, set_name
from plunder.web.passkeys import (CHALLENGE_SECONDS, PasskeyRefused, challenges, claim_options, claimed, claimed_names,
                                   finish_claim, passkeys_of)
from plunder.web.quotas import rates
from plunder.web.signin import PASSKEY_BURST
from plunder.web.security import COOKIE, TOKEN_HEADER, new_token
from plunder.web.storage import Storage
from plunder.web.store import Store, token_hash
from plunder.web.tables import TIME_SHIFT_ENV, signed_out_message

from .browser.conftest import LiveServer, servers_on
from .clients import browser
from .softkey import SoftKey
from .test_play_server import new_game, state_of

#: the host of the test client's pages, and so the site of their passkeys
SITE = "testserver"
ORIGIN = f"http://{SITE}"


@pytest.fixture(autouse=True)
def site(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test client's host is the site."""
    monkeypatch.setenv(passkeys.SITE_VARIABLE, SITE)


@pytest.fixture
def anna(any_db: str) -> Iterator[TestClient]:
    """A browser called Anna, with a game against the AI."""
    with TestClient(create_app(any_db, ai_workers=0)) as c:
        with c.app.state.tables.store.engine.begin() as db:  # type: ignore[attr-defined]
            # the tests share one PostgreSQL database, and its per-address bound with it
            db.execute(delete(rates).where(rates.c.name.like("passkey %")))
            # and its claims: a name claimed by a test before is protected from every later "Anna"
            before = set(db.execute(select(passkeys.passkeys.c.credential)).scalars())
        assert c.post("/name", data={"name": "Anna", "next": "/"}, follow_redirects=False).status_code == 303
        new_game(c, "pillage", preset="small", **{"seat.0": "me", "seat.1": "easy"})
        yield c
        with c.app.state.tables.store.engine.begin() as db:  # type: ignore[attr-defined]
            db.execute(delete(passkeys.passkeys).where(passkeys.passkeys.c.credential.not_in(before)))
            db.execute(delete(claimed_names).where(claimed_names.c.identity.not_in(
                select(passkeys.passkeys.c.identity))))


def claim(client: TestClient, key: SoftKey) -> dict[str, Any]:
    """Claim ``client``'s identity with ``key``: the server's answer (JSON)."""
    options = client.post("/you/claim/options")
    assert options.status_code == 200, options.text
    answer = client.post("/you/claim", content=json.dumps(key.register(options.text)))
    result: dict[str, Any] = answer.json()
    return result


def sign_in(client: TestClient, key: SoftKey) -> tuple[int, dict[str, Any]]:
    """Sign ``client`` in with ``key``: the status and answer (JSON)."""
    options = client.post("/you/sign-in/options")
    assert options.status_code == 200, options.text
    answer = client.post("/you/sign-in", content=json.dumps(key.sign(options.text)))
    return answer.status_code, answer.json()


def test_a_claimed_identity_follows_its_passkey_to_another_browser(anna: TestClient) -> None:
    key = SoftKey(SITE, ORIGIN)
    anna_token = anna.cookies[COOKIE]
    tables = anna.app.state.tables  # type: ignore[attr-defined]
    assert not claimed(tables.store, token_hash(anna_token))
    assert "Claimed: Anna is yours" in claim(anna, key)["message"]
    assert claimed(tables.store, token_hash(anna_token))
    # the user handle the passkey keeps is random: neither the token nor its hash
    assert key.handle and anna_token.encode() not in key.handle and token_hash(anna_token).encode() != key.handle
    mine = anna.get("/mine").text
    assert "Pillage" in mine

    other = browser(anna)
    new_game(other, "pillage", preset="small", **{"seat.0": "me", "seat.1": "easy"})  # a guest's own game
    guest = other.cookies[COOKIE]
    assert "Anna" not in other.get("/you").text
    status, said = sign_in(other, key)
    assert status == 200 and said["name"] == "Anna", said
    fresh = other.cookies[COOKIE]
    # a fresh session value: neither the guest's token nor Anna's
    assert fresh not in (guest, anna_token)
    page = other.get("/you").text
    assert "Anna" in page and "claimed with\n      1 passkey" in page
    assert other.get("/mine").text == anna.get("/mine").text  # the same games, the guest's own not among them
    # the session is kept under the fresh token's hash, naming Anna's identity
    with tables.store.engine.connect() as db:
        assert db.execute(select(sessions.c.identity).where(sessions.c.token == token_hash(fresh))).scalar() \
            == token_hash(anna_token)
    # a seat muted on the first browser is muted on the second
    game = new_game(anna, "pillage", preset="small", **{"seat.0": "me", "seat.1": "open"})
    assert other.get(f"/mutes/{game}").json() == {"muted": [], "known": True}
    assert anna.post(f"/mutes/{game}", json={"seat": 1, "muted": True}).json() == {"muted": [1], "known": True}
    assert other.get(f"/mutes/{game}").json() == {"muted": [1], "known": True}
    # a name chosen on the second browser is Anna's everywhere
    assert other.post("/name", data={"name": "Anna B", "next": "/"}, follow_redirects=False).status_code == 303
    assert "Anna B" in anna.get("/you").text


def test_a_name_like_a_claimed_one_cannot_be_claimed(anna: TestClient) -> None:
    # two guests may share a look-alike name; once one claims it, the other cannot claim it too
    twin = browser(anna)
    assert twin.post("/name", data={"name": "ANNA", "next": "/"}, follow_redirects=False).status_code == 303
    assert "Claimed: Anna is yours" in claim(anna, SoftKey(SITE, ORIGIN))["message"]
    refused = twin.post("/you/claim/options")
    assert refused.status_code == 400
    assert "'ANNA' is 'Anna', a name claimed here" in refused.json()["error"]
    assert "Choose another name, then claim it." in refused.json()["error"]


def test_a_challenge_works_once(anna: TestClient) -> None:
    key = SoftKey(SITE, ORIGIN)
    claim(anna, key)
    options = anna.post("/you/sign-in/options").text
    answer = json.dumps(key.sign(options))
    assert anna.post("/you/sign-in", content=answer).status_code == 200
    again = anna.post("/you/sign-in", content=answer)
    assert again.status_code == 400 and "already answered" in again.json()["error"]


def test_an_expired_challenge_is_refused(anna: TestClient) -> None:
    key = SoftKey(SITE, ORIGIN)
    claim(anna, key)
    options = anna.post("/you/sign-in/options").text
    store = anna.app.state.tables.store  # type: ignore[attr-defined]
    with store.engine.begin() as db:  # as if CHALLENGE_SECONDS had passed
        done = db.execute(update(challenges).where(challenges.c.challenge == json.loads(options)["challenge"])
                          .values(expires=0.0))
        assert done.rowcount == 1
    answer = anna.post("/you/sign-in", content=json.dumps(key.sign(options)))
    assert answer.status_code == 400
    assert f"expired (it is good for {CHALLENGE_SECONDS // 60} minutes)" in answer.json()["error"]


def test_an_unknown_passkey_cannot_sign_in(anna: TestClient) -> None:
    status, said = sign_in(anna, SoftKey(SITE, ORIGIN))
    assert status == 400 and "not known here" in said["error"]


def test_an_answer_for_another_origin_is_refused(anna: TestClient) -> None:
    key = SoftKey(SITE, ORIGIN)
    claim(anna, key)
    key.origin = "http://evil.example"
    status, said = sign_in(anna, key)
    assert status == 400 and "answered for the site 'http://evil.example'" in said["error"]
    forged = SoftKey(SITE, "https://testserver")  # the right host at another scheme is another origin
    said = claim(anna, forged)
    assert "answered for the site 'https://testserver'" in said["error"]


def test_a_passkey_of_another_site_is_refused(anna: TestClient) -> None:
    key = SoftKey("evil.example", ORIGIN)
    said = claim(anna, key)
    assert "does not hold" in said["error"] and "RP ID" in said["error"]


def test_a_signature_counter_that_goes_back_is_refused(anna: TestClient) -> None:
    key = SoftKey(SITE, ORIGIN)
    claim(anna, key)
    assert sign_in(anna, key)[0] == 200
    assert sign_in(anna, key)[0] == 200
    key.sign_count = 0  # a copy of the key as it was after the first sign-in (sign() counts one)
    status, said = sign_in(anna, key)
    assert status == 400 and "counter went back (1, after 2)" in said["error"]


def test_a_forged_signature_is_refused(anna: TestClient) -> None:
    key = SoftKey(SITE, ORIGIN)
    claim(anna, key)
    options = anna.post("/you/sign-in/options").text
    answer = key.sign(options)
    answer["response"]["signature"] = key.sign(options)["response"]["signature"]  # signed over another counter
    said = anna.post("/you/sign-in", content=json.dumps(answer))
    assert said.status_code == 400 and "does not hold" in said.json()["error"]
    # the refused answer used its challenge up: a good one to it comes too late
    again = anna.post("/you/sign-in", content=json.dumps(key.sign(options)))
    assert again.status_code == 400 and "already answered" in again.json()["error"]


def test_a_claim_started_by_one_identity_cannot_be_finished_by_another(anna: TestClient) -> None:
    options = anna.post("/you/claim/options").text
    other = browser(anna)
    other.post("/name", data={"name": "Mallory", "next": "/"})
    answer = other.post("/you/claim", content=json.dumps(SoftKey(SITE, ORIGIN).register(options)))
    assert answer.status_code == 400 and "started by another browser identity" in answer.json()["error"]


@pytest.mark.parametrize("body", [b"", b"not json", b"\xff\xfe", b'{"id": 3}', b"[]", b'{"response": {}}'])
def test_a_garbage_answer_is_refused_in_words(anna: TestClient, body: bytes) -> None:
    for path in ("/you/claim", "/you/sign-in"):
        answer = anna.post(path, content=body)
        assert answer.status_code == 400, answer.text
        assert "Traceback" not in answer.text and answer.json()["error"].startswith("The passkey")


def test_a_page_at_another_host_than_the_site_is_told_where_passkeys_work(anna: TestClient,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(passkeys.SITE_VARIABLE, "plunder.example")
    answer = anna.post("/you/claim/options")
    assert answer.status_code == 400
    assert answer.json()["error"] == ("Passkeys on this server are for the site 'plunder.example', and this page is "
                                      "at 'testserver': open it at plunder.example to use a passkey.")
    assert "for the site <strong>plunder.example</strong>" in anna.get("/you").text


def test_a_site_that_is_an_address_is_refused_in_words(anna: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(passkeys.SITE_VARIABLE, "127.0.0.1")
    answer = anna.post("/you/sign-in/options")
    assert answer.status_code == 400 and answer.json()["error"] == (
        "Passkeys need the site's host name, not an address (127.0.0.1): set PLUNDER_SITE to the site's name "
        "(localhost on this machine).")


def test_another_sites_page_cannot_start_a_ceremony(anna: TestClient) -> None:
    answer = anna.post("/you/sign-in/options", headers={"origin": "http://evil.example"})
    assert answer.status_code == 403


def test_a_newcomer_claiming_is_given_an_identity_first(anna: TestClient) -> None:
    newcomer = browser(anna)
    assert COOKIE not in newcomer.cookies
    assert "has not played yet" in newcomer.get("/you").text
    said = claim(newcomer, SoftKey(SITE, ORIGIN))
    assert said["message"].startswith("Claimed: Guest-")
    assert claimed(anna.app.state.tables.store, token_hash(newcomer.cookies[COOKIE]))  # type: ignore[attr-defined]


def test_an_address_asking_too_often_is_told_to_wait(anna: TestClient) -> None:
    answers = [anna.post("/you/sign-in/options").status_code for _ in range(PASSKEY_BURST + 1)]
    assert answers[:-1] == [200] * PASSKEY_BURST
    late = anna.post("/you/sign-in/options")
    assert late.status_code == 429 and "Too many passkey requests" in late.json()["error"]


def test_an_unclaimed_browser_keeps_working_as_before(anna: TestClient) -> None:
    page = anna.get("/you").text
    assert "kept in this browser only" in page and "Claim with a passkey" in page
    assert "Pillage" in anna.get("/mine").text


def ask(server: LiveServer, path: str, host: str, token: str | None = None, body: str = "",
        method: str = "POST") -> tuple[int, str, str]:
    """A request to ``server`` as a client without cookies, addressed to ``host`` (the site's
    name, whichever process answers): (status, body, the token a cookie set, if one was)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    headers = {"host": host, "content-type": "application/x-www-form-urlencoded" if path == "/name" else
               "application/json", **({TOKEN_HEADER: token} if token else {})}
    conn.request(method, path, body, headers)
    answer = conn.getresponse()
    text = answer.read().decode()
    conn.close()
    cookie = answer.getheader("set-cookie") or ""
    given = cookie.split("=", 1)[1].split(";", 1)[0] if cookie.startswith(COOKIE + "=") else ""
    return answer.status, text, given


def test_a_ceremony_begun_on_one_process_is_finished_on_another(postgres_url: str,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(passkeys.SITE_VARIABLE, "localhost")  # the servers' environment: the default site
    with servers_on(postgres_url, 2) as (one, two):
        host = f"localhost:{one.port}"  # one site: both processes are reached at one address (a proxy's)
        key = SoftKey("localhost", f"http://{host}")
        status, _, token = ask(one, "/name", host, body="name=Zoe+Two&next=/")
        assert status == 303 and token
        status, options, _ = ask(one, "/you/claim/options", host, token)
        assert status == 200, options
        status, said, _ = ask(two, "/you/claim", host, token, json.dumps(key.register(options)))
        assert status == 200 and "Claimed: Zoe Two is yours" in said, said
        status, options, _ = ask(two, "/you/sign-in/options", host)
        answer = json.dumps(key.sign(options))
        status, said, fresh = ask(one, "/you/sign-in", host, body=answer)
        assert status == 200 and json.loads(said)["name"] == "Zoe Two" and fresh not in ("", token), said
        status, page, _ = ask(two, "/you", host, fresh, method="GET")
        assert status == 200 and "Zoe Two" in page and "claimed with" in page
        status, said, _ = ask(two, "/you/sign-in", host, body=answer)  # the same answer again, elsewhere
        assert status == 400 and "already answered" in json.loads(said)["error"]


def test_mutes_are_kept_per_identity_and_refused_in_words(anna: TestClient) -> None:
    game = new_game(anna, "pillage", preset="small", **{"seat.0": "me", "seat.1": "open"})
    assert anna.post(f"/mutes/{game}", json={"seat": 1, "muted": True}).json()["muted"] == [1]
    assert anna.post(f"/mutes/{game}", json={"seat": 1, "muted": True}).json()["muted"] == [1]  # once
    newcomer = browser(anna)
    assert newcomer.get(f"/mutes/{game}").json() == {"muted": [], "known": False}
    refused = newcomer.post(f"/mutes/{game}", json={"seat": 1, "muted": True})
    assert refused.status_code == 400 and "no identity yet" in refused.json()["error"]
    for body, why in [({"seat": 2, "muted": True}, "no seat 2"), ({"seat": "1", "muted": True}, "A mute is"),
                      ({"seat": 1}, "A mute is"), ([1], "A mute is")]:
        answer = anna.post(f"/mutes/{game}", json=body)
        assert answer.status_code == 400 and why in answer.json()["error"], (body, answer.text)
    assert anna.post("/mutes/nosuchgame", json={"seat": 0, "muted": True}).json()["error"] == \
        "There is no such game here."
    assert anna.post(f"/mutes/{game}", content=b"x" * 300).status_code == 400
    assert anna.post(f"/mutes/{game}", json={"seat": 1, "muted": False}).json()["muted"] == []


def test_a_second_passkey_claims_the_same_identity(anna: TestClient) -> None:
    first, second = SoftKey(SITE, ORIGIN), SoftKey(SITE, ORIGIN)
    claim(anna, first)
    options = json.loads(anna.post("/you/claim/options").text)
    # the browser is told which passkey it holds already
    assert [c["id"] for c in options["excludeCredentials"]] == [bytes_to_base64url(first.credential)]
    assert "Claimed" in claim(anna, second)["message"]
    assert second.handle == first.handle  # one identity, one user handle
    other = browser(anna)
    assert sign_in(other, second)[1]["name"] == "Anna"
    assert "claimed with\n      2 passkeys" in other.get("/you").text


def test_a_passkey_naming_another_user_is_refused(anna: TestClient) -> None:
    key = SoftKey(SITE, ORIGIN)
    claim(anna, key)
    key.handle = b"someone else"
    status, said = sign_in(anna, key)
    assert status == 400 and "names another identity" in said["error"]


def test_a_process_asks_the_store_of_live_sessions_every_time_and_remembers_the_ended(
        any_db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(any_db)
    storage = Storage(store)
    now = [1000.0]
    try:
        asked: list[str] = []

        def counted(store_: Store, token: str, at: float) -> str | None:
            asked.append(token)
            return session_of(store_, token, at)
        monkeypatch.setattr(identities, "session_of", counted)
        monkeypatch.setattr(identities, "CACHED_SESSIONS", 3)
        found = Sessions(storage, lambda: now[0])
        open_session(store, "s" * 64, "i" * 64, now[0])
        assert asyncio.run(found.identity("s" * 64)) == "i" * 64
        assert asyncio.run(found.identity("s" * 64)) == "i" * 64
        assert asyncio.run(found.identity("g" * 64)) == "g" * 64  # not a session: its own identity
        assert asked == ["s" * 64, "s" * 64, "g" * 64]  # a live session may end elsewhere: asked each time
        sign_out(store, "s" * 64, "i" * 64, now[0])
        assert asyncio.run(found.identity("s" * 64)) is None
        assert asyncio.run(found.identity("s" * 64)) is None
        assert asked.count("s" * 64) == 3  # ended for good: remembered
        for t in "abcd":
            open_session(store, t * 64, "i" * 64, now[0])
            sign_out(store, t * 64, "i" * 64, now[0])
            assert asyncio.run(found.identity(t * 64)) is None
        assert len(found._ended) == 3 and "s" * 64 not in found._ended  # the oldest forgotten
    finally:
        with store.engine.begin() as db:
            db.execute(delete(sessions).where(sessions.c.identity == "i" * 64))
        storage.close()


def test_a_session_slides_its_expiry_while_used_and_ends_when_idle(any_db: str) -> None:
    store = Store(any_db)
    try:
        start = 5000.0
        open_session(store, "t" * 64, "j" * 64, start)

        def expires() -> float:
            with store.engine.connect() as db:
                return float(db.execute(select(sessions.c.expires).where(sessions.c.token == "t" * 64)).scalar_one())
        assert expires() == start + SESSION_IDLE_SECONDS
        assert session_of(store, "t" * 64, start + SESSION_TOUCH_SECONDS / 2) == "j" * 64
        assert expires() == start + SESSION_IDLE_SECONDS  # written at most once a minute
        later = start + SESSION_IDLE_SECONDS - 10  # used just before it would end: a new idle period
        assert session_of(store, "t" * 64, later) == "j" * 64
        assert expires() == later + SESSION_IDLE_SECONDS
        again = start + SESSION_IDLE_SECONDS + 100  # past the first expiry, within the second
        assert session_of(store, "t" * 64, again) == "j" * 64
        assert session_of(store, "t" * 64, again + SESSION_IDLE_SECONDS) == ENDED  # idle too long
        assert session_of(store, "t" * 64, again + SESSION_IDLE_SECONDS + 1) == ENDED
        assert expires() == again + SESSION_IDLE_SECONDS  # an ended session is not moved on
        assert session_of(store, "n" * 64, start) is None  # no session: its own identity
    finally:
        with store.engine.begin() as db:
            db.execute(delete(sessions).where(sessions.c.identity == "j" * 64))
        store.close()


def test_a_sign_out_is_not_undone_by_a_request_that_read_the_session_alive(any_db: str) -> None:
    store = Store(any_db)
    try:
        open_session(store, "u" * 64, "k" * 64, 100.0)
        sign_out(store, "u" * 64, "k" * 64, 200.0)
        # the expiry's slide of a request that had read it alive at 150 moves only an expiry to come
        with store.engine.begin() as db:
            moved = db.execute(update(sessions).where(sessions.c.token == "u" * 64, sessions.c.expires > 150.0)
                               .values(expires=150.0 + SESSION_IDLE_SECONDS)).rowcount
        assert moved == 0
        assert session_of(store, "u" * 64, 150.0) == ENDED
    finally:
        with store.engine.begin() as db:
            db.execute(delete(sessions).where(sessions.c.identity == "k" * 64))
        store.close()


def signed_in_elsewhere(anna: TestClient, key: SoftKey) -> TestClient:
    """Another browser, signed in to Anna with ``key`` (Anna claimed with it first)."""
    assert "Claimed" in claim(anna, key)["message"]
    other = browser(anna)
    assert sign_in(other, key)[0] == 200
    assert "You are <strong id=\"identity-name\">Anna</strong>" in other.get("/you").text
    return other


def test_signing_out_ends_the_session_at_once_and_forgets_the_cookie(anna: TestClient) -> None:
    key = SoftKey(SITE, ORIGIN)
    other = signed_in_elsewhere(anna, key)
    session = other.cookies[COOKIE]
    assert "Sign out" in other.get("/you").text
    out = other.post("/you/sign-out", follow_redirects=False)
    assert out.status_code == 303 and out.headers["location"] == "/you?done=signed-out"
    assert COOKIE + '=""' in out.headers["set-cookie"] and "Max-Age=0" in out.headers["set-cookie"]
    assert COOKIE not in other.cookies
    page = other.get("/you?done=signed-out").text
    assert "Signed out: this browser no longer plays as you." in page and "has not played yet" in page
    # the old token, kept by a thief, acts for nobody: a newcomer's pages, none of Anna's games
    thief = browser(anna)
    thief.cookies.set(COOKIE, session, domain="testserver.local")
    assert "has not played yet" in thief.get("/you").text
    assert "Pillage" not in thief.get("/mine").text and "Pillage" in anna.get("/mine").text
    assert thief.get("/mine", headers={TOKEN_HEADER: session}).text == browser(anna).get("/mine").text
    # a new game from it is a newcomer's: a fresh cookie, not the dead one
    new_game(thief, "pillage", preset="small", **{"seat.0": "me", "seat.1": "easy"})
    assert thief.cookies[COOKIE] != session
    # Anna's own browser still plays as Anna, and the passkey signs in again
    assert "Anna" in anna.get("/you").text
    assert sign_in(other, key)[1]["name"] == "Anna"


def test_a_game_connection_opened_before_signing_out_acts_no_more(anna: TestClient) -> None:
    other = signed_in_elsewhere(anna, SoftKey(SITE, ORIGIN))
    game = new_game(anna, "pillage", preset="small", **{"seat.0": "me", "seat.1": "hotseat"})
    with other.websocket_connect(f"/ws/{game}") as ws:  # Anna's seats, from the signed-in browser
        first = state_of(ws)
        assert first["your_turn"]
        ws.send_json({"type": "act", "action": first["legal"][0], "ply": first["ply"]})
        moved = state_of(ws)
        assert moved["ply"] > first["ply"]
        assert browser(anna).post("/you/sign-out", headers={TOKEN_HEADER: other.cookies[COOKIE]},
                                  follow_redirects=False).status_code == 303
        ws.send_json({"type": "act", "action": moved["legal"][0], "ply": moved["ply"]})
        said = ws.receive_json()  # not the move's state: the move is not played
        assert said["type"] == "error", said
        assert said["message"] == "This browser signed out (or its sign-in expired): reload the page."
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    again = anna.get(f"/play/{game}")
    assert again.status_code == 200


def closed_feed(ws: Any) -> tuple[dict[str, Any], int]:
    """The last message of a ``/live`` feed, skipping what it was sent before, and its close code."""
    while True:
        said = ws.receive_json()
        if said["type"] == "error":
            break
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    return said, closed.value.code


def test_signing_out_closes_the_browsers_live_feed(anna: TestClient) -> None:
    # the header's "your turn" marker and My games' lists follow the identity: once its browser
    # signed out, the feed opened before tells it so and closes; another browser's feed stays
    other = signed_in_elsewhere(anna, SoftKey(SITE, ORIGIN))
    new_game(anna, "pillage", preset="small", **{"seat.0": "me", "seat.1": "hotseat"})  # Anna's turn
    with other.websocket_connect("/live?page=mine") as feed, anna.websocket_connect("/live?page=mine") as own:
        first = feed.receive_json()
        assert first["type"] == "mine" and first["your_turn"] >= 1, first
        assert own.receive_json()["your_turn"] == first["your_turn"]
        assert other.post("/you/sign-out", follow_redirects=False).status_code == 303
        said, code = closed_feed(feed)
        assert said["message"] == "This browser signed out (or its sign-in expired): reload the page."
        assert code == 1008
        room = anna.app.state.room  # type: ignore[attr-defined]
        assert [f.connection for f in room.followers] == [token_hash(anna.cookies[COOKIE])]


def test_a_session_that_ends_while_its_connections_are_silent_closes_them(anna: TestClient) -> None:
    # idle too long (or ended in the store by any means) while a game connection and a feed stay
    # open without a word: the process's sweep finds it and closes both, told why
    other = signed_in_elsewhere(anna, SoftKey(SITE, ORIGIN))
    session = token_hash(other.cookies[COOKIE])
    game = new_game(anna, "pillage", preset="small", **{"seat.0": "me", "seat.1": "hotseat"})
    tables = anna.app.state.tables  # type: ignore[attr-defined]
    with other.websocket_connect(f"/ws/{game}") as ws, other.websocket_connect("/live") as feed, \
            anna.websocket_connect(f"/ws/{game}") as own:
        assert state_of(ws)["your_turn"] and state_of(own)["your_turn"]
        assert feed.receive_json()["type"] == "mine"
        portal = anna.portal  # the app's event loop (the client is open)
        assert portal is not None
        assert portal.call(tables.sweep_sessions) == []  # alive: nothing closed
        with tables.store.engine.begin() as db:  # the session's month without a request is over
            db.execute(update(sessions).where(sessions.c.token == session).values(expires=tables.time() - 1))
        assert portal.call(tables.sweep_sessions) == [session]
        said, code = closed_feed(feed)
        assert said["message"] == SIGNED_OUT_WORDS and code == 1008
        said = ws.receive_json()
        assert said["type"] == "error" and said["message"] == SIGNED_OUT_WORDS, said
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
        viewers = tables.open[game].viewers
        assert [v.connection for v in viewers] == [token_hash(anna.cookies[COOKIE])]  # Anna's own stays


def test_a_browser_that_claimed_signs_out_only_once_claimed(anna: TestClient) -> None:
    refused = anna.post("/you/sign-out")
    assert refused.status_code == 400
    assert ("Anna is kept in this browser only: signing out would lose Anna, its games and ratings for good. "
            "Claim it with a passkey first") in refused.text
    assert "Traceback" not in refused.text and "Anna" in anna.get("/you").text  # still Anna
    key = SoftKey(SITE, ORIGIN)
    claim(anna, key)
    own = anna.cookies[COOKIE]
    assert "This browser claimed Anna" in anna.get("/you").text
    assert anna.post("/you/sign-out", follow_redirects=False).status_code == 303
    left = browser(anna)
    left.cookies.set(COOKIE, own, domain="testserver.local")  # the identity's own token: refused from now on too
    assert "has not played yet" in left.get("/you").text and "Pillage" not in left.get("/mine").text
    assert sign_in(left, key)[1]["name"] == "Anna"  # the passkey is the way back in
    assert "Pillage" in left.get("/mine").text
    nobody = browser(anna)
    assert nobody.post("/you/sign-out").status_code == 400  # a newcomer has nothing to sign out of


def test_another_sites_page_cannot_sign_out_or_remove_a_passkey(anna: TestClient) -> None:
    key = SoftKey(SITE, ORIGIN)
    other = signed_in_elsewhere(anna, key)
    evil = {"origin": "http://evil.example"}
    assert other.post("/you/sign-out", headers=evil).status_code == 403
    assert other.post("/you/passkeys/remove", data={"credential": bytes_to_base64url(key.credential)},
                      headers=evil).status_code == 403
    assert "You are <strong id=\"identity-name\">Anna</strong>" in other.get("/you").text
    assert claimed(anna.app.state.tables.store, token_hash(anna.cookies[COOKIE]))  # type: ignore[attr-defined]


def test_passkeys_are_listed_and_removed_but_not_the_last_one_of_a_signed_in_browser(anna: TestClient) -> None:
    first, second = SoftKey(SITE, ORIGIN), SoftKey(SITE, ORIGIN)
    other = signed_in_elsewhere(anna, first)
    assert "Claimed" in claim(other, second)["message"]
    page = other.get("/you").text
    assert page.count('class="remove-passkey"') == 2 and "Passkey 1: made just now, last signed in just now" in page
    assert "Passkey 2: made just now, never used to sign in" in page
    gone = other.post("/you/passkeys/remove", data={"credential": bytes_to_base64url(first.credential)},
                      follow_redirects=False)
    assert gone.status_code == 303 and gone.headers["location"] == "/you?done=removed"
    assert "Passkey removed: it can no longer sign in here." in other.get("/you?done=removed").text
    assert "not known here" in sign_in(browser(anna), first)[1]["error"]
    page = other.get("/you").text  # its last is not offered for removal here (a stale page's form is refused)
    assert 'class="remove-passkey"' not in page and "Kept: it is your only way to sign in again." in page
    assert 'class="remove-passkey"' in anna.get("/you").text  # the claiming browser may: it unclaims
    last = other.post("/you/passkeys/remove", data={"credential": bytes_to_base64url(second.credential)})
    assert last.status_code == 400
    assert "This is your only passkey, and this browser is signed in with it" in last.text
    assert "Add another passkey first" in last.text
    unknown = other.post("/you/passkeys/remove", data={"credential": "nonesuch"})
    assert unknown.status_code == 400 and "You have no such passkey" in unknown.text
    # the browser that claimed keeps Anna in its cookie: it may remove the last, which unclaims
    # Anna and signs out the browsers signed in
    store = anna.app.state.tables.store  # type: ignore[attr-defined]
    assert claimed(store, token_hash(anna.cookies[COOKIE]))
    with other.websocket_connect("/live") as feed:  # the signed-in browser's page, open meanwhile
        assert feed.receive_json()["type"] == "mine"
        done = anna.post("/you/passkeys/remove", data={"credential": bytes_to_base64url(second.credential)},
                         follow_redirects=False)
        assert closed_feed(feed) == (signed_out_message(), 1008)  # told at once, as a sign-out is
    assert done.headers["location"] == "/you?done=unclaimed"
    assert not claimed(store, token_hash(anna.cookies[COOKIE]))
    assert "kept in this browser only" in anna.get("/you?done=unclaimed").text
    assert "has not played yet" in other.get("/you").text  # signed out
    assert "Anna" in anna.get("/you").text


def test_a_session_idle_too_long_acts_for_nobody(anna: TestClient) -> None:
    other = signed_in_elsewhere(anna, SoftKey(SITE, ORIGIN))
    found: Sessions = anna.app.state.sessions  # type: ignore[attr-defined]
    real = found.clock
    try:
        found.clock = lambda: real() + SESSION_IDLE_SECONDS - 60  # a visit a day short of a month on
        assert "Anna" in other.get("/you").text
        found.clock = lambda: real() + SESSION_IDLE_SECONDS + 600  # the visit moved the expiry on
        assert "Anna" in other.get("/you").text
        found.clock = lambda: real() + 2 * SESSION_IDLE_SECONDS + 700  # then a month without a visit
        assert "has not played yet" in other.get("/you").text
        assert "Anna" in anna.get("/you").text  # the claiming browser's own token does not expire
    finally:
        found.clock = real


def test_two_removals_at_once_leave_a_passkey(any_db: str) -> None:
    # two browsers signed in remove the identity's two passkeys at the same moment: one is refused
    store = Store(any_db)
    try:
        with store.engine.begin() as db:
            db.execute(insert(passkeys.users).values(identity="r" * 64, handle="h" * 40, created=0.0))
            db.execute(insert(passkeys.passkeys), [
                {"credential": f"race-{i}", "identity": "r" * 64, "public_key": "k", "sign_count": 0, "created": 0.0}
                for i in range(2)])
        outcomes: list[str] = []
        start = threading.Barrier(2)

        def take(i: int) -> None:
            start.wait()
            try:
                outcomes.append(f"left {passkeys.remove(store, 'r' * 64, f'race-{i}', signed_in=True).left}")
            except passkeys.PasskeyRefused as exc:
                outcomes.append(str(exc))
        threads = [threading.Thread(target=take, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(outcomes) == 2 and "left 1" in outcomes
        assert [o for o in outcomes if o != "left 1"][0].startswith("This is your only passkey")
        assert len(passkeys_of(store, "r" * 64)) == 1
    finally:
        with store.engine.begin() as db:
            db.execute(delete(passkeys.passkeys).where(passkeys.passkeys.c.identity == "r" * 64))
            db.execute(delete(passkeys.users).where(passkeys.users.c.identity == "r" * 64))
        store.close()


def test_a_sign_out_on_one_process_is_refused_by_the_other_at_once(postgres_url: str, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(passkeys.SITE_VARIABLE, "localhost")
    shift = tmp_path / "shift"
    shift.write_text("0")
    with servers_on(postgres_url, 2, {TIME_SHIFT_ENV: str(shift)}) as (one, two):
        host = f"localhost:{one.port}"
        key = SoftKey("localhost", f"http://{host}")
        status, _, token = ask(one, "/name", host, body="name=Ola+Two&next=/")
        status, options, _ = ask(one, "/you/claim/options", host, token)
        status, said, _ = ask(two, "/you/claim", host, token, json.dumps(key.register(options)))
        assert status == 200, said

        def session() -> str:
            _, options, _ = ask(two, "/you/sign-in/options", host)
            status, said, fresh = ask(one, "/you/sign-in", host, body=json.dumps(key.sign(options)))
            assert status == 200 and fresh, said
            return fresh
        first = session()
        for server in (one, two):  # both processes have seen it alive
            assert "Ola Two" in ask(server, "/you", host, first, method="GET")[1]
        status, _, _ = ask(one, "/you/sign-out", host, first)
        assert status == 303
        for server in (two, one):
            page = ask(server, "/you", host, first, method="GET")[1]
            assert "has not played yet" in page and "Ola Two" not in page
        second = session()
        assert "Ola Two" in ask(two, "/you", host, second, method="GET")[1]
        shift.write_text(str(SESSION_IDLE_SECONDS + 60))  # a month and a minute later, on both
        time.sleep(0.3)  # the servers read the shift at most every 0.1 s
        for server in (one, two):
            assert "has not played yet" in ask(server, "/you", host, second, method="GET")[1]
        assert "Ola Two" in ask(two, "/you", host, token, method="GET")[1]  # the claiming browser's own token


def created(server: LiveServer, host: str, token: str, game: str, fields: str) -> str:
    """A new ``game`` (its form's ``fields``, url-encoded) made on ``server`` for ``token``: its id."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    conn.request("POST", f"/new/{game}", fields, {"host": host, TOKEN_HEADER: token,
                                                 "content-type": "application/x-www-form-urlencoded"})
    answer = conn.getresponse()
    answer.read()
    conn.close()
    assert answer.status == 303, answer.status
    return str(answer.getheader("location")).rsplit("/", 1)[1]


async def answers(ws: Any) -> list[dict[str, Any]]:
    """The messages ``ws`` is sent until the server closes it, then ``{"closed": code}``."""
    said = []
    try:
        async for text in ws:
            said.append(json.loads(text))
    except websockets.exceptions.ConnectionClosed:  # closed with a code other than 1000
        pass
    return [*said, {"closed": ws.close_code}]


def test_the_claiming_browsers_own_token_signed_out_on_one_process_acts_no_more_on_the_other(
        postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # the browser that claimed holds the identity's own token (no session): its game connections,
    # open on the other process, are told and closed once it signed out, and a move is not played
    monkeypatch.setenv(passkeys.SITE_VARIABLE, "localhost")
    with servers_on(postgres_url, 2) as (one, two):
        host = f"localhost:{one.port}"
        key = SoftKey("localhost", f"http://{host}")
        status, _, token = ask(one, "/name", host, body="name=Una+Own&next=/")
        assert status == 303 and token
        _, options, _ = ask(one, "/you/claim/options", host, token)
        status, claimed_now, _ = ask(two, "/you/claim", host, token, json.dumps(key.register(options)))
        assert status == 200, claimed_now
        game = created(one, host, token, "pillage", "preset=small&seat.0=me&seat.1=hotseat")

        async def play() -> list[dict[str, Any]]:
            url = f"ws://127.0.0.1:{two.port}/ws/{game}"
            async with websockets.connect(url, additional_headers={TOKEN_HEADER: token}) as ws:
                first = json.loads(await ws.recv())
                assert first["type"] == "state" and first["your_turn"], first
                await ws.send(json.dumps({"type": "act", "action": first["legal"][0], "ply": first["ply"]}))
                moved = json.loads(await ws.recv())
                assert moved["type"] == "state" and moved["ply"] > first["ply"] and moved["your_turn"], moved
                # a second connection of the same browser, which will send a move after the sign-out,
                # and its page's live feed (the "your turn" marker), both on the other process
                async with websockets.connect(url, additional_headers={TOKEN_HEADER: token}) as late, \
                        websockets.connect(f"ws://127.0.0.1:{two.port}/live",
                                           additional_headers={TOKEN_HEADER: token}) as feed:
                    assert json.loads(await late.recv())["ply"] == moved["ply"]
                    assert json.loads(await feed.recv())["type"] == "mine"
                    status, _, _ = await asyncio.to_thread(ask, one, "/you/sign-out", host, token)
                    assert status == 303
                    # told and closed by the server without a word from it (a connection left
                    # open would end the wait), whichever process it is on
                    said = await asyncio.wait_for(answers(ws), 30)
                    fed = await asyncio.wait_for(answers(feed), 30)
                    assert fed[-2:] == [signed_out_message(), {"closed": 1008}], fed
                    try:  # and a move sent now is not played, whether it meets the close or the store's no
                        await late.send(json.dumps({"type": "act", "action": moved["legal"][0], "ply": moved["ply"]}))
                    except websockets.exceptions.ConnectionClosed:
                        pass
                    heard = await asyncio.wait_for(answers(late), 30)
                return [moved, *said, *heard]
        moved, *said = asyncio.run(play())
        assert [m.get("type") for m in said] == ["error", None] * 2, said  # no state: the move is not played
        assert said[1]["closed"] == said[3]["closed"] == 1008  # closed by the server (a policy's close)
        assert said[0]["message"] == "This browser signed out (or its sign-in expired): reload the page."
        for server in (two, one):  # and every request with the token comes from a newcomer
            page = ask(server, "/you", host, token, method="GET")[1]
            assert "has not played yet" in page and "Una Own" not in page
        _, options, _ = ask(two, "/you/sign-in/options", host)
        status, _, fresh = ask(one, "/you/sign-in", host, body=json.dumps(key.sign(options)))
        assert status == 200 and fresh  # the passkey is the way back in: the game is where it was

        async def back() -> dict[str, Any]:
            url = f"ws://127.0.0.1:{two.port}/ws/{game}"
            async with websockets.connect(url, additional_headers={TOKEN_HEADER: fresh}) as ws:
                state: dict[str, Any] = json.loads(await ws.recv())
                return state
        again = asyncio.run(back())
        assert again["ply"] == moved["ply"] and again["your_turn"], again


def race(*calls: Callable[[], object]) -> list[str]:
    """Run ``calls`` in threads let go at the same moment: what each said (``done`` or the
    refusal's words), in the order of ``calls``."""
    said = [""] * len(calls)
    start = threading.Barrier(len(calls))

    def run(i: int) -> None:
        start.wait()
        try:
            calls[i]()
            said[i] = "done"
        except (NameRefused, PasskeyRefused) as exc:
            said[i] = str(exc)
    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return said


def named(store: Store, name: str) -> str:
    """A fresh identity (a random token hash) called ``name``."""
    identity = token_hash(new_token())
    set_name(store, identity, name)
    return identity


def forget(store: Store, identities: list[str]) -> None:
    """Remove what the race tests kept of ``identities`` (the PostgreSQL database is shared)."""
    with store.engine.begin() as db:
        for table, column in [(passkeys.passkeys, "identity"), (passkeys.users, "identity"),
                              (claimed_names, "identity"), (names, "token")]:
            db.execute(delete(table).where(table.c[column].in_(identities)))


def test_two_look_alike_names_claimed_at_the_same_moment_are_not_both_claimed(any_db: str) -> None:
    store = Store(any_db)
    made: list[str] = []
    try:
        made += [named(store, "Zed Race"), named(store, "Z\u0435d Race")]  # a Cyrillic е
        answers = [json.dumps(SoftKey(SITE, ORIGIN).register(claim_options(store, i, n)))
                   for i, n in zip(made, ["Zed Race", "Z\u0435d Race"])]
        said = race(*(functools.partial(finish_claim, store, i, a, ORIGIN, functools.partial(hold_name, identity=i))
                      for i, a in zip(made, answers)))
        assert sorted(said, key=len)[0] == "done", said
        refusal = sorted(said, key=len)[1]
        assert "looks like" in refusal and "a name claimed here" in refusal, said
        assert [claimed(store, i) for i in made].count(True) == 1  # the refused claim kept no passkey
        with store.engine.connect() as db:
            assert len(db.execute(select(claimed_names).where(claimed_names.c.identity.in_(made))).all()) == 1
    finally:
        forget(store, made)
        store.close()


def test_two_claimed_names_renamed_alike_at_the_same_moment_are_not_both_renamed(any_db: str) -> None:
    store = Store(any_db)
    made: list[str] = []
    try:
        made += [named(store, "Kit One"), named(store, "Kit Two")]
        with store.engine.begin() as db:  # both claimed
            for identity in made:
                hold_name(db, identity)
        said = race(functools.partial(set_name, store, made[0], "Kit Race"),
                    functools.partial(set_name, store, made[1], "K\u0456t Race"))  # a Cyrillic і
        assert said.count("done") == 1, said
        refusal = [s for s in said if s != "done"][0]
        assert "looks like" in refusal and "claimed here" in refusal, said
        with store.engine.connect() as db:
            now = sorted(db.execute(select(names.c.name).where(names.c.token.in_(made))).scalars())
        assert len([n for n in now if "Race" in n]) == 1, now  # the refused rename kept the old name
        # a claimed identity may respell its own name
        winner = made[said.index("done")]
        set_name(store, winner, "KIT RACE")
    finally:
        forget(store, made)
        store.close()


def test_look_alike_claims_at_the_same_moment_on_two_processes(postgres_url: str,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(passkeys.SITE_VARIABLE, "localhost")
    with servers_on(postgres_url, 2) as (one, two):
        host = f"localhost:{one.port}"
        begun = []
        for server, name in [(one, "Vic+Race"), (two, "V%D1%96c+Race")]:  # a Cyrillic і
            status, _, token = ask(server, "/name", host, body=f"name={name}&next=/")
            assert status == 303 and token
            status, options, _ = ask(server, "/you/claim/options", host, token)
            assert status == 200, options
            begun.append((token, json.dumps(SoftKey("localhost", f"http://{host}").register(options))))
        answers: list[tuple[int, str, str]] = [(0, "", "")] * 2

        def finish(i: int) -> None:
            answers[i] = ask((one, two)[i], "/you/claim", host, begun[i][0], begun[i][1])
        race(*(functools.partial(finish, i) for i in range(2)))
        statuses = sorted(a[0] for a in answers)
        assert statuses == [200, 400], answers
        refusal = json.loads([a[1] for a in answers if a[0] == 400][0])["error"]
        assert "looks like" in refusal and "Choose another name, then claim it." in refusal
