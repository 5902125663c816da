"""How a Profiteer position moves on: the phases of play and the work each action does.

:class:`WorkingState` holds a position's fields as a scratch copy that the transitions edit
in place. :meth:`.rules.ProfiteerState._apply` makes one per action and freezes the result
with ``State.evolve``; the fast path (:mod:`.fast`) keeps one for a whole game, so both
play by the very same code. The order of the methods follows the text's steps 2-9.
"""

from __future__ import annotations

from enum import IntEnum
from operator import attrgetter
from typing import Any, Protocol

from .actions import Draw, End, Give, Keep, ProfiteerAction, Side, Switch
from .cards import card_text, lowest, lowest_of_rank, mask_text, rank, rank_text


class Phase(IntEnum):
    """What happens next; the chance phases name the pile being drawn."""

    SETUP = 0      # chance: the profiteer's first hand, from the full deck (PF-2)
    UP_A = 1       # chance: side A turns up a card (PF-3/PF-4)
    UP_B = 2       # chance: side B turns up a card
    SWITCH = 3     # profiteer: keep the flip or switch one face-up card (PF-3)
    DOWN_A = 4     # chance: side A's face-down war card, turned over to the profiteer (PF-4, PF-15)
    DOWN_B = 5     # chance: side B's face-down war card
    BALANCE = 6    # profiteer: give cards to the smaller side, or end (PF-6, PF-14)
    REDRAW = 7     # chance: the profiteer draws the new hand from the own pile (PF-7)
    OVER = 8

    def describe(self) -> str:
        """In words, for the table and error messages."""
        return _PHASE_WORDS[self]


# The hot paths compare phases for every card drawn, and a module name is read four times
# faster than an enum member through its class.
SETUP, UP_A, UP_B, SWITCH, DOWN_A, DOWN_B, BALANCE, REDRAW, OVER = Phase

_PHASE_WORDS = {
    Phase.SETUP: "drawing the profiteer's first hand", Phase.UP_A: "side A to turn up a card",
    Phase.UP_B: "side B to turn up a card", Phase.SWITCH: "profiteer to keep the flip or switch",
    Phase.DOWN_A: "side A's face-down war card", Phase.DOWN_B: "side B's face-down war card",
    Phase.BALANCE: "profiteer to balance the piles or end", Phase.REDRAW: "profiteer drawing a new hand",
    Phase.OVER: "game over",
}


class Ending(IntEnum):
    """Why a game ended (``NONE`` while it goes on)."""

    NONE = 0
    UNEQUAL = 1
    EMPTY = 2
    ROUNDS = 3
    DECLINED = 4

    def describe(self) -> str:
        """In words, with the ruling."""
        return _ENDING_WORDS[self]


_ENDING_WORDS = {
    Ending.NONE: "", Ending.UNEQUAL: "the piles are unequal and cannot be balanced (PF-6)",
    Ending.EMPTY: "a side has no cards (PF-8)", Ending.ROUNDS: "the last pass is over (PF-8, max_rounds)",
    Ending.DECLINED: "the profiteer chose not to balance (PF-6)",
}


def deck_weights(known: int, unseen: int, pool: int) -> tuple[float, float]:
    """Chance weight of each known card and of each pool card when a deck is drawn (PF-9).

    The deck holds ``known`` cards by name and ``unseen`` cards from a pool of ``pool``
    cards: a known card comes up with 1/n, each pool card with unseen/(n*pool). The
    same function serves the fast path, so its samples agree to the last bit.
    """
    n = known + unseen
    return 1.0 / n, (unseen / (n * pool) if unseen else 0.0)


class Settings(Protocol):
    """The parameters the transitions read (a :class:`.rules.ProfiteerGame`)."""

    hand: int
    give_back: int
    war_switch: bool
    max_rounds: int


#: the fields of a position, in the order :class:`.rules.ProfiteerState` declares them
FIELDS = (
    "phase", "pool", "unseen_a", "unseen_b", "known_a", "known_b", "discard_a", "discard_b",
    "resources", "profiteer_discard", "drawing", "face_up_a", "face_up_b", "stake_a", "stake_b",
    "war_round", "down_due_a", "down_due_b", "round", "war_reshuffled", "balancing", "ending", "last",
)
#: what a working copy counts as it goes, for the game's statistics and the score's breakdown
#: (:mod:`.stats`); no part of a position
TALLIES = ("flips", "wars", "war_rounds", "switches", "war_cards", "gifts", "reshuffles")
#: no tally counted yet
NO_TALLIES = (0,) * len(TALLIES)


