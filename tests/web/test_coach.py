"""The coach's routes: a finished game analysed move by move for its replay page, the values
read as they arrive, kept for the next click, and every refusal in JSON (no such game, a game
still played, a coach already full, another site's request); an uploaded record is analysed
too when its game is over, sent with the request."""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from starlette.testclient import TestClient

import plunder
from plunder.analysis import MARKS
from plunder.analysis.value import Task, Valuation
from plunder.core.record import Record
from plunder.web import coach
from plunder.web.app import create_app
from plunder.web.names import Callers, SeatWho
from plunder.web.thinking import Thinkers

from .test_replays import new_game, page_config, play_out

#: seconds a test waits for an analysis at most
PATIENCE = 120.0


@pytest.fixture
def server(tmp_path: Path) -> Iterator[TestClient]:
    """The app over a fresh database, its AI and analyses in a thread."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'plunder.db'}", ai_workers=0)) as c:
        yield c


def finished_game(client: TestClient) -> str:
    """A small Pillage game played out against the AI; its id."""
    game_id = new_game(client, "pillage", preset="example", **{"seat.0": "me", "seat.1": "easy"})
    play_out(client, game_id)
    return game_id


def waited(client: TestClient, game_id: str, path: str = "") -> dict[str, Any]:
    """Poll the analysis of ``game_id`` (or at ``path``) until it is done; its last answer."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        answer = client.get(path or f"/replay/game/{game_id}/analysis")
        assert answer.status_code == 200, answer.text
        body: dict[str, Any] = answer.json()
        if body["status"] != "running":
            return body
        time.sleep(0.1)
    raise AssertionError("the analysis did not finish")


