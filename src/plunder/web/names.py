"""Display names of browsers, without accounts: a name is kept per seat token (by its SHA-256,
as seats keep tokens) and shown wherever a seat is named on the web: seats, verdicts, the
game log, my games and the lobby.

Names are untrusted input: :func:`normalise` bounds them (:data:`MAX_NAME_CHARS`), turns
control characters and runs of whitespace into one space, and refuses a name holding a
character that is not seen (:mod:`.visible`) or that could pass for an AI seat or the page's
own words ("hard AI", "You", "Player 2"), letter for letter or by looking alike
(:mod:`.lookalike`: "the hard АI" with a Cyrillic А); :func:`keep_name` also refuses one that
looks like another browser's (:func:`protected_names`). They are shown through Jinja's
autoescaping and the scripts' ``textContent`` only. How a seat is called from a
viewer's side ("You", "Anna", "the hard AI") is :class:`Callers`.
"""

from __future__ import annotations

import functools
import re
import time
import unicodedata
from dataclasses import dataclass
from typing import Iterable, Sequence

from markupsafe import escape
from sqlalchemy import Column, Float, String, Table, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from ..agents.levels import LEVELS
from .lookalike import likeness
from .passkeys import claimed_names, passkeys
from .store import AI, HUMAN, Store, metadata
from .visible import seen, unseen_refusal

#: most characters of a display name (after :func:`normalise`)
MAX_NAME_CHARS = 24
#: the words no name may contain (case-insensitive, as whole words): an AI seat is called
#: "the hard AI", and a name must not pass for one
RESERVED_WORDS = frozenset({"ai", "bot", "computer"})
#: names that are the page's own words for a seat
RESERVED_NAMES = re.compile(r"(you|me|chance|nobody|open seat|player \d+|seat \d+|guest-[0-9a-f]{4})", re.IGNORECASE)

names = Table(
    "names", metadata,
    # the SHA-256 of the seat token the name is for (:func:`plunder.web.store.token_hash`)
    Column("token", String(64), primary_key=True),
    Column("name", String(4 * MAX_NAME_CHARS), nullable=False),
    Column("updated", Float, nullable=False),
)


class NameRefused(ValueError):
    """A display name that breaks a rule of :func:`normalise` (the message says which)."""


def ai_name(level: str | None) -> str:
    """How an AI seat of ``level`` is called: ``the hard AI``."""
    return f"the {level or 'medium'} AI"


#: what no name may look like besides the AI levels' names and other people's: the page's
#: words for a seat, seat labels and seat numbers (up to :data:`NUMBERED` of them)
PAGE_WORDS = ("You", "Me", "Chance", "Nobody", "Open seat")
NUMBERED = 99


@functools.cache
def reserved_likeness() -> dict[str, str]:
    """The words :data:`RESERVED_WORDS` (each in its small, capital and title forms) by how
    they look (:func:`.lookalike.likeness`): ``al`` is ``AI`` with a small L."""
    return {likeness(form): word.upper() for word in RESERVED_WORDS for form in (word, word.upper(), word.title())}


@functools.cache
def page_likeness() -> dict[str, str]:
    """The page's own words for a seat (:data:`PAGE_WORDS`, ``Player 2``, ``Seat 2``) and the
    AI levels' names, by how they look."""
    said = [*PAGE_WORDS, *(ai_name(level) for level in LEVELS),
            *(f"{kind} {n}" for kind in ("Player", "Seat") for n in range(1, NUMBERED + 1))]
    return {likeness(w): w for w in said}


def normalise(text: str, own_default: str = "") -> str:
    """``text`` as a display name: Unicode NFC, control characters and runs of whitespace made
    one space, trimmed. :class:`NameRefused` when it holds a character that is not seen
    (:func:`.visible.unseen_refusal`: direction controls, zero widths, a lone surrogate), is
    empty, longer than :data:`MAX_NAME_CHARS`, or could be taken for an AI or the page's own
    words, letter for letter or by looking alike (:func:`.lookalike.likeness`); another
    browser's default name among them (``own_default``, the asker's own, may be kept). Whether
    it looks like another person's name is :func:`unlike`'s to say."""
    text = text[: 8 * MAX_NAME_CHARS + 1]
    # a control character or a separator (a tab, a newline, U+3000) is a space
    spaced = "".join(" " if unicodedata.category(c) in ("Cc", "Zs", "Zl", "Zp") else c for c in text)
    refusal = unseen_refusal(spaced, "A name")
    if refusal is not None:
        raise NameRefused(refusal)
    name = " ".join(unicodedata.normalize("NFC", spaced).split())
    if not any(seen(c) for c in name):
        raise NameRefused("A name needs at least one visible character.")
    if len(name) > MAX_NAME_CHARS:
        raise NameRefused(f"A name is at most {MAX_NAME_CHARS} characters; this one has {len(name)}.")
    words = set(re.findall(r"[^\W_]+", name.casefold()))
    if words & RESERVED_WORDS:
        raise NameRefused(f"A name may not contain the word {sorted(words & RESERVED_WORDS)[0].upper()}: "
                          "it would pass for an AI seat.")
    for word in re.findall(r"[^\W_]+", name):
        looks = reserved_likeness().get(likeness(word))
        if looks is not None:
            raise NameRefused(f"A name may not contain {word!r}: it looks like the word {looks}, "
                              "and would pass for an AI seat.")
    if RESERVED_NAMES.fullmatch(name) and name != own_default:
        raise NameRefused(f"{name!r} is a word the pages use for a seat; choose another name.")
    looks = page_likeness().get(likeness(name))
    if looks is not None:
        raise NameRefused(f"{name!r} looks like {looks!r}, the pages' word for a seat; choose another name.")
    return name


