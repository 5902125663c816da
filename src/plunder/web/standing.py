"""Who the standings pages (:mod:`.ratings`' leaderboards, :mod:`.scores`' high scores) show and
for whom: the name shown for a browser identity, and the identity of the browser looking.
"""

from __future__ import annotations

from typing import Sequence

from starlette.requests import Request

from .names import default_name, names_of
from .identities import identity_of
from .store import Store


def display_names(store: Store, tokens: Sequence[str]) -> dict[str, str]:
    """The name shown for each browser of ``tokens`` (hashes of seat tokens): its chosen name,
    else its default (``Guest-xxxx``); neither can be taken for an AI label (:mod:`.names`)."""
    chosen = names_of(store, tokens)
    return {t: chosen.get(t) or default_name(t) for t in tokens}


def viewer_hash(request: Request) -> str | None:
    """The identity this request acts for (:func:`~.identities.identity_of`); ``None`` for a
    newcomer (or a malformed token header: such a request acts for nobody)."""
    return identity_of(request)