def test_a_finished_game_is_analysed_and_kept(server: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id = finished_game(server)
    config = page_config(server.get(f"/replay/game/{game_id}").text)
    assert config["analyse"] == f"/replay/game/{game_id}/analyse"
    assert config["analysis"] == f"/replay/game/{game_id}/analysis"
    assert server.get(config["analysis"]).status_code == 404  # not asked for yet

    valued = []
    real = Thinkers.value

    async def counted(self: Thinkers, key: str, task: Task) -> Valuation:
        valued.append(task.key)
        return await real(self, key, task)

    monkeypatch.setattr(Thinkers, "value", counted)
    started = server.post(config["analyse"])
    assert started.status_code in (200, 202), started.text
    body = waited(server, game_id)
    assert body["status"] == "done" and body["units"] == "doubloons"
    record = Record.from_json(server.get(f"/record/{game_id}").text)
    decisions = [i + 1 for i, m in enumerate(record.moves) if m.by is not None]
    assert [m["n"] for m in body["moves"]] == decisions and body["total"] == len(decisions) == len(valued)
    assert all(m["mark"] in MARKS and m["loss"] >= 0 and len(m["margins"]) == 2 for m in body["moves"])
    # a marked move names a better one, in words; a move named no better one loses nothing
    assert all(m["best"] != m["played"] for m in body["moves"] if m["mark"] in ("inaccuracy", "mistake", "blunder"))
    assert all(m["loss"] > 0 for m in body["moves"] if m["best"] != m["played"])
    # an estimate is worded as one; the solver's figure as it is, a bound it proved as a bound
    assert all(m["loss_words"].startswith("about ") == (not m["exact"] and not m["bounded"]) for m in body["moves"])
    assert [s["seat"] for s in body["summary"]] == [0, 1]
    assert sum(s["decisions"] for s in body["summary"]) == len(decisions)

    again = server.post(config["analyse"])  # kept: answered at once, nothing valued again
    assert again.status_code == 200 and again.json()["moves"] == body["moves"]
    assert len(valued) == len(decisions)
    assert server.get(f"{config['analysis']}?since=3").json()["moves"] == body["moves"][3:]

    # a marked move's better move drawn on the board; a good move has none. First-legal play
    # against easy loses value in most games, not in every one (each game is dealt afresh)
    tries = 1
    while max(m["loss"] for m in body["moves"]) == 0 and tries < 6:
        game_id = finished_game(server)
        config = page_config(server.get(f"/replay/game/{game_id}").text)
        assert server.post(config["analyse"]).status_code in (200, 202)
        body = waited(server, game_id)
        tries += 1
    marked = max(body["moves"], key=lambda m: m["loss"])
    assert marked["loss"] > 0, f"first-legal play against easy made no losing move in {tries} games"
    drawn = server.get(f"{config['better']}{marked['n']}")
    assert drawn.status_code == 200, drawn.text
    assert f"move {marked['n']}: {marked['best']}" in drawn.json()["svg"]
    # the seats by their players' names, in the analysis and on the board (docs/web.md, "Names")
    assert body["seats"][1] == "the easy AI" and body["seats"][0].startswith("Guest-")
    assert not re.search(r"Player \d", drawn.json()["svg"] + " ".join(m["best_words"] + m["played_words"]
                                                                       for m in body["moves"]))
    assert drawn.json()["told"].startswith(f"move {marked['n']}: {marked['best']}")
    good = next(m for m in body["moves"] if m["best"] == m["played"])
    assert server.get(f"{config['better']}{good['n']}").status_code == 404
    assert server.get(f"{config['better']}0").status_code == 404


def test_a_finished_analysis_is_kept_in_the_store_for_every_process(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Another server process (a fresh app over the same store) serves a game's finished analysis
    at once, values nothing again, and draws its better moves; an analysis made by another
    version of the coach is not served."""
    url = f"sqlite:///{tmp_path / 'plunder.db'}"
    with TestClient(create_app(url, ai_workers=0)) as first:
        game_id = finished_game(first)
        assert first.post(f"/replay/game/{game_id}/analyse").status_code in (200, 202)
        body = waited(first, game_id)
        assert body["status"] == "done"
    valued: list[str] = []

    async def counted(self: Thinkers, key: str, task: Task) -> Valuation:
        valued.append(task.key)
        raise AssertionError("a kept analysis is not made again")

    monkeypatch.setattr(Thinkers, "value", counted)
    with TestClient(create_app(url, ai_workers=0)) as second:
        shown = second.get(f"/replay/game/{game_id}/analysis")
        assert shown.status_code == 200 and shown.json()["status"] == "done"
        assert shown.json()["moves"] == body["moves"] and shown.json()["summary"] == body["summary"]
        assert second.post(f"/replay/game/{game_id}/analyse").json()["moves"] == body["moves"]
        marked = max(body["moves"], key=lambda m: m["loss"])
        if marked["best"] != marked["played"]:
            assert second.get(f"/replay/game/{game_id}/better/{marked['n']}").status_code == 200
        assert valued == []
    monkeypatch.setattr(coach, "MADE_BY", "engine 0, 1 playouts")  # another coach's rows are not served
    with TestClient(create_app(url, ai_workers=0)) as third:
        assert third.get(f"/replay/game/{game_id}/analysis").status_code == 404


def test_values_are_read_as_they_arrive(server: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id = finished_game(server)
    gate = threading.Event()
    real = Thinkers.value
    count = 0

    async def held(self: Thinkers, key: str, task: Task) -> Valuation:
        nonlocal count
        count += 1
        if count > 2:  # the first two positions pass, the rest wait for the test
            await asyncio.to_thread(gate.wait, PATIENCE)
        return await real(self, key, task)

    monkeypatch.setattr(Thinkers, "value", held)
    assert server.post(f"/replay/game/{game_id}/analyse").status_code == 202
    deadline = time.monotonic() + PATIENCE
    while (part := server.get(f"/replay/game/{game_id}/analysis").json())["done"] < 2:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert part["status"] == "running" and part["done"] == 2 < part["total"] and "summary" not in part
    assert len(server.get(f"/replay/game/{game_id}/analysis?since=1").json()["moves"]) == 1

    # the coach is full: another game's analysis is refused, in words, in JSON
    other = finished_game(server)
    monkeypatch.setattr(coach, "MAX_ANALYSES", 1)
    refused = server.post(f"/replay/game/{other}/analyse")
    assert refused.status_code == 503 and "already analysing 1 games, its limit" in refused.json()["error"]
    gate.set()
    assert waited(server, game_id)["done"] == part["total"]
    assert server.post(f"/replay/game/{other}/analyse").status_code in (200, 202)  # room again
    assert waited(server, other)["status"] == "done"


def test_refusals_are_json(server: TestClient) -> None:
    missing = server.post("/replay/game/nosuchgame/analyse")
    assert missing.status_code == 404 and "no such game" in missing.json()["error"]
    assert server.get("/replay/game/nosuchgame/analysis").status_code == 404
    on = new_game(server, "pillage", preset="example", **{"seat.0": "me", "seat.1": "easy"})
    playing = server.post(f"/replay/game/{on}/analyse")
    assert playing.status_code == 409 and "still being played" in playing.json()["error"]
    game_id = finished_game(server)
    # another site's page may not start the work (docs/web.md, the Origin rule)
    foreign = server.post(f"/replay/game/{game_id}/analyse", headers={"origin": "https://evil.example"})
    assert foreign.status_code == 403
    assert server.get(f"/replay/game/{game_id}/analysis").status_code == 404
    assert server.get(f"/replay/game/{game_id}/better/3").status_code == 404  # nothing analysed


def test_every_seat_of_a_three_player_game_has_its_values(server: TestClient) -> None:
    game_id = new_game(server, "crossroads", **{"p.players": "3", "p.target": "5", "seat.0": "me",
                                                 "seat.1": "easy", "seat.2": "easy"})
    play_out(server, game_id)
    assert server.post(f"/replay/game/{game_id}/analyse").status_code in (200, 202)
    body = waited(server, game_id)
    assert body["status"] == "done" and body["units"] == "gold" and len(body["seats"]) == 3
    assert body["moves"] and all(len(m["margins"]) == 3 for m in body["moves"])
    assert {m["seat"] for m in body["moves"]} == {0, 1, 2}
    assert [s["seat"] for s in body["summary"]] == [0, 1, 2]


def test_an_uploaded_record_is_analysed_when_it_is_over(server: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    record = plunder.play(plunder.load_game("pillage", preset="example"), ["random", "easy"], seed=3)
    text = record.to_json()
    config = page_config(server.post("/replay", data={"text": text}).text)
    digest = config["digest"]
    assert config["analyse"] == f"/replay/upload/{digest}/analyse"
    # the record must come with the request, and be the page's
    assert server.post(config["analyse"], content="{}").status_code == 400
    other = plunder.play(plunder.load_game("pillage", preset="example"), ["random", "easy"], seed=4).to_json()
    wrong = server.post(config["analyse"], content=other)
    assert wrong.status_code == 400 and "not the record this page shows" in wrong.json()["error"]
    monkeypatch.setattr(coach, "COACH_MAX_MOVES", 5)
    long = server.post(config["analyse"], content=text)
    assert long.status_code == 413 and "the coach analyses games of at most 5 moves" in long.json()["error"]
    monkeypatch.undo()

    assert server.post(config["analyse"], content=text).status_code in (200, 202)
    body = waited(server, "", config["analysis"])
    assert body["status"] == "done" and len(body["moves"]) == sum(m.by is not None for m in record.moves)
    marked = max(body["moves"], key=lambda m: m["loss"])
    assert marked["loss"] > 0, "random play against easy made no losing move"
    drawn = server.get(f"{config['better']}{marked['n']}").json()
    assert f"move {marked['n']}: {marked['best']}" in drawn["svg"]

    # a record whose game is not over: no Analyse on its page, and refused if asked
    unfinished = Record.from_json(json.dumps({**json.loads(text), "moves": json.loads(text)["moves"][:6],
                                              "result": None}))
    page = server.post("/replay", data={"text": unfinished.to_json()})
    assert page.status_code == 200, page.text
    cut = page_config(page.text)
    assert "analyse" not in cut
    refused = server.post(f"/replay/upload/{cut['digest']}/analyse", content=unfinished.to_json())
    assert refused.status_code == 409 and "not over" in refused.json()["error"]


def test_the_analysis_calls_the_seats_by_their_names() -> None:
    callers = Callers([SeatWho("human", "a" * 64, None, "Player 1"), SeatWho("ai", None, "hard", "Player 2")],
                      {"a" * 64: "Anna"})
    data = {"seats": ["Player 1", "Player 2"], "status": "done",
            "moves": [{"n": 1, "played_words": "Player 1 sails to b2", "best_words": "Player 1 fights Player 2"}]}
    named = coach.called(data, callers)
    assert named["seats"] == ["Anna", "the hard AI"] and named["status"] == "done"
    assert named["moves"][0]["played_words"] == "Anna sails to b2"
    assert named["moves"][0]["best_words"] == "Anna fights the hard AI"
    assert coach.called(data, None) is data  # an upload has no names
