"""Terminal play: a human (or several) against agents, drawn with rich.

Works over the public API only: the game's ``ENTRY.presentation.render`` draws the position,
``ENTRY.presentation.describe`` annotates the move list, and every action goes through
``parse_action`` and ``apply``. ``ENTRY.presentation.narrate`` tells every move (chance's and the
agents' too), ``ENTRY.presentation.breakdown`` the final score; a refused move is told in one plain
sentence (``--verbose``: the rules' full message, with the position and ruling id).
"""

from __future__ import annotations

import datetime as _dt
import os
import random
import shlex
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Callable, Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from .agents import Agent, make_agent
from .core.errors import PlunderError
from .core.game import CHANCE, Game, State
from .core import chance
from .core.record import Move, Record, replay
from .core.registry import entry
from .core.svg import verdict
from .core.words import refusal
from .match import breakdown_of, chance_index, decision_rng, hint_lines, hint_rng, new_seed, resumed_states, undo_point

#: most terminal rows a run of chance's narrations takes (a 4x4 board deals 16 boxes at once)
CHANCE_ROWS = 2
#: how many legal moves ``moves`` lists before it stops (``moves all`` lists every one)
MOVE_LIST_CAP = 60

def help_text() -> str:
    """The commands of ``play``, naming the command that resumes a game as it runs from here."""
    return ("Type a move in the notation shown in the list. Commands: "
            "moves (or ?) lists the legal moves, hint suggests one, undo takes back to your previous "
            "decision, show redraws the position, quit (or Ctrl-C) stops the game: it is saved after every "
            f"move, and '{invoked_as()} play --resume FILE' continues it.")


def invoked_as(argv0: str | None = None, on_path: str | None = None) -> str:
    """How to run this program again from the current folder, for the commands a message
    suggests: ``plunder`` when that name on the PATH is the program running; the path it was
    started by when that is a ``plunder`` script off the PATH (``.venv/bin/plunder``); else
    ``python -m plunder`` with this interpreter. ``argv0`` and ``on_path`` (what the PATH finds
    for ``plunder``) default to this process's."""
    argv0 = sys.argv[0] if argv0 is None else argv0
    on_path = shutil.which("plunder") if on_path is None else on_path
    if Path(argv0).name == "plunder":
        if on_path and Path(on_path).resolve() == Path(argv0).resolve():
            return "plunder"
        return shlex.quote(argv0)
    if on_path:
        return "plunder"
    return f"{shlex.quote(sys.executable)} -m plunder"


def default_record_path(game_id: str) -> Path:
    """Where a game is saved when no ``--record`` is given."""
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "plunder" / "records"
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return base / f"{game_id}-{stamp}.json"


def save_record(path: Path, record: Record) -> None:
    """Write ``record`` to ``path`` atomically: a temporary file in the same folder, renamed over
    ``path``, so an interrupted write never leaves half a record. A path that is not a regular
    file (``/dev/null``, a pipe) is written in place."""
    text = record.to_json()
    if path.exists() and not path.is_file():
        path.write_text(text, encoding="utf-8")
        return
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


