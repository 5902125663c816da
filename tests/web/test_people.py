"""Names, my games, the lobby and rematches over HTTP and the WebSocket (web/names.py,
web/rooms.py, web/lobby.py): hostile names refused or escaped, names on seats, in verdicts
and in the log, a browser's games listed, listed games joined with one POST, rematches with
the seats rotated."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any, Iterator

import pytest
from sqlalchemy import insert, select
from starlette.testclient import TestClient

from plunder.web.app import create_app
from plunder.web.lookalike import likeness
from plunder.web.names import (MAX_NAME_CHARS, Callers, NameRefused, SeatWho, keep_name, names_of, normalise,
                               protected_names, set_name, unlike)
from plunder.web.names import names
from plunder.web.passkeys import passkeys
from plunder.web.store import Store
from plunder.web import lobby, rooms
from plunder.web.rooms import MAX_LOBBY, offer
from plunder.web.security import COOKIE

from .test_play_server import new_game, state_of, until_my_turn
from .clients import browser, browser_of


@pytest.fixture
def app_db(tmp_path: Path) -> str:
    """A fresh SQLite database URL."""
    return f"sqlite:///{tmp_path / 'plunder.db'}"


@pytest.fixture
def anna(app_db: str) -> Iterator[TestClient]:
    """A browser called Anna."""
    with TestClient(create_app(app_db, ai_workers=0)) as c:
        named(c, "Anna")
        yield c


def named(client: TestClient, name: str) -> None:
    """Set the browser's name (it is given a token if it has none)."""
    answer = client.post("/name", data={"name": name, "next": "/"}, follow_redirects=False)
    assert answer.status_code == 303, answer.text


def claim(store: Store, token: str) -> None:
    """Mark the identity ``token`` (a hash) claimed, as a passkey's claim stores it (the
    ceremony itself is tests/web/test_passkeys.py's)."""
    with store.engine.begin() as db:
        db.execute(insert(passkeys).values(credential=f"test-{token}", identity=token, public_key="",
                                           sign_count=0, created=0.0))


def claim_named(client: TestClient, name: str) -> None:
    """Mark the identity called ``name`` on ``client``'s server claimed (:func:`claim`)."""
    store: Store = client.app.state.tables.store  # type: ignore[attr-defined]
    with store.engine.connect() as db:
        token = db.execute(select(names.c.token).where(names.c.name == name)).scalar_one()
    claim(store, token)


def refused_name(client: TestClient, **request: Any) -> str:
    """Send the name form (``request``: the post's arguments) and return the page it goes back
    to, which says why the name was refused beside the name field, with the name typed in it."""
    answer = client.post("/name", follow_redirects=False, **request)
    assert answer.status_code == 303, answer.text  # back to the page the form was on, not a page of its own
    page = client.get(answer.headers["location"])
    assert page.status_code == 200 and 'id="name-error"' in page.text and "data-refused" in page.text
    return page.text


def other(client: TestClient) -> TestClient:
    """A second browser on the same app (its own cookies)."""
    return browser(client)


@pytest.mark.parametrize("name, why", [
    ("x" * (MAX_NAME_CHARS + 1), "at most 24 characters"),
    ("Hard AI", "word AI"), ("the medium AI", "word AI"), ("ai", "word AI"), ("EASY-ai", "word AI"),
    ("You", "word the pages use"), ("Player 2", "word the pages use"), ("  \t\n ", "visible character"),
])
def test_a_hostile_name_is_refused_with_one_line(name: str, why: str) -> None:
    with pytest.raises(NameRefused, match=why) as refused:
        normalise(name)
    assert "\n" not in str(refused.value)


def test_control_characters_and_spaces_are_made_one_space() -> None:
    assert normalise(" Anna\x00\u3000  B\tob\n") == "Anna B ob"
    assert normalise("Élise") == "Élise" and normalise("<script>") == "<script>"