#: every field's value of a position or a working copy, in the order of ``FIELDS``
read_fields = attrgetter(*FIELDS)
#: a working copy's tallies, in the order of ``TALLIES``
read_tallies = attrgetter(*TALLIES)


class WorkingState:
    """A position's fields, edited in place while actions are applied, and the tallies of what
    it went through since it was made; see the module doc."""

    __slots__ = ("rules", *FIELDS, *TALLIES)

    phase: Phase
    pool: int
    unseen_a: int
    unseen_b: int
    known_a: int
    known_b: int
    discard_a: int
    discard_b: int
    resources: int
    profiteer_discard: int
    drawing: int
    face_up_a: int
    face_up_b: int
    stake_a: int
    stake_b: int
    war_round: int
    down_due_a: bool
    down_due_b: bool
    round: int
    war_reshuffled: bool
    balancing: bool
    ending: Ending
    flips: int
    wars: int
    war_rounds: int
    switches: int
    war_cards: int
    gifts: int
    reshuffles: int
    last: str

    def __init__(self, rules: Settings, values: tuple[Any, ...], tallies: tuple[int, ...] = NO_TALLIES) -> None:
        """``values``: every field's value, in the order of ``FIELDS``; ``tallies``: the counts to
        go on from, in the order of ``TALLIES``."""
        self.rules = rules
        for name, value in zip(FIELDS, values):
            setattr(self, name, value)
        for name, count in zip(TALLIES, tallies):
            setattr(self, name, count)

    def tallies(self) -> tuple[int, ...]:
        """The counts so far, in the order of ``TALLIES``."""
        counts: tuple[int, ...] = read_tallies(self)
        return counts

    def values(self) -> tuple[Any, ...]:
        """Every field's value, in the order of ``FIELDS``."""
        return read_fields(self)

    def fields(self) -> dict[str, Any]:
        """Every field by name, to build the immutable state from."""
        return dict(zip(FIELDS, read_fields(self)))

    def deck_a(self) -> int:
        """Cards in side A's deck."""
        return self.unseen_a + self.known_a.bit_count()

    def deck_b(self) -> int:
        """Cards in side B's deck."""
        return self.unseen_b + self.known_b.bit_count()

    def apply(self, action: ProfiteerAction) -> None:
        """Apply a legal ``action`` (not checked here)."""
        match action:
            case Draw(card=card):
                self.draw(card)
            case Keep():
                self.after_switch()
            case Switch(side=side, rank=r):
                self.switch(side, r)
                self.after_switch()
            case Give(rank=r):
                self.gift(r)
            case End():
                self.finish(Ending.DECLINED)

    def draw(self, card: int) -> None:
        """Chance has drawn ``card`` from the pile of this phase."""
        phase = self.phase
        if phase == UP_A:
            self.take_a(card)
            self.face_up_a = card
            self.stake_a |= 1 << card
            self.phase = UP_B
        elif phase == UP_B:
            self.take_b(card)
            self.face_up_b = card
            self.stake_b |= 1 << card
            self.after_ups()
        elif phase == DOWN_A:
            self.take_a(card)
            self.face_down(card)
            self.down_due_a = False
            self.after_switch()
        elif phase == DOWN_B:
            self.take_b(card)
            self.face_down(card)
            self.down_due_b = False
            self.after_switch()
        elif phase == SETUP:
            self.pool &= ~(1 << card)
            self.drawing |= 1 << card
            if self.drawing.bit_count() == self.rules.hand:
                self.finish_setup()
        else:  # REDRAW
            self.profiteer_discard &= ~(1 << card)
            self.drawing |= 1 << card
            if self.drawing.bit_count() == self.rules.hand:
                self.finish_redraw()

    # -- drawing from the sides' decks (PF-9)
    def take_a(self, card: int) -> None:
        """Remove ``card`` from side A's deck: a known card, or one of its unseen ones."""
        b = 1 << card
        if self.known_a & b:
            self.known_a ^= b
        else:
            self.pool ^= b
            self.unseen_a -= 1

    def take_b(self, card: int) -> None:
        """Remove ``card`` from side B's deck."""
        b = 1 << card
        if self.known_b & b:
            self.known_b ^= b
        else:
            self.pool ^= b
            self.unseen_b -= 1

    def face_down(self, card: int) -> None:
        """A face-down war card, turned over to the profiteer."""
        # PF-4: every face-down card goes to the profiteer, whoever wins the war.
        self.profiteer_discard |= 1 << card
        self.war_cards += 1

    # -- the profiteer's hands (text steps 1 and 8: PF-2, PF-7, PF-11)
    def finish_setup(self) -> None:
        """Keep the best of the first hand, shuffle the rest back and split the deck (PF-2)."""
        back = lowest(self.drawing, self.rules.give_back)
        self.resources = self.drawing & ~back
        self.pool |= back
        self.drawing = 0
        self.unseen_a = self.unseen_b = self.pool.bit_count() // 2
        self.round = 1
        self.last = f"resources drawn; {mask_text(back)} shuffled back into the deck"
        self.next_flip()

    def finish_redraw(self) -> None:
        """Keep the best of the new hand, the lowest back to the discard (PF-7, PF-11); next pass."""
        back = lowest(self.drawing, min(self.rules.give_back, self.drawing.bit_count()))
        self.resources = self.drawing & ~back
        self.profiteer_discard |= back
        self.drawing = 0
        self.round += 1
        self.last += f"; new resources, {mask_text(back)} back to the discard"
        self.next_flip()

    # -- a flip and its war (text steps 3-6: PF-3, PF-4, PF-5)
    def after_ups(self) -> None:
        """Both face-up cards are out: offer a switch if one is possible and allowed (PF-3, PF-13)."""
        self.phase = SWITCH
        if self.war_round and not self.rules.war_switch:
            self.after_switch()
            return
        # A switch needs a resource above the lower face-up card; else the flip stands.
        top = (self.resources.bit_length() - 1) >> 2 if self.resources else -1
        if top <= min(rank(self.face_up_a), rank(self.face_up_b)):
            self.after_switch()

    def switch(self, side: int, r: int) -> None:
        """Put the resource of rank ``r`` in place of ``side``'s face-up card, which goes to the profiteer (PF-3)."""
        card = lowest_of_rank(self.resources, r)
        if side == Side.A:
            old = self.face_up_a
            self.face_up_a = card
            self.stake_a = self.stake_a & ~(1 << old) | 1 << card
        else:
            old = self.face_up_b
            self.face_up_b = card
            self.stake_b = self.stake_b & ~(1 << old) | 1 << card
        self.resources &= ~(1 << card)
        self.profiteer_discard |= 1 << old
        self.switches += 1

    def after_switch(self) -> None:
        """Draw owed face-down cards, then resolve the flip."""
        # PF-15: face-down cards are drawn after the face-up ones and any switch.
        if self.down_due_a:
            self.phase = DOWN_A
        elif self.down_due_b:
            self.phase = DOWN_B
        else:
            self.resolve()

    def resolve(self) -> None:
        """Higher card takes the face-up cards; a tie starts a war round (PF-4)."""
        rank_a, rank_b = rank(self.face_up_a), rank(self.face_up_b)
        if self.war_round == 0:
            self.flips += 1
        if rank_a == rank_b:
            if self.war_round == 0:
                self.wars += 1
            self.start_war_round()
            return
        stake = self.stake_a | self.stake_b
        if rank_a > rank_b:
            self.discard_a |= stake
        else:
            self.discard_b |= stake
        war = f"war round {self.war_round}: " if self.war_round else ""
        self.last = (f"{war}A {card_text(self.face_up_a)} v B {card_text(self.face_up_b)}: "
                     f"side {'A' if rank_a > rank_b else 'B'} takes {stake.bit_count()} cards")
        self.next_flip()

    def start_war_round(self) -> None:
        """Begin a war round, dealing with short sides (PF-5, PF-12)."""
        self.war_round += 1
        self.war_rounds += 1
        # PF-5 (text step 6): a war round needs two cards from each side; when a side is short,
        # both sides shuffle their own discard into their deck, and the pass ends once this
        # war is resolved (amended 2026-11-23, superseding the old PF-10 reading).
        if self.deck_a() < 2 or self.deck_b() < 2:
            self.war_reshuffled = True
            if self.discard_a or self.discard_b:
                self.reshuffles += 1
            self.known_a |= self.discard_a
            self.known_b |= self.discard_b
            self.discard_a = self.discard_b = 0
        deck_a, deck_b = self.deck_a(), self.deck_b()
        tie = f"{rank_text(rank(self.face_up_a))}s tie"
        if deck_a == 0 and deck_b == 0:
            # PF-12: neither side can go on; each takes back its own face-up cards.
            self.discard_a |= self.stake_a
            self.discard_b |= self.stake_b
            self.last = f"{tie}; neither side has a card left: each takes back its own"
            self.next_flip()
            return
        if deck_a == 0 or deck_b == 0:
            # PF-5: a side with no card left loses the war.
            stake = self.stake_a | self.stake_b
            if deck_a == 0:
                self.discard_b |= stake
            else:
                self.discard_a |= stake
            self.last = f"{tie}; side {'A' if deck_a == 0 else 'B'} has no card left and loses {stake.bit_count()} cards"
            self.next_flip()
            return
        # PF-5: a side with one card plays it face up, with no face-down card.
        self.down_due_a, self.down_due_b = deck_a >= 2, deck_b >= 2
        self.face_up_a = self.face_up_b = -1
        self.phase = UP_A

    def next_flip(self) -> None:
        """Clear the table and flip again, or count (PF-5, PF-10)."""
        self.face_up_a = self.face_up_b = -1
        self.stake_a = self.stake_b = 0
        self.war_round = 0
        self.down_due_a = self.down_due_b = False
        # PF-5: a war that needed a reshuffle ends the pass even though the decks hold cards;
        # PF-10: otherwise the pass ends once a deck is empty (both run out together).
        if self.war_reshuffled or self.deck_a() == 0 or self.deck_b() == 0:
            self.war_reshuffled = False
            self.count()
        else:
            self.phase = UP_A

    # -- the end of a pass (text steps 7-9: PF-6, PF-7, PF-8, PF-14)
    def piles(self) -> tuple[int, int]:
        """Each side's cards off the table: deck and discard (PF-10)."""
        return self.deck_a() + self.discard_a.bit_count(), self.deck_b() + self.discard_b.bit_count()

    def count(self) -> None:
        """Compare the sides' piles at the end of a pass (PF-6, PF-8)."""
        pile_a, pile_b = self.piles()
        # the flip that ended the pass stays in the message
        self.last = f"{self.last}; pass {self.round} counted: side A {pile_a}, side B {pile_b}"
        if pile_a == 0 or pile_b == 0:
            self.finish(Ending.EMPTY)
        elif self.round >= self.rules.max_rounds:
            self.finish(Ending.ROUNDS)
        elif pile_a == pile_b:
            self.carry_on()
        elif self.resources.bit_count() >= abs(pile_a - pile_b):
            self.phase = BALANCE
            self.balancing = False
        else:
            self.finish(Ending.UNEQUAL)

    def gift(self, r: int) -> None:
        """Give the resource of rank ``r`` to the smaller side; go on once the piles are equal (PF-6)."""
        card = lowest_of_rank(self.resources, r)
        self.resources &= ~(1 << card)
        pile_a, pile_b = self.piles()
        if pile_a < pile_b:
            self.discard_a |= 1 << card
            pile_a += 1
        else:
            self.discard_b |= 1 << card
            pile_b += 1
        self.gifts += 1
        self.balancing = True
        if pile_a == pile_b:
            self.last = f"pass {self.round}: balanced at {pile_a} each"
            self.carry_on()

    def carry_on(self) -> None:
        """Start the next pass: piles become decks, the profiteer redraws (PF-7)."""
        self.balancing = False
        self.known_a |= self.discard_a
        self.known_b |= self.discard_b
        self.discard_a = self.discard_b = 0
        self.profiteer_discard |= self.resources
        self.resources = 0
        if self.profiteer_discard.bit_count() <= self.rules.hand:
            self.drawing, self.profiteer_discard = self.profiteer_discard, 0
            self.finish_redraw()
        else:
            self.phase = REDRAW

    def finish(self, why: Ending) -> None:
        """End the game for reason ``why``."""
        self.phase = OVER
        self.ending = why
        self.balancing = False
