"""Scenario tests for every Profiteer ruling, each from a stacked deck.

Tables are drawn as

    side A deck: ...        side B deck: ...        resources: ...

and a flip as ``A 9S v B 7C``. Decks are sets whose order is decided as cards are drawn
(PF-9), so a test stacks a deck by the draws it applies, in the order A up, B up,
(the profiteer's choice), A face-down, B face-down.
"""

from __future__ import annotations

from typing import Any

import pytest

from plunder import IllegalActionError, InvalidActionError, ParameterError, load_game
from plunder.core.game import CHANCE, TERMINAL
from plunder.games.profiteer.actions import END, KEEP, Draw, Give, Side, Switch
from plunder.games.profiteer.cards import FULL_DECK, Rank, card_list, nth_card, parse_card, parse_cards, rank
from plunder.games.profiteer.flow import BALANCE, REDRAW, SWITCH, UP_A, Ending
from plunder.games.profiteer.rules import ProfiteerState
from tests.games.profiteer.profiteer_helpers import Tally, deal, game, stacked


def c(text: str) -> int:
    return parse_card(text)


def cs(text: str) -> int:
    return parse_cards(text)


# ---- PF-1: ranks, suits never matter --------------------------------------------------


def test_pf1_rank_order_ten_below_jack_and_ace_high() -> None:
    assert [rank(c(t)) for t in "2C 9S 10H JD QC KS AH".split()] == [0, 7, 8, 9, 10, 11, 12]
    # side A deck: 10H AS      side B deck: JC AD      resources: none
    t = Tally(stacked(game(), a="10H AS", b="JC AD"))
    s = t.deal("10H JC")          # A 10H v B JC: the jack wins
    assert s.discard_b == cs("10H JC") and s.discard_a == 0
    # equal ranks in different suits are a war, not a win on suit; A has no card
    # left for it and loses it (PF-5); B, short, had shuffled its discard into its deck
    s = t.deal("AS AD")
    assert t["wars"] == 1 and s.discard_b == cs("AS AD") and s.known_b == cs("10H JC") and s.pile_b() == 4


def test_pf4_plain_flips_and_the_next_pass() -> None:
    # side A deck: 9H 4C       side B deck: 7C 5D       resources: none
    t = Tally(stacked(game(), a="9H 4C", b="7C 5D"))
    s = t.deal("9H 7C")           # A 9H v B 7C -> A takes both
    assert s.discard_a == cs("9H 7C") and s.deck_a() == 1 and s.phase == UP_A
    s = t.deal("4C 5D")           # A 4C v B 5D -> B takes both
    # PF-6/PF-7: both decks empty, 2 v 2 -> each pile becomes its deck, pass 2 begins
    assert s.round == 2 and s.phase == UP_A
    assert s.known_a == cs("9H 7C") and s.known_b == cs("4C 5D") and s.discard_a == s.discard_b == 0
    assert t["flips"] == 2


# ---- PF-2 / PF-11: setup ----------------------------------------------------------------


def test_pf2_setup_keeps_eight_highest_and_returns_two_lowest_to_the_deck() -> None:
    s = game().new_initial_state()
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 52 and all(p == pytest.approx(1 / 52) for _, p in outcomes)
    s = deal(s, "2C 2D AS KS QS JS 10S 9S 8S 7S")
    assert s.resources == cs("AS KS QS JS 10S 9S 8S 7S")
    assert s.pool == FULL_DECK & ~s.resources and s.pool & cs("2C 2D") == cs("2C 2D")
    assert s.unseen_a == s.unseen_b == 22 and s.known_a == s.known_b == 0 and s.round == 1 and s.phase == UP_A
    # PF-9: the sides' decks are not decided: A's first card is any of the 44 unseen
    first = s.chance_outcomes()
    assert len(first) == 44 and all(p == pytest.approx(1 / 44) for _, p in first)
    assert s.total() == 8


def test_pf11_equal_lowest_ranks_return_by_suit_order() -> None:
    s = deal(game().new_initial_state(), "5H 5C 5D 9C 9D 9H 9S 10C 10D 10H")
    assert s.pool & cs("5C 5D 5H") == cs("5C 5D")
    assert s.resources & cs("5C 5D 5H") == cs("5H")


