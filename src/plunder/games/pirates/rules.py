"""Piece Packing Pirates rules (seed 001, rulings PR-1..PR-10 and PR-15, and PR-11..PR-14
of docs/rules/pirates.md): one pirate, one sea, twenty turns.

The game is a chain of small steps. A state's :class:`Phase` is the step of the turn
(setup ``START``/``BUY``/``PLACE``, then ``SAIL``, ``OTHERS``, ``BURY``, ``UPGRADE``,
``END``, and ``OVER``); pending events interrupt it in a fixed order: a tile flip
(chance), its wind (player), a sighting roll (chance), a coin draw (chance), the
choice of which ship to fight next (player) and a combat roll (chance).
:func:`.flow.apply` runs every automatic transition so each state waits on
exactly one decision or chance event. The actions and their texts are in :mod:`.actions`;
the work each action does, and the automatic steps after it, in :mod:`.flow`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar

from ...core.game import CHANCE, TERMINAL, Game, State
from ...core.params import Param, parse_choice, parse_int
from . import tables as T
from .actions import (CHANCE_KINDS, CODEC, CONTINUE, DONE, KEEP, RETIRE, STOP, Bury, Buy, Continue, Dice, Done, Draw,
                      Fight, Flip, Keep, Lookout, PiratesAction, PiratesCodec, Place, Retire, Retrieve, Sail, Steer,
                      Stop, Wind, well_formed)
from .flow import Phase, apply
from .moves import sail_steps, ship_destinations
from .picture import picture
from .sea import LAYOUT_CHOICES, ORTH, WINDS, Cell, LayoutSpec, Sea, build_sea, cell_text, layout_inline, layout_text, parse_layout

#: the largest sea seed and goal a parameter may name
MAX_SEED = 2**63 - 1
MAX_GOAL = 10**9


#: the pirate's kinds of action in each step, with the ruling that governs the step
STEP_ACTIONS: dict[Phase, tuple[tuple[type, ...], str]] = {
    Phase.BUY: ((Buy,), "PR-3"),
    Phase.PLACE: ((Place,), "PR-3"),
    Phase.SAIL: ((Sail, Stop), "PR-4"),
    Phase.OTHERS: ((Steer,), "PR-7"),
    Phase.BURY: ((Bury, Retrieve, Done), "PR-8"),
    Phase.UPGRADE: ((Buy, Keep), "PR-9"),
    Phase.END: ((Continue, Retire), "PR-10"),
}


class PiratesGame(Game[PiratesAction]):
    """Piece Packing Pirates: a piecepack solitaire sea adventure."""

    id = "pirates"
    title = "Piece Packing Pirates"
    param_specs = (
        Param("layout", "random", parse_layout,
              "the sea: random (from seed), a named shape, tiles:X,Y;X,Y;... (tile origins), or file:PATH "
              "(one tile origin x,y per line, read once and stored as tiles:...) (PR-1)",
              LAYOUT_CHOICES, canonical=layout_text, inline=layout_inline, label="Sea layout"),
        Param("seed", "1", parse_int(0, MAX_SEED), "seed of the random sea layout (PR-1)", label="Sea seed"),
        Param("turns", "20", parse_int(1, 99), "turns before the pirate must retire (PR-10)", label="Turns"),
        Param("ties", "player", parse_choice(("player", "auto")),
              "who breaks ties between other ships' best routes: the player, or a fixed rule (PR-7)",
              ("player", "auto"), label="Who breaks ties"),
        Param("goal", "100", parse_int(0, MAX_GOAL), "score that counts as a win (PR-14)", label="Winning score"),
    )
    presets: ClassVar[dict[str, dict[str, str]]] = {
        "classic": {},
        "block": {"layout": "block"},
        "ring": {"layout": "ring", "ties": "auto"},
        "brick": {"layout": "brick"},
        "channel": {"layout": "channel", "turns": "10"},
    }

    def __init__(self, values: dict[str, Any], texts: dict[str, str]) -> None:
        super().__init__(values, texts)
        spec: LayoutSpec = values["layout"]
        self.sea: Sea = build_sea(spec, values["seed"])
        self.turns: int = values["turns"]
        self.auto_ties: bool = values["ties"] == "auto"
        self.goal: int = values["goal"]

    @property
    def num_players(self) -> int:
        """One pirate."""
        return 1

    @property
    def max_game_length(self) -> int:
        """A safe bound: per turn at most 3 sail steps, each with flip, wind, lookout, draw
        and up to 18 fights (order + roll), plus 18 steers, 18 more fights and 6 other steps."""
        per_turn = 3 * (5 + 2 * T.NUM_COINS) + 3 * T.NUM_COINS + 6
        return 8 + self.turns * per_turn

    def new_initial_state(self) -> "PiratesState":
        """Setup begins with the starting-booty roll (PR-3)."""
        n = self.sea.num_tiles
        return PiratesState(self, faces=(-1,) * n, winds=(-1,) * n)

    @property
    def codec(self) -> PiratesCodec:
        """Pirates' notation (:mod:`.actions`)."""
        return CODEC

    def seat_name(self, seat: int) -> str:
        """The only seat is the pirate."""
        return "the pirate"


