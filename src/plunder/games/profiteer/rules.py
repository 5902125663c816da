"""Profiteer: a one-player variant of War (PF-1 .. PF-9, and PF-10 .. PF-15 of the rules doc). Pure rules.

Actions are ints:

* ``0 .. 51``    -- chance draws card ``c`` from the pile being drawn (PF-9); text ``QS``
* ``PASS``       -- let the flip stand (PF-3); text ``pass``
* ``SWITCH_A+c`` / ``SWITCH_B+c`` -- give resource ``c`` in place of that side's face-up
  card (PF-3); text ``switch A KD`` / ``switch B KD``
* ``GIVE+c``     -- give resource ``c`` to the smaller side at the count (PF-6); text ``give 7C``
* ``END``        -- decline to balance, which ends the game (PF-6, PF-14); text ``end``

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
from ...core.game import CHANCE, TERMINAL, Action, Game, State
from ...core.params import Param, parse_bool, parse_int
from .cards import FULL_DECK, card_list, card_text, cards_of, lowest, mask_text, parse_card, rank, rank_text

PASS = 52
SWITCH_A = 100
SWITCH_B = 200
GIVE = 300
END = 400

# Phases of a position; the chance phases name the pile being drawn.
SETUP = 0      # chance: the profiteer's first hand, from the full deck (PF-2)
UP_A = 1       # chance: side A turns up a card (PF-3/PF-4)
UP_B = 2       # chance: side B turns up a card
SWITCH = 3     # profiteer: pass or switch one face-up card (PF-3)
DOWN_A = 4     # chance: side A's face-down war card, turned over to the profiteer (PF-4, PF-15)
DOWN_B = 5     # chance: side B's face-down war card
BALANCE = 6    # profiteer: give cards to the smaller side, or end (PF-6, PF-14)
REDRAW = 7     # chance: the profiteer draws the new hand from the own pile (PF-7)
OVER = 8

PHASE_NAMES = {
    SETUP: "drawing the profiteer's first hand", UP_A: "side A to turn up a card",
    UP_B: "side B to turn up a card", SWITCH: "profiteer to pass or switch",
    DOWN_A: "side A's face-down war card", DOWN_B: "side B's face-down war card",
    BALANCE: "profiteer to balance the piles or end", REDRAW: "profiteer drawing a new hand", OVER: "game over",
}

# Why a game ended (State.end).
END_NONE, END_UNEQUAL, END_EMPTY, END_ROUNDS, END_DECLINED = 0, 1, 2, 3, 4
END_NAMES = {
    END_NONE: "", END_UNEQUAL: "the piles are unequal and cannot be balanced (PF-6)",
    END_EMPTY: "a side has no cards (PF-8)", END_ROUNDS: "the last pass is over (PF-8, max_rounds)",
    END_DECLINED: "the profiteer chose not to balance (PF-6)",
}

# The longest pass (PF-10) is bounded: side cards leave the sides only as face-down war
# cards (PF-4) and join them only by switches (at most one per resource, so <= 52) until
# the count, so a pass has at most 52 full war rounds; a deck is refilled (PF-5) at most
# once per war round, with <= 52 cards. Draws per pass <= 2 * (52 + 2 * 53 * 52); add one
# switch decision per face-up pair, gifts, and the redraw -- under 20000.
ACTIONS_PER_PASS = 20000


def deck_weights(known: int, unseen: int, pool: int) -> tuple[float, float]:
    """Chance weight of each known card and of each pool card when a deck is drawn (PF-9).

    The deck holds ``known`` cards by name and ``unseen`` cards from a pool of ``pool``
    cards: a known card comes up with 1/n, each pool card with unseen/(n*pool). The
    same function serves the fast path, so its samples agree to the last bit.
    """
    n = known + unseen
    return 1.0 / n, (unseen / (n * pool) if unseen else 0.0)


def _even_keep(text: str) -> int:
    value = parse_int(0, 50)(text)
    if value % 2:
        raise ValueError(f"{value} is odd: the other {52 - value} cards must split evenly into two sides (PF-2)")
    return value


class ProfiteerGame(Game):
    """Profiteer for one player, the profiteer, against the chance of two warring sides."""

    id: ClassVar[str] = "profiteer"
    title: ClassVar[str] = "Profiteer"
    param_specs: ClassVar[list[Param]] = [
        Param("hand", "10", parse_int(1, 52), "cards drawn for the profiteer's hand (PF-2, PF-7)"),
        Param("keep", "8", _even_keep, "of those, cards kept as resources; the lowest others go back (PF-2, PF-7)"),
        Param("target", "26", parse_int(0, 52), "cards the profiteer needs at the end to win (PF-8)"),
        Param("war_switch", "false", parse_bool,
              "may the profiteer switch a war's face-up cards too (PF-3, PF-13)", ("false", "true")),
        Param("max_rounds", "100", parse_int(1, 10000), "passes through the decks before the game ends (PF-8)"),
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
        return ProfiteerState(game=self, phase=SETUP, pool=FULL_DECK)

    def action_to_text(self, state: State, action: Action) -> str:
        """``QS``, ``pass``, ``switch A KD``, ``give 7C`` or ``end``."""
        if not isinstance(action, int) or isinstance(action, bool):
            raise ValueError(f"{action!r} is not a profiteer action")
        if 0 <= action < 52:
            return card_text(action)
        if action == PASS:
            return "pass"
        if action == END:
            return "end"
        for base, word in ((SWITCH_A, "switch A "), (SWITCH_B, "switch B "), (GIVE, "give ")):
            if base <= action < base + 52:
                return word + card_text(action - base)
        raise ValueError(f"{action!r} is not a profiteer action")

    def parse_action(self, state: State, text: str) -> int:
        """Read ``QS`` (a drawn card), ``pass``, ``switch A KD``, ``give 7C`` or ``end``."""
        words = text.strip().split()
        if not words:
            raise state.invalid(text, "empty: type pass, switch A KD, give 7C, end, or a card such as QS")
        head = words[0].lower()
        if head == "pass" and len(words) == 1:
            return PASS
        if head == "end" and len(words) == 1:
            return END
        try:
            if head == "switch":
                if len(words) != 3 or words[1].upper() not in ("A", "B"):
                    raise ValueError("write switch, the side A or B, then your card: switch A KD")
                return (SWITCH_A if words[1].upper() == "A" else SWITCH_B) + parse_card(words[2])
            if head == "give":
                if len(words) != 2:
                    raise ValueError("write give and one card: give 7C")
                return GIVE + parse_card(words[1])
            if len(words) == 1:
                return parse_card(words[0])
        except ValueError as exc:
            raise state.invalid(text, str(exc)) from None
        raise state.invalid(text, "type pass, switch A KD, give 7C, end, or a card such as QS")


@dataclass(frozen=True, slots=True)
class ProfiteerState(State):
    """A Profiteer position. Every card set is a 52-bit mask (see :mod:`.cards`).

    ``pool`` holds the dealt cards not turned up since the shuffle; ``ua``/``ub`` say how many of
    them are in side A's / B's deck, ``ka``/``kb`` which known cards are, ``da``/``db`` are
    the sides' discard piles. ``res`` are the profiteer's resources, ``pdisc`` the
    profiteer's discard, ``drawn`` a hand being drawn. On the table: ``up_a``/``up_b`` the
    face-up cards being compared (-1 for none), ``pot_a``/``pot_b`` every face-up card each
    side has put in this flip and its war, ``war`` the war round (0 for a plain flip),
    ``down_a``/``down_b`` whether a face-down card is still owed this round.
    """

    game: ProfiteerGame = field(compare=False, repr=False)
    phase: int
    pool: int = 0
    ua: int = 0
    ub: int = 0
    ka: int = 0
    kb: int = 0
    da: int = 0
    db: int = 0
    res: int = 0
    pdisc: int = 0
    drawn: int = 0
    up_a: int = -1
    up_b: int = -1
    pot_a: int = 0
    pot_b: int = 0
    war: int = 0
    down_a: bool = False
    down_b: bool = False
    #: pass number, from 1 (PF-8 max_rounds)
    round: int = 0
    #: a war of this flip needed more cards and both sides shuffled their discards in: the pass
    #: ends once it is resolved (PF-5)
    reshuffled: bool = False
    #: a gift has been given at this count (PF-14)
    gifting: bool = False
    end: int = END_NONE
    # Figures for `plunder simulate`; the position does not depend on them.
    flips: int = field(default=0, compare=False)
    wars: int = field(default=0, compare=False)
    war_rounds: int = field(default=0, compare=False)
    switches: int = field(default=0, compare=False)
    war_cards: int = field(default=0, compare=False)
    gifts: int = field(default=0, compare=False)
    reshuffles: int = field(default=0, compare=False)
    #: what the last resolved flip or count did, for the table picture
    last: str = field(default="", compare=False)

    # ----- reading the position -------------------------------------------------------

    @property
    def current_player(self) -> int:
        """The profiteer (seat 0) at SWITCH and BALANCE, chance while cards are drawn."""
        if self.phase == OVER:
            return TERMINAL
        if self.phase == SWITCH or self.phase == BALANCE:
            return 0
        return CHANCE

    def deck_a(self) -> int:
        """Cards in side A's deck."""
        return self.ua + self.ka.bit_count()

    def deck_b(self) -> int:
        """Cards in side B's deck."""
        return self.ub + self.kb.bit_count()

    def pile_a(self) -> int:
        """Side A's cards off the table: deck and discard (PF-10)."""
        return self.deck_a() + self.da.bit_count()

    def pile_b(self) -> int:
        """Side B's cards off the table: deck and discard (PF-10)."""
        return self.deck_b() + self.db.bit_count()

    def total(self) -> int:
        """The profiteer's count: discard, resources and any hand being drawn (PF-8)."""
        return (self.pdisc | self.res | self.drawn).bit_count()

    def switch_targets(self) -> list[Action]:
        """The legal switch actions of a SWITCH position (PF-3)."""
        out: list[Action] = []
        for base, up in ((SWITCH_A, self.up_a), (SWITCH_B, self.up_b)):
            floor = (rank(up) + 1) * 4
            out.extend(base + c for c in cards_of(self.res >> floor << floor))
        return out

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """Each card of the pile being drawn, with its chance (PF-9)."""
        p = self.phase
        if p == SETUP:
            return _uniform(self.pool)
        if p == REDRAW:
            return _uniform(self.pdisc)
        if p == UP_A or p == DOWN_A:
            return _deck(self.ka, self.ua, self.pool)
        if p == UP_B or p == DOWN_B:
            return _deck(self.kb, self.ub, self.pool)
        raise ValueError(f"{self.summary()} is not a chance node")

    def legal_actions(self) -> list[Action]:
        """Cards that may be drawn, or the profiteer's choices."""
        p = self.phase
        if p == OVER:
            return []
        if p == SWITCH:
            return [PASS, *self.switch_targets()]
        if p == BALANCE:
            gifts: list[Action] = [GIVE + c for c in cards_of(self.res)]
            return gifts if self.gifting else [END, *gifts]
        return [a for a, _ in self.chance_outcomes()]

    def _drawable(self) -> int:
        p = self.phase
        if p == SETUP:
            return self.pool
        if p == REDRAW:
            return self.pdisc
        if p in (UP_A, DOWN_A):
            return self.ka | (self.pool if self.ua else 0)
        return self.kb | (self.pool if self.ub else 0)

    def illegal_reason(self, action: Action) -> tuple[str, str] | None:
        """Why ``action`` cannot be taken now, with the ruling it breaks."""
        if not isinstance(action, int) or isinstance(action, bool) or not _known_action(action):
            return (f"{action!r} is not a profiteer action", "PF-1")
        p = self.phase
        if p == OVER:
            return (f"the game is over: {END_NAMES[self.end]}", "PF-8")
        if action < 52:
            if p in (SWITCH, BALANCE):
                return ("cards are drawn by chance, not chosen: the profiteer acts now", "PF-9")
            if not self._drawable() >> action & 1:
                return (f"{card_text(action)} is not in {_pile_name(p)}", "PF-9")
            return None
        if p == SWITCH:
            if action == PASS:
                return None
            if SWITCH_A <= action < SWITCH_B + 52:
                side, card = ("A", action - SWITCH_A) if action < SWITCH_B else ("B", action - SWITCH_B)
                if not self.res >> card & 1:
                    return (f"{card_text(card)} is not among your resources", "PF-3")
                up = self.up_a if side == "A" else self.up_b
                if rank(card) <= rank(up):
                    return (f"the card you give must outrank side {side}'s {card_text(up)}", "PF-3")
                return None
            return ("gifts and ending come only at the count of unequal piles", "PF-6")
        if p == BALANCE:
            if GIVE <= action < GIVE + 52:
                if not self.res >> (action - GIVE) & 1:
                    return (f"{card_text(action - GIVE)} is not among your resources", "PF-6")
                return None
            if action == END:
                if self.gifting:
                    return ("balancing has begun: give until the piles are equal", "PF-14")
                return None
            return ("no flip is waiting: the piles are being balanced", "PF-6")
        # a chance node, and the action is the profiteer's
        if SWITCH_A <= action < SWITCH_B + 52:
            if self.war and not self.game.war_switch:
                return ("no switching on a war's cards (war_switch=false)", "PF-3")
            return ("no flip is waiting for a switch: cards are being drawn", "PF-3")
        if action == PASS:
            return ("no flip is waiting: cards are being drawn", "PF-3")
        return ("gifts and ending come only at the count of unequal piles", "PF-6")

    # ----- moving -----------------------------------------------------------------------

    def _apply(self, action: Action) -> "ProfiteerState":
        assert isinstance(action, int)
        w = Work(self)
        w.step(action)
        return w.state()

    # ----- results ----------------------------------------------------------------------

    def returns(self) -> list[float]:
        """+1 if the profiteer ends with at least ``target`` cards, else -1 (PF-8)."""
        if self.phase != OVER:
            return [0.0]
        return [1.0 if self.total() >= self.game.target else -1.0]

    def scores(self) -> list[float]:
        """The profiteer's card count (PF-8)."""
        return [float(self.total())]

    def stats(self) -> dict[str, float | list[float]]:
        """Passes, flips, wars, switches, gifts and why the game ended."""
        return {
            "passes": float(self.round), "flips": float(self.flips), "wars": float(self.wars),
            "war_rounds": float(self.war_rounds), "war_cards": float(self.war_cards),
            "switches": float(self.switches), "gifts": float(self.gifts), "reshuffles": float(self.reshuffles),
            "end_unequal": float(self.end == END_UNEQUAL), "end_declined": float(self.end == END_DECLINED),
            "end_empty_side": float(self.end == END_EMPTY), "end_max_rounds": float(self.end == END_ROUNDS),
        }

    def summary(self) -> str:
        """One line: pass, phase, the sides' decks and piles, the table, the profiteer."""
        table = ""
        if self.up_a >= 0 or self.up_b >= 0:
            war = f" war {self.war}" if self.war else ""
            table = f", table{war} A {_card_or_dash(self.up_a)} v B {_card_or_dash(self.up_b)}"
        return (f"profiteer pass {self.round}, {PHASE_NAMES[self.phase]}{table}, "
                f"A deck {self.deck_a()} discard {self.da.bit_count()}, "
                f"B deck {self.deck_b()} discard {self.db.bit_count()}, "
                f"profiteer {self.total()} (resources {mask_text(self.res)})")

    def __str__(self) -> str:
        lines = [
            f"Profiteer  pass {self.round}/{self.game.max_rounds}  target {self.game.target}  -- {PHASE_NAMES[self.phase]}",
            f"  side A: deck {self.deck_a():2d}  discard {self.da.bit_count():2d}  face up {_card_or_dash(self.up_a)}",
            f"  side B: deck {self.deck_b():2d}  discard {self.db.bit_count():2d}  face up {_card_or_dash(self.up_b)}",
        ]
        if self.war:
            lines.append(f"  war round {self.war}: {(self.pot_a | self.pot_b).bit_count()} face-up cards at stake")
        lines.append(f"  resources: {mask_text(self.res)}")
        lines.append(f"  profiteer: {self.total()} cards (discard {self.pdisc.bit_count()})")
        if self.last:
            lines.append(f"  last: {self.last}")
        if self.phase == OVER:
            won = "wins" if self.total() >= self.game.target else "loses"
            lines.append(f"  over: {END_NAMES[self.end]}; the profiteer {won} with {self.total()}")
        return "\n".join(lines)


