"""How a Pirates position moves on: the work each action does (seed 001, PR-3..PR-15).

:func:`apply` is :meth:`.rules.PiratesState._apply`: the action's own change, then
:func:`_settle`, which runs every automatic transition (ships sailing on one best route,
a lone fight, an empty bury or upgrade step, the end) so that each position waits on exactly
one decision or chance event. What is legal stays in :mod:`.rules`.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Any

from ...core.game import CHANCE
from . import tables as T
from .actions import (Bury, Buy, Continue, Dice, Done, Draw, Fight, Flip, Keep, Lookout, PiratesAction, Place,
                      Retire, Retrieve, Sail, Steer, Stop, Wind)
from .sea import ORTH, WINDS, Cell

if TYPE_CHECKING:
    from .rules import PiratesState


class Phase(Enum):
    """The step of the turn a position is in (setup, the five steps of the turn, over)."""

    START = "start"
    BUY = "buy"
    PLACE = "place"
    SAIL = "sail"
    OTHERS = "others"
    BURY = "bury"
    UPGRADE = "upgrade"
    END = "end"
    OVER = "over"


def apply(state: PiratesState, action: PiratesAction) -> PiratesState:
    """The position after ``action`` (legal: ``illegal_reason`` let it through), every
    automatic step after it run (:func:`_settle`)."""
    return _settle(_act(state, action))


def _act(state: PiratesState, action: PiratesAction) -> PiratesState:
    """``action``'s own change, before the automatic steps."""
    s = state
    match action:
        case Dice(suns, arms) if s.phase is Phase.START:
            s = s.evolve(phase=Phase.BUY, booty=suns + arms + 5)
        case Dice(suns, arms):
            s = _combat(s, suns, arms)
        case Flip(face):
            s = s.evolve(faces=_set(s.faces, s.flip, face), flip=-1)
        case Wind(wind):
            s = s.evolve(winds=_set(s.winds, s.wind_tile, WINDS.index(wind)), wind_tile=-1)
        case Lookout(roll):
            seen = roll <= s.face_value(s.sight) and bool(s.bag)
            s = s.evolve(draw=s.sight if seen else -1, sight=-1)
        case Draw(coin):
            assert s.pos is not None
            spot = s.sea.opposite_quadrant(s.pos)
            s = s.evolve(coins=tuple(sorted(s.coins + ((coin, spot),))), draw=-1)
        case Fight(coin):
            s = s.evolve(fights=tuple(c for c in s.fights if c != coin), combat=coin)
        case Buy(ship, crew):
            cost = T.refit_cost(s.ship, s.crew, ship, crew)
            assert cost is not None
            s = s.evolve(ship=ship, crew=crew, booty=s.booty - cost,
                         phase=Phase.PLACE if s.phase is Phase.BUY else Phase.END)
        case Place(cell):
            t = s.sea.tile_at[cell]
            # placing flips the tile and sets its wind but sights nothing (PR-3)
            s = s.evolve(pos=cell, phase=Phase.SAIL, flip=t, wind_tile=t)
        case Sail(d):
            s = _enter(s, dict(s.sail_options)[d], d)
        case Stop():
            s = _to_others(s)
        case Steer(coin, cell):
            s = _move_ship(s, coin, cell)
        case Bury(amount, site):
            same = site == s.chest
            s = s.evolve(booty=s.booty - amount, buried=(s.buried if same else 0) + amount, chest=site,
                         did_bury=True)
        case Retrieve(amount):
            s = s.evolve(booty=s.booty + amount, buried=s.buried - amount, did_retrieve=True)
        case Done():
            s = _end_bury(s)
        case Keep():
            s = s.evolve(phase=Phase.END)
        case Continue():
            s = s.evolve(turn=s.turn + 1, phase=Phase.SAIL, orth=0, last="", diag=False,
                         did_bury=False, did_retrieve=False)
        case Retire():
            s = s.evolve(phase=Phase.OVER)
    return s


def _enter(state: PiratesState, target: Cell, d: str) -> PiratesState:
    """The pirate steps onto ``target``: flips, sighting and combat as they happen (PR-4..6)."""
    assert state.pos is not None
    sea = state.sea
    old_tile, tile = sea.tile_at[state.pos], sea.tile_at[target]
    hidden = state.faces[tile] < 0
    lonely = not any(sea.tile_at[at] == tile for _, at in state.coins)
    progress: dict[str, Any] = {"orth": state.orth + 1, "last": d} if d in ORTH else {"diag": True}
    return state.evolve(
        pos=target, **progress,
        flip=tile if hidden else -1, wind_tile=tile if hidden else -1,
        # no lookout when the bag is empty: there is nothing to sight (PR-12)
        sight=tile if tile != old_tile and lonely and len(state.coins) < T.NUM_COINS else -1,
        fights=state.ships_on(target),
    )


def fight_outcome(state: PiratesState, suns: int, arms: int) -> int:
    """How the fight with ``state.combat``'s ship goes on this roll: 1 the pirate wins, -1 it
    loses, 0 a standoff (PR-6)."""
    mine = state.ship + state.crew + arms
    theirs = T.coin_value(state.combat) + state.notoriety + suns
    return (mine > theirs) - (mine < theirs)