class PlaySession:
    """One game at the terminal. ``seats[i]`` is an agent, or ``None`` for a human."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[Agent | None],
        seed: int | None,
        console: Console,
        read: Callable[[str], str],
        hint_agent: str | None = None,
        verbose: bool = False,
        save: Callable[[Record], None] | None = None,
        resume: Record | None = None,
    ) -> None:
        self.game = game
        #: refused moves are told with the full message (position, ruling id), not the short one
        self.verbose = verbose
        #: chance's narrations not yet printed: a run of draws is told on one line
        self.chance_told: list[str] = []
        #: moves told but not yet printed: they go under the board, so the last stays in view
        self.told: list[Text] = []
        self.seats = list(seats)
        self.console = console
        self.read = read
        self.entry = entry(game.id)
        #: called with the record after every move and undo, so no stop loses the game
        self.save = save
        self.states: list[State] = [game.new_initial_state()]
        self.moves: list[Move] = []
        if resume is not None:
            if resume.seed is None:
                raise ValueError("a record without a seed cannot be resumed: its chance cannot continue")
            self.seed = resume.seed
            self.states = resumed_states(game, resume)
            self.moves = list(resume.moves)
        else:
            self.seed = new_seed() if seed is None else seed
        names = [a.name if a is not None else "human" for a in seats]
        self.record = Record(game.id, dict(game.params), self.seed, names, list(self.moves))
        self.hinter = make_agent(hint_agent if hint_agent is not None else self.entry.strength.hint, game)

    def agent_rng(self, seat: int) -> random.Random:
        """The RNG of the agent in ``seat`` for this decision, keyed on the seed, the seat and the
        move number: a resumed game, or one replayed after undo, meets the same replies."""
        return decision_rng(self.seed, seat, len(self.moves))

    def keep(self) -> None:
        """Bring the record up to the moves played and hand it to ``save``."""
        self.record.moves = list(self.moves)
        if self.state.is_terminal():
            self.record.returns = list(self.state.returns())
            self.record.scores = list(self.state.scores())
        else:
            self.record.returns = self.record.scores = None
        if self.save is not None:
            self.save(self.record)

    @property
    def state(self) -> State:
        """The position now."""
        return self.states[-1]

    def is_human_turn(self, state: State) -> bool:
        """True when a human acts in ``state``."""
        p = state.current_player
        return p >= 0 and self.seats[p] is None

    def who(self, seat: int) -> str:
        """Seat name with its agent, e.g. ``Player 2 (greedy)``."""
        agent = self.seats[seat]
        return self.game.seat_name(seat) + ("" if agent is None else f" ({agent.name})")

    def show(self) -> None:
        """Draw the position, then the moves told since the last drawing (the last move stays in
        view under the board on a small screen)."""
        render = self.entry.presentation.render
        self.console.print(render(self.state) if render else Text(str(self.state)))
        self.print_told()

    def print_told(self) -> None:
        """Print the moves told and not yet printed."""
        self.flush_chance()
        for line in self.told:
            self.console.print(line)
        self.told = []

    def push(self, action: object, after: State | None = None) -> None:
        """Apply an action (or take its already computed result ``after``) and log it."""
        state = self.state
        mover = None if state.current_player == CHANCE else state.current_player
        self.moves.append(Move(mover, self.game.action_to_text(state, action)))
        self.states.append(after if after is not None else state.apply(action))
        self.keep()
        self.tell(state, action, self.state)

    def tell(self, before: State, action: object, after: State) -> None:
        """Say what ``action`` did, in the game's words; chance's draws wait to be told together."""
        narrate = self.entry.presentation.narrate
        if narrate is not None:
            said = narrate(before, action, after)
        else:
            who = "Chance" if before.current_player == CHANCE else self.who(before.current_player)
            said = f"{who}: {self.game.action_to_text(before, action)}"
        if before.current_player == CHANCE:
            self.chance_told.append(said)
            return
        self.flush_chance()
        human = self.seats[before.current_player] is None
        self.told.append(Text(said, "" if human else "bold"))

    def flush_chance(self) -> None:
        """Print chance's narrations gathered since the last move, on one line of at most
        :data:`CHANCE_ROWS` rows: a long run (a board's contents dealt, a hand drawn) keeps its
        last draws, which the position shows anyway."""
        told, self.chance_told = self.chance_told, []
        if not told:
            return
        room = CHANCE_ROWS * self.console.width - 30
        kept = [told[-1]]
        for said in reversed(told[:-1]):
            if sum(len(k) + 2 for k in kept) + len(said) > room:
                break
            kept.insert(0, said)
        skipped = len(told) - len(kept)
        self.told.append(Text((f"({skipped} earlier draws) " if skipped else "") + "; ".join(kept), "magenta"))

    def advance(self) -> None:
        """Let chance and agents act until a human must decide or the game ends."""
        while not self.state.is_terminal() and not self.is_human_turn(self.state):
            state = self.state
            if state.current_player == CHANCE:
                # keyed on the event's index, so undo and play again meets the same draw
                self.push(chance.draw(state, self.seed, chance_index(self.moves)))
                continue
            seat = state.current_player
            agent = self.seats[seat]
            assert agent is not None
            self.push(agent.choose(state, self.agent_rng(seat)))
        self.flush_chance()

    def undo(self) -> bool:
        """Back to the human decision before the current one; False if there is none."""
        i = undo_point(self.states, self.is_human_turn)
        if i is None:
            return False
        del self.states[i + 1 :]
        del self.moves[i:]
        self.keep()
        return True

    def list_moves(self, everything: bool = False) -> None:
        """Print the legal moves with what each does (the first :data:`MOVE_LIST_CAP` unless ``everything``)."""
        state = self.state
        table = Table(show_header=True, header_style="bold")
        table.add_column("move")
        describe = self.entry.presentation.describe
        if describe:
            table.add_column("what it does")
        order = self.entry.presentation.move_list
        legal = list(order(state) if order is not None else state.legal_actions())
        shown = legal if everything else legal[:MOVE_LIST_CAP]
        for action in shown:
            text = self.game.action_to_text(state, action)
            table.add_row(text, describe(state, action)) if describe else table.add_row(text)
        self.console.print(table)
        if len(shown) < len(legal):
            self.console.print(f"... and {len(legal) - len(shown)} more legal moves (type 'moves all' to list them).")

    def hint(self) -> None:
        """Suggest a move: the hint agent's best; an :class:`Analyst` gives its best three, each
        with its value and how sure it is (an interval, or "a guess" on too little search)."""
        self.console.print(Text("\n".join(hint_lines(self.hinter, self.state, hint_rng(len(self.moves)))), "cyan"))

    def run(self) -> Record:
        """Play to the end, or until the human quits or presses Ctrl-C; return the record (saved
        after every move, so a stop keeps the game)."""
        self.console.print(Text(f"{self.game.title}: " + ", ".join(self.who(i) for i in range(len(self.seats)))
                                + ". Type help for commands.", "bold"))
        try:
            self.play()
        except KeyboardInterrupt:
            self.print_told()
            self.console.print("\nGame stopped.")
        self.keep()
        if self.state.is_terminal():
            self.show()
            self.console.print(Text(result_line(self.game, self.state), "bold green"))
            lines = breakdown_of(self.game, self.moves)
            if lines:
                self.console.print(Text("\n".join(lines), "green"))
        return self.record

    def play(self) -> None:
        """The prompt loop: until the game ends or the human quits."""
        self.advance()
        redraw = True
        while not self.state.is_terminal():
            if redraw:
                self.show()
            redraw = False
            seat = self.state.current_player
            try:
                line = self.read(f"{self.who(seat)}> ").strip()
            except EOFError:
                line = "quit"
            command = line.lower()
            if not command:
                continue
            if command in ("quit", "exit", "resign"):
                self.console.print("Game stopped.")
                break
            if command == "help":
                if self.entry.presentation.how_to_play:
                    self.console.print(Text(self.entry.presentation.how_to_play.rstrip("\n")))
                self.console.print(help_text())
            elif command in ("moves", "?", "list"):
                self.list_moves()
            elif command == "moves all":
                self.list_moves(everything=True)
            elif command == "hint":
                self.hint()
            elif command == "show":
                redraw = True
            elif command == "undo":
                redraw = self.undo()
                if not redraw:
                    self.console.print(Text("Nothing to undo yet.", "yellow"))
            else:
                try:
                    after = self.state.apply_text(line)  # refuses over-long text before the game reads it
                    action = self.game.parse_action(self.state, line)
                except PlunderError as exc:
                    self.console.print(Text(str(exc) if self.verbose else plain_error(exc, self.state), "red"))
                    continue
                self.push(action, after)
                self.advance()
                redraw = True


def plain_error(exc: PlunderError, state: State) -> str:
    """A refused move in a player's words (:func:`plunder.core.words.refusal`, ``--verbose``
    shows the full message), with the terminal's advice for unreadable text."""
    return refusal(exc, state, "Type {}, or 'moves' to list them.")


