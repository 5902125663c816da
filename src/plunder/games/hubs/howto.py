"""Hubs' how-to page for a browser (:mod:`plunder.core.howto`): placing dots, a segment that
scores, and a round's end, each drawn from a seeded game."""

from __future__ import annotations

from ...core.howto import HowToSection, Position, seek
from .actions import Dot, Segment
from .rules import HubsGame

#: the games the pictures come from
SEED = 4
#: the dot the placing picture shows going down
PLACED = 6


def sections() -> list[HowToSection]:
    """How to play Hubs, with pictures of the default sheet."""
    game = HubsGame.load()
    start = Position(game.new_initial_state())
    place = seek(start, SEED, lambda s, a, t: isinstance(a, Dot) and len(s.dots) == PLACED)
    hub = seek(start, SEED, lambda s, a, t: isinstance(a, Segment)
                               and s.degree[a.first] + s.degree[a.second] >= 3)
    end = seek(start, SEED, lambda s, a, t: t.round > s.round)
    return [
        HowToSection("Placing dots", (
            f"Hubs is a game of dots and segments for 2 players, played over {game.rounds} rounds on a "
            f"fresh sheet each round; you take turns being offense, and Player 1 is offense first.",
            f"Each round starts with the players taking turns to click a free point of the sheet to put "
            f"a dot there, defense first, until all {game.dots} dots are down. Dots are labelled a, b, "
            "c ... in the order they are placed.",
        ), place),
        HowToSection("Drawing segments and scoring", (
            "Then the players take turns joining two dots with a straight segment, defense first: "
            "click one dot, then the other, or use the buttons of the best segments. A segment may not "
            "cross, overlap or touch another segment (segments meet only at a shared dot), pass over "
            "any other dot, or join a pair twice.",
            "Every segment, whoever draws it, scores for the offense the number of segments already at "
            "its two dots: each dot shows that number. So the offense builds hubs, dots with many "
            "segments, and the defense joins quiet dots and blocks the way to the hubs.",
        ), hub),
        HowToSection("The end of a round and of the match", (
            "A round ends when every dot has two segments, or when no segment can be drawn. After "
            "the last round the higher total wins; equal totals tie.",
        ), end),
    ]
