"""The board's captions name the players as the log does (core/svg.py ``seats_called``,
web/table.py ``Prepared``): the game-over line, the score, the move shown and the labels a
picture draws say each seat's name, escaped, wrapped with the name in it, and drawn again when
a player renames while the game is played (a finished game keeps its names); a picture drawn outside (the terminal, the files) keeps the rules' labels."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from starlette.testclient import TestClient

from plunder.core.game import State
from plunder.core.registry import entry
from plunder.core.svg import EM_ADVANCE, Picture, Shown, seats_called
from plunder.games.crossroads.rules import CrossroadsState, Phase
from plunder.pictures import svg_of
from plunder.web import table as tables
from plunder.web.app import create_app
from plunder.web.names import Callers, SeatWho

from .test_people import named, other
from .test_play_server import new_game, state_of, until_my_turn

#: a name the markup must carry escaped
HOSTILE = '<b>&"'
SVG = "{http://www.w3.org/2000/svg}"


def played(game_id: str, seed: int, until: Callable[[Any], bool] | None = None) -> State:
    """A position of ``game_id`` reached by random moves from ``seed``: the end, or the first
    position for which ``until`` (a predicate) holds."""
    game = entry(game_id).game_class.load(None)
    state, rng = game.new_initial_state(), random.Random(seed)
    while not state.is_terminal() and not (until is not None and until(state)):
        if state.current_player >= 0:
            state = state.apply(rng.choice(list(state.legal_actions())))
        else:
            state = state.apply(rng.choice([a for a, _ in state.chance_outcomes()]))
    return state


def callers_for(state: State, name: str) -> Callers:
    """Seat 1 a person called ``name``, the others medium AIs."""
    g = state.game
    seats = [SeatWho("human", "a" * 64, None, g.seat_name(0))]
    seats += [SeatWho("ai", None, "medium", g.seat_name(i)) for i in range(1, g.num_players)]
    return Callers(seats, {"a" * 64: name})


def texts(svg: str) -> list[str]:
    """The text of every ``<text>`` and the ``<title>`` of ``svg`` (parsed: it must be well formed)."""
    root = ET.fromstring(svg)
    return [t.text or "" for t in root.iter() if t.tag in (f"{SVG}text", f"{SVG}title")]


def test_a_finished_picture_names_the_seats_escaped_and_outside_keeps_the_labels() -> None:
    state = played("pillage", 3)
    shown = Shown(9, "a1-b1", "Player 2 drew a1-b1")
    plain = svg_of(state, shown)
    with seats_called(callers_for(state, HOSTILE).told):
        svg = svg_of(state, shown)
    said = texts(svg)
    joined = "\n".join(said)
    assert re.search(r"Game over: (<b>&\"|The medium AI) wins", joined), joined
    assert f"Score: {HOSTILE} " in joined and "the medium AI" in joined
    assert "move 9: a1-b1 — The medium AI drew a1-b1" in said
    assert "Player 1" not in joined and "Player 2" not in joined
    assert "&lt;b&gt;&amp;\"" in svg and HOSTILE not in svg  # escaped in the markup
    # outside the block the picture is the rules' (as the terminal and the files show it)
    assert svg_of(state, shown) == plain and "Player 2" in "\n".join(texts(plain))


def test_a_long_name_is_wrapped_with_the_line_it_is_in() -> None:
    long = "W" * 24
    pic = Picture(200)
    with seats_called(lambda text: text.replace("Player 2", long)):
        pic.paragraph(0, 0, "Game over: Player 2 wins by 12 points", 200, 13)
        pic.button(0, 0, "Player 2", "Player 2")  # an action's text is put as it is
    lines = [t for t in texts(pic.document("x")) if t != "x"]
    assert long in lines and "Player 2" in lines
    assert all(len(line) * 13 * EM_ADVANCE <= 200 for line in lines if line != "Player 2"), lines


def test_crossroads_trading_line_names_the_trader() -> None:
    state = played("crossroads", 5, lambda s: s.phase is Phase.TRADE)
    assert isinstance(state, CrossroadsState) and state.phase is Phase.TRADE  # the random game reached a trading turn
    trader = state.game.seat_name(state.seat)
    with seats_called(lambda text: text.replace(trader, "Anna")):
        joined = "\n".join(texts(svg_of(state)))
    assert "Trading: Anna may offer" in joined and f"Trading: {trader}" not in joined
    assert f"Trading: {trader} may offer" in "\n".join(texts(svg_of(state)))


def test_crossroads_offer_names_the_traders_on_the_web_and_keeps_p1_in_the_terminal() -> None:
    state = played("crossroads", 5, lambda s: s.phase is Phase.RESPOND and s.offer is not None)
    assert isinstance(state, CrossroadsState) and state.offer is not None  # the random game reached an offer
    callers = callers_for(state, "Anna")
    with seats_called(callers.told):
        joined = " ".join(texts(svg_of(state)))
    offer = joined[joined.index("Offer:"):joined.index(" gets ", joined.index("Offer:"))]
    # "Offer: Anna's C8 trades with the medium AI (Player 3)'s D4" (three medium AIs told apart by their labels)
    assert not re.search(r"\bP\d'", offer) and re.fullmatch(r"Offer: .*(Anna|the medium AI \(Player \d\))'s .*", offer), offer
    # the terminal's few columns keep the short labels
    describe = entry("crossroads").presentation.describe
    assert describe is not None and re.search(r"P\d's [A-Z]\d+ trades with P\d's", describe(state, state.offer))


@pytest.fixture
def anna(tmp_path: Path) -> Iterator[TestClient]:
    """A browser called Anna on a fresh app."""
    with TestClient(create_app(f"sqlite:///{tmp_path}/plunder.db", ai_workers=0)) as c:
        named(c, "Anna")
        yield c


def test_the_table_picture_names_the_players_and_is_redrawn_on_a_rename(anna: TestClient) -> None:
    game_id = new_game(anna, "pillage", preset="small", **{"seat.0": "me", "seat.1": "easy"})
    rng = random.Random(2)
    # while it is played, a rename redraws the picture
    named(anna, HOSTILE)
    with anna.websocket_connect(f"/ws/{game_id}") as ws:
        again = state_of(ws)["svg"]
    assert f"Score: {HOSTILE} " in "\n".join(texts(again)) and "Anna" not in again
    assert "&lt;b&gt;&amp;\"" in again
    named(anna, "Anna")
    with anna.websocket_connect(f"/ws/{game_id}") as ws:
        message = until_my_turn(ws, state_of(ws))
        while not message["over"]:
            ws.send_json({"type": "act", "action": rng.choice(message["legal"]), "ply": message["ply"]})
            message = until_my_turn(ws, state_of(ws))
    said = "\n".join(texts(message["svg"]))
    verdict = message["result"]["verdict"]  # from Anna's side: "You win" / "You lost to the easy AI"
    # the board's contents are dealt afresh for each game, so a tie can come too
    ending = "A tie" if "tie" in verdict else f"{'Anna' if 'You win' in verdict else 'The easy AI'} wins"
    assert f"Game over: {ending}" in said, (verdict, said)
    assert "Player 1" not in said and "Player 2" not in said
    # a spectator is sent the same picture (no "You" in it)
    with other(anna).websocket_connect(f"/ws/{game_id}") as ws:
        assert state_of(ws)["svg"] == message["svg"]
    # once it is over, it keeps the names it was played under
    named(anna, "Annabel")
    with anna.websocket_connect(f"/ws/{game_id}") as ws:
        assert state_of(ws)["svg"] == message["svg"]


def test_a_table_loaded_afresh_draws_its_picture_once_with_the_names(anna: TestClient, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    game_id = new_game(anna, "pillage", preset="small", **{"seat.0": "me", "seat.1": "easy"})
    drawn: list[tuple[str, ...]] = []
    made = tables.Prepared.of.__func__  # type: ignore[attr-defined]

    def counted(cls: type[tables.Prepared], *args: Any) -> tables.Prepared:
        drawn.append(args[0][2])  # the names it is drawn with
        return made(cls, *args)

    monkeypatch.setattr(tables.Prepared, "of", classmethod(counted))
    # a second server over the same store loads the game afresh
    with TestClient(create_app(f"sqlite:///{tmp_path}/plunder.db", ai_workers=0)) as fresh:
        assert "Anna" in fresh.get(f"/play/{game_id}").text
    assert drawn == [("Anna", "the easy AI")]
