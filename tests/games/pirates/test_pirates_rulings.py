"""One scenario (or more) for every ruling PR-1..PR-10 and the added PR-11..PR-14 (PR-4, PR-7 and PR-15 are in test_pirates_movement.py)."""

from __future__ import annotations

import pytest

from plunder import IllegalActionError, InvalidActionError, ParameterError
from plunder.games.pirates import tables as T
from plunder.games.pirates.actions import DONE, KEEP, Bury, Flip, Place, Sail, Wind
from plunder.games.pirates.render import describe
from plunder.games.pirates.rules import Phase, PiratesGame
from plunder.games.pirates.sea import SHAPES, Sea, random_origins, shares_edge, tile_cells

from tests.games.pirates.pirates_helpers import coin, counted, face, position, run, sea_game, texts

# Two tiles side by side, used by most scenarios:
#
#      0 1 2 3 4 5
#   0  # # # # # #
#   1  # . . . . #
#   2  # . . . . #
#   3  # # # # # #
PAIR = [(1, 1), (3, 1)]
UP = {(1, 1): "suns-null", (3, 1): "moons-null"}
WIND = {(1, 1): "NE", (3, 1): "NE"}


# --- PR-1 the sea -------------------------------------------------------------------------
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_named_shapes_are_24_edge_sharing_tiles(shape: str) -> None:
    sea = PiratesGame.load(layout=shape).sea
    assert sea.num_tiles == 24 and len(sea.cells) == 96
    for i, a in enumerate(sea.origins):
        assert any(shares_edge(a, b) for j, b in enumerate(sea.origins) if j != i)


def test_random_layout_is_seeded_and_follows_the_generator() -> None:
    assert random_origins(3) == random_origins(3)
    assert random_origins(3) != random_origins(4)
    sea = PiratesGame.load(seed=7).sea
    assert sea.num_tiles == 24 and len(set(sea.cells)) == 96
    # every cell outside the tiles is land, including the border
    assert not sea.is_sea((0, 0)) and not sea.is_sea((sea.width - 1, sea.height - 1))


def test_layout_errors_name_the_problem() -> None:
    assert sea_game(PAIR).sea.origins == ((1, 1), (3, 1))
    with pytest.raises(ParameterError, match="overlap"):
        sea_game([(1, 1), (2, 1)])
    with pytest.raises(ParameterError, match="not connected"):
        sea_game([(1, 1), (5, 1)])
    with pytest.raises(ParameterError, match="at most 24"):
        sea_game([(2 * i, 0) for i in range(25)])
    with pytest.raises(ParameterError, match="at most 4 digits"):
        PiratesGame.load(layout="tiles:1,1;10001,1")
    with pytest.raises(ParameterError, match="allowed: random"):
        PiratesGame.load(layout="donut")
    with pytest.raises(ParameterError, match="not a whole number"):
        PiratesGame.load(turns="many")


def test_tile_cells_and_opposite_quadrant() -> None:
    sea = Sea(PAIR)
    assert tile_cells((1, 1)) == ((1, 1), (2, 1), (1, 2), (2, 2))
    assert sea.opposite_quadrant((3, 1)) == (4, 2) and sea.opposite_quadrant((4, 2)) == (3, 1)
    assert sea.opposite_quadrant((2, 2)) == (1, 1)


# --- PR-2 tiles hidden until flipped ----------------------------------------------------------
def test_flip_draws_from_unrevealed_identities_and_asks_the_wind() -> None:
    game = sea_game(PAIR)
    state = position(game, (2, 1), faces={(1, 1): "arms-4"})
    assert state.faces[1] == -1  # nothing is decided about the hidden tile
    state = run(state, "sail E")
    outcomes = dict(state.chance_outcomes())
    assert Flip(face("arms-4")) not in outcomes and len(outcomes) == 23
    assert abs(sum(outcomes.values()) - 1) < 1e-12
    state = run(state, "flip suns-5")
    assert state.current_player == 0 and texts(state)[0] == "wind NE"
    with pytest.raises(IllegalActionError, match="PR-2"):
        run(state, "sail E")


