"""Replays of uploaded records: every game's record uploaded (as a file or pasted) shows its
moves and pictures; a bad, tampered or oversized record is refused with a plain message; the
pictures still come when the server has forgotten the record (the page sends it again)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any, Iterator

import pytest
from starlette.testclient import TestClient

import plunder
from plunder.core.record import Record
from plunder.core.registry import game_ids, load_game
from plunder.match import breakdown_of
from plunder.web import replays
from plunder.web.app import create_app
from plunder.web.limits import UPLOAD_BURST, Buckets


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The app over a fresh SQLite file."""
    db = tmp_path_factory.mktemp("web") / "plunder.db"
    app = create_app(f"sqlite:///{db}", ai_workers=0)
    app.state.uploads = Buckets(1000.0, 1000)  # these tests upload many records; the rate has a test of its own
    with TestClient(app) as c:
        yield c


def short_record(game_id: str, seed: int = 5) -> Record:
    """A finished game of ``game_id`` between random players (greedy for the long ones)."""
    game = load_game(game_id)
    agent = "greedy" if game_id in ("crossroads", "hubs") else "random"
    return plunder.play(game, [agent] * game.num_players, seed=seed)


def page_config(page_text: str) -> dict[str, Any]:
    """The replay page's configuration for its script."""
    found = re.search(r"data-config='([^']*)'", page_text)
    assert found, "the page carries no replay configuration"
    config: dict[str, Any] = json.loads(html.unescape(found.group(1)))
    return config


@pytest.mark.parametrize("game_id", game_ids())
def test_an_uploaded_record_is_shown_move_by_move(client: TestClient, game_id: str) -> None:
    record = short_record(game_id)
    page = client.post("/replay", files={"file": ("game.json", record.to_json().encode())})
    assert page.status_code == 200, page.text
    config = page_config(page.text)
    assert config["last"] == len(record.moves)
    # every move is in the list, and the result with its breakdown is told
    assert page.text.count('<li data-n="') == len(record.moves) + 1
    assert "Game over" in page.text
    for n in (0, 1, config["last"]):
        frame = client.get(f"{config['frames']}{n}")
        assert frame.status_code == 200
        assert frame.json()["n"] == n and frame.json()["svg"].startswith("<svg")
    last = client.get(f"{config['frames']}{config['last']}").json()
    assert last["told"].startswith(f"move {len(record.moves)}: {record.moves[-1].action}")
    assert client.get(f"{config['frames']}{config['last'] + 1}").status_code == 404


def test_the_breakdown_tells_what_an_observer_of_the_replay_counted(client: TestClient) -> None:
    """The fights of a Pirates voyage are no part of a position: the replay shows the game's
    observer every move of the record, and the breakdown tells its counts."""
    game = load_game("pirates")
    record = plunder.play(game, ["greedy"], seed=8)
    lines = breakdown_of(game, record.moves)
    assert lines[-1].startswith("Fights: ") and "1 standoff;" in lines[-1]
    page = client.post("/replay", files={"file": ("game.json", record.to_json().encode())})
    assert page.status_code == 200 and all(line in page.text for line in lines)


def test_a_pasted_record_is_shown_and_can_be_downloaded_again(client: TestClient) -> None:
    record = short_record("pillage")
    page = client.post("/replay", data={"text": record.to_json()})
    assert page.status_code == 200
    # the page carries the record; its script makes the download link of it (a browser test follows it)
    assert re.search(r'id="download" download="plunder-pillage-[0-9a-f]{8}.json"', page.text), "no download link"
    carried = re.search(r'data-record="([^"]*)"', page.text)
    assert carried, "the page does not carry the record"
    assert Record.from_json(html.unescape(carried.group(1))).moves == record.moves


def test_start_position_from_the_query(client: TestClient) -> None:
    record = short_record("pillage")
    page = client.post("/replay?n=12", data={"text": record.to_json()})
    assert page_config(page.text)["start"] == 12
    assert "move 12: " in page.text