@pytest.mark.parametrize("name, why", [
    ("the hard \u0410I", "looks like the word AI"),  # a Cyrillic capital A
    ("the hard \uff21\uff29", "looks like the word AI"),  # fullwidth A and I
    ("the hard Al", "looks like the word AI"),  # a small L for the capital I
    ("hard Al", "looks like the word AI"), ("B0T", "looks like the word BOT"),
    ("Y\u043eu", "looks like 'You'"),  # a Cyrillic small o
    ("P1ayer 2", "looks like 'Player 2'"), ("\uff30layer 3", "looks like 'Player 3'"),
])
def test_a_name_that_looks_like_an_ai_or_the_pages_words_is_refused(name: str, why: str) -> None:
    with pytest.raises(NameRefused, match=why):
        normalise(name)


@pytest.mark.parametrize("name, why", [
    ("An\u202ena", "direction controls such as RIGHT-TO-LEFT OVERRIDE \\(U\\+202E\\)"),
    ("\u2067Anna", "direction controls such as RIGHT-TO-LEFT ISOLATE"),
    ("An\u200fna", "direction controls such as RIGHT-TO-LEFT MARK"),
    ("\u061cAnna", "direction controls such as ARABIC LETTER MARK"),
    ("An\u200bna", "invisible characters such as ZERO WIDTH SPACE \\(U\\+200B\\)"),
    ("An\u2060na", "invisible characters such as WORD JOINER"), ("\ufeffAnna", "ZERO WIDTH NO-BREAK SPACE"),
    ("An\u00adna", "SOFT HYPHEN"), ("\u200d", "ZERO WIDTH JOINER \\(U\\+200D\\) only between two visible"),
    ("Anna\u200d", "only between two visible"), ("\u3164", "HANGUL FILLER"), ("\u2800\u2800", "BRAILLE PATTERN BLANK"),
    ("\ufe0fAnna", "only right after the character it changes"),
    ("An\ud800na", "half of a character"), ("\udfff", "half of a character"),
    ("An\ufffdna", "REPLACEMENT CHARACTER"),
])
def test_a_name_with_a_character_not_seen_is_refused_saying_which(name: str, why: str) -> None:
    with pytest.raises(NameRefused, match=why) as refused:
        normalise(name)
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize("name", ["Alice", "Al\u00e9x", "Zo\u00eb", "\u0410\u043d\u043d\u0430", "\u5f20\u4f1f",
                                  "Zo\u00eb \U0001f468\u200d\U0001f469\u200d\U0001f467", "\U0001f3f3\ufe0f\u200d\U0001f308",
                                  "\u0645\u0647\u200c\u0633\u0627", "Bob the builder"])
def test_names_in_any_script_and_emoji_sequences_are_kept(name: str) -> None:
    assert normalise(name) == name


def test_likeness_sees_what_a_name_passes_for() -> None:
    ai = likeness("the hard AI")
    assert [likeness(n) == ai for n in ("the hard \u0410I", "the hard \uff21\uff29", "the hard Al", "THE HARD AL")] == \
        [True] * 4
    assert likeness("Y\u043eu") == likeness("You") == likeness("y0u")
    assert likeness("Anna") != likeness("Anne") and likeness("Bob") != likeness("Rob")
    assert likeness("An\u200dna") == likeness("Anna")  # a joiner draws nothing between two Latin letters
    # linear in the name: 24 fullwidth I (whose every reading the confusables package would list: 2**24)
    assert likeness("\uff29" * MAX_NAME_CHARS) == "l" * MAX_NAME_CHARS


