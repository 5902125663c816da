"""Every example diagram of the Crossroads rule text (seed 004), as a scenario test.

Pictures use the text's notation: ``R`` road, a digit is that player's city (player 1 is
seat 0), ``_`` empty. ``from_rows`` lays a picture on the 10x10 board with its top-left
cell at ``origin`` (row, column, 0-based); the rest of the board is empty.
"""

from __future__ import annotations

from typing import Any

import plunder
import pytest
from plunder.games.crossroads.actions import Axis, City, Offer, Road
from plunder.games.crossroads.board import (
    CITY0,
    EMPTY,
    Network,
    activated,
    cell,
    from_rows,
    touches_city,
)
from plunder.games.crossroads.rules import CrossroadsGame, CrossroadsState, Phase
from plunder.games.crossroads.stats import CrossroadsObserver


def game(players: int = 4, **params: Any) -> CrossroadsGame:
    return CrossroadsGame.load(players=players, **params)


def picture_cells(rows: int, cols: int, origin: tuple[int, int] = (0, 0)) -> set[int]:
    return {cell(origin[0] + r, origin[1] + k) for r in range(rows) for k in range(cols)}


def rolled(state: plunder.State, text: str) -> CrossroadsState:
    out = state.apply_text(text)
    assert isinstance(out, CrossroadsState)
    return out


# ---------------------------------------------------------------- CR-1 dice and activation


def test_roll_2_and_3_with_2_on_top_activates_four_cells() -> None:
    # CR-1. "Player 1 rolls a 2 and a 3 ... picks 2 from the top and 3 on the left":
    #     1[2]3 4 5 1[2]3 4 5
    #  1 |_|_|_|_|_|_|_|_|_|_|
    #  2 |_|_|_|_|_|_|_|_|_|_|
    # [3]|_|X|_|_|_|_|X|_|_|_|
    #  ...
    # [3]|_|X|_|_|_|_|X|_|_|_|   (row 8 of 10)
    assert set(activated(2, 3)) == {cell(2, 1), cell(2, 6), cell(7, 1), cell(7, 6)}
    state = game().position((EMPTY,) * 100, phase=Phase.ROLL)
    state = rolled(state, "roll 2-3")
    assert state.phase == Phase.AXIS
    assert set(state.legal_actions()) == {Axis(2, 3), Axis(3, 2)}
    state = rolled(state, "col 2 row 3")
    assert set(state.lit) == {cell(2, 1), cell(2, 6), cell(7, 1), cell(7, 6)}
    # The other assignment lights the mirror-image cells.
    assert set(activated(3, 2)) == {cell(1, 2), cell(1, 7), cell(6, 2), cell(6, 7)}


def test_double_fours_activate_four_cells_with_no_choice() -> None:
    # CR-1. "In the case of double 4s":
    #     1 2 3[4]5 1 2 3[4]5
    # [4]|_|_|_|X|_|_|_|_|X|_|   (row 4)
    # [4]|_|_|_|X|_|_|_|_|X|_|   (row 9)
    state = game().position((EMPTY,) * 100, phase=Phase.ROLL)
    state = rolled(state, "roll 4-4")
    assert state.phase == Phase.BUILD  # doubles need no axis choice
    assert set(state.lit) == {cell(3, 3), cell(3, 8), cell(8, 3), cell(8, 8)}


# ---------------------------------------------------------------- CR-2 activation income


