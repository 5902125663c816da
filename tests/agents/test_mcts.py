"""The generic MCTS agent: chance, any number of players, determinism, reuse, options."""

import random

import pytest

import plunder
from plunder.agents import make_agent
from plunder.agents.base import split_specs
from plunder.agents.improve import RootSearch
from plunder.agents.mcts import MCTSAgent, Node, RolloutEvaluator
from plunder.core.conformance import check_game
from plunder.simulate import simulate

from tests.agents.toy_games import STEP, RaceState, race


def test_toy_game_is_itself_sound() -> None:
    for players in (1, 2, 3):
        check_game(race(players), playthroughs=20)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_seat_values_its_own_return(players: int) -> None:
    """In a race, +2 is always better for the mover, whichever seat it is."""
    game = race(players, target=8)
    state = game.new_initial_state()
    agent: MCTSAgent[RaceState] = MCTSAgent(game, sims=400, evaluator=RolloutEvaluator(2), reuse=False)
    for seat in range(players):
        assert state.current_player == seat
        assert agent.choose(state, random.Random(seat)) == STEP[2]
        state = state.apply(STEP[1]).apply(STEP[0])  # seat adds 1, chance adds 0


def test_one_player_aims_for_the_exact_target() -> None:
    """Alone at 5 of 6: +2 overshoots to 7 and loses; +1 hits 6 and wins."""
    game = race(1, target=6)
    state = game.new_initial_state().apply(STEP[2]).apply(STEP[1]).apply(STEP[2]).apply(STEP[0])
    assert state.totals == (5,)
    agent: MCTSAgent[RaceState] = MCTSAgent(game, sims=800, evaluator=RolloutEvaluator(1), reuse=False)
    assert agent.choose(state, random.Random(0)) == STEP[1]


def test_same_seed_same_choices() -> None:
    game = plunder.load_game("pillage", preset="small")
    a = plunder.play(game, ["mcts:sims=60", "random"], seed=3)
    b = plunder.play(game, ["mcts:sims=60", "random"], seed=3)
    assert a == b


def test_tree_is_reused_between_moves() -> None:
    game = plunder.load_game("pillage", board="square:2x2", contents="unit")
    agent = make_agent("mcts:sims=300,tree=python", game)  # the tree in Python: its nodes are objects
    assert isinstance(agent, MCTSAgent)
    state = game.new_initial_state()
    rng = random.Random(1)
    action = agent.choose(state, rng)
    assert agent.root is not None
    after = state.apply(action)
    assert after.current_player == 1  # a first line closes no box: the opponent replies
    # the reply the search expected most: its subtree is there to be found two plies down
    reply, kept = max(agent.root.children[action].children.items(), key=lambda item: item[1].visits)
    assert kept.visits > 0
    target = after.apply(reply)
    # the same lines drawn in the other order make an equal position two plies down: the
    # search may keep either node, whichever it meets first
    equal = [n for child in agent.root.children.values() for n in child.children.values() if n.state == target]
    visits = {id(n): n.visits for n in equal}
    root = agent.search(target, rng)
    assert id(root) in visits and root.visits == visits[id(root)] + 300


def test_mcts_beats_random_on_pillage() -> None:
    result = simulate("pillage", {"board": "square:3x3", "contents": "random"}, ["mcts:sims=200", "random"], 6)
    assert result.tallies["mcts:sims=200"].wins >= 5


def test_bad_options_are_named() -> None:
    game = plunder.load_game("pillage")
    with pytest.raises(plunder.ParameterError, match="agent mcts has no option 'width'"):
        make_agent("mcts:width=3", game)
    with pytest.raises(plunder.ParameterError, match="agent mcts option scale='0' is not allowed: 0 must be above 0"):
        make_agent("mcts:scale=0", game)
    with pytest.raises(plunder.ParameterError, match="sims='abc'"):
        make_agent("mcts:sims=abc", game)
    with pytest.raises(plunder.ParameterError, match="eval='magic'"):
        make_agent("mcts:eval=magic", game)
    agent = make_agent("mcts:seconds=0.05,eval=greedy,rollouts=1", game)
    assert isinstance(agent, MCTSAgent) and agent.seconds == 0.05 and agent.sims is None


