"""Crossroads agents: legal play, the greedy builder, and each trading personality's choices."""

from __future__ import annotations

import random
from typing import Any

import plunder
import pytest
from plunder.agents import agent_names, make_agent
from plunder.games.crossroads.actions import Accept, Axis, City, Demand, Done, Offer, Pass, Place, Reject
from plunder.games.crossroads.board import activated, activation_pay, cell, from_rows
from plunder.games.crossroads.rules import CrossroadsGame, CrossroadsState, Phase

PERSONALITIES = ["tit-for-tat", "greedy-splitter", "always-fair", "grudger"]

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


def test_every_agent_is_registered() -> None:
    names = agent_names(game())
    for name in ["random", "greedy", *PERSONALITIES]:
        assert name in names


def test_agents_take_no_options() -> None:
    with pytest.raises(plunder.ParameterError):
        make_agent("grudger:x=1", game())


@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_full_game_of_agents_is_legal_and_ends(players: int) -> None:
    names = (PERSONALITIES + ["greedy", "random"])[:players]
    record = plunder.play(game(players), names, seed=players)
    assert record.returns is not None and sorted(record.returns)[-1] >= 0
    final = plunder.replay(record)
    assert final.is_terminal()


def test_greedy_builds_a_city_when_it_can() -> None:
    state = game().position(LINKED, gold=(10, 0))
    action = choose("greedy", state)
    assert isinstance(action, City)
    assert action in state.legal_actions()


def test_greedy_keeps_its_gold_when_nothing_pays() -> None:
    # Two gold buys nothing; the builder says done.
    assert choose("greedy", game().position(LINKED, gold=(2, 0))) == Done()


def test_greedy_picks_the_axis_that_pays_it_most() -> None:
    # P1's city sits on B3 (column label 2, row label 3): col 2 row 3 pays it 5, while
    # col 3 row 2 lights C2, a kitty-corner neighbour, worth only 3.
    #    A B C
    # 1 |_|_|_|
    # 2 |_|_|*|
    # 3 |_|1|_|
    board = from_rows(["|_|_|_|", "|_|_|_|", "|_|1|_|"])
    state = game().position(board, phase=Phase.ROLL).apply_text("roll 2-3")
    assert choose("greedy", state) == Axis(2, 3)
    assert activation_pay(board, state.net, activated(2, 3), 2)[0] == 5
    assert activation_pay(board, state.net, activated(3, 2), 2)[0] == 3


def trade_state(**params: Any) -> CrossroadsState:
    state = game(**params).position(LINKED, phase=Phase.TRADE)
    assert isinstance(state, CrossroadsState)
    return state


def test_fair_players_offer_two_one_and_the_splitter_three_nothing() -> None:
    state = trade_state()
    for name in ("always-fair", "greedy", "tit-for-tat", "grudger"):
        assert choose(name, state) == Offer(cell(2, 0), cell(1, 3), (), (), 2, 1)
    assert choose("greedy-splitter", state) == Offer(cell(2, 0), cell(1, 3), (), (), 3, 0)


def test_everyone_but_random_refuses_nothing_and_accepts_one() -> None:
    greedy_offer = trade_state().apply_text("offer A3-D2 gold 3/0")
    fair_offer = trade_state().apply_text("offer A3-D2 gold 2/1")
    for name in PERSONALITIES + ["greedy"]:
        assert choose(name, greedy_offer) == Reject()
        assert choose(name, fair_offer) == Accept()


def test_tit_for_tat_mirrors_the_last_treatment() -> None:
    # P2 offered P1 nothing last time: tit-for-tat answers in kind ...
    state = trade_state()
    hurt = state.apply_text("pass").apply_text("offer D2-A3 gold 3/0").apply_text("reject")
    assert isinstance(hurt, CrossroadsState) and hurt.current_player == 0
    assert choose("tit-for-tat", hurt) == Offer(cell(2, 0), cell(1, 3), (), (), 3, 0)
    # ... and forgives once P2 is fair again.
    healed = state.apply_text("pass").apply_text("offer D2-A3 gold 2/1").apply_text("reject")
    assert choose("tit-for-tat", healed) == Offer(cell(2, 0), cell(1, 3), (), (), 2, 1)


