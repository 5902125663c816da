"""Table talk over the game's WebSocket: players send, everyone watching reads, lines are
stored with the game and sent to whoever connects later, bounded in length, rate and number,
shown escaped in the replay; Crossroads' offers and answers are told at the table by the server."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Iterator

import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from plunder.web import chat, games
from plunder.web.app import create_app
from plunder.web.chat import CHAT_BURST, CHAT_HISTORY, MAX_CHAT_CHARS, ChatStore
from plunder.web.store import Store
from plunder.web.transport import Event, game_channel

from .test_play_server import new_game, state_of
from .clients import browser_of


@pytest.fixture
def db(tmp_path: Path) -> str:
    """A fresh SQLite database."""
    return f"sqlite:///{tmp_path / 'plunder.db'}"


@pytest.fixture
def pair(db: str) -> Iterator[tuple[TestClient, TestClient, TestClient, str]]:
    """Alice and Bob seated at a two-player Pillage game (Bob by the invite), Carol a stranger; the game's id."""
    app = create_app(db, ai_workers=0)
    with TestClient(app) as alice, browser_of(alice) as bob, browser_of(alice) as carol:
        game_id = new_game(alice, "pillage", preset="small", **{"seat.0": "me", "seat.1": "open"})
        with alice.websocket_connect(f"/ws/{game_id}") as a:
            invite = state_of(a)["invites"][0]["path"]
        assert bob.get(invite, follow_redirects=False).status_code == 303
        yield alice, bob, carol, game_id


