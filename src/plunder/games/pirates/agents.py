"""The ``greedy`` captain: hunts smaller ships, flees bigger ones, buries booty,
upgrades sensibly and retires when cornered.

It looks one sail ahead: every route of the remaining sail steps is scored by the
expected value of the fights and sightings on the way plus the value of where it
ends (the fights the chasing ships would force there, prey nearby, a beach to bury
booty on). Other decisions are short rules of thumb.
"""

from __future__ import annotations

import random
from typing import Sequence

from ...core.agent import AgentFactory, AgentOptions
from ...core.game import Game
from ...core.params import Param, parse_bool, parse_real
from . import tables as T
from .actions import CONTINUE, DONE, KEEP, RETIRE, STOP, Bury, Buy, Fight, PiratesAction, Place, Retrieve, Sail, Steer, Wind
from .moves import distance, sail_steps, ship_destinations
from .rules import Phase, PiratesState
from .sea import ORTH, WINDS, Cell

#: booty the captain keeps aboard between burials, to pay for refits
KEEP_ABOARD = 12
#: what one point of notoriety is worth to the captain (it multiplies the final score)
NOTORIETY_WORTH = 2.0


class GreedyCaptain:
    """A one-sail-lookahead pirate captain (see the module docstring)."""

    name = "greedy"

    def __init__(self, caution: float = 1.0, explore: float = 1.5, endgame: float = 0.5, horizon: int = 1,
                 reserve: int = 0, refit_until: float = 0.8, drown_cost: float = 0.0,
                 drown_share: float = 0.3, keep_worth: float = 10.0, bank: bool = False) -> None:
        """Weights of the captain's judgement (defaults tuned on simulated games):
        ``caution`` scales the cost of losing a fight; ``explore`` the worth of an
        unexplored tile; ``endgame`` of ending beside booty to balance in the last
        ``horizon`` + 1 turns; ``reserve`` booty kept back from refits, which stop after
        ``refit_until`` of the turns; drowning costs ``drown_cost`` plus ``drown_share``
        of buried x aboard x notoriety; it retires when cornered only with a career
        worth at least ``keep_worth``; with ``bank`` it retires as soon as retiring
        scores the game's goal."""
        self.caution = caution
        self.explore = explore
        self.endgame = endgame
        self.horizon = horizon
        self.reserve = reserve
        self.refit_until = refit_until
        self.drown_cost = drown_cost
        self.drown_share = drown_share
        self.keep_worth = keep_worth
        self.bank = bank
        # memos: fight values by the tracks they depend on; the last sighting value
        self._fights: dict[tuple[int, ...], float] = {}
        self._sighting: tuple[object, float] = (None, 0.0)

    # -- combat arithmetic -------------------------------------------------------------
    def fight_value(self, s: PiratesState, enemy: int) -> float:
        """Expected booty-equivalent of fighting a ship of size ``enemy`` now (PR-6)."""
        key = (s.ship, s.crew, s.notoriety, min(s.booty, 3), s.buried * s.booty, enemy)
        found = self._fights.get(key)
        if found is None:
            found = self._fights[key] = self._fight_value(s, enemy)
        return found

    def _fight_value(self, s: PiratesState, enemy: int) -> float:
        if s.ship < 0:
            return 0.0
        win, lose, gross = T.combat_odds(s.ship + s.crew, enemy, s.notoriety)
        smaller = T.ship_for_crew(s.ship, s.crew - 1)
        # drowning costs the ship and whatever the career has earned so far
        sunk = self.drown_cost + self.drown_share * s.buried * s.booty * s.notoriety
        downgrade = T.SHIP_PRICE[s.ship] - (T.SHIP_PRICE[smaller] if smaller >= 0 else -sunk)
        loss = T.CREW_PRICE + 3 + min(s.booty, 2.5) + NOTORIETY_WORTH + downgrade
        gain = gross - win * s.crew + win * NOTORIETY_WORTH
        return gain - self.caution * lose * loss

    def sighting_value(self, s: PiratesState) -> float:
        """Expected value of a ship appearing beside the pirate."""
        key = (s.ship, s.crew, s.notoriety, min(s.booty, 3), s.buried * s.booty, s.bag)
        if self._sighting[0] != key:
            self._sighting = (key, self._sighting_value(s))
        return self._sighting[1]

    def _sighting_value(self, s: PiratesState) -> float:
        bag = s.bag
        if not bag:
            return 0.0
        total = 0.0
        for coin in bag:
            v = T.coin_value(coin)
            if v > s.ship:
                # it will give chase, but the rest of the sail may still outrun it
                total += 0.5 * min(0.0, self.fight_value(s, v))
            elif v < s.ship:
                total += 0.4 * max(0.0, self.fight_value(s, v))  # prey, if it can be caught
        return total / len(bag)

    # -- the sail lookahead ----------------------------------------------------------
    def end_value(self, s: PiratesState, winds: Sequence[int], cell: Cell, final: bool) -> float:
        """Value of ending the sail on ``cell``: chasers' forced fights, prey nearby, a beach."""
        sea = s.sea
        near = sea.nearby_tiles(sea.tile_at[cell])
        value = 0.0
        for coin, at in s.coins:
            v = T.coin_value(coin)
            if sea.tile_at[at] not in near or at == cell:
                continue
            if v > s.ship:
                ends = ship_destinations(sea, winds, at, cell, flee=False)
                if ends == [cell]:
                    value += self.fight_value(s, v)
            elif v < s.ship and distance(at, cell) <= 4:
                value += 0.3 * max(0.0, self.fight_value(s, v)) / distance(at, cell)
        beach = sea.land_next_to(cell)
        if beach:
            value += self.beach_value(s, cell, beach, final)
        return value

    def beach_value(self, s: PiratesState, cell: Cell, beach: Sequence[Cell], final: bool) -> float:
        """What being able to bury or retrieve here is worth."""
        chest_here = s.chest in beach
        if final:
            now = s.buried * min(s.booty, T.HOLD) * s.notoriety
            if chest_here:
                total = s.buried + s.booty
                best = (total // 2) * min(T.HOLD, total - total // 2) * s.notoriety
            else:
                best = (s.booty // 2) * min(T.HOLD, s.booty - s.booty // 2) * s.notoriety
            return max(0.0, best - now) * self.endgame
        spare = s.booty - KEEP_ABOARD
        if spare <= 0:
            return 0.0
        if chest_here or spare > s.buried:
            return 0.15 * spare
        return 0.0

    def plan(self, s: PiratesState, winds: Sequence[int], pos: Cell, orth: int, last: str, diag: bool,
             final: bool) -> tuple[float, str | None]:
        """Best (value, first step) over every route of the remaining sail steps."""
        sea = s.sea
        best: tuple[float, str | None] = (self.end_value(s, winds, pos, final), None)
        here = sea.tile_at[pos]
        for d, target in sail_steps(sea, winds, pos, orth, last, diag):
            tile = sea.tile_at[target]
            ships = s.ships_on(target)
            gain = 0.0
            if ships:
                gain += sum(self.fight_value(s, T.coin_value(c)) for c in ships)
            elif tile != here and not any(sea.tile_at[at] == tile for _, at in s.coins):
                hidden = s.faces[tile] < 0
                chance = 3.5 / 6 if hidden else (s.face_value(tile) + 1) / 6
                gain += chance * self.sighting_value(s) + (self.explore if hidden else 0.3 * self.explore)
            step = (target, orth + 1, d, diag) if d in ORTH else (target, orth, last, True)
            rest, _ = self.plan(s, winds, *step, final)
            if gain + rest > best[0] + 1e-9:
                best = (gain + rest, d)
        return best

    def near_end(self, s: PiratesState) -> bool:
        """True in the last turns, when ending beside the chest or a beach pays most."""
        return s.turn >= s.game.turns - self.horizon

    def is_final(self, s: PiratesState) -> bool:
        """True when this turn is the last one (the limit, or cornered)."""
        return s.turn >= s.game.turns or self.cornered(s)

    def cornered(self, s: PiratesState) -> bool:
        """True when every route of next turn's sail expects a losing fight."""
        if s.pos is None or s.ship < 0:
            return False
        value, _ = self.plan(s, s.winds, s.pos, 0, "", False, False)
        return value < -3.0

    # -- decisions -------------------------------------------------------------------
    def choose(self, state: PiratesState, rng: random.Random) -> PiratesAction:
        """Pick an action for the pirate."""
        s = state
        legal = s.legal_actions()
        if s.wind_tile >= 0:
            return self.choose_wind(s)
        if s.fights:
            fights = [a for a in legal if isinstance(a, Fight)]
            return max(fights, key=lambda a: (T.combat_odds(s.ship + s.crew, T.coin_value(a.coin), s.notoriety)[0],
                                              -a.coin))
        match s.phase:
            case Phase.BUY | Phase.UPGRADE:
                return self.choose_refit(s, legal)
            case Phase.PLACE:
                sea = s.sea
                places = [a for a in legal if isinstance(a, Place)]
                return max(places, key=lambda a: (len(sea.neighbours[sea.tile_at[a.cell]]), -a.cell[1], -a.cell[0]))
            case Phase.SAIL:
                assert s.pos is not None
                _, step = self.plan(s, s.winds, s.pos, s.orth, s.last, s.diag, self.near_end(s))
                return STOP if step is None else Sail(step)
            case Phase.OTHERS:
                # a tie is ours to break: leave the ship where it has the fewest ways to go
                sea = s.sea
                steers = [a for a in legal if isinstance(a, Steer)]
                return min(steers, key=lambda a: (sum(sea.step(a.cell, d) is not None for d in ORTH),
                                                  a.cell[1], a.cell[0]))
            case Phase.BURY:
                return self.choose_bury(s, legal)
        # a captain playing to the goal banks it: sailing on can only risk it (PR-10, PR-14)
        if self.bank and s.apply(RETIRE).score() >= s.game.goal:
            return RETIRE
        # retiring only pays when there is a career worth keeping
        worth = s.buried * s.booty * s.notoriety + max(s.ship, 0) * s.crew
        return RETIRE if worth >= self.keep_worth and self.cornered(s) else CONTINUE

    def choose_wind(self, s: PiratesState) -> Wind:
        """Orient a flipped tile for the best sail from here (or next turn's, after setup)."""
        assert s.pos is not None
        best: tuple[float, int] = (float("-inf"), 0)
        for w in range(4):
            winds = s.winds[:s.wind_tile] + (w,) + s.winds[s.wind_tile + 1:]
            value, _ = self.plan(s, winds, s.pos, s.orth, s.last, s.diag, self.near_end(s))
            # prefer a wind that opens a diagonal at all, for the turns to come
            opens = 0.01 if s.sea.step(s.sea.origins[s.wind_tile], WINDS[w]) is not None else 0.0
            if value + opens > best[0] + 1e-9:
                best = (value + opens, w)
        return Wind(WINDS[best[1]])

    def choose_refit(self, s: PiratesState, legal: list[PiratesAction]) -> PiratesAction:
        """Setup: the strongest ship and crew affordable. Later: grow while turns remain."""
        buys = [a for a in legal if isinstance(a, Buy)]
        refits = buys
        if s.phase is Phase.UPGRADE:
            if s.ship >= 0 and s.turn > s.game.turns * self.refit_until:
                return KEEP
            strength = s.ship + s.crew
            # a crew at the ship's minimum is one lost fight from a downgrade: buy crew at once
            reserve = 0 if s.ship >= 0 and s.crew == T.MIN_CREW[s.ship] else self.reserve
            refits = [a for a in buys if a.ship + a.crew > strength and a.ship >= s.ship
                      and (T.refit_cost(s.ship, s.crew, a.ship, a.crew) or 0) <= s.booty - reserve]
            if not refits:
                # a shipless pirate buys what it can rather than drown (PR-9)
                return buys[0] if s.ship < 0 and buys else KEEP
        return max(refits, key=lambda a: (a.ship + a.crew, -(T.refit_cost(s.ship, s.crew, a.ship, a.crew) or 0), a.crew))

    def choose_bury(self, s: PiratesState, legal: list[PiratesAction]) -> PiratesAction:
        """Balance buried and aboard on the last turn; otherwise stash what is spare."""
        if self.is_final(s):
            def product(a: PiratesAction) -> tuple[int, int]:
                buried, aboard = s.buried, s.booty
                match a:
                    case Bury(amount, site):
                        buried = (buried if site == s.chest else 0) + amount
                        aboard -= amount
                    case Retrieve(amount):
                        buried, aboard = buried - amount, aboard + amount
                return buried * min(aboard, T.HOLD), -abs(buried - aboard)
            best = max(legal, key=product)
            return best if product(best) > product(DONE) else DONE
        spare = s.booty - KEEP_ABOARD
        if spare > 0:
            for a in legal:
                if isinstance(a, Bury) and a.amount == spare and (a.site == s.chest or spare > s.buried):
                    return a
        return DONE


def greedy_factory(game: Game, options: AgentOptions) -> GreedyCaptain:
    """Build the greedy captain with its weights from ``options``."""
    return GreedyCaptain(caution=options["caution"], explore=options["explore"], bank=options["bank"])


#: the agents of Pirates
AGENTS: dict[str, AgentFactory[PiratesState]] = {
    "greedy": AgentFactory(greedy_factory, "hunts smaller ships, flees bigger ones, buries booty, retires when cornered", (
        Param("caution", "1", parse_real(0, 10), "how much the losses of a fight weigh"),
        Param("explore", "1.5", parse_real(0, 10), "the worth of an unexplored tile"),
        Param("bank", "false", parse_bool, "retire as soon as retiring scores the goal (PR-14)"),
    )),
}
