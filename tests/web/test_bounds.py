"""One game must not stall or starve the others (issue 26): what one message and one view cost
is bounded (legal moves written only for those sent, pictures drawn once per change), a long
game's page carries a window of its log, a table keeps a bounded number of positions, a game
on the server has a bounded length, tables are built off the event loop, and an all-AI game is
a showcase that moves only while watched."""

from __future__ import annotations

import asyncio
import json
import pickle
import secrets
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from plunder.core.game import Game
from plunder.core.record import Move, Record
from plunder.core.registry import load_game
from plunder.games.hubs.rules import HubsGame
from plunder.match import play_out
from plunder.web import autoplay, limits, table, tables
from plunder.web.app import create_app
from plunder.web.limits import CLOSE_TRY_LATER, SPECTATOR_BURST, VIEW_BURST
from plunder.web.security import TOKEN_HEADER
from plunder.web.positions import CHECKPOINT_EVERY, KEEP_RECENT
from plunder.web.store import HUMAN, ON, GameRow, SeatRow
from plunder.web.table import LEGAL_CAP, LOG_WINDOW, Table
from plunder.web.viewers import Viewer

from .test_play_server import new_game, state_of
from .clients import browser_of


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """The app over a fresh SQLite file, its AI in a thread, its rate limits' clock stopped (a
    burst counted on a slow machine must not refill while it is counted)."""
    monkeypatch.setattr(limits, "clock", lambda: 1000.0)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'plunder.db'}", ai_workers=0)) as c:
        yield c


def played(game: Game, seed: int, most: int) -> list[Move]:
    """The moves of a game between random players, at most ``most`` (chance's included)."""
    return play_out(game, ["random"] * game.num_players, seed, most=most)[0].moves


def row_of(game: Game, moves: list[Move]) -> GameRow:
    """A stored game of two people with ``moves``."""
    return GameRow("g", game.id, dict(game.params), 1, ON, "t", [SeatRow(HUMAN, token="t")] * game.num_players,
                   moves=moves)