def chat_of(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next message, which must be a ``chat`` message."""
    message = ws.receive_json()
    assert message["type"] == "chat", message
    return message


def said(ws: WebSocketTestSession, text: Any) -> dict[str, Any]:
    """Send a chat line and read the answer (the line back, or an error)."""
    ws.send_json({"type": "chat", "text": text})
    answer: dict[str, Any] = ws.receive_json()
    return answer


def test_a_line_goes_to_every_viewer_and_a_late_joiner_reads_it(pair: tuple[TestClient, TestClient, TestClient, str],
                                                               db: str) -> None:
    alice, bob, carol, game_id = pair
    with alice.websocket_connect(f"/ws/{game_id}") as a, bob.websocket_connect(f"/ws/{game_id}") as b, \
            carol.websocket_connect(f"/ws/{game_id}") as c:
        states = [state_of(ws) for ws in (a, b, c)]  # no talk yet: no chat message before the state
        ply, alice_name = states[0]["ply"], states[2]["seats"][0]["name"]  # as a spectator calls her
        a.send_json({"type": "chat", "text": "  good luck\nBob  "})
        lines = [chat_of(ws) for ws in (a, b, c)]
        for message in lines:
            assert message["history"] is False
            (line,) = message["lines"]
            assert line["text"] == "good luck Bob" and line["seat"] == 0 and line["kind"] == "say"
            assert line["name"] == alice_name != "Player 1" and line["ply"] == ply
        b.send_json({"type": "chat", "text": "thanks"})
        assert chat_of(a)["lines"][0]["seat"] == 1
    # stored with the game: a viewer connecting later (a new server, even) gets the history
    with TestClient(create_app(db, ai_workers=0)) as later:
        with later.websocket_connect(f"/ws/{game_id}") as d:
            state_of(d)
            history = chat_of(d)
    assert history["history"] is True
    assert [(x["seat"], x["text"]) for x in history["lines"]] == [(0, "good luck Bob"), (1, "thanks")]


def test_a_spectator_reads_but_cannot_write(pair: tuple[TestClient, TestClient, TestClient, str]) -> None:
    alice, _bob, carol, game_id = pair
    with carol.websocket_connect(f"/ws/{game_id}") as c, alice.websocket_connect(f"/ws/{game_id}?watch=1") as w:
        state_of(c)
        state_of(w)
        for ws in (c, w):  # a stranger, and a seat holder on the watch link
            error = said(ws, "hello")
            assert error == {"type": "error", "message": "Spectators read the table talk; only the players write in it.",
                             "detail": "Spectators read the table talk; only the players write in it.", "about": "chat"}


def test_a_game_against_the_ai_alone_has_no_table_talk(db: str) -> None:
    with TestClient(create_app(db, ai_workers=0)) as client:
        game_id = new_game(client, "pillage", preset="small", **{"seat.0": "me", "seat.1": "easy"})
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            state_of(ws)
            assert said(ws, "hi")["message"] == "This game has no other player to talk to."


def test_lines_are_bounded_in_length_rate_and_number(pair: tuple[TestClient, TestClient, TestClient, str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob, _carol, game_id = pair
    with alice.websocket_connect(f"/ws/{game_id}") as a:
        state_of(a)
        assert said(a, "x" * (MAX_CHAT_CHARS + 1))["message"] == (
            f"That line is too long: {MAX_CHAT_CHARS + 1} characters; the limit is {MAX_CHAT_CHARS}.")
        assert said(a, " \n\t ")["message"] == "Write something before sending."
        assert said(a, 5)["message"] == "A chat message has a text."
        assert said(a, "x" * MAX_CHAT_CHARS)["type"] == "chat"  # the limit itself is allowed
        for i in range(CHAT_BURST - 1):
            assert said(a, f"line {i}")["type"] == "chat"
        too_fast = said(a, "one more")
        assert too_fast["type"] == "error" and too_fast["message"].startswith("You are talking too fast: at most 5 lines in 10 seconds")
    # a game's lines are bounded in number: past the bound, the talk is closed, plainly (Bob,
    # whose rate is not spent, meets it)
    monkeypatch.setattr(chat, "MAX_CHAT_LINES", CHAT_BURST)
    with bob.websocket_connect(f"/ws/{game_id}") as a:
        state_of(a)
        chat_of(a)  # the history
        a.send_json({"type": "chat", "text": "hello"})
        assert a.receive_json()["message"] == f"This game's table talk is full: {CHAT_BURST} lines at most."


def test_lines_with_characters_not_seen_are_refused_in_words_never_a_traceback(
        pair: tuple[TestClient, TestClient, TestClient, str], caplog: pytest.LogCaptureFixture) -> None:
    alice, _bob, _carol, game_id = pair
    with alice.websocket_connect(f"/ws/{game_id}") as a:
        state_of(a)
        refusals = {
            "gg \u202enoitpircsbus": "direction controls such as RIGHT-TO-LEFT OVERRIDE (U+202E)",
            "\u2066hi\u2069": "direction controls such as LEFT-TO-RIGHT ISOLATE (U+2066)",
            "\u200b\u200b\u200b": "invisible characters such as ZERO WIDTH SPACE (U+200B)",
            "\u3164": "invisible characters such as HANGUL FILLER (U+3164)",
        }
        for text, why in refusals.items():
            answer = said(a, text)
            assert answer["type"] == "error" and answer["about"] == "chat" and why in answer["message"], answer
        # a lone surrogate escaped in the JSON text, as a hostile client sends it
        for raw in ('{"type": "chat", "text": "hi \\ud800 there"}', '{"type": "chat", "text": "\\udfff"}'):
            a.send_text(raw)
            answer = a.receive_json()
            assert answer["type"] == "error" and answer["about"] == "chat", answer
            assert "half of a character without its other half" in answer["message"]
        a.send_text('{"type": "act", "action": "\\ud800", "ply": 0}')  # any other message: refused alike
        answer = a.receive_json()
        assert answer["type"] == "error" and "lone surrogate" in answer["message"], answer
        # an emoji sequence's joiner is no trick: kept
        line = said(a, "gg \U0001f468\u200d\U0001f469\u200d\U0001f467")
        assert line["type"] == "chat" and line["lines"][0]["text"] == "gg \U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


def test_the_history_sent_is_the_latest_lines(db: str) -> None:
    with TestClient(create_app(db, ai_workers=0)) as client:
        game_id = new_game(client, "pillage", preset="small", **{"seat.0": "me", "seat.1": "hotseat"})
        store = ChatStore(Store(db).engine)
        store.add(game_id, [(0, "say", 0, f"line {i}") for i in range(CHAT_HISTORY + 5)])
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            state_of(ws)
            lines = chat_of(ws)["lines"]
    assert len(lines) == CHAT_HISTORY and lines[0]["text"] == "line 5" and lines[-1]["text"] == f"line {CHAT_HISTORY + 4}"


def test_the_replay_shows_the_talk_escaped(pair: tuple[TestClient, TestClient, TestClient, str]) -> None:
    alice, _bob, _carol, game_id = pair
    with alice.websocket_connect(f"/ws/{game_id}") as a:
        state_of(a)
        said(a, '<script>alert("x")</script> & <b>gg</b>')
        a.send_json({"type": "resign"})
        assert state_of(a)["over"]
        # talk goes on after the end of the game
        assert said(a, "well played")["type"] == "chat"
    page = alice.get(f"/replay/game/{game_id}").text
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &lt;b&gt;gg&lt;/b&gt;" in page
    assert "<script>alert" not in page and "<b>gg" not in page
    assert page.index("&lt;script&gt;") < page.index("well played")
    assert 'id="talk"' in page


def moved(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next state message, past the chat messages before it (answers told at the table)."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "state":
            return message
        assert message["type"] == "chat" and message["lines"][0]["kind"] == "move", message


def test_crossroads_offers_and_answers_are_told_at_the_table_by_the_server(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(games, "MESSAGE_RATE", 1000.0)  # these two play hundreds of moves faster than people may
    rng = random.Random(3)
    app = create_app(db, ai_workers=0)
    with TestClient(app) as alice, browser_of(alice) as bob:
        game_id = new_game(alice, "crossroads", preset="2p", **{"seat.0": "me", "seat.1": "open"})
        with alice.websocket_connect(f"/ws/{game_id}") as a:
            invite = state_of(a)["invites"][0]["path"]
        bob.get(invite)
        with alice.websocket_connect(f"/ws/{game_id}") as a, bob.websocket_connect(f"/ws/{game_id}") as b:
            views = {0: state_of(a), 1: state_of(b)}
            sockets = {0: a, 1: b}
            for _ in range(400):
                seat = next(s for s in (0, 1) if views[s]["your_turn"])
                legal = views[seat]["legal"]
                offers = [t for t in legal if t.startswith("offer")]
                answer = [t for t in legal if t in ("accept", "reject")]
                move = rng.choice(offers) if offers else answer[0] if answer else rng.choice(legal)
                sockets[seat].send_json({"type": "act", "action": move, "ply": views[seat]["ply"]})
                views = {0: moved(a), 1: moved(b)}
                if move.startswith("offer"):
                    break
            assert move.startswith("offer"), "no offer was made"
            # told after the move is shown, to every viewer
            (line,) = chat_of(a)["lines"]
            assert chat_of(b)["lines"] == [line]
    assert line["kind"] == "move" and line["seat"] == seat and line["name"] == views[1 - seat]["seats"][seat]["name"]
    assert line["text"].startswith(f"{line['name']} offers ") and " gets " in line["text"]
    assert line["text"] == views[0]["log"][-1]["text"]  # the game's own words, as its log has them


def test_a_reconnecting_viewer_is_sent_the_history_without_reading_the_store_again(
        pair: tuple[TestClient, TestClient, TestClient, str], monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob, _carol, game_id = pair
    reads = [0]
    latest = ChatStore.latest

    def counted(self: ChatStore, game: str, most: int | None = CHAT_HISTORY) -> list[dict[str, Any]]:
        reads[0] += 1
        return latest(self, game, most)

    monkeypatch.setattr(ChatStore, "latest", counted)
    with alice.websocket_connect(f"/ws/{game_id}") as a:
        state_of(a)  # no talk yet (the fixture's first connection read the store, and found none)
        assert said(a, "first")["lines"][0]["text"] == "first"
    with bob.websocket_connect(f"/ws/{game_id}") as b:
        state_of(b)
        assert [line["text"] for line in chat_of(b)["lines"]] == ["first"]
        assert said(b, "second")["lines"][0]["text"] == "second"
    for _ in range(3):  # a page reloaded: the lines kept, the one said since among them
        with alice.websocket_connect(f"/ws/{game_id}") as a:
            state_of(a)
            assert [line["text"] for line in chat_of(a)["lines"]] == ["first", "second"]
    assert reads[0] == 0  # every connection after the first was sent the lines kept in memory


def test_lines_told_out_of_their_id_order_all_reach_a_viewer(pair: tuple[TestClient, TestClient, TestClient, str]) -> None:
    # Two processes storing lines at once: ids are given at insert, events numbered at commit,
    # so the event telling line 2 may come before the one telling line 1 (issue 34's lost line).
    alice, _, _, game_id = pair
    talk: chat.Chat = alice.app.state.chat  # type: ignore[attr-defined]
    with alice.websocket_connect(f"/ws/{game_id}") as a:
        state_of(a)
        a.send_json({"type": "chat", "text": "first"})  # stored as line 1, told and sent back
        assert [line["text"] for line in chat_of(a)["lines"]] == ["first"]

        def row(n: int) -> dict[str, Any]:
            return {"id": n, "seat": 1, "kind": chat.SAY, "ply": 0, "at": 0.0, "text": f"line {n}"}

        def tell(*ids: int) -> None:
            event = Event(game_channel(game_id), 0, chat.CHAT, {"lines": [row(n) for n in ids]})
            alice.portal.call(talk.told, event)  # type: ignore[union-attr]

        tell(1003)
        tell(1002)
        tell(1004)  # the last: read up to it (a viewer that skipped one does not hang the test)
        heard: list[str] = []
        while "line 1004" not in heard:
            heard += [line["text"] for line in chat_of(a)["lines"]]
        assert heard == ["line 1003", "line 1002", "line 1004"]
        # a line told twice (the history read on connecting overlapping a live event) goes once
        tell(1002, 1005)
        assert [line["text"] for line in chat_of(a)["lines"]] == ["line 1005"]
