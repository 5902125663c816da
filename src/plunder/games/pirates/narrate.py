"""Piece Packing Pirates in a player's words: what a move or a roll did, and the final score
taken apart. The one player is "you" (the text speaks to the pirate that way).

A move can set off automatic steps (other ships sailing when ties are broken by rule, a
lone ship on the pirate's space fought at once, the forced retirement after the last
turn, drowning): :func:`narrate` tells those too, from the change between the positions.
"""

from __future__ import annotations

from typing import Any

from ...core.tallies import Stats, count
from ...core.words import plural
from . import tables as T
from .actions import (Bury, Buy, Continue, Dice, Done, Draw, Fight, Flip, Keep, Lookout, Place, Retire, Retrieve, Sail,
                      PiratesAction, Steer, Stop, Wind)
from .flow import booty_lost, settled_loss
from .rules import Phase, PiratesState
from .sea import Cell, cell_text


def narrate(before: PiratesState, action: PiratesAction, after: PiratesState) -> str:
    """``You lost the fight to the suns brig (7 v 11): crew 2→1, booty -3``."""
    said = _what(before, action, after)
    more = _aftermath(before, action, after)
    return "; ".join([said, *more]) if said else "; ".join(more)


def _kind(value: int) -> str:
    """A ship type in words: ``brig``, ``ship of the line``."""
    return "ship of the line" if value == len(T.SHIP_NAMES) - 1 else T.ship_name(value)


def _ship(coin: int) -> str:
    """``the suns brig``."""
    return f"the {T.coin_suit(coin)} {_kind(T.coin_value(coin))}"


def _what(s: PiratesState, action: Any, t: PiratesState) -> str:
    # the booty the action itself left aboard; what a bury step passing by itself then loses
    # above the hold is the aftermath's to tell (PR-8)
    aboard = t.booty + settled_loss(s, action, t)
    match action:
        case Dice(suns, arms) if s.phase is Phase.START:
            return f"Starting booty: suns {suns} + arms {arms} + 5 = {t.booty}"
        case Dice(suns, arms):
            return _combat(s, suns, arms, t, aboard)
        case Lookout(roll):
            value = s.face_value(s.sight)
            if t.draw >= 0:
                return f"Lookout rolled {roll} (tile value {value}): a ship is sighted"
            return f"Lookout rolled {roll} (tile value {value}): nothing sighted"
        case Flip(face):
            return f"The tile flips: {T.face_name(face)} (a ship is sighted here on {T.face_value(face)} or less)"
        case Draw(coin):
            # where the lookout placed it (PR-5); if it sails at once, the aftermath says so
            at = _sighted_at(s)
            size = T.coin_value(coin)
            mood = ("bigger than you: it will chase" if size > t.ship else
                    "smaller than you: it will flee" if size < t.ship else "your size: it stays put")
            return f"It is {_ship(coin)}, at {cell_text(at) if at else '?'} ({mood})"
        case Wind(wind):
            return f"You set the tile's wind to {wind}"
        case Buy(ship, crew) if s.phase is Phase.BUY:
            return f"You bought a {_kind(ship)} with {crew} crew for {s.booty - t.booty} booty ({t.booty} left)"
        case Buy(ship, crew):
            return (f"You refitted to a {_kind(ship)} with {crew} crew for {s.booty - t.booty} booty "
                    f"({t.booty} left)")
        case Place(cell):
            return f"You weighed anchor at {cell_text(cell)}"
        case Sail(d):
            return f"You sailed {d} to {cell_text(t.pos) if t.pos else '?'}"
        case Stop():
            return f"You stopped at {cell_text(s.pos) if s.pos else '?'}"
        case Fight(coin):
            return f"You fight {_ship(coin)} first"
        case Steer(coin, cell):
            return f"{_ship(coin).capitalize()} sails to {cell_text(cell)}"
        case Bury(amount, site):
            lost = "" if s.chest in (None, site) or not s.buried else f"; the old chest's {s.buried} booty is lost"
            return f"You buried {amount} booty at {cell_text(site)} (aboard {aboard}, buried {t.buried}){lost}"
        case Retrieve(amount):
            return f"You dug up {amount} booty (aboard {aboard}, buried {t.buried})"
        case Done():
            return "You finished burying"
        case Keep():
            return "You kept your ship and crew"
        case Continue():
            return f"Turn {t.turn} begins"
        case Retire():
            return f"You retired after {plural(t.turns_completed(), 'turn')}"
    return f"You: {s.game.action_to_text(s, action)}"


def _sighted_at(s: PiratesState) -> Cell | None:
    """Where a ship sighted in ``s`` is placed: the quadrant opposite the pirate (PR-5)."""
    return s.sea.opposite_quadrant(s.pos) if s.pos is not None else None


