"""Crossroads rules: the dice-grid game of cities, roads and negotiated trades (rulings CR-1..CR-15).

The source text stops inside its trading section (CR-8), so the negotiation protocol
here (CR-11, CR-12) is this project's ruling, built from what the text does say.

Pure rules: no I/O, no rich, no agents. A :class:`CrossroadsState` is an immutable value;
``apply`` returns a new one. Dice are chance nodes; nothing hidden is ever stored.

Actions are small tuples, each with one canonical text:

====================================  =========================================
``("roll", lo, hi)``                  ``roll 2-3`` (chance; ``lo <= hi``)
``("reroll",)``                       ``reroll 6`` (chance, ``dice=d6`` only, CR-9)
``("axis", col, row)``                ``col 2 row 3`` (which die is the column, CR-1)
``("place", cell)``                   ``place D3`` (setup city, CR-5)
``("city", cell)`` / ``("road", cell)``  ``city D3`` / ``road E4`` (CR-4)
``("done",)``                         ``done`` (end of building)
``("offer", a, b, relays, fees, ga, gb)``  ``offer D3-H8 via F5=1 gold 1/1`` (CR-7)
``("accept",)`` ``("reject",)``       ``accept`` / ``reject``
``("demand", fee)``                   ``demand 2`` (a relay's fee, CR-12)
``("pass",)``                         ``pass`` (no proposal this trading turn)
====================================  =========================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Sequence

from ...core.game import CHANCE, TERMINAL, Action, Game, State
from ...core.params import Param, parse_choice, parse_int
from .board import (
    CELLS,
    CITY0,
    EMPTY,
    ROAD,
    Board,
    Network,
    activated,
    activation_pay,
    cell_name,
    city_sites,
    orthogonal,
    owner,
    parse_cell,
    road_sites,
    touches_city,
)

# Phases of play.
SETUP_ROLL, SETUP_PLACE, ROLL, AXIS, BUILD, TRADE, RESPOND, OVER = range(8)
PHASE_NAMES = ("setup roll", "setup placement", "roll", "axis choice", "building", "trading", "answering", "over")

CITY_COST = 10
ROAD_COST = 3
TRADE_GOLD = 3
#: After this many 6-rerolls in a row the next roll is drawn from the faces 1-5 directly (CR-9).
MAX_REROLLS = 5
#: Response slots of a pending offer: the proposer, the partner; relays are 0, 1, ...
PROPOSER, PARTNER = -2, -1


def _players(text: str) -> int:
    return parse_int(2, 6)(text)


class CrossroadsGame(Game):
    """Crossroads with its parameters fixed (players, dice, target, max_rounds, offers, relays)."""

    id = "crossroads"
    title = "Crossroads"
    param_specs = (
        Param("players", "4", _players, "number of players, 2-6"),
        Param("dice", "d5", parse_choice(("d5", "d6")), "d5: dice show 1-5; d6: sixes are rerolled (CR-1, CR-9)", ("d5", "d6")),
        Param("target", "100", parse_int(1, 100000), "gold that wins at the end of a round (CR-6)"),
        Param("max_rounds", "200", parse_int(1, 10000), "rounds before the richest wins or ties (CR-13)"),
        Param("offers", "3", parse_int(0, 50), "proposals each player may make per trading phase (CR-11)"),
        Param("relays", "2", parse_int(0, 2), "most relay cities a trade route may pass through (CR-10)"),
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
            phase=SETUP_ROLL,
            seat=0,
            round=0,
            offers=zeros,
            last=(0,) * (n * n),
            grudge=(0,) * (n * n),
            trades=zeros,
            proposed=zeros,
            refused=zeros,
            trade_gold=zeros,
            fees=zeros,
            income=zeros,
            roads=zeros,
        )

    def position(
        self, board: Board, gold: Sequence[int] | None = None, phase: int = BUILD, seat: int = 0, round: int = 1
    ) -> "CrossroadsState":
        """A mid-game position on ``board`` (for scenarios and tests): ``phase`` of ``seat``'s turn.

        ``phase`` may be ``ROLL``, ``BUILD`` or ``TRADE`` (a fresh trading phase).
        """
        if phase not in (ROLL, BUILD, TRADE):
            raise ValueError("a position starts at a roll, a build or a trading phase")
        if len(board) != CELLS or any(v > CITY0 + self.num_players - 1 for v in board):
            raise ValueError("the board must have 100 cells and cities only of seats in play")
        state = self.new_initial_state()
        return replace(state, board=tuple(board), gold=tuple(gold) if gold is not None else state.gold,
                       phase=phase, seat=seat, round=round, _net=[])

    def action_to_text(self, state: State, action: Action) -> str:
        """The canonical text of ``action``."""
        return action_text(action)

    def parse_action(self, state: State, text: str) -> Action:
        """Read an action text; unreadable text raises ``InvalidActionError``."""
        action = parse_text(text)
        if isinstance(action, str):
            raise state.invalid(text, action)
        return action


def action_text(action: Action) -> str:
    """Canonical text of an action tuple (see the module table)."""
    if not isinstance(action, tuple) or not action:
        raise ValueError(f"{action!r} is not a crossroads action")
    kind = action[0]
    if kind == "roll":
        return f"roll {action[1]}-{action[2]}"
    if kind == "reroll":
        return "reroll 6"
    if kind == "axis":
        return f"col {action[1]} row {action[2]}"
    if kind in ("place", "city", "road"):
        return f"{kind} {cell_name(action[1])}"
    if kind in ("done", "accept", "reject", "pass"):
        return str(kind)
    if kind == "demand":
        return f"demand {action[1]}"
    if kind == "offer":
        _, a, b, relays, fees, ga, gb = action
        via = ""
        if relays:
            via = " via " + ",".join(f"{cell_name(r)}={f}" for r, f in zip(relays, fees))
        return f"offer {cell_name(a)}-{cell_name(b)}{via} gold {ga}/{gb}"
    raise ValueError(f"{action!r} is not a crossroads action")


_OFFER = re.compile(r"offer\s+(\w+)\s*-\s*(\w+)(?:\s+via\s+([\w=,\s]+?))?\s+gold\s+(\d+)\s*/\s*(\d+)")


def parse_text(text: str) -> Action | str:
    """The action a text names, or a string saying why it cannot be read."""
    t = " ".join(text.strip().lower().split())
    if t in ("done", "accept", "reject", "pass"):
        return (t,)
    if t == "reroll 6":
        return ("reroll",)
    m = re.fullmatch(r"roll (\d)\s*-\s*(\d)", t)
    if m:
        lo, hi = int(m.group(1)), int(m.group(2))
        if not (1 <= lo <= hi <= 5):
            return "a roll is two faces 1-5, lower first, like 'roll 2-3'"
        return ("roll", lo, hi)
    m = re.fullmatch(r"col (\d) row (\d)", t)
    if m:
        col, row = int(m.group(1)), int(m.group(2))
        if not (1 <= col <= 5 and 1 <= row <= 5):
            return "axis labels are 1-5"
        return ("axis", col, row)
    m = re.fullmatch(r"(place|city|road) (\w+)", t)
    if m:
        where = parse_cell(m.group(2))
        if where is None:
            return f"{m.group(2)!r} is not a cell (columns A-J, rows 1-10, like D3)"
        return (m.group(1), where)
    m = re.fullmatch(r"demand (\d+)", t)
    if m:
        return ("demand", int(m.group(1)))
    m = _OFFER.fullmatch(t)
    if m:
        a, b = parse_cell(m.group(1)), parse_cell(m.group(2))
        if a is None or b is None:
            return "an offer names two cells like 'offer D3-H8 gold 2/1'"
        relays: list[int] = []
        fees: list[int] = []
        if m.group(3):
            for part in m.group(3).replace(" ", "").split(","):
                name, eq, fee = part.partition("=")
                where = parse_cell(name)
                if where is None or not eq or not fee.isdigit():
                    return f"relay {part!r} should read like F5=1 (cell=fee)"
                relays.append(where)
                fees.append(int(fee))
        return ("offer", a, b, tuple(relays), tuple(fees), int(m.group(4)), int(m.group(5)))
    return "expected roll, col/row, place, city, road, done, offer, accept, reject, demand or pass"


def splits(parts: int) -> list[tuple[int, ...]]:
    """Every way to share the 3 new gold of a trade among ``parts`` parties (CR-7, CR-12)."""
    if parts == 1:
        return [(TRADE_GOLD,)]
    out = []
    for first in range(TRADE_GOLD, -1, -1):
        for rest in _splits_of(TRADE_GOLD - first, parts - 1):
            out.append((first,) + rest)
    return out


def _splits_of(total: int, parts: int) -> list[tuple[int, ...]]:
    if parts == 1:
        return [(total,)]
    return [(x,) + rest for x in range(total, -1, -1) for rest in _splits_of(total - x, parts - 1)]


@dataclass(frozen=True)
class CrossroadsState(State):
    """An immutable Crossroads position.

    ``seat`` is whose turn it is (rolling, building, or trading); during ``RESPOND`` the
    seat to act is the owner of the first slot of ``waiting``. ``last[i*n+j]`` is how
    seat ``j`` last treated seat ``i`` in trading (+1 fair, -1 unfair, 0 never) and
    ``grudge[i*n+j]`` whether ``j`` ever treated ``i`` unfairly; with ``refusals`` (pairs
    (proposer, refuser) this trading phase) they are public history for the agents.
    The remaining tuples count figures for ``stats()``.
    """

    game: CrossroadsGame = field(compare=False, repr=False)
    board: Board
    gold: tuple[int, ...]
    phase: int
    seat: int
    round: int
    offers: tuple[int, ...]
    last: tuple[int, ...]
    grudge: tuple[int, ...]
    trades: tuple[int, ...]
    proposed: tuple[int, ...]
    refused: tuple[int, ...]
    trade_gold: tuple[int, ...]
    fees: tuple[int, ...]
    income: tuple[int, ...]
    roads: tuple[int, ...]
    dice: tuple[int, ...] = ()
    lit: tuple[int, ...] = ()
    rerolls: int = 0
    used: frozenset[int] = frozenset()
    passes: int = 0
    offer: tuple[Any, ...] | None = None
    waiting: tuple[int, ...] = ()
    refusals: frozenset[tuple[int, int]] = frozenset()
    winners: tuple[int, ...] = ()
    _net: list[Network] = field(default_factory=list, compare=False, repr=False)

    # ----------------------------------------------------------------- basics
    @property
    def n(self) -> int:
        """Number of seats."""
        return len(self.gold)

    @property
    def net(self) -> Network:
        """The road networks of the board, computed once per state."""
        if not self._net:
            self._net.append(Network(self.board))
        return self._net[0]

    @property
    def current_player(self) -> int:
        """Seat to act, CHANCE while dice roll, TERMINAL when over."""
        if self.phase in (SETUP_ROLL, ROLL):
            return CHANCE
        if self.phase == OVER:
            return TERMINAL
        if self.phase == RESPOND:
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
            return owner(self.board[self.offer[1]])
        if slot == PARTNER:
            return owner(self.board[self.offer[2]])
        return owner(self.board[self.offer[3][slot]])

    def city_cells(self, seat: int) -> list[int]:
        """The cells of ``seat``'s cities."""
        return [c for c in self.net.city_cells if owner(self.board[c]) == seat]

    # ----------------------------------------------------------------- chance
    def _setup_rolls(self) -> list[tuple[int, int]]:
        """Rolls that offer at least one legal setup site (CR-5)."""
        out = []
        for lo in range(1, 6):
            for hi in range(lo, 6):
                if self._setup_sites(lo, hi):
                    out.append((lo, hi))
        return out

    def _setup_sites(self, lo: int, hi: int) -> list[int]:
        cells = set(activated(lo, hi)) | set(activated(hi, lo))
        return sorted(c for c in cells if self.board[c] == EMPTY and not touches_city(self.board, c))

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """Dice outcomes: unordered pairs of faces 1-5; with d6, a 6 is a reroll outcome (CR-9)."""
        if self.phase == SETUP_ROLL:
            # Rerolling until some cell qualifies (CR-5) draws from the rolls that qualify,
            # in proportion (CR-9), so no reroll loop is needed.
            rolls = self._setup_rolls()
            weights = [1 if lo == hi else 2 for lo, hi in rolls]
            total = sum(weights)
            return [(("roll", lo, hi), w / total) for (lo, hi), w in zip(rolls, weights)]
        if self.phase != ROLL:
            raise ValueError(f"{self.summary()} is not a chance node")
        six = self.game.values["dice"] == "d6" and self.rerolls < MAX_REROLLS
        denom = 36 if six else 25
        out: list[tuple[Action, float]] = []
        for lo in range(1, 6):
            for hi in range(lo, 6):
                out.append((("roll", lo, hi), (1 if lo == hi else 2) / denom))
        if six:
            out.append((("reroll",), 11 / 36))
        return out

    # ----------------------------------------------------------------- moves
    def legal_actions(self) -> list[Action]:
        """Legal actions (at chance nodes, the dice outcomes)."""
        phase = self.phase
        if phase in (SETUP_ROLL, ROLL):
            return [a for a, _ in self.chance_outcomes()]
        if phase == SETUP_PLACE:
            return [("place", c) for c in self._setup_sites(self.dice[0], self.dice[1])]
        if phase == AXIS:
            lo, hi = self.dice
            return [("axis", lo, hi), ("axis", hi, lo)]
        if phase == BUILD:
            return self._build_actions()
        if phase == TRADE:
            return [("pass",)] + self.proposals(self.seat)
        if phase == RESPOND:
            return self._response_actions()
        return []

    def _build_actions(self) -> list[Action]:
        acts: list[Action] = [("done",)]
        gold = self.gold[self.seat]
        if gold >= CITY_COST:
            acts += [("city", c) for c in city_sites(self.board, self.net, self.seat)]
        if gold >= ROAD_COST:
            acts += [("road", c) for c in road_sites(self.board, self.net, self.seat)]
        return acts

    def routes(self, a: int, b: int) -> list[tuple[int, ...]]:
        """The routes between cities ``a`` and ``b`` within the ``relays`` limit (CR-7 amended, CR-10)."""
        return self.net.routes(a, b, self.game.values["relays"])

    def trade_pairs(self, seat: int) -> list[tuple[int, int, tuple[int, ...]]]:
        """(my city, their city, relays) for every unused pair ``seat`` could trade (CR-3, CR-7).

        Empty once ``seat`` has made its ``offers`` proposals this trading phase (CR-11).
        """
        if self.offers[seat] >= self.game.values["offers"]:
            return []
        mine = [c for c in self.city_cells(seat) if c not in self.used]
        if not mine:
            return []
        theirs = [c for c in self.net.city_cells if owner(self.board[c]) != seat and c not in self.used]
        out = []
        for a in mine:
            for b in theirs:
                for relays in self.routes(a, b):
                    out.append((a, b, relays))
        return out

    def proposals(self, seat: int) -> list[Action]:
        """Every offer ``seat`` may make now: each trade pair with each split of the 3 gold."""
        acts: list[Action] = []
        for a, b, relays in self.trade_pairs(seat):
            for share in splits(2 + len(relays)):
                acts.append(("offer", a, b, relays, share[2:], share[0], share[1]))
        return acts

    def _response_actions(self) -> list[Action]:
        acts: list[Action] = [("accept",), ("reject",)]
        slot = self.waiting[0]
        if slot >= 0:
            assert self.offer is not None
            fee = self.offer[4][slot]
            spare = self.offer[5] + self.offer[6]
            acts += [("demand", f) for f in range(fee + 1, fee + spare + 1)]
        return acts

    def illegal_reason(self, action: Action) -> tuple[str, str] | None:
        """``None`` if legal, else (reason, ruling id)."""
        if not isinstance(action, tuple) or not action or not isinstance(action[0], str):
            return (f"{action!r} is not a crossroads action", "CR-6")
        kind = action[0]
        phase = self.phase
        if phase == OVER:
            return ("the game is over", "CR-6")
        if kind in ("roll", "reroll"):
            if phase not in (SETUP_ROLL, ROLL):
                return (f"dice are not rolled during {PHASE_NAMES[phase]}", "CR-6")
            if action not in self.legal_actions():
                if kind == "reroll":
                    return ("no six can be rolled here (dice=d5, or the reroll limit)", "CR-9")
                if phase == ROLL:
                    return ("the dice show two faces 1-5, lower first", "CR-1")
                return ("no site qualifies on that roll, so it is rerolled", "CR-5")
            return None
        if phase in (SETUP_ROLL, ROLL):
            return ("the dice must be rolled first", "CR-6")
        expected = {SETUP_PLACE: ("place",), AXIS: ("axis",), BUILD: ("city", "road", "done"),
                    TRADE: ("offer", "pass"), RESPOND: ("accept", "reject", "demand")}[phase]
        if kind not in expected:
            return (f"during {PHASE_NAMES[phase]} the moves are {', '.join(expected)}", "CR-6")
        if kind == "place":
            if action not in self.legal_actions():
                return ("a first city goes on an activated empty cell with no city among its eight neighbours", "CR-5")
            return None
        if kind == "axis":
            if action not in self.legal_actions():
                return (f"the dice show {self.dice[0]} and {self.dice[1]}", "CR-1")
            return None
        if kind in ("city", "road"):
            return self._build_reason(kind, action[1])
        if kind == "done" or kind == "pass" or kind == "accept" or kind == "reject":
            return None
        if kind == "demand":
            return self._demand_reason(action)
        return self._offer_reason(action)

    def _build_reason(self, kind: str, where: int) -> tuple[str, str] | None:
        cost = CITY_COST if kind == "city" else ROAD_COST
        if self.gold[self.seat] < cost:
            return (f"a {kind} costs {cost} gold; you have {self.gold[self.seat]}", "CR-4")
        if self.board[where] != EMPTY:
            return (f"{cell_name(where)} is not empty", "CR-4")
        mine = set(self.city_cells(self.seat))
        if kind == "city":
            if touches_city(self.board, where):
                return ("a city may not touch another city, diagonals included", "CR-4")
            if not any(self.board[n] == ROAD for n in orthogonal(where)):
                return ("a city must be orthogonally next to a road", "CR-4")
        elif touches_city(self.board, where, except_seat=self.seat):
            return ("a road may not touch another player's city", "CR-4")
        # Orthogonal neighbours count as linked by an empty path (CR-15).
        if not self.net.direct(where) & mine:
            return (f"{cell_name(where)} could not trade directly with one of your cities", "CR-4")
        return None

    def _demand_reason(self, action: tuple[Any, ...]) -> tuple[str, str] | None:
        if len(action) != 2 or not isinstance(action[1], int):
            return ("a demand names a fee", "CR-12")
        slot = self.waiting[0]
        if slot < 0:
            return ("only a relay whose city carries the trade may demand a fee", "CR-12")
        assert self.offer is not None
        fee = self.offer[4][slot]
        if action[1] <= fee:
            return (f"a demand must raise the fee above {fee}", "CR-12")
        if action[1] - fee > self.offer[5] + self.offer[6]:
            return ("the traders' shares cannot cover that fee; the trade makes only 3 gold", "CR-12")
        return None

    def _offer_reason(self, action: tuple[Any, ...]) -> tuple[str, str] | None:
        if len(action) != 7:
            return ("an offer names two cities, relays, fees and the split", "CR-7")
        _, a, b, relays, fees, ga, gb = action
        seat = self.seat
        if self.offers[seat] >= self.game.values["offers"]:
            return (f"each player may make {self.game.values['offers']} offers per trading phase", "CR-11")
        if owner(self.board[a]) != seat:
            return (f"{cell_name(a)} is not one of your cities", "CR-7")
        pb = owner(self.board[b])
        if pb < 0 or pb == seat:
            return (f"{cell_name(b)} is not another player's city", "CR-7")
        if a in self.used or b in self.used:
            used = a if a in self.used else b
            return (f"city {cell_name(used)} has already traded this round", "CR-7")
        if len(fees) != len(relays) or min((ga, gb) + tuple(fees)) < 0 or ga + gb + sum(fees) != TRADE_GOLD:
            return ("the split and fees must be whole gold summing to 3", "CR-12")
        routes = self.routes(a, b)
        if not routes:
            return (f"{cell_name(a)} and {cell_name(b)} are not linked by roads", "CR-3")
        if tuple(relays) not in routes:
            shown = " or ".join("direct" if not r else "via " + ",".join(cell_name(x) for x in r) for r in routes)
            return (f"that is no route of {cell_name(a)} to {cell_name(b)} (each relay needed, at most "
                    f"{self.game.values['relays']}); the routes are: {shown}", "CR-10")
        return None

    # ----------------------------------------------------------------- apply
    def _apply(self, action: Action) -> "CrossroadsState":
        assert isinstance(action, tuple)
        kind = action[0]
        if kind == "roll":
            return self._after_roll(action[1], action[2])
        if kind == "reroll":
            return replace(self, rerolls=self.rerolls + 1, _net=self._net)
        if kind == "place":
            board = list(self.board)
            board[action[1]] = CITY0 + self.seat
            nxt = self.seat + 1
            if nxt == self.n:
                return replace(self, board=tuple(board), phase=ROLL, seat=0, round=1, _net=[])
            return replace(self, board=tuple(board), phase=SETUP_ROLL, seat=nxt, _net=[])
        if kind == "axis":
            return self._activate(action[1], action[2])
        if kind in ("city", "road"):
            board = list(self.board)
            board[action[1]] = CITY0 + self.seat if kind == "city" else ROAD
            cost = CITY_COST if kind == "city" else ROAD_COST
            built = replace(self, board=tuple(board), gold=_add(self.gold, self.seat, -cost), _net=[])
            if kind == "city":
                return built
            return replace(built, roads=_add(self.roads, self.seat, 1), _net=built._net)
        if kind == "done":
            # Building ends only when the builder says so (CR-14); after the last seat, trading.
            if self.seat + 1 < self.n:
                return replace(self, phase=ROLL, seat=self.seat + 1, _net=self._net)
            n = self.n
            return replace(self, phase=TRADE, seat=0, passes=0, offers=(0,) * n, used=frozenset(),
                           refusals=frozenset(), _net=self._net)
        if kind == "pass":
            if self.passes + 1 >= self.n:
                return self._end_round()
            return replace(self, passes=self.passes + 1, seat=(self.seat + 1) % self.n, _net=self._net)
        if kind == "offer":
            return self._propose(action)
        if kind == "accept":
            return self._accept()
        if kind == "reject":
            return self._reject()
        return self._demand(action[1])

    def _after_roll(self, lo: int, hi: int) -> "CrossroadsState":
        if self.phase == SETUP_ROLL:
            return replace(self, phase=SETUP_PLACE, dice=(lo, hi), lit=(), _net=self._net)
        if lo == hi:
            # Doubles: the axes cannot be told apart, so activation happens at once (CR-1, CR-14).
            return replace(self, dice=(lo, hi), rerolls=0, _net=self._net)._activate(lo, lo)
        return replace(self, phase=AXIS, dice=(lo, hi), rerolls=0, lit=(), _net=self._net)

    def _activate(self, col: int, row: int) -> "CrossroadsState":
        """Pay the four activated cells (CR-2) and open the roller's building (CR-14)."""
        cells = activated(col, row)
        pay = activation_pay(self.board, self.net, cells, self.n)
        gold = tuple(g + p for g, p in zip(self.gold, pay))
        income = tuple(g + p for g, p in zip(self.income, pay))
        return replace(self, phase=BUILD, gold=gold, income=income, lit=cells, _net=self._net)

    def _propose(self, action: tuple[Any, ...]) -> "CrossroadsState":
        _, a, b, relays, fees, ga, gb = action
        me, pb, n = self.seat, owner(self.board[b]), self.n
        fair = 1 if gb >= 1 else -1
        last = _put(self.last, pb * n + me, fair)
        grudge = _put(self.grudge, pb * n + me, 1) if fair < 0 else self.grudge
        return replace(
            self,
            phase=RESPOND,
            offer=("offer", a, b, tuple(relays), tuple(fees), ga, gb),
            waiting=(PARTNER,) + tuple(range(len(relays))),
            offers=_add(self.offers, me, 1),
            proposed=_add(self.proposed, me, 1),
            last=last,
            grudge=grudge,
            _net=self._net,
        )

    def _accept(self) -> "CrossroadsState":
        assert self.offer is not None
        slot, rest = self.waiting[0], self.waiting[1:]
        state = self
        if slot == PARTNER:
            proposer, partner = owner(self.board[self.offer[1]]), owner(self.board[self.offer[2]])
            state = replace(self, last=_put(self.last, proposer * self.n + partner, 1), _net=self._net)
        if rest:
            return replace(state, waiting=rest, _net=self._net)
        return state._execute()

    def _execute(self) -> "CrossroadsState":
        """Every named party accepted: the offer binds (CR-7)."""
        assert self.offer is not None
        _, a, b, relays, fees, ga, gb = self.offer
        pa, pb = owner(self.board[a]), owner(self.board[b])
        gold, trade_gold, trades, fee_tally = list(self.gold), list(self.trade_gold), list(self.trades), list(self.fees)
        gold[pa] += ga
        gold[pb] += gb
        trade_gold[pa] += ga
        trade_gold[pb] += gb
        trades[pa] += 1
        trades[pb] += 1
        for r, f in zip(relays, fees):
            gold[owner(self.board[r])] += f
            fee_tally[owner(self.board[r])] += f
        return replace(
            self,
            phase=TRADE,
            seat=(pa + 1) % self.n,
            passes=0,
            offer=None,
            waiting=(),
            used=self.used | {a, b},
            gold=tuple(gold),
            trade_gold=tuple(trade_gold),
            trades=tuple(trades),
            fees=tuple(fee_tally),
            _net=self._net,
        )

    def _reject(self) -> "CrossroadsState":
        assert self.offer is not None
        slot = self.waiting[0]
        rejecter = self.slot_owner(slot)
        proposer = owner(self.board[self.offer[1]])
        last = self.last
        if slot == PARTNER and self.offer[6] >= 1:
            # Turning down a fair offer is the partner's defection; refusing nothing is not.
            last = _put(last, proposer * self.n + rejecter, -1)
        return replace(
            self,
            phase=TRADE,
            seat=(proposer + 1) % self.n,
            passes=0,
            offer=None,
            waiting=(),
            last=last,
            # A proposer withdrawing changed terms is no refusal by another player.
            refusals=self.refusals | {(proposer, rejecter)} if rejecter != proposer else self.refusals,
            refused=_add(self.refused, proposer, 1) if rejecter != proposer else self.refused,
            _net=self._net,
        )

    def _demand(self, fee: int) -> "CrossroadsState":
        assert self.offer is not None
        _, a, b, relays, fees, ga, gb = self.offer
        slot = self.waiting[0]
        extra = fee - fees[slot]
        # The raise comes out of the proposer's share first, then the partner's (CR-12).
        take = min(extra, ga)
        ga, gb = ga - take, gb - (extra - take)
        new_fees = tuple(fee if i == slot else f for i, f in enumerate(fees))
        again = (PROPOSER, PARTNER) + tuple(i for i in range(len(relays)) if i != slot)
        return replace(self, offer=("offer", a, b, relays, new_fees, ga, gb), waiting=again, _net=self._net)

    def _end_round(self) -> "CrossroadsState":
        """The win check after trading (CR-6), and the round cap (CR-13)."""
        base = replace(self, phase=TRADE, passes=0, offer=None, waiting=(), _net=self._net)
        top = max(self.gold)
        leaders = tuple(i for i, g in enumerate(self.gold) if g == top)
        if top >= self.game.values["target"] and len(leaders) == 1:
            return replace(base, phase=OVER, winners=leaders)
        if self.round >= self.game.values["max_rounds"]:
            return replace(base, phase=OVER, winners=leaders)
        return replace(base, phase=ROLL, seat=0, round=self.round + 1, used=frozenset(), lit=(), dice=())

    # ----------------------------------------------------------------- results
    def returns(self) -> list[float]:
        """+1 for a lone winner, 0 for players tied at the top at the round cap, -1 for the rest."""
        if self.phase != OVER:
            return [0.0] * self.n
        if len(self.winners) == 1:
            return [1.0 if i in self.winners else -1.0 for i in range(self.n)]
        return [0.0 if i in self.winners else -1.0 for i in range(self.n)]

    def scores(self) -> list[float]:
        """Gold per seat."""
        return [float(g) for g in self.gold]

    def summary(self) -> str:
        """One line: round, phase, whose move, gold."""
        who = "chance" if self.current_player == CHANCE else (
            "over" if self.phase == OVER else f"P{self.current_player + 1}")
        gold = "/".join(str(g) for g in self.gold)
        return f"crossroads round {self.round} {PHASE_NAMES[self.phase]} ({who}) gold {gold}"

    def stats(self) -> dict[str, float | list[float]]:
        """Per-game figures: rounds, trades, offers, refusals, fees, trade gold, income, builds."""
        return {
            "rounds": float(self.round),
            "trades": [float(x) for x in self.trades],
            "offers": [float(x) for x in self.proposed],
            "refused": [float(x) for x in self.refused],
            "trade_gold": [float(x) for x in self.trade_gold],
            "fees": [float(x) for x in self.fees],
            "income": [float(x) for x in self.income],
            "cities": [float(sum(1 for v in self.board if v == CITY0 + i)) for i in range(self.n)],
            "roads": [float(x) for x in self.roads],
        }

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


def _add(values: tuple[int, ...], index: int, amount: int) -> tuple[int, ...]:
    return values[:index] + (values[index] + amount,) + values[index + 1:]


def _put(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return values[:index] + (value,) + values[index + 1:]


__all__: Sequence[str] = (
    "CrossroadsGame",
    "CrossroadsState",
    "action_text",
    "parse_text",
    "splits",
)
