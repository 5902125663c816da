"""The ``hard`` level for Pillage: budgets counted in work, so its games replay from their seed."""

import random

import pytest

import plunder
from plunder.agents import make_agent
from plunder.agents.mcts import MCTSAgent
from plunder.games.pillage.actions import Choose, Line, PillageAction
from plunder.games.pillage.hard import DEFAULT_NODES, DEFAULT_SIMS, VALUED_COST, HardAgent
from plunder.games.pillage.rules import PillageGame, PillageState
from plunder.games.pillage.solver import solve


def test_two_games_by_hard_with_one_seed_are_the_same_game() -> None:
    """Issue 12: hard stopped its solver after 5 s of wall time, so a slower machine (or a
    busier moment) could play other moves. Its solver budget now counts positions; this small
    budget makes the solver give up on the first moves and succeed later, both paths taken."""
    game = plunder.load_game("pillage", board="square:2x3", contents="random")
    players = ["pillage-hard:sims=40,nodes=3000", "greedy"]
    first = plunder.play(game, players, seed=11)
    again = plunder.play(plunder.load_game("pillage", board="square:2x3", contents="random"), players, seed=11)
    assert first == again
    assert len(first.moves) > 17


def test_hard_counts_positions_and_its_clock_is_optional() -> None:
    game = plunder.load_game("pillage", preset="small")
    agent = make_agent("hard", game)
    assert isinstance(agent, HardAgent) and agent.nodes == DEFAULT_NODES and agent.seconds is None
    timed = make_agent("pillage-hard:seconds=0.5,nodes=1000", game)
    assert isinstance(timed, HardAgent) and timed.seconds == 0.5 and timed.nodes == 1000
    for bad in ("pillage-hard:seconds=0", "pillage-hard:seconds=soon", "pillage-hard:depth=2"):
        with pytest.raises(plunder.ParameterError):
            make_agent(bad, game)


@pytest.mark.parametrize(("preset", "sims", "chosen"), [("default", DEFAULT_SIMS, 123), ("triangle", DEFAULT_SIMS, 123),
                                                         ("octagon", DEFAULT_SIMS * 40 // 41, 120),
                                                         ("big", DEFAULT_SIMS * 40 // 60, 82)])
def test_hard_searches_fewer_simulations_on_boards_of_more_than_40_lines(preset: str, sims: int, chosen: int) -> None:
    """Issue 38: 7,000 simulations a move took 1.1-1.3 CPU s on 5x5's opening; past the default
    board's 40 lines, ``sims`` buys the same simulation-lines."""
    game = plunder.load_game("pillage", preset=preset)
    agent = make_agent("hard", game)
    assert isinstance(agent, HardAgent) and isinstance(agent.search, MCTSAgent)
    assert agent.search.sims == sims
    assert isinstance(game, PillageGame) and (sims == DEFAULT_SIMS or game.num_edges > 40)
    set_by_hand = make_agent("pillage-hard:sims=123", game)
    assert isinstance(set_by_hand, HardAgent) and isinstance(set_by_hand.search, MCTSAgent)
    assert set_by_hand.search.sims == chosen


@pytest.mark.parametrize(("board", "contents"), [("square:5x6", "unit"), ("square:5x6", "random"),
                                                  ("square:8x8", "random"), ("square:12x12", "random")])
def test_hard_plays_whole_games_on_boards_past_64_lines(board: str, contents: str) -> None:
    """Issue 26: once 22 lines were left, hard's solver failed on every board of more than 64
    lines (OverflowError on unit boards, ValueError on valued ones), so the game aborted. A
    whole game against greedy now ends, and near the end hard's answer is the solver's."""
    game = PillageGame.load(board=board, contents=contents)
    hard = make_agent("pillage-hard:sims=5,rollouts=1,nodes=50000", game)
    greedy = make_agent("greedy", game)
    assert isinstance(hard, HardAgent)
    rng = random.Random(5)
    state = game.new_initial_state()
    proven = ""
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state = state.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        agent = hard if state.current_player == 0 else greedy
        if agent is hard and not proven and len(state.legal_actions()) <= 12:
            (best, proven), = hard.analyse(state, rng)
            assert best == solve(state).best_action
        action = agent.choose(state, rng)
        assert isinstance(action, (Line, Choose))
        state = state.apply(action)
    assert proven.endswith("(proven)")


class _Search:
    """A stand-in for hard's search: records the positions it was asked about."""

    name = "stand-in"

    def __init__(self) -> None:
        self.asked: list[PillageState] = []

    def choose(self, state: PillageState, rng: random.Random) -> PillageAction:
        self.asked.append(state)
        return state.legal_actions()[0]


@pytest.mark.parametrize(("preset", "share"), [("classic", 1), ("small", VALUED_COST)])
def test_the_solver_gives_up_within_its_budget_and_the_search_plays(preset: str, share: int) -> None:
    """Issue 38: hard's solver was allowed 2,000,000 positions a move, 9 s on unit 3x3 and
    20 s on valued boxes at 22 lines left. Its budget is now a tenth of a second's worth per
    kind of box: the solver searches at most that many positions (checked every 4,096) and
    the search plays the move it could not prove."""
    game = PillageGame.load(preset=preset)
    rng = random.Random(3)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.open_lines) > 22:
        choices = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()[:1]
        state = state.apply(rng.choice(choices))
    search = _Search()
    hard = HardAgent(search, nodes=3000)
    assert hard.node_limit(state) == 3000 // share
    action = hard.choose(state, rng)
    assert search.asked == [state] and action == state.legal_actions()[0]
    assert hard.solver_for(state).timer.nodes <= 3000 // share + 4096
    # a whole budget proves the same position's move without the search
    proving = HardAgent(search, nodes=10**8)
    assert proving.choose(state, rng) == solve(state).best_action and search.asked == [state]
