"""Piece Packing Pirates in plain words: one screen on how to play and how to win (``plunder rules``).

The full rules, with the rulings, are in ``docs/rules/pirates.md``.
"""

HOW_TO_PLAY = """\
Piece Packing Pirates: sail, fight, bury booty, retire rich. 1 player.
Start: two dice give you 5-15 booty; buy a ship and crew (buy ketch 3),
then place your ship next to land (place 3,4). Face-down sea tiles flip as
you enter them; you choose their wind (wind NE). Each turn, in order:
 1 Sail up to two steps N/E/S/W (one 90-degree turn, no reversing) plus one
   diagonal step with the wind (type e, n, ne ...; stop to end). Entering an
   empty new tile rolls the lookout: at or under its value a ship appears.
 2 Nearby ships sail: smaller ones flee, bigger ones chase you.
 3 Bury booty in land next to you (bury 10 at 4,5) or dig some up (retrieve
   5). One chest only: burying elsewhere loses the booty in the old one.
 4 Refit: any ship, even a smaller one, or more crew (buy brig 5); or keep.
 5 Go on, or retire: you must after turn 20.
Fights: you roll ship + crew + arms die against their ship + your
notoriety + suns die. Win: notoriety +1, booty = arms x (their ship + suns)
- crew. Lose: notoriety -1, crew -1, booty - suns die. A ship holds 50 booty.
Score = ship x crew + buried x aboard x notoriety + turns completed; 100
points is a win. Nothing buried means your booty aboard scores 0! Lost your
last crew (and so your sloop)? Buy a new ship and crew in the refit; only
if you cannot pay do you drown at the end of the turn.
"""
