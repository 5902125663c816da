"""Every figure a Profiteer line states is the position's: every card named (drawn, turned up,
switched, given, shuffled back), who takes a flip and how many cards (PF-3, PF-4), the war
rounds (PF-5), each pass's count and the piles (PF-6, PF-10), the balance, and at the end the
profiteer's cards against the target (PF-8). Each is read from the action and the positions
before and after; a figure no check reads fails the line (issue 41)."""

from __future__ import annotations

import re

from plunder.games.profiteer.actions import Draw, Give, ProfiteerAction, Switch
from plunder.games.profiteer.cards import card_text, rank, rank_text
from plunder.games.profiteer.flow import Phase
from plunder.games.profiteer.narrate import narrate
from plunder.games.profiteer.rules import ProfiteerGame, ProfiteerState

from tests.games.narration import Figures, figures_read

CARD = r"((?:10|[2-9JQKA])[CDHS])"
CARDS = r"((?:(?:10|[2-9JQKA])[CDHS] ?)+|-)"
DRAWN = re.compile(rf"^(?:You draw {CARD} for your (?:first|new) hand|Side ([AB]) turns up {CARD}|"
                   rf"Side ([AB])'s face-down war card {CARD} goes to you)")
GAVE = re.compile(rf"^You gave {CARD} to side ([AB])")
SWITCHED = re.compile(rf"^You switched side ([AB])'s {CARD} for your {CARD} \({CARD} goes to your pile\)")
BACK = re.compile(rf"(?:resources drawn; {CARDS} shuffled back into the deck|new resources, {CARDS} back to the discard)")
FLIP = re.compile(rf"(?:war round (\d+): )?A {CARD} v B {CARD}: side ([AB]) takes (\d+) cards")
TIE = re.compile(r"(10|[2-9JQKA])s tie; (?:neither side has a card left|side ([AB]) has no card left and loses (\d+) cards)")
COUNTED = re.compile(r"pass (\d+) counted: side A (\d+), side B (\d+)")
BALANCED = re.compile(r"pass (\d+): balanced at (\d+) each")
WAR = re.compile(r"War! Both sides flip again \(war round (\d+)\)")
UNEQUAL = re.compile(r"the piles are unequal \(A (\d+), B (\d+)\)")
END = re.compile(r"you hold (\d+) cards? of the (\d+) needed: you (win|lose)")


#: every card by its name
CARD_OF = {card_text(c): c for c in range(52)}


def _names(mask: int) -> set[str]:
    return {card_text(c) for c in range(52) if mask >> c & 1}