def test_pf2_parameters_are_checked() -> None:
    with pytest.raises(ParameterError, match="odd"):
        load_game("profiteer", keep="7")
    with pytest.raises(ParameterError, match="more than hand"):
        load_game("profiteer", hand="6", keep="8")
    with pytest.raises(ParameterError, match="war_switch"):
        load_game("profiteer", war_switch="maybe")
    with pytest.raises(ParameterError, match="max_rounds"):
        load_game("profiteer", max_rounds="0")
    lean = load_game("profiteer", preset="lean").new_initial_state()
    assert isinstance(lean, ProfiteerState)
    s = deal(lean, "2C 3C 4C 5C 6C 7C")
    assert s.resources == cs("4C 5C 6C 7C") and s.unseen_a == s.unseen_b == 24


# ---- PF-3: the switch ---------------------------------------------------------------------


def test_pf3_switch_that_creates_a_war() -> None:
    # side A deck: 8S QD 3C 2C   side B deck: QH 4D 5C 6C   resources: QC KS
    #   A 8S v B QH --switch A Q--> A QC v B QH: war
    #   war round 1: A QD (face-down 3C) v B 4D (face-down 5C) -> A takes QC QH QD 4D
    t = Tally(stacked(game(), a="8S QD 3C 2C", b="QH 4D 5C 6C", res="QC KS"))
    s = t.deal("8S QH")
    assert s.phase == SWITCH and s.current_player == 0
    assert s.legal_actions() == [KEEP, Switch(Side.A, Rank.QUEEN), Switch(Side.A, Rank.KING), Switch(Side.B, Rank.KING)]
    before = s.total()
    s = t.deal("switch A Q")
    assert s.total() == before, "a switch never changes the profiteer's total"
    assert s.profiteer_discard == cs("8S") and s.resources == cs("KS") and s.war_round == 1 and t["wars"] == 1
    assert s.down_due_a and s.down_due_b and t["switches"] == 1
    s = t.deal("QD 4D")            # no switch on a war's cards: straight to the face-downs
    assert s.current_player == CHANCE
    s = t.deal("3C 5C")
    assert s.discard_a == cs("QC QH QD 4D") and s.discard_b == 0
    assert s.profiteer_discard == cs("8S 3C 5C") and s.total() == before + 2 and t["war_cards"] == 2
    assert s.phase == UP_A and s.deck_a() == s.deck_b() == 1


def test_pf3_switch_allowed_on_a_tie_and_must_outrank() -> None:
    # side A deck: 7S   side B deck: 7H   resources: 9D 7D
    t = Tally(stacked(game(), a="7S", b="7H", res="9D 7D"))
    s = t.deal("7S 7H")
    assert s.phase == SWITCH
    with pytest.raises(IllegalActionError, match=r"outrank side A's 7S.*PF-3") as err:
        s.apply_text("switch A 7")
    assert err.value.rule == "PF-3"
    with pytest.raises(IllegalActionError, match="you hold no 8 among your resources"):
        s.apply_text("switch A 8")
    with pytest.raises(IllegalActionError, match="PF-6"):
        s.apply_text("give 9")
    s = t.deal("switch B 9")       # breaks the tie: B's 9D takes 7S and 9D
    assert t["wars"] == 0 and s.discard_b == cs("7S 9D") and s.profiteer_discard == cs("7H")


def test_pf3_no_switching_on_a_war_unless_war_switch() -> None:
    # side A deck: 6S 9C 2C   side B deck: 6H 10C 3C   resources: KD
    #   A 6S v B 6H: war; war round 1: A 9C v B 10C
    table: dict[str, Any] = dict(a="6S 9C 2C", b="6H 10C 3C", res="KD")
    s = deal(stacked(game(), **table), "6S 6H", "keep", "9C 10C")
    assert s.current_player == CHANCE and s.war_round == 1
    with pytest.raises(IllegalActionError, match=r"no switching on a war's cards.*PF-3"):
        s.apply_text("switch A K")
    # PF-13: with war_switch=true the war's face-up pair is a flip with its own switch
    s = deal(stacked(game(war_switch="true"), **table), "6S 6H", "keep", "9C 10C")
    assert s.phase == SWITCH and s.war_round == 1
    s = deal(s, "switch A K", "2C 3C")
    assert s.discard_a == cs("6S 6H KD 10C") and s.profiteer_discard == cs("9C 2C 3C")


def test_no_choice_is_offered_when_no_resource_outranks_either_card() -> None:
    s = deal(stacked(game(), a="AS 2C", b="KS 3C", res="QD"), "AS KS")
    assert s.phase == UP_A and s.discard_a == cs("AS KS")


# ---- PF-4: wars ---------------------------------------------------------------------------