def test_a_hubs_1000x1000_sheet_writes_only_the_legal_texts_it_sends(client: TestClient,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    written = [0]
    to_text = HubsGame.action_to_text

    def counted(self: HubsGame, state: Any, action: Any) -> str:
        written[0] += 1
        return to_text(self, state, action)

    monkeypatch.setattr(HubsGame, "action_to_text", counted)
    game_id = new_game(client, "hubs", **{"p.width": "1000", "p.height": "1000", "seat.0": "me", "seat.1": "hotseat"})
    pages = [client.get(f"/play/{game_id}") for _ in range(3)]
    assert all(p.status_code == 200 for p in pages)
    with client.websocket_connect(f"/ws/{game_id}") as ws, client.websocket_connect(f"/ws/{game_id}") as again:
        message, other = state_of(ws), state_of(again)
    assert message["your_turn"] and message["legal_total"] == 1_000_000
    assert len(message["legal"]) == LEGAL_CAP and other["legal"] == message["legal"]
    # three pages and two connections: the first LEGAL_CAP texts are written once, not a
    # million per view (the picture writes none)
    assert written[0] == LEGAL_CAP
    assert len(json.dumps(message)) < 64_000
    assert max(len(p.text) for p in pages) < 128_000


def test_a_table_keeps_a_bounded_number_of_positions_and_rebuilds_the_others() -> None:
    game = load_game("hubs", "sixty")
    moves = played(game, 3, 600)
    assert len(moves) > 3 * CHECKPOINT_EVERY
    table = Table(row_of(game, moves))
    straight = [game.new_initial_state()]
    for move in moves:
        straight.append(straight[-1].apply(game.parse_action(straight[-1], move.action)))
    bound = len(moves) // CHECKPOINT_EVERY + 1 + KEEP_RECENT + CHECKPOINT_EVERY
    assert table.states.kept() <= bound
    for i in (0, 1, 99, 100, 101, 250, len(moves) - KEEP_RECENT - 1, len(moves)):
        assert table.states[i] == straight[i] and table.states[i].summary() == straight[i].summary()
    assert table.states.kept() <= bound
    # an undo cut: the positions before the cut stay right, the latest are kept again
    table.cut(150)
    assert len(table.states) == 151 and table.states[-1] == straight[150] and table.states.kept() <= bound
    table.extend(moves[150:160], straight[151:161])
    assert table.states[-1] == straight[160] and table.log[-1].n == 160


def test_a_long_game_sends_a_window_of_its_log_and_older_entries_on_request(client: TestClient) -> None:
    game = load_game("hubs", "sixty")
    moves = played(game, 5, 400)
    table = Table(row_of(game, moves))
    first = table.view(Viewer(None))
    assert len(first["log"]) == LOG_WINDOW and first["log_from"] == len(moves) - LOG_WINDOW
    assert first["log"][-1]["n"] == len(moves)
    older = table.older(first["log_from"])
    assert older["from"] == len(moves) - 2 * LOG_WINDOW and len(older["log"]) == LOG_WINDOW
    assert older["log"][-1]["n"] == first["log_from"]
    # over the WebSocket
    game_id = new_game(client, "pillage", preset="small", **{"seat.0": "me", "seat.1": "hotseat"})
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        message = state_of(ws)
        ws.send_json({"type": "act", "action": message["legal"][0], "ply": message["ply"]})
        assert state_of(ws)["log_from"] == len(message["log"])
        ws.send_json({"type": "log", "before": 2})
        answer = ws.receive_json()
        assert answer["type"] == "log" and answer["from"] == 0 and answer["log"] == message["log"][:2]
        ws.send_json({"type": "log", "before": "x"})
        assert ws.receive_json()["type"] == "error"


def test_a_game_on_the_server_stops_at_its_move_limit(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables, "MAX_GAME_MOVES", 12)
    game_id = new_game(client, "pillage", preset="small", **{"seat.0": "me", "seat.1": "hotseat"})
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        message = state_of(ws)
        while not message["over"]:
            ws.send_json({"type": "act", "action": message["legal"][0], "ply": message["ply"]})
            message = state_of(ws)
    # a move and chance's draws after it are one change: the game stops at the first change
    # reaching the limit (Pillage small opens with 9 draws and lasts 20 moves at least)
    assert 12 <= message["ply"] < 15 and message["legal"] == []
    assert message["result"]["verdict"].startswith(f"Stopped after {message['ply']} moves")
    record = Record.from_json(client.get(f"/record/{game_id}").text)
    assert record.seed is not None and len(record.moves) == message["ply"] and record.returns is None


def moves_stored(client: TestClient, game_id: str) -> int:
    """How many moves the game's record holds."""
    return len(Record.from_json(client.get(f"/record/{game_id}").text).moves)


def test_an_all_ai_game_is_a_showcase_that_moves_only_while_watched(client: TestClient,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(autoplay, "SHOWCASE_SECONDS", 0.01)
    game_id = new_game(client, "pillage", preset="small", **{"seat.0": "easy", "seat.1": "easy"})
    at_start = moves_stored(client, game_id)
    time.sleep(0.5)
    assert moves_stored(client, game_id) == at_start  # nobody watches: it waits
    with client.websocket_connect(f"/ws/{game_id}?watch=1") as ws:
        message = state_of(ws)
        assert message["thinking"]
        message = state_of(ws)
        assert message["ply"] > at_start  # a spectator sees it play
    time.sleep(0.3)
    left_at = moves_stored(client, game_id)
    time.sleep(0.5)
    assert moves_stored(client, game_id) == left_at  # the last spectator left: it stops


def test_a_table_is_built_off_the_event_loop(client: TestClient, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    game_id = new_game(client, "pillage", preset="small", **{"seat.0": "me", "seat.1": "hotseat"})
    on_loop = []
    load = table.load_game

    def watched(game: str, **params: Any) -> Game:
        try:
            asyncio.get_running_loop()
            on_loop.append(True)
        except RuntimeError:  # no event loop runs in this thread
            on_loop.append(False)
        return load(game, **params)

    monkeypatch.setattr(table, "load_game", watched)
    # a second server over the same store loads the game afresh
    with TestClient(create_app(f"sqlite:///{tmp_path / 'plunder.db'}", ai_workers=0)) as fresh:
        assert fresh.get(f"/play/{game_id}").status_code == 200
    assert on_loop == [False]


def test_a_position_sent_to_an_ai_worker_leaves_its_games_cached_tables_behind() -> None:
    game = load_game("hubs", width="1000", height="1000")
    state = game.new_initial_state()
    assert len(state.legal_actions()) == 1_000_000  # the game now caches its lattice
    sent = pickle.dumps(state)
    assert len(sent) < 10_000
    back = pickle.loads(sent)
    assert back.game.params == game.params and len(back.legal_actions()) == 1_000_000
    assert pickle.loads(sent).game is back.game  # a worker builds the game's tables once


def test_a_client_opening_a_game_too_often_is_refused_and_told_when_to_come_back(client: TestClient) -> None:
    game_id = new_game(client, "pillage", preset="small", **{"seat.0": "me", "seat.1": "hotseat"})
    # a page and its live channel are two views: a person reloading a few times is never refused
    for _ in range(VIEW_BURST // 2):
        assert client.get(f"/play/{game_id}").status_code == 200
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            state_of(ws)
    page = client.get(f"/play/{game_id}")
    assert page.status_code == 429 and "You are opening this game too often" in page.text
    assert int(page.headers["retry-after"]) >= 1
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        refused = ws.receive_json()
        assert refused["type"] == "error" and "too often" in refused["message"] and "VIEW_BURST" in refused["detail"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == CLOSE_TRY_LATER
    # a spectator is counted by address, the seat's holder by its token: each has views of its own
    with browser_of(client) as stranger:
        assert stranger.get(f"/watch/{game_id}").status_code == 200


def test_a_made_up_token_gains_no_views(client: TestClient) -> None:
    game_id = new_game(client, "pillage", preset="small", **{"seat.0": "me", "seat.1": "hotseat"})
    with browser_of(client) as stranger:
        # each request with a token of its own making (well formed, holding no seat): all count
        # against the address's share for strangers
        answers = [stranger.get(f"/watch/{game_id}", headers={TOKEN_HEADER: secrets.token_urlsafe(18)}).status_code
                   for _ in range(SPECTATOR_BURST + 1)]
    assert answers.count(200) == SPECTATOR_BURST and answers[-1] == 429
    assert SPECTATOR_BURST > VIEW_BURST
    # the seat's holder still has its own
    assert client.get(f"/play/{game_id}").status_code == 200


def test_forty_spectators_behind_one_address_are_not_cut_and_a_flood_is_and_never_cuts_a_player(
        client: TestClient) -> None:
    game_id = new_game(client, "pillage", preset="small", **{"seat.0": "me", "seat.1": "hotseat"})
    with browser_of(client) as crowd:  # every spectator has the same address (a school's, a proxy's)
        assert crowd.get(f"/watch/{game_id}").status_code == 200  # no seat: the address's share
        watching = [crowd.websocket_connect(f"/ws/{game_id}?watch=1") for _ in range(40)]
        try:
            for ws in watching:
                opened = ws.__enter__()
                assert opened.receive_json()["type"] == "state"  # each let in (VIEW_BURST allowed 30)
        finally:
            for ws in watching:
                ws.__exit__(None, None, None)
        # a flood beyond the documented allowance is refused (the clock is stopped: no refill)
        for _ in range(SPECTATOR_BURST - 41):
            assert crowd.get(f"/watch/{game_id}").status_code == 200
        refused = crowd.get(f"/watch/{game_id}")
        assert refused.status_code == 429 and "Too many game views from your address" in refused.text
        with crowd.websocket_connect(f"/ws/{game_id}?watch=1") as ws:
            told = ws.receive_json()
            assert told["type"] == "error" and "SPECTATOR_BURST" in told["detail"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
        assert closed.value.code == CLOSE_TRY_LATER
    # the player at that same address is counted by the seat's token: never cut for the crowd
    assert client.get(f"/play/{game_id}").status_code == 200
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        assert state_of(ws)["your_turn"]


def test_the_log_is_renamed_once_and_again_when_a_name_changes_or_a_move_is_undone() -> None:
    game = load_game("pillage", "small")
    moves = played(game, 1, 30)[:20]
    table = Table(GameRow("g", game.id, dict(game.params), 1, ON, "t", [SeatRow(HUMAN, token="t"), SeatRow(HUMAN, token="u")],
                          moves=moves))
    first = table.told(table.log)
    again = table.told(table.log)
    # kept as sent, not renamed again for each view
    assert again == first and all(a is b for a, b in zip(again, first))
    table.chosen = {"t": "Anna"}
    renamed = table.told(table.log)
    assert any("Anna" in e["text"] for e in renamed) and not any("Anna" in e["text"] for e in first)
    # an undone move made again differently is told afresh
    last = next(i for i in range(len(moves) - 1, 0, -1) if moves[i].by is not None)
    table.cut(last)
    before = table.states[-1]
    action = next(a for a in before.legal_actions() if game.action_to_text(before, a) != moves[last].action)
    table.extend([Move(before.current_player, game.action_to_text(before, action))], [before.apply(action)])
    told = table.told(table.log)
    assert told[-1]["text"] == table.callers().told(table.log[-1].text) != renamed[last]["text"]
    assert told[:last] == renamed[:last]
