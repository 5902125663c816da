"""Profiteer (text 003): a one-player variant of War. The game, its positions and what is legal.

Read beside the text: setup (steps 1-2) is PF-2; a flip and the profiteer's switch (steps
3-5) PF-3 and PF-4; running short in a war (step 6) PF-5; the count and balancing (step 7)
PF-6; the next pass (step 8) PF-7; the end (step 9) PF-8; unseen cards PF-9; PF-10..PF-15
are the project's own (docs/rules/profiteer.md). The actions and their texts are in
:mod:`.actions`, the work each action does in :mod:`.flow`.

Hidden cards are never stored (PF-9). A side's deck is a set of *known* cards (its own
won cards, reshuffled: every one was seen face up) plus a number of *unseen* cards taken
from ``pool``: the cards dealt out at the first shuffle and not turned up since (the two
the profiteer shuffled back at setup among them -- seen, but their place unknown). Both
sides' unseen cards come from the one pool: after a fair shuffle and split, the next card
of either deck is equally likely to be any pool card, so which pool card is in which deck
is decided only as each is drawn.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from ...core.errors import ParameterError
from ...core.game import CHANCE, TERMINAL, Game, State
from ...core.params import Param, parse_bool, parse_int
from .actions import (
    CODEC, DRAWS, END, GIVES, KEEP, SWITCHES, Draw, End, Give, Keep, ProfiteerAction, ProfiteerCodec, Side, Switch,
    well_formed,
)
from .cards import FULL_DECK, card_text, cards_of, lowest_of_rank, mask_text, rank, rank_text, ranks_of
from .flow import NO_TALLIES, Ending, Phase, WorkingState, deck_weights, read_fields

# The longest pass is bounded: side cards leave the sides only as face-down war cards (PF-4)
# and join them only by switches (at most one per resource, so <= 52) until the count, so a
# pass has at most 52 full war rounds; a deck is refilled (PF-5) at most once per war round,
# with <= 52 cards. Draws per pass <= 2 * (52 + 2 * 53 * 52); add one switch decision per
# face-up pair, gifts, and the redraw -- under 20000.
ACTIONS_PER_PASS = 20000


def _even_keep(text: str) -> int:
    value = parse_int(0, 50)(text)
    if value % 2:
        raise ValueError(f"{value} is odd: the other {52 - value} cards must split evenly into two sides (PF-2)")
    return value


class ProfiteerGame(Game[ProfiteerAction]):
    """Profiteer for one player, the profiteer, against the chance of two warring sides."""

    id: ClassVar[str] = "profiteer"
    title: ClassVar[str] = "Profiteer"
    param_specs: ClassVar[list[Param]] = [
        Param("hand", "10", parse_int(1, 52), "cards drawn for the profiteer's hand (PF-2, PF-7)", label="Cards in hand"),
        Param("keep", "8", _even_keep, "of those, cards kept as resources; the lowest others go back (PF-2, PF-7)", label="Resources kept"),
        Param("target", "26", parse_int(0, 52), "cards the profiteer needs at the end to win (PF-8)", label="Cards to win"),
        Param("war_switch", "false", parse_bool,
              "may the profiteer switch a war's face-up cards too (PF-3, PF-13)", ("false", "true"), label="Switch in a war"),
        Param("max_rounds", "100", parse_int(1, 10000), "passes through the decks before the game ends (PF-8)", label="Passes at most"),
    ]
    presets: ClassVar[dict[str, dict[str, str]]] = {
        "default": {},
        "war_switch": {"war_switch": "true"},
        "short": {"max_rounds": "3"},
        "lean": {"hand": "6", "keep": "4", "target": "20"},
    }

    def __init__(self, values: dict[str, Any], texts: dict[str, str]) -> None:
        super().__init__(values, texts)
        self.hand: int = values["hand"]
        self.keep: int = values["keep"]
        if self.keep > self.hand:
            raise ParameterError(f"profiteer keep={self.keep} is more than hand={self.hand}: "
                                 "the kept cards come out of the hand drawn (PF-2)")
        self.target: int = values["target"]
        self.war_switch: bool = values["war_switch"]
        self.max_rounds: int = values["max_rounds"]
        #: cards put back from each hand drawn (the two lowest, by default)
        self.give_back = self.hand - self.keep

    @property
    def num_players(self) -> int:
        """One: the profiteer."""
        return 1

    @property
    def max_game_length(self) -> int:
        """The setup draw plus ``max_rounds`` passes of at most ``ACTIONS_PER_PASS`` actions."""
        return self.hand + self.max_rounds * ACTIONS_PER_PASS

    def seat_name(self, seat: int) -> str:
        """The one seat is the profiteer."""
        return "the profiteer"

    def new_initial_state(self) -> "ProfiteerState":
        """The shuffled deck before the profiteer draws (PF-2)."""
        return ProfiteerState(game=self, phase=Phase.SETUP, pool=FULL_DECK)

    @property
    def codec(self) -> ProfiteerCodec:
        """Profiteer's notation (:mod:`.actions`)."""
        return CODEC


