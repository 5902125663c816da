"""What a player reads of Profiteer carries no ruling ids; the API's errors keep them."""

import pytest
from rich.console import Console

import plunder
from plunder.core.errors import IllegalActionError
from plunder.core.record import replay
from plunder.games.profiteer import ENTRY, ProfiteerState


def test_the_end_panel_has_no_ruling_ids_but_the_api_error_does() -> None:
    final = replay(plunder.play(plunder.load_game("profiteer"), ["greedy"], seed=3))
    assert isinstance(final, ProfiteerState) and final.is_terminal()
    console = Console(width=80, record=True, color_system=None)
    assert ENTRY.presentation.render is not None
    console.print(ENTRY.presentation.render(final))
    panel = console.export_text()
    assert "Game over: the piles are unequal and cannot be balanced. The profiteer loses" in panel
    assert "(PF-" not in panel
    with pytest.raises(IllegalActionError, match=r"PF-8"):
        final.apply(final.game.parse_action(final, "end"))