def test_a_name_like_another_identitys_or_a_protected_one_is_refused(app_db: str) -> None:
    store = Store(app_db)
    try:
        set_name(store, "a" * 64, "Anna")
        set_name(store, "b" * 64, "Bob")
        set_name(store, "d" * 64, "Dora")
        assert protected_names(store)[4:] == []  # guests' names: two browsers may both be Bob
        keep_name(store, "e" * 64, "B\u043eb")
        claim(store, "a" * 64)
        claim(store, "b" * 64)
        protected = protected_names(store)
        assert protected[:4] == ["the easy AI", "the medium AI", "the hard AI", "You"]
        assert sorted(protected[4:]) == ["Anna", "Bob"]  # claimed with a passkey; Dora is not
        for lookalike in ("\u0410nna", "ANNA", "anna", "\uff21nna"):
            with pytest.raises(NameRefused, match="'Anna', a name claimed here"):
                keep_name(store, "c" * 64, normalise(lookalike))
        keep_name(store, "f" * 64, "D\u043era")
        keep_name(store, "a" * 64, "ANNA")  # its own name respelt
        keep_name(store, "c" * 64, "Anne")
        assert names_of(store, ["a" * 64, "c" * 64]) == {"a" * 64: "ANNA", "c" * 64: "Anne"}
        assert "ANNA" not in protected_names(store, "a" * 64) and "ANNA" in protected_names(store, "c" * 64)
        with pytest.raises(NameRefused, match="'You'"):
            unlike("Y\u043eu", protected_names(store))
    finally:
        store.engine.dispose()


def test_verdicts_from_each_side() -> None:
    seats = [SeatWho("human", "a" * 64, None, "Player 1"), SeatWho("ai", None, "hard", "Player 2")]
    callers = Callers(seats, {"a" * 64: "Anna"})
    assert callers.verdict([1, -1], frozenset({0})) == "You win"
    assert callers.verdict([-1, 1], frozenset({0})) == "You lost to the hard AI"
    assert callers.verdict([1, -1], frozenset()) == "Anna wins"
    assert callers.verdict([-1, 1], frozenset()) == "The hard AI wins"
    assert callers.verdict([0, 0], frozenset()) == "A tie"
    assert callers.told("Player 2 drew a1-b1. Player 1 took 1 box") == "The hard AI drew a1-b1. Anna took 1 box"
    html = Callers([SeatWho("human", "b" * 64, None, "Player 1"), SeatWho("human", "c" * 64, None, "Player 10")],
                   {"b" * 64: "<b>", "c" * 64: "Ten"})
    assert html.told("<code>x</code> Player 10 gave Player 1 a box", html=True) == \
        "<code>x</code> Ten gave &lt;b&gt; a box"
    two = Callers([SeatWho("ai", None, "hard", "Player 1"), SeatWho("ai", None, "hard", "Player 2")], {})
    assert two.names == ["the hard AI (Player 1)", "the hard AI (Player 2)"]


def test_the_name_form_refuses_plainly_and_escapes(anna: TestClient) -> None:
    assert "may not contain the word AI" in refused_name(anna, data={"name": "The hard AI"})
    named(anna, "<b>x</b><script>")
    page = anna.get("/")
    assert "<b>x</b><script>" not in page.text and "&lt;b&gt;x&lt;/b&gt;&lt;script&gt;" in page.text
    assert anna.post("/name", data={"name": "Bob", "next": "//evil.example/"}, follow_redirects=False) \
        .headers["location"] == "/"


def test_a_newcomer_gets_a_token_when_naming_itself_and_another_site_cannot(app_db: str) -> None:
    with TestClient(create_app(app_db, ai_workers=0)) as c:
        assert c.post("/name", data={"name": "Zoe"}, headers={"origin": "http://evil.example"},
                      follow_redirects=False).status_code == 403
        assert COOKIE not in c.cookies
        answer = c.post("/name", data={"name": "Zoe"}, follow_redirects=False)
        assert answer.status_code == 303 and COOKIE in c.cookies
        assert ">Zoe</summary>" in c.get("/").text
        # a browser with its token keeps it
        assert "set-cookie" not in c.post("/name", data={"name": "Zoë"}, follow_redirects=False).headers