# --- PR-3 setup -------------------------------------------------------------------------------
def test_setup_buy_place_flip_wind_without_sighting() -> None:
    game = sea_game(PAIR)
    state = run(game.new_initial_state(), "dice suns=5 arms=5")
    assert state.booty == 15
    assert "buy ketch 4" not in texts(state) and "buy ketch 3" in texts(state)
    state = run(state, "buy sloop 3")
    assert state.booty == 4
    assert texts(state) == [f"place {x},{y}" for x, y in game.sea.coast]
    state = run(state, "place 3,2", "flip crowns-5", "wind SW")
    # a five tile would always sight a ship, but placing rolls no lookout
    assert state.phase is Phase.SAIL and state.current_player == 0 and state.coins == ()


# --- PR-4 is in test_pirates_movement.py; PR-5 sightings --------------------------------------
def test_sighting_on_entering_an_empty_tile() -> None:
    game = sea_game(PAIR)
    state = position(game, (2, 2), faces={(1, 1): "suns-null", (3, 1): "crowns-2"}, winds=WIND)
    state = run(state, "sail E")
    assert state.sight == 1
    missed = run(state, "lookout 3")  # 3 > 2: nothing
    assert missed.coins == () and missed.current_player == 0
    state, figures = counted(state, "lookout 2", "draw crowns-line")
    assert state.coin_at(coin("crowns-line")) == (4, 1)
    assert figures["sightings"] == 1


def test_no_sighting_when_the_tile_holds_a_ship_or_staying_on_the_tile() -> None:
    game = sea_game(PAIR)
    state = position(game, (2, 2), faces=UP, winds=WIND, coins={"arms-ketch": (4, 1)})
    state = run(state, "sail E")
    assert state.sight == -1 and state.current_player == 0
    state = position(game, (1, 2), faces=UP, winds=WIND)
    assert run(state, "sail E").current_player == 0  # same tile: no lookout


# --- PR-6 combat -------------------------------------------------------------------------------
def test_losing_costs_crew_notoriety_booty_and_downgrades_the_ship() -> None:
    game = sea_game(PAIR)
    # a brig (4 crew) attacks a galleon and loses: 2 + 4 + 0 = 6 < 4 + 3 + 5 = 12
    state = position(game, (2, 1), ship=2, crew=4, notoriety=3, booty=3, faces=UP, winds=WIND,
                     coins={"arms-galleon": (3, 1)})
    state, figures = counted(state, "sail E", "dice suns=5 arms=0")
    assert (state.crew, state.ship, state.notoriety, state.booty) == (3, 1, 2, 0)
    assert (figures["combats_lost"], figures["combats_won"], figures["booty_lost"]) == (1, 0, 3)
    assert state.coin_at(coin("arms-galleon")) == (3, 1)  # the winner stays
    # sailing continues after combat while steps remain
    assert state.phase is Phase.SAIL and "sail E" in texts(state)


def test_win_with_negative_net_booty_never_goes_below_zero() -> None:
    game = sea_game(PAIR)
    state = position(game, (2, 1), ship=1, crew=5, booty=2, faces=UP, winds=WIND, coins={"arms-sloop": (3, 1)})
    state = run(state, "sail E", "dice suns=0 arms=1")  # 1*(0+0) - 5 = -5
    assert state.booty == 0 and state.notoriety == 1 and state.coins == ()


def test_standoff_changes_nothing() -> None:
    game = sea_game(PAIR)
    state = position(game, (2, 1), ship=1, crew=3, notoriety=1, booty=4, faces=UP, winds=WIND,
                     coins={"arms-brig": (3, 1)})
    after, figures = counted(state, "sail E", "dice suns=1 arms=0")  # 1+3+0 = 4 = 2+1+1
    assert (after.crew, after.notoriety, after.booty, figures["standoffs"]) == (3, 1, 4, 1)
    assert after.coin_at(coin("arms-brig")) == (3, 1)


def test_several_ships_fight_one_at_a_time_in_the_players_order() -> None:
    game = sea_game(PAIR)
    state = position(game, (2, 1), ship=3, crew=7, faces=UP, winds=WIND,
                     coins={"arms-sloop": (3, 1), "suns-brig": (3, 1)})
    state = run(state, "sail E")
    assert texts(state) == ["fight arms-sloop", "fight suns-brig"]
    with pytest.raises(IllegalActionError, match="PR-6"):
        run(state, "sail E")
    state = run(state, "fight suns-brig", "dice suns=0 arms=5")
    assert state.combat == coin("arms-sloop")  # the last one follows without asking