def test_pf4_double_war_and_pf8_a_side_with_no_cards_ends_the_game() -> None:
    # side A deck: 5S 5D 2C 9C 3C     side B deck: 5H 5C 2D 7C 4C
    #   A 5S v B 5H  war
    #   round 1: A 5D (down 2C) v B 5C (down 2D)  war again
    #   round 2: A 9C (down 3C) v B 7C (down 4C)  A takes the six face-up cards
    t = Tally(stacked(game(), a="5S 5D 2C 9C 3C", b="5H 5C 2D 7C 4C"))
    s = t.deal("5S 5H", "5D 5C", "2C 2D")
    assert s.war_round == 2 and t["war_rounds"] == 2 and t["wars"] == 1
    s = deal(s, "9C 7C 3C 4C")
    assert s.discard_a == cs("5S 5H 5D 5C 9C 7C") and s.profiteer_discard == cs("2C 2D 3C 4C")
    # both decks are empty; side B has nothing at the count
    assert s.is_terminal() and s.ending == Ending.EMPTY
    assert s.scores() == [4.0] and s.returns() == [-1.0]


# ---- PF-5: running short mid-war ------------------------------------------------------------


def test_pf5_one_card_plays_face_up_and_a_short_side_reshuffles_its_discard() -> None:
    # side A deck: 7S 9C  (discard none)   side B deck: 7H 4C  (discard 2S 3S)
    #   A 7S v B 7H war; A is down to one card: plays 9C face up, no face-down.
    #   B has one in its deck: shuffles 2S 3S in, plays 2S up and 3S down.
    t = Tally(stacked(game(), a="7S 9C", b="7H 4C", db="2S 3S"))
    s = t.deal("7S 7H")
    assert s.war_round == 1 and not s.down_due_a and s.down_due_b and t["reshuffles"] == 1
    assert s.known_b == cs("4C 2S 3S") and s.discard_b == 0
    s = deal(s, "9C 2S")
    with pytest.raises(IllegalActionError, match=r"4D is not in side B's deck.*PF-9"):
        s.apply_text("4D")
    s = deal(s, "3S")
    assert s.discard_a == cs("7S 7H 9C 2S") and s.profiteer_discard == cs("3S")
    # PF-10: A's deck is empty: the pass ends; B's leftover 4C counts in its pile
    assert s.is_terminal() and s.ending == Ending.UNEQUAL and s.pile_b() == 1 and s.pile_a() == 4


def test_pf5_after_a_war_that_needed_a_reshuffle_the_pass_ends_though_the_decks_hold_cards() -> None:
    # side A deck: 9S 7S   discard: 3D
    # side B deck: 2C 7H   discard: 3H 4H 5H 6H JH QH KH        resources: none
    #   A 9S v B 2C         A takes both: A discard 3D 9S 2C
    #   A 7S v B 7H         war; both decks are empty: both sides shuffle their discard in
    #                         side A deck: 3D 9S 2C     side B deck: 3H 4H 5H 6H JH QH KH
    #   round 1: A 9S (down 2C) v B 4H (down 3H)   A takes 7S 7H 9S 4H
    #                         side A deck: 3D  discard: 7S 7H 9S 4H    pile 5
    #                         side B deck: 5H 6H JH QH KH               pile 5
    # The war is resolved: the pass ends and the count follows at once (text steps 6-7),
    # 5 v 5, so each pile becomes its deck for pass 2. Flipping on would have played 3D v B.
    t = Tally(stacked(game(), a="9S 7S", b="2C 7H", da="3D", db="3H 4H 5H 6H JH QH KH"))
    s = t.deal("9S 2C", "7S 7H")
    assert s.war_round == 1 and t["reshuffles"] == 1 and s.discard_a == s.discard_b == 0
    assert s.known_a == cs("3D 9S 2C") and s.known_b == cs("3H 4H 5H 6H JH QH KH")
    s = deal(s, "9S 4H 2C 3H")
    assert s.round == 2 and s.phase == UP_A
    assert s.known_a == cs("3D 7S 7H 9S 4H") and s.known_b == cs("5H 6H JH QH KH") and s.discard_a == s.discard_b == 0
    assert "pass 1 counted: side A 5, side B 5" in s.last


def test_pf5_the_count_after_a_reshuffled_war_can_end_the_game() -> None:
    # as above with two cards fewer in B's discard:
    #   count A 5 (deck 3D, discard 7S 7H 9S 4H) v B 3 (deck 5H JH QH): unequal, no resources
    s = stacked(game(), a="9S 7S", b="2C 7H", da="3D", db="3H 4H 5H JH QH")
    s = deal(s, "9S 2C", "7S 7H", "9S 4H 2C 3H")
    assert s.is_terminal() and s.ending == Ending.UNEQUAL
    assert (s.deck_a(), s.pile_a(), s.deck_b(), s.pile_b()) == (1, 5, 3, 3)