@dataclass(frozen=True, slots=True)
class ProfiteerState(State[ProfiteerAction]):
    """A Profiteer position. Every card set is a 52-bit mask (see :mod:`.cards`)."""

    game: ProfiteerGame = field(compare=False, repr=False)
    phase: Phase
    #: the dealt cards not turned up since the first shuffle (PF-9)
    pool: int = 0
    #: how many of side A's / B's deck cards are pool cards
    unseen_a: int = 0
    unseen_b: int = 0
    #: the cards in side A's / B's deck by name (seen face up before being shuffled in)
    known_a: int = 0
    known_b: int = 0
    discard_a: int = 0
    discard_b: int = 0
    #: the profiteer's resources (text step 1)
    resources: int = 0
    profiteer_discard: int = 0
    #: a hand of the profiteer being drawn (PF-2, PF-7)
    drawing: int = 0
    #: the face-up cards being compared, -1 for none
    face_up_a: int = -1
    face_up_b: int = -1
    #: every face-up card each side has put in this flip and its war
    stake_a: int = 0
    stake_b: int = 0
    #: the war round, 0 for a plain flip
    war_round: int = 0
    #: a face-down card is still owed this war round
    down_due_a: bool = False
    down_due_b: bool = False
    #: pass number, from 1 (PF-8 max_rounds)
    round: int = 0
    #: a war of this flip needed more cards and both sides shuffled their discards in: the
    #: pass ends once it is resolved (PF-5)
    war_reshuffled: bool = False
    #: a gift has been given at this count (PF-14)
    balancing: bool = False
    ending: Ending = Ending.NONE
    # The flips, wars, switches, gifts and reshuffles a game went through are no part of a
    # position: the game's observer counts them (:mod:`.stats`). ``round`` stays: the rules
    # end the game after ``max_rounds`` passes (PF-8).
    #: what the last resolved flip or count did, for the table picture
    last: str = field(default="", compare=False)

    # ----- reading the position -------------------------------------------------------

    @property
    def current_player(self) -> int:
        """The profiteer (seat 0) at a flip's switch and at the count, chance while cards are drawn."""
        if self.phase == Phase.OVER:
            return TERMINAL
        if self.phase == Phase.SWITCH or self.phase == Phase.BALANCE:
            return 0
        return CHANCE

    def deck_a(self) -> int:
        """Cards in side A's deck."""
        return self.unseen_a + self.known_a.bit_count()

    def deck_b(self) -> int:
        """Cards in side B's deck."""
        return self.unseen_b + self.known_b.bit_count()

    def pile_a(self) -> int:
        """Side A's cards off the table: deck and discard (PF-10)."""
        return self.deck_a() + self.discard_a.bit_count()

    def pile_b(self) -> int:
        """Side B's cards off the table: deck and discard (PF-10)."""
        return self.deck_b() + self.discard_b.bit_count()

    def total(self) -> int:
        """The profiteer's count: discard, resources and any hand being drawn (PF-8)."""
        return (self.profiteer_discard | self.resources | self.drawing).bit_count()

    def face_up(self, side: int) -> int:
        """``side``'s face-up card (-1 for none)."""
        return self.face_up_a if side == Side.A else self.face_up_b

    def resource_of_rank(self, r: int) -> int:
        """The resource a switch or gift of rank ``r`` hands over: its lowest suit (PF-1), -1 if none."""
        return lowest_of_rank(self.resources, r)

    def switches_possible(self) -> list[Switch]:
        """The legal switches of a flip, side A's then B's, each by increasing rank (PF-3)."""
        out: list[Switch] = []
        for side, up in ((Side.A, self.face_up_a), (Side.B, self.face_up_b)):
            above = 4 * (rank(up) + 1)
            out.extend(SWITCHES[side][r] for r in ranks_of(self.resources >> above << above))
        return out

    def chance_outcomes(self) -> list[tuple[ProfiteerAction, float]]:
        """Each card of the pile being drawn, with its chance (PF-9)."""
        match self.phase:
            case Phase.SETUP:
                return _uniform(self.pool)
            case Phase.REDRAW:
                return _uniform(self.profiteer_discard)
            case Phase.UP_A | Phase.DOWN_A:
                return _deck(self.known_a, self.unseen_a, self.pool)
            case Phase.UP_B | Phase.DOWN_B:
                return _deck(self.known_b, self.unseen_b, self.pool)
        raise ValueError(f"{self.summary()} is not a chance node")

    def legal_actions(self) -> list[ProfiteerAction]:
        """Cards that may be drawn, or the profiteer's choices (one per rank: suits never matter, PF-1)."""
        match self.phase:
            case Phase.OVER:
                return []
            case Phase.SWITCH:
                return [KEEP, *self.switches_possible()]
            case Phase.BALANCE:
                gifts: list[ProfiteerAction] = [GIVES[r] for r in ranks_of(self.resources)]
                return gifts if self.balancing else [END, *gifts]
        return [a for a, _ in self.chance_outcomes()]

    def _drawable(self) -> int:
        """The cards the pile of this chance phase may yield."""
        match self.phase:
            case Phase.SETUP:
                return self.pool
            case Phase.REDRAW:
                return self.profiteer_discard
            case Phase.UP_A | Phase.DOWN_A:
                return self.known_a | (self.pool if self.unseen_a else 0)
        return self.known_b | (self.pool if self.unseen_b else 0)

    def illegal_reason(self, action: ProfiteerAction) -> tuple[str, str] | None:
        """Why ``action`` cannot be taken now, with the ruling it breaks."""
        if not well_formed(action):
            return (f"{action!r} is not a profiteer action (Draw, Keep, Switch, Give or End)", "PF-1")
        phase = self.phase
        if phase == Phase.OVER:
            return (f"the game is over: {self.ending.describe()}", "PF-8")
        deciding = phase == Phase.SWITCH or phase == Phase.BALANCE
        match action:
            case Draw(card=card):
                if deciding:
                    return ("cards are drawn by chance, not chosen: the profiteer acts now", "PF-9")
                if not self._drawable() >> card & 1:
                    return (f"{card_text(card)} is not in {_PILE_NAMES[phase]}", "PF-9")
                return None
            case Keep():
                if phase == Phase.SWITCH:
                    return None
                if phase == Phase.BALANCE:
                    return ("no flip is waiting: the piles are being balanced", "PF-6")
                return ("no flip is waiting: cards are being drawn", "PF-3")
            case Switch(side=side, rank=r):
                if phase == Phase.BALANCE:
                    return ("no flip is waiting: the piles are being balanced", "PF-6")
                if phase != Phase.SWITCH:
                    if self.war_round and not self.game.war_switch:
                        return ("no switching on a war's cards (war_switch=false)", "PF-3")
                    return ("no flip is waiting for a switch: cards are being drawn", "PF-3")
                if self.resource_of_rank(r) < 0:
                    return (f"you hold no {rank_text(r)} among your resources", "PF-3")
                up = self.face_up(side)
                if r <= rank(up):
                    return (f"the card you give must outrank side {Side(side).name}'s {card_text(up)}", "PF-3")
                return None
            case Give(rank=r):
                if phase != Phase.BALANCE:
                    return ("gifts and ending come only at the count of unequal piles", "PF-6")
                if self.resource_of_rank(r) < 0:
                    return (f"you hold no {rank_text(r)} among your resources", "PF-6")
                return None
            case End():
                if phase != Phase.BALANCE:
                    return ("gifts and ending come only at the count of unequal piles", "PF-6")
                if self.balancing:
                    return ("balancing has begun: give until the piles are equal", "PF-14")
                return None
        return (f"{action!r} is not a profiteer action", "PF-1")

    # ----- moving -----------------------------------------------------------------------

    def working(self, tallies: tuple[int, ...] = NO_TALLIES) -> WorkingState:
        """A scratch copy of this position for :mod:`.flow` to edit, counting on from ``tallies``."""
        return WorkingState(self.game, read_fields(self), tallies)

    def _apply(self, action: ProfiteerAction) -> "ProfiteerState":
        work = self.working()
        work.apply(action)
        return self.evolve(**work.fields())

    # ----- results ----------------------------------------------------------------------

    def returns(self) -> list[float]:
        """+1 if the profiteer ends with at least ``target`` cards, else -1 (PF-8)."""
        if self.phase != Phase.OVER:
            return [0.0]
        return [1.0 if self.total() >= self.game.target else -1.0]

    def scores(self) -> list[float]:
        """The profiteer's card count (PF-8)."""
        return [float(self.total())]

    def summary(self) -> str:
        """One line: pass, phase, the sides' decks and piles, the table, the profiteer."""
        table = ""
        if self.face_up_a >= 0 or self.face_up_b >= 0:
            war = f" war {self.war_round}" if self.war_round else ""
            table = f", table{war} A {card_or_dash(self.face_up_a)} v B {card_or_dash(self.face_up_b)}"
        return (f"profiteer pass {self.round}, {Phase(self.phase).describe()}{table}, "
                f"A deck {self.deck_a()} discard {self.discard_a.bit_count()}, "
                f"B deck {self.deck_b()} discard {self.discard_b.bit_count()}, "
                f"profiteer {self.total()} (resources {mask_text(self.resources)})")

    def __str__(self) -> str:
        lines = [
            f"Profiteer  pass {self.round}/{self.game.max_rounds}  target {self.game.target}"
            f"  -- {Phase(self.phase).describe()}",
            f"  side A: deck {self.deck_a():2d}  discard {self.discard_a.bit_count():2d}  face up {card_or_dash(self.face_up_a)}",
            f"  side B: deck {self.deck_b():2d}  discard {self.discard_b.bit_count():2d}  face up {card_or_dash(self.face_up_b)}",
        ]
        if self.war_round:
            lines.append(f"  war round {self.war_round}: {(self.stake_a | self.stake_b).bit_count()} face-up cards at stake")
        lines.append(f"  resources: {mask_text(self.resources)}")
        lines.append(f"  profiteer: {self.total()} cards (discard {self.profiteer_discard.bit_count()})")
        if self.last:
            lines.append(f"  last: {self.last}")
        if self.phase == Phase.OVER:
            won = "wins" if self.total() >= self.game.target else "loses"
            lines.append(f"  over: {self.ending.describe()}; the profiteer {won} with {self.total()}")
        return "\n".join(lines)


def card_or_dash(card: int) -> str:
    """A card's name, or ``-`` for none (-1)."""
    return card_text(card) if card >= 0 else "-"


_PILE_NAMES = {Phase.SETUP: "the unseen deck", Phase.REDRAW: "the profiteer's pile", Phase.UP_A: "side A's deck",
               Phase.DOWN_A: "side A's deck", Phase.UP_B: "side B's deck", Phase.DOWN_B: "side B's deck"}


def _uniform(mask: int) -> list[tuple[ProfiteerAction, float]]:
    weight, _ = deck_weights(mask.bit_count(), 0, 0)
    return [(DRAWS[card], weight) for card in cards_of(mask)]


def _deck(known: int, unseen: int, pool: int) -> list[tuple[ProfiteerAction, float]]:
    weight_known, weight_pool = deck_weights(known.bit_count(), unseen, pool.bit_count())
    out: list[tuple[ProfiteerAction, float]] = [(DRAWS[card], weight_known) for card in cards_of(known)]
    if unseen:
        out.extend((DRAWS[card], weight_pool) for card in cards_of(pool))
    return out