def _card_or_dash(card: int) -> str:
    return card_text(card) if card >= 0 else "-"


def _known_action(a: int) -> bool:
    return 0 <= a < 53 or SWITCH_A <= a < SWITCH_A + 52 or SWITCH_B <= a < SWITCH_B + 52 \
        or GIVE <= a < GIVE + 52 or a == END


def _pile_name(phase: int) -> str:
    return {SETUP: "the unseen deck", REDRAW: "the profiteer's pile", UP_A: "side A's deck",
            DOWN_A: "side A's deck", UP_B: "side B's deck", DOWN_B: "side B's deck"}.get(phase, "any pile")


def _uniform(mask: int) -> list[tuple[Action, float]]:
    w, _ = deck_weights(mask.bit_count(), 0, 0)
    return [(c, w) for c in cards_of(mask)]


def _deck(known: int, unseen: int, pool: int) -> list[tuple[Action, float]]:
    wk, wu = deck_weights(known.bit_count(), unseen, pool.bit_count())
    out: list[tuple[Action, float]] = [(c, wk) for c in cards_of(known)]
    if unseen:
        out.extend((c, wu) for c in cards_of(pool))
    return out


_FIELDS = tuple(f for f in ProfiteerState.__dataclass_fields__ if f != "game")


class Work:
    """A scratch copy of a state's fields that transitions edit in place, then freeze.

    :meth:`ProfiteerState._apply` makes one per action; the fast path keeps one for a
    whole game, so both play by the very same code.
    """

    def __init__(self, s: ProfiteerState) -> None:
        self.game = s.game
        for name in _FIELDS:
            setattr(self, name, getattr(s, name))

    # field types, for mypy (set in __init__ from the state)
    phase: int
    pool: int
    ua: int
    ub: int
    ka: int
    kb: int
    da: int
    db: int
    res: int
    pdisc: int
    drawn: int
    up_a: int
    up_b: int
    pot_a: int
    pot_b: int
    war: int
    down_a: bool
    down_b: bool
    round: int
    reshuffled: bool
    gifting: bool
    end: int
    flips: int
    wars: int
    war_rounds: int
    switches: int
    war_cards: int
    gifts: int
    reshuffles: int
    last: str

    def state(self) -> ProfiteerState:
        """The position as an immutable state."""
        return ProfiteerState(self.game, **{name: getattr(self, name) for name in _FIELDS})

    def step(self, action: int) -> None:
        """Apply a legal ``action`` (not checked here)."""
        p = self.phase
        if p == SETUP:
            self.pool &= ~(1 << action)
            self.drawn |= 1 << action
            if self.drawn.bit_count() == self.game.hand:
                self.finish_setup()
        elif p == REDRAW:
            self.pdisc &= ~(1 << action)
            self.drawn |= 1 << action
            if self.drawn.bit_count() == self.game.hand:
                self.finish_redraw()
        elif p == UP_A:
            self.take_a(action)
            self.up_a = action
            self.pot_a |= 1 << action
            self.phase = UP_B
        elif p == UP_B:
            self.take_b(action)
            self.up_b = action
            self.pot_b |= 1 << action
            self.after_ups()
        elif p == SWITCH:
            if action != PASS:
                self.switch(action)
            self.after_switch()
        elif p == DOWN_A:
            self.take_a(action)
            self.face_down(action)
            self.down_a = False
            self.after_switch()
        elif p == DOWN_B:
            self.take_b(action)
            self.face_down(action)
            self.down_b = False
            self.after_switch()
        elif p == BALANCE:
            if action == END:
                self.finish(END_DECLINED)
            else:
                self.gift(action - GIVE)

    # -- drawing from the sides' decks (PF-9)
    def take_a(self, card: int) -> None:
        """Remove ``card`` from side A's deck: a known card, or one of its unseen ones."""
        b = 1 << card
        if self.ka & b:
            self.ka ^= b
        else:
            self.pool ^= b
            self.ua -= 1

    def take_b(self, card: int) -> None:
        """Remove ``card`` from side B's deck."""
        b = 1 << card
        if self.kb & b:
            self.kb ^= b
        else:
            self.pool ^= b
            self.ub -= 1

    def face_down(self, card: int) -> None:
        """A face-down war card, turned over to the profiteer."""
        # PF-4: every face-down card goes to the profiteer, whoever wins the war.
        self.pdisc |= 1 << card
        self.war_cards += 1

    # -- the profiteer's hands (PF-2, PF-7, PF-11)
    def finish_setup(self) -> None:
        """Keep the best of the first hand, shuffle the rest back and split the deck (PF-2)."""
        g = self.game
        back = lowest(self.drawn, g.give_back)
        self.res = self.drawn & ~back
        self.pool |= back
        self.drawn = 0
        self.ua = self.ub = self.pool.bit_count() // 2
        self.round = 1
        self.last = f"resources drawn; {mask_text(back)} shuffled back into the deck"
        self.next_flip()

    def finish_redraw(self) -> None:
        """Keep the best of the new hand, the lowest back to the discard (PF-7, PF-11); next pass."""
        g = self.game
        back = lowest(self.drawn, min(g.give_back, self.drawn.bit_count()))
        self.res = self.drawn & ~back
        self.pdisc |= back
        self.drawn = 0
        self.round += 1
        self.last += f"; new resources, {mask_text(back)} back to the discard"
        self.next_flip()

    # -- a flip and its war (PF-3, PF-4, PF-5)
    def after_ups(self) -> None:
        """Both face-up cards are out: offer a switch if one is possible and allowed (PF-3, PF-13)."""
        g = self.game
        self.phase = SWITCH
        if self.war and not g.war_switch:
            self.after_switch()
            return
        # A switch needs a resource above the lower face-up card; else the flip stands.
        top = (self.res.bit_length() - 1) >> 2 if self.res else -1
        if top <= min(rank(self.up_a), rank(self.up_b)):
            self.after_switch()

    def switch(self, action: int) -> None:
        """Put a resource in place of a face-up card, which goes to the profiteer (PF-3)."""
        if action < SWITCH_B:
            card, old = action - SWITCH_A, self.up_a
            self.up_a = card
            self.pot_a = self.pot_a & ~(1 << old) | 1 << card
        else:
            card, old = action - SWITCH_B, self.up_b
            self.up_b = card
            self.pot_b = self.pot_b & ~(1 << old) | 1 << card
        self.res &= ~(1 << card)
        self.pdisc |= 1 << old
        self.switches += 1

    def after_switch(self) -> None:
        """Draw owed face-down cards, then resolve the flip."""
        # PF-15: face-down cards are drawn after the face-up ones and any switch.
        if self.down_a:
            self.phase = DOWN_A
        elif self.down_b:
            self.phase = DOWN_B
        else:
            self.resolve()

    def resolve(self) -> None:
        """Higher card takes the face-up cards; a tie starts a war round (PF-4)."""
        ra, rb = rank(self.up_a), rank(self.up_b)
        if self.war == 0:
            self.flips += 1
        if ra == rb:
            if self.war == 0:
                self.wars += 1
            self.start_war_round()
            return
        won = (self.pot_a | self.pot_b).bit_count()
        side = "A" if ra > rb else "B"
        if ra > rb:
            self.da |= self.pot_a | self.pot_b
        else:
            self.db |= self.pot_a | self.pot_b
        war = f"war round {self.war}: " if self.war else ""
        self.last = f"{war}A {card_text(self.up_a)} v B {card_text(self.up_b)}: side {side} takes {won} cards"
        self.next_flip()

    def start_war_round(self) -> None:
        """Begin a war round, dealing with short sides (PF-5, PF-12)."""
        self.war += 1
        self.war_rounds += 1
        # PF-5 (text step 6): a war round needs two cards from each side; when a side is short,
        # both sides shuffle their own discard into their deck, and the pass ends once this
        # war is resolved (amended 2026-11-23, superseding the old PF-10 reading).
        if self.ua + self.ka.bit_count() < 2 or self.ub + self.kb.bit_count() < 2:
            self.reshuffled = True
            if self.da or self.db:
                self.reshuffles += 1
            self.ka |= self.da
            self.kb |= self.db
            self.da = self.db = 0
        na, nb = self.ua + self.ka.bit_count(), self.ub + self.kb.bit_count()
        tie = f"{rank_text(rank(self.up_a))}s tie"
        if na == 0 and nb == 0:
            # PF-12: neither side can go on; each takes back its own face-up cards.
            self.da |= self.pot_a
            self.db |= self.pot_b
            self.last = f"{tie}; neither side has a card left: each takes back its own"
            self.next_flip()
            return
        if na == 0 or nb == 0:
            # PF-5: a side with no card left loses the war.
            won = (self.pot_a | self.pot_b).bit_count()
            if na == 0:
                self.db |= self.pot_a | self.pot_b
            else:
                self.da |= self.pot_a | self.pot_b
            self.last = f"{tie}; side {'A' if na == 0 else 'B'} has no card left and loses {won} cards"
            self.next_flip()
            return
        # PF-5: a side with one card plays it face up, with no face-down card.
        self.down_a, self.down_b = na >= 2, nb >= 2
        self.up_a = self.up_b = -1
        self.phase = UP_A

    def next_flip(self) -> None:
        """Clear the table and flip again, or count (PF-5, PF-10)."""
        self.up_a = self.up_b = -1
        self.pot_a = self.pot_b = 0
        self.war = 0
        self.down_a = self.down_b = False
        # PF-5: a war that needed a reshuffle ends the pass even though the decks hold cards;
        # PF-10: otherwise the pass ends once a deck is empty (both run out together).
        if self.reshuffled or self.ua + self.ka.bit_count() == 0 or self.ub + self.kb.bit_count() == 0:
            self.reshuffled = False
            self.count()
        else:
            self.phase = UP_A

    # -- the end of a pass (PF-6, PF-7, PF-8, PF-14)
    def count(self) -> None:
        """Compare the sides' piles at the end of a pass (PF-6, PF-8)."""
        pa = self.ua + self.ka.bit_count() + self.da.bit_count()
        pb = self.ub + self.kb.bit_count() + self.db.bit_count()
        # the flip that ended the pass stays in the message
        self.last = f"{self.last}; pass {self.round} counted: side A {pa}, side B {pb}"
        if pa == 0 or pb == 0:
            self.finish(END_EMPTY)
        elif self.round >= self.game.max_rounds:
            self.finish(END_ROUNDS)
        elif pa == pb:
            self.carry_on()
        elif self.res.bit_count() >= abs(pa - pb):
            self.phase = BALANCE
            self.gifting = False
        else:
            self.finish(END_UNEQUAL)

    def gift(self, card: int) -> None:
        """Give a resource to the smaller side; go on once the piles are equal (PF-6)."""
        self.res &= ~(1 << card)
        pa = self.ua + self.ka.bit_count() + self.da.bit_count()
        pb = self.ub + self.kb.bit_count() + self.db.bit_count()
        if pa < pb:
            self.da |= 1 << card
            pa += 1
        else:
            self.db |= 1 << card
            pb += 1
        self.gifts += 1
        self.gifting = True
        if pa == pb:
            self.last = f"pass {self.round}: balanced at {pa} each"
            self.carry_on()

    def carry_on(self) -> None:
        """Start the next pass: piles become decks, the profiteer redraws (PF-7)."""
        # PF-7: each side's whole pile becomes its deck; the profiteer redraws.
        self.gifting = False
        self.ka |= self.da
        self.kb |= self.db
        self.da = self.db = 0
        self.pdisc |= self.res
        self.res = 0
        if self.pdisc.bit_count() <= self.game.hand:
            self.drawn, self.pdisc = self.pdisc, 0
            self.finish_redraw()
        else:
            self.phase = REDRAW

    def finish(self, why: int) -> None:
        """End the game for reason ``why``."""
        self.phase = OVER
        self.end = why
        self.gifting = False
