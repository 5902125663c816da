"""The Profiteer table for the terminal (rich), and what each choice would do."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ...core.game import Action, State
from .cards import card_text, cards_of, rank, rank_text
from .rules import (
    BALANCE, END, END_NAMES, GIVE, OVER, PASS, PHASE_NAMES, SWITCH, SWITCH_A, SWITCH_B, ProfiteerState,
)

_SUIT_GLYPH = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def card_markup(card: int) -> Text:
    """A card as coloured text: red for hearts and diamonds."""
    if card < 0:
        return Text("--", style="dim")
    name = card_text(card)
    red = name[-1] in "DH"
    return Text(name[:-1] + _SUIT_GLYPH[name[-1]], style="bold red" if red else "bold")


def _cards(mask: int) -> Text:
    out = Text()
    for i, c in enumerate(cards_of(mask)):
        if i:
            out.append(" ")
        out.append_text(card_markup(c))
    return out if mask else Text("none", style="dim")


def render(state: State) -> RenderableType:
    """The table: both sides' decks, discards and face-up cards; the profiteer's resources,
    pile count and target; what just happened."""
    assert isinstance(state, ProfiteerState)
    g = state.game
    sides = Table(show_header=True, header_style="bold cyan", box=None, padding=(0, 2))
    sides.add_column("")
    sides.add_column("deck", justify="right")
    sides.add_column("discard", justify="right")
    sides.add_column("pile", justify="right")
    sides.add_column("face up", justify="center")
    sides.add_row("Side A", str(state.deck_a()), str(state.da.bit_count()), str(state.pile_a()),
                  card_markup(state.up_a))
    sides.add_row("Side B", str(state.deck_b()), str(state.db.bit_count()), str(state.pile_b()),
                  card_markup(state.up_b))
    parts: list[RenderableType] = [sides]
    if state.war:
        stake = (state.pot_a | state.pot_b).bit_count()
        parts.append(Text(f"WAR, round {state.war}: {stake} face-up cards go to the winner", style="bold yellow"))
    total = state.total()
    colour = "green" if total >= g.target else "white"
    me = Text("Profiteer: ", style="bold")
    me.append(f"{total} cards", style=f"bold {colour}")
    me.append(f", target {g.target}   (discard {state.pdisc.bit_count()}, resources {state.res.bit_count()})")
    parts.append(me)
    res = Text("Resources: ")
    res.append_text(_cards(state.res))
    parts.append(res)
    if state.phase == BALANCE:
        need = abs(state.pile_a() - state.pile_b())
        small = "A" if state.pile_a() < state.pile_b() else "B"
        parts.append(Text(f"The count: side A {state.pile_a()}, side B {state.pile_b()}. Give {need} "
                          f"card(s) to side {small} to go on, or end the game now.", style="yellow"))
    if state.last:
        parts.append(Text(f"Last: {state.last}", style="dim"))
    if state.phase == OVER:
        won = total >= g.target
        parts.append(Text(f"Game over: {END_NAMES[state.end]}. The profiteer "
                          f"{'WINS' if won else 'loses'} with {total} cards.", style="bold green" if won else "bold red"))
    title = f"Profiteer -- pass {state.round} of at most {g.max_rounds} -- {PHASE_NAMES[state.phase]}"
    return Panel(Group(*parts), title=title, expand=False)


def _winner(ra: int, rb: int) -> str:
    if ra == rb:
        return f"makes a WAR ({rank_text(ra)}s tie)"
    return f"side {'A' if ra > rb else 'B'} wins the flip"


def describe(state: State, action: Action) -> str:
    """What a choice does: who then wins the flip, whether it makes a war, where a gift goes."""
    assert isinstance(state, ProfiteerState)
    if not isinstance(action, int):
        return ""
    if state.phase == SWITCH:
        ra, rb = rank(state.up_a), rank(state.up_b)
        if action == PASS:
            return "let it stand: " + _winner(ra, rb)
        if SWITCH_A <= action < SWITCH_A + 52:
            c = action - SWITCH_A
            return f"take A's {card_text(state.up_a)}, give {card_text(c)}: " + _winner(rank(c), rb)
        if SWITCH_B <= action < SWITCH_B + 52:
            c = action - SWITCH_B
            return f"take B's {card_text(state.up_b)}, give {card_text(c)}: " + _winner(ra, rank(c))
    if state.phase == BALANCE:
        if action == END:
            return f"end the game with {state.total()} cards"
        if GIVE <= action < GIVE + 52:
            small = "A" if state.pile_a() < state.pile_b() else "B"
            return f"give {card_text(action - GIVE)} to side {small}"
    if 0 <= action < 52:
        return f"draw {card_text(action)}"
    return ""
