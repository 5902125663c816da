"""Crossroads rulings CR-5..CR-15 as scenarios: setup, the round, trading, dice, parameters."""

from __future__ import annotations

from typing import Any

import plunder
import pytest
from plunder.match import observed
from plunder.games.crossroads.actions import (
    Accept,
    Axis,
    City,
    CrossroadsAction,
    Demand,
    Done,
    Offer,
    Pass,
    Place,
    Reject,
    Reroll,
    Road,
    Roll,
)
from plunder.games.crossroads.board import CITY0, EMPTY, activated, cell, from_rows
from plunder.games.crossroads.rules import CrossroadsGame, CrossroadsState, MAX_REROLLS, Phase, splits


def game(players: int = 4, **params: Any) -> CrossroadsGame:
    return CrossroadsGame.load(players=players, **params)


def cs(state: plunder.State) -> CrossroadsState:
    assert isinstance(state, CrossroadsState)
    return state


def stats_after(state: CrossroadsState, *moves: str) -> dict[str, float | list[float]]:
    """The game's statistics (its observer's) once ``moves`` are played from ``state``."""
    states: list[plunder.State] = [state]
    actions = []
    for text in moves:
        actions.append(state.game.parse_action(states[-1], text))
        states.append(states[-1].apply(actions[-1]))
    return observed(state.game, states, actions)


# The relay board of the text ("trading through player 3"):
#    A B C D E F
# 1 |R|R|R|_|R|2|
# 2 |R|_|3|_|R|_|
# 3 |1|_|R|R|R|_|
RELAY_BOARD = from_rows(["|R|R|R|_|R|2|", "|R|_|3|_|R|_|", "|1|_|R|R|R|_|"])


# ---------------------------------------------------------------- CR-5 setup


def test_setup_rolls_then_places_on_an_activated_cell_and_pays_nothing() -> None:
    state = game(2).new_initial_state()
    assert state.current_player == plunder.CHANCE
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 15
    assert outcomes[Roll(1, 2)] == pytest.approx(2 / 25) and outcomes[Roll(3, 3)] == pytest.approx(1 / 25)
    state = cs(state.apply_text("roll 1-2"))
    assert state.phase == Phase.SETUP_PLACE
    # Either die may be the column, so the sites are the union of both assignments.
    assert {a.cell for a in state.legal_actions() if isinstance(a, Place)} == set(activated(1, 2)) | set(activated(2, 1))
    with pytest.raises(plunder.IllegalActionError) as err:
        state.apply_text("place E5")
    assert err.value.rule == "CR-5"
    state = cs(state.apply_text("place A2"))
    assert state.gold == (0, 0) and state.phase == Phase.SETUP_ROLL and state.seat == 1