def test_a_browser_without_a_name_is_asked_with_a_default_it_may_keep(app_db: str) -> None:
    with TestClient(create_app(app_db, ai_workers=0)) as c:
        new_game(c, "pillage", preset="small", **{"seat.0": "me", "seat.1": "easy"})
        asked = re.search(r'<details class="me" open>\s*<summary id="my-name">(Guest-[0-9a-f]{4})</summary>', c.get("/").text)
        assert asked
        with browser_of(c) as other_browser:  # another browser may not pass for this one
            assert "word the pages use" in refused_name(other_browser, data={"name": asked.group(1)})
        named(c, asked.group(1))
        assert '<details class="me">' in c.get("/").text  # chosen: no longer asked


def test_names_on_seats_in_the_log_and_the_verdict(anna: TestClient) -> None:
    game_id = new_game(anna, "pillage", preset="small", **{"seat.0": "open", "seat.1": "me"})
    invite = re.search(r"/join/[A-Za-z0-9_-]+", anna.get(f"/play/{game_id}").text)
    assert invite
    with other(anna) as bob:
        named(bob, "Bob")
        assert bob.get(invite.group(0), follow_redirects=False).status_code == 303
        with bob.websocket_connect(f"/ws/{game_id}") as ws:
            message = until_my_turn(ws, state_of(ws))
            assert [s["name"] for s in message["seats"]] == ["You", "Anna"]
            assert message["status"] == "Your turn"
            ws.send_json({"type": "act", "action": message["legal"][0], "ply": message["ply"]})
            moved = state_of(ws)
            assert moved["log"][-1]["text"].startswith("Bob ") and moved["status"] == "Anna to move"
            ws.send_json({"type": "resign"})
            assert state_of(ws)["result"]["verdict"] == "You resigned: Anna wins"
        with anna.websocket_connect(f"/ws/{game_id}") as ws:
            assert state_of(ws)["result"]["verdict"] == "Bob resigned: you win"
        with anna.websocket_connect(f"/ws/{game_id}?watch=1") as ws:
            assert state_of(ws)["result"]["verdict"] == "Bob resigned: Anna wins"


def test_my_games_lists_games_in_progress_and_finished_and_whose_turn(anna: TestClient) -> None:
    on = new_game(anna, "pillage", preset="small", **{"seat.0": "me", "seat.1": "easy"})
    done = new_game(anna, "pillage", preset="small", **{"seat.0": "me", "seat.1": "hard"})
    with anna.websocket_connect(f"/ws/{done}") as ws:
        until_my_turn(ws, state_of(ws))
        ws.send_json({"type": "resign"})
        state_of(ws)
    with anna.websocket_connect(f"/ws/{on}") as ws:
        until_my_turn(ws, state_of(ws))
    page = anna.get("/mine").text
    playing, finished = page.split('id="finished"')
    assert f"/play/{on}" in playing and "the easy AI" in playing and "Your turn" in playing
    assert f"/play/{done}" in finished and "You resigned: the hard AI wins" in finished
    assert anna.get("/mine.json").json() == {"your_turn": 1, "games": [on]}
    with other(anna) as stranger:
        assert stranger.get("/mine.json").json() == {"your_turn": 0, "games": []}
        assert f"/play/{on}" not in stranger.get("/mine").text


def test_the_lobby_lists_only_games_anyone_may_join_and_one_post_sits_down(anna: TestClient) -> None:
    listed = new_game(anna, "pillage", preset="small", listed="anyone", **{"seat.0": "me", "seat.1": "open"})
    unlisted = new_game(anna, "pillage", preset="small", **{"seat.0": "me", "seat.1": "open"})
    lobby = anna.get("/lobby").text
    assert listed in lobby and unlisted not in lobby and "Anna" in lobby and "Your game" in lobby
    assert anna.post(f"/lobby/{listed}/1", follow_redirects=False).status_code == 409  # already seated
    with browser_of(anna) as bob:
        assert bob.post(f"/lobby/{unlisted}/1", follow_redirects=False).status_code == 410
        assert bob.post(f"/lobby/{listed}/1", headers={"origin": "http://evil.example"},
                        follow_redirects=False).status_code == 403
        sat = bob.post(f"/lobby/{listed}/1", follow_redirects=False)
        assert sat.status_code == 303 and sat.headers["location"] == f"/play/{listed}" and COOKIE in bob.cookies
        with bob.websocket_connect(f"/ws/{listed}") as ws:
            assert state_of(ws)["you"] == [1]
    assert listed not in anna.get("/lobby").text  # no open seat left
    with browser_of(anna) as carl:
        assert carl.post(f"/lobby/{listed}/1", follow_redirects=False).status_code == 410
    assert MAX_LOBBY == 50


