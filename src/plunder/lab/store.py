"""A results store: one SQLite row per game played, so runs resume and data scientists can read them.

Open it with any SQLite client (``sqlite3 lab.sqlite 'select * from games limit 5'``) or
``pandas.read_sql``, or export it (``plunder export``, :mod:`.export`). A run is named by (game,
canonical parameters, agents, base seed); game ``i`` of a run used seed ``base + i``. Lists and
mappings are stored as canonical JSON text.

Every row also says how it was made: the exact code (:func:`provenance.code`: Plunder's version,
git commit and sources' hash, and an outside game's package), each agent's full options with the
defaults filled in, the time and the command; and carries a checksum of all that. A row is
reused only when its checksum holds, it was made by this code with these agents' options, and it
is plausible (as many seats, returns and scores as the game has players, the seats rotated as
the runner seats them, the seed ``base + index``, finite numbers, and whatever the game's own
check, ``GameEntry.study.plausibility``, knows its rules bound); any other row is played again,
with a warning saying how many and why: which code or which agent's options made it, or the
check that failed. A file written before rows carried their version is refused.

The checksum guards against accidents (a row edited by hand or another tool, a file half
written), not against a forger: it is a plain SHA-256 that anyone can recompute.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..agents import agent_options
from ..core.errors import ParameterError, quoted
from ..core.files import canonical_json
from ..core.options import writable_file
from ..core.plausibility import is_number
from ..core.registry import entry, load_game
from ..simulate import GameResult, seating
from . import provenance

SCHEMA = """
create table if not exists games (
    game text not null,
    params text not null,
    agents text not null,
    base_seed integer not null,
    game_index integer not null,
    seed integer not null,
    seats text not null,
    returns text not null,
    scores text not null,
    stats text not null,
    version text not null,
    git_commit text not null,
    agent_options text not null,
    played_at text not null,
    command text not null,
    checksum text not null,
    primary key (game, params, agents, base_seed, game_index)
)
"""

#: the columns a row's checksum covers, in order (all but the checksum)
CHECKED = ("game", "params", "agents", "base_seed", "game_index", "seed", "seats", "returns", "scores", "stats",
           "version", "git_commit", "agent_options", "played_at", "command")


def checksum(values: Sequence[Any]) -> str:
    """The SHA-256 of a row's :data:`CHECKED` columns, as canonical JSON (no key: it finds
    accidental changes, and anyone may recompute it)."""
    return hashlib.sha256(canonical_json(list(values)).encode("utf-8")).hexdigest()


def warn_stderr(message: str) -> None:
    """Say ``message`` on standard error (a store's default way to warn)."""
    print(f"warning: {message}", file=sys.stderr)


@dataclass(frozen=True)
class Run:
    """Which games a row belongs to: the game, its canonical parameters, the agents, the base seed."""

    game: str
    params: dict[str, str]
    agents: tuple[str, ...]
    seed: int

    def key(self) -> tuple[str, str, str, int]:
        """The row columns naming this run."""
        return (self.game, canonical_json(self.params), canonical_json(list(self.agents)), self.seed)


@dataclass(frozen=True)
class Row:
    """One stored game."""

    index: int
    seed: int
    seats: list[str]
    returns: list[float]
    scores: list[float]
    stats: dict[str, Any]


class Store:
    """The SQLite file of a lab's games; every write commits, so an interrupted run keeps its games."""

    def __init__(self, path: str | Path, command: str | None = None,
                 warn: Callable[[str], None] = warn_stderr) -> None:
        """Open (or create) the store at ``path``: a regular file (or a new one) holding a SQLite
        database; anything else (a FIFO, a device, another kind of file) or a file of an earlier
        layout is refused with a :class:`ParameterError`. ``command`` is recorded with every row
        written (default: this process's command line); ``warn`` hears of rows not reused."""
        self.path = Path(path)
        self.command = provenance.command() if command is None else command
        self.warn = warn
        self.commit = provenance.commit()
        self._options: dict[tuple[str, str, str, int], str] = {}
        self._codes: dict[str, str] = {}
        self._checking: tuple[tuple[str, str, str, int] | None, Check | None] = (None, None)
        writable_file(self.path, "results file")
        try:
            self.db = sqlite3.connect(self.path)
        except sqlite3.Error as exc:
            raise ParameterError(f"results file {quoted(str(self.path))} cannot be opened: {exc}") from None
        try:
            self.db.execute(SCHEMA)
            self.db.commit()
            columns = {row[1] for row in self.db.execute("pragma table_info(games)")}
        except sqlite3.Error as exc:
            self.db.close()
            raise ParameterError(f"results file {quoted(str(self.path))} is not a SQLite results file of Plunder's "
                                 f"or cannot be written ({exc})") from None
        if not set(CHECKED) <= columns:
            self.db.close()
            raise ParameterError(f"results file {quoted(str(self.path))} was written by an earlier Plunder whose rows "
                                 "do not record their version: give a new file (--store or --out)")

    def close(self) -> None:
        """Close the file."""
        self.db.close()

    def _stored(self, run: Run, games: int | None = None) -> list[tuple[Any, ...]]:
        """The run's rows (all columns, checksum last) with index below ``games`` (all if None)."""
        cur = self.db.execute(
            f"select {', '.join(CHECKED)}, checksum from games where game=? and params=? and agents=? "
            "and base_seed=? and game_index<? order by game_index", (*run.key(), 2 ** 62 if games is None else games))
        return list(cur)

    def code(self, run: Run) -> str:
        """The exact code that plays ``run`` here (:func:`provenance.code`, with the game's own
        package when it comes from outside Plunder), stored in every row's ``version``."""
        if run.game not in self._codes:
            try:
                package = entry(run.game).game_class.__module__.partition(".")[0]  # builds no game
            except ParameterError:  # a game not installed (plunder export): Plunder's code alone
                package = None
            self._codes[run.game] = provenance.code(package)
        return self._codes[run.game]

    def verdict(self, run: Run, row: Sequence[Any], made_here: bool = True) -> tuple[str, str]:
        """Why a stored row (its :data:`CHECKED` columns, then its checksum) may not be reused, and
        in words: ``("", "")`` when it may, else ``checksum``; ``code`` (made by other code, which);
        ``agents`` (made with other agent options, whose); or ``implausible`` with the check that
        failed (:func:`implausibility`). ``made_here`` False leaves out the code and the options (an
        export keeps rows of other code: each says its own)."""
        at = CHECKED.index
        if checksum(row[:-1]) != row[-1]:
            return "checksum", ""
        if made_here:
            if row[at("version")] != self.code(run):
                return "code", str(row[at("version")])
            changed = other_options(str(row[at("agent_options")]), self.options(run))
            if changed:
                return "agents", changed
        why = implausibility(run, row, self._check(run))
        return ("implausible", why) if why else ("", "")

    def _check(self, run: Run) -> Check | None:
        """The plausibility check of ``run``'s game with its parameters (``GameEntry.study.plausibility``),
        or None when it offers none or cannot be loaded (a game not installed here: its rows get
        the checks every game gets). The last run's is kept: rows come run by run."""
        key = run.key()
        if self._checking[0] != key:
            self._checking = (key, game_check(run))
        return self._checking[1]

    def _sound(self, run: Run, rows: list[tuple[Any, ...]]) -> tuple[list[tuple[Any, ...]], str]:
        """The rows that may be reused, and what was wrong with the others (words for a warning)."""
        kept, why = [], Refusals(("checksum", "code", "agents", "implausible"))
        for row in rows:
            wrong, words = self.verdict(run, row)
            if wrong:
                why.add(wrong, words)
            else:
                kept.append(row)
        return kept, why.words(self.code(run))

    def scan(self, batch: int) -> Iterable[list[tuple[Run, tuple[Any, ...]]]]:
        """Every stored row with its run, ``batch`` rows at a time (so a file of any size is read in
        bounded memory), in the order of the primary key."""
        cur = self.db.execute(f"select {', '.join(CHECKED)}, checksum from games "
                              "order by game, params, agents, base_seed, game_index")
        while True:
            chunk = cur.fetchmany(batch)
            if not chunk:
                return
            yield [(Run(r[0], json.loads(r[1]), tuple(json.loads(r[2])), r[3]), r) for r in chunk]

    def done(self, run: Run) -> set[int]:
        """Indices of the run's games already stored and fit to reuse; the others are played again,
        and a warning says how many and why."""
        kept, said = self._sound(run, self._stored(run))
        if said:
            self.warn(f"results file {self.path}: {run.game} rows not reused, played again: {said}")
        return {row[CHECKED.index("game_index")] for row in kept}

    def options(self, run: Run) -> str:
        """Each agent of ``run`` with its options, defaults filled in, as canonical JSON (a label that
        is no agent, the clairvoyant's, stands for itself; so do all of a game not installed)."""
        key = run.key()
        if key not in self._options:
            try:
                game: Any = load_game(run.game, **run.params)
            except ParameterError:
                game = None
            resolved: dict[str, Any] = {}
            for spec in dict.fromkeys(run.agents):
                try:
                    resolved[spec] = agent_options(spec, game) if game is not None else {"label": spec}
                except ParameterError:
                    resolved[spec] = {"label": spec}
            self._options[key] = canonical_json(resolved)
        return self._options[key]

    def add(self, run: Run, results: Iterable[tuple[int, GameResult]]) -> None:
        """Store games (index, result) of ``run``, with how they were made, and commit."""
        key = run.key()
        made = (self.code(run), self.commit, self.options(run), provenance.now(), self.command)
        rows = []
        for i, (seats, returns, scores, stats) in results:
            values = (*key, i, run.seed + i, canonical_json(seats), canonical_json(returns), canonical_json(scores),
                      canonical_json(stats), *made)
            rows.append((*values, checksum(values)))
        self.db.executemany(f"insert or replace into games ({', '.join(CHECKED)}, checksum) values "
                            f"({', '.join('?' * (len(CHECKED) + 1))})", rows)
        self.db.commit()

    def rows(self, run: Run, games: int) -> list[Row]:
        """The run's stored games fit to reuse with index below ``games``, in index order."""
        kept, _ = self._sound(run, self._stored(run, games))
        at = CHECKED.index
        return [Row(r[at("game_index")], r[at("seed")], json.loads(r[at("seats")]), json.loads(r[at("returns")]),
                    json.loads(r[at("scores")]), json.loads(r[at("stats")])) for r in kept]


#: a game's plausibility check with the game and its parameters bound: (returns, scores, stats) -> reasons
Check = Callable[[Sequence[float], Sequence[float], Mapping[str, Any]], list[str]]
#: words for a row failing the checks every game gets
GENERIC = "seats, seeds or numbers that no game gives"


class Refusals:
    """Rows not reused, counted by reason (:meth:`Store.verdict`), with the words of the first
    of each reason (the other code, the agent's other options, the check failed), for a one-line
    warning."""

    def __init__(self, reasons: Sequence[str]) -> None:
        #: rows refused, by reason
        self.counts = dict.fromkeys(reasons, 0)
        #: the words of the first row refused for each reason, and how many others had other words
        self.first: dict[str, str] = {}
        self.others = dict.fromkeys(reasons, 0)

    def add(self, reason: str, words: str) -> None:
        """Count a row refused for ``reason`` (``words``: what was other, or the check it failed)."""
        self.counts[reason] += 1
        if reason not in self.first:
            self.first[reason] = words
        elif words != self.first[reason]:
            self.others[reason] += 1

    def words(self, code: str = "") -> str:
        """The refusals in words (``code``: the code running now, named where rows of other code
        were refused); '' when there are none."""
        def detail(why: str) -> str:
            other = f"; {self.others[why]} of them for other reasons" if self.others[why] else ""
            return f"{self.first.get(why, '')}{other}"
        def said(why: str) -> str:
            if why == "checksum":
                return "failing their checksum"
            if why == "code":
                return f"made by other code ({detail(why)}) than this ({code})"
            if why == "agents":
                return f"made with other agent options ({detail(why)})"
            return f"implausible ({detail(why)})"
        return "; ".join(f"{n} {said(why)}" for why, n in self.counts.items() if n)


def other_options(stored: str, now: str) -> str:
    """How the agents' options a row was made with (``stored``, canonical JSON) differ from those
    of now, in words ('' when they do not): the first agent that differs, its options then and now."""
    if stored == now:
        return ""
    try:
        then, current = json.loads(stored), json.loads(now)
    except ValueError:
        return "unreadable options"
    if not isinstance(then, dict) or not isinstance(current, dict):
        return "unreadable options"
    for spec in sorted(set(then) | set(current)):
        if then.get(spec) != current.get(spec):
            return f"{spec}: {canonical_json(then.get(spec))} then, {canonical_json(current.get(spec))} now"
    return ""


def game_check(run: Run) -> Check | None:
    """The plausibility check ``run``'s game offers, bound to the game with the run's parameters;
    None when it offers none, or the game is not installed or refuses the parameters."""
    try:
        game = load_game(run.game, **run.params)
        check = entry(run.game).study.plausibility
    except ParameterError:
        return None
    if check is None:
        return None
    found = check

    def bound(returns: Sequence[float], scores: Sequence[float], stats: Mapping[str, Any]) -> list[str]:
        return [f"{game.title}: {reason}" for reason in found(game, returns, scores, stats)]
    return bound


def implausibility(run: Run, row: Sequence[Any], check: Check | None = None) -> str:
    """Why a stored row could not have come from ``run``'s runner ('' when it could): the seed
    ``base + index``, the seats rotated as :func:`~plunder.simulate.seating` seats them (a
    clairvoyant's or other labelled row: its one label), as many returns and scores as seats,
    finite numbers, a mapping of statistics; then the game's own ``check``, whose first reason
    is given."""
    at = CHECKED.index
    try:
        index, seed = int(row[at("game_index")]), int(row[at("seed")])
        seats, returns = json.loads(row[at("seats")]), json.loads(row[at("returns")])
        scores, stats = json.loads(row[at("scores")]), json.loads(row[at("stats")])
    except (TypeError, ValueError):
        return GENERIC
    if seed != run.seed + index or not isinstance(seats, list) or not seats or not isinstance(stats, dict):
        return GENERIC
    if seats != seating(run.agents, len(seats), index):
        return GENERIC
    numbers = [*returns, *scores] if isinstance(returns, list) and isinstance(scores, list) else None
    if not (numbers is not None and len(returns) == len(scores) == len(seats) and all(is_number(x) for x in numbers)):
        return GENERIC
    reasons = check(returns, scores, stats) if check is not None else []
    return reasons[0] if reasons else ""


def missing(done: set[int], games: int) -> Sequence[int]:
    """The indices below ``games`` not yet in ``done``."""
    return [i for i in range(games) if i not in done]