def test_activation_pays_city_empty_neighbour_and_road() -> None:
    # CR-2, after a roll of 2-2, which activates B2, G2, B7 and G7 (marked *):
    #    A  B  C  D  E  F  G  H
    # 2 |1|*_|2|_|_|R|*R|4|    B2 empty: touches P1's A2 and P2's C2 -> +3 each
    # 3 |_|_ |_|_|_|R|_ |_|    G2 road: its network (F2, F3, G2) touches P4's H2 only -> +1
    # 7 |_|*3|_|...            B7 is P3's city -> +5;  G7 is empty and alone -> nothing
    rows = ["|1|_|2|_|_|R|R|4|"]
    board = list(from_rows(rows, origin=(1, 0)))
    board[cell(2, 5)] = 1  # road F3
    board[cell(6, 1)] = CITY0 + 2  # P3 city on B7 (activated)
    before = game().position(tuple(board), phase=Phase.ROLL)
    state = rolled(before, "roll 2-2")
    assert state.gold == (3, 3, 5, 1)
    # the game's observer counts it as activation income
    observer = CrossroadsObserver(state.game)
    observer.see(before, before.game.parse_action(before, "roll 2-2"), state)
    assert observer.stats(state)["income"] == [3.0, 3.0, 5.0, 1.0]


def test_empty_cell_next_to_two_cities_of_one_player_pays_twice() -> None:
    # CR-2: "those cities each get 3 gold pieces" - two cities of P1 around B2.
    #    A B C
    # 1 |1|_|1|
    # 2 |_|*|_|
    board = from_rows(["|1|_|1|", "|_|_|_|"])
    state = rolled(rolled(game(2).position(board, phase=Phase.ROLL), "roll 2-2"), "done")
    assert state.gold[0] == 6


def test_road_pays_every_city_that_could_trade_with_it() -> None:
    # CR-2: the road B2 (activated by 2-2) treated as a city trades directly with A2
    # (next to it), with C3 through C2, and with E2 through the road line; A4 is cut off.
    #    A B C D E
    # 1 |_|_|_|_|_|
    # 2 |1|R|R|R|2|
    # 3 |_|_|3|_|_|
    # 4 |1|_|_|_|_|
    board = from_rows(["|_|_|_|_|_|", "|1|R|R|R|2|", "|_|_|3|_|_|", "|1|_|_|_|_|"])
    state = rolled(game(3).position(board, phase=Phase.ROLL), "roll 2-2")
    assert state.gold == (1, 1, 1)


# ---------------------------------------------------------------- CR-4 building


@pytest.mark.parametrize(
    "rows, allowed",
    [
        # Allowed:          Not Allowed:           Allowed:
        # |_|_|_|2|         |3|_|_|2|_|            |3|_|_|_|_|
        # |_|1|_|_|         |_|1|_|_|_|            |_|_|2|_|_|
        # |_|_|_|_|         |_|_|_|1|_|            |1|_|_|_|3|
        (["|_|_|_|2|", "|_|1|_|_|", "|_|_|_|_|"], True),
        (["|3|_|_|2|_|", "|_|1|_|_|_|", "|_|_|_|1|_|"], False),
        (["|3|_|_|_|_|", "|_|_|2|_|_|", "|1|_|_|_|3|"], True),
    ],
)
def test_city_placement_cases(rows: list[str], allowed: bool) -> None:
    # CR-4: no city may touch another city, diagonals included.
    board = from_rows(rows)
    cities = [c for c in range(100) if board[c] >= CITY0]
    clear = all(not touches_city(board[:c] + (EMPTY,) + board[c + 1:], c) for c in cities)
    assert clear == allowed


def test_city_touching_another_is_refused_naming_cr4() -> None:
    # The middle case above: P1 tries to add the city at B2, next to P3's A1.
    #    A B C D
    # 1 |3|_|_|2|
    # 2 |_|o|R|_|      o = the refused site (P1 owns D3 below; road C2-C3 links them)
    # 3 |_|_|R|1|
    board = from_rows(["|3|_|_|2|", "|_|_|R|_|", "|_|_|R|1|"])
    state = game().position(board, gold=(20, 0, 0, 0))
    with pytest.raises(plunder.IllegalActionError) as err:
        state.apply_text("city B2")
    assert err.value.rule == "CR-4" and "touch" in err.value.reason


