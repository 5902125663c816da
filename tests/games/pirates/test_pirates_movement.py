"""PR-4 (the pirate's sail) and PR-7 (other ships sail) on hand-drawn seas.

Maps: x across, y down; ``#`` land, ``.`` sea; ``P`` the pirate; letters other ships.
"""

from __future__ import annotations

import pytest

import plunder

from plunder import IllegalActionError
from plunder.games.pirates.moves import ship_destinations
from plunder.games.pirates.rules import Phase, PiratesState

from tests.games.pirates.pirates_helpers import coin, position, run, sea_game, texts

# A 3 x 2 block of tiles:
#
#      0 1 2 3 4 5 6 7
#   0  # # # # # # # #
#   1  # . . . . . . #
#   2  # . . . . . . #
#   3  # . . . . . . #
#   4  # . . . . . . #
#   5  # # # # # # # #
BLOCK = [(1, 1), (3, 1), (5, 1), (1, 3), (3, 3), (5, 3)]
FACE_UP = {o: "suns-null" for o in BLOCK}


def test_sail_two_orthogonal_steps_with_a_turn_but_no_reverse() -> None:
    game = sea_game(BLOCK)
    state = position(game, (3, 3), faces=FACE_UP, winds={o: "NE" for o in BLOCK})
    state = run(state, "sail E")
    assert "sail W" not in texts(state)
    with pytest.raises(IllegalActionError, match="PR-4"):
        run(state, "sail W")
    state = run(state, "sail S")
    assert state.pos == (4, 4)
    assert not any(t in texts(state) for t in ("sail N", "sail E", "sail S", "sail W"))
    with pytest.raises(IllegalActionError, match="both orthogonal steps"):
        run(state, "sail E")


def test_the_one_diagonal_goes_with_the_wind_of_the_tile_you_are_on() -> None:
    game = sea_game(BLOCK)
    winds = {o: "NE" for o in BLOCK}
    winds[(3, 3)] = "SE"
    state = position(game, (3, 3), faces=FACE_UP, winds=winds)
    # on tile (3,3) the wind blows SE; NE is not allowed here
    assert "sail SE" in texts(state) and "sail NE" not in texts(state)
    with pytest.raises(IllegalActionError, match=r"with the wind \(SE\)"):
        run(state, "sail NE")
    # after stepping north onto tile (3,1) the wind there is NE
    state = run(state, "sail N", "lookout 5")  # a new tile: the lookout sees nothing on a null
    assert state.pos == (3, 2)
    assert "sail NE" in texts(state)
    state = run(state, "sail NE")
    assert state.pos == (4, 1)
    assert "sail NE" not in texts(state) and "sail SE" not in texts(state)


# Five tiles; the pirate P on (2,3), its tile's wind SE. The space (3,4) is sea but
# the diagonal would cut between the land cells (3,3) and (2,4): forbidden (PR-4).
# From (2,2) a NE wind reaches (3,1) past the sea cell (3,2): allowed.
#
#      0 1 2 3 4 5 6 7
#   0  # # # # # # # #
#   1  # # # . . # # #
#   2  # . . . . . . #
#   3  # . P # # . . #
#   4  # # # . . . . #
#   5  # # # . . . . #
#   6  # # # # # # # #
KNOT = [(1, 2), (3, 1), (5, 2), (5, 4), (3, 4)]


def test_a_diagonal_may_not_cut_between_two_land_cells() -> None:
    game = sea_game(KNOT)
    state = position(game, (2, 3), winds={(1, 2): "SE"})
    assert "sail SE" not in texts(state)
    with pytest.raises(IllegalActionError, match="cuts between two land cells"):
        run(state, "sail SE")
    state = position(game, (2, 2), winds={(1, 2): "NE"})
    assert "sail NE" in texts(state)
    assert run(state, "sail NE").pos == (3, 1)


def test_stop_is_always_possible_and_ends_the_sail() -> None:
    game = sea_game(BLOCK)
    state = position(game, (3, 3), faces=FACE_UP, winds={o: "NE" for o in BLOCK})
    assert "stop" in texts(state)
    state = run(state, "stop")
    assert state.phase in (Phase.BURY, Phase.UPGRADE, Phase.END)


# Fleeing into a corner. Block sea, pirate brig (2) at (3,3); a suns sloop (0) at
# (1,1) in the north-west corner, on the same face-up tile.
#
#      0 1 2 3 4 5 6 7
#   1  # s . . . . . #
#   2  # . . . . . . #
#   3  # . . P . . . #
#   4  # . . . . . . #
#
# Distance 4; every orthogonal step from the corner goes closer (N and W are land,
# E and S lead to distance 3): it stays put. With the wind NW nothing changes.
def test_fleeing_ship_in_a_corner_stays() -> None:
    game = sea_game(BLOCK)
    state = position(game, (3, 3), ship=2, crew=4, faces=FACE_UP, winds={o: "NW" for o in BLOCK},
                     coins={"suns-sloop": (1, 1)})
    assert ship_destinations(game.sea, state.winds, (1, 1), (3, 3), flee=True) == [(1, 1)]
    state = run(state, "stop")
    assert state.coin_at(coin("suns-sloop")) == (1, 1)