def finish_by_resigning(client: TestClient, game_id: str) -> dict[str, Any]:
    """Resign ``game_id`` for this browser's seat; the last state."""
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        state_of(ws)
        ws.send_json({"type": "resign"})
        return state_of(ws)


def test_a_rematch_rotates_the_seats_and_waits_for_the_other_player(anna: TestClient) -> None:
    game_id = new_game(anna, "pillage", preset="small", listed="anyone", **{"seat.0": "me", "seat.1": "open"})
    with browser_of(anna) as bob:
        named(bob, "Bob")
        assert bob.post(f"/rematch/{game_id}", follow_redirects=False).status_code == 403  # not a player
        bob.post(f"/lobby/{game_id}/1", follow_redirects=False)
        assert bob.post(f"/rematch/{game_id}", follow_redirects=False).status_code == 409  # not over
        finish_by_resigning(anna, game_id)
        with bob.websocket_connect(f"/ws/{game_id}") as ws:
            assert "rematch" not in state_of(ws)
            asked = anna.post(f"/rematch/{game_id}", follow_redirects=False)
            assert asked.headers["location"] == f"/play/{game_id}"  # waiting for Bob
            offer = state_of(ws)["rematch"]
            assert offer["you_waiting"] and not offer["ready"]
            accepted = bob.post(f"/rematch/{game_id}", follow_redirects=False)
            new_id = offer["game_id"]
            assert accepted.headers["location"] == f"/play/{new_id}"
            assert state_of(ws)["rematch"]["ready"]
        with bob.websocket_connect(f"/ws/{new_id}") as ws:
            message = state_of(ws)
            assert message["you"] == [0] and [s["name"] for s in message["seats"]] == ["You", "Anna"]
    with anna.websocket_connect(f"/ws/{game_id}?watch=1") as ws:
        assert "rematch" not in state_of(ws)  # spectators are not offered one


def test_a_rematch_against_the_ai_starts_at_once(anna: TestClient) -> None:
    game_id = new_game(anna, "pillage", preset="small", **{"seat.0": "me", "seat.1": "easy"})
    finish_by_resigning(anna, game_id)
    new_id = anna.post(f"/rematch/{game_id}", follow_redirects=False).headers["location"].rsplit("/", 1)[1]
    assert new_id != game_id
    with anna.websocket_connect(f"/ws/{new_id}") as ws:
        message = state_of(ws)
        assert message["you"] == [1] and message["seats"][0]["kind"] == "ai"
    # a second click goes to the same rematch
    assert anna.post(f"/rematch/{game_id}", follow_redirects=False).headers["location"] == f"/play/{new_id}"


