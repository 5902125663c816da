"""Crossroads in plain words: one screen on how to play and how to win (``plunder rules``).

The full rules, with the rulings, are in ``docs/rules/crossroads.md``.
"""

HOW_TO_PLAY = """\
Crossroads: build, trade, and be first to 100 gold. 2-6 players.
The 10x10 board has columns A-J and rows 1-10; both edges are labelled 1-5
twice. Each player rolls for a first city (place D4) and starts with 0 gold.
A round: every player takes a turn, then everyone trades.
Your turn: roll two dice (1-5). If they differ, choose which is the column
(col 2 row 3). The four cells whose labels match are activated and pay:
  a city: its owner +5;  an empty cell: +3 to each city touching it;
  a road: +1 to every city that could trade directly with it.
Then build while your gold lasts (road E4: 3 gold; city D3: 10); say done.
  A road: an empty cell linked to your city, touching no rival's city.
  A city: beside a road, linked to one of your cities, touching no city.
Trading: players whose cities are linked by roads may trade. A trade makes
3 new gold, split as the offer says (offer D3-H8 gold 2/1); the partner
accepts or rejects. A route through a third player's city needs their
consent; they may demand a fee (demand 2), paid out of the proposer's share
first. Each city trades once a round; each player offers 3 times at most,
says pass when out of offers, and trading ends when all pass in a row.
At a round's end, whoever has 100 gold or more wins (the richest); a tie at
the top plays another round. After 200 rounds the game ends: the richest win.
"""
