"""Every figure a Crossroads line states is the position's: the dice, the column and row and the
cells they activated (CR-2, CR-3), the gold each seat was paid or spent (CR-4, CR-6), the cells
built on, every offer's cities, relays, fees and shares (CR-7, CR-10, CR-12), the seats named,
the round and the gold at its end, the winner's gold (CR-8). Each is read from the action and
the positions before and after; a figure no check reads fails the line (issue 41)."""

from __future__ import annotations

import re

from plunder.games.crossroads.actions import Accept, Axis, City, CrossroadsAction, Demand, Offer, Place, Reject, Road, Roll
from plunder.games.crossroads.board import cell_name, owner
from plunder.games.crossroads.rules import PROPOSER, CrossroadsGame, CrossroadsState, Phase
from plunder.games.crossroads.narrate import narrate

from tests.games.narration import SEAT, Figures, figures_read

CELLS = r"((?:[A-Z]\d+ ?)+)"
WHO = re.compile(rf"^{SEAT}(?=[ :'])")
FIRST_ROLL = re.compile(rf"rolled (\d+)-(\d+) for a first city: {CELLS} are open")
DOUBLE = re.compile(rf"rolled double (\d+)s: {CELLS} activated")
ROLLED = re.compile(r"rolled (\d+) and (\d+)$")
AXIS = re.compile(rf"chose column (\d+), row (\d+): {CELLS} activated")
PAID = re.compile(rf"{SEAT} ([+-]\d+)(?=,|;|$)")
PLACED = re.compile(r"placed a first city on ([A-Z]\d+)")
BUILT = re.compile(r"built a (city|road) on ([A-Z]\d+) \(-(\d+) gold, (\d+) left\)")
OFFER = re.compile(rf"([A-Z]\d+)-([A-Z]\d+)((?: via .*?)?): {SEAT} gets (\d+), {SEAT} gets (\d+)")
RELAY = re.compile(rf"([A-Z]\d+) \({SEAT}'s, fee (\d+)\)")
CALLED = re.compile(rf"(?:rejects |accepts: |withdraws the offer ){SEAT}?(?:'s offer )?([A-Z]\d+)-([A-Z]\d+)")
DEMAND = re.compile(r"demands a fee of (\d+) to let the trade through")
ANSWER = re.compile(rf"{SEAT} to answer")
FIRST = re.compile(rf"trading begins: {SEAT} offers first")
ROUND = re.compile(rf"round (\d+) ends: ((?:{SEAT} -?\d+(?:, )?)+); round (\d+) begins")
WON = re.compile(rf"{SEAT} wins with (\d+) gold")
TIE = re.compile(rf"the round limit is reached: ((?:{SEAT}(?: and )?)+) tie")


def _cells(text: str) -> set[str]:
    return set(text.split())


def _offer(line: Figures, s: CrossroadsState, offer: Offer) -> None:
    """The told offer is ``offer``: cities, relays with their owners and fees, both shares."""
    name = s.game.seat_name
    m = line.one(OFFER)
    assert m, line.said
    a, b, via, seat_a, mine, seat_b, theirs = m.groups()
    assert (a, b) == (cell_name(offer.a), cell_name(offer.b)), line.said
    assert (seat_a, seat_b) == (name(owner(s.board[offer.a])), name(owner(s.board[offer.b]))), line.said
    assert (int(mine), int(theirs)) == (offer.mine, offer.theirs), line.said
    relays = [(r, w, int(f)) for r, w, f in RELAY.findall(via)]
    assert relays == [(cell_name(r), name(owner(s.board[r])), f) for r, f in zip(offer.relays, offer.fees)], line.said
    line.each(RELAY)


