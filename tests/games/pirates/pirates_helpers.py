"""Shared builders for the pirates tests: small hand-drawn seas and positions on them."""

from __future__ import annotations

from typing import Any, Iterable

from plunder.games.pirates import tables as T
from plunder.games.pirates.rules import Phase, PiratesGame, PiratesState
from plunder.games.pirates.sea import WINDS, Cell, tiles_text
from plunder.games.pirates.stats import PiratesObserver


def sea_game(origins: Iterable[Cell], **params: Any) -> PiratesGame:
    """A game on a sea of the tiles at ``origins``, given inline (give the smallest as 1,1
    so the coordinates stay as written: the sea keeps a one-cell land border)."""
    game = PiratesGame.load(layout=tiles_text(origins), **params)
    assert isinstance(game, PiratesGame)
    return game


def coin(name: str) -> int:
    """Coin id from its name, e.g. ``suns-brig``."""
    return T.coin_from_name(name)


def face(name: str) -> int:
    """Tile identity from its name, e.g. ``arms-4``."""
    return T.face_from_name(name)


def position(game: PiratesGame, pos: Cell, *, ship: int = 1, crew: int = 3, notoriety: int = 0,
             booty: int = 0, buried: int = 0, chest: Cell | None = None, turn: int = 1,
             faces: dict[Cell, str] | None = None, winds: dict[Cell, str] | None = None,
             coins: dict[str, Cell] | None = None, phase: str = "sail") -> PiratesState:
    """A position at the start of the pirate's sail (or ``phase``). Tiles are named by
    their origin cell; the pirate's tile is face-up (default ``suns-null``, wind NE)."""
    sea = game.sea
    n = sea.num_tiles
    face_list = [-1] * n
    wind_list = [-1] * n
    faces = dict(faces or {})
    winds = dict(winds or {})
    home = sea.origins[sea.tile_at[pos]]
    faces.setdefault(home, "suns-null")
    winds.setdefault(home, "NE")
    for origin, name in faces.items():
        face_list[sea.origins.index(origin)] = T.face_from_name(name)
    for origin, w in winds.items():
        wind_list[sea.origins.index(origin)] = WINDS.index(w)
    placed = tuple(sorted((T.coin_from_name(k), v) for k, v in (coins or {}).items()))
    state = PiratesState(game, faces=tuple(face_list), winds=tuple(wind_list))
    return state.evolve(phase=Phase(phase), pos=pos, ship=ship, crew=crew, notoriety=notoriety, booty=booty,
                   buried=buried, chest=chest, turn=turn, coins=placed)


def texts(state: PiratesState) -> list[str]:
    """The legal actions of ``state`` as text."""
    return [state.game.action_to_text(state, a) for a in state.legal_actions()]


def run(state: PiratesState, *moves: str) -> PiratesState:
    """Apply action texts in order."""
    for m in moves:
        new = state.apply_text(m)
        assert isinstance(new, PiratesState)
        state = new
    return state


def counted(state: PiratesState, *moves: str) -> tuple[PiratesState, dict[str, float | list[float]]]:
    """Apply action texts in order, shown to the game's observer: the position after them and
    the observer's figures (the fights, sightings and booty lost are counted there)."""
    observer = PiratesObserver(state.game)
    for m in moves:
        new = state.apply_text(m)
        assert isinstance(new, PiratesState)
        observer.see(state, state.game.parse_action(state, m), new)
        state = new
    return state, observer.stats(state)
