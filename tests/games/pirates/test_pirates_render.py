"""The rich picture, the text picture and the move descriptions."""

from __future__ import annotations

from rich.console import Console

from plunder.games.pirates import ENTRY
from plunder.games.pirates.actions import RETIRE, Sail
from plunder.games.pirates.picture import picture
from plunder.games.pirates.render import reference_text
from plunder.games.pirates.rules import PiratesGame

from tests.games.pirates.pirates_helpers import position, sea_game

PAIR = [(1, 1), (3, 1)]


def rendered(state: object) -> str:
    console = Console(record=True, width=120, color_system=None)
    assert ENTRY.presentation.render is not None
    console.print(ENTRY.presentation.render(state))  # type: ignore[arg-type]
    return console.export_text()


def test_render_shows_sea_ships_chest_and_tracks() -> None:
    game = sea_game(PAIR)
    state = position(game, (2, 1), ship=1, crew=4, notoriety=2, booty=55, buried=3, chest=(1, 0),
                     faces={(1, 1): "arms-4"}, winds={(1, 1): "NE"}, coins={"suns-brig": (4, 2)})
    text = rendered(state)
    for bit in ("☠1", "s2", " $ ", "⚔4", "↗", "░", "Notoriety", "Booty aboard", "over 50", "ketch"):
        assert bit in text, bit
    assert "galleon 21, 7-9, 42-48" in reference_text().plain  # shown while buying or upgrading


def test_text_picture_grid() -> None:
    game = sea_game(PAIR)
    state = position(game, (2, 1), ship=1, crew=4, buried=3, chest=(1, 0),
                     faces={(1, 1): "arms-4"}, winds={(1, 1): "NE"}, coins={"suns-brig": (4, 2)})
    rows = picture(state).splitlines()
    assert rows[1] == " 0 ##$$########"
    assert rows[2] == " 1 ##A4P1....##"
    assert rows[3] == " 2 ##    ..s2##"


def test_describe_lists_what_moves_do() -> None:
    game = sea_game(PAIR)
    state = position(game, (2, 1), ship=1, crew=4, faces={(1, 1): "arms-4"}, winds={(1, 1): "NE"},
                     coins={"suns-brig": (3, 1)})
    assert ENTRY.presentation.describe is not None
    text = ENTRY.presentation.describe(state, Sail("E"))
    assert "to 3,1" in text and "explores a face-down tile" in text and "attacks suns-brig" in text
    assert "retire now" in ENTRY.presentation.describe(state, RETIRE)
    assert PiratesGame.load().title == "Piece Packing Pirates"


def test_reachable_spaces_are_highlighted_while_sailing() -> None:
    from plunder.games.pirates.render import _reach

    game = sea_game(PAIR)
    state = position(game, (1, 1), faces={(1, 1): "arms-4", (3, 1): "suns-2"}, winds={(1, 1): "SE", (3, 1): "NE"})
    #      0 1 2 3 4 5
    #   1  # P r r . #     P at (1,1), wind SE on its tile, NE on tile (3,1)
    #   2  # r r r r #     r = reachable: two orthogonal steps and one SE step
    # (4,1) is out of reach: it needs three steps east, or the NE wind after the SE one.
    assert _reach(state) == {(2, 1), (3, 1), (1, 2), (2, 2), (3, 2), (4, 2)}
    assert _reach(position(game, (1, 1), phase="bury")) == set()
