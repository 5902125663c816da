"""Scenario tests for every Hubs ruling (HB-1 .. HB-8) and the text's worked example.

Sheets are drawn with y upward; letters are dots in placement order.
"""

import pickle

import pytest

import plunder
from plunder.core.errors import IllegalActionError, InvalidActionError, ParameterError
from plunder.core.game import TERMINAL
from plunder.games.hubs.actions import Dot, Segment
from plunder.games.hubs.rules import HubsState

P1, P2 = 0, 1


def hubs(**params: int | str) -> plunder.core.game.Game:
    return plunder.load_game("hubs", preset=None, **params)


def run(state: HubsState, texts: list[str]) -> HubsState:
    for text in texts:
        state = state.apply_text(text)
    return state


def refused(state: HubsState, text: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as info:
        state.apply_text(text)
    return info.value


# d . . . c
# . . . . .
# . . . . .
# . . . . .
# a . . . b
SQUARE = ["dot 0,0", "dot 4,0", "dot 4,4", "dot 0,4"]


def square_game() -> HubsState:
    state = hubs(width=5, height=5, dots=4).new_initial_state()
    assert isinstance(state, HubsState)
    return state


def test_hb1_defense_places_first_and_players_alternate() -> None:
    state = square_game()
    # Round 1: Player 1 is on offense (HB-6), so Player 2 places the first dot.
    movers = []
    for text in SQUARE:
        movers.append(state.current_player)
        state = state.apply_text(text)
    assert movers == [P2, P1, P2, P1]
    assert state.dots == ((0, 0), (4, 0), (4, 4), (0, 4))


def test_hb1_one_dot_per_lattice_point() -> None:
    state = run(square_game(), ["dot 2,2"])
    err = refused(state, "dot 2,2")
    assert err.rule == "HB-1" and "already sits" in err.reason
    assert state.dots == ((2, 2),)


def test_hb1_the_free_points_are_the_placing_moves() -> None:
    """While placing, the legal actions are the free lattice points (as dots, for the agents)."""
    state = run(square_game(), ["dot 2,2", "dot 0,0"])
    free = state.free_points()
    assert len(free) == 23 and Dot(2, 2) not in free and Dot(0, 0) not in free
    assert all(type(dot) is Dot for dot in free) and free == state.legal_actions()


def test_hb1_dots_stay_on_the_lattice() -> None:
    state = square_game()
    with pytest.raises(InvalidActionError, match="off the 5x5 lattice"):
        state.apply_text("dot 5,0")
    with pytest.raises(InvalidActionError):
        state.apply_text("dot 1.5,2")


def test_hb1_parameters_are_checked() -> None:
    with pytest.raises(ParameterError, match="even"):
        hubs(dots=7)
    with pytest.raises(ParameterError, match="do not fit"):
        hubs(width=2, height=2, dots=6)
    with pytest.raises(ParameterError, match="even"):
        hubs(rounds=3)
    with pytest.raises(ParameterError, match="outside"):
        hubs(width=1)
    with pytest.raises(ParameterError, match="no parameter"):
        hubs(colour="red")


def test_hb3_segments_wait_for_every_dot_and_dots_for_nothing_after() -> None:
    state = run(square_game(), SQUARE[:3])
    err = refused(state, "seg a-b")
    assert err.rule == "HB-3"
    state = state.apply_text(SQUARE[3])
    err = refused(state, "dot 1,1")
    assert err.rule == "HB-3"


def test_hb3_defense_draws_first_then_alternation() -> None:
    state = run(square_game(), SQUARE)
    movers = []
    for text in ["seg a-b", "seg b-c", "seg c-d"]:
        movers.append(state.current_player)
        state = state.apply_text(text)
    assert movers == [P2, P1, P2]
    assert state.current_player == P1


def test_hb2_crossing_is_refused_naming_the_segment() -> None:
    # d . . . c
    # . \   / .      a-c is drawn; b-d would cross it in the middle
    # . . X . .
    # . /   \ .
    # a . . . b
    state = run(square_game(), SQUARE + ["seg a-c"])
    err = refused(state, "seg b-d")
    assert err.rule == "HB-2"
    assert err.reason == "b-d crosses a-c"
    assert state.segments == (Segment(0, 2),)


def test_hb2_no_segment_through_a_dot() -> None:
    # . . c
    # . b .      a-c would run through b
    # a . .
    state = hubs(width=3, height=3, dots=4).new_initial_state()
    state = run(state, ["dot 0,0", "dot 1,1", "dot 2,2", "dot 0,2"])  # type: ignore[arg-type]
    err = refused(state, "seg a-c")
    assert err.rule == "HB-2" and err.reason == "a-c would pass through dot b"
    assert Segment(0, 2) not in state.legal_actions()


def test_hb2_the_same_pair_only_once_in_either_order() -> None:
    state = run(square_game(), SQUARE + ["seg a-b"])
    err = refused(state, "seg b-a")
    assert err.rule == "HB-2" and err.reason == "a-b is already drawn; a pair of dots is joined only once"


def test_hb2_segments_may_share_an_end() -> None:
    # a-b, then a-c and a-d from the same dot a: all legal
    state = run(square_game(), SQUARE + ["seg a-b", "seg a-c", "seg a-d"])
    assert state.degree[0] == 3


def test_hb4_text_example_n_plus_m_whoever_draws() -> None:
    # The text: a segment from a dot with n segments to a dot with m gives the offense n+m;
    # the segment being drawn does not count itself.
    state = run(square_game(), SQUARE)
    assert state.offense == P1
    steps = [
        ("seg a-b", P2, 0),  # 0 + 0: the first segment scores nothing
        ("seg b-c", P1, 1),  # b has 1, c has 0
        ("seg c-d", P2, 1),  # c has 1, d has 0 -- drawn by the defense, still the offense's point
        ("seg a-c", P1, 3),  # a has 1, c has 2
    ]
    total = 0
    for text, mover, gain in steps:
        assert state.current_player == mover
        state = state.apply_text(text)
        total += gain
        assert state.totals == (total, 0)
    assert state.degree == (2, 2, 3, 1)


def test_hb5_round_ends_once_every_dot_has_two() -> None:
    # d-----c      after a-d every dot has two or more (a 2, b 2, c 3, d 2),
    # |   / |      so the round ends at once (b-d would cross a-c anyway).
    # | /   |
    # a-----b
    state = run(square_game(), SQUARE + ["seg a-b", "seg b-c", "seg c-d", "seg a-c"])
    assert state.round == 0
    state = state.apply_text("seg a-d")
    assert state.round == 1 and state.dots == () and state.segments == ()
    assert state.totals == (8, 0)  # 0 + 1 + 1 + 3 + (1 + 2)
    assert state.last_round is not None
    assert state.last_round.points == 8 and state.last_round.segments == 5
    assert not state.last_round.stalled


def test_hb5_round_ends_when_no_segment_is_left() -> None:
    # a b c d  on one line: only a-b, b-c, c-d can ever be drawn; a and d end with one each.
    state = hubs(width=4, height=2, dots=4).new_initial_state()
    state = run(state, ["dot 0,0", "dot 1,0", "dot 2,0", "dot 3,0", "seg b-c", "seg a-b"])  # type: ignore[arg-type]
    assert state.legal_actions() == [Segment(2, 3)]
    state = state.apply_text("seg c-d")
    assert state.round == 1
    assert state.last_round is not None and state.last_round.stalled and state.last_round.segments == 3
    assert state.totals == (0 + 1 + 1, 0)


def test_hb6_roles_swap_and_the_higher_total_wins() -> None:
    state = run(square_game(), SQUARE + ["seg a-b", "seg b-c", "seg c-d", "seg a-c", "seg a-d"])
    # Round 2: Player 2 is on offense; Player 1 (the defense) places and draws first (HB-1, HB-3).
    assert state.offense == P2 and state.current_player == P1
    state = run(state, SQUARE)
    assert state.current_player == P1
    # A cheap round for Player 2: a-b, c-d (0 each), b-c (2), a-d (2).
    state = run(state, ["seg a-b", "seg c-d", "seg b-c", "seg a-d"])
    assert state.current_player == TERMINAL
    assert state.totals == (8, 4)
    assert state.returns() == [1.0, -1.0]
    assert state.legal_actions() == []
    err = refused(state, "seg a-b")
    assert err.rule == "HB-6"


def test_hb6_equal_totals_tie() -> None:
    state = run(square_game(), SQUARE + ["seg a-b", "seg c-d", "seg b-c", "seg a-d"])
    state = run(state, SQUARE + ["seg a-b", "seg c-d", "seg b-c", "seg a-d"])
    assert state.is_terminal() and state.totals == (4, 4)
    assert state.returns() == [0.0, 0.0]


def test_hb6_four_rounds_alternate_offense() -> None:
    game = hubs(width=5, height=5, dots=4, rounds=4)
    state = game.new_initial_state()
    offenses = []
    while not state.is_terminal():
        offenses.append(state.offense)  # type: ignore[attr-defined]
        state = run(state, SQUARE + ["seg a-b", "seg c-d", "seg b-c", "seg a-d"])  # type: ignore[arg-type]
    assert offenses == [P1, P2, P1, P2]
    assert state.totals == (8, 8)  # type: ignore[attr-defined]


def test_hb7_each_round_a_fresh_sheet() -> None:
    state = run(square_game(), SQUARE + ["seg a-b", "seg c-d", "seg b-c", "seg a-d"])
    # Round 2 may use the very points of round 1: its sheet is new.
    state = state.apply_text("dot 0,0")
    assert state.dots == ((0, 0),)
    assert state.previous is not None and len(state.previous[1]) == 4


def test_no_upper_limit_at_a_dot() -> None:
    # A star: e in the middle joined to a, b, c, d in turn scores 0, 1, 2, 3 at e.
    # d . . . c
    # . . e . .
    # a . . . b
    state = hubs(width=5, height=3, dots=6).new_initial_state()
    state = run(state, ["dot 0,0", "dot 4,0", "dot 4,2", "dot 0,2", "dot 2,1", "dot 2,0"])  # type: ignore[arg-type]
    state = run(state, ["seg a-e", "seg b-e", "seg c-e", "seg d-e"])
    assert state.degree[4] == 4
    assert state.totals == (0 + 1 + 2 + 3, 0)


def test_parse_forms_and_canonical_texts() -> None:
    state = run(square_game(), SQUARE)
    g = state.game
    a = Segment(1, 3)
    for text in ["seg b-d", "seg d-b", "b-d", "B - D", "seg b d"]:
        assert g.parse_action(state, text) == a
    assert g.action_to_text(state, a) == "seg b-d"
    assert g.parse_action(state, "3,4") == g.parse_action(state, "dot 3,4") == Dot(3, 4)
    for bad in ["seg a-a", "seg a-z", "seg a-", "draw", "dot 1", "seg a1-b"]:
        with pytest.raises(InvalidActionError):
            g.parse_action(state, bad)


def test_illegal_action_leaves_the_state_alone() -> None:
    state = run(square_game(), SQUARE + ["seg a-c"])
    before = (state.segments, state.degree, state.totals, state.legal_actions())
    with pytest.raises(IllegalActionError, match=r"\(HB-2\)"):
        state.apply_text("seg b-d")
    assert (state.segments, state.degree, state.totals, state.legal_actions()) == before


def test_legal_segments_are_listed_best_scoring_first() -> None:
    state = run(square_game(), SQUARE + ["seg a-b", "seg b-c"])
    gains = [state.degree[s.first] + state.degree[s.second] for s in state.legal_actions()]  # type: ignore[union-attr]
    assert gains == sorted(gains, reverse=True)
    # Degrees a 1, b 2, c 1, d 0: a-c and b-d score 2, c-d and a-d score 1.
    assert gains == [2, 2, 1, 1]


def test_hb8_a_w_by_h_sheet_has_w_points_across_and_h_up() -> None:
    # width=5, height=3: x runs 0..4, y runs 0..2; (4,2) is the top-right point.
    game = hubs(width=5, height=3, dots=2)
    state = game.new_initial_state()
    state = state.apply_text("dot 4,2").apply_text("dot 0,0")
    assert state.dots == ((4, 2), (0, 0))  # type: ignore[attr-defined]
    with pytest.raises(InvalidActionError, match="x runs 0..4, y 0..2"):
        game.new_initial_state().apply_text("dot 0,3")
    # y grows upward in the picture: b (0,0) is on the bottom row, a (4,2) on the top.
    rows = str(state).splitlines()
    assert rows[1] == "2|        a |" and rows[3] == "0|b         |"


def test_two_dots_make_a_one_segment_round() -> None:
    # a . b    the only segment a-b leaves both dots at one: no legal segment, round over.
    state = hubs(width=3, height=2, dots=2).new_initial_state()
    state = run(state, ["dot 0,0", "dot 2,0", "seg a-b"])  # type: ignore[arg-type]
    assert state.round == 1 and state.last_round is not None
    assert state.last_round.stalled and state.last_round.points == 0


def test_the_dot_limit_is_the_documented_one() -> None:
    # docs/rules/hubs.md, "Limits": at most MAX_DOTS = 700 dots a round (every dot has a label).
    assert hubs(dots=700).dots == 700  # type: ignore[attr-defined]
    for too_many in (702, 704, 10**6):
        with pytest.raises(ParameterError, match=r"outside 2\.\.700"):
            hubs(width=1000, height=1000, dots=too_many)


def test_a_page_of_a_million_free_points_lists_only_the_page() -> None:
    # A 1000 x 1000 sheet has a million free points: the web's move list and picture ask for a
    # page of them and their number, and must not make the million (a server holding a
    # million objects pays for them in every full garbage collection).
    from plunder.core.svg import legal_page
    from plunder.games.hubs.rules import _lattice
    from plunder.pictures import svg_of

    game = hubs(width=1000, height=1000)
    state = game.new_initial_state().apply(Dot(0, 0)).apply(Dot(2, 0))
    _lattice.cache_clear()
    texts, total, _ = legal_page(state, 3)
    svg_of(state, None)
    assert _lattice.cache_info().misses == 0
    assert (texts, total) == (["dot 1,0", "dot 3,0", "dot 4,0"], 10**6 - 2)
    assert state.legal_head(3) == (state.legal_actions()[:3], len(state.legal_actions()))


def test_a_position_does_not_grow_with_the_rounds_played() -> None:
    # The same round (every dot ends with two segments) played again and again: a position keeps
    # the round just finished, never a list of every round, so the match after 20 rounds pickles
    # to as many bytes as after 2 (the match points stay under 256, one byte each either way).
    one_round = ["2,0", "1,0", "0,2", "1,1", "2,2", "2,1", "b-c", "b-d", "a-f", "a-b", "d-e", "b-f", "c-e"]
    state = hubs(width=3, height=3, dots=6, rounds=20).new_initial_state()
    assert isinstance(state, HubsState)
    sizes = {}
    for played in range(1, 21):
        state = run(state, one_round)
        assert state.round == played and state.last_round is not None and state.last_round.points == 11
        sizes[played] = len(pickle.dumps(state))
    assert state.is_terminal() and state.totals == (110, 110)
    assert sizes[20] == sizes[2]