def booty_lost(before: PiratesState, action: PiratesAction, after: PiratesState) -> int:
    """The booty lost on the way from ``before`` by ``action`` to ``after``: a lost fight's
    (PR-6), a chest left behind for one buried elsewhere, and what is above the hold when the
    bury step ends (PR-8), whether the pirate ends it or the automatic steps do (the only
    automatic step that changes the booty)."""
    own = 0
    match action:
        case Dice(suns, arms) if before.phase is not Phase.START and fight_outcome(before, suns, arms) < 0:
            own = min(before.booty, suns)
        case Bury(_, site) if site != before.chest:
            own = before.buried
        case Done():
            own = max(0, before.booty - T.HOLD)
    return own + settled_loss(before, action, after)


def settled_loss(before: PiratesState, action: PiratesAction, after: PiratesState) -> int:
    """The booty the automatic steps after ``action`` lost on the way from ``before`` to
    ``after``: what is above the hold when a bury step with nothing to offer passes by itself
    (PR-8), as after a fight won in the other-ships step. The action's own losses are not in it."""
    return _act(before, action).booty - after.booty


def _combat(state: PiratesState, suns: int, arms: int) -> PiratesState:
    """Resolve the combat with ``state.combat`` on this roll (PR-6)."""
    coin = state.combat
    enemy = T.coin_value(coin)
    outcome = fight_outcome(state, suns, arms)
    if outcome > 0:
        gain = arms * (enemy + suns) - state.crew
        return state.evolve(
            combat=-1, coins=tuple(p for p in state.coins if p[0] != coin),
            notoriety=state.notoriety + 1, booty=max(0, state.booty + gain),
        )
    if outcome < 0:
        crew = max(0, state.crew - 1)
        ship = T.ship_for_crew(state.ship, crew)
        return state.evolve(
            combat=-1, notoriety=max(0, state.notoriety - 1), crew=crew, ship=ship,
            booty=state.booty - min(state.booty, suns),
            # a shipless pirate fights no more this turn (PR-12)
            fights=state.fights if ship >= 0 else (),
        )
    return state.evolve(combat=-1)


def _to_others(state: PiratesState) -> PiratesState:
    """End the sail; the nearby ships of other sizes get ready to sail (PR-7)."""
    if state.ship < 0 or state.pos is None:
        return state.evolve(phase=Phase.BURY, movers=())
    near = state.sea.nearby_tiles(state.sea.tile_at[state.pos])
    movers = tuple(c for c, at in state.coins if state.sea.tile_at[at] in near and T.coin_value(c) != state.ship)
    return state.evolve(phase=Phase.OTHERS, movers=movers, arrived=())


def _move_ship(state: PiratesState, coin: int, to: Cell) -> PiratesState:
    """``coin`` sails to ``to``; arriving on the pirate's space means a fight (PR-6, PR-15)."""
    coins = tuple(sorted((c, to if c == coin else at) for c, at in state.coins))
    arrived = state.arrived
    if to == state.pos and state.coin_at(coin) != to:
        arrived = arrived + (coin,)
    return state.evolve(coins=coins, movers=state.movers[1:], arrived=arrived)


def _end_bury(state: PiratesState) -> PiratesState:
    """Booty above the hold is lost after the bury step (PR-8)."""
    return state.evolve(booty=min(state.booty, T.HOLD), phase=Phase.UPGRADE)


def _settle(state: PiratesState) -> PiratesState:
    """Run automatic steps until a decision or chance event is due."""
    s = state
    while True:
        if s.phase in (Phase.OVER, Phase.START) or s.current_player == CHANCE or s.wind_tile >= 0:
            return s
        if s.fights:
            if s.ship < 0:
                s = s.evolve(fights=())
                continue
            if len(s.fights) == 1:
                s = s.evolve(combat=s.fights[0], fights=())
                continue
            return s
        match s.phase:
            case Phase.SAIL if s.ship < 0 or not s.sail_options:
                s = _to_others(s)
            case Phase.OTHERS if not s.movers:
                # ships that reached the pirate fight once all have sailed (PR-7)
                s = s.evolve(phase=Phase.BURY, fights=s.arrived, arrived=())
            case Phase.OTHERS:
                ends = s.destinations(s.movers[0])
                if len(ends) > 1 and not s.game.auto_ties:
                    return s
                s = _move_ship(s, s.movers[0], ends[0])
            case Phase.BURY if not s.bury_options:
                s = _end_bury(s)
            case Phase.UPGRADE if not s.refits:
                s = s.evolve(phase=Phase.END)
            case Phase.END if s.ship < 0:
                return s.evolve(phase=Phase.OVER, drowned=True)  # PR-9: no ship, no crew: drowned
            case Phase.END if s.turn >= s.game.turns:
                return s.evolve(phase=Phase.OVER)  # PR-10: must retire after the last turn
            case _:
                return s


def _set(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return values[:index] + (value,) + values[index + 1:]
