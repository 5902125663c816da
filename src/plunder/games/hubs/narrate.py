"""Hubs in a player's words: what a dot or a segment did, and the match taken apart by round."""

from __future__ import annotations

from ...core.tallies import Figures
from ...core.words import plural
from .actions import Dot, HubsAction, Segment, label
from .rules import HubsState


def narrate(before: HubsState, action: HubsAction, after: HubsState) -> str:
    """``Player 2 drew c-k: +3 for Player 1 (offense), 5-0``; a round's end is told too."""
    g = before.game
    who = g.seat_name(before.current_player)
    offense = g.seat_name(before.offense)
    match action:
        case Dot(x, y):
            said = f"{who} placed dot {label(len(before.dots))} at {x},{y}"
            if after.round == before.round and not after.placing:
                said += (f"; all {g.dots} dots are down: {g.seat_name(after.current_player)} (defense) "
                         "draws the first segment")
        case Segment(first, second):
            gain = before.degree[first] + before.degree[second]
            said = (f"{who} drew {action.name()}: +{gain} for {offense} (offense: "
                    f"{before.degree[first]} at {label(first)} + {before.degree[second]} at {label(second)})")
        case _:
            said = f"{who}: {g.action_to_text(before, action)}"
    if after.round > before.round:
        result = after.history[-1]
        said += f"; round {before.round + 1} over: {offense} scored {result.points} on offense"
        if after.round < g.rounds:
            said += (f"; round {after.round + 1}: {g.seat_name(after.offense)} on offense, "
                     f"match {after.totals[0]}-{after.totals[1]}")
    return said


def breakdown(state: HubsState, figures: Figures) -> list[str]:
    """Points per round by role: who was on offense, what they scored, what the defense held them to."""
    g = state.game
    lines = []
    for i, r in enumerate(state.history):
        stalled = ", ended with no segment left to draw" if r.stalled else ""
        lines.append(f"Round {i + 1}: {g.seat_name(r.offense)} on offense scored {r.points} against "
                     f"{g.seat_name(1 - r.offense)}'s defense ({plural(r.segments, 'segment')}, at most {r.busiest} at a dot{stalled})")
    for seat in (0, 1):
        rounds = [r.points for r in state.history if r.offense == seat]
        lines.append(f"{g.seat_name(seat)}: " + " + ".join(str(p) for p in rounds or [0])
                     + f" = {state.totals[seat]} on offense")
    return lines
