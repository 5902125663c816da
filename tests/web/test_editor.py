"""The Pillage board editor's server side: a sketch becomes a board file the game itself reads
(boxes kept, dots renumbered, contents, pre-drawn lines and legend carried over), what the game
refuses comes back in its words naming the sketch's cell, a board file opens as a sketch, and
the board it gives plays through the new-game form."""

from __future__ import annotations

import copy
import json
from typing import Any, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from plunder.core.registry import load_game
from plunder.games.pillage.board import generated
from plunder.games.pillage.board_file import parse_board_json
from plunder.games.pillage.rules import PillageGame
from plunder.games.pillage import editor
from plunder.web.app import create_app


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The app over a fresh SQLite file, its AI in a thread."""
    db = tmp_path_factory.mktemp("web") / "plunder.db"
    with TestClient(create_app(f"sqlite:///{db}", ai_workers=0)) as c:
        yield c


def pillage(board: str) -> PillageGame:
    """The Pillage game of a ``board`` parameter."""
    game = load_game("pillage", board=board)
    assert isinstance(game, PillageGame)
    return game


def square_sketch() -> dict[str, Any]:
    """A 2x2 square lattice, every cell a box:

        a1--b1--c1
        | 0  | 1  |
        a2--b2--c2
        | 2  | 3  |
        a3--b3--c3
    """
    return editor.sketch_of(generated("square:2x2"))


def test_the_page_opens_on_a_lattice(client: TestClient) -> None:
    page = client.get("/editor")
    assert page.status_code == 200
    assert "data-sketch=" in page.text and 'action="/new/pillage"' in page.text


def test_a_sketch_without_contents_is_a_board_dealt_at_random() -> None:
    answer = editor.check(square_sketch(), {})
    assert answer["ok"], answer
    game = pillage(answer["board"])
    assert game.board.num_boxes == 4 and game.contents_mode == "random"
    # the file to save is a board file the game reads back to the same board
    assert parse_board_json(answer["file"]).to_json() == answer["board"].removeprefix("json:")
    assert "4 boxes, 12 lines" in answer["summary"]


def test_cells_left_out_drop_their_dots_and_lines() -> None:
    sketch = square_sketch()
    # keep boxes 0 and 3 (touching at b2 only), with contents, one pre-drawn line a1-b1 (dots 0, 1),
    # one pre-drawn line of a dropped box (b1-c1) and a legend of two kinds
    sketch["on"] = [True, False, False, True]
    sketch["contents"] = ["3", "", "", "+-2 gold/silk"]
    sketch["legend"] = [["gold", 4], ["silk", 1]]
    b1, c1 = sketch["cells"][1][0], sketch["cells"][1][1]
    sketch["drawn"] = [[0, 1], [b1, c1]]
    answer = editor.check(sketch, {})
    assert answer["ok"], answer
    assert answer["cells"] == [0, 3]
    game = pillage(answer["board"])
    assert game.board.num_boxes == 2 and len(game.board.dots) == 7
    assert [game.board.edge_label(e) for e in game.board.predrawn] == ["a1-b1"]
    assert game.legend.kinds == ("gold", "silk") and game.legend.values == (4, 1)
    assert game.contents_mode == "file"
    assert [b.get("content") for b in json.loads(answer["file"])["boxes"]] == ["3", "+-2 gold/silk"]


@pytest.mark.parametrize("change, words", [
    (lambda s: s.update(on=[False] * 4), "no boxes yet"),
    (lambda s: s["contents"].__setitem__(0, "food"), "3 of the 4 boxes have no content"),
    (lambda s: s.update(contents=["1", "2", "3", "spice"]), "'spice' is not in the legend"),
    (lambda s: s.update(legend=[["Food!", 3]]), "legend kind"),
    (lambda s: s.update(contents=["1", "2", "3", "0"]), "1 or more doubloons"),
])
def test_what_the_game_refuses_comes_back_in_its_words(change: Any, words: str) -> None:
    sketch = square_sketch()
    change(sketch)
    answer = editor.check(sketch, {})
    assert not answer["ok"] and words in answer["error"], answer


def test_a_refused_content_names_its_cell() -> None:
    sketch = square_sketch()
    sketch["on"][0] = False
    sketch["contents"] = ["", "1", "2", "spice"]
    answer = editor.check(sketch, {})
    assert not answer["ok"] and answer["cell"] == 3  # box 2 of the board file is cell 3 of the sketch


def test_a_board_cut_in_two_is_refused() -> None:
    sketch = editor.sketch_of(generated("square:1x3"))
    sketch["on"] = [True, False, True]
    answer = editor.check(sketch, {})
    assert not answer["ok"] and "PP-1" in answer["error"]


def test_malformed_sketches_are_refused_never_crash(client: TestClient) -> None:
    bad: list[Any] = [[], {"dots": 3}, {**square_sketch(), "on": [True]},
                      {**square_sketch(), "cells": [[0, 1, 99]], "on": [True], "contents": [""]},
                      {**square_sketch(), "dots": [{"x": "1e999", "y": 0}] * 9},
                      {**square_sketch(), "drawn": [["a", None], 5]}, {**square_sketch(), "legend": "food"}]
    for sketch in bad:
        answer = client.post("/editor/pillage/check", content=json.dumps(sketch))
        # a sketch the game refuses is a normal answer saying why (no HTTP error for the console)
        assert answer.status_code == 200 and answer.json()["ok"] is False, (sketch, answer.text)
    assert client.post("/editor/pillage/check", content=b"{nope").status_code == 400
    big = b"[" * 10 + b"0" * (editor.MAX_SKETCH_BYTES + 1)
    assert client.post("/editor/pillage/check", content=big).status_code == 413


def test_a_lattice_and_a_board_file_open_as_sketches(client: TestClient) -> None:
    answer = client.get("/editor/pillage/lattice", params={"spec": "hex:2x3", "filled": "0"}).json()
    assert answer["ok"] and len(answer["sketch"]["cells"]) == 6 and not any(answer["sketch"]["on"])
    assert client.get("/editor/pillage/lattice", params={"spec": "hex:99x3"}).status_code == 400
    made = editor.check(square_sketch() | {"contents": ["1", "food", "-5 food/armor", "armor"]}, {})
    opened = client.post("/editor/pillage/open", content=made["file"]).json()
    assert opened["ok"] and opened["sketch"]["contents"] == ["1", "food", "-5 food/armor", "armor"]
    again = editor.check(opened["sketch"], {})
    assert again["board"] == made["board"]
    refused = client.post("/editor/pillage/open", content='{"format": "plunder-pillage-board", "dots": []}')
    assert refused.status_code == 400 and "cannot be opened" in refused.json()["error"]


def test_the_board_plays_through_the_new_game_form(client: TestClient) -> None:
    sketch = copy.deepcopy(square_sketch())
    sketch["contents"] = ["5", "food", "-5 food/weapons/armor", "armor"]
    answer = client.post("/editor/pillage/check", content=json.dumps(sketch), params={"floor": "0"}).json()
    assert answer["ok"]
    created = client.post("/new/pillage", data={"p.board": answer["board"], "p.contents": "auto", "p.legend": "auto",
                                                "p.floor": "0", "seat.0": "me", "seat.1": "easy"},
                          follow_redirects=False)
    assert created.status_code == 303
    game_id = created.headers["location"].rsplit("/", 1)[1]
    record = json.loads(client.get(f"/record/{game_id}").text)
    assert record["params"]["board"] == answer["board"] and record["params"]["floor"] == "0"


json_values = st.recursive(st.none() | st.booleans() | st.integers(-10, 10) | st.text(max_size=8),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                           max_leaves=12)


@settings(max_examples=60, deadline=None)
@given(field=st.sampled_from(["dots", "cells", "on", "contents", "drawn", "legend", "lattice", "extra"]),
       value=json_values, floor=st.sampled_from(["none", "0", "-3", "abc", ""]))
def test_any_sketch_gets_an_answer_never_an_exception(field: str, value: Any, floor: str) -> None:
    sketch = square_sketch()
    sketch[field] = value
    answer = editor.check(sketch, {"floor": floor or "none"})
    assert isinstance(answer["ok"], bool) and (answer["ok"] or answer["error"])
