"""Profiteer in a player's words: every card turned up, every switch, war and count, and the
profiteer's cards at the end against the target. The one player is "you".
"""

from __future__ import annotations

from typing import Any

from ...core.errors import without_rulings
from ...core.tallies import Stats, count
from ...core.words import plural
from .actions import Draw, End, Give, Keep, ProfiteerAction, Side, Switch
from .cards import card_text, mask_text
from .flow import Phase
from .rules import ProfiteerState


def narrate(before: ProfiteerState, action: ProfiteerAction, after: ProfiteerState) -> str:
    """``Side A turns up QS``, ``You switched side B's 7H for your KS``, ``War! Both sides flip again``."""
    said = _what(before, action, after)
    # what the flip or the count came to, as the position's own log line says it
    if after.last and after.last != before.last:
        said += "; " + without_rulings(after.last.removeprefix(before.last).lstrip("; "))
    if after.war_round > before.war_round:
        said += f"; War! Both sides flip again (war round {after.war_round})"
    if after.phase == Phase.SWITCH and before.phase != Phase.SWITCH:
        said += "; your move: keep, or switch a card for a higher resource"
    if after.phase == Phase.BALANCE and before.phase != Phase.BALANCE:
        said += (f"; the piles are unequal (A {after.pile_a()}, B {after.pile_b()}): "
                 "give resources to the smaller side, or end")
    if after.is_terminal() and not before.is_terminal():
        won = "you win" if after.total() >= after.game.target else "you lose"
        said += (f"; the game is over: {without_rulings(after.ending.describe())}; "
                 f"you hold {plural(after.total(), 'card')} of the {after.game.target} needed: {won}")
    return said


def _what(s: ProfiteerState, action: Any, t: ProfiteerState) -> str:
    match action:
        case Draw(card=card):
            return _drawn(s, card)
        case Keep():
            return "You let the flip stand"
        case Switch(side=side, rank=r):
            # read from the position before: a switch on a pass's last flip redraws the hand
            old, given = s.face_up(side), s.resource_of_rank(r)
            return (f"You switched side {Side(side).name}'s {card_text(old)} for your {card_text(given)} "
                    f"({card_text(old)} goes to your pile)")
        case Give(rank=r):
            # PF-6: the gift goes to the smaller side; read from the position before, as the gift
            # that balances the piles starts the next pass (the discards become decks)
            given = s.resource_of_rank(r)
            gave_to = "A" if s.pile_a() < s.pile_b() else "B"
            return f"You gave {card_text(given)} to side {gave_to}"
        case End():
            return "You ended the war rather than balance the piles"
    return f"You: {s.game.action_to_text(s, action)}"


def _drawn(s: ProfiteerState, card: int) -> str:
    name = card_text(card)
    match s.phase:
        case Phase.SETUP:
            return f"You draw {name} for your first hand"
        case Phase.REDRAW:
            return f"You draw {name} for your new hand"
        case Phase.UP_A:
            return f"Side A turns up {name}"
        case Phase.UP_B:
            return f"Side B turns up {name}"
        case Phase.DOWN_A:
            return f"Side A's face-down war card {name} goes to you"
        case Phase.DOWN_B:
            return f"Side B's face-down war card {name} goes to you"
    return f"Chance: {name}"


def breakdown(state: ProfiteerState, stats: Stats) -> list[str]:
    """The profiteer's cards against the target, and how the war went: the passes, and the
    flips, wars, switches and gifts the game's observer counted."""
    target = state.game.target
    pile, resources = state.profiteer_discard.bit_count(), state.resources.bit_count()
    total = state.total()
    verdict = "won" if total >= target else f"short by {target - total}"
    lines = [f"Your cards: {pile} in your pile + {resources} resources = {total} of {target} needed: {verdict}"]
    if state.resources:
        lines.append(f"Resources left: {mask_text(state.resources)}")
    lines.append(f"Sides: A {plural(state.pile_a(), 'card')}, B {plural(state.pile_b(), 'card')}")
    flips, wars, war_cards, switches, gifts = (count(stats, name) for name in
                                                ("flips", "wars", "war_cards", "switches", "gifts"))
    lines.append(f"{plural(state.round, 'pass', 'passes')}, {plural(flips, 'flip', 'flips')}, "
                 f"{plural(wars, 'war', 'wars')} ({plural(war_cards, 'face-down card', 'face-down cards')} "
                 f"to you), {plural(switches, 'switch', 'switches')}, {plural(gifts, 'card', 'cards')} given")
    if state.ending.describe():
        lines.append("The game ended because " + without_rulings(state.ending.describe()))
    return lines