@dataclass(frozen=True)
class PiratesState(State[PiratesAction]):
    """An immutable Piece Packing Pirates position (see the module docstring for phases).

    ``faces``/``winds`` per tile (-1 while face-down); ``coins`` the other ships in the
    sea as sorted ``(coin, cell)`` pairs (every other coin is in the bag); ``orth``,
    ``last``, ``diag`` the sail progress (PR-4); the pending events ``flip`` ...
    ``combat``; ``movers`` ships still to sail, ``arrived`` those that reached the pirate.
    The fights won and lost, the ships sighted and the booty lost are no part of a position:
    the game's observer (:mod:`.stats`) counts them.
    """

    game: PiratesGame = field(compare=False, repr=False)
    phase: Phase = Phase.START
    turn: int = 1
    ship: int = T.NO_SHIP
    crew: int = 0
    notoriety: int = 0
    booty: int = 0
    buried: int = 0
    chest: Cell | None = None
    pos: Cell | None = None
    faces: tuple[int, ...] = ()
    winds: tuple[int, ...] = ()
    coins: tuple[tuple[int, Cell], ...] = ()
    orth: int = 0
    last: str = ""
    diag: bool = False
    flip: int = -1
    wind_tile: int = -1
    sight: int = -1
    draw: int = -1
    combat: int = -1
    fights: tuple[int, ...] = ()
    movers: tuple[int, ...] = ()
    arrived: tuple[int, ...] = ()
    did_bury: bool = False
    did_retrieve: bool = False
    drowned: bool = False

    # -- views ---------------------------------------------------------------------
    @property
    def sea(self) -> Sea:
        """The game's sea."""
        return self.game.sea

    @property
    def current_player(self) -> int:
        """Chance for rolls, flips and draws; the pirate (0) otherwise."""
        if self.phase is Phase.OVER:
            return TERMINAL
        if self.phase is Phase.START or self.flip >= 0:
            return CHANCE
        if self.wind_tile >= 0:
            return 0  # the wind of a flipped tile is chosen before anything else happens there
        if self.sight >= 0 or self.draw >= 0 or self.combat >= 0:
            return CHANCE
        return 0

    @cached_property
    def bag(self) -> tuple[int, ...]:
        """Coins in the bag: every coin not in the sea."""
        return tuple(sorted(set(range(T.NUM_COINS)) - {c for c, _ in self.coins}))

    def coin_at(self, coin: int) -> Cell | None:
        """Where ``coin`` sails, or ``None`` if it is in the bag."""
        for c, cell in self.coins:
            if c == coin:
                return cell
        return None

    def ships_on(self, cell: Cell) -> tuple[int, ...]:
        """Other ships on space ``cell``."""
        return tuple(c for c, at in self.coins if at == cell)

    def face_value(self, tile: int) -> int:
        """Value of a face-up tile."""
        return T.face_value(self.faces[tile])

    def turns_completed(self) -> int:
        """Turns completed so far (the drowning or retiring turn counts once the game is over)."""
        return self.turn if self.phase is Phase.OVER else self.turn - 1

    def score(self) -> int:
        """Ship x crew + buried x aboard x notoriety + turns completed (PR-10), as it stands."""
        return max(self.ship, 0) * self.crew + self.buried * self.booty * self.notoriety + self.turns_completed()

    def returns(self) -> list[float]:
        """+1 when the final score reaches the ``goal`` parameter, else -1 (PR-14); 0 before the end."""
        if self.phase is not Phase.OVER:
            return [0.0]
        return [1.0 if self.score() >= self.game.goal else -1.0]

    def scores(self) -> list[float]:
        """The score (PR-10)."""
        return [float(self.score())]

    def short_keys(self) -> tuple[bool, bool, int | None]:
        """What a one-word key means here (:class:`.actions.PiratesCodec`): whether a wind is
        being set, whether the ship is being placed, and the ship whose tie is pending."""
        steering = self.movers[0] if self.phase is Phase.OTHERS and self.movers else None
        return self.wind_tile >= 0, self.phase is Phase.PLACE, steering

    def summary(self) -> str:
        """One line: turn, phase, ship, tracks, position."""
        where = cell_text(self.pos) if self.pos else "-"
        return (f"turn {self.turn} {self.phase.value}: {T.ship_name(self.ship)} crew {self.crew} "
                f"notoriety {self.notoriety} booty {self.booty} buried {self.buried} at {where}")

    def __str__(self) -> str:
        return picture(self)

    # -- what is legal ---------------------------------------------------------------
    def legal_actions(self) -> list[PiratesAction]:
        """The pirate's choices, or the outcomes of the pending chance event."""
        if self.current_player == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        if self.phase is Phase.OVER:
            return []
        if self.wind_tile >= 0:
            return [Wind(w) for w in WINDS]
        if self.fights:
            return [Fight(c) for c in self.fights]
        out: list[PiratesAction] = []
        match self.phase:
            case Phase.BUY:
                out += self.refits
            case Phase.PLACE:
                out += [Place(c) for c in self.sea.coast]
            case Phase.SAIL:
                out += [Sail(d) for d, _ in self.sail_options]
                out.append(STOP)
            case Phase.OTHERS:
                coin = self.movers[0]
                out += [Steer(coin, c) for c in self.destinations(coin)]
            case Phase.BURY:
                out += self.bury_options
                out.append(DONE)
            case Phase.UPGRADE:
                out += self.refits
                out.append(KEEP)
            case Phase.END:
                out += (CONTINUE, RETIRE)
        return out

    def chance_outcomes(self) -> list[tuple[PiratesAction, float]]:
        """The pending roll, flip or draw with its probabilities."""
        if self.current_player != CHANCE:
            raise ValueError(f"{self.summary()} is not a chance node")
        if self.flip >= 0:
            # hidden tiles are drawn from the identities not yet revealed (PR-2)
            unseen = sorted(set(range(T.NUM_TILE_FACES)) - set(self.faces))
            return [(Flip(f), 1 / len(unseen)) for f in unseen]
        if self.sight >= 0:
            return [(Lookout(s), 1 / 6) for s in range(6)]
        if self.draw >= 0:
            bag = self.bag
            return [(Draw(c), 1 / len(bag)) for c in bag]
        # the starting-booty roll and every combat roll both dice (PR-3, PR-6)
        return [(Dice(s, a), 1 / 36) for s in range(6) for a in range(6)]

    @cached_property
    def sail_options(self) -> list[tuple[str, Cell]]:
        """The pirate's next sail steps (PR-4) as ``(direction, target)``."""
        assert self.pos is not None
        return sail_steps(self.sea, self.winds, self.pos, self.orth, self.last, self.diag)

    def destinations(self, coin: int) -> list[Cell]:
        """Where another ship ``coin`` may sail on its best routes (PR-7): toward the pirate,
        or away from it when smaller than the pirate's ship."""
        at = self.coin_at(coin)
        assert at is not None and self.pos is not None
        return ship_destinations(self.sea, self.winds, at, self.pos, T.coin_value(coin) < self.ship)

    @cached_property
    def refits(self) -> tuple[Buy, ...]:
        """Every ship and crew the pirate may buy now (PR-3, PR-9)."""
        out: list[Buy] = []
        for ship in range(6):
            for crew in range(T.MIN_CREW[ship], T.MAX_CREW[ship] + 1):
                if (ship, crew) == (self.ship, self.crew):
                    continue
                cost = T.refit_cost(self.ship, self.crew, ship, crew)
                if cost is not None and cost <= self.booty:
                    out.append(Buy(ship, crew))
        return tuple(out)

    def bury_sites(self) -> tuple[Cell, ...]:
        """Land cells the pirate may bury booty in now (orthogonally adjacent, PR-8)."""
        return self.sea.land_next_to(self.pos) if self.pos is not None and self.ship >= 0 else ()

    def can_retrieve(self) -> bool:
        """True when the pirate's space is orthogonally adjacent to the chest (PR-8)."""
        return (self.chest is not None and self.pos is not None and self.ship >= 0
                and self.chest in self.sea.land_next_to(self.pos))

    @cached_property
    def bury_options(self) -> tuple[Bury | Retrieve, ...]:
        """The burials and retrievals open in this bury step (PR-8)."""
        # one burial and one retrieval per step keep the game finite (PR-13)
        out: list[Bury | Retrieve] = []
        if not self.did_bury:
            out += [Bury(n, c) for c in self.bury_sites() for n in range(1, self.booty + 1)]
        if not self.did_retrieve and self.can_retrieve():
            out += [Retrieve(n) for n in range(1, self.buried + 1)]
        return tuple(out)

    def illegal_reason(self, action: PiratesAction) -> tuple[str, str] | None:
        """Why ``action`` is not legal here, with the ruling it breaks; any value that is
        not a well-formed pirates action is refused here too."""
        if action in self.legal_actions():
            return None
        return self._why(action)

    def _why(self, action: object) -> tuple[str, str]:
        if self.phase is Phase.OVER:
            return "the game is over", "PR-10"
        if self.current_player == CHANCE:
            return "chance acts here, not the pirate", "PR-2" if self.flip >= 0 else "PR-5"
        if self.wind_tile >= 0:
            return "the flipped tile needs its wind first (NE, SE, SW or NW)", "PR-2"
        if self.fights:
            return "choose which ship on your space to fight next", "PR-6"
        kinds, rule = STEP_ACTIONS[self.phase]
        want = " or ".join(k.__name__.lower() for k in kinds)
        if not well_formed(action):
            return f"not a pirates action; now is the {self.phase.value} step: {want}", rule
        if isinstance(action, CHANCE_KINDS):
            return "that is a chance outcome, and the pirate is to choose", "PR-5"
        if not isinstance(action, kinds):
            return f"now is the {self.phase.value} step; expected {want}", rule
        match action:
            case Sail(d) if d in ORTH:
                if self.orth >= 2:
                    return "both orthogonal steps are used this turn", "PR-4"
                if self.orth == 1 and {d, self.last} in ({"N", "S"}, {"E", "W"}):
                    return "the second step may turn 90 degrees but never reverse", "PR-4"
                return f"sailing {d} enters land", "PR-4"
            case Sail(d):
                if self.diag:
                    return "the one wind step is used this turn", "PR-4"
                assert self.pos is not None
                wind = self.winds[self.sea.tile_at[self.pos]]
                if wind >= 0 and d != WINDS[wind]:
                    return f"the only diagonal step here is with the wind ({WINDS[wind]})", "PR-4"
                return f"sailing {d} enters land or cuts between two land cells", "PR-4"
            case Place():
                return "the ship must start on a space orthogonally adjacent to land", "PR-3"
            case Buy():
                return ("that ship and crew is not for sale: crew must fit the ship, are never dismissed, "
                        "and the cost (old ship traded in, no change) must be affordable", rule)
            case Steer():
                return "ships take only their best routes; choose among the tied ones listed", "PR-7"
            case Bury():
                if self.did_bury:
                    return "booty is buried once per bury step", "PR-13"
                return "bury at most the booty aboard, in land orthogonally adjacent to the ship", "PR-8"
            case Retrieve():
                if self.did_retrieve:
                    return "booty is retrieved once per bury step", "PR-13"
                return "retrieve at most the buried booty, from a space orthogonally adjacent to the chest", "PR-8"
        return f"not allowed in the {self.phase.value} step", rule

    def _apply(self, action: PiratesAction) -> "PiratesState":
        return apply(self, action)