def _check(s: ProfiteerState, action: ProfiteerAction, t: ProfiteerState) -> set[str]:
    line = Figures(narrate(s, action, t))
    seen = set()
    ups = {"A": s.face_up_a, "B": s.face_up_b}
    stake = (s.stake_a | s.stake_b).bit_count()
    match action:
        case Draw(card):
            m = line.one(DRAWN)
            assert m, line.said
            told = m.group(1) or m.group(3) or m.group(5)
            side = m.group(2) or m.group(4)
            assert told == card_text(card), line.said
            up = {Phase.UP_A: "A", Phase.UP_B: "B"}.get(s.phase)
            down = {Phase.DOWN_A: "A", Phase.DOWN_B: "B"}.get(s.phase)
            assert side == (up or down), line.said
            assert (m.group(1) is not None) == (s.phase in (Phase.SETUP, Phase.REDRAW)), line.said
            if up:
                ups[up] = card
                stake += 1
        case Switch(side=side, rank=r):
            m = line.one(SWITCHED)
            assert m, line.said
            told_side, old, given, again = m.groups()
            assert told_side == "AB"[side] and old == again == card_text(s.face_up(side)), line.said
            assert given == card_text(s.resource_of_rank(r)) and rank(s.resource_of_rank(r)) == r, line.said
            assert old in _names(t.profiteer_discard | t.resources | t.drawing), line.said
            ups["AB"[side]] = s.resource_of_rank(r)
            seen.add("switch")
        case Give(rank=r):
            m = line.one(GAVE)
            given = s.resource_of_rank(r)
            assert m and m.group(1) == card_text(given) and given >= 0, line.said
            # the gift goes to the smaller pile (PF-6)
            assert m.group(2) == ("A" if s.pile_a() < s.pile_b() else "B"), line.said
            seen.add("gift")
    back = line.one(BACK)
    if back:
        told = set((back.group(1) or back.group(2)).split()) - {"-"}
        if back.group(1) is not None:
            # the first hand's lowest cards go back into the deck (PF-2)
            assert s.phase is Phase.SETUP and isinstance(action, Draw), line.said
            assert told == _names((s.drawing | 1 << action.card) & ~t.resources), line.said
        else:
            # a new hand's lowest cards go to the profiteer's discard, the rest are resources (PF-7)
            assert told <= _names(t.profiteer_discard) and not told & _names(t.resources), line.said
            assert not told or max(CARD_OF[c] for c in told) < min(CARD_OF[c] for c in _names(t.resources)), line.said
    flip = line.one(FLIP)
    if flip:
        war, a, b, side, n = flip.groups()
        assert int(war or 0) == s.war_round and (a, b) == (card_text(ups["A"]), card_text(ups["B"])), line.said
        # the higher card takes the stake (PF-4)
        assert side == ("A" if rank(ups["A"]) > rank(ups["B"]) else "B") and int(n) == stake, line.said
        seen.add("flip")
    tie = line.one(TIE)
    if tie:
        assert tie.group(1) == rank_text(rank(ups["A"])) and rank(ups["A"]) == rank(ups["B"]), line.said
        assert tie.group(3) is None or int(tie.group(3)) == stake, line.said
        seen.add("short war")
    counted = line.one(COUNTED)
    if counted:
        assert int(counted.group(1)) == s.round, line.said
        assert (int(counted.group(2)), int(counted.group(3))) == (t.pile_a(), t.pile_b()), line.said
        seen.add("count")
    balanced = line.one(BALANCED)
    if balanced:
        assert isinstance(action, Give) and int(balanced.group(1)) == s.round, line.said
        assert int(balanced.group(2)) == t.pile_a() == t.pile_b() == s.pile_a() + s.pile_b() + 1 - int(balanced.group(2)), line.said
        seen.add("balanced")
    war = line.one(WAR)
    assert bool(war) == (t.war_round > s.war_round) and (not war or int(war.group(1)) == t.war_round), line.said
    unequal = line.one(UNEQUAL)
    assert bool(unequal) == (t.phase is Phase.BALANCE and s.phase is not Phase.BALANCE), line.said
    assert not unequal or (int(unequal.group(1)), int(unequal.group(2))) == (t.pile_a(), t.pile_b()) and t.pile_a() != t.pile_b()
    end = line.one(END)
    assert bool(end) == (t.is_terminal() and not s.is_terminal()), line.said
    if end:
        total = (t.profiteer_discard | t.resources | t.drawing).bit_count()
        assert (int(end.group(1)), int(end.group(2))) == (total, t.game.target), line.said
        assert (end.group(3) == "win") == (total >= t.game.target), line.said
        seen.add("end")
    line.all_read()
    return seen


def test_every_figure_of_every_line_is_the_positions() -> None:
    # the default game, and a short one the round cap ends (PF-8)
    seen = figures_read(lambda seed: (ProfiteerGame.load() if seed % 2 else ProfiteerGame.load(max_rounds=str(1 + seed % 3)),
                                      ["random" if seed % 4 < 2 else "easy"]), _check)
    assert all(seen.get(k, 0) > 50 for k in ("switch", "flip", "count", "end")), seen
    assert seen.get("gift", 0) > 0 and seen.get("balanced", 0) > 0, seen
