"""Who the standings pages (:mod:`.ratings`' leaderboards, :mod:`.scores`' high scores) show:
the name shown for a browser identity (the identity looking: :func:`.identities.identity_of`).
"""

from __future__ import annotations

from typing import Sequence

from .names import default_name, names_of
from .store import Store


def display_names(store: Store, tokens: Sequence[str]) -> dict[str, str]:
    """The name shown for each browser of ``tokens`` (hashes of seat tokens): its chosen name,
    else its default (``Guest-xxxx``); neither can be taken for an AI label (:mod:`.names`)."""
    chosen = names_of(store, tokens)
    return {t: chosen.get(t) or default_name(t) for t in tokens}