# Fleeing with a choice: a sloop at (2,2) on tile (1,1) flees the brig P at (3,2) on the
# neighbouring tile (3,1); wind NW everywhere (no help: NW ends at land or closer).
#
#      0 1 2 3 4 5 6 7
#   1  # . . . . . . #      N to (2,1), W to (1,2) and S to (2,3) all reach
#   2  # . s P . . . #      distance 2: the player breaks the tie (PR-7)
#   3  # . . . . . . #
def test_fleeing_tie_is_the_players_choice() -> None:
    game = sea_game(BLOCK)
    state = position(game, (3, 2), ship=2, crew=4, faces=FACE_UP, winds={o: "NW" for o in BLOCK},
                     coins={"suns-sloop": (2, 2)})
    state = run(state, "stop")
    assert state.phase is Phase.OTHERS
    assert texts(state) == ["steer suns-sloop 2,1", "steer suns-sloop 1,2", "steer suns-sloop 2,3"]
    with pytest.raises(IllegalActionError, match="PR-7"):
        run(state, "steer suns-sloop 3,2")
    state = run(state, "steer suns-sloop 1,2")
    assert state.coin_at(coin("suns-sloop")) == (1, 2)


def test_fleeing_tie_is_broken_automatically_with_ties_auto() -> None:
    game = sea_game(BLOCK, ties="auto")
    state = position(game, (3, 2), ship=2, crew=4, faces=FACE_UP, winds={o: "NW" for o in BLOCK},
                     coins={"suns-sloop": (2, 2)})
    state = run(state, "stop")
    assert state.coin_at(coin("suns-sloop")) == (2, 1)  # the first in row order


# Chasing without wind help: a galleon (4) at (6,1) on face-up tile (5,1) with wind NE
# chases the ketch at (3,3):
#
#      0 1 2 3 4 5 6 7
#   1  # . . . . . g #      distance 5; W to (5,1) or S to (6,2): 4 each.
#   2  # . . . . . . #      Every NE wind step from there runs onto land.
#   3  # . . P . . . #
def test_chasing_without_wind() -> None:
    game = sea_game(BLOCK)
    dests = ship_destinations(game.sea, (0,) * len(BLOCK), (6, 1), (3, 3), flee=False)  # NE everywhere
    assert dests == [(5, 1), (6, 2)]


# Chasing with the wind: same galleon, tile (5,1) wind SW: orthogonal then diagonal
# (W to (5,1), then SW to (4,2)) or diagonal then orthogonal ((5,2) then W (4,2) or S
# (5,3)) reaches distance 2.
def test_chasing_with_wind() -> None:
    game = sea_game(BLOCK)
    sw = 2  # index of SW in WINDS
    winds = tuple(sw for _ in BLOCK)
    assert ship_destinations(game.sea, winds, (6, 1), (3, 3), flee=False) == [(4, 2), (5, 3)]


# Ships on face-down tiles do not use the wind. Tile (5,1) (x 5-6, y 1-2) is face-down,
# tile (3,1) is face-up with wind SW; the ketch P is at (3,2):
#
#      0 1 2 3 4 5 6 7
#   0  # # # # # # # #
#   1  # . . . . g G #     G: a galleon at (6,1), distance 4
#   2  # . . P . ? ? #     g: a galleon at (5,1), distance 3
#   3  # . . . . . . #
#
# G may not step SW first (its tile is face-down) and after W or S it is still on that
# tile, so it only steps orthogonally: W (5,1) or S (6,2), a tie for the player. Face-up
# with wind SW, it would reach (4,2). g steps W onto the face-up tile (3,1) and then uses
# its SW wind straight onto the ketch.
def _wind_scene(galleon: tuple[int, int], tile_up: bool) -> PiratesState:
    game = sea_game(BLOCK)
    up = [o for o in BLOCK if tile_up or o != (5, 1)]
    return position(game, (3, 2), ship=1, crew=3, faces={o: "suns-null" for o in up},
                    winds={o: "SW" for o in up}, coins={"arms-galleon": galleon})


def test_ship_on_face_down_tile_does_not_use_wind() -> None:
    state = run(_wind_scene((6, 1), tile_up=False), "stop")
    assert texts(state) == ["steer arms-galleon 5,1", "steer arms-galleon 6,2"]
    state = run(_wind_scene((6, 1), tile_up=True), "stop")
    assert state.coin_at(coin("arms-galleon")) == (4, 2)


def test_ship_stepping_onto_a_face_up_tile_may_then_use_its_wind() -> None:
    state = run(_wind_scene((5, 1), tile_up=False), "stop")
    assert state.coin_at(coin("arms-galleon")) == (3, 2)
    assert state.combat == coin("arms-galleon")