def test_losing_the_last_sloop_crew_leaves_the_pirate_shipless_and_drowning() -> None:
    game = sea_game(PAIR)
    state = position(game, (2, 1), ship=0, crew=1, booty=1, faces=UP, winds=WIND,
                     coins={"arms-line": (3, 1), "suns-line": (3, 1)})
    state = run(state, "sail E", "fight arms-line", "dice suns=5 arms=0")
    assert state.ship == T.NO_SHIP and state.crew == 0 and state.fights == ()
    # cannot afford a sloop and a crew (5): drowned at the end of the turn (PR-9)
    assert state.is_terminal() and state.drowned
    assert state.scores() == [1.0]  # ship 0, no booty product, one turn completed


# --- PR-7 is in test_pirates_movement.py; PR-8 bury and retrieve ----------------------------------
def test_bury_retrieve_and_the_chest_rules() -> None:
    game = sea_game(PAIR)
    state = position(game, (1, 1), ship=1, crew=3, booty=60, faces=UP, winds=WIND, phase="bury")
    sites = {t.split(" at ")[1] for t in texts(state) if t.startswith("bury")}
    assert sites == {"1,0", "0,1"}
    assert "done" in texts(state) and not any(t.startswith("retrieve") for t in texts(state))
    assert "WARNING: 10 booty over 50" in describe(state, DONE)
    state = run(state, "bury 20 at 1,0")
    assert (state.booty, state.buried, state.chest) == (40, 20, (1, 0))
    assert "retrieve 20" in texts(state) and not any(t.startswith("bury") for t in texts(state))
    with pytest.raises(IllegalActionError, match="PR-13"):
        run(state, "bury 5 at 1,0")  # once a step
    state = run(state, "retrieve 5")
    assert (state.booty, state.buried, state.phase) == (45, 15, Phase.UPGRADE)
    # burying elsewhere loses the old chest, with a warning first
    later = position(game, (2, 2), ship=1, crew=3, booty=10, buried=15, chest=(1, 0), faces=UP, winds=WIND,
                     phase="bury")
    assert "WARNING: the 15 booty buried at 1,0 is lost" in describe(later, Bury(4, (2, 3)))
    later, figures = counted(later, "bury 4 at 2,3")
    assert (later.buried, later.chest, figures["booty_lost"]) == (4, (2, 3), 15)


def test_booty_over_fifty_is_lost_after_the_bury_step() -> None:
    game = sea_game(PAIR)
    state = position(game, (2, 1), ship=1, crew=3, booty=58, faces=UP, winds=WIND, phase="bury")
    state, figures = counted(state, "done")
    assert state.booty == 50 and figures["booty_lost"] == 8


# --- PR-9 upgrades ---------------------------------------------------------------------------------
def test_refit_prices_trade_in_no_change_and_no_dismissal() -> None:
    assert T.refit_cost(1, 5, 2, 5) == 3  # ketch -> brig with the same 5 crew
    assert T.refit_cost(3, 5, 1, 5) == 0  # a smaller ship: no change given
    assert T.refit_cost(3, 6, 1, 5) is None  # crew are never dismissed
    assert T.refit_cost(0, 3, 4, 6) is None  # a galleon needs 7 crew
    assert T.refit_cost(2, 4, 2, 6) == 6  # two crew
    game = sea_game(PAIR)
    state = position(game, (2, 1), ship=1, crew=5, booty=3, faces=UP, winds=WIND, phase="upgrade")
    assert texts(state) == ["buy brig 5", "keep"]  # a sloop cannot carry 5 crew; nothing else is affordable
    with pytest.raises(IllegalActionError, match="PR-9"):
        run(state, "buy brig 6")


def test_shipless_pirate_who_can_pay_buys_a_new_ship() -> None:
    game = sea_game(PAIR)
    state = position(game, (2, 1), ship=T.NO_SHIP, crew=0, booty=6, faces=UP, winds=WIND, phase="upgrade")
    assert "buy sloop 1" in texts(state)
    assert "WARNING: shipless" in describe(state, KEEP)
    state = run(state, "buy sloop 1")
    assert (state.ship, state.crew, state.booty, state.phase) == (0, 1, 1, Phase.END)