def refusal(client: TestClient, text: str) -> str:
    page = client.post("/replay", data={"text": text})
    assert page.status_code == 400
    found = re.search(r'id="upload-error">(.*?)</p>', page.text, re.S)
    assert found, page.text
    return html.unescape(found.group(1))


def test_bad_records_are_refused_saying_why(client: TestClient) -> None:
    record = short_record("pillage")
    assert "not valid JSON" in refusal(client, "{not json")
    assert "'format'" in refusal(client, "{}")
    # a line drawn twice: refused at that move, with its ruling
    tampered = json.loads(record.to_json())
    lines = [i for i, m in enumerate(tampered["moves"]) if m["by"] != "chance"]
    tampered["moves"][lines[1]]["action"] = tampered["moves"][lines[0]]["action"]
    tampered["result"] = None
    message = refusal(client, json.dumps(tampered))
    assert f"move {lines[1]}" in message and "PP-" in message
    # a parameter naming a file on the server is never read
    named = json.loads(record.to_json())
    named["params"]["board"] = "file:/etc/passwd"
    assert "names a file" in refusal(client, json.dumps(named))


def test_empty_and_non_text_uploads_are_refused(client: TestClient) -> None:
    assert client.post("/replay", data={"text": "  "}).status_code == 400
    page = client.post("/replay", files={"file": ("game.json", b"\xff\xfe\x00")})
    assert page.status_code == 400 and "UTF-8" in page.text


def test_oversized_uploads_are_refused_before_they_are_read(client: TestClient) -> None:
    big = b"x" * (replays.MAX_UPLOAD_BYTES + 1)
    page = client.post("/replay", files={"file": ("game.json", big)})
    assert page.status_code == 413 and "limit" in page.text

    def chunks() -> Iterator[bytes]:  # no Content-Length: the limit is counted as the body arrives
        for _ in range(replays.MAX_UPLOAD_BYTES // 65536 + 2):
            yield b"y" * 65536

    page = client.post("/replay", content=chunks(), headers={"Content-Type": "multipart/form-data; boundary=b"})
    assert page.status_code == 413


def test_a_forgotten_record_is_sent_again_by_the_page(client: TestClient) -> None:
    record = short_record("profiteer")
    config = page_config(client.post("/replay", data={"text": record.to_json()}).text)
    replays._cache.clear()  # as after a restart, or on another server process
    url = f"{config['frames']}3"
    assert client.get(url).status_code == 410
    again = client.post(url, content=record.to_json())
    assert again.status_code == 200 and again.json()["n"] == 3
    assert client.get(url).status_code == 200
    other = short_record("profiteer", seed=6)
    assert client.post(url, content=other.to_json()).status_code == 400


def test_the_cache_keeps_a_bounded_number_of_games() -> None:
    for seed in range(replays.CACHE_GAMES + 3):
        replays.replay_text(short_record("profiteer", seed).to_json())
    assert len(replays._cache) == replays.CACHE_GAMES


def long_record(rounds: int, seed: int = 1) -> Record:
    """A Crossroads game that lasts ``rounds`` rounds (no one reaches the target): a long record."""
    game = load_game("crossroads", max_rounds=str(rounds), target="100000")
    return plunder.play(game, ["random"] * game.num_players, seed=seed)


def test_the_cache_is_bounded_in_moves_and_keeps_few_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replays, "CACHE_MOVES", 2_000)
    replays._cache.clear()
    records = [long_record(20, seed) for seed in range(6)]  # each about 700 moves
    assert all(400 < len(r.moves) < 2_000 for r in records)
    for record in records:
        replays.replay_text(record.to_json())
        assert replays.cached_moves() <= 2_000
    assert 1 < len(replays._cache) < len(records)
    # the latest is kept, with a position in every CHECKPOINT_MOVES, and its pictures all come
    kept = replays.cached(replays.digest_of(records[-1].to_json()))
    assert kept is not None and len(kept.checkpoints) == kept.last // replays.CHECKPOINT_MOVES + 1
    for n in (0, 1, replays.CHECKPOINT_MOVES - 1, replays.CHECKPOINT_MOVES, kept.last - 1, kept.last):
        assert kept.frame(n)["svg"] == replays.svg_of(positions_of(records[-1])[n], kept.shown[n])
    # a record longer than the whole cache is replayed, but not kept
    longest = long_record(70)
    assert len(longest.moves) > 2_000
    assert replays.replay_text(longest.to_json()).last == len(longest.moves)
    assert replays.cached_moves() <= 2_000 and replays.cached(replays.digest_of(longest.to_json())) is None


