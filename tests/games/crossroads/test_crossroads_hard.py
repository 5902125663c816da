"""Crossroads ``hard`` (``crossroads-hard``): when it stops building, how it trades, and the level."""

from __future__ import annotations

import random
from typing import Any

import plunder
import pytest
from plunder.agents import agent_names, make_agent
from plunder.games.crossroads.actions import Accept, City, Done, Offer, Pass, Reject
from plunder.games.crossroads.board import cell, from_rows
from plunder.games.crossroads.hard import expected_pay, rounds_left
from plunder.games.crossroads.rules import CrossroadsGame, CrossroadsState, Phase

# Two players joined by a road (P1 on A3, P2 on D2), room for both to grow:
#    A B C D
# 1 |_|_|_|_|
# 2 |_|R|R|2|
# 3 |1|R|_|_|
LINKED = from_rows(["|_|_|_|_|", "|_|R|R|2|", "|1|R|_|_|"])


def game(players: int = 2, **params: Any) -> CrossroadsGame:
    return CrossroadsGame.load(players=players, **params)


def choose(name: str, state: plunder.State) -> Any:
    return make_agent(name, state.game).choose(state, random.Random(0))


def position(gold: tuple[int, ...], phase: Phase = Phase.BUILD, round: int = 1, **params: Any) -> CrossroadsState:
    state = game(**params).position(LINKED, gold=gold, phase=phase, round=round)
    assert isinstance(state, CrossroadsState)
    return state


def test_hard_is_the_level_and_plays_whole_games_at_every_player_count() -> None:
    for players in range(2, 7):
        names = ["hard"] + ["greedy", "greedy-splitter", "tit-for-tat", "grudger", "always-fair"][:players - 1]
        record = plunder.play(game(players), names, seed=players)
        assert plunder.replay(record).is_terminal()
    assert "crossroads-hard" in agent_names(game())


def test_expected_pay_counts_each_cell_once_in_25_rolls() -> None:
    # P1's city A3 pays 5 itself; its empty neighbours A2, A4, B4 pay 3 each (B2 and B3
    # are roads); the road network B2-C2-B3 touches A3, and each of its 3 cells pays 1.
    pay = expected_pay(LINKED, 2)
    assert pay[0] == pytest.approx((5 + 3 * 3 + 3 * 1) / 25)


def test_it_builds_a_city_early_and_saves_its_gold_at_the_end() -> None:
    early = position((12, 0), round=1)
    assert isinstance(choose("hard", early), City)
    assert isinstance(choose("greedy", early), City)
    # P2 holds 98 of the 100: this round is the last, and a city bought now pays back nothing.
    late = position((12, 98), round=9)
    assert rounds_left(late) == 0
    assert choose("hard", late) == Done()
    assert isinstance(choose("greedy", late), City)
    # payback=0 asks nothing of a build: it buys the city as greedy does.
    assert isinstance(choose("hard:payback=0", late), City)


def test_it_offers_two_one_and_refuses_every_offer_as_a_partner() -> None:
    state = position((0, 0), phase=Phase.TRADE)
    assert choose("hard", state) == Offer(cell(2, 0), cell(1, 3), (), (), 2, 1)
    for split in ("3/0", "2/1", "1/2", "0/3"):
        offered = state.apply_text("pass").apply_text(f"offer D2-A3 gold {split}")
        assert offered.current_player == 0
        assert choose("hard", offered) == Reject()


def test_it_offers_nothing_that_brings_a_rival_to_the_win() -> None:
    # P2 at 97 would reach 98, within the guard of 6 of both the target and P1's 95.
    state = position((95, 97), phase=Phase.TRADE)
    assert choose("hard", state) == Pass()
    assert choose("hard:guard=0", state) == Offer(cell(2, 0), cell(1, 3), (), (), 2, 1)


def test_as_a_relay_it_blocks_a_rival_on_its_way_to_the_win() -> None:
    # The text's relay picture: P1 and P2 trade through P3's (hard's) city C2.
    board = from_rows(["|R|R|R|_|R|2|", "|R|_|3|_|R|_|", "|1|_|R|R|R|_|"])

    def at(gold: tuple[int, int, int]) -> plunder.State:
        state = game(3).position(board, gold=gold, phase=Phase.TRADE)
        state = state.apply_text("offer A3-F1 via C2=1 gold 1/1").apply_text("accept")
        assert state.current_player == 2
        return state

    assert choose("hard", at((10, 10, 10))) == Accept()
    assert choose("hard", at((98, 10, 10))) == Reject()


def test_as_proposer_it_keeps_a_changed_offer_while_it_leaves_it_one() -> None:
    # P3's C2 has traded this round, so P1 (hard) can only reach P2 through it: a relay
    # city is not used up (CR-7).
    board = from_rows(["|R|R|R|_|R|2|", "|R|_|3|_|R|_|", "|1|_|R|R|R|_|"])
    state = game(3).position(board, phase=Phase.TRADE).evolve(used=frozenset({cell(1, 2)}))
    offer = choose("hard", state)
    assert offer == Offer(cell(2, 0), cell(0, 5), (cell(1, 2),), (0,), 2, 1)
    state = state.apply(offer).apply_text("accept").apply_text("demand 1")
    assert state.current_player == 0 and choose("hard", state) == Accept()
    # the demand came out of its share: 1 for it, 1 for P2, a fee of 1 for P3
    state = state.apply_text("accept").apply_text("accept")
    assert state.gold == (1, 1, 1)


def test_options_are_checked() -> None:
    with pytest.raises(plunder.ParameterError):
        make_agent("hard:payback=-1", game())
    with pytest.raises(plunder.ParameterError):
        make_agent("crossroads-hard:x=1", game())