# --- PR-10 the end -----------------------------------------------------------------------------------
def test_must_retire_after_the_last_turn_and_turns_count() -> None:
    game = sea_game(PAIR, turns=3)
    state = position(game, (2, 1), ship=1, crew=4, booty=4, buried=5, notoriety=2, faces=UP, winds=WIND,
                     turn=2, phase="end")
    assert texts(state) == ["continue", "retire"]
    state = run(state, "continue")
    assert state.turn == 3 and state.phase is Phase.SAIL
    state = run(state, "stop", "done", "keep")
    assert state.is_terminal() and not state.drowned
    assert state.scores() == [1 * 4 + 5 * 4 * 2 + 3]


# --- added rulings ---------------------------------------------------------------------------------
def test_pr11_wind_is_used_only_when_it_helps() -> None:
    # a chasing galleon two spaces east of the pirate on the same row: W reaches
    # distance 1; with wind SW, W then SW does not beat it, so no diagonal is taken
    game = sea_game(PAIR)
    state = position(game, (2, 1), ship=1, crew=3, faces=UP, winds={(1, 1): "SW", (3, 1): "SW"},
                     coins={"arms-galleon": (4, 1)})
    state = run(state, "stop")
    assert state.coin_at(coin("arms-galleon")) == (3, 1)


def test_pr12_no_lookout_when_the_bag_is_empty() -> None:
    game = sea_game(PAIR)
    everyone = {T.coin_name(c): (4, 2) for c in range(T.NUM_COINS)}
    state = position(game, (1, 2), ship=1, crew=3, faces={(1, 1): "suns-null"}, winds={(1, 1): "NE"})
    state = state.evolve(coins=tuple(sorted((coin(k), v) for k, v in everyone.items())))
    state = run(state, "sail N", "sail E")
    assert state.bag == () and state.sight == -1


def test_pr13_one_bury_and_one_retrieve_per_step() -> None:
    game = sea_game(PAIR)
    state = position(game, (1, 1), ship=1, crew=3, booty=10, buried=10, chest=(1, 0), faces=UP, winds=WIND,
                     phase="bury")
    state = run(state, "retrieve 10")
    assert not any(t.startswith("retrieve") for t in texts(state))
    with pytest.raises(IllegalActionError, match="PR-13"):
        run(state, "retrieve 1")
    state = run(state, "bury 3 at 0,1")
    assert state.phase is Phase.UPGRADE  # nothing more to do in this step: it ends by itself
    # burying more than is aboard breaks PR-8
    with pytest.raises(IllegalActionError, match="PR-8"):
        run(position(game, (1, 1), booty=2, faces=UP, winds=WIND, phase="bury"), "bury 3 at 0,1")


def test_pr14_returns_count_a_win_at_the_goal() -> None:
    game = sea_game(PAIR, goal=10)
    state = position(game, (2, 1), ship=1, crew=3, booty=1, buried=1, notoriety=1, faces=UP, winds=WIND,
                     turn=4, phase="end")
    assert run(state, "retire").returns() == [-1.0]  # 3 + 1 + 4 = 8 < 10
    state = position(game, (2, 1), ship=1, crew=5, booty=1, buried=1, notoriety=1, faces=UP, winds=WIND,
                     turn=4, phase="end")
    assert run(state, "retire").returns() == [1.0]  # 5 + 1 + 4 = 10


def test_unreadable_texts_name_the_problem() -> None:
    game = sea_game(PAIR)
    state = position(game, (2, 1), faces=UP, winds=WIND)
    for bad, why in [("sail up", "not a direction"), ("fight pirates-brig", "not a ship coin"),
                     ("bury x at 1,0", "not a whole number"), ("dance", "unknown verb"), ("sail", "takes 1")]:
        with pytest.raises(InvalidActionError, match=why):
            game.parse_action(state, bad)


def test_short_keys_for_the_player() -> None:
    game = sea_game(PAIR)
    state = position(game, (2, 1), faces=UP, winds=WIND)
    assert game.parse_action(state, "e") == Sail("E")
    assert game.parse_action(state, "NE") == Sail("NE")
    flipped = run(position(game, (2, 1), faces={(1, 1): "suns-null"}, winds={(1, 1): "NE"}), "sail E", "flip arms-2")
    assert game.parse_action(flipped, "sw") == Wind("SW")
    setup = run(game.new_initial_state(), "dice suns=0 arms=0", "buy sloop 1")
    assert game.parse_action(setup, "1,2") == Place((1, 2))
    with pytest.raises(InvalidActionError):
        game.parse_action(state, "1,2")  # no space key while sailing
