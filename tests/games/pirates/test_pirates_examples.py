"""Every worked example of the rule text (seed 001), reproduced exactly (PR-10)."""

from __future__ import annotations

import pytest

import plunder
from plunder.match import observer_of
from plunder.games.pirates import tables as T
from plunder.games.pirates.rules import Phase, PiratesGame, PiratesState

from tests.games.pirates.pirates_helpers import coin, counted, face, position, run, sea_game, texts


def fresh() -> PiratesState:
    state = PiratesGame.load(layout="block").new_initial_state()
    assert isinstance(state, PiratesState)
    return state


def test_double_null_gives_five_booty_and_only_a_minimal_sloop() -> None:
    # "a double null, which leaves you with only five booty ... a sloop for two booty,
    # and a single crew to man it for three booty"
    state = run(fresh(), "dice suns=0 arms=0")
    assert state.booty == 5
    assert texts(state) == ["buy sloop 1"]
    state = run(state, "buy sloop 1")
    assert (state.ship, state.crew, state.booty, state.phase) == (0, 1, 0, Phase.PLACE)


def test_minimal_ketch_costs_fourteen() -> None:
    # "a ketch for five booty, and three crew to man it for three booty each ... fourteen"
    state = run(fresh(), "dice suns=4 arms=5")
    assert state.booty == 14
    assert "buy ketch 3" in texts(state) and "buy ketch 4" not in texts(state)
    state = run(state, "buy ketch 3")
    assert (state.ship, state.crew, state.booty) == (1, 3, 0)
    assert T.refit_cost(-1, 0, 0, 1) == 5 and T.refit_cost(-1, 0, 1, 3) == 14


# The ketch example, drawn on two tiles side by side (x across, y down):
#
#      0 1 2 3 4 5
#   0  # # # # # #
#   1  # . K ? ? #      K = the pirate ketch on tile (1,1), face-up
#   2  # . . ? ? #      ? = the face-down tile (3,1), revealed as the four of arms
#   3  # # # # # #
#
# The ketch sails east into (3,1): the tile is the four of arms and the wind is set
# to NE; the lookout rolls a three (<= 4): a suns brig appears diagonally opposite, at
# (4,2). The ketch sails on to the NE quadrant (4,1) to lie in wait; the brig (2 > 1)
# chases one space north and the combat is 1 + 5 crew + 5 = 11 against 2 + 4
# notoriety + 1 = 7. Booty 5 x (2 + 1) - 5 = 10; notoriety 4 -> 5; the brig goes back
# to the bag. Then the brig upgrade costs 8 - 5 = 3.
def test_ketch_sights_and_beats_the_suns_brig_then_upgrades_for_three() -> None:
    game = sea_game([(1, 1), (3, 1)])
    state = position(game, (2, 1), ship=1, crew=5, notoriety=4, booty=0)
    state = run(state, "sail E")
    assert state.current_player == plunder.CHANCE and state.flip == 1
    state = run(state, "flip arms-4")
    assert texts(state) == ["wind NE", "wind SE", "wind SW", "wind NW"]
    state = run(state, "wind NE", "lookout 3", "draw suns-brig")
    assert state.coins == ((coin("suns-brig"), (4, 2)),)
    assert state.faces[1] == face("arms-4")
    # moving within the same tile rolls no lookout (PR-5)
    state = run(state, "sail E")
    assert state.pos == (4, 1) and state.current_player == plunder.CHANCE and state.combat == coin("suns-brig")
    assert state.coin_at(coin("suns-brig")) == (4, 1)  # it chased north
    state, figures = counted(state, "dice suns=1 arms=5")
    assert (state.notoriety, state.booty, figures["combats_won"]) == (5, 10, 1)
    assert coin("suns-brig") in state.bag and state.coins == ()
    assert state.phase is Phase.BURY
    state = run(state, "done")
    assert "buy brig 5" in texts(state) and "buy frigate 5" in texts(state)
    assert T.refit_cost(1, 5, 3, 5) == 8  # the frigate: 13 - 5
    state = run(state, "buy brig 5")
    assert (state.ship, state.crew, state.booty) == (2, 5, 7)


def test_retiring_frigate_scores_637() -> None:
    # 16 turns, frigate with 7 crew, 5 aboard, 15 buried, notoriety 8
    game = sea_game([(1, 1), (3, 1)])
    state = position(game, (1, 1), ship=3, crew=7, notoriety=8, booty=5, buried=15, chest=(0, 1),
                     turn=16, phase="end")
    state = run(state, "retire")
    assert state.is_terminal()
    assert state.scores() == [637.0]
    assert observer_of(game).stats(state)["turns"] == 16.0


@pytest.mark.parametrize("suns,arms", [(0, 0), (5, 5), (2, 3)])
def test_starting_booty_is_dice_plus_five(suns: int, arms: int) -> None:
    assert run(fresh(), f"dice suns={suns} arms={arms}").booty == suns + arms + 5
