"""What a game says it is, before any of it is played (OpenSpiel's ``GameType``).

Every layer reads a game's nature from its :class:`Declaration` rather than guessing it from
the rules: the web app's seat choices and cards, the OpenSpiel adapter's game type, the
default opponent of ``plunder play``, the lab's checks. The registry checks the declaration
against the rules when the game is loaded (:func:`plunder.core.registry.entry`).
"""

from __future__ import annotations

from dataclasses import dataclass

#: the parameter that sets the number of seats of a game whose seat range is wider than one count
PLAYERS_PARAM = "players"
#: where a game that gives no :attr:`Declaration.order` stands: after those that give one
DEFAULT_ORDER = 1000


@dataclass(frozen=True)
class Declaration:
    """A game's nature: how many seats it takes, whether chance or hidden information play a
    part, whether its returns sum to zero, and where it stands in lists of games.

    A game whose seat range holds more than one count chooses it by its ``players`` parameter
    (:data:`PLAYERS_PARAM`)."""

    #: fewest seats a game of it can have
    min_seats: int
    #: most seats a game of it can have
    max_seats: int
    #: whether chance acts in some game of it (a state whose ``current_player`` is ``CHANCE``)
    chance: bool
    #: whether a seat may see less of a position than another (every Plunder game: no; a state
    #: never holds a secret, what is hidden is not yet decided)
    hidden_information: bool = False
    #: whether every finished game's returns sum to zero
    zero_sum: bool = False
    #: where the game stands in lists of games (``plunder list``, the web app's home page):
    #: lower first, ties by id
    order: int = DEFAULT_ORDER

    def __post_init__(self) -> None:
        if not 1 <= self.min_seats <= self.max_seats:
            raise ValueError(f"a seat range runs from at least 1 to at least its start; got "
                             f"{self.min_seats}-{self.max_seats}")

    @property
    def solitaire(self) -> bool:
        """Whether the game is played alone (one seat)."""
        return self.max_seats == 1

    @property
    def seat_counts(self) -> range:
        """Every number of seats a game of it may have."""
        return range(self.min_seats, self.max_seats + 1)

    def seats_text(self) -> str:
        """The seat range as a reader sees it: ``1 player``, ``2 players``, ``2–6 players``."""
        if self.min_seats == self.max_seats:
            return "1 player" if self.min_seats == 1 else f"{self.min_seats} players"
        return f"{self.min_seats}–{self.max_seats} players"
