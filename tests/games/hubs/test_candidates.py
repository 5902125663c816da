"""The shortlist the root search weighs in Hubs (``candidates``), and the root search using it."""

import random

import plunder
from plunder.agents import make_agent
from plunder.agents.improve import RootSearch
from plunder.games.hubs import ENTRY
from plunder.games.hubs.actions import Dot, Segment
from plunder.games.hubs.agents import GreedyAgent
from plunder.games.hubs.candidates import WIDTH, candidates
from plunder.games.hubs.rules import HubsState


def positions(seed: int) -> list[HubsState]:
    """Every position of one greedy game on a small sheet."""
    state = plunder.load_game("hubs", width=12, height=9, dots=10).new_initial_state()
    rng = random.Random(seed)
    seen = []
    greedy = GreedyAgent()
    while not state.is_terminal():
        assert isinstance(state, HubsState)
        seen.append(state)
        state = state.apply(greedy.choose(state, rng))
    return seen


def test_candidates_are_a_few_distinct_legal_moves_fixed_by_the_position() -> None:
    for state in positions(1):
        legal = state.legal_actions()
        shortlist = list(candidates(state))
        assert shortlist and len(shortlist) == len(set(shortlist)) <= WIDTH
        assert set(shortlist) <= set(legal)
        assert shortlist == list(candidates(state))


def scores(state: HubsState, segment: object) -> int:
    """What ``segment`` scores for the offense now (HB-4)."""
    assert isinstance(segment, Segment)
    k = state.paper.candidate_id(segment)
    assert k is not None
    a, b = state.paper.ends[k]
    return int(state.degree[a] + state.degree[b])


def test_candidates_follow_the_role() -> None:
    for state in positions(2):
        if state.placing or len(state.legal_actions()) <= WIDTH:
            continue
        worth = [scores(state, s) for s in state.legal_actions()]
        picked = [scores(state, s) for s in candidates(state)]
        # HB-4: the offense's shortlist opens with the best score now, the defense's with the least
        assert picked[0] == (max(worth) if state.current_player == state.offense else min(worth))


def test_placement_candidates_gather_or_spread() -> None:
    # dots at the corners of a 12 x 9 sheet: the offense looks to the middle, the defense away
    #   y 8  d . . . . . . . . . . d
    #     ...          +              (middle 5.5, 4)
    #   y 0  d . . . . . . . . . . .
    state = plunder.load_game("hubs", width=12, height=9, dots=10).new_initial_state()
    for text in ["dot 0,0", "dot 0,8", "dot 11,8"]:
        state = state.apply_text(text)
    assert isinstance(state, HubsState) and state.current_player == state.offense
    middle = list(candidates(state))
    assert all(isinstance(d, Dot) and abs(3 * d.x - 11) + abs(3 * d.y - 16) <= 9 for d in middle)
    state = state.apply(middle[0])
    assert isinstance(state, HubsState) and state.current_player != state.offense
    far = candidates(state)[0]
    assert isinstance(far, Dot) and (far.x, far.y) == (11, 0)


def test_root_search_plays_hubs_from_its_seed() -> None:
    game = plunder.load_game("hubs", width=12, height=9, dots=10)
    agent = make_agent("mcts:root=greedy,sims=24,depth=4,scale=20", game)
    assert isinstance(agent, RootSearch) and agent.candidates is ENTRY.strength.candidates
    for state in positions(3)[::7]:
        move = agent.choose(state, random.Random(5))
        assert move in state.legal_actions()
        assert move == agent.choose(state, random.Random(5))