def _combat(s: PiratesState, suns: int, arms: int, t: PiratesState, aboard: int) -> str:
    """The fight with ``s.combat`` on this roll, with the numbers the text's formulas use (PR-6);
    ``aboard`` is the booty the fight itself left aboard."""
    coin = s.combat
    enemy = T.coin_value(coin)
    mine = s.ship + s.crew + arms
    theirs = enemy + s.notoriety + suns
    score = f"({mine} v {theirs})"
    if mine > theirs:
        gain = arms * (enemy + suns) - s.crew
        return (f"You beat {_ship(coin)} {score}: notoriety {s.notoriety}→{t.notoriety}, "
                f"booty {gain:+d} ({arms} x ({enemy} + {suns}) - {s.crew} crew), aboard {s.booty}→{aboard}")
    if mine < theirs:
        loss = s.booty - aboard
        # the loss is the suns rolled, at most what is aboard (PR-6)
        kept = "no booty aboard to lose" if not s.booty else f"no booty lost ({suns} suns)"
        parts = [f"crew {s.crew}→{t.crew}", f"booty -{loss}" if loss else kept]
        if t.ship != s.ship:
            parts.append(f"ship {_kind(s.ship)}→{_kind(t.ship)}")
        if t.notoriety != s.notoriety:
            parts.append(f"notoriety {s.notoriety}→{t.notoriety}")
        return f"You lost the fight to {_ship(coin)} {score}: " + ", ".join(parts)
    return f"Standoff with {_ship(coin)} {score}: nothing happens"


def _aftermath(s: PiratesState, action: Any, t: PiratesState) -> list[str]:
    """What the automatic steps after ``action`` did: ships sailing, fights due, the end."""
    out: list[str] = []
    before = dict(s.coins)
    if isinstance(action, Draw):
        spot = _sighted_at(s)
        if spot is not None:
            before[action.coin] = spot
    for coin, cell in t.coins:
        # a steered ship's own move is the action's line; the ships after it sail by rule (PR-7)
        steered = isinstance(action, Steer) and coin == action.coin
        if coin in before and before[coin] != cell and not steered:
            out.append(f"{_ship(coin)} sails to {cell_text(cell)}")
    if t.combat >= 0 and t.combat != s.combat and not isinstance(action, Fight):
        out.append(f"a fight with {_ship(t.combat)}!")
    if len(t.fights) > 1 and set(t.fights) != set(s.fights):
        out.append("ships to fight here: " + ", ".join(T.coin_name(c) for c in t.fights) + " (choose the order)")
    elif len(t.fights) == 1 and t.fights != s.fights:
        out.append(f"{_ship(t.fights[0])} is still to fight")
    if isinstance(action, Done) and (lost := booty_lost(s, action, t)):
        out.append(f"{lost} booty above the hold's {T.HOLD} is lost")
    elif lost := settled_loss(s, action, t):
        # the bury step had nothing (more) to offer and passed by itself: the excess goes (PR-8)
        out.append(f"the bury step ends: {lost} booty above the hold's {T.HOLD} is lost (aboard {t.booty})")
    if t.phase is Phase.OVER and not isinstance(action, Retire):
        if t.drowned:
            out.append("with no ship and no crew, you drown at sea")
        else:
            out.append(f"after {plural(t.turns_completed(), 'turn')} you must retire")
    return out


def breakdown(state: PiratesState, stats: Stats) -> list[str]:
    """The score formula with the numbers: ship x crew + buried x aboard x notoriety + turns
    (PR-10); then the fights, sightings and booty lost, as the game's observer counted them."""
    ship = max(state.ship, 0)
    turns = state.turns_completed()
    total = state.score()
    goal = state.game.goal
    name = _kind(state.ship)

    return [
        f"Ship x crew: {ship} ({name}) x {state.crew} = {ship * state.crew}",
        f"Buried x aboard x notoriety: {state.buried} x {state.booty} x {state.notoriety} = "
        f"{state.buried * state.booty * state.notoriety}",
        f"Turns completed: {turns}" + (" (drowned)" if state.drowned else ""),
        f"Score: {ship * state.crew} + {state.buried * state.booty * state.notoriety} + {turns} = {total}"
        f" ({'reaches' if total >= goal else 'short of'} the goal of {goal})",
        f"Fights: {count(stats, 'combats_won')} won, {count(stats, 'combats_lost')} lost, {plural(count(stats, 'standoffs'), 'standoff')}; "
        f"{plural(count(stats, 'sightings'), 'ship')} sighted; {count(stats, 'booty_lost')} booty lost",
    ]