def test_chaser_reaching_the_pirate_fights_after_all_ships_sailed() -> None:
    # galleon at (4,3) next to the ketch at (3,3): it chases west onto it (PR-6, PR-7)
    game = sea_game(BLOCK)
    state = position(game, (3, 3), ship=1, crew=3, faces=FACE_UP, winds={o: "NE" for o in BLOCK},
                     coins={"arms-galleon": (4, 3), "crowns-ketch": (4, 4)})
    state = run(state, "stop")
    assert state.coin_at(coin("arms-galleon")) == (3, 3)
    assert state.coin_at(coin("crowns-ketch")) == (4, 4)  # equal size stays
    assert state.combat == coin("arms-galleon")


def test_only_ships_on_the_pirates_tile_and_edge_neighbours_sail() -> None:
    # channel of four tiles in a row; the pirate on the first; a galleon on the third
    # tile (not adjacent) stays, one on the second chases.
    #      0 1 2 3 4 5 6 7 8 9
    #   1  # P . g . G . . . #     g at (3,1) moves, G at (5,1) does not
    #   2  # . . . . . . . . #
    game = sea_game([(1, 1), (3, 1), (5, 1), (7, 1)])
    faces = {o: "suns-null" for o in [(1, 1), (3, 1), (5, 1), (7, 1)]}
    state = position(game, (1, 1), ship=1, faces=faces, winds={(1, 1): "NE", (3, 1): "NE", (5, 1): "NE", (7, 1): "NE"},
                     coins={"arms-galleon": (3, 1), "suns-galleon": (5, 1)})
    state = run(state, "stop")
    assert state.coin_at(coin("arms-galleon")) == (2, 1)
    assert state.coin_at(coin("suns-galleon")) == (5, 1)


# --- PR-15: a ship that sails onto the pirate's space at any step stops there and fights ---
#
# The block sea, face-up, every wind NE except where a scenario says. The pirate P is a
# ketch at (3,3); tile (3,1) covers x 3-4, y 1-2, tile (5,1) covers x 5-6, y 1-2.
#
#      0 1 2 3 4 5 6 7
#   0  # # # # # # # #
#   1  # . . . G . . #     G at (4,1)
#   2  # . . . g . . #     g at (4,2): diagonally next to P
#   3  # . . P . . . #
#   4  # . . . . . . #
#   5  # # # # # # # #
def _chase(where: tuple[int, int], winds: dict[tuple[int, int], str], ship: int = 1, crew: int = 3,
           name: str = "arms-galleon") -> PiratesState:
    game = sea_game(BLOCK)
    all_winds = {o: "NE" for o in BLOCK} | winds
    return position(game, (3, 3), ship=ship, crew=crew, faces=FACE_UP, winds=all_winds, coins={name: where})


def test_pr15_diagonal_chaser_reaches_the_pirate_with_its_wind_step() -> None:
    # g's tile blows SW: its wind step lands on P. Before PR-15 the step on to P and then
    # away, or one orthogonal step, both ended beside P (distance 1): a tie, no fight.
    state = run(_chase((4, 2), {(3, 1): "SW"}), "stop")
    assert state.coin_at(coin("arms-galleon")) == (3, 3)
    assert state.combat == coin("arms-galleon") and state.current_player == plunder.CHANCE


def test_pr15_chaser_reaches_the_pirate_with_its_orthogonal_step() -> None:
    # G's tile blows SW: the wind step to (3,2), then south onto P.
    state = run(_chase((4, 1), {(3, 1): "SW"}), "stop")
    assert state.coin_at(coin("arms-galleon")) == (3, 3)
    assert state.combat == coin("arms-galleon")
    # beside P, the orthogonal step lands on P and the ship stops: its tile's wind (NW
    # on P's tile) never carries it on past the pirate
    state = run(_chase((4, 3), {(3, 3): "NW"}), "stop")
    assert state.coin_at(coin("arms-galleon")) == (3, 3) and state.combat == coin("arms-galleon")


def test_pr15_a_fleeing_ship_never_takes_the_route_onto_the_pirate() -> None:
    # P is a galleon; the sloop g diagonally next to it flees although its wind (SW)
    # blows straight onto P: north-east to (5,2), then the NE wind of tile (5,1) to (6,1).
    state = run(_chase((4, 2), {(3, 1): "SW"}, ship=4, crew=7, name="suns-sloop"), "stop")
    assert state.coin_at(coin("suns-sloop")) == (6, 1)
    assert state.combat == -1
    # a route onto P counts as distance 0, for a fleeing ship as for a chaser
    game = sea_game(BLOCK)
    winds = (2,) * len(BLOCK)  # SW everywhere
    assert (3, 3) not in ship_destinations(game.sea, winds, (4, 2), (3, 3), flee=True)
    assert ship_destinations(game.sea, winds, (4, 2), (3, 3), flee=False) == [(3, 3)]
