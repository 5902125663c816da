"""Pirates narration and the score breakdown, on the text's worked examples and on played games."""

from __future__ import annotations

import pytest

from plunder.agents import make_agent
from plunder.core.registry import load_game
from plunder.games.pirates import ENTRY
from plunder.games.pirates import tables as T
from plunder.games.pirates.narrate import breakdown, narrate
from plunder.games.pirates.rules import Phase, PiratesGame, PiratesState

from tests.games.narration import moves, played, told

from tests.games.pirates.pirates_helpers import position, run, sea_game


def test_starting_booty_and_the_purchase() -> None:
    state = PiratesGame.load(layout="block").new_initial_state()
    _, said = told(narrate, state, "dice suns=0 arms=0", "buy sloop 1")
    assert said == ["Starting booty: suns 0 + arms 0 + 5 = 5", "You bought a sloop with 1 crew for 5 booty (0 left)"]


def test_the_ketch_and_the_suns_brig() -> None:
    # the text's example (test_pirates_examples draws the sea): the ketch enters the four of
    # arms, sights a suns brig, lies in wait; the brig chases and loses 11 v 7 for 10 booty
    game = sea_game([(1, 1), (3, 1)])
    state = position(game, (2, 1), ship=1, crew=5, notoriety=4, booty=0)
    state, said = told(narrate, state, "sail E", "flip arms-4", "wind NE", "lookout 3", "draw suns-brig", "sail E",
                       "dice suns=1 arms=5", "done", "buy brig 5")
    assert said == [
        "You sailed E to 3,1",
        "The tile flips: arms-4 (a ship is sighted here on 4 or less)",
        "You set the tile's wind to NE",
        "Lookout rolled 3 (tile value 4): a ship is sighted",
        "It is the suns brig, at 4,2 (bigger than you: it will chase)",
        "You sailed E to 4,1; the suns brig sails to 4,1; a fight with the suns brig!",
        "You beat the suns brig (11 v 7): notoriety 4→5, booty +10 (5 x (2 + 1) - 5 crew), aboard 0→10",
        "You finished burying",
        "You refitted to a brig with 5 crew for 3 booty (7 left)",
    ]


def test_a_lost_fight_and_a_quiet_lookout() -> None:
    # a sloop with 2 crew and 3 booty meets the suns brig: 0 + 2 + 5 = 7 against 2 + 4 + 5 = 11
    game = sea_game([(1, 1), (3, 1)])
    state = position(game, (2, 1), ship=0, crew=2, notoriety=4, booty=3)
    state, said = told(narrate, state, "sail E", "flip arms-4", "wind NE", "lookout 3", "draw suns-brig", "sail E",
                       "dice suns=5 arms=5")
    assert said[-1] == "You lost the fight to the suns brig (7 v 11): crew 2→1, booty -3, notoriety 4→3"
    state = position(game, (2, 1), ship=0, crew=2, notoriety=4, booty=3)
    _, said = told(narrate, state, "sail E", "flip arms-2", "wind NE", "lookout 5")
    assert said[-1] == "Lookout rolled 5 (tile value 2): nothing sighted"


def test_the_637_point_retirement_taken_apart() -> None:
    game = sea_game([(1, 1), (3, 1)])
    state = position(game, (1, 1), ship=3, crew=7, notoriety=8, booty=5, buried=15, chest=(0, 1),
                     turn=16, phase="end")
    state, said = told(narrate, state, "retire")
    assert said == ["You retired after 16 turns"]
    assert breakdown(state, {})[:4] == [
        "Ship x crew: 3 (frigate) x 7 = 21",
        "Buried x aboard x notoriety: 15 x 5 x 8 = 600",
        "Turns completed: 16",
        "Score: 21 + 600 + 16 = 637 (reaches the goal of 100)",
    ]


def test_every_move_of_played_games_is_told() -> None:
    for preset, seed in (("classic", 1), ("ring", 2), ("channel", 3)):
        game = PiratesGame.load(preset)
        agent = make_agent("greedy", game)
        for state, action, after in moves(game, [agent], seed):
            said = narrate(state, action, after)
            assert said and "\n" not in said and "?" not in said
            state = after
        assert breakdown(state, {})[3].startswith("Score: ") and f"= {state.score()} " in breakdown(state, {})[3]
    assert ENTRY.presentation.narrate is narrate and ENTRY.presentation.breakdown is breakdown


@pytest.mark.parametrize("preset, seed, index, aboard, lost", [(None, 162, 114, "12→55", 5), ("ring", 447, 64, "10→51", 1)])
def test_booty_lost_when_the_bury_step_passes_by_itself(preset: str | None, seed: int, index: int, aboard: str,
                                                          lost: int) -> None:
    # issue 41: a fight won in the other-ships step takes the booty above the hold, the bury
    # step has nothing to offer and passes by itself, and the excess is lost (PR-8)
    before, action, after = played(load_game("pirates", preset), ["greedy"], seed)[index]
    said = narrate(before, action, after)
    assert before.phase is Phase.BURY and after.phase is not Phase.BURY and after.booty == T.HOLD, said
    assert said.startswith("You beat the crowns ship of the line"), said
    assert said.endswith(f"aboard {aboard}; the bury step ends: {lost} booty above the hold's 50 is lost "
                         "(aboard 50)"), said