def test_a_replay_names_the_players_and_says_the_verdict_from_your_side(anna: TestClient) -> None:
    game_id = new_game(anna, "pillage", preset="small", **{"seat.0": "me", "seat.1": "hard"})
    with anna.websocket_connect(f"/ws/{game_id}") as ws:
        message = until_my_turn(ws, state_of(ws))
        ws.send_json({"type": "act", "action": message["legal"][0], "ply": message["ply"]})
        until_my_turn(ws, state_of(ws))
        ws.send_json({"type": "resign"})
        assert state_of(ws)["over"]
    page = anna.get(f"/replay/game/{game_id}").text
    assert re.search(r'class="seat seat-0">Anna</span> vs <span class="seat seat-1">the hard AI<', page)
    assert "You resigned: the hard AI wins" in page
    listed = page.split('id="moves"', 1)[1].split("</ol>", 1)[0]
    assert re.search(r"</code> (Anna|The hard AI) ", listed)  # the move list names the players
    assert "Player 1" not in listed and "Player 2" not in listed  # (the pictures keep the rules' labels)
    found = re.search(r'id="step" min="0" max="(\d+)"', page)
    assert found
    last = int(found.group(1))
    told = [anna.get(f"/replay/game/{game_id}/{n}").json()["told"] for n in range(1, last + 1)]
    assert any("Anna drew" in t for t in told) and not any("Player 1" in t for t in told), told
    with other(anna) as stranger:
        assert "Anna resigned: the hard AI wins" in stranger.get(f"/replay/game/{game_id}").text


def test_a_rematch_offered_first_by_another_process_stands_and_the_second_game_is_dropped(anna: TestClient) -> None:
    game_id = new_game(anna, "pillage", preset="small", **{"seat.0": "me", "seat.1": "easy"})
    finish_by_resigning(anna, game_id)
    first = new_game(anna, "pillage", preset="small", **{"seat.0": "easy", "seat.1": "me"})
    tables = anna.app.state.tables  # type: ignore[attr-defined]
    assert offer(tables.store, game_id, first, frozenset()) is not None  # as another process would
    tables.open[game_id].rematch = None
    original = rooms.rematch_of
    try:
        rooms_seen: list[str] = []
        # this process read no rematch yet (it raced the other one), so it makes a game of its own
        lobby.rematch_of = lambda store, old: rooms_seen.append(old)
        went = anna.post(f"/rematch/{game_id}", follow_redirects=False).headers["location"]
    finally:
        lobby.rematch_of = original
    assert rooms_seen == [game_id] and went == f"/play/{first}"
    mine = anna.get("/mine").text
    assert sorted(re.findall(r'href="/play/([^"]+)"', mine)) == sorted([game_id, first])  # the second is gone


def test_the_name_form_refuses_a_lookalike_and_a_broken_character_in_words(anna: TestClient) -> None:
    claim_named(anna, "Anna")
    with browser_of(anna) as bob:
        for name, why in [("the hard \u0410I", "looks like the word AI"), ("Y\u043eu", "looks like &#39;You&#39;"),
                          ("\u0410nna", "&#39;\u0410nna&#39; looks like &#39;Anna&#39;, a name claimed here"),
                          ("Bo\u202eb", "direction controls such as RIGHT-TO-LEFT OVERRIDE (U+202E)")]:
            assert why in refused_name(bob, data={"name": name, "next": "/"}), name  # beside the field
        # a lone surrogate sent in a form (its UTF-8-like bytes) arrives as U+FFFD: refused plainly
        assert "REPLACEMENT CHARACTER (U+FFFD)" in refused_name(
            bob, content=b"name=Bo%ED%A0%80b&next=/", headers={"content-type": "application/x-www-form-urlencoded"})
        assert ">Anna</summary>" in anna.get("/").text  # the name in use stays its holder's
        named(anna, "ANNA")  # who may respell it


def play_out(client: TestClient, game_id: str) -> dict[str, Any]:
    """Play ``game_id`` to its end with random moves for this browser's seat; the last state."""
    rng = random.Random(1)
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        message = until_my_turn(ws, state_of(ws))
        while not message["over"]:
            ws.send_json({"type": "act", "action": rng.choice(message["legal"]), "ply": message["ply"]})
            message = until_my_turn(ws, state_of(ws))
    return message


