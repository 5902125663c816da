"""Pillage and Profit in plain words: one screen on how to play and how to win (``plunder rules``).

The full rules, with the rulings, are in ``docs/rules/pillage.md``.
"""

HOW_TO_PLAY = """\
Pillage and Profit: Dots and Boxes where every box holds a prize. 2 players.

The board is a grid of dots. Each box between them holds one prize:
  doubloons (3)        worth that many doubloons to whoever takes the box;
  a commodity (food)   one item, worth the commodity's value at the end;
  a modifier (-5 f/w)  changes a commodity's value for both players.

On your turn, draw one line between two neighbouring dots: type a1-b1.
If your line closes a box (or two), you take them and draw again;
otherwise the turn passes. You never have to take a box.
When you take a modifier you choose what it does, e.g. -5 food or +2 armor;
if one line takes two modifiers, you choose which to use first. The legend
shows each commodity's value now; modifiers move it up or down, even below 0.

The game ends when every line is drawn. Score: your doubloons plus each
commodity you hold times its final value. Higher wins; equal scores tie.
Tips: count the boxes a line would give away before you draw it, and watch
the legend: ten food are worth nothing if food has been cut to zero.
Type 'moves' to list the lines with what each would take, 'hint' for help.
"""
