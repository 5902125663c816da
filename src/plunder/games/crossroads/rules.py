"""Crossroads rules: the dice-grid game of cities, roads and negotiated trades (rulings CR-1..CR-15).

The state's methods (what is legal) follow the rule text (seed 004) section by section: Set Up (CR-5),
A Round (CR-6, CR-13), Rolling (CR-1, CR-9), activation (CR-2), Building (CR-4) and
Trading (CR-3, CR-7, CR-10..CR-12). The text stops inside its trading section (CR-8), so
the negotiation protocol (CR-11, CR-12) is this project's ruling, built from what it says.

Pure rules: no I/O, no rich, no agents. A :class:`CrossroadsState` is an immutable value;
``apply`` returns a new one. Dice are chance nodes; nothing hidden is ever stored. The
actions and their texts are in :mod:`.actions`; the grid, its road networks and trade
routes in :mod:`.board`; the work each action does in :mod:`.flow`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar, Self, Sequence

from ...core.game import CHANCE, TERMINAL, Game, State
from ...core.params import Param, parse_choice, parse_int
from .actions import (
    Accept,
    Axis,
    City,
    CrossroadsAction,
    Demand,
    Done,
    Offer,
    Pass,
    Place,
    Reject,
    Reroll,
    Road,
    Roll,
    CODEC,
    CrossroadsCodec,
    malformed,
)
from .board import (
    CELLS,
    CITY0,
    EMPTY,
    ROAD,
    Board,
    Network,
    activated,
    cell_name,
    city_sites,
    network,
    orthogonal,
    owner,
    road_sites,
    touches_city,
)
from .flow import CITY_COST, PARTNER, PROPOSER, ROAD_COST, Phase, apply


#: the phases where chance rolls the dice
DICE_PHASES = (Phase.SETUP_ROLL, Phase.ROLL)
#: the players' moves in each phase, and how a message names them
MOVES: dict[Phase, tuple[tuple[type, ...], str]] = {
    Phase.SETUP_PLACE: ((Place,), "place"),
    Phase.AXIS: ((Axis,), "col/row"),
    Phase.BUILD: ((City, Road, Done), "city, road or done"),
    Phase.TRADE: ((Offer, Pass), "offer or pass"),
    Phase.RESPOND: ((Accept, Reject, Demand), "accept, reject or demand"),
}
TRADE_GOLD = 3
#: After this many 6-rerolls in a row the next roll is drawn from the faces 1-5 directly (CR-9).
MAX_REROLLS = 5


def _players(text: str) -> int:
    return parse_int(2, 6)(text)


class CrossroadsGame(Game[CrossroadsAction]):
    """Crossroads with its parameters fixed (players, dice, target, max_rounds, offers, relays)."""

    id = "crossroads"
    title = "Crossroads"
    param_specs = (
        Param("players", "4", _players, "number of players, 2-6", label="Players"),
        Param("dice", "d5", parse_choice(("d5", "d6")), "d5: dice show 1-5; d6: sixes are rerolled (CR-1, CR-9)", ("d5", "d6"), label="Dice"),
        Param("target", "100", parse_int(1, 100000), "gold that wins at the end of a round (CR-6)", label="Gold to win"),
        Param("max_rounds", "200", parse_int(1, 10000), "rounds before the richest wins or ties (CR-13)", label="Rounds at most"),
        Param("offers", "3", parse_int(0, 50), "proposals each player may make per trading phase (CR-11)", label="Offers per trade"),
        Param("relays", "2", parse_int(0, 2), "most relay cities a trade route may pass through (CR-7, CR-10)", label="Relay cities at most"),
    )
    presets: ClassVar[dict[str, dict[str, str]]] = {
        "2p": {"players": "2"},
        "4p": {"players": "4"},
        "6p": {"players": "6"},
    }

    @property
    def num_players(self) -> int:
        """Number of seats."""
        players: int = self.values["players"]
        return players

    @property
    def max_game_length(self) -> int:
        """A bound on actions: setup, then per round turns and a capped trading phase, plus <= 100 builds."""
        n = self.num_players
        rolls = MAX_REROLLS + 1 if self.values["dice"] == "d6" else 1
        proposals = n * self.values["offers"]
        # An offer takes at most 1 + 3 answers + 3 demands each re-asking 3 parties.
        per_offer = 1 + 3 + 3 * 3
        per_round = n * (rolls + 2) + proposals * per_offer + n * (proposals + 1)
        return 2 * n + self.values["max_rounds"] * per_round + CELLS

    def new_initial_state(self) -> "CrossroadsState":
        """Setup: the first player rolls for a city site (CR-5)."""
        n = self.num_players
        zeros = (0,) * n
        return CrossroadsState(
            game=self,
            board=(EMPTY,) * CELLS,
            gold=zeros,
            phase=Phase.SETUP_ROLL,
            seat=0,
            round=0,
            offers=zeros,
            last=(0,) * (n * n),
            grudge=(0,) * (n * n),
            trade_gold=zeros,
            fees=zeros,
            roads=zeros,
        )

    def position(
        self, board: Board, gold: Sequence[int] | None = None, phase: Phase = Phase.BUILD, seat: int = 0, round: int = 1
    ) -> "CrossroadsState":
        """A mid-game position on ``board`` (for scenarios and tests): ``phase`` of ``seat``'s turn.

        ``phase`` may be ``ROLL``, ``BUILD`` or ``TRADE`` (a fresh trading phase).
        """
        if phase not in (Phase.ROLL, Phase.BUILD, Phase.TRADE):
            raise ValueError("a position starts at a roll, a build or a trading phase")
        if len(board) != CELLS or any(v > CITY0 + self.num_players - 1 for v in board):
            raise ValueError("the board must have 100 cells and cities only of seats in play")
        state = self.new_initial_state()
        return state.evolve(board=tuple(board), gold=tuple(gold) if gold is not None else state.gold,
                            phase=phase, seat=seat, round=round)

    @property
    def codec(self) -> CrossroadsCodec:
        """Crossroads' notation (:mod:`.actions`)."""
        return CODEC