def test_pf5_when_a_war_needs_more_cards_both_sides_shuffle_their_discard_in() -> None:
    # side A deck: 7S 8D   discard: 2S 3S
    # side B deck: 7H 5C 6C 4C   discard: KD
    #   A 7S v B 7H   war; A has one card left, short of the two a war round needs:
    #                 both sides shuffle in   side A deck: 8D 2S 3S   side B deck: 5C 6C 4C KD
    #   round 1: A 8D (down 2S) v B KD (down 5C)   B takes 7S 7H 8D KD
    #   then the count: A 1 (3S) v B 6 (6C 4C and the four won)
    s = stacked(game(), a="7S 8D", b="7H 5C 6C 4C", da="2S 3S", db="KD")
    s = deal(s, "7S 7H")
    assert s.known_a == cs("8D 2S 3S") and s.known_b == cs("5C 6C 4C KD") and s.discard_a == s.discard_b == 0
    s = deal(s, "8D KD 2S 5C")
    assert s.discard_b == cs("7S 7H 8D KD") and s.profiteer_discard == cs("2S 5C")
    assert s.is_terminal() and s.ending == Ending.UNEQUAL and (s.pile_a(), s.pile_b()) == (1, 6)


def test_pf5_a_side_with_no_card_loses_the_war() -> None:
    # side A deck: 7S  (discard none)   side B deck: 7H 5C 6C
    s = stacked(game(), a="7S", b="7H 5C 6C")
    s = deal(s, "7S 7H")
    assert s.discard_b == cs("7S 7H") and s.profiteer_discard == 0
    assert s.is_terminal() and s.ending == Ending.EMPTY


def test_pf12_neither_side_has_a_card_each_takes_back_its_own() -> None:
    # side A deck: 7S   side B deck: 7H   -> war, and neither can play
    s = deal(stacked(game(max_rounds="2"), a="7S", b="7H"), "7S 7H")
    assert s.round == 2 and s.known_a == cs("7S") and s.known_b == cs("7H")   # 1 v 1: the game goes on
    s = deal(s, "7S 7H")
    assert s.is_terminal() and s.ending == Ending.ROUNDS


# ---- PF-6 / PF-14: the count and balancing gifts ----------------------------------------------


def test_pf6_balancing_gift_card_by_card() -> None:
    # side A deck: 9S 8S 2D   side B deck: 2C 3C KD   resources: 4H 5H 6H
    #   A 9S v B 2C, A 8S v B 3C, A 2D v B KD  -> count A 4, B 2
    t = Tally(stacked(game(), a="9S 8S 2D", b="2C 3C KD", res="4H 5H 6H"))
    s = t.deal("9S 2C keep 8S 3C keep 2D KD keep")
    assert s.phase == BALANCE and s.pile_a() == 4 and s.pile_b() == 2
    assert s.legal_actions()[0] == END and len(s.legal_actions()) == 4
    s = t.deal("give 4")
    assert s.discard_b == cs("2D KD 4H") and t["gifts"] == 1 and s.total() == 2
    with pytest.raises(IllegalActionError, match="PF-14"):
        s.apply_text("end")
    s = deal(s, "give 5")
    # PF-7: balanced at 4 each; the profiteer's one card is drawn and, the lowest, put back
    assert s.round == 2 and s.phase == UP_A and s.resources == 0 and s.profiteer_discard == cs("6H")
    assert s.known_a == cs("9S 2C 8S 3C") and s.known_b == cs("2D KD 4H 5H")


def test_pf6_declining_to_balance_ends_the_game() -> None:
    s = stacked(game(), a="9S 8S 2D", b="2C 3C KD", res="4H 5H 6H")
    s = deal(s, "9S 2C keep 8S 3C keep 2D KD keep end")
    assert s.is_terminal() and s.ending == Ending.DECLINED and s.total() == 3


def test_pf6_unequal_piles_beyond_the_resources_end_the_game() -> None:
    # count A 4, B 2: two gifts needed, one resource
    s = stacked(game(), a="9S 8S 2D", b="2C 3C KD", res="4H")
    s = deal(s, "9S 2C keep 8S 3C keep 2D KD keep")
    assert s.is_terminal() and s.ending == Ending.UNEQUAL


# ---- PF-7: reshuffle and redraw -------------------------------------------------------------------


