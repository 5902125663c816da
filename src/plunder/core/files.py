"""Reading untrusted files and JSON within documented limits (see ``docs/limits.md``).

Every board or layout file, and every record, comes through here: a file must be a
regular file no larger than its limit (so ``/dev/zero`` or a pipe is refused before any
read), text must be UTF-8, and JSON must be no deeper than :data:`MAX_JSON_DEPTH`, hold
no number longer than :data:`MAX_NUMBER_DIGITS` digits and no ``NaN``/``Infinity``.
Each refusal is a ``ValueError`` that names the limit and the value found.
"""

from __future__ import annotations

import json
import math
import os
import stat
from typing import Any

#: largest board or layout file, in bytes
MAX_FILE_BYTES = 1_000_000
#: deepest nesting of arrays and objects in any JSON Plunder reads
MAX_JSON_DEPTH = 32
#: longest number (digits) in any JSON Plunder reads
MAX_NUMBER_DIGITS = 30


def read_text_file(path: str, what: str, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of the regular file at ``path``, refused past ``max_bytes``."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise ValueError(f"cannot open {what} {path!r}: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"{what} {path!r} is not a regular file")
        if info.st_size > max_bytes:
            raise ValueError(f"{what} {path!r} has {info.st_size} bytes; the limit is {max_bytes}")
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(max_bytes + 1)
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        raise ValueError(f"{what} {path!r} has more than {max_bytes} bytes; the limit is {max_bytes}")
    return decode_utf8(data, what)


def decode_utf8(data: bytes, what: str) -> str:
    """``data`` as UTF-8 text, or a ValueError that says where it is not."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{what} is not UTF-8 text (byte {exc.start} is {data[exc.start]:#04x})") from None


def _number(text: str) -> Any:
    digits = sum(c.isdigit() for c in text)
    if digits > MAX_NUMBER_DIGITS:
        raise ValueError(f"a number of {digits} digits; the limit is {MAX_NUMBER_DIGITS}")
    if not any(c in text for c in ".eE"):
        return int(text)
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text} is out of range")
    return value


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number Plunder accepts")


def load_json(text: str, what: str, max_bytes: int = MAX_FILE_BYTES, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse ``text`` as JSON within the limits; a ValueError names ``what`` and the limit broken."""
    if len(text) > max_bytes:
        raise ValueError(f"{what} has {len(text)} characters; the limit is {max_bytes}")
    depth = json_depth(text)
    if depth > max_depth:
        raise ValueError(f"{what} nests {depth} levels deep; the limit is {max_depth}")
    try:
        return json.loads(text, parse_int=_number, parse_float=_number, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{what} is not valid JSON: {exc}") from None
    except ValueError as exc:
        raise ValueError(f"{what}: {exc}") from None
    except RecursionError:  # unreachable after the depth check; kept so no input can escape as a crash
        raise ValueError(f"{what} nests too deep; the limit is {max_depth}") from None


def json_depth(text: str) -> int:
    """The deepest bracket nesting of JSON ``text``, skipping strings (a linear scan, before any
    recursive parser sees the text)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif ch in "]}":
            depth -= 1
    return deepest


def canonical_json(value: Any) -> str:
    """One compact, key-sorted JSON text for ``value`` (how file contents travel in parameters)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
