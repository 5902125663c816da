"""The greedy captain: hunts smaller ships, flees bigger ones, buries, refits, retires."""

from __future__ import annotations

import random
import statistics

import pytest

import plunder
from plunder.agents import make_agent
from plunder.match import play
from plunder.games.pirates.actions import CONTINUE, RETIRE, STOP, Bury
from plunder.games.pirates.agents import GreedyCaptain
from plunder.games.pirates.rules import Phase, PiratesGame

from tests.games.pirates.pirates_helpers import coin, position, sea_game

# 3 x 2 tiles, all face-up with wind NE:
#
#      0 1 2 3 4 5 6 7
#   0  # # # # # # # #
#   1  # . . . . . . #
#   2  # . . . . . . #
#   3  # . . . . . . #
#   4  # . . . . . . #
#   5  # # # # # # # #
BLOCK = [(1, 1), (3, 1), (5, 1), (1, 3), (3, 3), (5, 3)]
UP = {o: "suns-null" for o in BLOCK}
NE = {o: "NE" for o in BLOCK}


def test_hunts_a_smaller_ship_in_reach() -> None:
    #   3  # . . P . s . #     a galleon with 7 crew; a suns frigate two spaces east
    # (a sloop would hardly pay: the crew's share eats its booty)
    game = sea_game(BLOCK)
    state = position(game, (3, 3), ship=4, crew=7, faces=UP, winds=NE, coins={"suns-frigate": (5, 3)})
    captain = GreedyCaptain()
    rng = random.Random(0)
    while state.current_player == 0 and state.phase is Phase.SAIL:
        state = state.apply(captain.choose(state, rng))
    assert state.combat == coin("suns-frigate")  # it sailed onto the sloop within this sail


def test_flees_a_bigger_ship() -> None:
    #   3  # . . . . P L #     a sloop beside a ship of the line: it must not stay
    game = sea_game(BLOCK)
    state = position(game, (5, 3), ship=0, crew=1, faces=UP, winds=NE, coins={"arms-line": (6, 3)})
    captain = GreedyCaptain()
    rng = random.Random(0)
    while state.phase is Phase.SAIL and state.current_player == 0:
        action = captain.choose(state, rng)
        if action == STOP:
            break
        state = state.apply(action)
    assert state.pos is not None
    # wherever it ended, the line cannot be forced onto it
    from plunder.games.pirates.moves import ship_destinations
    assert ship_destinations(game.sea, state.winds, (6, 3), state.pos, flee=False) != [state.pos]


def test_balances_buried_and_aboard_on_the_last_turn() -> None:
    game = sea_game(BLOCK, turns=5)
    state = position(game, (1, 1), ship=1, crew=3, notoriety=2, booty=30, buried=0, faces=UP, winds=NE,
                     turn=5, phase="bury")
    action = GreedyCaptain().choose(state, random.Random(0))
    assert isinstance(action, Bury) and action.amount == 15


def test_retires_when_cornered() -> None:
    # a lone sloop with one crew in the corner of a small sea, two ships of the line
    # beside it: every end of its next sail is either a fight or a place a line reaches
    #      0 1 2 3 4 5
    #   1  # P L . . #
    #   2  # . L . . #
    game = sea_game([(1, 1), (3, 1)])
    up = {(1, 1): "suns-null", (3, 1): "moons-null"}
    state = position(game, (1, 1), ship=0, crew=1, booty=5, buried=5, notoriety=1, faces=up,
                     winds={(1, 1): "SE", (3, 1): "SE"}, coins={"arms-line": (2, 1), "suns-line": (2, 2)},
                     phase="end", turn=3)
    captain = GreedyCaptain()
    assert captain.cornered(state)
    assert captain.choose(state, random.Random(0)) == RETIRE
    # with the lines gone it sails on
    free = position(game, (1, 1), ship=0, crew=1, booty=5, buried=5, notoriety=1, faces=up,
                    winds={(1, 1): "SE", (3, 1): "SE"}, phase="end", turn=3)
    assert captain.choose(free, random.Random(0)) == CONTINUE


def test_banks_the_goal_when_told() -> None:
    # the free sloop of the test above: retiring now scores 0 x 1 + 5 x 5 x 1 + 3 turns = 28 (PR-10)
    #      0 1 2 3 4 5
    #   1  # P . . . #
    #   2  # . . . . #
    for goal, banked in ((28, RETIRE), (29, CONTINUE)):
        game = sea_game([(1, 1), (3, 1)], goal=goal)
        up = {(1, 1): "suns-null", (3, 1): "moons-null"}
        free = position(game, (1, 1), ship=0, crew=1, booty=5, buried=5, notoriety=1, faces=up,
                        winds={(1, 1): "SE", (3, 1): "SE"}, phase="end", turn=3)
        assert free.apply(RETIRE).score() == 28
        assert GreedyCaptain(bank=True).choose(free, random.Random(0)) == banked
        assert GreedyCaptain().choose(free, random.Random(0)) == CONTINUE
    assert make_agent("greedy:bank=true", game).bank  # type: ignore[attr-defined]


def test_agent_options_are_checked() -> None:
    game = PiratesGame.load()
    assert isinstance(make_agent("greedy:caution=2", game), GreedyCaptain)
    with pytest.raises(plunder.ParameterError, match="not a number"):
        make_agent("greedy:caution=lots", game)
    with pytest.raises(plunder.ParameterError, match="agent greedy has no option 'speed'; its options are: bank, caution, explore"):
        make_agent("greedy:speed=3", game)


def test_greedy_outscores_random() -> None:
    game = PiratesGame.load(layout="block")
    greedy = [play(game, ["greedy"], seed=s).scores[0] for s in range(12)]  # type: ignore[index]
    rand = [play(game, ["random"], seed=s).scores[0] for s in range(12)]  # type: ignore[index]
    assert statistics.mean(greedy) > 3 * statistics.mean(rand)