def test_grudger_never_trades_again_with_a_cheat() -> None:
    state = trade_state()
    cheated = state.apply_text("pass").apply_text("offer D2-A3 gold 3/0").apply_text("reject")
    assert choose("grudger", cheated) == Pass()
    # Even a fair offer from the cheat is refused; the grudge does not fade.
    later = cheated.apply_text("pass").apply_text("offer D2-A3 gold 1/2")
    assert later.current_player == 0 and choose("grudger", later) == Reject()


def test_agents_do_not_repeat_an_offer_that_was_refused() -> None:
    state = trade_state().apply_text("offer A3-D2 gold 2/1").apply_text("reject").apply_text("pass")
    assert state.current_player == 0
    assert choose("always-fair", state) == Pass()


def test_splitter_as_relay_demands_a_fee_and_fair_relay_lets_it_through() -> None:
    # The text's relay picture: P1 and P2 trade through P3's city C2.
    board = from_rows(["|R|R|R|_|R|2|", "|R|_|3|_|R|_|", "|1|_|R|R|R|_|"])
    state = game(3).position(board, phase=Phase.TRADE).apply_text("offer A3-F1 via C2=0 gold 2/1").apply_text("accept")
    assert state.current_player == 2
    assert choose("greedy-splitter", state) == Demand(1)
    assert choose("always-fair", state) == Accept()
    # The proposer (a fair player) still accepts, keeping 1.
    demanded = state.apply_text("demand 1")
    assert choose("always-fair", demanded) == Accept()


def test_after_a_relay_refuses_the_agents_take_the_detour() -> None:
    # CR-7 amended. P1 (A1) reaches P2 (I1) through P3's D1, or round it through P4's C4
    # and P5's H4, which also trade with each other along the bottom road.
    #    A B C D E F G H I
    # 1 |1|R|R|3|R|R|R|R|2|
    # 2 |_|_|R|_|_|_|_|R|_|
    # 3 |_|_|R|_|_|_|_|R|_|
    # 4 |_|_|4|_|_|_|_|5|_|
    # 5 |_|_|R|R|R|R|R|R|_|
    board = from_rows(["|1|R|R|3|R|R|R|R|2|", "|_|_|R|_|_|_|_|R|_|", "|_|_|R|_|_|_|_|R|_|",
                       "|_|_|4|_|_|_|_|5|_|", "|_|_|R|R|R|R|R|R|_|"])
    state = game(5).position(board, phase=Phase.TRADE)
    # Left alone, the agent offers to a direct partner (D1 or C4): the fewest relays of all.
    first = choose("always-fair", state)
    assert isinstance(first, Offer) and first.relays == () and first.b in (cell(0, 3), cell(3, 2))
    # P3 refuses to relay; P4 and P5 trade their cities with each other (relays stay free).
    for text in ("offer A1-I1 via D1=0 gold 2/1", "accept", "reject", "pass", "pass", "offer C4-H4 gold 2/1",
                 "accept", "pass"):
        state = state.apply_text(text)
    assert state.current_player == 0
    detour = choose("always-fair", state)
    assert detour == Offer(cell(0, 0), cell(0, 8), (cell(3, 2), cell(3, 7)), (1, 0), 1, 1)
    state = state.apply(detour)
    for seat in (1, 3, 4):
        assert state.current_player == seat
        state = state.apply(choose("always-fair", state))
    assert state.gold == (1, 1, 0, 3, 1)


def test_setup_placement_prefers_open_ground() -> None:
    state = game().new_initial_state().apply_text("roll 1-1")
    action = choose("greedy", state)
    assert isinstance(action, Place)
    # A1 (corner) has 3 neighbours; F6 and the others inside have 8.
    assert action.cell != cell(0, 0)
