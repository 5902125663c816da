"""Time controls and the clocks they give a game: pure arithmetic over a value, the server's
time passed in (never read here), so that every rule of the clock is tested with an injected
time (docs/web.md, "Time controls").

A :class:`TimeControl` is chosen when a game is created: live (minutes per player plus seconds
added after each move, ``5+3``) or turn-based (days per move, ``3d``). A :class:`Clock` is what
the server stores with the game: each seat's time left, and whose clock runs since when (wall
time, seconds since the epoch: a server restarted finds it still running, the time it was down
counted, as a player away from the board would find it).

**Lag compensation** (as lichess does it): a move's charge is the time from its seat's clock
starting to the move's arrival, which holds the message's way to the player and back besides
the player's thinking. The page says how long it thought (from receiving its turn to sending
the move); the rest is lag, credited back, but only up to the seat's *lag quota*: a seat's
first move may have :data:`LAG_FIRST_MOVE`, then its quota is :data:`LAG_QUOTA_START`, every
move adds :data:`LAG_QUOTA_GAIN` and takes what was credited, and it holds at most
:data:`LAG_QUOTA_MAX`. A client that lies (says it thought for no time at all) gains at most
that much, and a slow network past the quota is charged as before.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

#: the live presets: minutes per player, seconds added after each move
LIVE_PRESETS = ("3+2", "5+3", "10+5")
#: the turn-based presets: days per move
TURN_PRESETS = ("1d", "3d", "7d")
#: every time control the new-game form offers, in its order
PRESETS = LIVE_PRESETS + TURN_PRESETS
#: the time control a game with a seat for someone not at this screen gets unless another is chosen
DEFAULT = "10+5"
#: the form's choice of the time control its rule gives (:func:`chosen`)
AUTO = "auto"
#: the form's choice of no time control
NONE = "none"
#: a live game, as :attr:`TimeControl.kind`
LIVE = "live"
#: a turn-based (correspondence) game, as :attr:`TimeControl.kind`
TURN = "turn"

#: what lag a seat's first move may be credited (seconds): its clock ran from the game's
#: creation (or the last seat taken), through the page's loading and connecting, which the page
#: does not count as thinking (lichess runs no clock before each side's first move at all). A
#: quota above :data:`LAG_QUOTA_MAX` is this one: the seat has not moved yet.
LAG_FIRST_MOVE = 10.0
#: what each move of a seat adds to its lag quota (seconds): the most a seat that always claims
#: lag gains a move, over a game
LAG_QUOTA_GAIN = 0.3
#: a seat's lag quota after its first move (seconds): three moves' gain
LAG_QUOTA_START = 0.9
#: the most a seat's lag quota holds after its first move (seconds): seven moves' gain
LAG_QUOTA_MAX = 2.1

_LIVE_TEXT = re.compile(r"(\d{1,3})\+(\d{1,3})")
_TURN_TEXT = re.compile(r"(\d{1,2})d")
DAY = 86_400.0


@dataclass(frozen=True)
class TimeControl:
    """How much time each seat has: live (``base`` seconds per player, ``increment`` seconds
    added after each of its moves) or turn-based (``base`` seconds for every move)."""

    kind: str
    base: float
    increment: float = 0.0

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """The time control ``text`` names (one of :data:`PRESETS`); ``ValueError`` saying which
        ones there are otherwise."""
        text = text.strip()
        if text in PRESETS:
            live = _LIVE_TEXT.fullmatch(text)
            if live:
                return cls(LIVE, int(live.group(1)) * 60.0, float(live.group(2)))
            turn = _TURN_TEXT.fullmatch(text)
            if turn:
                return cls(TURN, int(turn.group(1)) * DAY)
        raise ValueError(f"time control {text[:20]!r} is not one this server offers: "
                         f"{', '.join(PRESETS)} (minutes + seconds per move, or days per move)")

    @property
    def text(self) -> str:
        """As :meth:`parse` reads it: ``5+3``, ``3d``."""
        if self.kind == TURN:
            return f"{round(self.base / DAY)}d"
        return f"{round(self.base / 60)}+{round(self.increment)}"

    @property
    def words(self) -> str:
        """In a player's words: ``5 min + 3 s a move``, ``3 days a move``."""
        if self.kind == TURN:
            days = round(self.base / DAY)
            return f"{days} day{'s' if days != 1 else ''} a move"
        return f"{round(self.base / 60)} min + {round(self.increment)} s a move"

    def data(self) -> dict[str, Any]:
        """As stored."""
        return {"kind": self.kind, "base": self.base, "increment": self.increment}


