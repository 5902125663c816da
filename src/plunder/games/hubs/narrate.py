"""Hubs in a player's words: what a dot or a segment did, and the match taken apart by round."""

from __future__ import annotations

from ...core.tallies import Stats, item_counts
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
        result = after.last_round
        assert result is not None
        said += f"; round {before.round + 1} over: {offense} scored {result.points} on offense"
        if after.round < g.rounds:
            said += (f"; round {after.round + 1}: {g.seat_name(after.offense)} on offense, "
                     f"match {after.totals[0]}-{after.totals[1]}")
    return said


def breakdown(state: HubsState, stats: Stats) -> list[str]:
    """Points per round by role: who was on offense, what they scored, what the defense held them
    to. The rounds one by one are the observer's (``HubsObserver.breakdown_figures``): a position
    keeps only the round just finished; without them the totals alone are told."""
    g = state.game
    points, segments, busiest, stalled = (item_counts(stats, f"round_{name}")
                                          for name in ("points", "segments", "busiest", "stalled"))
    told = len(points) == len(segments) == len(busiest) == len(stalled) == state.round
    lines = []
    for i, (p, n, most, stuck) in enumerate(zip(points, segments, busiest, stalled) if told else ()):
        offense = g.offense(i)
        end = ", ended with no segment left to draw" if stuck else ""
        lines.append(f"Round {i + 1}: {g.seat_name(offense)} on offense scored {p} against "
                     f"{g.seat_name(1 - offense)}'s defense ({plural(n, 'segment')}, at most {most} at a dot{end})")
    for seat in (0, 1):
        rounds = [p for i, p in enumerate(points) if g.offense(i) == seat]
        parts = " + ".join(str(p) for p in rounds or [0]) + " = " if told else ""
        lines.append(f"{g.seat_name(seat)}: {parts}{state.totals[seat]} on offense")
    return lines
