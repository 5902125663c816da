"""The 52 cards of Profiteer, their notation and card sets kept as bitmasks (PF-1).

A card is an int ``0..51``: ``rank * 4 + suit`` with ranks ``2 < 3 < ... < 10 < J < Q
< K < A`` (0..12) and suits C, D, H, S. Suits never matter to the rules (PF-1); they
only give every physical card its own name, so a card can be followed from pile to pile
and the 52 can be counted. Piles whose order is not decided are sets, held as 52-bit
ints: a bit per card, so set operations are single int operations and states hash fast.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Iterator

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")
#: every card of the deck, as a set
FULL_DECK = (1 << 52) - 1

_RANK_INDEX = {name: i for i, name in enumerate(RANKS)}
_RANK_INDEX["T"] = _RANK_INDEX["10"]
_RANK_INDEX["1"] = _RANK_INDEX["A"]
_SUIT_INDEX = {name: i for i, name in enumerate(SUITS)}
_SUIT_INDEX.update({"♣": 0, "♦": 1, "♥": 2, "♠": 3})


class Rank(IntEnum):
    """A card's rank, 0 (two) .. 12 (ace): the only thing about a card the rules look at (PF-1)."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    def text(self) -> str:
        """``2`` .. ``10``, ``J``, ``Q``, ``K``, ``A``."""
        return RANKS[self]


def rank(card: int) -> int:
    """Rank 0 (two) .. 12 (ace) of ``card``."""
    return card >> 2


def lowest_of_rank(mask: int, r: int) -> int:
    """The card of rank ``r`` in a set with the lowest suit (C < D < H < S, as PF-11), or -1."""
    nibble = mask >> (4 * r) & 15
    return 4 * r + (nibble & -nibble).bit_length() - 1 if nibble else -1


_RANKS = tuple(Rank)


def ranks_of(mask: int) -> Iterator[Rank]:
    """The ranks a set holds a card of, lowest first."""
    r = 0
    while mask:
        if mask & 15:
            yield _RANKS[r]
        mask >>= 4
        r += 1


def card_text(card: int) -> str:
    """Canonical name such as ``QS`` or ``10H``."""
    return RANKS[card >> 2] + SUITS[card & 3]


def rank_text(r: int) -> str:
    """Name of a rank: ``2`` .. ``10``, ``J``, ``Q``, ``K``, ``A``."""
    return RANKS[r]


def parse_rank(text: str) -> Rank:
    """Read ``K``, ``10``, ``T`` or ``q``; raise ``ValueError`` saying what is wrong."""
    r = text.strip().upper()
    if r not in _RANK_INDEX:
        raise ValueError(f"{text!r} is not a rank (2-10, J, Q, K, A)")
    return Rank(_RANK_INDEX[r])


def parse_card(text: str) -> int:
    """Read ``QS``, ``10h``, ``TD`` or ``Q♠``; raise ``ValueError`` saying what is wrong."""
    t = text.strip().upper()
    if len(t) < 2:
        raise ValueError(f"{text!r} is not a card: write rank then suit, like QS or 10H")
    r, s = t[:-1], t[-1]
    if r not in _RANK_INDEX:
        raise ValueError(f"{r!r} is not a rank (2-10, J, Q, K, A)")
    if s not in _SUIT_INDEX:
        raise ValueError(f"{s!r} is not a suit (C, D, H, S)")
    return _RANK_INDEX[r] * 4 + _SUIT_INDEX[s]


def cards_of(mask: int) -> Iterator[int]:
    """The cards of a set, lowest first (lowest rank first, PF-1)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def card_list(mask: int) -> list[int]:
    """The cards of a set as a list, lowest first."""
    return list(cards_of(mask))


def nth_card(mask: int, i: int) -> int:
    """The ``i``-th card (from 0, lowest first) of a set; the set must hold more than ``i``.

    Walks a rank (4 bits) at a time rather than card by card: the fast path's hot spot.
    """
    base = 0
    while True:
        nib = mask & 15
        n = nib.bit_count()
        if i < n:
            for _ in range(i):
                nib &= nib - 1
            return base + (nib & -nib).bit_length() - 1
        i -= n
        mask >>= 4
        base += 4


def lowest(mask: int, n: int) -> int:
    """The ``n`` lowest cards of a set (by rank; among equal ranks by suit, PF-11)."""
    out = 0
    while n > 0 and mask:
        low = mask & -mask
        out |= low
        mask ^= low
        n -= 1
    return out


def mask_text(mask: int) -> str:
    """The cards of a set, lowest first, space separated (``-`` for none)."""
    return " ".join(card_text(c) for c in cards_of(mask)) or "-"


def parse_cards(text: str) -> int:
    """Read a space separated list of cards into a set (``-`` for none)."""
    out = 0
    for part in text.split():
        if part == "-":
            continue
        c = parse_card(part)
        if out >> c & 1:
            raise ValueError(f"card {card_text(c)} is listed twice")
        out |= 1 << c
    return out
