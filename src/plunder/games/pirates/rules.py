"""Piece Packing Pirates rules (seed 001, rulings PR-1..PR-10 and PR-11..PR-14 of
docs/rules/pirates.md): one pirate, one sea, twenty turns.

The game is a chain of small steps. A state's ``phase`` is the step of the turn
(setup ``start``/``buy``/``place``, then ``sail``, ``others``, ``bury``, ``upgrade``,
``end``, and ``over``); pending events interrupt it in a fixed order: a tile flip
(chance), its wind (player), a sighting roll (chance), a coin draw (chance), the
choice of which ship to fight next (player) and a combat roll (chance).
:meth:`PiratesState._settle` runs every automatic transition so each state waits on
exactly one decision or chance event.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from ...core.errors import InvalidActionError
from ...core.game import CHANCE, TERMINAL, Action, Game, State
from ...core.params import Param, parse_choice, parse_int
from . import tables as T
from .moves import sail_steps, ship_destinations
from .picture import picture
from .sea import DIRS, LAYOUT_CHOICES, ORTH, WINDS, Cell, LayoutSpec, Sea, build_sea, cell_text, parse_cell, parse_layout

PHASES = ("start", "buy", "place", "sail", "others", "bury", "upgrade", "end", "over")


class PiratesGame(Game):
    """Piece Packing Pirates: a piecepack solitaire sea adventure."""

    id = "pirates"
    title = "Piece Packing Pirates"
    param_specs = (
        Param("layout", "random", parse_layout,
              "the sea: random (from seed), a named shape, or file:PATH (tile origins x,y per line) (PR-1)",
              LAYOUT_CHOICES),
        Param("seed", "1", parse_int(0), "seed of the random sea layout (PR-1)"),
        Param("turns", "20", parse_int(1, 99), "turns before the pirate must retire (PR-10)"),
        Param("ties", "player", parse_choice(("player", "auto")),
              "who breaks ties between other ships' best routes: the player, or a fixed rule (PR-7)",
              ("player", "auto")),
        Param("goal", "100", parse_int(0), "score that counts as a win in returns() (PR-14)"),
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

    def action_to_text(self, state: State, action: Action) -> str:
        """Canonical text of ``action`` (see :func:`action_text`)."""
        return action_text(action)

    def parse_action(self, state: State, text: str) -> Action:
        """Read an action's text; unreadable text raises :class:`InvalidActionError`.

        Besides the canonical texts, a player may type a short key: a bare direction
        (``e``, ``ne``) sails that way, or sets the wind of a just-flipped tile; a bare
        space ``x,y`` places the ship (setup) or steers the ship whose tie is pending.
        """
        try:
            return parse_text(text)
        except ValueError as exc:
            short = _short_key(state, text)
            if short is None:
                raise state.invalid(text, str(exc)) from None
            return short

    def seat_name(self, seat: int) -> str:
        """The only seat is the pirate."""
        return "the pirate"


def _short_key(state: State, text: str) -> Action | None:
    """The action a one-word short key stands for here, or ``None``."""
    word = text.strip()
    if not isinstance(state, PiratesState) or not word or " " in word:
        return None
    if word.upper() in DIRS:
        return ("wind" if state.wind_tile >= 0 else "sail", word.upper())
    try:
        cell = parse_cell(word)
    except ValueError:
        return None
    if state.phase == "place":
        return ("place", cell)
    if state.phase == "others" and state.movers:
        return ("steer", state.movers[0], cell)
    return None


# --- actions -------------------------------------------------------------------------
# Actions are small tuples led by a verb; their texts are what a player types.

Move = tuple[Any, ...]


def as_move(action: Action) -> Move:
    """``action`` as the tuple it is; ``ValueError`` for anything else."""
    if not isinstance(action, tuple) or not action:
        raise ValueError(f"{action!r} is not a pirates action")
    return action


def action_text(move: Action) -> str:
    """The canonical text of an action tuple."""
    action = as_move(move)
    verb = action[0]
    if verb in ("sail", "wind"):
        return f"{verb} {action[1]}"
    if verb in ("stop", "keep", "done", "continue", "retire"):
        return str(verb)
    if verb == "fight":
        return f"fight {T.coin_name(action[1])}"
    if verb == "steer":
        return f"steer {T.coin_name(action[1])} {cell_text(action[2])}"
    if verb == "place":
        return f"place {cell_text(action[1])}"
    if verb == "buy":
        return f"buy {T.SHIP_NAMES[action[1]]} {action[2]}"
    if verb == "bury":
        return f"bury {action[1]} at {cell_text(action[2])}"
    if verb == "retrieve":
        return f"retrieve {action[1]}"
    if verb == "dice":
        return f"dice suns={action[1]} arms={action[2]}"
    if verb == "lookout":
        return f"lookout {action[1]}"
    if verb == "flip":
        return f"flip {T.face_name(action[1])}"
    if verb == "draw":
        return f"draw {T.coin_name(action[1])}"
    raise ValueError(f"{action!r} is not a pirates action")


def _count(text: str) -> int:
    if not text.isdigit():
        raise ValueError(f"{text!r} is not a whole number")
    return int(text)


def _die(text: str, name: str) -> int:
    key, eq, value = text.partition("=")
    if key != name or not eq or value not in ("0", "1", "2", "3", "4", "5"):
        raise ValueError(f"{text!r} is not {name}=N with N from 0 (null) to 5")
    return int(value)


def parse_text(text: str) -> tuple[Any, ...]:
    """Read an action text; ``ValueError`` says what is wrong."""
    words = text.strip().lower().split()
    if not words:
        raise ValueError("empty action")
    verb, args = words[0], words[1:]
    shapes = {
        "sail": 1, "wind": 1, "stop": 0, "keep": 0, "done": 0, "continue": 0, "retire": 0,
        "fight": 1, "steer": 2, "place": 1, "buy": 2, "bury": 3, "retrieve": 1,
        "dice": 2, "lookout": 1, "flip": 1, "draw": 1,
    }
    if verb not in shapes:
        raise ValueError(f"unknown verb {verb!r}; verbs are {', '.join(shapes)}")
    if len(args) != shapes[verb]:
        raise ValueError(f"{verb} takes {shapes[verb]} word(s) after it, got {len(args)}")
    if verb == "sail":
        d = args[0].upper()
        if d not in DIRS:
            raise ValueError(f"{args[0]!r} is not a direction (N E S W NE SE SW NW)")
        return ("sail", d)
    if verb == "wind":
        d = args[0].upper()
        if d not in WINDS:
            raise ValueError(f"{args[0]!r} is not a wind (NE SE SW NW)")
        return ("wind", d)
    if not args:
        return (verb,)
    if verb == "fight":
        return ("fight", T.coin_from_name(args[0]))
    if verb == "steer":
        return ("steer", T.coin_from_name(args[0]), parse_cell(args[1]))
    if verb == "place":
        return ("place", parse_cell(args[0]))
    if verb == "buy":
        if args[0] not in T.SHIP_NAMES:
            raise ValueError(f"{args[0]!r} is not a ship ({', '.join(T.SHIP_NAMES)})")
        return ("buy", T.SHIP_NAMES.index(args[0]), _count(args[1]))
    if verb == "bury":
        if args[1] != "at":
            raise ValueError("write bury N at x,y")
        return ("bury", _count(args[0]), parse_cell(args[2]))
    if verb == "retrieve":
        return ("retrieve", _count(args[0]))
    if verb == "dice":
        return ("dice", _die(args[0], "suns"), _die(args[1], "arms"))
    if verb == "lookout":
        return ("lookout", _die("suns=" + args[0], "suns"))
    if verb == "flip":
        return ("flip", T.face_from_name(args[0]))
    return ("draw", T.coin_from_name(args[0]))


# --- state ---------------------------------------------------------------------------

@dataclass(frozen=True)
class PiratesState(State):
    """An immutable Piece Packing Pirates position (see the module docstring for phases).

    ``faces``/``winds`` per tile (-1 while face-down); ``coins`` the other ships in the
    sea as sorted ``(coin, cell)`` pairs (every other coin is in the bag); ``orth``,
    ``last``, ``diag`` the sail progress (PR-4); the pending events ``flip`` ...
    ``combat``; ``movers`` ships still to sail, ``arrived`` those that reached the pirate.
    """

    game: PiratesGame = field(compare=False, repr=False)
    phase: str = "start"
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
    # tallies for stats()
    wins: int = 0
    losses: int = 0
    standoffs: int = 0
    sightings: int = 0
    booty_lost: int = 0

    # -- views ---------------------------------------------------------------------
    @property
    def sea(self) -> Sea:
        """The game's sea."""
        return self.game.sea

    @property
    def current_player(self) -> int:
        """Chance for rolls, flips and draws; the pirate (0) otherwise."""
        if self.phase == "over":
            return TERMINAL
        if self.phase == "start" or self.flip >= 0:
            return CHANCE
        if self.wind_tile >= 0:
            return 0  # the wind of a flipped tile is chosen before anything else happens there
        if self.sight >= 0 or self.draw >= 0 or self.combat >= 0:
            return CHANCE
        return 0

    def bag(self) -> tuple[int, ...]:
        """Coins in the bag: every coin not in the sea."""
        out = set(range(T.NUM_COINS)) - {c for c, _ in self.coins}
        return tuple(sorted(out))

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

    def score(self) -> int:
        """Ship x crew + buried x aboard x notoriety + turns completed (PR-10), as it stands."""
        done = self.turn if self.phase == "over" else self.turn - 1
        ship = max(self.ship, 0)
        return ship * self.crew + self.buried * self.booty * self.notoriety + done

    def turns_completed(self) -> int:
        """Turns completed so far (the drowning or retiring turn counts once the game is over)."""
        return self.turn if self.phase == "over" else self.turn - 1

    def returns(self) -> list[float]:
        """+1 when the final score reaches the ``goal`` parameter, else -1 (PR-14); 0 before the end."""
        if self.phase != "over":
            return [0.0]
        return [1.0 if self.score() >= self.game.goal else -1.0]

    def scores(self) -> list[float]:
        """The score (PR-10)."""
        return [float(self.score())]

    def stats(self) -> dict[str, float | list[float]]:
        """Figures for ``plunder simulate``."""
        return {
            "turns": float(self.turns_completed()),
            "drowned": 1.0 if self.drowned else 0.0,
            "ship": float(self.ship),
            "crew": float(self.crew),
            "notoriety": float(self.notoriety),
            "aboard": float(self.booty),
            "buried": float(self.buried),
            "combats_won": float(self.wins),
            "combats_lost": float(self.losses),
            "standoffs": float(self.standoffs),
            "sightings": float(self.sightings),
            "booty_lost": float(self.booty_lost),
        }

    def summary(self) -> str:
        """One line: turn, phase, ship, tracks, position."""
        where = cell_text(self.pos) if self.pos else "-"
        return (f"turn {self.turn} {self.phase}: {T.ship_name(self.ship)} crew {self.crew} "
                f"notoriety {self.notoriety} booty {self.booty} buried {self.buried} at {where}")

    def __str__(self) -> str:
        return picture(self)

    # -- what is legal ---------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """The pirate's choices, or the outcomes of the pending chance event."""
        if self.current_player == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        if self.phase == "over":
            return []
        if self.wind_tile >= 0:
            return [("wind", w) for w in WINDS]
        if self.fights:
            return [("fight", c) for c in self.fights]
        phase = self.phase
        if phase == "buy":
            return self._refits()
        if phase == "place":
            return [("place", c) for c in self.sea.coast]
        if phase == "sail":
            return [("sail", d) for d, _ in self.sail_options()] + [("stop",)]
        if phase == "others":
            coin = self.movers[0]
            return [("steer", coin, c) for c in self._destinations(coin)]
        if phase == "bury":
            return self._bury_options() + [("done",)]
        if phase == "upgrade":
            return self._refits() + [("keep",)]
        return [("continue",), ("retire",)]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The pending roll, flip or draw with its probabilities."""
        if self.current_player != CHANCE:
            raise ValueError(f"{self.summary()} is not a chance node")
        if self.flip >= 0:
            # hidden tiles are drawn from the identities not yet revealed (PR-2)
            unseen = sorted(set(range(T.NUM_TILE_FACES)) - set(self.faces))
            return [(("flip", f), 1 / len(unseen)) for f in unseen]
        if self.sight >= 0:
            return [(("lookout", s), 1 / 6) for s in range(6)]
        if self.draw >= 0:
            bag = self.bag()
            return [(("draw", c), 1 / len(bag)) for c in bag]
        # the starting-booty roll and every combat roll both dice (PR-3, PR-6)
        return [(("dice", s, a), 1 / 36) for s in range(6) for a in range(6)]

    def sail_options(self) -> list[tuple[str, Cell]]:
        """The pirate's next sail steps (PR-4)."""
        assert self.pos is not None
        return sail_steps(self.sea, self.winds, self.pos, self.orth, self.last, self.diag)

    def _destinations(self, coin: int) -> list[Cell]:
        at = self.coin_at(coin)
        assert at is not None and self.pos is not None
        return ship_destinations(self.sea, self.winds, at, self.pos, T.coin_value(coin) < self.ship)

    def _refits(self) -> list[Action]:
        out: list[Action] = []
        for ship in range(6):
            for crew in range(T.MIN_CREW[ship], T.MAX_CREW[ship] + 1):
                if (ship, crew) == (self.ship, self.crew):
                    continue
                cost = T.refit_cost(self.ship, self.crew, ship, crew)
                if cost is not None and cost <= self.booty:
                    out.append(("buy", ship, crew))
        return out

    def bury_sites(self) -> tuple[Cell, ...]:
        """Land cells the pirate may bury booty in now (orthogonally adjacent, PR-8)."""
        return self.sea.land_next_to(self.pos) if self.pos is not None and self.ship >= 0 else ()

    def can_retrieve(self) -> bool:
        """True when the pirate's space is orthogonally adjacent to the chest (PR-8)."""
        return (self.chest is not None and self.pos is not None and self.ship >= 0
                and self.chest in self.sea.land_next_to(self.pos))

    def _bury_options(self) -> list[Action]:
        # one burial and one retrieval per step keep the game finite (PR-13)
        out: list[Action] = []
        if not self.did_bury:
            out += [("bury", n, c) for c in self.bury_sites() for n in range(1, self.booty + 1)]
        if not self.did_retrieve and self.can_retrieve():
            out += [("retrieve", n) for n in range(1, self.buried + 1)]
        return out

    def illegal_reason(self, action: Action) -> tuple[str, str] | None:
        """Why ``action`` is not legal here, with the ruling it breaks."""
        if action in self.legal_actions():
            return None
        return self._why(action)

    def _why(self, move: Action) -> tuple[str, str]:
        action: Move = move if isinstance(move, tuple) and move else ("",)
        verb = action[0]
        if self.phase == "over":
            return "the game is over", "PR-10"
        if self.current_player == CHANCE:
            return "chance acts here, not the pirate", "PR-2" if self.flip >= 0 else "PR-5"
        if verb in ("dice", "lookout", "flip", "draw"):
            return "that is a chance outcome, and the pirate is to choose", "PR-5"
        if self.wind_tile >= 0:
            return "the flipped tile needs its wind first (NE, SE, SW or NW)", "PR-2"
        if self.fights:
            return "choose which ship on your space to fight next", "PR-6"
        verbs = {
            "buy": (("buy",), "PR-3"), "place": (("place",), "PR-3"), "sail": (("sail", "stop"), "PR-4"),
            "others": (("steer",), "PR-7"), "bury": (("bury", "retrieve", "done"), "PR-8"),
            "upgrade": (("buy", "keep"), "PR-9"), "end": (("continue", "retire"), "PR-10"),
        }
        want, rule = verbs[self.phase]
        if verb not in want:
            return f"now is the {self.phase} step; expected {' or '.join(want)}", rule
        if verb == "sail" and self.phase == "sail":
            d = action[1]
            if d in ORTH:
                if self.orth >= 2:
                    return "both orthogonal steps are used this turn", "PR-4"
                if self.orth == 1 and {d, self.last} in ({"N", "S"}, {"E", "W"}):
                    return "the second step may turn 90 degrees but never reverse", "PR-4"
                return f"sailing {d} enters land", "PR-4"
            if self.diag:
                return "the one wind step is used this turn", "PR-4"
            assert self.pos is not None
            wind = WINDS[self.winds[self.sea.tile_at[self.pos]]]
            if d != wind:
                return f"the only diagonal step here is with the wind ({wind})", "PR-4"
            return f"sailing {d} enters land or cuts between two land cells", "PR-4"
        if verb == "place":
            return "the ship must start on a space orthogonally adjacent to land", "PR-3"
        if verb == "buy":
            return ("that ship and crew is not for sale: crew must fit the ship, are never dismissed, "
                    "and the cost (old ship traded in, no change) must be affordable", "PR-9" if self.phase == "upgrade" else "PR-3")
        if verb == "steer":
            return "ships take only their best routes; choose among the tied ones listed", "PR-7"
        if verb == "bury":
            if self.did_bury:
                return "booty is buried once per bury step", "PR-13"
            return "bury at most the booty aboard, in land orthogonally adjacent to the ship", "PR-8"
        if verb == "retrieve":
            if self.did_retrieve:
                return "booty is retrieved once per bury step", "PR-13"
            return "retrieve at most the buried booty, from a space orthogonally adjacent to the chest", "PR-8"
        return f"not allowed in the {self.phase} step", rule

    # -- applying --------------------------------------------------------------------
    def _apply(self, move: Action) -> "PiratesState":
        action = as_move(move)
        verb = action[0]
        s = self
        if verb == "dice" and s.phase == "start":
            s = replace(s, phase="buy", booty=action[1] + action[2] + 5)
        elif verb == "dice":
            s = s._combat(action[1], action[2])
        elif verb == "flip":
            s = replace(s, faces=_set(s.faces, s.flip, action[1]), flip=-1)
        elif verb == "wind":
            s = replace(s, winds=_set(s.winds, s.wind_tile, WINDS.index(action[1])), wind_tile=-1)
        elif verb == "lookout":
            seen = action[1] <= s.face_value(s.sight) and bool(s.bag())
            s = replace(s, draw=s.sight if seen else -1, sight=-1)
        elif verb == "draw":
            assert s.pos is not None
            spot = s.sea.opposite_quadrant(s.pos)
            s = replace(s, coins=tuple(sorted(s.coins + ((action[1], spot),))), draw=-1, sightings=s.sightings + 1)
        elif verb == "fight":
            s = replace(s, fights=tuple(c for c in s.fights if c != action[1]), combat=action[1])
        elif verb == "buy":
            cost = T.refit_cost(s.ship, s.crew, action[1], action[2])
            assert cost is not None
            s = replace(s, ship=action[1], crew=action[2], booty=s.booty - cost,
                        phase="place" if s.phase == "buy" else "end")
        elif verb == "place":
            t = s.sea.tile_at[action[1]]
            # placing flips the tile and sets its wind but sights nothing (PR-3)
            s = replace(s, pos=action[1], phase="sail", flip=t, wind_tile=t)
        elif verb == "sail":
            s = s._enter(dict(s.sail_options())[action[1]], action[1])
        elif verb == "stop":
            s = s._to_others()
        elif verb == "steer":
            s = s._move_ship(action[1], action[2])
        elif verb == "bury":
            n, site = action[1], action[2]
            same = site == s.chest
            lost = 0 if same else s.buried
            s = replace(s, booty=s.booty - n, buried=(s.buried if same else 0) + n, chest=site,
                        did_bury=True, booty_lost=s.booty_lost + lost)
        elif verb == "retrieve":
            s = replace(s, booty=s.booty + action[1], buried=s.buried - action[1], did_retrieve=True)
        elif verb == "done":
            s = s._end_bury()
        elif verb == "keep":
            s = replace(s, phase="end")
        elif verb == "continue":
            s = s._next_turn()
        elif verb == "retire":
            s = replace(s, phase="over")
        return s._settle()

    def _enter(self, target: Cell, d: str) -> "PiratesState":
        """The pirate steps onto ``target``: flips, sighting and combat as they happen (PR-4..6)."""
        assert self.pos is not None
        sea = self.sea
        old_tile, tile = sea.tile_at[self.pos], sea.tile_at[target]
        hidden = self.faces[tile] < 0
        lonely = not any(sea.tile_at[at] == tile for _, at in self.coins)
        progress = {"orth": self.orth + 1, "last": d} if d in ORTH else {"diag": True}
        return replace(
            self, pos=target, **progress,
            flip=tile if hidden else -1, wind_tile=tile if hidden else -1,
            # no lookout when the bag is empty: there is nothing to sight (PR-12)
            sight=tile if tile != old_tile and lonely and len(self.coins) < T.NUM_COINS else -1,
            fights=self.ships_on(target),
        )

    def _combat(self, suns: int, arms: int) -> "PiratesState":
        """Resolve the combat with ``self.combat`` on this roll (PR-6)."""
        coin = self.combat
        enemy = T.coin_value(coin)
        mine = self.ship + self.crew + arms
        theirs = enemy + self.notoriety + suns
        if mine > theirs:
            gain = arms * (enemy + suns) - self.crew
            return replace(
                self, combat=-1, coins=tuple(p for p in self.coins if p[0] != coin),
                notoriety=self.notoriety + 1, booty=max(0, self.booty + gain), wins=self.wins + 1,
            )
        if mine < theirs:
            crew = max(0, self.crew - 1)
            ship = T.ship_for_crew(self.ship, crew)
            loss = min(self.booty, suns)
            return replace(
                self, combat=-1, notoriety=max(0, self.notoriety - 1), crew=crew, ship=ship,
                booty=self.booty - loss, losses=self.losses + 1, booty_lost=self.booty_lost + loss,
                # a shipless pirate fights no more this turn (PR-12)
                fights=self.fights if ship >= 0 else (),
            )
        return replace(self, combat=-1, standoffs=self.standoffs + 1)

    def _to_others(self) -> "PiratesState":
        """End the sail; the nearby ships of other sizes get ready to sail (PR-7)."""
        if self.ship < 0 or self.pos is None:
            return replace(self, phase="bury", movers=())
        near = self.sea.nearby_tiles(self.sea.tile_at[self.pos])
        movers = tuple(c for c, at in self.coins if self.sea.tile_at[at] in near and T.coin_value(c) != self.ship)
        return replace(self, phase="others", movers=movers, arrived=())

    def _move_ship(self, coin: int, to: Cell) -> "PiratesState":
        coins = tuple(sorted((c, to if c == coin else at) for c, at in self.coins))
        arrived = self.arrived
        if to == self.pos and self.coin_at(coin) != to:
            arrived = arrived + (coin,)
        return replace(self, coins=coins, movers=self.movers[1:], arrived=arrived)

    def _end_bury(self) -> "PiratesState":
        """Booty above the hold is lost after the bury step (PR-8)."""
        over = max(0, self.booty - T.HOLD)
        return replace(self, booty=self.booty - over, booty_lost=self.booty_lost + over, phase="upgrade")

    def _next_turn(self) -> "PiratesState":
        return replace(self, turn=self.turn + 1, phase="sail", orth=0, last="", diag=False,
                       did_bury=False, did_retrieve=False)

    def _settle(self) -> "PiratesState":
        """Run automatic steps until a decision or chance event is due."""
        s = self
        while True:
            if s.phase in ("over", "start") or s.current_player == CHANCE or s.wind_tile >= 0:
                return s
            if s.fights:
                if s.ship < 0:
                    s = replace(s, fights=())
                    continue
                if len(s.fights) == 1:
                    s = replace(s, combat=s.fights[0], fights=())
                    continue
                return s
            if s.phase == "sail":
                if s.ship < 0 or not s.sail_options():
                    s = s._to_others()
                    continue
                return s
            if s.phase == "others":
                if not s.movers:
                    # ships that reached the pirate fight once all have sailed (PR-7)
                    s = replace(s, phase="bury", fights=s.arrived, arrived=())
                    continue
                ends = s._destinations(s.movers[0])
                if len(ends) == 1 or s.game.auto_ties:
                    s = s._move_ship(s.movers[0], ends[0])
                    continue
                return s
            if s.phase == "bury":
                if not s._bury_options():
                    s = s._end_bury()
                    continue
                return s
            if s.phase == "upgrade":
                if not s._refits():
                    s = replace(s, phase="end")
                    continue
                return s
            if s.phase == "end":
                if s.ship < 0:
                    return replace(s, phase="over", drowned=True)  # PR-9: no ship, no crew: drowned
                if s.turn >= s.game.turns:
                    return replace(s, phase="over")  # PR-10: must retire after the last turn
                return s
            return s


def _set(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return values[:index] + (value,) + values[index + 1:]