def test_pf7_the_profiteer_redraws_ten_and_puts_the_two_lowest_back() -> None:
    # side A deck: 9S 3D   side B deck: 2C KH   profiteer discard: 12 cards
    pile = "4C 5C 6C 7C 8C 9C 10C JC QC KC AC 4D"
    s = stacked(game(), a="9S 3D", b="2C KH", pdisc=pile)
    s = deal(s, "9S 2C 3D KH")
    assert s.phase == REDRAW and s.round == 1
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 12 and all(p == pytest.approx(1 / 12) for _, p in outcomes)
    s = deal(s, "AC KC 4C QC 5C JC 10C 9C 8C 4D")
    assert s.round == 2 and s.phase == UP_A
    assert s.resources == cs("AC KC QC JC 10C 9C 8C 5C")
    assert s.profiteer_discard == cs("6C 7C 4C 4D")
    assert s.known_a == cs("9S 2C") and s.known_b == cs("3D KH")


# ---- PF-8: the end and the win ---------------------------------------------------------------------


@pytest.mark.parametrize("target,result", [("48", 1.0), ("49", -1.0)])
def test_pf8_game_ends_at_the_count_of_the_last_pass_and_wins_at_target(target: str, result: float) -> None:
    # the profiteer holds the 48 cards not on the sides' decks
    s = stacked(game(max_rounds="1", target=target), a="9S 3D", b="2C KH", rest_to_profiteer=True)
    s = deal(s, "9S 2C 3D KH")
    assert s.current_player == TERMINAL and s.ending == Ending.ROUNDS
    assert s.scores() == [48.0] and s.returns() == [result]
    assert s.legal_actions() == []
    with pytest.raises(IllegalActionError, match="PF-8"):
        s.apply(KEEP)


# ---- PF-9: no future card is ever held ----------------------------------------------------------------


def test_pf9_a_deck_of_known_and_unseen_cards() -> None:
    g = game()
    s = ProfiteerState(game=g, phase=UP_A, round=1, known_a=cs("AS"), unseen_a=1, pool=cs("2C 3C"),
                       known_b=cs("4H"))
    odds = {a: p for a, p in s.chance_outcomes()}
    assert odds == {Draw(c("AS")): 0.5, Draw(c("2C")): 0.25, Draw(c("3C")): 0.25}
    t = deal(s, "3C")
    assert t.unseen_a == 0 and t.pool == cs("2C") and t.face_up_a == c("3C")


def test_a_game_from_the_top_never_names_an_undrawn_card() -> None:
    import random

    g = game()
    rng = random.Random(5)
    s = g.new_initial_state()
    while not s.is_terminal():
        if s.phase == UP_A and s.round == 1:
            # in the first pass the decks hold only unseen cards, by count
            assert s.known_a == 0 and s.known_b == 0
        acts = s.legal_actions()
        s = s.apply(rng.choice(acts))


# ---- texts -------------------------------------------------------------------------------------


def test_action_texts_round_trip_and_bad_text_is_refused() -> None:
    g = game()
    s = deal(stacked(g, a="8S 2C", b="QH 3C", res="QC KS 10D"), "8S QH")
    for action in s.legal_actions():
        text = g.action_to_text(s, action)
        assert g.parse_action(s, text) == action
    assert g.parse_action(s, "switch b k") == Switch(Side.B, Rank.KING)
    # a card is read as its rank (suits never matter, PF-1); pass is read as keep
    assert g.parse_action(s, "Switch A TD") == Switch(Side.A, Rank.TEN) == g.parse_action(s, "switch a 10")
    assert g.parse_action(s, "pass") == KEEP and g.parse_action(s, "give 7c") == Give(Rank.SEVEN)
    for bad in ("", "switch C KS", "switch A", "give", "ZZ", "11H", "keep now", "QX"):
        with pytest.raises(InvalidActionError):
            g.parse_action(s, bad)
    with pytest.raises(IllegalActionError, match="PF-9"):
        s.apply_text("QS")


def test_card_lists() -> None:
    assert card_list(cs("AS 2C 10H")) == [c("2C"), c("10H"), c("AS")]
    with pytest.raises(ValueError, match="twice"):
        parse_cards("2C 2C")


def test_nth_card_walks_the_set_in_order() -> None:
    for mask in (cs("AS 2C 10H"), FULL_DECK, cs("5C 5D 5H 5S 6C"), cs("KD")):
        assert [nth_card(mask, i) for i in range(mask.bit_count())] == card_list(mask)
