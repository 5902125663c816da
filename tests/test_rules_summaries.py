"""``plunder rules``' one-screen summaries state the rules the seed texts give, where issue 23
found them wrong or silent (each test quotes the seed or cites the ruling)."""

from __future__ import annotations

from plunder.core.registry import entry


def _words(game_id: str) -> str:
    """The summary as one line of single-spaced words."""
    return " ".join(entry(game_id).presentation.how_to_play.split())


def test_pirates_drowns_only_a_pirate_who_cannot_pay_for_a_new_ship_and_crew() -> None:
    # seed 001: "If the loss of your last crew precipitates the loss of a sloop, and if you cannot
    # afford to replace them in the upgrade step, you will drown at sea at the end of this turn." (PR-9)
    text = _words("pirates")
    assert "losing your last crew drowns you" not in text
    assert "Buy a new ship and crew in the refit; only if you cannot pay do you drown at the end of the turn" in text


def test_hubs_segments_meet_only_at_a_shared_dot() -> None:
    # seed 002: "The line-segments must not cross any other lines or coincide with any other
    # line-segments or pass over any other dots other than the two dots at each line-segment's ends." (HB-2)
    text = _words("hubs")
    assert "may not cross, overlap or touch another segment (segments meet only at a shared dot)" in text
    assert "pass over any other dot" in text and "join a pair twice" in text


def test_crossroads_a_tie_at_the_top_plays_another_round() -> None:
    # seed 004: "If there is a tie, then the game is not over and another round is played." (CR-6)
    assert "a tie at the top plays another round" in _words("crossroads")


def test_profiteer_a_war_out_of_cards_reshuffles_and_then_ends_the_pass() -> None:
    # seed 003 step 6: "If there is currently a War and you need more cards, shuffle both sides'
    # discard pile and play as normal until the War is resolved. Then move on to step 7." (PF-5)
    text = _words("profiteer")
    assert ("A war that runs out of cards: both sides shuffle their own piles in to finish it; "
            "then the pass ends.") in text
