"""The piecepack as Piece Packing Pirates uses it: ship types, prices, coins, tiles, dice."""

from __future__ import annotations

from functools import lru_cache

#: ship names by coin value (null = 0 ... five = 5)
SHIP_NAMES: tuple[str, ...] = ("sloop", "ketch", "brig", "frigate", "galleon", "line")
#: ship prices in booty, by value (PR-9)
SHIP_PRICE: tuple[int, ...] = (2, 5, 8, 13, 21, 34)
#: fewest crew that can sail each ship type
MIN_CREW: tuple[int, ...] = (1, 3, 4, 5, 7, 9)
#: most crew each ship type can carry
MAX_CREW: tuple[int, ...] = (3, 5, 6, 7, 9, 10)
#: booty per crew (PR-9)
CREW_PRICE = 3
#: what a shipless pirate has, in place of a ship value
NO_SHIP = -1
#: the most booty a ship carries after the bury step (PR-8)
HOLD = 50

#: coin suits in the bag (the moons coins are the pirate's ships on the mat)
COIN_SUITS: tuple[str, ...] = ("arms", "crowns", "suns")
#: tile suits: every suit of the piecepack
TILE_SUITS: tuple[str, ...] = ("suns", "moons", "crowns", "arms")
#: value words of the piecepack
VALUE_NAMES: tuple[str, ...] = ("null", "ace", "2", "3", "4", "5")

#: number of coins in the bag at the start (three suits of six)
NUM_COINS = len(COIN_SUITS) * 6
#: number of tile identities (four suits of six)
NUM_TILE_FACES = len(TILE_SUITS) * 6


def ship_name(value: int) -> str:
    """The ship type of a coin value, or ``none`` for a shipless pirate."""
    return "none" if value == NO_SHIP else SHIP_NAMES[value]


def coin_value(coin: int) -> int:
    """The ship size (coin value) of bag coin ``coin`` (0..17)."""
    return coin % 6


def coin_suit(coin: int) -> str:
    """The flag (suit) of bag coin ``coin``."""
    return COIN_SUITS[coin // 6]


def coin_name(coin: int) -> str:
    """Canonical text of a coin, e.g. ``suns-brig``."""
    return f"{coin_suit(coin)}-{SHIP_NAMES[coin_value(coin)]}"


def coin_from_name(text: str) -> int:
    """Read ``suns-brig`` back into a coin id; ``ValueError`` if it is not a coin."""
    suit, dash, ship = text.partition("-")
    if not dash or suit not in COIN_SUITS or ship not in SHIP_NAMES:
        raise ValueError(f"{text!r} is not a ship coin like suns-brig (suits {', '.join(COIN_SUITS)})")
    return COIN_SUITS.index(suit) * 6 + SHIP_NAMES.index(ship)


def face_value(face: int) -> int:
    """The value of tile identity ``face`` (0..23): its sighting threshold."""
    return face % 6


def face_name(face: int) -> str:
    """Canonical text of a tile identity, e.g. ``arms-4`` (value 0 is ``null``, 1 ``ace``)."""
    return f"{TILE_SUITS[face // 6]}-{VALUE_NAMES[face % 6]}"


def face_from_name(text: str) -> int:
    """Read ``arms-4`` back into a tile identity; ``ValueError`` otherwise."""
    suit, dash, value = text.partition("-")
    if not dash or suit not in TILE_SUITS or value not in VALUE_NAMES:
        raise ValueError(f"{text!r} is not a tile like arms-4 (values {', '.join(VALUE_NAMES)})")
    return TILE_SUITS.index(suit) * 6 + VALUE_NAMES.index(value)


def ship_for_crew(ship: int, crew: int) -> int:
    """The ship left after the crew shrinks to ``crew`` (PR-6): the largest type it can sail.

    A crew below a sloop's minimum leaves the pirate shipless (no refund).
    """
    while ship >= 0 and crew < MIN_CREW[ship]:
        ship -= 1
    return ship


def refit_cost(old_ship: int, old_crew: int, ship: int, crew: int) -> int | None:
    """Booty a refit to ``ship`` with ``crew`` costs, or ``None`` if the rules forbid it (PR-9).

    The old ship is traded in at full value but no change is given, and crew are
    never dismissed; the crew must fit the new ship's minimum and maximum.
    """
    if crew < old_crew or not MIN_CREW[ship] <= crew <= MAX_CREW[ship]:
        return None
    trade_in = SHIP_PRICE[old_ship] if old_ship >= 0 else 0
    return max(0, SHIP_PRICE[ship] - trade_in) + CREW_PRICE * (crew - old_crew)


@lru_cache(maxsize=None)
def combat_odds(strength: int, enemy: int, notoriety: int) -> tuple[float, float, float]:
    """(P(win), P(lose), expected booty change) of one combat, before the crew share.

    ``strength`` is ship + crew. The expected booty is gross, summed only over the
    winning rolls (arms x (enemy + suns)); callers subtract the crew share.
    """
    win = lose = 0
    gain = 0.0
    for suns in range(6):
        for arms in range(6):
            mine, theirs = strength + arms, enemy + notoriety + suns
            if mine > theirs:
                win += 1
                gain += arms * (enemy + suns)
            elif mine < theirs:
                lose += 1
    return win / 36, lose / 36, gain / 36
