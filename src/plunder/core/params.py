"""Parameters of games and options of agents: each has a name, a canonical text default, a parser
and a help line, and :func:`resolve` checks them all the same way."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from .errors import ParameterError
from .files import MAX_FILE_BYTES, read_text_file

#: longest parameter text accepted (a board carried inline in a record included)
MAX_PARAM_CHARS = 2 * MAX_FILE_BYTES


@dataclass(frozen=True)
class Param:
    """One game parameter.

    ``default`` is canonical text; ``parse`` turns text into the value the rules use
    and raises ``ValueError`` saying what is wrong; ``choices`` lists the allowed texts
    where the set is closed (or the allowed forms, for help output).

    ``canonical`` gives the one canonical text of a parsed value (what records store);
    without it, whole numbers, booleans and choices are written back by :func:`to_text`
    and any other text is kept as given, its surrounding blanks removed (a parameter whose
    values have several spellings needs ``canonical``).

    ``inline`` makes the parameter accept ``file:PATH``: :func:`resolve` reads the file
    once, within :data:`plunder.core.files.MAX_FILE_BYTES`, and ``inline(content)`` turns
    its content into the parameter's own inline text, which is what the game parses and
    what records store, so a record replays after the file is gone.

    ``label`` is the parameter's name in words for a form ("Sheet width" for ``width``);
    without it, :attr:`words` makes one from the name.
    """

    name: str
    default: str
    parse: Callable[[str], Any]
    help: str
    choices: Sequence[str] = ()
    canonical: Callable[[Any], str] | None = None
    inline: Callable[[str], str] | None = None
    label: str = ""

    @property
    def words(self) -> str:
        """The parameter's name for people: its :attr:`label`, else its name spelt out
        (``max_rounds``: "Max rounds")."""
        return self.label or self.name.replace("_", " ").capitalize()


def to_text(value: Any) -> str:
    """Canonical text of a parameter value given as a Python value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def parse_int(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """A parser for whole numbers in ``[low, high]`` (either end open when ``None``)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"{text!r} is not a whole number") from None
        if low is not None and value < low:
            raise ValueError(f"{value} is below the minimum {low}")
        if high is not None and value > high:
            raise ValueError(f"{value} is above the maximum {high}")
        return value

    return parse


def parse_real(low: float | None = None, high: float | None = None, above: bool = False) -> Callable[[str], float]:
    """A parser for finite real numbers in ``[low, high]`` (``(low, high]`` when ``above``)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise ValueError(f"{text!r} is not a number") from None
        if not math.isfinite(value):
            raise ValueError(f"{text!r} is not a finite number")
        if low is not None and (value <= low if above else value < low):
            raise ValueError(f"{text} must be {'above' if above else 'at least'} {low:g}")
        if high is not None and value > high:
            raise ValueError(f"{text} is above the maximum {high:g}")
        return value

    return parse


def parse_or(word: str, parse: Callable[[str], Any]) -> Callable[[str], Any]:
    """A parser that reads ``word`` (``auto``, ``none`` ...) as ``None`` and any other text with ``parse``."""

    def parse_or_word(text: str) -> Any:
        return None if text.strip().lower() == word else parse(text)

    return parse_or_word


def parse_bool(text: str) -> bool:
    """``true``/``false`` (also yes/no, on/off, 1/0)."""
    lowered = text.strip().lower()
    if lowered in ("true", "yes", "on", "1"):
        return True
    if lowered in ("false", "no", "off", "0"):
        return False
    raise ValueError(f"{text!r} is not true or false")


def parse_choice(choices: Sequence[str]) -> Callable[[str], str]:
    """A parser that accepts exactly one of ``choices``."""

    def parse(text: str) -> str:
        if text not in choices:
            raise ValueError(f"{text!r} is not one of {', '.join(choices)}")
        return text

    return parse


def resolve(owner: str, specs: Sequence[Param], given: Mapping[str, Any],
            noun: str = "parameter") -> tuple[dict[str, Any], dict[str, str]]:
    """Check ``given`` against ``specs``; return (parsed values, canonical texts).

    ``owner`` names whose they are in errors (a game id, or ``agent mcts``) and ``noun`` what
    they are called (``parameter`` for games, ``option`` for agents). Unknown names and bad
    values raise :class:`ParameterError` naming the offender and what is allowed.
    """
    known = {p.name: p for p in specs}
    for name in given:
        if name not in known:
            allowed = ", ".join(sorted(known)) or "none"
            raise ParameterError(f"{owner} has no {noun} {name!r}; its {noun}s are: {allowed}")
    values: dict[str, Any] = {}
    texts: dict[str, str] = {}
    for spec in specs:
        # blanks around a value never matter: " 200 " is 200, stored as "200"
        text = (to_text(given[spec.name]) if spec.name in given else spec.default).strip()
        if len(text) > MAX_PARAM_CHARS:
            raise ParameterError(
                f"{owner} {noun} {spec.name} has {len(text)} characters; the limit is {MAX_PARAM_CHARS}"
            )
        typed = text  # errors quote what was given (file:PATH), not the file's content
        try:
            if spec.inline is not None and text.startswith("file:"):
                text = spec.inline(read_text_file(text[len("file:") :], f"{spec.name} file"))
            values[spec.name] = value = spec.parse(text)
        except ValueError as exc:
            shown = typed if len(typed) <= 80 else typed[:77] + "..."
            allowed = f"; allowed: {', '.join(spec.choices)}" if spec.choices else ""
            raise ParameterError(f"{owner} {noun} {spec.name}={shown!r} is not allowed: {exc}{allowed}") from None
        texts[spec.name] = _canonical(spec, value, text)
    return values, texts


def _canonical(spec: Param, value: Any, text: str) -> str:
    """The canonical text of a parsed parameter value."""
    if spec.canonical is not None:
        return spec.canonical(value)
    if isinstance(value, (bool, int, str)):
        return to_text(value)
    return text
