"""The root search (``mcts:root=AGENT``): paired rollouts, base move kept unless clearly beaten."""

import random

import pytest

import plunder
from plunder.agents import make_agent
from plunder.agents.improve import Arm, RootSearch
from plunder.agents.mcts import RolloutEvaluator
from plunder.match import hint_lines
from plunder.core.game import Action, State

from tests.agents.toy_games import STEP, race


class Always:
    """A base policy that always adds ``step``."""

    name = "always"

    def __init__(self, step: int) -> None:
        self.step = step

    def choose(self, state: State, rng: random.Random) -> Action:
        return STEP[self.step]


def at_five_of_six() -> State:
    game = race(1, target=6)
    state = game.new_initial_state().apply(STEP[2]).apply(STEP[1]).apply(STEP[2]).apply(STEP[0])
    assert state.totals == (5,)
    return state


def test_clearly_better_move_replaces_the_base_move() -> None:
    """Alone at 5 of 6, +2 overshoots and loses for sure; +1 wins: every paired rollout says so."""
    state = at_five_of_six()
    search = RootSearch(Always(2), RolloutEvaluator(1, Always(1)), sims=40)
    assert search.choose(state, random.Random(0)) == STEP[1]


def test_base_move_kept_on_too_few_pairs() -> None:
    """Three pairs that agree have no spread, but are too few to leave the base policy on."""
    state = at_five_of_six()
    search = RootSearch(Always(2), RolloutEvaluator(1, Always(1)), sims=6)
    assert search.choose(state, random.Random(0)) == STEP[2]


def test_base_move_kept_when_nothing_is_clear() -> None:
    """From the start of a race both moves do about as well: the base move stays."""
    game = race(1, target=6)
    search = RootSearch(Always(2), RolloutEvaluator(1), sims=60, z=3.0)
    assert search.choose(game.new_initial_state(), random.Random(0)) == STEP[2]


def test_gain_is_the_mean_paired_difference() -> None:
    arm = Arm(1, [1.0, 1.0, -1.0], [2.0, 0.0, 0.0])
    mean, se = arm.gain()
    assert mean == pytest.approx(2 / 3)
    assert se == pytest.approx((4 / 3 / 3) ** 0.5)
    assert Arm(1, [1.0], [2.0]).gain()[1] == float("inf")


def test_same_seed_same_game() -> None:
    game = plunder.load_game("profiteer")
    spec = "mcts:root=profit,sims=12"
    assert plunder.play(game, [spec], seed=4) == plunder.play(game, [spec], seed=4)


def test_analyse_lists_the_chosen_move_first() -> None:
    state = at_five_of_six()
    search = RootSearch(Always(2), RolloutEvaluator(1, Always(1)), sims=40)
    rows = search.analyse(state, random.Random(0))
    assert rows[0][0] == STEP[1] and "(20 trials, all about the same)" in rows[0][1]


def test_playouts_all_alike_give_their_value_not_an_interval_of_nothing() -> None:
    # issue 41: Hubs' hint said "± 0.00 from 66 trials" for playouts with no chance in them,
    # which reads as certainty about the move; the figure is the playouts' value, said so
    state = at_five_of_six()
    search = RootSearch(Always(2), RolloutEvaluator(1, Always(1)), sims=40)
    rows = dict(search.analyse(state, random.Random(0)))
    assert rows[STEP[1]] == ("+1.00, the value always's playouts after it reach (20 trials, all about the same), "
                             "+2.00 in every pairing over always's move")
    assert rows[STEP[2]] == "-1.00, the value always's playouts after it reach (20 trials, all about the same), always's move"
    assert not any("±" in said for said in rows.values())


@pytest.mark.parametrize("game_id", ["pillage", "pirates", "hubs", "profiteer", "crossroads"])
def test_root_search_plays_every_game(game_id: str) -> None:
    game = plunder.load_game(game_id)
    agent = make_agent("mcts:root=greedy,sims=6,depth=6", game)
    if game_id == "hubs":
        # every legal segment is a candidate there (hundreds): too slow for a unit test
        assert isinstance(agent, RootSearch)
        return
    state = game.new_initial_state()
    rng = random.Random(0)
    decisions = 0
    while not state.is_terminal() and decisions < 3:
        if state.current_player < 0:
            state = state.apply(state.legal_actions()[0])
            continue
        state = state.apply(agent.choose(state, rng))
        decisions += 1


def test_root_options_are_checked() -> None:
    game = plunder.load_game("profiteer")
    assert isinstance(make_agent("mcts:root=profit,z=1.5", game), RootSearch)
    with pytest.raises(plunder.ParameterError, match="base policy must be a fast agent"):
        make_agent("mcts:root=mcts", game)
    with pytest.raises(plunder.ParameterError, match="unknown agent"):
        make_agent("mcts:root=nobody", game)
    with pytest.raises(plunder.ParameterError, match="option z='-1' is not allowed: -1 must be at least 0"):
        make_agent("mcts:root=profit,z=-1", game)



class Told:
    """An analyst that tells the first two legal moves with the words it was given."""

    name = "told"

    def __init__(self, *details: str) -> None:
        self.details = details

    def choose(self, state: State, rng: random.Random) -> Action:
        return state.legal_actions()[0]

    def analyse(self, state: State, rng: random.Random) -> list[tuple[Action, str]]:
        return list(zip(state.legal_actions(), self.details))


def test_a_hint_promises_an_interval_only_where_a_move_has_one() -> None:
    state = plunder.load_game("profiteer").new_initial_state()
    alike = "+1.00, the value greedy's playouts after it reach (20 trials, all about the same)"
    lines = hint_lines(Told(alike, alike), state, random.Random(0))
    assert lines[0] == "Hint (told): best moves found (-1 losing .. +1 winning)", lines
    lines = hint_lines(Told(alike, "+0.50 ± 0.10 from 20 trials"), state, random.Random(0))
    assert lines[0] == "Hint (told): best moves found (-1 losing .. +1 winning; ± a 95% interval)", lines
