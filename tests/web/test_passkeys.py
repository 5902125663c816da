"""Passkeys over HTTP (web/passkeys.py, web/signin.py, web/identities.py): an identity claimed
with a (software) passkey is signed in to from another browser, which then has the same name
and games under a fresh cookie; every bad answer is refused in words, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import http.client
import json
from typing import Any, Iterator

import pytest
from sqlalchemy import delete, select, update
from starlette.testclient import TestClient
from webauthn.helpers import bytes_to_base64url

from plunder.web import identities, passkeys
from plunder.web.app import create_app
from plunder.web.identities import Sessions, open_session, session_of, sessions
from plunder.web.passkeys import CHALLENGE_SECONDS, challenges, claimed
from plunder.web.quotas import rates
from plunder.web.signin import PASSKEY_BURST
from plunder.web.security import COOKIE, TOKEN_HEADER
from plunder.web.storage import Storage
from plunder.web.store import Store, token_hash

from .browser.conftest import LiveServer, servers_on
from .clients import browser
from .softkey import SoftKey
from .test_play_server import new_game

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


def test_a_process_looks_up_each_token_once_and_remembers_a_bounded_number(
        any_db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(any_db)
    storage = Storage(store)
    try:
        asked: list[str] = []

        def counted(store_: Store, token: str) -> str | None:
            asked.append(token)
            return session_of(store_, token)
        monkeypatch.setattr(identities, "session_of", counted)
        monkeypatch.setattr(identities, "CACHED_SESSIONS", 3)
        found = Sessions(storage)
        open_session(store, "s" * 64, "i" * 64)
        assert asyncio.run(found.identity("s" * 64)) == "i" * 64
        assert asyncio.run(found.identity("s" * 64)) == "i" * 64
        assert asyncio.run(found.identity("g" * 64)) == "g" * 64  # not a session: its own identity
        assert asked == ["s" * 64, "g" * 64]  # each looked up once
        for t in "abcd":
            asyncio.run(found.identity(t * 64))
        assert len(found._known) == 3 and "s" * 64 not in found._known  # the oldest forgotten
    finally:
        with store.engine.begin() as db:
            db.execute(delete(sessions).where(sessions.c.token == "s" * 64))
        storage.close()