def positions_of(record: Record) -> list[Any]:
    """Every position of ``record``, kept whole."""
    return [state for state, _ in replays.positions(record)]


def test_uploads_past_the_rate_of_an_address_are_refused(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'plunder.db'}", ai_workers=0)) as c:
        text = short_record("profiteer").to_json()
        for _ in range(UPLOAD_BURST):
            assert c.post("/replay", data={"text": text}).status_code == 200
        refused = c.post("/replay", data={"text": text})
        assert refused.status_code == 429
        assert "Too many record uploads from your address" in refused.text and "Traceback" not in refused.text
        # sending a forgotten record again is an upload too
        digest = replays.digest_of(text)
        again = c.post(f"/replay/upload/{digest}/1", content=text)
        assert again.status_code == 429 and "Too many record uploads" in again.json()["error"]


# ---- finished games of this server ----

@pytest.fixture
def server(tmp_path: Path) -> Iterator[TestClient]:
    """The app over a fresh database, its AI in a thread."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'plunder.db'}", ai_workers=0)) as c:
        yield c


def new_game(client: TestClient, game: str, **fields: str) -> str:
    """POST the new-game form; the new game's id."""
    answer = client.post(f"/new/{game}", data=fields, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    return str(answer.headers["location"]).rsplit("/", 1)[1]


def play_out(client: TestClient, game_id: str) -> None:
    """Play the first legal move at every turn of seat 0 until the game is over."""
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        message = ws.receive_json()
        while not message["over"]:
            if message["your_turn"]:
                ws.send_json({"type": "act", "action": message["legal"][0], "ply": message["ply"]})
            message = ws.receive_json()
            assert message["type"] == "state", message


def test_a_finished_game_is_listed_and_replayed(server: TestClient) -> None:
    assert "No game has been finished" in server.get("/replay").text
    game_id = new_game(server, "pillage", preset="example", **{"seat.0": "me", "seat.1": "easy"})
    on = server.get(f"/replay/game/{game_id}")
    assert on.status_code == 409 and "still being played" in on.text
    assert server.get(f"/replay/game/{game_id}/0").status_code == 409
    play_out(server, game_id)

    # the game page's result screen leads to the replay
    assert f'id="replay-link" href="/replay/game/{game_id}"' in server.get(f"/play/{game_id}").text
    listed = server.get("/replay")
    assert f'href="/replay/game/{game_id}"' in listed.text and "Pillage and Profit" in listed.text
    page = server.get(f"/replay/game/{game_id}")
    assert page.status_code == 200
    record = Record.from_json(server.get(f"/record/{game_id}").text)
    config = page_config(page.text)
    assert config["kind"] == "game" and config["last"] == len(record.moves)
    assert f'href="/record/{game_id}"' in page.text and "Game over" in page.text
    last = server.get(f"{config['frames']}{config['last']}")
    assert last.status_code == 200 and last.json()["told"].startswith(f"move {len(record.moves)}:")
    assert server.get(f"{config['frames']}{config['last'] + 1}").status_code == 404


def test_a_resigned_game_says_who_resigned(server: TestClient) -> None:
    game_id = new_game(server, "profiteer", **{"seat.0": "me"})
    with server.websocket_connect(f"/ws/{game_id}") as ws:
        message = ws.receive_json()
        ws.send_json({"type": "resign"})
        while not message["over"]:
            message = ws.receive_json()
    page = server.get(f"/replay/game/{game_id}")
    assert page.status_code == 200 and "resigned" in page.text
    assert "resigned" in server.get("/replay").text


def test_unknown_games_have_no_replay(server: TestClient) -> None:
    assert server.get("/replay/game/nosuchgame").status_code == 404
    assert server.get("/replay/game/nosuchgame/3").status_code == 404
