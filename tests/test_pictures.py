"""Every game's SVG picture: every preset at the start, along and at the end of real games.

Each picture must be well-formed XML with the caption (who moves or who won, the score,
the move shown), clickable elements whose ``data-action`` is a legal action's canonical
text (and, while a player moves, at least one), and nothing the position does not show
(PF-9: no unseen card is named; a face-down pirates tile has no identity to show).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from plunder.cli import main
from plunder.core.game import State
from plunder.core.record import Record
from plunder.core.registry import entry, game_ids, load_game
from plunder.core.svg import Shown, outcome_text, text_width
from plunder.games.pillage.picture import modifier_key
from plunder.games.pillage.rules import PillageGame
from plunder.games.pirates.rules import PiratesState
from plunder.games.profiteer.cards import card_text, cards_of
from plunder.games.profiteer.rules import ProfiteerState
from plunder.match import play
from plunder.pictures import png_of, positions, svg_of

NS = "{http://www.w3.org/2000/svg}"
PRESETS = [(gid, preset) for gid in game_ids() for preset in entry(gid).game_class.presets]


def sampled(record: Record) -> list[tuple[State, Shown | None]]:
    """Start, quarter, middle, three quarters and end of ``record``, with the move shown."""
    moves = len(record.moves)
    wanted = {0, moves // 4, moves // 2, 3 * moves // 4, moves}
    return [(s, shown) for i, (s, shown) in enumerate(positions(record)) if i in wanted]


def texts(root: ET.Element) -> str:
    """All the text drawn, one element per line."""
    return "\n".join("".join(e.itertext()) for e in root.iter(f"{NS}text"))


def visible_cards(state: ProfiteerState) -> set[str]:
    """The cards a Profiteer position shows face up."""
    shown = state.stake_a | state.stake_b | state.resources | state.drawing
    names = {card_text(c) for c in cards_of(shown)}
    return names | {card_text(c) for c in (state.face_up_a, state.face_up_b) if c >= 0}


@pytest.mark.parametrize(("gid", "preset"), PRESETS)
def test_every_preset_draws_well_formed_captioned_pictures(gid: str, preset: str) -> None:
    game = load_game(gid, preset)
    agents = ["greedy"] if gid == "pirates" else ["random"] * game.num_players
    record = play(game, agents, seed=11)
    for state, shown in sampled(record):
        picture = svg_of(state, shown)
        root = ET.fromstring(picture)
        assert root.tag == f"{NS}svg" and float(root.get("width", 0)) >= 600
        drawn = texts(root)
        assert "Score:" in drawn
        assert (f"move {shown.number}: {shown.text}" if shown else "the start of the game") in drawn
        if state.is_terminal():
            assert outcome_text(state) in drawn.split("\n")
        else:
            assert "to move" in drawn or "Chance" in drawn
        actions = [e.get("data-action") for e in root.iter() if e.get("data-action") is not None]
        legal = set(state.legal_actions()) if not state.is_terminal() and not state.is_chance_node() else set()
        for text in actions:
            assert text is not None and game.parse_action(state, text) in legal, text
        pattern = any(e.get("data-action-pattern") for e in root.iter())
        if legal:
            assert actions or pattern, f"{gid} {preset}: a player moves but nothing is clickable"
        if isinstance(state, ProfiteerState):
            named = {e.get("data-card") for e in root.iter() if e.get("data-card")}
            assert named <= visible_cards(state)
        if isinstance(state, PiratesState):
            faces = [e.get("data-tile") for e in root.iter() if e.get("data-tile")]
            assert len(faces) == sum(1 for f in state.faces if f >= 0)
            assert len(root.findall(f".//{NS}rect[@class='tile face-down']")) == state.faces.count(-1)


def test_no_text_runs_past_an_edge() -> None:
    """Measured text stays inside every picture (a text's start plus its estimated width,
    its baseline less its size)."""
    for gid in game_ids():
        game = load_game(gid)
        record = play(game, ["greedy"] if gid == "pirates" else ["random"] * game.num_players, seed=5)
        for state, _ in sampled(record):
            root = ET.fromstring(svg_of(state))
            width, height = float(root.get("width", 0)), float(root.get("height", 0))
            for e in root.iter(f"{NS}text"):
                size = float(e.get("font-size", 13))
                w = text_width("".join(e.itertext()), size)
                x = float(e.get("x", 0))
                start = {"middle": x - w / 2, "end": x - w}.get(e.get("text-anchor", "start"), x)
                assert start >= 0 and start + w <= width + 0.5, (gid, "".join(e.itertext()))
                y = float(e.get("y", 0))
                assert y - size >= 0 and y <= height, (gid, "".join(e.itertext()))


def test_render_writes_png_and_every_position(tmp_path: Path) -> None:
    source = Path(__file__).parent / "games" / "pillage" / "records" / "octagon-greedy.json"
    png = tmp_path / "end.png"
    svg = tmp_path / "end.svg"
    result = CliRunner().invoke(main, ["render", str(source), "--png", str(png), "--svg", str(svg)])
    assert result.exit_code == 0, result.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "move " in svg.read_text(encoding="utf-8") and "Game over" in svg.read_text(encoding="utf-8")
    folder = tmp_path / "all"
    result = CliRunner().invoke(main, ["render", str(source), "--all", str(folder)])
    assert result.exit_code == 0, result.output
    moves = len(json.loads(source.read_text())["moves"])
    files = sorted(folder.glob("move-*.svg"))
    assert len(files) == moves + 1 and files[0].name == "move-0000.svg"
    assert "the start of the game" in files[0].read_text(encoding="utf-8")
    assert f"move {moves}: " in files[-1].read_text(encoding="utf-8")
    pngs = tmp_path / "pngs"
    result = CliRunner().invoke(main, ["render", str(source), "--all", str(pngs), "--format", "png"])
    assert result.exit_code == 0 and len(list(pngs.glob("move-*.png"))) == moves + 1
    clash = CliRunner().invoke(main, ["render", str(source), "--all", str(folder), "--at", "3"])
    assert clash.exit_code != 0


def test_png_of_a_picture_has_its_size() -> None:
    state = load_game("crossroads").new_initial_state()
    picture = svg_of(state)
    root = ET.fromstring(picture)
    data = png_of(picture)
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (int(root.get("width", 0)), int(root.get("height", 0)))


def test_a_click_on_the_hubs_sheet_names_the_nearest_point() -> None:
    game = load_game("hubs", "small")
    state = game.new_initial_state()
    root = ET.fromstring(svg_of(state))
    sheet = next(e for e in root.iter() if e.get("data-action-pattern"))
    x0, y0, step = (float(sheet.get(k, 0)) for k in ("data-origin-x", "data-origin-y", "data-step"))
    # a click a little off the point 3,2 (y grows upward)
    px, py = x0 + 3 * step + step * 0.3, y0 - 2 * step - step * 0.2
    x, y = round((px - x0) / step), round((y0 - py) / step)
    text = sheet.get("data-action-pattern", "").format(x=x, y=y)
    assert text == "dot 3,2" and game.parse_action(state, text) in state.legal_actions()


def test_pillage_spells_out_every_modifier_it_abbreviates() -> None:
    """Issue 13: a box's modifier text was cut ("-3 food/weapons/a"); boxes now show the code
    and the key under the board gives the whole text."""
    game = PillageGame.load()  # the default contents include modifiers
    state = game.new_initial_state()
    while state.is_chance_node():
        state = state.apply(state.legal_actions()[-1])
    drawn = texts(ET.fromstring(svg_of(state)))
    key = modifier_key(state)
    assert key and key in drawn.replace("\n", " ")
