"""Hubs in plain words: one screen on how to play and how to win (``plunder rules``).

The full rules, with the rulings, are in ``docs/rules/hubs.md``.
"""

HOW_TO_PLAY = """\
Hubs: dots and segments, offense and defense. 2 players.

The match has an even number of rounds (2 by default); you take turns being
offense. Player 1 is offense in round 1.
Each round, on a fresh sheet:
 1 Place dots: the players take turns putting one dot on a free point of the
   grid (type 12,30), defense first, until all the round's dots are down.
   Dots are labelled a, b, c ... in the order they are placed.
 2 Join dots: the players take turns drawing one straight segment between two
   dots (type c-k), defense first. A segment may not cross, overlap or touch
   another segment (segments meet only at a shared dot), pass over any other
   dot, or join a pair twice.
Scoring: every segment, whoever draws it, gives the OFFENSE the number of
segments already at its two ends. So offense builds hubs - dots with many
segments - and defense joins quiet dots and blocks the way to the hubs.
The round ends when every dot has two segments, or no segment can be drawn.

The highest total over all rounds wins; equal totals tie.
Type 'moves' to list segments with their points, 'hint' for help.
"""