def _check(s: CrossroadsState, action: CrossroadsAction, t: CrossroadsState) -> set[str]:
    line = Figures(narrate(s, action, t))
    name = s.game.seat_name
    seen = set()
    who = line.one(WHO)
    mover = s.current_player if s.current_player >= 0 else s.seat
    assert who and who.group(1) == name(mover), line.said
    changed = {(name(i), b - a) for i, (a, b) in enumerate(zip(s.gold, t.gold)) if a != b}
    paid = set()
    match action:
        case Roll(lo, hi) if s.phase is Phase.SETUP_ROLL:
            m = line.one(FIRST_ROLL)
            open_ = {cell_name(a.cell) for a in t.legal_actions() if isinstance(a, Place)}
            assert m and (int(m.group(1)), int(m.group(2))) == (lo, hi) and _cells(m.group(3)) == open_, line.said
        case Roll(lo, hi) if t.phase is Phase.BUILD:
            m = line.one(DOUBLE)
            assert m and int(m.group(1)) == lo == hi and _cells(m.group(2)) == {cell_name(c) for c in t.lit}, line.said
            paid = {(p.group(1), int(p.group(2))) for p in line.each(PAID)}
            seen.add("paid")
        case Roll(lo, hi):
            m = line.one(ROLLED)
            assert m and (int(m.group(1)), int(m.group(2))) == (lo, hi), line.said
        case Axis(col, row):
            m = line.one(AXIS)
            assert m and (int(m.group(1)), int(m.group(2))) == (col, row), line.said
            assert _cells(m.group(3)) == {cell_name(c) for c in t.lit}, line.said
            paid = {(p.group(1), int(p.group(2))) for p in line.each(PAID)}
            seen.add("paid")
        case Place(cell):
            m = line.one(PLACED)
            assert m and m.group(1) == cell_name(cell), line.said
        case City(cell) | Road(cell):
            m = line.one(BUILT)
            assert m, line.said
            kind, where, cost, left = m.groups()
            assert kind == ("city" if isinstance(action, City) else "road") and where == cell_name(cell), line.said
            assert {(name(s.seat), -int(cost))} == changed and int(left) == t.gold[s.seat], line.said
            paid = changed
            seen.add("built")
        case Offer():
            _offer(line, s, action)
            seen.add("offer")
        case Demand(fee):
            m = line.one(DEMAND)
            assert m and int(m.group(1)) == fee and t.offer is not None and s.offer is not None, line.said
            assert fee in t.offer.fees, line.said
            # a raised fee comes out of the shares: the gold the trade makes stays the same (CR-12)
            assert sum(t.offer.fees) + t.offer.mine + t.offer.theirs == sum(s.offer.fees) + s.offer.mine + s.offer.theirs
            _offer(line, t, t.offer)
            seen.add("demand")
        case Accept() | Reject():
            offer = s.offer
            assert offer is not None
            m = line.one(CALLED)
            if m:
                assert m.group(1) in (None, name(s.slot_owner(PROPOSER))), line.said
                assert (m.group(2), m.group(3)) == (cell_name(offer.a), cell_name(offer.b)), line.said
            else:
                assert isinstance(action, Accept) and t.offer is not None, line.said
            if isinstance(action, Accept) and t.offer is None:
                paid = {(p.group(1), int(p.group(2))) for p in line.each(PAID)}
                seen.add("trade")
    assert paid == changed, f"{line.said}: gold changed {sorted(changed)}"
    answer = line.one(ANSWER)
    assert bool(answer) == (t.offer is not None and t.waiting != s.waiting and not isinstance(action, Offer)), line.said
    assert not answer or answer.group(1) == name(t.responder()), line.said
    first = line.one(FIRST)
    assert bool(first) == (t.phase is Phase.TRADE and s.phase is Phase.BUILD), line.said
    assert not first or first.group(1) == name(t.seat), line.said
    r = line.one(ROUND)
    if r:
        assert int(r.group(1)) == s.round and int(r.group(r.lastindex or 0)) == t.round == s.round + 1, line.said
        assert r.group(2) == ", ".join(f"{name(i)} {g}" for i, g in enumerate(t.gold)), line.said
        seen.add("round")
    w, tie = line.one(WON), line.one(TIE)
    ended = t.phase is Phase.OVER and s.phase is not Phase.OVER
    assert bool(w) == (ended and len(t.winners) == 1) and bool(tie) == (ended and len(t.winners) > 1), line.said
    if w:
        seat = t.winners[0]
        assert w.group(1) == name(seat) and int(w.group(2)) == t.gold[seat] == max(t.gold), line.said
        seen.add("won")
    if tie:
        assert set(re.findall(SEAT, tie.group(1))) == {name(i) for i in t.winners}, line.said
        assert len({t.gold[i] for i in t.winners}) == 1 and t.gold[t.winners[0]] == max(t.gold), line.said
    line.all_read()
    return seen


def test_every_figure_of_every_line_is_the_positions() -> None:
    def setup(seed: int) -> tuple[CrossroadsGame, list[str]]:
        # short games: a low target ends them in a few rounds; the round cap ends some (CR-8)
        game = CrossroadsGame.load(players=str(2 + seed % 3), target="30", max_rounds=str(4 + seed % 5))
        return game, ["random" if seed % 2 else "greedy"] * game.num_players

    seen = figures_read(setup, _check)
    assert all(seen.get(k, 0) > 20 for k in ("paid", "built", "offer", "trade", "round", "won")), seen
    assert seen.get("demand", 0) > 0, seen