def test_the_two_buildable_city_cells_are_exactly_those_marked() -> None:
    # CR-4 example: player 1 may build a city only on the two cells marked o.
    #    A B C D E F G H I
    # 1 |R|R|R|o|R|_|_|R|_|
    # 2 |R|_|R|R|R|2|R|R|_|
    # 3 |1|_|R|o|_|_|_|R|_|
    # (The picture sits on the top rows; cells below row 3 lie outside the diagram.)
    rows = ["|R|R|R|_|R|_|_|R|_|", "|R|_|R|R|R|2|R|R|_|", "|1|_|R|_|_|_|_|R|_|"]
    state = game().position(from_rows(rows), gold=(10, 0, 0, 0))
    cities = {a.cell for a in state.legal_actions() if isinstance(a, City)}
    assert cities & picture_cells(3, 9) == {cell(0, 3), cell(2, 3)}
    # The left network touches P2's city too, so P2 could use the same two sites, and its
    # right-hand network adds the column I beside it (I1, I2, I3 touch no city).
    p2 = game().position(from_rows(rows), gold=(0, 10, 0, 0), seat=1)
    column_i = {cell(0, 8), cell(1, 8), cell(2, 8)}
    assert {a.cell for a in p2.legal_actions() if isinstance(a, City)} & picture_cells(3, 9) == {cell(0, 3), cell(2, 3)} | column_i


def test_road_cells_per_player() -> None:
    # CR-4 example: roads on '.' by player 1, on 'o' by player 3, on '_' by anybody,
    # and on 'X' by nobody -- as far as touching cities goes:
    #    A B C D
    # 1 |_|o|o|o|
    # 2 |.|X|3|o|
    # 3 |1|X|o|o|
    board = from_rows(["|_|_|_|_|", "|_|_|3|_|", "|1|_|_|_|"])
    area = picture_cells(3, 4)
    dot, blank = {cell(1, 0)}, {cell(0, 0)}
    circles = {cell(0, 1), cell(0, 2), cell(0, 3), cell(1, 3), cell(2, 2), cell(2, 3)}
    crosses = {cell(1, 1), cell(2, 1)}
    free_for = {
        seat: {c for c in area if board[c] == EMPTY and not touches_city(board, c, except_seat=seat)}
        for seat in (0, 2)
    }
    assert free_for[0] == dot | blank
    assert free_for[2] == circles | blank
    assert not crosses & (free_for[0] | free_for[2])
    # The text's next sentence adds connectivity: a road must be able, as a city, to
    # trade directly with one of the builder's cities, i.e. lie orthogonally next to it
    # while no roads exist yet. That leaves '.' for P1 and three 'o's for P3.
    p1 = game().position(board, gold=(3, 0, 3, 0), seat=0)
    p3 = game().position(board, gold=(3, 0, 3, 0), seat=2)
    assert {a.cell for a in p1.legal_actions() if isinstance(a, Road)} & area == dot
    assert {a.cell for a in p3.legal_actions() if isinstance(a, Road)} & area == {cell(0, 2), cell(1, 3), cell(2, 2)}
    with pytest.raises(plunder.IllegalActionError) as err:
        p1.apply_text("road B2")
    assert err.value.rule == "CR-4"


def test_a_road_must_reach_one_of_the_builders_cities() -> None:
    # CR-4: the blank A1 above is free of cities, but no city of P1 could trade with it.
    board = from_rows(["|_|_|_|_|", "|_|_|3|_|", "|1|_|_|_|"])
    state = game().position(board, gold=(3, 0, 3, 0))
    with pytest.raises(plunder.IllegalActionError) as err:
        state.apply_text("road A1")
    assert err.value.rule == "CR-4" and "trade directly" in err.value.reason


# ---------------------------------------------------------------- CR-3 trade connectivity