def splits(parts: int) -> list[tuple[int, ...]]:
    """Every way to share the 3 new gold of a trade among ``parts`` parties (CR-7, CR-12)."""
    return _splits_of(TRADE_GOLD, parts)


def _splits_of(total: int, parts: int) -> list[tuple[int, ...]]:
    if parts == 1:
        return [(total,)]
    return [(x,) + rest for x in range(total, -1, -1) for rest in _splits_of(total - x, parts - 1)]


@dataclass(frozen=True)
class CrossroadsState(State[CrossroadsAction]):
    """An immutable Crossroads position.

    ``seat`` is whose turn it is (rolling, building, or trading); during ``RESPOND`` the
    seat to act is the owner of the first slot of ``waiting``. ``last[i*n+j]`` is how
    seat ``j`` last treated seat ``i`` in trading (+1 fair, -1 unfair, 0 never) and
    ``grudge[i*n+j]`` whether ``j`` ever treated ``i`` unfairly; with ``refusals`` (pairs
    (proposer, refuser) this trading phase) they are public history for the agents.
    ``trade_gold``, ``fees`` and ``roads`` are each seat's public ledger, on the table for
    all to see (the pictures draw the roads; ``crossroads-hard`` reads its rivals' pace of
    trade gold and fees); no rule does, so they take no part in equality: two positions that
    differ only there play alike. The trades made and the activation income are no part of a
    position: the game's observer (:mod:`.stats`) counts them.
    """

    game: CrossroadsGame = field(compare=False, repr=False)
    board: Board
    gold: tuple[int, ...]
    phase: Phase
    seat: int
    round: int
    offers: tuple[int, ...]
    last: tuple[int, ...]
    grudge: tuple[int, ...]
    trade_gold: tuple[int, ...] = field(compare=False)
    fees: tuple[int, ...] = field(compare=False)
    roads: tuple[int, ...] = field(compare=False)
    dice: tuple[int, ...] = ()
    lit: tuple[int, ...] = ()
    rerolls: int = 0
    used: frozenset[int] = frozenset()
    passes: int = 0
    offer: Offer | None = None
    waiting: tuple[int, ...] = ()
    refusals: frozenset[tuple[int, int]] = frozenset()
    winners: tuple[int, ...] = ()

    # ----------------------------------------------------------------- basics
    @property
    def n(self) -> int:
        """Number of seats."""
        return len(self.gold)

    @cached_property
    def net(self) -> Network:
        """The road networks of the board (CR-3), computed once per board."""
        return network(self.board)

    def evolve(self, **changes: Any) -> Self:
        """The next state; the road networks carry over while the board stays the same."""
        new = super().evolve(**changes)
        if "board" not in changes and "net" in self.__dict__:
            new.__dict__["net"] = self.__dict__["net"]
        return new

    @property
    def current_player(self) -> int:
        """Seat to act, CHANCE while dice roll, TERMINAL when over."""
        if self.phase in DICE_PHASES:
            return CHANCE
        if self.phase is Phase.OVER:
            return TERMINAL
        if self.phase is Phase.RESPOND:
            return self.responder()
        return self.seat

    def responder(self) -> int:
        """The seat answering the pending offer's first waiting slot."""
        assert self.offer is not None and self.waiting
        return self.slot_owner(self.waiting[0])

    def slot_owner(self, slot: int) -> int:
        """The seat behind a response slot of the pending offer."""
        assert self.offer is not None
        if slot == PROPOSER:
            return owner(self.board[self.offer.a])
        if slot == PARTNER:
            return owner(self.board[self.offer.b])
        return owner(self.board[self.offer.relays[slot]])

    def city_cells(self, seat: int) -> list[int]:
        """The cells of ``seat``'s cities."""
        return list(self.net.cities_of(seat))

    # ----------------------------------------------------------------- what may be played
    def legal_actions(self) -> list[CrossroadsAction]:
        """Legal actions (at chance nodes, the dice outcomes)."""
        match self.phase:
            case Phase.SETUP_ROLL | Phase.ROLL:
                return [a for a, _ in self.chance_outcomes()]
            case Phase.SETUP_PLACE:
                return [Place(c) for c in self._setup_sites(*self.dice)]
            case Phase.AXIS:
                lo, hi = self.dice
                return [Axis(lo, hi), Axis(hi, lo)]
            case Phase.BUILD:
                return self._build_actions()
            case Phase.TRADE:
                return [Pass(), *self.proposals(self.seat)]
            case Phase.RESPOND:
                return self._response_actions()
        return []

    def illegal_reason(self, action: CrossroadsAction) -> tuple[str, str] | None:
        """``None`` if legal, else (reason, ruling id)."""
        why = malformed(action)
        if why is not None:
            return (why, "CR-6")
        phase = self.phase
        if phase is Phase.OVER:
            return ("the game is over", "CR-6")
        if isinstance(action, (Roll, Reroll)):
            return self._roll_reason(action)
        if phase in DICE_PHASES:
            return ("the dice must be rolled first", "CR-6")
        kinds, words = MOVES[phase]
        if not isinstance(action, kinds):
            return (f"during {phase.value} the moves are {words}", "CR-6")
        match action:
            case Place():
                if action not in self.legal_actions():
                    return ("a first city goes on an activated empty cell with no city among its eight neighbours", "CR-5")
            case Axis():
                if action not in self.legal_actions():
                    return (f"the dice show {self.dice[0]} and {self.dice[1]}", "CR-1")
            case City(cell):
                return self._build_reason("city", cell)
            case Road(cell):
                return self._build_reason("road", cell)
            case Demand(fee):
                return self._demand_reason(fee)
            case Offer():
                return self._offer_reason(action)
        return None

    def _apply(self, action: CrossroadsAction) -> "CrossroadsState":
        return apply(self, action)

    # ----------------------------------------------------------------- Set Up (CR-5)
    def _setup_rolls(self) -> list[tuple[int, int]]:
        """Rolls that offer at least one legal setup site (CR-5)."""
        return [(lo, hi) for lo in range(1, 6) for hi in range(lo, 6) if self._setup_sites(lo, hi)]

    def _setup_sites(self, lo: int, hi: int) -> list[int]:
        cells = set(activated(lo, hi)) | set(activated(hi, lo))
        return sorted(c for c in cells if self.board[c] == EMPTY and not touches_city(self.board, c))

    def returns(self) -> list[float]:
        """+1 for a lone winner, 0 for players tied at the top at the round cap, -1 for the rest."""
        if self.phase is not Phase.OVER:
            return [0.0] * self.n
        if len(self.winners) == 1:
            return [1.0 if i in self.winners else -1.0 for i in range(self.n)]
        return [0.0 if i in self.winners else -1.0 for i in range(self.n)]

    def scores(self) -> list[float]:
        """Gold per seat."""
        return [float(g) for g in self.gold]

    # ----------------------------------------------------------------- Rolling (CR-1, CR-9)
    def chance_outcomes(self) -> list[tuple[CrossroadsAction, float]]:
        """Dice outcomes: unordered pairs of faces 1-5; with d6, a 6 is a reroll outcome (CR-9)."""
        if self.phase is Phase.SETUP_ROLL:
            # Rerolling until some cell qualifies (CR-5) draws from the rolls that qualify,
            # in proportion (CR-9), so no reroll loop is needed.
            rolls = self._setup_rolls()
            weights = [1 if lo == hi else 2 for lo, hi in rolls]
            total = sum(weights)
            return [(Roll(lo, hi), w / total) for (lo, hi), w in zip(rolls, weights)]
        if self.phase is not Phase.ROLL:
            raise ValueError(f"{self.summary()} is not a chance node")
        six = self.game.values["dice"] == "d6" and self.rerolls < MAX_REROLLS
        denom = 36 if six else 25
        out: list[tuple[CrossroadsAction, float]] = [
            (Roll(lo, hi), (1 if lo == hi else 2) / denom) for lo in range(1, 6) for hi in range(lo, 6)
        ]
        if six:
            out.append((Reroll(), 11 / 36))
        return out

    def _roll_reason(self, action: Roll | Reroll) -> tuple[str, str] | None:
        if self.phase not in DICE_PHASES:
            return (f"dice are not rolled during {self.phase.value}", "CR-6")
        if action in self.legal_actions():
            return None
        if isinstance(action, Reroll):
            return ("no six can be rolled here (dice=d5, or the reroll limit)", "CR-9")
        if self.phase is Phase.ROLL:
            return ("the dice show two faces 1-5, lower first", "CR-1")
        return ("no site qualifies on that roll, so it is rerolled", "CR-5")

    # ----------------------------------------------------------------- Building (CR-4)
    def _build_actions(self) -> list[CrossroadsAction]:
        acts: list[CrossroadsAction] = [Done()]
        gold = self.gold[self.seat]
        if gold >= CITY_COST:
            acts += [City(c) for c in city_sites(self.board, self.net, self.seat)]
        if gold >= ROAD_COST:
            acts += [Road(c) for c in road_sites(self.board, self.net, self.seat)]
        return acts

    def _build_reason(self, kind: str, where: int) -> tuple[str, str] | None:
        cost = CITY_COST if kind == "city" else ROAD_COST
        if self.gold[self.seat] < cost:
            return (f"a {kind} costs {cost} gold; you have {self.gold[self.seat]}", "CR-4")
        if self.board[where] != EMPTY:
            return (f"{cell_name(where)} is not empty", "CR-4")
        if kind == "city":
            if touches_city(self.board, where):
                return ("a city may not touch another city, diagonals included", "CR-4")
            if not any(self.board[n] == ROAD for n in orthogonal(where)):
                return ("a city must be orthogonally next to a road", "CR-4")
        elif touches_city(self.board, where, except_seat=self.seat):
            return ("a road may not touch another player's city", "CR-4")
        # Orthogonal neighbours count as linked by an empty path (CR-15).
        if not self.net.direct(where) & set(self.city_cells(self.seat)):
            return (f"{cell_name(where)} could not trade directly with one of your cities", "CR-4")
        return None

    # ----------------------------------------------------------------- Trading (CR-3, CR-7, CR-10..CR-12)
    def routes(self, a: int, b: int) -> list[tuple[int, ...]]:
        """The routes between cities ``a`` and ``b`` within the ``relays`` limit (CR-7 amended, CR-10)."""
        return self.net.routes(a, b, self.game.values["relays"])

    def trade_pairs(self, seat: int) -> list[tuple[int, int, tuple[int, ...]]]:
        """(my city, their city, relays) for every unused pair and route ``seat`` could offer (CR-3, CR-7).

        Empty once ``seat`` has made its ``offers`` proposals this trading phase (CR-11).
        """
        if self.offers[seat] >= self.game.values["offers"]:
            return []
        used = self.used
        every = self.net.pairs(seat, self.game.values["relays"])
        if not used:
            return list(every)
        return [p for p in every if p[0] not in used and p[1] not in used]

    def proposals(self, seat: int) -> list[CrossroadsAction]:
        """Every offer ``seat`` may make now: each trade pair and route with each split of the 3 gold."""
        return [
            Offer(a, b, relays, share[2:], share[0], share[1])
            for a, b, relays in self.trade_pairs(seat)
            for share in splits(2 + len(relays))
        ]

    def _offer_reason(self, offer: Offer) -> tuple[str, str] | None:
        a, b, relays, fees = offer.a, offer.b, offer.relays, offer.fees
        seat = self.seat
        if self.offers[seat] >= self.game.values["offers"]:
            return (f"each player may make {self.game.values['offers']} offers per trading phase", "CR-11")
        if owner(self.board[a]) != seat:
            return (f"{cell_name(a)} is not one of your cities", "CR-7")
        pb = owner(self.board[b])
        if pb < 0 or pb == seat:
            return (f"{cell_name(b)} is not another player's city", "CR-7")
        if a in self.used or b in self.used:
            return (f"city {cell_name(a if a in self.used else b)} has already traded this round", "CR-7")
        if min((offer.mine, offer.theirs, *fees)) < 0 or offer.mine + offer.theirs + sum(fees) != TRADE_GOLD:
            return ("the split and fees must be whole gold summing to 3", "CR-12")
        routes = self.routes(a, b)
        if not routes:
            return (f"{cell_name(a)} and {cell_name(b)} are not linked by roads", "CR-3")
        if relays not in routes:
            shown = " or ".join("direct" if not r else "via " + ",".join(cell_name(x) for x in r) for r in routes)
            return (f"that is no route of {cell_name(a)} to {cell_name(b)} (each relay needed, at most "
                    f"{self.game.values['relays']}); the routes are: {shown}", "CR-10")
        return None

    def _response_actions(self) -> list[CrossroadsAction]:
        acts: list[CrossroadsAction] = [Accept(), Reject()]
        slot = self.waiting[0]
        if slot >= 0:
            assert self.offer is not None
            fee = self.offer.fees[slot]
            spare = self.offer.mine + self.offer.theirs
            acts += [Demand(f) for f in range(fee + 1, fee + spare + 1)]
        return acts

    def _demand_reason(self, fee: int) -> tuple[str, str] | None:
        slot = self.waiting[0]
        if slot < 0:
            return ("only a relay whose city carries the trade may demand a fee", "CR-12")
        assert self.offer is not None
        now = self.offer.fees[slot]
        if fee <= now:
            return (f"a demand must raise the fee above {now}", "CR-12")
        if fee - now > self.offer.mine + self.offer.theirs:
            return ("the traders' shares cannot cover that fee; the trade makes only 3 gold", "CR-12")
        return None

    # ----------------------------------------------------------------- reports
    def places_first_city(self) -> bool:
        """True while a first city is being placed (a bare cell then reads as ``place``)."""
        return self.phase is Phase.SETUP_PLACE

    def summary(self) -> str:
        """One line: round, phase, whose move, gold."""
        player = self.current_player
        who = "chance" if player == CHANCE else "over" if player == TERMINAL else f"P{player + 1}"
        gold = "/".join(str(g) for g in self.gold)
        return f"crossroads round {self.round} {self.phase.value} ({who}) gold {gold}"

    def __str__(self) -> str:
        """The board as text: '.' empty, '#' road, digits are players' cities; then the gold."""
        rows = ["   " + " ".join("12345" * 2)]
        for r in range(10):
            marks = []
            for k in range(10):
                v = self.board[r * 10 + k]
                marks.append("." if v == EMPTY else "#" if v == ROAD else str(v - CITY0 + 1))
            rows.append(f"{r % 5 + 1}  " + " ".join(marks))
        rows.append("gold " + " ".join(f"P{i + 1}={g}" for i, g in enumerate(self.gold)))
        rows.append(self.summary())
        return "\n".join(rows)


__all__: Sequence[str] = ("CrossroadsGame", "CrossroadsState", "Phase", "splits")