def result_line(game: Game, state: State) -> str:
    """``Player 1 wins 12-7`` / ``Tie 5-5`` / one-player outcome."""
    scores = "-".join(f"{s:g}" for s in state.scores())
    said = verdict(state)
    if game.num_players == 1:
        return f"{said.capitalize()} with score {scores}"
    return f"Tie {scores}" if said == "a tie" else f"{said} {scores}"


STEP_HELP = "Enter or n: next move, p: back, first, last, a number: that move, q: quit"


def step_through(record: Record, console: Console, read: Callable[[str], str]) -> None:
    """Walk through ``record`` move by move at the terminal: each position, then the move that
    led to it in the game's words (``ENTRY.presentation.narrate``, else its text)."""
    final = replay(record)
    game = final.game
    game_entry = entry(game.id)
    states = [game.new_initial_state()]
    actions = []
    for move in record.moves:
        action = game.parse_action(states[-1], move.action)
        actions.append(action)
        states.append(states[-1].apply(action))
    last = len(record.moves)
    at = 0
    while True:
        state = states[at]
        console.print(game_entry.presentation.render(state) if game_entry.presentation.render else Text(str(state)))
        if at == 0:
            said = "The start."
        else:
            before, action = states[at - 1], actions[at - 1]
            if game_entry.presentation.narrate is not None:
                said = game_entry.presentation.narrate(before, action, state)
            else:
                who = "Chance" if before.current_player == CHANCE else game.seat_name(before.current_player)
                said = f"{who}: {game.action_to_text(before, action)}"
        console.print(Text(f"Move {at} of {last}: {said}", "bold"))
        if state.is_terminal():
            console.print(Text(result_line(game, state), "bold green"))
        try:
            command = read(f"[{at}/{last}] n/p/first/last/q> ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            return
        if command in ("", "n", "next"):
            at = min(at + 1, last)
        elif command in ("p", "prev", "back", "b"):
            at = max(at - 1, 0)
        elif command in ("first", "f", "0"):
            at = 0
        elif command in ("last", "l", "end"):
            at = last
        elif command in ("q", "quit", "exit"):
            return
        elif command.isdigit():
            at = min(int(command), last)
        else:
            console.print(Text(STEP_HELP, "yellow"))