@pytest.mark.parametrize(
    "rows, can",
    [
        # Can Trade         Cannot Trade           Cannot Trade
        # |_|_|_|_|         |R|_|_|_|_|_|          |R|_|_|_|_|_|
        # |_|R|R|2|         |R|_|R|R|R|2|          |R|R|_|_|_|_|
        # |1|R|_|_|         |1|_|_|R|_|_|          |1|_|R|R|2|_|
        (["|_|_|_|_|", "|_|R|R|2|", "|1|R|_|_|"], True),
        (["|R|_|_|_|_|_|", "|R|_|R|R|R|2|", "|1|_|_|R|_|_|"], False),
        (["|R|_|_|_|_|_|", "|R|R|_|_|_|_|", "|1|_|R|R|2|_|"], False),
    ],
)
def test_trade_and_no_trade_diagrams(rows: list[str], can: bool) -> None:
    board = from_rows(rows)
    p1 = next(c for c in range(100) if board[c] == CITY0)
    p2 = next(c for c in range(100) if board[c] == CITY0 + 1)
    assert (Network(board).routes(p1, p2) == [()]) == can
    state = game(2).position(board, phase=Phase.TRADE)
    offers = [a for a in state.legal_actions() if isinstance(a, Offer)]
    assert bool(offers) == can
    if not can:
        with pytest.raises(plunder.IllegalActionError) as err:
            state.apply(Offer(p1, p2, (), (), 2, 1))
        assert err.value.rule == "CR-3"


def test_trading_through_player_3() -> None:
    # CR-3/CR-7: players 1 and 2 can trade only if player 3 lets the trade through C2.
    #    A B C D E F
    # 1 |R|R|R|_|R|2|
    # 2 |R|_|3|_|R|_|
    # 3 |1|_|R|R|R|_|
    board = from_rows(["|R|R|R|_|R|2|", "|R|_|3|_|R|_|", "|1|_|R|R|R|_|"])
    a, b, relay = cell(2, 0), cell(0, 5), cell(1, 2)
    assert Network(board).routes(a, b) == [(relay,)]
    state = game(3).position(board, phase=Phase.TRADE)
    offer = state.apply_text("offer A3-F1 via C2=1 gold 1/1")
    assert offer.current_player == 1  # the partner answers first
    offer = offer.apply_text("accept")
    assert offer.current_player == 2  # then player 3, whose city carries the trade
    done = offer.apply_text("accept")
    assert done.gold == (1, 1, 1)
    assert isinstance(done, CrossroadsState)
    # Relaying does not use up player 3's city (CR-7); both traders' cities are used.
    assert done.used == frozenset({a, b})
    # Player 3 may refuse instead, and then nobody gains.
    refused = offer.apply_text("reject")
    assert refused.gold == (0, 0, 0) and refused.trade_gold == (0, 0, 0)
    # An offer that skips the relay is refused with the route ruling.
    with pytest.raises(plunder.IllegalActionError) as err:
        state.apply_text("offer A3-F1 gold 2/1")
    assert err.value.rule == "CR-10"


def test_each_city_trades_once_per_round() -> None:
    # CR-7 example: P1 and P2 each have two cities, but can trade only once, because
    # P1's city F2 is not connected with either of P2's cities (and A3 reaches D3 only
    # through P2's own C1, which is no relay: CR-10).
    #    A B C D E F
    # 1 |R|R|2|_|R|_|
    # 2 |R|_|R|_|R|1|
    # 3 |1|_|R|2|_|_|
    board = from_rows(["|R|R|2|_|R|_|", "|R|_|R|_|R|1|", "|1|_|R|2|_|_|"])
    state = game(2).position(board, phase=Phase.TRADE)
    assert isinstance(state, CrossroadsState)
    assert {(a, b) for a, b, _ in state.trade_pairs(0)} == {(cell(2, 0), cell(0, 2))}
    assert {(a, b) for a, b, _ in state.trade_pairs(1)} == {(cell(0, 2), cell(2, 0))}
    after = state.apply_text("offer A3-C1 gold 2/1").apply_text("accept")
    assert isinstance(after, CrossroadsState)
    assert after.gold == (2, 1)
    assert after.trade_pairs(0) == [] and after.trade_pairs(1) == []
    with pytest.raises(plunder.IllegalActionError) as err:
        after.apply_text("offer C1-A3 gold 2/1")
    assert err.value.rule == "CR-7" and "already traded" in err.value.reason