def test_a_finished_game_keeps_the_names_it_was_played_under_everywhere(anna: TestClient, app_db: str) -> None:
    # a tie's verdict names nobody: games are played (their contents dealt afresh) until one is won
    for tries in range(1, 6):
        game_id = new_game(anna, "pillage", preset="small", **{"seat.0": "me", "seat.1": "easy"})
        end = play_out(anna, game_id)
        if "tie" not in end["result"]["verdict"].lower():
            break
    else:
        pytest.fail(f"{tries} games in a row were ties: none has a verdict naming a player")
    # the breakdown and the seats by their names, not their labels
    assert end["result"]["breakdown"] and not re.search(r"Player \d", " ".join(end["result"]["breakdown"]))
    assert any("Anna" in line or "the easy AI" in line for line in end["result"]["breakdown"])
    assert [s["name"] for s in end["seats"]] == ["You", "the easy AI"]
    with browser_of(anna) as carol:
        with carol.websocket_connect(f"/ws/{game_id}") as ws:
            seen = state_of(ws)
        assert [s["name"] for s in seen["seats"]] == ["Anna", "the easy AI"]
        verdict = seen["result"]["verdict"]
        assert "Anna" in verdict or "the easy ai" in verdict.lower()
        breakdown = seen["result"]["breakdown"]
        named(anna, "Annabel")  # a rename afterwards rewrites none of it
        with carol.websocket_connect(f"/ws/{game_id}") as ws:
            again = state_of(ws)
        assert again["result"]["verdict"] == verdict and [s["name"] for s in again["seats"]] == ["Anna", "the easy AI"]
        assert again["result"]["breakdown"] == breakdown
        replay = carol.get(f"/replay/game/{game_id}")
        assert '<span class="seat seat-0">Anna</span>' in replay.text and "Annabel" not in replay.text
        assert "Anna, the easy AI" in carol.get("/replay").text
        # the replay board calls the seats by those names too
        frame = carol.get(f"/replay/game/{game_id}/1").json()
        assert not re.search(r"Player \d", frame["svg"]) and ("Anna" in frame["svg"] or "easy AI" in frame["svg"])
    # another server process over the same store reads the same names
    with TestClient(create_app(app_db, ai_workers=0)) as later:
        with later.websocket_connect(f"/ws/{game_id}") as ws:
            assert state_of(ws)["result"]["verdict"] == verdict
    # a game begun after the rename is Annabel's
    second = new_game(anna, "pillage", preset="small", **{"seat.0": "me", "seat.1": "easy"})
    with browser_of(anna) as dave, dave.websocket_connect(f"/ws/{second}") as ws:
        assert state_of(ws)["seats"][0]["name"] == "Annabel"


def test_an_open_seat_has_no_name_but_its_label_and_the_mute_button_uses_names(anna: TestClient) -> None:
    game_id = new_game(anna, "pillage", preset="small", **{"seat.0": "me", "seat.1": "open"})
    with anna.websocket_connect(f"/ws/{game_id}") as ws:
        assert [s["name"] for s in state_of(ws)["seats"]] == ["You", "Player 2 (open seat)"]


def test_names_hold_across_two_processes_on_postgresql(postgres_url: str) -> None:
    """Two apps over one PostgreSQL store, as two server processes: a name chosen on one is
    protected on the other, and a game finished on one keeps its names on the other."""
    with TestClient(create_app(postgres_url, ai_workers=0)) as one, \
            TestClient(create_app(postgres_url, ai_workers=0)) as two:
        named(one, "Quentin")
        claim_named(one, "Quentin")
        with browser_of(two) as rival:
            assert "a name claimed here" in refused_name(rival, data={"name": "Qu\u0435ntin", "next": "/"})
        game_id = new_game(one, "pillage", preset="small", **{"seat.0": "me", "seat.1": "easy"})
        finish_by_resigning(one, game_id)
        two.cookies.set(COOKIE, one.cookies[COOKIE])  # Quentin's browser, on the other process
        named(two, "Quincy")
        with browser_of(one) as watcher, watcher.websocket_connect(f"/ws/{game_id}") as ws:
            seen = state_of(ws)
        assert [s["name"] for s in seen["seats"]] == ["Quentin", "the easy AI"]
        assert seen["result"]["verdict"] == "Quentin resigned: the easy AI wins"