def protected_names(store: Store, asker: str | None = None) -> list[str]:
    """The names no other name may look like: the AI levels' (``the hard AI``), ``You``, and
    the chosen name of every identity claimed with a passkey (:mod:`.passkeys`) but the asker's
    (the token hash ``asker``), who may respell its own. A guest's name is not protected: two
    browsers may both be called Anna until one of them claims the name, as the name then
    stands for a person rather than a browser."""
    with store.engine.connect() as db:
        query = select(names.c.name).where(names.c.token.in_(select(passkeys.c.identity)))
        if asker is not None:
            query = query.where(names.c.token != asker)
        taken = [str(n) for (n,) in db.execute(query)]
    return [*(ai_name(level) for level in LEVELS), "You", *taken]


def unlike(name: str, protected: Iterable[str]) -> None:
    """:class:`NameRefused` when ``name`` looks like one of ``protected`` (:func:`protected_names`):
    the same letters, or letters that look the same (:func:`.lookalike.likeness`)."""
    mine = likeness(name)
    for other in protected:
        if likeness(other) == mine:
            same = "is" if other.casefold() == name.casefold() else "looks like"
            raise NameRefused(f"{name!r} {same} {other!r}, a name claimed here; "
                              "choose one that is told apart at a glance.")


def default_name(token: str) -> str:
    """The name of a browser that has not chosen one: ``Guest-`` and four hex digits of its
    token's hash (``token``)."""
    return f"Guest-{token[:4]}"


def names_of(store: Store, tokens: Iterable[str]) -> dict[str, str]:
    """The chosen names of the token hashes ``tokens`` (a token without one is left out)."""
    wanted = sorted(set(tokens))
    if not wanted:
        return {}
    with store.engine.connect() as db:
        rows = db.execute(select(names.c.token, names.c.name).where(names.c.token.in_(wanted)))
        return {str(t): str(n) for t, n in rows}


def name_of(store: Store, token: str | None) -> tuple[str, bool]:
    """The name of the token hash ``token`` and whether it was chosen (else the default)."""
    if token is None:
        return "", False
    found = names_of(store, [token]).get(token)
    return (found, True) if found is not None else (default_name(token), False)


def keep_name(store: Store, token: str, name: str) -> None:
    """Keep ``name`` (already :func:`normalise`\\ d) as the name of the token hash ``token``
    unless it looks like a name of :func:`protected_names` (:class:`NameRefused`)."""
    unlike(name, protected_names(store, token))
    set_name(store, token, name)


def set_name(store: Store, token: str, name: str) -> None:
    """Keep ``name`` (already :func:`normalise`\\ d) as the name of the token hash ``token``;
    a claimed identity's name is held anew in the same transaction (:func:`hold_name`), so
    two claimed identities renamed alike at the same moment are not both renamed."""
    now = time.time()
    with store.engine.begin() as db:
        done = db.execute(update(names).where(names.c.token == token).values(name=name, updated=now))
        if done.rowcount == 0:
            try:
                with db.begin_nested():
                    db.execute(insert(names).values(token=token, name=name, updated=now))
            except IntegrityError:  # set at the same moment by another request: the later wins
                db.execute(update(names).where(names.c.token == token).values(name=name, updated=now))
        if db.execute(select(claimed_names.c.identity).where(claimed_names.c.identity == token)).first() is not None:
            hold_name(db, token)


def hold_name(db: Connection, identity: str) -> None:
    """In the caller's transaction, hold the name ``identity`` has now (its default if none was
    chosen) as a claimed one: what it looks like is kept in :data:`.passkeys.claimed_names`,
    unique, so the database refuses a second claimed name that looks like it even when both
    are written at the same moment (by two processes); that refusal is :class:`NameRefused`
    naming the name it looks like. (:func:`unlike` refuses the same before a claim begins,
    in better time; this is what holds when two begin together.)"""
    name = db.execute(select(names.c.name).where(names.c.token == identity)).scalar() or default_name(identity)
    looks = likeness(str(name))
    try:
        with db.begin_nested():
            done = db.execute(update(claimed_names).where(claimed_names.c.identity == identity).values(likeness=looks))
            if done.rowcount == 0:
                db.execute(insert(claimed_names).values(identity=identity, likeness=looks))
    except IntegrityError:
        holder = db.execute(select(claimed_names.c.identity).where(claimed_names.c.likeness == looks)).scalar()
        if holder == identity:  # its own claim, made at the same moment (a second passkey)
            return
        other = db.execute(select(names.c.name).where(names.c.token == holder)).scalar() if holder else None
        unlike(str(name), [str(other or default_name(str(holder or "")))])
        raise NameRefused(f"{str(name)!r} looks like a name claimed here a moment ago; "
                          "choose one that is told apart at a glance.") from None


