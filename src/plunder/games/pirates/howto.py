"""Piece Packing Pirates' how-to page for a browser (:mod:`plunder.core.howto`): weighing
anchor, sailing, a fight, burying booty and the score, each drawn from a seeded game of the
greedy captain."""

from __future__ import annotations

from ...core.howto import HowToSection, Position, seek
from .actions import Bury, Dice, Place, Sail
from .agents import GreedyCaptain
from .flow import fight_outcome
from .rules import Phase, PiratesGame
from .tables import HOLD

#: the games the pictures come from
SEED = 2


def sections() -> list[HowToSection]:
    """How to play Piece Packing Pirates, with pictures of the default sea."""
    game = PiratesGame.load()
    start = Position(game.new_initial_state())
    captain = GreedyCaptain()
    place = seek(start, SEED, lambda s, a, t: isinstance(a, Place), captain.choose)
    sail = seek(start, SEED, lambda s, a, t: isinstance(a, Sail) and s.turn > 1, captain.choose)
    fight = seek(start, SEED, lambda s, a, t: isinstance(a, Dice) and s.phase is not Phase.START
                 and fight_outcome(s, a.suns, a.arms) == 1, captain.choose)
    bury = seek(start, SEED, lambda s, a, t: isinstance(a, Bury), captain.choose)
    return [
        HowToSection("Setting out", (
            "Piece Packing Pirates is a game for one: sail, fight, bury booty and retire rich. Two dice "
            "give you 5 to 15 booty to start; with the buttons, buy a ship and its crew (bigger ships "
            "need more crew). Then click a sea space next to land to weigh anchor there: its tile turns "
            "face up and you choose its wind by clicking one of the arrows.",
        ), place),
        HowToSection("Sailing", (
            "Each turn, click the highlighted spaces to sail up to two steps north, east, south or west "
            "(one 90-degree turn, no reversing) and one diagonal step with the wind of the tile you are "
            "on. Entering a face-down tile turns it up; entering an empty new tile rolls the lookout, "
            "and at or under the tile's value a ship is sighted. When you stop, nearby ships sail: "
            "smaller ones (ringed green) flee, bigger ones (ringed red) chase you.",
        ), sail),
        HowToSection("Fights", (
            "Sail onto a ship, or be caught by one, and you fight: your ship + crew + the arms die against "
            "its ship + your notoriety + the suns die. Win and your notoriety rises by 1 and you take "
            "booty: arms x (their ship + suns) - your crew. Lose and you lose 1 notoriety, 1 crew and "
            "booty up to the suns die. Lose your last crew and you must buy a new ship and crew at the "
            "refit; if you cannot pay, you drown at the end of the turn.",
        ), fight),
        HowToSection("Burying booty and the score", (
            f"After sailing, click land next to your ship to bury booty there, or dig it up again later "
            f"from the sea next to the chest. There is one chest only: burying somewhere else loses the "
            f"booty in the old one. Your ship holds {HOLD} booty; the rest is lost. Then refit (to any "
            "ship, even a smaller one, or with more crew) or keep your ship, and go on or retire: you "
            "must retire after 20 turns.",
            "Your score is ship x crew + buried x aboard x notoriety + turns completed, and 100 points "
            "is a win. Nothing buried means your booty aboard scores nothing!",
        ), bury),
    ]