def test_setup_sites_never_touch_a_city_and_hopeless_rolls_are_rerolled() -> None:
    # P1's cities ring every cell that a roll of 1-1 activates (A1, F1, A6, F6), so 1-1
    # can place nothing: CR-5 rerolls it, i.e. it is not among the outcomes (CR-9).
    #    A B ... F G
    # 1 |*|_|   |*|_|
    # 2 |_|1|   |_|1|
    board = [EMPTY] * 100
    for r, k in ((1, 1), (1, 6), (6, 1), (6, 6)):
        board[cell(r, k)] = CITY0
    state = cs(game(2).new_initial_state()).evolve(board=tuple(board), seat=1)
    outcomes = dict(state.chance_outcomes())
    assert Roll(1, 1) not in outcomes
    assert sum(outcomes.values()) == pytest.approx(1.0)
    with pytest.raises(plunder.IllegalActionError) as err:
        state.apply_text("roll 1-1")
    assert err.value.rule == "CR-5"
    # 3-4 lights cells away from the ring; none offered may touch a city.
    placed = cs(state.apply_text("roll 3-4"))
    assert placed.legal_actions()
    around = [cell(r, k) for r, k in ((1, 1), (1, 6), (6, 1), (6, 6))]
    for action in placed.legal_actions():
        assert isinstance(action, Place)
        assert all(abs(action.cell // 10 - c // 10) > 1 or abs(action.cell % 10 - c % 10) > 1 for c in around)


def test_after_setup_round_one_begins_with_the_first_player_rolling() -> None:
    state = game(2).new_initial_state()
    for text in ("roll 1-2", "place A2", "roll 4-4", "place D4"):
        state = state.apply_text(text)
    state = cs(state)
    assert (state.phase, state.round, state.seat) == (Phase.ROLL, 1, 0)


# ---------------------------------------------------------------- CR-6 / CR-13 the round and the end


def end_of_trading(gold: tuple[int, ...], **params: object) -> CrossroadsState:
    state = game(len(gold), **params).position((EMPTY,) * 100, gold=gold, phase=Phase.TRADE)
    for _ in gold:
        state = state.apply_text("pass")
    return cs(state)


def test_win_check_richest_at_target_wins() -> None:
    state = end_of_trading((120, 105, 30))
    assert state.phase == Phase.OVER and state.returns() == [1.0, -1.0, -1.0]


def test_a_tie_at_the_top_plays_another_round() -> None:
    state = end_of_trading((101, 101, 99))
    assert state.phase == Phase.ROLL and state.round == 2


def test_below_target_plays_on() -> None:
    state = end_of_trading((99, 0))
    assert state.phase == Phase.ROLL


def test_round_cap_richest_wins_or_ties() -> None:
    assert end_of_trading((6, 5), max_rounds=1).returns() == [1.0, -1.0]
    assert end_of_trading((6, 6, 2), max_rounds=1).returns() == [0.0, 0.0, -1.0]


def test_trading_phase_ends_only_when_every_player_passes_in_a_row() -> None:
    state = game(3).position(RELAY_BOARD, phase=Phase.TRADE)
    state = state.apply_text("pass").apply_text("pass")
    assert cs(state).phase == Phase.TRADE and state.current_player == 2
    # An offer (even one refused) breaks the run of passes.
    state = state.apply_text("offer C2-A3 gold 2/1").apply_text("reject")
    for _ in range(2):
        state = state.apply_text("pass")
        assert cs(state).phase == Phase.TRADE
    assert cs(state.apply_text("pass")).phase == Phase.ROLL


# ---------------------------------------------------------------- CR-7 / CR-11 / CR-12 trading


def test_binding_once_everyone_accepts_and_shares_sum_to_three() -> None:
    start = game(3).position(RELAY_BOARD, phase=Phase.TRADE)
    state = start.apply_text("offer A3-F1 via C2=0 gold 2/1")
    assert state.gold == (0, 0, 0)  # nothing moves until every named party agrees
    state = cs(state.apply_text("accept").apply_text("accept"))
    assert state.gold == (2, 1, 0) and sum(state.gold) == 3
    assert state.phase == Phase.TRADE and state.seat == 1
    # the trade is the game's observer's to count, not the position's
    assert stats_after(start, "offer A3-F1 via C2=0 gold 2/1", "accept", "accept")["trades"] == [1.0, 1.0, 0.0]


def test_relay_demand_takes_from_the_proposer_first_and_asks_everyone_again() -> None:
    state = game(3).position(RELAY_BOARD, phase=Phase.TRADE)
    state = cs(state.apply_text("offer A3-F1 via C2=0 gold 2/1").apply_text("accept"))
    assert state.current_player == 2
    assert Demand(3) in state.legal_actions() and Demand(4) not in state.legal_actions()
    with pytest.raises(plunder.IllegalActionError) as err:
        state.apply_text("demand 4")
    assert err.value.rule == "CR-12"
    state = cs(state.apply_text("demand 2"))
    assert state.offer == Offer(cell(2, 0), cell(0, 5), (cell(1, 2),), (2,), 0, 1)
    assert state.current_player == 0  # the proposer must accept the new terms
    state = cs(state.apply_text("accept"))
    assert state.current_player == 1
    state = cs(state.apply_text("accept"))
    assert state.gold == (0, 1, 2) and state.fees == (0, 0, 2)


def test_only_a_relay_may_demand() -> None:
    state = game(3).position(RELAY_BOARD, phase=Phase.TRADE).apply_text("offer A3-F1 via C2=1 gold 1/1")
    with pytest.raises(plunder.IllegalActionError) as err:
        state.apply_text("demand 2")
    assert err.value.rule == "CR-12"


def test_rejection_ends_the_offer_and_records_the_refusal() -> None:
    board = from_rows(["|_|_|_|_|", "|_|R|R|2|", "|1|R|_|_|"])
    start = game(2).position(board, phase=Phase.TRADE)
    state = cs(start.apply_text("offer A3-D2 gold 2/1").apply_text("reject"))
    assert state.gold == (0, 0) and state.phase == Phase.TRADE and state.seat == 1
    assert (0, 1) in state.refusals and stats_after(start, "offer A3-D2 gold 2/1", "reject")["refused"] == [1.0, 0.0]
    # Turning down a fair offer is remembered as P2's unfair treatment of P1.
    assert state.last[0 * 2 + 1] == -1


def test_an_offer_of_nothing_is_remembered_as_unfair() -> None:
    board = from_rows(["|_|_|_|_|", "|_|R|R|2|", "|1|R|_|_|"])
    state = cs(game(2).position(board, phase=Phase.TRADE).apply_text("offer A3-D2 gold 3/0"))
    assert state.last[1 * 2 + 0] == -1 and state.grudge[1 * 2 + 0] == 1
    state = cs(state.apply_text("reject"))
    assert state.last[0 * 2 + 1] == 0  # refusing nothing is no defection


def test_offers_per_player_are_capped() -> None:
    board = from_rows(["|_|_|_|_|", "|_|R|R|2|", "|1|R|_|_|"])
    state = game(2, offers=1).position(board, phase=Phase.TRADE)
    state = state.apply_text("offer A3-D2 gold 2/1").apply_text("reject").apply_text("pass")
    assert state.current_player == 0 and state.legal_actions() == [Pass()]
    with pytest.raises(plunder.IllegalActionError) as err:
        state.apply_text("offer A3-D2 gold 1/2")
    assert err.value.rule == "CR-11"


def test_offer_split_must_sum_to_three() -> None:
    board = from_rows(["|_|_|_|_|", "|_|R|R|2|", "|1|R|_|_|"])
    state = game(2).position(board, phase=Phase.TRADE)
    with pytest.raises(plunder.IllegalActionError) as err:
        state.apply_text("offer A3-D2 gold 2/2")
    assert err.value.rule == "CR-12"
    assert [s for s in splits(2)] == [(3, 0), (2, 1), (1, 2), (0, 3)]
    assert len(splits(3)) == 10 and all(sum(s) == 3 for s in splits(4))


def test_offer_must_join_my_city_to_another_players() -> None:
    board = from_rows(["|_|_|_|_|", "|_|R|R|2|", "|1|R|_|_|"])
    state = game(2).position(board, phase=Phase.TRADE)
    for text in ("offer D2-A3 gold 2/1", "offer A3-A1 gold 2/1"):
        with pytest.raises(plunder.IllegalActionError) as err:
            state.apply_text(text)
        assert err.value.rule == "CR-7"


def test_a_two_relay_route() -> None:
    # CR-10: P1 (A1) reaches P2 (I1) only through P3's D1 and P4's G1.
    #    A B C D E F G H I
    # 1 |1|R|R|3|R|R|4|R|2|
    board = from_rows(["|1|R|R|3|R|R|4|R|2|"])
    state = cs(game(4).position(board, phase=Phase.TRADE))
    assert state.routes(cell(0, 0), cell(0, 8)) == [(cell(0, 3), cell(0, 6))]
    assert cs(game(4, relays=1).position(board, phase=Phase.TRADE)).routes(cell(0, 0), cell(0, 8)) == []
    state = cs(state.apply_text("offer A1-I1 via D1=1,G1=0 gold 1/1"))
    assert [state.current_player] == [1]
    for _ in range(3):
        state = cs(state.apply_text("accept"))
    assert state.gold == (1, 1, 1, 0)


# CR-7 amended: P1 (A1) reaches P2 (I1) through P3's D1, or the long way round through
# P4's C4 and P5's H4 (road networks: B1-C3 top left, E1-H3 top right, C5-H5 bottom).
#    A B C D E F G H I
# 1 |1|R|R|3|R|R|R|R|2|
# 2 |_|_|R|_|_|_|_|R|_|
# 3 |_|_|R|_|_|_|_|R|_|
# 4 |_|_|4|_|_|_|_|5|_|
# 5 |_|_|R|R|R|R|R|R|_|
DETOUR_BOARD = from_rows(["|1|R|R|3|R|R|R|R|2|", "|_|_|R|_|_|_|_|R|_|", "|_|_|R|_|_|_|_|R|_|",
                          "|_|_|4|_|_|_|_|5|_|", "|_|_|R|R|R|R|R|R|_|"])


def test_a_refused_relay_leaves_a_longer_route_through_others() -> None:
    state = cs(game(5).position(DETOUR_BOARD, phase=Phase.TRADE))
    a1, i1, d1, c4, h4 = cell(0, 0), cell(0, 8), cell(0, 3), cell(3, 2), cell(3, 7)
    # Every route within the limit, fewest relays first; none carries a relay it does not need.
    assert state.routes(a1, i1) == [(d1,), (c4, h4)]
    assert cs(game(5, relays=1).position(DETOUR_BOARD, phase=Phase.TRADE)).routes(a1, i1) == [(d1,)]
    state = cs(state.apply_text("offer A1-I1 via D1=0 gold 2/1").apply_text("accept"))
    assert state.current_player == 2
    state = cs(state.apply_text("reject"))  # P3 will not let the trade through
    assert (0, 2) in state.refusals and state.gold == (0,) * 5
    for _ in range(4):
        state = cs(state.apply_text("pass"))
    assert state.current_player == 0 and state.phase == Phase.TRADE
    # P1 goes round P3: the partner answers first, then the relays in board order.
    state = cs(state.apply_text("offer A1-I1 via C4=1,H4=0 gold 1/1"))
    assert [state.current_player] == [1]
    for answering in (3, 4):
        state = cs(state.apply_text("accept"))
        assert state.current_player == answering
    state = cs(state.apply_text("accept"))
    assert state.gold == (1, 1, 0, 1, 0) and state.used == frozenset({a1, i1})


def test_a_relay_the_route_does_not_need_is_refused() -> None:
    # CR-10: D1 alone carries A1-I1, so D1 with C4 names a relay the trade does not use;
    # a detour that skips a needed link (C4 alone) is no route at all.
    state = game(5).position(DETOUR_BOARD, phase=Phase.TRADE)
    for text in ("offer A1-I1 via D1=0,C4=0 gold 2/1", "offer A1-I1 via C4=0 gold 2/1", "offer A1-I1 gold 2/1"):
        with pytest.raises(plunder.IllegalActionError) as err:
            state.apply_text(text)
        assert err.value.rule == "CR-10" and "via D1" in err.value.reason


# ---------------------------------------------------------------- CR-1 / CR-9 dice


def test_d6_sixes_are_rerolled_with_a_bounded_number_of_rerolls() -> None:
    state = game(2, dice="d6").position((EMPTY,) * 100, phase=Phase.ROLL)
    outcomes = dict(state.chance_outcomes())
    assert outcomes[Reroll()] == pytest.approx(11 / 36)
    assert outcomes[Roll(1, 2)] == pytest.approx(2 / 36)
    for _ in range(MAX_REROLLS):
        state = state.apply_text("reroll 6")
    assert Reroll() not in dict(state.chance_outcomes())
    assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
    with pytest.raises(plunder.IllegalActionError) as err:
        state.apply_text("reroll 6")
    assert err.value.rule == "CR-9"


def test_d5_has_no_sixes() -> None:
    state = game(2).position((EMPTY,) * 100, phase=Phase.ROLL)
    with pytest.raises(plunder.IllegalActionError) as err:
        state.apply_text("reroll 6")
    assert err.value.rule == "CR-9"


def test_moves_out_of_phase_are_refused_with_the_round_ruling() -> None:
    state = game(2).position((EMPTY,) * 100, phase=Phase.ROLL)
    with pytest.raises(plunder.IllegalActionError) as err:
        state.apply_text("done")
    assert err.value.rule == "CR-6"
    built = game(2).position((EMPTY,) * 100)
    with pytest.raises(plunder.IllegalActionError) as err:
        built.apply_text("pass")
    assert err.value.rule == "CR-6"


# ---------------------------------------------------------------- texts and parameters


@pytest.mark.parametrize(
    "text, action",
    [
        ("roll 2-3", Roll(2, 3)),
        ("reroll 6", Reroll()),
        ("col 2 row 3", Axis(2, 3)),
        ("place D3", Place(cell(2, 3))),
        ("city J10", City(cell(9, 9))),
        ("road A1", Road(0)),
        ("done", Done()),
        ("pass", Pass()),
        ("accept", Accept()),
        ("reject", Reject()),
        ("demand 2", Demand(2)),
        ("offer A3-F1 gold 2/1", Offer(cell(2, 0), cell(0, 5), (), (), 2, 1)),
        ("offer A3-F1 via D1=0,C2=1 gold 1/1", Offer(cell(2, 0), cell(0, 5), (3, cell(1, 2)), (0, 1), 1, 1)),
    ],
)
def test_canonical_texts_round_trip(text: str, action: CrossroadsAction) -> None:
    g = game(2)
    state = g.new_initial_state()
    assert g.parse_action(state, text) == action
    assert g.action_to_text(state, action) == text == action.text()


def test_texts_are_read_loosely_but_garbage_is_refused() -> None:
    g = game(2)
    state = g.new_initial_state()
    assert g.parse_action(state, "  City   d3 ") == City(cell(2, 3))
    # Relays may be typed in any order; each keeps its fee and the offer lists them in board order.
    assert g.parse_action(state, "OFFER a3 - f1 via c2 = 1 , d1=0 gold 1 / 1").text() == "offer A3-F1 via D1=0,C2=1 gold 1/1"
    for bad in ("city K1", "city A11", "roll 6-2", "roll 3-2", "col 0 row 3", "offer A3 gold 1/2", "build", ""):
        with pytest.raises(plunder.InvalidActionError):
            g.parse_action(state, bad)


@pytest.mark.parametrize(
    "params",
    [{"players": "1"}, {"players": "7"}, {"dice": "d4"}, {"target": "0"}, {"max_rounds": "x"}, {"relays": "3"}],
)
def test_bad_parameters_are_refused_clearly(params: dict[str, str]) -> None:
    with pytest.raises(plunder.ParameterError) as err:
        plunder.load_game("crossroads", **params)
    assert next(iter(params)) in str(err.value)


def test_position_helper_refuses_foreign_seats() -> None:
    board = [EMPTY] * 100
    board[0] = CITY0 + 3
    with pytest.raises(ValueError):
        game(2).position(tuple(board))


def test_diagonal_contact_never_links_a_road() -> None:
    # CR-15: B2 touches P1's A1 only at a corner, so a road there could not trade with it;
    # A2, orthogonally next to A1, can (a path of no roads).
    #    A B
    # 1 |1|_|
    # 2 |_|x|
    board = from_rows(["|1|_|", "|_|_|"])
    state = game(2).position(board, gold=(3, 0))
    assert Road(cell(1, 0)) in state.legal_actions()
    with pytest.raises(plunder.IllegalActionError) as err:
        state.apply_text("road B2")
    assert err.value.rule == "CR-4"


def test_stats_report_rounds_trades_and_builds() -> None:
    board = from_rows(["|_|_|_|_|", "|_|R|R|2|", "|1|R|_|_|"])
    stats = stats_after(game(2).position(board, phase=Phase.TRADE), "offer A3-D2 gold 2/1", "accept")
    assert stats["rounds"] == 1.0
    assert stats["trades"] == [1.0, 1.0] and stats["trade_gold"] == [2.0, 1.0] and stats["offers"] == [1.0, 0.0]
    assert stats["trades_with_1"] == [0.0, 1.0] and stats["trades_with_2"] == [1.0, 0.0]
    assert set(stats) >= {"refused", "fees", "income", "cities", "roads"}


def test_a_proposer_may_withdraw_changed_terms_without_it_counting_as_a_refusal() -> None:
    state = game(3).position(RELAY_BOARD, phase=Phase.TRADE)
    moves = ("offer A3-F1 via C2=0 gold 2/1", "accept", "demand 3")
    start, state = state, state.apply_text(moves[0]).apply_text(moves[1]).apply_text(moves[2])
    assert state.current_player == 0
    withdrawn = cs(state.apply_text("reject"))
    assert withdrawn.refusals == frozenset() and stats_after(start, *moves, "reject")["refused"] == [0.0, 0.0, 0.0]
    assert withdrawn.gold == (0, 0, 0) and withdrawn.phase == Phase.TRADE and withdrawn.seat == 1


def test_relays_zero_allows_direct_trades_only() -> None:
    # CR-10 with relays=0: the relay board's A3-F1 link through P3 is not a route.
    state = cs(game(3, relays=0).position(RELAY_BOARD, phase=Phase.TRADE))
    assert state.routes(cell(2, 0), cell(0, 5)) == []
    assert state.routes(cell(2, 0), cell(1, 2)) == [()]
    with pytest.raises(plunder.IllegalActionError) as err:
        state.apply_text("offer A3-F1 via C2=1 gold 1/1")
    assert err.value.rule == "CR-3"


def test_the_ledger_takes_no_part_in_equality_and_the_networks_follow_the_board() -> None:
    # P1 on A3, P2 on D2, linked by the road B3-B2-C2; P1 then lays A2 beside its city.
    #    A B C D
    # 1 |_|_|_|_|
    # 2 |x|R|R|2|
    # 3 |1|R|_|_|
    board = from_rows(["|_|_|_|_|", "|_|R|R|2|", "|1|R|_|_|"])
    state = game(2).position(board, gold=(3, 0))
    counted = state.evolve(trade_gold=(4, 4), fees=(9, 9), roads=(2, 0))
    assert counted == state and hash(counted) == hash(state)
    assert state.evolve(gold=(4, 0)) != state
    net = state.net
    assert cs(state.apply_text("done")).net is net  # the board stands, so do its networks
    built = cs(state.apply_text("road A2"))
    assert built.net is not net and built.net.comp[cell(1, 0)] == built.net.comp[cell(1, 1)] >= 0
    assert built.roads == (1, 0) and built.gold == (0, 0)


def test_a_bare_cell_places_the_first_city_at_setup() -> None:
    # the setup prompt lists cells ("place the first city on one of: D3 I3 ..."), so typing one
    # of them is the placement; at any other phase a bare cell stays unreadable
    game = plunder.load_game("crossroads", players=2)
    state = game.new_initial_state()
    while state.is_chance_node():
        state = state.apply(state.legal_actions()[0])
    assert isinstance(state, CrossroadsState) and state.phase is Phase.SETUP_PLACE
    place = state.legal_actions()[0]
    bare = game.action_to_text(state, place).removeprefix("place ")
    assert game.parse_action(state, bare.lower()) == place
    later = state.apply(place)
    with pytest.raises(plunder.InvalidActionError):
        game.parse_action(later, bare)