@dataclass(frozen=True)
class SeatWho:
    """What :class:`Callers` needs of a seat: its kind (``human``/``ai``/``open``), the hash of
    its token, its AI level and the rules' label for it (``Player 2``)."""

    kind: str
    token: str | None
    level: str | None
    label: str


class Callers:
    """How the seats of one game are called: by their players' names (a person), ``the hard AI``
    (an AI seat), their label (an open seat, or two seats that would be called alike), and
    ``You`` from the side of a viewer holding just that seat. A finished game's seats are called
    by the names they were ``played`` under (:mod:`.outcomes`), whatever their players chose since."""

    def __init__(self, seats: Sequence[SeatWho], chosen: dict[str, str], played: Sequence[str] | None = None) -> None:
        self.labels = [s.label for s in seats]
        if played is not None and len(played) == len(seats):  # a finished game's, as it was played
            self.names = list(played)
        else:
            self.names = self.called(seats, chosen)
        renamed = sorted({label for label, name in zip(self.labels, self.names) if label != name}, key=len, reverse=True)
        # labels longest first, so "Player 1" never eats into "Player 10"; None: nothing to put
        self._labels = re.compile("|".join(rf"\b{re.escape(k)}\b" for k in renamed)) if renamed else None

    @staticmethod
    def called(seats: Sequence[SeatWho], chosen: dict[str, str]) -> list[str]:
        """Each seat's name as :class:`Callers` calls it, from the chosen names by token hash."""
        called = []
        for s in seats:
            if s.kind == HUMAN and s.token is not None:
                called.append(chosen.get(s.token) or default_name(s.token))
            elif s.kind == AI:
                called.append(ai_name(s.level))
            else:
                called.append(s.label)
        # two seats called alike (two hard AIs, a hotseat) are told apart by their labels
        return [c if called.count(c) == 1 or c == s.label else f"{c} ({s.label})" for c, s in zip(called, seats)]

    def third(self, seat: int) -> str:
        """Seat ``seat`` as anyone calls it (``Anna``, ``the hard AI``)."""
        return self.names[seat]

    def of(self, seat: int, you: frozenset[int]) -> str:
        """Seat ``seat`` from the side of a viewer acting for ``you``: ``You`` for its one seat."""
        return "You" if you == {seat} else self.names[seat]

    def told(self, text: str, html: bool = False) -> str:
        """A log line or caption of the rules with each seat's label (``Player 2``) put as its
        name; ``html``: ``text`` is HTML, and the names are put in escaped."""
        if self._labels is None:
            return text
        pairs = {label: str(escape(name)) if html else name for label, name in zip(self.labels, self.names)}
        pattern = self._labels

        def put(match: re.Match[str]) -> str:
            name = pairs[match.group(0)]
            # a sentence starts here: the text's start, or after a stop, a dash or a tag (HTML)
            before = text[max(0, match.start() - 3): match.start()].rstrip()
            start = match.start() == 0 or before.endswith((".", ":", "!", "?", "—", ">"))
            return capital(name) if start else name
        return pattern.sub(put, text)

    def verdict(self, returns: Sequence[float], you: frozenset[int]) -> str:
        """Who won, from the viewer's side: ``You win``, ``Anna wins``, ``You lost to the hard
        AI``, ``Anna and the easy AI win``, ``A tie`` (several seats; a solitaire keeps the
        rules' words)."""
        best = max(returns)
        winners = [i for i, r in enumerate(returns) if r == best and r > 0]
        if not winners:
            return "A tie"
        if len(you) == 1 and not you & set(winners):
            return f"You lost to {' and '.join(self.third(i) for i in winners)}"
        said = [self.of(i, you) for i in winners]
        plural = len(winners) > 1 or said == ["You"]
        return capital(f"{' and '.join(said)} win{'' if plural else 's'}")

    def resigned(self, seat: int, others: Sequence[int], you: frozenset[int]) -> str:
        """``Anna resigned: you win`` / ``You resigned: the hard AI wins``."""
        said = f"{self.of(seat, you)} resigned"
        if len(others) == 1:
            winner = self.of(others[0], you)
            said += f": {'you win' if winner == 'You' else winner + ' wins'}"
        return said


def capital(text: str) -> str:
    """``text`` with its first letter a capital (``the hard AI`` starts a sentence as ``The hard AI``)."""
    return text[:1].upper() + text[1:]
