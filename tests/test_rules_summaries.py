"""``plunder rules``' one-screen summaries and the web "How to play" pages state the rules the
seed texts give, where issues 23 and 41 found them wrong or silent (each test quotes the seed or
cites the ruling); every sentence of them restates a ruling or the seed, by the table in the
game's rules doc; and every ruling the game's code names is in that doc."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from plunder.core.registry import entry

#: each game's ruling prefix
PREFIX = {"pillage": "PP", "pirates": "PR", "hubs": "HB", "profiteer": "PF", "crossroads": "CR"}
DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"
#: a sentence ends at . ! or ? before a capital, a digit, a quote or a bracket; a numbered or
#: dashed list item starts one too
SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9'(])|(?<=[.:;!?])\s+(?=(?:-|\d) [A-Z])")
TABLE = "## The summaries, sentence by sentence"


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


def sentences(text: str) -> list[str]:
    """``text``'s sentences, single-spaced, as the summary tables in docs/rules list them."""
    return [s for s in SPLIT.split(" ".join(text.split())) if s]


def _doc(game_id: str) -> tuple[str, list[tuple[str, str, list[str]]]]:
    """The game's rules doc without its summary table, and the table's rows: where the sentence
    is said (``rules``, ``web`` or ``both``), the sentence, and what it restates."""
    text = (DOCS / f"{game_id}.md").read_text(encoding="utf-8")
    assert TABLE in text, f"docs/rules/{game_id}.md has no '{TABLE}' section"
    start = text.index(TABLE)
    after = text[start + len(TABLE):]
    end = re.search(r"^## ", after, re.M)
    section = after[:end.start()] if end else after
    body = text[:start] + (after[end.start():] if end else "")
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if line.startswith("| ") and len(cells) == 3 and cells[0] in ("rules", "web", "both"):
            rows.append((cells[0], cells[1], [t.strip() for t in cells[2].split(",") if t.strip()]))
    return body, rows


def _said(game_id: str) -> tuple[list[str], list[str]]:
    """The sentences of ``plunder rules`` and of the web how-to page."""
    shown = entry(game_id).presentation
    assert shown.how_to_web is not None
    web = [s for section in shown.how_to_web() for paragraph in section.paragraphs for s in sentences(paragraph)]
    return sentences(shown.how_to_play), web


@pytest.mark.parametrize("game_id", sorted(PREFIX))
def test_every_ruling_the_game_code_names_is_in_its_rules_doc(game_id: str) -> None:
    # the rulings an illegal move's error can cite are among those the package's code names
    package = Path(entry(game_id).game_class.__module__.replace(".", "/"))
    root = Path(__file__).resolve().parent.parent / "src" / package.parent
    code = "\n".join(p.read_text(encoding="utf-8") for p in sorted(root.rglob("*.py")))
    named = set(re.findall(rf"\b{PREFIX[game_id]}-\d+\b", code))
    body, _ = _doc(game_id)
    given = set(re.findall(rf"\b{PREFIX[game_id]}-\d+\b", body))
    assert len(named) >= 5, sorted(named)
    assert named <= given, f"docs/rules/{game_id}.md never mentions {sorted(named - given)}"


@pytest.mark.parametrize("game_id", sorted(PREFIX))
def test_every_summary_sentence_restates_a_ruling_or_the_seed(game_id: str) -> None:
    body, rows = _doc(game_id)
    rules, web = _said(game_id)
    # both ways: every sentence said is a row, every row is a sentence said
    assert sorted(s for where, s, _ in rows if where in ("rules", "both")) == sorted(rules)
    assert sorted(s for where, s, _ in rows if where in ("web", "both")) == sorted(web)
    assert len({s for _, s, _ in rows}) == len(rows), "a sentence listed twice"
    given = set(re.findall(rf"\b{PREFIX[game_id]}-\d+\b", body))
    for _, sentence, restates in rows:
        assert restates, f"{sentence!r} restates nothing"
        for token in restates:
            if re.fullmatch(r"[A-Z]{2}-\d+", token):
                assert token in given, f"{sentence!r}: {token} is not a ruling docs/rules/{game_id}.md gives"
            elif token.startswith("param "):
                assert f"`{token[6:]}`" in body, f"{sentence!r}: docs/rules/{game_id}.md has no parameter {token[6:]}"
            elif token.startswith("seed: "):
                assert len(token) > 8, sentence
            else:
                assert token in ("texts", "tip"), f"{sentence!r}: {token!r} is not a ruling, seed, param, texts or tip"
    ruled = sum(any(re.fullmatch(r"[A-Z]{2}-\d+", t) for t in r) for _, _, r in rows)
    assert ruled > len(rows) // 2, "most sentences restate a ruling"


def test_the_table_splits_sentences_as_a_reader_does() -> None:
    assert sentences("One.  Two, e.g. -5 food. 3 go:\n 1 Sail far. (a) b") == [
        "One.", "Two, e.g. -5 food.", "3 go:", "1 Sail far.", "(a) b"]


def _web(game_id: str) -> str:
    """The web how-to page's paragraphs as one line of single-spaced words."""
    shown = entry(game_id).presentation
    assert shown.how_to_web is not None
    return " ".join(" ".join(p for s in shown.how_to_web() for p in s.paragraphs).split())


def test_pillage_values_below_zero_the_modifier_order_and_ties() -> None:
    # PP-6: values may go negative; PP-5 amended: the capturer of two modifiers picks the
    # order; PP-7: equal scores tie (issue 41: the web page said so, `plunder rules` did not)
    text, web = _words("pillage"), _web("pillage")
    assert "even below 0" in text and "A value can go below zero" in web
    assert "if one line takes two modifiers, you choose which to use first" in text
    assert "When one line takes two modifiers you choose which to use first" in web
    assert "equal scores tie" in text and "equal scores tie" in web


def test_pirates_one_chest_a_smaller_refit_and_retrieve_with_an_amount() -> None:
    # seed 001: "if you bury booty again somewhere else, your former buried booty is lost!" (PR-8);
    # "Upgrading to a smaller ship (for example, to make other ships chase you) is perfectly legal."
    text, web = _words("pirates"), _web("pirates")
    assert "burying elsewhere loses the booty in the old one" in text and "burying somewhere else loses" in web
    assert "even a smaller one" in text and "even a smaller one" in web
    # a bare `retrieve` is refused: the command names the amount
    assert "(retrieve 5)" in text and "(retrieve)" not in text


def test_profiteer_also_ends_when_a_side_is_out_of_cards_or_at_the_pass_cap() -> None:
    # PF-8: "The game also ends if a side has no cards, or after `max_rounds` (default 100)."
    assert "when a side has no cards left, or after 100 passes" in _words("profiteer")
    assert "The game also ends when a side has no cards left, or after 100 passes." in _web("profiteer")


def test_crossroads_round_cap_fee_source_and_offer_cap() -> None:
    # CR-13 the round cap (200), CR-12 a demanded fee comes out of the proposer's share first,
    # CR-11 at most `offers` (3) offers a player per trading phase
    text, web = _words("crossroads"), _web("crossroads")
    assert "After 200 rounds the game ends" in text and "After 200 rounds the game ends" in web
    assert "paid out of the proposer's share first" in text and "paid out of the proposer's share first" in web
    assert "each player offers 3 times at most" in text and "each player makes at most 3 offers a round" in web