@dataclass(frozen=True)
class Clock:
    """The clocks of one game: each seat's seconds ``left`` (for the seat whose clock runs, as
    they were at ``since``), the seat whose clock runs (``None``: none does, an AI or chance to
    move, a seat still open, the game over), since when (seconds since the epoch), and each
    seat's lag quota (seconds that lag may still be credited: see the module's note)."""

    control: TimeControl
    left: tuple[float, ...]
    running: int | None = None
    since: float = 0.0
    quota: tuple[float, ...] = ()

    @classmethod
    def new(cls, control: TimeControl, seats: int) -> Clock:
        """Every seat's clock full, none running, every lag quota its first move's."""
        return cls(control, (control.base,) * seats, quota=(LAG_FIRST_MOVE,) * seats)

    def quota_of(self, seat: int) -> float:
        """Seat ``seat``'s lag quota (a clock stored before quotas were kept: a moved seat's start)."""
        return self.quota[seat] if seat < len(self.quota) else LAG_QUOTA_START

    def lag_credit(self, seat: int, now: float, thought: float | None) -> float:
        """The seconds of lag credited to ``seat`` for a move arriving at ``now`` whose page says
        it thought for ``thought`` seconds (``None``: it said nothing, and nothing is credited):
        the time its clock ran beyond that, at most its quota."""
        if thought is None or seat != self.running:
            return 0.0
        spent = max(0.0, now - self.since)
        return min(max(0.0, spent - max(0.0, thought)), self.quota_of(seat))

    def left_at(self, seat: int, now: float) -> float:
        """Seconds seat ``seat`` has left at ``now`` (never below 0)."""
        left = self.left[seat]
        if seat == self.running:
            left -= max(0.0, now - self.since)
        return max(0.0, left)

    @property
    def deadline(self) -> float | None:
        """When the running seat's time runs out (seconds since the epoch); ``None`` if none runs."""
        return None if self.running is None else self.since + self.left[self.running]

    def expired(self, now: float) -> bool:
        """True when the running seat has no time left at ``now``."""
        deadline = self.deadline
        return deadline is not None and now >= deadline

    def moved(self, seat: int, now: float, next_seat: int | None, credit: float = 0.0) -> Clock:
        """After ``seat`` moved at ``now``: its time spent taken off (the running clock's, if it
        was ``seat``'s) less ``credit`` (its lag credited, :meth:`lag_credit`, which its quota
        pays for), then the increment added (live) or the time of a move given again
        (turn-based); ``next_seat``'s clock starts (``None``: no clock runs)."""
        left = list(self.left)
        quota = [self.quota_of(i) for i in range(len(left))]
        if self.running is not None:
            credited = credit if self.running == seat else 0.0
            left[self.running] = self.left_at(self.running, now - credited)
        if 0 <= seat < len(left):
            left[seat] = self.control.base if self.control.kind == TURN else left[seat] + self.control.increment
            first = quota[seat] > LAG_QUOTA_MAX  # the first move's allowance: the quota starts now
            quota[seat] = LAG_QUOTA_START if first else min(quota[seat] - credit + LAG_QUOTA_GAIN, LAG_QUOTA_MAX)
        return Clock(self.control, tuple(left), None, now, tuple(quota)).started(next_seat, now)

    def started(self, seat: int | None, now: float) -> Clock:
        """``seat``'s clock running from ``now`` (``None``: stopped), the time the running one
        spent till now taken off; a turn-based seat starts with its whole move's time."""
        left = list(self.left)
        if self.running is not None and self.running != seat:
            left[self.running] = self.left_at(self.running, now)
        if seat is not None and seat != self.running and self.control.kind == TURN:
            left[seat] = self.control.base
        if seat == self.running and seat is not None:
            return self
        return Clock(self.control, tuple(left), seat, now, self.quota)

    def stopped(self, now: float) -> Clock:
        """No clock running from ``now`` (the game over)."""
        return self.started(None, now)

    def data(self, now: float) -> dict[str, Any]:
        """As sent to a browser at ``now``: the control, each seat's seconds left then and
        which one runs (the page counts it down from these figures), and since when it runs
        (``started``: a client that measures the charge of its moves counts it from there, as
        the server does)."""
        return {"control": self.control.text, "words": self.control.words, "kind": self.control.kind,
                "left": [round(self.left_at(i, now), 3) for i in range(len(self.left))], "running": self.running,
                "at": now, "started": None if self.running is None else self.since}

    def to_json(self) -> str:
        """As stored."""
        return json.dumps({"control": self.control.data(), "left": list(self.left), "running": self.running,
                           "since": self.since, "quota": list(self.quota)})

    @classmethod
    def from_json(cls, text: str) -> Clock:
        """As :meth:`to_json` wrote it."""
        d = json.loads(text)
        c = d["control"]
        return cls(TimeControl(str(c["kind"]), float(c["base"]), float(c["increment"])),
                   tuple(float(x) for x in d["left"]), None if d["running"] is None else int(d["running"]),
                   float(d["since"]), tuple(float(x) for x in d.get("quota", ())))


def freshened(data: dict[str, Any], now: float) -> None:
    """Bring :meth:`Clock.data`'s figures (``data``, as worked out at ``data["at"]``) to
    ``now``, in place: a message queued a while before it is sent says the time left when sent."""
    running = data.get("running")
    if running is not None:
        data["left"][running] = round(max(0.0, data["left"][running] - max(0.0, now - data["at"])), 3)
    data["at"] = now


def chosen(choice: str, remote: bool, rated: bool = False) -> TimeControl | None:
    """The time control the new-game form's ``choice`` gives a game (``remote``: it has a seat
    for a person not at this screen; ``rated``: it is rated): :data:`AUTO` is :data:`DEFAULT`
    for such a game and none otherwise; :data:`NONE` is refused for such a game (nobody could
    stall it for ever, and a rated result is one played against the clock), with a
    ``ValueError`` saying so; else a preset (:meth:`TimeControl.parse`)."""
    choice = choice.strip()
    if choice == AUTO:
        return TimeControl.parse(DEFAULT) if remote or rated else None
    if choice == NONE:
        if rated:
            raise ValueError("A rated game has a time control, so that its result is one played against the clock: "
                             f"choose one of {', '.join(PRESETS)}, or untick \"rated\".")
        if remote:
            raise ValueError("A game with a seat for a friend has a time control, so that nobody can stall it: "
                             f"choose one of {', '.join(PRESETS)}.")
        return None
    return TimeControl.parse(choice)


def shown(seconds: float) -> str:
    """Seconds left as a clock shows them: ``1:23``, ``1:02:03``, ``2d 3h``."""
    whole = max(0, math.ceil(seconds))
    if whole >= DAY:
        return f"{whole // 86400}d {whole % 86400 // 3600}h"
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"

