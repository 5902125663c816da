"""The Profiteer table for the terminal (rich), and what each choice would do."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ...core.errors import without_rulings
from ...core.words import plural
from .actions import Draw, End, Give, Keep, ProfiteerAction, Side, Switch
from .cards import card_text, cards_of, rank, rank_text
from .flow import Phase
from .rules import ProfiteerState

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


def render(state: ProfiteerState) -> RenderableType:
    """The table: both sides' decks, discards and face-up cards; the profiteer's resources,
    pile count and target; what just happened."""
    g = state.game
    sides = Table(show_header=True, header_style="bold cyan", box=None, padding=(0, 2))
    sides.add_column("")
    sides.add_column("deck", justify="right")
    sides.add_column("discard", justify="right")
    sides.add_column("pile", justify="right")
    sides.add_column("face up", justify="center")
    sides.add_row("Side A", str(state.deck_a()), str(state.discard_a.bit_count()), str(state.pile_a()),
                  card_markup(state.face_up_a))
    sides.add_row("Side B", str(state.deck_b()), str(state.discard_b.bit_count()), str(state.pile_b()),
                  card_markup(state.face_up_b))
    parts: list[RenderableType] = [sides]
    if state.war_round:
        stake = (state.stake_a | state.stake_b).bit_count()
        parts.append(Text(f"WAR, round {state.war_round}: {stake} face-up cards go to the winner", style="bold yellow"))
    total = state.total()
    colour = "green" if total >= g.target else "white"
    me = Text("Profiteer: ", style="bold")
    me.append(plural(total, "card"), style=f"bold {colour}")
    me.append(f", target {g.target}   (discard {state.profiteer_discard.bit_count()}, resources {state.resources.bit_count()})")
    parts.append(me)
    res = Text("Resources: ")
    res.append_text(_cards(state.resources))
    parts.append(res)
    if state.phase == Phase.BALANCE:
        need = abs(state.pile_a() - state.pile_b())
        small = "A" if state.pile_a() < state.pile_b() else "B"
        parts.append(Text(f"The count: side A {state.pile_a()}, side B {state.pile_b()}. Give {need} "
                          f"{'card' if need == 1 else 'cards'} to side {small} to go on, or end the game now.",
                          style="yellow"))
    if state.last:
        parts.append(Text(f"Last: {without_rulings(state.last)}", style="dim"))
    if state.phase == Phase.OVER:
        won = total >= g.target
        # a player's words: the ruling ids stay in the API's errors and --verbose
        parts.append(Text(f"Game over: {without_rulings(state.ending.describe())}. The profiteer "
                          f"{'WINS' if won else 'loses'} with {plural(total, 'card')}.", style="bold green" if won else "bold red"))
    title = f"Profiteer -- pass {state.round} of at most {g.max_rounds} -- {Phase(state.phase).describe()}"
    return Panel(Group(*parts), title=title, expand=False)


def _winner(rank_a: int, rank_b: int) -> str:
    if rank_a == rank_b:
        return f"makes a WAR ({rank_text(rank_a)}s tie)"
    return f"side {'A' if rank_a > rank_b else 'B'} wins the flip"


def describe(state: ProfiteerState, action: ProfiteerAction) -> str:
    """What a choice does: who then wins the flip, whether it makes a war, where a gift goes."""
    if state.illegal_reason(action) is not None:
        return ""
    rank_a, rank_b = rank(state.face_up_a), rank(state.face_up_b)
    match action:
        case Keep():
            return "let it stand: " + _winner(rank_a, rank_b)
        case Switch(side=side, rank=r):
            given = card_text(state.resource_of_rank(r))
            taken = card_text(state.face_up(side))
            after = _winner(r, rank_b) if side == Side.A else _winner(rank_a, r)
            return f"take {Side(side).name}'s {taken}, give {given}: {after}"
        case Give(rank=r):
            small = "A" if state.pile_a() < state.pile_b() else "B"
            return f"give {card_text(state.resource_of_rank(r))} to side {small}"
        case End():
            return f"end the game with {plural(state.total(), 'card')}"
        case Draw(card=card):
            return f"draw {card_text(card)}"
    return ""