def test_agent_lists_keep_each_specs_options() -> None:
    assert split_specs("mcts:sims=40,c=0.7,greedy, random") == ["mcts:sims=40,c=0.7", "greedy", "random"]
    assert split_specs("greedy,mcts:eval=greedy,sims=5") == ["greedy", "mcts:eval=greedy,sims=5"]


def test_cut_rollouts_value_positions_by_scores() -> None:
    from plunder.agents.mcts import score_values

    assert score_values([10.0, 4.0, 10.0], 5.0) == [0.0, pytest.approx(-0.8337, abs=1e-4), 0.0]
    assert score_values([5.0], 5.0) == [0.0]
    game = race(3, target=12)
    agent: MCTSAgent[RaceState] = MCTSAgent(game, sims=300, evaluator=RolloutEvaluator(2, depth=4, scale=3.0), reuse=False)
    assert agent.choose(game.new_initial_state(), random.Random(0)) == STEP[2]


@pytest.mark.parametrize("game_id", plunder.game_ids())
def test_mcts_plays_every_game(game_id: str) -> None:
    """One search on each game's first decision: a legal action comes back, twice the same."""
    from plunder.core.chance import sample_chance

    game = plunder.load_game(game_id)
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.current_player == plunder.CHANCE:
        state = state.apply(sample_chance(state, rng))
    picks = [make_agent("mcts:sims=8,depth=6", game).choose(state, random.Random(1)) for _ in range(2)]
    assert picks[0] == picks[1] and picks[0] in state.legal_actions()


def test_best_child_is_uct_over_the_child_statistics() -> None:
    """Child 0: 8 of 10 visits' worth; child 1: nothing in 2. Exploitation picks 0, exploration 1."""
    node = Node(race(2).new_initial_state(), 2)
    assert len(node.open()) == 2
    node.child_visits[:] = [10, 2]
    node.child_return[:] = [8, 0]
    node.visits = 12
    assert node.best_child(0.0) == 0
    assert node.best_child(10.0) == 1
    node.virtual_losses = 3  # batch paths in flight count towards the parent's visits too
    assert node.best_child(0.0) == 0


def test_root_search_names_itself() -> None:
    game = plunder.load_game("profiteer")
    assert RootSearch.name == "root-search" and MCTSAgent.name == "mcts"
    assert make_agent("mcts:root=profit,sims=8", game).name == "mcts:root=profit,sims=8"


def test_best_child_agrees_with_the_vector_formula_it_replaced() -> None:
    """Issue 25: the statistics moved from numpy arrays to lists for speed; the choice must stay
    argmax((returns + explore * sqrt(visits)) / visits), first of equals, bit for bit."""
    import math

    import numpy as np

    rng = random.Random(5)
    node = Node(race(2).new_initial_state(), 2)
    node.open()
    for trial in range(300):
        k = rng.randint(1, 40)
        visits = [rng.randint(1, 50) for _ in range(k)]
        returns = [rng.choice([float(rng.randint(-v, v)), rng.uniform(-v, v)]) for v in visits]
        if trial % 3 == 0:  # ties: the first of equal values must win
            visits, returns = visits[:1] * k, returns[:1] * k
        node.child_visits[:], node.child_return[:] = visits, returns
        node.visits, node.virtual_losses = sum(visits), rng.randint(0, 5)
        c = rng.choice([0.0, 1.0, 2.0])
        explore = c * math.sqrt(math.log(node.visits + node.virtual_losses))
        tried = np.array(visits, dtype=float)
        expected = int(((np.array(returns) + explore * np.sqrt(tried)) / tried).argmax())
        assert node.best_child(c) == expected
