"""What characters a person's text may hold (a display name, a line of table talk): every one
either seen or a plain space, so what a reader sees is what was written.

Refused, each with its name and code point in the reason: lone UTF-16 surrogates (JSON can
carry ``"\\ud800"``; no text can be stored or sent with one) and U+FFFD (what a broken byte
sequence becomes); direction controls (U+202A–202E, U+2066–2069, U+200E, U+200F, U+061C: they
reverse how the rest reads); format characters (Unicode category Cf: zero widths, U+2060,
U+FEFF, tags), except a zero-width joiner or non-joiner between two visible characters (emoji
sequences, Persian and Indic spelling need them); characters that draw nothing although they
are letters or symbols (Hangul fillers, the blank braille pattern, the combining grapheme
joiner); and a variation selector that follows no visible character. Control characters
(category Cc) and line breaks are not refused: the caller makes them spaces.
"""

from __future__ import annotations

import unicodedata

#: the characters that change the direction text is laid out in
DIRECTION_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: joiners that change how the characters either side are drawn, allowed between two visible ones
JOINERS = frozenset("\u200c\u200d")
#: letters and symbols that draw nothing: Hangul fillers, the blank braille pattern, the
#: combining grapheme joiner, the Khmer inherent vowels, the Mongolian free variation selectors
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5\u180b\u180c\u180d\u180f")
#: the replacement character: what a byte sequence that is not UTF-8 is read as
REPLACEMENT = "\ufffd"


def is_variation_selector(char: str) -> bool:
    """True for a variation selector (U+FE00–FE0F, U+E0100–E01EF), which only changes the look
    of the character before it."""
    return "\ufe00" <= char <= "\ufe0f" or "\U000e0100" <= char <= "\U000e01ef"


def seen(char: str) -> bool:
    """True when ``char`` draws something: not a space, a control, a format character, a
    blank of :data:`BLANKS` or a variation selector."""
    return (unicodedata.category(char)[0] not in "CZ" and char not in BLANKS
            and not is_variation_selector(char))


def described(char: str) -> str:
    """``ZERO WIDTH SPACE (U+200B)``: a character named for a reason in words."""
    try:
        name = unicodedata.name(char)
    except ValueError:  # a surrogate, a control: no name in the database
        name = "a surrogate half" if unicodedata.category(char) == "Cs" else "a control character"
    return f"{name} (U+{ord(char):04X})"


def unseen_refusal(text: str, what: str) -> str | None:
    """Why ``text`` (called ``what`` in the reason: "A name", "A chat line") may not be taken,
    in words, or ``None`` when every character of it is seen or a space (see the module)."""
    for i, char in enumerate(text):
        kind = unicodedata.category(char)
        if kind == "Cs":
            return (f"{what} holds {described(char)}, half of a character without its other half: "
                    "it is not text. Type it again.")
        if char == REPLACEMENT:
            return (f"{what} holds {described(char)}, what a damaged character arrives as. Type it again.")
        if char in DIRECTION_CONTROLS:
            return (f"{what} may not hold direction controls such as {described(char)}: "
                    "they change how the rest of the text reads.")
        if char in JOINERS:
            # after a visible character (or its variation selector: the flag 🏳️‍🌈), before another
            if 0 < i < len(text) - 1 and (seen(text[i - 1]) or is_variation_selector(text[i - 1])) and seen(text[i + 1]):
                continue
            return f"{what} may hold {described(char)} only between two visible characters."
        if kind == "Cf" or char in BLANKS:
            return f"{what} may not hold invisible characters such as {described(char)}."
        if is_variation_selector(char) and not (i > 0 and seen(text[i - 1])):
            return f"{what} may hold {described(char)} only right after the character it changes."
    return None
