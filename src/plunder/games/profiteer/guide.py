"""Profiteer in plain words: one screen on how to play and how to win (``plunder rules``).

The full rules, with the rulings, are in ``docs/rules/profiteer.md``.
"""

HOW_TO_PLAY = """\
Profiteer: profit from both sides of a game of War. 1 player.

You draw 10 cards and keep the best 8 as resources; the other 44 cards are
split between side A and side B. Then the sides play War:
 - Each flip, both sides turn up a card. Before it counts you may switch ONE
   of them for a higher resource card (type switch A K); the card you take
   goes to your pile. Or let it stand (keep).
 - The higher card takes both into its side's pile. Equal cards mean War:
   each side plays a card face down and one face up, and EVERY face-down card
   goes to you. A tie again means another war. A war that runs out of cards:
   both sides shuffle their own piles in to finish it; then the pass ends.
 - When the decks run out, the sides' piles are counted. Equal: play another
   pass (you shuffle your pile and draw a new hand). Unequal: you may give
   resource cards to the smaller side until they match (give 7), or end.
   If you cannot make them equal, the game is over; so it is when a side has
   no cards left, or after 100 passes. Suits never matter.
You win with 26 cards or more (your pile plus resources) when the game ends.
So: cause wars to collect cards, but keep the sides' piles even or the game
stops. Type 'moves' to list your choices, 'hint' for help.
"""
